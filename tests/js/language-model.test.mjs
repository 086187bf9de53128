// The trained language model through the engine (engine.loadModel, web/core/language-model.js;
// cpp/binding/model.cpp): the shipped twins load, a sentence gives causal attention rows that are
// distributions, head profiles and the temperature's effect that agree with float64 arithmetic
// done here on what the core returned, and every bad input gets a clear error. The forward pass
// itself is held to an independent float64 model in tests/cpp/test_model.cpp.
// Run: node --test tests/js/language-model.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';

const ASSETS = new URL('../../web/assets/model/', import.meta.url);
const engine = await createEngine();
const vocabulary = fs.readFileSync(new URL('vocab.txt', ASSETS), 'utf8');
const weights = (variant) => fs.readFileSync(new URL(`${variant}.weights`, ASSETS));
const VOCAB = JSON.parse(fs.readFileSync(new URL('model.json', ASSETS), 'utf8')).settings.vocab;
const SENTENCE = 'the cat sat on the mat because it was tired'.split(' ');

test('language model: both twins load with the settings of model.json; unknown words are id 0', async () => {
  const model = JSON.parse(fs.readFileSync(new URL('model.json', ASSETS), 'utf8'));
  for (const variant of ['scaled', 'unscaled']) {
    const m = await engine.loadModel(weights(variant), vocabulary);
    const s = model.settings;
    assert.deepEqual([m.config.layers, m.config.heads, m.config.dModel, m.config.context, m.config.vocab, m.config.parameters],
      [s.layers, s.heads, s.dModel, s.context, s.vocab, s.parameters]);
    assert.equal(m.config.scaled, variant === 'scaled');
    assert.equal(m.config.scale, variant === 'scaled' ? Math.fround(1 / Math.sqrt(32)) : 1);
    assert.equal(m.config.encoding, 'int8');
    const r = m.predict(['the', 'zyxwvut', 'a', 'I']);
    assert.deepEqual(r.known, [true, false, true, true]);
    assert.equal(r.ids[1], 0);
    assert.equal(m.vocabulary[r.ids[3]], 'i');
    m.dispose();
  }
});

