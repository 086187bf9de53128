// A trainer: one experiment of the training lab (cpp/experiment/train.hpp), two runs held by the engine
// (engine.createTrainer). The engine checks and makes every call (its table TRAIN_CALLS in
// web/core/calls.js); a trainer keeps what the runs report and shapes it for its readers.
import { Held, use } from './held.js';

/**
 * An experiment of two runs held by the engine (engine.createTrainer). Its curves grow by
 * step(); read(since) gives what came after step `since`, curves() everything.
 */
export class Trainer extends Held {
  #runs; // the runs' names
  #step = 0; // steps taken, as the core last reported

  constructor(core, registry, runs, config, created) {
    super(core, registry, created.id, 'trainer');
    this.#runs = runs;
    /** The experiment's settings, every field (the defaults filled in). */
    this.config = config;
    /** Parameters of one run's model. */
    this.parameterCount = created.parameters;
    /** Bytes the experiment holds in the engine. */
    this.bytes = created.bytes;
    /** ln(pairs): the entropy of a uniform attention row, the top of the entropy curve. */
    this.maxEntropy = created.maxEntropy;
    /** The factor each run multiplies q·k by: { scaled: 1/√d_k, unscaled: 1 }. */
    this.scale = Object.freeze({ ...created.scale });
    /** The example whose attention the runs report (held-out example 0), as symbols. */
    this.example = exampleOf(created.example);
  }

  /** Steps taken (both runs advance together; a run that blew up stops early, see divergedAt). */
  get stepsDone() {
    return this.#step;
  }

  /** True once config.steps steps are taken. */
  get done() {
    return this.#step >= this.config.steps;
  }

  /** Advances both runs by up to `count` steps (default 1); returns how many were taken. */
  step(count = 1) {
    const { taken, step } = use(this, 'step', { count });
    this.#step = step;
    return taken;
  }

  /**
   * Both runs' curves from step `since` on (0 = from the first step): per run the metrics of
   * steps from+1 … steps (arrays of steps − from values, from = min(since, steps)), and its state
   * now (the shown example's attention, divergedAt, reachedAt, shownOnTarget).
   */
  read(since = 0) {
    const runs = {};
    for (const run of this.#runs) runs[run] = { scale: this.scale[run], ...use(this, 'read', { run, since }) };
    return { step: this.#step, steps: this.config.steps, done: this.done, runs };
  }

  /** Every step's metrics so far: read(0). */
  curves() {
    return this.read(0);
  }

  /** Back to step 0, the same initialisation and data: stepping again gives the same curves. */
  reset() {
    use(this, 'reset', {});
    this.#step = 0;
  }

  /**
   * A batch as the runs see it: 'last' (the batch of the last step; count 0 before the first
   * step) or 'heldout'. Indices: keys and queries are letters (0 = a), values and answers digits,
   * target the pair each query asks about.
   */
  batch(which = 'last') {
    const b = use(this, 'batch', { which });
    return { count: b.count, keys: Int32Array.from(b.keys), values: Int32Array.from(b.values),
      queries: Int32Array.from(b.queries), answers: Int32Array.from(b.answers), target: Int32Array.from(b.target) };
  }

  /** One run's parameters now: { embedKey (letters×dModel), embedValue (10×dModel), wQ, wK (dModel×dk), wV (dModel×dv), wO (dv×10) }. */
  parameters(run) {
    return use(this, 'parameters', { run });
  }
}

// The shown example's indices as the symbols a learner reads: letters for keys, digits for values.
function exampleOf({ keys, values, queries, answers, target }) {
  const letter = (i) => String.fromCharCode(97 + i);
  const digit = (i) => String(i);
  return Object.freeze({
    keys: Array.from(keys, letter),
    values: Array.from(values, digit),
    pairs: Array.from(keys, (key, j) => letter(key) + digit(values[j])),
    queries: Array.from(queries, letter),
    answers: Array.from(answers, digit),
    target: Array.from(target),
  });
}
