// The lesson's claims, measured through the public JavaScript API (web/core/engine.js):
// variance ∝ d_k, saturation and vanishing gradients without scaling, softmax rows as
// probability distributions, the naive softmax's overflow; and clear errors on bad input.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';
import { rowReference } from '../support/reference.mjs';

// scripts/test.sh runs this file once per build: the SIMD build, then ATTN_TEST_BUILD=scalar
const SCALAR = process.env.ATTN_TEST_BUILD === 'scalar';
const engine = await createEngine({ simd: !SCALAR });
test(`the requested build is the one under test (${SCALAR ? 'scalar' : 'simd'})`, () => {
  assert.equal(engine.arch, SCALAR ? 'emulated' : 'wasm');
});
const DIMS = [1, 4, 16, 64, 256, 1024];
const D_IN = 100;

// A synthetic sentence: t GloVe-sized vectors (components ~ N(0, 0.45²)) from the core's RNG.
function syntheticSentence(t, seed) {
  return engine.randomNormal(seed, t * D_IN, { sigma: 0.45 });
}

async function gloveSentence(words) {
  const { loadVocab } = await import('../../web/core/vocab.js');
  const vocab = await loadVocab(words);
  const x = new Float32Array(words.length * vocab.dim);
  words.forEach((w, i) => x.set(vocab.vector(w), i * vocab.dim));
  return x;
}

test('claim 1: measured Var(q·k) ≈ d_k and Var(q·k/√d_k) ≈ 1', () => {
  const samples = 4000;
  const curve = engine.dotVarianceCurve({ seed: 7, dims: DIMS, samples });
  assert.deepEqual(curve.dims, DIMS);
  DIMS.forEach((d, i) => {
    // q·k is a sum of d products of independent N(0,1) numbers (variance 1, fourth moment 9):
    // its sample variance from N samples has relative standard error √((2 + 6/d)/N), i.e.
    // 4.5 % at d = 1 and 2.3 % for large d with N = 4000. We allow 5 standard errors.
    const tolerance = 5 * Math.sqrt((2 + 6 / d) / samples);
    assert.ok(Math.abs(curve.unscaled[i] / d - 1) < tolerance, `Var(q·k) = ${curve.unscaled[i]} at d = ${d}`);
    assert.ok(Math.abs(curve.scaled[i] - 1) < tolerance, `Var(q·k/√d) = ${curve.scaled[i]} at d = ${d}`);
  });
});

test('dot histograms count every sample and carry the same variance', () => {
  const samples = 3000;
  const h = engine.dotHistograms({ seed: 3, d: 256, samples, bins: 30 });
  for (const part of [h.unscaled, h.scaled]) {
    const total = part.counts.reduce((a, b) => a + b, 0) + part.below + part.above;
    assert.equal(total, samples);
  }
  // the core's default ranges, ±4 standard deviations: ±4√d and ±4
  assert.deepEqual([h.unscaled.lo, h.unscaled.hi, h.scaled.lo, h.scaled.hi], [-64, 64, -4, 4]);
  assert.equal(h.sqrtD, 16);
  const given = engine.dotHistograms({ seed: 3, d: 2, samples: 10, bins: 4, range: [-1, 3], scaledRange: [-0.5, 0.25] });
  assert.deepEqual([given.unscaled.lo, given.unscaled.hi, given.scaled.lo, given.scaled.hi], [-1, 3, -0.5, 0.25]);
  assert.equal(given.sqrtD, Math.fround(Math.SQRT2));
  assert.ok(Math.abs(h.unscaled.variance / 256 - h.scaled.variance) < 1e-3 * h.scaled.variance);
  // same seed and width, same samples as the curve
  const curve = engine.dotVarianceCurve({ seed: 3, dims: [256], samples });
  assert.ok(Math.abs(curve.unscaled[0] - h.unscaled.variance) < 1e-3 * curve.unscaled[0]);
});

