// The pages' URL ⇄ their state, through the settings table (web/lab/settings.js): a parameter is
// read by the very rule an attribute of <attention-lab> is (applyText), so a link and an
// attribute accept the same values and fall back to the same defaults. No DOM: a page reads
// location.search and writes history; Node can build links.
//
//   readUrl('?sentence=hello%20world&dk=8&projection=random')
//     → { settings: { sentence: 'hello world', dk: 8, projection: 'random' },   (for lab.set)
//         page: { theme: 'auto', view: 'lab', lang: '' },
//         problems: [] }        one per unknown, repeated or invalid parameter (its default is used)
//   writeUrl(lab.settings, { theme: 'dark' })  → '?theme=dark' (only what differs from the defaults)
//
// Parameters: every attribute of <attention-lab> (sentence, probe, projection, dk, scaled, seed,
// temperature, causal, positional, selected, theme), then the page's own: view (the lab, or one
// instrument of the lesson) and lang (the language of the page's text).
import { ATTRIBUTES, PRESENTATION, applyText, attributeDefault, choiceType, createStore } from './settings.js';

/**
 * What a page shows: the lab, or one part of the lesson — a method of LessonModel
 * (web/lesson/model.js) and a section of <attention-lesson>, in the lesson's order. Written
 * here rather than imported, so that a page reads its URL without loading the lesson (the
 * tests check the two agree).
 */
export const VIEWS = Object.freeze(['lab', 'variance', 'saturation', 'gradient', 'step', 'overflow', 'heads']);
// A language, as a BCP 47 tag ("nb", "nb-NO", "en"): the string tables decide what they speak
// (web/i18n/: bokmål for nb, no and nn; English for the rest) — a check of the tag's form here,
// so that reading a URL loads no table. The default, '', is the page's or the browser's.
const languageType = {
  expected: 'a language tag such as en or nb',
  describe: { key: 'settings.language' },
  parse: (text) => (/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(text) ? { value: text } : { error: `must be ${languageType.expected}` }),
};

// The page's own parameters: type (web/lab/settings.js) and default.
const PAGE = {
  view: { type: choiceType(VIEWS), default: 'lab' },
  lang: { type: languageType, default: '' },
};

/** Every URL parameter, in the order a link writes them. */
export const PARAMETERS = Object.freeze([...ATTRIBUTES, ...Object.keys(PAGE)]);

/**
 * Reads a query string (location.search, with or without "?"): the lab settings it sets, the
 * page's options (theme, view, lang), and the problems, one per parameter that is
 *   { reason: 'unknown', name, value }                  not a parameter of the pages (ignored)
 *   { reason: 'repeated', name, value, count }          given `count` times (the first is used)
 *   { reason: 'invalid', name, value, error, expected, fallback } invalid by the settings table:
 *                                                       `error` says what was expected (`expected`:
 *                                                       as a message of the string tables, when
 *                                                       the type says); the default is used
 * The pages word them (web/i18n/embed.js).
 */
export function readUrl(search) {
  const params = new URLSearchParams(search);
  const store = createStore();
  const settings = {};
  const page = { theme: attributeDefault('theme'), view: PAGE.view.default, lang: PAGE.lang.default };
  const problems = [];
  const seen = new Set();
  for (const [name, value] of params) {
    if (seen.has(name)) continue;
    seen.add(name);
    if (!PARAMETERS.includes(name)) {
      problems.push({ reason: 'unknown', name, value });
      continue;
    }
    const count = params.getAll(name).length;
    if (count > 1) problems.push({ reason: 'repeated', name, value, count });
    const invalid = name in PAGE ? readPage(page, name, value) : applyText(store, name, value);
    if (invalid) problems.push({ reason: 'invalid', name, value, ...invalid });
    else if (name in PRESENTATION) page[name] = value; // the page applies it (theme)
    else if (!(name in PAGE)) settings[name] = store.get()[name];
  }
  return { settings, page, problems };
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
export function writeUrl(settings, { theme = attributeDefault('theme'), view = PAGE.view.default, lang = PAGE.lang.default } = {}) {
  const params = new URLSearchParams();
  const page = { theme, view, lang };
  for (const name of PARAMETERS) {
    const value = name in page ? page[name] : settings[name];
    const fallback = name in PAGE ? PAGE[name].default : attributeDefault(name);
    if (value === undefined || value === fallback) continue;
    if (name === 'projection' && value === 'pasted') continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
