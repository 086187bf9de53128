// The lab's pipeline without a page (web/lab/inputs.js, results.js, state.js): settings →
// Q, K, V → the engine's result → the frozen LabState, in Node, with the committed GloVe asset.
// References are float64 and built here from the vocabulary's vectors, sharing no code with
// the core: softmax(Q·Kᵀ·s) for the weights, LayerNorm and the matrix products for the random
// projection, the sinusoidal encoding from its formula.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';
import { loadVocab } from '../../web/core/vocab.js';
import { LabPipeline, UNKNOWN_WORD_SIGMA, WORD_DIM } from '../../web/lab/inputs.js';
import { parseVectors } from '../../web/lab/paste.js';
import { labResults } from '../../web/lab/results.js';
import { createStore, defaultSettings } from '../../web/lab/settings.js';
import { heatmapData, labState, probeRow, queryRow } from '../../web/lab/state.js';
import { softmax64 } from '../support/reference.mjs';

const engine = await createEngine();
const vocab = await loadVocab(); // every bucket, from the package's files

// Weights from float32 scores against float64 ones. A score is a 100-term float32 dot product
// of GloVe vectors (|x|² ≈ 29, dots up to ~50), off by at most ~100·2⁻²⁴·50 ≈ 3e-4 in the worst
// case, typically far less; a weight moves by at most w·(1 − w)·2·Δscore ≤ Δscore/2. Scaled by
// 1/√100 that is 1.5e-5; unscaled 1.5e-4. Allowed: 4e-5 and 3e-4.
const WEIGHT_TOLERANCE_SCALED = 4e-5;
const WEIGHT_TOLERANCE_UNSCALED = 3e-4;
// A projected component sums 100 float32 products of unit-variance inputs and N(0, 1/100)
// weights (magnitude ~1): float32 rounding stays near 100·2⁻²⁴ ≈ 6e-6; allowed 1e-4.
const PROJECTION_TOLERANCE = 1e-4;

const settingsWith = (patch) => {
  const store = createStore();
  const { rejected } = store.set(patch);
  assert.deepEqual(rejected, {}, 'the test settings are valid');
  return store.get();
};

function dot(a, ai, b, bi, d) {
  let s = 0;
  for (let c = 0; c < d; c++) s += a[ai * d + c] * b[bi * d + c];
  return s;
}

function referenceWeights(q, k, n, m, d, scale, causal = false) {
  const scores = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) scores.push(causal && j > i ? -Infinity : dot(q, i, k, j, d) * scale);
  return Array.from({ length: n }, (_, i) => softmax64(scores.slice(i * m, (i + 1) * m))).flat();
}

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
  assert.ok(worst <= tolerance, `${what}: largest difference ${worst} > ${tolerance}`);
}

const wordVectors = (tokens) => {
  const x = new Float64Array(tokens.length * WORD_DIM);
  tokens.forEach((t, i) => x.set(vocab.vector(t), i * WORD_DIM));
  return x;
};

test('identity: q = k = v = the GloVe vectors, and the headline numbers (cat 0.36 scaled, 1.00 unscaled)', () => {
  const pipeline = new LabPipeline(engine, vocab);
  const s = defaultSettings();
  const state = labState(s, pipeline, engine);
  assert.deepEqual([state.n, state.m, state.d, state.dv], [10, 10, 100, 100]);
  const x = wordVectors(s.tokens);
  assert.deepEqual(Array.from(state.q), Array.from(x, Math.fround));
  assert.equal(state.k, state.q);
  assert.equal(state.v, state.x);
  assertClose(state.result.weights, referenceWeights(x, x, 10, 10, 100, 1 / 10), WEIGHT_TOLERANCE_SCALED, 'scaled weights');
  assert.equal(state.selected, 1);
  assert.equal(queryRow(state).weights[1].toFixed(3), '0.363');

  const unscaled = labState({ ...s, scaled: false }, pipeline, engine);
  assertClose(unscaled.result.weights, referenceWeights(x, x, 10, 10, 100, 1), WEIGHT_TOLERANCE_UNSCALED, 'unscaled weights');
  assert.equal(queryRow(unscaled).weights[1].toFixed(2), '1.00');
  // the probe "animal" looks most at "cat", ≈ 0.18
  const animal = Float64Array.from(vocab.vector('animal'));
  const probe = referenceWeights(animal, x, 1, 10, 100, 1 / 10);
  assertClose(state.probe.result.weights, probe, WEIGHT_TOLERANCE_SCALED, 'probe weights');
  assert.equal(probe.indexOf(Math.max(...probe)), 1);
  assert.equal(state.probe.result.weights[1].toFixed(3), '0.175');
  assert.deepEqual({ text: state.probe.text, known: state.probe.known }, { text: 'animal', known: true });
});

