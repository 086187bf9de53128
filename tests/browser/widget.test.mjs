// The notebook widget (web/build/attention-widget.js, bundled by scripts/build-widget.mjs) in
// headless Chromium, loaded as anywidget loads a widget's module: its text fetched, imported from
// a blob: URL, `default.render({ model, el })` called per view. The model is a stand-in with
// anywidget's model methods (get, set, on, off, save_changes): set tells the listeners of
// 'change:<name>' when the value changes, as a model shared by the views of one output does.
// Checked: two views of one model draw its attention (the opened head's row equal to the data's);
// the model's attention, layer and head changing reach both; the learner opening a head in one
// view sets the model (save_changes) and the other follows; a second copy of the module loads;
// cleanup stops the model reaching that view; attention that is not a distribution is said; a
// browser without WebAssembly SIMD (WebAssembly.validate made to refuse it) is told so.
// The page's policy allows blob: scripts (as a notebook's must) and nothing inline.
// Run: node --test --test-concurrency=1 tests/browser/widget.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { until, useBrowser } from './browser.mjs';
import { softmax64, uniforms } from '../support/reference.mjs';

let browser;
let page;
useBrowser({ viewport: { width: 1280, height: 900 } }, async (opened) => {
  ({ browser, page } = opened);
  await openNotebook(page);
});

// `into` opened on a notebook-like page of the test server, with the module as anywidget imports
// it (window.importWidget) and a model with anywidget's methods (window.fakeModel)
async function openNotebook(into) {
  await into.route('**/notebook.html', (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    headers: { 'Content-Security-Policy': "default-src 'self'; script-src 'self' blob: 'wasm-unsafe-eval'; style-src 'self'" },
    body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A notebook</title></head><body><div id="a" class="output"></div><div id="b" class="output"></div></body></html>',
  }));
  await into.goto(`${browser.url}notebook.html`);
  await into.evaluate(async () => {
    const text = await (await fetch('build/attention-widget.js')).text();
    window.importWidget = async () => (await import(URL.createObjectURL(new Blob([text], { type: 'text/javascript' })))).default;
    window.fakeModel = (state) => {
      const listeners = new Map();
      return {
        saved: [],
        get: (name) => state[name],
        set(name, value) {
          if (JSON.stringify(state[name]) === JSON.stringify(value)) return;
          state[name] = value;
          for (const listener of [...(listeners.get(`change:${name}`) ?? [])]) listener({ name, value });
        },
        on(name, listener) {
          listeners.set(name, [...(listeners.get(name) ?? []), listener]);
        },
        off(name, listener) {
          listeners.set(name, (listeners.get(name) ?? []).filter((l) => l !== listener));
        },
        save_changes() {
          this.saved.push({ layer: state.layer, head: state.head });
        },
        listening: () => [...listeners.values()].reduce((n, l) => n + l.length, 0),
      };
    };
  });
}

// layers × heads × tokens of float64 softmax rows stored as float32: BertViz's shape [layer][1][head][n][n]
const TOKENS = ['[CLS]', 'the', 'cat', 'sat', '[SEP]'];
function attention(seed, layers = 2, heads = 3) {
  const next = uniforms(seed);
  return Array.from({ length: layers }, () => [Array.from({ length: heads }, () => TOKENS.map(() => softmax64(TOKENS.map(() => 4 * (next() - 0.5))).map(Math.fround)))]);
}
const FIRST = attention(3);
const SECOND = attention(11);
// aria-valuenow of the meters: plain decimals of the weights
const SHOWN = 5e-4;

const view = (id) => page.locator(`#${id} model-view`);
// what view `id` shows: its opened head's heading, its row's meters, its alert, all its text
const shown = (id) => view(id).evaluate((el) => ({
  heading: el.shadowRoot.querySelector('.opened h3')?.textContent ?? null,
  meters: [...el.shadowRoot.querySelector('.opened probability-bars')?.shadowRoot.querySelectorAll('[role=meter]') ?? []].map((m) => Number(m.getAttribute('aria-valuenow'))),
  alert: el.shadowRoot.querySelector('[role=alert]')?.textContent ?? null,
  text: el.shadowRoot.textContent,
})).catch(() => null);

