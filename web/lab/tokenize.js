// Text → the lower-case tokens GloVe 6B was trained on (Stanford-tokenised Wikipedia and
// Gigaword): words and numbers, punctuation marks one by one, and English clitics split off
// the way that tokeniser does ("don't" → "do" "n't", "cat's" → "cat" "'s").

import { english } from '../i18n/i18n.js';

/** Most tokens the lab shows; longer inputs are cut here and the page says so. */
export const MAX_TOKENS = 128;
/** Most characters of a token typed into a chip. */
const MAX_TOKEN_CHARS = 64;

// A word: letters, marks and digits, optionally joined by inner hyphens, apostrophes or (in
// numbers) decimal points: "well-known", "don't", "3.14". An ellipsis "..." is one token (as in
// GloVe); any other mark is a token of its own.
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:(?:[-'’]|(?<=\p{N})[.,](?=\p{N}))[\p{L}\p{M}\p{N}]+)*|\.\.\.|\S/gu;
const NEGATION = /^(.+)(n't)$/;
const CLITIC = /^(.+)('(?:s|re|ve|ll|d|m))$/;

/** Splits `text` into lower-case tokens (an array of strings, possibly empty). */
export function tokenize(text) {
  if (typeof text !== 'string') throw new TypeError(`tokenize: expected a string, got ${text === null ? 'null' : typeof text}`);
  const tokens = [];
  for (const [match] of text.normalize('NFC').toLowerCase().matchAll(TOKEN)) {
    const word = match.replaceAll('’', "'");
    const split = NEGATION.exec(word) ?? CLITIC.exec(word);
    if (split) tokens.push(split[1], split[2]);
    else tokens.push(word);
  }
  return tokens;
}

/**
 * Cleans one token typed into a chip: trimmed, lower-case, inner spaces not allowed.
 * Returns { token }, or { error (in English), key, params } for the page to show in its
 * reader's language (messageOf of web/i18n/i18n.js).
 */
export function checkToken(text) {
  const token = String(text).normalize('NFC').trim().toLowerCase();
  if (token === '') return rejected('chips.empty');
  if (/\s/u.test(token)) return rejected('chips.space', { token });
  if (token.length > MAX_TOKEN_CHARS) return rejected('chips.tooLong', { count: MAX_TOKEN_CHARS });
  return { token };
}

function rejected(key, params = {}) {
  return { error: english().t(key, params), key, params };
}
