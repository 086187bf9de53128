// npm run bench, the trained language model's rows (scripts/bench/run.sh runs it after
// train.mjs): the whole-model forward on a 64-token sentence, and training steps per second,
// ours (the engine's model calls: SIMD and scalar builds) against the same model in
// @tensorflow/tfjs-core with @tensorflow/tfjs-backend-wasm (XNNPACK, one thread), in one Node
// process, interleaved round by round (docs/model.md, "Speed").
//
// The same weights: the shipped scaled twin (web/assets/model/scaled.weights, int8). Ours loads
// the file; tfjs gets its parameters dequantised here from the layout cpp/model/model_file.hpp
// documents (x = q·d per block of 128, d a float16), tensor by tensor in the order of
// cpp/model/model.hpp (param_sizes), and runs the model as cpp/model/model.hpp writes it. Nothing is timed
// before the check: next-token probabilities and every attention row of the sentence equal ours
// within FORWARD_ABS_TOL, and the first CHECK_STEPS training steps' losses and gradient norms
// within LOSS_REL_TOL and NORM_REL_TOL (a wrong dequantisation, scale, layernorm, GELU, mask or
// optimiser moves them by far more; see each tolerance).
//
// Forward: ours is the API a user calls (web/api/model.js: loadModel(...).run(tokens): ids, the
// forward, every attention row, the next-word distribution and its top 10, each head's profile);
// tfjs runs the same forward (the logits of the last position only, as ours) and hands back the
// same arrays (probabilities and all attention rows, read into JS).
// Training: one step = forward, backward, the gradient's norm clipped at 1, AdamW (β1 0.9, β2
// 0.95, eps 1e-8, weight decay 0.1 on the matrices and embeddings) at a constant learning rate —
// the native driver's step (scripts/model/train-model.cpp) — on TRAIN_BATCH windows of 64
// tokens (the driver's batch is 16: 4 keeps a round short). Ours: model.trainStep (the core call
// modelTrainStep). tfjs: autodiff (tf.variableGrads), the same clip, tf.train.adam after the
// decoupled decay (AdamW). Both step through the same batches of seeded random token ids.
// Writes artifacts/bench/model.md and model.json.
//
//   node --expose-gc scripts/bench/model.mjs [--quick]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadModel } from '../../web/api/model.js';
import { tokenize } from '../../web/lab/tokenize.js';
import { mulberry32 } from '../../web/core/random.js';
import { collectGarbage, machine, median, tfjsAndEngines, version } from './common.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ASSETS = new URL('../../web/assets/model/', import.meta.url);
const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 3 : 11; // odd: the median is one round's time
const FORWARD_BATCH_SECONDS = QUICK ? 0.1 : 0.25; // each timed batch of forwards runs at least this long
const TRAIN_BATCH_SECONDS = QUICK ? 0.3 : 1; // each timed batch of training steps, at least this long
const WARMUP_SECONDS = 0.5; // V8 tiers the wasm up (Liftoff → TurboFan) before anything is timed
const T = 64; // the sentence, and each training window's inputs
const TRAIN_BATCH = 4;
const BATCHES = 8; // training cycles through this many batches
const LEARNING_RATE = 1e-3; // constant: the driver's peak is 3e-3, its floor 3e-4
const CHECK_STEPS = 5;
// The forward in float32, two summation orders and two exps: ours is within 3.6e-7 of a float64
// forward in every probability and attention weight (docs/model.md, "Tested"), so two float32
// forwards differ by ~1e-6; we measured 2.2e-7 (probabilities) and 1.0e-6 (attention). 1e-5
// leaves room for that and still fails on any difference in the model: a missing bias, the
// 1/√32, the layernorm's eps or one block dequantised wrong moves them by 1e-3 or more.
const FORWARD_ABS_TOL = 1e-5;
// Training, losses: step 1 is the same forward (equal to 1e-7 relative); then Adam's first steps
// move each parameter by about lr·sign(g), and a near-zero gradient entry whose float32 sign
// differs moves its parameter the other way. We measured at most 1.0e-6 relative over the first 5
// steps. 1e-5 leaves ten times that, and fails on a wrong optimiser: without the weight decay
// tfjs's losses differ by 5.9e-5; with β2 0.999 or without the clip, by more.
const LOSS_REL_TOL = 1e-5;
// Gradient norms (before clipping): tfjs sums ~1.9 M float32 squares one after another (a
// rounding error of order √n·ε ≈ 1e-4), ours in double: 1.8e-5 apart at step 1 already, at most
// 3.0e-4 over 5 steps. 1e-3 leaves room for that; a gradient that is wrong in a whole tensor
// moves the norm by more, and its updates move the next losses past LOSS_REL_TOL.
const NORM_REL_TOL = 1e-3;
// A 64-token sentence of the lab's tokens (the first 64 of this text).
const TEXT = `The old man walked slowly down the road to the river, where he had fished every morning
since he was a boy. He didn't know why he still came; the fish were gone and the water was low,
but the walk made him feel that the day had a shape. When he reached the bank he sat down on a
flat stone, took off his hat and watched the light move on the water for a long time.`;


