// Screenshots of the lab for a before/after look: the default page and 64 tokens on Random at
// d_k = 1024, at 1440 px and 360 px wide. Usage: node scripts/bench/page-screens.mjs PREFIX [ROOT]
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
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const width of [1440, 360]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
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
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
