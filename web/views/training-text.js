// Every word the training experiment shows (web/views/training.js and
// web/components/lesson/training-experiment.js), read from the string tables (training.*, in
// web/i18n/) and shaped for the views: trainingText(strings) for a language, TRAINING_TEXT in
// English. Numbers in the prose are measurements recorded in docs/training.md (20 seeds at the
// default, 10 for the others); the live numbers come from the run on the page.
import { english } from '../i18n/i18n.js';

const texts = new WeakMap(); // strings → their training text

/** The training experiment's words in the language of `strings` (web/i18n/i18n.js). */
export function trainingText(strings) {
  let text = texts.get(strings);
  if (!text) texts.set(strings, (text = build(strings)));
  return text;
}

function build(s) {
  const t = s.t;
  // a rate as a percentage with at most one decimal ("90 %", "87,5 %")
  const percent = (x) => `${s.fmt(Number((100 * x).toFixed(1)), 3)}\u00a0%`;
  const runs = Object.freeze({ scaled: t('training.runScaled'), unscaled: t('training.runUnscaled') });
  const runShort = Object.freeze({ scaled: t('training.shortScaled'), unscaled: t('training.shortUnscaled') });
  const runAdjective = { scaled: t('training.adjScaled'), unscaled: t('training.adjUnscaled') };
  const text = {
    fmt: s.fmt,
    runs,
    runShort,
    intro: t('training.intro'),
    task: t('training.task'),

    controls: Object.freeze({
      legend: t('training.settings'),
      dk: t('training.dk'),
      initScale: t('training.initScale'),
      hint: t('training.hint'),
      optimizer: t('training.optimizer'),
      adam: t('training.adam'),
      sgd: t('training.sgd'),
      learningRate: t('training.learningRate'),
      momentum: t('training.momentum'),
      steps: t('training.steps'),
      seed: t('training.seed'),
      train: t('training.train'),
      pause: t('training.pause'),
      resume: t('training.resume'),
      step: t('training.step'),
      reset: t('training.reset'),
      progress: t('training.progress'),
      presets: t('training.presets'),
    }),

    // the presets' buttons and what each one shows (web/train/presets.js holds their settings)
    presets: Object.freeze({
      default: Object.freeze({ label: t('training.presetDefault'), note: t('training.presetDefaultNote') }),
      smallDk: Object.freeze({ label: t('training.presetSmallDk'), note: t('training.presetSmallDkNote') }),
      plainSgd: Object.freeze({ label: t('training.presetPlainSgd'), note: t('training.presetPlainSgdNote') }),
      smallInit: Object.freeze({ label: t('training.presetSmallInit'), note: t('training.presetSmallInitNote') }),
      unstable: Object.freeze({ label: t('training.presetUnstable'), note: t('training.presetUnstableNote') }),
      matchedInit: Object.freeze({ label: t('training.presetMatchedInit'), note: t('training.presetMatchedInitNote') }),
    }),

    plots: Object.freeze({
      loss: t('training.plotLoss'),
      accuracy: t('training.plotAccuracy'),
      gradNorm: t('training.plotGradNorm'),
      maxWeight: t('training.plotMaxWeight'),
      entropy: t('training.plotEntropy'),
      legendNote: t('training.legendNote'),
      step: t('training.axisStep'),
      goal: (goal) => percent(goal),
      uniform: (maxEntropy, pairs) => t('training.uniform', { pairs: String(pairs), value: s.fmt(maxEntropy) }),
      blewUp: (step) => t('training.blewUpAt', { step: String(step) }),
    }),

    heatmap: Object.freeze({
      title: (run, step) => t('training.heatmapTitle', { run: runs[run], step: String(step) }),
      label: (run, step, onTarget, queries) =>
        t('training.heatmapLabel', { run: runAdjective[run], step: String(step), onTarget, queries }),
      onTarget: (onTarget, queries) => t('training.onTarget', { onTarget, queries }),
      cell: (query, pair, weight, right) => t(right ? 'training.cellRight' : 'training.cell', { query, pair, value: s.fmt(weight, 3) }),
      note: t('training.heatmapNote'),
    }),

    status: Object.freeze({
      loading: t('training.loading'),
      // the session's error: a message of the tables (key, params), else its text
      failed: (error) => t('training.failed', { message: error?.key ? { key: error.key, params: error.params } : error?.message ?? '' }),
      ready: t('training.ready'),
      running: t('training.running'),
      paused: (step, steps) => t('training.paused', { step: String(step), steps: String(steps) }),
      done: (steps) => t('training.done', { steps: String(steps) }),
      stale: t('training.stale'),
    }),

    // The outcome in numbers, for every reader (screen readers included): one sentence for the
    // experiment, then one per run.
    summary(state) {
      return text.summaryParts(state).join(' ');
    },

    summaryParts(state) {
      const { step, steps, runs: results, accuracyGoal, config, simd } = state;
      if (!results || !config) return [];
      const head = t('training.summaryHead', {
        step: String(step),
        steps: String(steps),
        dk: String(config.dk),
        optimizer: config.optimizer === 'adam' ? t('training.adam') : t('training.sgd'),
        rate: s.fmt(config.learningRate),
        seed: String(config.seed),
        build: t(simd ? 'training.simd' : 'training.scalar'),
      });
      if (step === 0) return [`${head} ${t('training.sameStart')}`];
      const parts = Object.entries(results).map(([name, run]) => {
        const last = run.count - 1;
        if (last < 0) return t('training.blewUpFirst', { run: runShort[name] });
        const c = run.curves;
        const goal = percent(accuracyGoal);
        const reached = run.reachedAt > 0 ? t('training.reached', { goal, step: String(run.reachedAt) }) : t('training.notYet', { goal });
        const blew = run.divergedAt > 0 ? ` ${t('training.stoppedAt', { step: String(run.divergedAt) })}` : '';
        return (
          t('training.runSummary', {
            run: runShort[name],
            loss: s.fmt(c.heldoutLoss[last]),
            accuracy: percent(c.heldoutAccuracy[last]),
            reached,
            maxWeight: s.fmt(c.maxWeight[last]),
            gradNorm: s.fmt(c.gradNormWq[last]),
            onTarget: run.shownOnTarget,
            queries: config.queries,
          }) + blew
        );
      });
      return [head, ...parts];
    },

    // What the curves show, and where it stops holding: measured (docs/training.md).
    reading: Object.freeze([
      Object.freeze({ title: t('training.lookFor'), text: t('training.lookForText') }),
      Object.freeze({ title: t('training.disappears'), text: t('training.disappearsText') }),
      Object.freeze({ title: t('training.larger'), text: t('training.largerText') }),
    ]),
  };
  return Object.freeze(text);
}

/** The training experiment's words in English. */
export const TRAINING_TEXT = trainingText(english());