// ---- the weights, dequantised (cpp/model/model_file.hpp, cpp/model/model.hpp) ------------------------------

function fromHalf(h) { // IEEE binary16 → its value (exact in a double)
  const sign = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

/** The int8 weights file → its settings and its parameters as float32, tensor by tensor. */
function readWeights(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (new TextDecoder().decode(bytes.subarray(0, 6)) !== 'ATTNLM' || view.getUint32(12, true) !== 2)
    throw new Error('not an int8 weights file of cpp/model/model_file.hpp');
  const [V, context, L, H, C, scaled] = [0, 1, 2, 3, 4, 5].map((i) => view.getInt32(16 + 4 * i, true));
  const count = Number(view.getBigUint64(40, true));
  const flat = new Float32Array(count);
  const BLOCK = 128; // kQuantBlock
  let at = 48;
  for (let b0 = 0; b0 < count; b0 += BLOCK) {
    const n = Math.min(BLOCK, count - b0), d = fromHalf(view.getUint16(at, true));
    at += 2;
    for (let i = 0; i < n; i++) flat[b0 + i] = view.getInt8(at + i) * d; // int8 × float16 is exact in a double
    at += n;
  }
  if (at !== bytes.length - 8) throw new Error(`weights: ${bytes.length - 8 - at} bytes left over`);
  const F = 4 * C;
  // param_sizes (cpp/model/model.hpp), in its order; per-layer tensors hold their L layers one after another
  const sizes = [['wte', [V, C]], ['wpe', [context, C]], ['ln1w', [C]], ['ln1b', [C]], ['qkvw', [C, 3 * C]], ['qkvb', [3 * C]],
    ['attprojw', [C, C]], ['attprojb', [C]], ['ln2w', [C]], ['ln2b', [C]], ['fcw', [C, F]], ['fcb', [F]],
    ['fcprojw', [F, C]], ['fcprojb', [C]], ['lnfw', [C]], ['lnfb', [C]]];
  const global = new Set(['wte', 'wpe', 'lnfw', 'lnfb']);
  const tensors = {};
  let offset = 0;
  for (const [name, shape] of sizes) {
    const per = shape.reduce((a, b) => a * b, 1);
    const copies = global.has(name) ? 1 : L;
    tensors[name] = Array.from({ length: copies }, (_, l) => ({ shape, values: flat.subarray(offset + l * per, offset + (l + 1) * per) }));
    offset += copies * per;
  }
  if (offset !== count) throw new Error(`weights: ${count} parameters, the layout gives ${offset}`);
  return { config: { V, context, L, H, C, F, scaled: scaled === 1 }, tensors };
}

// ---- the same model in tfjs ----------------------------------------------------------------------

// Decayed by AdamW (cpp/model/model.cpp, kParamDecayed): the matrices and embeddings.
const DECAYED = new Set(['wte', 'wpe', 'qkvw', 'attprojw', 'fcw', 'fcprojw']);
const LAYER_TENSORS = ['ln1w', 'ln1b', 'qkvw', 'qkvb', 'attprojw', 'attprojb', 'ln2w', 'ln2b', 'fcw', 'fcb', 'fcprojw', 'fcprojb'];
const GELU_K = Math.fround(Math.sqrt(2 / Math.PI));
const LN_EPS = 1e-5; // kLayerNormEps
const CLIP = 1; // the driver's gradient-norm clip
const ADAMW = { beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 }; // AdamWConfig's defaults

// tfjs-backend-wasm 4.22 multiplies a·b fast (XNNPACK) but a·bᵀ and aᵀ·b ~20× slower (its
// BatchMatMul with a transpose flag; measured in a profile of one step: 1.7 s for the tied output
// f·wteᵀ against 74 ms for dlogits·wte, the same size), and tfjs's own gradient of a matMul
// uses both flags. `fastGradients` gives every 2-D product a gradient written with explicit
// transposes (tf.transpose, then the fast layout): the same numbers, tfjs at its best. (The
// batched products of attention, q·kᵀ and w·v, are small and keep tfjs's own.)
function createTfjsModel(tf, { config: c, tensors }, label, { fastGradients = true } = {}) {
  const hs = c.C / c.H;
  const scale = c.scaled ? Math.fround(1 / Math.sqrt(hs)) : 1;
  const variable = (name, l) => tf.variable(tf.tensor(tensors[name][l].values, tensors[name][l].shape), true, `${label}.${name}${l}`);
  const P = {
    wte: variable('wte', 0), wpe: variable('wpe', 0), lnfw: variable('lnfw', 0), lnfb: variable('lnfb', 0),
    layers: Array.from({ length: c.L }, (_, l) => Object.fromEntries(LAYER_TENSORS.map((name) => [name, variable(name, l)]))),
  };
  const all = [['wte', P.wte], ['wpe', P.wpe], ['lnfw', P.lnfw], ['lnfb', P.lnfb], ...P.layers.flatMap((layer) => Object.entries(layer))];
  const variables = all.map(([, v]) => v);
  const decayed = all.filter(([name]) => DECAYED.has(name)).map(([, v]) => v);
  const masks = new Map(); // T → T×T: 0 on and below the diagonal, -Infinity above (causal)
  const mask = (n) => {
    if (!masks.has(n)) {
      const m = new Float32Array(n * n);
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) m[i * n + j] = -Infinity;
      masks.set(n, tf.keep(tf.tensor2d(m, [n, n])));
    }
    return masks.get(n);
  };
  const layernorm = (x, w, b) => {
    const { mean, variance } = tf.moments(x, -1, true); // the biased variance
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, LN_EPS))), w), b);
  };
  const gelu = (x) => tf.mul(tf.mul(x, 0.5), tf.add(1, tf.tanh(tf.mul(tf.add(x, tf.mul(0.044715, tf.mul(x, tf.mul(x, x)))), GELU_K))));
  const mm = fastGradients
    ? tf.customGrad((a, b, save) => {
      save([a, b]);
      return { value: tf.matMul(a, b), gradFunc: (dy, [x, y]) => [tf.matMul(dy, tf.transpose(y)), tf.matMul(tf.transpose(x), dy)] };
    })
    : (a, b) => tf.matMul(a, b);
  const linear = (x, w, b) => tf.add(mm(x, w), b);

  // The model of cpp/model/model.hpp on B windows of n tokens (`embed`: the B·n×C rows of wte): the
  // final layernorm's output (B·n × C) and every layer's attention weights (B×H×n×n).
  const body = (embedded, B, n) => {
    const C = c.C;
    let x = tf.add(tf.reshape(embedded, [B, n, C]), tf.slice(P.wpe, [0, 0], [n, C]));
    x = tf.reshape(x, [B * n, C]);
    const attention = [];
    for (const p of P.layers) {
      const qkv = linear(layernorm(x, p.ln1w, p.ln1b), p.qkvw, p.qkvb); // B·n × 3C: q, then k, then v
      const [q, k, v] = tf.split(qkv, 3, 1).map((t) => tf.transpose(tf.reshape(t, [B, n, c.H, hs]), [0, 2, 1, 3]));
      const w = tf.softmax(tf.add(tf.mul(tf.matMul(q, k, false, true), scale), mask(n))); // B×H×n×n
      attention.push(w);
      const y = tf.reshape(tf.transpose(tf.matMul(w, v), [0, 2, 1, 3]), [B * n, C]); // heads side by side
      const r = tf.add(x, linear(y, p.attprojw, p.attprojb));
      x = tf.add(r, linear(gelu(linear(layernorm(r, p.ln2w, p.ln2b), p.fcw, p.fcb)), p.fcprojw, p.fcprojb));
    }
    return { f: layernorm(x, P.lnfw, P.lnfb), attention };
  };

  // A gather whose gradient is a scatter-add (the wasm backend has no UnsortedSegmentSum, the
  // gradient tfjs registers for a gather): ∂wte[id] += ∂row for every row that read id.
  const embedRows = (ids, idsColumn) =>
    tf.customGrad((table) => ({ value: tf.gather(table, ids), gradFunc: (dy) => tf.scatterND(idsColumn, dy, table.shape) }))(P.wte);

  const optimizer = tf.train.adam(LEARNING_RATE, ADAMW.beta1, ADAMW.beta2, ADAMW.eps);
  const keep = tf.scalar(Math.fround(1 - Math.fround(LEARNING_RATE * ADAMW.weightDecay)));
  let wteT = null; // C×V, for forward(): the output layer in tfjs's fast layout, made once
  return {
    /** One sentence (n ids): the next-token probabilities after its last token (V) and every attention row (L×H×n×n), in JS. For a model that is not trained (wteᵀ is made once). */
    forward(ids) {
      const n = ids.length;
      wteT ??= tf.keep(tf.transpose(P.wte));
      const [probs, attention] = tf.tidy(() => {
        const { f, attention: rows } = body(tf.gather(P.wte, tf.tensor1d(ids, 'int32')), 1, n);
        return [tf.softmax(tf.matMul(tf.slice(f, [n - 1, 0], [1, c.C]), wteT)), tf.concat(rows)]; // the last position's only
      });
      // read outside tidy: tfjs-core 4.22 took ~30 ms for a dataSync() inside one (measured), ~1 ms here
      const result = { probs: probs.dataSync(), attention: attention.dataSync() };
      tf.dispose([probs, attention]);
      return result;
    },
    /** A batch of windows (ids: B×(n+1)) as tensors, made once: inputs, their scatter column, one-hot targets. */
    batch(windows, B) {
      const n = windows.length / B - 1;
      const inputs = new Int32Array(B * n), targets = new Float32Array(B * n * c.V);
      for (let b = 0; b < B; b++)
        for (let i = 0; i < n; i++) {
          inputs[b * n + i] = windows[b * (n + 1) + i];
          targets[(b * n + i) * c.V + windows[b * (n + 1) + i + 1]] = 1;
        }
      return { B, n, ids: tf.tensor1d(inputs, 'int32'), idsColumn: tf.tensor2d(inputs, [B * n, 1], 'int32'), targets: tf.tensor2d(targets, [B * n, c.V]) };
    },
    /** One training step on a batch (from batch()): the loss before the update and the gradient's norm before clipping. */
    step({ B, n, ids, idsColumn, targets }) {
      const { value, grads } = tf.variableGrads(() => {
        const { f } = body(embedRows(ids, idsColumn), B, n);
        const logits = fastGradients ? mm(f, tf.transpose(P.wte)) : tf.matMul(f, P.wte, false, true); // tied output
        return tf.neg(tf.mean(tf.sum(tf.mul(targets, tf.logSoftmax(logits)), 1)));
      }, variables);
      const norm = tf.tidy(() => tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g))))));
      const clipped = tf.tidy(() => {
        const factor = tf.minimum(1, tf.div(CLIP, norm));
        return Object.fromEntries(Object.entries(grads).map(([name, g]) => [name, tf.mul(g, factor)]));
      });
      tf.tidy(() => decayed.forEach((v) => v.assign(tf.mul(v, keep)))); // AdamW: the decay first, then Adam
      optimizer.applyGradients(clipped);
      const result = { loss: value.dataSync()[0], gradNorm: norm.dataSync()[0] };
      tf.dispose([value, norm, grads, clipped]);
      return result;
    },
  };
}

