// Attention from any model in <attention-lab> itself: its `attention` property and its
// `attention-src` attribute (a file of the same site), in headless Chromium under the strict CSP.
// The supplied attention replaces the lab's body (a <model-view> inside the lab draws it: every
// head small, one opened with its row as meters whose values are the data's); the lab's settings
// set meanwhile are kept; bad data of every kind is said on the page, never NaN, with no page
// error; `attention = null`, the attribute removed or the lab's button (in the view's slot
// `back`) bring the lab back (drawn, and without loading the trained model); the view speaks the
// lab's language.
// Run: node --test --test-concurrency=1 tests/browser/lab-supplied-attention.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CONTENT_SECURITY_POLICY } from '../../scripts/serve.mjs';
import { AXE_OWN_PROBLEM, axeViolations, describeViolations } from './axe.mjs';
import { openLab, readMeters, until, useBrowser } from './browser.mjs';
import { softmax64, uniforms } from '../support/reference.mjs';

let browser;
let page;

// 2 layers × 3 heads × 4 tokens of float64 softmax rows stored as float32, BertViz's shape (1, H, n, n)
const TOKENS = ['[CLS]', 'dogs', 'bark', '[SEP]'];
const next = uniforms(20261205);
const DATA = {
  tokens: TOKENS,
  attention: Array.from({ length: 2 }, () => [Array.from({ length: 3 }, () => TOKENS.map(() => softmax64(TOKENS.map(() => 4 * (next() - 0.5))).map(Math.fround)))]),
};
// the page that holds a lab with attention-src in its markup
const PAGE = `<!doctype html><html lang="en"><title>Supplied</title><h1>Another model's attention</h1>
  <script type="module" src="./components/attention-lab.js"></script>
  <attention-lab attention-src="supplied/lab.json"></attention-lab>`;

useBrowser({ viewport: { width: 1440, height: 900 } }, async (opened) => {
  ({ browser, page } = opened);
  await page.route('**/supplied-lab.html', (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY }, body: PAGE }));
  await page.route('**/supplied/lab.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(DATA) }));
}, (problem) => AXE_OWN_PROBLEM.test(problem));

const lab = () => page.locator('attention-lab');
// what the view inside the lab shows: texts of `selector`, the opened head's meters
const inView = (selector) => lab().evaluate((el, s) => [...(el.shadowRoot.querySelector('model-view')?.shadowRoot?.querySelectorAll(s) ?? [])].map((n) => n.textContent), selector);
const viewMeters = () => lab().evaluate((el) => [...el.shadowRoot.querySelector('model-view').shadowRoot.querySelector('.opened probability-bars')?.shadowRoot.querySelectorAll('[role=meter]') ?? []].map((m) => Number(m.getAttribute('aria-valuenow'))));
const viewText = () => lab().evaluate((el) => el.shadowRoot.querySelector('model-view')?.shadowRoot.textContent ?? '');
// which of the lab's parts show: its own body, the supplied attention's section, a view in it
const shown = () => lab().evaluate((el) => ({
  lab: !el.shadowRoot.querySelector('.lab').hidden,
  supplied: !el.shadowRoot.querySelector('.supplied').hidden,
  view: el.shadowRoot.querySelectorAll('model-view').length,
}));
const heads = () => until(() => inView('.thumb'), (t) => t.length === 6, { what: 'the six heads', timeout: 30000 });
const alert = async () => (await inView('[role=alert]'))[0] ?? '';

// The opened head's meters are layer `l`, head `h`, row `i` of DATA (the view opens the last row).
async function assertRow(l, h, i = TOKENS.length - 1) {
  const values = await viewMeters();
  assert.equal(values.length, TOKENS.length);
  values.forEach((v, j) => assert.ok(Math.abs(v - DATA.attention[l][0][h][i][j]) < 5e-4, `layer ${l + 1}, head ${h + 1}, row ${i + 1}, key ${j + 1}: ${v} vs ${DATA.attention[l][0][h][i][j]}`));
}

