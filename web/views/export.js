// What the lab exports: its figures (the heatmap, the selected query's bars) as SVG and PNG, and
// its numbers as CSV and JSON — drawn and written by the same views as the page and the command
// line (figure.js, numbers.js), never a screenshot. PNG paints the very SVG view on a canvas
// (paint.js), so it needs a browser; the rest runs anywhere.
//
//   const file = await exportFile(lab.state, { what: 'heatmap', format: 'png', theme });
//   file → { name: 'attention-lab-heatmap.png', type: 'image/png', blob, width, height }
import { figureSvg } from './figure.js';
import { toMarkup } from './h.js';
import { numbersCsv, numbersJson } from './numbers.js';
import { paintToCanvas } from './paint.js';

/** What can be exported, and in which formats. */
export const EXPORTS = Object.freeze({ heatmap: ['png', 'svg'], bars: ['png', 'svg'], numbers: ['csv', 'json'] });

/** Room of a figure, in CSS px: the heatmap's cells fit it as they fit the page's card. */
export const FIGURE_WIDTH = Object.freeze({ heatmap: 720, bars: 560 });
/** Pixels per CSS px of a PNG: sharp on a projector and on a high-density screen. */
export const PNG_SCALE = 2;

const TYPES = { png: 'image/png', svg: 'image/svg+xml', csv: 'text/csv', json: 'application/json' };

/**
 * The file of `what` (a key of EXPORTS) in `format` for `state` (a LabState) in `theme`
 * (concrete colours), its words in `strings` (web/i18n/i18n.js; English by default): { name, type, blob } and, for a figure, its width and height in CSS px
 * (a PNG has PNG_SCALE times as many pixels). Throws a RangeError naming a wrong argument.
 */
export async function exportFile(state, { what, format, theme, strings = undefined }) {
  if (!Object.hasOwn(EXPORTS, what)) throw new RangeError(`what must be one of ${Object.keys(EXPORTS).join(', ')}, got ${JSON.stringify(what)}`);
  if (!EXPORTS[what].includes(format)) throw new RangeError(`format of ${what} must be one of ${EXPORTS[what].join(', ')}, got ${JSON.stringify(format)}`);
  if (!state) throw new RangeError('state must be a lab state, got null (the lab has not drawn a result yet)');
  const name = `attention-lab-${what}.${format}`;
  const type = TYPES[format];
  if (what === 'numbers') {
    const text = format === 'csv' ? numbersCsvText(state) : `${JSON.stringify(numbersJsonValue(state), null, 2)}\n`;
    return { name, type, blob: new Blob([text], { type }) };
  }
  const figure = figureSvg(state, { view: what, theme, width: FIGURE_WIDTH[what], strings });
  const width = Number(figure.attrs.width);
  const height = Number(figure.attrs.height);
  const blob = format === 'svg'
    ? new Blob([toMarkup(figure)], { type })
    : await paintToCanvas(figure, { scale: PNG_SCALE }).convertToBlob({ type });
  return { name, type, blob, width, height };
}

// Every query's row, then the probe's (query "probe"), under one header.
function numbersCsvText(state) {
  const rows = numbersCsv(state, { rows: 'all' });
  if (!state.probe) return rows;
  return rows + numbersCsv(state, { rows: 'probe' }).split('\r\n').slice(1).join('\r\n');
}

// The settings, the tokens and every query's row, and the probe's row (null without a probe).
function numbersJsonValue(state) {
  const all = numbersJson(state, { rows: 'all' });
  return { ...all, tokens: [...state.queryLabels], probe: state.probe ? numbersJson(state, { rows: 'probe' }).rows[0] : null };
}
