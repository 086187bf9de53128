// The lab on a MkDocs site (Debian's mkdocs 1.4.2 and mkdocs-material 8.2.5), built by `mkdocs
// build` from tests/fixtures/mkdocs — docs/sites.md's snippet, with example.org replaced by where
// the lab is served. Material's instant navigation (`navigation.instant`) fetches the next page
// and swaps its content into the open document, with no new page load: the element's module,
// loaded once by the site's extra_javascript, must upgrade the <attention-lab> that arrives, and
// the lab must draw that page's sentence. The site is on another origin than the lab's.
// Skipped, and said so, where mkdocs is not installed. Cost: ~5 s (the build ~1 s).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { readMeters, until, useSiteElsewhere } from './browser.mjs';

const FIXTURE = fileURLToPath(new URL('../fixtures/mkdocs/', import.meta.url));
const README = fileURLToPath(new URL('../../docs/sites.md', import.meta.url));
const PLACEHOLDER = 'https://example.org/attention-lab/';

const mkdocs = (() => {
  try {
    return execFileSync('mkdocs', ['--version'], { encoding: 'utf8' });
  } catch {
    return null;
  }
})();

const site = useSiteElsewhere({ viewport: { width: 1280, height: 900 }, skip: !mkdocs }, async (root, browser) => {
  const lab = new URL(browser.url).origin;
  await cp(FIXTURE, join(root, 'src'), { recursive: true });
  const loader = join(root, 'src/docs/javascripts/attention-lab.js');
  await writeFile(loader, (await readFile(loader, 'utf8')).replace(PLACEHOLDER, browser.url));
  execFileSync('mkdocs', ['build', '--quiet', '--strict', '-f', join(root, 'src/mkdocs.yml'), '-d', join(root, 'site')]);
  await writeFile(join(root, 'site/favicon.ico'), '');
  // Material's pages hold inline scripts (its configuration, its storage helpers) and inline
  // styles: the site allows those for itself; the lab's scripts, words and core come from the lab
  const policy = `default-src 'self'; script-src 'self' 'unsafe-inline' ${lab} 'wasm-unsafe-eval'; connect-src 'self' ${lab}; style-src 'self' 'unsafe-inline'; img-src 'self' data:`;
  return { policy, dir: join(root, 'site') };
});

const words = (sentence) => sentence.toLowerCase().split(/\s+/);

test('docs/sites.md’s MkDocs snippet is the fixture’s', { skip: !mkdocs && 'mkdocs is not installed' }, async () => {
  const readme = await readFile(README, 'utf8');
  const yml = await readFile(join(FIXTURE, 'mkdocs.yml'), 'utf8');
  const loader = await readFile(join(FIXTURE, 'docs/javascripts/attention-lab.js'), 'utf8');
  const page2 = await readFile(join(FIXTURE, 'docs/scaling.md'), 'utf8');
  for (const line of [...yml.split('\n').filter((l) => /theme:|name: material|features:|navigation\.instant|extra_javascript:|javascripts\/attention-lab\.js/.test(l)), loader.trim(), page2.split('\n').find((l) => l.startsWith('<attention-lab'))]) {
    assert.ok(readme.includes(line), `docs/sites.md holds ${JSON.stringify(line)}`);
  }
});

test('MkDocs Material, instant navigation: the lab on the next page upgrades and draws its sentence', { skip: !mkdocs && 'mkdocs is not installed' }, async () => {
  const first = (await readFile(join(FIXTURE, 'docs/index.md'), 'utf8')).match(/sentence="([^"]+)"/)[1];
  const second = (await readFile(join(FIXTURE, 'docs/scaling.md'), 'utf8')).match(/sentence="([^"]+)"/)[1];
  assert.notDeepEqual(words(first), words(second));

  const { page } = site;
  await page.goto(`${site.origin}/`);
  const lab = page.locator('attention-lab');
  await page.evaluate(() => customElements.whenDefined('attention-lab')); // the loader imports it after the page's scripts
  await lab.evaluate((el) => el.ready);
  assert.deepEqual(await lab.evaluate((el) => el.state.queryLabels), words(first));
  await page.evaluate(() => { window.__samePage = true; });
  const modules = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/components/attention-lab.js')).length);
  assert.equal(await modules(), 1);

  await page.locator('nav.md-nav--primary a', { hasText: 'Scaling' }).first().click();
  await until(() => page.evaluate(() => location.pathname), (p) => p === '/scaling/', { what: 'the second page' });
  await until(() => page.locator('h1').first().textContent(), (t) => t.trim() === 'Scaling', { what: 'the second page’s content' });
  assert.equal(await page.evaluate(() => window.__samePage), true, 'no new page load: the content was swapped in');

  const swapped = page.locator('attention-lab');
  assert.equal(await swapped.count(), 1);
  assert.equal(await swapped.getAttribute('sentence'), second);
  assert.equal(await swapped.evaluate((el) => el instanceof customElements.get('attention-lab')), true, 'upgraded');
  await swapped.evaluate((el) => el.ready);
  await until(() => swapped.evaluate((el) => el.state?.queryLabels), (labels) => JSON.stringify(labels) === JSON.stringify(words(second)), { what: 'the second sentence drawn', timeout: 15000 });
  // drawn, not only computed: a bar for each of the second sentence's tokens, its weights summing to 1
  const meters = await until(() => readMeters(page), (m) => m.length === words(second).length, { what: 'the bars of the second sentence' });
  assert.deepEqual(meters.map((m) => m.name.toLowerCase()), words(second).map((w, i) => `${w} (key ${i + 1})`));
  assert.ok(Math.abs(meters.reduce((total, m) => total + m.value, 0) - 1) < 0.01, JSON.stringify(meters));
  assert.equal(await modules(), 1, 'the module was loaded once');
});
