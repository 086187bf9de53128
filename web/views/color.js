// Colour scales for views: presentation math only. Colours are mixed in Oklab (perceptually
// even steps), the way CSS color-mix(in oklab, …) mixes them.

/** [r, g, b, a] (0–255, alpha 0–1) from #rgb, #rrggbb or rgb()/rgba() text. */
export function parseColor(text) {
  const t = String(text).trim();
  let m = /^#([0-9a-f]{3})$/i.exec(t);
  if (m) return [...m[1]].map((c) => parseInt(c + c, 16)).concat(1);
  m = /^#([0-9a-f]{6})$/i.exec(t);
  if (m) return [0, 2, 4].map((k) => parseInt(m[1].slice(k, k + 2), 16)).concat(1);
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/i.exec(t);
  if (m) {
    const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [Number(m[1]), Number(m[2]), Number(m[3]), alpha];
  }
  throw new Error(`parseColor: cannot read the colour ${JSON.stringify(t)}`);
}

/** #rrggbb (opaque) or rgb(r g b / a). */
export function formatColor([r, g, b, a = 1]) {
  const hex = (v) => Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, '0');
  return a >= 1 ? `#${hex(r)}${hex(g)}${hex(b)}` : `rgb(${Math.round(r)} ${Math.round(g)} ${Math.round(b)} / ${+a.toFixed(3)})`;
}

const toLinear = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toSrgb = (c) => 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

function toOklab([r, g, b]) {
  const [lr, lg, lb] = [r, g, b].map(toLinear);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

function fromOklab([L, A, B]) {
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ].map(toSrgb);
}

/** color-mix(in oklab, a t·100 %, b): t = 1 gives a, t = 0 gives b. */
export function mix(a, b, t) {
  const [ca, cb] = [parseColor(a), parseColor(b)];
  const [la, lb] = [toOklab(ca), toOklab(cb)];
  const lab = la.map((v, k) => lb[k] + (v - lb[k]) * t);
  return formatColor([...fromOklab(lab), cb[3] + (ca[3] - cb[3]) * t]);
}

/** WCAG relative luminance of a colour (alpha ignored). */
export function luminance(color) {
  const [r, g, b] = parseColor(color).map((c, k) => (k < 3 ? toLinear(c) : c));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two opaque colours (1 to 21). */
export function contrast(a, b) {
  const [la, lb] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (la + 0.05) / (lb + 0.05);
}

/** Levels of the heatmap's colour scale: a weight is shown as one of 256 steps, on canvas and in SVG alike. */
export const HEAT_LEVELS = 256;

/** The step (0…255) of a weight in [0, 1]; anything else (NaN, masked) is step 0. */
export function heatLevel(w) {
  return w > 0 ? Math.min(HEAT_LEVELS - 1, Math.round(w * (HEAT_LEVELS - 1))) : 0;
}

/**
 * The heatmap's 256 colours, [r, g, b] each: the theme's five stops heat0…heat4 mixed linearly
 * in sRGB (as the canvas has always drawn them).
 */
export function heatRamp(theme) {
  const stops = [theme.heat0, theme.heat1, theme.heat2, theme.heat3, theme.heat4].map(parseColor);
  return Array.from({ length: HEAT_LEVELS }, (_, level) => {
    const x = (level / (HEAT_LEVELS - 1)) * (stops.length - 1);
    const a = Math.min(stops.length - 2, Math.floor(x));
    const f = x - a;
    return stops[a].slice(0, 3).map((c, k) => Math.round(c + (stops[a + 1][k] - c) * f));
  });
}
