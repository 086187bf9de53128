// The trained model on index.html (<model-view>, web/views/model.js), in headless Chromium under
// the strict CSP: it loads when its section comes near, follows the lab's sentence, and every
// sentence that states a number says what the model gives — each held here to a run of
// attention-lab/model in Node (the same weights) and to the shipped measurements, with float64
// sums done here; its controls (a head, √d_k, the twin, the repeated words, the temperature and
// the position) change what it shows; the opened head is the lab's heatmap, which the keyboard
// moves through, and its row the lab's meters; the twins' curves say and table the files'
// numbers; loading says which file and then the result, and a failed file can be tried again;
// axe finds nothing in the section, its asides open, in light and dark at 1440 and 360 px.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

import { loadModel } from '../../web/api/model.js';
import { AXE_OWN_PROBLEM, assertAxeCleanAcross } from './axe.mjs';
import { openLab, until, useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({ viewport: { width: 1440, height: 900 } }, (opened) => ({ browser, page } = opened), (problem) => AXE_OWN_PROBLEM.test(problem));

const shipped = JSON.parse(fs.readFileSync(new URL('../../web/assets/model/model.json', import.meta.url), 'utf8'));
const models = { scaled: await loadModel({ variant: 'scaled' }), unscaled: await loadModel({ variant: 'unscaled' }) };
const f2 = (x) => x.toFixed(2);
const f3 = (x) => x.toFixed(3);

const view = () => page.locator('model-view');
// (an empty list until the element is defined: its module is imported when the page gets to it)
const text = (selector) => view().evaluate((el, s) => [...(el.shadowRoot?.querySelectorAll(s) ?? [])].map((n) => n.textContent), selector);
const para = async (pattern) => (await text('p')).find((p) => pattern.test(p)) ?? null;
const tokens = () => text('.tokens .token');
const opened = async () => (await text('.opened h3'))[0];

async function openModel(path = '') {
  await openLab(page, browser.url + path);
  // scrolled to again at each look: the sections above draw as the page gets to them and can push
  // the view back out of reach before it starts loading (it loads once near the viewport)
  await until(async () => {
    await page.locator('#model').scrollIntoViewIfNeeded();
    return text('.thumb');
  }, (t) => t.length === 8, { what: 'the eight heads', timeout: 30000 });
}

// Waits for the view to show a new state after `act`.
async function after(act, changed) {
  await act();
  await until(changed, Boolean, { what: 'the view to change', timeout: 10000 });
}

const meanSpread = (run) => run.heads.reduce((s, x) => s + x.spread, 0) / run.heads.length;
// the opened head's row: the lab's meters ({ name, value, text }); the heatmap's own shadow root
const meters = () => view().evaluate((el) => [...el.shadowRoot.querySelector('.opened probability-bars')?.shadowRoot.querySelectorAll('[role=meter]') ?? []].map((m) => ({
  name: m.getAttribute('aria-label'), value: Number(m.getAttribute('aria-valuenow')), text: m.getAttribute('aria-valuetext') })));
const inHeatmap = (selector) => view().evaluate((el, s) => [...el.shadowRoot.querySelector('attention-heatmap').shadowRoot.querySelectorAll(s)].map((n) => n.textContent), selector);
const status = () => text('.status [role=status]');

test('the model loads near its section, reads the lab\'s sentence, and states the numbers of the run and of the test text', async () => {
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await openLab(page, browser.url);
  assert.ok(!requests.some((u) => u.endsWith('.weights')), 'weights fetched before the section came near');
  // scrolled to again at each look: the sections above draw as the page gets to them and can push
  // the view back out of reach before it starts loading (it loads once near the viewport)
  await until(async () => {
    await page.locator('#model').scrollIntoViewIfNeeded();
    return text('.thumb');
  }, (t) => t.length === 8, { what: 'the eight heads', timeout: 30000 });
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
  // against what even rows would put there at this length: the mean of 1/(i + 1) over rows 2…n
  let even = 0;
  for (let i = 1; i < n; i++) even += 1 / (i + 1) / (n - 1);
  assert.ok(here.includes(`even rows would put ${f2(even)} on each`), here);
  const next = await para(/^Most likely/);
  let entropy = 0;
  for (const p of run.next.probs) if (p > 0) entropy -= p * Math.log(p);
  assert.ok(next.startsWith(`Most likely: “${run.next.top[0].word}”, ${f3(run.next.top[0].probability)}. Entropy ${f2(entropy)} nats`), next);
  assert.ok(next.includes(`“the” is ${f3(models.scaled.unigram.the)} of the training text`), next);
  // √d_k removed: the mean spread of the sentence's rows, with and without
  const without = models.scaled.run(sentence, { scaleAtInference: false });
  const scale = await para(/^Tick “remove √d_k”/);
  assert.ok(scale.includes(`goes from ${f2(meanSpread(run))} to ${f2(meanSpread(without))}`), scale);
  assert.ok(meanSpread(without) < meanSpread(run));
  assert.ok(scale.includes('√d_k = √32 ≈ 5.66'), scale);
  const twin = await para(/^On the test text the model trained with √d_k/);
  assert.ok(twin.includes(`trained with √d_k has a perplexity of ${shipped.twins.scaled.encodings.q8.testPerplexity.toFixed(2)}, the twin trained without it ${shipped.twins.unscaled.encodings.q8.testPerplexity.toFixed(2)}`), twin);
  assert.ok(twin.includes(`gets ${shipped.baselines[2].testPerplexity.toFixed(2)}`), twin);
  const layer2 = (await text('.scale li'))[1];
  const spreads = (v) => shipped.heads[v].asTrained.slice(4).map((x) => x.spread);
  assert.ok(layer2.includes(`${f2(Math.min(...spreads('scaled')))}–${f2(Math.max(...spreads('scaled')))}`), layer2);
  assert.ok(layer2.includes(`${f2(Math.min(...spreads('unscaled')))}–${f2(Math.max(...spreads('unscaled')))}`), layer2);
  // the next-word bars: the ten words of the Node run, in order, with their probabilities
  const bars = await view().evaluate((el) => [...el.shadowRoot.querySelectorAll('.next svg g title')].map((t) => t.textContent));
  assert.deepEqual(bars, run.next.top.map(({ word, probability }) => `${word}: ${f3(probability)}`));
});

test('a head, √d_k, the twin, the position and the temperature each change what is shown', async () => {
  await openModel();
  const sentence = await tokens();
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-layer="2"][data-head="3"]').click()), async () => (await opened()) === 'Layer 2, head 3');
  assert.deepEqual(await view().evaluate((el) => [...el.shadowRoot.querySelectorAll('.thumb')].map((b) => b.getAttribute('aria-pressed'))), ['false', 'false', 'false', 'false', 'false', 'false', 'true', 'false']);
  const cells = () => view().evaluate((el) => [...el.shadowRoot.querySelector('.opened probability-bars')?.shadowRoot.querySelectorAll('[role=meter]') ?? []].map((x) => x.getAttribute('aria-valuetext')).join('|'));
  const before = await cells();
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=removeScale]').click()), async () => (await cells()) !== before);
  const removed = await para(/^Now every score/);
  const run = models.scaled.run(sentence), without = models.scaled.run(sentence, { scaleAtInference: false });
  assert.ok(removed.includes(`is ${f2(meanSpread(without))}, against ${f2(meanSpread(run))} as trained`), removed);
  // the twin: nothing to remove
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=variant][value=unscaled]').click()), () => para(/^This twin never divided/));
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=removeScale]').disabled), true);
  // with the twin shown, each perplexity is still named by how it was trained
  const twin = await para(/^On the test text the model trained with √d_k/);
  assert.ok(twin.includes(`trained with √d_k has a perplexity of ${shipped.twins.scaled.encodings.q8.testPerplexity.toFixed(2)}, the twin trained without it ${shipped.twins.unscaled.encodings.q8.testPerplexity.toFixed(2)}`), twin);
  // position 3 and temperature 2, in the next word's aside: the next word after the third token, flatter
  await view().evaluate((el) => el.shadowRoot.querySelector('details.next > summary').click());
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelector('details.next').open), true, 'the aside opened');
  await view().evaluate((el) => {
    const select = el.shadowRoot.querySelector('[data-intent=position]');
    select.value = '2';
    select.dispatchEvent(new Event('input', { bubbles: true }));
    const range = el.shadowRoot.querySelector('[data-intent=temperature]');
    range.value = '5';
    range.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const expected = models.unscaled.run(sentence, { position: 2, temperature: 2 });
  await until(() => text('.next summary'), (t) => t[0] === `Go deeper: which word does it expect after “${sentence[2]}”?`, { what: 'the position' });
  const next = await until(() => para(/^Most likely/), (p) => p.startsWith(`Most likely: “${expected.next.top[0].word}”, ${f3(expected.next.top[0].probability)}`), { what: 'the next word at T = 2' });
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
  const best = shipped.heads.scaled.asTrained.reduce((a, b) => (b.induction > a.induction ? b : a));
  const said = await para(/^Layer 1, head 1 puts/);
  assert.ok(said.startsWith(`Layer 1, head 1 puts ${f2(here)} of its weight there`), said);
  assert.ok(said.endsWith(`the highest is ${f2(best.induction)}.`), said);
  // the page names an induction head: the 0.3, and far above what even rows give
  assert.ok(best.induction >= 0.3 && best.induction > 10 * shipped.heads.induction.even, `${best.induction}`);
  assert.equal(await para(/^This model has/), `This model has an induction head: layer ${best.layer}, head ${best.head}. It learned it from training text in which ${Math.round(100 * shipped.training.repeatShare)}% of the passages repeat random words.`);
  // and its thumbnail says so; a head of half its weight or more on the previous word is named by that
  const thumbs = await text('.thumb');
  shipped.heads.scaled.asTrained.forEach((m, k) => {
    if (m.induction >= 0.3) assert.ok(thumbs[k].endsWith('induction'), thumbs[k]);
    else if (m.previous >= 0.5) assert.ok(thumbs[k].endsWith('previous word'), thumbs[k]);
  });
  assert.ok(thumbs.some((t) => t.endsWith('previous word')) && thumbs.some((t) => t.endsWith('induction')), thumbs.join(' | '));
  // opened, the induction head says its score over the repeated sequences of the shipped measurement
  await after(() => view().evaluate((el, [l, h]) => el.shadowRoot.querySelector(`[data-layer="${l}"][data-head="${h}"]`).click(), [best.layer, best.head]), async () => (await opened()) === `Layer ${best.layer}, head ${best.head}`);
  const named = await para(/^Its name comes from repeated words/);
  assert.ok(named.includes(`on ${shipped.heads.induction.repeats} sequences of random words said twice, it puts ${f2(best.induction)} of its weight`) && named.includes(`(even rows: ${f2(shipped.heads.induction.even)})`), named);
  const repeat = await para(/^After the last word the earlier copy went on with/);
  assert.ok(repeat.includes(`“${words[12]}”`), repeat);
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=demo]').click()), async () => (await tokens()).length !== 24);
});

