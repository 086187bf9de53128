// The words of every part — the page, the lab, the lesson and the command line — in one table
// per language (web/i18n/<lang>.js), and the one lookup they are read through. No DOM: the same
// code serves the page and Node. Choosing the language for an element is web/i18n/dom.js.
//
//   const s = await loadStrings('nb');      // memoised; English is always loaded
//   s.lang                                   // 'nb': for lang attributes
//   s.t('bars.entropy')                      // 'entropi'
//   s.t('lab.unknown', { count: 3, list })   // plural forms by Intl.PluralRules
//   s.html('controls.hint.identityHtml')     // markup of our own table (keys ending in Html), params escaped
//   s.fixed(0.3634, 3)                       // '0,363': numbers through web/i18n/format.js in s.lang
//
// A table maps a key to a message: text with {name} placeholders, or { one, other } plural forms
// chosen by the `count` parameter. A number given as a parameter is a count, written in the
// language's own digits (grouping included); pass text for a number that must stay as it is
// (a seed, d_k in "d_k = 1024"); a
// parameter { key, params } is a message of its own, put into the sentence (as a PasteError's
// "row 2 (line 4)"). Keys
// ending in "Html" hold markup (only <b>, <code>, <em>, <sub>, <sup>, <a href>, <br>): they are
// inserted as markup, every other message as text. Both tables have exactly the same keys,
// placeholders and tags (tests/js/i18n.test.mjs).
import { TIP_CHARS, fixed, fmt, integer, percent, prefix, score } from './format.js';
import en from './en.js';

/** The languages there is a table for. English is the default and the fallback. */
export const LANGUAGES = Object.freeze(['en', 'nb']);
export const DEFAULT_LANGUAGE = 'en';
/** Each language's name in itself, for a choice of language. */
export const LANGUAGE_NAMES = Object.freeze({ en: 'English', nb: 'Norsk (bokmål)' });

const TABLES = { en: () => en, nb: () => import('./nb.js').then((module) => module.default) };

/**
 * The language of ours that a BCP 47 tag asks for, or null: "nb", "nb-NO", "no" and "nn" (a
 * reader of nynorsk reads bokmål far more easily than English) are bokmål; "en-GB" is English.
 */
export function matchLanguage(tag) {
  if (typeof tag !== 'string') return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'nb' || primary === 'no' || primary === 'nn') return 'nb';
  return LANGUAGES.includes(primary) ? primary : null;
}

