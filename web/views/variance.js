// Claim 1, measured: histograms of q·k and q·k/√d_k for random q, k at the lab's d_k, and the
// measured variance against d_k (log-log) for random vectors and for the sentence, with the
// theoretical lines Var = d_k and Var = 1. Draws results.variance of web/lesson/model.js.
import { headingTag, legend, log2Scale, mutedText, panelWidth, plot, polyline, valueAxis, widthAxis, dkLine } from './chart.js';
import { english } from '../i18n/i18n.js';
import { h } from './h.js';

/** (results of model.variance, settings { strings }, theme, { width }) → view nodes. */
export function varianceView(r, { strings = english(), heading }, theme, { width }) {
  const w = panelWidth(width);
  const s = strings;
  const hn = headingTag({ heading });
  return h('div', { class: 'view' }, [
    h('p', { class: 'explain' }, s.t('variance.explain', { dk: String(r.dk), sqrtD: s.fmt(r.histograms.sqrtD) })),
    h('div', { class: 'panels' }, [histograms(r, theme, w, s, hn), curves(r, theme, w, s, hn)]),
  ]);
}

function histograms({ dk, histograms: hist }, theme, width, s, hn) {
  const barsHeight = width < 420 ? 72 : 92;
  const pad = { l: 12, r: 12, t: 8 };
  const gap = 26;
  const height = pad.t + 2 * barsHeight + gap + 40;
  // both histograms on the unscaled axis, ±4√d_k (the core's range)
  const { lo, hi } = hist.unscaled;
  const x = (v) => pad.l + ((v - lo) / (hi - lo)) * (width - pad.l - pad.r);
  const rows = [
    [hist.unscaled, theme.unscaled, s.t('variance.unscaled', { value: s.fmt(hist.unscaled.variance) })],
    [hist.scaled, theme.scaled, s.t('variance.scaled', { value: s.fmt(hist.scaled.variance) })],
  ];
  const axisY = pad.t + 2 * barsHeight + gap;
  const ticks = [0, 1, 2, 3, 4].map((i) => lo + (i / 4) * (hi - lo));
  return h('div', {}, [
    h(hn, {}, s.t('variance.pairs', { count: hist.samples, dk: String(dk) })),
    plot(theme, { width, height, label: s.t('variance.histogramsLabel', { unscaled: s.fmt(hist.unscaled.variance), scaled: s.fmt(hist.scaled.variance) }) }, [
      rows.map(([part, color, title], row) => {
        const top = pad.t + row * (barsHeight + gap);
        const base = top + barsHeight;
        const max = Math.max(...part.counts, 1);
        const binWidth = (part.hi - part.lo) / part.counts.length;
        const outside = part.below + part.above;
        return [
          Array.from(part.counts, (count, b) => {
            if (!count) return null;
            const x0 = x(part.lo + b * binWidth);
            const x1 = x(part.lo + (b + 1) * binWidth);
            const barHeight = (count / max) * (barsHeight - 14);
            return h('rect', { x: x0, y: base - barHeight, width: Math.max(1, x1 - x0 - 0.5), height: barHeight, fill: color });
          }),
          h('line', { x1: pad.l, x2: width - pad.r, y1: base, y2: base, stroke: theme.grid }),
          h('text', { x: pad.l, y: top + 10 }, title),
          outside ? mutedText(theme, { x: width - pad.r, y: top + 10, 'text-anchor': 'end' }, s.t('variance.outside', { count: outside })) : null,
        ];
      }),
      ticks.map((v) => [
        h('line', { x1: x(v), x2: x(v), y1: axisY, y2: axisY + 4, stroke: theme.grid }),
        mutedText(theme, { x: x(v), y: axisY + 16, 'text-anchor': 'middle' }, s.fmt(v, 3)),
      ]),
      mutedText(theme, { x: width / 2, y: axisY + 32, 'text-anchor': 'middle' }, s.t('variance.axis')),
    ]),
    h('p', { class: 'note' }, s.t('variance.axisNote')),
  ]);
}

function curves({ dk, samples, curve, tokenCurve, at, draws }, theme, width, s, hn) {
  const height = width < 420 ? 190 : 230; // a phone: the ticks 21 px apart, clear of their 12 px labels
  const pad = { l: 46, r: 12, t: 12, b: 40 };
  const { dims } = curve;
  const x = log2Scale(dims[0], dims.at(-1), pad.l, width - pad.r);
  const y = log2Scale(0.25, 2048, height - pad.b, pad.t);
  const clampY = (v) => y(Math.min(2048, Math.max(0.25, v)));
  const ticks = [0.25, 1, 4, 16, 64, 256, 1024];
  const dots = (values, color, hollow) =>
    dims.map((d, i) =>
      h(
        'circle',
        hollow
          ? { cx: x(d), cy: clampY(values[i]), r: 4, fill: theme.bg, stroke: color, 'stroke-width': 1.6 }
          : { cx: x(d), cy: clampY(values[i]), r: 3.5, fill: color },
        h('title', {}, `d_k = ${d}: ${s.fmt(values[i])}`),
      ),
    );
  const random = s.t('variance.random', { unscaled: s.fmt(at.random.unscaled), scaled: s.fmt(at.random.scaled) });
  const mine = at.tokens ? s.t('variance.sentence', { unscaled: s.fmt(at.tokens.unscaled), scaled: s.fmt(at.tokens.scaled) }) : null;
  return h('div', {}, [
    h(hn, {}, s.t('variance.curves')),
    plot(theme, { width, height, label: s.t('variance.curvesLabel', { dk: String(dk), random }) }, [
      ticks.map((v) => h('line', { x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v), stroke: theme.grid, 'stroke-opacity': 0.5 })),
      valueAxis(theme, pad.l, y, ticks, { label: s.t('variance.axisVariance'), format: s.integer }),
      widthAxis(theme, x, height - pad.b, dims, s, { every: width < 420 ? 3 : 1 }),
      // theory: Var = d_k and Var = 1
      polyline([[x(dims[0]), y(dims[0])], [x(dims.at(-1)), y(dims.at(-1))]], { stroke: theme.unscaled, 'stroke-dasharray': '5 4', 'stroke-width': 1.5 }),
      polyline([[x(dims[0]), y(1)], [x(dims.at(-1)), y(1)]], { stroke: theme.scaled, 'stroke-dasharray': '5 4', 'stroke-width': 1.5 }),
      dkLine(theme, x(dk), pad.t, height - pad.b),
      dots(curve.unscaled, theme.unscaled, false),
      dots(curve.scaled, theme.scaled, false),
      tokenCurve ? [dots(tokenCurve.unscaled, theme.unscaled, true), dots(tokenCurve.scaled, theme.scaled, true)] : null,
    ]),
    legend([
      { color: theme.unscaled, text: 'q·k' },
      { color: theme.scaled, text: 'q·k/√d_k' },
      { color: theme.muted, text: s.t('variance.theory'), dashed: true },
    ]),
    h('p', { class: 'note stats' }, s.t(mine ? 'variance.noteSentence' : 'variance.note', { samples, draws, dk: String(dk), random, mine })),
  ]);
}
