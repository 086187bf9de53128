// Regenerates docs/screenshot.png, the picture at the top of README.md: the demo page at
// 1280 px in the light theme, scrolled to the lab. Run: node scripts/screenshot.mjs
// (after npm run build). Uses the same server and Chromium set-up as the browser tests.
import { fileURLToPath } from 'node:url';

import { launch, openLab } from '../tests/browser/browser.mjs';

const OUT = fileURLToPath(new URL('../docs/screenshot.png', import.meta.url));

const WIDTH = 1280;
const HEIGHT = 1130; // the lab's tokens, settings, heatmap and bars

const browser = await launch({ viewport: { width: WIDTH, height: HEIGHT }, colorScheme: 'light' });
try {
  const page = await browser.newPage();
  const lab = await openLab(page, browser.url);
  const box = await lab.boundingBox();
  const top = Math.max(0, box.y - 16);
  await page.evaluate((y) => window.scrollTo(0, y), top);
  await page.screenshot({ path: OUT });
  if (browser.problems.length) throw new Error(browser.problems.join('\n'));
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
}
