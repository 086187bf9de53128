// The lesson's story in Node: the output instrument's results (model.output) against a float64
// reference written here, the predictions' measurements (web/lesson/story.js) against what the
// claims say independently of the code (Var(q·k) ≈ d_k; unscaled rows at d_k = 1024 near 1; a
// saturated row's gradient far smaller), and the exercises' checking (web/lesson/exercises.js)
// against softmax and each mistake written out in float64 here.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ANSWER_TOLERANCE, DIAGNOSIS_KEYS, EXERCISES, EXERCISE_IDS, SATURATED, checkExercise, parseAnswer } from '../../web/lesson/exercises.js';
import { SWEEP_DIMS } from '../../web/lesson/model.js';
import { MUCH_SMALLER, PREDICTIONS, SAME_WITHIN, STORY, gradientAnswer, measurePrediction } from '../../web/lesson/story.js';
import { fixed, fmt } from '../../web/i18n/format.js';
import { toMarkup } from '../../web/views/h.js';
import { SHOWN_COMPONENTS, outputView } from '../../web/views/output.js';
import { THEMES } from '../../web/views/theme.js';
import { DIAGNOSES } from '../../web/testing.js';
import en from '../../web/i18n/en.js';
import nb from '../../web/i18n/nb.js';
import { labFixture } from '../support/lab.mjs';
import { maxWeightTrend64, softmax64 } from '../support/reference.mjs';

const { engine, model, state } = await labFixture();

const WEIGHT_TOLERANCE = 2e-6; // float32 weights against float64
const OUTPUT_TOLERANCE = 2e-5; // a float32 sum of 10 terms of |v| ≲ 3

test('model.output: the selected row mixes the value rows, o = Σ_j p_j v_j, keys by weight', () => {
  for (const patch of [{}, { projection: 'random', dk: 64, selected: 3 }, { projection: 'random', dk: 1024, scaled: false, selected: 1 }]) {
    const s = state(patch);
    const r = model.output(s);
    assert.equal(r.row, s.selected);
    // the weights, from Q and K in float64
    const { q, k, m, d, dv } = s;
    const scale = s.scaled ? 1 / Math.sqrt(d) : 1;
    const z = Array.from({ length: m }, (_, j) => {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[r.row * d + c] * k[j * d + c];
      return (dot * scale) / s.temperature;
    });
    const p = softmax64(z);
    p.forEach((pj, j) => assert.ok(Math.abs(r.weights[j] - pj) < WEIGHT_TOLERANCE, `p_${j}`));
    // the output, as the weighted sum of the value rows (V = the word vectors)
    for (let c = 0; c < dv; c++) {
      let o = 0;
      for (let j = 0; j < m; j++) o += p[j] * s.x[j * dv + c];
      assert.ok(Math.abs(r.output[c] - o) < OUTPUT_TOLERANCE, `o[${c}]: ${r.output[c]} vs ${o}`);
    }
    for (let i = 1; i < m; i++) assert.ok(r.weights[r.order[i - 1]] >= r.weights[r.order[i]], 'keys by weight');
    assert.deepEqual([...r.order].sort((a, b) => a - b), Array.from({ length: m }, (_, j) => j));
  }
});

test('the output view shows the engine’s output row and the weights, keys by weight', () => {
  const s = state({ projection: 'random', dk: 64, selected: 1 });
  const r = model.output(s);
  const markup = toMarkup(outputView(r, {}, THEMES.light, { width: 900 }));
  const row = s.result.output.subarray(s.dv, 2 * s.dv); // query 2's output, as attention() returned it
  const foot = markup.slice(markup.indexOf('<tfoot'));
  for (let c = 0; c < SHOWN_COMPONENTS; c++) assert.ok(foot.includes(`>${fmt(row[c], 3)}<`), `o[${c}] = ${fmt(row[c], 3)}`);
  const weights = [...markup.matchAll(/data-k="weight">([^<]*)</g)].map((m) => m[1]);
  const largest = Array.from(s.result.weights.subarray(s.m, 2 * s.m)).sort((a, b) => b - a).slice(0, weights.length);
  assert.deepEqual(weights, largest.map((p) => fixed(p, 3)));
  assert.match(markup, /the lab’s W<sub>V<\/sub> is the identity/);
});

