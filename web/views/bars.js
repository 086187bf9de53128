// One query's attention weights over the keys as bars: a scene (every bar's label, weight,
// texts and marks, the row's Σ, entropy and max weight, formatted once) that the page's
// <probability-bars> shows as meters (web/components/lab/probability-bars.js) and barsSvg
// writes as SVG (exports, Node). Presentation only: every number comes from the engine.
//
//   row   = { labels (m), weights, scores (m; −Infinity = masked), rowSum, entropy, maxWeight,
//             known (m booleans, or null when unknown) }   (web/lab/state.js queryRow / probeRow)
//   scene = barsScene(row, strings)   (strings: the reader's language, web/i18n/i18n.js; English by default)
//   svg   = barsSvg(scene, { theme, width })
import { english } from '../i18n/i18n.js';
import { ariaNumber, shortLabel } from '../i18n/format.js';
import { h } from './h.js';
import { patternId } from './heatmap.js';

/** Widest label column, in em: longer labels end in "…" (the full text is their tooltip). */
export const MAX_LABEL_EM = 9;

/**
 * { m, rows, labelEm, summary: { sum, entropy, max } (texts; null for a row given without its Σ
 * and entropy: a trained model's), labels: { sum, entropy, max },
 * unknown (distinct words not in the vocabulary), strings }; each row: { key (1-based), label (as
 * shown), title (tooltip), name (the meter's accessible name), weight (finite: the bar's length),
 * valueNow (aria-valuenow: a plain decimal), text (the number shown), valueText
 * (aria-valuetext), masked, max (the row's largest weight), unknown }.
 */
export function barsScene({ labels, weights, scores, rowSum, entropy, maxWeight, known = null }, strings = english()) {
  const s = strings;
  const maskedText = s.t('bars.masked');
  const maskedValue = s.t('bars.maskedCausal');
  const m = weights.length;
  const rows = new Array(m);
  const unknown = new Set();
  let longest = 2;
  for (let j = 0; j < m; j++) {
    const w = weights[j];
    const masked = scores[j] === -Infinity;
    const label = shortLabel(labels[j]);
    const title = s.tipLabel(labels[j]);
    const text = masked ? maskedText : s.fixed(w, 3);
    const isUnknown = known ? !known[j] : false;
    if (isUnknown) unknown.add(labels[j]);
    longest = Math.max(longest, label.length);
    rows[j] = {
      key: j + 1,
      label,
      title,
      name: s.t('bars.key', { word: title, index: j + 1 }),
      weight: Number.isFinite(w) ? w : 0,
      valueNow: ariaNumber(w),
      text,
      valueText: masked ? maskedValue : text,
      masked,
      max: !masked && w === maxWeight && maxWeight > 0,
      unknown: isUnknown,
    };
  }
  return {
    m,
    rows,
    // ~0.6 em a character (em, not ch, so a bold label is as wide as the others)
    labelEm: Math.min(MAX_LABEL_EM, 0.6 * longest + 0.6),
    summary: Number.isFinite(rowSum) && Number.isFinite(entropy)
      ? { sum: s.fixed(rowSum, 3), entropy: s.t('bars.nats', { value: s.fixed(entropy, 3) }), max: s.fixed(maxWeight, 3) }
      : null,
    labels: { sum: s.t('bars.sum'), entropy: s.t('bars.entropy'), max: s.t('bars.max') },
    unknown: [...unknown],
    strings,
  };
}

const FONT_PX = 13;
const ROW_PX = 24;
const VALUE_PX = 52;
const TRACK_PX = 14;

/** The scene as SVG view nodes, `width` px wide: one row per key, then Σ, entropy and max weight. */
export function barsSvg(scene, { theme, width = 420 }) {
  const labelPx = Math.round(scene.labelEm * FONT_PX);
  const trackX = labelPx + 10;
  const trackW = Math.max(40, width - trackX - VALUE_PX - 10);
  const hatch = patternId('al-bars-hatch', theme);
  const rows = scene.rows.map((row, j) => {
    const y = j * ROW_PX;
    const mid = y + ROW_PX / 2;
    const bold = row.max ? 600 : null;
    return h('g', { 'data-key': row.key },
      h('title', `${row.name}: ${row.valueText}`),
      h('text', { x: labelPx, y: mid, 'text-anchor': 'end', 'dominant-baseline': 'central', 'font-weight': bold,
        fill: row.masked ? theme.muted : theme.text, 'text-decoration': row.unknown ? 'underline' : null }, row.label),
      h('rect', { x: trackX, y: mid - TRACK_PX / 2, width: trackW, height: TRACK_PX, rx: 3, fill: row.masked ? `url(#${hatch})` : theme.track }),
      row.masked ? null : h('rect', { x: trackX, y: mid - TRACK_PX / 2, width: +(row.weight * trackW).toFixed(2), height: TRACK_PX, rx: 3, fill: row.max ? theme.barMax : theme.bar }),
      h('text', { x: width, y: mid, 'text-anchor': 'end', 'dominant-baseline': 'central', 'font-family': theme.mono, 'font-weight': bold,
        fill: row.masked ? theme.muted : theme.text }, row.text),
    );
  });
  const top = scene.m * ROW_PX + 12;
  const names = scene.labels;
  // xml:space: the names' trailing spaces are kept by rsvg and resvg too (browsers keep them anyway)
  const summary = scene.summary && h('text', { x: 0, y: top + 14, fill: theme.text, 'xml:space': 'preserve' },
    h('tspan', { fill: theme.muted }, `${names.sum} `), scene.summary.sum,
    h('tspan', { fill: theme.muted, dx: 18 }, `${names.entropy} `), scene.summary.entropy,
    h('tspan', { fill: theme.muted, dx: 18 }, `${names.max} `), scene.summary.max);
  const height = summary ? top + 24 : top;
  return h('svg', {
    width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': scene.strings.t('bars.svgLabel', { m: scene.m }),
    'font-family': theme.font, 'font-size': FONT_PX,
  },
  h('defs', h('pattern', { id: hatch, width: 5, height: 5, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
    h('rect', { width: 5, height: 5, fill: theme.masked }),
    h('rect', { width: 1, height: 5, fill: theme.maskedLine }))),
  rows,
  summary && h('line', { x1: 0, x2: width, y1: top, y2: top, stroke: theme.border }),
  summary);
}
