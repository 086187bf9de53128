// npm run bench, the training row (scripts/bench/run.sh runs it after bench.mjs): steps per
// second of the training experiment (docs/training.md) in our SIMD and scalar builds against the
// same model trained by @tensorflow/tfjs-core with @tensorflow/tfjs-backend-wasm (XNNPACK, one
// thread, autodiff and its Adam), in one Node process, interleaved round by round.
//
// One step is what the page's experiment does per step: both runs (scores scaled by 1/√d_k, and
// unscaled), each a training step — forward, backward and Adam on a batch of 32 examples — and a
// forward pass on the 64 held-out examples for the held-out loss. Default sizes: d_k 128, model
// width 32, 8 pairs and 8 queries per example (cpp/experiment/train.hpp). tfjs trains the same model from
// our trainer's initial parameters on our trainer's batches, and is checked first: its training
// and held-out losses over the first CHECK_STEPS steps must equal ours within CHECK_REL_TOL.
// Writes artifacts/bench/train.md and train.json.
//
//   node --expose-gc scripts/bench/train.mjs [--quick]
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { collectGarbage, machine, median, tfjsAndEngines, version } from './common.mjs';


const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 3 : 11; // odd: the median is one round's time
const BATCH_SECONDS = QUICK ? 0.1 : 0.25; // each timed batch of steps runs at least this long
const WARMUP_SECONDS = 0.5; // V8 tiers the wasm up (Liftoff → TurboFan) before anything is timed
const CHECK_STEPS = 20;
// Two float32 implementations of the same training differ in summation order and exp, by ~1e-7
// relative per step, carried into the next step through the parameters; over the first 20 steps
// we measured at most 1.8e-6 (both runs, both losses). 1e-4 leaves room for that to grow on
// another machine, and still catches any difference in the model, data or optimiser (a wrong
// scale, mix or learning rate moves the losses by 1e-2 or more within 20 steps).
const CHECK_REL_TOL = 1e-4;
const RUNS = ['scaled', 'unscaled'];


// ---- the same model in tfjs, with autodiff ------------------------------------------------------

async function createTfjsExperiment(trainer, tf) {
  const c = trainer.config;
  const { pairs: P, queries: Qn, letters: L, dModel: D, dk, dv } = c;
  const DIGITS = 10;
  const pairMix = tf.scalar(Math.fround(Math.SQRT1_2)); // x_pair = (E_key + E_value)·(1/√2), as cpp/experiment/experiment_model.cpp
  const initial = trainer.parameters('scaled'); // step 0: both runs start here
  const shapes = { embedKey: [L, D], embedValue: [DIGITS, D], wQ: [D, dk], wK: [D, dk], wV: [D, dv], wO: [dv, DIGITS] };
  const runs = Object.fromEntries(
    RUNS.map((run) => [run, {
      scale: tf.scalar(trainer.scale[run]),
      params: Object.fromEntries(Object.entries(shapes).map(([name, shape]) => [name, tf.variable(tf.tensor2d(initial[name], shape))])),
      optimizer: tf.train.adam(c.learningRate, c.beta1, c.beta2, c.eps),
    }]),
  );

  // A batch as one-hot rows: tfjs-backend-wasm has no kernel for the gradient of a gather
  // (UnsortedSegmentSum), so an embedding lookup is a one-hot row times the table — the same
  // numbers. (Its OneHot kernel ignores a float32 dtype: the rows are made here.)
  const oneHot = (indices, depth) => {
    const rows = new Float32Array(indices.length * depth);
    indices.forEach((index, r) => (rows[r * depth + index] = 1));
    return tf.tensor2d(rows, [indices.length, depth]);
  };
  const tensors = (b) => ({
    count: b.count,
    keys: oneHot(b.keys, L),
    values: oneHot(b.values, DIGITS),
    queries: oneHot(b.queries, L),
    answers: oneHot(b.answers, DIGITS),
  });

  // mean over the batch's queries of −log softmax(logits)[answer] (cpp/experiment/train.hpp, THE MODEL)
  const loss = ({ params: p, scale }, b) => {
    const B = b.count;
    const xPair = tf.mul(tf.add(tf.matMul(b.keys, p.embedKey), tf.matMul(b.values, p.embedValue)), pairMix); // B·P × D
    const xQuery = tf.matMul(b.queries, p.embedKey); // B·Qn × D
    const q = tf.reshape(tf.matMul(xQuery, p.wQ), [B, Qn, dk]);
    const k = tf.reshape(tf.matMul(xPair, p.wK), [B, P, dk]);
    const v = tf.reshape(tf.matMul(xPair, p.wV), [B, P, dv]);
    const weights = tf.softmax(tf.mul(tf.matMul(q, k, false, true), scale)); // B × Qn × P
    const out = tf.reshape(tf.matMul(weights, v), [B * Qn, dv]);
    const logits = tf.matMul(out, p.wO);
    return tf.neg(tf.mean(tf.sum(tf.mul(b.answers, tf.logSoftmax(logits)), 1)));
  };

  const heldout = tensors(trainer.batch('heldout'));
  return {
    tensors,
    /** One step of both runs on `batch` (from tensors()); returns each run's training and held-out loss. */
    step(batch) {
      const losses = {};
      for (const run of RUNS) {
        const r = runs[run];
        const cost = r.optimizer.minimize(() => loss(r, batch), true, Object.values(r.params));
        const held = tf.tidy(() => loss(r, heldout));
        losses[run] = { loss: cost.dataSync()[0], heldoutLoss: held.dataSync()[0] };
        cost.dispose();
        held.dispose();
      }
      return losses;
    },
  };
}

