// `attention-lab/lab` (web/api/lab.js): the lab's pipeline as an API. It is a thin layer over the
// modules the page runs, so these tests check what the layer adds — the page's defaults, the
// settings checked by the page's table with coded errors, pasted vectors as text or arrays,
// inputs that engine.attention takes as they are — against references of their own: the GloVe
// vectors read straight from the vocabulary, float64 softmax, the headline numbers of docs/page.md.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';
import {
  FIGURE_VIEWS, MAX_TOKENS, WORD_DIM, defaultSettings, labInputs, labSettings, labState, loadVocab, renderFigure, tokenize,
} from '../../web/api/lab.js';
import { softmax64 } from '../support/reference.mjs';

const engine = await createEngine();
const vocab = await loadVocab();
const context = { engine, vocab };

// Weights of float32 scores against float64 ones: a 100-term float32 dot product of GloVe
// vectors (dots up to ~50) is off by at most ~100·2⁻²⁴·50 ≈ 3e-4, a weight by at most half of
// that times the scale: 1.5e-5 scaled by 1/√100. Allowed 4e-5.
const WEIGHT_TOLERANCE_SCALED = 4e-5;

const codeOf = (fn) => {
  try {
    fn();
  } catch (error) {
    return { code: error.code, name: error.name, message: error.message };
  }
  assert.fail('expected an error');
};

test('labInputs with no options: the page’s default sentence, identity vectors, and docs/page.md’s headline numbers', () => {
  const inputs = labInputs({}, context);
  assert.deepEqual(inputs.tokens, tokenize(defaultSettings().sentence));
  assert.deepEqual([inputs.n, inputs.m, inputs.d, inputs.dv, inputs.scale, inputs.causal, inputs.temperature], [10, 10, 100, 100, 'sqrt', false, 1]);
  // q = k = v = the vocabulary's vectors, in token order
  inputs.tokens.forEach((token, i) => assert.deepEqual(inputs.q.subarray(i * WORD_DIM, (i + 1) * WORD_DIM), vocab.vector(token)));
  const result = engine.attention(inputs); // the inputs go in as they are
  // "cat" (row 1) against a float64 softmax of its dot products ÷ √100
  const cat = vocab.vector('cat');
  const scores = inputs.tokens.map((token) => vocab.vector(token).reduce((sum, x, c) => sum + x * cat[c], 0) / 10);
  const expected = softmax64(scores);
  expected.forEach((w, j) => assert.ok(Math.abs(result.weights[10 + j] - w) <= WEIGHT_TOLERANCE_SCALED, `cat → ${inputs.tokens[j]}`));
  assert.equal(result.weights[11].toFixed(2), '0.36');
  const unscaled = engine.attention(labInputs({ scaled: false }, context));
  assert.equal(unscaled.weights[11].toFixed(2), '1.00');
  assert.equal(inputs.probe.text, 'animal');
});

test('engine.attention(labInputs(s)) is labState(s).result, for every projection and switch', () => {
  const cases = [
    { sentence: 'the cat sat on the mat', projection: 'random', dk: 64, scaled: false },
    { sentence: 'A dog, a zorblax!', projection: 'random', dk: 8, seed: 7, positional: true, causal: true, temperature: 0.5 },
    { tokens: ['the', 'cat'], probe: '' },
    { pasted: { q: '1, 0\n0, 1', k: [[1, 0], [0, 1], [1, 1]] } },
  ];
  for (const settings of cases) {
    const inputs = labInputs(settings, context);
    const state = labState(settings, context);
    const result = engine.attention(inputs);
    for (const key of ['dots', 'scores', 'weights', 'entropy', 'maxWeight', 'rowSum']) {
      assert.deepEqual(result[key], state.result[key], `${JSON.stringify(settings)}: ${key}`);
    }
  }
});

test('settings: the page’s defaults, tokens beat the sentence, a long text is cut and says so', () => {
  assert.deepEqual({ ...labSettings() }, { ...defaultSettings() });
  const chips = labSettings({ sentence: 'one two', tokens: ['three'] });
  assert.deepEqual(chips.tokens, ['three']);
  const long = labInputs({ sentence: 'word '.repeat(MAX_TOKENS + 5) }, context);
  assert.equal(long.n, MAX_TOKENS);
  assert.equal(long.truncated, true);
  assert.equal(labInputs({ sentence: 'short' }, context).truncated, false);
  const random = labInputs({ projection: 'random', dk: 32 }, context);
  assert.equal(random.d, 32);
  assert.equal(random.probe.q.length, 32);
  // a word the files lack: made from the known words near it, or unknown when there are none
  const made = labInputs({ sentence: 'zorblax the zorblax' }, context);
  assert.deepEqual([made.unknown, made.sources], [[], ['context', 'glove', 'context']]);
  assert.deepEqual(labInputs({ sentence: 'zorblax qwfpgj zorblax' }, context).unknown, ['zorblax', 'qwfpgj']);
});

