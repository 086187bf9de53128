// The teacher's page (web/teacher.html): the lesson's goals, two plans, where learners go wrong,
// and the answer key. Here the plans and the pitfalls as data (keys of the string tables, by the
// lesson's parts: those of web/lesson/story.js and 'quiz'), and `answerKey`, which measures each
// prediction's answer and computes each exercise's with the lesson's own code — the page states
// no number of its own. No DOM: the same code runs in a page and in Node.
import { LESSON_DEFAULTS } from './model.js';
import { EXERCISES, exerciseAnswer } from './exercises.js';
import { QUIZ, QUIZ_IDS } from './quiz.js';
import { PREDICTIONS, STORY, measurePrediction } from './story.js';

/** What a learner can do after the lesson: keys of the string tables. */
export const GOALS = Object.freeze(['teacher.goal1', 'teacher.goal2', 'teacher.goal3', 'teacher.goal4', 'teacher.goal5', 'teacher.goal6']);

/**
 * Two plans: for each, its length and its rows in class order — a part of the lesson, its
 * minutes (they add up to the length: a test holds them) and the key of what the class does.
 */
export const PLANS = Object.freeze({
  full: {
    minutes: 45,
    rows: [
      { part: 'step', minutes: 8, does: 'teacher.fullStep' },
      { part: 'output', minutes: 4, does: 'teacher.fullOutput' },
      { part: 'heads', minutes: 3, does: 'teacher.fullHeads' },
      { part: 'variance', minutes: 7, does: 'teacher.fullVariance' },
      { part: 'saturation', minutes: 7, does: 'teacher.fullSaturation' },
      { part: 'gradient', minutes: 8, does: 'teacher.fullGradient' },
      { part: 'overflow', minutes: 4, does: 'teacher.fullOverflow' },
      { part: 'quiz', minutes: 4, does: 'teacher.fullQuiz' },
    ],
  },
  short: {
    minutes: 20,
    rows: [
      { part: 'step', minutes: 5, does: 'teacher.shortStep' },
      { part: 'variance', minutes: 4, does: 'teacher.shortVariance' },
      { part: 'saturation', minutes: 4, does: 'teacher.shortSaturation' },
      { part: 'gradient', minutes: 4, does: 'teacher.shortGradient' },
      { part: 'quiz', minutes: 3, does: 'teacher.shortQuiz' },
    ],
  },
});

/** Where learners go wrong, by part: what they think (wrong) and what to ask them (ask). */
export const PITFALLS = Object.freeze({
  step: [
    { wrong: 'teacher.wrongNegative', ask: 'teacher.askNegative' },
    { wrong: 'teacher.wrongAxis', ask: 'teacher.askAxis' },
  ],
  output: [{ wrong: 'teacher.wrongMadeOf', ask: 'teacher.askMadeOf' }],
  heads: [{ wrong: 'teacher.wrongHeadsMeaning', ask: 'teacher.askHeadsMeaning' }],
  variance: [
    { wrong: 'teacher.wrongLonger', ask: 'teacher.askLonger' },
    { wrong: 'teacher.wrongAnyConstant', ask: 'teacher.askAnyConstant' },
  ],
  saturation: [{ wrong: 'teacher.wrongForever', ask: 'teacher.askForever' }],
  gradient: [
    { wrong: 'teacher.wrongStalls', ask: 'teacher.askStalls' },
    { wrong: 'teacher.wrongConfident', ask: 'teacher.askConfident' },
  ],
  overflow: [{ wrong: 'teacher.wrongMaxChanges', ask: 'teacher.askMaxChanges' }],
  quiz: [],
});

/** What makes each prediction's answer right, in words that hold for any sentence: keys. */
export const PREDICTION_RULES = Object.freeze({
  distribution: 'teacher.ruleDistribution',
  variance: 'teacher.ruleVariance',
  saturation: 'teacher.ruleSaturation',
  gradient: 'teacher.ruleGradient',
});

/**
 * The questions of the worksheet, in the lesson's order and numbered as the key numbers them:
 * before each part its prediction, after it its exercises — [{ kind: 'predict' | 'exercise', id, part }].
 */
export const WORKSHEET = Object.freeze(
  Object.entries(STORY).flatMap(([part, { predict, exercises }]) => [
    ...(predict ? [{ kind: 'predict', id: predict, part }] : []),
    ...exercises.map((id) => ({ kind: 'exercise', id, part })),
  ]).map(Object.freeze),
);

/**
 * The answer key for the lab state `state` (the lesson's sentence and settings): { items: the
 * WORKSHEET's questions, each with its answer, quiz: [{ id, answer }] }. A prediction's answer is
 * an option of PREDICTIONS, measured by the lesson's model as the lesson measures it; an
 * exercise's is the engine's (exerciseAnswer: a weight, a d_k or 'none'). null where the state
 * gives the instrument nothing to measure.
 */
export function answerKey(engine, model, state) {
  const results = (part) => model[part](state, LESSON_DEFAULTS);
  const answer = ({ kind, id }) =>
    kind === 'predict'
      ? measurePrediction(id, results(PREDICTIONS[id].part))?.answer ?? null
      : exerciseAnswer(engine, id, EXERCISES[id].kind === 'dk' ? results('saturation') : null);
  return {
    items: WORKSHEET.map((item) => ({ ...item, answer: answer(item) })),
    quiz: QUIZ_IDS.map((id) => ({ id, answer: QUIZ[id].answer })),
  };
}
