// The lesson model (web/lesson/model.js) in Node: lab states built by the lab's own pipeline
// (web/lab/state.js) from the GloVe asset, turned into every instrument's results. Checked
// against the lab's own result (one setting, one set of numbers), against float64 references
// written here, and for what each result depends on (memoised: unchanged parts are the same
// objects; changed inputs give new ones).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';
import { loadVocab } from '../../web/core/vocab.js';
import { LabPipeline } from '../../web/lab/inputs.js';
import { parseVectors } from '../../web/lab/paste.js';
import { createStore } from '../../web/lab/settings.js';
import { labState } from '../../web/lab/state.js';
import { LESSON_DEFAULTS, LESSON_MAX_TOKENS, LessonModel, MAX_HEADS, SWEEP_DIMS, updateLessonSettings } from '../../web/lesson/model.js';
import { rowReference } from '../support/reference.mjs';

const engine = await createEngine();
const vocab = await loadVocab(); // every bucket, from the package's files
const pipeline = new LabPipeline(engine, vocab);

/** The lab's state after `patch` on the default settings (no probe: the lesson does not use it). */
function state(patch = {}) {
  const store = createStore();
  const { rejected } = store.set({ probe: '', ...patch });
  assert.deepEqual(rejected, {}, 'the test settings are valid');
  return labState(store.get(), pipeline, engine);
}

// float32 dot products of d ≤ 1024 terms and a float32 softmax: a weight within 1e-5 of float64
// (relative error of the sums ~1e-6, times scores of size ≲ 10).
const WEIGHT_TOLERANCE = 1e-5;

test('one setting, one set of numbers: on Random at T = 1 without a mask, the sweeps at the lab’s d_k are the lab’s rows', () => {
  const model = new LessonModel(engine);
  for (const [dk, scaled] of [[64, true], [1024, false]]) {
    const s = state({ projection: 'random', dk, scaled, selected: 1 });
    const r = model.saturation(s);
    const at = scaled ? r.at.scaled : r.at.unscaled;
    assert.equal(r.row, 1);
    assert.equal(r.word, 'cat');
    assert.equal(at.maxWeight, s.result.maxWeight[1]);
    assert.equal(at.entropy, s.result.entropy[1]);
    assert.deepEqual(r.lab, { d: dk, word: 'cat', maxWeight: s.result.maxWeight[1], entropy: s.result.entropy[1], scaled });
    // the counts are the core's, and count what they say
    const { peakedMaxWeight } = engine.lessonConstants;
    const c = SWEEP_DIMS.indexOf(dk);
    const sweep = scaled ? r.scaled : r.unscaled;
    const rows = Array.from(sweep.maxWeight.subarray(c * r.t, (c + 1) * r.t));
    assert.equal(at.peaked, rows.filter((p) => p > peakedMaxWeight).length);
    assert.ok(Math.abs(r.maxEntropy - Math.log(r.t)) < 1e-6, `ln t: ${r.maxEntropy}`);
  }
});

test('the sweeps measure d_k off the powers of two alone (Identity: d = 100), and mark the lab’s row there', () => {
  const model = new LessonModel(engine);
  const s = state({ projection: 'identity', selected: 1 });
  const r = model.saturation(s);
  assert.equal(r.dk, 100);
  const alone = engine.saturationSweep({ x: s.x, t: 10, seed: 1, dims: [100], scaled: false });
  assert.equal(r.at.unscaled.maxWeight, alone.maxWeight[1]);
  assert.equal(r.at.unscaled.peaked, alone.peakedCount[0]);
  assert.equal(r.lab.maxWeight.toFixed(3), '0.363', 'the headline: "cat" 0.36 scaled on Identity');
  const v = model.variance(s);
  assert.equal(v.at.random.unscaled, engine.dotVarianceCurve({ seed: 1, dims: [100], samples: v.samples }).unscaled[0]);
  assert.ok(Math.abs(v.histograms.sqrtD - 10) < 1e-6);
});

