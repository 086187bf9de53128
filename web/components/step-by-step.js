// <step-by-step>: claim 4 and the formula, one number at a time. For the selected query row
// and a chosen key: q, k, q∘k, Σ, ÷√d_k, then the whole row: subtract the max, ÷T, exp, ÷Σ —
// each step's numbers from the core (engine.stepByStep), each formula typeset by KaTeX.
// Inputs: the current setting — engine, q, k, dk, queryLabels, keyLabels, scaled,
// temperature, causal, projection, selectedRow (standalone: head 0 of tokens/vectors at dk,
// seed) — and selectedKey.
import { LessonElement, fixed3, fmt, html } from './lesson-base.js';
import { katexStyles, tex } from './tex.js';

const SHOWN_COMPONENTS = 6; // of q, k and q∘k; the rest are summarised

export class StepByStep extends LessonElement {
  static inputs = ['selectedKey'];
  static current = true;

  constructor() {
    super();
    this.shadowRoot.prepend(katexStyles());
  }

  get css() {
    return `.formulas { display: flex; flex-wrap: wrap; gap: .2em 2.5em; margin: .4em 0 .8em; overflow-x: auto; }
      .keys { display: flex; flex-wrap: wrap; gap: .3em; margin: .3em 0 .8em; align-items: center; }
      .keys button { font: inherit; font-size: 13px; padding: .15em .6em; border-radius: 999px; border: 1px solid var(--grid);
        background: var(--bg); color: var(--fg); cursor: pointer; }
      .keys button[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: var(--bg); }
      ol { padding-left: 1.4em; margin: 0; }
      li { margin: .45em 0; }
      .step { display: flex; flex-wrap: wrap; gap: .2em .8em; align-items: baseline; }
      .vec { font-variant-numeric: tabular-nums; font-family: ui-monospace, monospace; font-size: 12.5px; overflow-wrap: anywhere; }
      .sel { background: color-mix(in oklab, var(--accent) 14%, transparent); }
      .ok { color: var(--muted); }`;
  }

