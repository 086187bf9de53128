// The language model's files (web/assets/model/) are checked as its weights are: a vocabulary
// with Windows line endings, an empty line or a word twice, a unigram table that does not fit it,
// weights whose own flag says the other twin, a model.json that is not JSON or lacks a field —
// each refused by loadModel with a `code` and the file's address, never loaded as garbage and
// never a bare SyntaxError or TypeError.
// Run: node --test tests/js/model-files.test.mjs
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { loadModel } from 'attention-lab/model';

const ASSETS = new URL('../../web/assets/model/', import.meta.url);
const root = await mkdtemp(join(tmpdir(), 'model-files-'));
after(() => rm(root, { recursive: true, force: true }));

// A copy of the shipped files with `change(dir)` applied: its folder URL.
let copies = 0;
async function assetsWith(change) {
  const dir = join(root, String(copies++));
  await (await import('node:fs/promises')).mkdir(dir);
  for (const name of await readdir(ASSETS)) await copyFile(new URL(name, ASSETS), join(dir, name));
  await change(dir);
  return pathToFileURL(`${dir}/`);
}

const edit = (dir, name, fn) => readFile(join(dir, name), 'utf8').then((text) => writeFile(join(dir, name), fn(text)));

test('the shipped files load (the checks refuse nothing that is right)', async () => {
  const m = await loadModel({ base: await assetsWith(async () => {}) });
  assert.equal(m.info.scaled, true);
  m.dispose();
});

test('every fault of a model file is refused with a code and the file\'s name', async () => {
  const cases = {
    'vocab.txt with CR LF': [(dir) => edit(dir, 'vocab.txt', (t) => t.replace(/\n/g, '\r\n')), 'ATTN_INVALID_ASSET', /vocab\.txt: has Windows line endings/],
    'a word twice in vocab.txt': [(dir) => edit(dir, 'vocab.txt', (t) => t.replace('\nthe\n', '\nthe\n').replace('\nof\n', '\nthe\n')), 'ATTN_INVALID_ASSET', /vocab\.txt: "the" is on line 2 and on line \d+/],
    'an empty line in vocab.txt': [(dir) => edit(dir, 'vocab.txt', (t) => t.replace('\nof\n', '\n\n')), 'ATTN_INVALID_ASSET', /vocab\.txt: line \d+ is empty/],
    'unigram.txt one count short': [(dir) => edit(dir, 'unigram.txt', (t) => t.trimEnd().split('\n').slice(1).join('\n')), 'ATTN_INVALID_ASSET', /unigram\.txt: has \d+ counts, the vocabulary \d+ tokens/],
    'unscaled.weights copied over scaled.weights': [(dir) => copyFile(join(dir, 'unscaled.weights'), join(dir, 'scaled.weights')), 'ATTN_INVALID_ASSET', /scaled\.weights: these weights were trained without 1\/√d_k: they are not the scaled twin's/],
    'a corrupt model.json': [(dir) => edit(dir, 'model.json', (t) => t.slice(0, 100)), 'ATTN_INVALID_ASSET', /model\.json: not JSON/],
    'model.json {}': [(dir) => writeFile(join(dir, 'model.json'), '{}'), 'ATTN_INVALID_ASSET', /model\.json: has no "source" text/],
    'model.json without the unscaled twin': [(dir) => edit(dir, 'model.json', (t) => JSON.stringify({ ...JSON.parse(t), twins: { scaled: JSON.parse(t).twins.scaled } })), 'ATTN_INVALID_ASSET', /model\.json: has no twins\.unscaled/],
    'vocab.txt a token short of the weights': [(dir) => edit(dir, 'vocab.txt', (t) => t.replace(/[^\n]+\n$/, '')), 'ATTN_INVALID_SHAPE', /scaled\.weights: loadModel: the vocabulary has \d+ tokens, the weights \d+/],
  };
  for (const [name, [change, code, message]] of Object.entries(cases)) {
    const base = await assetsWith(change);
    if (name === 'vocab.txt a token short of the weights') await edit(new URL(base).pathname, 'unigram.txt', (t) => t.trimEnd().split('\n').slice(1).join('\n'));
    await assert.rejects(loadModel({ base }), (e) => {
      assert.equal(e.code, code, `${name}: ${e.message}`);
      assert.match(e.message, message, name);
      assert.ok(e.message.startsWith('file://'), `${name}: the message starts with the file's address: ${e.message}`);
      return true;
    }, name);
  }
});
