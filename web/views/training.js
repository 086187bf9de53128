// The training experiment, drawn from a TrainingSession's state (web/train/session.js): the two
// runs' attention on the shown example as heatmaps (letters for keys, digits for values), and
// their curves per step — loss, held-out accuracy, the gradient norms of W_Q and W_K, the mean
// largest weight and the mean entropy of the attention rows. Pure: (state, settings, theme,
// { width }) → view nodes; every number comes from the core through the session. Presentation
// math only (scales, ticks, which points to draw).
import { headingTag, legend, linear, mutedText, plot, weightColor } from './chart.js';
import { english } from '../i18n/i18n.js';
import { h } from './h.js';
import { trainingText } from './training-text.js';

const RUNS = ['scaled', 'unscaled'];
// a plot's height; on a phone (one column of plots) lower, its five ticks still 18 px apart
const PLOT_HEIGHT = 170;
const NARROW_PLOT_HEIGHT = 110;
const PAD = { l: 44, r: 12, t: 8, b: 30 };

/** (session state, settings { strings, heading }, theme, { width }) → the heatmaps, the legend and the five plots. */
export function trainingView(state, settings, theme, { width }) {
  // the words, and the tag of the view's own headings (settings.heading: one below its section's)
  const T = { ...trainingText(settings?.strings ?? english()), hn: headingTag({ heading: settings?.heading }) };
  if (!state.runs) return h('p', { class: 'empty' }, state.phase === 'failed' ? T.status.failed(state.error?.message ?? '') : T.status.loading);
  const columns = width >= 900 ? 3 : width >= 560 ? 2 : 1;
  const plotWidth = Math.floor((width - (columns - 1) * 16) / columns);
  const color = { scaled: theme.scaled, unscaled: theme.unscaled };
  // the two runs' heatmaps side by side, on a phone too (each at least 14 px a cell)
  const heatmapWidth = Math.min(340, Math.floor((width - 16) / 2));
  const size = { width: plotWidth, height: columns === 1 ? NARROW_PLOT_HEIGHT : PLOT_HEIGHT };
  return h('div', { class: 'view' }, [
    h('div', { class: 'top' }, [
      h('div', { class: 'pair' }, RUNS.map((run) => heatmap(state, run, theme, heatmapWidth, T))),
      h('div', { class: 'outcome' }, [
        h('div', { class: 'summary stats' }, T.summaryParts(state).map((sentence) => h('p', {}, sentence))),
        h('p', { class: 'note' }, T.heatmap.note),
      ]),
    ]),
    h('div', { class: `plots cols-${columns}` }, [
      h('div', { class: 'key' }, [legend(RUNS.map((run) => ({ color: color[run], text: T.runs[run] }))), h('p', { class: 'note' }, T.plots.legendNote)]),
      lossPlot(state, theme, color, size, T),
      accuracyPlot(state, theme, color, size, T),
      gradPlot(state, theme, color, size, T),
      linePlot(state, theme, color, size, { title: T.plots.maxWeight, metric: 'maxWeight', range: [0, 1], ticks: [0, 0.25, 0.5, 0.75, 1] }, T),
      linePlot(state, theme, color, size, {
        title: T.plots.entropy,
        metric: 'entropy',
        range: [0, state.maxEntropy * 1.05],
        ticks: [0, 0.5, 1, 1.5, 2, 2.5, 3].filter((v) => v <= state.maxEntropy * 1.05),
        mark: { value: state.maxEntropy, text: T.plots.uniform(state.maxEntropy, state.config.pairs), at: 'end' },
      }, T),
    ]),
  ]);
}

// ---- heatmaps ----

