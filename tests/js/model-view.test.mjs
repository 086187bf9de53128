// The trained model's view as text (web/views/model.js, pure): in English and bokmål, for both
// twins, with √d_k removed, on repeated words, with unknown words and past the context — every
// message filled in (no {placeholder}, no NaN, no undefined), the facts it states read from the
// runs, and the command line's figure well formed.
// Run: node --test tests/js/model-view.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadModel, repeatedSequences } from '../../web/api/model.js';
import { loadStrings } from '../../web/i18n/i18n.js';
import { toMarkup } from '../../web/views/h.js';
import { modelFacts, modelFigure, modelView } from '../../web/views/model.js';
import { THEMES } from '../../web/views/theme.js';

const models = { scaled: await loadModel({ variant: 'scaled' }), unscaled: await loadModel({ variant: 'unscaled' }) };
const TEMPERATURES = [0.25, 0.5, 0.75, 1, 1.5, 2, 3];

function results(variant, tokens, { scaleAtInference = true, temperature = 1, layer = 1, head = 1, demo = false } = {}) {
  const model = models[variant];
  const run = model.run(tokens, { scaleAtInference, temperature });
  const contrast = model.info.scaled ? model.run(tokens, { scaleAtInference: !scaleAtInference }) : null;
  return { run, contrast, info: model.info, twin: model.twin, variant, layer, head, scaleAtInference, temperature, temperatures: TEMPERATURES, demo, unigramThe: model.unigram.the };
}

const CASES = {
  'scaled, as trained': ['scaled', 'the cat sat on the mat'.split(' ')],
  'scaled, √d_k removed, head 2.3': ['scaled', 'the cat sat on the mat'.split(' '), { scaleAtInference: false, layer: 2, head: 3 }],
  'unscaled, T = 2': ['unscaled', 'i do n\'t think so'.split(' '), { temperature: 2 }],
  'unknown words, past the context': ['scaled', ['zyxwvut', ...Array.from({ length: 70 }, () => 'the')]],
  'repeated words': ['scaled', repeatedSequences(models.scaled.vocab, { span: 12, seed: 7 })[0], { demo: true }],
};

for (const lang of ['en', 'nb']) {
  test(`model view (${lang}): every message filled in, in every case`, async () => {
    const strings = await loadStrings(lang);
    for (const [name, [variant, tokens, options]] of Object.entries(CASES)) {
      const markup = toMarkup(modelView(results(variant, tokens, options), { strings, heading: 3 }, THEMES.light, { width: 900 }));
      for (const bad of [/\{[a-zA-Z]+\}/, /NaN/, /undefined/, />null</, /Infinity/]) assert.doesNotMatch(markup, bad, `${name}: ${bad}`);
      assert.equal((markup.match(/class="thumb( open)?"/g) ?? []).length, 8, name);
    }
  });
}

test('model view: the facts it states come from the runs', () => {
  const r = results('scaled', 'the cat sat on the mat'.split(' '), { layer: 1, head: 3 });
  const f = modelFacts(r);
  assert.equal(f.measured, r.info.headMeasurements[2]);
  assert.equal(f.here, r.run.heads[2]);
  assert.equal(f.top, r.run.next.top[0]);
  assert.ok(Math.abs(f.spread - r.run.heads.reduce((s, h) => s + h.spread, 0) / 8) < 1e-12);
  assert.ok(f.contrastSpread < f.spread, 'without √d_k the rows are more peaked');
  const demo = modelFacts(results('scaled', repeatedSequences(models.scaled.vocab, { span: 12, seed: 7 })[0], { demo: true }));
  assert.ok(demo.induction.here >= 0 && demo.induction.here <= 1);
  assert.equal(demo.repeat.expected, repeatedSequences(models.scaled.vocab, { span: 12, seed: 7 })[0][12]);
});

test('the command line\'s figure: one svg element, its texts escaped, in both themes', async () => {
  const strings = await loadStrings('en');
  for (const theme of Object.values(THEMES)) {
    const svg = toMarkup(modelFigure(models.scaled.run('the <cat> & the "dog"'), { info: models.scaled.info, layer: 2, head: 1, theme, strings }));
    assert.match(svg, /^<svg /);
    assert.ok(svg.includes('&lt;cat&gt;') || svg.includes('&lt;') , 'markup in a token is escaped');
    assert.doesNotMatch(svg, /NaN|undefined|\{[a-z]+\}/);
  }
});
