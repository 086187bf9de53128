// The lab's settings: one table of every setting (its type, default and range, and whether an
// attribute of <attention-lab> — and a URL parameter of the pages, web/lab/url.js — sets it), the
// one rule that reads a setting from text, and the store. No DOM: the same table serves the
// element, a URL and Node.
//
//   const store = createStore();          // defaultSettings()
//   store.set({ dk: 256, scaled: false }) // → { rejected: {} }; invalid fields are left out, with a reason
//   readSetting('dk', '300')              // → { value: 300 } or { error: 'expected …' }
//   applyAttribute(store, 'dk', '0')      // → a warning naming dk="0", what was expected and the default, which is used
//
// Reading text (attributes and URL parameters alike) follows one rule per type:
//   boolean  "", "true", "on", "yes" or "1" is on; "false", "off", "no" or "0" is off (any case,
//            spaces around ignored); any other text is invalid. A bare attribute (causal) is on.
//   integer  decimal digits within the range; number: a decimal number within the range
//   choice   one of the listed words, exactly
//   text     any text
// An invalid attribute or URL parameter is never half-applied: the console (or the page) says what
// was wrong and the setting takes its default (a removed attribute also means the default).
import { MAX_TOKENS, tokenize } from './tokenize.js';

export const DEFAULT_SENTENCE = 'The cat sat on the mat because it was tired';
export const DEFAULT_PROBE = 'animal';

