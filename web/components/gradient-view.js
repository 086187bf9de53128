// <gradient-view>: claim 3, measured. The softmax Jacobian diag(p) − p pᵀ of the selected
// row in the current setting (the lab's q and k, with its temperature and mask), unscaled
// next to scaled, with the size of the gradient that flows back through softmax,
// ‖∂L/∂scores‖ for L = ⟨g, p⟩ (g fixed and seeded); and that size against d_k (the sweep).
// Inputs: engine, q, k, dk, queryLabels, keyLabels, scaled, temperature, causal, seed,
// selectedRow (the current setting; standalone: head 0 of tokens/vectors at dk), and
// tokens, vectors (t×100) for the sweep.
import {
  LessonElement, divergingColor, fixed3, fmt, html, identityNote, labMarker, legend, line, log2Scale, powersOfTwo, svg, widthAxis,
} from './lesson-base.js';

const DIMS = powersOfTwo(1, 1024);
// p(1 − p) ≤ 1/4: the largest entry a softmax Jacobian can have. A fixed colour scale makes
// the two heatmaps comparable.
const JACOBIAN_EXTENT = 0.25;

export class GradientView extends LessonElement {
  static minTokens = 2;
  static current = true;

  get css() {
    return `.jacs { display: flex; flex-wrap: wrap; gap: 1em; }
      .jacs h4 .yours { font-weight: normal; color: var(--muted); }`;
  }

