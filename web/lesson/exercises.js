// The lesson's exercises: the learner types a number (or picks a d_k), and the answer is
// checked against the engine with a tolerance. No learner code is run: an answer is a number
// read from a text field. A wrong answer is compared with what each usual mistake gives — each
// computed with the engine, as attention-lab/testing computes them — and named by the same code
// as that checker's DIAGNOSES (web/testing.js), so a lesson and the checker speak of a mistake
// alike. No DOM, nothing stored: the same code runs in a page and in Node.
import { SWEEP_DIMS, TREND_DRAWS } from './model.js';
import { shortLabel } from '../i18n/format.js';

/**
 * Largest |answer − engine| that counts as right: an answer typed to 3 decimals, rounded or cut
 * (at most 0.001 off), passes; every mistake named below is at least 0.03 from the right answer.
 */
export const ANSWER_TOLERANCE = 0.002;
/**
 * The largest weight the saturation exercise asks the rows to pass on average: where the mean
 * rises steeply with d_k (from about 0.2 at d_k = 1 to 0.9 at 1024), so its width hardly moves
 * with the draw; near 0.9 the mean levels off and the width would be the draw's again.
 */
export const SATURATED = 0.5;

// What a calculator shows when exp overflows: an answer of these words is an overflow.
const OVERFLOW_WORDS = /^(∞|\+?inf(inity)?|nan|error|err|overflow|e)$/i;

/**
 * The exercises: for each, its inputs (shown in its prompt), whether its answer is a number
 * ('number') or a d_k ('dk', one of SWEEP_DIMS or 'none'), and the keys of its prompt and hint.
 */
export const EXERCISES = Object.freeze({
  // three scores of one row; the weight of the second key
  softmaxWeight: { kind: 'number', scores: [2, 1, 0], key: 1, prompt: 'exercise.softmaxWeightPrompt', hint: 'exercise.softmaxWeightHint' },
  // two queries' rows of scores over three keys; query 1's weight on key 3
  softmaxAxis: { kind: 'number', rows: [[1, 2, 3], [3, 0, 0]], query: 0, key: 2, prompt: 'exercise.softmaxAxisPrompt', hint: 'exercise.softmaxAxisHint' },
  // q and the keys of width d_k = 2 (K square, so a transposed K runs too); the weight of key 1
  scale: { kind: 'number', q: [1, 2], k: [[1, 1], [2, 0]], key: 0, prompt: 'exercise.scalePrompt', hint: 'exercise.scaleHint' },
  // scores too large for a naive exp; the weight of key 1
  stableMax: { kind: 'number', scores: [1000, 998, 997], key: 0, prompt: 'exercise.stableMaxPrompt', hint: 'exercise.stableMaxHint' },
  // the sentence's rows, unscaled: the smallest d_k at which their largest weight passes
  // SATURATED on average over rows and projections
  saturate: { kind: 'dk', prompt: 'exercise.saturatePrompt' },
});

/** The words of each diagnosis a wrong answer can get (the codes of testing.js's DIAGNOSES, and the saturation exercise's own). */
export const DIAGNOSIS_KEYS = Object.freeze({
  'missing-exp': 'exercise.diagnosisMissingExp',
  'missing-scale': 'exercise.diagnosisMissingScale',
  'divided-by-dk': 'exercise.diagnosisDividedByDk',
  'transposed-k': 'exercise.diagnosisTransposedK',
  'softmax-axis': 'exercise.diagnosisSoftmaxAxis',
  'non-finite': 'exercise.diagnosisNonFinite',
  'out-of-range': 'exercise.diagnosisOutOfRange',
  below: 'exercise.saturateBelow',
  'smaller-passes': 'exercise.saturateSmallerPasses',
  passes: 'exercise.saturatePasses',
});

/** The exercises' ids, in the order of the lesson. */
export const EXERCISE_IDS = Object.freeze(['softmaxWeight', 'softmaxAxis', 'scale', 'saturate', 'stableMax']);

