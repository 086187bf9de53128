// The trained model on index.html (<model-view>, web/views/model.js), in headless Chromium under
// the strict CSP: it loads when its section comes near, follows the lab's sentence, and every
// sentence that states a number says what the model gives — each held here to a run of
// attention-lab/model in Node (the same weights) and to the shipped measurements, with float64
// sums done here; its controls (a head, √d_k, the twin, the repeated words, the temperature and
// the position) change what it shows; axe finds nothing in light and dark at 1440 and 390 px.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

import { loadModel } from '../../web/api/model.js';
import { AXE_OWN_PROBLEM, axeViolations, describeViolations } from './axe.mjs';
import { openLab, until, useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({ viewport: { width: 1440, height: 900 } }, (opened) => ({ browser, page } = opened), (problem) => AXE_OWN_PROBLEM.test(problem));

const shipped = JSON.parse(fs.readFileSync(new URL('../../web/assets/model/model.json', import.meta.url), 'utf8'));
const models = { scaled: await loadModel({ variant: 'scaled' }), unscaled: await loadModel({ variant: 'unscaled' }) };
const f2 = (x) => x.toFixed(2);
const f3 = (x) => x.toFixed(3);

const view = () => page.locator('model-view');
const text = (selector) => view().evaluate((el, s) => [...el.shadowRoot.querySelectorAll(s)].map((n) => n.textContent), selector);
const para = async (pattern) => (await text('p')).find((p) => pattern.test(p)) ?? null;
const tokens = () => text('.tokens .token');
const opened = async () => (await text('.opened h3'))[0];

async function openModel(path = '') {
  await openLab(page, browser.url + path);
  await page.locator('#model').scrollIntoViewIfNeeded();
  await until(() => text('.thumb'), (t) => t.length === 8, { what: 'the eight heads', timeout: 30000 });
}

// Waits for the view to show a new state after `act`.
async function after(act, changed) {
  await act();
  await until(changed, Boolean, { what: 'the view to change', timeout: 10000 });
}

const meanSpread = (run) => run.heads.reduce((s, x) => s + x.spread, 0) / run.heads.length;

test('the model loads near its section, reads the lab\'s sentence, and states the numbers of the run and of the test text', async () => {
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await openLab(page, browser.url);
  assert.ok(!requests.some((u) => u.endsWith('.weights')), 'weights fetched before the section came near');
  await page.locator('#model').scrollIntoViewIfNeeded();
  await until(() => text('.thumb'), (t) => t.length === 8, { what: 'the eight heads', timeout: 30000 });
  assert.deepEqual(requests.filter((u) => u.endsWith('.weights')).map((u) => u.split('/').pop()), ['scaled.weights']);
  const sentence = await page.locator('attention-lab').evaluate((lab) => lab.state.tokens.map((t) => t.text));
  assert.deepEqual(await tokens(), sentence);
  assert.equal(await opened(), 'Layer 1, head 1');
  // over the test text: the shipped measurements of head 1.1
  const m = shipped.heads.scaled.asTrained[0];
  const measured = await para(/^Over the test text/);
  assert.ok(measured.includes(`(${shipped.heads.windows.toLocaleString('en')} passages of 64 words`), measured);
  for (const x of [m.previous, m.first, m.self, shipped.heads.even, m.spread]) assert.ok(measured.includes(f2(x)), `${f2(x)} in: ${measured}`);
  // in this sentence, and the next word: the Node run of the same model, its rows summed here
  const run = models.scaled.run(sentence);
  const w = run.attention[0][0], n = sentence.length;
  let previous = 0, self = 0;
  for (let i = 1; i < n; i++) previous += w[i * n + i - 1] / (n - 1), self += w[i * n + i] / (n - 1);
  const here = await para(/^In this sentence/);
  assert.ok(here.startsWith(`In this sentence: ${f2(previous)} on the previous word`), here);
  assert.ok(here.includes(`${f2(self)} on itself`), here);
  const next = await para(/^Most likely/);
  let entropy = 0;
  for (const p of run.next.probs) if (p > 0) entropy -= p * Math.log(p);
  assert.ok(next.startsWith(`Most likely: “${run.next.top[0].word}”, ${f3(run.next.top[0].p)}. Entropy ${f2(entropy)} nats`), next);
  assert.ok(next.includes(`“the” is ${f3(models.scaled.unigram.the)} of the training text`), next);
  // √d_k removed: the mean spread of the sentence's rows, with and without
  const without = models.scaled.run(sentence, { scaleAtInference: false });
  const scale = await para(/^Tick “remove √d_k”/);
  assert.ok(scale.includes(`goes from ${f2(meanSpread(run))} to ${f2(meanSpread(without))}`), scale);
  assert.ok(meanSpread(without) < meanSpread(run));
  assert.ok(scale.includes('√d_k = √32 ≈ 5.66'), scale);
  const twin = await para(/^Trained with √d_k the model reaches/);
  assert.ok(twin.includes(`${shipped.twins.scaled.encodings.q8.testPerplexity.toFixed(2)}; the twin, ${shipped.twins.unscaled.encodings.q8.testPerplexity.toFixed(2)}`), twin);
  assert.ok(twin.includes(`reach ${shipped.baselines[2].testPerplexity.toFixed(2)}`), twin);
  const layer2 = (await text('.scale li'))[1];
  const spreads = (v) => shipped.heads[v].asTrained.slice(4).map((x) => x.spread);
  assert.ok(layer2.includes(`${f2(Math.min(...spreads('scaled')))}–${f2(Math.max(...spreads('scaled')))}`), layer2);
  assert.ok(layer2.includes(`${f2(Math.min(...spreads('unscaled')))}–${f2(Math.max(...spreads('unscaled')))}`), layer2);
  // the next-word bars: the ten words of the Node run, in order, with their probabilities
  const bars = await view().evaluate((el) => [...el.shadowRoot.querySelectorAll('.next svg g title')].map((t) => t.textContent));
  assert.deepEqual(bars, run.next.top.map(({ word, p }) => `${word}: ${f3(p)}`));
});

test('a head, √d_k, the twin, the position and the temperature each change what is shown', async () => {
  await openModel();
  const sentence = await tokens();
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-layer="2"][data-head="3"]').click()), async () => (await opened()) === 'Layer 2, head 3');
  assert.deepEqual(await view().evaluate((el) => [...el.shadowRoot.querySelectorAll('.thumb')].map((b) => b.getAttribute('aria-pressed'))), ['false', 'false', 'false', 'false', 'false', 'false', 'true', 'false']);
  const cells = () => view().evaluate((el) => [...el.shadowRoot.querySelectorAll('.opened svg path, .opened svg g title')].map((x) => x.getAttribute('d') ?? x.textContent).join('|'));
  const before = await cells();
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=removeScale]').click()), async () => (await cells()) !== before);
  const removed = await para(/^Now every score/);
  const run = models.scaled.run(sentence), without = models.scaled.run(sentence, { scaleAtInference: false });
  assert.ok(removed.includes(`is ${f2(meanSpread(without))}, against ${f2(meanSpread(run))} as trained`), removed);
  // the twin: nothing to remove
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=variant][value=unscaled]').click()), () => para(/^This twin never divided/));
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=removeScale]').disabled), true);
  const twin = await para(/^Trained with √d_k the model reaches/);
  assert.ok(twin.includes(`${shipped.twins.unscaled.encodings.q8.testPerplexity.toFixed(2)}; the twin, ${shipped.twins.scaled.encodings.q8.testPerplexity.toFixed(2)}`), twin);
  // position 3 and temperature 2: the next word after the third token, flatter
  await view().evaluate((el) => {
    const select = el.shadowRoot.querySelector('[data-intent=position]');
    select.value = '2';
    select.dispatchEvent(new Event('input', { bubbles: true }));
    const range = el.shadowRoot.querySelector('[data-intent=temperature]');
    range.value = '5';
    range.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const expected = models.unscaled.run(sentence, { position: 2, temperature: 2 });
  await until(() => text('.next h3'), (t) => t[0] === `Which word does it expect after “${sentence[2]}”?`, { what: 'the position' });
  const next = await until(() => para(/^Most likely/), (p) => p.startsWith(`Most likely: “${expected.next.top[0].word}”, ${f3(expected.next.top[0].p)}`), { what: 'the next word at T = 2' });
  assert.ok(next.includes(`Entropy ${f2(expected.next.entropy)} nats`), next);
});