test('the gradient view’s two scalings: the lab’s own result, and the other by the lab’s rule (the causal mask kept)', () => {
  const model = new LessonModel(engine);
  const s = state({ projection: 'random', dk: 64, scaled: true, temperature: 0.5, causal: true, selected: 5 });
  const r = model.gradient(s);
  const [unscaled, scaled] = r.panels;
  assert.equal(scaled.maxWeight, s.result.maxWeight[5]);
  assert.equal(r.labScaled, true);
  const ref = rowReference(s, 5, { scale: 1, visible: 6, temperature: s.temperature });
  assert.ok(Math.abs(unscaled.maxWeight - ref.maxWeight) < WEIGHT_TOLERANCE, `${unscaled.maxWeight} vs ${ref.maxWeight}`);
  assert.ok(Math.abs(unscaled.entropy - ref.entropy) < 1e-4, `${unscaled.entropy} vs ${ref.entropy}`);
  // the Jacobian diag(p) − p pᵀ of the unscaled row, in float64 from the reference weights
  const { m } = s;
  for (let i = 0; i < m; i++)
    for (let j = 0; j < m; j++) {
      const expected = (i === j ? ref.p[i] : 0) - ref.p[i] * ref.p[j];
      assert.ok(Math.abs(unscaled.jacobian[i * m + j] - expected) < WEIGHT_TOLERANCE, `J[${i}][${j}]`);
    }
  // hidden keys (j > 5) carry no weight: their rows and columns of J are 0
  for (let j = 6; j < m; j++) assert.equal(unscaled.jacobian[j * m + j], 0);
  assert.equal(r.sweepRow, 5);
});

test('step by step is the lab’s row: its mask, temperature and scaling; the key follows the lesson’s setting', () => {
  const model = new LessonModel(engine);
  const s = state({ projection: 'random', dk: 16, scaled: false, temperature: 0.5, causal: true, selected: 3 });
  const r = model.step(s, LESSON_DEFAULTS);
  assert.equal(r.key, 3, 'by default the key at the query’s own position');
  assert.equal(r.visible, 4, 'the causal mask of the lab’s result: keys 0…3');
  const ref = rowReference(s, 3, { scale: 1, visible: 4, temperature: s.temperature });
  r.trace.weights.forEach((w, j) => {
    assert.ok(Math.abs(w - ref.p[j]) < WEIGHT_TOLERANCE, `weight ${j}: ${w} vs ${ref.p[j]}`);
    assert.ok(Math.abs(w - s.result.weights[3 * s.m + j]) < WEIGHT_TOLERANCE);
  });
  assert.equal(r.trace.maxWeight.toFixed(3), s.result.maxWeight[3].toFixed(3));
  assert.ok(r.trace.minWeight > 0);
  assert.equal(model.step(s, { ...LESSON_DEFAULTS, key: 7 }).key, 7);
  assert.equal(model.step(s, { ...LESSON_DEFAULTS, key: 99 }).key, s.m - 1, 'a key past the last one is the last');
  assert.deepEqual(Array.from(r.q), Array.from(s.q.subarray(3 * 16, 4 * 16)));
});

test('overflow: the naive softmax of the lab’s scores breaks at low T; the stable one is the lab’s row', () => {
  const model = new LessonModel(engine);
  const s = state({ projection: 'random', dk: 1024, scaled: false, temperature: 0.01, selected: 1 });
  const r = model.overflow(s);
  assert.equal(r.naive.overflowed, true);
  assert.ok(r.naive.largest > r.threshold, `${r.naive.largest} > ${r.threshold}`);
  assert.ok(r.stable.every(Number.isFinite));
  r.stable.forEach((p, j) => assert.ok(Math.abs(p - s.result.weights[s.m + j]) < WEIGHT_TOLERANCE));
  const warm = model.overflow(state({ projection: 'random', dk: 16, scaled: true, temperature: 1, selected: 1 }));
  assert.equal(warm.naive.overflowed, false);
});