/** A typed number: a decimal point or comma, spaces around; NaN when it is not one. */
export function parseAnswer(text) {
  const t = String(text ?? '').trim().replace(/\s+/g, '').replace(',', '.').replace(/^−/, '-');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return NaN;
  return Number(t);
}

/**
 * Checks `answer` (the text typed or chosen) for exercise `id`. `results` are the saturation
 * results of the lesson's model (for 'saturate' only). Returns
 *   { status: 'empty' | 'invalid' | 'right' | 'wrong', expected, given, diagnosis (a code of
 *     testing.js's DIAGNOSES, or 'missing-exp', 'divided-by-dk', 'out-of-range', null), values }.
 */
export function checkExercise(engine, id, answer, results = null) {
  const exercise = EXERCISES[id];
  if (!exercise) throw new RangeError(`checkExercise: no exercise ${JSON.stringify(id)}`);
  const text = String(answer ?? '').trim();
  if (text === '') return { status: 'empty', expected: null, given: null, diagnosis: null, values: {} };
  if (exercise.kind === 'dk') return checkSaturate(results, text);

  const { expected, mistakes } = candidates(engine, id, exercise);
  const given = parseAnswer(text);
  if (Number.isNaN(given)) {
    // a calculator's overflow, typed as it showed it: the naive softmax overflows on these scores
    if (OVERFLOW_WORDS.test(text) && mistakes['non-finite']) return { status: 'wrong', expected, given: text, diagnosis: 'non-finite', values: {} };
    return { status: 'invalid', expected, given: text, diagnosis: null, values: {} };
  }
  if (Math.abs(given - expected) <= ANSWER_TOLERANCE) return { status: 'right', expected, given, diagnosis: null, values: {} };
  if (given < 0 || given > 1) return { status: 'wrong', expected, given, diagnosis: 'out-of-range', values: {} };
  for (const [diagnosis, value] of Object.entries(mistakes)) {
    if (typeof value === 'number' && Math.abs(given - value) <= ANSWER_TOLERANCE) return { status: 'wrong', expected, given, diagnosis, values: { value } };
  }
  return { status: 'wrong', expected, given, diagnosis: null, values: {} };
}

/**
 * The engine's answer to exercise `id`, as checkExercise compares with it: a weight, or for
 * 'saturate' a d_k of SWEEP_DIMS or 'none' (null without `results`, the saturation results).
 */
export function exerciseAnswer(engine, id, results = null) {
  const exercise = EXERCISES[id];
  if (!exercise) throw new RangeError(`exerciseAnswer: no exercise ${JSON.stringify(id)}`);
  if (exercise.kind === 'dk') return !results || results.empty ? null : saturateAnswer(results.trend(SATURATED));
  return candidates(engine, id, exercise).expected;
}

/**
 * The numbers of exercise `id`'s prompt, written in the language of `strings` (a decimal comma
 * in Norwegian: the components of a vector are then separated by "; "). `results`: the
 * saturation results, for 'saturate' (its row's word).
 */
export function promptParams(id, strings, results = null) {
  const s = strings;
  const separator = s.fixed(0.5, 1).includes(',') ? '; ' : ', ';
  const vector = (v) => `(${v.map((x) => s.fixed(x, 0)).join(separator)})`; // whole numbers, no grouping: 1000, not 1,000
  const e = EXERCISES[id];
  if (id === 'softmaxWeight' || id === 'stableMax') return { scores: vector(e.scores) };
  if (id === 'softmaxAxis') return { row1: vector(e.rows[0]), row2: vector(e.rows[1]) };
  if (id === 'scale') return { q: vector(e.q), k1: vector(e.k[0]), k2: vector(e.k[1]), d: String(e.q.length) };
  const r = results;
  const word = r && !r.empty && r.word !== null ? r.word : '';
  return { word: shortLabel(word), threshold: s.fixed(SATURATED, 1), draws: String(TREND_DRAWS) };
}

