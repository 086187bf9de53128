// Prints the height of index.html (or another page) with every instrument drawn, every prediction
// skipped and the asides closed, at 390 and 1440 px, with the height of each part:
//   node scripts/page-height.mjs                      index.html at 390 and 1440
//   node scripts/page-height.mjs lesson.html 390      one page at one width
//   node scripts/page-height.mjs index.html 390 --shot out.png   and a full-page screenshot
// The lesson draws its steps as they scroll into view; here it is told to draw them all
// (loading="eager"), so the figure is the height a reader who reached the end has scrolled.
import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';

const args = process.argv.slice(2);
const shotAt = args.indexOf('--shot');
const shot = shotAt >= 0 ? args.splice(shotAt, 2)[1] : null;
const pageName = args.find((a) => a.endsWith('.html')) ?? 'index.html';
const widths = args.filter((a) => /^\d+$/.test(a)).map(Number);

// The parts worth naming: a part smaller than this is folded into its parent's figure.
const MIN_PART = 150;

async function measure(url, width) {
  const chromium = await launchChromium({ viewport: { width, height: 800 } });
  try {
    const page = await chromium.context.newPage();
    await page.goto(url + pageName);
    const hasLesson = await page.evaluate(() => customElements.whenDefined('attention-lesson').then(() => !!document.querySelector('attention-lesson')));
    const lessonReady = () => page.waitForFunction(() => document.querySelector('attention-lesson').pending === false, null, { timeout: 120000 });
    if (hasLesson) {
      await page.locator('attention-lesson').evaluate((lesson) => lesson.setAttribute('loading', 'eager'));
      await lessonReady();
      await page.evaluate(() => {
        for (const p of document.querySelectorAll('attention-lesson lesson-predict')) p.shadowRoot.querySelector('button.skip')?.click();
      });
      await lessonReady();
    }
    if (await page.locator('#model').count()) {
      await page.locator('#model').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector('model-view')?.shadowRoot?.querySelectorAll('.thumb').length === 8, null, { timeout: 120000 });
    }
    await page.evaluate(() => document.fonts.ready);
    const result = await page.evaluate((minPart) => {
      const lines = [];
      const walk = (root, depth) => {
        for (const el of root.children) {
          const height = el.getBoundingClientRect().height;
          if (height < minPart) continue;
          const name = el.tagName.toLowerCase() + (el.id ? `#${el.id}` : '') + (typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : '');
          lines.push(`${'  '.repeat(depth)}${name} ${Math.round(height)}`);
          if (depth < 5) walk(el.shadowRoot ?? el, depth + 1);
        }
      };
      walk(document.body, 1);
      return { total: document.documentElement.scrollHeight, lines };
    }, MIN_PART);
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    return result;
  } finally {
    await chromium.close();
  }
}

const server = await startServer({ port: 0 });
try {
  const url = `http://127.0.0.1:${server.address().port}/`;
  for (const width of widths.length ? widths : [390, 1440]) {
    const { total, lines } = await measure(url, width);
    console.log(`${pageName} at ${width} px: ${total} px`);
    console.log(lines.join('\n'));
  }
} finally {
  server.close();
}