/** Stops of the d_k slider (log steps). */
export const DK_STEPS = Object.freeze([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
/** Stops of the temperature slider. */
export const TEMPERATURE_STEPS = Object.freeze([0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 4, 10]);
export const PROJECTIONS = Object.freeze(['identity', 'random', 'pasted']);
/** Values of the `theme` attribute (applied by the style sheet; not a setting of the store). */
export const THEME_NAMES = Object.freeze(['auto', 'light', 'dark']);
/** The lab's layouts: full (every card), or compact (a slide's or a narrow frame's: see attention-lab.js). */
export const LAB_VIEWS = Object.freeze(['full', 'compact']);

const MAX_SEED = 0xffffffff;
// A wrong value is quoted in a warning up to this many characters.
const QUOTE_CHARS = 40;

// ---- types: what a value must be, as code (check) and as text (parse) -------------------
// check(value) and parse(text) return { value } or { error: what was expected }, in English;
// `describe` is the same expectation as a message of the string tables (web/i18n/), { key,
// params }, for a page or the command line to say in its reader's language.

/** A type whose values are the whole numbers from `min` to `max` (no `max`: any above `min`). */
export function integerType(min, max = Infinity) {
  const expected = max === Infinity ? `a whole number from ${min} up` : `a whole number from ${min} to ${max}`;
  const check = (value) => {
    // numeric text is accepted too, as set() always has
    const x = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return Number.isInteger(x) && x >= min && x <= max ? { value: x } : { error: `must be ${expected}` };
  };
  const describe = { key: 'settings.wholeNumber', params: { min: String(min), max: String(max) } };
  return { kind: 'integer', expected, describe, check, parse: (text) => (/^\s*\d+\s*$/.test(text) ? check(Number(text)) : { error: `must be ${expected}` }) };
}

function numberType(min, max) {
  const expected = `a number from ${min} to ${max}`;
  const check = (value) => {
    const x = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof x === 'number' && x >= min && x <= max ? { value: x } : { error: `must be ${expected}` };
  };
  const describe = { key: 'settings.number', params: { min, max } };
  return { kind: 'number', expected, describe, check, parse: (text) => (/^\s*[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(text) ? check(Number(text)) : { error: `must be ${expected}` }) };
}

const ON = /^(|true|on|yes|1)$/i;
const OFF = /^(false|off|no|0)$/i;
export const booleanType = {
  expected: 'true or false (also on/off, yes/no, 1/0; a bare attribute is true)',
  describe: { key: 'settings.boolean' },
  check: (value) => (typeof value === 'boolean' ? { value } : { error: 'must be true or false' }),
  parse(text) {
    const t = text.trim();
    if (ON.test(t)) return { value: true };
    if (OFF.test(t)) return { value: false };
    return { error: `must be ${booleanType.expected}` };
  },
};

/** A type whose values are the listed words, exactly. */
export function choiceType(values) {
  const expected = `one of ${values.join(', ')}`;
  const check = (value) => (values.includes(value) ? { value } : { error: `must be ${expected}` });
  return { expected, describe: { key: 'settings.oneOf', params: { values: values.join(', ') } }, check, parse: check };
}

/** `type`, or null. */
export function nullableType(type) {
  const expected = `${type.expected} or null`;
  const check = (value) => (value === null ? { value } : type.check(value).error ? { error: `must be ${expected}` } : type.check(value));
  return { kind: type.kind, expected, check };
}

const textType = {
  expected: 'text',
  describe: { key: 'settings.text' },
  check: (value) => (typeof value === 'string' ? { value } : { error: 'must be text' }),
  parse: (text) => ({ value: text }),
};

// The sentence: any text may be set (a learner clears the field to type anew), but text read
// from an attribute or a link must hold a token — an empty or invisible `?sentence=` would open a
// lab with nothing to show; the default is used instead, and the page says so.
const sentenceType = {
  ...textType,
  expected: 'text with at least one word or punctuation mark',
  describe: { key: 'settings.sentence' },
  parse: (text) => (tokenize(text).length > 0 ? { value: text } : { error: `must be ${sentenceType.expected}` }),
};

const tokensType = {
  expected: 'a list of non-empty strings',
  check: (value) =>
    Array.isArray(value) && value.every((t) => typeof t === 'string' && t !== '')
      ? { value }
      : { error: 'must be a list of non-empty strings' },
};

const pastedType = {
  expected: 'the result of parseVectors (web/lab/paste.js), or null',
  check: (value) =>
    value === null || (typeof value === 'object' && value.q instanceof Float32Array)
      ? { value }
      : { error: 'must be the result of parseVectors' },
};

// ---- the table ---------------------------------------------------------------------------
// key → { type, default, attribute (an attribute of <attention-lab> sets it), doc, and
// optionally derive(value, state, patch): the fields the value sets, once it is valid }.

const DEFAULT_TOKENS = Object.freeze(tokenize(DEFAULT_SENTENCE));

/** Every setting of the lab. */
export const SETTINGS = Object.freeze({
  sentence: {
    type: sentenceType,
    default: DEFAULT_SENTENCE,
    attribute: true,
    doc: `the text of the Tokens field; its first ${MAX_TOKENS} tokens are the chips`,
    // typed text sets the chips; chips edited one by one set both (the patch then has tokens)
    derive: (sentence, _state, patch) => ('tokens' in patch ? { sentence } : { sentence, ...tokensOf(tokenize(sentence)) }),
  },
  tokens: {
    type: tokensType,
    default: DEFAULT_TOKENS,
    attribute: false,
    doc: 'the tokens (chips): the text’s tokens unless edited as chips',
    derive: (tokens) => tokensOf(tokens),
  },
  truncated: {
    type: null, // derived from the tokens, never set
    default: false,
    attribute: false,
    doc: `the text had more than ${MAX_TOKENS} tokens; only the first ${MAX_TOKENS} are used`,
  },
  probe: {
    type: textType,
    default: DEFAULT_PROBE,
    attribute: true,
    doc: 'the cross-attention probe word (its first token; empty: no probe)',
    derive: (text) => ({ probe: tokenize(text)[0] ?? '' }),
  },
  projection: {
    type: choiceType(PROJECTIONS),
    default: 'identity',
    attribute: true,
    doc: 'identity (q = k = x), random (seeded projections to d_k) or pasted (your own Q and K)',
    derive: (projection, state, patch) =>
      projection === 'pasted' && !state.pasted && !patch.pasted ? { error: 'needs pasted vectors: paste Q and K first' } : { projection },
  },
  dk: { type: integerType(1, DK_STEPS.at(-1)), default: 64, attribute: true, doc: 'the projected width d_k of the random projection' },
  seed: { type: integerType(0, MAX_SEED), default: 1, attribute: true, doc: 'the seed of the random W_Q and W_K' },
  scaled: { type: booleanType, default: true, attribute: true, doc: 'scale q·k by 1/√d_k' },
  temperature: { type: numberType(0.01, 100), default: 1, attribute: true, doc: 'the softmax temperature: softmax(scores / T)' },
  causal: { type: booleanType, default: false, attribute: true, doc: 'the causal mask: query i sees keys j ≤ i' },
  positional: { type: booleanType, default: false, attribute: true, doc: 'add the sinusoidal positional encoding to the word vectors' },
  // 1: "cat", the row of the headline numbers
  selected: {
    type: integerType(0, MAX_TOKENS - 1),
    default: 1,
    attribute: true,
    doc: 'the query row shown as bars, counted from 0 (beyond the last token: the last)',
  },
  pasted: { type: pastedType, default: null, attribute: false, doc: 'the last valid paste (parseVectors’ result, with an id)' },
});

function tokensOf(all) {
  return { tokens: Object.freeze(all.slice(0, MAX_TOKENS)), truncated: all.length > MAX_TOKENS };
}

/** A fresh settings object with every default. */
export function defaultSettings() {
  return Object.fromEntries(Object.entries(SETTINGS).map(([key, entry]) => [key, entry.default]));
}

/**
 * Attributes of <attention-lab> that are no setting of the store: read and checked by the same
 * rules, but applied by the style sheet (`theme`: light, dark or auto; `view`: full or compact).
 */
export const PRESENTATION = Object.freeze({
  theme: Object.freeze({ type: choiceType(THEME_NAMES), default: 'auto' }),
  view: Object.freeze({ type: choiceType(LAB_VIEWS), default: 'full' }),
});

/** The attributes of <attention-lab>: the settings that have one, then PRESENTATION's. */
export const ATTRIBUTES = Object.freeze([...Object.keys(SETTINGS).filter((key) => SETTINGS[key].attribute), ...Object.keys(PRESENTATION)]);

// The table entry that reads attribute or URL parameter `name`, if any.
function attributeEntry(name) {
  return SETTINGS[name]?.attribute ? SETTINGS[name] : PRESENTATION[name];
}

/**
 * A setting read from text by the rule of its type (attributes, URL parameters):
 * { value } or { error } saying what was expected.
 */
export function readSetting(key, text) {
  const entry = attributeEntry(key);
  if (!entry) return { error: 'is not a setting that text can set' };
  const read = entry.type.parse(String(text));
  // what was expected, also as a message of the string tables
  return read.error ? { ...read, expected: entry.type.describe } : read;
}

/** The default of an attribute. */
export function attributeDefault(name) {
  return attributeEntry(name).default;
}

/**
 * Applies the text of an attribute or URL parameter `name` to the store (`text` null: none is
 * given, and the default is used). Returns null, or { error: what was expected, fallback: the
 * default, which is used } when the text is invalid by its type or for the store (e.g.
 * projection "pasted" without pasted vectors). A PRESENTATION attribute is only checked.
 */
export function applyText(store, name, text) {
  const fallback = attributeDefault(name);
  const stored = !(name in PRESENTATION);
  if (text === null) {
    if (stored) store.set({ [name]: fallback });
    return null;
  }
  const read = readSetting(name, text);
  const error = read.error ?? (stored ? store.set({ [name]: read.value }).rejected[name] : null);
  if (!error) return null;
  if (stored) store.set({ [name]: fallback });
  return read.error && read.expected ? { error, expected: read.expected, fallback } : { error, fallback };
}

/** `text` for a message: at most QUOTE_CHARS characters, then "…". */
export function quote(text) {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

/**
 * Applies an attribute of <attention-lab> to the store (`text` null: the attribute was removed,
 * and the default is used). Returns null, or a warning for the console when the value was
 * invalid: it names the attribute, the value and what was expected, and the default is used.
 */
export function applyAttribute(store, name, text) {
  if (!ATTRIBUTES.includes(name)) return null;
  const invalid = applyText(store, name, text);
  if (!invalid) return null;
  return `<attention-lab> ${name}="${quote(text)}" is not valid: it ${invalid.error}. Using the default, ${JSON.stringify(invalid.fallback)}.`;
}

/**
 * The store: one frozen settings object, changed only through set(patch), which cleans the
 * patch so that what reaches the core is always valid.
 */
export function createStore(initial = defaultSettings()) {
  let state = Object.freeze({ ...initial });
  const listeners = new Set();
  let pasteId = 0;
  return {
    get: () => state,
    /** Applies a patch; invalid fields are left out and returned in `rejected` with a reason. */
    set(patch) {
      const { clean, rejected } = cleanPatch(patch, state);
      if (clean.pasted) clean.pasted = Object.freeze({ ...clean.pasted, id: ++pasteId });
      const changed = Object.keys(clean).some((key) => clean[key] !== state[key]);
      if (changed) {
        state = Object.freeze({ ...state, ...clean });
        for (const listener of listeners) listener(state);
      }
      return { rejected };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function cleanPatch(patch, state) {
  const clean = {};
  const rejected = {};
  for (const [key, raw] of Object.entries(patch ?? {})) {
    const entry = SETTINGS[key];
    if (!entry || !entry.type) {
      rejected[key] = entry ? 'is derived from the tokens and cannot be set' : 'unknown setting';
      continue;
    }
    const checked = entry.type.check(raw);
    const fields = checked.error ? checked : entry.derive ? entry.derive(checked.value, state, patch) : { [key]: checked.value };
    if (fields.error) rejected[key] = fields.error;
    else Object.assign(clean, fields);
  }
  return { clean, rejected };
}

/**
 * Settings in words: the phrases a sentence about `settings` says, one per entry of `words`, in
 * its order — the one rule behind the figure's caption (views/figure.js), the lab's spoken
 * summary of a change (attention-lab.js), the lesson's status line (attention-lesson.js) and
 * the lesson page's (lesson.js). An entry is, per setting:
 *   'key'                          always said
 *   { on: 'key', off: 'key' }      a switch: the side of its value (a missing side: nothing)
 *   { key, atDefault: false }      said unless the value is the table's default
 *   (value, settings) => 'key' | [key, params] | null
 * Each phrase is strings.t(key, { value, ...params }): `value` is the setting's value in words
 * (a number in the language's digits, a projection by its control's name). `only`: just those
 * settings (e.g. the ones that changed).
 */
export function settingsInWords(settings, strings, words, { params = {}, only = null } = {}) {
  const phrases = [];
  for (const [key, say] of Object.entries(words)) {
    if (only && !only.includes(key)) continue;
    const value = settings[key];
    let phrase;
    if (typeof say === 'function') phrase = say(value, settings);
    else if (typeof say === 'string') phrase = say;
    else if ('key' in say) phrase = say.atDefault === false && value === SETTINGS[key].default ? null : say.key;
    else phrase = value ? say.on : say.off;
    if (!phrase) continue;
    const [name, extra] = Array.isArray(phrase) ? phrase : [phrase, {}];
    phrases.push(strings.t(name, { value: valueInWords(key, value, strings), ...params, ...extra }));
  }
  return phrases;
}

function valueInWords(key, value, strings) {
  if (key === 'projection') return strings.t(`controls.${value}`);
  return SETTINGS[key]?.type?.kind === 'number' ? strings.fmt(value) : String(value);
}
