// The JavaScript API against an independent float64 reference, for both wasm builds:
// random shapes (including sizes that are not multiples of the SIMD width), every kind of
// bad input, and thousands of failed calls that must leave the engine working and the
// heap the same size.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { createEngine, simdSupported } from 'attention-lab';
import { normals, referenceAttention, softmax64 } from '../support/reference.mjs';

// Weights are probabilities computed in float32 from float32 scores: the rounding of q·k
// (≲ d·2⁻²⁴·Σ|qk| ≈ 1e-6 for these N(0,1) inputs) moves a weight by about p·δ; 2e-5 leaves
// room for exp's few-ulp error and the row sum, and is still far below any visible digit.
const WEIGHT_TOLERANCE = 2e-5;
// Dot products: float32 accumulation of d products, bounded by (d + 2)·2⁻²³·Σ|qᵢkᵢ|.
const dotTolerance = (absSum, d) => (d + 2) * 2 ** -23 * absSum + 1e-30;
// Entropy inherits the weight error times |ln p| (≲ 20 here).
const ENTROPY_TOLERANCE = 2e-4;
// Output rows are convex combinations of V rows with |v| ≲ 5.
const OUTPUT_TOLERANCE = 1e-4;

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    const tol = typeof tolerance === 'function' ? tolerance(i) : tolerance;
    if (expected[i] === -Infinity) assert.equal(actual[i], -Infinity, `${what}[${i}]`);
    else assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `${what}[${i}]: ${actual[i]} vs ${expected[i]} (tol ${tol})`);
  }
}

const builds = [{ simd: false, name: 'scalar build' }];
if (simdSupported()) builds.unshift({ simd: true, name: 'SIMD build' });

