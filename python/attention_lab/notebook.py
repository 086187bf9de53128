"""Any model's attention in a notebook, without JavaScript: one head as an inline SVG heatmap and
a table of its weights, in BertViz's shape ({"tokens": [...], "attention": [layer][1][head][n][n]}).

    from attention_lab import from_torch, AttentionHTML
    data = from_torch(model(**inputs).attentions, tokens)   # BertViz's dict
    AttentionHTML(data, layer=1, head=1)                    # a notebook displays its _repr_html_

Needs only Python's standard library (torch only for from_torch's tensors). The data is checked
first, as the JavaScript side checks it (attention_lab.checks). The HTML has no script and loads
nothing: every number is in the page, rounded to DECIMALS decimals. Layers and heads count from 1,
as in the rest of Attention Lab.
"""
import html

from .checks import AttentionLabError, AttentionLabTypeError, describe, read_attention

DECIMALS = 3


def from_torch(attentions, tokens):
    """Per layer a (1, heads, n, n) tensor (a model's `attentions`), and the n tokens -> BertViz's dict."""
    return {"tokens": list(tokens), "attention": [a.detach().cpu().tolist() for a in attentions]}


def _whole(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise AttentionLabTypeError(f"{name} must be a whole number from {low} to {high}, got {describe(value)}")
    if not low <= value <= high:
        raise AttentionLabError(f"{name} must be from {low} to {high}, got {value}")
    return value


def attention_html(attention, tokens, layer=1, head=1, decimals=DECIMALS):
    """Self-contained HTML of one head: an SVG heatmap (row = query, column = key) and its table.
    Raises AttentionLabError (a ValueError; TypeError for a value of the wrong kind) with `code`
    for data the JavaScript side would refuse, in its words."""
    tokens, layers = read_attention(attention, tokens)
    _whole("layer", layer, 1, len(layers))
    _whole("head", head, 1, len(layers[0]))
    _whole("decimals", decimals, 0, 9)
    rows = layers[layer - 1][head - 1]
    n = len(tokens)
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
    """One head of BertViz-shaped attention, shown by a notebook through _repr_html_ (no JavaScript).
    `data` is BertViz's dict (from_torch's), checked here: a notebook would hide an error raised
    while it displays."""

    def __init__(self, data, layer=1, head=1, decimals=DECIMALS):
        self.html = attention_html(data, None, layer, head, decimals)
        self.data, self.layer, self.head, self.decimals = data, layer, head, decimals

    def _repr_html_(self):
        return self.html
