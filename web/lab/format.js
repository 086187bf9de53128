// Number formatting for the views: presentation only. Anything that is not a finite number
// is shown as a dash, so NaN or Infinity can never reach the screen.

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
