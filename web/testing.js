// `attention-lab/testing`: checks someone's scaled dot-product attention against the lab's core,
// for lesson authors and teachers. compareAttention runs the function on seeded Q, K, V of a few
// shapes, compares its output with the engine's, and when they differ, recognises the usual
// mistakes by computing each of them with the engine and seeing which one the output matches.
//
//   import { compareAttention } from 'attention-lab/testing';
//   const report = await compareAttention((Q, K, V) => studentAttention(Q, K, V));
//   console.log(report.message);           // per shape ✓/✗, the largest error, a hint
//
// The function is called as fn(Q, K, V, { n, m, d, dv }) with Q n×d, K m×d, V m×dv as arrays of
// rows of numbers (layout 'rows', the default) or as row-major Float32Arrays (layout 'flat'); it
// returns the n×dv output in either form, or a Promise of it. It runs in this process: a
// function that never returns hangs the check.
import { createEngine } from './core/engine.js';
import { coded, describe } from './core/errors.js';

/**
 * Largest |output − ours| that passes. Our float32 output is within ~1e-6 of a float64
 * computation on these inputs (|v| ≲ 5, scores ≲ 40; the large-score shape is integer-valued, so
 * its scores are exact); 1e-4 leaves room for a function that computes in float32 itself, while
 * every mistake the hints name moves some output by more than 1e-2 on the default shapes.
 */
export const DEFAULT_TOLERANCE = 1e-4;

/**
 * The shapes checked by default: a single key (the output is v), n ≠ m ≠ d, square shapes where
 * a transposed K runs without crashing (d = m) and where returned weights have the output's
 * shape (m = dv), a typical head (d = 64), and integer-valued inputs whose scores reach ±1000,
 * where exp() overflows unless the row's maximum is subtracted first.
 */
export const DEFAULT_SHAPES = Object.freeze([
  { n: 1, m: 1, d: 1, dv: 1 },
  { n: 3, m: 5, d: 4, dv: 2 },
  { n: 4, m: 4, d: 4, dv: 3 },
  { n: 6, m: 6, d: 6, dv: 6 },
  { n: 16, m: 16, d: 64, dv: 64 },
  { n: 4, m: 8, d: 16, dv: 4, large: true },
].map(Object.freeze));

// Integer inputs of the large-score shape: round(N(0, 1) × LARGE_SPREAD), so q·k is an exact
// integer in float32 and a score (÷ √16 = 4) reaches ~±1000 (float64 exp() overflows past 709).
const LARGE_SPREAD = 30;
const MAX_DIM = 1024;
const LAYOUTS = ['rows', 'flat'];

/** Each mistake the report can name: what the output then is, and what to do. */
export const DIAGNOSES = Object.freeze({
  'missing-scale': 'The output matches softmax(Q·Kᵀ)·V without the 1/√d_k: divide every score q·k by √d_k (d_k = the width of q and k).',
  'divided-by-dk': 'The output matches softmax(Q·Kᵀ/d_k)·V: the scale is 1/√d_k, not 1/d_k — divide every score q·k by the square root of d_k.',
  'missing-exp': 'The output matches weights made by dividing each score by its row’s sum of scores, with no exp: softmax takes e to the power of each score first, then divides by the row’s sum of those.',
  'transposed-k': 'The output matches softmax(Q·K/√d_k)·V: a score needs row j of K, score[i][j] = Σ_c Q[i][c]·K[j][c] (that is Q·Kᵀ), not K[c][j].',
  'softmax-axis': 'The output matches weights normalised over the queries (each column summing to 1): the softmax runs along each row, over the keys j, so that each query’s weights sum to 1.',
  'missing-softmax': 'The output matches (Q·Kᵀ/√d_k)·V with no softmax: turn each row of scores into weights with softmax before multiplying by V.',
  'returned-weights': 'The output matches the weights softmax(Q·Kᵀ/√d_k) (n×m): multiply them by V to get the output (n×dv).',
  'non-finite': 'The output holds NaN or Infinity: exp() overflows for large scores. Subtract each row’s largest score before exp (softmax does not change) — or look for a division by zero.',
  threw: 'The function threw an error (see the shape’s error).',
  shape: 'The output does not have n rows of dv numbers (see the shape’s error).',
});

