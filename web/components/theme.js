// The one theme of every element, lab and lesson, made from the palette of web/views/theme.js.
//
// Host pages restyle with the public properties `--al-*` (on the element or any ancestor) and
// pick light or dark with the `theme` attribute ("light" | "dark" | "auto", default auto:
// the reader's system setting) or `--al-color-scheme`. The rules use private names `--_*`,
// which every element resolves on its own :host as "the host's value, else the theme's
// default": an element inside another one then inherits the host's values instead of
// re-declaring the defaults over them (declaring `--al-*` on every :host would hide what a page
// set on an ancestor). The defaults are light-dark() pairs, chosen by the element's
// color-scheme, which every element inherits from the outermost one.
import { FONTS, PALETTE, THEMES, TYPE, propertyName } from '../views/theme.js';

/** A constructable style sheet from CSS text (no <style> element: allowed under style-src 'self'). */
export function sheet(css) {
  if (typeof CSSStyleSheet === 'undefined') return null; // a server render (no DOM): nothing is drawn
  const s = new CSSStyleSheet();
  s.replaceSync(css);
  return s;
}

/** The type scale (TYPE) as CSS lengths: rem, so that a reader's larger default font scales it too. */
export const TYPE_CSS = Object.freeze(Object.fromEntries(Object.entries(TYPE).map(([key, px]) => [key, `${px / 16}rem`])));

/** The private name the rules use for a palette key or font: accentText → --_accent-text. */
export function privateName(key) {
  return propertyName(key).replace('--al-', '--_');
}

const declarations = [
  ...Object.entries(FONTS).map(([key, value]) => `${privateName(key)}: var(${propertyName(key)}, ${value});`),
  ...Object.entries(PALETTE).map(
    ([key, [light, dark]]) => `${privateName(key)}: var(${propertyName(key)}, light-dark(${light}, ${dark}));`,
  ),
];

/** The theme: adopted first by every element. */
export const theme = sheet(`
  :host {
    color-scheme: var(--al-color-scheme, light dark);
    ${declarations.join('\n    ')}
  }
  :host([theme="light"]) { --al-color-scheme: light; }
  :host([theme="dark"]) { --al-color-scheme: dark; }
  :host([theme="auto"]) { --al-color-scheme: light dark; }
`);

/** Box model, form fonts, visible focus, hidden-but-read text, alerts and hints: every element's basics. */
export const base = sheet(`
  :host { box-sizing: border-box; }
  /* hidden means hidden on any page (a lab that only feeds a lesson: docs/slides.md) */
  :host([hidden]) { display: none; }
  *, *::before, *::after { box-sizing: inherit; }
  [hidden] { display: none !important; }
  button, input, select, textarea { font: inherit; color: inherit; }
  :focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; }
  .visually-hidden {
    position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0;
    overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0;
  }
  .alert:empty { display: none; }
  .alert {
    margin: 8px 0 0; padding: 8px 10px; border-radius: 6px; border-left: 3px solid var(--_danger);
    background: var(--_danger-bg); color: var(--_danger-text); font-size: ${TYPE_CSS.note};
  }
  .hint { color: var(--_muted); font-size: ${TYPE_CSS.note}; line-height: 1.4; }
  /* a subscript stays readable inside a note: never under the chart size */
  sub, sup { font-size: max(${TYPE.chart}px, 0.75em); }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after { transition: none !important; animation: none !important; scroll-behavior: auto !important; }
  }
`);

/**
 * The theme as concrete colours, for what draws outside CSS (canvas, SVG views): each key of
 * THEMES resolved on `element` (host overrides and light/dark included), through the computed
 * `color` of one hidden probe per colour, all added at once so that style is computed once.
 * Re-read when the colour scheme or the theme attribute changes.
 */
export function readTheme(element) {
  const root = element.shadowRoot ?? element;
  const holder = document.createElement('span');
  holder.hidden = true;
  const probes = {};
  for (const key of Object.keys(THEMES.light)) {
    if (key in FONTS) continue;
    const probe = (probes[key] = document.createElement('span'));
    probe.style.color = `var(${privateName(key)})`;
    holder.append(probe);
  }
  root.append(holder);
  const fonts = getComputedStyle(element);
  const resolved = {};
  for (const key of Object.keys(THEMES.light)) {
    resolved[key] = key in FONTS ? fonts.getPropertyValue(privateName(key)).trim() || FONTS[key] : getComputedStyle(probes[key]).color;
  }
  holder.remove();
  return Object.freeze(resolved);
}