function heatmap(state, run, theme, maxWidth, T) {
  const { example, config } = state;
  const { weights, shownOnTarget } = state.runs[run];
  const P = config.pairs, Qn = config.queries;
  const label = 22; // room for a row label (one letter) and the column labels below
  const cell = Math.max(14, Math.min(30, Math.floor((maxWidth - label - 4) / P)));
  const width = label + P * cell + 2, height = Qn * cell + label + 2;
  const title = T.heatmap.title(run, state.step);
  return h('figure', { class: 'heatmap', 'data-run': run }, [
    h(T.hn, {}, title),
    plot(theme, { width, height, label: T.heatmap.label(run, state.step, shownOnTarget, Qn) }, [
      weights
        ? Array.from({ length: Qn * P }, (_, idx) => {
            const [i, j] = [Math.floor(idx / P), idx % P];
            const w = weights[idx];
            const right = example.target[i] === j;
            return h(
              'rect',
              { x: label + j * cell, y: i * cell, width: cell - 1, height: cell - 1, fill: weightColor(theme, w), 'data-weight': w },
              h('title', {}, T.heatmap.cell(example.queries[i], example.pairs[j], w, right)),
            );
          })
        : null,
      // the pair each query asks about
      example.target.map((j, i) =>
        h('rect', { class: 'target', x: label + j * cell - 0.5, y: i * cell - 0.5, width: cell, height: cell, fill: 'none', stroke: theme.text, 'stroke-width': 1.5 }),
      ),
      example.queries.map((q, i) => mutedText(theme, { x: label - 6, y: i * cell + cell / 2 + 4, 'text-anchor': 'end', 'font-family': theme.mono }, q)),
      example.pairs.map((p, j) => mutedText(theme, { x: label + j * cell + cell / 2, y: Qn * cell + 14, 'text-anchor': 'middle', 'font-family': theme.mono }, p)),
    ]),
    h('figcaption', { class: 'note stats' }, T.heatmap.onTarget(shownOnTarget, Qn)),
  ]);
}

// ---- plots ----

// x: steps 1…config.steps over the plot's width
function stepScale(state, width) {
  return linear(1, Math.max(2, state.steps), PAD.l, width - PAD.r);
}

// Which steps a curve draws: every one up to one per pixel, else every k-th (and the last).
function sampled(count, width) {
  const stride = Math.max(1, Math.ceil(count / (width - PAD.l - PAD.r)));
  const steps = [];
  for (let t = 0; t < count; t += stride) steps.push(t);
  if (count > 0 && steps.at(-1) !== count - 1) steps.push(count - 1);
  return steps;
}

function curve(state, run, metric, x, y, width, attrs) {
  const { count, curves } = state.runs[run];
  if (count === 0) return null;
  const values = curves[metric];
  if (count === 1) return h('circle', { cx: x(1), cy: y(values[0]), r: 2.5, fill: attrs.stroke });
  // "x,y x,y …" to 0.1 px, written directly: a view of a long run has thousands of points
  let points = '';
  for (const t of sampled(count, width)) points += `${Math.round(x(t + 1) * 10) / 10},${Math.round(y(values[t]) * 10) / 10} `;
  return h('polyline', { fill: 'none', 'stroke-width': 2, ...attrs, points: points.trimEnd() });
}

// ✕ where a run stopped because it blew up
function blewUp(state, run, metric, x, y, color, T) {
  const { divergedAt, count, curves } = state.runs[run];
  if (!divergedAt || count === 0) return null;
  const [cx, cy] = [x(count), y(curves[metric][count - 1])];
  return h('path', { d: `M${cx - 4},${cy - 4}L${cx + 4},${cy + 4}M${cx - 4},${cy + 4}L${cx + 4},${cy - 4}`, stroke: color, 'stroke-width': 2 }, h('title', {}, T.plots.blewUp(divergedAt)));
}

function frame(state, theme, { width, height }, title, y, ticks, format, children, T) {
  const x = stepScale(state, width);
  const bottom = height - PAD.b;
  const stepTicks = niceSteps(state.steps);
  return h('div', { class: 'plot' }, [
    h(T.hn, {}, title),
    plot(theme, { width, height, label: title }, [
      h('g', { class: 'axis', stroke: theme.grid }, [
        ticks.map((v) => [
          h('line', { x1: PAD.l, x2: width - PAD.r, y1: y(v), y2: y(v), 'stroke-opacity': 0.6 }),
          mutedText(theme, { x: PAD.l - 6, y: y(v) + 4, 'text-anchor': 'end', stroke: 'none' }, format(v)),
        ]),
        h('line', { x1: PAD.l, x2: width - PAD.r, y1: bottom, y2: bottom }),
        stepTicks.map((s) => [
          h('line', { x1: x(s), x2: x(s), y1: bottom, y2: bottom + 4 }),
          mutedText(theme, { x: x(s), y: bottom + 16, 'text-anchor': 'middle', stroke: 'none' }, String(s)),
        ]),
        mutedText(theme, { x: width - PAD.r, y: bottom + 28, 'text-anchor': 'end', stroke: 'none' }, T.plots.step),
      ]),
      children(x),
    ]),
  ]);
}

