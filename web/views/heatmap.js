// The heatmap of attention weights (rows = queries, columns = keys) as a scene: the layout (cell
// size, label positions, labels fitted to their room), each cell's colour level, the masked
// cells and the colours, computed once from the data. The page paints a scene on its canvases
// (web/components/lab/heatmap-painter.js); heatmapSvg writes the same scene as SVG (exports,
// Node). Presentation only: every number comes from the engine's result.
//
//   data  = { n, m, weights, scores (Float32Array n×m; −Infinity = masked), dots (n×m, optional),
//             queryLabels (n), keyLabels (m), selected }
//   scene = heatmapScene(data, { width, theme, measure, strings })   → see the fields below
//   svg   = heatmapSvg(scene)                               → view nodes (web/views/h.js)
import { english } from '../i18n/i18n.js';
import { contrast, formatColor, heatLevel, heatRamp } from './color.js';
import { prefix, shortLabel } from '../i18n/format.js';
import { h } from './h.js';
import { MASKED, pngDataUri, pooledLevels } from './raster.js';

export const FONT_PX = 12;
export const MIN_CELL = 14; // below this the grid scrolls sideways
export const MAX_CELL = 52;
export const NUMBERS_FROM_CELL = 34; // cells at least this wide show their weight
export const MAX_LABEL_PX = 96;
export const GUTTERS_FROM_CELL = 20; // cells at least this wide are parted by 1 px gutters
/**
 * Above this many cells (the lab's largest, 128 × 128) a heatmap is one picture, not one element
 * (or one canvas pixel) per cell: its cells shrink to fit the room, however small, and their
 * colours are pooled to the pixels a reader sees (web/views/raster.js). 4,096 supplied tokens
 * are 16.8 million cells; one SVG element each wrote 124 MB at 1,024 tokens and ran out of
 * memory at 4,096.
 */
export const MAX_VECTOR_CELLS = 128 * 128;
/** Pixels of the pooled picture per CSS px: sharp on a high-density screen and in print. */
export const RASTER_SCALE = 2;
const HEADER_ANGLE_DEG = -60; // column labels rise at 60°
const HEADER_ANGLE_SIN = 0.866;

/**
 * Text width in px at FONT_PX for Node and exports, where no font can be measured: 0.6 em a
 * character, about the average of the sans-serif fonts the page uses (system-ui's lower case is
 * ~0.55 em, capitals and digits ~0.65 em).
 */
export function approximateMeasure(text, px = FONT_PX) {
  return text.length * 0.6 * px;
}

/**
 * The scene of `data` in `width` px (the room the heatmap has; below MIN_CELL a cell the grid is
 * wider and scrolls). `theme`: concrete colours (web/views/theme.js keys); `measure(text)`: the
 * width of text in px at FONT_PX in theme.font (canvas measureText in a page); `strings`: the
 * words and numbers of the reader's language (web/i18n/i18n.js; English by default). Returns
 *   { n, m, selected, x0, y0 (the grid's corner), cell (px a cell, gutter included), gap,
 *     width, height, numbers (cells show their weight), font (CSS font),
 *     rowLabels, colLabels (the labels as drawn: shortened to fit), queryLabels, keyLabels (in full),
 *     weights, scores, dots, levels (Uint8Array n×m: 0…255, the colour step), masked (Uint8Array
 *     n×m: 1 = masked), maskedCount, palette ({ rgb, fill, ink } per level), theme, strings,
 *     raster: null, or past MAX_VECTOR_CELLS { width, height, image (palette indices, MASKED =
 *     masked), pooled (a pixel covers more than one cell) } }. A raster scene labels every
 *     k-th row and column (and the selected row); the others' labels are ''.
 * Labels are measured once per label list and `measure` (the same arrays again cost nothing).
 */
