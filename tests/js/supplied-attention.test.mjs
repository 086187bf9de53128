// `attentionFromBertViz` of `attention-lab/model` (web/lesson/supplied.js, the core's checkAttention):
// attention from any model in BertViz's shape read from every form it comes in, its numbers
// exactly the input's, each head measured as a float64 reference written here says, the row-sum
// tolerance at its edge, and every fault of shape or value named where it is.
// Run: node --test tests/js/supplied-attention.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { attentionFromBertViz } from 'attention-lab/model';
import { createEngine } from 'attention-lab';
import { softmax64, uniforms } from '../support/reference.mjs';

const engine = await createEngine();

// L×H heads of n×n float64 softmax rows stored as float32 numbers (as PyTorch's float32 rows reach
// JSON), nested [layer][1][head][row][column] as BertViz's tuple of (1, H, n, n) tensors.
function bertviz(L, H, n, { seed = 1, causal = false, batch = true } = {}) {
  const next = uniforms(seed);
  const layers = Array.from({ length: L }, () => {
    const heads = Array.from({ length: H }, () => Array.from({ length: n }, (_, i) => {
      const scores = Array.from({ length: n }, (_, j) => (causal && j > i ? -Infinity : 3 * (next() - 0.5)));
      return softmax64(scores).map(Math.fround);
    }));
    return batch ? [heads] : heads;
  });
  return { tokens: Array.from({ length: n }, (_, i) => `t${i}`), attention: layers };
}

const headsOf = (data, l) => (Array.isArray(data.attention[l][0][0][0]) ? data.attention[l][0] : data.attention[l]);

// The reference of a head's measures, from their contract (cpp/model/model.hpp, head_profile): rows
// 2…n; mean weight on the previous, first and own token; spread the mean entropy over the keys a
// row sees ÷ ln(keys).
function profile64(rows, causal) {
  const n = rows.length;
  let previous = 0, first = 0, self = 0, spread = 0;
  for (let i = 1; i < n; i++) {
    previous += rows[i][i - 1];
    first += rows[i][0];
    self += rows[i][i];
    const keys = causal ? i + 1 : n;
    let h = 0;
    for (let j = 0; j < keys; j++) if (rows[i][j] > 0) h -= rows[i][j] * Math.log(rows[i][j]);
    spread += h / Math.log(keys);
  }
  return { previous: previous / (n - 1), first: first / (n - 1), self: self / (n - 1), spread: spread / (n - 1) };
}

// .npy bytes (version 1.0, C order) of `values` with `shape`, float32 ('<f4') or float64 ('<f8').
function npyBytes(values, shape, descr = '<f4') {
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const padded = dict + ' '.repeat(63 - ((10 + dict.length) % 64)) + '\n'; // header to a multiple of 64
  const size = descr === '<f4' ? 4 : 8;
  const bytes = new Uint8Array(10 + padded.length + values.length * size);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(bytes.buffer).setUint16(8, padded.length, true);
  bytes.set(new TextEncoder().encode(padded), 10);
  const view = new DataView(bytes.buffer, 10 + padded.length);
  values.forEach((x, i) => (size === 4 ? view.setFloat32(4 * i, x, true) : view.setFloat64(8 * i, x, true)));
  return bytes;
}
const flat = (data) => data.attention.flatMap((_, l) => headsOf(data, l).flat(2));

