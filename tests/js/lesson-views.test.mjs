// The lesson's seven views (web/views/) in Node, with no DOM: each renders the model's results as
// markup (toMarkup), which must hold the numbers of the results it was given — the same numbers
// the lab's state holds — and be well-formed standalone SVG/HTML. Every formula must typeset in
// KaTeX whatever the learner typed: the words are never part of the TeX.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import katex from 'katex';

import { createStore } from '../../web/lab/settings.js';
import { labState } from '../../web/lab/state.js';
import { LESSON_DEFAULTS } from '../../web/lesson/model.js';
import { fixed, fmt } from '../../web/i18n/format.js';
import { gradientView } from '../../web/views/gradient.js';
import { toMarkup } from '../../web/views/h.js';
import { headsView } from '../../web/views/heads.js';
import { outputView } from '../../web/views/output.js';
import { overflowView } from '../../web/views/overflow.js';
import { saturationView } from '../../web/views/saturation.js';
import { stepView } from '../../web/views/step.js';
import { THEMES } from '../../web/views/theme.js';
import { varianceView } from '../../web/views/variance.js';
import { labFixture } from '../support/lab.mjs';

const { engine, pipeline, model, state } = await labFixture();

const VIEWS = {
  variance: varianceView,
  saturation: saturationView,
  gradient: gradientView,
  step: stepView,
  output: outputView,
  overflow: overflowView,
  heads: headsView,
};

/** Every view's markup for a state, with formulas as their TeX source (the default). */
function render(s, { width = 900, theme = THEMES.light, lesson = LESSON_DEFAULTS } = {}) {
  return Object.fromEntries(
    Object.entries(VIEWS).map(([part, view]) => [part, toMarkup(view(model[part](s, lesson), { projection: s.projection }, theme, { width }))]),
  );
}