// ---- inputs ----------------------------------------------------------------------------------------

// BATCHES batches of TRAIN_BATCH windows of T + 1 ids, each drawn from the 2,000 most frequent words.
function trainingBatches(seed = 1) {
  const draw = mulberry32(seed);
  const next = () => draw() / 4294967296;
  return Array.from({ length: BATCHES }, () => Float32Array.from({ length: TRAIN_BATCH * (T + 1) }, () => 1 + Math.floor(next() * 2000)));
}

// ---- timing: each implementation a function of a count; interleaved rounds --------------------

function timeRows(impls, label, batchSeconds) {
  // wall ms per call; the process's CPU ms per call beside it in impl.cpu (on a shared machine
  // wall time includes the time other processes held the core)
  const timeIt = (impl, count) => {
    const c0 = process.cpuUsage(), t0 = performance.now();
    impl.run(count);
    const ms = (performance.now() - t0) / count, cpu = process.cpuUsage(c0);
    impl.cpu?.push((cpu.user + cpu.system) / 1e3 / count);
    return ms;
  };
  for (const impl of impls) {
    let once = Infinity;
    for (let spent = 0; spent < WARMUP_SECONDS * 1e3; ) {
      const ms = timeIt(impl, 1);
      once = Math.min(once, ms);
      spent += ms;
    }
    impl.reps = Math.max(2, Math.ceil((batchSeconds * 1e3) / once));
    impl.times = [];
    impl.cpu = [];
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const impl of round % 2 ? [...impls].reverse() : impls) {
      collectGarbage();
      impl.times.push(timeIt(impl, impl.reps));
    }
    process.stderr.write(`[bench:model] ${label}: round ${round + 1}/${ROUNDS}\n`);
  }
  const results = Object.fromEntries(impls.map((impl) => [impl.key, {
    name: impl.name, ms: median(impl.times), fastestMs: Math.min(...impl.times), cpuMs: median(impl.cpu), roundMs: impl.times, roundCpuMs: impl.cpu, perBatch: impl.reps,
  }]));
  // per round, then the median of the rounds' ratios (the load comes in bursts that hit a round alike)
  const ratio = (a, b) => median(impls[0].times.map((_, r) => results[b].roundMs[r] / results[a].roundMs[r]));
  const ratios = Object.fromEntries(impls.filter((impl) => impl.key !== 'simd').map(({ key }) => [`simdVs${key[0].toUpperCase()}${key.slice(1)}`, ratio('simd', key)]));
  ratios.simdVsTfjsFastest = results.tfjs.fastestMs / results.simd.fastestMs;
  ratios.simdVsTfjsCpu = median(impls[0].cpu.map((_, r) => results.tfjs.roundCpuMs[r] / results.simd.roundCpuMs[r]));
  return { results, ratios };
}