/**
 * Runs `attention` on each shape and compares. Options: shapes ([{ n, m, d, dv, large? }],
 * default DEFAULT_SHAPES), seed (of the inputs, default 1), tolerance (DEFAULT_TOLERANCE),
 * layout ('rows' | 'flat'), engine (createEngine()'s; one is created when omitted). Resolves with
 *   { pass, maxError, tolerance, seed, shapes: [{ n, m, d, dv, large, pass, maxError, worst, error,
 *     diagnosis, hint }], failed (the first failing shape or null), diagnosis, hint, message }.
 * Rejects with a coded TypeError/RangeError for wrong arguments (not for a wrong function).
 */
export async function compareAttention(attention, { shapes = DEFAULT_SHAPES, seed = 1, tolerance = DEFAULT_TOLERANCE, layout = 'rows', engine = null } = {}) {
  if (typeof attention !== 'function') throw coded(new TypeError(`compareAttention: attention must be a function (Q, K, V) → output, got ${describe(attention)}`));
  const list = checkShapes(shapes);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw coded(new RangeError(`compareAttention: seed must be a whole number from 0 to 4294967295, got ${describe(seed)}`));
  if (typeof tolerance !== 'number' || !(tolerance >= 0) || !Number.isFinite(tolerance)) throw coded(new RangeError(`compareAttention: tolerance must be a finite number ≥ 0, got ${describe(tolerance)}`));
  if (!LAYOUTS.includes(layout)) throw coded(new RangeError(`compareAttention: layout must be one of ${LAYOUTS.join(', ')}, got ${describe(layout)}`));
  if (engine !== null && typeof engine?.attention !== 'function') throw coded(new TypeError(`compareAttention: engine must be an engine of createEngine(), got ${describe(engine)}`));
  const core = engine ?? (await createEngine());

  const results = [];
  for (const [index, shape] of list.entries()) results.push(await checkShape(core, attention, shape, { seed: (seed + index) >>> 0, tolerance, layout }));
  const failed = results.find((r) => !r.pass) ?? null;
  // the report's diagnosis: a recognised mistake where one was, else the first failure's kind
  const named = results.find((r) => r.diagnosis && !['threw', 'shape', 'non-finite'].includes(r.diagnosis)) ?? failed;
  // every distinct mistake seen, the named one first (a function can make two)
  const diagnoses = [...new Set([named?.diagnosis, ...results.map((r) => r.diagnosis)].filter(Boolean))];
  const report = {
    pass: failed === null,
    maxError: Math.max(...results.map((r) => r.maxError)),
    tolerance,
    seed,
    shapes: results,
    failed,
    diagnosis: named?.diagnosis ?? null,
    hint: named?.hint ?? null,
    diagnoses,
  };
  report.message = describeReport(report);
  return report;
}

