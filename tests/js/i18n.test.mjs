// The string tables (web/i18n/<lang>.js) and their lookup (web/i18n/i18n.js): every language has
// every key, with the same placeholders, plural forms and markup; the lookup picks languages,
// plural forms and numbers as documented.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import { LANGUAGES, createStrings, escapeHtml, loadStrings, matchLanguage, pickLanguage } from '../../web/i18n/i18n.js';
import nb from '../../web/i18n/nb.js';

const TABLES = { en, nb };
// The markup a ...Html message may hold (inserted as HTML by the elements): no attribute but an
// <a>'s href, nothing that runs or styles.
const ALLOWED_TAGS = new Set(['b', 'code', 'em', 'sub', 'sup', 'a', 'br', 'strong']);

const forms = (entry) => (typeof entry === 'object' ? Object.values(entry) : [entry]);
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const tags = (text) => [...text.matchAll(/<\/?([a-z0-9]+)[^>]*>/gi)].map((m) => m[0].replace(/\s.*>$/, '>')).sort();

test('there is a table for every language, and no other', () => {
  assert.deepEqual(Object.keys(TABLES).sort(), [...LANGUAGES].sort());
});

for (const [lang, table] of Object.entries(TABLES)) {
  test(`${lang}: every key of the other tables is here`, () => {
    for (const [other, otherTable] of Object.entries(TABLES)) {
      const missing = Object.keys(otherTable).filter((key) => !(key in table));
      assert.deepEqual(missing, [], `${lang} lacks keys that ${other} has`);
    }
  });

  test(`${lang}: every message is non-empty text, or { one, other } plural forms`, () => {
    for (const [key, entry] of Object.entries(table)) {
      if (typeof entry === 'object') {
        assert.deepEqual(Object.keys(entry).sort(), ['one', 'other'], `${lang} ${key}: plural forms`);
        for (const form of Object.values(entry)) assert.match(form, /\{count\}/, `${lang} ${key}: a plural form says {count}`);
      }
      for (const text of forms(entry)) {
        assert.equal(typeof text, 'string', `${lang} ${key}`);
        assert.notEqual(text.trim(), '', `${lang} ${key} is empty`);
        assert.equal(text, text.trim(), `${lang} ${key} has spaces around it`);
      }
    }
  });

  test(`${lang}: markup only in ...Html messages, and only the allowed tags`, () => {
    for (const [key, entry] of Object.entries(table)) {
      for (const text of forms(entry)) {
        if (!key.endsWith('Html')) {
          assert.deepEqual(tags(text), [], `${lang} ${key} holds markup but is not an ...Html key`);
          continue;
        }
        for (const [, name] of text.matchAll(/<\/?([a-z0-9]+)/gi)) assert.ok(ALLOWED_TAGS.has(name.toLowerCase()), `${lang} ${key}: <${name}>`);
        assert.doesNotMatch(text, /\son\w+=|style=|javascript:/i, `${lang} ${key}: an attribute that runs or styles`);
      }
    }
  });
}

test('every message has the same placeholders, plural forms and tags in every language', () => {
  for (const [key, entry] of Object.entries(en)) {
    for (const [lang, table] of Object.entries(TABLES)) {
      const other = table[key];
      if (other === undefined) continue; // reported above
      assert.equal(typeof other, typeof entry, `${lang} ${key}: plural in one table and not the other`);
      const want = [...new Set(forms(entry).flatMap(placeholders))].sort();
      const got = [...new Set(forms(other).flatMap(placeholders))].sort();
      assert.deepEqual(got, want, `${lang} ${key}: placeholders`);
      if (key.endsWith('Html')) assert.deepEqual(forms(other).map(tags), forms(entry).map(tags), `${lang} ${key}: tags`);
    }
  }
});