test('the state is frozen, names its rows and keys, and clamps the selected row', () => {
  const pipeline = new LabPipeline(engine, vocab);
  const state = labState(settingsWith({ sentence: 'the zorblax sat', selected: 9 }), pipeline, engine);
  assert.ok(Object.isFrozen(state) && Object.isFrozen(state.settings) && Object.isFrozen(state.tokens));
  assert.deepEqual(state.tokens, [{ text: 'the', known: true, source: 'glove' }, { text: 'zorblax', known: true, source: 'context' }, { text: 'sat', known: true, source: 'glove' }]);
  assert.deepEqual(state.unknown, []);
  assert.equal(state.selected, 2);
  assert.equal(state.settings.selected, 9); // the setting stays; it applies again to a longer sentence
  // a word the files lack, with known words around it: A₁ · their mean (engine.induceInSentence)
  const stand = engine.textVector('zorblax', WORD_DIM, { sigma: UNKNOWN_WORD_SIGMA });
  const x = new Float32Array(3 * WORD_DIM);
  [vocab.vector('the'), stand, vocab.vector('sat')].forEach((v, i) => x.set(v, i * WORD_DIM));
  const { window, a } = vocab.contextMap();
  const made = engine.induceInSentence({ t: 3, d: WORD_DIM, window, x, known: [1, 0, 1], a });
  assert.deepEqual(state.x.subarray(WORD_DIM, 2 * WORD_DIM), made.vectors.subarray(WORD_DIM, 2 * WORD_DIM));
  assert.notDeepEqual(state.x.subarray(WORD_DIM, 2 * WORD_DIM), stand);
  // with no known word around it, a word stays unknown: the engine's text-seeded vector, σ = UNKNOWN_WORD_SIGMA
  const alone = labState(settingsWith({ sentence: 'zorblax qwfpgjx' }), pipeline, engine);
  assert.deepEqual(alone.tokens.map((token) => [token.known, token.source]), [[false, null], [false, null]]);
  assert.deepEqual(alone.unknown, ['zorblax', 'qwfpgjx']);
  assert.deepEqual(alone.x.subarray(0, WORD_DIM), stand);
  // the views' inputs, taken from the state
  const row = queryRow(state, 0);
  assert.deepEqual(Array.from(row.weights), Array.from(state.result.weights.subarray(0, 3)));
  assert.deepEqual(row.known, [true, true, true]);
  assert.equal(row.entropy, state.result.entropy[0]);
  assert.equal(probeRow(state).rowSum, state.probe.rowSum);
  assert.equal(heatmapData(state).weights, state.result.weights);
});

test('random: Q = LayerNorm(x)·W_Q and K = LayerNorm(x)·W_K at d_k, with the engine’s seeded weights', () => {
  const pipeline = new LabPipeline(engine, vocab);
  const s = settingsWith({ projection: 'random', dk: 16, seed: 5 });
  const state = labState(s, pipeline, engine);
  assert.deepEqual([state.n, state.d, state.dv], [10, 16, 100]);
  const { wq, wk } = engine.projectionWeights({ dIn: WORD_DIM, seed: 5, head: 0, d: 16 });
  const x = wordVectors(s.tokens);
  const project = (w, rows, t) => {
    const out = [];
    for (let i = 0; i < t; i++) {
      const row = rows.slice(i * WORD_DIM, (i + 1) * WORD_DIM);
      const mean = row.reduce((a, b) => a + b, 0) / WORD_DIM;
      const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / WORD_DIM;
      const norm = row.map((c) => (c - mean) / Math.sqrt(variance + 1e-5));
      for (let j = 0; j < 16; j++) {
        let sum = 0;
        for (let c = 0; c < WORD_DIM; c++) sum += norm[c] * w[c * 16 + j];
        out.push(sum);
      }
    }
    return out;
  };
  assertClose(state.q, project(wq, x, 10), PROJECTION_TOLERANCE, 'Q');
  assertClose(state.k, project(wk, x, 10), PROJECTION_TOLERANCE, 'K');
  // the probe's q is LayerNorm(animal)·W_Q, as if it were alone
  assertClose(state.probe.q, project(wq, Float64Array.from(vocab.vector('animal')), 1), PROJECTION_TOLERANCE, 'probe q');
  assertClose(state.result.weights, referenceWeights(state.q, state.k, 10, 10, 16, 1 / 4), WEIGHT_TOLERANCE_SCALED, 'weights');
});

test('positions: x + the sinusoidal encoding PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(…)', () => {
  const pipeline = new LabPipeline(engine, vocab);
  const s = settingsWith({ positional: true });
  const state = labState(s, pipeline, engine);
  const x = wordVectors(s.tokens);
  const expected = Array.from(x, (value, at) => {
    const p = Math.floor(at / WORD_DIM);
    const c = at % WORD_DIM;
    const angle = p / 10000 ** ((2 * Math.floor(c / 2)) / WORD_DIM);
    return value + (c % 2 === 0 ? Math.sin(angle) : Math.cos(angle));
  });
  assertClose(state.x, expected, 1e-6, 'x + PE'); // one float32 rounding of values below 8
});

