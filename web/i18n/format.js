// Number formatting for the views: presentation only, in the reader's language (`lang`, a BCP 47
// tag; English by default) through Intl.NumberFormat: "0,363" in Norwegian, "0.363" in English.
// fixed() and score() show anything that is not a finite number as a dash, so NaN or Infinity
// can never reach the screen as a result; fmt() spells them out, for the lesson's deliberately
// broken naive softmax. Minus signs are the true minus "−" in every language. Numbers read by
// software (aria-valuenow) are never formatted for people: ariaNumber().

const formats = new Map(); // `${lang} ${options}` → Intl.NumberFormat

function numberFormat(lang, options) {
  const key = `${lang} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(lang, options)));
  return format;
}

// Intl writes "-" in English and "−" in Norwegian: one sign for every language.
const trueMinus = (text) => text.replace('-', '−');

// fixed() draws most numbers of a redraw (every bar's value): its formats by a short key
const fixedFormats = new Map(); // `${lang} ${digits}` → Intl.NumberFormat

/** x with `digits` decimals, or "—" when x is not a finite number. */
export function fixed(x, digits = 3, lang = 'en') {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  const key = `${lang} ${digits}`;
  let format = fixedFormats.get(key);
  if (!format) fixedFormats.set(key, (format = numberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false })));
  return trueMinus(format.format(x));
}

/** A score for a tooltip: 3 significant digits (exponent notation far from 1), "−∞" for a hidden key. */
export function score(x, lang = 'en') {
  if (x === -Infinity) return '−∞';
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  return a !== 0 && (a >= 1e5 || a < 1e-3) ? exponential(x, 3, lang) : significant(x, 3, lang);
}

/**
 * A number for people, with `digits` significant digits: ∞ and NaN spelled out (the lesson
 * shows the naive softmax failing on purpose), exponent notation far from 1.
 */
export function fmt(x, digits = 3, lang = 'en') {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e5 || a < 1e-3) return exponential(x, digits, lang);
  return significant(x, digits, lang);
}

/**
 * A count for people, its digits grouped as the language groups them ("20,000", "20 000"). A
 * number inside a formula ("d_k = 1024") is not a count: it is written as it is, String(x).
 */
export function integer(x, lang = 'en') {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  return trueMinus(numberFormat(lang, { maximumFractionDigits: 3 }).format(x));
}

/** A fraction as a whole percentage ("13%" in English, "13 %" in Norwegian). */
export function percent(x, lang = 'en') {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  return trueMinus(numberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(x));
}

/**
 * x as aria-valuenow and the like need it: a plain decimal number (exponent notation is not a
 * valid value: 2.95e-22 becomes "0"), at most 6 decimals; "0" for anything not finite.
 */
export function ariaNumber(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '0';
  return String(Number(x.toFixed(6)));
}

function significant(x, digits, lang) {
  return trueMinus(numberFormat(lang, { maximumSignificantDigits: digits, useGrouping: false }).format(x));
}

// "2.95e−22": the mantissa in the language's digits, a lower-case e and a true minus.
function exponential(x, digits, lang) {
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  const shown = numberFormat(lang, { minimumFractionDigits: digits - 1, maximumFractionDigits: digits - 1, useGrouping: false }).format(Number(mantissa));
  return `${trueMinus(shown)}e${exponent.replace('+', '').replace('-', '−')}`;
}

/**
 * Most characters of a token a label shows (chips, bars, heatmap, notes). A longer token is
 * cut there and ends in "…"; its full text stays in the field, the tooltips (up to TIP_CHARS)
 * and the heatmap's table. Drawing a label then costs the same for any token the tokenizer
 * accepts, however long (a 100,000-character word included).
 */
export const LABEL_CHARS = 24;
/** Most characters of a token a tooltip or an accessible name spells out. */
export const TIP_CHARS = 200;

/** `text`, or its first LABEL_CHARS characters and "…". */
export function shortLabel(text) {
  return text.length > LABEL_CHARS ? `${prefix(text, LABEL_CHARS)}…` : text;
}

/** `text`, or its first TIP_CHARS characters, "…" and how long it is. */
export function tipLabel(text) {
  return text.length > TIP_CHARS ? `${prefix(text, TIP_CHARS)}… (${text.length.toLocaleString('en')} characters)` : text;
}

/** The first `count` UTF-16 units of `text`, never ending inside a surrogate pair. */
export function prefix(text, count) {
  const code = text.charCodeAt(count - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? count + 1 : count);
}