test('the lab\'s new sentence is the model\'s; unknown words are marked; Norwegian reads Norwegian', async () => {
  await openModel();
  await page.locator('attention-lab').evaluate((lab) => lab.set({ sentence: 'The zyxwvut sat on a chair' }));
  await until(tokens, (t) => t.join(' ') === 'the zyxwvut sat on a chair', { what: 'the lab\'s sentence' });
  assert.deepEqual(await text('.token.unknown'), ['zyxwvut']);
  assert.ok((await text('.note')).some((n) => n.startsWith(`1 word is not among the model’s ${shipped.settings.vocab.toLocaleString('en')} (underlined)`)));
  await openModel('?lang=nb');
  assert.equal(await opened(), 'Lag 1, hode 1');
  assert.ok(await para(/^Over testteksten/));
});

test('axe finds nothing in the model\'s section, light and dark, 1440 and 360 px, with the head, the repeated words and the asides open', async () => {
  await openModel();
  await view().evaluate((el) => { for (const aside of el.shadowRoot.querySelectorAll('details')) aside.open = true; });
  await view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=demo]').click());
  await until(tokens, (t) => t.length === 24, { what: 'the repeated words' });
  // the section only: tests/browser/a11y.test.mjs checks the rest of the page
  await assertAxeCleanAcross(page, 'model', [1440, 360], ['#model']);
});

