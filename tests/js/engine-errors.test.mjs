// What the engine does with input it cannot compute: sizes beyond the memory budget, values
// whose results leave float32, and arguments of the wrong type (proxies, objects without a
// prototype, typed arrays with a redefined length, nested arrays). Every failure is an Error
// with a code, the heap is the size it was before the call, and the engine keeps working.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { createEngine, simdSupported } from 'attention-lab';

// Every code the engine documents (engine.d.ts, EngineError): nothing it throws carries another.
const CODES = ['ATTN_INVALID_SHAPE', 'ATTN_INVALID_ARGUMENT', 'ATTN_NON_FINITE_INPUT', 'ATTN_OVERFLOW', 'ATTN_TOO_LARGE', 'ATTN_INTERNAL'];
const FLT_MAX = 3.4028234663852886e38;

// Asserts that `call` throws `type` with `code` and a message matching `message`, and that the
// wasm heap is the same size afterwards.
function fails(engine, call, type, code, message) {
  const heap = engine.heapBytes();
  assert.throws(call, (error) => {
    assert.ok(error instanceof type, `${error.name}: ${error.message}`);
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
  assert.equal(engine.heapBytes(), heap, 'the failed call grew the heap');
}

const builds = [{ simd: false, name: 'scalar build' }];
if (simdSupported()) builds.unshift({ simd: true, name: 'SIMD build' });

for (const { simd, name } of builds) {
  describe(name, () => {
    test('sizes beyond the budget fail as ATTN_TOO_LARGE, naming the size and the limit, before anything is reserved', async () => {
      const engine = await createEngine({ simd });
      // a call that leaves 1234.5 in the heap: a wrapped-around size once handed such old data back
      engine.attention({ q: new Float32Array([1234.5, 1234.5]), k: new Float32Array([1, 1]), n: 1, m: 1, d: 2 });
      const budget = /would take \d+ bytes \(\d+ floats\), more than the memory budget of 1073741824 bytes/;
      const TOO_LARGE = 'ATTN_TOO_LARGE';
      // 65536² floats are 2^34 bytes, 0 in 32 bits
      fails(engine, () => engine.randomProjection(1, 65536, 65536), RangeError, TOO_LARGE, /randomProjection: the projection \(dIn·dOut\) would take 17179869184 bytes/);
      fails(engine, () => engine.randomProjection(1, 32768, 32769), RangeError, TOO_LARGE, budget);
      // m² = 2^30 floats for the Jacobian: once a write out of bounds of the whole memory
      fails(engine, () => engine.softmaxJacobian(new Float32Array(32768)), RangeError, TOO_LARGE, /the Jacobian \(m·m\) would take 4294967296 bytes/);
      fails(engine, () => engine.attention({ q: new Float32Array(65536), k: new Float32Array(1), v: new Float32Array(65536), n: 65536, m: 1, d: 1, dv: 65536 }),
        RangeError, TOO_LARGE, /attention: the outputs would take \d+ bytes/);
      fails(engine, () => engine.project(new Float32Array(65536), 65536, 1, new Float32Array(65536), 65536), RangeError, TOO_LARGE, budget);
      fails(engine, () => engine.randomNormal(1, 2 ** 31 - 1), RangeError, TOO_LARGE, budget);
      // the engine still computes
      assert.deepEqual(Array.from(engine.softmax([0, 0])), [0.5, 0.5]);
      assert.equal(engine.randomProjection(1, 3, 4).length, 12);
    });

    test('a failing call does not grow the heap: shapes and values are checked before the outputs are reserved', async () => {
      const engine = await createEngine({ simd });
      // 3 · 65536 · 2048 floats of dots, scores and weights: 1.5 GiB, once reserved before the check (16 MiB → 1.6 GB)
      fails(engine, () => engine.attention({ q: new Float32Array(65536), k: new Float32Array(2048), n: 65536, m: 2048, d: 1 }),
        RangeError, 'ATTN_TOO_LARGE');
      // one NaN in k at n = m = 4096, d = 64: 192 MiB of outputs, once reserved before the NaN was found
      const n = 4096, d = 64;
      const k = new Float32Array(n * d).fill(0.5);
      k[3 * d + 7] = NaN;
      fails(engine, () => engine.attention({ q: new Float32Array(n * d), k, n, m: n, d }), RangeError, 'ATTN_NON_FINITE_INPUT', /k\[3\]\[7\] is NaN/);
      fails(engine, () => engine.attention({ q: new Float32Array(n * d), k: new Float32Array(n * d + 1), n, m: n, d }),
        RangeError, 'ATTN_INVALID_SHAPE', /k has length 262145, expected m·d = 262144/);
      fails(engine, () => engine.softmaxJacobian(new Float32Array(8192).fill(0.5).fill(NaN, 9, 10)), RangeError, 'ATTN_NON_FINITE_INPUT');
    });

    test('results that would leave float32 fail as ATTN_OVERFLOW; NaN and out-of-range values are refused', async () => {
      const engine = await createEngine({ simd });
      // ten equal weights fl(0.1): their float32 sum of fl(0.1·FLT_MAX) rounds to Infinity
      fails(engine, () => engine.attention({ q: [0], k: new Float32Array(10), v: new Float32Array(10).fill(FLT_MAX), n: 1, m: 10, d: 1, dv: 1 }),
        RangeError, 'ATTN_OVERFLOW', /output\[0\]\[0\] overflows float32/);
      // the score of query 2 with key 1 is 1e40: named from 1, as every row is
      for (const call of ['attention', 'attentionStreaming'])
        fails(engine, () => engine[call]({ q: [1, 1e20], k: [1e20, 1], v: [1, 1], n: 2, m: 2, d: 1, dv: 1 }),
          RangeError, 'ATTN_OVERFLOW', /the score of query 2, key 1 \(scale·q·k/);
      fails(engine, () => engine.project([1, 2], 1, 2, [0.5, NaN], 1), RangeError, 'ATTN_NON_FINITE_INPUT', /w\[1\]\[0\] is NaN/);
      fails(engine, () => engine.project([1e20, 1e20], 1, 2, [1e20, 1e20], 1), RangeError, 'ATTN_OVERFLOW', /output\[0\]\[0\] overflows float32/);
      fails(engine, () => engine.addPositionalEncoding([0, NaN], 1, 2), RangeError, 'ATTN_NON_FINITE_INPUT', /x\[0\]\[1\] is NaN/);
      fails(engine, () => engine.addPositionalEncoding([0, FLT_MAX], 1, 2, { strength: FLT_MAX }), RangeError, 'ATTN_OVERFLOW');
      const weights = engine.projectionWeights({ dIn: 4, d: 2 });
      weights.wq[3] = NaN;
      fails(engine, () => engine.projectQK({ x: new Float32Array(8).map((_, i) => i), t: 2, weights }), RangeError, 'ATTN_NON_FINITE_INPUT', /weights\.wq|wq\[1\]\[1\] is NaN/);
      fails(engine, () => engine.softmaxJacobian([1e30, 1e30]), RangeError, 'ATTN_INVALID_ARGUMENT', /p\[0\] is 1e\+30: p must hold probabilities/);
      // finite in JavaScript, Infinity as a float32
      fails(engine, () => engine.randomNormal(1, 4, { sigma: 1e39 }), RangeError, 'ATTN_INVALID_ARGUMENT', /sigma is 1e\+39, beyond the float32 range/);
      fails(engine, () => engine.randomNormal(1, 4, { sigma: 1e38 }), RangeError, 'ATTN_INVALID_ARGUMENT', /sigma must be a positive number at most 3.9e\+37, got 1e\+38/);
      assert.ok(engine.randomNormal(1, 1000, { sigma: engine.limits.maxSigma }).every(Number.isFinite));
    });

    test('arguments of the wrong type: a TypeError with a code, never an error from inside the engine', async () => {
      const engine = await createEngine({ simd });
      const args = { q: new Float32Array(6), k: new Float32Array(9), n: 2, m: 3, d: 3 };
      const ARGUMENT = 'ATTN_INVALID_ARGUMENT';
      fails(engine, () => engine.attention(null), TypeError, ARGUMENT, /attention takes one object of named arguments, got null/);
      fails(engine, () => engine.attention([1, 2]), TypeError, ARGUMENT, /got an array/);
      fails(engine, () => engine.attentionStreaming(7), TypeError, ARGUMENT, /got number 7/);
      fails(engine, () => engine.attention({ ...args, q: new Proxy(new Float32Array(6), {}) }), TypeError, ARGUMENT, /q must be a Float32Array \(or an array of numbers\), got an object/);
      fails(engine, () => engine.attention({ ...args, q: Object.create(null) }), TypeError, ARGUMENT, /got an object/);
      const { proxy, revoke } = Proxy.revocable([1, 2, 3, 4, 5, 6], {});
      revoke();
      fails(engine, () => engine.attention({ ...args, q: proxy }), TypeError, ARGUMENT, /cannot be inspected/);
      const trap = new Proxy([1, 2, 3, 4, 5, 6], { get: () => { throw new Error('trap'); } });
      fails(engine, () => engine.attention({ ...args, q: trap }), TypeError, ARGUMENT, /q could not be read as an array of numbers: trap/);
      fails(engine, () => engine.attention({ ...args, q: [[1, 0, 0], [0, 1, 0]] }), TypeError, ARGUMENT, /q\[0\] is an array: pass q as one flat array of numbers, row-major/);
      fails(engine, () => engine.attention({ ...args, q: [1, 2, 3, 4, 5, 6n] }), TypeError, ARGUMENT, /q\[5\] must be a number, got the BigInt 6n/);
      fails(engine, () => engine.attention({ ...args, q: new BigInt64Array(6) }), TypeError, ARGUMENT, /BigInt64Array/);
      fails(engine, () => engine.attention({ ...args, q: new DataView(new ArrayBuffer(24)) }), TypeError, ARGUMENT, /got a DataView/);
      fails(engine, () => engine.attention({ ...args, q: Symbol('q') }), TypeError, ARGUMENT, /got a symbol/);
      fails(engine, () => engine.softmax([1, 2], null), TypeError, ARGUMENT, /softmax takes one object/);
      fails(engine, () => engine.dotHistograms(), TypeError, ARGUMENT);
      fails(engine, () => engine.randomNormal(1.5, 3), TypeError, ARGUMENT, /seed must be an integer from 0 to 4294967295/);
      fails(engine, () => engine.randomNormal(1, 2 ** 31), RangeError, 'ATTN_INVALID_SHAPE', /count must be a 32-bit integer, got 2147483648/);
    });

    test('a typed array whose length property was redefined is read by its true length, whichever way it lies', async () => {
      const engine = await createEngine({ simd });
      const expected = engine.attention({ q: Float32Array.of(1, 0, 0, 1), k: Float32Array.of(1, 0, 0, 1), n: 2, m: 2, d: 2 });
      for (const claimed of [4, 1e6]) {
        const q = new Float32Array(4096).fill(7); // longer than it claims (4 = n·d), or shorter (1e6)
        Object.defineProperty(q, 'length', { value: claimed });
        fails(engine, () => engine.attention({ q, k: Float32Array.of(1, 0, 0, 1), n: 2, m: 2, d: 2 }), RangeError, 'ATTN_INVALID_SHAPE',
          /q has length 4096, expected n·d = 4/);
        const out = new Float32Array(1);
        Object.defineProperty(out, 'length', { value: 4 });
        fails(engine, () => engine.attentionStreaming({ q: Float32Array.of(1, 0, 0, 1), k: Float32Array.of(1, 0, 0, 1), v: Float32Array.of(1, 2), n: 2, m: 2, d: 2, dv: 1, out }),
          RangeError, 'ATTN_INVALID_SHAPE', /out has length 1, expected n·dv = 2/);
      }
      // nothing was written past a block: the same call gives the same result
      assert.deepEqual(engine.attention({ q: Float32Array.of(1, 0, 0, 1), k: Float32Array.of(1, 0, 0, 1), n: 2, m: 2, d: 2 }), expected);
    });

    test('every error any method throws carries one of the documented codes', async () => {
      const engine = await createEngine({ simd });
      const x = new Float32Array(300);
      const calls = [
        () => engine.softmax('x'), () => engine.softmax([]), () => engine.softmax([1], { temperature: -1 }), () => engine.softmax([Infinity]),
        () => engine.randomNormal(-1, 3), () => engine.randomNormal(1, -3), () => engine.randomNormal(1, 3, { sigma: '1' }),
        () => engine.randomProjection(1, 0, 3), () => engine.randomProjection(1, 3, 70000),
        () => engine.project([1], 1, 1, [1, 2], 1), () => engine.project(null, 1, 1, [1], 1),
        () => engine.addPositionalEncoding([1, 2], 2, 2), () => engine.addPositionalEncoding([1], 1, 1, { strength: NaN }),
        () => engine.textVector(5, 3), () => engine.textVector('a', 0), () => engine.textVector('a', 3, { sigma: 0 }),
        () => engine.attentionStreaming({ q: [1], k: [1], v: [1], n: 1, m: 1, d: 1, dv: 1, out: [0] }),
        () => engine.attentionStreaming({ q: [1], k: [1], v: [1], n: 1, m: 1, d: 1, dv: 1, out: new Float32Array(2) }),
        () => engine.dotHistograms({ d: 0 }), () => engine.dotHistograms({ d: 4, range: [2, 1] }), () => engine.dotHistograms({ d: 4, bins: 5000 }),
        () => engine.dotHistograms({ d: 4, scaledRange: 'wide' }), () => engine.dotVarianceCurve({ dims: [0] }), () => engine.dotVarianceCurve({ dims: 4 }),
        () => engine.tokenVarianceCurve({ x, t: 3, dims: [4], draws: 0 }), () => engine.tokenVarianceCurve({ x, t: 1, dIn: 300, dims: [4], draws: 1 }),
        () => engine.headProjections({ x, t: 3, d: 5000 }), () => engine.headProjections({ x, t: 3, d: 4, head: 65 }),
        () => engine.projectionWeights({ d: 0 }), () => engine.projectQK({ x, t: 3, weights: { dIn: 100, d: 2, wq: [1], wk: [1] } }),
        () => engine.projectQK({ x, t: 3, weights: 'w' }), () => engine.saturationSweep({ x, t: 3, dims: [] }),
        () => engine.saturationSweep({ x, t: 300, dims: [4] }), () => engine.softmaxJacobian([2]), () => engine.softmaxBackward([0.5], [1, 2]),
        () => engine.softmaxBackward([0.5], [NaN]), () => engine.upstreamGradient(1, -1, 3), () => engine.upstreamGradient(1, 0, 0),
        () => engine.stepByStep({ q: [1], k: [1], m: 1, d: 1, key: 1 }), () => engine.stepByStep({ q: [1], k: [1, 2], m: 1, d: 1 }),
        () => engine.stepByStep({ q: [1], k: [1], m: 1, d: 1, scaled: 1 }), () => engine.softmaxGradientNorm([0.5, 0.5], { row: -1 }),
        () => engine.softmaxGradientNorm([1.5]), () => engine.softmaxNaive([NaN]), () => engine.softmaxNaive([1], { temperature: 0 }),
        () => engine.multiHead({ x, t: 3, heads: 0 }), () => engine.multiHead({ x, t: 3, d: 0 }), () => engine.multiHead({ x, t: 3, scaled: null }),
      ];
      const heap = engine.heapBytes();
      calls.forEach((call, i) => {
        assert.throws(call, (error) => {
          assert.ok(CODES.includes(error.code), `call ${i}: ${error.name} without a documented code: ${error.message}`);
          assert.ok(error instanceof TypeError || error instanceof RangeError, `call ${i}: ${error.name}`);
          return true;
        });
      });
      assert.equal(engine.heapBytes(), heap);
    });

    test('limits are the core\'s: what the engine reports is what it enforces', async () => {
      const engine = await createEngine({ simd });
      const { maxDim, memoryBudgetBytes, lesson } = engine.limits;
      assert.equal(memoryBudgetBytes, 2 ** 30);
      assert.throws(() => engine.randomProjection(1, maxDim + 1, 1), { code: 'ATTN_INVALID_SHAPE', message: new RegExp(`from 1 to ${maxDim}, got ${maxDim + 1}`) });
      assert.equal(engine.randomProjection(1, maxDim, 1).length, maxDim);
      assert.throws(() => engine.multiHead({ x: new Float32Array(100), t: 1, heads: lesson.maxHeads + 1 }), { code: 'ATTN_INVALID_SHAPE' });
      assert.equal(engine.multiHead({ x: new Float32Array(100).fill(1).map((v, i) => i), t: 1, heads: lesson.maxHeads, d: 2 }).heads, lesson.maxHeads);
      assert.throws(() => engine.saturationSweep({ x: new Float32Array(100 * (lesson.maxTokens + 1)), t: lesson.maxTokens + 1, dims: [4] }), { code: 'ATTN_INVALID_SHAPE' });
    });
  });
}

// createEngine({ wasm }): the .wasm handed over (the notebook widget's bundle carries it) instead
// of read from web/build/; nothing given that is not a .wasm gets as far as the loader.
describe('createEngine with the wasm given', () => {
  const file = (flavour) => readFileSync(new URL(`../../web/build/attention-${flavour}.wasm`, import.meta.url));
  const flavours = [{ simd: false, flavour: 'scalar', arch: 'emulated' }];
  if (simdSupported()) flavours.unshift({ simd: true, flavour: 'simd', arch: 'wasm' });

  for (const { simd, flavour, arch } of flavours)
    test(`the ${flavour} build's bytes or compiled module give a working engine`, async () => {
      for (const wasm of [new Uint8Array(file(flavour)), await WebAssembly.compile(file(flavour))]) {
        const engine = await createEngine({ simd, wasm });
        assert.equal(engine.arch, arch);
        // one query, keys [1, 0] and [0, 1], q = [ln 3, 0], no scale: weights 3/4 and 1/4
        const { weights } = engine.attention({ q: new Float32Array([Math.log(3), 0]), k: new Float32Array([1, 0, 0, 1]), n: 1, m: 2, d: 2, scale: 'none' });
        assert.ok(Math.abs(weights[0] - 0.75) < 1e-6 && Math.abs(weights[1] - 0.25) < 1e-6, `${weights}`);
      }
    });

  test('anything but a .wasm fails with a code, saying what it got', async () => {
    await assert.rejects(createEngine({ simd: false, wasm: 'attention-scalar.wasm' }),
      (error) => error instanceof TypeError && error.code === 'ATTN_INVALID_ARGUMENT' && /wasm must be the bytes of a \.wasm file .*got the string/.test(error.message));
    await assert.rejects(createEngine({ simd: false, wasm: new Uint8Array([0, 97, 115]) }),
      (error) => error.code === 'ATTN_LOAD_FAILED' && /the wasm given does not compile/.test(error.message));
  });
});
