// Why softmax subtracts the max: the lab's selected row of scores divided by the temperature T,
// through the naive softmax (exp without the shift: float32 exp overflows to ∞ past
// ln(FLT_MAX) ≈ 88.72, and ∞/∞ = NaN) next to the stable one. The naive values are raw from the
// core and labelled as the broken version, never as results. Draws results.overflow of
// web/lesson/model.js; its slider (data-intent="temperature") is read by the element.
import { weightColor } from './chart.js';
import { fmt, shortLabel } from './format.js';
import { h } from './h.js';

/** (results of model.overflow, settings, theme, { width }) → view nodes. */
export function overflowView(r, _settings, theme) {
  const { naive, stable, threshold, temperature, queryLabels, keyLabels, row, d, scaled } = r;
  const cell = (v, extra = null) => h('td', { class: Number.isFinite(v) ? null : 'broken' }, [fmt(v, 4), extra]);
  const tableRow = (label, values, total, { naiveRow = false, bars = false } = {}) =>
    h('tr', { class: naiveRow ? 'naive' : null }, [
      h('th', { scope: 'row' }, label),
      Array.from(values, (v) => cell(v, bars ? weightBar(theme, v) : null)),
      total === null ? h('td', {}, '') : cell(total),
    ]);
  return h('div', { class: 'view' }, [
    h(
      'p',
      { class: 'explain' },
      `The textbook formula e^z / Σ e^z is fine on paper, but a float32 number cannot exceed about 3.4·10³⁸, so ` +
        `e^z overflows to ∞ as soon as z > ${fmt(threshold, 4)}. Then the sum is ∞ and ∞/∞ is NaN ("not a number"). ` +
        `Dividing the scores by a temperature T below 1 sharpens the weights and makes the scores larger; unscaled scores at a large d_k ` +
        `are large already.`,
    ),
    h('div', { class: 'controls' }, [
      h('label', { class: 'inline' }, [
        'temperature T ',
        h('input', {
          type: 'range',
          min: -2,
          max: 1,
          step: 0.05,
          value: Math.log10(temperature),
          'data-intent': 'temperature',
          'aria-label': 'temperature (log scale)',
          'aria-valuetext': `T = ${fmt(temperature, 3)}`,
        }),
        h('b', {}, fmt(temperature, 3)),
      ]),
      h(
        'span',
        { class: naive.overflowed ? 'status bad' : 'status' },
        naive.overflowed
          ? `largest z/T = ${fmt(naive.largest, 4)} > ${fmt(threshold, 4)}: the naive version breaks`
          : `largest z/T = ${fmt(naive.largest, 4)} ≤ ${fmt(threshold, 4)}: both versions agree`,
      ),
    ]),
    h(
      'div',
      { class: 'scroll' },
      h('table', {}, [
        h(
          'thead',
          {},
          h('tr', {}, [
            h('th', { scope: 'col' }, `row "${shortLabel(queryLabels[row])}" (${scaled ? 'scaled' : 'unscaled'}, d_k = ${d})`),
            keyLabels.map((w) => h('th', { scope: 'col' }, shortLabel(w))),
            h('th', { scope: 'col' }, 'Σ'),
          ]),
        ),
        h('tbody', {}, [
          tableRow('z / T', naive.scaledScores, null),
          tableRow('naive (broken): e^(z/T)', naive.exps, naive.sum, { naiveRow: true }),
          tableRow('naive (broken): weights', naive.weights, null, { naiveRow: true }),
          tableRow('stable: softmax(z/T), max subtracted', stable, null, { bars: true }),
        ]),
      ]),
    ),
    h(
      'p',
      { class: 'note' },
      'The shaded rows are the broken naive version, shown only to see it fail. The stable version subtracts the largest ' +
        'score first, so the biggest exp is e⁰ = 1 and nothing overflows; the weights are the same whenever the naive version works. ' +
        'A high T makes the weights nearly flat, a low T makes them peaked.',
    ),
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
