// A lab figure as one standalone SVG: the heatmap, the selected query's bars, the probe's bars,
// or the heatmap and the bars together, each under the title the page gives it, on the theme's
// background, with a caption of the settings. Built from the same scenes the page paints
// (heatmap.js, bars.js), so a figure shows what the page shows for the same state.
//
//   toMarkup(figureSvg(state, { view: 'both', theme: THEMES.light, width: 640 }))
import { barsScene, barsSvg } from './bars.js';
import { shortLabel } from './format.js';
import { h } from './h.js';
import { heatmapScene, heatmapSvg } from './heatmap.js';
import { heatmapData, probeRow, queryRow } from '../lab/state.js';

/** What a figure can show. */
export const FIGURE_VIEWS = Object.freeze(['heatmap', 'bars', 'probe', 'both']);

const PAD = 16;
const TITLE_PX = 15;
const TITLE_GAP = 10; // below a title
const PANEL_GAP = 24; // between two panels
const NOTE_PX = 12;

/**
 * The figure of `state` (a LabState) as view nodes: `view` one of FIGURE_VIEWS, `theme` concrete
 * colours (web/views/theme.js THEMES), `width` the room in px (the heatmap's cells fit it, as in
 * the page; a long sentence makes it wider), `caption` the settings and unknown words below.
 */
export function figureSvg(state, { view = 'both', theme, width = 640, caption = true } = {}) {
  if (!FIGURE_VIEWS.includes(view)) throw new RangeError(`view must be one of ${FIGURE_VIEWS.join(', ')}, got ${JSON.stringify(view)}`);
  if (view === 'probe' && !state.probe) throw new RangeError('view "probe" needs a probe word: the settings have none');
  const room = width - 2 * PAD;
  const panels = [];
  if (view === 'heatmap' || view === 'both') {
    panels.push({ title: 'Attention weights', svg: heatmapSvg(heatmapScene(heatmapData(state), { width: room, theme })) });
  }
  if (view === 'bars' || view === 'both') {
    const query = shortLabel(state.queryLabels[state.selected]);
    panels.push({ title: `Where “${query}” looks`, svg: barsSvg(barsScene(queryRow(state)), { theme, width: Math.min(room, 480) }) });
  }
  if (view === 'probe') {
    panels.push({ title: `Where the probe “${shortLabel(state.probe.text)}” looks`, svg: barsSvg(barsScene(probeRow(state)), { theme, width: Math.min(room, 480) }) });
  }

  const children = [];
  let y = PAD;
  let right = 0; // the figure is as wide as what it holds, and at most `width` unless a panel is wider
  const fit = (text, px) => Math.min(width, textWidth(text, px) + 2 * PAD);
  for (const { title, svg } of panels) {
    right = Math.max(right, fit(title, TITLE_PX));
    children.push(h('text', { x: PAD, y: y + TITLE_PX, 'font-size': TITLE_PX, 'font-weight': 650, fill: theme.text }, title));
    y += TITLE_PX + TITLE_GAP;
    children.push({ ...svg, attrs: { ...svg.attrs, x: PAD, y } });
    y += Number(svg.attrs.height) + PANEL_GAP;
    right = Math.max(right, Number(svg.attrs.width) + 2 * PAD);
  }
  y -= PANEL_GAP;
  if (caption) {
    for (const line of captionLines(state)) {
      y += NOTE_PX + 8;
      children.push(h('text', { x: PAD, y, 'font-size': NOTE_PX, fill: theme.muted }, line));
      right = Math.max(right, fit(line, NOTE_PX));
    }
  }
  right = Math.ceil(right);
  const height = Math.ceil(y + PAD);
  return h('svg', { width: right, height, viewBox: `0 0 ${right} ${height}`, role: 'img',
    'aria-label': panels.map((panel) => panel.title).join('; '), 'font-family': theme.font },
  h('rect', { width: right, height, fill: theme.bg }),
  children);
}

// Width of text in px at `px`, where no font can be measured: 0.6 em a character, as the
// heatmap's approximateMeasure (bold titles run a little wider, within the padding).
function textWidth(text, px) {
  return text.length * 0.6 * px;
}

// The settings a reader needs to reproduce the figure, and the words without a GloVe vector.
function captionLines(state) {
  const s = state.settings;
  const parts = [
    s.projection === 'identity' ? 'q = k = x (GloVe 100-d)' : s.projection === 'random' ? `random projections, d_k = ${state.d}, seed ${s.seed}` : `pasted vectors, d = ${state.d}`,
    s.scaled ? `scaled by 1/√${state.d}` : 'not scaled',
  ];
  if (s.temperature !== 1) parts.push(`temperature ${s.temperature}`);
  if (s.causal) parts.push('causal mask');
  if (s.positional) parts.push('positional encoding');
  const lines = [parts.join(' · ')];
  if (s.truncated) lines.push(`Only the first ${state.n} tokens of the sentence are used.`);
  if (state.unknown.length) lines.push(`Not in the vocabulary (each gets a fixed vector made from its spelling): ${state.unknown.map(shortLabel).join(', ')}`);
  return lines;
}
