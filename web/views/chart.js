// Pieces the lesson's plots share: scales, axes, polylines, legends, the ◆ of the lab's own
// row. Presentation math only (positions, ticks). Every colour is a concrete colour of the
// theme object and every text a child string, so a plot is the same in a page and as a
// standalone SVG file (toMarkup).
import { mix } from './color.js';
import { prefix } from '../i18n/format.js';
import { h } from './h.js';
import { TYPE } from './theme.js';

export const linear = (d0, d1, r0, r1) => (v) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0);
export const log2Scale = (d0, d1, r0, r1) => (v) => r0 + ((Math.log2(v) - Math.log2(d0)) / (Math.log2(d1) - Math.log2(d0))) * (r1 - r0);

/**
 * The tag of a view's own headings: one level below its section's (settings.heading, the
 * lesson's heading-level + 1; h4 by default), at most h6.
 */
export function headingTag({ heading = 4 } = {}) {
  return `h${Math.max(1, Math.min(6, heading))}`;
}

/**
 * A box that scrolls sideways when its content is wider than the page (a table, a plot): a
 * keyboard stop of its own (a group named `label`), so that it can be scrolled without a mouse.
 */
export function scrollBox(label, ...children) {
  return h('div', { class: 'scroll', tabindex: 0, role: 'group', 'aria-label': label }, children);
}

/** A panel's width: two side by side from 640 px, else the whole width. */
export function panelWidth(width) {
  return width >= 640 ? Math.floor((width - 20) / 2) : width;
}

/** An <svg> plot whose texts carry the theme's font and colour (a standalone file has no style sheet). */
export function plot(theme, { width, height, label }, ...children) {
  return h(
    'svg',
    { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, 'font-family': theme.font, 'font-size': TYPE.chart, fill: theme.text },
    children,
  );
}

/** Secondary text of a plot (axis labels, notes). */
export function mutedText(theme, attrs, text) {
  return h('text', { ...attrs, fill: theme.muted }, text);
}

/** A horizontal log₂ axis of key widths at y, with ticks at the widths `dims`; `strings` for its label. */
export function widthAxis(theme, x, y, dims, strings, { label = strings.t('chart.dkLog'), every = 1 } = {}) {
  return h('g', { class: 'axis', stroke: theme.grid }, [
    h('line', { x1: x(dims[0]), x2: x(dims[dims.length - 1]), y1: y, y2: y }),
    dims.map((d, i) =>
      i % every
        ? null
        : [h('line', { x1: x(d), x2: x(d), y1: y, y2: y + 4 }), mutedText(theme, { x: x(d), y: y + 16, 'text-anchor': 'middle', stroke: 'none' }, String(d))],
    ),
    mutedText(theme, { x: (x(dims[0]) + x(dims[dims.length - 1])) / 2, y: y + 32, 'text-anchor': 'middle', stroke: 'none' }, label),
  ]);
}

/** A vertical axis with the given tick values at x (labels to the left), written by `format`. */
export function valueAxis(theme, x, y, ticks, { format, label } = {}) {
  return h('g', { class: 'axis', stroke: theme.grid }, [
    ticks.map((v) => [
      h('line', { x1: x - 4, x2: x, y1: y(v), y2: y(v) }),
      mutedText(theme, { x: x - 7, y: y(v) + 4, 'text-anchor': 'end', stroke: 'none' }, format(v)),
    ]),
    label ? mutedText(theme, { x: x - 7, y: y(ticks[ticks.length - 1]) - 10, 'text-anchor': 'start', stroke: 'none' }, label) : null,
  ]);
}

/** The dotted vertical line marking the lab's d_k on a sweep plot. */
export function dkLine(theme, x, top, bottom) {
  return h('line', { x1: x, x2: x, y1: top, y2: bottom, stroke: theme.muted, 'stroke-dasharray': '2 3' });
}

/** A polyline through points [x, y]. */
export function polyline(points, attrs) {
  return h('polyline', { fill: 'none', 'stroke-width': 2, ...attrs, points: points.map((p) => p.join(',')).join(' ') });
}

/** A ◆ at (cx, cy): the lab's own row on a sweep plot. */
export function labMarker(cx, cy, color, title) {
  const r = 6;
  return h(
    'path',
    { class: 'lab-marker', d: `M${cx},${cy - r}L${cx + r},${cy}L${cx},${cy + r}L${cx - r},${cy}Z`, fill: 'none', stroke: color, 'stroke-width': 2 },
    h('title', {}, title),
  );
}

/** A legend row: [{ color, text, dashed? }, …], each with a small swatch drawn as SVG. */
export function legend(items) {
  return h(
    'div',
    { class: 'legend' },
    items.map(({ color, text, dashed = false }) =>
      h('span', {}, [
        h(
          'svg',
          { class: 'swatch', width: 12, height: 12, viewBox: '0 0 12 12', 'aria-hidden': 'true' },
          dashed
            ? h('rect', { x: 1, y: 1, width: 10, height: 10, rx: 2, fill: 'none', stroke: color, 'stroke-width': 2, 'stroke-dasharray': '3 2' })
            : h('rect', { x: 0, y: 0, width: 12, height: 12, rx: 2, fill: color }),
        ),
        text,
      ]),
    ),
  );
}

/**
 * What the sweeps over d_k are when the lab is on Identity, which has no d_k (seeded random
 * projections of the same words, the lab's Random mode), and where the lab's own row sits.
 * Null for any other projection.
 */
export function identityNote(projection, strings) {
  if (projection !== 'identity') return null;
  return h('p', { class: 'note identity' }, strings.t('chart.identityMarked'));
}

/** A word for a tight label (the Jacobian's axes): its first characters and "…" past `max`. */
export function short(word, max = 8) {
  return word.length > max ? `${prefix(word, max - 1)}…` : word;
}

// Colour ramps of 101 steps (whole percents, as CSS color-mix takes them), mixed once per pair
// of colours: a view with thousands of cells mixes at most 101 colours per ramp, and a page that
// reads its theme afresh for every draw (readTheme: a new object, the same colours) mixes none.
// A theme has a handful of pairs; a page sees one or two themes.
const ramps = new Map(); // `${a}|${b}` → 101 colours

function ramp(_theme, a, b) {
  const key = `${a}|${b}`;
  let steps = ramps.get(key);
  if (!steps) ramps.set(key, (steps = Array.from({ length: 101 }, (_, i) => mix(a, b, i / 100))));
  return steps;
}

/** A weight in [0, 1] as a colour: the theme's empty cell to its accent, on a square-root ramp in Oklab. */
export function weightColor(theme, p) {
  return weightRamp(theme)[weightStep(p)];
}

/** The 101 colours weightColor picks from, empty cell first (for views that paint pixels). */
export function weightRamp(theme) {
  return ramp(theme, theme.accent, theme.cell);
}

/** Where a weight falls on weightRamp: 0–100, square-root spaced; 0 for anything not above 0. */
export function weightStep(p) {
  return Math.round(Math.sqrt(p > 0 ? Math.min(1, p) : 0) * 100);
}

/** A signed value relative to `extent` as a colour: positive and negative hues from the empty cell. */
export function divergingColor(theme, v, extent) {
  const f = extent > 0 && Number.isFinite(v) ? Math.max(-1, Math.min(1, v / extent)) : 0;
  return ramp(theme, f >= 0 ? theme.positive : theme.negative, theme.cell)[Math.round(Math.sqrt(Math.abs(f)) * 100)];
}
