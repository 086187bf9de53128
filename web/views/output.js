// The output of attention for the lab's selected query: its weights p mix the value rows,
// o = Σ_j p_j v_j. The keys are listed by weight (largest first, the rest summed into one line),
// each with its value vector's first components, and under them the output row — the engine's
// attention output, not a sum done here. Draws results.output of web/lesson/model.js.
import { english, withNodes } from '../i18n/i18n.js';
import { scrollBox, weightColor } from './chart.js';
import { shortLabel } from '../i18n/format.js';
import { h, subscripts, tex } from './h.js';

/** Components of each value vector and of the output that the table shows. */
export const SHOWN_COMPONENTS = 6;
// On a phone, fewer, without the weights' bars and the "… more" column: the table then fits its
// card without scrolling sideways (the note under it says how many are shown).
const NARROW_COMPONENTS = 2;
const NARROW = 420;
/** Keys listed one by one; the others share a line. */
export const SHOWN_KEYS = 5;
/** Keys named in the sentence that says what the output is made of. */
export const NAMED_KEYS = 3;

/** (results of model.output, settings { strings }, theme, { width }) → view nodes. */
export function outputView(r, { strings = english() }, theme, { width = Infinity } = {}) {
  const { row, m, dv, weights, order, values, output, queryLabels, keyLabels, projection, positional } = r;
  const s = strings;
  const fmt = s.fmt;
  const word = shortLabel(queryLabels[row]);
  const narrow = width < NARROW;
  const shown = Math.min(dv, narrow ? NARROW_COMPONENTS : SHOWN_COMPONENTS);
  const listed = order.slice(0, Math.min(m, SHOWN_KEYS));
  const rest = order.slice(listed.length);
  const named = order.slice(0, Math.min(m, NAMED_KEYS));
  // presentation only: the share of the mix the named keys hold, from the engine's weights
  let share = 0;
  for (const j of named) share += weights[j];
  let restShare = 0;
  for (const j of rest) restShare += weights[j];
  const components = (vector, offset) => Array.from({ length: shown }, (_, c) => h('td', { class: 'vec' }, fmt(vector[offset + c], 3)));
  const more = dv > shown && !narrow ? h('td', { class: 'more' }, s.t('output.more', { count: dv - shown })) : null;
  const keyRow = (j) =>
    h('tr', { 'data-key': j }, [
      h('th', { scope: 'row' }, s.t('format.quoted', { text: shortLabel(keyLabels[j]) })),
      h('td', { class: 'weight' }, [h('span', { 'data-k': 'weight' }, s.fixed(weights[j], 3)), narrow ? null : weightBar(theme, weights[j])]),
      components(values, j * dv),
      more,
    ]);
  const list = s.list(named.map((j) => s.t('output.named', { word: shortLabel(keyLabels[j]), weight: s.fixed(weights[j], 3) })));
  const valuesNote = projection === 'pasted' ? 'output.valuesPasted' : positional ? 'output.valuesWordsPositional' : 'output.valuesWords';
  return h('div', { class: 'view' }, [
    h('p', { class: 'explain' }, withNodes(s.t('output.explain'), { word }, subscripts)),
    h('div', { class: 'formulas' }, tex(String.raw`o_i=\sum_j p_{ij}\,v_j`, { display: true })),
    h('p', { class: 'stats made-of' }, withNodes(s.t('output.madeOf', { count: named.length }), {
      word,
      list,
      share: h('b', { 'data-k': 'share' }, s.fixed(share, 3)),
    }, subscripts)),
    scrollBox(
      s.t('output.tableLabel', { word }),
      h('table', {}, [
        h('thead', {}, h('tr', {}, [
          h('th', { scope: 'col' }, s.t('output.key')),
          h('th', { scope: 'col' }, subscripts(s.t('output.weight'))),
          Array.from({ length: shown }, (_, c) => h('th', { scope: 'col' }, subscripts(s.t('output.component', { index: c + 1 })))),
          more ? h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, s.t('output.more', { count: dv - shown }))) : null,
        ])),
        h('tbody', {}, [
          listed.map(keyRow),
          rest.length
            ? h('tr', { class: 'rest' }, [
                h('th', { scope: 'row' }, s.t('output.rest', { count: rest.length })),
                h('td', { class: 'weight' }, h('span', { 'data-k': 'rest' }, s.fixed(restShare, 3))),
                h('td', { colspan: shown + (more ? 1 : 0), class: 'note' }, s.t('output.restNote')),
              ])
            : null,
        ]),
        h('tfoot', {}, h('tr', { class: 'out' }, [
          h('th', { scope: 'row' }, s.t('output.output', { word })),
          h('td', { class: 'weight' }, 'Σ'),
          components(output, 0),
          more,
        ])),
      ]),
    ),
    h('p', { class: 'note' }, subscripts(s.t(valuesNote, { dv: String(dv), shown: String(shown) }))),
  ]);
}

/** A bar as long as the weight (0 … 1), coloured by it. */
function weightBar(theme, p) {
  const width = Math.max(0, Math.min(1, p)) * 60;
  return h(
    'svg',
    { class: 'wbar', width: 60, height: 6, viewBox: '0 0 60 6', 'aria-hidden': 'true' },
    [h('rect', { width: 60, height: 6, fill: theme.cell }), h('rect', { width: width.toFixed(2), height: 6, fill: weightColor(theme, p) })],
  );
}
