// The GloVe vocabulary (web/core/vocab.js) against the raw source vectors of
// tests/fixtures/glove-sample.json (GloVe's float32 numbers for 620 words; both written by
// scripts/build-vocab.mjs): the stored vectors, the attention weights of many sentences computed
// by the engine from them against the same weights from the raw vectors in float64, loading in
// Node and by fetch, and corrupt files.
// Run: node --test tests/js/
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { createEngine } from 'attention-lab';
import {
  CODE_MAX, GLOVE, PACK, bucketName, bucketOf, createVocab, crc32, encodeBucket, loadVocab, parseBucket, readBytes, recordVector,
} from 'attention-lab/vocab';
import { dot64, sentenceWeights64, topOther } from '../support/reference.mjs';

const ASSETS = new URL('../../web/assets/', import.meta.url);
const GLOVE_DIR = new URL('glove/', ASSETS);
const fixture = JSON.parse(fs.readFileSync(new URL('../fixtures/glove-sample.json', import.meta.url), 'utf8'));
const fromBase64 = (b64) => new Float32Array(new Uint8Array(Buffer.from(b64, 'base64')).buffer); // little-endian hosts
const sample = fixture.words.map(({ word, rank, vector }) => ({ word, rank, vector: fromBase64(vector) }));
const raw = new Map(sample.map(({ word, vector }) => [word, vector]));

const DEMO = 'the cat sat on the mat because it was tired'.split(' ');
const PROBE = 'animal';
// The bounds on the page's weights against raw GloVe float32 (identity projection, d = 100).
const MAX_WEIGHT_DIFF = { scaled: 1e-3, unscaled: 5e-3 };
const MIN_TOP_AGREEMENT = 0.995;
const MAX_VOCAB_BYTES = 5_000_000; // every committed vocabulary file, this fixture included
// The format's promise per component: |x̂ − x| ≤ s/2 with s = max|x| / CODE_MAX. Slack: the scale
// and q·s are each rounded to float32 once (≤ 2⁻²⁴ relative each, ~|q|·s ≤ max|x|): 2⁻²² · max|x|.
const COMPONENT_BOUND = 1 / (2 * CODE_MAX);
const FLOAT32_SLACK = 2 ** -22;

const dot = dot64;

// The test's own float64 reference: softmax(x_i·x_j · scale) over a sentence, max-subtracted.
const referenceWeights = sentenceWeights64;

// Seeded sentences drawn from `pool` (an LCG, independent of the core's generator).
function sentences(pool, count, length, seed) {
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => Array.from({ length }, () => pool[Math.floor(next() * pool.length)]));
}

const engine = await createEngine();
const vocab = await loadVocab(); // Node: every bucket, from the package's own files

// The page's weights and scores: the engine on the vocabulary's vectors, q = k = x (rows of t).
function pageResult(words, vectorOf, scale) {
  const d = GLOVE.dim, t = words.length;
  const x = new Float32Array(t * d);
  words.forEach((w, i) => x.set(vectorOf(w), i * d));
  const { weights, scores } = engine.attention({ q: x, k: x, n: t, m: t, d, scale });
  const rows = (a) => Array.from({ length: t }, (_, i) => a.subarray(i * t, (i + 1) * t));
  return { weights: rows(weights), scores: rows(scores) };
}
const pageWeights = (words, vectorOf, scale) => pageResult(words, vectorOf, scale).weights;

