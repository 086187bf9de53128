// engine.attentionStreaming and the per-call fast path of engine.attention, on both builds:
// same numbers as the full forward, the same argument errors, no heap growth from failed calls,
// and the long-sequence claim (n = m = 16,384, d = 64 inside a 64 MB heap).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';

// Streaming and full forward differ only in summation order and exp (see test_kernels.cpp).
const OUTPUT_ABS_TOL = 1e-4;

function randomArray(length, seed) {
  let state = seed >>> 0;
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0; // LCG: deterministic, no dependency
    out[i] = (state / 2 ** 32 - 0.5) * 3;
  }
  return out;
}

for (const simd of [true, false]) {
  const label = simd ? 'simd' : 'scalar';

  test(`${label}: attentionStreaming matches attention().output`, async () => {
    const engine = await createEngine({ simd });
    for (const [n, m, d, dv, causal] of [[1, 1, 1, 1, false], [5, 9, 7, 3, false], [33, 33, 64, 64, true],
      [70, 130, 17, 5, false], [100, 100, 130, 8, true]]) {
      const q = randomArray(n * d, n + 1), k = randomArray(m * d, m + 2), v = randomArray(m * dv, dv + 3);
      const full = engine.attention({ q, k, v, n, m, d, dv, causal });
      const streamed = engine.attentionStreaming({ q, k, v, n, m, d, dv, causal });
      assert.equal(streamed.output.length, n * dv);
      assert.equal(streamed.scale, full.scale);
      for (let i = 0; i < n * dv; i++)
        assert.ok(Math.abs(streamed.output[i] - full.output[i]) <= OUTPUT_ABS_TOL, `n=${n} m=${m} index ${i}`);
    }
  });

  test(`${label}: attentionStreaming writes into out when given one`, async () => {
    const engine = await createEngine({ simd });
    const [n, m, d, dv] = [6, 9, 5, 3];
    const q = randomArray(n * d, 7), k = randomArray(m * d, 8), v = randomArray(m * dv, 9);
    const fresh = engine.attentionStreaming({ q, k, v, n, m, d, dv });
    const out = new Float32Array(n * dv).fill(NaN);
    const given = engine.attentionStreaming({ q, k, v, n, m, d, dv, out });
    assert.equal(given.output, out);
    assert.deepEqual(out, fresh.output);
    assert.equal(given.scale, fresh.scale);
    assert.throws(() => engine.attentionStreaming({ q, k, v, n, m, d, dv, out: new Float32Array(n * dv - 1) }),
      (err) => err instanceof RangeError && /out has length 17, expected n·dv = 18/.test(err.message) && err.code === 'ATTN_INVALID_SHAPE');
    assert.throws(() => engine.attentionStreaming({ q, k, v, n, m, d, dv, out: new Float64Array(n * dv) }),
      (err) => err instanceof TypeError && /out must be a Float32Array/.test(err.message) && err.code === 'ATTN_INVALID_ARGUMENT');
    const before = Float32Array.from(out);
    assert.throws(() => engine.attentionStreaming({ q: q.map(() => NaN), k, v, n, m, d, dv, out }), /is NaN/);
    assert.deepEqual(out, before); // a failed call leaves out as it was
  });

  test(`${label}: attention() result fields keep their shapes and survive the next call`, async () => {
    const engine = await createEngine({ simd });
    const args = { q: randomArray(12, 1), k: randomArray(20, 2), v: randomArray(10, 3), n: 3, m: 5, d: 4, dv: 2 };
    const first = engine.attention(args);
    const copy = Float32Array.from(first.weights);
    engine.attention({ ...args, q: randomArray(12, 9) });
    assert.deepEqual(first.weights, copy); // results are JS-owned, not views of the heap
    assert.equal(first.dots.length, 15);
    assert.equal(first.scores.length, 15);
    assert.equal(first.weights.length, 15);
    assert.equal(first.entropy.length, 3);
    assert.equal(first.maxWeight.length, 3);
    assert.equal(first.output.length, 6);
    assert.ok(Math.abs(first.scale - 0.5) < 1e-7);
    assert.equal(engine.attention({ ...args, v: null, dv: 0 }).output, null);
  });

  test(`${label}: attentionStreaming rejects bad arguments with clear errors and no heap growth`, async () => {
    const engine = await createEngine({ simd });
    const q = randomArray(8, 1), k = randomArray(8, 2), v = randomArray(8, 3);
    engine.attentionStreaming({ q, k, v, n: 2, m: 2, d: 4, dv: 4 });
    const heap = engine.heapBytes();
    const bad = (args, type, pattern, code) => {
      assert.throws(() => engine.attentionStreaming({ q, k, v, n: 2, m: 2, d: 4, dv: 4, ...args }),
        (err) => err instanceof type && pattern.test(err.message) && err.code === code);
    };
    bad({ n: 2.5 }, TypeError, /n must be an integer/, 'ATTN_INVALID_ARGUMENT');
    bad({ dv: 0 }, RangeError, /dv \(value width\) must be an integer from 1/, 'ATTN_INVALID_SHAPE');
    bad({ q: 'x' }, TypeError, /q must be a Float32Array/, 'ATTN_INVALID_ARGUMENT');
    bad({ k: new Float32Array(3) }, RangeError, /k has length 3, expected m·d = 8/, 'ATTN_INVALID_SHAPE');
    bad({ causal: 'yes' }, TypeError, /causal must be true or false/, 'ATTN_INVALID_ARGUMENT');
    bad({ scale: -1 }, RangeError, /scale must be a positive finite number/, 'ATTN_INVALID_ARGUMENT');
    bad({ n: 1, q: randomArray(4, 5), causal: true }, RangeError, /n == m/, 'ATTN_INVALID_SHAPE');
    const nan = Float32Array.from(v);
    nan[5] = NaN;
    bad({ v: nan }, RangeError, /v\[1\]\[1\] is NaN/, 'ATTN_NON_FINITE_INPUT');
    const huge = new Float32Array(8).fill(1e20);
    bad({ q: huge, k: huge }, RangeError, /overflows float32/, 'ATTN_OVERFLOW');
    for (let i = 0; i < 2000; i++) bad({ v: nan }, RangeError, /is NaN/, 'ATTN_NON_FINITE_INPUT');
    assert.equal(engine.heapBytes(), heap);
  });
}

