// The theme (web/views/theme.js): every --al-* property is documented in the README with its
// two defaults, and the defaults meet WCAG AA in both themes — text 4.5:1 on every background it
// is drawn on, graphics and the boundaries of controls 3:1, the heatmap's numbers 4.5:1 on every
// one of its 256 colours. Contrast by web/views/color.js (WCAG's formula), checked here once on
// two known pairs. The browser test tests/browser/embed-theme.test.mjs measures the drawn page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { contrast } from '../../web/views/color.js';
import { heatPalette } from '../../web/views/heatmap.js';
import { FONTS, PALETTE, THEMES, propertyName } from '../../web/views/theme.js';

const TEXT = 4.5;
const GRAPHICS = 3;

// What is drawn on what (the elements' style sheets and the views): text, then graphics.
const TEXT_ON = {
  text: ['bg', 'surface', 'raised', 'track', 'warnBg', 'accentSoft', 'cell'],
  muted: ['bg', 'surface', 'raised'],
  accent: ['bg', 'surface', 'raised'],
  accentText: ['accent'],
  warn: ['bg', 'surface', 'warnBg'],
  danger: ['bg', 'surface'],
  dangerText: ['dangerBg'],
};
const GRAPHIC_ON = {
  bar: ['track', 'surface'],
  barMax: ['track', 'surface'],
  accent: ['surface', 'bg'],
  focus: ['bg', 'surface', 'raised'],
  control: ['bg', 'surface'],
  scaled: ['surface', 'bg'],
  unscaled: ['surface', 'bg'],
  positive: ['surface', 'bg'],
  negative: ['surface', 'bg'],
};

test('contrast is WCAG’s: 21:1 for black on white, 4.54:1 for #767676 on white', () => {
  assert.equal(contrast('#000000', '#ffffff'), 21);
  assert.ok(Math.abs(contrast('#767676', '#ffffff') - 4.54) < 0.005);
});

test('every --al-* property is in docs/theming.md’s table, with its light and dark defaults', () => {
  const readme = readFileSync(new URL('../../docs/theming.md', import.meta.url), 'utf8');
  for (const [key, [light, dark]] of Object.entries(PALETTE)) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${propertyName(key)}\` |`));
    assert.ok(row, `docs/theming.md: a row for ${propertyName(key)}`);
    assert.ok(row.includes(`\`${light}\``) && row.includes(`\`${dark}\``), `docs/theming.md: ${propertyName(key)} with ${light} and ${dark}: ${row}`);
  }
  for (const key of Object.keys(FONTS)) assert.match(readme, new RegExp(`^\\| \`${propertyName(key)}\` \\|`, 'm'), `docs/theming.md: ${propertyName(key)}`);
  assert.match(readme, /^\| `--al-color-scheme` \|/m);
});

for (const [name, theme] of Object.entries(THEMES)) {
  test(`${name}: text ≥ 4.5:1 and graphics ≥ 3:1 on what they are drawn on`, () => {
    const failing = [];
    for (const [fg, backs] of Object.entries(TEXT_ON)) {
      for (const bg of backs) if (contrast(theme[fg], theme[bg]) < TEXT) failing.push(`text ${fg} on ${bg}: ${contrast(theme[fg], theme[bg]).toFixed(2)}`);
    }
    for (const [fg, backs] of Object.entries(GRAPHIC_ON)) {
      for (const bg of backs) if (contrast(theme[fg], theme[bg]) < GRAPHICS) failing.push(`graphic ${fg} on ${bg}: ${contrast(theme[fg], theme[bg]).toFixed(2)}`);
    }
    assert.deepEqual(failing, []);
  });

  test(`${name}: a number on any of the heatmap's 256 colours ≥ 4.5:1`, () => {
    const { fill, ink } = heatPalette(theme);
    assert.equal(fill.length, 256);
    const worst = Math.min(...fill.map((f, level) => contrast(ink[level], f)));
    assert.ok(worst >= TEXT, `worst ${worst.toFixed(2)}`);
  });
}
