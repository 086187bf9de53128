// The lesson's story: before four of its steps the learner predicts, then the instrument
// shows the measured answer. Each prediction names the part of the lesson whose results
// (web/lesson/model.js) measure it, its options,
// the keys of its words (keys: question, measured, and one per option) and `measure(results)`: which option the measurement makes right, and the measured numbers
// the feedback states — every one read from the instrument's own results. No DOM, nothing
// stored: the same code runs in a page and in Node.
import { SWEEP_DIMS } from './model.js';

/** The widths of the variance prediction: d_k from FROM to TO. */
export const VARIANCE_FROM = 16;
export const VARIANCE_TO = 64;
/** The width of the saturation and gradient predictions (the sweeps' widest). */
export const WIDE_DK = 1024;
/** A row's largest weight at or above this counts as "close to 1" (one key takes nearly all). */
export const NEAR_ONE = 0.8;
/** A row whose weights sum to 1 within this is a distribution (float32 sums: ~1e-7). */
export const SUM_TOLERANCE = 1e-4;
/**
 * The bounds of the gradient prediction's options, as factors f = (scaled row's gradient) /
 * (unscaled row's): "much smaller" from MUCH_SMALLER on, "smaller" from SAME_WITHIN to
 * MUCH_SMALLER, "about the same" strictly within SAME_WITHIN either way, "larger" from
 * 1/SAME_WITHIN down. The options' words state these bounds (a test holds them to these).
 */
export const MUCH_SMALLER = 10;
export const SAME_WITHIN = 2;

const at = (dk) => SWEEP_DIMS.indexOf(dk);

/** The four predictions, in the order of the lesson. */
export const PREDICTIONS = Object.freeze({
  distribution: {
    part: 'step',
    options: ['negative', 'distribution', 'count'],
    keys: { question: 'predict.distributionQuestion', measured: 'predict.distributionMeasured', negative: 'predict.distributionNegative', distribution: 'predict.distributionDistribution', count: 'predict.distributionCount' },
    measure(r) {
      const { trace } = r;
      let low = Infinity;
      let high = -Infinity;
      for (let j = 0; j < trace.visible; j++) {
        low = Math.min(low, trace.scores[j]);
        high = Math.max(high, trace.scores[j]);
      }
      const distribution = trace.minWeight >= 0 && Math.abs(trace.weightSum - 1) <= SUM_TOLERANCE;
      return {
        answer: distribution ? 'distribution' : trace.minWeight < 0 ? 'negative' : 'count',
        values: { low, high, min: trace.minWeight, sum: trace.weightSum, row: r.row },
      };
    },
  },
  variance: {
    part: 'variance',
    options: ['same', 'double', 'four', 'sixteen'],
    keys: { question: 'predict.varianceQuestion', measured: 'predict.varianceMeasured', same: 'predict.varianceSame', double: 'predict.varianceDouble', four: 'predict.varianceFour', sixteen: 'predict.varianceSixteen' },
    measure(r) {
      const { unscaled, scaled } = r.curve;
      const from = unscaled[at(VARIANCE_FROM)];
      const to = unscaled[at(VARIANCE_TO)];
      const ratio = to / from;
      // the option nearest the measured ratio, on a log scale
      const factors = { same: 1, double: 2, four: 4, sixteen: 16 };
      let answer = 'same';
      for (const [name, f] of Object.entries(factors)) if (Math.abs(Math.log(ratio / f)) < Math.abs(Math.log(ratio / factors[answer]))) answer = name;
      return { answer, values: { from, to, ratio, scaledFrom: scaled[at(VARIANCE_FROM)], scaledTo: scaled[at(VARIANCE_TO)], samples: r.samples } };
    },
  },
  saturation: {
    part: 'saturation',
    options: ['flat', 'half', 'one'],
    keys: { question: 'predict.saturationQuestion', measured: 'predict.saturationMeasured', flat: 'predict.saturationFlat', half: 'predict.saturationHalf', one: 'predict.saturationOne' },
    measure(r) {
      const i = at(WIDE_DK);
      const mean = r.unscaled.mean.maxWeight[i];
      const answer = mean >= NEAR_ONE ? 'one' : mean <= 1.5 / r.t ? 'flat' : 'half';
      return {
        answer,
        values: { mean, scaled: r.scaled.mean.maxWeight[i], peaked: r.unscaled.peakedCount[i], t: r.t, uniform: 1 / r.t },
      };
    },
  },
  gradient: {
    part: 'gradient',
    options: ['larger', 'same', 'smaller', 'muchSmaller'],
    keys: {
      question: 'predict.gradientQuestion',
      measured: 'predict.gradientMeasured',
      larger: 'predict.gradientLarger',
      same: 'predict.gradientSame',
      smaller: 'predict.gradientSmaller',
      muchSmaller: 'predict.gradientMuchSmaller',
    },
    measure(r) {
      // the sentence's most saturated row unscaled at the widest d_k, against the same row scaled
      const i = at(WIDE_DK);
      const { t } = r;
      const { unscaled, scaled } = r.sweeps;
      let row = 0;
      for (let j = 1; j < t; j++) if (unscaled.maxWeight[i * t + j] > unscaled.maxWeight[i * t + row]) row = j;
      const gUnscaled = unscaled.gradNorm[i * t + row];
      const gScaled = scaled.gradNorm[i * t + row];
      const factor = gScaled / gUnscaled;
      const answer = gradientAnswer(factor);
      return {
        answer,
        values: {
          row,
          word: r.keyLabels?.[row] ?? '',
          maxUnscaled: unscaled.maxWeight[i * t + row],
          maxScaled: scaled.maxWeight[i * t + row],
          gUnscaled,
          gScaled,
          factor,
          meanUnscaled: unscaled.mean.gradNorm[i],
          meanScaled: scaled.mean.gradNorm[i],
        },
      };
    },
  },
});

/** The gradient prediction's option for a factor f = scaled gradient / unscaled gradient. */
export function gradientAnswer(factor) {
  if (factor >= MUCH_SMALLER) return 'muchSmaller';
  if (factor >= SAME_WITHIN) return 'smaller';
  if (factor > 1 / SAME_WITHIN) return 'same';
  return 'larger';
}

/**
 * What a prediction's results say, or null when they cannot say it (an instrument's empty
 * results: too few words, pasted vectors, a sweep not computed).
 */
export function measurePrediction(id, results) {
  const prediction = PREDICTIONS[id];
  if (!prediction) throw new RangeError(`measurePrediction: no prediction ${JSON.stringify(id)}`);
  if (!results || results.empty) return null;
  if (id === 'gradient' && !results.sweeps) return null;
  return prediction.measure(results);
}

/**
 * The story's additions to each section of the lesson, by part: the prediction made before its
 * instrument and the exercises after it (ids of web/lesson/exercises.js).
 */
export const STORY = Object.freeze({
  step: { predict: 'distribution', exercises: ['softmaxWeight', 'softmaxAxis'] },
  output: { predict: null, exercises: [] },
  heads: { predict: null, exercises: [] },
  variance: { predict: 'variance', exercises: ['scale'] },
  saturation: { predict: 'saturation', exercises: ['saturate'] },
  gradient: { predict: 'gradient', exercises: [] },
  overflow: { predict: null, exercises: ['stableMax'] },
});
