// Attention from any model on index.html: <model-view>.attention and attention-src (a file of
// the same site), in headless Chromium under the strict CSP — every head small, one opened in the
// lab's heatmap with its row as meters whose values are the data's, no next word, said to be the
// user's attention and not the trained model's; a head opened by its button (input and change
// sent) or by its layer and head properties, and kept when new attention comes; bad data, a file
// elsewhere and a missing file each said on the page, never NaN; no way back without a host's
// control in the slot `back`, and back to the trained model by one; in
// bokmål; axe finds nothing in light and dark at 1440 and 390 px.
// Run: node --test --test-concurrency=1 tests/browser/supplied-attention.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { AXE_OWN_PROBLEM, assertAxeCleanAcross } from './axe.mjs';
import { openLab, until, useBrowser } from './browser.mjs';
import { softmax64, uniforms } from '../support/reference.mjs';

let browser;
let page;
// the missing file is asked for on purpose
useBrowser({ viewport: { width: 1440, height: 900 } }, (opened) => ({ browser, page } = opened),
  (problem) => AXE_OWN_PROBLEM.test(problem) || /missing\.json|status of 404/.test(problem));

// 2 layers × 3 heads × 5 tokens of float64 softmax rows stored as float32, BertViz's shape
const TOKENS = ['[CLS]', 'the', 'cat', 'sat', '[SEP]'];
const next = uniforms(9);
const DATA = {
  tokens: TOKENS,
  attention: Array.from({ length: 2 }, () => [Array.from({ length: 3 }, () => TOKENS.map(() => softmax64(TOKENS.map(() => 4 * (next() - 0.5))).map(Math.fround)))]),
};

const view = () => page.locator('model-view');
const text = (selector) => view().evaluate((el, s) => [...(el.shadowRoot?.querySelectorAll(s) ?? [])].map((n) => n.textContent), selector);
const meters = () => view().evaluate((el) => [...el.shadowRoot.querySelector('.opened probability-bars')?.shadowRoot.querySelectorAll('[role=meter]') ?? []].map((m) => Number(m.getAttribute('aria-valuenow'))));
const shadowText = () => view().evaluate((el) => el.shadowRoot.textContent);

// index.html with the model's section in view, its element defined, then `act(element)` done
async function openWith(act, path = '', arg = null) {
  await openLab(page, browser.url + path);
  await until(async () => {
    await page.locator('#model').scrollIntoViewIfNeeded();
    return page.evaluate(() => Boolean(customElements.get('model-view')));
  }, Boolean, { what: 'the model view', timeout: 30000 });
  await view().evaluate(act, arg);
}

const heads = () => until(async () => {
  await page.locator('#model').scrollIntoViewIfNeeded();
  return text('.thumb');
}, (t) => t.length === 6, { what: 'the six heads', timeout: 30000 });

test('attention set as a property: every head, one opened with the data\'s weights, no next word, said to be the user\'s', async () => {
  await openWith((el, data) => (el.attention = data), '', DATA);
  const thumbs = await heads();
  assert.equal(thumbs[5], 'layer 2, head 3' + thumbs[5].slice('layer 2, head 3'.length));
  assert.deepEqual(await text('.tokens .token'), TOKENS);
  const intro = (await text('p.supplied'))[0];
  assert.match(intro, /attention you supplied, from another model \(2 layers × 3 heads, 5 tokens\): not Attention Lab's trained model/);
  assert.ok((await text('p')).some((p) => p.includes('each row summing to 1 within 0.001')));
  assert.deepEqual(await text('.next'), [], 'no next word');
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelector('.caveat').hidden), true);
  assert.deepEqual(await text('.next, .scale, .controls'), [], 'none of the trained model\'s sections');
  // the opened head's row: the last token's, the data's weights (aria-valuenow: plain decimals)
  assert.equal((await text('.opened h3'))[0], 'Layer 1, head 1');
  let values = await meters();
  assert.equal(values.length, 5);
  values.forEach((v, j) => assert.ok(Math.abs(v - DATA.attention[0][0][0][4][j]) < 5e-4, `${v} vs ${DATA.attention[0][0][0][4][j]}`));
  // another head, by its button: layer and head follow, and the page hears it (input, then change)
  await view().evaluate((el) => {
    window.__heard = [];
    for (const type of ['input', 'change']) document.addEventListener(type, (e) => e.target === el && window.__heard.push([e.type, el.layer, el.head, { ...el.value }]));
    el.shadowRoot.querySelector('.thumb[data-layer="2"][data-head="3"]').click();
  });
  await until(async () => (await text('.opened h3'))[0], (t) => t === 'Layer 2, head 3', { what: 'head 2.3 opened' });
  values = await meters();
  values.forEach((v, j) => assert.ok(Math.abs(v - DATA.attention[1][0][2][4][j]) < 5e-4));
  assert.deepEqual(await page.evaluate(() => window.__heard), [['input', 2, 3, { layer: 2, head: 3 }], ['change', 2, 3, { layer: 2, head: 3 }]]);
  // and by its properties, silently; new attention keeps the opened head
  await view().evaluate((el) => Object.assign(el, { layer: 1, head: 2 }));
  await until(async () => (await text('.opened h3'))[0], (t) => t === 'Layer 1, head 2', { what: 'head 1.2 opened by its properties' });
  values = await meters();
  values.forEach((v, j) => assert.ok(Math.abs(v - DATA.attention[0][0][1][4][j]) < 5e-4));
  await view().evaluate((el, data) => (el.attention = data), structuredClone(DATA));
  assert.equal(await until(async () => (await text('.opened h3'))[0], (t) => t === 'Layer 1, head 2', { what: 'head 1.2 kept' }), 'Layer 1, head 2');
  assert.equal((await page.evaluate(() => window.__heard)).length, 2, 'no event for a head set by the page');
  await assert.rejects(view().evaluate((el) => (el.layer = 0)), /<model-view>\.layer must be an integer from 1, got 0/);
  assert.doesNotMatch(await shadowText(), /NaN/);
});