test('embed.html?view=model shows the trained model on the link\'s sentence, the lab hidden; index.html?view=model scrolls to it', async () => {
  await page.goto(`${browser.url}embed.html?view=model&sentence=${encodeURIComponent('a dog ran to the door')}`);
  await until(() => text('.thumb'), (t) => t.length === 8, { what: 'the eight heads', timeout: 30000 });
  assert.deepEqual(await tokens(), ['a', 'dog', 'ran', 'to', 'the', 'door']);
  assert.equal(await page.locator('attention-lab').evaluate((lab) => lab.hidden), true);
  const run = models.scaled.run('a dog ran to the door');
  assert.ok((await para(/^Most likely/)).startsWith(`Most likely: “${run.next.top[0].word}”, ${f3(run.next.top[0].probability)}`));
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
  const row = await meters();
  const run = models.scaled.run(sentence);
  const n = sentence.length;
  const w = run.attention[0][0];
  assert.deepEqual(row, sentence.map((token, j) => ({ name: `${token} (key ${j + 1})`, value: Number(w[(n - 1) * n + j].toFixed(6)), text: f3(w[(n - 1) * n + j]) })));
  let sum = 0;
  for (let j = 0; j < n; j++) sum += w[(n - 1) * n + j];
  assert.ok(Math.abs(sum - 1) < 1e-5);
  assert.equal((await text('.opened h3'))[1], `Where “${sentence.at(-1)}” looks in this head`);
});

