// Regenerates docs/training.png, the picture of the training experiment in README.md: the demo
// page at 1280 px in the light theme, its section "Does scaling keep learning alive?" after
// Train with the defaults, from the heading to the plots. Run: node scripts/screenshot-training.mjs
// (after npm run build). Uses the same server and Chromium set-up as the browser tests.
import { fileURLToPath } from 'node:url';

import { launch, openLab } from '../tests/browser/browser.mjs';

const OUT = fileURLToPath(new URL('../docs/training.png', import.meta.url));
const WIDTH = 1280;

const browser = await launch({ viewport: { width: WIDTH, height: 1000 }, colorScheme: 'light' });
try {
  const page = await browser.newPage();
  await openLab(page, browser.url);
  await page.locator('#training').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('training-experiment')?.session?.state.runs, null, { timeout: 30000 });
  await page.locator('training-experiment').getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('training-experiment').session.state.phase === 'done', null, { timeout: 60000 });
  await page.waitForTimeout(300); // the frame that draws the last state
  const clip = await page.evaluate(() => {
    const top = document.querySelector('#training').getBoundingClientRect().top;
    const plots = document.querySelector('training-experiment').shadowRoot.querySelector('.plots').getBoundingClientRect();
    return { x: 0, y: top + scrollY - 12, width: document.documentElement.clientWidth, height: plots.bottom - top + 28 };
  });
  await page.screenshot({ path: OUT, clip, fullPage: true });
  if (browser.problems.length) throw new Error(browser.problems.join('\n'));
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
}
