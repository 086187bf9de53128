// <gradient-view>: claim 3, measured. The softmax Jacobian diag(p) − p pᵀ of the selected
// row at the chosen d_k, unscaled next to scaled, and the size of the gradient that flows back
// through softmax, ‖∂L/∂scores‖ for L = ⟨g, p⟩ (g fixed and seeded), against d_k.
// Inputs: engine, tokens, vectors (t×100), dk, seed, selectedRow.
import { LessonElement, divergingColor, fmt, html, legend, line, log2Scale, powersOfTwo, svg, widthAxis } from './lesson-base.js';

const DIMS = powersOfTwo(1, 1024);
// p(1 − p) ≤ 1/4: the largest entry a softmax Jacobian can have. A fixed colour scale makes
// the two heatmaps comparable.
const JACOBIAN_EXTENT = 0.25;

export class GradientView extends LessonElement {
  static minTokens = 2;

  get css() {
    return `.jacs { display: flex; flex-wrap: wrap; gap: 1em; }`;
  }

  draw(root, width) {
    const t = this.t;
    const { engine, seed, dk, tokens } = this;
    const { row } = this;
    const { q, k } = engine.headProjections({ x: this.vectors, t, seed, d: dk });
    const common = { x: this.vectors, t, seed, dims: DIMS };
    // The sweeps do not depend on d_k or the query row: computed once per sentence and seed.
    const sweeps = [false, true].map((scaled) =>
      this.memo(String(scaled), [this.vectors, seed], () => engine.saturationSweep({ ...common, scaled })),
    );
    const i = DIMS.indexOf(dk);

    root.append(
      html('p', {
        class: 'explain',
        text:
          `Learning adjusts the scores using the gradient that flows back through softmax. The Jacobian below says how much ` +
          `each weight (row) moves when each score (column) is nudged, for the row of "${tokens[row]}". When one weight is ` +
          `almost 1 and the others almost 0, every entry is almost 0: whatever signal comes back, little gets through, and learning stalls.`,
      }),
    );
    const panels = html('div', { class: 'panels' });
    const jacs = html('div', { class: 'jacs' });
    const panelWidth = width >= 640 ? Math.floor((width - 20) / 2) : width;
    // two heatmaps (60 px of labels each) side by side when they fit at 12 px a cell, else stacked
    const sideBySide = (panelWidth - 2 * 64 - 16) / (2 * t) >= 12;
    const room = sideBySide ? (panelWidth - 2 * 64 - 16) / 2 : panelWidth - 64;
    const cell = Math.max(8, Math.min(24, Math.floor(room / t)));
    [false, true].forEach((scaled, s) => {
      const attention = engine.attention({ q, k, n: t, m: t, d: dk, scale: scaled ? 'sqrt' : 'none' });
      const p = attention.weights.slice(row * t, row * t + t);
      const jac = engine.softmaxJacobian(p);
      // the gradient size at d_k: from the sweep, or measured at d_k alone when it is not one of its widths
      const norm = i >= 0 ? sweeps[s].gradNorm[i * t + row] : engine.saturationSweep({ ...common, dims: [dk], scaled }).gradNorm[row];
      jacs.append(this.#heatmap(jac, t, cell, scaled ? 'scaled' : 'unscaled', attention.maxWeight[row], norm));
    });
    panels.append(html('div', {}, [jacs, legend([['var(--pos)', 'positive'], ['var(--neg)', 'negative (colour scale ±0.25, the largest possible)']])]));
    panels.append(this.#normChart(panelWidth, sweeps, row));
    root.append(panels);
  }

  #heatmap(jac, t, cell, title, maxWeight, norm) {
    const labelW = 60;
    const size = t * cell;
    const box = html('div', { style: `width: ${labelW + size + 4}px` }); // notes wrap to the heatmap's width
    box.append(html('h4', { text: `${title}, d_k = ${this.dk}` }));
    const chart = svg('svg', { width: labelW + size + 4, height: labelW + size + 4, role: 'img', 'aria-label': `softmax Jacobian, ${title}` });
    const { tokens } = this;
    for (let i = 0; i < t; i++) {
      chart.append(svg('text', { x: labelW - 4, y: labelW + i * cell + cell / 2 + 4, 'text-anchor': 'end' }, short(tokens[i])));
      chart.append(
        svg('text', { transform: `translate(${labelW + i * cell + cell / 2 + 4}, ${labelW - 4}) rotate(-60)`, 'text-anchor': 'start' }, short(tokens[i])),
      );
      for (let j = 0; j < t; j++) {
        const v = jac[i * t + j];
        chart.append(
          svg('rect', { x: labelW + j * cell, y: labelW + i * cell, width: cell - 1, height: cell - 1, style: `fill:${divergingColor(v, JACOBIAN_EXTENT)}` }, [
            svg('title', {}, `∂p(${tokens[i]}) / ∂z(${tokens[j]}) = ${fmt(v, 4)}`),
          ]),
        );
      }
    }
    box.append(chart);
    box.append(html('p', { class: 'note stats', text: `max weight ${fmt(maxWeight)}; gradient size ‖∂L/∂z‖ = ${fmt(norm)}` }));
    return box;
  }

  #normChart(width, [unscaled, scaled], row) {
    const box = html('div');
    box.append(html('h4', { text: 'Size of the gradient reaching the scores' }));
    const height = 230;
    const pad = { l: 52, r: 10, t: 10, b: 40 };
    const t = unscaled.t;
    const values = [...unscaled.mean.gradNorm, ...scaled.mean.gradNorm, ...unscaled.gradNorm, ...scaled.gradNorm].filter((v) => v > 0);
    const lo = 10 ** Math.floor(Math.log10(Math.max(1e-8, Math.min(...values))));
    const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
    const x = log2Scale(1, 1024, pad.l + 6, width - pad.r - 6);
    const ly = (v) => pad.t + ((Math.log10(hi) - Math.log10(Math.max(v, lo))) / (Math.log10(hi) - Math.log10(lo))) * (height - pad.b - pad.t);
    const chart = svg('svg', { width, height, role: 'img', 'aria-label': 'gradient norm against d_k' });
    for (let e = Math.log10(lo); e <= Math.log10(hi); e++) {
      chart.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: ly(10 ** e), y2: ly(10 ** e), style: 'stroke:var(--grid);stroke-opacity:.5' }));
      chart.append(svg('text', { x: pad.l - 6, y: ly(10 ** e) + 4, 'text-anchor': 'end', class: 'muted' }, e >= -2 ? String(10 ** e) : `1e${String(e).replace('-', '−')}`));
    }
    widthAxis(chart, x, height - pad.b, DIMS, { every: width < 420 ? 3 : 1 });
    chart.append(svg('line', { x1: x(this.dk), x2: x(this.dk), y1: pad.t, y2: height - pad.b, style: 'stroke:var(--muted)', 'stroke-dasharray': '2 3' }));
    for (const [sweep, color] of [[unscaled, 'var(--unscaled)'], [scaled, 'var(--scaled)']]) {
      chart.append(line(DIMS.map((d, c) => [x(d), ly(sweep.mean.gradNorm[c])]), { style: `stroke:${color}` }));
      DIMS.forEach((d, c) =>
        chart.append(svg('circle', { cx: x(d), cy: ly(sweep.gradNorm[c * t + row]), r: 3, style: `fill:var(--bg);stroke:${color};stroke-width:1.5` })),
      );
    }
    box.append(chart);
    box.append(legend([['var(--unscaled)', 'unscaled'], ['var(--scaled)', 'scaled']]));
    box.append(
      html('p', {
        class: 'note',
        text:
          `Lines: mean over all rows; circles: the row of "${this.tokens[row]}". Loss L = ⟨g, p⟩ with a fixed random g for each row, ` +
          'so only the softmax changes between points. Log scale: each grid line is 10× smaller.',
      }),
    );
    return box;
  }
}

function short(word) {
  return word.length > 8 ? `${word.slice(0, 7)}…` : word;
}

GradientView.define('gradient-view');
