// The twins' training curves (web/assets/model/<variant>-curve.tsv, written by the training
// driver: docs/model.md, "Training, and the sizes"), read and drawn as one chart: x the step, y
// the loss in nats; each step's training loss a thin line, the held-out loss marked where it was
// measured. With it, what the curves say in words and the held-out checks as a table for screen
// readers. Presentation math only (scales, ticks, which steps to draw): every number is read
// from the files.
//
//   curve: { steps, train (loss per step), heldOut: [{ step, loss, train }] } (web/lesson/trained-model.js, parseCurve)
//   facts = curveFacts({ scaled, unscaled })
//   nodes = curveChart({ scaled, unscaled }, { strings, heading }, theme, { width })
import { english } from '../i18n/i18n.js';
import { headingTag, linear, mutedText, plot } from './chart.js';
import { h } from './h.js';

const TWINS = ['scaled', 'unscaled'];
const HEIGHT = 224;
const PAD = { l: 44, r: 14, t: 24, b: 34 };
const MAX_WIDTH = 640;

/**
 * What the chart states in numbers, each read from the curves: per twin its first and last
 * training loss and its first and last held-out loss (with their steps); the steps between
 * held-out checks and how many there are.
 */
export function curveFacts(curves) {
  const twin = (c) => ({
    first: { step: c.steps[0], loss: c.train[0] },
    last: { step: c.steps.at(-1), loss: c.train.at(-1) },
    firstCheck: c.heldOut[0],
    heldOut: c.heldOut.at(-1),
  });
  const { heldOut } = curves.scaled;
  return {
    scaled: twin(curves.scaled), unscaled: twin(curves.unscaled),
    every: heldOut.length > 1 ? heldOut[1].step - heldOut[0].step : heldOut[0].step,
    checks: heldOut.length,
  };
}

// The loss axis: from the half-nat below the lowest training loss to a whole nat at least one above
// the highest held-out loss (the first steps of training, far above, are cut off and said so).
function lossRange(curves) {
  let lo = Infinity, hi = -Infinity;
  for (const v of TWINS) {
    for (const x of curves[v].train) lo = Math.min(lo, x);
    for (const p of curves[v].heldOut) hi = Math.max(hi, p.loss), lo = Math.min(lo, p.loss);
  }
  return [Math.floor(lo * 2) / 2, Math.ceil(hi + 1)];
}

// Round step ticks: 0 and multiples of a 1-2-5 spacing, about five of them.
function stepTicks(last) {
  const raw = last / 5;
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  const spacing = [1, 2, 5, 10].map((f) => f * magnitude).find((s) => s >= raw) ?? raw;
  const ticks = [];
  for (let s = 0; s <= last; s += spacing) ticks.push(s);
  return ticks;
}

// A twin's held-out mark: a filled circle with √d_k, an open square without (told apart without colour).
function mark(twin, x, y, color, title = null) {
  const tip = title === null ? null : h('title', {}, title);
  return twin === 'scaled'
    ? h('circle', { cx: x, cy: y, r: 3.5, fill: color }, tip)
    : h('rect', { x: x - 3.5, y: y - 3.5, width: 7, height: 7, fill: 'none', stroke: color, 'stroke-width': 1.5 }, tip);
}

const drawnPaths = new WeakMap(); // a curve → { key, d }: the same curve at the same scale is written once

// "M x y L x y …" of a curve's training loss, one point per pixel at most (every k-th step, and the last).
function trainPath(curve, x, y, plotWidth, key) {
  const drawn = drawnPaths.get(curve);
  if (drawn?.key === key) return drawn.d;
  const count = curve.steps.length;
  const stride = Math.max(1, Math.ceil(count / plotWidth));
  let d = '';
  const at = (i) => `${Math.round(x(curve.steps[i]) * 10) / 10} ${Math.round(y(curve.train[i]) * 10) / 10}`;
  for (let i = 0; i < count; i += stride) d += `${d ? 'L' : 'M'}${at(i)}`;
  if ((count - 1) % stride) d += `L${at(count - 1)}`;
  drawnPaths.set(curve, { key, d });
  return d;
}

/**
 * (curves { scaled, unscaled }, settings { strings, heading }, theme, { width }) → view nodes: a
 * heading, what the curves say, the chart, its legend and the held-out checks as a table.
 */
