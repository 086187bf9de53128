// The language model's training step through the engine (model.trainStep, the core call
// modelTrainStep in cpp/binding/model.cpp), in both WebAssembly builds: its first loss equals an
// independent float64 forward written here (the weights dequantised here too, from the layout
// cpp/model/model_file.hpp documents), training on one batch drives that batch's loss down and what
// the model predicts after, a reloaded model starts again, and bad input gets a clear error.
// The gradients themselves are held to central differences in tests/cpp/test_model.cpp, and to
// tfjs's autodiff by npm run bench (scripts/bench/model.mjs).
// Run: node --test tests/js/model-train-call.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';

const ASSETS = new URL('../../web/assets/model/', import.meta.url);
const bytes = fs.readFileSync(new URL('scaled.weights', ASSETS));
const vocabulary = fs.readFileSync(new URL('vocab.txt', ASSETS), 'utf8');
const WORDS = 'the cat sat on the mat because it was tired , and the dog lay down by the door to sleep .'.split(' ');
const B = 2, T = 9; // two windows of 9 inputs (10 ids each)
// float32 against float64: the core's probabilities are within 3.6e-7 of a float64 forward
// (docs/model.md, "Tested"), so the mean −ln p within ~1e-6 nats; we measured 2.5e-7 here. 1e-4
// leaves room for that, and fails on windows read wrong: the same ids read one token later
// move the loss by 7e-3, the last target of each window taken one token late by 0.19.
const LOSS_TOL = 1e-4;

// ---- the float64 reference: cpp/model/model.hpp's forward, written from its formulas ---------------

function half(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
  return e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
}

function dequantise(file) { // cpp/model/model_file.hpp: int8 in blocks of 128, each after its float16 scale
  const [V, context, L, H, C] = [0, 1, 2, 3, 4].map((i) => file.readInt32LE(16 + 4 * i));
  const count = Number(file.readBigUInt64LE(40));
  const p = new Float64Array(count);
  let at = 48;
  for (let b0 = 0; b0 < count; b0 += 128) {
    const d = half(file.readUInt16LE(at));
    at += 2;
    for (let i = 0; i < Math.min(128, count - b0); i++) p[b0 + i] = file.readInt8(at++) * d;
  }
  assert.equal(at, file.length - 8);
  const F = 4 * C;
  let offset = 0;
  const take = (n) => p.subarray(offset, (offset += n));
  const wte = take(V * C), wpe = take(context * C);
  const perLayer = [['ln1w', C], ['ln1b', C], ['qkvw', C * 3 * C], ['qkvb', 3 * C], ['attprojw', C * C], ['attprojb', C],
    ['ln2w', C], ['ln2b', C], ['fcw', C * F], ['fcb', F], ['fcprojw', F * C], ['fcprojb', C]];
  const layers = Array.from({ length: L }, () => ({}));
  for (const [name, n] of perLayer) for (const layer of layers) layer[name] = take(n);
  const lnfw = take(C), lnfb = take(C);
  assert.equal(offset, count);
  return { V, L, H, C, F, wte, wpe, layers, lnfw, lnfb };
}

const layernorm = (x, n, C, w, b) => {
  const out = new Float64Array(n * C);
  for (let t = 0; t < n; t++) {
    let mean = 0, variance = 0;
    for (let c = 0; c < C; c++) mean += x[t * C + c] / C;
    for (let c = 0; c < C; c++) variance += (x[t * C + c] - mean) ** 2 / C;
    for (let c = 0; c < C; c++) out[t * C + c] = ((x[t * C + c] - mean) / Math.sqrt(variance + 1e-5)) * w[c] + b[c];
  }
  return out;
};
const linear = (x, n, din, w, dout, b) => { // x (n×din) · w (din×dout) + b
  const out = new Float64Array(n * dout);
  for (let t = 0; t < n; t++)
    for (let j = 0; j < dout; j++) {
      let s = b[j];
      for (let i = 0; i < din; i++) s += x[t * din + i] * w[i * dout + j];
      out[t * dout + j] = s;
    }
  return out;
};

/** Mean −ln p(target) over the windows' positions, in float64. */
function referenceLoss(m, windows, batch, n) {
  const { C, H, F, V } = m, hs = C / H, scale = 1 / Math.sqrt(hs);
  let total = 0;
  for (let b = 0; b < batch; b++) {
    const ids = windows.slice(b * (n + 1), (b + 1) * (n + 1));
    let x = new Float64Array(n * C);
    for (let t = 0; t < n; t++) for (let c = 0; c < C; c++) x[t * C + c] = m.wte[ids[t] * C + c] + m.wpe[t * C + c];
    for (const p of m.layers) {
      const qkv = linear(layernorm(x, n, C, p.ln1w, p.ln1b), n, C, p.qkvw, 3 * C, p.qkvb);
      const y = new Float64Array(n * C);
      for (let h = 0; h < H; h++)
        for (let i = 0; i < n; i++) {
          const s = [];
          for (let j = 0; j <= i; j++) {
            let dot = 0;
            for (let d = 0; d < hs; d++) dot += qkv[i * 3 * C + h * hs + d] * qkv[j * 3 * C + C + h * hs + d];
            s.push(scale * dot);
          }
          const max = Math.max(...s), e = s.map((v) => Math.exp(v - max)), z = e.reduce((a, v) => a + v, 0);
          for (let j = 0; j <= i; j++)
            for (let d = 0; d < hs; d++) y[i * C + h * hs + d] += (e[j] / z) * qkv[j * 3 * C + 2 * C + h * hs + d];
        }
      const proj = linear(y, n, C, p.attprojw, C, p.attprojb);
      const r = x.map((v, i) => v + proj[i]);
      const hidden = linear(layernorm(r, n, C, p.ln2w, p.ln2b), n, C, p.fcw, F, p.fcb)
        .map((v) => 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3))));
      const out = linear(hidden, n, F, p.fcprojw, C, p.fcprojb);
      x = r.map((v, i) => v + out[i]);
    }
    const f = layernorm(x, n, C, m.lnfw, m.lnfb);
    for (let t = 0; t < n; t++) {
      const logits = new Float64Array(V);
      for (let v = 0; v < V; v++) {
        let s = 0;
        for (let c = 0; c < C; c++) s += f[t * C + c] * m.wte[v * C + c];
        logits[v] = s;
      }
      const max = logits.reduce((a, v) => Math.max(a, v), -Infinity);
      const lse = max + Math.log(logits.reduce((a, v) => a + Math.exp(v - max), 0));
      total += lse - logits[ids[t + 1]];
    }
  }
  return total / (batch * n);
}