test('heads: d_k split over the lesson’s number of heads, on the sentence’s first tokens', () => {
  const model = new LessonModel(engine);
  const s = state({ projection: 'random', dk: 64 });
  const r = model.heads(s, { ...LESSON_DEFAULTS, heads: 3 });
  assert.equal(r.d, 21);
  assert.equal(r.weights.length, 3 * 10 * 10);
  assert.equal(r.concat.length, 10 * 3 * 21);
  const one = engine.multiHead({ x: s.x, t: 10, seed: 1, heads: 3, d: 21, scaled: true });
  assert.deepEqual(r.weights, one.weights);
  // a long sentence: the sweeps and heads take the first LESSON_MAX_TOKENS words
  const long = state({ sentence: Array.from({ length: 40 }, (_, i) => `word${i % 7} the`).join(' ') });
  assert.equal(model.heads(long, LESSON_DEFAULTS).t, LESSON_MAX_TOKENS);
  assert.equal(model.saturation(long).t, LESSON_MAX_TOKENS);
});

test('pasted vectors: the row instruments use them; the sweeps and heads say they need word vectors', () => {
  const model = new LessonModel(engine);
  const s = state({ pasted: parseVectors({ q: '1 0\n0 1', k: '1 0\n0 1\n1 1' }), projection: 'pasted', selected: 0 });
  assert.match(model.saturation(s).empty, /needs word vectors/);
  assert.match(model.heads(s, LESSON_DEFAULTS).empty, /needs word vectors/);
  assert.equal(model.variance(s).tokenCurve, null);
  assert.equal(model.gradient(s).sweeps, null);
  const step = model.step(s, LESSON_DEFAULTS);
  assert.equal(step.trace.maxWeight.toFixed(3), s.result.maxWeight[0].toFixed(3));
  assert.equal(step.m, 3);
});

test('memoised on what each result depends on', () => {
  const model = new LessonModel(engine);
  const a = state({ projection: 'random', dk: 64, selected: 1 });
  const b = state({ projection: 'random', dk: 256, selected: 4 });
  // the sweeps do not depend on d_k or the row: the same objects
  assert.equal(model.saturation(a).unscaled, model.saturation(b).unscaled);
  assert.equal(model.variance(a).curve, model.variance(b).curve);
  assert.equal(model.variance(a).tokenCurve, model.variance(b).tokenCurve);
  // the histograms and the rows do
  assert.notEqual(model.variance(a).histograms, model.variance(b).histograms);
  assert.notEqual(model.step(a, LESSON_DEFAULTS).trace, model.step(b, LESSON_DEFAULTS).trace);
  // a new sentence or seed gives new sweeps
  const c = state({ projection: 'random', dk: 64, selected: 1, seed: 2 });
  assert.notEqual(model.saturation(c).unscaled, model.saturation(a).unscaled);
  const d = state({ projection: 'random', dk: 64, selected: 1, sentence: 'a dog ran home' });
  assert.notEqual(model.saturation(d).unscaled, model.saturation(c).unscaled);
  // and the same state twice is all cached
  assert.equal(model.step(d, LESSON_DEFAULTS).trace, model.step(d, LESSON_DEFAULTS).trace);
});

test('too few words: a clear message instead of a picture', () => {
  const model = new LessonModel(engine);
  const s = state({ sentence: 'cat', selected: 0 });
  assert.match(model.saturation(s).empty, /at least 2 words/);
  assert.match(model.gradient(s).empty, /at least 2 words/);
  assert.equal(model.variance(s).tokenCurve, null);
  assert.equal(model.step(s, LESSON_DEFAULTS).trace.weightSum, 1);
});

test('the lesson’s settings: heads 1 to 8 and a key ≥ 0 (or null); anything else rejected with a reason', () => {
  assert.deepEqual(updateLessonSettings(LESSON_DEFAULTS, { heads: 8, key: 2 }), { settings: { heads: 8, key: 2 }, rejected: {} });
  const { settings, rejected } = updateLessonSettings(LESSON_DEFAULTS, { heads: 9, key: -1, colour: 'red' });
  assert.deepEqual(settings, LESSON_DEFAULTS);
  assert.match(rejected.heads, /whole number from 1 to 8, got 9/);
  assert.match(rejected.key, /got -1/);
  assert.equal(rejected.colour, 'unknown lesson setting');
  assert.throws(() => new LessonModel(null), /engine must be an engine/);
});

test('the lesson’s limit of heads is the core’s', () => {
  assert.equal(MAX_HEADS, engine.limits.lesson.maxHeads);
});
