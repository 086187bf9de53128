// `attention-lab render --attention FILE` (bin/cli.js): any model's attention, one head as SVG,
// CSV or JSON — the JSON's and CSV's numbers read back equal to the file's, an .npy file with
// --tokens, and every bad file, layer, head or option a clear message with a non-zero exit status
// and no stack trace, in English and bokmål.
// Run: node --test tests/js/cli-attention.test.mjs
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main } from '../../bin/cli.js';
import { softmax64, uniforms } from '../support/reference.mjs';

const dir = await mkdtemp(join(tmpdir(), 'attention-cli-'));
after(() => rm(dir, { recursive: true, force: true }));

// 2 layers × 3 heads × 5 tokens of float64 softmax rows stored as float32 numbers, in BertViz's
// shape with its batch of one
const TOKENS = ['[CLS]', 'the', 'cat', '=sat', '[SEP]'];
const next = uniforms(5);
const ATTENTION = Array.from({ length: 2 }, () => [Array.from({ length: 3 }, () =>
  TOKENS.map(() => softmax64(TOKENS.map(() => 4 * (next() - 0.5))).map(Math.fround)))]);
const FILE = join(dir, 'bert.json');
await writeFile(FILE, JSON.stringify({ tokens: TOKENS, attention: ATTENTION }));

async function run(args, env = { LANG: 'C' }) {
  let out = '';
  let err = '';
  const status = await main(args, { stdout: { write: (text) => (out += text) }, stderr: { write: (text) => (err += text) }, env });
  assert.doesNotMatch(err, /\n\s+at /, 'no stack trace');
  return { status, out, err };
}

test('render --attention --format json: the head\'s rows are the file\'s numbers, exactly', async () => {
  for (const [layer, head] of [[1, 1], [2, 3]]) {
    const { status, out, err } = await run(['render', '--attention', FILE, '--layer', String(layer), '--head', String(head), '--format', 'json']);
    assert.equal(status, EXIT_OK, err);
    const r = JSON.parse(out);
    assert.deepEqual(r.tokens, TOKENS);
    assert.deepEqual([r.layers, r.heads, r.layer, r.head, r.source], [2, 3, layer, head, 'supplied']);
    const want = ATTENTION[layer - 1][0][head - 1];
    r.rows.forEach((row, i) => row.forEach((x, j) => assert.equal(x, want[i][j], `[${i}][${j}]`)));
    assert.equal(r.rows.length, 5);
    assert.equal(r.causal, false);
    let worst = 0;
    for (const l of ATTENTION) for (const h of l[0]) for (const row of h) worst = Math.max(worst, Math.abs(row.reduce((a, b) => a + b) - 1));
    assert.ok(Math.abs(r.worstRowError - worst) < 1e-12);
  }
});

test('render --attention --format csv: the n×n matrix under the tokens, the file\'s numbers as float32', async () => {
  const { status, out, err } = await run(['render', '--attention', FILE, '--layer', '2', '--head', '2', '--format', 'csv']);
  assert.equal(status, EXIT_OK, err);
  const lines = out.trimEnd().split('\n').map((line) => line.split(','));
  // a token a spreadsheet would run is quoted (bin/model.js)
  assert.deepEqual(lines[0], ['query', '[CLS]', 'the', 'cat', `"'=sat"`, '[SEP]']);
  const want = ATTENTION[1][0][1];
  lines.slice(1).forEach((cells, i) => cells.slice(1).forEach((c, j) => assert.equal(Math.fround(Number(c)), want[i][j])));
  assert.equal(lines.length, 6);
});

