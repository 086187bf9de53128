// The worker's side of the training protocol (web/train/protocol.js), without the worker:
// serveTraining(engine promise, { post, listen }) answers the page's requests; web/train/worker.js
// wires it to the worker's messages, the node tests to a page's session in the same process.
//
// Training runs in chunks of about CHUNK_MS, each followed by a progress message and a new task
// (setTimeout), so a pause, step or reset that arrives meanwhile is handled within one chunk.
import { CHUNK_MS, REPLY, REQUEST } from './protocol.js';

/**
 * Serves the protocol once `engine` (a promise of createEngine()) resolves: 'ready', then every
 * request in order, those that came while it loaded included. `post(message, transfer)` sends a
 * reply; `listen(receive)` registers the function that takes each request.
 */
export function serveTraining(engine, { post, listen, chunkMs = CHUNK_MS }) {
  const early = [];
  let receive = (message) => early.push(message);
  listen((message) => receive(message));
  engine.then(
    (e) => {
      receive = createTrainingHost(e, post, { chunkMs });
      post({ type: REPLY.ready, simd: e.simd, defaults: e.trainDefaults, limits: e.limits.train, accuracyGoal: e.trainAccuracyGoal });
      early.splice(0).forEach(receive);
    },
    (error) => post({ type: REPLY.error, request: null, name: error.name, code: error.code ?? null, message: `the core did not load: ${error.message}` }),
  );
}

/** The requests' handler for a loaded engine: returns receive(message). */
export function createTrainingHost(engine, post, { chunkMs = CHUNK_MS, now = () => performance.now() } = {}) {
  let trainer = null;
  let sent = 0; // steps already reported
  let running = false;
  let timer = null;

  const stop = () => {
    running = false;
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  // Everything since the last report. Each run's arrays share one buffer: it is transferred.
  function progress() {
    const curves = trainer.read(sent);
    sent = curves.step;
    const transfer = [...new Set(Object.values(curves.runs).map((run) => run.weights.buffer))];
    post({ type: REPLY.progress, running, ...curves }, transfer);
  }

  function chunk() {
    timer = null;
    if (!running) return;
    const start = now();
    do trainer.step(1);
    while (!trainer.done && now() - start < chunkMs);
    if (trainer.done) running = false;
    progress();
    if (running) timer = setTimeout(chunk, 0);
  }

  function configure(config) {
    const next = engine.createTrainer(config); // throws (and keeps the current one) on a bad config
    stop();
    trainer?.dispose();
    trainer = next;
    sent = 0;
    post({
      type: REPLY.created,
      config: trainer.config,
      example: trainer.example,
      scale: trainer.scale,
      maxEntropy: trainer.maxEntropy,
      parameterCount: trainer.parameterCount,
    });
    progress(); // step 0: the shown example's attention before training
  }

  const handlers = {
    [REQUEST.configure]: ({ config }) => configure(config),
    [REQUEST.run]: () => {
      if (running || trainer.done) return;
      running = true;
      timer = setTimeout(chunk, 0);
    },
    [REQUEST.pause]: () => {
      if (!running) return;
      stop();
      progress();
    },
    [REQUEST.step]: () => {
      stop();
      trainer.step(1);
      progress();
    },
    [REQUEST.reset]: () => {
      stop();
      trainer.reset();
      sent = 0;
      progress();
    },
  };

  return function receive(message) {
    const handler = handlers[message?.type];
    try {
      if (!handler) throw new TypeError(`unknown request ${JSON.stringify(message?.type)}`);
      if (!trainer && message.type !== REQUEST.configure) throw new RangeError(`${message.type}: no experiment yet (configure first)`);
      handler(message);
    } catch (error) {
      post({ type: REPLY.error, request: message?.type ?? null, name: error.name, code: error.code ?? null, message: error.message });
    }
  };
}