// The opened head's bar labels, as laid out: each label's text and whether it is cut short.
const barLabels = () => view().evaluate((el) => [...el.shadowRoot.querySelector('.opened probability-bars').shadowRoot.querySelectorAll('.label')]
  .map((label) => ({ text: label.textContent, cut: label.scrollWidth > label.clientWidth, width: label.getBoundingClientRect().width })));

test('the bars\' label column fits the sentence\'s longest word, and keeps its width when another head opens', async () => {
  // "government": ten letters, wider than the column the bars fall back to (5 em)
  await openModel('?sentence=The+government+said+that+it+would+act');
  const before = await barLabels();
  assert.ok(before.some((l) => l.text === 'government'), JSON.stringify(before));
  assert.deepEqual(before.filter((l) => l.cut), [], 'no label is cut short');
  const widths = new Set(before.map((l) => l.width));
  assert.equal(widths.size, 1, 'one column');
  await after(() => view().evaluate((el) => el.shadowRoot.querySelector('[data-layer="2"][data-head="3"]').click()), async () => (await opened()) !== undefined && /2/.test(await opened()));
  const headOpened = await until(barLabels, (labels) => labels.length === before.length, { what: 'the bars of the head opened' });
  assert.deepEqual(headOpened.filter((l) => l.cut), [], 'no label is cut short after another head opened');
  assert.deepEqual(headOpened.map((l) => l.width), before.map((l) => l.width), 'the column keeps its width');
});

// Every head's thumbnail as drawn: per canvas its layer, head and the RGBA of each cell's centre pixel.
const thumbnails = () => view().evaluate((el) => [...el.shadowRoot.querySelectorAll('.thumb canvas')].map((canvas) => {
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  return { layer: Number(canvas.parentElement.dataset.layer), head: Number(canvas.parentElement.dataset.head), size: canvas.width, data: [...data] };
}));