async function checkShape(engine, attention, shape, { seed, tolerance, layout }) {
  const { n, m, d, dv, large } = shape;
  const { q, k, v } = inputs(engine, shape, seed);
  const expected = engine.attention({ q, k, v, n, m, d, dv }).output;
  const entry = { n, m, d, dv, large, pass: false, maxError: Infinity, worst: null, error: null, diagnosis: null, hint: null };
  const fail = (diagnosis, error = null) => Object.assign(entry, { diagnosis, hint: DIAGNOSES[diagnosis], error });

  let returned;
  try {
    const dims = { n, m, d, dv };
    returned = await (layout === 'rows'
      ? attention(toRows(q, n, d), toRows(k, m, d), toRows(v, m, dv), dims)
      : attention(q.slice(), k.slice(), v.slice(), dims));
  } catch (error) {
    return fail('threw', `threw ${error?.name ?? 'an error'}: ${error?.message ?? String(error)}`);
  }
  const flat = flatten(returned, n, dv);
  if (flat.error) {
    // n rows of m numbers where dv were expected: most likely the weights
    const weights = m !== dv && flatten(returned, n, m).values;
    const ours = weights && engine.attention({ q, k, n, m, d }).weights;
    return weights && compare(weights, ours, m).maxError <= tolerance ? fail('returned-weights', flat.error) : fail('shape', flat.error);
  }
  const actual = flat.values;
  const compared = compare(actual, expected, dv);
  Object.assign(entry, { maxError: compared.maxError, worst: compared.worst });
  if (compared.maxError <= tolerance) return Object.assign(entry, { pass: true });
  if (!Number.isFinite(compared.maxError)) return fail('non-finite');
  for (const [diagnosis, candidate] of mistakes(engine, { q, k, v, n, m, d, dv })) {
    if (candidate && candidate.length === actual.length && compare(actual, candidate, dv).maxError <= tolerance) return fail(diagnosis);
  }
  return entry;
}

// What each mistake gives for these inputs, computed by the engine (lazily: only for a failure).
function* mistakes(engine, { q, k, v, n, m, d, dv }) {
  yield ['missing-scale', engine.attention({ q, k, v, n, m, d, dv, scale: 'none' }).output];
  // q·k/d_k: the scaled scores divided once more by √d_k, as a temperature
  yield ['divided-by-dk', engine.attention({ q, k, v, n, m, d, dv, temperature: Math.sqrt(d) }).output];
  yield ['missing-exp', engine.project(withoutExp(engine.attention({ q, k, n, m, d }).scores, n, m), n, m, v, dv)];
  if (d === m) yield ['transposed-k', engine.attention({ q, k: transpose(k, m, d), v, n, m, d, dv }).output];
  // softmax over the queries: the keys attend to the queries, and the weights are read transposed
  const overQueries = engine.attention({ q: k, k: q, n: m, m: n, d }).weights;
  yield ['softmax-axis', engine.project(transpose(overQueries, m, n), n, m, v, dv)];
  yield ['missing-softmax', engine.project(engine.attention({ q, k, n, m, d }).scores, n, m, v, dv)];
  if (m === dv) yield ['returned-weights', engine.attention({ q, k, n, m, d }).weights];
}

// The weights of a softmax without its exp: each score divided by its row's sum of scores (the
// mistake's own arithmetic; the engine has no wrong softmax).
function withoutExp(scores, n, m) {
  const out = new Float32Array(n * m);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < m; j++) sum += scores[i * m + j];
    for (let j = 0; j < m; j++) out[i * m + j] = scores[i * m + j] / sum;
  }
  return out;
}

// Seeded Q, K, V: N(0, 1) from the engine's generator (the same on every platform), or for the
// large-score shape integers round(N(0, 1) · LARGE_SPREAD) for Q and K.
function inputs(engine, { n, m, d, dv, large }, seed) {
  const draws = engine.randomNormal(seed, n * d + m * d + m * dv);
  const q = draws.slice(0, n * d);
  const k = draws.slice(n * d, (n + m) * d);
  const v = draws.slice((n + m) * d);
  if (large) for (const array of [q, k]) array.forEach((x, i) => (array[i] = Math.round(x * LARGE_SPREAD)));
  return { q, k, v };
}

// Largest |actual − expected| and where (NaN and ±Infinity count as an infinite error).
function compare(actual, expected, dv) {
  let maxError = 0;
  let at = -1;
  for (let i = 0; i < expected.length; i++) {
    const error = Math.abs(actual[i] - expected[i]);
    const e = Number.isNaN(error) ? Infinity : error;
    if (e > maxError || at < 0) [maxError, at] = [e, i];
  }
  if (at < 0) return { maxError: 0, worst: null };
  return { maxError, worst: { row: Math.floor(at / dv), column: at % dv, expected: expected[at], actual: actual[at] } };
}

