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
//   session.restart();                                 // a new worker, after one failed or went silent
//
// A worker that stops silently (killed, out of memory, a message it cannot read) is noticed: its
// `error` and `messageerror` events, and a watchdog — a reply is due within `watchdogMs` of a
// request, and while running after every chunk (CHUNK_MS) — end the session in 'failed' with a
// message of the string tables (`error.key`), from which restart() begins again.
import { english } from '../i18n/i18n.js';
import { REPLY, REQUEST } from './protocol.js';

/** How long the worker may stay silent while a reply is due (it reports every CHUNK_MS while running; an engine loads in well under this). */
export const WATCHDOG_MS = 15000;

const newWorker = () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });

const METRICS = ['loss', 'heldoutLoss', 'heldoutAccuracy', 'gradNormWq', 'gradNormWk', 'maxWeight', 'entropy', 'matchWeight'];

/**
 * phase: 'loading' (the worker's engine loads) → 'ready' (an experiment at step 0) → 'running'
 * ⇄ 'paused' → 'done'; 'failed' when the worker could not start. A refused request leaves the
 * phase and the curves as they were and sets `error` (cleared by the next request).
 */
export class TrainingSession {
  #worker;
  #createWorker;
  #watchdogMs;
  #watchdog = 0; // the timer while a reply is due
  #listeners = new Set();
  #pending = null; // a configure waiting for the worker to be ready: its config
  #runAfterCreate = false;
  #stepAfterCreate = false;
  state = Object.freeze({ phase: 'loading', error: null, simd: null, defaults: null, limits: null, accuracyGoal: null,
    config: null, example: null, scale: null, maxEntropy: null, step: 0, steps: 0, runs: null });

  /**
   * `createWorker()`: a new worker — anything with postMessage and 'message', 'error' and
   * 'messageerror' events (default: the module worker beside this file); `worker`: the first one,
   * if made already. `watchdogMs`: see WATCHDOG_MS.
   */
  constructor({ createWorker = newWorker, worker = createWorker(), watchdogMs = WATCHDOG_MS } = {}) {
    this.#createWorker = createWorker;
    this.#watchdogMs = watchdogMs;
    this.#attach(worker);
  }

  #attach(worker) {
    this.#worker = worker;
    const mine = (handler) => (event) => this.#worker === worker && handler(event);
    worker.addEventListener('message', mine((event) => this.#receive(event.data)));
    worker.addEventListener('error', mine((event) => this.#fail('training.workerFailed', { message: event.message || '?' })));
    worker.addEventListener('messageerror', mine(() => this.#fail('training.workerUnreadable')));
    this.#expectReply(); // its 'ready'
  }

  /** A new worker in place of one that failed or went silent; the last experiment is configured again. */
  restart() {
    clearTimeout(this.#watchdog);
    this.#watchdog = 0;
    this.#worker.terminate?.();
    this.#pending = this.state.config ? { ...this.state.config } : this.#pending;
    this.#runAfterCreate = this.#stepAfterCreate = false;
    this.#set({ phase: 'loading', error: null, step: 0, steps: 0, runs: null });
    this.#attach(this.#createWorker());
  }

  // A reply is due: no message within watchdogMs means the worker stopped.
  #expectReply() {
    clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(() => this.#fail('training.workerSilent', { seconds: this.#watchdogMs / 1000 }), this.#watchdogMs);
    this.#watchdog.unref?.(); // Node (tests): a pending watchdog keeps no process alive
  }

  #post(message) {
    this.#worker.postMessage(message);
    this.#expectReply();
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
    clearTimeout(this.#watchdog);
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
    this.#post({ type, ...fields });
  }

  #receive(message) {
    if (this.state.phase === 'failed') return;
    // a reply came: another is due only while the run goes on (or a request below is posted)
    clearTimeout(this.#watchdog);
    this.#watchdog = 0;
    if (message?.type === REPLY.progress && message.running) this.#expectReply();
    switch (message?.type) {
      case REPLY.ready: {
        const { simd, defaults, limits, accuracyGoal } = message;
        this.#set({ phase: 'ready', simd, defaults, limits, accuracyGoal });
        const config = this.#pending ?? {};
        this.#pending = null;
        this.#post({ type: REQUEST.configure, config });
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
        if (this.#runAfterCreate) this.#post({ type: REQUEST.run });
        if (this.#stepAfterCreate) this.#post({ type: REQUEST.step });
        this.#runAfterCreate = this.#stepAfterCreate = false;
        return;
      }
      case REPLY.progress:
        return this.#progress(message);
      case REPLY.error:
        this.#runAfterCreate = this.#stepAfterCreate = false;
        if (message.request === null) return this.#fail('training.workerFailed', { message: message.message });
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

  // The worker is given up on: `key` (training.*) and `params` say why, in the page's language;
  // `message` is its English.
  #fail(key, params = {}) {
    clearTimeout(this.#watchdog);
    this.#watchdog = 0;
    this.#set({ phase: 'failed', error: Object.freeze({ request: null, name: 'Error', code: null, message: english().t(key, params), key, params }) });
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