function compare(list, vectorOf) {
  const out = {};
  for (const [name, scale, refScale] of [['scaled', 'sqrt', 1 / Math.sqrt(GLOVE.dim)], ['unscaled', 'none', 1]]) {
    let maxDiff = 0, worst = null, rows = 0, agree = 0;
    for (const words of list) {
      const ref = referenceWeights(words.map((w) => raw.get(w)), refScale);
      const got = pageResult(words, vectorOf, scale);
      ref.forEach((row, i) => {
        row.forEach((w, j) => {
          const diff = Math.abs(w - got.weights[i][j]);
          if (diff > maxDiff) [maxDiff, worst] = [diff, `${words[i]} → ${words[j]} in "${words.join(' ')}"`];
        });
        const top = topOther(row, words, i);
        if (top < 0) return;
        rows++;
        // by score, which orders keys as the weights do: unscaled, float32 weights of the other
        // words often underflow to 0 together, where the float64 reference still ranks them
        if (top === topOther(got.scores[i], words, i)) agree++;
      });
    }
    out[name] = { maxDiff, worst, agreement: agree / rows, rows };
  }
  return out;
}

const words = sample.map(({ word }) => word);
const common = sample.filter(({ rank }) => rank < 300).map(({ word }) => word);
const SENTENCES = [
  ...sentences(words, 1500, 10, 1), // any vocabulary words
  ...sentences(common, 1500, 10, 2), // common words: more near-ties
  ...sentences(words, 200, 3, 3), // short sentences: fewer keys to share the weight
];

test('the files: 2048 buckets of the 20,000 most frequent words (and the induced), every vocabulary file ≤ 5 MB in all', (t) => {
  const names = fs.readdirSync(GLOVE_DIR).sort();
  const expected = [...Array.from({ length: GLOVE.buckets }, (_, b) => bucketName(b)), GLOVE.firstView, GLOVE.contextMap].sort();
  assert.deepEqual(names, expected);
  let bucketBytes = 0, count = 0;
  for (let b = 0; b < GLOVE.buckets; b++) {
    const bytes = fs.readFileSync(new URL(bucketName(b), GLOVE_DIR));
    bucketBytes += bytes.length;
    count += parseBucket(bytes, { bucket: b }).records.filter((r) => !r.induced).length; // GloVe's; the induced: vocab-induced.test.mjs
  }
  assert.equal(count, GLOVE.size);
  assert.equal(GLOVE.size, 20_000);
  assert.equal(fixture.size, GLOVE.size);
  // the 20,000 most frequent: the fixture's ranks 0 … 19,999 are all in, in the fixture's order
  for (const { word, rank } of sample) assert.equal(vocab.status(word), 'known', `"${word}" (rank ${rank})`);
  assert.equal(sample.at(-1).rank, GLOVE.size - 1, 'the fixture holds the last word kept');

  const vocabFiles = [
    ...names.map((n) => new URL(n, GLOVE_DIR)),
    new URL('../fixtures/glove-sample.json', import.meta.url),
  ];
  const total = vocabFiles.reduce((t, url) => t + fs.statSync(url).size, 0);
  t.diagnostic(`buckets ${bucketBytes} bytes; all vocabulary files ${total} bytes`);
  assert.ok(total <= MAX_VOCAB_BYTES, `${total} bytes`);
});

test('every stored component is within max|x| / 4094 of raw GloVe float32', () => {
  let worst = 0;
  for (const { word, vector: x } of sample) {
    const v = vocab.vector(word);
    assert.ok(v instanceof Float32Array && v.length === GLOVE.dim, word);
    const max = x.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
    x.forEach((c, k) => {
      const err = Math.abs(v[k] - c);
      worst = Math.max(worst, err / max);
      assert.ok(err <= (COMPONENT_BOUND + FLOAT32_SLACK) * max, `"${word}"[${k}]: ${v[k]} vs ${c}`);
    });
  }
  // and not exact: this test would notice vectors that are stored exactly by accident of a fixture copy
  assert.ok(worst > COMPONENT_BOUND / 4, `worst ${worst}`);
});

