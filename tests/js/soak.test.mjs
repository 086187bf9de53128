// Soak: 10,000 seeded random calls of every engine method, valid and invalid mixed (wrong types,
// NaN and ±Infinity, sizes past every limit or beyond the memory budget, lengths that do not match
// the shape, typed arrays whose length lies), on one engine per build. What must hold whatever the
// sequence:
//   - every valid call returns finite numbers (-Infinity only where a key is hidden);
//   - every invalid call throws an Error whose `code` names the problem (ATTN_…);
//   - the wasm heap, once every method has run at the largest size the soak uses, grows by at
//     most HEAP_GROWTH_LIMIT over the 10,000 calls: failed calls reserve nothing, successful ones
//     reuse the core's blocks. The heap only grows once its free part (~15 MB of the first
//     16 MiB) is used up, so the calls are drawn large enough for a leak to show: a new block for
//     every call, the old one never freed, grows it by 3.4 MB here.
// A call is valid or invalid by construction: a valid one is drawn within every documented range,
// an invalid one is a valid one with one argument broken in a way the API documents as an error,
// or a few changed together (sizes each in range whose product is beyond the memory budget).
// Reproduce a failure with its seed and call index (printed with it).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine, simdSupported } from 'attention-lab';
import { uniforms } from '../support/reference.mjs';

const CALLS = 10_000;
const SEED = 20261203;
// Allocator bookkeeping may move a block now and then; growth beyond this is a leak.
const HEAP_GROWTH_LIMIT = 2 ** 20;
const INVALID_FRACTION = 0.5;