test('supplied attention: the numbers are the input\'s, every head measured as the reference says', async () => {
  for (const causal of [false, true]) {
    const data = bertviz(3, 4, 7, { seed: causal ? 2 : 1, causal });
    const r = await attentionFromBertViz(data, { engine });
    assert.deepEqual(r.tokens, data.tokens);
    assert.equal(r.attention.length, 3);
    assert.equal(r.causal, causal);
    let worst = 0;
    for (let l = 0; l < 3; l++)
      for (let h = 0; h < 4; h++) {
        const rows = headsOf(data, l)[h];
        const w = r.attention[l][h];
        assert.ok(w instanceof Float32Array && w.length === 49);
        rows.forEach((row, i) => row.forEach((x, j) => assert.equal(w[i * 7 + j], x, `layer ${l + 1} head ${h + 1} [${i}][${j}]`)));
        for (const row of rows) worst = Math.max(worst, Math.abs(row.reduce((a, b) => a + b, 0) - 1));
        const want = profile64(rows, causal);
        const got = r.heads[l * 4 + h];
        assert.deepEqual([got.layer, got.head], [l + 1, h + 1]);
        for (const key of ['previous', 'first', 'self', 'spread']) assert.ok(Math.abs(got[key] - want[key]) < 1e-6, `${key}: ${got[key]} vs ${want[key]}`);
        assert.ok(['previous', 'first', 'self', 'broad', 'mixed'].includes(got.role));
      }
    assert.ok(Math.abs(r.worstRowError - worst) < 1e-12, `${r.worstRowError} vs ${worst}`);
    assert.equal('next' in r, false);
  }
});

test('supplied attention: JSON text, bytes, no batch, a bare array with tokens and .npy read the same', async () => {
  const data = bertviz(2, 3, 5, { seed: 7 });
  const want = await attentionFromBertViz(data, { engine });
  const text = JSON.stringify(data);
  const forms = {
    'JSON text': [text],
    'JSON bytes': [new TextEncoder().encode(text)],
    'no batch dimension': [{ tokens: data.tokens, attention: data.attention.map((layer) => layer[0]) }],
    'a bare array with tokens': [data.attention, { tokens: data.tokens }],
    '.npy float32 (L, 1, H, n, n)': [npyBytes(flat(data), [2, 1, 3, 5, 5]), { tokens: data.tokens }],
    '.npy float64 (L, H, n, n)': [npyBytes(flat(data), [2, 3, 5, 5], '<f8').buffer, { tokens: data.tokens }],
  };
  for (const [name, [input, options]] of Object.entries(forms)) {
    const r = await attentionFromBertViz(input, { engine, ...options });
    assert.deepEqual(r.tokens, want.tokens, name);
    r.attention.forEach((heads, l) => heads.forEach((w, h) => assert.deepEqual(w, want.attention[l][h], `${name}: layer ${l + 1} head ${h + 1}`)));
  }
});

test('supplied attention: a row may miss 1 by the stated tolerance, 0.001, and no more', async () => {
  assert.equal(engine.limits.supplied.rowSumTolerance, 0.001);
  for (const [miss, passes] of [[0.0009, true], [-0.0009, true], [0.0011, false], [-0.0011, false]]) {
    const data = bertviz(1, 1, 4, { seed: 3 });
    const row = data.attention[0][0][0][2];
    row[0] = Math.fround(row[0] + miss);
    const sum = row.reduce((a, b) => a + b, 0);
    const read = attentionFromBertViz(data, { engine });
    if (passes) assert.ok(Math.abs((await read).worstRowError - Math.abs(sum - 1)) < 1e-12);
    else await assert.rejects(read, (e) => e.code === 'ATTN_INVALID_ARGUMENT' && e.message.includes(`layer 1, head 1, row 3 sums to ${sum.toPrecision(6).replace(/0+$/, '')}`), String(miss));
  }
});