test('repeated random words: the induction scores of the sequence and of the test text, said honestly', async () => {
  await openModel();
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=demo]').click()), async () => (await tokens()).length === 24);
  const words = await tokens();
  assert.deepEqual(words.slice(12), words.slice(0, 12));
  const run = models.scaled.run(words);
  const w = run.attention[0][0];
  let here = 0;
  for (let q = 12; q < 24; q++) here += w[q * 24 + q - 11] / 12;
  const best = Math.max(...shipped.heads.scaled.asTrained.map((x) => x.induction));
  const said = await para(/^Layer 1, head 1 puts/);
  assert.ok(said.startsWith(`Layer 1, head 1 puts ${f2(here)} of its weight there`), said);
  assert.ok(said.includes(`the highest is ${f2(best)}. This small model has no induction head.`), said);
  assert.ok(best < 2 * shipped.heads.induction.even, 'the page says there is no induction head: the scores must stay near even rows');
  const repeat = await para(/^After the last word the earlier copy went on with/);
  assert.ok(repeat.includes(`“${words[12]}”`), repeat);
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=demo]').click()), async () => (await tokens()).length !== 24);
});

test('the lab\'s new sentence is the model\'s; unknown words are marked; Norwegian reads Norwegian', async () => {
  await openModel();
  await page.locator('attention-lab').evaluate((lab) => lab.set({ sentence: 'The zyxwvut sat on a mat' }));
  await until(tokens, (t) => t.join(' ') === 'the zyxwvut sat on a mat', { what: 'the lab\'s sentence' });
  assert.deepEqual(await text('.token.unknown'), ['zyxwvut']);
  assert.ok((await text('.note')).some((n) => n.startsWith('1 word is not among the model’s 12,000 (underlined)')));
  await openModel('?lang=nb');
  assert.equal(await opened(), 'Lag 1, hode 1');
  assert.ok(await para(/^Over testteksten/));
});

