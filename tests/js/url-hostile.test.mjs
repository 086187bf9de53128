// Hostile text in a page's address (the DOM-free half of tests/browser/hostile.test.mjs): what
// web/lab/url.js makes of ?sentence= and ?tokens=, and web/i18n's pageLanguage of ?lang=. The
// page loads a few of these; every one of them is read here.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DEFAULT_LANGUAGE, pageLanguage } from '../../web/i18n/i18n.js';
import { createStore, defaultSettings } from '../../web/lab/settings.js';
import { MAX_TOKENS } from '../../web/lab/tokenize.js';
import { readUrl, writeUrl } from '../../web/lab/url.js';
import { HOSTILE, LONG_WORD, MANY_TOKENS } from '../support/hostile.mjs';

const TEXTS = [...HOSTILE, '\u200B\u200D\uFEFF'];
const DEFAULT_TOKENS = defaultSettings().tokens;
// as a browser writes an address: a lone surrogate becomes U+FFFD (encodeURIComponent throws on it)
const encode = (text) => encodeURIComponent(text.toWellFormed());

for (const name of ['sentence', 'tokens']) {
  test(`every hostile string as ?${name}=: 1 … ${MAX_TOKENS} tokens, or the default and a problem naming ${name}; the link written back reopens the same tokens`, () => {
    for (const text of TEXTS) {
      const what = `?${name}=${JSON.stringify(text.slice(0, 30))}`;
      const { settings, problems } = readUrl(`?${name}=${encode(text)}`);
      const store = createStore();
      store.set(settings);
      const { tokens } = store.get();
      assert.ok(tokens.length >= 1 && tokens.length <= MAX_TOKENS, `${what}: ${tokens.length} tokens`);
      for (const problem of problems) assert.equal(problem.name, name, `${what}: a problem names the parameter`);
      if (problems.length > 0 || settings[name] === undefined) {
        assert.deepEqual(tokens, DEFAULT_TOKENS, `${what}: what cannot be read leaves the default`);
        continue;
      }
      const again = createStore();
      again.set(readUrl(writeUrl(store.get())).settings);
      assert.deepEqual(again.get().tokens, tokens, `${what}: the written link reopens it`);
    }
  });
}

test('the longest hostile texts as ?sentence=: the first 128 tokens, a 100,000-character word whole', () => {
  const many = createStore();
  many.set(readUrl(`?sentence=${encodeURIComponent(MANY_TOKENS)}`).settings);
  assert.deepEqual(many.get().tokens, MANY_TOKENS.split(' ').slice(0, MAX_TOKENS));
  const long = createStore();
  long.set(readUrl(`?sentence=${LONG_WORD}`).settings);
  assert.deepEqual(long.get().tokens, [LONG_WORD], 'one word, whole (the chips cut its label, not the word)');
});

test('?lang= with markup, script, NUL and bytes that are no UTF-8: English, whatever the reader prefers', () => {
  const queries = [...HOSTILE.map(encode), '%ED%A0%80', '%', '%%00nb', 'nb%00', '%00', '<nb>', '%3Cnb%3E'];
  for (const query of queries) {
    assert.equal(pageLanguage(`?lang=${query}`, ['nb']), DEFAULT_LANGUAGE, `?lang=${query}`);
    assert.doesNotThrow(() => readUrl(`?lang=${query}`), `readUrl ?lang=${query}`);
  }
  // and the ones it speaks, so that the above cannot pass by always saying English
  assert.equal(pageLanguage('?lang=nb', ['en']), 'nb');
  assert.equal(pageLanguage('?lang=no-NO', ['en']), 'nb');
  assert.equal(pageLanguage('', ['de', 'nb']), 'nb');
  assert.equal(pageLanguage('?lang=', ['nb']), 'nb', 'an empty lang is no lang');
});