test('supplied attention: every fault of shape or value is named where it is', async () => {
  const cases = [
    ['heads differ between layers', (d) => d.attention[2][0].pop(), 'ATTN_INVALID_SHAPE', 'layer 3 has 3 heads, layer 1 has 4'],
    ['tokens do not match the rows', (d) => d.tokens.push('extra'), 'ATTN_INVALID_SHAPE', '6 tokens but rows of 5'],
    ['a head with a row missing', (d) => d.attention[1][0][2].pop(), 'ATTN_INVALID_SHAPE', 'layer 2, head 3 has 4 rows, layer 1, head 1 has 5'],
    ['a row too short: not square', (d) => d.attention[0][0][1][3].pop(), 'ATTN_INVALID_SHAPE', 'layer 1, head 2, row 4 has 4 columns, expected 5'],
    ['a batch of two', (d) => d.attention[1].push(d.attention[1][0]), 'ATTN_INVALID_SHAPE', 'layer 2 holds a batch of 2 sentences'],
    ['a value that is not a number', (d) => (d.attention[1][0][3][2][1] = null), 'ATTN_INVALID_ARGUMENT', 'layer 2, head 4, row 3, column 2 is null'],
    ['a negative weight', (d) => (d.attention[2][0][1][4][0] = -0.25), 'ATTN_INVALID_ARGUMENT', 'layer 3, head 2, row 5, column 1 is -0.25'],
    ['NaN', (d) => (d.attention[0][0][0][0][0] = NaN), 'ATTN_NON_FINITE_INPUT', 'layer 1, head 1, row 1, column 1 is NaN'],
    ['a row summing to 1.31', (d) => {
      const row = d.attention[1][0][3][4];
      row[0] += 1.31 - row.reduce((a, b) => a + b, 0);
    }, 'ATTN_INVALID_ARGUMENT', 'layer 2, head 4, row 5 sums to 1.31'],
    ['no tokens', (d) => delete d.tokens, 'ATTN_INVALID_ARGUMENT', 'no tokens'],
    ['a token that is not text', (d) => (d.tokens[2] = 3), 'ATTN_INVALID_ARGUMENT', 'token 3 is number 3'],
    ['no layers', (d) => (d.attention = []), 'ATTN_INVALID_SHAPE', 'there are no layers'],
  ];
  for (const [name, damage, code, words] of cases) {
    const data = bertviz(3, 4, 5, { seed: 11 });
    damage(data);
    await assert.rejects(attentionFromBertViz(data, { engine }), (e) => {
      assert.equal(e.code, code, `${name}: ${e.message}`);
      assert.ok(e.message.includes(words), `${name}: "${e.message}" should say "${words}"`);
      return true;
    }, name);
  }
  // the text a Python export writes for NaN is not JSON: said so
  await assert.rejects(attentionFromBertViz('{"tokens": ["a"], "attention": [[[[NaN]]]]}', { engine }), /holds NaN, which is not a JSON number/);
  await assert.rejects(attentionFromBertViz('{"tokens": ', { engine }), (e) => e.code === 'ATTN_INVALID_ARGUMENT' && /not JSON/.test(e.message));
  await assert.rejects(attentionFromBertViz(42, { engine }), (e) => e instanceof TypeError && /got number 42/.test(e.message));
});

test('supplied attention: .npy faults and the core\'s limits are refused with a clear error', async () => {
  const tokens = ['a'];
  const cases = [
    [npyBytes([1], [1, 1, 1, 1], '<i4'), /holds <i4: expected float32 or float64/],
    [npyBytes([1, 0, 0, 1], [1, 1, 2, 2]).subarray(0, -10), /holds 6 bytes of data, its shape says 16/],
    [npyBytes([1], [1, 1, 1]), /has shape \(1, 1, 1\): expected/],
    [npyBytes([1, 0], [1, 1, 1, 2]), /attention is square/],
    [npyBytes(new Array(257).fill(1), [257, 1, 1, 1]), /layers must be an integer from 1 to 256, got 257/],
    [npyBytes(new Array(257).fill(1), [1, 257, 1, 1]), /heads must be an integer from 1 to 256, got 257/],
  ];
  for (const [bytes, message] of cases) await assert.rejects(attentionFromBertViz(bytes, { engine, tokens }), message);
  const fortran = npyBytes([1], [1, 1, 1, 1]);
  const at = new TextDecoder('latin1').decode(fortran).indexOf('False');
  fortran.set(new TextEncoder().encode('True '), at);
  await assert.rejects(attentionFromBertViz(fortran, { engine, tokens }), /Fortran order/);
  // nested arrays that claim more than the core takes are refused before their numbers are copied
  const rows = Array(4096).fill([0]);
  await assert.rejects(attentionFromBertViz({ tokens, attention: [[rows], ...Array(255).fill(0)] }, { engine }),
    (e) => e.code === 'ATTN_TOO_LARGE' && /256 layers × 1 heads × 4096² weights are more than one call may hold/.test(e.message));
  await assert.rejects(attentionFromBertViz({ tokens, attention: Array(300).fill([[[1]]]) }, { engine }),
    (e) => e.code === 'ATTN_INVALID_SHAPE' && /layers must be an integer from 1 to 256, got 300/.test(e.message));
  // n past the most tokens (4096): refused, nothing drawn
  const n = engine.limits.supplied.maxTokens + 1;
  await assert.rejects(attentionFromBertViz(npyBytes(new Float32Array(n * n), [1, 1, n, n]), { engine, tokens: Array(n).fill('x') }),
    (e) => e.code === 'ATTN_INVALID_SHAPE' && /n must be an integer from 1 to 4096, got 4097/.test(e.message));
});

