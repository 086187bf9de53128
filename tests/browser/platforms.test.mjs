// The lab where lessons live besides an LMS: in a reveal.js deck (npm reveal.js, the real one) a
// focused lab control keeps its keys — arrow keys move the slider or the heatmap's cell, not the
// slides, and letters typed into a field are not the deck's shortcuts; in a sandboxed iframe
// (sandbox="allow-scripts", as WordPress embeds other sites) the lab works, and the exports that
// such a frame blocks say so (downloads; a copy is left selected to copy by hand). Both host sites are on another origin than the lab's.
// The deck wears reveal.js's white theme (42 px text, centred): the compact lab (view="compact")
// fits its 1280×720 slide in its own text. Cost: ~20 s.
import assert from 'node:assert/strict';
import { copyFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

import { axeViolations, describeViolations } from './axe.mjs';
import { until, useSiteElsewhere } from './browser.mjs';

const require = createRequire(import.meta.url);
const REVEAL = join(dirname(require.resolve('reveal.js')), '..'); // dist/reveal.js → the package

const site = useSiteElsewhere({ viewport: { width: 1280, height: 800 } }, async (root, browser) => {
  const lab = new URL(browser.url).origin;
  await copyFile(join(REVEAL, 'dist/reveal.js'), join(root, 'reveal.js'));
  await copyFile(join(REVEAL, 'dist/reveal.css'), join(root, 'reveal.css'));
  await copyFile(join(REVEAL, 'dist/theme/white.css'), join(root, 'white.css'));
  await writeFile(join(root, 'favicon.ico'), '');
  // reveal.js centres a slide by its height when it lays the deck out, which comes before a lab
  // has drawn: the deck lays itself out again when a lab's height changes (docs/slides.md)
  await writeFile(join(root, 'deck.js'), `Reveal.initialize({ hash: false, transition: "none" }).then(() => {
  Reveal.slide(1);
  const relayout = new ResizeObserver(() => Reveal.layout());
  for (const lab of document.querySelectorAll('attention-lab')) relayout.observe(lab);
  window.__deck = true;
});\n`);
  await writeFile(join(root, 'deck.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Attention, a deck</title>
<link rel="stylesheet" href="./reveal.css"><link rel="stylesheet" href="./white.css"></head><body>
<div class="reveal"><div class="slides">
  <section><h2>Why attention?</h2></section>
  <section><attention-lab id="full" sentence="the cat sat on the mat"></attention-lab></section>
  <section><attention-lab id="compact" view="compact" projection="random"></attention-lab></section>
  <section><h2>Questions</h2></section>
</div></div>
<script src="./reveal.js"></script><script src="./deck.js"></script>
<script type="module" src="${browser.url}components/attention-lab.js"></script>
</body></html>\n`);
  await writeFile(join(root, 'sandboxed.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A blog post</title></head><body>
<iframe id="lab" sandbox="allow-scripts" src="${browser.url}embed.html?sentence=the%20cat%20sat" title="Attention Lab" width="900" height="2200"></iframe>
</body></html>\n`);
  // a strict site that loads the lab from the lab's origin: its scripts, word vectors and core
  // (the theme's own fonts are data: URLs)
  const policy = `default-src 'self'; script-src 'self' ${lab} 'wasm-unsafe-eval'; connect-src 'self' ${lab}; frame-src ${lab}; style-src 'self'; font-src 'self' data:`;
  return { policy };
});

test('reveal.js: arrow keys on a focused slider or heatmap cell stay in the lab; typed letters are not the deck’s', async () => {
  const { page } = site;
  await page.goto(`${site.origin}/deck.html`);
  await page.waitForFunction(() => window.__deck === true);
  const lab = page.locator('#full');
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

// Where the compact lab is on the page, once the deck has centred its slide for the lab's
// height as drawn (the heatmap's canvas as tall as its scene), in px of the page.
function compactGeometry(page) {
  return page.locator('#compact').evaluate((el) => {
    const heatmap = el.shadowRoot.querySelector('attention-heatmap');
    const section = el.closest('section');
    const centred = Math.max((Reveal.getConfig().height - section.scrollHeight) / 2, 0);
    const box = (element) => {
      const r = element.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: r.height };
    };
    return {
      drawn: heatmap.scene !== null && heatmap.shadowRoot.querySelector('canvas.overlay').getBoundingClientRect().height > 0,
      laidOut: Math.abs(parseFloat(section.style.top) - centred) < 0.5,
      tokens: el.state?.n,
      lab: box(el),
      slides: box(document.querySelector('.reveal .slides')),
    };
  });
}

test('reveal.js at 1280×720: the compact lab fits its slide, in its own text, keeps its keys, and axe finds nothing', async () => {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${site.origin}/deck.html`);
  await page.waitForFunction(() => window.__deck === true);
  await page.evaluate(() => Reveal.slide(2));
  const lab = page.locator('#compact');
  await lab.evaluate((el) => el.ready);

  // the default sentence (10 tokens), then 12
  for (const [sentence, n] of [[null, 10], ['the quick brown fox jumps over the lazy dog while a cat', 12]]) {
    if (sentence) await lab.evaluate((el, text) => el.set({ sentence: text }), sentence);
    const at = await until(() => compactGeometry(page), (g) => g.drawn && g.laidOut && g.tokens === n, { what: `the slide laid out for ${n} tokens` });
    assert.ok(at.slides.bottom <= 720 && at.slides.top >= 0, `the slide is on screen: ${JSON.stringify(at.slides)}`);
    assert.ok(at.lab.top >= at.slides.top && at.lab.bottom <= at.slides.bottom, `${n} tokens: the lab ${JSON.stringify(at.lab)} inside the slide ${JSON.stringify(at.slides)}`);
    assert.ok(at.lab.height <= 600, `${n} tokens: the lab is ${at.lab.height} px tall`);
  }

  // reveal's theme centres 42 px text on the slide; the lab's text keeps its own (the page's 1rem)
  const text = await lab.evaluate((el) => {
    const own = getComputedStyle(el), slide = getComputedStyle(el.closest('section')), bars = el.shadowRoot.querySelector('#bars-title');
    return { slide: [slide.textAlign, slide.fontSize], lab: [own.textAlign, own.fontSize, own.lineHeight], title: getComputedStyle(bars).textAlign, root: getComputedStyle(document.documentElement).fontSize };
  });
  assert.deepEqual(text.slide, ['center', '42px'], 'the theme is in force');
  assert.deepEqual(text.lab.slice(0, 2), ['start', text.root]);
  assert.notEqual(text.title, 'center');
  assert.ok(parseFloat(text.lab[2]) < 30, `line height ${text.lab[2]}`);

  // the compact view shows d_k, √d_k and the temperature; ArrowRight moves d_k, not the slide
  const dk = lab.locator('attention-controls #dk');
  assert.equal(await lab.locator('attention-controls #seed').isVisible(), false, 'no seed in the compact view');
  assert.equal(await lab.locator('#probe').isVisible(), false, 'no probe in the compact view');
  const before = await lab.evaluate((el) => el.settings.dk);
  await dk.focus();
  await page.keyboard.press('ArrowRight');
  await until(() => lab.evaluate((el) => el.settings.dk), (d) => d > before, { what: 'a larger d_k' });
  assert.equal(await page.evaluate(() => Reveal.getIndices().h), 2, 'the slide stays');

  const runs = [];
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    runs.push({ where: `the compact lab, ${colorScheme}`, violations: await axeViolations(page, ['#compact']) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.equal(runs.reduce((count, run) => count + run.violations.length, 0), 0, describeViolations(runs));
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
