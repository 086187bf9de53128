// What the lab exports: its figures (the heatmap, the selected query's bars) as SVG and PNG, and
// its numbers as CSV and JSON — drawn and written by the same views as the page and the command
// line (figure.js, numbers.js), never a screenshot. PNG paints the very SVG view on a canvas
// (paint.js), so it needs a browser; the rest runs anywhere.
//
//   const file = await exportFile(lab.state, { what: 'heatmap', format: 'png', theme, background: false });
//   file → { name: 'attention-cat-dk100-scaled-heatmap.png', type: 'image/png', blob, width, height }
import { figureSvg } from './figure.js';
import { toMarkup } from './h.js';
import { numbersCsv, numbersJson } from './numbers.js';
import { paintToCanvas } from './paint.js';

// The one table of export formats: what a file of each is (its MIME type and extension), whether
// only a browser can write it, and its writer. The share panel (lab-share.js: exportFile),
// renderFigure (web/api/lab.js) and the command line (bin/cli.js: --format, --output's
// extension) all read it; a new format is a row here. A writer of a figure takes the figure's
// view node (figure.js); a writer of numbers takes a lab state and which rows.
/** Pixels per CSS px of a PNG: sharp on a projector and on a high-density screen. */
export const PNG_SCALE = 2;

/** Every export format: { type, extension, browserOnly, of: 'figure' | 'numbers', write }. */
export const FORMATS = Object.freeze({
  svg: Object.freeze({ type: 'image/svg+xml', extension: '.svg', browserOnly: false, of: 'figure', write: (figure) => toMarkup(figure) }),
  csv: Object.freeze({ type: 'text/csv', extension: '.csv', browserOnly: false, of: 'numbers', write: (state, rows) => csvText(state, rows) }),
  json: Object.freeze({ type: 'application/json', extension: '.json', browserOnly: false, of: 'numbers', write: (state, rows) => `${JSON.stringify(jsonValue(state, rows), null, 2)}\n` }),
  // text needs a browser's fonts, and the canvas is an OffscreenCanvas (paint.js)
  png: Object.freeze({ type: 'image/png', extension: '.png', browserOnly: true, of: 'figure', write: (figure) => paintToCanvas(figure, { scale: PNG_SCALE }).convertToBlob({ type: 'image/png' }) }),
});

/** The format of a file name's extension (e.g. 'svg' for ".SVG"), or undefined. */
export function formatOfExtension(extension) {
  const lower = String(extension).toLowerCase();
  return Object.keys(FORMATS).find((format) => FORMATS[format].extension === lower);
}

/** What the share panel exports, and in which formats (keys of FORMATS), in the order of its buttons. */
export const EXPORTS = Object.freeze({ heatmap: Object.freeze(['png', 'svg']), bars: Object.freeze(['png', 'svg']), numbers: Object.freeze(['csv', 'json']) });

/** Room of a figure, in CSS px: the heatmap's cells fit it as they fit the page's card. */
export const FIGURE_WIDTH = Object.freeze({ heatmap: 720, bars: 560 });

// A word in a file name: its letters and digits (any script), lower case, the rest one "-".
const NAME_WORD_CHARS = 24;
const nameWord = (text) => String(text).toLowerCase().normalize('NFC').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, NAME_WORD_CHARS).replace(/-+$/, '');

/**
 * The name of a file of `what` in `format` for `state`, saying what it holds: the selected query
 * (the row a figure shows in full; not for the numbers, which hold every row), d_k, scaled or
 * not, causal, a temperature other than 1, and what it is — attention-cat-dk64-unscaled-bars.png.
 */
export function exportName(state, what, format) {
  const s = state.settings;
  const word = what === 'numbers' ? '' : nameWord(state.queryLabels[state.selected]) || `query${state.selected + 1}`;
  const parts = ['attention', word, `dk${state.d}`, s.scaled ? 'scaled' : 'unscaled', s.causal ? 'causal' : '', s.temperature === 1 ? '' : `t${String(s.temperature).replace('.', '_')}`, what];
  return `${parts.filter(Boolean).join('-')}${FORMATS[format].extension}`;
}

/**
 * The file of `what` (a key of EXPORTS) in `format` for `state` (a LabState) in `theme`
 * (concrete colours), on the theme's background or, `background: false`, on none (a slide's own);
 * its words in `strings` (web/i18n/i18n.js; English by default): { name, type, blob } and, for a
 * figure, its width and height in CSS px (a PNG has PNG_SCALE times as many pixels). Throws a
 * RangeError naming a wrong argument.
 */
export async function exportFile(state, { what, format, theme, background = true, strings = undefined }) {
  if (!Object.hasOwn(EXPORTS, what)) throw new RangeError(`what must be one of ${Object.keys(EXPORTS).join(', ')}, got ${JSON.stringify(what)}`);
  if (!EXPORTS[what].includes(format)) throw new RangeError(`format of ${what} must be one of ${EXPORTS[what].join(', ')}, got ${JSON.stringify(format)}`);
  if (!state) throw new RangeError('state must be a lab state, got null (the lab has not drawn a result yet)');
  const name = exportName(state, what, format);
  const { type, write } = FORMATS[format];
  // the share panel's numbers: every query's row and the probe's
  if (what === 'numbers') return { name, type, blob: new Blob([write(state, 'all-and-probe')], { type }) };
  const figure = figureSvg(state, { view: what, theme, width: FIGURE_WIDTH[what], background, strings });
  const width = Number(figure.attrs.width);
  const height = Number(figure.attrs.height);
  const written = await write(figure);
  const blob = written instanceof Blob ? written : new Blob([written], { type });
  return { name, type, blob, width, height };
}

// The numbers' rows (numbers.js's 'all', 'selected', 'probe'), or 'all-and-probe': every query's
// row, then the probe's (query "probe"), under one header.
function csvText(state, rows) {
  if (rows !== 'all-and-probe') return numbersCsv(state, { rows });
  const all = numbersCsv(state, { rows: 'all' });
  if (!state.probe) return all;
  return all + numbersCsv(state, { rows: 'probe' }).split('\r\n').slice(1).join('\r\n');
}

// 'all-and-probe': the settings, the tokens and every query's row, and the probe's row (null without a probe).
function jsonValue(state, rows) {
  if (rows !== 'all-and-probe') return numbersJson(state, { rows });
  const all = numbersJson(state, { rows: 'all' });
  return { ...all, tokens: [...state.queryLabels], probe: state.probe ? numbersJson(state, { rows: 'probe' }).rows[0] : null };
}