// ---- setup -----------------------------------------------------------------------------------------

const { tf, simd, scalar } = await tfjsAndEngines();

const weightsBytes = new Uint8Array(readFileSync(new URL('scaled.weights', ASSETS)));
const vocabulary = readFileSync(new URL('vocab.txt', ASSETS), 'utf8');
const weights = readWeights(weightsBytes);
const tfjsModel = createTfjsModel(tf, weights, 'forward');

const tokens = tokenize(TEXT).slice(0, T);
if (tokens.length !== T) throw new Error(`the text gives ${tokens.length} tokens, not ${T}`);
const api = { simd: await loadModel({ variant: 'scaled', engine: simd }), scalar: await loadModel({ variant: 'scaled', engine: scalar }) };

// ---- check 1: the forward -----------------------------------------------------------------------

const ours = api.simd.run(tokens);
if (ours.truncated !== 0 || ours.tokens.length !== T) throw new Error('the sentence was cut');
const unknown = ours.known.filter((k) => !k).length;
const theirs = tfjsModel.forward(ours.ids);
const { L, H, V } = weights.config;
const worse = (worst, a, b) => { const d = Math.abs(a - b); return Number.isNaN(d) ? Infinity : Math.max(worst, d); };
let probsDiff = 0, attentionDiff = 0;
for (let i = 0; i < V; i++) probsDiff = worse(probsDiff, ours.next.probs[i], theirs.probs[i]);
for (let l = 0; l < L; l++)
  for (let h = 0; h < H; h++)
    for (let i = 0; i < T * T; i++) attentionDiff = worse(attentionDiff, ours.attention[l][h][i], theirs.attention[(l * H + h) * T * T + i]);