// An .npy file with a header written by hand: `dict` as the header, `version` [major, minor].
function npyWithHeader(dict, values, version = [1, 0]) {
  const padded = dict + ' '.repeat(63 - ((10 + dict.length) % 64)) + '\n';
  const bytes = new Uint8Array(10 + padded.length + values.length * 4);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, ...version]);
  new DataView(bytes.buffer).setUint16(8, padded.length, true);
  bytes.set(new TextEncoder().encode(padded), 10);
  const view = new DataView(bytes.buffer, 10 + padded.length);
  values.forEach((x, i) => view.setFloat32(4 * i, x, true));
  return bytes;
}

test('.npy header: keys read in place, the format version checked, Python 2\'s 1L read as 1', async () => {
  const values = [1, 0, 0.5, 0.5];
  const tokens = ['a', 'b'];
  // NumPy under Python 2 wrote (1L, 1L, 2L, 2L)
  const py2 = await attentionFromBertViz(npyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (1L, 1L, 2L, 2L), }", values), { tokens });
  assert.deepEqual(Array.from(py2.attention[0][0]), values);
  const refused = {
    "version 9.0": [npyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2, 2), }", values, [9, 0]), /format version 9\.0/],
    "a 'descr' inside another value": [npyWithHeader("{'fortran_order': False, 'shape': (1, 1, 2, 2), 'note': ''descr': '<f4'', }", values), /header this reader does not understand/],
    "a repeated key": [npyWithHeader("{'descr': '<f8', 'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2, 2), }", values), /header this reader does not understand/],
    'a dimension that is no whole number': [npyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2, 2.0), }", values), /every dimension must be a whole number/],
  };
  for (const [name, [bytes, message]] of Object.entries(refused))
    await assert.rejects(attentionFromBertViz(bytes, { tokens }), (e) => e.code === 'ATTN_INVALID_SHAPE' && message.test(e.message), name);
});

test('a small file that claims a large tensor is refused before the tensor is made', async () => {
  // 28 kB of JSON: head 1 claims 4,096 rows (empty), the other 15 heads none — 1 GiB as L·H·n²
  const n = 4096;
  const text = JSON.stringify([[Array.from({ length: n }, () => []), ...Array.from({ length: 15 }, () => [])]]);
  assert.ok(text.length < 30_000);
  const Original = globalThis.Float32Array;
  let largest = 0;
  globalThis.Float32Array = class extends Original {
    constructor(...args) {
      super(...args);
      largest = Math.max(largest, this.length);
    }
  };
  try {
    await assert.rejects(attentionFromBertViz(text, { tokens: Array.from({ length: n }, (_, i) => `t${i}`) }),
      (e) => e.code === 'ATTN_INVALID_SHAPE' && /row 1 has 0 columns, expected 4096/.test(e.message));
  } finally {
    globalThis.Float32Array = Original;
  }
  assert.ok(largest < text.length, `the largest array made holds ${largest} numbers`);
});