export function curveChart(curves, { strings = english(), heading } = {}, theme, { width }) {
  const s = strings;
  const hn = headingTag({ heading });
  const f = curveFacts(curves);
  const fx = (v) => s.fixed(v, 2);
  const name = { scaled: s.t('modelView.curveWith'), unscaled: s.t('modelView.curveWithout') };
  const color = { scaled: theme.scaled, unscaled: theme.unscaled };
  const [lo, hi] = lossRange(curves);
  const last = Math.max(curves.scaled.steps.at(-1), curves.unscaled.steps.at(-1));
  const w = Math.max(260, Math.min(width, MAX_WIDTH));
  const x = linear(0, last, PAD.l, w - PAD.r);
  const y = linear(lo, hi, HEIGHT - PAD.b, PAD.t);
  const bottom = HEIGHT - PAD.b;
  const yTicks = [];
  for (let v = lo; v <= hi + 1e-9; v += 0.5) yTicks.push(v);
  const key = `${w}|${lo}|${hi}|${last}`;
  const clip = 'model-curve-plot';
  const title = (twin, p) => s.t('modelView.curvePoint', { twin: name[twin], step: s.integer(p.step), loss: s.fixed(p.loss, 3) });

  const chart = plot(theme, { width: w, height: HEIGHT, label: s.t('modelView.curveLabel', { steps: s.integer(last) }) }, [
    h('defs', {}, h('clipPath', { id: clip }, h('rect', { x: PAD.l, y: PAD.t, width: w - PAD.l - PAD.r, height: bottom - PAD.t }))),
    h('g', { class: 'axis', stroke: theme.grid }, [
      yTicks.map((v) => [
        h('line', { x1: PAD.l, x2: w - PAD.r, y1: y(v), y2: y(v), 'stroke-opacity': 0.6 }),
        mutedText(theme, { x: PAD.l - 6, y: y(v) + 4, 'text-anchor': 'end', stroke: 'none' }, s.fixed(v, 1)),
      ]),
      h('line', { x1: PAD.l, x2: w - PAD.r, y1: bottom, y2: bottom }),
      stepTicks(last).map((v) => [
        h('line', { x1: x(v), x2: x(v), y1: bottom, y2: bottom + 4 }),
        mutedText(theme, { x: x(v), y: bottom + 16, 'text-anchor': 'middle', stroke: 'none' }, s.integer(v)),
      ]),
      mutedText(theme, { x: w - PAD.r, y: bottom + 30, 'text-anchor': 'end', stroke: 'none' }, s.t('modelView.curveStep')),
      mutedText(theme, { x: 4, y: 12, stroke: 'none' }, s.t('modelView.curveLoss')),
    ]),
    h('g', { 'clip-path': `url(#${clip})` }, TWINS.map((twin) =>
      h('path', { d: trainPath(curves[twin], x, y, w - PAD.l - PAD.r, key), fill: 'none', stroke: color[twin], 'stroke-width': 1, 'stroke-opacity': 0.45 }))),
    TWINS.map((twin) => {
      const points = curves[twin].heldOut;
      return h('g', { class: `held-out ${twin}` }, [
        h('polyline', { points: points.map((p) => `${Math.round(x(p.step) * 10) / 10},${Math.round(y(p.loss) * 10) / 10}`).join(' '), fill: 'none', stroke: color[twin], 'stroke-width': 2 }),
        points.map((p) => mark(twin, x(p.step), y(p.loss), color[twin], title(twin, p))),
      ]);
    }),
  ]);

  const legendRow = h('div', { class: 'legend', 'aria-hidden': 'true' }, TWINS.map((twin) =>
    h('span', {}, [
      h('svg', { width: 26, height: 12, viewBox: '0 0 26 12' }, [
        h('line', { x1: 1, x2: 25, y1: 6, y2: 6, stroke: color[twin], 'stroke-width': 2 }),
        mark(twin, 13, 6, color[twin]),
      ]),
      s.t(twin === 'scaled' ? 'modelView.twinScaled' : 'modelView.twinUnscaled'),
    ])));

  const clipped = TWINS.some((twin) => curves[twin].train.some((v) => v > hi));
  const rows = curves.scaled.heldOut.map((p, i) => ({ step: p.step, scaled: p, unscaled: curves.unscaled.heldOut[i] }));
  const table = h('div', { class: 'visually-hidden' }, h('table', {}, [
    h('caption', {}, s.t('modelView.curveCaption')),
    h('thead', {}, h('tr', {}, [
      h('th', { scope: 'col' }, s.t('modelView.curveStep')),
      TWINS.map((twin) => [
        h('th', { scope: 'col' }, s.t('modelView.curveTrainOf', { twin: name[twin] })),
        h('th', { scope: 'col' }, s.t('modelView.curveHeldOutOf', { twin: name[twin] })),
      ]),
    ])),
    h('tbody', {}, rows.map((row) => h('tr', {}, [
      h('th', { scope: 'row' }, s.integer(row.step)),
      TWINS.map((twin) => row[twin]?.step === row.step
        ? [h('td', {}, s.fixed(row[twin].train, 3)), h('td', {}, s.fixed(row[twin].loss, 3))]
        : [h('td', {}, '—'), h('td', {}, '—')]),
    ]))),
  ]));

  return h('div', { class: 'curve' }, [
    h(hn, {}, s.t('modelView.curveTitle')),
    h('p', {}, s.t('modelView.curveSummary', {
      every: s.integer(f.every), firstCheck: s.integer(f.scaled.firstCheck.step), lastCheck: s.integer(f.scaled.heldOut.step),
      scaledCheck: fx(f.scaled.firstCheck.loss), unscaledCheck: fx(f.unscaled.firstCheck.loss),
      scaledHeld: fx(f.scaled.heldOut.loss), unscaledHeld: fx(f.unscaled.heldOut.loss),
    })),
    chart,
    legendRow,
    h('p', { class: 'note' }, [
      s.t('modelView.curveNote', { every: s.integer(f.every) }),
      clipped ? ` ${s.t('modelView.curveClipped', { top: s.fixed(hi, 1) })}` : null,
    ]),
    table,
  ]);
}
