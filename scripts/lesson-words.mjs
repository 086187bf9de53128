// Prints how many words of prose a reader meets on the main path of index.html and lesson.html,
// in English and Norwegian Bokmål:
//   node scripts/lesson-words.mjs            both pages, both languages
//   node scripts/lesson-words.mjs --keys     and the count of every message, largest first
//
// What it counts: the messages of the string tables (web/i18n/en.js, nb.js) that the page shows
// as sentences, headings and notes with its default settings, in page order (PAGES below): a
// message's tags are dropped, a placeholder ({word}, {share}) counts as one word, a plural
// message counts its `other` form; a word is a run of letters or digits (so "q·k", "√d_k" and
// "0.438" are one word each). Where the page shows one of several messages (the head's name,
// the prediction's feedback), the longest is counted. Not counted: the labels of buttons,
// sliders and chart axes, the numbers of tables and charts, the messages of errors, and what
// the reader opens as an aside (ASIDES: not on the main path). A message listed here that a
// table lacks stops the script, so the list cannot drift from the tables silently.
import en from '../web/i18n/en.js';
import nb from '../web/i18n/nb.js';

// The lesson's story, in the order of its sections (web/components/lesson/attention-lesson.js);
// a list of keys in [] is "one of these" (the longest counts).
const STORY = [
  // 1. one query's row, step by step
  'story.headingStep', 'story.leadStep',
  'predict.distributionQuestion', 'predict.distributionNegative', 'predict.distributionDistribution', 'predict.distributionCount',
  'predict.distributionMeasured',
  'step.explain', 'step.row', 'step.stats', 'step.notePositive',
  'exercise.softmaxWeightPrompt', 'exercise.softmaxWeightHint', 'exercise.softmaxAxisPrompt', 'exercise.softmaxAxisHint',
  // 2. the output
  'story.headingOutput', 'story.leadOutput', 'output.explain', 'output.madeOf', 'output.valuesWords',
  // 3. several heads
  'story.headingHeads', 'story.leadHeads', 'story.asideHeads', 'heads.explain', 'heads.note', 'heads.concatNote', 'heads.caveat',
  // 4. the variance of q·k
  'story.headingVariance', 'story.leadVariance',
  'predict.varianceQuestion', 'predict.varianceSame', 'predict.varianceDouble', 'predict.varianceFour', 'predict.varianceSixteen',
  'predict.varianceMeasured',
  'variance.explain', 'variance.axisNote', 'variance.noteSentence',
  'exercise.scalePrompt', 'exercise.scaleHint',
  // 5. saturated rows
  'story.headingSaturation', 'story.leadSaturation',
  'predict.saturationQuestion', 'predict.saturationFlat', 'predict.saturationHalf', 'predict.saturationOne', 'predict.saturationMeasured',
  'saturation.explain', 'saturation.summary', 'saturation.untrained', 'saturation.row', 'saturation.lab',
  'exercise.saturatePrompt', ['exercise.saturateRight', 'exercise.saturateBelow', 'exercise.saturateSmallerPasses'],
  // 6. their gradient
  'story.headingGradient', 'story.leadGradient',
  'predict.gradientQuestion', 'predict.gradientLarger', 'predict.gradientSame', 'predict.gradientSmaller', 'predict.gradientMuchSmaller',
  'predict.gradientMeasured',
  'gradient.explain', 'gradient.identityRow', 'gradient.normNote', 'gradient.measured',
  // 7. √d_k as a temperature, then the max subtraction
  'story.headingOverflow', 'story.leadOverflow', 'story.scalingTemperature', 'story.scalingNow',
  'story.asideOverflow', 'overflow.explain', 'overflow.note', 'exercise.stableMaxPrompt', 'exercise.stableMaxHint',
];

// The training experiment's words (web/components/lesson/training-experiment.js).
const TRAINING = [
  'page.trainingTitle', 'training.intro', 'training.task', 'training.hint',
  'training.presetDefaultNote', 'training.presetSmallDkNote', 'training.presetPlainSgdNote', 'training.presetSmallInitNote',
  'training.presetUnstableNote', 'training.presetMatchedInitNote', 'training.legendNote', 'training.heatmapNote',
  'training.lookFor', 'training.lookForText', 'training.disappears', 'training.disappearsText',
  'training.larger', 'training.largerText', 'training.reparam', 'training.reparamText',
];

