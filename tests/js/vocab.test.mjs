// Tests the committed GloVe asset (web/assets/glove-100d.bin) through web/core/vocab.js against
// the raw source vectors in tests/fixtures/glove-sample.json. Both come from
// scripts/build-vocab.mjs. Run: node --test tests/js/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { decodeVocab, decodeWordSubset, fetchVocab, readVocabHeader } from '../../web/core/vocab.js';

const ASSET = new URL('../../web/assets/glove-100d.bin', import.meta.url);
const FIXTURE = new URL('../fixtures/glove-sample.json', import.meta.url);

const MAX_BYTES = 1_000_000;
const MIN_WORDS = 20_000;
const SENTENCE = 'the cat sat on the mat because it was tired'.split(' ');
// Stored as float32 by build-vocab (EXACT_WORDS) so the explainer's headline numbers are GloVe's own.
const EXACT_WORDS = [...new Set([...SENTENCE, 'animal', 'dog'])];
// Decoded components are float32: one rounding of |x̂| (2^-24) plus the f32 header fields, with room.
const FLOAT32_SLACK = 1e-6;
// build-vocab measured 0.097 over all 20,000 quantised words; a regression guard, not the bound.
const MEASURED_REL_RMS_MAX = 0.11;

const bytes = fs.readFileSync(ASSET);
const fixture = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
const header = readVocabHeader(bytes);
const t0 = performance.now();
const vocab = decodeVocab(bytes);
const decodeMs = performance.now() - t0;

// Format guarantee, per quantised vector with y = x − μ (see web/assets/README.md):
//   rounding y to a step of relStep·rms(y) errs by ≤ step/2 per component, ≤ relStep/2·|y| in all;
//   rescaling the step so |ŷ| = |y| moves ŷ by ||ŷ₀| − |y|| ≤ |ŷ₀ − y|, so ≤ relStep·|y| in all;
//   the u8 log step code is off by at most half a level, a factor (stepHi/stepLo)^(1/510).
const REL_ERR_BOUND = header.relStep + (header.stepHi / header.stepLo) ** (1 / 510) - 1;

function dot(a, b) {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}

const norm = (a) => Math.sqrt(dot(a, a));

