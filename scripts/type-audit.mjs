// How small the text of index.html and lesson.html is drawn, at 390 and 1440 px with every
// instrument drawn (and the trained model's heads): each visible text run measured as a reader
// sees it (scripts/type-walk.mjs), and those under the type scale's floor printed, grouped.
// Not part of npm test (tests/browser/type-scale.test.mjs holds index.html at 390 px to it).
//
//   node scripts/type-audit.mjs            # counts and the groups under the floor
//   node scripts/type-audit.mjs --all      # every group, also those at or above it
//   node scripts/type-audit.mjs --shots DIR  # and pictures of index.html (its top, the saturation
//                                          # plot, the gradient view, the model section with a head
//                                          # open) at 390 and 1440 px, light and dark, into DIR
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { launchChromium } from './chromium.mjs';
import { SITE_ROOT, startServer } from './serve.mjs';
import { TYPE_FLOOR, groupRuns, showEveryInstrument, underFloor, walkText } from './type-walk.mjs';

const { values: options } = parseArgs({ options: { all: { type: 'boolean', default: false }, shots: { type: 'string' } } });

// The element whole, in a window as tall as the page (parts drawn only near the viewport are drawn).
async function shootWhole(page, selector, path) {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: viewport.width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
  await page.waitForFunction(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))));
  await page.locator(selector).screenshot({ path });
  await page.setViewportSize(viewport);
}

async function pictures(dir) {
  await mkdir(dir, { recursive: true });
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [390, 1440]) {
      const page = await chromium.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await page.goto(url);
      await page.locator('attention-lab').evaluate((lab) => lab.ready);
      await showEveryInstrument(page);
      const tag = `${width}-${colorScheme}`;
      await page.screenshot({ path: join(dir, `top-${tag}.png`) });
      await shootWhole(page, 'saturation-plot', join(dir, `saturation-${tag}.png`));
      await shootWhole(page, 'gradient-view', join(dir, `gradient-${tag}.png`));
      await page.locator('model-view').evaluate((el) => el.shadowRoot.querySelector('[data-layer="1"][data-head="3"]').click());
      await page.waitForFunction(() => document.querySelector('model-view').shadowRoot.querySelector('.opened h3')?.textContent.includes('1, head 3'));
      await shootWhole(page, '#model', join(dir, `model-${tag}.png`));
      await page.close();
    }
  }
  console.log(`\npictures in ${dir}`);
}

const server = await startServer({ port: 0, root: SITE_ROOT });
const url = `http://127.0.0.1:${server.address().port}/`;
const chromium = await launchChromium();
try {
  console.log(`floor (px): ${Object.entries(TYPE_FLOOR).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  for (const file of ['index.html', 'lesson.html']) {
    for (const width of [390, 1440]) {
      const page = await chromium.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url + file);
      if (file === 'index.html') await page.locator('attention-lab').evaluate((lab) => lab.ready);
      else await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
      await showEveryInstrument(page);
      const runs = await page.evaluate(walkText);
      const under = underFloor(runs);
      const byKind = (list) => Object.keys(TYPE_FLOOR).map((k) => `${k} ${list.filter((r) => r.kind === k).length}`).join(', ');
      console.log(`\n${file} at ${width} px: ${runs.length} runs (${byKind(runs)}); under the floor: ${under.length} (${byKind(under)})`);
      for (const g of groupRuns(options.all ? runs : under)) console.log(`  ${g.kind.padEnd(7)} ${String(g.px).padStart(5)} px ×${String(g.count).padEnd(4)} ${g.where}  “${g.sample}”`);
      await page.close();
    }
  }
  if (options.shots) await pictures(resolve(options.shots));
} finally {
  await chromium.close();
  server.close();
}
