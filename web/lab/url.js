// The pages' URL ⇄ their state, through the settings table (web/lab/settings.js): a parameter is
// read by the very rule an attribute of <attention-lab> is (applyText), so a link and an
// attribute accept the same values and fall back to the same defaults. No DOM: a page reads
// location.search and writes history; Node can build links.
//
//   readUrl('?sentence=hello%20world&dk=8&projection=random')
//     → { settings: { sentence: 'hello world', dk: 8, projection: 'random' },   (for lab.set)
//         page: { theme: 'auto', layout: 'full', view: 'lab', lang: '', share: true },
//         problems: [] }        one per unknown, repeated or invalid parameter (its default is used)
//   writeUrl(lab.settings, { theme: 'dark' })  → '?theme=dark' (only what differs from the defaults)
//
// Parameters: every attribute of <attention-lab> (sentence, probe, projection, dk, scaled, seed,
// temperature, causal, positional, theme; the selected query as row, counted from 1; the lab's
// attribute view as layout, since view is the page's), then the
// page's own: view (the lab, or one instrument of the lesson), lang (the language of the page's
// text) and share (0: no share panel). In the sentence's place a link may hold `tokens` (the
// chips, separated by spaces; see tokensType): a link always reopens the chips that were shown,
// and holds at most the 128 tokens the lab uses. Old links' selected (counted from 0) is still read.
import { ATTRIBUTES, DEFAULT_SENTENCE, PRESENTATION, applyText, attributeDefault, booleanType, choiceType, createStore, integerType } from './settings.js';
import { MAX_TOKENS, checkToken, tokenize } from './tokenize.js';
import { LESSON_STEPS, readSteps } from '../lesson/steps.js';

/**
 * What a page shows: the lab, or one part of the lesson — a method of LessonModel
 * (web/lesson/model.js) and a section of <attention-lesson>, in the lesson's order. Written
 * here rather than imported, so that a page reads its URL without loading the lesson (the
 * tests check the two agree).
 */
// (the lab, the lesson's parts in their order, then the trained model: <model-view>)
export const VIEWS = Object.freeze(['lab', 'step', 'output', 'heads', 'variance', 'saturation', 'gradient', 'overflow', 'model']);
// A language, as a BCP 47 tag ("nb", "nb-NO", "en"): the string tables decide what they speak
// (web/i18n/: bokmål for nb, no and nn; English for the rest) — a check of the tag's form here,
// so that reading a URL loads no table. The default, '', is the page's or the browser's.
const languageType = {
  expected: 'a language tag such as en or nb',
  describe: { key: 'settings.language' },
  parse: (text) => (/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(text) ? { value: text } : { error: `must be ${languageType.expected}` }),
};

// steps=variance,saturation,quiz: embed.html shows those steps of the lesson, in that order
// (web/lesson/steps.js reads the list), with layout=compact one at a time, for a slide. A link is
// stricter than lesson.html's ?steps=: an unknown or repeated step makes it invalid.
const stepsType = {
  expected: `steps of the lesson (${LESSON_STEPS.join(', ')}), each once, separated by commas`,
  describe: { key: 'settings.steps', params: { steps: LESSON_STEPS.join(', ') } },
  parse(text) {
    const { steps, unknown, repeated } = readSteps(text);
    if (!steps || unknown.length > 0 || repeated.length > 0) return { error: `must be ${stepsType.expected}` };
    return { value: steps.join(',') };
  },
};

// The page's own parameters: type (web/lab/settings.js) and default.
const PAGE = {
  view: { type: choiceType(VIEWS), default: 'lab' },
  lang: { type: languageType, default: '' },
  // share=0: no share panel (Copy link, Copy embed code, exports) on an embedded page
  share: { type: booleanType, default: true },
  steps: { type: stepsType, default: '' },
};

// row=N: the query the bars show, counted from 1 as the page counts it ("Query 2 of 10"),
// written in place of the attribute `selected` (counted from 0). A link written before row
// existed (selected=N) still opens the same view: selected is read as it always was, and never
// written; given both, row is used.
const ROW = { name: 'row', setting: 'selected', type: integerType(1, MAX_TOKENS) };

// layout=compact: the lab's attribute `view` (full or compact), under another name: `view` is the
// page's own (the lab, or one instrument of the lesson). A page option, as theme is.
const LAYOUT = { name: 'layout', attribute: 'view' };

/** Parameters read but never written: old links' (selected, counted from 0). */
export const LEGACY_PARAMETERS = Object.freeze([ROW.setting]);

// `tokens`: the chips themselves, separated by spaces (a token holds none), written instead of
// the sentence when the sentence's own tokens would differ — chips edited to "don't", "e.g.",
// "cat's" or "a/b", which the tokenizer would split — or when the text has more than the lab
// takes (the link then holds the 128 tokens it uses, so it stays short). It sets the chips and a
// text of them, as editing the chips does.
const tokensType = {
  describe: { key: 'settings.tokens', params: { max: '64' } },
  parse(text) {
    const tokens = text.split(/\s+/).filter((token) => token !== '');
    const cleaned = tokens.map(checkToken);
    if (tokens.length === 0 || cleaned.some((token) => token.error)) return { error: 'must be tokens separated by spaces, each of at most 64 characters' };
    return { value: cleaned.map(({ token }) => token) }; // more than MAX_TOKENS: the store keeps the first and says it cut
  },
};

/** Every URL parameter, in the order a link writes them: the sentence or its tokens, the other attributes (selected as row), the page's. */
export const PARAMETERS = Object.freeze([ATTRIBUTES[0], 'tokens', ...ATTRIBUTES.slice(1).map(parameterOf), ...Object.keys(PAGE)]);

