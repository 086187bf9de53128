// attention-lab/testing (web/testing.js): compareAttention on attention functions written here in
// plain float64 JavaScript — a correct one (the reference: it shares no code with the core) and
// the mistakes a learner makes, each planted on purpose. The correct ones must pass with errors
// far below the tolerance; each mistake must fail with its own diagnosis.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';
import { DEFAULT_SHAPES, DEFAULT_TOLERANCE, DIAGNOSES, compareAttention } from '../../web/testing.js';

const engine = await createEngine();

// ---- attention written out, rows of numbers; each mistake is one switch -------------------
function attention(Q, K, V, { scale = true, scaleByDk = false, transposedK = false, axis = 'keys', softmax = true, exp = true, subtractMax = true, weightsOnly = false } = {}) {
  const n = Q.length;
  const m = K.length;
  const d = Q[0].length;
  const scores = Q.map((q) =>
    K.map((_, j) => {
      let s = 0;
      for (let c = 0; c < d; c++) s += q[c] * (transposedK ? K[c][j] : K[j][c]);
      return scaleByDk ? s / d : scale ? s / Math.sqrt(d) : s;
    }),
  );
  let weights = scores;
  if (softmax && !exp) weights = scores.map((row) => row.map((s) => s / row.reduce((a, b) => a + b, 0)));
  else if (softmax && axis === 'keys') weights = scores.map((row) => softmaxOf(row, subtractMax));
  if (softmax && axis === 'queries') {
    const columns = K.map((_, j) => softmaxOf(scores.map((row) => row[j]), subtractMax));
    weights = scores.map((_, i) => K.map((__, j) => columns[j][i]));
  }
  if (weightsOnly) return weights;
  return weights.map((w) => V[0].map((_, c) => w.reduce((sum, wj, j) => sum + wj * V[j][c], 0)));
  // (n rows of dv numbers)
}

function softmaxOf(row, subtractMax) {
  const top = subtractMax ? Math.max(...row) : 0;
  const e = row.map((s) => Math.exp(s - top));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
}

test('a correct attention passes every default shape, with errors far below the tolerance', async () => {
  const report = await compareAttention((Q, K, V) => attention(Q, K, V), { engine });
  assert.equal(report.pass, true, report.message);
  assert.equal(report.shapes.length, DEFAULT_SHAPES.length);
  assert.ok(report.maxError < DEFAULT_TOLERANCE / 20, `largest error ${report.maxError}`);
  assert.equal(report.failed, null);
  assert.equal(report.diagnosis, null);
  assert.match(report.message, /^PASS: 6 of 6 shapes match/);
  // the large-score shape really has scores past exp()'s float64 range: a naive softmax fails it
  const naive = await compareAttention((Q, K, V) => attention(Q, K, V, { subtractMax: false }), { engine });
  assert.equal(naive.pass, false);
  assert.deepEqual(naive.shapes.map((s) => s.pass), [true, true, true, true, true, false]);
  assert.equal(naive.diagnosis, 'non-finite');
  assert.match(naive.hint, /Subtract each row’s largest score before exp/);
  // two mistakes at once: both named, the recognised one first
  const both = await compareAttention((Q, K, V) => attention(Q, K, V, { subtractMax: false, scale: false }), { engine });
  assert.deepEqual(both.diagnoses, ['missing-scale', 'non-finite']);
  assert.equal([...both.message.matchAll(/\nHint: /g)].length, 2);
});

test('flat Float32Arrays in and out, an async function, and Float32Array rows are all accepted', async () => {
  const flat = (q, k, v, { n, m, d, dv }) => {
    const rows = (a, r, c) => Array.from({ length: r }, (_, i) => Array.from(a.subarray(i * c, (i + 1) * c)));
    return Float32Array.from(attention(rows(q, n, d), rows(k, m, d), rows(v, m, dv)).flat());
  };
  const report = await compareAttention(flat, { engine, layout: 'flat' });
  assert.equal(report.pass, true, report.message);
  assert.ok(report.maxError < DEFAULT_TOLERANCE / 20); // float32 output: still far inside
  const later = await compareAttention(async (Q, K, V) => attention(Q, K, V).map((row) => Float32Array.from(row)), { engine });
  assert.equal(later.pass, true, later.message);
});

