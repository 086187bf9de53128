// A lab figure as one standalone SVG: the heatmap, the selected query's bars, the probe's bars,
// or the heatmap and the bars together, each under the title the page gives it, on the theme's
// background, with a caption of the settings. Built from the same scenes the page paints
// (heatmap.js, bars.js), so a figure shows what the page shows for the same state.
//
//   toMarkup(figureSvg(state, { view: 'both', theme: THEMES.light, width: 640, strings }))   (strings: the
//   words of a language, web/i18n/i18n.js; English by default)
import { english } from '../i18n/i18n.js';
import { barsScene, barsSvg } from './bars.js';
import { shortLabel } from '../i18n/format.js';
import { h } from './h.js';
import { approximateMeasure, heatmapScene, heatmapSvg } from './heatmap.js';
import { settingsInWords } from '../lab/settings.js';
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
export function figureSvg(state, { view = 'both', theme, width = 640, caption = true, background = true, strings = english() } = {}) {
  const t = strings.t;
  if (!FIGURE_VIEWS.includes(view)) throw new RangeError(`view must be one of ${FIGURE_VIEWS.join(', ')}, got ${JSON.stringify(view)}`);
  if (view === 'probe' && !state.probe) throw new RangeError('view "probe" needs a probe word: the settings have none');
  const room = width - 2 * PAD;
  const panels = [];
  if (view === 'heatmap' || view === 'both') {
    panels.push({ title: t('lab.weights'), svg: heatmapSvg(heatmapScene(heatmapData(state), { width: room, theme, strings })) });
  }
  if (view === 'bars' || view === 'both') {
    const query = shortLabel(state.queryLabels[state.selected]);
    panels.push({ title: t('lab.barsTitleWord', { word: query }), svg: barsSvg(barsScene(queryRow(state), strings), { theme, width: Math.min(room, 480) }) });
  }
  if (view === 'probe') {
    panels.push({ title: t('figure.probeTitle', { word: shortLabel(state.probe.text) }), svg: barsSvg(barsScene(probeRow(state), strings), { theme, width: Math.min(room, 480) }) });
  }

  const children = [];
  let y = PAD;
  let right = 0; // the figure is as wide as what it holds, and at most `width` unless a panel is wider
  const fit = (text, px) => Math.min(width, approximateMeasure(text, px) + 2 * PAD); // bold titles run a little wider, within the padding
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
    for (const line of captionLines(state, strings)) {
      y += NOTE_PX + 8;
      children.push(h('text', { x: PAD, y, 'font-size': NOTE_PX, fill: theme.muted }, line));
      right = Math.max(right, fit(line, NOTE_PX));
    }
  }
  right = Math.ceil(right);
  const height = Math.ceil(y + PAD);
  return h('svg', { width: right, height, viewBox: `0 0 ${right} ${height}`, role: 'img',
    'aria-label': panels.map((panel) => panel.title).join('; '), 'font-family': theme.font },
  // no background: the figure on a slide's own colour (its text in the theme's colours)
  background ? h('rect', { width: right, height, fill: theme.bg }) : null,
  children);
}

// The settings a reader needs to reproduce the figure (settingsInWords' entries), and the words without a GloVe vector.
const CAPTION_WORDS = {
  projection: (projection) => ({ identity: 'figure.identity', random: 'figure.random', pasted: 'figure.pasted' })[projection],
  scaled: { on: 'figure.scaled', off: 'figure.unscaled' },
  temperature: { key: 'figure.temperature', atDefault: false },
  causal: { on: 'figure.causal' },
  positional: { on: 'figure.positional' },
};

function captionLines(state, strings) {
  const s = state.settings;
  const t = strings.t;
  const d = String(state.d);
  const parts = settingsInWords(s, strings, CAPTION_WORDS, { params: { d, seed: String(s.seed) } });
  const lines = [parts.join(' · ')];
  if (s.truncated) lines.push(t('figure.truncated', { count: state.n }));
  if (state.unknown.length) lines.push(t('figure.unknown', { list: strings.list(state.unknown.map(shortLabel)) }));
  return lines;
}
