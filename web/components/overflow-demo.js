// <overflow-demo>: why softmax subtracts the max. The selected row's scores divided by a
// temperature T, pushed through the naive softmax (exp without the shift: float32 exp
// overflows to ∞ past ln(FLT_MAX) ≈ 88.72, and ∞/∞ = NaN) next to the stable one. The naive
// values come raw from the core and are labelled as the broken version, never as results.
// Inputs: the current setting — engine, q, k, dk, queryLabels, keyLabels, scaled, temperature,
// causal, selectedRow (standalone: head 0 of tokens/vectors at dk, seed).
import { LessonElement, fmt, html, weightColor } from './lesson-base.js';

export class OverflowDemo extends LessonElement {
  static current = true;

  get css() {
    return `.controls { display: flex; flex-wrap: wrap; gap: .4em 1.2em; align-items: center; margin: .3em 0 .6em; }
      input[type=range] { width: min(260px, 40vw); }
      tr.naive th, tr.naive td { background: var(--bad-bg); }
      tr.naive th { color: var(--bad); font-weight: 600; }
      td.broken { color: var(--bad); font-weight: 700; }
      .status { font-weight: 600; }
      .status.bad { color: var(--bad); }
      .cellbar { display: block; height: 4px; width: 100%; margin-top: 2px; border-radius: 2px; }`;
  }

  draw(root) {
    const { engine, scaled } = this;
    const { temperature } = this.attentionOptions();
    const { row } = this;
    const { expOverflowThreshold } = engine.lessonConstants;
    const { m, d: dk, queryLabels, keyLabels: tokens } = this.current();
    // the lab's scores for this row (its scaling and causal mask; -Infinity where masked)
    const scores = this.currentAttention().scores.slice(row * m, row * m + m);
    const naive = engine.softmaxNaive(scores, { temperature });
    const stable = engine.softmax(scores, { temperature });
    const broken = !Number.isFinite(naive.sum) || naive.weights.some((p) => !Number.isFinite(p));
    const largest = Math.max(...naive.scaledScores);

    root.append(
      html('p', {
        class: 'explain',
        text:
          `The textbook formula e^z / Σ e^z is fine on paper, but a float32 number cannot exceed about 3.4·10³⁸, so ` +
          `e^z overflows to ∞ as soon as z > ${fmt(expOverflowThreshold, 4)}. Then the sum is ∞ and ∞/∞ is NaN ("not a number"). ` +
          `Dividing the scores by a temperature T below 1 sharpens the weights and makes the scores larger; unscaled scores at a large d_k ` +
          `are large already.`,
      }),
    );
    const slider = html('input', {
      type: 'range',
      min: -2,
      max: 1,
      step: 0.05,
      value: Math.log10(temperature),
      'aria-label': 'temperature (log scale)',
    });
    slider.addEventListener('input', () => {
      this.temperature = Number((10 ** Number(slider.value)).toPrecision(3));
      this.dispatchEvent(new Event('input', { bubbles: true }));
    });
    root.append(
      html('div', { class: 'controls' }, [
        html('label', { class: 'inline' }, ['temperature T ', slider, html('b', { text: fmt(temperature, 3) })]),
        html('span', {
          class: `status ${broken ? 'bad' : ''}`,
          text: broken
            ? `largest z/T = ${fmt(largest, 4)} > ${fmt(expOverflowThreshold, 4)}: the naive version breaks`
            : `largest z/T = ${fmt(largest, 4)} ≤ ${fmt(expOverflowThreshold, 4)}: both versions agree`,
        }),
      ]),
    );

    const table = html('table');
    const head = html('tr', {}, [html('th', { scope: 'col', text: `row "${queryLabels[row]}" (${scaled ? 'scaled' : 'unscaled'}, d_k = ${dk})` })]);
    tokens.forEach((w) => head.append(html('th', { scope: 'col', text: w })));
    head.append(html('th', { scope: 'col', text: 'Σ' }));
    table.append(html('thead', {}, head));
    const body = html('tbody');
    const addRow = (label, values, total, { naiveRow = false, bars = false } = {}) => {
      const tr = html('tr', { class: naiveRow ? 'naive' : null }, [html('th', { scope: 'row', text: label })]);
      values.forEach((v) => {
        const td = html('td', { class: Number.isFinite(v) ? null : 'broken', text: fmt(v, 4) });
        if (bars) td.append(html('span', { class: 'cellbar', style: `background:${weightColor(v)}` }));
        tr.append(td);
      });
      tr.append(html('td', { class: Number.isFinite(total) ? null : 'broken', text: total === null ? '' : fmt(total, 4) }));
      body.append(tr);
    };
    addRow('z / T', naive.scaledScores, null);
    addRow('naive (broken): e^(z/T)', naive.exps, naive.sum, { naiveRow: true });
    addRow('naive (broken): weights', naive.weights, null, { naiveRow: true });
    addRow('stable: softmax(z/T), max subtracted', stable, null, { bars: true });
    table.append(body);
    root.append(html('div', { class: 'scroll' }, table));
    root.append(
      html('p', {
        class: 'note',
        text:
          'The shaded rows are the broken naive version, shown only to see it fail. The stable version subtracts the largest ' +
          'score first, so the biggest exp is e⁰ = 1 and nothing overflows; the weights are the same whenever the naive version works. ' +
          'A high T makes the weights nearly flat, a low T makes them peaked.',
      }),
    );
  }
}

OverflowDemo.define('overflow-demo');