const reference = dequantise(bytes);
for (const simd of [true, false]) {
  const build = simd ? 'SIMD' : 'scalar';
  const engine = await createEngine({ simd });

  test(`model.trainStep (${build}): the first loss is the float64 loss of the weights; training on a batch lowers it`, async () => {
    const model = await engine.loadModel(bytes, vocabulary);
    const ids = model.ids(WORDS);
    const windows = [...ids.slice(0, T + 1), ...ids.slice(T + 1, 2 * (T + 1))];
    const expected = referenceLoss(reference, windows, B, T);
    const before = model.predict(WORDS.slice(0, T)).next.probs[ids[T]]; // p(10th word | the first 9)
    const first = model.trainStep(windows, { batch: B, learningRate: 1e-3 });
    assert.ok(Math.abs(first.loss - expected) <= LOSS_TOL, `loss ${first.loss}, float64 ${expected}`);
    assert.equal(first.steps, 1);
    assert.ok(first.gradNorm > 0 && Number.isFinite(first.gradNorm));
    let last = first;
    for (let s = 2; s <= 30; s++) {
      last = model.trainStep(windows, { batch: B, learningRate: 1e-3 });
      assert.equal(last.steps, s);
    }
    assert.ok(last.loss < first.loss - 1, `30 steps on one batch: ${first.loss} → ${last.loss}`);
    const after = model.predict(WORDS.slice(0, T)).next.probs[ids[T]];
    assert.ok(after > 2 * before, `the trained model predicts its batch: p ${before} → ${after}`);
    // a longer batch later remakes the training memory and keeps the optimiser's state
    const wide = model.trainStep([...windows, ...windows], { batch: 2 * B, learningRate: 1e-3 });
    assert.equal(wide.steps, 31);
    assert.ok(Math.abs(wide.loss - model.trainStep(windows, { batch: B, learningRate: 1e-3 }).loss) < 0.5);
    model.dispose();
    // the same file loaded again is the model as shipped: the first loss again
    const fresh = await engine.loadModel(bytes, vocabulary);
    const again = fresh.trainStep(windows, { batch: B, learningRate: 1e-3 });
    assert.equal(again.steps, 1);
    assert.equal(again.loss, first.loss);
    fresh.dispose();
  });

  test(`model.trainStep (${build}): bad input gets a clear error and leaves the model as it was`, async () => {
    const model = await engine.loadModel(bytes, vocabulary);
    const windows = model.ids(WORDS).slice(0, 2 * (T + 1));
    const step = (w, options) => () => model.trainStep(w, options);
    assert.throws(step(windows.slice(0, 19), { batch: B, learningRate: 1e-3 }), (e) => e.code === 'ATTN_INVALID_SHAPE' && /batch × \(T \+ 1\)/.test(e.message));
    assert.throws(step(Array(2 * 66).fill(1), { batch: B, learningRate: 1e-3 }), /T ≤ 64/);
    assert.throws(step([5], { batch: 1, learningRate: 1e-3 }), /T \+ 1/);
    assert.throws(step([...windows.slice(0, 19), 12000], { batch: B, learningRate: 1e-3 }), (e) => e.code === 'ATTN_INVALID_ARGUMENT' && /tokens\[19\] is 12000/.test(e.message));
    assert.throws(step([...windows.slice(0, 19), 1.5], { batch: B, learningRate: 1e-3 }), /tokens\[19\]/);
    assert.throws(step(windows, { batch: 0, learningRate: 1e-3 }), /batch/);
    assert.throws(step(windows, { batch: B, learningRate: 0 }), /learningRate/);
    assert.throws(step(windows, { batch: B, learningRate: Number.NaN }), /learningRate/);
    assert.throws(step(windows, { batch: B }), /learningRate/);
    assert.throws(step(windows), /batch/);
    assert.throws(step('the cat', { batch: B, learningRate: 1e-3 }), /tokens/);
    // none of it took a step or changed the weights: the first real step is step 1, at the shipped loss
    const first = model.trainStep(windows, { batch: B, learningRate: 1e-3 });
    assert.equal(first.steps, 1);
    assert.ok(Math.abs(first.loss - referenceLoss(reference, windows, B, T)) <= LOSS_TOL);
    model.dispose();
    assert.throws(step(windows, { batch: B, learningRate: 1e-3 }), /disposed/);
  });
}
