// The vocabulary in a real browser, under the site's strict CSP: loadVocab fetches the buckets of
// the words asked for (relative to web/core/vocab.js) and nothing else, and gives the same
// float32 vectors as in Node.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { bucketName, bucketOf, loadVocab } from '../../web/core/vocab.js';
import { checkEachTest, launch } from './browser.mjs';

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
  assert.deepEqual(names, [...new Set(words.map((w) => bucketName(bucketOf(w))))].sort());
});