test('matchLanguage: BCP 47 tags to our languages; Norwegian in any of its codes is bokmål', () => {
  assert.equal(matchLanguage('en'), 'en');
  assert.equal(matchLanguage('en-GB'), 'en');
  assert.equal(matchLanguage('nb'), 'nb');
  assert.equal(matchLanguage('nb-NO'), 'nb');
  assert.equal(matchLanguage('no'), 'nb');
  assert.equal(matchLanguage('NN_no'), 'nb');
  assert.equal(matchLanguage('de'), null);
  assert.equal(matchLanguage(''), null);
  assert.equal(matchLanguage(null), null);
  assert.equal(matchLanguage(42), null);
});

test('pickLanguage: the first tag we speak, skipping missing and unknown ones, else English', () => {
  assert.equal(pickLanguage([null, 'de-DE', 'nb', 'en']), 'nb');
  assert.equal(pickLanguage([undefined, 'fr', 'en-US', 'nb']), 'en');
  assert.equal(pickLanguage(['fr', 'de']), 'en');
  assert.equal(pickLanguage([]), 'en');
});

test('loadStrings: every language loads; an unknown one is a RangeError naming it', async () => {
  for (const lang of LANGUAGES) assert.equal((await loadStrings(lang)).lang, lang);
  assert.equal(await loadStrings('nb'), await loadStrings('nb'), 'memoised');
  await assert.rejects(loadStrings('de'), { name: 'RangeError', message: /"de", expected one of en, nb/ });
});

test('t: placeholders filled, numbers in the language’s digits, plural forms by count', () => {
  const table = {
    hello: 'Hello {name}, {n} of {m}',
    items: { one: '{count} item', other: '{count} items' },
    boldHtml: '<b>{word}</b> is {what}',
  };
  const s = createStrings('en', table);
  assert.equal(s.t('hello', { name: 'Ada', n: 20000, m: '4294967295' }), 'Hello Ada, 20,000 of 4294967295');
  assert.equal(s.t('hello', { name: 'Ada' }), 'Hello Ada, {n} of {m}', 'a placeholder without a value stays');
  assert.equal(s.t('items', { count: 1 }), '1 item');
  assert.equal(s.t('items', { count: 0 }), '0 items');
  assert.equal(s.t('items', { count: 2 }), '2 items');
  assert.equal(s.html('boldHtml', { word: '<img src=x onerror=alert(1)>', what: '"x" & y' }), `<b>${escapeHtml('<img src=x onerror=alert(1)>')}</b> is &#34;x&#34; &#38; y`);
  assert.equal(s.t('boldHtml', { word: 'a', what: 'b' }), '<b>a</b> is b');
  const nbStrings = createStrings('nb', { n: '{n} ord', items: { one: '{count} ting', other: '{count} tinger' } });
  assert.equal(nbStrings.t('n', { n: 20000 }), '20\u00a0000 ord');
  assert.equal(nbStrings.t('items', { count: 1 }), '1 ting');
  assert.equal(nbStrings.t('items', { count: 5 }), '5 tinger');
});