test('claim 1 on a sentence: the t² token dot products have variance ≈ d_k', () => {
  const t = 10;
  const curve = engine.tokenVarianceCurve({ x: syntheticSentence(t, 11), t, seed: 5, dims: DIMS, draws: 16 });
  DIMS.forEach((d, i) => {
    // E[(q·k)²] = d over the projections (layer-normalised tokens have unit-variance
    // components). The t² products of one draw share W_Q and W_K, so the 16·100 products are
    // worth about 16·10 independent ones: standard error √(2/160) ≈ 0.11; 4 of them = 0.45.
    assert.ok(Math.abs(curve.unscaled[i] / d - 1) < 0.45, `Var = ${curve.unscaled[i]} at d = ${d}`);
    assert.ok(Math.abs(curve.scaled[i] - 1) < 0.45, `scaled Var = ${curve.scaled[i]} at d = ${d}`);
  });
});

async function checkSaturation(x, t) {
  const unscaled = engine.saturationSweep({ x, t, seed: 1, dims: DIMS, scaled: false });
  const scaled = engine.saturationSweep({ x, t, seed: 1, dims: DIMS, scaled: true });
  const last = DIMS.length - 1;
  const u = unscaled.mean;
  const s = scaled.mean;
  // Claim 2: unscaled scores have standard deviation √d, so from d = 1 to 1024 the rows
  // sharpen towards one-hot: max weight rises, entropy falls. One sentence and one seed are
  // noisy in between, so we check the ends and a non-increasing trend up to noise (0.1 nats).
  assert.ok(u.maxWeight[last] > 0.9, `max weight at d = 1024: ${u.maxWeight[last]}`);
  assert.ok(u.maxWeight[last] > u.maxWeight[0] + 0.4);
  assert.ok(u.entropy[last] < 0.25 * u.entropy[0], `entropy ${u.entropy[0]} → ${u.entropy[last]}`);
  for (let c = 1; c < DIMS.length; c++) assert.ok(u.entropy[c] < u.entropy[c - 1] + 0.1 || u.entropy[c] < 0.5);
  assert.ok(u.fractionPeaked[last] >= 0.5);
  // Claim 3: the gradient through a saturated softmax vanishes; with scaling it stays.
  assert.ok(u.gradNorm[last] < 0.3 * u.gradNorm[0], `gradient ${u.gradNorm[0]} → ${u.gradNorm[last]}`);
  for (let c = 0; c < DIMS.length; c++) {
    assert.equal(s.fractionPeaked[c], 0, `scaled rows peaked at d = ${DIMS[c]}`);
    assert.ok(s.gradNorm[c] > 0.5 * s.gradNorm[0]);
    assert.ok(s.gradNorm[c] > 2 * u.gradNorm[last]);
  }
  // per-row arrays are consistent with the summary
  const rowMean = (arr, c) => arr.slice(c * t, c * t + t).reduce((a, b) => a + b, 0) / t;
  assert.ok(Math.abs(rowMean(unscaled.gradNorm, last) - u.gradNorm[last]) < 1e-6);
  const { peakedMaxWeight } = engine.lessonConstants;
  unscaled.regime.forEach((r, idx) => assert.equal(r === 1, unscaled.maxWeight[idx] > peakedMaxWeight));
  // the counts per width are the regimes of its t rows; the most entropy a row can have is ln t
  for (const sweep of [unscaled, scaled]) {
    assert.ok(Math.abs(sweep.maxEntropy - Math.log(t)) < 1e-6);
    DIMS.forEach((d, c) => {
      const rows = Array.from(sweep.regime.subarray(c * t, (c + 1) * t));
      assert.equal(sweep.peakedCount[c], rows.filter((r) => r === 1).length, `peaked rows at d = ${d}`);
      assert.equal(sweep.flatCount[c], rows.filter((r) => r === 2).length, `flat rows at d = ${d}`);
    });
  }
}

test('claims 2 and 3 on a synthetic sentence: unscaled saturates and the gradient vanishes', () =>
  checkSaturation(syntheticSentence(10, 21), 10));