// Each thumbnail holds its own head of `run`: the keys after a word empty, the others filled, and
// in each row the darkest cell (light theme: the accent is dark) is the row's largest weight
// wherever it leads the next by more than 0.05.
function assertThumbnailsShow(drawn, run) {
  const n = run.tokens.length;
  assert.equal(drawn.length, run.attention.length * run.attention[0].length);
  for (const { layer, head, size, data } of drawn) {
    const w = run.attention[layer - 1][head - 1];
    const at = (i, j) => (Math.floor(((i + 0.5) * size) / n) * size + Math.floor(((j + 0.5) * size) / n)) * 4;
    let compared = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) assert.equal(data[at(i, j) + 3], j > i ? 0 : 255, `layer ${layer}, head ${head}: cell ${i},${j}`);
      const keys = [...Array(i + 1).keys()].sort((a, b) => w[i * n + b] - w[i * n + a]);
      if (i === 0 || w[i * n + keys[0]] - w[i * n + keys[1]] <= 0.05) continue;
      const darkness = (j) => -(data[at(i, j)] + data[at(i, j) + 1] + data[at(i, j) + 2]);
      const darkest = keys.reduce((best, j) => (darkness(j) > darkness(best) ? j : best));
      assert.equal(darkest, keys[0], `layer ${layer}, head ${head}, row ${i}: the darkest cell is the largest weight`);
      compared++;
    }
    assert.ok(compared > 0, `layer ${layer}, head ${head}: some row has a clear largest weight`);
  }
}

test('every head\'s thumbnail is its own weights; removing √d_k repaints them with the new rows', async () => {
  await openModel();
  const sentence = await tokens();
  const drawn = await thumbnails();
  assertThumbnailsShow(drawn, models.scaled.run(sentence));
  await view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=removeScale]').click());
  const repainted = async () => {
    const now = await thumbnails();
    return now.some((t, k) => t.data.some((v, i) => v !== drawn[k].data[i])) ? now : null;
  };
  const changed = await until(repainted, Boolean, { what: 'the thumbnails repainted' });
  assertThumbnailsShow(changed, models.scaled.run(sentence, { scaleAtInference: false }));
  await view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=removeScale]').click());
});

test('the opened head is the lab\'s heatmap: ↑ and ↓ choose the looking word, announced; its row is the meters; its table holds every weight', async () => {
  await openModel();
  const sentence = await tokens();
  const n = sentence.length;
  const run = models.scaled.run(sentence);
  const w = run.attention[0][0];
  await view().evaluate((el) => el.shadowRoot.querySelector('attention-heatmap').shadowRoot.querySelector('.stage').focus());
  await page.keyboard.press('ArrowUp');
  await until(() => text('.next summary'), (t) => t[0] === `Go deeper: which word does it expect after “${sentence[n - 2]}”?`, { what: 'the word before, chosen by ↑' });
  // the row of that word, as meters: its weights, the last key masked
  const row = await until(meters, (m) => m[0]?.text === f3(w[(n - 2) * n]), { what: 'the meters of the row above' });
  assert.deepEqual(row.map((m) => m.text), sentence.map((_, j) => (j <= n - 2 ? f3(w[(n - 2) * n + j]) : 'masked (causal)')));
  assert.equal((await text('.opened h3'))[1], `Where “${sentence[n - 2]}” looks in this head`);
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=position]').value), String(n - 2));
  // the heatmap said where the focus is, kept it, and selects the row
  const said = (await inHeatmap('[aria-live]'))[0];
  assert.equal(said, `${sentence[n - 2]} (query ${n - 1}) to ${sentence[0]} (key 1): weight ${f3(w[(n - 2) * n])}`);
  assert.equal(await view().evaluate((el) => el.shadowRoot.activeElement?.localName), 'attention-heatmap');
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelector('attention-heatmap').data.selected), n - 2);
  // → moves along the row, ↓ goes back to the last word
  await page.keyboard.press('ArrowRight');
  assert.equal((await until(() => inHeatmap('[aria-live]'), (t) => t[0].includes('(key 2)')))[0], `${sentence[n - 2]} (query ${n - 1}) to ${sentence[1]} (key 2): weight ${f3(w[(n - 2) * n + 1])}`);
  await page.keyboard.press('ArrowDown');
  await until(() => text('.next summary'), (t) => t[0] === `Go deeper: which word does it expect after “${sentence[n - 1]}”?`, { what: 'the last word, chosen by ↓' });
  // the table for screen readers: every weight of the head, the masked ones said so
  const cells = await until(() => inHeatmap('tbody td'), (c) => c.length === n * n && c[0] !== ' ', { what: 'the heatmap\'s table' });
  assert.deepEqual(cells, Array.from({ length: n * n }, (_, at) => (at % n > Math.floor(at / n) ? 'masked' : f3(w[at]))));
});