test(`weights of ${SENTENCES.length} sentences (engine, identity, d = 100) against raw GloVe in float64: the issue's bounds`, (t) => {
  const r = compare(SENTENCES, (w) => vocab.vector(w));
  t.diagnostic(`scaled: max |Δw| ${r.scaled.maxDiff.toExponential(2)} (${r.scaled.worst}); unscaled: ${r.unscaled.maxDiff.toExponential(2)} (${r.unscaled.worst}); ` +
    `top other word agrees in ${(100 * r.scaled.agreement).toFixed(2)} % / ${(100 * r.unscaled.agreement).toFixed(2)} % of ${r.scaled.rows} rows`);
  for (const name of ['scaled', 'unscaled']) {
    assert.ok(r[name].maxDiff <= MAX_WEIGHT_DIFF[name], `${name}: max |Δweight| ${r[name].maxDiff} at ${r[name].worst}`);
    assert.ok(r[name].agreement >= MIN_TOP_AGREEMENT, `${name}: agreement ${r[name].agreement}`);
  }
});

// The raw vectors in 8 bits (per-vector scale max|x|/127): the coarsest code the format's design
// weighed (docs/vocabulary.md, "Why 12 bits"), measured there to exceed both bounds.
const EIGHT_BIT_MAX = 127;
function eightBit(x) {
  const scale = x.reduce((m, c) => Math.max(m, Math.abs(c)), 0) / EIGHT_BIT_MAX;
  return Float32Array.from(x, (c) => Math.round(c / scale) * scale);
}

test('the same comparison fails for the raw vectors in 8 bits: the bounds discriminate', () => {
  const r = compare(SENTENCES.slice(0, 400), (w) => (raw.has(w) ? eightBit(raw.get(w)) : null));
  assert.ok(r.scaled.maxDiff > MAX_WEIGHT_DIFF.scaled && r.unscaled.maxDiff > MAX_WEIGHT_DIFF.unscaled, JSON.stringify(r));
});

test('two-word sentences, every pair of fixture words (float64): the worst case within the bounds', (t) => {
  // Where a row's two scores nearly tie, an error in their difference moves the weight most;
  // row i of {i, j} puts σ(x_i·x_j − x_i·x_i) on j. All 620² pairs, decoded against raw.
  const X = words.map((w) => raw.get(w)), Y = words.map((w) => vocab.vector(w));
  const sigma = (z) => 1 / (1 + Math.exp(-z));
  const worst = { scaled: 0, unscaled: 0 };
  X.forEach((xi, i) => {
    const xii = dot(xi, xi), yii = dot(Y[i], Y[i]);
    X.forEach((xj, j) => {
      if (i === j) return;
      const dx = dot(xi, xj) - xii, dy = dot(Y[i], Y[j]) - yii;
      worst.scaled = Math.max(worst.scaled, Math.abs(sigma(dx / Math.sqrt(GLOVE.dim)) - sigma(dy / Math.sqrt(GLOVE.dim))));
      worst.unscaled = Math.max(worst.unscaled, Math.abs(sigma(dx) - sigma(dy)));
    });
  });
  t.diagnostic(`worst |Δw|: ${worst.scaled.toExponential(2)} scaled, ${worst.unscaled.toExponential(2)} unscaled`);
  assert.ok(worst.scaled <= MAX_WEIGHT_DIFF.scaled && worst.unscaled <= MAX_WEIGHT_DIFF.unscaled, JSON.stringify(worst));
});

test("the headline numbers are GloVe's own: cat 1.00 unscaled, 0.36 scaled; animal's largest weight 0.18 on cat", () => {
  const unscaled = pageWeights(DEMO, (w) => vocab.vector(w), 'none');
  const scaled = pageWeights(DEMO, (w) => vocab.vector(w), 'sqrt');
  assert.equal(unscaled[1][1].toFixed(2), '1.00');
  assert.equal(scaled[1][1].toFixed(2), '0.36');
  const x = new Float32Array(DEMO.length * GLOVE.dim);
  DEMO.forEach((w, i) => x.set(vocab.vector(w), i * GLOVE.dim));
  const { weights } = engine.attention({ q: vocab.vector(PROBE), k: x, n: 1, m: DEMO.length, d: GLOVE.dim });
  const top = weights.indexOf(Math.max(...weights));
  assert.equal(DEMO[top], 'cat');
  assert.equal(weights[top].toFixed(2), '0.18');
});