test('model.output: pasted vectors without V have nothing to mix', () => {
  const s = state();
  const noValues = { ...s, v: null, dv: 0, result: { ...s.result, output: null } };
  assert.equal(model.output(noValues).key, 'output.noValues');
});

test('the predictions measure what the claims say', () => {
  const s = state({ projection: 'random', dk: 64 });
  // a row of softmax is a distribution: no weight below 0, their sum 1
  const d = measurePrediction('distribution', model.step(s));
  assert.equal(d.answer, 'distribution');
  assert.ok(d.values.min > 0 && Math.abs(d.values.sum - 1) < 1e-6);
  assert.ok(d.values.low <= d.values.high);
  // Var(q·k) = d_k for independent N(0, 1) components: ×4 from 16 to 64, the scaled one ≈ 1
  const v = measurePrediction('variance', model.variance(s));
  assert.equal(v.answer, 'four');
  assert.ok(v.values.ratio > 3.3 && v.values.ratio < 4.8, `ratio ${v.values.ratio}`);
  assert.ok(Math.abs(v.values.from / 16 - 1) < 0.15 && Math.abs(v.values.to / 64 - 1) < 0.15);
  assert.ok(Math.abs(v.values.scaledFrom - 1) < 0.15 && Math.abs(v.values.scaledTo - 1) < 0.15);
  // unscaled at d_k = 1024 the demo sentence's rows are nearly one-hot; scaled they are not
  const sat = measurePrediction('saturation', model.saturation(s));
  assert.equal(sat.answer, 'one');
  assert.ok(sat.values.mean >= 0.8 && sat.values.scaled < 0.5, JSON.stringify(sat.values));
  assert.equal(sat.values.t, 10);
  // the most saturated row passes back at least 10× less gradient than the same row scaled
  const g = measurePrediction('gradient', model.gradient(s));
  assert.equal(g.answer, 'muchSmaller');
  assert.ok(g.values.factor >= 10 && g.values.maxUnscaled > 0.99, JSON.stringify(g.values));
  // every prediction's options, question and measurement are in both string tables
  for (const [id, prediction] of Object.entries(PREDICTIONS)) {
    for (const name of ['question', 'measured', ...prediction.options]) {
      const key = prediction.keys[name];
      assert.ok(key in en && key in nb, `${id} ${name}: ${key}`);
    }
    assert.ok(Object.values(STORY).some((part) => part.predict === id), `${id} has a section`);
  }
  assert.equal(measurePrediction('saturation', { empty: 'x' }), null);
  assert.throws(() => measurePrediction('nope', {}), RangeError);
});

test('the gradient prediction’s options cover every factor, at the bounds their words state', () => {
  // f = the spread row's gradient / the peaked row's; the options' words say "as large" (1/f)
  const cases = [[1e9, 'muchSmaller'], [MUCH_SMALLER, 'muchSmaller'], [9.99, 'smaller'], [SAME_WITHIN, 'smaller'], [1.99, 'same'], [1, 'same'],
    [1 / 1.99, 'same'], [1 / SAME_WITHIN, 'larger'], [1e-3, 'larger']];
  for (const [factor, answer] of cases) assert.equal(gradientAnswer(factor), answer, `f = ${factor}`);
  assert.deepEqual(PREDICTIONS.gradient.options, ['larger', 'same', 'smaller', 'muchSmaller']);
});