process.stderr.write(`[bench:model] forward, tfjs against ours: probabilities within ${probsDiff.toExponential(2)}, attention within ${attentionDiff.toExponential(2)}\n`);
if (!(probsDiff <= FORWARD_ABS_TOL && attentionDiff <= FORWARD_ABS_TOL)) {
  console.error(`[bench:model] tfjs's forward differs from ours by more than ${FORWARD_ABS_TOL}: not timed`);
  process.exit(1);
}

// ---- check 2: the first training steps -------------------------------------------------------------

const batches = trainingBatches();
const tfjsBatches = batches.map((w) => tfjsModel.batch(w, TRAIN_BATCH));
// each trained from the shipped weights, on the same batches in the same order
const trainers = {
  simd: await simd.loadModel(weightsBytes, vocabulary), scalar: await scalar.loadModel(weightsBytes, vocabulary),
  tfjs: createTfjsModel(tf, weights, 'fast'), tfjsOwn: createTfjsModel(tf, weights, 'own', { fastGradients: false }),
};
const trainSteps = { simd: 0, scalar: 0, tfjs: 0, tfjsOwn: 0 };
const trainStep = (key) => {
  const s = trainSteps[key]++ % BATCHES;
  return key.startsWith('tfjs') ? trainers[key].step(tfjsBatches[s]) : trainers[key].trainStep(batches[s], { batch: TRAIN_BATCH, learningRate: LEARNING_RATE });
};
const trainWorst = { loss: 0, gradNorm: 0 };
const trainRows = [];
for (let s = 0; s < CHECK_STEPS; s++) {
  const a = trainStep('simd');
  for (const key of ['tfjs', 'tfjsOwn']) {
    const b = trainStep(key);
    for (const metric of ['loss', 'gradNorm']) {
      const rel = Math.abs(a[metric] - b[metric]) / Math.abs(a[metric]);
      trainWorst[metric] = Math.max(trainWorst[metric], Number.isNaN(rel) ? Infinity : rel);
      trainRows.push({ step: s + 1, tfjs: key, metric, ours: a[metric], theirs: b[metric], rel });
    }
  }
}
process.stderr.write(`[bench:model] training, tfjs against ours over ${CHECK_STEPS} steps: losses within ${trainWorst.loss.toExponential(2)}, gradient norms within ${trainWorst.gradNorm.toExponential(2)} relative\n`);
if (!(trainWorst.loss <= LOSS_REL_TOL && trainWorst.gradNorm <= NORM_REL_TOL)) {
  console.error(`[bench:model] tfjs's training differs from ours by more than ${LOSS_REL_TOL} (losses) or ${NORM_REL_TOL} (gradient norms): not timed`);
  console.table(trainRows);
  process.exit(1);
}

