// The vocabulary in a real browser, under the site's strict CSP: loadVocab fetches the buckets of
// the words asked for (relative to web/core/vocab.js) and nothing else, and gives the same
// float32 vectors as in Node.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { GLOVE, bucketName, bucketOf, loadVocab } from '../../web/core/vocab.js';
import en from '../../web/i18n/en.js';
import { checkEachTest, launch, until } from './browser.mjs';

let browser;
let page;

before(async () => {
  browser = await launch();
  page = await browser.newPage();
  await page.goto(`${browser.url}lesson.html`);
  // the page's own words loaded first (its first view's pack), so that only the test's are new below
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
});

after(async () => {
  await browser?.close();
});

checkEachTest(() => browser);

test('loadVocab in the browser: the buckets of the words asked for, the same vectors as in Node', async () => {
  const words = ['cat', 'river', 'qwertyuiopasdf'];
  const got = await page.evaluate(async (list) => {
    const { loadVocab } = await import('./core/vocab.js');
    const before = new Set(performance.getEntriesByType('resource').map((e) => e.name));
    const vocab = await loadVocab(list);
    return {
      status: [...list, 'dog'].map((w) => vocab.status(w)),
      vectors: list.map((w) => (vocab.vector(w) ? Array.from(vocab.vector(w)) : null)),
      fetched: performance.getEntriesByType('resource').map((e) => e.name).filter((n) => !before.has(n) && n.includes('/assets/glove/')),
    };
  }, words);
  const node = await loadVocab(words);
  assert.deepEqual(got.status, ['known', 'known', 'unknown', bucketOf('dog') === bucketOf('cat') ? 'known' : 'loading']);
  words.forEach((w, i) => assert.deepEqual(got.vectors[i], node.vector(w) ? Array.from(node.vector(w)) : null, w));
  const names = got.fetched.map((n) => n.slice(n.lastIndexOf('/') + 1)).sort();
  // a word the files lack ("qwertyuiopasdf") brings the context map that makes its vector from a sentence
  assert.deepEqual(names, [...new Set(words.map((w) => bucketName(bucketOf(w)))), GLOVE.contextMap].sort());
});

test('a word the files lack gets a vector from its sentence: marked †, never "not in vocabulary"; the map is no part of the first view', async () => {
  const tab = await browser.newPage();
  try {
    await tab.goto(`${browser.url}index.html`);
    const lab = tab.locator('attention-lab').first();
    await lab.evaluate((el) => el.ready);
    const fetched = () => tab.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('/context-map.bin')));
    assert.deepEqual(await fetched(), [], 'the demo sentence needs no context map');
    // "chlorine" is in no file (a word of one held-out Brown document)
    assert.equal((await loadVocab(['chlorine'])).status('chlorine'), 'unknown');
    await lab.evaluate((el) => el.set({ sentence: 'the chlorine smelled strong' }));
    const sources = await until(() => lab.evaluate((el) => el.state.tokens.map((t) => [t.text, t.known, t.source])), (s) => s.length === 4 && s[1][2] === 'context',
      { what: 'chlorine made from its sentence' });
    assert.ok(sources.every(([, known]) => known), JSON.stringify(sources));
    assert.deepEqual(await lab.evaluate((el) => el.state.unknown), []);
    const chips = await lab.locator('token-chips').evaluate((el) => [...el.shadowRoot.querySelectorAll('.chip')].map((chip) => ({
      context: chip.classList.contains('context'), oov: chip.classList.contains('oov'),
      mark: chip.querySelector('.mark')?.textContent ?? null, title: chip.querySelector('.mark')?.title ?? null,
    })));
    assert.deepEqual(chips[1], { context: true, oov: false, mark: '†', title: en['chips.context'] });
    assert.ok(chips.every((chip) => !chip.oov));
    const name = new RegExp(`^chlorine.*, ${en['chips.context'].replace(/[.()]/g, '\\$&')}$`);
    assert.equal(await tab.getByRole('button', { name }).count(), 1, 'the chip says so to a screen reader');
    const note = await lab.locator('.note.induced').textContent();
    assert.ok(note.startsWith('† Made from this sentence: chlorine.'), note);
    assert.ok(note.includes('within 5 tokens'), note);
    assert.doesNotMatch(await lab.evaluate((el) => el.shadowRoot.textContent), /not in vocabulary/i);
    assert.equal((await fetched()).length, 1, 'the map, read once, when a word needed it');
    // the bars are finite numbers (no NaN on screen)
    const weights = await lab.evaluate((el) => Array.from(el.state.result.weights));
    assert.ok(weights.length === 16 && weights.every(Number.isFinite));
  } finally {
    await tab.close();
  }
});