test('exercises: the right answers are softmax in float64, typed to 3 decimals', () => {
  const e = Math.E;
  const expected = {
    softmaxWeight: e / (e * e + e + 1), // softmax(2, 1, 0)₂
    softmaxAxis: softmax64([1, 2, 3])[2],
    // q = (1, 2), k₁ = (1, 1), k₂ = (2, 0): scores 3/√2 and 2/√2
    scale: softmax64([3 / Math.SQRT2, 2 / Math.SQRT2])[0],
    stableMax: 1 / (1 + Math.exp(-2) + Math.exp(-3)),
  };
  for (const [id, value] of Object.entries(expected)) {
    const typed = value.toFixed(3);
    const right = checkExercise(engine, id, typed);
    assert.equal(right.status, 'right', `${id} ${typed}`);
    assert.ok(Math.abs(right.expected - value) < WEIGHT_TOLERANCE, id);
    // cut instead of rounded, and with a decimal comma
    assert.equal(checkExercise(engine, id, (Math.floor(value * 1000) / 1000).toFixed(3).replace('.', ',')).status, 'right', `${id} comma`);
    assert.equal(checkExercise(engine, id, (value + 3 * ANSWER_TOLERANCE).toFixed(4)).status, 'wrong', `${id} off`);
  }
});

test('exercises: each usual mistake gets its diagnosis, the checker’s own code', () => {
  const mistakes = [
    ['softmaxWeight', 1 / 3, 'missing-exp'], // z₂ / Σz
    ['softmaxAxis', softmax64([3, 0])[0], 'softmax-axis'], // over the column of key 3
    ['softmaxAxis', 3 / 6, 'missing-exp'],
    ['scale', softmax64([3, 2])[0], 'missing-scale'],
    ['scale', softmax64([3 / 2, 2 / 2])[0], 'divided-by-dk'],
    ['scale', softmax64([5 / Math.SQRT2, 1 / Math.SQRT2])[0], 'transposed-k'], // q·(1, 2), q·(1, 0)
    ['scale', 3 / 5, 'missing-exp'],
    ['stableMax', 1000 / 2995, 'missing-exp'],
  ];
  for (const [id, value, diagnosis] of mistakes) {
    const result = checkExercise(engine, id, value.toFixed(3));
    assert.equal(result.status, 'wrong', `${id} ${value}`);
    assert.equal(result.diagnosis, diagnosis, `${id} ${value.toFixed(3)}`);
  }
  // a calculator's overflow: exp(1000) is ∞ in float64 too
  assert.equal(Math.exp(1000), Infinity);
  for (const typed of ['NaN', '∞', 'Infinity', 'Error']) assert.equal(checkExercise(engine, 'stableMax', typed).diagnosis, 'non-finite', typed);
  assert.equal(checkExercise(engine, 'softmaxWeight', 'NaN').status, 'invalid', 'no overflow on small scores');
  assert.equal(checkExercise(engine, 'softmaxWeight', '1.5').diagnosis, 'out-of-range');
  assert.equal(checkExercise(engine, 'softmaxWeight', '').status, 'empty');
  assert.equal(checkExercise(engine, 'softmaxWeight', 'two').status, 'invalid');
  // the codes are attention-lab/testing's, and every one has its words in both languages
  for (const code of ['missing-exp', 'missing-scale', 'divided-by-dk', 'transposed-k', 'softmax-axis', 'non-finite']) {
    assert.ok(code in DIAGNOSES, `${code} is a diagnosis of the checker`);
    assert.ok(DIAGNOSIS_KEYS[code] in en && DIAGNOSIS_KEYS[code] in nb, code);
  }
  for (const id of EXERCISE_IDS) {
    assert.ok(Object.values(STORY).some((part) => part.exercises.includes(id)), `${id} has a section`);
    for (const key of [EXERCISES[id].prompt, EXERCISES[id].hint ?? EXERCISES[id].prompt]) assert.ok(key in en && key in nb, `${id}: ${key}`);
  }
  assert.deepEqual(Object.keys(EXERCISES).sort(), [...EXERCISE_IDS].sort());
});

