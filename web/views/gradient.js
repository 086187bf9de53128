// Claim 3, measured: the softmax Jacobian diag(p) − p pᵀ of the lab's selected row (its q, k,
// temperature and mask), unscaled next to scaled, with the size of the gradient that flows back
// through softmax, ‖∂L/∂z‖ for L = ⟨g, p⟩ (g fixed and seeded); and that size against d_k (the
// sweep). Draws results.gradient of web/lesson/model.js.
import { divergingColor, dkLine, identityNote, labMarker, legend, log2Scale, mutedText, panelWidth, plot, polyline, short, widthAxis } from './chart.js';
import { fixed, fmt, shortLabel, tipLabel } from './format.js';
import { h } from './h.js';

// p(1 − p) ≤ 1/4: the largest entry a softmax Jacobian can have. A fixed colour scale makes the
// two heatmaps comparable.
const JACOBIAN_EXTENT = 0.25;
const LABEL_WIDTH = 60;

/** (results of model.gradient, settings { projection }, theme, { width }) → view nodes. */
export function gradientView(r, { projection }, theme, { width }) {
  const w = panelWidth(width);
  // two heatmaps (60 px of labels each) side by side when they fit at 12 px a cell, else stacked
  const sideBySide = (w - 2 * (LABEL_WIDTH + 4) - 16) / (2 * r.m) >= 12;
  const room = sideBySide ? (w - 2 * (LABEL_WIDTH + 4) - 16) / 2 : w - (LABEL_WIDTH + 4);
  const cell = Math.max(8, Math.min(24, Math.floor(room / r.m)));
  return h('div', { class: 'view' }, [
    h(
      'p',
      { class: 'explain' },
      `Learning adjusts the scores using the gradient that flows back through softmax. The Jacobian below says how much ` +
        `each weight (row) moves when each score (column) is nudged, for the row of "${shortLabel(r.word)}". When one weight is ` +
        `almost 1 and the others almost 0, every entry is almost 0: whatever signal comes back, little gets through, and learning stalls.`,
    ),
    h('div', { class: 'panels' }, [
      h('div', {}, [
        h('div', { class: 'jacs' }, r.panels.map((panel) => jacobian(r, panel, cell, theme))),
        legend([
          { color: theme.positive, text: 'positive' },
          { color: theme.negative, text: 'negative (colour scale ±0.25, the largest possible)' },
        ]),
      ]),
      r.sweeps
        ? normChart(r, projection, theme, w)
        : h('p', { class: 'note' }, 'The sweep over d_k needs word vectors: choose Identity or Random in the lab.'),
    ]),
  ]);
}

function jacobian({ m, d, keyLabels, labScaled }, { scaled, jacobian: jac, maxWeight, entropy, norm }, cell, theme) {
  const size = LABEL_WIDTH + m * cell + 4;
  const title = scaled ? 'scaled' : 'unscaled';
  const labels = keyLabels.map((word) => short(word));
  return h('div', { class: 'jac', 'data-scaled': String(scaled) }, [
    h('h4', {}, [`${title}, d_k = ${d}`, scaled === labScaled ? h('span', { class: 'yours' }, ' (the lab’s setting)') : null]),
    h(
      'div',
      { class: 'scroll' },
      plot(theme, { width: size, height: size, label: `softmax Jacobian, ${title}` }, [
        labels.map((word, i) => [
          h('text', { x: LABEL_WIDTH - 4, y: LABEL_WIDTH + i * cell + cell / 2 + 4, 'text-anchor': 'end' }, word),
          h('text', { transform: `translate(${LABEL_WIDTH + i * cell + cell / 2 + 4}, ${LABEL_WIDTH - 4}) rotate(-60)`, 'text-anchor': 'start' }, word),
        ]),
        Array.from({ length: m * m }, (_, idx) => {
          const [i, j] = [Math.floor(idx / m), idx % m];
          const v = jac[idx];
          return h(
            'rect',
            { x: LABEL_WIDTH + j * cell, y: LABEL_WIDTH + i * cell, width: cell - 1, height: cell - 1, fill: divergingColor(theme, v, JACOBIAN_EXTENT) },
            h('title', {}, `∂p(${tipLabel(keyLabels[i])}) / ∂z(${tipLabel(keyLabels[j])}) = ${fmt(v, 4)}`),
          );
        }),
      ]),
    ),
    h('p', { class: 'note stats' }, [
      'max weight ',
      h('b', { 'data-k': 'max' }, fixed(maxWeight)),
      ', entropy ',
      h('b', { 'data-k': 'entropy' }, fixed(entropy)),
      ' nats; gradient size ‖∂L/∂z‖ = ',
      h('b', { 'data-k': 'grad' }, fmt(norm)),
    ]),
  ]);
}