// Text of markup: tags dropped, the three escaped characters restored.
const text = (markup) => markup.replace(/<[^>]*>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const shown = (markup, key) => new RegExp(`data-k="${key}">([^<]*)<`).exec(markup)?.[1];

test('every view renders the lab’s row numbers, as the lab prints them (Random, d_k = 1024, unscaled)', () => {
  const s = state({ projection: 'random', dk: 1024, scaled: false, selected: 1 });
  const out = render(s);
  const lab = { max: s.result.maxWeight[1].toFixed(3), entropy: s.result.entropy[1].toFixed(3) };
  assert.equal(shown(out.saturation, 'max-unscaled'), lab.max);
  assert.equal(shown(out.saturation, 'entropy-unscaled'), lab.entropy);
  assert.equal(shown(out.step, 'max'), lab.max);
  assert.equal(shown(out.step, 'entropy'), lab.entropy);
  // the gradient view: its first panel is the unscaled one, the lab's
  assert.equal(shown(out.gradient, 'max'), lab.max);
  assert.match(out.gradient, /unscaled, d_k = 1024<span class="yours"> \(the lab’s setting\)/);
  const peaked = model.saturation(s).at.unscaled.peaked;
  assert.match(text(out.saturation), new RegExp(`At d_k = 1024: unscaled, ${peaked} of 10 rows are extremely peaked`));
  assert.match(text(out.overflow), /row "cat" \(unscaled, d_k = 1024\)/);
  const stable = model.overflow(s).stable;
  for (const p of stable) assert.ok(out.overflow.includes(`>${fmt(p, 4)}<`), `stable weight ${fmt(p, 4)}`);
  assert.match(text(out.step), /\(unscaled: no division\)/);
  assert.match(text(out.heads), /Concatenated output: 10 × \(4 · 256\) = 10 × 1024/);
});

test('the heads’ text at one head says one head, not “1 smaller ones of width 1024 / 1”', () => {
  const s = state({ projection: 'random', dk: 1024 });
  const draw = (heads) => text(toMarkup(headsView(model.heads(s, { ...LESSON_DEFAULTS, heads }), { projection: s.projection }, THEMES.light, { width: 900 })));
  const one = draw(1);
  assert.match(one, /One head is one attention of width 1024/);
  assert.doesNotMatch(one, /runs 1 smaller|\/ 1 =/);
  assert.match(draw(4), /runs 4 smaller ones of width 1024 \/ 4 = 256/);
});

test('claim 1’s numbers: the variance at d_k and √d_k from the core', () => {
  const s = state({ projection: 'random', dk: 256 });
  const r = model.variance(s);
  const out = text(render(s).variance);
  assert.match(out, /divided by √d_k = 16, about 1/);
  assert.ok(out.includes(`At d_k = 256: random ${fmt(r.at.random.unscaled)} → ${fmt(r.at.random.scaled)}; your sentence ${fmt(r.at.tokens.unscaled)} → ${fmt(r.at.tokens.scaled)}.`));
  assert.ok(out.includes(`q·k: variance ${fmt(r.histograms.unscaled.variance)}`));
  // the axis is the core's range, ±4√d_k = ±64
  assert.match(out, /−64 .* −32 .* 0 .* 32 .* 64/s);
});

test('scaled, causal, T = 0.5: step by step and the overflow demo show the lab’s temperature and mask', () => {
  const s = state({ projection: 'random', dk: 64, scaled: true, temperature: 0.5, causal: true, selected: 5 });
  const out = render(s);
  assert.equal(shown(out.step, 'max'), s.result.maxWeight[5].toFixed(3));
  assert.match(text(out.step), /−∞: masked \(causal\)/);
  assert.match(text(out.step), /all ≤ 0; T = 0\.5/);
  assert.match(out.step, /q=\\hat x_\{6\}\\,W_Q/);
  assert.match(text(out.overflow), /temperature T\s+0\.5/);
  assert.match(out.overflow, /aria-valuetext="T = 0\.5"/);
  // the gradient view's other panel keeps the lab's mask: weights past key 5 are 0
  assert.equal(shown(out.gradient, 'max'), model.gradient(s).panels[0].maxWeight.toFixed(3));
});

test('standalone markup: HTML with inline SVG plots that carry their own font and colours, no style attribute', () => {
  const s = state({ projection: 'random', dk: 64 });
  for (const theme of [THEMES.light, THEMES.dark]) {
    const out = render(s, { theme, width: 360 });
    for (const [part, markup] of Object.entries(out)) {
      assert.ok(!/\sstyle=/.test(markup), `${part}: a style attribute`);
      assert.ok(!/="[^"]*(NaN|undefined|Infinity)/.test(markup), `${part}: NaN, undefined or Infinity in an attribute (a position or colour)`);
      assert.ok(!/undefined|\[object/.test(markup), `${part}: undefined in the text`);
      if (!['step', 'overflow', 'output'].includes(part)) assert.ok(markup.includes(`fill="${theme.text}"`), `${part}: the theme's text colour`);
    }
    assert.ok(out.saturation.includes(theme.unscaled) && out.saturation.includes(theme.scaled));
  }
  for (const svg of render(s).variance.match(/<svg [^>]*role="img"[^>]*>/g)) {
    assert.match(svg, /viewBox="0 0 \d+ \d+"/);
    assert.match(svg, /font-family="system-ui/);
  }
});

test('D4: the learner’s words never enter TeX — every formula typesets for words KaTeX cannot parse', () => {
  const words = ['∑ cat', '\u0007bell', '\uD800', '\u0301a', '{x}_', '\\alpha', '$', '%', '#', '&', '^', '~', 'the'];
  const plain = words.map((_, i) => `w${i}`);
  // the TeX of step by step for a sentence (KaTeX must typeset every formula), and its markup
  const typeset = (tokens, projection, key) => {
    const store = createStore();
    store.set({ probe: '', tokens, sentence: tokens.join(' '), selected: 1, projection });
    const s = labState(store.get(), pipeline, engine);
    const sources = [];
    const markup = toMarkup(stepView(model.step(s, { ...LESSON_DEFAULTS, key }), { projection }, THEMES.light, { width: 900 }), {
      tex: (source, display) => {
        sources.push(source);
        return katex.renderToString(source, { displayMode: display, throwOnError: true, output: 'htmlAndMathml' });
      },
    });
    return { sources, markup };
  };
  for (const projection of ['identity', 'random']) {
    for (const key of [0, 1, 2, 3, 5, 6]) {
      const odd = typeset(words, projection, key);
      assert.ok(odd.sources.length >= 10, `formulas typeset: ${odd.sources.length}`);
      // the same TeX as for plain words: the words are not in it
      const { sources } = typeset(plain, projection, key);
      assert.deepEqual(odd.sources.map(withoutNumbers), sources.map(withoutNumbers));
      // the words are shown beside the formulas, as text (as XML takes it: the BEL of "\u0007bell"
      // and the lone surrogate are no XML characters, and toMarkup writes U+FFFD for each)
      const asText = (word) => word.replace('\u0007', '\uFFFD').replace('\uD800', '\uFFFD').replace('&', '&amp;');
      assert.ok(odd.markup.includes(`<span class="word">“${asText(words[1])}”</span>`), 'the query word as text');
      assert.ok(odd.markup.includes(`<span class="word">“${asText(words[key])}”</span>`), 'the key word as text');
    }
  }
});

// TeX with its numbers (√d_k, T) blanked: the part the words could have changed.
const withoutNumbers = (source) => source.replace(/[\d.]+/g, '#');

test('a word shortened for a tight label never splits a character', async () => {
  const { short } = await import('../../web/views/chart.js');
  const emoji = '😀'.repeat(9);
  const cut = short(emoji);
  assert.ok(cut.endsWith('…') && emoji.startsWith(cut.slice(0, -1)), cut);
  assert.ok(!/[\uD800-\uDBFF]$/.test(cut.slice(0, -1)), 'no lone high surrogate before the …');
  assert.equal(short('cat'), 'cat');
  assert.equal(short('because'), 'because');
  assert.equal(short('attentional'), 'attenti…');
});

test('the saturation view formats the row numbers with three decimals, as the lab’s bars', () => {
  const s = state({ projection: 'random', dk: 16, selected: 1 });
  const r = model.saturation(s);
  const out = render(s).saturation;
  assert.equal(shown(out, 'max-scaled'), fixed(r.at.scaled.maxWeight));
  assert.equal(shown(out, 'entropy-scaled'), fixed(r.at.scaled.entropy));
});