// Round step ticks: 1 and multiples of a 1-2-5 spacing, about five of them.
function niceSteps(steps) {
  const raw = steps / 5;
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  const spacing = [1, 2, 5, 10].map((f) => f * magnitude).find((s) => s >= raw) ?? raw;
  const ticks = [1];
  for (let s = spacing; s <= steps; s += spacing) ticks.push(s);
  return ticks;
}

function linePlot(state, theme, color, size, { title, metric, range, ticks, mark = null }, T) {
  const { width } = size;
  const y = linear(range[0], range[1], size.height - PAD.b, PAD.t);
  return frame(state, theme, size, title, y, ticks, (v) => T.fmt(v, 2), (x) => [
    mark
      ? [
          h('line', { x1: PAD.l, x2: width - PAD.r, y1: y(mark.value), y2: y(mark.value), stroke: theme.muted, 'stroke-dasharray': '3 3' }),
          mark.at === 'start'
            ? mutedText(theme, { x: PAD.l + 4, y: y(mark.value) - 4 }, mark.text)
            : mutedText(theme, { x: width - PAD.r - 2, y: y(mark.value) - 4, 'text-anchor': 'end' }, mark.text),
        ]
      : null,
    RUNS.map((run) => [curve(state, run, metric, x, y, width, { stroke: color[run] }), blewUp(state, run, metric, x, y, color[run], T)]),
  ], T);
}

function accuracyPlot(state, theme, color, size, T) {
  return linePlot(state, theme, color, size, {
    title: T.plots.accuracy,
    metric: 'heldoutAccuracy',
    range: [0, 1],
    ticks: [0, 0.25, 0.5, 0.75, 1],
    mark: { value: state.accuracyGoal, text: T.plots.goal(state.accuracyGoal), at: 'start' },
  }, T);
}

// A log₁₀ axis over whole decades covering the values drawn (at least [lo, hi]).
function decades(state, metrics, [lo, hi], height) {
  let min = lo, max = hi;
  for (const run of RUNS) {
    const { count, curves } = state.runs[run];
    for (const m of metrics)
      for (let t = 0; t < count; t++) {
        const v = curves[m][t];
        if (v > 0) (min = Math.min(min, v)), (max = Math.max(max, v));
      }
  }
  const from = Math.floor(Math.log10(min)), to = Math.ceil(Math.log10(max));
  const ticks = [];
  for (let e = from; e <= to; e++) ticks.push(10 ** e);
  const y = (v) => linear(from, to, height - PAD.b, PAD.t)(Math.log10(Math.max(v, 10 ** from)));
  // at most five labelled decades
  const every = Math.ceil(ticks.length / 5);
  return { y, ticks: ticks.filter((_, i) => (ticks.length - 1 - i) % every === 0) };
}

// a decade's label: 0.01 … 100 as numbers (in the reader's digits), else 1e−3
const decadeLabel = (T) => (v) => (v >= 0.01 && v <= 100 ? T.fmt(v, 1) : `1e${Math.round(Math.log10(v))}`.replace('-', '−'));

function lossPlot(state, theme, color, size, T) {
  const { width } = size;
  const { y, ticks } = decades(state, ['loss', 'heldoutLoss'], [0.01, 3], size.height);
  return frame(state, theme, size, T.plots.loss, y, ticks, decadeLabel(T), (x) =>
    RUNS.map((run) => [
      curve(state, run, 'loss', x, y, width, { stroke: color[run], 'stroke-width': 1, 'stroke-opacity': 0.45 }),
      curve(state, run, 'heldoutLoss', x, y, width, { stroke: color[run] }),
      blewUp(state, run, 'heldoutLoss', x, y, color[run], T),
    ]),
  T);
}

function gradPlot(state, theme, color, size, T) {
  const { width } = size;
  const { y, ticks } = decades(state, ['gradNormWq', 'gradNormWk'], [0.01, 1], size.height);
  return frame(state, theme, size, T.plots.gradNorm, y, ticks, decadeLabel(T), (x) =>
    RUNS.map((run) => [
      curve(state, run, 'gradNormWq', x, y, width, { stroke: color[run] }),
      curve(state, run, 'gradNormWk', x, y, width, { stroke: color[run], 'stroke-width': 1.5, 'stroke-dasharray': '4 3' }),
    ]),
  T);
}