// The lab is back and drawn: its body shows, no view, its bars hold one meter per token of its settings.
async function assertLabBack(tokens) {
  assert.deepEqual(await shown(), { lab: true, supplied: false, view: 0 });
  const meters = await until(() => readMeters(page), (m) => m.length === tokens, { what: `${tokens} bars`, timeout: 15000 });
  assert.ok(Math.abs(meters.reduce((s, m) => s + m.value, 0) - 1) < 0.01, 'the row of weights sums to 1');
  const box = await lab().evaluate((el) => el.shadowRoot.querySelector('attention-heatmap').getBoundingClientRect().height);
  assert.ok(box > 0, 'the heatmap is laid out');
}

test('lab.attention: the view replaces the lab with the data\'s numbers; settings set meanwhile are kept; null brings the lab back', async () => {
  await openLab(page, browser.url);
  assert.equal(await lab().evaluate((el) => el.attention), null);
  assert.equal(await lab().evaluate((el, data) => {
    el.attention = data;
    return el.attention === data; // as it was given
  }, DATA), true);
  await heads();
  assert.deepEqual(await shown(), { lab: false, supplied: true, view: 1 });
  assert.deepEqual(await inView('.tokens .token'), TOKENS);
  assert.match((await inView('p.supplied'))[0], /attention you supplied, from another model \(2 layers × 3 heads, 4 tokens\)/);
  assert.equal((await inView('.opened h3'))[0], 'Layer 1, head 1');
  await assertRow(0, 0);
  await lab().evaluate((el) => el.shadowRoot.querySelector('model-view').shadowRoot.querySelector('.thumb[data-layer="2"][data-head="2"]').click());
  await until(async () => (await inView('.opened h3'))[0], (t) => t === 'Layer 2, head 2', { what: 'head 2.2 opened' });
  await assertRow(1, 1);
  assert.doesNotMatch(await viewText(), /NaN/);

  // one axe run on the lab showing the supplied attention
  const violations = await axeViolations(page);
  assert.equal(violations.reduce((n, v) => n + v.nodes.length, 0), 0, `axe violations:\n${describeViolations([{ where: 'lab with supplied attention', violations }])}`);

  // the lab's settings still change behind the view, and show when it goes
  const rejected = await lab().evaluate((el) => el.set({ sentence: 'one two three four five six', dk: 16, projection: 'random' }).rejected);
  assert.deepEqual(rejected, {});
  assert.deepEqual(await shown(), { lab: false, supplied: true, view: 1 });
  await lab().evaluate((el) => (el.attention = null));
  assert.equal(await lab().evaluate((el) => el.attention), null);
  await assertLabBack(6);
  assert.deepEqual(await lab().evaluate((el) => ({ d: el.state.d, n: el.state.n })), { d: 16, n: 6 });
});

test('bad data of every kind is said on the page, with no page error; JSON text and good data after it are shown', async () => {
  await openLab(page, browser.url);
  const supply = (data) => lab().evaluate((el, d) => (el.attention = d), data);
  const said = async (pattern) => {
    const text = await until(alert, (a) => pattern.test(a), { what: `an alert matching ${pattern}`, timeout: 30000 });
    assert.match(text, /^The attention you supplied cannot be shown\./);
    assert.deepEqual(await inView('.thumb'), [], 'no heads drawn');
    assert.doesNotMatch(await viewText(), /NaN/);
    assert.deepEqual(await shown(), { lab: false, supplied: true, view: 1 });
  };
  const bad = structuredClone(DATA);
  bad.attention[1][0][2][1][3] += 0.25;
  await supply(bad);
  await said(/layer 2, head 3, row 2 sums to 1\.25/);
  await supply('{"tokens": ["a"], "attention": [');
  await said(/the text is not JSON/);
  await supply(42);
  await said(/expected JSON text, \{ tokens, attention \}, an array of layers or a file's bytes, got/);
  await supply({ tokens: TOKENS.slice(0, 3), attention: DATA.attention });
  await said(/3 tokens but rows of 4/);
  // an .npy file's bytes hold no tokens; the view is given none
  await lab().evaluate((el) => {
    const header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1), }";
    const padded = header.padEnd(64 - 10 - 1) + '\n';
    const bytes = new Uint8Array(10 + padded.length + 4);
    bytes.set([0x93, ...new TextEncoder().encode('NUMPY'), 1, 0, padded.length, 0]);
    bytes.set(new TextEncoder().encode(padded), 10);
    new DataView(bytes.buffer).setFloat32(10 + padded.length, 1, true);
    el.attention = bytes;
  });
  await said(/no tokens/);
  // good data as JSON text, after all that
  await supply(JSON.stringify(DATA));
  await heads();
  assert.equal(await alert(), '');
  await assertRow(0, 0);
  await supply(null);
  await assertLabBack(10); // index.html's sentence: "The cat sat on the mat because it was tired"
});

