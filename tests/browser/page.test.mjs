// The demo page as one lesson: the six instruments of <attention-lesson> below the lab, driven
// by the lab's state. Every instrument renders on index.html under the strict CSP; a change of
// d_k or scaling in the lab reaches them; off-screen instruments cost nothing while the lab is used.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { drawWholeLesson, openLab, until, useBrowser } from './browser.mjs';

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

// Opens the lesson's asides, scrolls every instrument into view in turn and waits until each has
// drawn the lab's latest state.
async function showAll() {
  await page.evaluate(() => customElements.whenDefined('attention-lesson'));
  await page.locator('attention-lesson').evaluate((lesson) => {
    for (const aside of lesson.querySelectorAll('details.story-aside')) aside.open = true;
  });
  for (const tag of INSTRUMENTS) await page.locator(tag).scrollIntoViewIfNeeded();
  // then every one draws the latest state, also those that scrolled out again (pending counts
  // only the instruments near the viewport, unless the lesson is eager)
  await drawWholeLesson(page);
}

test('instruments are drawn lazily: none while the lab is used at the top of the page', async () => {
  await openLab(page, browser.url);
  const lab = page.locator('attention-lab');
  await lab.evaluate((el) => el.set({ projection: 'random', dk: 256 }));
  await page.waitForTimeout(300);
  assert.deepEqual(await drawn(), [0, 0, 0, 0, 0, 0]);
  // and the page heads the lesson
  assert.equal(await page.getByRole('heading', { name: 'From q·k to the output — and why divide by √dk?' }).count(), 1);
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

test('d_k and scaling set in the lab reach the instruments, and scaling switched back on', async () => {
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
  // the saturation step's claim: several rows collapse onto one word (max weight 1.00), "cat" gets close
  const { rows, cat } = await page.locator('attention-lab').evaluate((el) => ({
    rows: Array.from(el.state.result.maxWeight),
    cat: el.state.result.maxWeight[el.state.selected],
  }));
  assert.ok(rows.filter((p) => p > 0.995).length >= 3, `several rows collapse: max weights ${rows}`);
  assert.ok(cat > 0.95, `"cat": max weight ${cat}`);
  // scaling back on, in the lab and in the instruments
  await page.getByRole('switch', { name: 'Scale by √d_k', exact: true }).check();
  await showAll();
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

// The box of the lab's card `name` (heat, bars, controls, tokens) in the window's coordinates.
const card = (name) =>
  page.locator('attention-lab').evaluate((lab, n) => {
    const r = lab.shadowRoot.querySelector(`.card.${n}`).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: r.height, viewport: innerHeight };
  }, name);

test('at 390 × 844 the lab’s first picture, the heatmap, is on the first screen; the settings fold below the bars', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLab(page, browser.url);
  const heatmap = await page.locator('attention-lab').evaluate((lab) => {
    const r = lab.shadowRoot.querySelector('attention-heatmap').getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: r.height };
  });
  assert.ok(heatmap.height > 200, `the heatmap is drawn (${heatmap.height} px)`);
  assert.ok(heatmap.top >= 0 && heatmap.bottom <= 844, `the whole heatmap on the first screen: ${heatmap.top}–${heatmap.bottom} px`);
  const [bars, controls] = [await card('bars'), await card('controls')];
  assert.ok(controls.top > bars.bottom, `settings (${controls.top}) below the bars (${bars.bottom})`);
  // a wide screen keeps the settings beside the heatmap
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(200);
  const [heat, side] = [await card('heat'), await card('controls')];
  assert.ok(Math.abs(heat.top - side.top) < 2, `at 1440 px settings and heatmap side by side (${side.top}, ${heat.top})`);
});

test('at 390 px a heatmap and an instrument’s table wider than the screen say that they scroll', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLab(page, browser.url);
  const words = 'the quick brown fox jumps over the lazy dog while a cat sleeps on the warm mat near the door'.split(' ');
  await page.locator('attention-lab').evaluate((lab, sentence) => lab.set({ sentence }), [...words, ...words].join(' '));
  const hint = () =>
    page.locator('attention-lab').evaluate((lab) => {
      const box = lab.shadowRoot.querySelector('attention-heatmap').shadowRoot.querySelector('.scroll');
      return { scrolls: box.hasAttribute('data-scrolls'), wider: box.scrollWidth > box.clientWidth, text: getComputedStyle(box, '::before').content };
    });
  const wide = await until(hint, (h) => h.wider && h.scrolls, { what: 'the 40-token heatmap marked as scrolling' });
  assert.match(wide.text, /scroll sideways/);
  // the default sentence fits: no hint
  await page.locator('attention-lab').evaluate((lab) => lab.set({ sentence: 'the cat sat' }));
  await until(hint, (h) => !h.wider && !h.scrolls, { what: 'a narrow heatmap without the hint' });
  // the lesson's step-by-step table of 40 keys scrolls, and says so
  await page.locator('attention-lab').evaluate((lab, sentence) => lab.set({ sentence }), [...words, ...words].join(' '));
  await drawWholeLesson(page, { timeout: 60000 }); // the lesson loads after the lab's first result and draws lazily
  await page.locator('step-by-step').scrollIntoViewIfNeeded();
  const table = await until(
    () => page.locator('step-by-step').evaluate((el) => [...(el.shadowRoot?.querySelectorAll('.scroll') ?? [])].map((b) => ({ wider: b.scrollWidth > b.clientWidth + 1, scrolls: b.hasAttribute('data-scrolls') }))),
    (boxes) => boxes.some((b) => b.wider) && boxes.every((b) => b.wider === b.scrolls),
    { what: 'step by step’s wide boxes marked', timeout: 20000 },
  );
  assert.ok(table.some((b) => b.scrolls));
});

test('beside “where it looks” the lab says it trains nothing, on index and embed, and lesson.html that its instruments are untrained; the Identity note only on Identity', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const file of ['', 'embed.html']) {
    await openLab(page, `${browser.url}${file}`);
    const read = () =>
      page.locator('attention-lab').evaluate((el) => {
        const caveat = el.shadowRoot.querySelector('.bars .caveat');
        const identity = el.shadowRoot.querySelector('.heat .identity');
        return { caveat: caveat?.checkVisibility() ? caveat.textContent : '', identity: identity?.checkVisibility() ? identity.textContent : '' };
      });
    const first = await read();
    assert.match(first.caveat, /The lab trains nothing/, `${file || 'index.html'}: the caveat under the bars`);
    assert.match(first.identity, /q = k = x[\s\S]*by construction/, `${file || 'index.html'}: Identity says its diagonal is by construction`);
    await page.locator('attention-lab').evaluate((el) => el.set({ projection: 'random' }));
    await until(read, (r) => r.identity === '' && /trains nothing/.test(r.caveat), { what: `${file || 'index.html'}: no Identity note on Random` });
  }
  await page.goto(`${browser.url}lesson.html`);
  assert.match(await page.locator('header .caveat').textContent(), /untrained[\s\S]*the model at the end of the page are trained/, 'lesson.html: the caveat under the lede');
});