// ---- timing ------------------------------------------------------------------------------------------

const tfjsName = `@tensorflow/tfjs-backend-wasm ${version('@tensorflow/tfjs-backend-wasm')} (XNNPACK, 1 thread; tfjs-core ${version('@tensorflow/tfjs-core')})`;
const tensorsBefore = tf.memory().numTensors; // tfjs leaks nothing while timed: the same count after
const forward = timeRows([
  { key: 'simd', name: 'ours, SIMD build (loadModel(…).run(tokens))', run: (k) => { for (let i = 0; i < k; i++) api.simd.run(tokens); } },
  { key: 'scalar', name: 'ours, scalar build', run: (k) => { for (let i = 0; i < k; i++) api.scalar.run(tokens); } },
  { key: 'tfjs', name: tfjsName, run: (k) => { for (let i = 0; i < k; i++) tfjsModel.forward(ours.ids); } },
], 'forward', FORWARD_BATCH_SECONDS);
const training = timeRows([
  { key: 'simd', name: 'ours, SIMD build (model.trainStep)', run: (k) => { for (let i = 0; i < k; i++) trainStep('simd'); } },
  { key: 'scalar', name: 'ours, scalar build', run: (k) => { for (let i = 0; i < k; i++) trainStep('scalar'); } },
  { key: 'tfjs', name: `${tfjsName}: autodiff, products' gradients in its fast layout, tf.train.adam after the decay`, run: (k) => { for (let i = 0; i < k; i++) trainStep('tfjs'); } },
  { key: 'tfjsOwn', name: 'the same with tfjs\'s own gradient of a matMul', run: (k) => { for (let i = 0; i < k; i++) trainStep('tfjsOwn'); } },
], 'training', TRAIN_BATCH_SECONDS);
const tensorsAfter = tf.memory().numTensors;

// Where our forward's time goes: the same call on the sentence's first n tokens (a fixed part —
// the output layer over every word, the distribution — and a part per token: the layers).
const LENGTHS = [1, 16, 64];
const byLength = LENGTHS.map((n) => {
  const words = tokens.slice(0, n), cpu = [];
  for (let round = 0; round < ROUNDS; round++) {
    collectGarbage();
    const c0 = process.cpuUsage();
    for (let i = 0; i < 20; i++) api.simd.run(words);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1e3 / 20);
  }
  return { tokens: n, cpuMs: median(cpu), fastestCpuMs: Math.min(...cpu) };
});

// ---- report ------------------------------------------------------------------------------------------

