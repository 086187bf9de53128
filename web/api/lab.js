// The lab's pipeline as an API (`attention-lab/lab`): what <attention-lab> computes for a set of
// settings, without a page. A thin layer over the modules the page itself runs — the settings
// table (web/lab/settings.js), the tokenizer, LabPipeline (web/lab/inputs.js) and labState
// (web/lab/state.js) — so the numbers are the page's, not a copy's.
//
//   const [engine, vocab] = await Promise.all([createEngine(), loadVocab()]);
//   const inputs = labInputs({ sentence: 'the cat sat', projection: 'random', dk: 64 }, { engine, vocab });
//   engine.attention(inputs);                  // the weights the page shows for these settings
//   labState({ sentence: 'the cat sat' }, { engine, vocab });   // what <attention-lab>.state is
//
// Every error thrown here carries `code` (ATTN_INVALID_ARGUMENT, or the engine's own code).
import { coded, literal } from '../core/errors.js';
import { loadVocab as loadWords } from '../core/vocab.js';
import { LabPipeline } from '../lab/inputs.js';
import { parseVectors } from '../lab/paste.js';
import { SETTINGS, createStore, defaultSettings } from '../lab/settings.js';
import { labState as stateOf } from '../lab/state.js';
import { tokenize as tokensOf } from '../lab/tokenize.js';
import { FIGURE_VIEWS, figureSvg } from '../views/figure.js';
import { FORMATS } from '../views/export.js';
import { THEMES } from '../views/theme.js';

export { MAX_TOKENS } from '../lab/tokenize.js';
export { DK_STEPS, PROJECTIONS, SETTINGS, TEMPERATURE_STEPS, defaultSettings } from '../lab/settings.js';
export { WORD_DIM } from '../lab/inputs.js';
export { heatmapData, probeRow, queryRow } from '../lab/state.js';
export { FIGURE_VIEWS } from '../views/figure.js';
export { THEMES } from '../views/theme.js';

/** Code of an error in the arguments of this API (the engine's name for the same thing). */
export { INVALID_ARGUMENT } from '../core/errors.js';

/** The page's tokenizer: text → lower-case word and punctuation tokens, as GloVe was trained on. */
export function tokenize(text) {
  return guard(() => tokensOf(text));
}

/**
 * The word vectors the lab uses (the same files the page reads), shared by every caller: in Node
 * read from the package's own files, in a browser fetched relative to the package's modules.
 * A word the files lack brings the context map, which makes its vector from the known words near
 * it in its sentence (labInputs' `sources` say 'context'; see docs/vocabulary.md).
 * With `words`, only the buckets that hold them (what a page should ask for: labInputs needs the
 * sentence's and the probe's words); without, all 20,000 words (3.3 MB: what Node wants).
 */
export function loadVocab(words) {
  return loadWords(words);
}

let pasteCount = 0;

// Settings a caller may give: the lab's settings that are not derived, and `pasted` as text.
const SETTABLE = Object.keys(SETTINGS).filter((key) => SETTINGS[key].type);

/**
 * The lab's settings for a partial `settings` object, checked by the table the page uses;
 * frozen. Throws a coded RangeError/TypeError naming the setting, the value and what was
 * expected. `pasted` may be { q, k, v? } as the text a reader pastes (CSV rows or JSON) or as
 * arrays of rows; it implies projection "pasted" unless another projection is given.
 */
export function labSettings(settings = {}) {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
    throw coded(new TypeError(`settings must be an object of lab settings (${SETTABLE.join(', ')}), got ${literal(settings)}`));
  }
  const patch = { ...settings };
  for (const key of Object.keys(patch)) {
    if (patch[key] === undefined) delete patch[key];
    else if (!SETTINGS[key]) throw coded(new TypeError(`unknown setting ${JSON.stringify(key)}: expected one of ${SETTABLE.join(', ')}`));
  }
  if (patch.pasted != null) {
    patch.pasted = pastedVectors(patch.pasted);
    patch.projection ??= 'pasted';
  }
  // text comes first: typed text sets the tokens, so given tokens must win
  const store = createStore(defaultSettings());
  const { sentence = patch.tokens?.join?.(' '), tokens, ...rest } = patch;
  const rejected = {
    ...(sentence === undefined ? {} : store.set({ sentence }).rejected),
    ...store.set(tokens === undefined ? rest : { ...rest, tokens }).rejected,
  };
  const [key, reason] = Object.entries(rejected)[0] ?? [];
  if (key) {
    const value = key === 'pasted' ? settings.pasted : settings[key];
    throw coded(new RangeError(`${key} ${literal(value)} is not valid: it ${reason}`));
  }
  let result = store.get();
  // The pipeline caches inputs by the paste's id, which a store counts from 1: every paste
  // through this API gets an id of its own, so two stores never share one.
  if (result.pasted) result = Object.freeze({ ...result, pasted: Object.freeze({ ...result.pasted, id: `api:${++pasteCount}` }) });
  if (result.projection !== 'pasted' && result.tokens.length === 0) {
    throw coded(new RangeError(`sentence ${literal(result.sentence)} has no tokens: expected at least one word or punctuation mark`));
  }
  return result;
}

/**
 * The inputs of one attention head as the lab builds them for `settings` (see labSettings):
 *   { tokens, q (n×d), k (m×d), v (m×dv), n, m, d, dv, scale, causal, temperature,
 *     queryLabels, keyLabels, known, unknown, truncated, probe }
 * so that engine.attention(inputs) gives exactly the page's numbers. `engine`: createEngine()'s;
 * `vocab`: loadVocab()'s. Arrays are shared with a cache: treat them as read-only.
 */
