// Claim 4 and the formula, one number at a time: for the lab's selected query row and a chosen
// key, q, k, q∘k, Σ, ÷√d_k, then the whole row: subtract the max, ÷T, exp, ÷Σ. Draws
// results.step of web/lesson/model.js. Formulas are TeX (typeset by the page's renderer); the
// learner's words never enter TeX: a formula names a row or key by its index, and the word is
// shown beside it as plain text.
import { fixed, fmt, shortLabel, tipLabel } from './format.js';
import { h, tex } from './h.js';

const SHOWN_COMPONENTS = 6; // of q, k and q∘k; the rest are summarised

/** (results of model.step, settings { projection }, theme, { width }) → view nodes. */
export function stepView(r, { projection }) {
  const { trace: s, row, key, m, d, queryLabels, keyLabels, scaled, temperature, visible } = r;
  const [qOf, kOf] = sources(projection, row + 1, key + 1);
  const T = temperature === 1 ? '' : String.raw`/T`;
  const stepItem = (formula, ...rest) => h('li', {}, h('div', { class: 'step' }, [tex(formula), ...rest]));
  const tableRow = (formula, values, note) =>
    h('tr', {}, [
      h('th', { scope: 'row' }, tex(formula)),
      Array.from(values, (v, j) => h('td', { class: j === key ? 'sel' : null }, fmt(v, 4))),
      note ? h('td', { class: 'ok' }, note) : null,
    ]);
  return h('div', { class: 'view' }, [
    h('div', { class: 'formulas' }, [
      tex(String.raw`\operatorname{Attention}(Q,K,V)=\operatorname{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}}\right)V`, { display: true }),
      tex(String.raw`\operatorname{softmax}(z_i)=\frac{e^{z_i}}{\sum_j e^{z_j}}`, { display: true }),
    ]),
    h(
      'p',
      { class: 'explain' },
      `Follow the query "${shortLabel(queryLabels[row])}" through one row of attention — the row the lab shows as bars. Pick the key whose dot product to show:`,
    ),
    h(
      'div',
      { class: 'keys', role: 'group', 'aria-label': 'key' },
      keyLabels.map((word, j) =>
        h('button', { type: 'button', 'data-key': j, 'aria-pressed': String(j === key), title: shortLabel(word) === word ? null : tipLabel(word) }, shortLabel(word)),
      ),
    ),
    h('ol', {}, [
      stepItem(qOf, word(queryLabels[row]), vector(r.q), h('span', { class: 'note' }, `(${d} numbers)`)),
      stepItem(kOf, word(keyLabels[key]), vector(r.k)),
      stepItem(String.raw`q\circ k`, vector(s.product), h('span', { class: 'note' }, 'multiply component by component')),
      stepItem(String.raw`q\cdot k=\textstyle\sum_c q_c k_c`, h('b', { class: 'vec' }, fmt(s.dot, 5))),
      stepItem(
        scaled ? String.raw`z=\frac{q\cdot k}{\sqrt{d_k}}=\frac{q\cdot k}{${fmt(s.sqrtD, 4)}}` : String.raw`z=q\cdot k`,
        h('b', { class: 'vec' }, fmt(s.scores[key], 5)),
        h('span', { class: 'note' }, scaled ? `(scale ${fmt(s.scale, 4)})` : '(unscaled: no division)'),
      ),
    ]),
    h('p', { class: 'explain' }, 'The same for every key gives the row of scores z; softmax then turns it into weights:'),
    h(
      'div',
      { class: 'scroll' },
      h('table', {}, [
        h('thead', {}, h('tr', {}, [h('th', { scope: 'col' }, ''), keyLabels.map((w, j) => h('th', { scope: 'col', class: j === key ? 'sel' : null }, shortLabel(w)))])),
        h('tbody', {}, [
          tableRow(String.raw`z_j`, s.scores, `max = ${fmt(s.rowMax, 4)}${visible < m ? '; −∞: masked (causal)' : ''}`),
          tableRow(T ? String.raw`(z_j-\max_j z_j)/T` : String.raw`z_j-\max_j z_j`, s.shifted, T ? `all ≤ 0; T = ${fmt(temperature, 3)}` : 'all ≤ 0'),
          tableRow(String.raw`e^{(z_j-\max)${T}}`, s.exps, `Σ = ${fmt(s.sum, 5)}`),
          tableRow(String.raw`p_j=e^{(z_j-\max)${T}}/\Sigma`, s.weights, `Σ = ${fmt(s.weightSum, 7)}`),
        ]),
      ]),
    ),
    h('p', { class: 'stats row-stats' }, [
      `Row "${shortLabel(queryLabels[row])}": max weight `,
      h('b', { 'data-k': 'max' }, fixed(s.maxWeight)),
      ', entropy ',
      h('b', { 'data-k': 'entropy' }, fixed(s.entropy)),
      ' nats — the lab’s bars show the same.',
    ]),
    h(
      'p',
      { class: 'note' },
      `Subtracting the max changes nothing in the result (it cancels between top and bottom) but keeps every exp at most 1, ` +
        `so nothing overflows. Every weight is ${s.minWeight > 0 ? 'positive' : 'at least 0 (some underflow to 0 in float32)'} and the ` +
        `weights add up to ${fmt(s.weightSum, 7)}: the row is a probability distribution over the words.`,
    ),
  ]);
}

// What q and k are, as formulas indexed by position: the lab's Identity (the word vectors
// themselves), pasted rows, or the projections of the layer-normalised word vectors (Random).
function sources(projection, i, j) {
  if (projection === 'identity') return [String.raw`q=x_{${i}}`, String.raw`k=x_{${j}}`];
  if (projection === 'pasted') return [String.raw`q=Q_{${i}}`, String.raw`k=K_{${j}}`];
  return [String.raw`q=\hat x_{${i}}\,W_Q`, String.raw`k=\hat x_{${j}}\,W_K`];
}

/** The word a formula's index stands for, as plain text. */
function word(text) {
  return h('span', { class: 'word' }, `“${shortLabel(text)}”`);
}

function vector(v) {
  const shown = Array.from(v.slice(0, SHOWN_COMPONENTS), (x) => fmt(x, 3)).join(', ');
  return h('span', { class: 'vec' }, `[${shown}${v.length > SHOWN_COMPONENTS ? `, … ${v.length - SHOWN_COMPONENTS} more` : ''}]`);
}