  draw(root, width) {
    const { engine, seed } = this;
    const { row } = this;
    const cur = this.current();
    const { m, d } = cur;
    const t = this.t;
    // The sweeps do not depend on d_k or the query row: computed once per sentence and seed.
    const common = { x: this.vectors, t, seed, dims: DIMS };
    const sweeps = t >= 2 ? [false, true].map((scaled) => this.memo(String(scaled), [this.vectors, seed], () => engine.saturationSweep({ ...common, scaled }))) : null;

    root.append(
      html('p', {
        class: 'explain',
        text:
          `Learning adjusts the scores using the gradient that flows back through softmax. The Jacobian below says how much ` +
          `each weight (row) moves when each score (column) is nudged, for the row of "${cur.queryLabels[row]}". When one weight is ` +
          `almost 1 and the others almost 0, every entry is almost 0: whatever signal comes back, little gets through, and learning stalls.`,
      }),
    );
    const panels = html('div', { class: 'panels' });
    const jacs = html('div', { class: 'jacs' });
    const panelWidth = width >= 640 ? Math.floor((width - 20) / 2) : width;
    // two heatmaps (60 px of labels each) side by side when they fit at 12 px a cell, else stacked
    const sideBySide = (panelWidth - 2 * 64 - 16) / (2 * m) >= 12;
    const room = sideBySide ? (panelWidth - 2 * 64 - 16) / 2 : panelWidth - 64;
    const cell = Math.max(8, Math.min(24, Math.floor(room / m)));
    const lab = {};
    [false, true].forEach((scaled) => {
      // the lab's own row (its q, k, temperature and mask); only the scaling differs between the two
      const attention = this.currentAttention({ scaled });
      const p = attention.weights.slice(row * m, row * m + m);
      const jac = engine.softmaxJacobian(p);
      // ∂L/∂z for the softmax's input z (the scores, ÷T when T ≠ 1): the sweep's measure for this row
      const norm = engine.softmaxGradientNorm(p, { seed, row });
      const stats = { scaled, maxWeight: attention.maxWeight[row], entropy: attention.entropy[row], norm };
      if (scaled === Boolean(this.scaled)) Object.assign(lab, stats);
      jacs.append(this.#heatmap(jac, cur, cell, stats));
    });
    panels.append(html('div', {}, [jacs, legend([['var(--pos)', 'positive'], ['var(--neg)', 'negative (colour scale ±0.25, the largest possible)']])]));
    if (sweeps) panels.append(this.#normChart(panelWidth, sweeps, lab));
    else panels.append(html('p', { class: 'note', text: 'The sweep over d_k needs word vectors: choose Identity or Random in the lab.' }));
    root.append(panels);
  }

  #heatmap(jac, { m, d, keyLabels }, cell, { scaled, maxWeight, entropy, norm }) {
    const labelW = 60;
    const size = m * cell;
    const title = scaled ? 'scaled' : 'unscaled';
    const box = html('div', { class: 'jac', 'data-scaled': String(scaled), style: `width: ${labelW + size + 4}px; max-width: 100%` });
    const yours = scaled === Boolean(this.scaled) ? html('span', { class: 'yours', text: ' (the lab’s setting)' }) : '';
    box.append(html('h4', {}, [`${title}, d_k = ${d}`, yours]));
    const chart = svg('svg', { width: labelW + size + 4, height: labelW + size + 4, role: 'img', 'aria-label': `softmax Jacobian, ${title}` });
    for (let i = 0; i < m; i++) {
      chart.append(svg('text', { x: labelW - 4, y: labelW + i * cell + cell / 2 + 4, 'text-anchor': 'end' }, short(keyLabels[i])));
      chart.append(
        svg('text', { transform: `translate(${labelW + i * cell + cell / 2 + 4}, ${labelW - 4}) rotate(-60)`, 'text-anchor': 'start' }, short(keyLabels[i])),
      );
      for (let j = 0; j < m; j++) {
        const v = jac[i * m + j];
        chart.append(
          svg('rect', { x: labelW + j * cell, y: labelW + i * cell, width: cell - 1, height: cell - 1, style: `fill:${divergingColor(v, JACOBIAN_EXTENT)}` }, [
            svg('title', {}, `∂p(${keyLabels[i]}) / ∂z(${keyLabels[j]}) = ${fmt(v, 4)}`),
          ]),
        );
      }
    }
    box.append(html('div', { class: 'scroll' }, chart));
    box.append(
      html('p', { class: 'note stats' }, [
        'max weight ', html('b', { 'data-k': 'max', text: fixed3(maxWeight) }),
        ', entropy ', html('b', { 'data-k': 'entropy', text: fixed3(entropy) }), ' nats; gradient size ‖∂L/∂z‖ = ',
        html('b', { 'data-k': 'grad', text: fmt(norm) }),
      ]),
    );
    return box;
  }

  #normChart(width, [unscaled, scaled], lab) {
    const box = html('div');
    box.append(html('h4', { text: 'Size of the gradient reaching the scores' }));
    const height = 230;
    const pad = { l: 52, r: 10, t: 10, b: 40 };
    const t = unscaled.t;
    const { d, queryLabels } = this.current();
    const row = this.row;
    const values = [...unscaled.mean.gradNorm, ...scaled.mean.gradNorm, ...unscaled.gradNorm, ...scaled.gradNorm, lab.norm].filter((v) => v > 0);
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
    const rowInSweep = row < t && this.selectedRow === row;
    for (const [sweep, color] of [[unscaled, 'var(--unscaled)'], [scaled, 'var(--scaled)']]) {
      chart.append(line(DIMS.map((dd, c) => [x(dd), ly(sweep.mean.gradNorm[c])]), { style: `stroke:${color}` }));
      if (rowInSweep)
        DIMS.forEach((dd, c) =>
          chart.append(svg('circle', { cx: x(dd), cy: ly(sweep.gradNorm[c * t + row]), r: 3, style: `fill:var(--bg);stroke:${color};stroke-width:1.5` })),
        );
    }
    const labColor = lab.scaled ? 'var(--scaled)' : 'var(--unscaled)';
    if (d >= 1 && d <= 1024) chart.append(labMarker(x(d), ly(lab.norm), labColor, `the lab's row: ${fmt(lab.norm)}`));
    box.append(chart);
    box.append(legend([['var(--unscaled)', 'unscaled'], ['var(--scaled)', 'scaled']]));
    box.append(
      html('p', {
        class: 'note',
        text:
          `Lines: mean over all rows; circles: the row of "${queryLabels[row]}"; ◆: the lab’s own row at d = ${d}. ` +
          'Loss L = ⟨g, p⟩ with a fixed random g for each row, so only the softmax changes between points. Log scale: each grid line is 10× smaller.',
      }),
    );
    const note = identityNote(this.projection);
    if (note) box.append(note);
    return box;
  }
}

function short(word) {
  return word.length > 8 ? `${word.slice(0, 7)}…` : word;
}

GradientView.define('gradient-view');
