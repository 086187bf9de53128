// The words GloVe's package lacks, induced by scripts/induce-vocab.mjs (à la carte, Khodak et al.
// 2018, on the Brown corpus): the least-squares map against an independent float64 solver, the
// context sums against a hand count, the number shapes, the committed files (every induced word
// finite, marked, and the vector the script computes), the coverage and the method's figures
// that docs/vocabulary.md states.
// Run: node --test tests/js/vocab-induced.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

import { createEngine } from 'attention-lab';
import {
  GLOVE, NUMBER_SHAPES, bucketName, bucketOf, encodeBucket, encodeContextMap, loadVocab, numberShape, parseBucket, parseContextMap, quantise, recordVector,
} from 'attention-lab/vocab';

import {
  EVERYDAY, WINDOW, applyMap, contextSums, cosine, fitLinearMap, induce, isHeldOutDocument, isHeldOutWord, readBrown,
} from '../../scripts/induce-vocab.mjs';
import { tokenize } from '../../web/lab/tokenize.js';
import { uniforms } from '../support/reference.mjs';

const GLOVE_DIR = new URL('../../web/assets/glove/', import.meta.url);
const DOC = fs.readFileSync(new URL('../../docs/vocabulary.md', import.meta.url), 'utf8');
// A solver's agreement with another in float64 on a well-conditioned problem.
const SOLVER_TOL = 1e-9;
// An induced vector through the 12-bit code: every component within max|x| / 4094 (+ float32 rounding).
const CODE_TOL = 1 / 4094 + 2 ** -22;

// The test's own least squares: min ‖U x − y‖ per column of V by Householder QR of U (n × d).
function householderLeastSquares(U, V) {
  const n = U.length, d = U[0].length, c = V[0].length;
  const R = U.map((row) => Array.from(row)), Y = V.map((row) => Array.from(row));
  for (let k = 0; k < d; k++) {
    let norm = 0;
    for (let i = k; i < n; i++) norm += R[i][k] ** 2;
    norm = Math.sqrt(norm);
    const alpha = R[k][k] > 0 ? -norm : norm;
    const v = new Array(n).fill(0);
    for (let i = k; i < n; i++) v[i] = R[i][k];
    v[k] -= alpha;
    const vv = v.reduce((s, x) => s + x * x, 0);
    if (vv === 0) continue;
    const reflect = (M, cols) => {
      for (let j = 0; j < cols; j++) {
        let s = 0;
        for (let i = k; i < n; i++) s += v[i] * M[i][j];
        const f = (2 * s) / vv;
        for (let i = k; i < n; i++) M[i][j] -= f * v[i];
      }
    };
    reflect(R, d);
    reflect(Y, c);
  }
  const X = Array.from({ length: d }, () => new Array(c).fill(0)); // U X ≈ V
  for (let j = 0; j < c; j++) {
    for (let i = d - 1; i >= 0; i--) {
      let s = Y[i][j];
      for (let k = i + 1; k < d; k++) s -= R[i][k] * X[k][j];
      X[i][j] = s / R[i][i];
    }
  }
  return X; // A = Xᵀ
}

test('fitLinearMap: the least-squares A of v ≈ A u equals an independent Householder QR solve (float64)', () => {
  const uniform = uniforms(7);
  const rand = () => 2 * uniform() - 1; // in [−1, 1)
  const d = 12, n = 300;
  const truth = Array.from({ length: d * d }, rand);
  const U = Array.from({ length: n }, () => Array.from({ length: d }, rand));
  // exact data: A itself comes back
  const exact = U.map((u) => Array.from(applyMap(Float64Array.from(truth), Float64Array.from(u))));
  const A0 = fitLinearMap(U, exact, d);
  for (let k = 0; k < d * d; k++) assert.ok(Math.abs(A0[k] - truth[k]) < SOLVER_TOL, `exact data, A[${k}]: ${A0[k]} vs ${truth[k]}`);
  // noisy data: A is the least-squares solution, not the truth
  const noisy = exact.map((v) => v.map((x) => x + 0.3 * rand()));
  const A = fitLinearMap(U, noisy, d);
  const X = householderLeastSquares(U, noisy);
  let maxDiff = 0, offTruth = 0;
  for (let r = 0; r < d; r++) {
    for (let c = 0; c < d; c++) {
      maxDiff = Math.max(maxDiff, Math.abs(A[r * d + c] - X[c][r]));
      offTruth = Math.max(offTruth, Math.abs(A[r * d + c] - truth[r * d + c]));
    }
  }
  assert.ok(maxDiff < SOLVER_TOL, `max |A − A_QR| ${maxDiff}`);
  assert.ok(offTruth > 1e-3, 'the noise moves the least-squares A away from the truth (the comparison can tell)');
  assert.throws(() => fitLinearMap(U.slice(0, 5), noisy.slice(0, 5), d), /not positive definite/);
});

