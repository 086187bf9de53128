// The closing quiz: conceptual questions on the lesson's argument (not its arithmetic), each a
// choice of options with one right, and feedback that says why. Here, each question's options in
// the order shown, the right one, and the keys of its words in the string tables (question, why,
// one per option). No DOM: the same code runs in a page and in Node.

/** The questions, in the order of the quiz. */
export const QUIZ = Object.freeze({
  // why the variance of q·k grows with d_k
  variance: {
    options: ['sum', 'longer', 'softmax'], answer: 'sum',
    keys: { question: 'quiz.varianceQuestion', why: 'quiz.varianceWhy', sum: 'quiz.varianceSum', longer: 'quiz.varianceLonger', softmax: 'quiz.varianceSoftmax' },
  },
  // why √d_k and not d_k
  root: {
    options: ['spread', 'larger', 'cheaper', 'either'], answer: 'spread',
    keys: { question: 'quiz.rootQuestion', why: 'quiz.rootWhy', spread: 'quiz.rootSpread', larger: 'quiz.rootLarger', cheaper: 'quiz.rootCheaper', either: 'quiz.rootEither' },
  },
  // what a saturated row does to learning
  saturated: {
    options: ['vanishes', 'faster', 'nothing'], answer: 'vanishes',
    keys: { question: 'quiz.saturatedQuestion', why: 'quiz.saturatedWhy', vanishes: 'quiz.saturatedVanishes', faster: 'quiz.saturatedFaster', nothing: 'quiz.saturatedNothing' },
  },
  // what √d_k is as a temperature
  temperature: {
    options: ['same', 'learned', 'threshold'], answer: 'same',
    keys: { question: 'quiz.temperatureQuestion', why: 'quiz.temperatureWhy', same: 'quiz.temperatureSame', learned: 'quiz.temperatureLearned', threshold: 'quiz.temperatureThreshold' },
  },
  // what a row of weights is and is not evidence of
  evidence: {
    options: ['mixing', 'cause', 'meaning'], answer: 'mixing',
    keys: { question: 'quiz.evidenceQuestion', why: 'quiz.evidenceWhy', mixing: 'quiz.evidenceMixing', cause: 'quiz.evidenceCause', meaning: 'quiz.evidenceMeaning' },
  },
  // what the output is
  output: {
    options: ['average', 'largest', 'row'], answer: 'average',
    keys: { question: 'quiz.outputQuestion', why: 'quiz.outputWhy', average: 'quiz.outputAverage', largest: 'quiz.outputLargest', row: 'quiz.outputRow' },
  },
});

/** The quiz's question ids, in order. */
export const QUIZ_IDS = Object.freeze(Object.keys(QUIZ));

/** Whether `choice` answers question `id` rightly; throws on an unknown question. */
export function checkQuiz(id, choice) {
  const question = QUIZ[id];
  if (!question) throw new RangeError(`checkQuiz: no question ${JSON.stringify(id)}`);
  return choice === question.answer;
}