test('the twins\' curves: what is said, marked and tabled is the files\' numbers', async () => {
  const read = (variant) => fs.readFileSync(new URL(`../../web/assets/model/${variant}-curve.tsv`, import.meta.url), 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t'));
  const rows = { scaled: read('scaled'), unscaled: read('unscaled') };
  const held = (variant) => rows[variant].filter((row) => row[3] !== '');
  await openModel();
  const said = await until(() => para(/^Both twins learned/), Boolean, { what: 'the curves', timeout: 30000 });
  const loss = (row, column) => f2(Number(row[column]));
  assert.ok(said.includes(`measured every ${held('scaled')[1][0] - held('scaled')[0][0]} steps`), said);
  assert.ok(said.endsWith(`went from ${loss(held('scaled')[0], 3)} with √d_k and ${loss(held('unscaled')[0], 3)} without at step ${held('scaled')[0][0]} `
    + `to ${loss(held('scaled').at(-1), 3)} and ${loss(held('unscaled').at(-1), 3)} at step ${Number(held('scaled').at(-1)[0]).toLocaleString('en')}.`), said);
  const table = await view().evaluate((el) => [...el.shadowRoot.querySelectorAll('.curve tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(table, held('scaled').map((row, k) => [Number(row[0]).toLocaleString('en'), f3(Number(row[2])), f3(Number(row[3])), f3(Number(held('unscaled')[k][2])), f3(Number(held('unscaled')[k][3]))]));
  const marks = await view().evaluate((el) => ['scaled', 'unscaled'].map((v) => [...el.shadowRoot.querySelectorAll(`.curve svg .held-out.${v} title`)].map((t) => t.textContent)));
  assert.deepEqual(marks[1], held('unscaled').map((row) => `without √d_k, step ${Number(row[0]).toLocaleString('en')}: held-out loss ${f3(Number(row[3]))}`));
  assert.equal(marks[0].length, held('scaled').length);
  // the chart is a picture named by its words; the table follows it
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelector('.curve svg').getAttribute('role')), 'img');
});

test('loading says which twin and file, then the result; a file that fails is named and can be tried again', async () => {
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const hold = async (route) => {
    await gate;
    await route.continue();
  };
  await page.route('**/scaled.weights', hold);
  await openLab(page, browser.url);
  await page.locator('#model').scrollIntoViewIfNeeded();
  await until(status, (t) => t[0] === 'Loading the model trained with √d_k (scaled.weights)…', { what: 'the loading status', timeout: 30000 });
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelectorAll('.status progress').length), 1);
  release();
  await until(() => text('.thumb'), (t) => t.length === 8, { what: 'the eight heads', timeout: 30000 });
  assert.deepEqual(await status(), ['Loaded the model trained with √d_k (scaled.weights).']);
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelectorAll('.status progress').length), 0);
  await page.unroute('**/scaled.weights', hold);

  // the twin's weights do not arrive: the page says which file, and offers to try again
  const refuse = (route) => route.abort('aborted');
  await page.route('**/unscaled.weights', refuse);
  await view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=variant][value=unscaled]').click());
  const failed = await until(status, (t) => t[0]?.startsWith('Could not load unscaled.weights: '), { what: 'the failure', timeout: 30000 });
  assert.ok(!failed[0].includes('http'), `the file, not its address: ${failed[0]}`);
  assert.equal(await text('.thumb').then((t) => t.length), 8, 'the other twin stays in view');
  await page.unroute('**/unscaled.weights', refuse);
  await view().evaluate((el) => el.shadowRoot.querySelector('[data-intent=retry]').click());
  await until(status, (t) => t[0] === 'Loaded the twin trained without √d_k (unscaled.weights).', { what: 'the twin, tried again', timeout: 30000 });
  await until(() => para(/^This twin never divided/), Boolean, { what: 'the twin drawn' });
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelectorAll('[data-intent=retry]').length), 0);
});
