// Screenshots of the lab for a before/after look: the default page, 64 tokens on Random at
// d_k = 1024 with the causal mask, and the same with the heatmap focused (focus ring, tooltip)
// and a cell hovered, at 1440 px and 360 px wide; the default page also in dark mode.
// Usage: node scripts/bench/page-screens.mjs PREFIX [ROOT]   (compare with page-diff.mjs)
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { SITE_ROOT, startServer } from '../serve.mjs';
// The whole lab in the viewport (a viewport as tall as the page): content-visibility: auto
// parts are drawn as they are for a reader who scrolls to them.
async function shoot(page, width, path) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await page.waitForTimeout(400);
  await page.locator('attention-lab').screenshot({ path });
  await page.setViewportSize({ width, height: 900 });
}
const [prefix = 'shot', root = SITE_ROOT] = process.argv.slice(2);
const out = new URL('../../artifacts/screenshots/', import.meta.url).pathname;
await mkdir(out, { recursive: true });
const server = await startServer({ port: 0, root });
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const width of [1440, 360]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(url);
    await page.locator('attention-lab').evaluate((lab) => lab.ready);
    await page.waitForTimeout(800);
    await shoot(page, width, `${out}${prefix}-default-${width}.png`);
    await page.locator('attention-lab').evaluate(async (lab) => {
      const words = 'the quick brown fox jumps over the lazy dog while a cat sleeps on the warm mat near the door'.split(' ');
      lab.set({ sentence: Array.from({ length: 64 }, (_, i) => words[i % words.length]).join(' '), projection: 'random', dk: 1024, causal: true });
      await new Promise((r) => lab.addEventListener('statechange', r, { once: true }));
    });
    await page.waitForTimeout(800);
    await shoot(page, width, `${out}${prefix}-64-causal-${width}.png`);
    // keyboard focus on the heatmap (ring and tooltip), three rows down and two columns right,
    // and the pointer over another cell (hover ring)
    const stage = page.locator('attention-lab attention-heatmap .stage');
    await stage.focus();
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
    const box = await stage.boundingBox();
    await page.mouse.move(box.x + 200, box.y + 400);
    await page.waitForTimeout(400);
    await page.locator('attention-lab attention-heatmap').screenshot({ path: `${out}${prefix}-64-causal-focus-${width}.png` });
    await page.close();
  }
  const dark = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  await dark.goto(url);
  await dark.locator('attention-lab').evaluate((lab) => lab.ready);
  await dark.waitForTimeout(800);
  await shoot(dark, 1440, `${out}${prefix}-default-dark-1440.png`);
  await dark.close();
} finally {
  await browser.close();
  server.close();
}