// Waits until view `id` shows layer `layer`, head `head` of `data` (the last token's row, the
// element's default) and returns what it shows.
async function showsHead(id, data, layer, head) {
  const expected = data[layer - 1][0][head - 1][TOKENS.length - 1];
  return until(async () => {
    await view(id).scrollIntoViewIfNeeded().catch(() => {});
    return shown(id);
  }, (s) => s?.heading === `Layer ${layer}, head ${head}` && s.meters.length === TOKENS.length && s.meters.every((v, j) => Math.abs(v - expected[j]) < SHOWN),
  { what: `view ${id} showing layer ${layer}, head ${head}`, timeout: 30000 });
}

test('two views of one model: the attention drawn, model changes reach both, a head opened in one sets the model and the other follows', async () => {
  await page.evaluate(async (data) => {
    const widget = await window.importWidget();
    window.firstData = data;
    window.model = window.fakeModel({ tokens: ['[CLS]', 'the', 'cat', 'sat', '[SEP]'], attention: data, layer: 1, head: 1, theme: 'auto' });
    window.cleanups = ['a', 'b'].map((id) => widget.render({ model: window.model, el: document.getElementById(id) }));
  }, FIRST);
  for (const id of ['a', 'b']) {
    const s = await showsHead(id, FIRST, 1, 1);
    assert.doesNotMatch(s.text, /NaN/);
    assert.deepEqual(await view(id).evaluate((el) => [...el.shadowRoot.querySelectorAll('.tokens .token')].map((t) => t.textContent)), TOKENS);
    // no way back (the widget puts no control in the view's slot): the trained model's files are not beside it
    assert.deepEqual(await view(id).evaluate((el) => [el.children.length, el.shadowRoot.querySelector('slot[name=back]').assignedElements().length,
      [...el.shadowRoot.querySelectorAll('button')].filter((b) => !b.classList.contains('thumb')).length]), [0, 0, 0]);
  }
  // the model's layer and head, then its attention
  await page.evaluate(() => {
    window.model.set('layer', 2);
    window.model.set('head', 3);
  });
  for (const id of ['a', 'b']) await showsHead(id, FIRST, 2, 3);
  await page.evaluate((data) => window.model.set('attention', data), SECOND);
  for (const id of ['a', 'b']) await showsHead(id, SECOND, 2, 3);
  assert.deepEqual(await page.evaluate(() => window.model.saved), [], 'nothing saved for changes the model made');

  // the learner opens layer 1, head 2 in view a
  await view('a').evaluate((el) => el.shadowRoot.querySelector('.thumb[data-layer="1"][data-head="2"]').click());
  await showsHead('a', SECOND, 1, 2);
  assert.deepEqual(await page.evaluate(() => [window.model.get('layer'), window.model.get('head')]), [1, 2]);
  assert.deepEqual((await page.evaluate(() => window.model.saved)).at(-1), { layer: 1, head: 2 }, 'save_changes called with the head opened');
  await showsHead('b', SECOND, 1, 2);

  // a theme from the model: the element's attribute
  await page.evaluate(() => window.model.set('theme', 'dark'));
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('model-view')].map((el) => el.getAttribute('theme'))), ['dark', 'dark']);
});

test('a layer or head that saved or edited notebook state spoils (0, −1, null, 1.5, "2", missing) opens the nearest valid head, never throws', async () => {
  for (const [layer, head, expected] of [[0, -1, [1, 1]], [null, undefined, [1, 1]], [1.5, '2', [2, 2]], ['2', 3.4, [2, 3]], ['two', Infinity, [1, 1]], [7, 99, [2, 3]]]) {
    const thrown = await page.evaluate(async ([layer, head]) => {
      const widget = await window.importWidget();
      const state = { tokens: ['[CLS]', 'the', 'cat', 'sat', '[SEP]'], attention: window.firstData, theme: 'auto' };
      if (layer !== undefined) state.layer = layer;
      if (head !== undefined) state.head = head;
      const el = document.createElement('div');
      el.id = 'spoiled';
      document.getElementById('spoiled')?.remove();
      document.body.append(el);
      try {
        window.spoiledCleanup?.();
        window.spoiledCleanup = widget.render({ model: window.fakeModel(state), el });
        return null;
      } catch (error) {
        return String(error);
      }
    }, [layer, head]);
    assert.equal(thrown, null, `layer ${layer}, head ${head}`);
    await showsHead('spoiled', FIRST, ...expected);
  }
  await page.evaluate(() => {
    window.spoiledCleanup();
    document.getElementById('spoiled').remove();
  });
});