// ---- the check: the same losses, step by step -----------------------------------------------

function checkEqualLosses(engine, tf) {
  const ours = engine.createTrainer({ steps: CHECK_STEPS });
  return createTfjsExperiment(ours, tf).then((theirs) => {
    let worst = 0;
    const rows = [];
    for (let t = 0; t < CHECK_STEPS; t++) {
      ours.step(1);
      const batch = theirs.tensors(ours.batch('last'));
      const got = theirs.step(batch);
      for (const value of Object.values(batch)) value.dispose?.();
      const curves = ours.read(t).runs;
      for (const run of RUNS)
        for (const metric of ['loss', 'heldoutLoss']) {
          const a = curves[run][metric][0], b = got[run][metric];
          const rel = Math.abs(a - b) / Math.abs(a);
          worst = Math.max(worst, Number.isNaN(rel) ? Infinity : rel);
          if (t < 3 || t === CHECK_STEPS - 1) rows.push({ step: t + 1, run, metric, ours: a, tfjs: b, rel });
        }
    }
    ours.dispose();
    return { worst, rows };
  });
}

// ---- timing ------------------------------------------------------------------------------------

const { tf, simd, scalar } = await tfjsAndEngines();

const check = await checkEqualLosses(simd, tf);
process.stderr.write(`[bench:train] tfjs against ours over ${CHECK_STEPS} steps: worst relative difference ${check.worst.toExponential(2)}\n`);
if (!(check.worst <= CHECK_REL_TOL)) {
  console.error(`[bench:train] tfjs's losses differ from ours by ${check.worst} > ${CHECK_REL_TOL}: not timed`);
  console.table(check.rows);
  process.exit(1);
}

// Our trainers train on; tfjs cycles through the batches of our first 200 steps (one-hot tensors
// made before timing, so its time is the training alone).
const LONG = 100000;
const recorder = simd.createTrainer({ steps: LONG });
const tfjsRun = await createTfjsExperiment(recorder, tf);
const batches = [];
for (let t = 0; t < 200; t++) {
  recorder.step(1);
  batches.push(tfjsRun.tensors(recorder.batch('last')));
}
recorder.dispose();
let next = 0;

const impls = [
  { key: 'simd', name: 'ours, SIMD build (engine.createTrainer, step)', trainer: simd.createTrainer({ steps: LONG }) },
  { key: 'scalar', name: 'ours, scalar build', trainer: scalar.createTrainer({ steps: LONG }) },
  { key: 'tfjs', name: `@tensorflow/tfjs-backend-wasm ${version('@tensorflow/tfjs-backend-wasm')} (XNNPACK, 1 thread; tfjs-core ${version('@tensorflow/tfjs-core')} autodiff and Adam)` },
];
const runSteps = (impl, count) => {
  if (impl.trainer) return impl.trainer.step(count);
  for (let i = 0; i < count; i++) tfjsRun.step(batches[next++ % batches.length]);
  return count;
};
const timeSteps = (impl, count) => {
  const t0 = performance.now();
  runSteps(impl, count);
  return (performance.now() - t0) / count; // ms per step
};

