// The demo page as one lesson: the six instruments of <attention-lesson> below the lab, driven
// by the lab's state. Every instrument renders on index.html under the strict CSP; a change of
// d_k or scaling in the lab reaches them; off-screen instruments cost nothing while the lab is used.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openLab, until, useBrowser } from './browser.mjs';

const INSTRUMENTS = ['variance-lab', 'saturation-plot', 'gradient-view', 'step-by-step', 'overflow-demo', 'multi-head-view'];

let browser;
let page;
useBrowser({ viewport: { width: 1440, height: 900 } }, (opened) => ({ browser, page } = opened));

// An instrument's text once it has drawn the lab's latest state (it draws only near the viewport).
async function text(tag) {
  await page.locator(tag).scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('attention-lesson')?.pending === false, null, { timeout: 30000 });
  return page.evaluate((t) => document.querySelector(t).shadowRoot?.textContent ?? '', tag);
}
const drawn = () =>
  page.evaluate((tags) => tags.map((tag) => document.querySelector(tag).shadowRoot?.querySelectorAll('svg, table').length ?? 0), INSTRUMENTS);

// Scrolls every instrument into view in turn and waits until each has drawn the lab's latest state.
async function showAll() {
  for (const tag of INSTRUMENTS) await page.locator(tag).scrollIntoViewIfNeeded();
  // then every one draws the latest state, also those that scrolled out again (pending counts
  // only the instruments near the viewport, unless the lesson is eager)
  await page.locator('attention-lesson').evaluate((lesson) => lesson.setAttribute('loading', 'eager'));
  await page.waitForFunction(() => document.querySelector('attention-lesson')?.pending === false, null, { timeout: 30000 });
}

test('instruments are drawn lazily: none while the lab is used at the top of the page', async () => {
  await openLab(page, browser.url);
  const lab = page.locator('attention-lab');
  await lab.evaluate((el) => el.set({ projection: 'random', dk: 256 }));
  await page.waitForTimeout(300);
  assert.deepEqual(await drawn(), [0, 0, 0, 0, 0, 0]);
  // and the page links the lesson, the guide names the steps
  assert.equal(await page.getByRole('heading', { name: 'From q·k to the output — and why divide by √dk?' }).count(), 1);
  assert.match(await page.locator('.guide').textContent(), /1024[\s\S]*Scale by √dk[\s\S]*max weight → 1\.00, entropy → 0 for several of them/);
});

test('every instrument renders on index.html, following the lab (Identity: d_k = 100)', async () => {
  await openLab(page, browser.url);
  await showAll();
  const counts = await drawn();
  INSTRUMENTS.forEach((tag, i) => assert.ok(counts[i] > 0, `${tag} drew nothing`));
  assert.match(await page.locator('.lesson-status').textContent(), /10 tokens, query “cat”, scaled by 1\/√dk, seed 1, T = 1; the lab is on Identity/);
  assert.match(await text('saturation-plot'), /At d_k = 100: unscaled, \d+ of 10 rows/);
  assert.match(await text('variance-lab'), /At d_k = 100: random/);
  assert.ok((await page.locator('step-by-step').evaluate((el) => el.shadowRoot.querySelectorAll('.katex').length)) >= 6);
});