test('status: loading until its bucket is in, then known or unknown; one read per bucket', async () => {
  const reads = [];
  const v = createVocab({ read: (url) => (reads.push(url.href), readBytes(url)) });
  assert.equal(v.status('cat'), 'loading');
  assert.equal(v.vector('cat'), null);
  assert.equal(v.has('cat'), false);
  const absent = 'qwertyuiopasdf';
  await Promise.all([v.load(['cat', 'cat', absent]), v.load(['cat'])]); // concurrent loads share a read
  // a word the files lack brings the context map (read once), which makes its vector from its sentence
  assert.deepEqual(reads.map((h) => h.slice(h.lastIndexOf('/') + 1)).sort(), [bucketName(bucketOf('cat')), bucketName(bucketOf(absent)), GLOVE.contextMap].sort());
  assert.equal(v.contextMap().window, 5);
  assert.equal(v.status('cat'), 'known');
  assert.equal(v.status(absent), 'unknown');
  assert.equal(v.status(''), 'unknown');
  assert.equal(v.status('x'.repeat(300)), 'unknown', 'longer than any stored word');
  assert.equal(v.loadedBuckets, 2);
  await v.load(['cat', absent]);
  assert.equal(reads.length, 3, 'nothing read again');
  // a fresh copy on every call
  const a = v.vector('cat');
  a.fill(0);
  assert.deepEqual(v.vector('cat'), vocab.vector('cat'));
});

test('the context map: only with a word the files lack; if it cannot be read, such words stay unknown', async () => {
  const reads = [];
  const v = createVocab({ read: (url) => (reads.push(url.href), readBytes(url)) });
  await v.load(['cat', 'dog']);
  assert.equal(v.contextMap(), null);
  assert.ok(!reads.some((h) => h.endsWith(GLOVE.contextMap)), 'known words need no map');
  const failing = createVocab({ read: (url) => (url.href.endsWith(GLOVE.contextMap) ? Promise.reject(new Error(`${url.href}: HTTP 404`)) : readBytes(url)) });
  const pending = failing.load(['qwertyuiopasdf']);
  await pending;
  assert.equal(failing.status('qwertyuiopasdf'), 'unknown');
  assert.equal(failing.contextMap(), null);
  assert.match(failing.contextMapError.message, /context-map\.bin: HTTP 404/);
  await assert.rejects(failing.loadContextMap(), /HTTP 404/);
});

test('the first-view pack: the demo words without a bucket, the same numbers as their buckets', async () => {
  const reads = [];
  const v = createVocab({ preload: [GLOVE.firstView], read: (url) => (reads.push(url.pathname), readBytes(url)) });
  await v.load([...DEMO, PROBE]);
  assert.deepEqual(reads.map((p) => p.slice(p.lastIndexOf('/') + 1)), [GLOVE.firstView]);
  for (const w of [...DEMO, PROBE]) assert.deepEqual(v.vector(w), vocab.vector(w), w);
  assert.equal(v.status('ocean'), 'loading');
  const pack = parseBucket(fs.readFileSync(new URL(GLOVE.firstView, GLOVE_DIR)), { bucket: PACK });
  assert.deepEqual(pack.records.map((r) => r.word).sort(), [...new Set([...DEMO, PROBE])].sort());
  // a pack that cannot be read is skipped: its words come from their buckets
  const w = createVocab({ preload: ['missing.bin'] });
  await w.load(['cat']);
  assert.equal(w.status('cat'), 'known');
});

