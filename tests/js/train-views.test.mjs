// The training experiment's view (web/views/training.js) in Node, with no DOM: drawn from a
// session state built from the engine's own curves, its markup must hold those numbers — each
// heatmap cell's weight, the outlined pair of every query, the summary's losses and steps — and
// never NaN, at every step of a run (step 0 included) and at any width.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';
import { fmt } from '../../web/i18n/format.js';
import { toMarkup } from '../../web/views/h.js';
import { THEMES } from '../../web/views/theme.js';
import { trainingView } from '../../web/views/training.js';
import { TRAINING_TEXT } from '../../web/views/training-text.js';

const engine = await createEngine();
const CONFIG = { steps: 60 };

// What a TrainingSession holds after `steps` steps of `config` (web/train/session.js), built here
// from a trainer directly.
function sessionState(config, steps) {
  const trainer = engine.createTrainer(config);
  try {
    trainer.step(steps);
    const curves = trainer.curves();
    const runs = {};
    for (const [name, run] of Object.entries(curves.runs)) {
      const full = Object.fromEntries(['loss', 'heldoutLoss', 'heldoutAccuracy', 'gradNormWq', 'gradNormWk', 'maxWeight', 'entropy', 'matchWeight']
        .map((m) => { const a = new Float32Array(trainer.config.steps); a.set(run[m]); return [m, a]; }));
      runs[name] = { curves: full, count: run.steps, divergedAt: run.divergedAt, reachedAt: run.reachedAt, shownOnTarget: run.shownOnTarget, weights: run.weights };
    }
    return {
      phase: steps === 0 ? 'ready' : curves.done ? 'done' : 'paused', error: null, simd: engine.simd,
      defaults: engine.trainDefaults, limits: engine.limits.train, accuracyGoal: engine.trainAccuracyGoal,
      config: trainer.config, example: trainer.example, scale: trainer.scale, maxEntropy: trainer.maxEntropy,
      step: curves.step, steps: trainer.config.steps, runs,
    };
  } finally {
    trainer.dispose();
  }
}

const cells = (markup, run) => {
  const figure = new RegExp(`<figure class="heatmap" data-run="${run}">([\\s\\S]*?)</figure>`).exec(markup)[1];
  return [...figure.matchAll(/data-weight="([^"]+)"/g)].map((m) => Number(m[1]));
};

test('the heatmaps draw each run\'s weights on the shown example, and outline the pair each query asks about', () => {
  const state = sessionState(CONFIG, 30);
  const markup = toMarkup(trainingView(state, {}, THEMES.light, { width: 1200 }));
  for (const run of ['scaled', 'unscaled']) assert.deepEqual(cells(markup, run), Array.from(state.runs[run].weights), run);
  assert.equal((markup.match(/class="target"/g) ?? []).length, 2 * state.config.queries);
  for (const pair of state.example.pairs) assert.ok(markup.includes(`>${pair}<`), pair);
  for (const query of state.example.queries) assert.ok(markup.includes(`>${query}<`), query);
});

test('the summary gives each run\'s numbers at the step shown', () => {
  const state = sessionState(CONFIG, 60);
  const markup = toMarkup(trainingView(state, {}, THEMES.dark, { width: 900 }));
  for (const run of ['scaled', 'unscaled']) {
    const { curves, count, shownOnTarget } = state.runs[run];
    assert.ok(markup.includes(`held-out loss ${fmt(curves.heldoutLoss[count - 1])}`), run);
    assert.ok(markup.includes(`${shownOnTarget} of ${state.config.queries} rows look at the right pair`), run);
  }
  assert.ok(markup.includes(`Step 60 of 60`));
  assert.equal(TRAINING_TEXT.summary(state), TRAINING_TEXT.summaryParts(state).join(' '));
});

test('every step from 0 to the end, at 360 and 1440 px: five plots, two heatmaps, no NaN', () => {
  for (const steps of [0, 1, 2, 60]) {
    const state = sessionState(CONFIG, steps);
    for (const width of [336, 1272]) {
      const markup = toMarkup(trainingView(state, {}, THEMES.light, { width }));
      assert.equal((markup.match(/<div class="plot">/g) ?? []).length, 5, `${steps} steps, ${width} px`);
      assert.equal((markup.match(/<figure class="heatmap"/g) ?? []).length, 2);
      assert.ok(!/NaN|Infinity|undefined/.test(markup), `${steps} steps, ${width} px: ${/.{60}(NaN|Infinity|undefined).{60}/.exec(markup)?.[0]}`);
      // every curve point inside its plot
      for (const [, points] of markup.matchAll(/<polyline[^>]* points="([^"]*)"/g))
        for (const p of points.split(' ')) {
          const [x, y] = p.split(',').map(Number);
          assert.ok(x >= 0 && x <= width && y >= 0 && y <= 170, `${steps} steps: point ${p}`);
        }
    }
  }
});

test('a run that blew up is marked where it stopped', () => {
  // plain SGD at learning rate 3: the unscaled run blows up at step 12, the scaled run goes on
  const state = sessionState({ ...CONFIG, optimizer: 'sgd', learningRate: 3, momentum: 0 }, 60);
  const markup = toMarkup(trainingView(state, {}, THEMES.light, { width: 900 }));
  assert.ok(state.runs.unscaled.divergedAt > 1);
  assert.equal(state.runs.scaled.divergedAt, 0);
  assert.ok(markup.includes(`blew up at step ${state.runs.unscaled.divergedAt}`));
  assert.ok(markup.includes(`It blew up at step ${state.runs.unscaled.divergedAt} and stopped.`));
  assert.ok(!/NaN/.test(markup));
});

test('before the worker is ready the view says so', () => {
  const markup = toMarkup(trainingView({ phase: 'loading', runs: null }, {}, THEMES.light, { width: 900 }));
  assert.match(markup, /Loading the core in a background worker/);
});
