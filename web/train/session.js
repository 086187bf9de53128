// The page's side of the training protocol (web/train/protocol.js): a TrainingSession talks to
// the worker and keeps what the views draw — the experiment's settings and shown example, and
// both runs' curves as they grow — in one state object, published to subscribers after every
// reply. No DOM and no math: the element (web/components/lesson/training-experiment.js) forwards
// the learner's intent here and draws the state through pure views (web/views/training.js).
//
//   const session = new TrainingSession();            // starts the worker
//   session.subscribe((state) => draw(state));
//   session.train({ dk: 128 });                        // a new experiment from step 0, running
//   session.pause(); session.resume(); session.step(config); session.reset();
import { REPLY, REQUEST } from './protocol.js';

const METRICS = ['loss', 'heldoutLoss', 'heldoutAccuracy', 'gradNormWq', 'gradNormWk', 'maxWeight', 'entropy', 'matchWeight'];

/**
 * phase: 'loading' (the worker's engine loads) → 'ready' (an experiment at step 0) → 'running'
 * ⇄ 'paused' → 'done'; 'failed' when the worker could not start. A refused request leaves the
 * phase and the curves as they were and sets `error` (cleared by the next request).
 */
export class TrainingSession {
  #worker;
  #listeners = new Set();
  #pending = null; // a configure waiting for the worker to be ready: its config
  #runAfterCreate = false;
  #stepAfterCreate = false;
  state = Object.freeze({ phase: 'loading', error: null, simd: null, defaults: null, limits: null, accuracyGoal: null,
    config: null, example: null, scale: null, maxEntropy: null, step: 0, steps: 0, runs: null });

  /** `worker`: anything with postMessage and a 'message' event (default: the module worker beside this file). */
  constructor({ worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }) } = {}) {
    this.#worker = worker;
    worker.addEventListener('message', (event) => this.#receive(event.data));
    worker.addEventListener('error', (event) => this.#fail(`the training worker failed: ${event.message ?? 'unknown error'}`));
  }

  /** Calls `listener(state)` after every change; returns the function that stops it. */
  subscribe(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A new experiment with `config` at step 0, not running (shows the untrained attention). */
  configure(config) {
    this.#request(REQUEST.configure, { config });
  }

  /** Trains `config` from step 0 to its last step. */
  train(config) {
    this.#runAfterCreate = true;
    this.configure(config);
  }

  pause() {
    this.#request(REQUEST.pause);
  }

  resume() {
    this.#request(REQUEST.run);
  }

  /** One step: of the current experiment, or of a new one when `config` differs from its settings. */
  step(config) {
    if (config && !matchesConfig(config, this.state.config)) {
      this.#stepAfterCreate = true;
      this.configure(config);
    } else this.#request(REQUEST.step);
  }

  /** Back to step 0 of the same experiment (the same curves will come again). */
  reset() {
    this.#request(REQUEST.reset);
  }

  /** Stops the worker. */
  dispose() {
    this.#worker.terminate?.();
    this.#listeners.clear();
  }

  #request(type, fields = {}) {
    if (this.state.phase === 'failed') return;
    if (this.state.phase === 'loading') {
      // before the engine is ready only the latest configuration matters
      if (type === REQUEST.configure) this.#pending = fields.config;
      return;
    }
    if (this.state.error) this.#set({ error: null });
    this.#worker.postMessage({ type, ...fields });
  }

  #receive(message) {
    switch (message.type) {
      case REPLY.ready: {
        const { simd, defaults, limits, accuracyGoal } = message;
        this.#set({ phase: 'ready', simd, defaults, limits, accuracyGoal });
        const config = this.#pending ?? {};
        this.#pending = null;
        this.#worker.postMessage({ type: REQUEST.configure, config });
        return;
      }
      case REPLY.created: {
        const { config, example, scale, maxEntropy } = message;
        const runs = {};
        for (const name of Object.keys(scale)) {
          const curves = Object.fromEntries(METRICS.map((m) => [m, new Float32Array(config.steps)]));
          runs[name] = Object.freeze({ curves, count: 0, divergedAt: 0, reachedAt: 0, shownOnTarget: 0, weights: null });
        }
        this.#set({ phase: 'ready', config, example, scale, maxEntropy, step: 0, steps: config.steps, runs: Object.freeze(runs) });
        if (this.#runAfterCreate) this.#worker.postMessage({ type: REQUEST.run });
        if (this.#stepAfterCreate) this.#worker.postMessage({ type: REQUEST.step });
        this.#runAfterCreate = this.#stepAfterCreate = false;
        return;
      }
      case REPLY.progress:
        return this.#progress(message);
      case REPLY.error:
        this.#runAfterCreate = this.#stepAfterCreate = false;
        if (message.request === null) return this.#fail(message.message);
        return this.#set({ error: Object.freeze({ request: message.request, name: message.name, code: message.code, message: message.message }) });
    }
  }

  // Appends each run's new values to its curves (the arrays are the session's own, filled in place).
  #progress({ step, steps, done, running, runs }) {
    const next = {};
    for (const [name, update] of Object.entries(runs)) {
      const { curves } = this.state.runs[name];
      for (const m of METRICS) curves[m].set(update[m], update.from);
      next[name] = Object.freeze({
        curves,
        count: update.steps,
        divergedAt: update.divergedAt,
        reachedAt: update.reachedAt,
        shownOnTarget: update.shownOnTarget,
        weights: update.weights,
      });
    }
    const phase = running ? 'running' : done ? 'done' : step === 0 ? 'ready' : 'paused';
    this.#set({ phase, step, steps, runs: Object.freeze(next) });
  }

  #fail(message) {
    this.#set({ phase: 'failed', error: Object.freeze({ request: null, name: 'Error', code: null, message }) });
  }

  #set(patch) {
    this.state = Object.freeze({ ...this.state, ...patch });
    for (const listener of this.#listeners) listener(this.state);
  }
}

/** True when `config` (every field, as the worker reports it) has each value `request` sets. */
export function matchesConfig(request, config) {
  return Boolean(config) && Object.entries(request).every(([key, value]) => config[key] === value);
}
