// The lesson's model: a lab state (LabState of web/components/attention-lab.d.ts: the lab's
// settings, its Q and K, its result) and the lesson's own settings (heads, the key of step by
// step) in, every instrument's results out — every number through the engine. No DOM: the same
// code runs in a page and in Node.
//
//   const model = new LessonModel(engine);
//   model.variance(state)             model.saturation(state)        model.gradient(state)
//   model.step(state, lesson)         model.output(state)            model.heads(state, lesson)
//   model.overflow(state)
//
// Each returns the results its view in web/views/ draws, or { empty: text, key } when the state
// cannot feed it (text in English; key names it in the string tables of web/i18n/) (too few words, pasted vectors where word vectors are needed). Each call is
// memoised on exactly what it depends on, compared by content: the sweeps over d_k are computed
// once per sentence and seed (moving d_k or the selected row costs them nothing), the
// histograms once per seed and d_k, a row's trace once per row, key and setting.
//
// Two kinds of numbers, two sources:
//   the lab's own row (gradient, step by step, overflow, the ◆ of the sweeps): the lab's Q, K
//     and result, with the lab's scaling, temperature and mask. The other scaling, which the
//     gradient view shows beside it, comes from the lab's own rule (labResults), so the causal
//     mask means the same here as in the lab.
//   the sweeps over d_k (variance, saturation, gradient size, heads): the sentence's word
//     vectors (the first LESSON_MAX_TOKENS), projected by the engine as the lab's Random mode
//     projects them (head 0 of headProjections), at every width.
import { english } from '../i18n/i18n.js';
import { labResults } from '../lab/results.js';
import { DK_STEPS, integerType, nullableType } from '../lab/settings.js';

/** Most tokens the sweeps and the heads take: their plots stay readable. */
export const LESSON_MAX_TOKENS = 24;

/**
 * The widths of every sweep over d_k: the stops of the lab's d_k slider (powers of two, 1 …
 * 1024), so that a d_k the learner picks there is a point of every curve.
 */
export const SWEEP_DIMS = DK_STEPS;

/**
 * Most heads the multi-head view splits d_k into: the core's limit (engine.limits.lesson.maxHeads,
 * kMaxHeads in cpp/lesson/lesson.hpp), written here because the lesson's settings are checked before
 * its engine has loaded; a test holds the two equal.
 */
export const MAX_HEADS = 8;

const VARIANCE_SAMPLES = 2000; // random pairs per width: the variance within a few per cent
const HISTOGRAM_BINS = 48;
const TOKEN_DRAWS = 8; // projections of the sentence per width (the first is the lab's Random one)
/** Projections per width the saturation exercise averages (the first is the lab's Random one). */
export const TREND_DRAWS = 16;

// The lesson's own settings, read by the settings table's types (web/lab/settings.js).
const LESSON_SETTINGS = Object.freeze({
  heads: { type: integerType(1, MAX_HEADS), default: 4 },
  key: { type: nullableType(integerType(0)), default: null },
});

/** The lesson's own settings: heads of the multi-head view; key of step by step (null: the query's own position). */
export const LESSON_DEFAULTS = Object.freeze(Object.fromEntries(Object.entries(LESSON_SETTINGS).map(([name, entry]) => [name, entry.default])));

/** Why there is nothing to draw: { empty: the English text, key } of a message of the string tables. */
function nothing(key) {
  return { empty: english().t(key), key };
}

/**
 * The lesson's settings after `patch`, and what it rejected and why (the lab store's
 * convention): heads a whole number from 1 to MAX_HEADS, key a whole number from 0 up or null.
 */
export function updateLessonSettings(settings, patch) {
  const next = { ...settings };
  const rejected = {};
  for (const [name, value] of Object.entries(patch ?? {})) {
    if (!Object.hasOwn(LESSON_SETTINGS, name)) {
      rejected[name] = 'unknown lesson setting';
      continue;
    }
    const checked = LESSON_SETTINGS[name].type.check(value);
    if (checked.error) rejected[name] = `${checked.error}, got ${String(value)}`;
    else next[name] = checked.value;
  }
  return { settings: Object.freeze(next), rejected };
}

