// Every error the package's API throws carries error.code and a message naming the argument, the
// value and what was expected — across its entry points: the engine ('attention-lab'), the lab
// ('attention-lab/lab'), the word vectors ('attention-lab/vocab') and the checker
// ('attention-lab/testing'). Each case is a mistake a new user makes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';
import { loadVocab as loadBuckets, parseBucket } from '../../web/core/vocab.js';
import { labInputs, loadVocab, renderFigure, tokenize } from '../../web/api/lab.js';
import { compareAttention } from '../../web/testing.js';

const engine = await createEngine();
const vocab = await loadVocab();

async function caught(fn) {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected an error');
}

test('every entry point: a coded error whose message says what was wrong and what was expected', async () => {
  const cases = [
    ['ATTN_INVALID_ARGUMENT', () => engine.attention({ q: [[1, 0], [0, 1]], k: [1, 0, 0, 1], n: 2, m: 2, d: 2 }), /q\[0\] is an array: pass q as one flat array of numbers, row-major/],
    ['ATTN_INVALID_SHAPE', () => engine.attention({ q: [1, 0], k: [1, 0, 0, 1], n: 2, m: 2, d: 2 }), /q has length 2, expected n·d = 4/],
    ['ATTN_INVALID_ARGUMENT', () => tokenize(42), /tokenize: expected a string, got number/],
    ['ATTN_INVALID_ARGUMENT', () => labInputs({ dk: 3.5 }, { engine, vocab }), /dk 3.5 is not valid: it must be a whole number from 1 to 1024/],
    ['ATTN_INVALID_ARGUMENT', () => renderFigure(null), /state must be a lab state of labState\(\)/],
    ['ATTN_INVALID_ARGUMENT', () => loadBuckets('the cat'), /load: words must be an array \(or other iterable\) of strings, got the string "the cat"/],
    ['ATTN_INVALID_ARGUMENT', () => loadBuckets([1]), /load: words\[0\] must be a string, got number 1/],
    ['ATTN_LOAD_FAILED', () => loadBuckets(['cat'], { base: new URL('file:///nonexistent/glove/') }), /file:\/\/\/nonexistent\/glove\/[0-9a-f]{3}\.bin: ENOENT/],
    ['ATTN_LOAD_FAILED', () => parseBucket(new Uint8Array(30), { name: '0a1.bin' }), /^0a1\.bin: bad magic/],
    ['ATTN_INVALID_ARGUMENT', () => compareAttention('attention'), /compareAttention: attention must be a function/],
  ];
  for (const [code, fn, message] of cases) {
    const error = await caught(fn);
    assert.equal(error.code, code, `${error.message}`);
    assert.match(error.message, message);
  }
});