// ---- seeded choices (uniforms: mulberry32, independent of the core's generator) ----
function generator(seed) {
  const next = uniforms(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  // |x| ≤ scale, sometimes a plain array of numbers rather than a Float32Array
  const floats = (count, scale = 1, { hidden = 0 } = {}) => {
    const x = Float32Array.from({ length: count }, () => (chance(hidden) ? -Infinity : (next() * 2 - 1) * scale));
    return chance(0.15) ? Array.from(x) : x;
  };
  // a row of positive weights summing to 1
  const probabilities = (count) => {
    const x = Float32Array.from({ length: count }, () => next() + 1e-3);
    const sum = x.reduce((s, v) => s + v, 0);
    return x.map((v) => v / sum);
  };
  return { next, int, pick, chance, floats, probabilities };
}

// ---- the calls: each method's valid arguments, and the ways one argument can be broken ----
// A maker returns { method, args, slots }: args is the argument list; each slot names an
// argument (a path into args) and the values that make the call invalid there.

const NOT_A_DIM = [0, -1, 1.5, NaN, Infinity, '4', null, true, 2 ** 31, 1e12];
const NOT_AN_INDEX = [-1, 1.5, NaN, '0', null, 2 ** 31];
const NOT_A_SEED = [-1, 1.5, 2 ** 32, NaN, '1', null];
const NOT_A_BOOLEAN = ['yes', 1, null];
const NOT_POSITIVE = [0, -1, NaN, Infinity, -Infinity, '1', null];
const NOT_A_SIGMA = [...NOT_POSITIVE, 1e38, 1e39]; // beyond engine.limits.maxSigma (3.9e37), and float32
const NOT_A_TEMPERATURE = [...NOT_POSITIVE, 1e-39]; // 1/T leaves float32
const NOT_A_SCALE = [0, -1, NaN, Infinity, 'sqrt2', null, 1e-46, true];
const NOT_FLOATS = () => [
  'abc', null, {}, 42, [[1, 2], [3, 4]], ['1', 2], [1, undefined], new BigInt64Array(2), Object.create(null),
  new Proxy({}, {}), new DataView(new ArrayBuffer(8)),
];
const NOT_WIDTHS = ['8', [], [0], [1.5], [4097], new Array(65).fill(4), null, {}];

const slot = (path, bad) => ({ path, bad });
// Several arguments at once, e.g. sizes each within range whose product is beyond the budget.
const combo = (...changes) => ({ path: [], bad: [changes] });
const FLT_MAX = 3.4028234663852886e38;
// A typed array that claims `claimed` numbers and holds `count`.
const forged = (count, claimed) => Object.defineProperty(new Float32Array(count), 'length', { value: claimed });
// A Float32Array filled with value (large arrays for the size combos)
const filled = (count, value = 0.5) => new Float32Array(count).fill(value);
// An array argument: the wrong types (null unless it means "none"), a length off by one (when the
// shape fixes it), and a non-finite value (NaN, +Infinity, and -Infinity unless it means "hidden").
function arraySlot(path, value, { fixedLength = true, minusInfinityHides = false, optional = false } = {}) {
  const bad = NOT_FLOATS().filter((x) => !(optional && x === null));
  if (fixedLength) bad.push(new Float32Array(value.length + 1));
  if (fixedLength && value.length > 1) bad.push(new Float32Array(value.length - 1), forged(value.length - 1, value.length));
  if (value.length > 0)
    for (const x of minusInfinityHides ? [NaN, Infinity] : [NaN, Infinity, -Infinity]) {
      const broken = Float32Array.from(value);
      broken[broken.length >> 1] = x;
      bad.push(broken);
    }
  return slot(path, bad);
}
// A dimension that fixes the length of arrays: also off by one (a length mismatch).
const sizeSlot = (path, value, max = 65536) => slot(path, [...NOT_A_DIM, ...(value + 1 <= max ? [value + 1] : [])]);

function makers(g) {
  const { int, pick, chance, floats, probabilities } = g;
  const seed = () => int(0, 2 ** 32 - 1);
  const temperature = () => pick([1, 0.5, 2, 0.1, 10]);
  const widths = () => Array.from({ length: int(1, 4) }, () => int(1, 32));
  return {
    softmax() {
      const z = floats(int(1, 1024), 8, { hidden: 0.1 });
      return { method: 'softmax', args: [z, { temperature: temperature() }],
        slots: [arraySlot([0], z, { fixedLength: false, minusInfinityHides: true }), slot([0], [[]]), slot([1, 'temperature'], NOT_A_TEMPERATURE)] };
    },
    randomNormal() {
      return { method: 'randomNormal', args: [seed(), int(0, 4096), { sigma: pick([1, 0.5, 3]) }],
        slots: [slot([0], NOT_A_SEED), slot([1], [-1, 1.5, NaN, '3', null, 2 ** 28 + 1]), slot([2, 'sigma'], NOT_A_SIGMA)] };  // 2^28 floats: the 1 GiB budget
    },
    randomProjection() {
      return { method: 'randomProjection', args: [seed(), int(1, 64), int(1, 64)],
        slots: [slot([0], NOT_A_SEED), slot([1], NOT_A_DIM), slot([2], NOT_A_DIM),
          combo([[1], 65536], [[2], 65536]), combo([[1], 32768], [[2], 32769])] };  // 2^32 and 2^30 + 2^15 floats
    },
    project() {
      const t = int(1, 32), dIn = int(1, 64), dOut = int(1, 64);
      const x = floats(t * dIn), w = floats(dIn * dOut);
      return { method: 'project', args: [x, t, dIn, w, dOut],
        slots: [arraySlot([0], x), sizeSlot([1], t), sizeSlot([2], dIn), sizeSlot([4], dOut), slot([3], NOT_FLOATS()),
          combo([[0], filled(65536)], [[1], 65536], [[2], 1], [[3], filled(65536)], [[4], 65536])] };  // 2^32 outputs
    },
    addPositionalEncoding() {
      const t = int(1, 32), d = int(1, 64), x = floats(t * d, 4);
      return { method: 'addPositionalEncoding', args: [x, t, d, { strength: pick([1, 0, 0.5, -2]) }],
        slots: [slot([0], NOT_FLOATS()), sizeSlot([1], t), sizeSlot([2], d), slot([3, 'strength'], [NaN, Infinity, '1', null])] };
    },
    textVector() {
      const text = Array.from({ length: int(0, 12) }, () => pick(['a', 'z', 'é', '中', ' ', '-', '🙂'])).join('');
      return { method: 'textVector', args: [text, int(1, 256), { sigma: pick([1, 0.5, 3]) }],
        slots: [slot([0], [null, 42, {}, ['a']]), slot([1], NOT_A_DIM), slot([2, 'sigma'], NOT_A_SIGMA)] };
    },
    attention() {
      const n = int(1, 48), m = chance(0.3) ? n : int(1, 48), d = int(1, 48), dv = chance(0.3) ? 0 : int(1, 32);
      const q = floats(n * d, 3), k = floats(m * d, 3), v = dv ? floats(m * dv, 3) : null;
      const mask = chance(0.3) ? floats(n * m, 2, { hidden: 0.2 }) : null;
      const options = { q, k, v, n, m, d, dv, scale: pick(['sqrt', 'none', 0.5, 2]), causal: n === m && chance(0.5),
        temperature: temperature(), mask };
      const slots = [arraySlot([0, 'q'], q), arraySlot([0, 'k'], k), sizeSlot([0, 'n'], n), sizeSlot([0, 'm'], m),
        sizeSlot([0, 'd'], d), slot([0, 'scale'], NOT_A_SCALE), slot([0, 'causal'], n === m ? NOT_A_BOOLEAN : [...NOT_A_BOOLEAN, true]),
        slot([0, 'temperature'], NOT_A_TEMPERATURE), slot([0], [null, 'q'])];
      if (v) slots.push(arraySlot([0, 'v'], v), sizeSlot([0, 'dv'], dv));
      slots.push(  // n·m·3 outputs beyond the budget; 2^32 outputs
        combo([[0, 'q'], filled(65536)], [[0, 'k'], filled(2048)], [[0, 'n'], 65536], [[0, 'm'], 2048], [[0, 'd'], 1],
          [[0, 'v'], null], [[0, 'dv'], 0], [[0, 'mask'], null], [[0, 'causal'], false]),
        combo([[0, 'q'], filled(65536)], [[0, 'k'], filled(1)], [[0, 'v'], filled(65536)], [[0, 'n'], 65536], [[0, 'm'], 1],
          [[0, 'd'], 1], [[0, 'dv'], 65536], [[0, 'mask'], null], [[0, 'causal'], false]));
      if (mask) slots.push(arraySlot([0, 'mask'], mask, { minusInfinityHides: true, optional: true }));
      return { method: 'attention', args: [options], slots };
    },
    attentionStreaming() {
      const n = int(1, 160), m = chance(0.3) ? n : int(1, 160), d = int(1, 48), dv = int(1, 32);
      const q = floats(n * d, 3), k = floats(m * d, 3), v = floats(m * dv, 3);
      const options = { q, k, v, n, m, d, dv, scale: pick(['sqrt', 'none', 0.5]), causal: n === m && chance(0.5),
        out: chance(0.3) ? new Float32Array(n * dv) : null };
      return { method: 'attentionStreaming', args: [options],
        slots: [arraySlot([0, 'q'], q), arraySlot([0, 'k'], k), arraySlot([0, 'v'], v), sizeSlot([0, 'n'], n),
          sizeSlot([0, 'd'], d), sizeSlot([0, 'dv'], dv), slot([0, 'scale'], NOT_A_SCALE),
          slot([0, 'out'], ['x', new Float32Array(n * dv + 1), new Float64Array(n * dv), [0]]),
          combo([[0, 'q'], filled(65536)], [[0, 'k'], filled(1)], [[0, 'v'], filled(65536)], [[0, 'n'], 65536], [[0, 'm'], 1],
            [[0, 'd'], 1], [[0, 'dv'], 65536], [[0, 'out'], null], [[0, 'causal'], false]),  // 2^32 outputs
          ...(m >= 2 ? [combo([[0, 'q'], filled(n * d, 0)], [[0, 'v'], filled(m * dv, FLT_MAX)], [[0, 'causal'], false])] : [])] };
      // (the last: equal scores, so Σ p·v = m·FLT_MAX before the division by Σp = m)
    },
    heapBytes() {
      return { method: 'heapBytes', args: [], slots: [] };
    },
    lessonConstants() {
      return { method: 'lessonConstants', args: [], slots: [] };
    },
    dotHistograms() {
      const d = int(1, 64);
      const options = { seed: seed(), d, samples: int(2, 200), bins: int(1, 32) };
      if (chance(0.5)) options.range = [-int(1, 20), int(1, 20)];
      if (chance(0.5)) options.scaledRange = [-4, 4];
      return { method: 'dotHistograms', args: [options],
        slots: [slot([0, 'd'], [...NOT_A_DIM, 4097]), slot([0, 'samples'], [...NOT_A_DIM, 1]), slot([0, 'bins'], [...NOT_A_DIM, 1025]),
          slot([0, 'seed'], NOT_A_SEED), slot([0, 'range'], [[1, 0], [NaN, 1], 'x', [1], [0, Infinity]])] };
    },
    dotVarianceCurve() {
      return { method: 'dotVarianceCurve', args: [{ seed: seed(), dims: widths(), samples: int(2, 200) }],
        slots: [slot([0, 'dims'], NOT_WIDTHS), slot([0, 'samples'], [...NOT_A_DIM, 1]), slot([0, 'seed'], NOT_A_SEED)] };
    },
    tokenVarianceCurve() {
      const t = int(1, 8), dIn = int(1, 16), draws = t === 1 ? int(2, 3) : int(1, 3), x = floats(t * dIn, 2);
      return { method: 'tokenVarianceCurve', args: [{ x, t, dIn, seed: seed(), dims: widths(), draws }],
        slots: [arraySlot([0, 'x'], x), sizeSlot([0, 't'], t, 256), sizeSlot([0, 'dIn'], dIn, 4096), slot([0, 'dims'], NOT_WIDTHS),
          slot([0, 'draws'], [...NOT_A_DIM, 65])] };
    },
    headProjections() {
      const t = int(1, 8), dIn = int(1, 16), x = floats(t * dIn, 2);
      return { method: 'headProjections', args: [{ x, t, dIn, seed: seed(), head: int(0, 8), d: int(1, 32) }],
        slots: [arraySlot([0, 'x'], x), sizeSlot([0, 't'], t, 256), sizeSlot([0, 'dIn'], dIn, 4096),
          slot([0, 'head'], [...NOT_AN_INDEX, 65]), slot([0, 'd'], [...NOT_A_DIM, 4097])] };
    },
    projectionWeights() {
      return { method: 'projectionWeights', args: [{ dIn: int(1, 16), seed: seed(), head: int(0, 8), d: int(1, 32) }],
        slots: [slot([0, 'dIn'], [...NOT_A_DIM, 4097]), slot([0, 'd'], [...NOT_A_DIM, 4097]), slot([0, 'head'], NOT_AN_INDEX)] };
    },
    projectQK() {
      const t = int(1, 8), dIn = int(1, 16), d = int(1, 16), x = floats(t * dIn, 2);
      const weights = { dIn, d, wq: floats(dIn * d), wk: floats(dIn * d) };
      return { method: 'projectQK', args: [{ x, t, weights }],
        slots: [arraySlot([0, 'x'], x), sizeSlot([0, 't'], t, 256), slot([0, 'weights'], [null, 'w', {}, { dIn, d }]),
          slot([0, 'weights', 'wq'], NOT_FLOATS())] };
    },
    saturationSweep() {
      const t = int(1, 8), dIn = int(1, 16), x = floats(t * dIn, 2);
      return { method: 'saturationSweep', args: [{ x, t, dIn, seed: seed(), dims: widths(), scaled: chance(0.5) }],
        slots: [arraySlot([0, 'x'], x), sizeSlot([0, 't'], t, 256), slot([0, 'dims'], NOT_WIDTHS), slot([0, 'scaled'], NOT_A_BOOLEAN)] };
    },
    softmaxJacobian() {
      const p = probabilities(int(1, 64));
      return { method: 'softmaxJacobian', args: [p],
        slots: [arraySlot([0], p, { fixedLength: false }), slot([0], [[], filled(32768, 1 / 32768), [1e30, 1e30], [0.5, 1.5]])] };
    },
    softmaxBackward() {
      const m = int(1, 1024), p = probabilities(m), dp = floats(m, 2);
      return { method: 'softmaxBackward', args: [p, dp], slots: [arraySlot([0], p, { fixedLength: false }), arraySlot([1], dp)] };
    },
    upstreamGradient() {
      return { method: 'upstreamGradient', args: [seed(), int(0, 100), int(1, 1024)],
        slots: [slot([0], NOT_A_SEED), slot([1], NOT_AN_INDEX), slot([2], NOT_A_DIM)] };
    },
    stepByStep() {
      const m = int(1, 64), d = int(1, 64), q = floats(d, 2), k = floats(m * d, 2);
      const options = { q, k, m, d, key: int(0, m - 1), scaled: chance(0.5), temperature: temperature(), visible: int(1, m) };
      return { method: 'stepByStep', args: [options],
        slots: [arraySlot([0, 'q'], q), arraySlot([0, 'k'], k), sizeSlot([0, 'd'], d, 4096),
          slot([0, 'key'], [...NOT_AN_INDEX, m]), slot([0, 'visible'], [0, -1, 1.5, NaN, null, m + 1]),
          slot([0, 'temperature'], NOT_A_TEMPERATURE), slot([0, 'scaled'], NOT_A_BOOLEAN)] };
    },
    softmaxGradientNorm() {
      const p = probabilities(int(1, 1024));
      return { method: 'softmaxGradientNorm', args: [p, { seed: seed(), row: int(0, 100) }],
        slots: [arraySlot([0], p, { fixedLength: false }), slot([1, 'seed'], NOT_A_SEED), slot([1, 'row'], NOT_AN_INDEX)] };
    },
    softmaxNaive() {
      const z = Float32Array.from(floats(int(1, 1024), 5, { hidden: 0.1 }));
      z[0] = 1; // one visible score: an all-hidden row is 0/0 in the naive version, by design
      return { method: 'softmaxNaive', args: [z, { temperature: pick([1, 0.5, 2, 0.1, 10]) }],
        slots: [arraySlot([0], z, { fixedLength: false, minusInfinityHides: true }), slot([1, 'temperature'], NOT_POSITIVE)] };
    },
    multiHead() {
      const t = int(1, 6), dIn = int(1, 16), x = floats(t * dIn, 2);
      return { method: 'multiHead', args: [{ x, t, dIn, seed: seed(), heads: int(1, 3), d: int(1, 16), scaled: chance(0.5) }],
        slots: [arraySlot([0, 'x'], x), sizeSlot([0, 't'], t, 256), slot([0, 'heads'], [...NOT_A_DIM, 9]),
          slot([0, 'd'], [...NOT_A_DIM, 4097]), slot([0, 'scaled'], NOT_A_BOOLEAN)] };
    },
  };
}

// Copies args with the value at `path` replaced (the rest shared: the engine never writes inputs).
function replaced(args, path, value) {
  if (path.length === 1) return args.map((a, i) => (i === path[0] ? value : a));
  const [head, ...rest] = path;
  return args.map((a, i) => (i === head ? (Array.isArray(a) ? a : replacedIn(a, rest, value)) : a));
}
function replacedIn(object, [key, ...rest], value) {
  return { ...object, [key]: rest.length ? replacedIn(object[key], rest, value) : value };
}

function call(engine, method, args) {
  return method === 'lessonConstants' ? engine.lessonConstants : engine[method](...args);
}

// Result fields that hold -Infinity by definition: a hidden key's score (and its shifted or divided score).
const MAY_HOLD_MINUS_INFINITY = new Set(['attention.scores', 'stepByStep.scores', 'stepByStep.shifted', 'softmaxNaive.scaledScores']);

// The first number of a result that is not finite (a path), or null.
function nonFinite(value, path) {
  if (typeof value === 'number') {
    if (Number.isFinite(value) || (value === -Infinity && MAY_HOLD_MINUS_INFINITY.has(path))) return null;
    return `${path} = ${value}`;
  }
  if (value instanceof Float32Array) {
    const i = value.findIndex((x) => !(Number.isFinite(x) || (x === -Infinity && MAY_HOLD_MINUS_INFINITY.has(path))));
    return i < 0 ? null : `${path}[${i}] = ${value[i]}`;
  }
  if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      const found = nonFinite(inner, `${path}.${key}`);
      if (found) return found;
    }
  return null;
}