const m = machine();
const fmt = (x, d = 1) => x.toFixed(d);
const md = [
  `# Language model benchmark (${m.date})`,
  '',
  `${m.cpu}, ${m.cores} cores, Node ${m.node}. The shipped scaled twin (${L} layers × ${H} heads, d_model ${weights.config.C}, ${V} words; int8 weights, dequantised once). Median of ${ROUNDS} interleaved rounds.`,
  '',
  `Checks first: on a ${T}-token sentence (${unknown} of its tokens unknown to the model) tfjs's next-token probabilities equal ours within ${probsDiff.toExponential(1)} and every attention weight within ${attentionDiff.toExponential(1)} (tolerance ${FORWARD_ABS_TOL}); over the first ${CHECK_STEPS} training steps its losses equal ours within ${trainWorst.loss.toExponential(1)} relative (tolerance ${LOSS_REL_TOL}) and its gradient norms within ${trainWorst.gradNorm.toExponential(1)} (tolerance ${NORM_REL_TOL}).`,
  '',
  `**Forward**: one ${T}-token sentence, every attention row and the next-word distribution handed to JS.`,
  '',
  '| implementation | ms per forward | forwards per second | fastest round (ms) | CPU ms per forward |',
  '|---|---:|---:|---:|---:|',
  ...Object.values(forward.results).map((r) => `| ${r.name} | ${fmt(r.ms, 2)} | ${fmt(1e3 / r.ms, 0)} | ${fmt(r.fastestMs, 2)} | ${fmt(r.cpuMs, 2)} |`),
  '',
  `Ours (SIMD) against tfjs-wasm: ${fmt(forward.ratios.simdVsTfjs, 2)}× the forwards per second (median of the rounds' ratios; fastest rounds ${fmt(forward.ratios.simdVsTfjsFastest, 2)}×, CPU time ${fmt(forward.ratios.simdVsTfjsCpu, 2)}×); SIMD against scalar ${fmt(forward.ratios.simdVsScalar, 2)}×. Target ≤ 5 ms per forward: ${forward.results.simd.ms <= 5 ? 'met' : 'not met'} (${fmt(forward.results.simd.ms, 2)} ms wall, ${fmt(forward.results.simd.cpuMs, 2)} ms CPU).`,
  '',
  `Ours (SIMD) by length, CPU ms per forward (median; fastest round): ${byLength.map((r) => `${r.tokens} tokens ${fmt(r.cpuMs, 2)} (${fmt(r.fastestCpuMs, 2)})`).join(', ')}.`,
  '',
  `**Training**: one step = forward, backward, clip at 1, AdamW (learning rate ${LEARNING_RATE}) on ${TRAIN_BATCH} windows of ${T} tokens.`,
  '',
  '| implementation | ms per step | steps per second | fastest round (ms) | CPU ms per step |',
  '|---|---:|---:|---:|---:|',
  ...Object.values(training.results).map((r) => `| ${r.name} | ${fmt(r.ms, 1)} | ${fmt(1e3 / r.ms, 2)} | ${fmt(r.fastestMs, 1)} | ${fmt(r.cpuMs, 1)} |`),
  '',
  `Ours (SIMD) against tfjs-wasm: ${fmt(training.ratios.simdVsTfjs, 2)}× the steps per second (fastest rounds ${fmt(training.ratios.simdVsTfjsFastest, 2)}×, CPU time ${fmt(training.ratios.simdVsTfjsCpu, 2)}×), ${fmt(training.ratios.simdVsTfjsOwn, 2)}× against tfjs with its own matMul gradients; SIMD against scalar ${fmt(training.ratios.simdVsScalar, 2)}×.`,
  '',
  `tfjs tensors alive before and after the timed rounds: ${tensorsBefore}, ${tensorsAfter}.`,
  '',
];
mkdirSync(`${ROOT}artifacts/bench`, { recursive: true });
writeFileSync(`${ROOT}artifacts/bench/model.md`, md.join('\n'));
writeFileSync(`${ROOT}artifacts/bench/model.json`, JSON.stringify({
  machine: m, check: { probsDiff, attentionDiff, forwardTolerance: FORWARD_ABS_TOL, trainWorst, lossTolerance: LOSS_REL_TOL, normTolerance: NORM_REL_TOL, trainRows },
  forward, byLength, training, settings: { T, trainBatch: TRAIN_BATCH, learningRate: LEARNING_RATE, rounds: ROUNDS }, tfjsTensors: [tensorsBefore, tensorsAfter],
}, null, 2));
console.log(md.join('\n'));
for (const model of [...Object.values(api), trainers.simd, trainers.scalar]) model.dispose();