export class LessonModel {
  #engine;
  #cache = new Map(); // name → { deps, value }: the latest value of each computation

  constructor(engine) {
    if (!engine || typeof engine.saturationSweep !== 'function') throw new TypeError('LessonModel: engine must be an engine of createEngine()');
    this.#engine = engine;
  }

  /** Claim 1: variance of q·k against d_k for random pairs and for the sentence; histograms at the lab's d_k. */
  variance(state) {
    const e = this.#engine;
    const { seed } = state.settings;
    const dk = state.d;
    const samples = VARIANCE_SAMPLES;
    const words = this.#words(state);
    const curve = this.#memo('variance:curve', [seed], () => e.dotVarianceCurve({ seed, dims: SWEEP_DIMS, samples }));
    const tokenCurve =
      words && words.t >= 2
        ? this.#memo('variance:tokens', [words.x, seed], () => e.tokenVarianceCurve({ ...words.lesson, seed, dims: SWEEP_DIMS, draws: TOKEN_DRAWS }))
        : null;
    const histograms = this.#memo('variance:histograms', [seed, dk], () => e.dotHistograms({ seed, d: dk, samples, bins: HISTOGRAM_BINS }));
    // the numbers at d_k: from the curves when d_k is one of their widths, else measured at d_k alone (e.g. 100)
    const c = SWEEP_DIMS.indexOf(dk);
    const at = (name, whole, alone) => {
      const [values, i] = c >= 0 ? [whole, c] : [this.#memo(name, [seed, dk, words?.x], alone), 0];
      return { unscaled: values.unscaled[i], scaled: values.scaled[i] };
    };
    return {
      dk,
      samples,
      draws: TOKEN_DRAWS,
      curve,
      tokenCurve,
      histograms,
      at: {
        random: at('variance:random-at', curve, () => e.dotVarianceCurve({ seed, dims: [dk], samples })),
        tokens: tokenCurve && at('variance:tokens-at', tokenCurve, () => e.tokenVarianceCurve({ ...words.lesson, seed, dims: [dk], draws: TOKEN_DRAWS })),
      },
    };
  }

  /** Claim 2: max weight and entropy of every row against d_k, scaled and unscaled; the counts and the lab's row at its d_k. */
  saturation(state) {
    const words = this.#words(state);
    if (!words) return nothing('lesson.needsWords');
    if (words.t < 2) return nothing('lesson.twoWords');
    const { t } = words;
    const dk = state.d;
    const [unscaled, scaled] = this.#sweeps(words, state.settings.seed);
    const c = SWEEP_DIMS.indexOf(dk);
    const [atUnscaled, atScaled, i] = c >= 0 ? [unscaled, scaled, c] : [...this.#sweepsAt(words, state.settings.seed, dk), 0];
    const row = state.selected < t ? state.selected : null;
    const at = (sweep) => ({
      peaked: sweep.peakedCount[i],
      flat: sweep.flatCount[i],
      meanMaxWeight: sweep.mean.maxWeight[i],
      maxWeight: row === null ? null : sweep.maxWeight[i * t + row],
      entropy: row === null ? null : sweep.entropy[i * t + row],
    });
    return {
      t,
      dk,
      unscaled,
      scaled,
      maxEntropy: unscaled.maxEntropy,
      constants: this.#engine.lessonConstants,
      at: { unscaled: at(atUnscaled), scaled: at(atScaled) },
      row,
      word: row === null ? null : words.tokens[row],
      lab: this.#labRow(state),
      // the exercise's trend, unscaled: every row's largest weight averaged over TREND_DRAWS
      // projections per width, its mean over the rows and where that first passes `threshold`;
      // measured when asked for
      trend: (threshold) => this.#memo('trend', [words.x, state.settings.seed, threshold], () =>
        this.#engine.saturationTrend({ ...words.lesson, seed: state.settings.seed, dims: SWEEP_DIMS, draws: TREND_DRAWS, threshold })),
    };
  }

  /** Claim 3: the softmax Jacobian and gradient size of the lab's row, unscaled and scaled; the gradient size against d_k. */
  gradient(state) {
    const e = this.#engine;
    const { m, d, selected: row } = state;
    if (m < 2) return nothing('lesson.twoWords');
    const { seed } = state.settings;
    const other = this.#otherScaling(state);
    const panels = [false, true].map((scaled) => {
      const result = scaled === state.scaled ? state.result : other;
      const p = result.weights.subarray(row * m, (row + 1) * m);
      return {
        scaled,
        jacobian: this.#memo(`gradient:jacobian:${scaled}`, [p], () => e.softmaxJacobian(p)),
        // ∂L/∂z for the softmax's input z (the scores, ÷T when T ≠ 1): the sweep's measure for this row
        norm: this.#memo(`gradient:norm:${scaled}`, [p, seed, row], () => e.softmaxGradientNorm(p, { seed, row })),
        maxWeight: result.maxWeight[row],
        entropy: result.entropy[row],
      };
    });
    const words = this.#words(state);
    const sweeps = words && words.t >= 2 ? this.#sweeps(words, seed) : null;
    return {
      m,
      d,
      word: state.queryLabels[row],
      keyLabels: state.keyLabels,
      labScaled: state.scaled,
      temperature: state.temperature,
      panels,
      sweeps: sweeps && { unscaled: sweeps[0], scaled: sweeps[1] },
      t: sweeps ? words.t : 0,
      sweepRow: sweeps && row < words.t ? row : null,
    };
  }

  /** Claim 4: the lab's row step by step, for the key `lesson.key` (default: the query's own position). */
  step(state, lesson = LESSON_DEFAULTS) {
    const { q, k, m, d, selected: row, temperature, scaled } = state;
    const key = Math.min(lesson.key ?? row, m - 1);
    const scores = state.result.scores.subarray(row * m, (row + 1) * m);
    const visible = visibleKeys(scores);
    if (visible === 0) return nothing('lesson.allMasked');
    if (visible < 0) return nothing('lesson.causalOnly');
    const qRow = q.subarray(row * d, (row + 1) * d);
    const trace = this.#memo('step', [qRow, k, m, d, key, scaled, temperature, visible], () =>
      this.#engine.stepByStep({ q: qRow, k, m, d, key, scaled, temperature, visible }),
    );
    return {
      row,
      key,
      m,
      d,
      queryLabels: state.queryLabels,
      keyLabels: state.keyLabels,
      q: qRow,
      k: k.subarray(key * d, (key + 1) * d),
      scaled,
      temperature,
      visible,
      trace,
    };
  }

  /**
   * The output: the lab's selected row of weights p mixes the value rows, o = Σ_j p_j v_j. The
   * weights, the value vectors V and the output row are the lab's own (engine.attention's
   * output); the keys are listed by weight, largest first.
   */
  output(state) {
    const { m, dv, selected: row } = state;
    const output = state.result.output;
    if (!output || !state.v || dv === 0) return nothing('output.noValues');
    const weights = state.result.weights.subarray(row * m, (row + 1) * m);
    const order = Array.from({ length: m }, (_, j) => j).sort((a, b) => weights[b] - weights[a] || a - b);
    return {
      row,
      m,
      dv,
      projection: state.projection,
      positional: Boolean(state.positional),
      queryLabels: state.queryLabels,
      keyLabels: state.keyLabels,
      weights,
      order,
      values: state.v,
      output: output.subarray(row * dv, (row + 1) * dv),
    };
  }

  /** Why softmax subtracts the max: the lab's row of scores ÷ T through the naive and the stable softmax. */
  overflow(state) {
    const e = this.#engine;
    const { m, selected: row, temperature } = state;
    // the lab's scores for this row: its scaling and mask (−∞ where a key is hidden)
    const scores = state.result.scores.subarray(row * m, (row + 1) * m);
    return {
      row,
      d: state.d,
      scaled: state.scaled,
      temperature,
      queryLabels: state.queryLabels,
      keyLabels: state.keyLabels,
      threshold: e.lessonConstants.expOverflowThreshold,
      naive: this.#memo('overflow:naive', [scores, temperature], () => e.softmaxNaive(scores, { temperature })),
      stable: this.#memo('overflow:stable', [scores, temperature], () => e.softmax(scores, { temperature })),
    };
  }

  /** Several heads: `lesson.heads` heads of width d_k / heads over the sentence, their weights and concatenated outputs. */
  heads(state, lesson = LESSON_DEFAULTS) {
    const words = this.#words(state);
    if (!words) return nothing('lesson.needsWords');
    const { heads } = lesson;
    const { seed } = state.settings;
    const { scaled } = state;
    const dk = state.d;
    const d = Math.max(1, Math.floor(dk / heads)); // the model width split over the heads
    const mh = this.#memo('heads', [words.x, seed, heads, d, scaled], () => this.#engine.multiHead({ ...words.lesson, seed, heads, d, scaled }));
    return { heads, maxHeads: MAX_HEADS, d, dk, t: words.t, tokens: words.tokens, weights: mh.weights, maxWeight: mh.maxWeight, concat: mh.concat };
  }

  // The sentence's word vectors for the sweeps: the first LESSON_MAX_TOKENS rows of state.x
  // (with the positions when the lab adds them); null for pasted vectors.
  #words(state) {
    if (!state.x) return null;
    const t = Math.min(state.n, LESSON_MAX_TOKENS);
    const dIn = state.x.length / state.n;
    const x = state.x.subarray(0, t * dIn);
    return { x, t, tokens: state.queryLabels.slice(0, t), lesson: { x, t, dIn } };
  }