test('contextSums: the GloVe vectors within the window, counted by hand', () => {
  const glove = new Map([['x', Float64Array.of(1, 0)], ['y', Float64Array.of(0, 1)], ['z', Float64Array.of(2, 2)]]);
  // window 1: "x a y 12 z a"
  const stats = contextSums([['x', 'a', 'y', '12', 'z', 'a']], glove, { window: 1, dim: 2 });
  // a: (x + y) at 1, (z) at 5 → sum (3, 3), 3 context words, 2 occurrences
  assert.deepEqual([...stats.get('a').sum], [3, 2 + 1]);
  assert.equal(stats.get('a').contexts, 3);
  assert.equal(stats.get('a').count, 2);
  // the number reads its shape; its neighbours y and z
  assert.deepEqual([...stats.get('<00>').sum], [2, 3]);
  // a GloVe word leaves itself out: y between a and 12 has no known neighbour
  assert.equal(stats.get('y').contexts, 0);
  assert.deepEqual([...stats.get('x').sum], [0, 0]);
  const first = contextSums([['x', 'a', 'y', '12', 'z', 'a']], glove, { window: 1, dim: 2, limit: 1 });
  assert.deepEqual([...first.get('a').sum], [1, 1]);
});

test('numberShape: every number token reads its shape; other tokens none', () => {
  const cases = {
    7: '<0>', 42: '<00>', 365: '<000>', 1990: '<0000>', 2015: '<0000>', 123456: '<00000>', '1,000': '<0,000>', '12,500,000': '<0,000>',
    '3.14': '<0.0>', '8.30': '<0.0>', '3,5': '<0.0>', '3rd': '<0th>', '21st': '<0th>', '1960s': '<0th>', '1990-91': '<0-0>', '3-2': '<0-0>', '٣': '<0>',
  };
  for (const [token, shape] of Object.entries(cases)) assert.equal(numberShape(token), shape, token);
  for (const token of ['cat', 'km2', 'b-52', 'mid-1980s', '3d', "'s", '', '<0000>']) assert.equal(numberShape(token), null, token);
  for (const token of Object.keys(cases)) assert.deepEqual(tokenize(token), [token], `${token} is one token of the lab`);
});

const vocab = await loadVocab();
const induced = [];
for (let b = 0; b < GLOVE.buckets; b++) {
  for (const r of parseBucket(fs.readFileSync(new URL(bucketName(b), GLOVE_DIR)), { bucket: b }).records) if (r.induced) induced.push(r);
}