test('simd: n = m = 16,384, d = 64 runs within a 64 MB heap', async () => {
  // The heap only grows, so its size after the call bounds what the call needed. Causal halves
  // the work (~1-2 s); the memory use is the same: q, k, v and the output, 4 MB each.
  const engine = await createEngine({ simd: true });
  const n = 16384, d = 64;
  const q = randomArray(n * d, 1), k = randomArray(n * d, 2), v = randomArray(n * d, 3);
  const { output } = engine.attentionStreaming({ q, k, v, n, m: n, d, dv: d, causal: true });
  assert.equal(output.length, n * d);
  assert.ok(output.every(Number.isFinite));
  // query 0 sees only key 0: its output is v's first row
  for (let c = 0; c < d; c++) assert.ok(Math.abs(output[c] - v[c]) < 1e-6);
  assert.ok(engine.heapBytes() <= 64 * 2 ** 20, `heap is ${engine.heapBytes()} bytes`);
});

for (const simd of [true, false]) {
  const label = simd ? 'simd' : 'scalar';

  test(`${label}: a hidden key's q·k may overflow in attention() as in attentionStreaming()`, async () => {
    const engine = await createEngine({ simd });
    // q0·k1 = 1e40 leaves float32; key 1 is hidden from query 0 (causal, or by the mask)
    const q = Float32Array.of(1e20, 1e-20), k = Float32Array.of(1, 1e20), v = Float32Array.of(3, 5);
    const shape = { q, k, v, n: 2, m: 2, d: 1, dv: 1 };
    const streamed = engine.attentionStreaming({ ...shape, causal: true });
    for (const hiding of [{ causal: true }, { mask: Float32Array.of(0, -Infinity, 0, 0) }]) {
      const full = engine.attention({ ...shape, ...hiding });
      assert.equal(full.dots[1], Infinity); // the true q·k, for a hidden key only
      assert.equal(full.scores[1], -Infinity);
      assert.deepEqual(Array.from(full.weights.subarray(0, 2)), [1, 0]);
      assert.ok(Math.abs(full.output[1] - streamed.output[1]) <= OUTPUT_ABS_TOL);
      assert.equal(full.output[0], streamed.output[0]);
    }
    // visible, the same score fails the call
    assert.throws(() => engine.attention(shape), { code: 'ATTN_OVERFLOW', message: /query 1, key 2/ });
  });

  test(`${label}: a long row still sums to 1 (attention and streaming)`, async () => {
    // Scores [2, 0, 0, ...] give p0 = e² / (e² + m − 1). Summed plainly in float32, the softmax sum
    // of such a row drifted by 1.6e-5 at m = 16,384 and 6.5e-5 at 65,536. Compensated (or in
    // double), the weights sum to 1 within a few ε (ε = 2⁻²³): the sum's own ~2ε and the rounding
    // of 1/Σ and of each product (½ε): ROW_SUM_TOL = 4ε. p0 also carries exp's ~2 ulp: 8ε.
    const EPS = 2 ** -23, ROW_SUM_TOL = 4 * EPS, FIRST_WEIGHT_REL_TOL = 8 * EPS;
    const engine = await createEngine({ simd });
    for (const m of [16384, 65536]) {
      const k = new Float32Array(m);
      k[0] = 2;
      const p0 = Math.exp(2) / (Math.exp(2) + m - 1);
      const full = engine.attention({ q: [1], k, n: 1, m, d: 1, scale: 'none' });
      let sum = 0;
      for (const w of full.weights) sum += w;
      assert.ok(Math.abs(sum - 1) <= ROW_SUM_TOL, `m = ${m}: weights sum to 1 ${sum - 1 >= 0 ? '+' : '−'} ${Math.abs(sum - 1)}`);
      assert.ok(Math.abs(full.rowSum[0] - 1) <= ROW_SUM_TOL);
      assert.ok(Math.abs(full.weights[0] / p0 - 1) <= FIRST_WEIGHT_REL_TOL, `m = ${m}: p0 = ${full.weights[0]}, expected ${p0}`);
      // v one-hot on key 0: the streamed output is p0 itself
      const v = new Float32Array(m);
      v[0] = 1;
      const { output } = engine.attentionStreaming({ q: [1], k, v, n: 1, m, d: 1, dv: 1, scale: 'none' });
      assert.ok(Math.abs(output[0] / p0 - 1) <= FIRST_WEIGHT_REL_TOL, `m = ${m}: streamed p0 = ${output[0]}, expected ${p0}`);
    }
  });
}