test('d_k and scaling set in the lab reach the instruments; the guide’s buttons do the same', async () => {
  await openLab(page, browser.url);
  await showAll();
  // the lab's own controls: Random, d_k → 1024 (End on the slider), scaling off
  await page.getByRole('radio', { name: 'Random' }).check();
  await page.getByRole('slider', { name: 'd_k', exact: true }).press('End');
  await page.getByRole('switch', { name: 'Scale by √d_k', exact: true }).uncheck();
  await showAll();
  assert.match(await page.locator('.lesson-status').textContent(), /unscaled, seed 1, T = 1; dk = 1024, as in the lab; the gradient, step-by-step and overflow views use the lab’s own Q and K/);
  assert.match(await text('saturation-plot'), /At d_k = 1024: unscaled, \d+ of 10 rows are extremely peaked/);
  assert.match(await text('gradient-view'), /unscaled, d_k = 1024/);
  assert.match(await text('step-by-step'), /\(unscaled: no division\)/);
  assert.match(await text('overflow-demo'), /row "cat" \(unscaled, d_k = 1024\)/);
  // the guide's claim: several rows collapse (max weight 1.00, entropy 0), "cat" gets close
  const { rows, cat } = await page.locator('attention-lab').evaluate((el) => ({
    rows: Array.from(el.state.result.maxWeight),
    cat: el.state.result.maxWeight[el.state.selected],
  }));
  assert.ok(rows.filter((p) => p > 0.995).length >= 3, `the guide's claim: max weights ${rows}`);
  assert.ok(cat > 0.95, `"cat": max weight ${cat}`);
  // the guide's last button turns scaling back on, in the lab and in the instruments
  await page.locator('.guide button').last().click();
  await showAll();
  assert.equal(await page.getByRole('switch', { name: 'Scale by √d_k', exact: true }).isChecked(), true);
  assert.match(await text('step-by-step'), /\(scale 0\.03125\)/);
  // the overflow demo's temperature slider is the lab's temperature
  await page.locator('overflow-demo').evaluate((el) => {
    const slider = el.shadowRoot.querySelector('input[type=range]');
    slider.value = '-1';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await until(() => page.locator('attention-lab').evaluate((el) => el.settings.temperature), (t) => t === 0.1, { what: 'T = 0.1 in the lab' });
  // and the lab's new state comes back to every instrument: one temperature on the page
  await showAll();
  assert.match(await page.locator('.lesson-status').textContent(), /T = 0\.1/);
  assert.match(await text('step-by-step'), /all ≤ 0; T = 0\.1/);
  assert.equal(await page.locator('overflow-demo').evaluate((el) => el.shadowRoot.querySelector('input[type=range]').value), '-1');
});

test('pasted vectors: the instruments of one row use them; the sweeps say what they need', async () => {
  await openLab(page, browser.url);
  await page.locator('attention-lab').evaluate(async (el) => {
    const { parseVectors } = await import('./lab/paste.js');
    el.set({ pasted: parseVectors({ q: '1 0\n0 1', k: '1 0\n0 1\n1 1' }), projection: 'pasted', selected: 0 });
  });
  await showAll();
  assert.match(await page.locator('.lesson-status').textContent(), /your pasted Q \(2 × 2\) and K \(3 × 2\)[\s\S]*need word vectors: choose Identity or Random/);
  assert.match(await text('saturation-plot'), /needs word vectors/);
  assert.match(await text('step-by-step'), /q=Q/);
  const lab = await page.locator('attention-lab').evaluate((el) => el.state.result.maxWeight[0].toFixed(3));
  assert.equal(await page.locator('step-by-step').evaluate((el) => el.shadowRoot.querySelector('.row-stats [data-k="max"]').textContent), lab);
  // the causal mask means the same in both: 2 queries and 3 keys have no causal order, the lab
  // refuses the setting, and the lesson keeps drawing the lab's last state (never a mask dropped silently)
  await page.locator('attention-lab').evaluate((el) => el.set({ causal: true }));
  await showAll();
  assert.equal(await page.locator('attention-lab').evaluate((el) => el.state.causal), false);
  assert.doesNotMatch(await page.locator('.lesson-status').textContent(), /causal/);
  assert.equal(await page.locator('step-by-step').evaluate((el) => el.shadowRoot.querySelector('.row-stats [data-k="max"]').textContent), lab);
  await page.locator('attention-lab').evaluate((el) => el.set({ causal: false }));
});

test('D4 on index.html: a token KaTeX cannot parse is shown as text beside the formulas', async () => {
  await openLab(page, browser.url);
  const tokens = ['∑ cat', '\u0007', '\uD800', '\u0301a', '\\text{', 'the'];
  await page.locator('attention-lab').evaluate((el, t) => el.set({ tokens: t, sentence: t.join(' '), selected: 0 }), tokens);
  await showAll();
  for (const key of [0, 1, 2, 3, 4]) {
    await page.locator('step-by-step').evaluate((el, k) => el.shadowRoot.querySelectorAll('.keys button')[k].click(), key);
    await showAll();
    const report = await page.locator('step-by-step').evaluate((el) => ({
      text: el.shadowRoot.textContent,
      words: [...el.shadowRoot.querySelectorAll('.word')].map((span) => span.textContent),
    }));
    assert.doesNotMatch(report.text, /Cannot draw|KaTeX parse error/);
    assert.deepEqual(report.words, [`“${tokens[0]}”`, `“${tokens[key]}”`]);
  }
});

