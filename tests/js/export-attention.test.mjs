// The Python export path of the README ("Any model's attention"): Debian's PyTorch runs a randomly
// initialised torch.nn.TransformerEncoder and writes its attention in BertViz's shape
// (tests/fixtures/export_attention.py, the README's bertviz_json), as JSON and .npy; the Node API
// and the command line load both, and their numbers are the file's. The same script measures how
// far float32 and float16 softmax rows miss a sum of 1, the reason for the 0.001 tolerance.
// Skips only when /usr/bin/python3 cannot import torch (scripts/setup.sh installs python3-torch).
// Run: node --test tests/js/export-attention.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';

import { attentionFromBertViz } from 'attention-lab/model';
import { EXIT_OK, main } from '../../bin/cli.js';

// Debian's own python3: a python3 earlier on PATH (pyenv) may not see Debian's torch
const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('../fixtures/export_attention.py', import.meta.url));
const probe = spawnSync(PYTHON, ['-c', 'import torch'], { encoding: 'utf8' });
const skip = probe.status === 0 ? false : `python3-torch cannot be imported by ${PYTHON} (${(probe.stderr || probe.error?.message || '').trim().split('\n').at(-1)}): run scripts/setup.sh`;

const dir = await mkdtemp(join(tmpdir(), 'attention-export-'));
after(() => rm(dir, { recursive: true, force: true }));

function python(...args) {
  const r = spawnSync(PYTHON, [SCRIPT, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('a random TransformerEncoder\'s attention, exported as the README says, loads with the file\'s numbers', { skip }, async () => {
  const json = join(dir, 'encoder.json'), npy = join(dir, 'encoder.npy');
  python(json, npy);
  const exported = JSON.parse(await readFile(json, 'utf8'));
  const [L, H, n] = [exported.attention.length, exported.attention[0][0].length, exported.tokens.length];
  assert.deepEqual([L, exported.attention[0].length, H, n], [3, 1, 4, 12]);
  const fromJson = await attentionFromBertViz(await readFile(json, 'utf8'));
  const fromNpy = await attentionFromBertViz(await readFile(npy), { tokens: exported.tokens });
  assert.deepEqual(fromJson.tokens, exported.tokens);
  assert.equal(fromJson.causal, false);
  for (let l = 0; l < L; l++)
    for (let h = 0; h < H; h++) {
      const rows = exported.attention[l][0][h];
      rows.forEach((row, i) => row.forEach((x, j) => assert.equal(fromJson.attention[l][h][i * n + j], x, `layer ${l + 1} head ${h + 1} [${i}][${j}]`)));
      assert.deepEqual(fromNpy.attention[l][h], fromJson.attention[l][h]);
    }
  // float32 rows from PyTorch: far inside the tolerance
  assert.ok(fromJson.worstRowError < 1e-6, String(fromJson.worstRowError));
  // the command line gives back the same numbers
  let out = '';
  const status = await main(['render', '--attention', json, '--layer', '3', '--head', '2', '--format', 'json'], { stdout: { write: (t) => (out += t) }, stderr: { write: () => {} }, env: { LANG: 'C' } });
  assert.equal(status, EXIT_OK);
  assert.deepEqual(JSON.parse(out).rows, exported.attention[2][0][1]);
});

test('docs/any-model.md\'s snippet writes the file with the export this test runs', async () => {
  const EXPORT = 'json.dumps({"tokens": tokens, "attention": [a.tolist() for a in attentions]})';
  const readme = await readFile(new URL('../../docs/any-model.md', import.meta.url), 'utf8');
  const script = await readFile(SCRIPT, 'utf8');
  assert.ok(readme.includes(`out.write(${EXPORT})`), 'docs/any-model.md: the export line');
  assert.ok(readme.includes('output_attentions=True') && readme.includes('convert_ids_to_tokens'), 'docs/any-model.md: the attentions and the tokens');
  assert.ok(script.includes(`return ${EXPORT}`), 'the fixture: the same line');
});

test('float32 softmax rows miss 1 by < 1e-6 and float16 rows by < 5e-4 for n up to 512: 0.001 passes both', { skip }, () => {
  const measured = JSON.parse(python('--measure'));
  assert.deepEqual(Object.keys(measured.float32).map(Number), [2, 8, 32, 128, 256, 512]);
  for (const worst of Object.values(measured.float32)) assert.ok(worst < 1e-6, String(worst));
  for (const worst of Object.values(measured.float16)) assert.ok(worst < 5e-4 && worst < 0.001 / 2, String(worst));
});