test('bad data, a file elsewhere and a missing file are said on the page; attention-src reads a file of the site', async () => {
  const bad = structuredClone(DATA);
  bad.attention[1][0][2][3][0] += 0.31;
  await openWith((el, data) => (el.attention = data), '', bad);
  const alert = async () => (await text('[role=alert]'))[0] ?? '';
  assert.match(await until(alert, Boolean, { what: 'the alert', timeout: 30000 }), /The attention you supplied cannot be shown\. attention: layer 2, head 3, row 4 sums to 1\.31/);
  assert.doesNotMatch(await shadowText(), /NaN/);
  assert.deepEqual(await text('.thumb'), []);

  await page.route('**/supplied/bert.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(DATA) }));
  await view().evaluate((el) => el.setAttribute('attention-src', 'supplied/bert.json'));
  await heads();
  assert.equal((await text('.status [role=status]'))[0], 'Read from bert.json.');
  await view().evaluate((el) => el.setAttribute('attention-src', 'https://example.org/bert.json'));
  assert.match(await until(alert, (a) => a.includes('example.org'), { what: 'the other site refused' }), /attention-src must be a file of this site \(http:\/\/127\.0\.0\.1:\d+\), got https:\/\/example\.org\/bert\.json/);
  await view().evaluate((el) => el.setAttribute('attention-src', 'supplied/missing.json'));
  assert.match(await until(alert, (a) => a.includes('missing'), { what: 'the missing file' }), /missing\.json: HTTP 404/);
  // no host control in the slot `back`: no way back is shown
  await view().evaluate((el) => el.setAttribute('attention-src', 'supplied/bert.json'));
  await heads();
  const ways = () => view().evaluate((el) => [el.shadowRoot.querySelector('slot[name=back]')?.assignedElements().length,
    [...el.shadowRoot.querySelectorAll('button')].filter((b) => !b.classList.contains('thumb')).length]);
  assert.deepEqual(await ways(), [0, 0]);
  // a host's control: shown in the slot; the host's handler brings the trained model back (its eight heads, its caveat)
  await view().evaluate((el) => {
    const back = Object.assign(document.createElement('button'), { slot: 'back', textContent: 'Show the trained model instead' });
    back.addEventListener('click', () => el.removeAttribute('attention-src'));
    el.append(back);
  });
  assert.deepEqual(await ways(), [1, 0]);
  assert.ok(await view().evaluate((el) => el.querySelector('[slot=back]').getBoundingClientRect().height > 0), 'the host\'s control is shown');
  await view().evaluate((el) => el.querySelector('[slot=back]').click());
  await until(async () => {
    await page.locator('#model').scrollIntoViewIfNeeded();
    return text('.thumb');
  }, (t) => t.length === 8, { what: 'the trained model\'s eight heads', timeout: 30000 });
  assert.equal(await view().evaluate((el) => el.hasAttribute('attention-src')), false);
  assert.equal(await view().evaluate((el) => el.shadowRoot.querySelector('.caveat').hidden), false);
});

test('in bokmål; axe finds nothing in light and dark at 1440 and 390 px; the page does not scroll sideways', async () => {
  await openWith((el, data) => (el.attention = data), '?lang=nb', DATA);
  await heads();
  assert.match((await text('p.supplied'))[0], /^Dette er oppmerksomhet du har gitt, fra en annen modell \(2 lag × 3 hoder, 5 tokener\)/);
  await openWith((el, data) => (el.attention = data), '', DATA);
  await heads();
  await assertAxeCleanAcross(page, 'supplied attention', [1440, 390]);
});
