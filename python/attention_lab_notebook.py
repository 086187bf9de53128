"""Any model's attention in a notebook, without JavaScript: one head as an inline SVG heatmap and
a table of its weights, in BertViz's shape ({"tokens": [...], "attention": [layer][1][head][n][n]}).

    from attention_lab_notebook import from_torch, AttentionHTML
    data = from_torch(model(**inputs).attentions, tokens)   # the README's export, as a dict
    AttentionHTML(data, layer=1, head=1)                    # a notebook displays its _repr_html_

Needs only Python's standard library (torch only for from_torch's tensors). The HTML has no
script and loads nothing: every number is in the page, rounded to DECIMALS decimals.
Layers and heads count from 1, as in the rest of Attention Lab.
"""
import html

DECIMALS = 3


def from_torch(attentions, tokens):
    """Per layer a (1, heads, n, n) tensor (a model's `attentions`), and the n tokens -> BertViz's dict."""
    return {"tokens": list(tokens), "attention": [a.detach().cpu().tolist() for a in attentions]}


def _head(attention, layer, head):
    heads = attention[layer - 1]
    if len(heads) == 1 and isinstance(heads[0][0][0], list):  # the batch of one
        heads = heads[0]
    return heads[head - 1]


def attention_html(attention, tokens, layer=1, head=1, decimals=DECIMALS):
    """Self-contained HTML of one head: an SVG heatmap (row = query, column = key) and its table."""
    if not 1 <= layer <= len(attention):
        raise ValueError(f"layer must be from 1 to {len(attention)}, got {layer}")
    heads = attention[layer - 1]
    count = len(heads[0]) if len(heads) == 1 and isinstance(heads[0][0][0], list) else len(heads)
    if not 1 <= head <= count:
        raise ValueError(f"head must be from 1 to {count}, got {head}")
    rows = _head(attention, layer, head)
    n = len(tokens)
    if len(rows) != n or any(len(row) != n for row in rows):
        raise ValueError(f"{n} tokens but the head's rows are not {n} x {n}")
    esc = html.escape
    cell, left, top = 28, 90, 90
    size_w, size_h = left + n * cell, top + n * cell
    parts = [f'<figure class="attention-lab-head"><figcaption>Layer {layer}, head {head}: '
             f'attention weights, row = query, column = key (rounded to {decimals} decimals)</figcaption>',
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_w}" height="{size_h}" role="img" '
             f'aria-label="Heatmap of layer {layer}, head {head}">']
    for j, token in enumerate(tokens):
        x = left + j * cell + cell / 2
        parts.append(f'<text x="{x}" y="{top - 6}" transform="rotate(-60 {x} {top - 6})" font-size="11">{esc(token)}</text>')
    for i, token in enumerate(tokens):
        parts.append(f'<text x="{left - 6}" y="{top + i * cell + cell * 0.65}" text-anchor="end" font-size="11">{esc(token)}</text>')
        for j, w in enumerate(rows[i]):
            shade = max(0.0, min(1.0, float(w)))
            parts.append(f'<rect x="{left + j * cell}" y="{top + i * cell}" width="{cell}" height="{cell}" '
                         f'fill="rgb(37,99,235)" fill-opacity="{shade:.3f}" stroke="#ccc" stroke-width="0.5">'
                         f'<title>{esc(token)} -> {esc(tokens[j])}: {w:.{decimals}f}</title></rect>')
    parts.append('</svg>')
    parts.append('<table class="attention-lab-weights"><thead><tr><th scope="col">query \\ key</th>')
    parts += [f'<th scope="col">{esc(t)}</th>' for t in tokens]
    parts.append('</tr></thead><tbody>')
    for i, token in enumerate(tokens):
        parts.append(f'<tr><th scope="row">{esc(token)}</th>')
        parts += [f'<td>{w:.{decimals}f}</td>' for w in rows[i]]
        parts.append('</tr>')
    parts.append('</tbody></table></figure>')
    return "".join(parts)


class AttentionHTML:
    """One head of BertViz-shaped attention, shown by a notebook through _repr_html_ (no JavaScript)."""

    def __init__(self, data, layer=1, head=1, decimals=DECIMALS):
        self.data, self.layer, self.head, self.decimals = data, layer, head, decimals

    def _repr_html_(self):
        return attention_html(self.data["attention"], self.data["tokens"], self.layer, self.head, self.decimals)