export function heatmapScene(data, { width, theme, measure = approximateMeasure, strings = english() }) {
  const { n, m, weights, scores, queryLabels, keyLabels, selected } = data;
  const rows = fitLabels(queryLabels, measure);
  const cols = fitLabels(keyLabels, measure);
  const x0 = Math.ceil(rows.width + 12);
  const y0 = Math.ceil(cols.width * HEADER_ANGLE_SIN + 14);
  // the last column label leans right beyond the grid: room for it, or a heatmap that would fit
  // is a few px too wide and says it scrolls
  const lean = Math.ceil(cols.width * 0.5);
  const available = Math.max(0, width - x0 - Math.max(24, lean));
  const large = n * m > MAX_VECTOR_CELLS;
  // a large grid fits the room whatever its cells' size: it never scrolls sideways
  const cell = large ? Math.min(MAX_CELL, Math.max(available, 1) / m) : Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(available / m)));
  const levels = new Uint8Array(n * m);
  const masked = new Uint8Array(n * m);
  let maskedCount = 0;
  for (let at = 0; at < n * m; at++) {
    // without scores (a trained model's rows), causal data hide the keys after the query
    if (scores ? scores[at] === -Infinity : data.causal && at % m > Math.floor(at / m)) {
      masked[at] = 1;
      maskedCount++;
    } else levels[at] = heatLevel(weights[at]);
  }
  let raster = null;
  let [rowLabels, colLabels] = [rows.texts, cols.texts];
  if (large) {
    const rw = Math.min(m, Math.ceil(m * cell * RASTER_SCALE));
    const rh = Math.min(n, Math.ceil(n * cell * RASTER_SCALE));
    raster = { width: rw, height: rh, image: pooledLevels(levels, masked, n, m, rw, rh), pooled: rw < m || rh < n };
    // one label in every `step` rows and columns, so that labels do not overlap
    // (a column label leans at 60°: it needs more room across than a row label does down)
    const rowStep = Math.max(1, Math.ceil(FONT_PX / cell));
    const colStep = Math.max(1, Math.ceil((1.5 * FONT_PX) / cell));
    if (rowStep > 1) rowLabels = rowLabels.map((text, i) => (i === selected || (i % rowStep === 0 && Math.abs(i - selected) >= rowStep) ? text : ''));
    if (colStep > 1) colLabels = colLabels.map((text, j) => (j % colStep === 0 ? text : ''));
  }
  return {
    n,
    m,
    selected,
    x0,
    y0,
    cell,
    gap: !large && cell >= GUTTERS_FROM_CELL ? 1 : 0,
    width: Math.ceil(x0 + m * cell + lean),
    height: Math.ceil(y0 + n * cell + 2),
    numbers: !large && cell >= NUMBERS_FROM_CELL,
    font: `${FONT_PX}px ${theme.font}`,
    rowLabels,
    colLabels,
    queryLabels,
    keyLabels,
    weights,
    scores,
    dots: data.dots ?? null,
    levels,
    masked,
    maskedCount,
    palette: heatPalette(theme),
    theme,
    strings,
    raster,
  };
}

/** The colours of a raster scene's image by index: the palette's levels, then the masked colour. */
export function rasterColours(scene) {
  const colours = scene.palette.rgb.slice(0, MASKED);
  colours[MASKED] = hexRgb(scene.theme.masked);
  return colours;
}

// '#rrggbb' or 'rgb(r, g, b)' (a theme read from the page's CSS) → [r, g, b]
const hexRgb = (colour) => {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1];
  if (hex) return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(colour);
  return rgb ? rgb.slice(1, 4).map(Number) : [128, 128, 128];
};

/** What a cell says in a title: "q → k: weight 0.363" or "q → k: masked", in the scene's language. */
export function cellText(scene, i, j) {
  const s = scene.strings;
  const at = i * scene.m + j;
  const value = scene.masked[at] ? s.t('heatmap.masked') : s.t('heatmap.cellWeight', { value: s.fixed(scene.weights[at], 3) });
  return s.t('heatmap.pair', { query: s.tipLabel(scene.queryLabels[i]), key: s.tipLabel(scene.keyLabels[j]), value });
}

// ---- labels ------------------------------------------------------------------------------

const fitted = new WeakMap(); // labels array → { measure, result }

// Each label at most MAX_LABEL_PX wide, and the widest one's width (at most MAX_LABEL_PX).
function fitLabels(labels, measure) {
  const hit = fitted.get(labels);
  if (hit?.measure === measure) return hit.result;
  let widest = 0;
  const texts = labels.map((label) => {
    const short = shortLabel(label);
    const w = measure(short);
    widest = Math.max(widest, w);
    return w <= MAX_LABEL_PX ? short : fit(label, short, MAX_LABEL_PX, measure);
  });
  const result = { width: Math.min(MAX_LABEL_PX, widest), texts };
  fitted.set(labels, { measure, result });
  return result;
}

// The longest start of `label` (one character at least) that fits `room` px with "…" after it.
// Widths grow with the length of a prefix, so a binary search finds it in O(log LABEL_CHARS)
// measurements; `short` (shortLabel) already bounds the length, so no label costs more.
function fit(label, short, room, measure) {
  const base = short === label ? label : short.slice(0, -1);
  let lo = 1; // the answer when nothing fits
  let hi = short === label ? base.length - 1 : base.length; // the whole label did not fit
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(`${prefix(base, mid)}…`) <= room) lo = mid;
    else hi = mid - 1;
  }
  return `${prefix(base, lo)}…`;
}

