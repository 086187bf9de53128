// The teacher's page (web/teacher.html) on paper and on screen, for a person to look at: printed
// by Chromium to PDF on A4 and on Letter, and the worksheet alone (what its button prints), in
// English and Norwegian; each PDF page turned into a PNG by pdftoppm (poppler-utils) — or, without
// pdftoppm, the page under print media as one picture per paper width; then screenshots at 1440
// and 390 px, light and dark. Not part of npm test: pictures are looked at
// (tests/browser/teacher.test.mjs asserts what can be asserted).
//
//   node scripts/print-teacher.mjs [--out DIR]      # → artifacts/teacher/
import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';

const { values: options } = parseArgs({ options: { out: { type: 'string', default: fileURLToPath(new URL('../artifacts/teacher/', import.meta.url)) } } });
const OUT = resolve(options.out);
// paper widths at 96 px per inch, for the print-media pictures without pdftoppm
const PAPERS = { A4: 794, Letter: 816 };

const hasPdftoppm = (() => {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

await rm(OUT, { recursive: true, force: true });
await mkdir(OUT, { recursive: true });
const server = await startServer({ port: 0 });
const url = `http://127.0.0.1:${server.address().port}/teacher.html`;
const chromium = await launchChromium();
const written = [];
try {
  const page = await chromium.context.newPage();
  for (const lang of ['en', 'nb']) {
    await page.goto(`${url}?lang=${lang}`);
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
    // the whole page on each paper, then what "Print the worksheet" prints (on A4)
    const prints = [...Object.keys(PAPERS).map((format) => [format, format, '']), ['A4', 'worksheet-A4', 'print-worksheet']];
    for (const [format, label, only] of prints) {
      const width = PAPERS[format];
      const name = `teacher-${lang}-${label}`;
      await page.evaluate((className) => document.body.className = className, only);
      const pdf = join(OUT, `${name}.pdf`);
      await page.pdf({ path: pdf, format, printBackground: true });
      written.push(pdf);
      if (hasPdftoppm) {
        execFileSync('pdftoppm', ['-png', '-r', '60', pdf, join(OUT, name)]);
        written.push(`${join(OUT, name)}-*.png`);
      } else {
        await page.emulateMedia({ media: 'print' });
        await page.setViewportSize({ width, height: 1123 });
        await page.screenshot({ path: join(OUT, `${name}-print.png`), fullPage: true });
        written.push(join(OUT, `${name}-print.png`));
        await page.emulateMedia({ media: 'screen' });
      }
    }
  }
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [1440, 390]) {
      await page.emulateMedia({ colorScheme, media: 'screen' });
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
      const path = join(OUT, `teacher-${width}-${colorScheme}.png`);
      await page.screenshot({ path, fullPage: true });
      written.push(path);
    }
  }
} finally {
  await chromium.close();
  await new Promise((done) => server.close(done));
}
console.log(`wrote ${written.length} files:\n${written.join('\n')}`);