test('exercises: the saturation exercise checks the trend — the mean over rows and projections — not one draw', () => {
  const s = state({ projection: 'random', dk: 64, scaled: false, selected: 1 });
  const r = model.saturation(s);
  const trend = r.trend(SATURATED);
  assert.ok(trend.draws >= 16, `${trend.draws} projections`);
  const means = maxWeightTrend64(engine, s, trend.draws, SWEEP_DIMS);
  means.forEach((m, i) => assert.ok(Math.abs(m - trend.mean.maxWeight[i]) < 1e-5, `d_k ${SWEEP_DIMS[i]}: ${m} against ${trend.mean.maxWeight[i]}`));
  const first = means.findIndex((m) => m > SATURATED);
  assert.ok(first > 0, `the rows pass ${SATURATED} on average at some d_k above 1: ${means.map((w) => w.toFixed(3))}`);
  const right = checkExercise(engine, 'saturate', String(SWEEP_DIMS[first]), r);
  assert.equal(right.status, 'right');
  assert.ok(Math.abs(right.values.weight - means[first]) < 1e-5);
  const below = checkExercise(engine, 'saturate', String(SWEEP_DIMS[first - 1]), r);
  assert.deepEqual([below.status, below.diagnosis], ['wrong', 'below']);
  assert.ok(below.values.weight <= SATURATED);
  assert.equal(checkExercise(engine, 'saturate', String(SWEEP_DIMS[first + 1]), r).diagnosis, 'smaller-passes');
  assert.equal(checkExercise(engine, 'saturate', 'none', r).diagnosis, 'passes');
  assert.equal(checkExercise(engine, 'saturate', '3', r).status, 'invalid');
});

test('exercises: over sentences and seeds, the accepted d_k follows the trend and hardly moves with the draw', () => {
  const SENTENCES = ['The cat sat on the mat because it was tired', 'a dog ran after the red ball in the park', 'I do not think so'];
  const SEEDS = [1, 2, 3, 4];
  for (const sentence of SENTENCES) {
    const answers = [];
    const single = []; // what one draw (the saturation plot's line) would have said
    for (const seed of SEEDS) {
      const s = state({ sentence, projection: 'random', dk: 64, scaled: false, seed });
      const r = model.saturation(s);
      const accepted = SWEEP_DIMS.filter((dk) => checkExercise(engine, 'saturate', String(dk), r).status === 'right');
      assert.equal(accepted.length, 1, `${sentence}, seed ${seed}: one accepted d_k`);
      const means = maxWeightTrend64(engine, s, r.trend(SATURATED).draws, SWEEP_DIMS);
      const i = SWEEP_DIMS.indexOf(accepted[0]);
      const where = `“${sentence}”, seed ${seed}: ${means.map((m) => m.toFixed(3))}`;
      // the trend: below the threshold at every smaller d_k, above it at this one and every larger one
      assert.ok(means.slice(0, i).every((m) => m <= SATURATED), `${where}: below at every smaller d_k`);
      assert.ok(means.slice(i).every((m) => m > SATURATED), `${where}: above from ${SWEEP_DIMS[i]} on`);
      answers.push(i);
      single.push(Array.from(r.unscaled.mean.maxWeight).findIndex((m) => m > SATURATED));
    }
    // another seed draws other projections, and the accepted d_k stays within one stop
    assert.ok(Math.max(...answers) - Math.min(...answers) <= 1, `“${sentence}”: accepted ${answers.map((i) => SWEEP_DIMS[i])} (one draw: ${single.map((i) => SWEEP_DIMS[i])})`);
  }
});

test('parseAnswer reads a typed number, point or comma, and nothing else', () => {
  assert.equal(parseAnswer(' 0,245 '), 0.245);
  assert.equal(parseAnswer('.5'), 0.5);
  assert.equal(parseAnswer('−0.2'), -0.2);
  assert.equal(parseAnswer('2.5e-1'), 0.25);
  for (const text of ['', 'abc', '1/3', '0.2.3', 'Infinity', '0x10']) assert.ok(Number.isNaN(parseAnswer(text)), text);
});