for (const { simd, name } of builds) {
  describe(name, async () => {
    const engine = await createEngine({ simd });

    test('reports which build runs', () => {
      assert.equal(engine.simd, simd);
      assert.equal(engine.arch, simd ? 'wasm' : 'emulated');
    });

    test('attention matches the float64 reference on awkward shapes', () => {
      const sizes = [1, 3, 5, 17, 63];
      let seed = 1;
      for (const n of sizes) {
        for (const d of [1, 3, 4, 17, 63, 100]) {
          const m = sizes[(n + d) % sizes.length];
          const dv = (d * 3) % 11; // includes dv = 0: no V
          const causal = n === m && d % 2 === 1;
          const scale = d % 3 === 0 ? 'none' : d % 3 === 1 ? 'sqrt' : 0.3;
          const temperature = n % 2 ? 1 : 0.7;
          const q = normals(n * d, seed++), k = normals(m * d, seed++), v = dv ? normals(m * dv, seed++) : null;
          const result = engine.attention({ q, k, v, n, m, d, dv, scale, causal, temperature });
          const scaleValue = scale === 'none' ? 1 : scale === 'sqrt' ? 1 / Math.sqrt(d) : scale;
          const expect = referenceAttention({ q, k, v, n, m, d, dv, scale: scaleValue, temperature, causal });
          const where = `n=${n} m=${m} d=${d} dv=${dv}`;
          assert.ok(Math.abs(result.scale - scaleValue) <= 1e-7 * scaleValue, `${where}: scale`);
          assertClose(result.dots, expect.dots, (i) => dotTolerance(expect.absSums[i], d), `${where} dots`);
          assertClose(result.scores, expect.scores, (i) => scaleValue * dotTolerance(expect.absSums[i], d) + 1e-6, `${where} scores`);
          assertClose(result.weights, expect.weights, WEIGHT_TOLERANCE, `${where} weights`);
          assertClose(result.entropy, expect.entropy, ENTROPY_TOLERANCE, `${where} entropy`);
          assertClose(result.maxWeight, expect.maxWeight, WEIGHT_TOLERANCE, `${where} maxWeight`);
          if (dv) assertClose(result.output, expect.output, OUTPUT_TOLERANCE, `${where} output`);
          else assert.equal(result.output, null);
          for (let i = 0; i < n; i++) {
            let sum = 0;
            for (let j = 0; j < m; j++) {
              assert.ok(result.weights[i * m + j] >= 0);
              sum += result.weights[i * m + j];
            }
            assert.ok(Math.abs(sum - 1) <= 1e-5, `${where}: row ${i} sums to ${sum}`);
            assert.ok(Math.abs(result.rowSum[i] - sum) <= 1e-6, `${where}: rowSum[${i}] = ${result.rowSum[i]}, weights add to ${sum}`);
          }
        }
      }
    });

    test('an additive mask and a fully masked row give zeros, never NaN', () => {
      const n = 4, m = 4, d = 5, dv = 3;
      const q = normals(n * d, 11), k = normals(m * d, 12), v = normals(m * dv, 13);
      const mask = new Float32Array(n * m);
      mask.fill(-Infinity, 1 * m, 2 * m); // row 1 sees nothing
      mask[3 * m + 2] = -1.5;
      const result = engine.attention({ q, k, v, n, m, d, dv, mask });
      const expect = referenceAttention({ q, k, v, n, m, d, dv, scale: 1 / Math.sqrt(d), mask });
      assertClose(result.weights, expect.weights, WEIGHT_TOLERANCE, 'weights');
      assert.deepEqual(Array.from(result.weights.subarray(m, 2 * m)), [0, 0, 0, 0]);
      assert.deepEqual(Array.from(result.output.subarray(dv, 2 * dv)), [0, 0, 0]);
      assert.equal(result.entropy[1], 0);
      assert.equal(result.maxWeight[1], 0);
      assert.equal(result.rowSum[1], 0);
      for (const x of [...result.weights, ...result.output, ...result.entropy]) assert.ok(!Number.isNaN(x));
    });

    test('softmax: a probability distribution, with temperature and hidden entries', () => {
      const z = [0.5, -1, 3, 2, -Infinity];
      for (const temperature of [1, 0.25, 4]) {
        const p = engine.softmax(new Float32Array(z), { temperature });
        assertClose(p, softmax64(z, temperature), WEIGHT_TOLERANCE, `T=${temperature}`);
        assert.equal(p[4], 0);
      }
      assert.deepEqual(Array.from(engine.softmax([-Infinity, -Infinity])), [0, 0]);
      assert.ok(engine.softmax([1, 2, 3]) instanceof Float32Array);
    });

    test('addPositionalEncoding returns x + strength·PE and leaves x as it was', () => {
      const t = 5, d = 7, strength = 0.5;
      const x = normals(t * d, 21);
      const saved = Float32Array.from(x);
      const y = engine.addPositionalEncoding(x, t, d, { strength });
      for (let p = 0; p < t; p++)
        for (let c = 0; c < d; c++) {
          const angle = p / 10000 ** ((2 * Math.floor(c / 2)) / d);
          const expected = x[p * d + c] + strength * (c % 2 ? Math.cos(angle) : Math.sin(angle));
          assert.ok(Math.abs(y[p * d + c] - expected) <= 1e-6, `[${p}][${c}]: ${y[p * d + c]} vs ${expected}`);
        }
      assert.deepEqual(x, saved);
      assert.throws(() => engine.addPositionalEncoding(x, t, d, { strength: NaN }), /strength must be a finite number/);
    });

    const base = () => ({ q: normals(6, 1), k: normals(9, 2), v: normals(6, 3), n: 2, m: 3, d: 3, dv: 2 });
    const SHAPE = 'ATTN_INVALID_SHAPE', ARGUMENT = 'ATTN_INVALID_ARGUMENT', NON_FINITE = 'ATTN_NON_FINITE_INPUT';
    const badInputs = [
      [{ q: normals(5, 1) }, RangeError, /^attention: q has length 5, expected n·d = 6$/, SHAPE],
      [{ k: normals(10, 1) }, RangeError, /k has length 10, expected m·d = 9/, SHAPE],
      [{ v: normals(5, 1) }, RangeError, /v has length 5, expected m·dv = 6/, SHAPE],
      [{ q: 'abc' }, TypeError, /q must be a Float32Array/, ARGUMENT],
      [{ q: [1, 2, 3, 4, 5, '6'] }, TypeError, /q\[5\] must be a number/, ARGUMENT],
      [{ n: 0, q: new Float32Array(0) }, RangeError, /n \(number of queries\) must be an integer from 1 to 65536, got 0/, SHAPE],
      [{ m: -2 }, RangeError, /m \(number of keys\) must be an integer from 1 to 65536, got -2/, SHAPE],
      [{ d: 0 }, RangeError, /d \(key width\) must be an integer from 1/, SHAPE],
      [{ d: 70000 }, RangeError, /d \(key width\) must be an integer from 1 to 65536, got 70000/, SHAPE],
      [{ d: 2 ** 40 }, RangeError, /d must be a 32-bit integer, got 1099511627776/, SHAPE],
      [{ d: 1.5 }, TypeError, /d must be an integer/, ARGUMENT],
      [{ n: undefined }, TypeError, /n must be an integer/, ARGUMENT],
      [{ dv: 0 }, TypeError, /dv \(the width of v\) is required/, ARGUMENT],
      [{ v: null, dv: 2 }, TypeError, /v is required when dv > 0/, ARGUMENT],
      [{ q: Float32Array.of(1, NaN, 0, 0, 0, 0) }, RangeError, /q\[0\]\[1\] is NaN/, NON_FINITE],
      [{ k: Float32Array.of(0, 0, 0, 0, Infinity, 0, 0, 0, 0) }, RangeError, /k\[1\]\[1\] is Infinity/, NON_FINITE],
      [{ v: Float32Array.of(0, 0, 0, 0, 0, -Infinity) }, RangeError, /v\[2\]\[1\] is -Infinity/, NON_FINITE],
      [{ temperature: 0 }, RangeError, /temperature must be a positive finite number/, ARGUMENT],
      [{ temperature: -1 }, RangeError, /temperature must be a positive finite number/, ARGUMENT],
      [{ temperature: NaN }, RangeError, /temperature must be a positive finite number .*got NaN/, ARGUMENT],
      [{ temperature: 1e-50 }, RangeError, /temperature is 1e-50, too small for float32/, ARGUMENT],
      [{ temperature: '1' }, TypeError, /temperature must be a number/, ARGUMENT],
      [{ scale: 0 }, RangeError, /scale must be a positive finite number, got 0/, ARGUMENT],
      [{ scale: -0.5 }, RangeError, /scale must be a positive finite number, got -0.5/, ARGUMENT],
      [{ scale: Infinity }, RangeError, /scale must be a positive finite number, got Infinity/, ARGUMENT],
      [{ scale: 1e39 }, RangeError, /scale is 1e\+39, beyond the float32 range/, ARGUMENT],
      [{ scale: 'cube' }, TypeError, /scale must be 'sqrt', 'none' or a positive number/, ARGUMENT],
      [{ causal: true }, RangeError, /causal masking needs as many queries as keys \(n == m\)/, SHAPE],
      [{ causal: 'yes' }, TypeError, /causal must be true or false/, ARGUMENT],
      [{ mask: new Float32Array(5) }, RangeError, /mask has length 5, expected n·m = 6/, SHAPE],
      [{ mask: Float32Array.of(0, 0, 0, NaN, 0, 0) }, RangeError, /mask\[1\]\[0\] is NaN/, NON_FINITE],
      [{ q: new Float32Array(6).fill(1e20), k: new Float32Array(9).fill(1e20) }, RangeError, /overflows float32/, 'ATTN_OVERFLOW'],
    ];
    test('bad input throws an Error naming the argument, with a code', () => {
      for (const [change, type, message, code] of badInputs) {
        assert.throws(() => engine.attention({ ...base(), ...change }), (error) => {
          const what = `${JSON.stringify(Object.keys(change))}: ${error.name} ${error.message}`;
          assert.ok(error instanceof type, what);
          assert.match(error.message, message);
          assert.equal(error.code, code, what);
          return true;
        });
      }
      assert.throws(() => engine.attention(), { name: 'TypeError', code: ARGUMENT });
      assert.throws(() => engine.softmax([]), { code: SHAPE, message: /scores must hold at least one number/ });
      assert.throws(() => engine.softmax([1, NaN]), { code: NON_FINITE, message: /scores\[1\] is NaN/ });
      assert.throws(() => engine.softmax([1, 2], { temperature: 0 }), { code: ARGUMENT, message: /temperature must be a positive finite number/ });
      assert.throws(() => engine.softmax(null), { name: 'TypeError', code: ARGUMENT });
    });

    test('5,000 failed calls leave the engine working and the heap unchanged', () => {
      const good = base();
      const before = engine.attention(good);
      const heapBefore = engine.heapBytes();
      for (let i = 0; i < 5000; i++) {
        const [change] = badInputs[i % badInputs.length];
        assert.throws(() => engine.attention({ ...good, ...change }));
      }
      assert.equal(engine.heapBytes(), heapBefore, 'the wasm heap grew from failed calls');
      const after = engine.attention(good);
      assert.deepEqual(after, before);
    });

    test('results are JS-owned copies that later calls do not overwrite', () => {
      const first = engine.attention(base());
      const saved = Float32Array.from(first.weights);
      engine.attention({ ...base(), q: normals(6, 99) });
      engine.attention({ q: normals(300 * 64, 5), k: normals(300 * 64, 6), n: 300, m: 300, d: 64 }); // may grow the heap
      assert.deepEqual(first.weights, saved);
    });
  });
}
