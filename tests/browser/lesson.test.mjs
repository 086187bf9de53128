// The lesson page in Debian's headless Chromium, served with the strict CSP of
// scripts/serve.mjs: every instrument renders, KaTeX typesets with its local fonts, controls
// work, and nothing logs an error or violates the CSP. Pictures for a person to look at:
// npm run screenshots.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launch, openAsides } from './browser.mjs';

// A sum of 10 float32 weights, each rounded by at most 2⁻²⁴ relative, shown to 7 digits.
const WEIGHT_SUM_TOLERANCE = 1e-6;

const INSTRUMENTS = ['step-by-step', 'attention-output', 'multi-head-view', 'variance-lab', 'saturation-plot', 'gradient-view', 'overflow-demo'];

let lab; // the shared server + Chromium of browser.mjs (fresh profile, strict CSP)
let browser; // its browser context
let base;

before(async () => {
  lab = await launch();
  browser = lab.context;
  base = lab.url.replace(/\/$/, '');
});

after(async () => {
  await lab?.close();
});

// Opens the lesson and records console errors, page errors, failed requests and CSP violations.
async function open({ width = 1440, colorScheme = 'light' } = {}) {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme });
  const context = { close: () => page.close() };
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI}`),
    );
  });
  await page.goto(`${base}/lesson.html`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 30000 });
  await openAsides(page); // several heads and the max subtraction are asides, closed at first
  await settle(page);
  return { context, page, problems };
}

// Waits until every instrument has drawn the latest inputs (<attention-lesson> draws them in
// idle time) and holds more than a placeholder.
async function settle(page) {
  await page.waitForFunction(
    (tags) =>
      document.querySelector('attention-lesson')?.pending === false &&
      tags.every((tag) => {
        const root = document.querySelector(tag)?.shadowRoot;
        return root && root.querySelector('svg, table') && !root.querySelector('.empty');
      }),
    INSTRUMENTS,
    { timeout: 30000 },
  );
  await page.evaluate(() => document.fonts.ready);
}

// Moves the range input of an instrument as a learner would: a new value, then its input event.
async function moveSlider(page, tag, value) {
  await page.locator(tag).evaluate((el, v) => {
    const slider = el.shadowRoot.querySelector('input[type=range]');
    slider.value = v;
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

async function assertClean(page, problems) {
  const csp = await page.evaluate(() => window.__cspViolations);
  assert.deepEqual(csp, [], 'CSP violations');
  assert.deepEqual(problems, [], 'console errors, page errors or failed requests');
}

test('every instrument renders under the strict CSP, with KaTeX and its local fonts', async () => {
  const { context, page, problems } = await open();
  const report = await page.evaluate((tags) => {
    const shadow = (tag) => document.querySelector(tag).shadowRoot;
    return {
      drawn: tags.map((tag) => [tag, shadow(tag).querySelectorAll('svg, table').length]),
      explained: tags.map((tag) => [tag, (shadow(tag).querySelector('.explain')?.textContent ?? '').length]),
      katex: shadow('step-by-step').querySelectorAll('.katex').length,
      katexFont: document.fonts.check('20px KaTeX_Main'),
      // the last Σ of step by step: the weights' sum, to 7 digits
      weightSum: Number(shadow('step-by-step').textContent.match(/Σ = ([\d.]+)/g)?.at(-1).slice(4)),
      status: document.getElementById('status').textContent,
    };
  }, INSTRUMENTS);
  for (const [tag, count] of report.drawn) assert.ok(count > 0, `${tag} drew nothing`);
  for (const [tag, length] of report.explained) assert.ok(length > 80, `${tag} has no explanation`);
  assert.ok(report.katex >= 6, `KaTeX formulas: ${report.katex}`);
  assert.ok(report.katexFont, 'the KaTeX_Main font is loaded from web/vendor/katex/fonts');
  // float32 rounding of a sum of 10 weights in [0, 1]: within 10 · 2⁻²⁴ of 1
  assert.ok(Math.abs(report.weightSum - 1) <= WEIGHT_SUM_TOLERANCE, `the step-by-step shows the weights summing to ${report.weightSum}, not 1`);
  assert.match(report.status, /10 tokens/);
  await assertClean(page, problems);
  await context.close();
});

test('controls drive the instruments; the naive softmax breaks visibly at low temperature', async () => {
  const { context, page, problems } = await open();
  // d_k = 1024, unscaled: rows saturate
  await page.evaluate(() => {
    document.getElementById('dk').value = '10';
    document.getElementById('scaled').checked = false;
    document.getElementById('controls').dispatchEvent(new Event('input'));
  });
  await settle(page);
  const saturation = await page.evaluate(() => document.querySelector('saturation-plot').shadowRoot.textContent);
  assert.match(saturation, /At d_k = 1024: unscaled, \d+ of 10 rows are extremely peaked/);
  // temperature 0.01 pushes z/T past ln(FLT_MAX): the naive row shows ∞ and NaN, labelled broken.
  // The overflow demo's slider asks for it; the page's settings take it, so every instrument follows.
  await moveSlider(page, 'overflow-demo', '-2');
  await page.waitForFunction(() =>
    document.querySelector('overflow-demo').shadowRoot.querySelector('.status.bad'),
  );
  const overflow = await page.evaluate(() => {
    const root = document.querySelector('overflow-demo').shadowRoot;
    return {
      naiveRows: [...root.querySelectorAll('tr.naive th')].map((th) => th.textContent),
      broken: [...root.querySelectorAll('td.broken')].map((td) => td.textContent),
      stable: [...root.querySelectorAll('tbody tr:last-child td')].map((td) => td.textContent),
    };
  });
  assert.ok(overflow.naiveRows.every((label) => label.startsWith('naive (broken)')));
  assert.ok(overflow.broken.includes('∞') && overflow.broken.includes('NaN'), overflow.broken.join(' '));
  assert.ok(overflow.stable.slice(0, 10).every((text) => text !== 'NaN' && text !== '∞'));
  await settle(page);
  assert.match(await page.evaluate(() => document.querySelector('step-by-step').shadowRoot.textContent), /all ≤ 0; T = 0\.01/);
  assert.match(await page.locator('#status').textContent(), /Temperature T = 0\.01, for every instrument/);
  // a new sentence with an unknown word, then a step-by-step key click and 8 heads
  await page.fill('#sentence', 'attention is all you need zyzzyvas');
  await settle(page);
  await page.evaluate(() => document.querySelector('step-by-step').shadowRoot.querySelectorAll('.keys button')[2].click());
  await moveSlider(page, 'multi-head-view', '8');
  await settle(page);
  const after = await page.evaluate(() => ({
    status: document.getElementById('status').textContent,
    pressed: document.querySelector('step-by-step').shadowRoot.querySelector('[aria-pressed="true"]').textContent,
    heads: document.querySelector('multi-head-view').shadowRoot.querySelectorAll('.grid > div').length,
  }));
  // no file has "zyzzyvas": its vector is made from the five words around it, and the status names it
  assert.match(after.status, /^6 tokens; made from the nearby words of this sentence \(†\): zyzzyvas\./);
  assert.equal(after.pressed, 'all');
  assert.equal(after.heads, 8);
  assert.deepEqual(await page.evaluate(() => document.querySelector('attention-lesson').settings), { heads: 8, key: 2 });
  await assertClean(page, problems);
  await context.close();
});

test('D4: words KaTeX cannot parse (control characters, lone surrogates, leading combining marks, TeX specials) are shown, never typeset', async () => {
  const { context, page, problems } = await open();
  const sentence = '∑ cat \u0007bell \uD800 \u0301a {x}_ \\alpha $ % # & ^ ~';
  await page.evaluate((text) => {
    const field = document.getElementById('sentence');
    field.value = text;
    document.getElementById('controls').dispatchEvent(new Event('input'));
  }, sentence);
  // the lesson takes a sentence up after a pause, and these words first fetch the map that makes
  // vectors from their sentence: settle only once step by step shows the new words
  await page.waitForFunction(() => document.querySelector('step-by-step')?.shadowRoot?.querySelector('.keys button')?.textContent === '∑', null, { timeout: 30000 });
  await settle(page);
  for (const key of [0, 2, 3, 4, 5, 10]) {
    await page.evaluate((k) => document.querySelector('step-by-step').shadowRoot.querySelectorAll('.keys button')[k].click(), key);
    await settle(page);
    const report = await page.evaluate(() => {
      const root = document.querySelector('step-by-step').shadowRoot;
      return {
        text: root.textContent,
        words: [...root.querySelectorAll('.word')].map((span) => span.textContent),
        pressed: root.querySelector('[aria-pressed="true"]').textContent,
        katex: root.querySelectorAll('.katex').length,
        errors: root.querySelectorAll('.katex-error').length,
        query: document.getElementById('row').selectedOptions[0].textContent.replace(/^\d+\. /, ''),
      };
    });
    assert.doesNotMatch(report.text, /Cannot draw|ParseError|KaTeX parse error/);
    assert.equal(report.errors, 0);
    assert.ok(report.katex >= 10, `formulas: ${report.katex}`);
    assert.deepEqual(report.words, [`“${report.query}”`, `“${report.pressed}”`], 'the query and key words, as text beside the formulas');
  }
  await assertClean(page, problems);
  await context.close();
});

test('D9: heading-level takes 1 to 6; anything else is the default (2), with a warning', async () => {
  const { context, page, problems } = await open();
  const warnings = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  const headings = await page.evaluate(() =>
    ['-1', '1e3', '2.5', 'Infinity', '', ' ', 'two', '0', '3', '6'].map((level) => {
      const lesson = document.createElement('attention-lesson');
      lesson.setAttribute('heading-level', level);
      document.body.append(lesson);
      const tags = [...new Set([...lesson.querySelectorAll('section > :first-child')].map((el) => el.localName))];
      lesson.remove();
      return [level, tags];
    }),
  );
  assert.deepEqual(headings, [
    ['-1', ['h2']], ['1e3', ['h2']], ['2.5', ['h2']], ['Infinity', ['h2']], ['', ['h2']], [' ', ['h2']], ['two', ['h2']], ['0', ['h2']],
    ['3', ['h3']], ['6', ['h6']],
  ]);
  await page.waitForTimeout(100);
  assert.equal(warnings.length, 8, warnings.join('\n'));
  assert.match(warnings[0], /heading-level="-1" is not a whole number from 1 to 6; using 2/);
  // the warnings were expected here; nothing else may have gone wrong
  await assertClean(page, problems.filter((p) => !p.includes('heading-level')));
  await context.close();
});

test('a very long word is shown cut with “…”, and the page does not grow sideways', async () => {
  const { context, page, problems } = await open({ width: 360 });
  const started = Date.now();
  await page.evaluate(() => {
    document.getElementById('sentence').value = `the ${'x'.repeat(100_000)} cat`;
    document.getElementById('controls').dispatchEvent(new Event('input'));
  });
  await settle(page);
  const elapsed = Date.now() - started;
  const report = await page.evaluate(() => {
    const root = document.querySelector('step-by-step').shadowRoot;
    return {
      buttons: [...root.querySelectorAll('.keys button')].map((b) => b.textContent.length),
      title: root.querySelectorAll('.keys button')[1].title.length,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    };
  });
  assert.deepEqual(report.buttons, [3, 25, 3], 'the long word as 24 characters and …');
  assert.ok(report.title < 300, `its tooltip is cut too: ${report.title} characters`);
  assert.ok(report.overflow <= 0, `the page scrolls sideways by ${report.overflow}px`);
  // generous: six instruments drawn in idle time on a shared machine
  assert.ok(elapsed < 15000, `${elapsed} ms to draw every instrument`);
  await assertClean(page, problems);
  await context.close();
});

test('theme="dark" and "light" on <attention-lesson> redraw the instruments in that scheme, whatever the reader’s', async () => {
  const { context, page, problems } = await open({ colorScheme: 'light' });
  // a hollow dot of claim 1 is filled with the theme's background
  const hollow = () => page.locator('variance-lab').evaluate((el) => el.shadowRoot.querySelector('circle[stroke]').getAttribute('fill'));
  const light = await hollow();
  await page.evaluate(() => document.querySelector('attention-lesson').setAttribute('theme', 'dark'));
  await page.waitForFunction((before) => document.querySelector('variance-lab').shadowRoot.querySelector('circle[stroke]').getAttribute('fill') !== before, light);
  assert.equal(await hollow(), 'rgb(18, 21, 26)', 'the dark palette’s bg, #12151a');
  await page.evaluate(() => document.querySelector('attention-lesson').setAttribute('theme', 'light'));
  await page.waitForFunction((before) => document.querySelector('variance-lab').shadowRoot.querySelector('circle[stroke]').getAttribute('fill') === before, light);
  assert.equal(light, 'rgb(255, 255, 255)');
  await assertClean(page, problems);
  await context.close();
});

test('keyboard: a slider or key button keeps focus while its instrument redraws around it', async () => {
  const { context, page, problems } = await open();
  await page.locator('multi-head-view').evaluate((el) => el.shadowRoot.querySelector('input[type=range]').focus());
  for (const key of ['ArrowRight', 'ArrowRight']) {
    await page.keyboard.press(key);
    await settle(page);
  }
  const heads = await page.locator('multi-head-view').evaluate((el) => ({
    focused: el.shadowRoot.activeElement === el.shadowRoot.querySelector('input[type=range]'),
    drawn: el.shadowRoot.querySelectorAll('.grid > div').length,
  }));
  assert.deepEqual(heads, { focused: true, drawn: 6 });
  // step by step is veiled (inert) until its prediction is answered or shown: "Just show me"
  await page.locator('lesson-predict[data-prediction="distribution"]').evaluate((el) => el.shadowRoot.querySelector('button.skip').click());
  await page.locator('step-by-step').evaluate((el) => el.shadowRoot.querySelectorAll('.keys button')[1].focus());
  await page.keyboard.press('Enter');
  await settle(page);
  const step = await page.locator('step-by-step').evaluate((el) => ({
    focused: el.shadowRoot.activeElement?.textContent,
    pressed: el.shadowRoot.querySelector('[aria-pressed="true"]').textContent,
  }));
  assert.deepEqual(step, { focused: 'cat', pressed: 'cat' });
  await assertClean(page, problems);
  await context.close();
});