/** The first of `tags` (in order of preference; null and unknown ones skipped) that we speak, else English. */
export function pickLanguage(tags) {
  for (const tag of tags) {
    const lang = matchLanguage(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * A page's language: its address's `lang` (`search`, as location.search) if that names one we
 * speak, English for any other; with no `lang`, the first of the reader's `preferred` we speak.
 */
export function pageLanguage(search, preferred) {
  const asked = new URLSearchParams(search).get('lang');
  return asked ? matchLanguage(asked) ?? DEFAULT_LANGUAGE : pickLanguage(preferred);
}

const loaded = new Map(); // lang → Strings
const loading = new Map(); // lang → Promise<Strings>

/** The strings of `lang` (one of LANGUAGES), loading its table once. */
export function loadStrings(lang) {
  if (!LANGUAGES.includes(lang)) return Promise.reject(new RangeError(`loadStrings: lang is ${JSON.stringify(lang)}, expected one of ${LANGUAGES.join(', ')}`));
  if (loaded.has(lang)) return Promise.resolve(loaded.get(lang));
  if (!loading.has(lang)) {
    loading.set(lang, Promise.resolve(TABLES[lang]()).then((table) => {
      const strings = createStrings(lang, table);
      loaded.set(lang, strings);
      return strings;
    }));
  }
  return loading.get(lang);
}

/** The strings of `lang` if its table is loaded, else null (English is always loaded). */
export function loadedStrings(lang) {
  if (lang === DEFAULT_LANGUAGE && !loaded.has(lang)) loaded.set(lang, createStrings(lang, en));
  return loaded.get(lang) ?? null;
}

/** The English strings, at once (the default of every view that is given none). */
export function english() {
  return loadedStrings(DEFAULT_LANGUAGE);
}

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * The strings of a table: t, html and the number formats of its language. A key missing from
 * `table` is looked up in English (and the console says so once): a part of the page is never
 * blank, and the test of the tables keeps it from happening.
 */
export function createStrings(lang, table) {
  const plurals = new Intl.PluralRules(lang);
  const warned = new Set();
  const message = (key, params) => {
    let entry = table[key];
    if (entry === undefined) {
      if (!warned.has(key)) {
        warned.add(key);
        if (lang !== DEFAULT_LANGUAGE || !(key in en)) console.warn(`i18n: no "${key}" in the ${lang} table`);
      }
      entry = en[key];
      if (entry === undefined) return key;
    }
    if (typeof entry === 'object') entry = entry[plurals.select(Number(params?.count))] ?? entry.other;
    return entry;
  };
  // A parameter may itself be a message, { key, params } (a part of a sentence: "row 2 (line 4)").
  const show = (value) =>
    typeof value === 'number' ? integer(value, lang) : value?.key ? fill(message(value.key, value.params), value.params, false) : String(value);
  const fill = (text, params, escape) =>
    params
      ? text.replace(PLACEHOLDER, (whole, name) => {
          if (!(name in params)) return whole;
          const shown = show(params[name]);
          return escape ? escapeHtml(shown) : shown;
        })
      : text;
  return Object.freeze({
    lang,
    /** The message of `key` as text, with `params` filled in. */
    t: (key, params) => fill(message(key, params), params, false),
    /** The markup of an ...Html key, with `params` filled in as text (escaped). */
    html: (key, params) => fill(message(key, params), params, true),
    /** Whether the table has `key` (without falling back to English). */
    has: (key) => key in table,
    fixed: (x, digits) => fixed(x, digits, lang),
    fmt: (x, digits) => fmt(x, digits, lang),
    score: (x) => score(x, lang),
    integer: (x) => integer(x, lang),
    percent: (x) => percent(x, lang),
    /** `text`, or its first TIP_CHARS characters, "…" and how long it is: for tooltips and accessible names. */
    tipLabel: (text) =>
      text.length > TIP_CHARS ? `${prefix(text, TIP_CHARS)}… ${fill(message('format.characters', { count: text.length }), { count: text.length }, false)}` : text,
    /** "a, b and c" in the language. */
    list: (items) => new Intl.ListFormat(lang, { type: 'conjunction' }).format(items),
  });
}

/**
 * An error whose message is the English of `key` (for scripts, the console and Node), and which
 * carries `key` and `params` so that a page shows it in its reader's language (messageOf).
 */
export function localError(ErrorType, key, params = {}, fields = {}) {
  return Object.assign(new ErrorType(english().t(key, params)), { key, params }, fields);
}

/** What a page shows for `error`: its message in `strings`' language when it has a key, else its message. */
export function messageOf(error, strings) {
  return error?.key ? strings.t(error.key, error.params) : String(error?.message ?? error);
}

/**
 * A message with placeholders filled by nodes (DOM nodes, or view nodes of web/views/h.js):
 * withNodes('Not in vocabulary: {list}.', { list: node }) → ['Not in vocabulary: ', node, '.'].
 * A placeholder not in `nodes` stays as it is; the message's own text (not what fills it) goes
 * through `literal` (e.g. subscripts of web/views/h.js, which writes d_k as d with a subscript).
 */
export function withNodes(text, nodes, literal = (part) => part) {
  const parts = [];
  let last = 0;
  const own = (part) => {
    if (part !== '') parts.push(literal(part));
  };
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (!(match[1] in nodes)) continue;
    own(text.slice(last, match.index));
    parts.push(nodes[match[1]]);
    last = match.index + match[0].length;
  }
  own(text.slice(last));
  return parts;
}

/** Text made safe to put into markup. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
