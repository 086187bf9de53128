// What the page says each trained head does (scripts/model/measure-heads.mjs → model.json
// `heads`) and the unigram it compares the next word with (unigram.txt): both remade here from
// the corpus and the shipped weights, and the averages checked against float64 sums done here
// on the attention rows the core returned, and the roles against the rule of cpp/model/heads.hpp
// written here.
// Run: node --test tests/js/model-heads.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { INDUCTION, measureHeads } from '../../scripts/model/measure-heads.mjs';
import { repeatedSequences } from '../../web/api/model.js';
import { createEngine } from '../../web/core/engine.js';
import { preparedCorpus } from '../support/corpus.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ASSETS = path.join(ROOT, 'web/assets/model');
const shipped = JSON.parse(fs.readFileSync(path.join(ASSETS, 'model.json'), 'utf8'));
let out, testIds, trainIds;

// The rule of cpp/model/heads.hpp (head_role), from its contract: the largest share of previous,
// first, self when ≥ 0.5 (previous first on a tie), else broad at spread ≥ 0.6, else mixed.
function expectedRole({ previous, first, self, spread }) {
  const f = Math.fround;
  const best = Math.max(f(previous), f(first), f(self));
  if (best >= 0.5) return f(previous) === best ? 'previous' : f(first) === best ? 'first' : 'self';
  return f(spread) >= f(0.6) ? 'broad' : 'mixed';
}

const ids = (file) => {
  const bytes = fs.readFileSync(path.join(out, file));
  return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
};

before(() => {
  out = preparedCorpus();
  testIds = ids('test.bin');
  trainIds = ids('train.bin');
});

test('model assets: the corpus remade gives the shipped vocabulary, and unigram.txt is each id\'s count in training', () => {
  assert.equal(fs.readFileSync(path.join(out, 'vocab.txt'), 'utf8'), fs.readFileSync(path.join(ASSETS, 'vocab.txt'), 'utf8'));
  const counts = fs.readFileSync(path.join(ASSETS, 'unigram.txt'), 'utf8').trimEnd().split('\n').map(Number);
  assert.equal(counts.length, shipped.settings.vocab);
  const expected = new Array(counts.length).fill(0);
  for (const id of trainIds) expected[id]++;
  assert.deepEqual(counts, expected);
  assert.equal(counts.reduce((a, b) => a + b), shipped.split.train.tokens);
});

test('model heads: the shipped measurements are what the script gives on the test text', async () => {
  assert.deepEqual(await measureHeads({ assets: ASSETS, testIds }), shipped.heads);
  assert.equal(shipped.heads.windows, Math.floor(shipped.split.test.tokens / shipped.settings.context));
});

test('model heads: averages, induction scores and roles agree with float64 sums over the rows', async () => {
  const windows = 4;
  const got = await measureHeads({ assets: ASSETS, testIds, windows });
  const engine = await createEngine();
  const vocabulary = fs.readFileSync(path.join(ASSETS, 'vocab.txt'), 'utf8');
  const model = await engine.loadModel(fs.readFileSync(path.join(ASSETS, 'scaled.weights')), vocabulary);
  const T = model.config.context;
  for (const [run, options] of [['asTrained', {}], ['withoutScale', { scaleAtInference: false }]]) {
    const sums = Array.from({ length: 8 }, () => ({ previous: 0, first: 0, self: 0, spread: 0 }));
    for (let w = 0; w < windows; w++) {
      const tokens = Array.from(testIds.subarray(w * T, (w + 1) * T), (id) => model.vocabulary[id]);
      const r = model.predict(tokens, options);
      r.attention.flat().forEach((a, k) => {
        for (let i = 1; i < T; i++) {
          let entropy = 0;
          for (let j = 0; j <= i; j++) if (a[i * T + j] > 0) entropy -= a[i * T + j] * Math.log(a[i * T + j]);
          sums[k].previous += a[i * T + i - 1] / (T - 1) / windows;
          sums[k].first += a[i * T] / (T - 1) / windows;
          sums[k].self += a[i * T + i] / (T - 1) / windows;
          sums[k].spread += entropy / Math.log(i + 1) / (T - 1) / windows;
        }
        assert.equal(r.heads[k].role, expectedRole(r.heads[k]), 'a window\'s profile named by the rule');
      });
    }
    for (const [k, head] of got.scaled[run].entries()) {
      for (const key of Object.keys(sums[k])) assert.ok(Math.abs(head[key] - sums[k][key]) <= 6e-5, `${run} ${head.layer}.${head.head} ${key}: ${head[key]} vs ${sums[k][key]}`);
      assert.equal(head.role, expectedRole(sums[k]), `${run} ${head.layer}.${head.head}: named from the average`);
    }
  }
  // induction: the weight at each word of the second copy on the word after its first occurrence
  const sequences = repeatedSequences(model.vocabulary, INDUCTION);
  assert.equal(sequences.length, INDUCTION.repeats);
  for (const s of sequences) assert.deepEqual(s.slice(INDUCTION.span), s.slice(0, INDUCTION.span));
  const n = 2 * INDUCTION.span;
  const scores = new Array(8).fill(0);
  for (const s of sequences) {
    const r = model.predict(s);
    r.attention.flat().forEach((a, k) => {
      for (let i = INDUCTION.span; i < n; i++) scores[k] += a[i * n + i - INDUCTION.span + 1] / INDUCTION.span / INDUCTION.repeats;
    });
  }
  for (const [k, head] of got.scaled.asTrained.entries()) assert.ok(Math.abs(head.induction - scores[k]) <= 6e-5, `induction ${k}`);
  let even = 0;
  for (let i = 1; i < T; i++) even += 1 / (i + 1) / (T - 1);
  assert.ok(Math.abs(got.even - even) < 1e-4);
  let evenInduction = 0;
  for (let i = INDUCTION.span; i < n; i++) evenInduction += 1 / (i + 1) / INDUCTION.span;
  assert.ok(Math.abs(got.induction.even - evenInduction) < 1e-4);
  model.dispose();
});