// The returned output as n·dv numbers, or { error } saying what it was instead.
function flatten(value, rows, cols) {
  const what = `n×dv = ${rows}×${cols}`;
  if (value === null || value === undefined) return { error: `returned ${value}, expected the output (${what})` };
  if (typeof value !== 'object' || typeof value.length !== 'number') return { error: `returned ${describe(value)}, expected the output (${what}): rows of numbers, or ${rows * cols} numbers row-major` };
  const nested = value.length > 0 && typeof value[0] === 'object' && value[0] !== null;
  if (!nested) {
    if (value.length !== rows * cols) return { error: `returned ${value.length} numbers, expected ${rows * cols} (${what}, row-major)` };
    const values = Float64Array.from(value, Number);
    return { values };
  }
  if (value.length !== rows) return { error: `returned ${value.length} rows, expected n = ${rows} rows of dv = ${cols} numbers` };
  const values = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const row = value[i];
    if (!row || typeof row.length !== 'number' || row.length !== cols) {
      return { error: `row ${i} of the output has ${row && typeof row.length === 'number' ? `${row.length} numbers` : describe(row)}, expected dv = ${cols}` };
    }
    for (let c = 0; c < cols; c++) values[i * cols + c] = Number(row[c]);
  }
  return { values };
}

function toRows(flat, rows, cols) {
  return Array.from({ length: rows }, (_, i) => Array.from(flat.subarray(i * cols, (i + 1) * cols)));
}

// rows×cols → cols×rows (layout only)
function transpose(flat, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[j * rows + i] = flat[i * cols + j];
  return out;
}

function checkShapes(shapes) {
  if (!Array.isArray(shapes) || shapes.length === 0) throw coded(new TypeError(`compareAttention: shapes must be a non-empty array of { n, m, d, dv }, got ${describe(shapes)}`));
  return shapes.map((shape, i) => {
    if (!shape || typeof shape !== 'object') throw coded(new TypeError(`compareAttention: shapes[${i}] must be { n, m, d, dv }, got ${describe(shape)}`));
    for (const key of ['n', 'm', 'd', 'dv']) {
      const value = shape[key];
      if (!Number.isInteger(value) || value < 1 || value > MAX_DIM) {
        throw coded(new RangeError(`compareAttention: shapes[${i}].${key} must be a whole number from 1 to ${MAX_DIM}, got ${describe(value)}`));
      }
    }
    return { n: shape.n, m: shape.m, d: shape.d, dv: shape.dv, large: Boolean(shape.large) };
  });
}

const shapeName = ({ n, m, d, dv, large }) => `n=${n} m=${m} d=${d} dv=${dv}${large ? ' (large scores)' : ''}`;
const number = (x) => (typeof x === 'number' && Number.isFinite(x) ? Number(x.toPrecision(4)).toString() : String(x));

function describeReport(report) {
  const passed = report.shapes.filter((s) => s.pass).length;
  const lines = [
    `${report.pass ? 'PASS' : 'FAIL'}: ${passed} of ${report.shapes.length} shapes match; largest |error| ${number(report.maxError)} (tolerance ${report.tolerance})`,
  ];
  for (const s of report.shapes) {
    let line = `  ${s.pass ? '✓' : '✗'} ${shapeName(s)}`;
    if (s.error) line += `: ${s.error}`;
    else {
      line += `: largest |error| ${number(s.maxError)}`;
      if (!s.pass && s.worst) line += ` at output[${s.worst.row}][${s.worst.column}] (expected ${number(s.worst.expected)}, got ${number(s.worst.actual)})`;
    }
    if (s.diagnosis && s.diagnosis !== 'threw' && s.diagnosis !== 'shape') line += ` [${s.diagnosis}]`;
    lines.push(line);
  }
  for (const diagnosis of report.diagnoses) {
    if (diagnosis !== 'threw' && diagnosis !== 'shape') lines.push(`Hint: ${DIAGNOSES[diagnosis]}`);
  }
  return lines.join('\n');
}
