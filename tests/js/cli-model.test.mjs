// `attention-lab model` (bin/model.js): the trained model on a sentence as SVG, CSV and JSON —
// the numbers read back and checked (rows causal and summing to 1, CSV equal to JSON, a token a
// spreadsheet would run quoted) and each held to a run of attention-lab/model; --no-scale and
// --temperature; every wrong option a usage error (exit 2) naming it, in English and bokmål.
// Run: node --test tests/js/cli-model.test.mjs
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { EXIT_OK, EXIT_USAGE, main } from '../../bin/cli.js';
import { loadModel } from '../../web/api/model.js';

const model = await loadModel();
const SENTENCE = 'the cat sat on the';

async function run(args, env = { LANG: 'C' }) {
  let out = '';
  let err = '';
  const status = await main(args, { stdout: { write: (text) => (out += text) }, stderr: { write: (text) => (err += text) }, env });
  return { status, out, err };
}

test('model --format json: every head\'s causal rows, the profiles and the next word of the model', async () => {
  const { status, out, err } = await run(['model', '--sentence', SENTENCE, '--format', 'json']);
  assert.equal(status, EXIT_OK, err);
  const r = JSON.parse(out);
  assert.deepEqual(r.tokens, ['the', 'cat', 'sat', 'on', 'the']);
  assert.equal(r.attention.length, 2);
  const expected = model.run(SENTENCE);
  r.attention.forEach((heads, l) => heads.forEach((rows, h) => rows.forEach((row, i) => {
    assert.ok(Math.abs(row.reduce((a, b) => a + b) - 1) < 1e-5);
    row.forEach((p, j) => {
      if (j > i) assert.equal(p, 0);
      assert.equal(p, expected.attention[l][h][i * 5 + j]);
    });
  })));
  assert.equal(r.next.after, 'the');
  assert.deepEqual(r.next.top, expected.next.top);
  assert.equal(r.model.heldOutPerplexity, model.info.heldOutPerplexity);
});

test('model --format csv: one head as its matrix, every head as rows; the same numbers as JSON; tokens made safe', async () => {
  const one = await run(['model', '--sentence', SENTENCE, '--layer', '2', '--head', '4', '--format', 'csv']);
  assert.equal(one.status, EXIT_OK, one.err);
  const lines = one.out.trimEnd().split('\n').map((line) => line.split(','));
  assert.deepEqual(lines[0], ['query', 'the', 'cat', 'sat', 'on', 'the']);
  const json = JSON.parse((await run(['model', '--sentence', SENTENCE, '--layer', '2', '--head', '4', '--format', 'json'])).out);
  assert.deepEqual(json.attention.rows.map((row) => row.map((p) => Math.fround(p))), lines.slice(1).map((cells) => cells.slice(1).map((c) => Math.fround(Number(c)))));
  const all = await run(['model', '--sentence', '=cmd the cat', '--format', 'csv']);
  const rows = all.out.trimEnd().split('\n');
  assert.equal(rows[0], 'layer,head,query_position,query,key_position,key,weight');
  // tokens: "=", "cmd", "the", "cat": 4·5/2 = 10 (query, key) pairs per head, 8 heads
  assert.equal(rows.length - 1, 8 * 10);
  assert.equal(rows[1], `1,1,1,"'=",1,"'=",1`);
});

test('model --format svg: the figure of one head, its next words; --no-scale and --temperature change it', async () => {
  const a = await run(['model', '--sentence', SENTENCE, '--layer', '1', '--head', '3']);
  assert.equal(a.status, EXIT_OK, a.err);
  assert.match(a.out, /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(a.out, /Layer 1, head 3 of the model trained with √d_k/);
  const top = model.run(SENTENCE).next.top[0];
  assert.ok(a.out.includes(`<title>${top.word.replace('<', '&lt;').replace('>', '&gt;')}: ${top.probability.toFixed(3)}</title>`));
  const b = await run(['model', '--sentence', SENTENCE, '--layer', '1', '--head', '3', '--no-scale', '--temperature', '2']);
  assert.match(b.out, /run here without its √d_k; next word at temperature 2\.00/);
  const removed = model.run(SENTENCE, { scaleAtInference: false, temperature: 2 }).next.top[0];
  assert.ok(b.out.includes(`: ${removed.probability.toFixed(3)}</title>`));
  const dir = await mkdtemp(join(tmpdir(), 'cli-model-'));
  try {
    const c = await run(['model', '--sentence', SENTENCE, '-o', join(dir, 'rows.json')]);
    assert.equal(c.status, EXIT_OK, c.err);
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'rows.json'), 'utf8')).tokens, ['the', 'cat', 'sat', 'on', 'the']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('model: every wrong option is a usage error that names it; long text is cut with a notice', async () => {
  for (const [args, message] of [
    [[], /say which sentence/],
    [['--sentence', 'a', '--layer', '3', '--head', '1'], /--layer "3" is not valid: it must be a whole number from 1 to 2/],
    [['--sentence', 'a', '--head', '0', '--layer', '1'], /--head "0" is not valid: it must be a whole number from 1 to 4/],
    [['--sentence', 'a', '--layer', '1'], /--layer and --head go together/],
    [['--sentence', 'a', '--variant', 'big'], /--variant "big" is not valid: it must be one of scaled, unscaled/],
    [['--sentence', 'a', '--format', 'pdf'], /--format "pdf" is not valid: it must be one of svg, csv, json, png/],
    [['--sentence', 'a', '--format', 'svg', '-o', 'figure.png'], /--format svg does not match --output figure.png/],
    [['--sentence', 'a', '--temperature', 'hot'], /--temperature "hot" is not valid: it must be a number from 0.05 to 10/],
    [['--sentence', 'a', '--theme', 'blue'], /--theme "blue" is not valid/],
    [['--sentence', '  '], /no tokens/],
    [['--sentence', 'a', '--bogus'], /unknown option --bogus/],
  ]) {
    const r = await run(['model', ...args]);
    assert.equal(r.status, EXIT_USAGE, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message);
    assert.match(r.err, /Run "attention-lab model --help" for the options/);
    assert.equal(r.out, '');
  }
  const nb = await run(['model', '--sentence', 'a', '--variant', 'big'], { LANG: 'nb_NO.UTF-8' });
  assert.match(nb.err, /--variant "big" er ikke gyldig/);
  const help = await run(['model', '--help']);
  for (const option of ['--sentence', '--variant', '--layer', '--head', '--no-scale', '--temperature', '--format', '--theme', '--output']) assert.ok(help.out.includes(option), option);
  const long = await run(['model', '--sentence', Array.from({ length: 70 }, () => 'the').join(' '), '--format', 'json']);
  assert.equal(long.status, EXIT_OK);
  assert.equal(JSON.parse(long.out).tokens.length, 64);
  assert.match(long.err, /at most 64 tokens: the last 6 were left out/);
  const top = await run(['--help']);
  assert.match(top.out, /attention-lab model --sentence TEXT/);
  assert.match(top.out, /attention-lab scorm -o lesson\.zip/);
});
