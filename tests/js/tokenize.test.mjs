// The tokeniser of the demo page (web/lab/tokenize.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checkToken, tokenize } from '../../web/lab/tokenize.js';

test('the demo sentence gives ten lower-case words', () => {
  assert.deepEqual(tokenize('The cat sat on the mat because it was tired'), [
    'the', 'cat', 'sat', 'on', 'the', 'mat', 'because', 'it', 'was', 'tired',
  ]);
});

test('punctuation marks are tokens of their own', () => {
  assert.deepEqual(tokenize('Hello, world! (Yes?)'), ['hello', ',', 'world', '!', '(', 'yes', '?', ')']);
  assert.deepEqual(tokenize('Wait... what—no'), ['wait', '...', 'what', '—', 'no']);
});

test('clitics are split the way GloVe was tokenised', () => {
  assert.deepEqual(tokenize("Don't"), ['do', "n't"]);
  assert.deepEqual(tokenize("it's the cat’s"), ['it', "'s", 'the', 'cat', "'s"]);
  assert.deepEqual(tokenize("we'll they're I'd"), ['we', "'ll", 'they', "'re", 'i', "'d"]);
  assert.deepEqual(tokenize("o'clock"), ["o'clock"]);
});

test('hyphenated words and decimal numbers stay whole', () => {
  assert.deepEqual(tokenize('A well-known 3.14 or 1,000.'), ['a', 'well-known', '3.14', 'or', '1,000', '.']);
  assert.deepEqual(tokenize('end.Next'), ['end', '.', 'next']);
});

test('whitespace of any kind separates tokens; empty text gives no tokens', () => {
  assert.deepEqual(tokenize('  the\tcat\n\nsat  '), ['the', 'cat', 'sat']);
  assert.deepEqual(tokenize(''), []);
  assert.deepEqual(tokenize(' \n\t '), []);
});

test('non-English letters are kept and lower-cased (NFC)', () => {
  assert.deepEqual(tokenize('Café ÉCOLE Straße'), ['café', 'école', 'straße']);
  assert.deepEqual(tokenize('Cafe\u0301'), ['café']);
});

test('a non-string is a TypeError that says what it got', () => {
  assert.throws(() => tokenize(null), { name: 'TypeError', message: /expected a string, got null/ });
  assert.throws(() => tokenize(42), { name: 'TypeError', message: /got number/ });
});

test('checkToken cleans one chip and explains what it rejects', () => {
  assert.deepEqual(checkToken('  Cat '), { token: 'cat' });
  assert.match(checkToken('   ').error, /cannot be empty/);
  assert.match(checkToken('two words').error, /holds a space/);
  assert.match(checkToken('x'.repeat(65)).error, /at most 64/);
});

test('control and format characters are no tokens, in a sentence or a chip', () => {
  assert.deepEqual(tokenize('nul\u0000byte zero\u200Bwidth \u202Eevil\u202C a\uFEFFb'), ['nul', 'byte', 'zero', 'width', 'evil', 'a', 'b']);
  assert.deepEqual(tokenize('\u0000\u200B\u200D\u2067'), []);
  assert.deepEqual(checkToken('c\u200Bat'), { token: 'cat' });
  assert.match(checkToken('\u0000\u200D').error, /cannot be empty/);
});