test('the files: the induced words are there, finite, marked induced, none of them GloVe’s', () => {
  assert.equal(induced.length, GLOVE.induced, 'GLOVE.induced counts the induced words of the files');
  for (const r of induced) {
    const v = recordVector(r);
    assert.ok(v.every(Number.isFinite) && v.some((x) => x !== 0), `"${r.word}" is finite and not zero`);
    assert.equal(vocab.source(r.word), 'induced', r.word);
  }
  for (const word of ['a', 'i', "n't", "'s", "'re", "'ll", "'m", "'ve", "'d", ...NUMBER_SHAPES]) {
    assert.equal(vocab.status(word), 'known', word);
    assert.equal(vocab.source(word), 'induced', word);
  }
  for (const word of ['the', 'cat', 'mid-1980s']) assert.equal(vocab.source(word), 'glove', word);
  assert.equal(vocab.source('zorblax'), null);
  assert.equal(vocab.status('zorblax'), 'unknown');
  // every number reads its shape's vector
  assert.deepEqual(vocab.vector('1990'), vocab.vector('<0000>'));
  assert.deepEqual(vocab.vector('2,500'), vocab.vector('<0,000>'));
  assert.equal(vocab.source('8.30'), 'induced');
  // the mark survives encoding: GloVe's records first, the header counts the induced
  const b = bucketOf('a');
  const bytes = new Uint8Array(fs.readFileSync(new URL(bucketName(b), GLOVE_DIR)));
  const parsed = parseBucket(bytes, { bucket: b });
  const shuffled = [...parsed.records.filter((r) => r.induced), ...parsed.records.filter((r) => !r.induced)];
  assert.ok(shuffled[0].induced && !shuffled.at(-1).induced);
  assert.deepEqual(encodeBucket({ bucket: b, records: shuffled }), bytes, 'the encoder puts GloVe\'s records first');
  assert.equal(new DataView(bytes.buffer).getUint16(18, true), parsed.records.filter((r) => r.induced).length);
  const bad = bytes.slice();
  bad[18] = 0xff;
  bad[19] = 0xff;
  assert.throws(() => parseBucket(bad, { name: bucketName(b), bucket: b }), /says 65535 of its \d+ words are induced/);
  // the first-view pack holds GloVe words only, marked so
  assert.ok(parseBucket(fs.readFileSync(new URL(GLOVE.firstView, GLOVE_DIR))).records.every((r) => !r.induced));
});

test('a word of a held-out document only is not induced: the induction never read those documents', () => {
  const docs = readBrown();
  const seenIn = new Map();
  docs.forEach((doc, i) => {
    for (const s of doc.sentences) for (const t of s) if (!seenIn.has(t) || !isHeldOutDocument(i)) seenIn.set(t, isHeldOutDocument(i));
  });
  // "staining" (37 times, in one held-out document) is a word of the held-out part only
  assert.equal(seenIn.get('staining'), true);
  assert.equal(vocab.status('staining'), 'unknown');
  const heldOnly = [...seenIn].filter(([, held]) => held).map(([w]) => w);
  assert.ok(heldOnly.length > 1000);
  for (const w of heldOnly) if (!numberShape(w)) assert.notEqual(vocab.source(w), 'induced', w);
});

// One run of the induction (~15 s), without writing: the figures the docs state, and the files.
const run = induce({ write: false, log: () => {} });

test('the committed induced vectors are what the script computes (through the 12-bit code)', () => {
  assert.equal(run.words.length, induced.length);
  const stored = new Map(induced.map((r) => [r.word, r]));
  for (const [word, v] of run.vectors) {
    const r = stored.get(word);
    assert.ok(r, `"${word}" is in the files`);
    assert.equal(bucketOf(word), bucketOf(r.word));
    const max = v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    const got = recordVector(r);
    for (let k = 0; k < GLOVE.dim; k++) assert.ok(Math.abs(got[k] - v[k]) <= CODE_TOL * max, `"${word}"[${k}]`);
    assert.deepEqual(r.q, quantise(v).q, word);
  }
});

const pct = (x) => `${(100 * x).toFixed(2)} %`;
const f3 = (x) => x.toFixed(3);
const median = (values) => Float64Array.from(values).sort()[values.length >> 1];

test('held-out GloVe words: the map beats the plain mean of contexts, as docs/vocabulary.md says', () => {
  const withA = median(run.withA), plain = median(run.plain);
  assert.ok(withA > plain + 0.1, `median cosine ${withA} with A, ${plain} without`);
  for (const figure of [`${run.testWords.length.toLocaleString('en')} held-out`, `(${run.fitWords.length.toLocaleString('en')} words)`, `3 times**: ${run.words.length.toLocaleString('en')} words`, `median cosine **${f3(withA)}**`, `median ${f3(plain)}`]) {
    assert.ok(DOC.includes(figure), `docs/vocabulary.md says "${figure}"`);
  }
});

