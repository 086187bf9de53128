// The messages between a page and its training worker (web/train/worker.js), one place for both
// sides. The worker owns its own engine and one experiment (engine.createTrainer); the page asks
// and draws what comes back. Messages are plain objects { type, ... }, handled in order.
//
// page → worker
//   { type: 'configure', config }  a new experiment (TrainConfig); the old one is kept if the core refuses it
//   { type: 'run' }                train until the experiment's last step, in chunks (pause stops it)
//   { type: 'pause' }
//   { type: 'step' }               one step, then paused
//   { type: 'reset' }              back to step 0, paused
// worker → page
//   { type: 'ready', simd, defaults, limits, accuracyGoal }                    its engine has loaded
//   { type: 'created', config, example, scale, maxEntropy, parameterCount }   after a configure
//   { type: 'progress', step, steps, done, running, runs: { scaled, unscaled } }
//        each run as engine.d.ts RunCurves: the metrics of the steps after the last progress
//        (from `from` on), its attention on the shown example now; sent after every chunk,
//        step, pause and reset (from 0 with no values after a reset or configure)
//   { type: 'error', request, name, code, message }   a request failed; nothing else changed
export const REQUEST = Object.freeze({ configure: 'configure', run: 'run', pause: 'pause', step: 'step', reset: 'reset' });
export const REPLY = Object.freeze({ ready: 'ready', created: 'created', progress: 'progress', error: 'error' });

/** How long the worker trains before it reports and reads its messages again (a pause waits at most this). */
export const CHUNK_MS = 30;