function show(value) {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 20));
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.length ?? value.byteLength})`;
  if (Array.isArray(value)) return `[${value.length} items]`;
  if (Object.getPrototypeOf(value) === null) return 'Object.create(null)';
  return 'an object';
}

// Runs the soak on one engine; returns what it saw.
function soak(engine, seed) {
  const g = generator(seed);
  const make = makers(g);
  const names = Object.keys(make);
  const problems = { validThrew: [], validNonFinite: [], invalidReturned: [], notAnError: [], noCode: [] };
  let invalidCalls = 0, combos = 0, codes = 0;
  // warm-up: every method at the largest sizes the soak draws
  const heapBefore = warmUp(engine);
  for (let i = 0; i < CALLS; i++) {
    const name = names[i % names.length];
    const { method, args, slots } = make[name]();
    let callArgs = args, label = `#${i} ${method}`;
    const invalid = slots.length > 0 && g.chance(INVALID_FRACTION);
    if (invalid) {
      const { path, bad } = g.pick(slots);
      const value = g.pick(bad);
      if (path.length) {
        callArgs = replaced(args, path, value);
        label += ` with ${path.slice(1).join('.') || `argument ${path[0]}`} = ${show(value)}`;
      } else {  // a combo: every change of it
        combos++;
        for (const [where, changed] of value) callArgs = replaced(callArgs, where, changed);
        label += ` with ${value.map(([where, changed]) => `${where.slice(1).join('.') || where[0]} = ${show(changed)}`).join(', ')}`;
      }
      invalidCalls++;
    }
    let result, error, threw = false;
    try {
      result = call(engine, method, callArgs);
    } catch (e) {
      threw = true;
      error = e;
    }
    if (!invalid) {
      if (threw) problems.validThrew.push(`${label}: ${error?.message ?? error}`);
      else {
        const bad = nonFinite(result, method);
        if (bad) problems.validNonFinite.push(`${label}: ${bad}`);
      }
      continue;
    }
    if (!threw) problems.invalidReturned.push(label);
    else if (!(error instanceof Error)) problems.notAnError.push(`${label}: threw ${show(error)}`);
    else if (typeof error.code !== 'string' || !error.code.startsWith('ATTN_'))
      problems.noCode.push(`${label}: ${error.name}: ${error.message}`);
    else codes++;
  }
  return { problems, invalidCalls, combos, codes, heapBefore, heapAfter: engine.heapBytes() };
}