export function labInputs(settings, { engine, vocab } = {}) {
  const s = labSettings(settings);
  const inputs = guard(() => pipelineOf(engine, vocab).inputs(s));
  return Object.freeze({
    ...inputs,
    scale: s.scaled ? 'sqrt' : 'none',
    causal: s.causal,
    temperature: s.temperature,
    truncated: s.truncated,
  });
}

/**
 * The state <attention-lab> shows for `settings` (LabState: the tokens, Q, K, V, the engine's
 * result, the probe's result, the selected row), frozen. Options as labInputs.
 */
export function labState(settings, { engine, vocab } = {}) {
  const s = labSettings(settings);
  const pipeline = pipelineOf(engine, vocab);
  return guard(() => stateOf(s, pipeline, engine));
}

/** Formats renderFigure writes: the export formats that need no browser (PNG: the page's export, or convert the SVG). */
export const FIGURE_FORMATS = Object.freeze(Object.keys(FORMATS).filter((format) => !FORMATS[format].browserOnly));

/**
 * A figure of `state` (labState's) as text, drawn by the page's own views:
 *   view    'heatmap' | 'bars' (the selected query) | 'probe' | 'both' (heatmap and bars)
 *   format  'svg' (a standalone SVG file) | 'csv' | 'json' (the numbers of the rows the view shows)
 *   theme   'light' | 'dark' (or a theme object with the keys of THEMES.light)
 *   width   room in px for the SVG (default 640); caption: the settings under the SVG (default true)
 *   background  false: no background behind the SVG (a slide's own colour shows through; default true)
 *   strings the words of the SVG (web/i18n/i18n.js loadStrings; default English)
 */
export function renderFigure(state, { view = 'both', format = 'svg', theme = 'light', width = 640, caption = true, background = true, strings = undefined } = {}) {
  if (!state || typeof state !== 'object' || !state.result || !state.settings) {
    throw coded(new TypeError(`state must be a lab state of labState(), got ${literal(state)}`));
  }
  if (!FIGURE_VIEWS.includes(view)) throw coded(new RangeError(`view ${literal(view)} is not valid: expected one of ${FIGURE_VIEWS.join(', ')}`));
  if (!FIGURE_FORMATS.includes(format)) {
    throw coded(new RangeError(`format ${literal(format)} is not valid: expected one of ${FIGURE_FORMATS.join(', ')}` +
      (FORMATS[format]?.browserOnly ? ` (${format.toUpperCase()} needs a browser to draw text: use the page’s export, or convert the SVG)` : '')));
  }
  const colours = typeof theme === 'string' ? THEMES[theme] : theme;
  if (!colours || typeof colours !== 'object' || typeof colours.text !== 'string') {
    throw coded(new RangeError(`theme ${literal(theme)} is not valid: expected one of ${Object.keys(THEMES).join(', ')}`));
  }
  if (!Number.isInteger(width) || width < 200 || width > 10000) {
    throw coded(new RangeError(`width ${literal(width)} is not valid: expected a whole number of px from 200 to 10000`));
  }
  if (typeof background !== 'boolean') throw coded(new TypeError(`background ${literal(background)} is not valid: expected true or false`));
  if (view === 'probe' && !state.probe) throw coded(new RangeError('view "probe" needs a probe word: the settings have none'));
  const { of, write } = FORMATS[format];
  if (of === 'figure') return `${write(figureSvg(state, { view, theme: colours, width, caption, background, strings }))}\n`;
  return write(state, view === 'bars' ? 'selected' : view === 'probe' ? 'probe' : 'all');
}

// One pipeline (and its caches) per engine and vocabulary.
const pipelines = new WeakMap();

function pipelineOf(engine, vocab) {
  if (!engine || typeof engine.attention !== 'function' || typeof engine.projectionWeights !== 'function') {
    throw coded(new TypeError(`options.engine must be an engine of createEngine() (from 'attention-lab'), got ${literal(engine)}`));
  }
  if (!vocab || typeof vocab.vector !== 'function') {
    throw coded(new TypeError(`options.vocab must be the vocabulary of await loadVocab() (from 'attention-lab/lab'), got ${literal(vocab)}`));
  }
  let byVocab = pipelines.get(engine);
  if (!byVocab) pipelines.set(engine, (byVocab = new WeakMap()));
  let pipeline = byVocab.get(vocab);
  if (!pipeline) byVocab.set(vocab, (pipeline = new LabPipeline(engine, vocab)));
  return pipeline;
}

// { q, k, v? } as text or arrays of rows → parseVectors' result (the page's parser).
function pastedVectors(pasted) {
  if (typeof pasted !== 'object' || Array.isArray(pasted) || !('q' in pasted && 'k' in pasted)) {
    throw coded(new TypeError(`pasted must be { q, k, v? }: each CSV/JSON text or an array of rows, got ${literal(pasted)}`));
  }
  const text = (value, name) => {
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return JSON.stringify(value);
    throw coded(new TypeError(`pasted.${name} must be text (CSV rows or JSON) or an array of rows, got ${literal(value)}`));
  };
  return guard(() => parseVectors({ q: text(pasted.q, 'q'), k: text(pasted.k, 'k'), v: text(pasted.v, 'v') }));
}

// Runs `fn`; an error without a code (the pipeline's own messages) gets INVALID_ARGUMENT.
function guard(fn) {
  try {
    return fn();
  } catch (error) {
    throw error && typeof error === 'object' && !error.code ? coded(error) : error;
  }
}