// The trained model (web/views/model.js), one head opened.
const MODEL = [
  'page.modelTitle', 'page.modelIntro', 'modelView.caveatTitle', 'modelView.caveat', 'modelView.intro', 'modelView.allKnown',
  'modelView.measured', ['modelView.meansPrevious', 'modelView.meansFirst', 'modelView.meansSelf', 'modelView.meansBroad', 'modelView.meansMixed'],
  'modelView.hereEven', 'modelView.heatmapNote', 'modelView.nextAside', 'modelView.nextExplain', 'modelView.nextStats',
  'modelView.scaleAside', 'modelView.scaleRemovedWould', 'modelView.twinCompare', 'modelView.layerSpread',
  'modelView.curveSummary', 'modelView.curveNote',
  'modelView.inductionTitle', 'modelView.inductionExplain', 'modelView.inductionHere',
  'modelView.notShownTitle', 'modelView.notShown1', 'modelView.notShown2',
];

/** Each page's main path, in page order. */
export const PAGES = {
  'index.html': [
    'page.introHtml',
    // the lab's own words (web/components/lab/)
    'lab.tokensHint', 'lab.weightsHint', 'lab.identityNote', 'lab.barsHintRow', 'lab.caveat', 'lab.probe', 'lab.probeHint',
    'page.tryHtml',
    'story.titleHtml', 'page.whyIntroHtml',
    ...STORY,
    ...TRAINING,
    ...MODEL,
    'page.footer',
  ],
  'lesson.html': [
    'lessonPage.headingHtml', 'lessonPage.lede', 'lessonPage.caveat',
    ...STORY,
    ...TRAINING,
    ...MODEL,
    'lessonPage.fullLabHtml', 'lessonPage.credits',
  ],
};

/** What a learner opens to read, off the main path (a <details>, its summary counted): not counted. */
export const ASIDES = new Set([
  'lab.probeHint', // the lab's probe
  'heads.explain', 'heads.note', 'heads.concatNote', 'heads.caveat', // several heads
  'overflow.explain', 'overflow.note', 'exercise.stableMaxPrompt', 'exercise.stableMaxHint', // the max subtraction
  'training.lookForText', 'training.disappearsText', 'training.largerText', 'training.reparamText', // the training's reading
  'modelView.caveat', 'modelView.notShown1', 'modelView.notShown2', // the trained model's notes
  'modelView.nextExplain', 'modelView.nextStats', // the trained model's next word
  'modelView.scaleRemovedWould', 'modelView.twinCompare', 'modelView.layerSpread', 'modelView.curveSummary', 'modelView.curveNote', // and without √d_k
]);

/** The words of one message: tags dropped, a placeholder one word. */
export function wordsOf(message) {
  const text = typeof message === 'string' ? message : message.other;
  const plain = text.replace(/<[^>]+>/g, '').replace(/\{\w+\}/g, ' x ').replace(/&[a-z]+;/g, ' ');
  // a word: letters or digits, joined by what joins a formula or a number (q·k, √d_k, 0.438, don’t)
  return plain.match(/[\p{L}\p{N}√][\p{L}\p{N}·_.,’'−\-/√]*/gu)?.length ?? 0;
}

/** { page: { words, keys: [[key, words]] } } for one table. */
export function count(table) {
  const out = {};
  for (const [page, list] of Object.entries(PAGES)) {
    const keys = [];
    for (const entry of list) {
      const choices = Array.isArray(entry) ? entry : [entry];
      for (const key of choices) if (!(key in table)) throw new Error(`${page}: ${key} is not a message of the table`);
      if (choices.some((key) => ASIDES.has(key))) continue;
      const [key, words] = choices.map((k) => [k, wordsOf(table[k])]).sort((a, b) => b[1] - a[1])[0];
      keys.push([key, words]);
    }
    out[page] = { words: keys.reduce((sum, [, w]) => sum + w, 0), keys };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const detail = process.argv.includes('--keys');
  for (const [lang, table] of [['en', en], ['nb', nb]]) {
    const counted = count(table);
    for (const [page, { words, keys }] of Object.entries(counted)) {
      console.log(`${page} ${lang}: ${words} words on the main path (${keys.length} messages)`);
      if (detail) for (const [key, w] of [...keys].sort((a, b) => b[1] - a[1])) console.log(`  ${String(w).padStart(5)}  ${key}`);
    }
  }
}
