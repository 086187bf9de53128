// The lab where lessons live besides an LMS: in a reveal.js deck (npm reveal.js, the real one) a
// focused lab control keeps its keys — arrow keys move the slider or the heatmap's cell, not the
// slides, and letters typed into a field are not the deck's shortcuts; in a sandboxed iframe
// (sandbox="allow-scripts", as WordPress embeds other sites) the lab works, and the exports that
// such a frame blocks say so (downloads; a copy is left selected to copy by hand). Both host sites are on another origin than the lab's.
// The deck wears reveal.js's white theme (42 px text, centred): the compact lab (view="compact")
// fits its 1280×720 slide in its own text, and so does a lesson of four steps and the quiz
// (<attention-lesson view="compact">), page after page. Cost: ~40 s.
import assert from 'node:assert/strict';
import { copyFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

import { axeViolations, describeViolations } from './axe.mjs';
import { until, useSiteElsewhere } from './browser.mjs';

const require = createRequire(import.meta.url);
const REVEAL = join(dirname(require.resolve('reveal.js')), '..'); // dist/reveal.js → the package
// the selection: four steps and the quiz (docs/slides.md)
const LESSON_SELECTION = 'variance,saturation,gradient,overflow,quiz';
const LESSON_SLIDE = 3;

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
  for (const lab of document.querySelectorAll('attention-lab, attention-lesson')) relayout.observe(lab);
  window.__deck = true;
});\n`);
  await writeFile(join(root, 'deck.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Attention, a deck</title>
<link rel="stylesheet" href="./reveal.css"><link rel="stylesheet" href="./white.css"></head><body>
<div class="reveal"><div class="slides">
  <section><h2>Why attention?</h2></section>
  <section><attention-lab id="full" sentence="the cat sat on the mat"></attention-lab></section>
  <section><attention-lab id="compact" view="compact" projection="random"></attention-lab></section>
  <section><attention-lab id="lesson-lab" projection="random" hidden></attention-lab>
    <attention-lesson id="lesson" for="lesson-lab" steps="${LESSON_SELECTION}" view="compact"></attention-lesson></section>
  <section><h2>Questions</h2></section>
</div></div>
<script src="./reveal.js"></script><script src="./deck.js"></script>
<script type="module" src="${browser.url}components/attention-lab.js"></script>
<script type="module" src="${browser.url}components/lesson/attention-lesson.js"></script>
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

// The compact lesson's page as shown: what it says, whether its parts have drawn, and where its
// box, its current section, the slide and every visible control of the box lie (px of the page).
function lessonPage(page) {
  return page.locator('#lesson').evaluate((el) => {
    const box = (element) => {
      const r = element.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const section = el.querySelector('.instrument[data-current]');
    if (!section) return { drawn: false }; // not built yet
    const shown = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
    // the controls of the box: its own, and those inside the shadow roots of what the step shows
    const controls = [...el.querySelectorAll('button, summary')].filter(shown);
    for (const host of section.querySelectorAll('*')) {
      if (!host.shadowRoot || !shown(host)) continue;
      controls.push(...[...host.shadowRoot.querySelectorAll('button, input, select, summary, [tabindex]')].filter(shown));
    }
    const instrument = section.querySelector('variance-lab, saturation-plot, gradient-view');
    const slide = el.closest('.slides > section');
    return {
      at: el.querySelector('.lesson-pager p').textContent,
      part: section.dataset.part,
      drawn: !el.pending && (!instrument || instrument.shadowRoot.querySelector('.root svg') !== null) &&
        [...section.querySelectorAll(':scope > [data-current]')].every((q) => customElements.get(q.localName) && q.shadowRoot.textContent.trim() !== ''),
      laidOut: Math.abs(parseFloat(slide.style.top) - Math.max((Reveal.getConfig().height - slide.scrollHeight) / 2, 0)) < 0.5,
      scroll: { lesson: [el.scrollHeight, el.clientHeight], section: [section.scrollHeight, section.clientHeight], slide: [slide.scrollHeight, slide.clientHeight] },
      lesson: box(el),
      section: box(section),
      slides: box(document.querySelector('.reveal .slides')),
      // (the pager, the score and Start over lie below the step, in the box)
      controls: controls.map((c) => ({ name: `${c.localName}.${c.className}`, inStep: section.contains(c) || c.getRootNode() !== document, ...box(c) })),
      text: [getComputedStyle(el).textAlign, getComputedStyle(el).fontSize, getComputedStyle(section.querySelector('h2')).fontSize, getComputedStyle(section).lineHeight],
    };
  });
}

test('reveal.js at 1280×720: a lesson of four steps and the quiz, one page at a time, fits its slide in its own text; keys stay in it; axe finds nothing', async () => {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${site.origin}/deck.html`);
  await page.waitForFunction(() => window.__deck === true);
  await page.evaluate((at) => Reveal.slide(at), LESSON_SLIDE);
  const lesson = page.locator('#lesson');
  const slide = () => page.evaluate(() => Reveal.getIndices().h);
  const root = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
  const next = lesson.locator('.lesson-pager .lesson-next');
  const fits = (p, what) => {
    const inside = (a, b) => a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5 && a.left >= b.left - 0.5 && a.right <= b.right + 0.5;
    for (const [name, [scrollHeight, clientHeight]] of Object.entries(p.scroll)) assert.ok(scrollHeight <= clientHeight, `${what}: the ${name} scrolls (${scrollHeight} > ${clientHeight})`);
    assert.ok(p.slides.top >= 0 && p.slides.bottom <= 720, `${what}: the slide is on screen ${JSON.stringify(p.slides)}`);
    assert.ok(inside(p.lesson, p.slides), `${what}: the lesson ${JSON.stringify(p.lesson)} inside the slide ${JSON.stringify(p.slides)}`);
    assert.ok(p.controls.length >= 3, `${what}: its controls found`);
    for (const control of p.controls) assert.ok(inside(control, p.lesson) && (!control.inStep || inside(control, p.section)), `${what}: ${control.name} ${JSON.stringify(control)} is cut`);
    assert.deepEqual(p.text.slice(0, 2), ['start', root], `${what}: the lesson's own text, not the deck's`);
    assert.ok(parseFloat(p.text[2]) <= 20 && parseFloat(p.text[3]) <= 26, `${what}: heading ${p.text[2]}, line height ${p.text[3]}`);
  };

  const seen = [];
  const violations = [];
  for (let n = 1; ; n++) {
    const shown = await until(() => lessonPage(page), (p) => p.drawn && p.laidOut, { what: `page ${n} drawn`, timeout: 30000 });
    seen.push(`${shown.part}: ${shown.at}`);
    fits(shown, shown.at);
    // a prediction answered: its feedback and the instrument it unveils fit too
    const predict = lesson.locator('.instrument[data-current] > lesson-predict[data-current]');
    if (await predict.count()) {
      await predict.getByRole('radio').first().check();
      await predict.getByRole('button', { name: 'Check my prediction' }).click();
      await until(() => predict.evaluate((el) => el.shadowRoot.querySelector('.feedback').textContent), (t) => t !== '', { what: 'the feedback' });
      fits(await until(() => lessonPage(page), (p) => p.laidOut), `${shown.at}, predicted`);
    }
    if (!shown.at.includes('question') || shown.at.includes('question 1 of')) {
      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        violations.push({ where: `${shown.at}, ${colorScheme}`, violations: await axeViolations(page, ['#lesson']) });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    if (await next.isDisabled()) break;
    // the keyboard turns the page; arrow keys and Space on the pager are not the deck's
    await next.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    assert.equal(await slide(), LESSON_SLIDE, `${shown.at}: the slide stays`);
    await until(() => lesson.locator('.lesson-pager p').textContent(), (t) => t !== shown.at, { what: 'the next page' });
    assert.equal(await slide(), LESSON_SLIDE, `${shown.at}: the slide stays`);
  }
  assert.deepEqual(seen, [
    'variance: 1 of 5 · question 1 of 2', 'variance: 1 of 5 · question 2 of 2', 'saturation: 2 of 5 · question 1 of 2', 'saturation: 2 of 5 · question 2 of 2',
    'gradient: 3 of 5', 'overflow: 4 of 5', ...[1, 2, 3, 4, 5, 6].map((q) => `quiz: 5 of 5 · question ${q} of 6`),
  ]);
  assert.equal(violations.reduce((count, run) => count + run.violations.length, 0), 0, describeViolations(violations));
  // the answers are the long form's, by the same ids
  assert.deepEqual(Object.keys(await lesson.evaluate((el) => el.progress.answers)).sort(), ['predict-gradient', 'predict-saturation', 'predict-variance']);

  // back with Previous, by keyboard; the deck's own keys work again once the lesson has no focus
  await lesson.locator('.lesson-previous').focus();
  await page.keyboard.press('Enter');
  await until(() => lesson.locator('.lesson-pager p').textContent(), (t) => t === '5 of 5 · question 5 of 6', { what: 'the page before' });
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('ArrowRight');
  await until(slide, (h) => h === LESSON_SLIDE + 1, { what: 'the next slide' });
  await page.setViewportSize({ width: 1280, height: 800 });
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
