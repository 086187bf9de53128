// The type scale on a phone (issue 32): at 390 px, with every instrument of index.html drawn
// and the trained model's heads, no visible text is drawn under its floor — prose 16 px, notes
// 14 px, a chart's labels and subscripts 12 px (SVG text measured as drawn: font-size × the
// plot's scale). The walk is the audit's (scripts/type-walk.mjs, printed by scripts/type-audit.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TYPE_FLOOR, groupRuns, showEveryInstrument, underFloor, walkText } from '../../scripts/type-walk.mjs';
import { openLab, useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({ viewport: { width: 390, height: 900 } }, (opened) => ({ browser, page } = opened));

test('index.html at 390 px: no chart label under 12 px, no prose under 16 px, no note under 14 px', async () => {
  await openLab(page, browser.url);
  await showEveryInstrument(page, { timeout: 30000 });
  const runs = await page.evaluate(walkText);
  // the walk saw what it judges: the plots' labels and the lesson's prose
  const count = (kind) => runs.filter((run) => run.kind === kind).length;
  assert.ok(count('chart') > 150, `chart labels seen: ${count('chart')}`);
  assert.ok(count('prose') > 50, `prose runs seen: ${count('prose')}`);
  const under = groupRuns(underFloor(runs)).map((g) => `${g.kind} ${g.px} px ×${g.count} at ${g.where} (“${g.sample}”)`);
  assert.deepEqual(under, [], `text under the floor (${JSON.stringify(TYPE_FLOOR)})`);
});
