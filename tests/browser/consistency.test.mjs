// One setting, one set of numbers: at a few settings of the lab, the selected row's max weight
// and entropy in the lab's bars equal those the instruments below print for the same row — the
// gradient view (the lab's scaling), step by step, the overflow demo's stable row — and, on
// Random, the saturation sweep's point at the lab's d_k. Compared as displayed (3 decimals).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { drawWholeLesson, openLab, readMeters, readSummary, useBrowser } from './browser.mjs';

let browser;
let page;

useBrowser({ viewport: { width: 1440, height: 900 } }, async (opened) => {
  ({ browser, page } = opened);
  await openLab(page, browser.url);
});

// Sets the lab, then brings each instrument into view and waits until all have drawn the new state.
async function settle(patch) {
  await page.locator('attention-lab').evaluate((lab, p) => lab.set(p), patch);
  await drawWholeLesson(page);
}

const shown = (tag, selector) =>
  page.locator(tag).evaluate((el, sel) => el.shadowRoot.querySelector(sel)?.textContent ?? null, selector);

async function readAll(scaled) {
  const lab = await readSummary(page);
  return {
    lab: { max: lab.max, entropy: lab.entropy.replace(' nats', '') },
    gradient: { max: await shown('gradient-view', `.jac[data-scaled="${scaled}"] [data-k="max"]`), entropy: await shown('gradient-view', `.jac[data-scaled="${scaled}"] [data-k="entropy"]`) },
    steps: { max: await shown('step-by-step', '.row-stats [data-k="max"]'), entropy: await shown('step-by-step', '.row-stats [data-k="entropy"]') },
    sweep: {
      max: await shown('saturation-plot', `.sweep-row [data-k="max-${scaled ? 'scaled' : 'unscaled'}"]`),
      entropy: await shown('saturation-plot', `.sweep-row [data-k="entropy-${scaled ? 'scaled' : 'unscaled'}"]`),
    },
  };
}

// The overflow demo's stable row (4 significant digits) against the lab's meters (full precision).
async function assertOverflowRow() {
  const meters = await readMeters(page);
  const stable = await page.locator('overflow-demo').evaluate((el) =>
    Array.from(el.shadowRoot.querySelectorAll('tbody tr:last-child td')).slice(0, -1).map((td) => Number(td.textContent.replace('−', '-'))),
  );
  assert.equal(stable.length, meters.length);
  stable.forEach((p, j) => assert.ok(Math.abs(p - meters[j].value) <= 5e-4 * Math.max(1e-3, meters[j].value) + 1e-9, `key ${j}: overflow ${p}, lab ${meters[j].value}`));
}

for (const [name, patch, sweepAgrees] of [
  ['Random, d_k = 1024, unscaled', { projection: 'random', dk: 1024, scaled: false, temperature: 1, causal: false, selected: 1 }, true],
  ['Random, d_k = 16, scaled', { projection: 'random', dk: 16, scaled: true, temperature: 1, causal: false, selected: 1 }, true],
  ['Identity, scaled', { projection: 'identity', scaled: true, temperature: 1, causal: false, selected: 1 }, false],
  ['Random, d_k = 64, T = 0.5, causal, row 5', { projection: 'random', dk: 64, scaled: true, temperature: 0.5, causal: true, selected: 5 }, false],
]) {
  test(`${name}: the lab's row and the instruments show the same numbers`, async () => {
    await settle(patch);
    const all = await readAll(patch.scaled);
    console.log(`# ${name}: ${JSON.stringify(all)}`);
    assert.deepEqual(all.gradient, all.lab, 'gradient view');
    assert.deepEqual(all.steps, all.lab, 'step by step');
    if (sweepAgrees) assert.deepEqual(all.sweep, all.lab, 'the saturation sweep at the lab’s d_k');
    await assertOverflowRow();
    if (patch.projection === 'identity') {
      assert.equal(all.lab.max, '0.363', 'the headline: "cat" 0.36 scaled on Identity');
      assert.match(await shown('saturation-plot', '.identity'), /The lab is on Identity .* random projections of the same words/);
      assert.equal(await page.locator('saturation-plot').evaluate((el) => el.shadowRoot.querySelectorAll('.lab-marker').length), 2);
      assert.match(await shown('step-by-step', 'ol'), /q=x/);
    }
  });
}

test('the saturation step’s claim, the same everywhere: Random, d_k = 1024, unscaled → several rows 1.000 and 0.000; “cat” close', async () => {
  await settle({ projection: 'random', dk: 1024, scaled: false, temperature: 1, causal: false, selected: 1 });
  const all = await readAll(false);
  for (const view of ['gradient', 'steps', 'sweep']) assert.deepEqual(all[view], all.lab, view);
  assert.ok(Number(all.lab.max) > 0.95 && Number(all.lab.entropy) < 0.2, JSON.stringify(all.lab));
  const grad = Number((await shown('gradient-view', '.jac[data-scaled="false"] [data-k="grad"]')).replace('−', '-'));
  const gradScaled = Number((await shown('gradient-view', '.jac[data-scaled="true"] [data-k="grad"]')).replace('−', '-'));
  assert.ok(grad < gradScaled / 3, `the unscaled gradient ${grad} is far below the scaled ${gradScaled}`);
  // several rows: max weight 1.000 — the lab's rows and the sweep's count of peaked rows agree
  const rows = await page.locator('attention-lab').evaluate((el) => Array.from(el.state.result.maxWeight, (p) => p.toFixed(3)));
  assert.ok(rows.filter((p) => p === '1.000').length >= 3, `max weights ${rows}`);
  const peaked = await shown('saturation-plot', '.stats');
  assert.match(peaked, new RegExp(`unscaled, ${rows.filter((p) => Number(p) > 0.99).length} of 10 rows are extremely peaked`));
});