test('a key missing from a table falls back to English, and the console says so', async () => {
  const warnings = [];
  const warn = console.warn;
  console.warn = (message) => warnings.push(message);
  try {
    const partial = createStrings('nb', {});
    assert.equal(partial.t('bars.entropy'), en['bars.entropy']);
    assert.equal(partial.t('bars.entropy'), en['bars.entropy']);
    assert.equal(partial.t('no.such.key'), 'no.such.key');
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(warnings, ['i18n: no "bars.entropy" in the nb table', 'i18n: no "no.such.key" in the nb table']);
});

test('numbers through the strings: a decimal comma and a true minus in Norwegian', async () => {
  const s = await loadStrings('nb');
  assert.equal(s.fixed(0.3634, 3), '0,363');
  assert.equal(s.fixed(-0.5, 2), '−0,50');
  assert.equal(s.fmt(2.954418385733194e-22), '2,95e−22');
  assert.equal(s.fmt(1024.4), '1020');
  assert.equal(s.score(-1234567), '−1,23e6');
  assert.equal(s.integer(20000), '20\u00a0000');
  const e = await loadStrings('en');
  assert.equal(e.fixed(0.3634, 3), '0.363');
  assert.equal(e.fmt(2.954418385733194e-22), '2.95e−22');
  assert.equal(e.integer(20000), '20,000');
});

test('tipLabel: a long token is cut, and says how long it is in the language', async () => {
  const word = 'x'.repeat(100000);
  assert.match((await loadStrings('en')).tipLabel(word), /^x{200}… \(100,000 characters\)$/);
  assert.match((await loadStrings('nb')).tipLabel(word), /^x{200}… \(100\u00a0000 tegn\)$/);
  assert.equal((await loadStrings('nb')).tipLabel('katt'), 'katt');
});

test('format: English as before (true minus, exponent far from 1), and score(100) is 100', async () => {
  const { fixed, fmt, score } = await import('../../web/i18n/format.js');
  assert.equal(fixed(0.36251), '0.363');
  assert.equal(fixed(-0.5, 2), '−0.50');
  assert.equal(fixed(NaN), '—');
  assert.equal(fixed(Infinity), '—');
  assert.equal(fmt(1234.5), '1230');
  assert.equal(fmt(-0.00012345, 3), '−1.23e−4');
  assert.equal(fmt(123456), '1.23e5');
  assert.equal(fmt(NaN), 'NaN');
  assert.equal(fmt(-Infinity), '−∞');
  assert.equal(score(100), '100');
  assert.equal(score(0.5), '0.5');
  assert.equal(score(-Infinity), '−∞');
});

test('ariaNumber: a plain decimal for aria-valuenow, never exponent notation', async () => {
  const { ariaNumber } = await import('../../web/i18n/format.js');
  assert.equal(ariaNumber(2.954418385733194e-22), '0');
  assert.equal(ariaNumber(1.905659985368402e-8), '0');
  assert.equal(ariaNumber(0.0000015), '0.000002');
  assert.equal(ariaNumber(0.36251234567), '0.362512');
  assert.equal(ariaNumber(1), '1');
  assert.equal(ariaNumber(NaN), '0');
  for (let e = -30; e <= 0; e++) assert.match(ariaNumber(1.2345 * 10 ** e), /^\d+(\.\d{1,6})?$/, `1.2345e${e}`);
});

// Every key the code names (in quotes, or in a data-t / data-t-html / data-t-attrs attribute), and
// the keys it builds from a setting's value (controls.${projection}).
async function keysInCode() {
  const { readdir, readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const root = new URL('../../', import.meta.url).pathname;
  const files = [];
  const walk = async (dir) => {
    for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['vendor', 'build', 'assets'].includes(entry.name)) await walk(path);
      } else if (/\.(m?js|html)$/.test(entry.name) && !/^web\/i18n\/(en|nb)\.js$/.test(path)) files.push(path);
    }
  };
  for (const dir of ['web', 'bin']) await walk(dir).catch(() => {});
  const used = new Set();
  const pattern = /['"]([a-z][A-Za-z]*\.[A-Za-z0-9]+)['"]|(?:data-t(?:-html)?="|[a-z-]+:)([a-z][A-Za-z]*\.[A-Za-z0-9]+)/g;
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
    for (const m of text.matchAll(pattern)) used.add(m[1] ?? m[2]);
  }
  for (const projection of ['identity', 'random', 'pasted']) used.add(`controls.${projection}`);
  return used;
}

test('every key the code names is in the tables, and every key of the tables is used', async () => {
  const used = await keysInCode();
  const families = new Set(Object.keys(en).map((key) => key.split('.')[0]));
  const named = [...used].filter((key) => families.has(key.split('.')[0]));
  assert.deepEqual(named.filter((key) => !(key in en)).sort(), [], 'keys named in the code but missing from the tables');
  assert.deepEqual(Object.keys(en).filter((key) => !used.has(key)).sort(), [], 'keys of the tables that nothing uses');
});
