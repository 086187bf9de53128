// The teacher's page's data and answer key (web/lesson/teaching.js): the plans add up to the
// minutes their titles state, every step and key is the lesson's, and the key's answers, at the
// lesson page's first state, equal float64 computations written here from the formulas — softmax
// of each exercise's scores, the saturation trend from the engine's projections — and what the
// lesson's claims say of the predictions.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { EXERCISES, SATURATED } from '../../web/lesson/exercises.js';
import { SWEEP_DIMS } from '../../web/lesson/model.js';
import { PREDICTIONS, STORY } from '../../web/lesson/story.js';
import { QUIZ, QUIZ_IDS } from '../../web/lesson/quiz.js';
import { LESSON_STEPS } from '../../web/lesson/steps.js';
import { GOALS, PITFALLS, PLANS, PREDICTION_RULES, WORKSHEET, answerKey } from '../../web/lesson/teaching.js';
import en from '../../web/i18n/en.js';
import nb from '../../web/i18n/nb.js';
import { labFixture } from '../support/lab.mjs';
import { maxWeightTrend64, softmax64 } from '../support/reference.mjs';

const { engine, model, state } = await labFixture();
// the lesson page's first state (web/lesson.js, web/teacher.js): the lab's defaults on Random
const lessonState = () => state({ projection: 'random' });

const WEIGHT_TOLERANCE = 2e-6; // float32 weights against float64

test('each plan’s minutes add up to its length; its steps are the lesson’s, in the lesson’s order', () => {
  assert.deepEqual(Object.fromEntries(Object.entries(PLANS).map(([name, plan]) => [name, plan.minutes])), { full: 45, short: 20 });
  for (const [name, plan] of Object.entries(PLANS)) {
    assert.equal(plan.rows.reduce((sum, row) => sum + row.minutes, 0), plan.minutes, name);
    const order = plan.rows.map((row) => LESSON_STEPS.indexOf(row.part));
    assert.ok(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1])), `${name}: ${plan.rows.map((row) => row.part)}`);
  }
  assert.deepEqual(PLANS.full.rows.map((row) => row.part), LESSON_STEPS, 'the full plan takes every step');
  assert.deepEqual(LESSON_STEPS, [...Object.keys(STORY), 'quiz']);
});

test('every goal, plan row, pitfall and rule has its words in both tables', () => {
  const keys = [
    ...GOALS,
    ...Object.values(PLANS).flatMap((plan) => plan.rows.map((row) => row.does)),
    ...Object.values(PITFALLS).flat().flatMap(({ wrong, ask }) => [wrong, ask]),
    ...Object.values(PREDICTION_RULES),
  ];
  for (const key of keys) assert.ok(key in en && key in nb, key);
  assert.ok(GOALS.length >= 4 && GOALS.length <= 6);
  assert.deepEqual(Object.keys(PITFALLS), LESSON_STEPS);
  for (const part of LESSON_STEPS.filter((p) => p !== 'quiz')) assert.ok(PITFALLS[part].length >= 1 && PITFALLS[part].length <= 2, part);
  assert.deepEqual(Object.keys(PREDICTION_RULES).sort(), Object.keys(PREDICTIONS).sort());
});

test('the worksheet asks every prediction and exercise once, in the lesson’s order', () => {
  const expected = Object.entries(STORY).flatMap(([part, s]) => [...(s.predict ? [`predict:${s.predict}:${part}`] : []), ...s.exercises.map((id) => `exercise:${id}:${part}`)]);
  assert.deepEqual(WORKSHEET.map(({ kind, id, part }) => `${kind}:${id}:${part}`), expected);
  assert.deepEqual(WORKSHEET.filter((q) => q.kind === 'predict').map((q) => q.id).sort(), Object.keys(PREDICTIONS).sort());
  assert.deepEqual(WORKSHEET.filter((q) => q.kind === 'exercise').map((q) => q.id).sort(), Object.keys(EXERCISES).sort());
});

// The saturation exercise's answer apart from the core's trend: for each width, every row's
// largest weight in float64 from the projections of heads 0 … draws − 1, averaged over draws and rows.
function saturationReference(s, draws) {
  const means = maxWeightTrend64(engine, s, draws, SWEEP_DIMS);
  const first = means.findIndex((m) => m > SATURATED);
  return first < 0 ? 'none' : SWEEP_DIMS[first];
}

test('the key’s exercise answers are float64 softmax of their scores; the saturation d_k the float64 trend', () => {
  const s = lessonState();
  const key = answerKey(engine, model, s);
  const answer = (id) => key.items.find((item) => item.kind === 'exercise' && item.id === id).answer;
  const e = EXERCISES;
  const [q, [k1, k2]] = [e.scale.q, e.scale.k];
  const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
  const expected = {
    softmaxWeight: softmax64(e.softmaxWeight.scores)[e.softmaxWeight.key],
    softmaxAxis: softmax64(e.softmaxAxis.rows[e.softmaxAxis.query])[e.softmaxAxis.key],
    scale: softmax64([dot(q, k1) / Math.sqrt(q.length), dot(q, k2) / Math.sqrt(q.length)])[e.scale.key],
    // the row's max subtracted by hand: exp(1000) overflows float64 too
    stableMax: softmax64(e.stableMax.scores.map((z) => z - 1000))[e.stableMax.key],
  };
  for (const [id, value] of Object.entries(expected)) assert.ok(Math.abs(answer(id) - value) < WEIGHT_TOLERANCE, `${id}: ${answer(id)} against ${value}`);
  const draws = model.saturation(s).trend(SATURATED).draws;
  assert.equal(answer('saturate'), saturationReference(s, draws));
});

test('the key’s predictions are what the lesson’s claims say at its first state; the quiz’s are the right options', () => {
  const key = answerKey(engine, model, lessonState());
  const predictions = Object.fromEntries(key.items.filter((item) => item.kind === 'predict').map((item) => [item.id, item.answer]));
  // a row of softmax is a distribution; Var(q·k) ∝ d_k: ×4 from 16 to 64; unscaled at 1024 rows
  // nearly one-hot; the most peaked row passes back at least 10× less gradient
  assert.deepEqual(predictions, { distribution: 'distribution', variance: 'four', saturation: 'one', gradient: 'muchSmaller' });
  assert.deepEqual(key.quiz.map((item) => item.id), QUIZ_IDS);
  for (const { id, answer } of key.quiz) assert.equal(answer, QUIZ[id].answer);
});

test('the key says null where the state gives an instrument nothing to measure', () => {
  const key = answerKey(engine, model, state({ projection: 'random', sentence: 'cat' }));
  const saturate = key.items.find((item) => item.id === 'saturate');
  assert.equal(saturate.answer, null);
  assert.equal(key.items.find((item) => item.id === 'softmaxWeight').answer > 0, true);
});