test('pasted vectors: CSV text and arrays of rows, as the page parses them', () => {
  const fromText = labInputs({ pasted: { q: 'a, 1, 2\nb, 3, 4', k: '1 0\n0 1\n1 1', v: '[[1], [2], [3]]' } }, context);
  assert.deepEqual([fromText.n, fromText.m, fromText.d, fromText.dv], [2, 3, 2, 1]);
  assert.deepEqual(fromText.queryLabels, ['a', 'b']);
  assert.deepEqual(fromText.keyLabels, ['k1', 'k2', 'k3']);
  assert.deepEqual(Array.from(fromText.q), [1, 2, 3, 4]);
  const fromArrays = labInputs({ pasted: { q: [[1, 2], [3, 4]], k: [[1, 0], [0, 1], [1, 1]], v: [[1], [2], [3]] } }, context);
  assert.deepEqual(Array.from(fromArrays.k), Array.from(fromText.k));
  assert.deepEqual(Array.from(fromArrays.v), [1, 2, 3]);
  // a typographic minus (copied from a formatted page) is a minus, as on the page
  assert.deepEqual(Array.from(labInputs({ pasted: { q: '−1, 2', k: '1, 1' } }, context).q), [-1, 2]);
});

test('every error carries a code and names the setting, the value and what was expected', () => {
  const cases = [
    [() => labInputs({ dk: 0 }, context), /^dk 0 is not valid: it must be a whole number from 1 to 1024$/],
    [() => labInputs({ dk: 2048 }, context), /dk 2048 .*from 1 to 1024/],
    [() => labInputs({ projection: 'learned' }, context), /projection "learned" .*one of identity, random, pasted/],
    [() => labInputs({ projection: 'pasted' }, context), /projection "pasted" .*needs pasted vectors/],
    [() => labInputs({ scaled: 'no' }, context), /scaled "no" is not valid: it must be true or false/],
    [() => labInputs({ temperature: 0 }, context), /temperature 0 .*from 0.01 to 100/],
    [() => labInputs({ seed: -1 }, context), /seed -1 .*whole number from 0 to 4294967295/],
    [() => labInputs({ dK: 64 }, context), /unknown setting "dK": expected one of sentence, tokens, .*dk/],
    [() => labInputs({ truncated: true }, context), /truncated true is not valid: it is derived/],
    [() => labInputs({ sentence: '   ' }, context), /sentence "   " has no tokens/],
    [() => labInputs({ sentence: 42 }, context), /sentence 42 .*must be text/],
    [() => labInputs({ tokens: ['a', ''] }, context), /tokens an array .*non-empty strings/],
    [() => labInputs('the cat', context), /settings must be an object/],
    [() => labInputs({ pasted: { q: '1, 2\n3', k: '1, 2' } }, context), /Q row 2 has 1 number, but row 1 has 2/],
    [() => labInputs({ pasted: { q: '1, 2', k: '1, 2, 3' } }, context), /Q rows have 2 numbers but K rows have 3/],
    [() => labInputs({ pasted: 'q' }, context), /pasted must be \{ q, k, v\? \}/],
    [() => labInputs({ pasted: { q: 5, k: '1' } }, context), /pasted.q must be text/],
    [() => labState({ pasted: { q: '1\n2', k: '1' }, causal: true }, context), /causal mask needs as many queries as keys \(Q has 2 rows, K has 1\)/],
    [() => labInputs({}, { vocab }), /options.engine must be an engine of createEngine\(\)/],
    [() => labInputs({}, { engine }), /options.vocab must be the vocabulary of await loadVocab\(\)/],
    [() => labInputs({}), /options.engine/],
  ];
  for (const [fn, message] of cases) {
    const error = codeOf(fn);
    assert.equal(error.code, 'ATTN_INVALID_ARGUMENT', error.message);
    assert.ok(error.name === 'TypeError' || error.name === 'RangeError' || error.name === 'PasteError', `${error.name}: ${error.message}`);
    assert.match(error.message, message);
  }
});

test('renderFigure checks its options with coded errors; PNG is refused with what to do instead', () => {
  const state = labState({}, context);
  const cases = [
    [{ view: 'pie' }, new RegExp(`view "pie" is not valid: expected one of ${FIGURE_VIEWS.join(', ')}`)],
    [{ format: 'png' }, /format "png" .*svg, csv, json \(PNG needs a browser to draw text/],
    [{ theme: 'blue' }, /theme "blue" .*light, dark/],
    [{ width: 20 }, /width 20 .*from 200 to 10000/],
    [{ width: 640.5 }, /width 640.5/],
  ];
  for (const [options, message] of cases) {
    const error = codeOf(() => renderFigure(state, options));
    assert.equal(error.code, 'ATTN_INVALID_ARGUMENT');
    assert.match(error.message, message);
  }
  assert.match(codeOf(() => renderFigure(labState({ probe: '' }, context), { view: 'probe' })).message, /needs a probe word/);
  assert.match(codeOf(() => renderFigure({ n: 1 })).message, /state must be a lab state of labState\(\)/);
});
