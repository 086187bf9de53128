// Number formatting for the views: presentation only. fixed() and score() show anything that
// is not a finite number as a dash, so NaN or Infinity can never reach the screen as a result;
// fmt() spells them out, for the lesson's deliberately broken naive softmax.

/** x with `digits` decimals, or "—" when x is not a finite number. */
export function fixed(x, digits = 3) {
  return typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '—';
}

/** A score for a tooltip: 3 significant digits, "−∞ (masked)" for a hidden key. */
export function score(x) {
  if (x === -Infinity) return 'masked';
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  return a !== 0 && (a >= 1e5 || a < 1e-3) ? x.toExponential(2) : x.toPrecision(3).replace(/\.?0+$/, '');
}

/**
 * A number for people, with `digits` significant digits: ∞ and NaN spelled out (the lesson
 * shows the naive softmax failing on purpose), exponent notation far from 1, a true minus sign.
 */
export function fmt(x, digits = 3) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e5 || a < 1e-3) return x.toExponential(digits - 1).replace('e+', 'e').replace('-', '−');
  return Number(x.toPrecision(digits)).toString().replace('-', '−');
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