// ---- colours -----------------------------------------------------------------------------

const palettes = new WeakMap(); // theme → palette

/**
 * The theme's colour scale as 256 levels (web/views/color.js heatRamp): rgb ([r, g, b]), fill
 * (#rrggbb) and ink, the colour of a number written on the cell: black or white, whichever
 * contrasts more (at least 4.58:1 on any colour, the WCAG AA 4.5:1 for text).
 */
export function heatPalette(theme) {
  let palette = palettes.get(theme);
  if (!palette) {
    const rgb = heatRamp(theme);
    const fill = rgb.map((c) => formatColor(c));
    palette = Object.freeze({ rgb, fill, ink: fill.map((c) => (contrast(c, '#000000') >= contrast(c, '#ffffff') ? '#000000' : '#ffffff')) });
    palettes.set(theme, palette);
  }
  return palette;
}

// ---- SVG ---------------------------------------------------------------------------------

/** The scene as SVG view nodes: cells (each with its title), numbers, labels, the selected row. */
export function heatmapSvg(scene) {
  const { n, m, x0, y0, cell, gap, width, height, palette, theme, selected } = scene;
  const side = cell - gap;
  const hatch = patternId('al-hatch', theme);
  const cells = [];
  const numbers = [];
  if (scene.raster) {
    const { width: rw, height: rh, image } = scene.raster;
    cells.push(h('image', { x: x0, y: y0, width: m * cell, height: n * cell, preserveAspectRatio: 'none', 'image-rendering': 'optimizeSpeed', href: pngDataUri(image, rw, rh, rasterColours(scene)) }));
  }
  for (let i = 0; i < (scene.raster ? 0 : n); i++) {
    for (let j = 0; j < m; j++) {
      const at = i * m + j;
      const x = x0 + j * cell;
      const y = y0 + i * cell;
      const level = scene.levels[at];
      cells.push(
        h('rect', { x, y, width: side, height: side, fill: scene.masked[at] ? `url(#${hatch})` : palette.fill[level] },
          h('title', cellText(scene, i, j))),
      );
      if (scene.numbers && !scene.masked[at]) {
        numbers.push(h('text', { x: x + side / 2, y: y + side / 2, fill: palette.ink[level], 'text-anchor': 'middle', 'dominant-baseline': 'central' },
          scene.strings.fixed(scene.weights[at], 2)));
      }
    }
  }
  const rowLabels = scene.rowLabels.map((text, i) => text === '' ? null :
    h('text', {
      x: x0 - 8, y: y0 + i * cell + cell / 2, 'text-anchor': 'end', 'dominant-baseline': 'central',
      fill: i === selected ? theme.accent : theme.text, 'font-weight': i === selected ? 600 : null,
    }, text),
  );
  const colLabels = scene.colLabels.map((text, j) => text === '' ? null :
    h('text', { transform: `translate(${x0 + j * cell + side / 2 + 3} ${y0 - 6}) rotate(${HEADER_ANGLE_DEG})`, 'dominant-baseline': 'central', fill: theme.text }, text),
  );
  const ring = selected >= 0 && selected < n
    ? h('rect', { x: x0 - 1, y: y0 + selected * cell - 1, width: m * cell - gap + 2, height: side + 2, fill: 'none', stroke: theme.accent, 'stroke-width': 2 })
    : null;
  return h('svg', {
    width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': scene.strings.t('heatmap.svgLabel', { n, m }),
    'font-family': theme.font, 'font-size': FONT_PX,
  },
  h('defs', h('pattern', { id: hatch, width: 8, height: 8, patternUnits: 'userSpaceOnUse' },
    h('rect', { width: 8, height: 8, fill: theme.masked }),
    h('path', { d: 'M-2 10L10-2M-2 2L2-2M6 10L10 6', stroke: theme.maskedLine, 'stroke-width': 1.5 }))),
  cells, numbers, rowLabels, colLabels, ring);
}

/**
 * An id for a pattern drawn in `theme`'s colours: the same name for the same colours, so two
 * SVGs on one page (light and dark, say) never draw each other's patterns.
 */
export function patternId(name, theme) {
  return `${name}-${`${theme.masked}-${theme.maskedLine}`.replace(/[^0-9a-z]+/gi, '')}`;
}
