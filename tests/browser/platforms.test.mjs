// The lab where lessons live besides an LMS: in a reveal.js deck (npm reveal.js, the real one) a
// focused lab control keeps its keys — arrow keys move the slider or the heatmap's cell, not the
// slides, and letters typed into a field are not the deck's shortcuts; in a sandboxed iframe
// (sandbox="allow-scripts", as WordPress embeds other sites) the lab works, and the exports that
// such a frame blocks say so (downloads; a copy is left selected to copy by hand). Both host sites are on another origin than the lab's. Cost: ~15 s.
import assert from 'node:assert/strict';
import { copyFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

import { until, useSiteElsewhere } from './browser.mjs';

const require = createRequire(import.meta.url);
const REVEAL = join(dirname(require.resolve('reveal.js')), '..'); // dist/reveal.js → the package

const site = useSiteElsewhere({ viewport: { width: 1280, height: 800 } }, async (root, browser) => {
  const lab = new URL(browser.url).origin;
  await copyFile(join(REVEAL, 'dist/reveal.js'), join(root, 'reveal.js'));
  await copyFile(join(REVEAL, 'dist/reveal.css'), join(root, 'reveal.css'));
  await writeFile(join(root, 'favicon.ico'), '');
  await writeFile(join(root, 'deck.js'), 'Reveal.initialize({ hash: false, transition: "none" }).then(() => { Reveal.slide(1); window.__deck = true; });\n');
  await writeFile(join(root, 'deck.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Attention, a deck</title>
<link rel="stylesheet" href="./reveal.css"></head><body>
<div class="reveal"><div class="slides">
  <section><h2>Why attention?</h2></section>
  <section><attention-lab sentence="the cat sat on the mat"></attention-lab></section>
  <section><h2>Questions</h2></section>
</div></div>
<script src="./reveal.js"></script><script src="./deck.js"></script>
<script type="module" src="${browser.url}components/attention-lab.js"></script>
</body></html>\n`);
  await writeFile(join(root, 'sandboxed.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A blog post</title></head><body>
<iframe id="lab" sandbox="allow-scripts" src="${browser.url}embed.html?sentence=the%20cat%20sat" title="Attention Lab" width="900" height="2200"></iframe>
</body></html>\n`);
  // a strict site that loads the lab from the lab's origin: its scripts, word vectors and core
  const policy = `default-src 'self'; script-src 'self' ${lab} 'wasm-unsafe-eval'; connect-src 'self' ${lab}; frame-src ${lab}; style-src 'self'`;
  return { policy };
});

test('reveal.js: arrow keys on a focused slider or heatmap cell stay in the lab; typed letters are not the deck’s', async () => {
  const { page } = site;
  await page.goto(`${site.origin}/deck.html`);
  await page.waitForFunction(() => window.__deck === true);
  const lab = page.locator('attention-lab');
  await lab.evaluate((el) => el.ready);
  const slide = () => page.evaluate(() => Reveal.getIndices().h);
  assert.equal(await slide(), 1);

  const temperature = lab.locator('attention-controls #temperature');
  await temperature.focus();
  const before = Number(await temperature.evaluate((el) => el.value));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await slide(), 1, 'the slide stays while the slider has the keys');
  assert.equal(Number(await temperature.evaluate((el) => el.value)), before + 1, 'the slider moved');

  await lab.locator('attention-heatmap .stage').focus();
  const selected = await lab.evaluate((el) => el.state.selected);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.equal(await slide(), 1, 'the slide stays while the heatmap has the keys');
  await until(() => lab.evaluate((el) => el.state.selected), (s) => s === selected + 1, { what: 'the next row selected' });

  const sentence = lab.getByRole('textbox').first();
  await sentence.focus();
  await page.keyboard.type(' b'); // b: the deck's blackout
  assert.equal(await page.evaluate(() => Reveal.isPaused()), false, 'typing is not a shortcut of the deck');

  // the deck's own keys still work once the lab has no focus
  await page.evaluate(() => document.activeElement.blur());
  await page.locator('.reveal').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await until(slide, (h) => h === 2, { what: 'the next slide' });
});

test('a sandboxed iframe (allow-scripts): the lab works; downloads and the clipboard, which it blocks, say so', async () => {
  const { browser, page } = site;
  await page.goto(`${site.origin}/sandboxed.html`);
  const inner = await until(async () => page.frames().find((f) => f.url().startsWith(`${browser.url}embed.html`)), Boolean, { what: 'the frame' });
  await inner.locator('attention-lab').evaluate((el) => el.ready);
  assert.deepEqual(await inner.locator('attention-lab').evaluate((el) => el.state.queryLabels), ['the', 'cat', 'sat']);
  assert.equal(await inner.evaluate(() => window.origin), 'null', 'an opaque origin: the frame is sandboxed');
  const share = inner.locator('lab-share');
  await share.waitFor();
  await share.getByRole('button', { name: 'Heatmap, SVG' }).click();
  const said = await until(() => share.getByRole('status').textContent(), (t) => t !== '', { what: 'a message' });
  assert.match(said, /blocks downloads/, said);
  assert.match(await share.locator('textarea').inputValue(), /^<svg/, 'a text format is shown to copy by hand');
  await share.getByRole('button', { name: 'Heatmap, PNG' }).click();
  const png = await until(() => share.getByRole('status').textContent(), (t) => t !== said && t !== '', { what: 'a message', timeout: 15000 });
  assert.match(png, /blocks downloads/, png);
  await share.getByRole('button', { name: 'Copy link' }).click();
  const copy = await until(() => share.getByRole('status').textContent(), (t) => t !== png && t !== '', { what: 'a message' });
  // the Clipboard API is blocked there; the older copy command may still work: either is said
  assert.ok(copy === 'Link copied.' || /copy it with Ctrl\+C/.test(copy), copy);
  assert.equal(await share.locator('textarea').evaluate((el) => el.value.slice(el.selectionStart, el.selectionEnd)), await share.locator('textarea').inputValue());
});