// The test's own float64 reference softmax (max-subtracted).
function softmax(s) {
  const m = Math.max(...s);
  const e = s.map((v) => Math.exp(v - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
}

// Headline numbers: q = k = word vector, d_k = 100, keys = the 10 tokens of SENTENCE.
function headline(vec) {
  const keys = SENTENCE.map(vec);
  const cat = keys.map((k) => dot(vec('cat'), k));
  const probe = softmax(keys.map((k) => dot(vec('animal'), k) / Math.sqrt(100)));
  const top = probe.indexOf(Math.max(...probe));
  return {
    catSelf: softmax(cat)[1].toFixed(2),
    catSelfScaled: softmax(cat.map((s) => s / Math.sqrt(100)))[1].toFixed(2),
    animalTop: SENTENCE[top],
    animalTopWeight: probe[top].toFixed(2),
  };
}

const EXPECTED_HEADLINE = { catSelf: '1.00', catSelfScaled: '0.36', animalTop: 'cat', animalTopWeight: '0.18' };
const raw = new Map(fixture.words.map((r) => [r.word, r.vector]));

test('(a) asset fits the budget: ≤ 1,000,000 bytes, ≥ 20,000 words, 100 dims', (t) => {
  t.diagnostic(`${bytes.length} bytes, ${vocab.size} words, relStep ${header.relStep.toFixed(3)}, decode ${decodeMs.toFixed(1)} ms`);
  assert.ok(bytes.length <= MAX_BYTES, `${bytes.length} bytes`);
  assert.ok(vocab.size >= MIN_WORDS, `${vocab.size} words`);
  assert.equal(vocab.words.length, vocab.size);
  assert.equal(vocab.dim, 100);
  assert.equal(header.dim, 100);
  assert.equal(vocab.words[0], 'the', 'frequency order: "the" first');
});

test('(b) fixture words are present and within the format error bound', () => {
  assert.ok(REL_ERR_BOUND > 0 && REL_ERR_BOUND < 0.4, `bound ${REL_ERR_BOUND}`);
  assert.ok(fixture.words.length >= 100);
  assert.equal(fixture.words.at(-1).rank, vocab.size - 1, 'fixture includes the last word kept');
  let rel2 = 0, quantised = 0;
  for (const { word, rank, vector: x } of fixture.words) {
    assert.ok(vocab.has(word), `missing "${word}"`);
    assert.equal(vocab.words[rank], word, `rank of "${word}"`);
    const v = vocab.vector(word);
    assert.ok(v instanceof Float32Array && v.length === 100);
    const err = norm(x.map((xk, k) => xk - v[k]));
    if (EXACT_WORDS.includes(word)) {
      assert.ok(err <= FLOAT32_SLACK * norm(x), `"${word}" should be exact, error ${err}`);
      continue;
    }
    const y = x.map((xk, k) => xk - header.mean[k]);
    const bound = REL_ERR_BOUND * norm(y) + FLOAT32_SLACK * norm(x);
    assert.ok(err <= bound, `"${word}": |x̂ − x| = ${err.toFixed(4)} > bound ${bound.toFixed(4)}`);
    rel2 += (err / norm(x)) ** 2;
    quantised++;
  }
  const relRms = Math.sqrt(rel2 / quantised);
  assert.ok(relRms <= MEASURED_REL_RMS_MAX, `relative RMS error ${relRms.toFixed(4)}`);
});

test('lookups: unknown words, fresh arrays', () => {
  assert.equal(vocab.has('qwertyuiopasdf'), false);
  assert.equal(vocab.vector('qwertyuiopasdf'), null);
  for (const w of ['cat', 'aek']) {
    const a = vocab.vector(w);
    a.fill(0);
    assert.notDeepEqual(vocab.vector(w), a, `vector("${w}") must not share storage`);
  }
});

test('(c) headline numbers hold with raw (float64) and decoded vectors', () => {
  const rawVec = (w) => raw.get(w);
  assert.deepEqual(headline(rawVec), EXPECTED_HEADLINE, 'raw source vectors');
  assert.deepEqual(headline((w) => vocab.vector(w)), EXPECTED_HEADLINE, 'decoded vectors');
});

test('(d) corrupt or truncated buffers throw a clear Error', () => {
  const copy = () => new Uint8Array(bytes);
  const badMagic = copy();
  badMagic[0] = 0x58;
  assert.throws(() => decodeVocab(badMagic), /decodeVocab: bad magic/);
  const badVersion = copy();
  badVersion[4] = 99;
  assert.throws(() => decodeVocab(badVersion), /decodeVocab: unsupported version 99/);
  for (const n of [0, 3, 10, 500, bytes.length >> 1, bytes.length - 1]) {
    assert.throws(() => decodeVocab(bytes.subarray(0, n)), /decodeVocab: .*(truncated|corrupt)/, `truncated to ${n}`);
  }
  const flipped = copy();
  flipped[bytes.length >> 1] ^= 0x40; // inside the codes stream
  assert.throws(() => decodeVocab(flipped), /decodeVocab: codes stream is corrupt/);
  const extra = new Uint8Array(bytes.length + 1);
  extra.set(bytes);
  assert.throws(() => decodeVocab(extra), /unexpected bytes/);
  assert.throws(() => decodeVocab('not a buffer'), TypeError);
});

test('fetchVocab decodes a fetched body and reports HTTP errors', async () => {
  const realFetch = globalThis.fetch;
  try {
    globalThis.fetch = async () => new Response(bytes);
    assert.equal((await fetchVocab('glove-100d.bin')).size, vocab.size);
    globalThis.fetch = async () => new Response('nope', { status: 404 });
    await assert.rejects(fetchVocab('missing.bin'), /fetchVocab: missing.bin: HTTP 404/);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test('the first-view word subset holds exactly the rows glove-100d.bin stores at full precision', () => {
  const vocab = decodeVocab(fs.readFileSync(ASSET));
  const subset = decodeWordSubset(JSON.parse(fs.readFileSync(new URL('../../web/assets/glove-first-view.json', import.meta.url), 'utf8')));
  assert.equal(subset.partial, true);
  assert.deepEqual([...subset.words].sort(), [...EXACT_WORDS].sort());
  assert.deepEqual([...vocab.exactWords].sort(), [...EXACT_WORDS].sort());
  // bit-identical vectors: the first view and the full vocabulary give the same numbers
  for (const word of EXACT_WORDS) assert.deepEqual(subset.vector(word), vocab.vector(word), word);
  assert.equal(subset.vector('zebra'), null);
  assert.throws(() => decodeWordSubset({ dim: 100, words: { cat: 'AAAA' } }), /"cat" has 3 bytes, expected 400/);
});
