// Why softmax subtracts the max: the lab's selected row of scores divided by the temperature T,
// through the naive softmax (exp without the shift: float32 exp overflows to ∞ past
// ln(FLT_MAX) ≈ 88.72, and ∞/∞ = NaN) next to the stable one. The naive values are raw from the
// core and labelled as the broken version, never as results. Draws results.overflow of
// web/lesson/model.js; its slider (data-intent="temperature") is read by the element.
import { scrollBox, weightColor } from './chart.js';
import { english } from '../i18n/i18n.js';
import { shortLabel } from '../i18n/format.js';
import { h } from './h.js';

/** (results of model.overflow, settings { strings }, theme, { width }) → view nodes. */
export function overflowView(r, { strings = english() }, theme) {
  const { naive, stable, threshold, temperature, queryLabels, keyLabels, row, d, scaled } = r;
  const s = strings;
  const fmt = s.fmt;
  const cell = (v, extra = null) => h('td', { class: Number.isFinite(v) ? null : 'broken' }, [fmt(v, 4), extra]);
  const tableRow = (label, values, total, { naiveRow = false, bars = false } = {}) =>
    h('tr', { class: naiveRow ? 'naive' : null }, [
      h('th', { scope: 'row' }, label),
      Array.from(values, (v) => cell(v, bars ? weightBar(theme, v) : null)),
      total === null ? h('td', {}, '') : cell(total),
    ]);
  const status = s.t(naive.overflowed ? 'overflow.breaks' : 'overflow.agree', { largest: fmt(naive.largest, 4), threshold: fmt(threshold, 4) });
  return h('div', { class: 'view' }, [
    h('p', { class: 'explain' }, s.t('overflow.explain', { threshold: fmt(threshold, 4) })),
    h('div', { class: 'controls' }, [
      h('label', { class: 'inline' }, [
        `${s.t('overflow.temperature')} `,
        h('input', {
          type: 'range',
          min: -2,
          max: 1,
          step: 0.05,
          value: Math.log10(temperature),
          'data-intent': 'temperature',
          'aria-label': s.t('overflow.slider'),
          'aria-valuetext': `T = ${fmt(temperature, 3)}`,
          'aria-describedby': 'overflow-status',
        }),
        h('b', {}, fmt(temperature, 3)),
      ]),
      h('span', { class: naive.overflowed ? 'status bad' : 'status', id: 'overflow-status' }, status),
    ]),
    scrollBox(
      s.t('overflow.tableLabel', { word: shortLabel(queryLabels[row]) }),
      h('table', {}, [
        h(
          'thead',
          {},
          h('tr', {}, [
            h('th', { scope: 'col' }, s.t('overflow.row', { word: shortLabel(queryLabels[row]), setting: s.t(scaled ? 'lesson.scaled' : 'lesson.unscaled'), d: String(d) })),
            keyLabels.map((w) => h('th', { scope: 'col' }, shortLabel(w))),
            h('th', { scope: 'col' }, 'Σ'),
          ]),
        ),
        h('tbody', {}, [
          tableRow('z / T', naive.scaledScores, null),
          tableRow(s.t('overflow.naiveExps'), naive.exps, naive.sum, { naiveRow: true }),
          tableRow(s.t('overflow.naiveWeights'), naive.weights, null, { naiveRow: true }),
          tableRow(s.t('overflow.stable'), stable, null, { bars: true }),
        ]),
      ]),
    ),
    h('p', { class: 'note' }, s.t('overflow.note')),
  ]);
}

/** A thin bar under a weight, coloured by it (the page's style sheet stretches it across the cell). */
function weightBar(theme, p) {
  return h(
    'svg',
    { class: 'cellbar', width: 8, height: 4, viewBox: '0 0 8 4', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
    h('rect', { width: 8, height: 4, fill: weightColor(theme, p) }),
  );
}
