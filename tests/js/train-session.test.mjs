// The training protocol end to end without a browser: the page's TrainingSession
// (web/train/session.js) and the worker's side (web/train/host.js) joined in one process, with
// messages delivered asynchronously and structured-cloned as between a page and a worker.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';
import { serveTraining } from '../../web/train/host.js';
import { TrainingSession, matchesConfig } from '../../web/train/session.js';

const engine = createEngine();
const LONG = { steps: 2000 }; // long enough to still be running when the test pauses it
const SMALL = { dk: 16, steps: 40, batch: 8, heldout: 16, letters: 8, pairs: 4, queries: 4, dModel: 16, dv: 16, learningRate: 0.02 };

// A worker-like pair: what one side posts arrives at the other in a later task, as a copy.
function inProcessWorker({ chunkMs } = {}) {
  const page = new EventTarget();
  const deliver = (target, data) => setTimeout(() => target.dispatchEvent(Object.assign(new Event('message'), { data: structuredClone(data) })));
  let toHost = null;
  serveTraining(engine, { post: (message) => deliver(page, message), listen: (receive) => (toHost = receive), chunkMs });
  return {
    addEventListener: (type, listener) => page.addEventListener(type, listener),
    postMessage: (message) => setTimeout(() => toHost(structuredClone(message))),
    terminate() {},
  };
}