test('claims 2 and 3 on the default GloVe sentence', async () => {
  const words = 'the cat sat on the mat because it was tired'.split(' ');
  await checkSaturation(await gloveSentence(words), words.length);
});

test('gradients: softmaxBackward is Jᵀg, and the Jacobian of a one-hot row is zero', () => {
  const p = engine.softmax([0.5, -1, 2, 0.1, 0.3]);
  const m = p.length;
  const jac = engine.softmaxJacobian(p);
  const g = engine.upstreamGradient(9, 2, m);
  const dz = engine.softmaxBackward(p, g);
  for (let j = 0; j < m; j++) {
    let expect = 0;
    for (let i = 0; i < m; i++) expect += jac[i * m + j] * g[i];
    assert.ok(Math.abs(dz[j] - expect) < 1e-6);
  }
  assert.ok(engine.softmaxJacobian([0, 1, 0]).every((v) => v === 0));
  assert.ok(engine.softmaxBackward([0, 0, 1], [3, -2, 5]).every((v) => v === 0));
});

test('claim 4: step by step, every row of weights is positive and sums to 1', () => {
  const t = 6;
  const d = 32;
  const x = syntheticSentence(t, 31);
  const { q, k } = engine.headProjections({ x, t, seed: 2, d });
  const attention = engine.attention({ q, k, n: t, m: t, d, scale: 'sqrt' });
  for (let i = 0; i < t; i++) {
    const trace = engine.stepByStep({ q: q.slice(i * d, (i + 1) * d), k, m: t, d, key: i, scaled: true });
    assert.ok(Math.abs(trace.scale - 1 / Math.sqrt(d)) < 1e-7);
    assert.ok(Math.abs(trace.scores[i] - trace.scale * trace.dot) < 1e-5);
    assert.ok(trace.shifted.every((v) => v <= 0));
    assert.ok(trace.exps.every((v) => v > 0 && v <= 1));
    assert.ok(trace.sum >= 1);
    assert.ok(trace.weights.every((v) => v > 0));
    assert.ok(Math.abs(trace.weightSum - 1) < 1e-6);
    // the trace agrees with the attention kernel (float32 sums in another order: 2e-5)
    trace.weights.forEach((w, j) => assert.ok(Math.abs(w - attention.weights[i * t + j]) < 2e-5));
  }
});

// The float64 reference of one attention row (scale·q·k, keys j ≥ visible hidden, softmax of
// z/T) is rowReference (tests/support/reference.mjs).
// float32 sums of d ≤ 64 terms of size ~1: relative error ~1e-6; a weight is within 1e-5.
const ROW_TOLERANCE = 1e-5;

test('step by step with a temperature and a causal row is the lab’s attention row (float64 reference and attention())', () => {
  const m = 7, d = 24, row = 3;
  const q = engine.randomNormal(30, m * d);
  const k = engine.randomNormal(31, m * d);
  for (const [scaled, temperature, causal] of [[true, 1, false], [false, 0.5, true], [true, 4, true]]) {
    const visible = causal ? row + 1 : m;
    const s = engine.stepByStep({ q: q.slice(row * d, (row + 1) * d), k, m, d, key: 1, scaled, temperature, visible });
    const ref = rowReference({ q, k, m, d }, row, { scale: scaled ? 1 / Math.sqrt(d) : 1, temperature, visible });
    const lab = engine.attention({ q, k, n: m, m, d, scale: scaled ? 'sqrt' : 'none', temperature, causal });
    for (let j = 0; j < m; j++) {
      assert.ok(Math.abs(s.weights[j] - ref.p[j]) < ROW_TOLERANCE, `weight ${j}: ${s.weights[j]} vs ${ref.p[j]}`);
      assert.ok(Math.abs(s.weights[j] - lab.weights[row * m + j]) < ROW_TOLERANCE);
    }
    for (let j = visible; j < m; j++) assert.equal(s.weights[j], 0);
    assert.ok(Math.abs(s.sqrtD - Math.sqrt(d)) < 1e-6);
    assert.ok(Math.abs(s.minWeight - Math.min(...ref.p.slice(0, visible))) < ROW_TOLERANCE);
    assert.ok(s.minWeight > 0, 'every visible key gets some weight');
    assert.ok(Math.abs(s.maxWeight - ref.maxWeight) < ROW_TOLERANCE);
    assert.ok(Math.abs(s.entropy - ref.entropy) < 1e-5, `entropy ${s.entropy} vs ${ref.entropy}`);
    assert.equal(s.maxWeight.toFixed(3), lab.maxWeight[row].toFixed(3));
    assert.equal(s.entropy.toFixed(3), lab.entropy[row].toFixed(3));
  }
  assert.throws(() => engine.stepByStep({ q: [1, 2], k: [1, 2, 3, 4], m: 2, d: 2, visible: 3 }), /visible \(number of visible keys\) must be an integer from 1 to 2, got 3/);
  assert.throws(() => engine.stepByStep({ q: [1, 2], k: [1, 2, 3, 4], m: 2, d: 2, temperature: 0 }), /temperature/);
});