test('Node: the package exports the vocabulary and its files; loadVocab shares one vocabulary', async () => {
  assert.equal(await loadVocab(['dog']), vocab);
  assert.ok(createRequire(import.meta.url).resolve('attention-lab/assets/glove/000.bin').endsWith('/web/assets/glove/000.bin'));
  assert.ok(vocab.base.startsWith('file:') && vocab.base.endsWith('/web/assets/glove/'));
  assert.equal(vocab.loadedBuckets, GLOVE.buckets);
  // file: URLs are read with node:fs (Node's fetch cannot), and a missing file is named
  await assert.rejects(readBytes(new URL('nope.bin', ASSETS)), /file:.*nope\.bin: ENOENT/);
});

test('Node: loading every bucket works under a limit of 64 open files', { skip: process.platform !== 'linux' }, () => {
  const module = new URL('../../web/core/vocab.js', import.meta.url).href;
  const script = `const { loadVocab } = await import(${JSON.stringify(module)}); console.log((await loadVocab()).loadedBuckets);`;
  const out = execFileSync('bash', ['-c', 'ulimit -n 64 && exec "$0" --input-type=module -e "$1"', process.execPath, script], { encoding: 'utf8' });
  assert.equal(out.trim(), String(GLOVE.buckets));
});

test('browsers: buckets are fetched relative to the base; HTTP errors name the URL, and a later load retries', async () => {
  const realFetch = globalThis.fetch;
  const requested = [];
  let fail = true;
  try {
    globalThis.fetch = async (href) => {
      requested.push(href);
      if (fail) return new Response('nope', { status: 404 });
      return new Response(fs.readFileSync(new URL(href.slice(href.lastIndexOf('/') + 1), GLOVE_DIR)));
    };
    const v = createVocab({ base: 'https://example.test/lab/assets/glove/' });
    const cat = bucketName(bucketOf('cat'));
    await assert.rejects(v.load(['cat']), new RegExp(`https://example.test/lab/assets/glove/${cat}: HTTP 404`));
    assert.equal(v.status('cat'), 'loading');
    fail = false;
    await v.load(['cat']);
    assert.equal(v.status('cat'), 'known');
    assert.deepEqual(requested, [`https://example.test/lab/assets/glove/${cat}`, `https://example.test/lab/assets/glove/${cat}`]);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test('bad arguments throw a TypeError naming them', async () => {
  assert.throws(() => vocab.vector(42), /vector: word must be a string, got number 42/);
  assert.throws(() => vocab.status(null), /status: word must be a string, got null/);
  await assert.rejects(vocab.load('cat'), /load: words must be an array \(or other iterable\) of strings, got the string "cat"/);
  await assert.rejects(vocab.load(['cat', 7]), /load: words\[1\] must be a string, got number 7/);
  await assert.rejects(vocab.load(), /load: words must be .* got undefined$/); // never every bucket by accident
  assert.throws(() => parseBucket('bytes'), TypeError);
});

test('corrupt, truncated or misplaced bucket files fail with a message naming the file', async () => {
  const b = bucketOf('cat');
  const name = bucketName(b);
  const bytes = fs.readFileSync(new URL(name, GLOVE_DIR));
  const parse = (data, bucket = b) => parseBucket(data, { name, bucket });
  const copy = () => new Uint8Array(bytes);
  assert.equal(parse(bytes).records.length > 0, true);

  const magic = copy();
  magic[0] = 0x58;
  assert.throws(() => parse(magic), new RegExp(`${name}: bad magic "XLVB"`));
  const version = copy();
  version[4] = 9;
  assert.throws(() => parse(version), /unsupported version 9/);
  const dim = copy();
  dim[6] = 50;
  assert.throws(() => parse(dim), /dim 50.*out of step/);
  for (const n of [0, 3, 17, 40, bytes.length >> 1, bytes.length - 1]) {
    assert.throws(() => parse(bytes.subarray(0, n)), new RegExp(`${name}: file truncated while reading`), `truncated to ${n}`);
  }
  const flipped = copy();
  flipped[bytes.length - 20] ^= 0x10; // a code of the last record
  assert.throws(() => parse(flipped), new RegExp(`${name}: checksum mismatch .*: the file is corrupt`));
  const extra = new Uint8Array(bytes.length + 1);
  extra.set(bytes);
  assert.throws(() => parse(extra), /1 unexpected bytes after the checksum/);
  assert.throws(() => parse(bytes, (b + 1) % GLOVE.buckets), new RegExp(`holds bucket ${b}, expected ${(b + 1) % GLOVE.buckets}`));
  // a file whose header names the right bucket but holds another bucket's words
  const other = parseBucket(fs.readFileSync(new URL(bucketName((b + 1) % GLOVE.buckets), GLOVE_DIR)));
  assert.throws(() => parse(encodeBucket({ bucket: b, records: other.records })), /belongs in bucket/);

  // through the vocabulary: the load rejects, the word stays 'loading', other words are unaffected
  const v = createVocab({ read: async (url) => (url.href.endsWith(name) ? flipped : readBytes(url)) });
  await assert.rejects(v.load(['cat', 'dog']), /checksum mismatch/);
  assert.equal(v.status('cat'), 'loading');
  if (bucketOf('dog') !== b) assert.equal(v.status('dog'), 'known');
});

test('encodeBucket and parseBucket are inverses on every committed bucket; CRC-32 is the standard one', () => {
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926); // the published check value
  for (let b = 0; b < GLOVE.buckets; b += 37) {
    const bytes = new Uint8Array(fs.readFileSync(new URL(bucketName(b), GLOVE_DIR)));
    assert.deepEqual(encodeBucket(parseBucket(bytes)), bytes, bucketName(b));
  }
  assert.deepEqual(Array.from(recordVector({ scale: 0.5, q: [-CODE_MAX, 0, 3] })), [-CODE_MAX / 2, 0, 1.5]);
  assert.throws(() => encodeBucket({ bucket: 0, records: [{ word: 'a', scale: 1, q: new Int16Array(GLOVE.dim).fill(CODE_MAX + 1) }] }), /code 2048/);
});

test('a stalled file: asked again once, then the load rejects naming the file; the next load asks again', { timeout: 10000 }, async () => {
  const asked = [];
  let stall = true;
  const read = (url, { signal } = {}) => {
    asked.push(String(url));
    if (!stall) return readBytes(url);
    // a request that never answers, until it is aborted
    return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));
  };
  const vocab = createVocab({ read, timeoutMs: 100 });
  const file = bucketName(bucketOf('ocean'));
  await assert.rejects(vocab.load(['ocean']), (error) => {
    assert.equal(error.code, 'ATTN_LOAD_FAILED');
    assert.match(error.message, new RegExp(`${file.replace('.', '\\.')} did not arrive within 0\\.1 s \\(asked twice\\)`));
    assert.equal(error.key, 'vocab.timeout');
    return true;
  });
  assert.equal(asked.length, 2, 'asked once, and once again');
  assert.equal(vocab.status('ocean'), 'loading');
  stall = false;
  await vocab.load(['ocean']);
  assert.equal(vocab.status('ocean'), 'known');
  // a stalled first-view pack holds no word back for long: it is skipped
  const packed = createVocab({ read: (url, options) => (String(url).endsWith(GLOVE.firstView) ? read.call(null, url, options) : readBytes(url)), timeoutMs: 100, preload: [GLOVE.firstView] });
  stall = true;
  await Promise.race([packed.load(['cat']), new Promise((_, reject) => setTimeout(() => reject(new Error('a stalled pack held the words back')), 2000))]);
  assert.equal(packed.status('cat'), 'known');
});

test('the context map\'s window is the one the docs state', () => {
  const { window } = vocab.contextMap();
  assert.equal(window, 5);
  for (const file of ['../../docs/page.md', '../../docs/vocabulary.md']) {
    const text = fs.readFileSync(new URL(file, import.meta.url), 'utf8');
    assert.ok(text.includes(`within ${window} tokens`), `${file} says "within ${window} tokens"`);
  }
});