function normChart({ sweeps: { unscaled, scaled }, t, d, word, sweepRow, panels, labScaled }, projection, theme, width) {
  const height = 230;
  const pad = { l: 52, r: 10, t: 10, b: 40 };
  const lab = panels.find((panel) => panel.scaled === labScaled);
  // the axis spans whole decades around every value drawn
  const values = [...unscaled.mean.gradNorm, ...scaled.mean.gradNorm, ...unscaled.gradNorm, ...scaled.gradNorm, lab.norm].filter((v) => v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.max(1e-8, Math.min(...values))));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const { dims } = unscaled;
  const x = log2Scale(dims[0], dims.at(-1), pad.l + 6, width - pad.r - 6);
  const y = (v) => pad.t + ((Math.log10(hi) - Math.log10(Math.max(v, lo))) / (Math.log10(hi) - Math.log10(lo))) * (height - pad.b - pad.t);
  const decades = [];
  for (let e = Math.log10(lo); e <= Math.log10(hi); e++) decades.push(e);
  return h('div', {}, [
    h('h4', {}, 'Size of the gradient reaching the scores'),
    plot(theme, { width, height, label: 'gradient norm against d_k' }, [
      decades.map((e) => [
        h('line', { x1: pad.l, x2: width - pad.r, y1: y(10 ** e), y2: y(10 ** e), stroke: theme.grid, 'stroke-opacity': 0.5 }),
        mutedText(theme, { x: pad.l - 6, y: y(10 ** e) + 4, 'text-anchor': 'end' }, e >= -2 ? String(10 ** e) : `1e${String(e).replace('-', '−')}`),
      ]),
      widthAxis(theme, x, height - pad.b, dims, { every: width < 420 ? 3 : 1 }),
      dkLine(theme, x(d), pad.t, height - pad.b),
      [
        [unscaled, theme.unscaled],
        [scaled, theme.scaled],
      ].map(([sweep, color]) => [
        polyline(dims.map((dd, c) => [x(dd), y(sweep.mean.gradNorm[c])]), { stroke: color }),
        sweepRow === null
          ? null
          : dims.map((dd, c) => h('circle', { cx: x(dd), cy: y(sweep.gradNorm[c * t + sweepRow]), r: 3, fill: theme.bg, stroke: color, 'stroke-width': 1.5 })),
      ]),
      d >= dims[0] && d <= dims.at(-1) ? labMarker(x(d), y(lab.norm), labScaled ? theme.scaled : theme.unscaled, `the lab's row: ${fmt(lab.norm)}`) : null,
    ]),
    legend([
      { color: theme.unscaled, text: 'unscaled' },
      { color: theme.scaled, text: 'scaled' },
    ]),
    h(
      'p',
      { class: 'note' },
      `Lines: mean over all rows; circles: the row of "${shortLabel(word)}"; ◆: the lab’s own row at d = ${d}. ` +
        'Loss L = ⟨g, p⟩ with a fixed random g for each row, so only the softmax changes between points. Log scale: each grid line is 10× smaller.',
    ),
    identityNote(projection),
  ]);
}