test('softmaxGradientNorm is the sweep’s gradient size of a row (float64 reference and saturationSweep)', () => {
  const p = engine.softmax([0.3, -1.2, 2.0, 0.5, 0.1]);
  const g = engine.upstreamGradient(5, 2, p.length);
  const pg = p.reduce((a, v, j) => a + v * g[j], 0);
  const ref = Math.sqrt(p.reduce((a, v, j) => a + (v * (g[j] - pg)) ** 2, 0));
  assert.ok(Math.abs(engine.softmaxGradientNorm(p, { seed: 5, row: 2 }) / ref - 1) < 1e-5);
  // the sweep's numbers for every row are this function of its weights
  const t = 6, d = 32;
  const x = syntheticSentence(t, 12);
  const sweep = engine.saturationSweep({ x, t, seed: 5, dims: [d], scaled: false });
  const { q, k } = engine.headProjections({ x, t, seed: 5, d });
  const lab = engine.attention({ q, k, n: t, m: t, d, scale: 'none' });
  for (let i = 0; i < t; i++) {
    assert.equal(engine.softmaxGradientNorm(lab.weights.slice(i * t, (i + 1) * t), { seed: 5, row: i }), sweep.gradNorm[i]);
    assert.equal(lab.maxWeight[i], sweep.maxWeight[i]);
    assert.equal(lab.entropy[i], sweep.entropy[i]);
  }
});

test('projectionWeights + projectQK are headProjections bit for bit, and LayerNorm(x)·W in float64', () => {
  const t = 5, d = 48;
  const x = syntheticSentence(t, 13);
  const weights = engine.projectionWeights({ seed: 9, d });
  assert.equal(weights.wq.length, D_IN * d);
  const split = engine.projectQK({ x, t, weights });
  const whole = engine.headProjections({ x, t, seed: 9, d });
  assert.deepEqual(split.q, whole.q);
  assert.deepEqual(split.k, whole.k);
  for (let i = 0; i < t; i++) {
    const row = Array.from(x.slice(i * D_IN, (i + 1) * D_IN));
    const mean = row.reduce((a, b) => a + b, 0) / D_IN;
    const sd = Math.sqrt(row.reduce((a, b) => a + (b - mean) ** 2, 0) / D_IN + 1e-5);
    const xn = row.map((v) => (v - mean) / sd);
    for (const [w, out] of [[weights.wq, split.q], [weights.wk, split.k]])
      for (let c = 0; c < d; c++) {
        let ref = 0;
        for (let e = 0; e < D_IN; e++) ref += xn[e] * w[e * d + c];
        assert.ok(Math.abs(out[i * d + c] - ref) < 1e-4, `row ${i}, component ${c}: ${out[i * d + c]} vs ${ref}`);
      }
  }
  assert.notDeepEqual(weights.wq, weights.wk);
  assert.throws(() => engine.projectQK({ x, t, weights: null }), /weights must be projectionWeights/);
});