// The right answer and what each mistake gives, all from the engine (a mistake's own arithmetic,
// z_j / Σz for a forgotten exp, is the one computed here: the engine has no wrong softmax).
function candidates(engine, id, exercise) {
  if (id === 'softmaxWeight' || id === 'stableMax') {
    const { scores, key } = exercise;
    const z = Float32Array.from(scores);
    const naive = engine.softmaxNaive(z);
    return {
      expected: engine.softmax(z)[key],
      mistakes: { 'missing-exp': withoutExp(scores, key), 'non-finite': naive.overflowed ? true : null },
    };
  }
  if (id === 'softmaxAxis') {
    const { rows, query, key } = exercise;
    const column = Float32Array.from(rows, (row) => row[key]);
    return {
      expected: engine.softmax(Float32Array.from(rows[query]))[key],
      mistakes: { 'softmax-axis': engine.softmax(column)[query], 'missing-exp': withoutExp(rows[query], key) },
    };
  }
  if (id === 'scale') {
    const { q, k, key } = exercise;
    const d = q.length;
    const m = k.length;
    const input = { q: Float32Array.from(q), k: Float32Array.from(k.flat()), n: 1, m, d };
    const kT = Float32Array.from({ length: m * d }, (_, i) => k[i % d][Math.floor(i / d)]); // K's columns as rows
    const scaled = engine.attention(input);
    return {
      expected: scaled.weights[key],
      mistakes: {
        'missing-scale': engine.attention({ ...input, scale: 'none' }).weights[key],
        // q·k/d_k: the scaled scores divided once more by √d_k, as a temperature
        'divided-by-dk': engine.attention({ ...input, temperature: Math.sqrt(d) }).weights[key],
        'transposed-k': engine.attention({ ...input, k: kT }).weights[key],
        'missing-exp': withoutExp(Array.from(scaled.scores), key),
      },
    };
  }
  throw new RangeError(`checkExercise: no candidates for ${id}`);
}

function withoutExp(scores, key) {
  let sum = 0;
  for (const z of scores) sum += z;
  return scores[key] / sum;
}

// The smallest d_k of SWEEP_DIMS at which the sentence's rows (unscaled) put more than
// SATURATED on their largest key, on average over the rows and the core's TREND_DRAWS
// projections ('none' when no width up to 1024 does): each width draws new projections, so one
// draw's rows jump, and an answer read off one draw would test the draw, not the trend. The core
// averages and finds the width (saturationTrend's firstAbove).
function checkSaturate(results, text) {
  if (!results || results.empty) return { status: 'invalid', expected: null, given: text, diagnosis: null, values: {} };
  const trend = results.trend(SATURATED);
  const weightAt = (i) => trend.mean.maxWeight[i];
  const first = trend.firstAbove;
  const expected = saturateAnswer(trend);
  const given = text === 'none' ? 'none' : Number(text);
  if (given !== 'none' && !SWEEP_DIMS.includes(given)) return { status: 'invalid', expected, given: text, diagnosis: null, values: {} };
  const draws = trend.draws;
  if (given === expected) return { status: 'right', expected, given, diagnosis: null, values: { weight: first < 0 ? weightAt(SWEEP_DIMS.length - 1) : weightAt(first), draws } };
  if (given === 'none') return { status: 'wrong', expected, given, diagnosis: 'passes', values: { dk: expected, weight: weightAt(first), draws } };
  const i = SWEEP_DIMS.indexOf(given);
  const weight = weightAt(i);
  // below SATURATED at the guess: a larger d_k; above it: a smaller one passes too
  return { status: 'wrong', expected, given, diagnosis: weight > SATURATED ? 'smaller-passes' : 'below', values: { dk: given, weight, draws } };
}

// The saturation exercise's answer from the core's trend: its first width above SATURATED, or 'none'.
function saturateAnswer(trend) {
  return trend.firstAbove < 0 ? 'none' : SWEEP_DIMS[trend.firstAbove];
}