test('each planted mistake fails with its own diagnosis and hint', async () => {
  const planted = [
    ['missing-scale', { scale: false }],
    ['divided-by-dk', { scaleByDk: true }],
    ['missing-exp', { exp: false }],
    ['transposed-k', { transposedK: true }],
    ['softmax-axis', { axis: 'queries' }],
    ['missing-softmax', { softmax: false }],
    ['returned-weights', { weightsOnly: true }],
  ];
  for (const [diagnosis, mistake] of planted) {
    const report = await compareAttention((Q, K, V) => attention(Q, K, V, mistake), { engine });
    assert.equal(report.pass, false, diagnosis);
    assert.equal(report.diagnosis, diagnosis, `${diagnosis}:\n${report.message}`);
    assert.equal(report.hint, DIAGNOSES[diagnosis]);
    assert.match(report.message, new RegExp(`^FAIL: .*\\n[^]*\\[${diagnosis}\\][^]*\\nHint: `));
    assert.ok(report.failed && !report.failed.pass);
    // one key: the weight is 1 whatever the scores, so the output is v — unless there is no softmax
    if (!['returned-weights', 'missing-softmax'].includes(diagnosis)) assert.equal(report.shapes[0].pass, true, diagnosis);
  }
});

test('a transposed K that crashes on non-square shapes is still named by the square ones', async () => {
  const report = await compareAttention((Q, K, V) => attention(Q, K, V, { transposedK: true }), { engine });
  const [, rectangular, square] = report.shapes;
  assert.equal(rectangular.d === rectangular.m, false);
  assert.ok(['non-finite', 'threw'].includes(rectangular.diagnosis), JSON.stringify(rectangular));
  assert.equal(square.diagnosis, 'transposed-k');
  assert.equal(report.diagnosis, 'transposed-k');
});

test('thrown errors, wrong shapes and unrecognised mistakes are reported, not thrown', async () => {
  const threw = await compareAttention(() => {
    throw new Error('not yet');
  }, { engine });
  assert.equal(threw.diagnosis, 'threw');
  assert.match(threw.shapes[0].error, /threw Error: not yet/);
  const transposedOutput = await compareAttention((Q, K, V) => {
    const out = attention(Q, K, V);
    return out[0].map((_, c) => out.map((row) => row[c]));
  }, { engine });
  assert.equal(transposedOutput.diagnosis, 'shape');
  assert.match(transposedOutput.shapes[1].error, /returned 2 rows, expected n = 3 rows of dv = 2 numbers/);
  const nothing = await compareAttention(() => undefined, { engine, shapes: [{ n: 2, m: 2, d: 2, dv: 2 }] });
  assert.match(nothing.shapes[0].error, /returned undefined, expected the output \(n×dv = 2×2\)/);
  const offByALittle = await compareAttention((Q, K, V) => attention(Q, K, V).map((row) => row.map((x) => x + 0.01)), { engine });
  assert.equal(offByALittle.pass, false);
  assert.equal(offByALittle.diagnosis, null);
  assert.equal(offByALittle.hint, null);
  assert.ok(Math.abs(offByALittle.maxError - 0.01) < 1e-5);
  assert.match(offByALittle.message, /✗ n=3 m=5 d=4 dv=2: largest \|error\| 0\.01 at output\[\d\]\[\d\] \(expected -?[\d.]+, got -?[\d.]+\)/);
});

test('the tolerance decides; the inputs are seeded (the same seed, the same inputs)', async () => {
  const nudged = (Q, K, V) => attention(Q, K, V).map((row) => row.map((x) => x + 5e-5));
  assert.equal((await compareAttention(nudged, { engine })).pass, true);
  assert.equal((await compareAttention(nudged, { engine, tolerance: 1e-5 })).pass, false);
  const seen = [];
  const record = (Q, K, V) => (seen.push(JSON.stringify([Q, K, V])), attention(Q, K, V));
  const shapes = [{ n: 2, m: 3, d: 2, dv: 2 }];
  await compareAttention(record, { engine, shapes, seed: 5 });
  await compareAttention(record, { engine, shapes, seed: 5 });
  await compareAttention(record, { engine, shapes, seed: 6 });
  assert.equal(seen[0], seen[1]);
  assert.notEqual(seen[0], seen[2]);
});

test('wrong arguments are coded errors naming the argument', async () => {
  const cases = [
    [[42], /attention must be a function \(Q, K, V\) → output, got number 42/],
    [[attention, { shapes: [] }], /shapes must be a non-empty array/],
    [[attention, { shapes: [{ n: 2, m: 2, d: 0, dv: 1 }] }], /shapes\[0\]\.d must be a whole number from 1 to 1024, got number 0/],
    [[attention, { seed: -1 }], /seed must be a whole number from 0 to 4294967295/],
    [[attention, { tolerance: NaN }], /tolerance must be a finite number ≥ 0/],
    [[attention, { layout: 'columns' }], /layout must be one of rows, flat/],
    [[attention, { engine: {} }], /engine must be an engine of createEngine\(\)/],
  ];
  for (const [args, message] of cases) {
    await assert.rejects(compareAttention(...args), (error) => {
      assert.equal(error.code, 'ATTN_INVALID_ARGUMENT');
      assert.match(error.message, message);
      return true;
    });
  }
});