test('language model: every row of every head is causal and a distribution; the profiles are its averages', async () => {
  const m = await engine.loadModel(weights('scaled'), vocabulary);
  const r = m.predict(SENTENCE);
  const T = SENTENCE.length;
  assert.equal(r.attention.length, 2);
  assert.equal(r.attention[0].length, 4);
  for (const [l, layer] of r.attention.entries())
    for (const [h, w] of layer.entries()) {
      let previous = 0, first = 0, self = 0, spread = 0;
      for (let i = 0; i < T; i++) {
        let sum = 0, entropy = 0;
        for (let j = 0; j < T; j++) {
          const p = w[i * T + j];
          if (j > i) assert.equal(p, 0, `layer ${l + 1} head ${h + 1}: row ${i + 1} sees token ${j + 1}`);
          assert.ok(p >= 0);
          sum += p;
          if (p > 0) entropy -= p * Math.log(p);
        }
        assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i + 1} sums to ${sum}`);
        if (i === 0) continue;
        previous += w[i * T + i - 1];
        first += w[i * T];
        self += w[i * T + i];
        spread += entropy / Math.log(i + 1);
      }
      const p = r.heads[l * 4 + h];
      assert.deepEqual([p.layer, p.head], [l + 1, h + 1]);
      for (const [name, value] of Object.entries({ previous, first, self, spread })) assert.ok(Math.abs(p[name] - value / (T - 1)) < 1e-5, `${name} of ${l + 1}.${h + 1}`);
      const best = Math.max(p.previous, p.first, p.self);
      const expected = best >= 0.5 ? ['previous', 'first', 'self'][[p.previous, p.first, p.self].indexOf(best)] : p.spread >= 0.6 ? 'broad' : 'mixed';
      assert.equal(p.role, expected);
    }
  m.dispose();
});

test('language model: the next word — most likely first, a distribution, and a temperature T raises it to the power 1/T', async () => {
  const m = await engine.loadModel(weights('scaled'), vocabulary);
  const at1 = m.predict(SENTENCE, { position: 4, top: 100 }).next; // after "the cat sat on the"
  const ps = at1.top.map((w) => w.probability);
  for (let k = 1; k < ps.length; k++) assert.ok(ps[k] <= ps[k - 1]);
  assert.ok(ps.reduce((a, b) => a + b) <= 1 + 1e-6);
  assert.ok(at1.entropy > 0 && at1.entropy < Math.log(VOCAB));
  const at2 = m.predict(SENTENCE, { position: 4, top: 100, temperature: 2 }).next;
  // p_T(a) / p_T(b) = (p(a) / p(b))^(1/T), for the words both lists hold
  const byWord = new Map(at2.top.map((w) => [w.id, w.probability]));
  const [a, b] = at1.top;
  assert.ok(Math.abs(Math.log(byWord.get(a.id) / byWord.get(b.id)) - Math.log(a.probability / b.probability) / 2) < 1e-4);
  assert.ok(at2.entropy > at1.entropy, 'a higher temperature spreads the distribution');
  const cold = m.predict(SENTENCE, { position: 4, temperature: 0.05 }).next;
  assert.equal(cold.top[0].id, a.id);
  assert.ok(cold.top[0].probability > 0.99);
  m.dispose();
});

test('language model: next.probs is the whole distribution; top, unknown and entropy are read from it', async () => {
  const m = await engine.loadModel(weights('scaled'), vocabulary);
  const { next } = m.predict(SENTENCE, { position: 4, temperature: 0.7 });
  assert.equal(next.probs.length, VOCAB);
  let sum = 0, entropy = 0;
  for (const p of next.probs) {
    assert.ok(p >= 0);
    sum += p;
    if (p > 0) entropy -= p * Math.log(p);
  }
  assert.ok(Math.abs(sum - 1) < 1e-5, `sums to ${sum}`);
  assert.ok(Math.abs(entropy - next.entropy) < 1e-4);
  assert.equal(next.unknown, next.probs[0]);
  for (const w of next.top) assert.equal(w.probability, next.probs[w.id]);
  const best = next.probs.reduce((b, p, id) => (p > next.probs[b] ? id : b), 0);
  assert.equal(next.top[0].id, best);
  m.dispose();
});

test('language model: without √d_k at inference the first layer\'s log-odds grow √32 times; the unscaled twin is unchanged', async () => {
  const [s, u] = await Promise.all(['scaled', 'unscaled'].map((v) => engine.loadModel(weights(v), vocabulary)));
  const T = SENTENCE.length;
  const as = s.predict(SENTENCE), off = s.predict(SENTENCE, { scaleAtInference: false });
  assert.equal(off.scaleAtInference, false);
  // layer 1's queries and keys do not depend on attention: only the factor on the scores changed,
  // so log(w'_ij / w'_ir) = √32 · log(w_ij / w_ir) wherever the weights have not underflowed, r being
  // the row's heaviest key without √d_k (peaked rows leave the others near float32's smallest numbers)
  let checked = 0, entropyOn = 0, entropyOff = 0;
  for (let h = 0; h < 4; h++) {
    const w = as.attention[0][h], x = off.attention[0][h];
    for (let i = 1; i < T; i++) {
      let r = 0;
      for (let j = 1; j <= i; j++) if (x[i * T + j] > x[i * T + r]) r = j;
      for (let j = 0; j <= i; j++) {
        const a = w[i * T + j], b = w[i * T + r], c = x[i * T + j], d = x[i * T + r];
        if (j === r || Math.min(a, b, c, d) < 1e-30) continue;
        const expected = Math.sqrt(32) * Math.log(a / b);
        assert.ok(Math.abs(Math.log(c / d) - expected) < 2e-3 * Math.max(1, Math.abs(expected)), `head ${h + 1} row ${i + 1}: ${Math.log(c / d)} vs ${expected}`);
        checked++;
      }
      for (let j = 0; j <= i; j++) {
        if (w[i * T + j] > 0) entropyOn -= w[i * T + j] * Math.log(w[i * T + j]);
        if (x[i * T + j] > 0) entropyOff -= x[i * T + j] * Math.log(x[i * T + j]);
      }
    }
  }
  assert.ok(checked > 20, `only ${checked} pairs checked`);
  assert.ok(entropyOff < 0.5 * entropyOn, `rows collapse: entropy ${entropyOff} vs ${entropyOn}`);
  const a = u.predict(SENTENCE), b = u.predict(SENTENCE, { scaleAtInference: false });
  assert.deepEqual(b.attention, a.attention);
  assert.deepEqual(b.next.probs, a.next.probs);
  s.dispose();
  u.dispose();
});

test('language model: the twins give different rows for the same sentence', async () => {
  const [s, u] = await Promise.all(['scaled', 'unscaled'].map((v) => engine.loadModel(weights(v), vocabulary)));
  const a = s.predict(SENTENCE).attention[0][0], b = u.predict(SENTENCE).attention[0][0];
  assert.ok(a.some((x, i) => Math.abs(x - b[i]) > 1e-3));
  s.dispose();
  u.dispose();
});

test('language model: bad input gets a clear error, never a crash', async () => {
  const good = weights('scaled');
  const flipped = Uint8Array.from(good);
  flipped[1000] ^= 1;
  await assert.rejects(() => engine.loadModel(flipped, vocabulary), /checksum/);
  await assert.rejects(() => engine.loadModel(good.subarray(0, 20), vocabulary), /RangeError|short|truncated|bytes/i);
  await assert.rejects(() => engine.loadModel(new TextEncoder().encode('not a model at all, just some text here to be long enough for a header'), vocabulary), /magic|not a|weights/i);
  await assert.rejects(() => engine.loadModel('scaled.weights', vocabulary), /ArrayBuffer/);
  await assert.rejects(() => engine.loadModel(good, 'the\ncat\n'), new RegExp(`vocabulary has 2 tokens, the weights ${VOCAB}`));
  const m = await engine.loadModel(good, vocabulary);
  assert.throws(() => m.predict([]), /tokens/);
  const long = m.predict(Array(65).fill('the')); // past the context: the rest left out, and said
  assert.deepEqual([long.tokens.length, long.truncated, long.position], [64, 1, 63]);
  assert.throws(() => m.predict(SENTENCE, { span: SENTENCE.length }), /span/);
  assert.throws(() => m.measureHeads([SENTENCE, SENTENCE.slice(1)]), (e) => e.code === 'ATTN_INVALID_SHAPE' && /windows\[1\]/.test(e.message));
  assert.throws(() => m.measureHeads([]), /length/);
  assert.throws(() => m.measureHeads([SENTENCE], { span: SENTENCE.length }), /span/);
  assert.throws(() => m.measureHeads('the cat'), /array of token arrays/);
  assert.throws(() => m.predict(SENTENCE, { position: 10 }), /position/);
  assert.throws(() => m.predict(SENTENCE, { temperature: 0 }), /temperature/);
  assert.throws(() => m.predict(SENTENCE, { temperature: Number.NaN }), /temperature/);
  assert.throws(() => m.predict(SENTENCE, { top: 0 }), /top/);
  assert.throws(() => m.predict('the cat'), /array/);
  m.dispose();
  assert.throws(() => m.predict(SENTENCE), /disposed/);
  m.dispose(); // twice: nothing
  // the engine holds at most limits.model.maxModels; a disposed one frees its place
  const held = await Promise.all(Array.from({ length: engine.limits.model.maxModels }, () => engine.loadModel(good, vocabulary)));
  await assert.rejects(() => engine.loadModel(good, vocabulary), /models are loaded/);
  for (const x of held) x.dispose();
  (await engine.loadModel(good, vocabulary)).dispose();
});