// One call of each method at the top of every range the soak draws from; returns the heap after.
function warmUp(engine) {
  const big = (count) => new Float32Array(count).fill(0.5);
  engine.softmax(big(1024));
  engine.randomNormal(1, 4096);
  engine.randomProjection(1, 64, 64);
  engine.project(big(32 * 64), 32, 64, big(64 * 64), 64);
  engine.addPositionalEncoding(big(32 * 64), 32, 64);
  engine.textVector('warm-up', 256);
  engine.attention({ q: big(48 * 48), k: big(48 * 48), v: big(48 * 32), n: 48, m: 48, d: 48, dv: 32, mask: big(48 * 48) });
  engine.attentionStreaming({ q: big(160 * 48), k: big(160 * 48), v: big(160 * 32), n: 160, m: 160, d: 48, dv: 32 });
  engine.dotHistograms({ d: 64, samples: 200, bins: 32 });
  engine.dotVarianceCurve({ dims: [32, 32, 32, 32], samples: 200 });
  engine.tokenVarianceCurve({ x: big(8 * 16), t: 8, dIn: 16, dims: [32, 32, 32, 32], draws: 3 });
  engine.headProjections({ x: big(8 * 16), t: 8, dIn: 16, d: 32, head: 8 });
  engine.projectionWeights({ dIn: 16, d: 32 });
  engine.projectQK({ x: big(8 * 16), t: 8, weights: { dIn: 16, d: 16, wq: big(16 * 16), wk: big(16 * 16) } });
  engine.saturationSweep({ x: big(8 * 16), t: 8, dIn: 16, dims: [32, 32, 32, 32] });
  engine.softmaxJacobian(big(64));
  engine.softmaxBackward(big(1024), big(1024));
  engine.upstreamGradient(1, 100, 1024);
  engine.stepByStep({ q: big(64), k: big(64 * 64), m: 64, d: 64 });
  engine.softmaxGradientNorm(big(1024), { row: 100 });
  engine.softmaxNaive(big(1024));
  engine.multiHead({ x: big(6 * 16), t: 6, dIn: 16, heads: 3, d: 16 });
  return engine.heapBytes();
}