// The URL's name of an attribute.
function parameterOf(attribute) {
  if (attribute === ROW.setting) return ROW.name;
  return attribute === LAYOUT.attribute ? LAYOUT.name : attribute;
}

/**
 * Reads a query string (location.search, with or without "?"): the lab settings it sets, the
 * page's options (theme, layout, view, lang, share), and the problems, one per parameter that is
 *   { reason: 'unknown', name, value }                  not a parameter of the pages (ignored)
 *   { reason: 'repeated', name, value, count }          given `count` times (the first is used)
 *   { reason: 'invalid', name, value, error, expected, fallback } invalid by the settings table:
 *                                                       `error` says what was expected (`expected`:
 *                                                       as a message of the string tables, when
 *                                                       the type says); the default is used
 * every problem of a parameter the page has (at most two each: repeated and invalid), and at most
 * MAX_UNKNOWN_LISTED unknown ones, then { reason: 'more', count } for the rest (a notice a reader
 * can read, whatever the link holds). The pages word them (web/page-url.js).
 */
export function readUrl(search) {
  const params = new URLSearchParams(search);
  const store = createStore();
  const settings = {};
  const page = { theme: attributeDefault('theme'), layout: attributeDefault(LAYOUT.attribute), view: PAGE.view.default, lang: PAGE.lang.default, share: PAGE.share.default, steps: PAGE.steps.default };
  const problems = [];
  let unknown = 0; // unknown parameters past MAX_UNKNOWN_LISTED: counted, not listed
  const seen = new Set();
  for (const [name, value] of params) {
    if (seen.has(name)) continue;
    seen.add(name);
    if (!PARAMETERS.includes(name) && !LEGACY_PARAMETERS.includes(name)) {
      if (problems.filter((p) => p.reason === 'unknown').length < MAX_UNKNOWN_LISTED) problems.push({ reason: 'unknown', name, value });
      else unknown++;
      continue;
    }
    const count = params.getAll(name).length;
    if (count > 1) problems.push({ reason: 'repeated', name, value, count });
    if (name === ROW.setting && params.has(ROW.name)) continue; // row is used
    if (name === 'tokens') {
      const read = tokensType.parse(value);
      if (read.error) problems.push({ reason: 'invalid', name, value, error: read.error, expected: tokensType.describe, fallback: DEFAULT_SENTENCE });
      else Object.assign(settings, { sentence: settings.sentence ?? read.value.join(' '), tokens: Object.freeze(read.value) });
      continue;
    }
    const attribute = name === LAYOUT.name ? LAYOUT.attribute : name;
    const invalid = name in PAGE ? readPage(page, name, value) : name === ROW.name ? readRow(store, value) : applyText(store, attribute, value);
    if (invalid) problems.push({ reason: 'invalid', name, value, ...invalid });
    else if (attribute in PRESENTATION) page[name] = value; // the page applies it (theme, layout)
    else if (name === ROW.name) settings[ROW.setting] = store.get()[ROW.setting];
    else if (!(name in PAGE)) settings[name] = store.get()[name];
  }
  if (unknown > 0) problems.push({ reason: 'more', count: unknown });
  return { settings, page, problems };
}

/** The most unknown parameters of a link that readUrl lists one by one. */
export const MAX_UNKNOWN_LISTED = 8;

function readRow(store, value) {
  const read = ROW.type.parse(value);
  if (read.error) return { error: read.error, expected: ROW.type.describe, fallback: attributeDefault(ROW.setting) + 1 };
  store.set({ [ROW.setting]: read.value - 1 });
  return null;
}

function readPage(page, name, value) {
  const read = PAGE[name].type.parse(value);
  if (read.error) return { error: read.error, expected: PAGE[name].type.describe, fallback: PAGE[name].default };
  page[name] = read.value;
  return null;
}

/**
 * The query string ("?…", or "" when everything is at its default) of `settings` (a lab's
 * settings) and the page's options: only the values that differ from their defaults, in the
 * order of PARAMETERS. Pasted vectors have no parameter: a link to them opens the other settings.
 */
export function writeUrl(
  settings,
  { theme = attributeDefault('theme'), layout = attributeDefault(LAYOUT.attribute), view = PAGE.view.default, lang = PAGE.lang.default, share = PAGE.share.default, steps = PAGE.steps.default } = {},
) {
  const params = new URLSearchParams();
  const page = { theme, layout, view, lang, share, steps };
  for (const name of PARAMETERS) {
    if (name === ROW.name) {
      const row = settings[ROW.setting];
      if (row !== undefined && row !== attributeDefault(ROW.setting)) params.set(ROW.name, String(row + 1));
      continue;
    }
    if (name === 'tokens') continue; // written in the sentence's place (below)
    if (name === 'sentence' && !sentenceGivesTokens(settings)) {
      params.set('tokens', settings.tokens.join(' '));
      continue;
    }
    const value = name in page ? page[name] : settings[name];
    const fallback = name in PAGE ? PAGE[name].default : attributeDefault(name === LAYOUT.name ? LAYOUT.attribute : name);
    if (value === undefined || value === fallback) continue;
    if (name === 'projection' && value === 'pasted') continue;
    params.set(name, typeof value === 'boolean' && name in PAGE ? (value ? '1' : '0') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

// Whether the sentence, read again, gives the chips the lab shows (all of them, nothing cut).
function sentenceGivesTokens({ sentence, tokens, truncated }) {
  if (tokens === undefined) return true; // settings without chips (a lesson's, a test's): the text is all there is
  if (truncated) return false;
  const again = tokenize(sentence);
  return again.length === tokens.length && again.every((token, i) => token === tokens[i]);
}