test('render --attention: the SVG figure of the head (the default, layer 1 head 1), in both languages', async () => {
  const en = await run(['render', '--attention', FILE, '--head', '3']);
  assert.equal(en.status, EXIT_OK, en.err);
  assert.match(en.out, /^<svg /);
  assert.match(en.out, /Layer 1, head 3 of the attention you supplied/);
  assert.match(en.out, /2 layers × 3 heads, 5 tokens/);
  for (const token of ['[CLS]', 'cat', '[SEP]']) assert.ok(en.out.includes(`>${token}<`), token);
  const nb = await run(['render', '--attention', FILE, '--theme', 'dark'], { LANG: 'nb_NO.UTF-8' });
  assert.equal(nb.status, EXIT_OK, nb.err);
  assert.match(nb.out, /Lag 1, hode 1 av oppmerksomheten du har gitt/);
  const help = await run(['--help']);
  assert.match(help.out, /--attention FILE +attention from another model in BertViz's shape/);
  assert.match(help.out, /each row must sum to 1 within 0\.001/);
});

test('render --attention FILE.npy --tokens FILE: the same numbers as the JSON', async () => {
  const values = ATTENTION.flatMap((layer) => layer[0].flat(2));
  const dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1, 3, 5, 5), }";
  const header = dict + ' '.repeat(63 - ((10 + dict.length) % 64)) + '\n';
  const bytes = new Uint8Array(10 + header.length + 4 * values.length);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(bytes.buffer).setUint16(8, header.length, true);
  bytes.set(new TextEncoder().encode(header), 10);
  values.forEach((x, i) => new DataView(bytes.buffer).setFloat32(10 + header.length + 4 * i, x, true));
  await writeFile(join(dir, 'bert.npy'), bytes);
  await writeFile(join(dir, 'tokens.txt'), `${TOKENS.join('\n')}\n`);
  const npy = await run(['render', '--attention', join(dir, 'bert.npy'), '--tokens', join(dir, 'tokens.txt'), '--layer', '2', '--head', '1', '--format', 'json']);
  assert.equal(npy.status, EXIT_OK, npy.err);
  assert.deepEqual(JSON.parse(npy.out).rows, ATTENTION[1][0][0]);
  const noTokens = await run(['render', '--attention', join(dir, 'bert.npy')]);
  assert.equal(noTokens.status, EXIT_FAILURE);
  assert.match(noTokens.err, /--attention .*bert\.npy: attention: no tokens/);
});

test('render --attention: a bad file, layer, head or option is a clear message and a non-zero exit', async () => {
  const write = async (name, text) => {
    await writeFile(join(dir, name), text);
    return join(dir, name);
  };
  const rowOff = structuredClone(ATTENTION);
  rowOff[1][0][2][3][0] += 0.31;
  const cases = [
    [['--attention', join(dir, 'missing.json')], EXIT_FAILURE, /cannot read --attention .*missing\.json/],
    [['--attention', await write('bad.json', '{"tokens": [')], EXIT_FAILURE, /--attention .*bad\.json: attention: the text is not JSON/],
    [['--attention', await write('nan.json', '{"tokens": ["a"], "attention": [[[[NaN]]]]}')], EXIT_FAILURE, /holds NaN, which is not a JSON number/],
    [['--attention', await write('off.json', JSON.stringify({ tokens: TOKENS, attention: rowOff }))], EXIT_FAILURE, /off\.json: attention: layer 2, head 3, row 4 sums to 1\.31/],
    [['--attention', await write('short.json', JSON.stringify({ tokens: TOKENS.slice(1), attention: ATTENTION }))], EXIT_FAILURE, /4 tokens but rows of 5/],
    [['--attention', FILE, '--layer', '3'], EXIT_USAGE, /--layer "3" .*a whole number from 1 to 2/],
    [['--attention', FILE, '--head', '0'], EXIT_USAGE, /--head "0" .*a whole number from 1 to 3/],
    [['--attention', FILE, '--head', 'two'], EXIT_USAGE, /--head "two"/],
    [['--attention', FILE, '--sentence', 'the cat'], EXIT_USAGE, /--sentence does not apply to --attention/],
    [['--attention', FILE, '--no-scale'], EXIT_USAGE, /--no-scale does not apply to --attention/],
    [['--layer', '1', '--head', '1'], EXIT_USAGE, /--layer and --head choose a head of an --attention file/],
    [['--attention', FILE, '--format', 'png', '--png-scale', '99'], EXIT_USAGE, /--png-scale "99" is not valid/],
    [['--attention', FILE, '-o', FILE], EXIT_USAGE, /--attention/],
  ];
  for (const [args, status, message] of cases) {
    const r = await run(['render', ...args]);
    assert.equal(r.status, status, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message, args.join(' '));
    assert.equal(r.out, '');
  }
  const nb = await run(['render', '--attention', FILE, '--sentence', 'x'], { LANG: 'nb_NO.UTF-8' });
  assert.match(nb.err, /--sentence gjelder ikke for --attention/);
});