const list = (items) => `${items.length} calls, e.g.\n  ${items.slice(0, 8).join('\n  ')}`;

// Calls whose every argument passes the JavaScript checks but that the core must refuse, each a
// reproducer of a defect of issue #15: sizes whose outputs wrap 32-bit arithmetic or exceed the
// memory budget (D1, D3: the call must fail before reserving its outputs), results that leave
// float32 or inputs with NaN that were not checked (D6), a typed array whose \`length\` lies (D8).
const withNaN = (array, at = 0) => ((array[at] = NaN), array);
const CORE_CASES = [
  ['D1: randomProjection 65536 × 65536 (2^32 floats)', (e) => e.randomProjection(1, 65536, 65536)],
  ['D1: randomProjection 32768 × 32769', (e) => e.randomProjection(1, 32768, 32769)],
  ['D1: softmaxJacobian of 32,768 numbers (2^30 floats)', (e) => e.softmaxJacobian(filled(32768, 1 / 32768))],
  ['D1: attention n = 65536, dv = 65536 (2^32 outputs)',
    (e) => e.attention({ q: filled(65536), k: filled(1), v: filled(65536), n: 65536, m: 1, d: 1, dv: 65536 })],
  ['D1: project 65536 tokens to width 65536', (e) => e.project(filled(65536), 65536, 1, filled(65536), 65536)],
  ['D3: attention n = 65536, m = 2048 (n·m beyond the limit)',
    (e) => e.attention({ q: filled(65536), k: filled(2048), n: 65536, m: 2048, d: 1 })],
  ['D3: attention n = m = 4096, d = 64 with one NaN in k',
    (e) => e.attention({ q: filled(4096 * 64), k: withNaN(filled(4096 * 64), 12345), n: 4096, m: 4096, d: 64 })],
  ['D6: project with NaN in w', (e) => e.project(filled(4), 2, 2, withNaN(filled(4)), 2)],
  ['D6: project whose outputs overflow', (e) => e.project(filled(2, 1e30), 1, 2, filled(2, 1e30), 1)],
  ['D6: addPositionalEncoding with NaN in x', (e) => e.addPositionalEncoding(withNaN(filled(6)), 2, 3)],
  ['D6: projectQK with NaN weights',
    (e) => e.projectQK({ x: filled(4), t: 2, weights: { dIn: 2, d: 2, wq: withNaN(filled(4)), wk: filled(4) } })],
  ['D6: softmaxJacobian([1e30, 1e30])', (e) => e.softmaxJacobian([1e30, 1e30])],
  ['D6: randomNormal with sigma 1e39', (e) => e.randomNormal(1, 4, { sigma: 1e39 })],
  ['D6: attentionStreaming with v = FLT_MAX in every row (Σ p·v beyond float32)',
    (e) => e.attentionStreaming({ q: filled(1, 0), k: filled(3, 0), v: filled(3, FLT_MAX), n: 1, m: 3, d: 1, dv: 1 })],
  ['D8: attention with a q whose length claims 6 of 2 numbers',
    (e) => e.attention({ q: forged(2, 6), k: filled(2), n: 3, m: 1, d: 2 })],
  ['D8: attention(null)', (e) => e.attention(null)],
  ['D8: q = Object.create(null)', (e) => e.attention({ q: Object.create(null), k: filled(2), n: 1, m: 1, d: 2 })],
];