test('coverage: the everyday sentences have no unknown token, the held-out Brown documents the share the docs state', () => {
  const everyday = fs.readFileSync(EVERYDAY, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')).map(tokenize);
  assert.equal(everyday.length, 20);
  const share = (sentences) => {
    let n = 0, unknown = 0;
    for (const s of sentences) for (const t of s) {
      n++;
      if (vocab.status(t) !== 'known') unknown++;
    }
    return { n, unknown, share: unknown / n };
  };
  const e = share(everyday);
  assert.equal(e.unknown, 0, 'no token of the everyday sentences is unknown');
  assert.ok(e.share <= 0.01);
  const heldDocs = readBrown().filter((_, i) => isHeldOutDocument(i));
  assert.equal(heldDocs.length, 50);
  assert.equal(new Set(heldDocs.map((d) => d.name[1])).size, 15, 'the held-out documents span all 15 genres');
  const heldOut = heldDocs.flatMap((d) => d.sentences);
  assert.ok(heldOut.length >= 1000, `${heldOut.length} sentences`);
  const h = share(heldOut);
  const { before, after } = run.figures['held-out Brown documents'];
  assert.equal(h.unknown, after.unknown, 'the files know what the run says');
  for (const figure of [`${heldOut.length.toLocaleString('en')} sentences`, `${pct(before.share)}`, `**${pct(h.share)}**`, `${e.n} tokens`, `${pct(run.figures['everyday sentences (tests/fixtures)'].before.share)}`]) {
    assert.ok(DOC.includes(figure), `docs/vocabulary.md says "${figure}"`);
  }
});

// ---- a word the files lack, made from its own sentence (the lab's à la carte, one context) ----

const mapBytes = new Uint8Array(fs.readFileSync(new URL(GLOVE.contextMap, GLOVE_DIR)));
const map = parseContextMap(mapBytes, { name: GLOVE.contextMap });

test('the context map: A₁ as the script fits it, the same bytes on every run, checked on reading', () => {
  assert.equal(map.dim, GLOVE.dim);
  assert.equal(map.window, WINDOW);
  assert.equal(map.occurrences, 1);
  assert.equal(map.fitWords, run.A1FitWords);
  assert.deepEqual(encodeContextMap({ a: Float32Array.from(run.A1), window: WINDOW, occurrences: 1, fitWords: run.A1FitWords }), mapBytes,
    'the committed file is what this run of the fit writes');
  assert.equal(mapBytes.length, 16 + 4 * GLOVE.dim * GLOVE.dim + 4);
  for (const at of [0, 5, 16, mapBytes.length - 1]) {
    const bad = mapBytes.slice();
    bad[at] ^= 1;
    assert.throws(() => parseContextMap(bad, { name: 'x.bin' }), /^Error: x\.bin: /, `byte ${at} changed`);
  }
  assert.throws(() => parseContextMap(mapBytes.subarray(0, 100), { name: 'x.bin' }), /truncated/);
  assert.equal(vocab.contextMap()?.a.length, GLOVE.dim * GLOVE.dim, 'loadVocab() reads the map with the buckets');
});

// The test's own one-sentence induction, in float64: a token the files lack (`lacks`) gets
// A₁·u, u the mean of the vectors of the tokens the files know within WINDOW of it.
const vec64 = (t) => (vocab.status(t) === 'known' ? Float64Array.from(vocab.vector(t)) : null);
const A1 = Float64Array.from(map.a);
function around(s, i, lacks = (t) => vocab.status(t) !== 'known') {
  let count = 0;
  const u = new Float64Array(GLOVE.dim);
  for (let j = Math.max(0, i - WINDOW); j <= Math.min(s.length - 1, i + WINDOW); j++) {
    if (j === i || lacks(s[j])) continue;
    const v = vec64(s[j]);
    for (let k = 0; k < GLOVE.dim; k++) u[k] += v[k];
    count++;
  }
  return count ? u.map((x) => x / count) : null;
}
function times(A, u) {
  const out = new Float64Array(u.length);
  for (let r = 0; r < u.length; r++) for (let c = 0; c < u.length; c++) out[r] += A[r * u.length + c] * u[c];
  return out;
}
const quartiles = (values) => {
  const s = Float64Array.from(values).sort();
  const at = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
};
const heldOutSentences = readBrown().filter((_, i) => isHeldOutDocument(i)).flatMap((d) => d.sentences);
const engine = await createEngine();

test('engine.induceInSentence (float32, WebAssembly) gives the float64 A₁·u on held-out sentences', () => {
  // every held-out sentence with a token the files lack, up to 300
  const sentences = heldOutSentences.filter((s) => s.some((t) => vocab.status(t) !== 'known')).slice(0, 300);
  assert.equal(sentences.length, 300);
  let rows = 0, worst = 0;
  for (const s of sentences) {
    const t = s.length;
    const x = new Float32Array(t * GLOVE.dim);
    const known = new Float32Array(t);
    s.forEach((token, i) => {
      const v = vocab.vector(token);
      if (v) x.set(v, i * GLOVE.dim), (known[i] = 1);
    });
    const got = engine.induceInSentence({ t, d: GLOVE.dim, window: map.window, x, known, a: map.a });
    s.forEach((token, i) => {
      if (known[i]) return;
      const u = around(s, i);
      assert.equal(got.induced[i], u ? 1 : 0, `"${token}" in "${s.join(' ')}"`);
      if (!u) return;
      const want = times(A1, u);
      const norm = Math.hypot(...want);
      for (let k = 0; k < GLOVE.dim; k++) worst = Math.max(worst, Math.abs(got.vectors[i * GLOVE.dim + k] - want[k]) / norm);
      rows++;
    });
  }
  // float32 mean and a float32 dot of 100 terms: ~1e-7 of the vector's length; 1e-5 is far
  // below what one wrong neighbour would change (a neighbour moves u by ~1/10 of its length)
  assert.ok(worst < 1e-5, `max |Δ| / |A₁u| ${worst} over ${rows} rows`);
  assert.ok(rows > 300);
  assert.throws(() => engine.induceInSentence({ t: 2, d: GLOVE.dim, x: new Float32Array(200), known: [1, 0.5], a: map.a }), /known\[1\] is 0\.5/);
  assert.throws(() => engine.induceInSentence({ t: 2, d: GLOVE.dim, x: new Float32Array(199), known: [1, 0], a: map.a }), (e) => e.code === 'ATTN_INVALID_SHAPE');
});

const fmtPct = (x) => `${(100 * x).toFixed(2)} %`;
const thousands = (n) => n.toLocaleString('en');

test('held-out Brown sentences with one-sentence induction: ≤ 1 % unknown, as docs/vocabulary.md says', () => {
  let tokens = 0, unknown = 0, made = 0, lacking = 0;
  for (const s of heldOutSentences) {
    s.forEach((t, i) => {
      tokens++;
      if (vocab.status(t) === 'known') return;
      lacking++;
      if (around(s, i)) made++;
      else unknown++;
    });
  }
  const share = unknown / tokens;
  assert.equal(heldOutSentences.length, 5642);
  assert.ok(share <= 0.01, `${fmtPct(share)} unknown`);
  assert.equal(unknown + made, lacking);
  assert.equal(run.figures.inSentence.coverage.unknown, unknown, 'the script measures the same');
  for (const figure of [`${thousands(heldOutSentences.length)} held-out Brown sentences`, `${thousands(tokens)} tokens`, `${thousands(lacking)} tokens the files lack`,
    `${thousands(made)} of them`, `**${thousands(unknown)}** tokens, **${fmtPct(share)}**`]) {
    assert.ok(DOC.includes(figure), `docs/vocabulary.md says "${figure}"`);
  }
});

test('held-out GloVe words made from one held-out sentence: cosine to their true vector, against the plain mean', () => {
  const seen = new Set(), withA = [], plain = [];
  for (const s of heldOutSentences) {
    s.forEach((t, i) => {
      if (seen.has(t) || !isHeldOutWord(t) || vocab.source(t) !== 'glove') return;
      const u = around(s, i, (x) => x === t || vocab.status(x) !== 'known'); // as if the files lacked it
      if (!u) return;
      seen.add(t);
      const truth = vec64(t);
      withA.push(cosine(times(A1, u), truth));
      plain.push(cosine(u, truth));
    });
  }
  const a = quartiles(withA), b = quartiles(plain);
  assert.ok(a.median > b.median, `median ${a.median} with A₁, ${b.median} without`);
  assert.ok(a.median < 0.6, 'one sentence is far from the words seen 5 times or more (0.627)');
  assert.deepEqual(run.figures.inSentence.withA.length, withA.length);
  for (const figure of [`${thousands(withA.length)} held-out GloVe words`, `median cosine **${f3(a.median)}**`, `${f3(a.q1)}–${f3(a.q3)}`,
    `median ${f3(b.median)}`, `${f3(b.q1)}–${f3(b.q3)}`]) {
    assert.ok(DOC.includes(figure), `docs/vocabulary.md says "${figure}"`);
  }
});