test('a second copy of the module loads and draws; cleanup stops the model reaching that view', async () => {
  const listening = await page.evaluate(() => window.model.listening());
  await page.evaluate(async () => {
    const again = await window.importWidget(); // a cell run again: the elements are defined already
    const el = document.createElement('div');
    el.id = 'c';
    document.body.append(el);
    window.cleanups.push(again.render({ model: window.model, el }));
  });
  const head = await page.evaluate(() => [window.model.get('layer'), window.model.get('head')]);
  await showsHead('c', SECOND, ...head);
  assert.equal(await page.evaluate(() => window.model.listening()), listening * 3 / 2, 'the third view listens as the others do');

  // view b's cleanup: its element goes, and so do its listeners
  const removed = await page.evaluate(() => {
    const element = document.querySelector('#b model-view');
    window.cleanups[1]();
    window.removed = element;
    return { inPage: element.isConnected, left: document.querySelector('#b').children.length };
  });
  assert.deepEqual(removed, { inPage: false, left: 0 });
  assert.equal(await page.evaluate(() => window.model.listening()), listening, 'view b no longer listens');
  await page.evaluate(() => {
    window.model.set('layer', 2);
    window.model.set('head', 1);
  });
  await showsHead('a', SECOND, 2, 1);
  await showsHead('c', SECOND, 2, 1);
  assert.deepEqual(await page.evaluate(() => [window.removed.layer, window.removed.head]), head, 'the cleaned-up view did not follow');
  await page.evaluate(() => {
    window.cleanups[2]();
    document.getElementById('c').remove();
  });
});

test('attention whose row does not sum to 1 is said in the view, never drawn; good attention then draws again', async () => {
  const bad = structuredClone(SECOND);
  bad[0][0][1][3][0] += 0.31;
  await page.evaluate((data) => window.model.set('attention', data), bad);
  const s = await until(() => shown('a'), (v) => Boolean(v?.alert), { what: 'the alert', timeout: 30000 });
  assert.match(s.alert, /The attention you supplied cannot be shown\. attention: layer 1, head 2, row 4 sums to 1\.31/);
  assert.doesNotMatch(s.text, /NaN/);
  assert.equal(s.meters.length, 0);
  await page.evaluate((data) => window.model.set('attention', data), FIRST);
  await showsHead('a', FIRST, 2, 1);
});

test('a browser without WebAssembly SIMD is told that the widget needs it, nothing drawn', async () => {
  // a page of its own (the elements, and so the engine, are the first copy's of a page), whose
  // WebAssembly.validate refuses SIMD from the start
  const other = await browser.newPage();
  try {
    await other.addInitScript(() => {
      const validate = WebAssembly.validate;
      WebAssembly.validate = (bytes) => (bytes.length < 40 ? false : validate(bytes)); // the engine's probe is 29 bytes
    });
    await openNotebook(other);
    await other.evaluate(async (data) => {
      const widget = await window.importWidget();
      const model = window.fakeModel({ tokens: ['[CLS]', 'the', 'cat', 'sat', '[SEP]'], attention: data, layer: 1, head: 1, theme: 'auto' });
      widget.render({ model, el: document.getElementById('a') });
    }, FIRST);
    const s = await until(() => other.locator('#a model-view').evaluate((el) => ({
      alert: el.shadowRoot.querySelector('[role=alert]')?.textContent ?? null,
      meters: (el.shadowRoot.querySelector('.opened probability-bars')?.shadowRoot.querySelectorAll('[role=meter]') ?? []).length,
    })), (v) => Boolean(v.alert), { what: 'the alert', timeout: 30000 });
    assert.match(s.alert, /this browser has no WebAssembly SIMD, which the notebook widget needs: it carries only the SIMD build of the core/);
    assert.equal(s.meters, 0);
  } finally {
    await other.close();
  }
});
