// Supplied attention of thousands of tokens on index.html (headless Chromium, strict CSP): past
// the canvas's limit the heatmap draws one pooled picture that fits its room, says how it is
// drawn, and never "Cannot draw"; the accessible table holds the selected row, not millions of
// cells; the opened row's meters are still the data's. (At ~1,500 tokens the page failed:
// "Failed to execute 'transferToImageBitmap' on 'OffscreenCanvas'", and the view was blank.)
// Run: node --test --test-concurrency=1 tests/browser/large-attention.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openLab, until, useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({ viewport: { width: 1280, height: 900 } }, (opened) => ({ browser, page } = opened));

const N = 2048;

test(`${N} supplied tokens: one pooled picture within the room, said so, the last row's weights in its meters`, async () => {
  await openLab(page, browser.url);
  await until(async () => {
    await page.locator('#model').scrollIntoViewIfNeeded();
    return page.evaluate(() => Boolean(customElements.get('model-view')));
  }, Boolean, { what: 'the model view', timeout: 30000 });
  // row i: 0.75 on key i, the rest spread evenly over the keys before it (row 0: all on itself)
  await page.locator('model-view').evaluate((el, n) => {
    const rows = Array.from({ length: n }, (_, i) => {
      const row = new Array(n).fill(0);
      if (i === 0) row[0] = 1;
      else {
        row[i] = 0.75;
        for (let j = 0; j < i; j++) row[j] = 0.25 / i;
      }
      return row;
    });
    el.attention = { tokens: Array.from({ length: n }, (_, i) => `t${i}`), attention: [[rows]] };
  }, N);
  const shown = await until(() => page.locator('model-view').evaluate((el) => {
    const heatmap = el.shadowRoot.querySelector('attention-heatmap');
    const root = heatmap?.shadowRoot;
    const cells = root?.querySelector('canvas.cells');
    return {
      text: el.shadowRoot.textContent,
      note: root?.querySelector('.pooled-note')?.hidden === false ? root.querySelector('.pooled-note').textContent : null,
      cells: cells ? [cells.width, cells.height] : null,
      overlay: root ? root.querySelector('canvas.overlay').getBoundingClientRect().width : 0,
      room: heatmap?.clientWidth ?? 0,
      tableCells: root?.querySelectorAll('tbody td').length ?? -1,
      meters: [...el.shadowRoot.querySelector('.opened probability-bars')?.shadowRoot.querySelectorAll('[role=meter]') ?? []].length,
    };
  }).catch(() => null), (s) => Boolean(s?.note) && s.tableCells > 0, { what: 'the pooled heatmap and its note', timeout: 120000 });
  assert.doesNotMatch(shown.text, /Cannot draw|transferToImageBitmap/);
  assert.match(shown.note, new RegExp(`^${N.toLocaleString('en')} × ${N.toLocaleString('en')} weights drawn as (\\d[\\d,]*) × \\1 pixels: each pixel shows the largest weight of the cells it covers\\.$`));
  const [width, height] = shown.cells;
  assert.equal(shown.note.match(/drawn as ([\d,]+)/)[1].replace(/,/g, ''), String(width), 'the note states the picture\'s own size');
  assert.ok(width < N && height < N && width === height, `a pooled picture: ${width} × ${height}`);
  assert.ok(shown.overlay <= shown.room + 1, `the picture fits its room (${shown.overlay} of ${shown.room} px)`);
  assert.equal(shown.tableCells, N, 'the accessible table holds the selected row');
  assert.ok(shown.meters > 0);
});