for (const impl of impls) {
  let once = Infinity;
  for (let spent = 0; spent < WARMUP_SECONDS * 1e3; ) {
    const ms = timeSteps(impl, 5);
    once = Math.min(once, ms);
    spent += 5 * ms;
  }
  impl.reps = Math.max(5, Math.ceil((BATCH_SECONDS * 1e3) / once));
  impl.times = [];
}
const tensorsBefore = tf.memory().numTensors; // tfjs leaks nothing while timed: the same count after
for (let round = 0; round < ROUNDS; round++) {
  for (const impl of round % 2 ? [...impls].reverse() : impls) {
    collectGarbage();
    impl.times.push(timeSteps(impl, impl.reps));
  }
  process.stderr.write(`[bench:train] round ${round + 1}/${ROUNDS}\n`);
}
const results = Object.fromEntries(
  impls.map((impl) => {
    const ms = median(impl.times);
    return [impl.key, { name: impl.name, msPerStep: ms, stepsPerSecond: 1e3 / ms, fastestMs: Math.min(...impl.times), roundMs: impl.times, stepsPerBatch: impl.reps }];
  }),
);
// per round, then the median of the rounds' ratios (the load comes in bursts that hit a round alike)
const ratio = (a, b) => median(impls[0].times.map((_, r) => results[b].roundMs[r] / results[a].roundMs[r]));
const ratios = {
  simdVsTfjs: ratio('simd', 'tfjs'),
  simdVsScalar: ratio('simd', 'scalar'),
  simdVsTfjsFastest: results.tfjs.fastestMs / results.simd.fastestMs,
  simdVsScalarFastest: results.scalar.fastestMs / results.simd.fastestMs,
};
const defaultSeconds = (key) => (results[key].msPerStep * simd.trainDefaults.steps) / 1e3;

const tensorsAfter = tf.memory().numTensors;
const m = machine();
const fmt = (x, d = 1) => x.toFixed(d);
const md = [
  `# Training benchmark (${m.date})`,
  '',
  `${m.cpu}, ${m.cores} cores, Node ${m.node}. One step = both runs, each a training step (forward, backward, Adam; batch 32) and a held-out forward (64 examples); d_k 128, d_model 32. Median of ${ROUNDS} interleaved rounds.`,
  '',
  `Check first: tfjs trained from our initial parameters on our batches; training and held-out losses of both runs over ${CHECK_STEPS} steps equal ours within ${check.worst.toExponential(1)} relative (tolerance ${CHECK_REL_TOL}).`,
  '',
  '| implementation | ms per step | steps per second | fastest round (ms) | default experiment (150 steps) |',
  '|---|---:|---:|---:|---:|',
  ...impls.map(({ key }) => `| ${results[key].name} | ${fmt(results[key].msPerStep, 2)} | ${fmt(results[key].stepsPerSecond, 0)} | ${fmt(results[key].fastestMs, 2)} | ${fmt(defaultSeconds(key), 2)} s |`),
  '',
  `tfjs tensors alive before and after the timed rounds: ${tensorsBefore}, ${tensorsAfter}.`,
  '',
  `Ours (SIMD) against tfjs-wasm: ${fmt(ratios.simdVsTfjs, 2)}× the steps per second (median of the rounds' ratios; fastest rounds ${fmt(ratios.simdVsTfjsFastest, 2)}×). SIMD against scalar: ${fmt(ratios.simdVsScalar, 2)}× (fastest rounds ${fmt(ratios.simdVsScalarFastest, 2)}×).`,
  '',
];
mkdirSync(`${ROOT}artifacts/bench`, { recursive: true });
writeFileSync(`${ROOT}artifacts/bench/train.md`, md.join('\n'));
writeFileSync(`${ROOT}artifacts/bench/train.json`, JSON.stringify({ machine: m, check, results, ratios, tfjsTensors: [tensorsBefore, tensorsAfter] }, null, 2));
console.log(md.join('\n'));
for (const impl of impls) impl.trainer?.dispose();