for (const simd of simdSupported() ? [true, false] : [false]) {
  const build = simd ? 'simd' : 'scalar';
  const engine = await createEngine({ simd });
  const seen = soak(engine, SEED);
  const { problems } = seen;

  test(`${build}: ${CALLS.toLocaleString('en')} seeded calls (seed ${SEED}): every valid call returns finite numbers`, () => {
    assert.equal(problems.validThrew.length, 0, `valid calls threw: ${list(problems.validThrew)}`);
    assert.equal(problems.validNonFinite.length, 0, `valid calls returned non-finite numbers: ${list(problems.validNonFinite)}`);
  });

  test(`${build}: every invalid call throws an Error (${seen.invalidCalls} calls)`, (t) => {
    t.diagnostic(`${seen.combos} of them with several arguments changed at once (sizes beyond the budget, Σ p·v beyond float32)`);
    assert.ok(seen.invalidCalls > CALLS / 4, `only ${seen.invalidCalls} invalid calls`);
    assert.equal(problems.invalidReturned.length, 0, `invalid calls returned: ${list(problems.invalidReturned)}`);
    assert.equal(problems.notAnError.length, 0, `invalid calls threw something else than an Error: ${list(problems.notAnError)}`);
  });

  test(`${build}: every error carries a code (ATTN_…)`, () => {
    assert.equal(problems.noCode.length, 0, `errors without a code: ${list(problems.noCode)}`);
  });

  test(`${build}: the wasm heap grows by at most ${HEAP_GROWTH_LIMIT} bytes after warm-up`, (t) => {
    const growth = seen.heapAfter - seen.heapBefore;
    t.diagnostic(`heap after warm-up ${seen.heapBefore} bytes, after ${CALLS} calls ${seen.heapAfter} bytes (+${growth})`);
    assert.ok(growth <= HEAP_GROWTH_LIMIT, `the heap grew by ${growth} bytes (${seen.heapBefore} → ${seen.heapAfter})`);
  });

  // Each case on a fresh, warmed-up engine: one that wrote out of bounds or grew the heap must
  // spoil neither the soak above nor the next case.
  test(`${build}: the reproducers of D1, D3, D6 and D8 throw an Error with a code and leave the heap as it was`, async () => {
      const failures = [];
      for (const [name, run] of CORE_CASES) {
        const fresh = await createEngine({ simd });
        warmUp(fresh);
        // The first call may make room for its inputs; the second must find the heap as the first left it.
        const heapBefore = fresh.heapBytes();
        const outcome = () => {
          try {
            run(fresh);
            return 'returned';
          } catch (error) {
            if (!(error instanceof Error)) return `threw ${show(error)}`;
            return typeof error.code === 'string' && error.code.startsWith('ATTN_') ? null : `threw without a code: ${error.message}`;
          }
        };
        const first = outcome();
        const heapFirst = fresh.heapBytes();
        const second = outcome();
        const heapSecond = fresh.heapBytes();
        if (first || second) failures.push(`${name}: ${first ?? second}`);
        else if (heapSecond !== heapFirst) failures.push(`${name}: a second call grew the heap ${heapFirst} → ${heapSecond}`);
        else if (heapFirst - heapBefore > 2 ** 24)
          failures.push(`${name}: the failed call grew the heap by ${heapFirst - heapBefore} bytes`);
      }
      assert.equal(failures.length, 0, `${failures.length} of ${CORE_CASES.length} cases:\n  ${failures.join('\n  ')}`);
    });
}
