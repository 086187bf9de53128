// The one palette of every part, lab and lesson, light and dark. Each key is a documented
// custom property `--al-<kebab-name>` that a host page may set to restyle every part
// (web/components/theme.js turns this table into the components' style sheet). Views take a
// theme object with these keys and concrete colours: in a page the colours the host's
// properties resolve to (readTheme in web/components/theme.js), elsewhere (exports, Node) one
// of THEMES as it stands.

/** key → [light, dark, what it colours]. */
export const PALETTE = Object.freeze({
  bg: ['#ffffff', '#12151a', 'the lab’s own background (behind its text, whatever the page’s), and fields'],
  surface: ['#f6f7f9', '#1a1e25', 'cards, the share panel and the lesson’s instruments'],
  raised: ['#ffffff', '#222731', 'chips and buttons'],
  text: ['#1b1f24', '#e7eaee', 'text'],
  muted: ['#5a6370', '#a0a9b5', 'secondary text, axes'],
  border: ['#d8dde4', '#333a46', 'borders of cards and buttons'],
  control: ['#7d8694', '#6e7888', 'borders of fields and switches (3:1 against the cards, as WCAG asks of a control’s boundary)'],
  grid: ['#d9dde5', '#3a4254', 'grid lines and table rules'],
  accent: ['#2354c4', '#7aa7ff', 'selection, the selected row, primary buttons'],
  accentText: ['#ffffff', '#0b1220', 'text on the accent'],
  accentSoft: ['#e5ecfa', '#1f2c47', 'a light accent background'],
  focus: ['#2354c4', '#8fb5ff', 'focus rings'],
  warn: ['#8a4b00', '#f0b45a', 'words not in the vocabulary'],
  warnBg: ['#fff4e0', '#33260f', 'their background'],
  danger: ['#b3261e', '#ff8a80', 'errors, the broken naive softmax'],
  dangerBg: ['#fdecea', '#3a1a18', 'their background'],
  dangerText: ['#7a1712', '#ffc9c3', 'error text'],
  track: ['#e6e9ee', '#2a303b', 'the track of a probability bar'],
  bar: ['#2f64d6', '#6d9cf5', 'a probability bar'],
  barMax: ['#12388f', '#b5cfff', 'the largest bar of a row'],
  masked: ['#d5d9e0', '#2b313b', 'a masked cell'],
  maskedLine: ['#a9b0bb', '#4a5260', 'its hatching'],
  heat0: ['#f3f6fb', '#1c222c', 'weight 0 (heatmap ramp)'],
  heat1: ['#c3d5f1', '#1f3d6b', 'weight 0.25'],
  heat2: ['#79a2e0', '#2d68bd', 'weight 0.5'],
  heat3: ['#3263c0', '#6aa3ef', 'weight 0.75'],
  heat4: ['#0c2c6e', '#d6e7ff', 'weight 1'],
  scaled: ['#2f5fd0', '#7aa2ff', 'scaled scores (÷√d_k) in the lesson'],
  unscaled: ['#d9622b', '#ff9a5c', 'unscaled scores in the lesson'],
  positive: ['#2f5fd0', '#7aa2ff', 'positive values of a diverging scale'],
  negative: ['#c8372d', '#ff7b6e', 'negative values'],
  cell: ['#f1f3f7', '#232938', 'an empty cell of a lesson heatmap'],
  band: ['rgb(120 130 150 / 0.13)', 'rgb(200 210 230 / 0.10)', 'the shaded regimes of a plot'],
});

/**
 * The type scale, in CSS px as a reader sees it, a phone's 390 px included (issue 32): body text,
 * notes and captions, and the smallest text of all (a plot's labels, a subscript, a table's cell).
 * A plot is drawn at its box's width (never a fixed viewBox scaled down), so its text is drawn at
 * `chart` px. The style sheets write these as rem (web/components/theme.js TYPE_CSS; the pages'
 * own sheets, web/styles/page.css and web/lesson.css, by hand).
 */
export const TYPE = Object.freeze({ body: 16, note: 14, chart: 12 });

/** Fonts are part of the theme too (not colours: the same in light and dark). */
export const FONTS = Object.freeze({
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  mono: 'ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace',
});

/** `--al-` + kebab-case of a key: accentText → --al-accent-text, heat0 → --al-heat-0. */
export function propertyName(key) {
  return `--al-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/(\D)(\d)/g, '$1-$2')}`;
}

function themeOf(index) {
  return Object.freeze({ ...FONTS, ...Object.fromEntries(Object.entries(PALETTE).map(([key, colours]) => [key, colours[index]])) });
}

/** The two themes as they stand (no host overrides). */
export const THEMES = Object.freeze({ light: themeOf(0), dark: themeOf(1) });