test('causal: one rule — the mask on a square shape hides later keys; on n ≠ m it is an error that says so', () => {
  const pipeline = new LabPipeline(engine, vocab);
  const state = labState(settingsWith({ causal: true }), pipeline, engine);
  const x = wordVectors(state.settings.tokens);
  assertClose(state.result.weights, referenceWeights(x, x, 10, 10, 100, 1 / 10, true), WEIGHT_TOLERANCE_SCALED, 'masked weights');
  assert.equal(state.result.scores[1], -Infinity); // query 1 does not see key 2
  // the probe is cross-attention: the mask does not apply to it
  assert.deepEqual(state.probe.result.weights, labState(defaultSettings(), pipeline, engine).probe.result.weights);

  const pasted = parseVectors({ q: '1 0\n0 1', k: '1 0\n0 1\n1 1' });
  const wide = settingsWith({ pasted, projection: 'pasted', causal: true, selected: 0 });
  const inputs = pipeline.inputs(wide);
  assert.throws(() => labResults(inputs, wide, engine), {
    name: 'RangeError',
    message: 'The causal mask needs as many queries as keys (Q has 2 rows, K has 3): turn the mask off, or paste as many queries as keys.',
  });
  assert.throws(() => labState(wide, pipeline, engine), RangeError);
  const open = labState({ ...wide, causal: false }, pipeline, engine);
  assertClose(open.result.weights, referenceWeights(pasted.q, pasted.k, 2, 3, 2, 1 / Math.SQRT2), 1e-6, 'pasted weights');
});

test('pasted vectors: their labels (q1…, k1… without), no words, no probe', () => {
  const pipeline = new LabPipeline(engine, vocab);
  const pasted = parseVectors({ q: 'it, 0.9, 0.1\nmat, 0, 1', k: '1 0\n0 1\n1 1' });
  const state = labState(settingsWith({ pasted, projection: 'pasted' }), pipeline, engine);
  assert.deepEqual(state.queryLabels, ['it', 'mat']);
  assert.deepEqual(state.keyLabels, ['k1', 'k2', 'k3']);
  assert.deepEqual(state.tokens, [{ text: 'it', known: null, source: null }, { text: 'mat', known: null, source: null }]);
  assert.deepEqual(state.unknown, []);
  assert.equal(state.x, null);
  assert.equal(state.probe, null);
  assert.equal(queryRow(state).known, null);
});

test('inputs are cached: the same settings give the same arrays; scale, temperature and mask do not rebuild them', () => {
  const pipeline = new LabPipeline(engine, vocab);
  const s = settingsWith({ projection: 'random', dk: 32 });
  const first = pipeline.inputs(s);
  assert.ok(Object.isFrozen(first));
  assert.equal(pipeline.inputs({ ...s, scaled: false, temperature: 2, causal: true, selected: 4 }), first);
  assert.notEqual(pipeline.inputs({ ...s, dk: 64 }), first);
  // prepareProjection draws one d_k stop per call, until all are there
  let calls = 0;
  while (pipeline.prepareProjection(9, [1, 2, 4])) calls++;
  assert.equal(calls, 3);
});

test('nothing to compute is an error with a message for the page', () => {
  const pipeline = new LabPipeline(engine, vocab);
  assert.throws(() => labState(settingsWith({ sentence: '   ' }), pipeline, engine), { message: 'Type at least one token.' });
  assert.throws(() => pipeline.inputs({ ...defaultSettings(), projection: 'pasted' }), { message: /Paste Q and K first/ });
});

test('a word whose file has not arrived stands in as unknown and is looked up again once it has', () => {
  // a vocabulary that has not yet got "cat"'s file: status 'loading', no vector
  let arrived = false;
  const partial = {
    vector: (word) => (word === 'cat' && !arrived ? undefined : vocab.vector(word)),
    status: (word) => (word === 'cat' && !arrived ? 'loading' : vocab.status(word)),
  };
  const pipeline = new LabPipeline(engine, partial);
  const settings = settingsWith({ sentence: 'the cat sat' });
  const before = pipeline.inputs(settings);
  assert.deepEqual([...before.known], [true, false, true], 'cat stands in as unknown');
  arrived = true;
  const after = pipeline.inputs(settings);
  assert.notEqual(after, before, 'inputs made with a stand-in are not kept');
  assert.deepEqual([...after.known], [true, true, true]);
  const cat = vocab.vector('cat');
  assert.deepEqual([...after.x.subarray(WORD_DIM, 2 * WORD_DIM)], [...cat], 'the real vector, not the stand-in');
});