test('axe finds nothing in the model\'s section, light and dark, 1440, 390 and 360 px, with the head and the repeated words open', async () => {
  await openModel();
  await view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=demo]').click());
  await until(tokens, (t) => t.length === 24, { what: 'the repeated words' });
  const runs = [];
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1440, 390, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 200)))));
      runs.push({ where: `model, ${colorScheme}, ${width} px`, violations: await axeViolations(page) });
      // the view fits the phone: the page does not scroll sideways (the heatmap scrolls in its own box)
      const sideways = await page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);
      assert.equal(sideways, 0, `the page scrolls sideways by ${sideways} px at ${width} px`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
  const nodes = runs.reduce((n, run) => n + run.violations.reduce((m, v) => m + v.nodes.length, 0), 0);
  assert.equal(nodes, 0, `axe violations:\n${describeViolations(runs)}`);
});

test('embed.html?view=model shows the trained model on the link\'s sentence, the lab hidden; index.html?view=model scrolls to it', async () => {
  await page.goto(`${browser.url}embed.html?view=model&sentence=${encodeURIComponent('a dog ran to the door')}`);
  await until(() => text('.thumb'), (t) => t.length === 8, { what: 'the eight heads', timeout: 30000 });
  assert.deepEqual(await tokens(), ['a', 'dog', 'ran', 'to', 'the', 'door']);
  assert.equal(await page.locator('attention-lab').evaluate((lab) => lab.hidden), true);
  const run = models.scaled.run('a dog ran to the door');
  assert.ok((await para(/^Most likely/)).startsWith(`Most likely: “${run.next.top[0].word}”, ${f3(run.next.top[0].p)}`));
  await page.goto(`${browser.url}index.html?view=model`);
  await until(() => text('.thumb'), (t) => t.length === 8, { what: 'the heads on index.html', timeout: 30000 });
  const top = await page.evaluate(() => document.getElementById('model').getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 60, `the section starts ${top} px from the top of the window`);
});

test('lesson.html: the model follows the sentence of the lesson\'s own bar', async () => {
  await page.goto(`${browser.url}lesson.html`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 30000 });
  await page.evaluate(() => {
    const input = document.getElementById('sentence');
    input.value = 'I think it is a good idea';
    document.getElementById('controls').dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.locator('#model').scrollIntoViewIfNeeded();
  await until(tokens, (t) => t.join(' ') === 'i think it is a good idea', { what: 'the bar\'s sentence', timeout: 30000 });
  assert.equal(await text('.token.unknown').then((t) => t.length), 0);
});

test('the opened head\'s bars are the looking word\'s row: its weights over the words so far', async () => {
  await openModel();
  const sentence = await tokens();
  const row = await view().evaluate((el) => [...el.shadowRoot.querySelectorAll('.opened svg g title')].map((t) => t.textContent));
  const run = models.scaled.run(sentence);
  const n = sentence.length;
  const w = run.attention[0][0];
  assert.deepEqual(row, sentence.map((token, j) => `${token}: ${f3(w[(n - 1) * n + j])}`));
  let sum = 0;
  for (let j = 0; j < n; j++) sum += w[(n - 1) * n + j];
  assert.ok(Math.abs(sum - 1) < 1e-5);
  assert.equal((await text('.opened h3'))[1], `Where “${sentence.at(-1)}” looks in this head`);
});
