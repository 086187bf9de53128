// An embed that holds still: while the host page scrolls past the lab's iframe, the frame never
// shrinks. The lab's lower cards skip their rendering off screen (content-visibility: auto); in a
// frame sized to its content, "off screen" is the host's viewport, so a card the host scrolled
// past would fall back to its placeholder height and the frame would jump (measured before the
// fix: 2,534 → 2,117 px mid-scroll in a 900 px column). Cost: one host page, ~30 scroll steps.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launch, checkEachTest, startHost, until } from './browser.mjs';

const SHRINK_TOLERANCE = 1; // px: a frame's height is a whole number, rounded up from the content's
const COLUMN_FIT = 0.05; // the embed code's height may exceed its content in a lesson column by 5 %
const STEP = 150; // px the host scrolls at a time, as a reader's wheel does

let browser;
let host;
let page;

before(async () => {
  browser = await launch({ viewport: { width: 1000, height: 800 } });
  host = await startHost(browser.url);
  page = await browser.newPage();
});

after(async () => {
  await browser?.close();
  await host?.close();
});

checkEachTest(() => browser);

test('scrolling the host page past the embed: the frame’s height never drops by more than 1 px', async (t) => {
  const url = await host.page('column.html',
    `<div id="top" hidden></div><iframe id="lab" src="${browser.url}embed.html?sentence=the%20cat%20sat%20on%20the%20mat" title="Attention Lab" width="900"></iframe>` +
      `<script src="${browser.url}embed.js" async></script>`);
  await page.goto(url);
  const inner = await until(async () => page.frames().find((f) => f.url().startsWith(`${browser.url}embed.html`)), Boolean, { what: 'the frame' });
  await inner.locator('attention-lab').evaluate((lab) => lab.ready);
  const height = () => page.locator('#lab').evaluate((el) => el.getBoundingClientRect().height);
  await until(height, (h) => h > 1000, { timeout: 15000, what: 'the frame sized to the lab' });
  await page.waitForTimeout(300);
  const seen = [await height()];
  const bottom = () => page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  for (let y = STEP; y <= (await bottom()) + STEP; y += STEP) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.waitForTimeout(40); // the frame's message crosses, embed.js applies it
    seen.push(await height());
  }
  for (let y = await bottom(); y >= 0; y -= 2 * STEP) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.waitForTimeout(40);
    seen.push(await height());
  }
  t.diagnostic(`${seen.length} heights, ${Math.min(...seen)}–${Math.max(...seen)} px`);
  const drops = seen.slice(1).map((h, i) => [seen[i], h]).filter(([a, b]) => b < a - SHRINK_TOLERANCE);
  assert.deepEqual(drops, [], `the frame shrank while the host scrolled: ${seen.join(' → ')}`);
});

test('the copied embed code pins the theme shown and the height of a 760 px lesson column, whatever the window', async (t) => {
  const wide = await browser.newPage();
  await wide.setViewportSize({ width: 1400, height: 900 }); // the lab in three columns here
  for (const scheme of ['light', 'dark']) {
    await wide.emulateMedia({ colorScheme: scheme });
    await wide.goto(`${browser.url}?sentence=${encodeURIComponent('She bought fresh bread and milk at the corner shop')}`);
    await wide.locator('attention-lab').evaluate((lab) => lab.ready);
    await wide.waitForFunction(() => customElements.get('lab-share'));
    const code = await wide.locator('lab-share').evaluate((share) => share.embedCode);
    const src = code.match(/src="([^"]+)"/)[1].replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));
    assert.equal(new URL(src).searchParams.get('theme'), scheme, `the theme shown (${scheme}) is pinned`);
    const height = Number(code.match(/height="(\d+)"/)[1]);
    // the snippet as a platform that strips scripts keeps it: the iframe alone, in a 760 px column
    const snippet = code.split('\n')[0].replace('width="100%"', 'width="760"').replace('loading="lazy" ', '');
    await page.goto(await host.page(`column-${scheme}.html`, snippet));
    const inner = await until(async () => page.frames().find((f) => f.url().startsWith(`${browser.url}embed.html`)), Boolean, { what: 'the frame' });
    await inner.locator('attention-lab').evaluate((lab) => lab.ready);
    await inner.waitForFunction(() => customElements.get('lab-share'));
    await page.waitForTimeout(300);
    const content = await inner.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    // the heatmap keeps the size it was drawn at in the window's layout while the column is
    // measured (its cells are sized by script): within COLUMN_FIT of the content, and no less
    t.diagnostic(`${scheme}: embed code ${height} px, content in 760 px ${content} px`);
    assert.ok(content <= height && height - content <= COLUMN_FIT * content, `the embed code's height ${height} px; its content in a 760 px column: ${content} px`);
    assert.equal(await inner.evaluate(() => getComputedStyle(document.documentElement).colorScheme), scheme);
  }
  await wide.close();
});

test('share=0: the embedded lab has no share panel, and its module is not loaded', async () => {
  const url = await host.page('no-share.html', `<iframe id="lab" src="${browser.url}embed.html?share=0" title="Attention Lab" width="760" height="1500"></iframe>`);
  await page.goto(url);
  const inner = await until(async () => page.frames().find((f) => f.url().startsWith(`${browser.url}embed.html`)), Boolean, { what: 'the frame' });
  await inner.locator('attention-lab').evaluate((lab) => lab.ready);
  await page.waitForTimeout(500);
  assert.equal(await inner.locator('lab-share').isVisible(), false);
  assert.equal(await inner.getByRole('button', { name: 'Copy embed code' }).count(), 0);
  assert.equal(await inner.evaluate(() => Boolean(customElements.get('lab-share'))), false);
});