  #sweeps(words, seed) {
    return [false, true].map((scaled) =>
      this.#memo(`sweep:${scaled}`, [words.x, seed], () => this.#engine.saturationSweep({ ...words.lesson, seed, dims: SWEEP_DIMS, scaled })),
    );
  }

  #sweepsAt(words, seed, dk) {
    return [false, true].map((scaled) =>
      this.#memo(`sweep-at:${scaled}`, [words.x, seed, dk], () => this.#engine.saturationSweep({ ...words.lesson, seed, dims: [dk], scaled })),
    );
  }

  // The lab's own row: the ◆ on the sweeps.
  #labRow(state) {
    const row = state.selected;
    return {
      d: state.d,
      word: state.queryLabels[row],
      maxWeight: state.result.maxWeight[row],
      entropy: state.result.entropy[row],
      scaled: state.scaled,
    };
  }

  // The lab's result with the other scaling, by the lab's own rule (web/lab/results.js).
  #otherScaling(state) {
    const { q, k, n, m, d } = state;
    const settings = { ...state.settings, scaled: !state.scaled };
    return this.#memo('other-scaling', [q, k, n, m, d, settings.scaled, settings.temperature, settings.causal], () =>
      labResults({ q, k, v: null, n, m, d, dv: 0, probe: null }, settings, this.#engine).result,
    );
  }

  // compute() once for each new `deps` (typed arrays and arrays compared by content), else the
  // value kept from the last call with the same deps. Inputs are the lab's read-only arrays:
  // they are kept, not copied.
  #memo(name, deps, compute) {
    const entry = this.#cache.get(name);
    if (entry && entry.deps.length === deps.length && entry.deps.every((dep, i) => sameValue(dep, deps[i]))) return entry.value;
    const value = compute();
    this.#cache.set(name, { deps, value });
    return value;
  }
}

/**
 * How many keys of a row the lab's mask leaves visible: its scores are −∞ exactly where a key
 * is hidden, and the lab's causal mask hides a suffix (keys j > i), which is what stepByStep
 * takes. −1 when a hidden key sits between visible ones (a mask stepByStep cannot follow).
 */
function visibleKeys(scores) {
  let visible = scores.length;
  while (visible > 0 && scores[visible - 1] === -Infinity) visible--;
  for (let j = 0; j < visible; j++) if (scores[j] === -Infinity) return -1;
  return visible;
}

/** Equal values, or arrays / typed arrays with equal elements. */
export function sameValue(a, b) {
  if (a === b) return true;
  const list = (x) => Array.isArray(x) || ArrayBuffer.isView(x);
  if (!list(a) || !list(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
