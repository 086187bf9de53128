// Soak (issue #15), its short deterministic first part: the first 70 of the seeded random
// interactions of scripts/soak.mjs, three times over (`npm run soak -- --interactions 1000` is
// the long run; scripts/soak.mjs says why each is as long as it is) — no console error, page error
// or policy violation, the lab still showing a finite result, and the JS heap, the page's nodes
// and its event listeners after the third pass within the same bounds of their state after the
// second.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SHORT_RUN, soak } from '../../scripts/soak.mjs';
import { openLab, useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({ viewport: { width: 1280, height: 900 } }, (opened) => ({ browser, page } = opened));

test(`soak: the first ${SHORT_RUN.interactions} random interactions, ${SHORT_RUN.passes} times over, no error, memory stable`, async () => {
  await openLab(page, browser.url);
  const { failures, summary } = await soak(page, SHORT_RUN);
  console.log(`# ${summary}`);
  assert.deepEqual(failures, []);
});