test('attention-src in the markup: the file\'s numbers; removing it brings the lab back; the lab\'s button in the view too, without the trained model', async () => {
  await page.goto(`${browser.url}supplied-lab.html`);
  await until(() => inView('.status [role=status]'), (s) => s[0] === 'Read from lab.json.', { what: 'the file read', timeout: 30000 });
  await heads();
  assert.deepEqual(await shown(), { lab: false, supplied: true, view: 1 });
  await assertRow(0, 0);
  assert.equal(await lab().evaluate((el) => el.attention), null, 'attention is what the property was given, not the file');
  // the lab's language is the view's, and its way back's
  await lab().evaluate((el) => el.setAttribute('lang', 'nb'));
  await until(async () => (await inView('p.supplied'))[0], (t) => /^Dette er oppmerksomhet du har gitt, fra en annen modell \(2 lag × 3 hoder, 4 tokener\)/.test(t), { what: 'the view in bokmål' });
  assert.equal(await lab().evaluate((el) => el.shadowRoot.querySelector('model-view > [slot=back]').textContent), 'Tilbake til laben');
  await lab().evaluate((el) => el.setAttribute('lang', 'en'));
  await until(async () => (await inView('p.supplied'))[0], (t) => /^This is attention you supplied/.test(t), { what: 'the view in English' });

  await lab().evaluate((el) => el.removeAttribute('attention-src'));
  await assertLabBack(10);

  // again, then the lab's button in the view's slot `back`: the attribute goes, the lab comes back
  await lab().evaluate((el) => el.setAttribute('attention-src', 'supplied/lab.json'));
  await heads();
  // the lab's control, shown in the view's slot (the view has no way back of its own)
  assert.deepEqual(await lab().evaluate((el) => {
    const view = el.shadowRoot.querySelector('model-view');
    const back = view.querySelector('[slot=back]');
    return [back.textContent, back.assignedSlot === view.shadowRoot.querySelector('slot[name=back]'), back.getBoundingClientRect().height > 0,
      view.shadowRoot.querySelectorAll('[data-intent=trainedModel]').length];
  }), ['Back to the lab', true, true, 0]);
  await lab().evaluate((el) => el.shadowRoot.querySelector('model-view > [slot=back]').click());
  assert.equal(await lab().evaluate((el) => el.hasAttribute('attention-src')), false);
  await assertLabBack(10);
  // a file of another site is refused in the view, in words
  await lab().evaluate((el) => el.setAttribute('attention-src', 'https://example.org/bert.json'));
  assert.match(await until(alert, (a) => a.includes('example.org'), { what: 'the other site refused' }), /attention-src must be a file of this site/);
  await lab().evaluate((el) => el.removeAttribute('attention-src'));
  await assertLabBack(10);
  // the trained model's weights were never asked for
  const weights = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => name.endsWith('.weights')));
  assert.deepEqual(weights, []);
});