// Resolves with the first state that satisfies `accept`.
function until(session, accept, what, timeout = 20000) {
  if (accept(session.state)) return Promise.resolve(session.state);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; phase ${session.state.phase}, step ${session.state.step}`)), timeout);
    const stop = session.subscribe((state) => {
      if (!accept(state)) return;
      clearTimeout(timer);
      stop();
      resolve(state);
    });
  });
}

test('ready, then the defaults configured at step 0 with the untrained attention of the shown example', async () => {
  const session = new TrainingSession({ worker: inProcessWorker() });
  assert.equal(session.state.phase, 'loading');
  const state = await until(session, (s) => s.runs?.scaled.weights, 'the first progress');
  assert.equal(state.phase, 'ready');
  assert.equal(state.step, 0);
  assert.deepEqual(state.defaults, (await engine).trainDefaults);
  assert.deepEqual(state.config, state.defaults);
  assert.equal(state.example.queries.length, state.config.queries);
  assert.equal(state.runs.unscaled.weights.length, state.config.queries * state.config.pairs);
  assert.equal(state.runs.scaled.count, 0);
});

test('train runs to the end; the curves in the session are the engine\'s curves for the same config', async () => {
  // chunkMs 0: one step per chunk, so the run reports while running whatever the machine's speed
  // (at 5 ms a fast moment trained all 40 steps in the first chunk: 'running' was never seen)
  const session = new TrainingSession({ worker: inProcessWorker({ chunkMs: 0 }) });
  const seen = new Set();
  session.subscribe((s) => seen.add(s.phase));
  session.train(SMALL);
  const done = await until(session, (s) => s.phase === 'done', 'done');
  assert.ok(seen.has('running'));
  assert.equal(done.step, SMALL.steps);
  const expected = (await engine).train(SMALL).runs;
  for (const name of ['scaled', 'unscaled']) {
    assert.equal(done.runs[name].count, SMALL.steps);
    for (const m of ['loss', 'heldoutLoss', 'heldoutAccuracy', 'gradNormWq', 'gradNormWk', 'maxWeight', 'entropy', 'matchWeight'])
      assert.deepEqual(done.runs[name].curves[m], expected[name][m], `${name}.${m}`);
    assert.deepEqual(done.runs[name].weights, expected[name].weights);
    assert.equal(done.runs[name].reachedAt, expected[name].reachedAt);
  }
});

test('pause stops within a chunk and holds; resume goes on; reset returns to step 0; step takes one', async () => {
  const session = new TrainingSession({ worker: inProcessWorker() });
  await until(session, (s) => s.phase === 'ready' && s.runs, 'ready');
  session.train(LONG);
  await until(session, (s) => s.phase === 'running' && s.step > 0, 'running');
  session.pause();
  const paused = await until(session, (s) => s.phase === 'paused', 'paused');
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(session.state.step, paused.step, 'no step is taken while paused');
  assert.ok(paused.step < LONG.steps);
  session.resume();
  await until(session, (s) => s.phase === 'running' && s.step > paused.step, 'running again');
  session.reset();
  const reset = await until(session, (s) => s.phase === 'ready' && s.step === 0, 'reset');
  assert.equal(reset.runs.scaled.count, 0);
  session.step(LONG);
  const one = await until(session, (s) => s.step === 1, 'one step');
  assert.equal(one.phase, 'paused');
  assert.equal(one.runs.unscaled.count, 1);
});

test('a refused config keeps the experiment and its curves, and says why naming the field', async () => {
  const session = new TrainingSession({ worker: inProcessWorker() });
  session.train(SMALL);
  const done = await until(session, (s) => s.phase === 'done', 'done');
  session.train({ ...SMALL, dk: 4096 });
  const refused = await until(session, (s) => s.error, 'the error');
  assert.equal(refused.error.request, 'configure');
  assert.equal(refused.error.code, 'ATTN_INVALID_SHAPE');
  assert.match(refused.error.message, /dk must be an integer from 1 to 512, got 4096/);
  assert.equal(refused.phase, 'done');
  assert.equal(refused.config, done.config);
  assert.deepEqual(refused.runs.scaled.curves.heldoutLoss, done.runs.scaled.curves.heldoutLoss);
  // the next request clears it
  session.reset();
  await until(session, (s) => s.step === 0 && !s.error, 'reset');
});

test('matchesConfig: a request matches the config that has every value it sets', () => {
  const config = { ...SMALL, seed: 1 };
  assert.equal(matchesConfig({ dk: 16 }, config), true);
  assert.equal(matchesConfig({ dk: 32 }, config), false);
  assert.equal(matchesConfig({ dk: 16 }, null), false);
});

// A worker that goes silent after `replies` messages to the page (killed, out of memory), or
// sends one the page cannot read: everything else as inProcessWorker.
function stoppingWorker({ replies = Infinity, unreadable = false } = {}) {
  const real = inProcessWorker({ chunkMs: 0 });
  const page = new EventTarget();
  let sent = 0;
  real.addEventListener('message', (event) => {
    if (++sent > replies) return;
    if (unreadable && sent === replies) return page.dispatchEvent(new Event('messageerror'));
    page.dispatchEvent(Object.assign(new Event('message'), { data: event.data }));
  });
  return { ...real, addEventListener: (type, listener) => page.addEventListener(type, listener), terminated: false, terminate() { this.terminated = true; } };
}

test('a worker that stops answering while training is noticed, said, and a restart trains again', async () => {
  const workers = [];
  const createWorker = () => {
    const worker = workers.length === 0 ? stoppingWorker({ replies: 6 }) : inProcessWorker({ chunkMs: 0 });
    workers.push(worker);
    return worker;
  };
  // the watchdog also guards the restarted worker, which a loaded machine can keep from replying
  // for a few hundred milliseconds (CI once saw it fire at 0.3 s): long enough for that, short
  // enough to notice the silent one in a test
  const session = new TrainingSession({ createWorker, watchdogMs: 3000 });
  await until(session, (s) => s.phase === 'ready' && s.runs, 'ready');
  session.train({ ...SMALL, steps: 400 });
  const failed = await until(session, (s) => s.phase === 'failed', 'the silent worker noticed', 20000);
  assert.equal(failed.error.key, 'training.workerSilent');
  assert.match(failed.error.message, /the training worker stopped answering \(nothing for 3 s\)/);
  session.restart();
  assert.equal(workers[0].terminated, true);
  assert.equal(session.state.phase, 'loading');
  await until(session, (s) => s.phase === 'ready' && s.runs && s.config.steps === 400, 'the same experiment, configured again');
  session.train({ ...SMALL, steps: 5 });
  const done = await until(session, (s) => s.phase === 'done', 'the restarted run done');
  assert.equal(done.step, 5);
  session.dispose();
});

test('a message the page cannot read ends the session with the project’s message', async () => {
  const session = new TrainingSession({ worker: stoppingWorker({ replies: 1, unreadable: true }), watchdogMs: 5000 });
  const failed = await until(session, (s) => s.phase === 'failed', 'the unreadable message noticed', 3000);
  assert.equal(failed.error.key, 'training.workerUnreadable');
  session.dispose();
});