  draw(root) {
    const { engine, scaled } = this;
    const { row } = this;
    const { q, k, m, d, queryLabels, keyLabels } = this.current();
    const { temperature, causal } = this.attentionOptions();
    const key = Math.min(this.selectedKey ?? row, m - 1);
    const qRow = q.slice(row * d, (row + 1) * d);
    const kRow = k.slice(key * d, (key + 1) * d);
    // the lab's causal mask: query row i sees keys j ≤ i
    const visible = causal ? row + 1 : m;
    const s = engine.stepByStep({ q: qRow, k, m, d, key, scaled, temperature, visible });
    const tokens = keyLabels;
    const dk = d;

    root.append(
      html('div', { class: 'formulas' }, [
        tex(String.raw`\operatorname{Attention}(Q,K,V)=\operatorname{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}}\right)V`, { display: true }),
        tex(String.raw`\operatorname{softmax}(z_i)=\frac{e^{z_i}}{\sum_j e^{z_j}}`, { display: true }),
      ]),
    );
    root.append(
      html('p', {
        class: 'explain',
        text: `Follow the query "${queryLabels[row]}" through one row of attention — the row the lab shows as bars. Pick the key whose dot product to show:`,
      }),
    );
    const keys = html('div', { class: 'keys', role: 'group', 'aria-label': 'key' });
    tokens.forEach((word, j) => {
      const button = html('button', { type: 'button', 'aria-pressed': String(j === key), text: word });
      button.addEventListener('click', () => {
        this.selectedKey = j;
      });
      keys.append(button);
    });
    root.append(keys);

    const steps = html('ol');
    const vec = (v) => {
      const shown = Array.from(v.slice(0, SHOWN_COMPONENTS), (x) => fmt(x, 3)).join(', ');
      return html('span', { class: 'vec', text: `[${shown}${v.length > SHOWN_COMPONENTS ? `, … ${v.length - SHOWN_COMPONENTS} more` : ''}]` });
    };
    const step = (formula, ...rest) => steps.append(html('li', {}, html('div', { class: 'step' }, [tex(formula), ...rest])));
    const [qOf, kOf] = this.#sources(queryLabels[row], keyLabels[key]);
    step(qOf, vec(qRow), html('span', { class: 'note', text: `(${dk} numbers)` }));
    step(kOf, vec(kRow));
    step(String.raw`q\circ k`, vec(s.product), html('span', { class: 'note', text: 'multiply component by component' }));
    step(String.raw`q\cdot k=\textstyle\sum_c q_c k_c`, html('b', { class: 'vec', text: fmt(s.dot, 5) }));
    step(
      scaled ? String.raw`z=\frac{q\cdot k}{\sqrt{d_k}}=\frac{q\cdot k}{${fmt(Math.sqrt(dk), 4)}}` : String.raw`z=q\cdot k`,
      html('b', { class: 'vec', text: fmt(s.scores[key], 5) }),
      html('span', { class: 'note', text: scaled ? `(scale ${fmt(s.scale, 4)})` : '(unscaled: no division)' }),
    );
    root.append(steps);

    root.append(html('p', { class: 'explain', text: `The same for every key gives the row of scores z; softmax then turns it into weights:` }));
    const table = html('table');
    const head = html('tr', {}, [html('th', { scope: 'col', text: '' })]);
    tokens.forEach((w, j) => head.append(html('th', { scope: 'col', class: j === key ? 'sel' : null, text: w })));
    table.append(html('thead', {}, head));
    const body = html('tbody');
    const addRow = (formula, values, note) => {
      const tr = html('tr', {}, [html('th', { scope: 'row' }, [tex(formula)])]);
      values.forEach((v, j) => tr.append(html('td', { class: j === key ? 'sel' : null, text: fmt(v, 4) })));
      if (note) tr.append(html('td', { class: 'ok', text: note }));
      body.append(tr);
    };
    const T = temperature === 1 ? '' : String.raw`/T`;
    const shift = T ? String.raw`(z_j-\max_j z_j)/T` : String.raw`z_j-\max_j z_j`;
    addRow(String.raw`z_j`, s.scores, `max = ${fmt(s.rowMax, 4)}${visible < m ? '; −∞: masked (causal)' : ''}`);
    addRow(shift, s.shifted, T ? `all ≤ 0; T = ${fmt(temperature, 3)}` : 'all ≤ 0');
    addRow(String.raw`e^{(z_j-\max)${T}}`, s.exps, `Σ = ${fmt(s.sum, 5)}`);
    addRow(String.raw`p_j=e^{(z_j-\max)${T}}/\Sigma`, s.weights, `Σ = ${fmt(s.weightSum, 7)}`);
    table.append(body);
    root.append(html('div', { class: 'scroll' }, table));
    root.append(
      html('p', { class: 'stats row-stats' }, [
        `Row "${queryLabels[row]}": max weight `, html('b', { 'data-k': 'max', text: fixed3(s.maxWeight) }),
        ', entropy ', html('b', { 'data-k': 'entropy', text: fixed3(s.entropy) }), ' nats — the lab’s bars show the same.',
      ]),
    );
    const positive = s.weights.slice(0, visible).every((p) => p > 0);
    root.append(
      html('p', {
        class: 'note',
        text:
          `Subtracting the max changes nothing in the result (it cancels between top and bottom) but keeps every exp at most 1, ` +
          `so nothing overflows. Every weight is ${positive ? 'positive' : 'at least 0 (some underflow to 0 in float32)'} and the ` +
          `weights add up to ${fmt(s.weightSum, 7)}: the row is a probability distribution over the words.`,
      }),
    );
  }

  // What q and k are, as formulas: the lab's Identity (the word vectors themselves), pasted rows,
  // or the projections of the layer-normalised word vectors (Random, and standalone).
  #sources(queryWord, keyWord) {
    if (this.projection === 'identity')
      return [String.raw`q=x_{\text{${esc(queryWord)}}}`, String.raw`k=x_{\text{${esc(keyWord)}}}`];
    if (this.projection === 'pasted') return [String.raw`q=Q_{\text{${esc(queryWord)}}}`, String.raw`k=K_{\text{${esc(keyWord)}}}`];
    return [String.raw`q=\hat x_{\text{${esc(queryWord)}}}\,W_Q`, String.raw`k=\hat x_{\text{${esc(keyWord)}}}\,W_K`];
  }
}

// Words are shown inside \text{…}: escape TeX's special characters.
function esc(word) {
  return word.replace(/[\\^~]/g, '').replace(/[{}$&#_%]/g, (c) => `\\${c}`);
}

StepByStep.define('step-by-step');
