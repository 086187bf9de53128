// Claim 4 and the formula, one number at a time: for the lab's selected query row and a chosen
// key, q, k, q∘k, Σ, ÷√d_k, then the whole row: subtract the max, ÷T, exp, ÷Σ. Draws
// results.step of web/lesson/model.js. Formulas are TeX (typeset by the page's renderer); the
// learner's words never enter TeX: a formula names a row or key by its index, and the word is
// shown beside it as plain text.
import { english, withNodes } from '../i18n/i18n.js';
import { shortLabel } from '../i18n/format.js';
import { scrollBox } from './chart.js';
import { h, tex } from './h.js';

// of q, k and q∘k; the rest are summarised. On a phone, 3: each vector on one line
const SHOWN_COMPONENTS = 6;
const NARROW_COMPONENTS = 3;
const NARROW = 420;

/** (results of model.step, settings { projection, strings }, theme, { width }) → view nodes. */
export function stepView(r, { projection, strings = english() }, theme, { width = Infinity } = {}) {
  const { trace: s, row, key, m, d, queryLabels, keyLabels, scaled, temperature, visible } = r;
  const str = strings;
  const fmt = str.fmt;
  const shown = width < NARROW ? NARROW_COMPONENTS : SHOWN_COMPONENTS;
  const [qOf, kOf] = sources(projection, row + 1, key + 1);
  const T = temperature === 1 ? '' : String.raw`/T`;
  const stepItem = (formula, ...rest) => h('li', {}, h('div', { class: 'step' }, [tex(formula), ...rest]));
  // a row's header: the formula, and in words for a screen reader (MathML is not read everywhere)
  const tableRow = (formula, words, values, note) =>
    h('tr', {}, [
      h('th', { scope: 'row' }, [h('span', { 'aria-hidden': 'true' }, tex(formula)), h('span', { class: 'visually-hidden' }, words)]),
      Array.from(values, (v, j) => h('td', { class: j === key ? 'sel' : null }, fmt(v, 4))),
      note ? h('td', { class: 'ok' }, note) : null,
    ]);
  return h('div', { class: 'view' }, [
    h('div', { class: 'formulas', role: 'group', 'aria-label': str.t('step.formulas') }, [
      // inline TeX in display style: on a narrow screen a formula breaks after its "=" rather than overflow
      h('div', { class: 'formula' }, tex(String.raw`\displaystyle\operatorname{Attention}(Q,K,V)=\operatorname{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}}\right)V`)),
      h('div', { class: 'formula' }, tex(String.raw`\displaystyle\operatorname{softmax}(z)_i=\frac{e^{z_i}}{\sum_j e^{z_j}}`)),
    ]),
    h('p', { class: 'explain' }, str.t('step.explain', { word: shortLabel(queryLabels[row]) })),
    h(
      'div',
      { class: 'keys', role: 'group', 'aria-label': str.t('step.keys') },
      keyLabels.map((word, j) =>
        h('button', { type: 'button', 'data-key': j, 'aria-pressed': String(j === key), title: shortLabel(word) === word ? null : str.tipLabel(word) }, shortLabel(word)),
      ),
    ),
    h('ol', {}, [
      stepItem(qOf, word(queryLabels[row], str), vector(r.q, str, shown), h('span', { class: 'note' }, str.t('step.numbers', { count: d }))),
      stepItem(kOf, word(keyLabels[key], str), vector(r.k, str, shown)),
      stepItem(String.raw`q\circ k`, vector(s.product, str, shown), h('span', { class: 'note' }, str.t('step.multiply'))),
      stepItem(String.raw`q\cdot k=\textstyle\sum_c q_c k_c`, h('b', { class: 'vec' }, fmt(s.dot, 5))),
      stepItem(
        // the formula's numbers keep the decimal point in every language: TeX is the same everywhere
        scaled ? String.raw`z=\frac{q\cdot k}{\sqrt{d_k}}=\frac{q\cdot k}{${english().fmt(s.sqrtD, 4)}}` : String.raw`z=q\cdot k`,
        h('b', { class: 'vec' }, fmt(s.scores[key], 5)),
        h('span', { class: 'note' }, scaled ? str.t('step.scale', { value: fmt(s.scale, 4) }) : str.t('step.unscaled')),
      ),
    ]),
    h('p', { class: 'explain' }, str.t('step.row')),
    scrollBox(
      str.t('step.tableLabel', { word: shortLabel(queryLabels[row]) }),
      h('table', {}, [
        h('thead', {}, h('tr', {}, [
          h('th', { scope: 'col' }, str.t('step.corner')),
          keyLabels.map((w, j) => h('th', { scope: 'col', class: j === key ? 'sel' : null }, shortLabel(w))),
        ])),
        h('tbody', {}, [
          tableRow(String.raw`z_j`, str.t('step.scores'), s.scores,
            str.t(visible < m ? 'step.maxMasked' : 'step.max', { value: fmt(s.rowMax, 4) })),
          tableRow(T ? String.raw`(z_j-\max_j z_j)/T` : String.raw`z_j-\max_j z_j`, str.t(T ? 'step.shiftedT' : 'step.shifted'), s.shifted,
            T ? str.t('step.allBelowT', { t: fmt(temperature, 3) }) : str.t('step.allBelow')),
          tableRow(String.raw`e^{(z_j-\max)${T}}`, str.t('step.exps'), s.exps, `Σ = ${fmt(s.sum, 5)}`),
          tableRow(String.raw`p_j=e^{(z_j-\max)${T}}/\Sigma`, str.t('step.weights'), s.weights, `Σ = ${fmt(s.weightSum, 7)}`),
        ]),
      ]),
    ),
    h('p', { class: 'stats row-stats' }, withNodes(str.t('step.stats'), {
      word: shortLabel(queryLabels[row]),
      max: h('b', { 'data-k': 'max' }, str.fixed(s.maxWeight)),
      entropy: h('b', { 'data-k': 'entropy' }, str.fixed(s.entropy)),
    })),
    h('p', { class: 'note' }, str.t(s.minWeight > 0 ? 'step.notePositive' : 'step.noteUnderflow', { sum: fmt(s.weightSum, 7) })),
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
function word(text, strings) {
  return h('span', { class: 'word' }, strings.t('format.quoted', { text: shortLabel(text) }));
}

// The components are separated by "; " where the decimal sign is a comma ([0,12; −0,5]).
function vector(v, strings, count) {
  const separator = strings.fixed(0.5, 1).includes(',') ? '; ' : ', ';
  const shown = Array.from(v.slice(0, count), (x) => strings.fmt(x, 3)).join(separator);
  const more = v.length > count ? `${separator}${strings.t('step.more', { count: v.length - count })}` : '';
  return h('span', { class: 'vec' }, `[${shown}${more}]`);
}