test('overflow: the naive softmax returns Infinity and NaN where the stable one is fine', () => {
  const { expOverflowThreshold } = engine.lessonConstants;
  assert.ok(Math.abs(expOverflowThreshold - Math.log(3.4028234663852886e38)) < 1e-5);
  const scores = [95, 90, 10, -5];
  const naive = engine.softmaxNaive(scores);
  assert.equal(naive.naive, true);
  assert.equal(naive.largest, 95);
  assert.equal(naive.overflowed, true);
  assert.equal(naive.exps[0], Infinity);
  assert.equal(naive.sum, Infinity);
  assert.ok(Number.isNaN(naive.weights[0]));
  assert.ok(engine.softmax(scores).every(Number.isFinite));
  // a higher temperature divides the scores back into range: both agree again
  const warm = engine.softmaxNaive(scores, { temperature: 4 });
  assert.equal(warm.largest, 95 / 4);
  assert.equal(warm.overflowed, false);
  const stable = engine.softmax(scores, { temperature: 4 });
  warm.weights.forEach((w, j) => assert.ok(Math.abs(w - stable[j]) < 1e-6));
});

test('multi-head: head r is attention over head r’s projections; outputs are concatenated', () => {
  const t = 5;
  const d = 8;
  const heads = 3;
  const x = syntheticSentence(t, 41);
  const mh = engine.multiHead({ x, t, seed: 4, heads, d, scaled: true });
  assert.equal(mh.weights.length, heads * t * t);
  assert.equal(mh.concat.length, t * heads * d);
  for (let r = 0; r < heads; r++) {
    const { q, k, v } = engine.headProjections({ x, t, seed: 4, head: r, d });
    const one = engine.attention({ q, k, v, n: t, m: t, d, dv: d });
    one.weights.forEach((w, idx) => assert.ok(Math.abs(w - mh.weights[r * t * t + idx]) < 1e-6));
    for (let i = 0; i < t; i++)
      for (let c = 0; c < d; c++) assert.ok(Math.abs(one.output[i * d + c] - mh.concat[i * heads * d + r * d + c]) < 1e-5);
  }
});

test('bad arguments throw errors that name the argument', () => {
  const x = syntheticSentence(3, 1);
  assert.throws(() => engine.dotVarianceCurve({ dims: [] }), /the number of widths \(dims.length\) must be an integer from 1 to 64, got 0/);
  assert.throws(() => engine.dotVarianceCurve({ dims: [4, 0] }), /dims\[1\] must be an integer from 1 to 4096, got 0/);
  assert.throws(() => engine.dotVarianceCurve({ dims: 'abc' }), TypeError);
  assert.throws(() => engine.dotHistograms({ d: 8, range: [1, 1] }), /range must be finite with lo < hi/);
  assert.throws(() => engine.tokenVarianceCurve({ x, t: 4, dims: [8] }), /x has length 300, expected t·dIn = 400/);
  assert.throws(() => engine.saturationSweep({ x, t: 3, dims: [8], scaled: 'yes' }), /scaled must be true or false/);
  assert.throws(() => engine.stepByStep({ q: [1, 2], k: [1, 2, 3, 4], m: 2, d: 2, key: 2 }), /key must be an integer from 0 to 1, got 2/);
  assert.throws(() => engine.softmaxNaive([1, 2], { temperature: 0 }), /temperature must be a positive finite number/);
  assert.throws(() => engine.multiHead({ x, t: 3, heads: 9 }), /heads must be an integer from 1 to 8, got 9/);
  assert.throws(() => engine.softmaxBackward([0.5, 0.5], [1]), /dp has length 1/);
  const bad = Float32Array.from(x);
  bad[4] = NaN;
  assert.throws(
    () => engine.headProjections({ x: bad, t: 3, d: 4 }),
    (error) => error.code === 'ATTN_NON_FINITE_INPUT' && /x\[0\]\[4\]/.test(error.message),
  );
  assert.throws(
    () => engine.softmaxJacobian([0.5, Infinity]),
    (error) => error.code === 'ATTN_NON_FINITE_INPUT' && /p\[1\]/.test(error.message),
  );
});
