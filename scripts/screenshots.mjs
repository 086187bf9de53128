// Pictures of every page for a person to look at, and for before/after comparisons: the lab
// (default, and 64 tokens on Random at d_k = 1024 with the causal mask, focused and hovered),
// index.html whole with every instrument drawn, lesson.html and each instrument, the training
// experiment after a default run, embed.html (the lab alone, and view=variance) — at 1440 and
// 390 px (a phone), light and dark. Not part of npm test: pictures are looked at, not asserted.
//
//   npm run screenshots                              # → artifacts/screenshots/
//   npm run screenshots -- --out DIR --root WEB      # another copy of web/ (e.g. an older commit)
//   npm run screenshots -- --compare DIR             # and the pixel differences against DIR's pictures
//   npm run screenshots -- --readme                  # also docs/screenshot.png, training.png and model.png, the README's pictures
import { mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { SENTENCE_64, launchChromium } from './chromium.mjs';
import { diffImages } from './image-diff.mjs';
import { SITE_ROOT, startServer } from './serve.mjs';

const { values: options } = parseArgs({
  options: {
    out: { type: 'string', default: fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url)) },
    root: { type: 'string', default: SITE_ROOT },
    compare: { type: 'string' },
    readme: { type: 'boolean', default: false },
  },
});
const OUT = resolve(options.out);
const README_PICTURE = fileURLToPath(new URL('../docs/screenshot.png', import.meta.url));
const README_TRAINING = fileURLToPath(new URL('../docs/training.png', import.meta.url));
const README_MODEL = fileURLToPath(new URL('../docs/model.png', import.meta.url));
const INSTRUMENTS = ['step-by-step', 'attention-output', 'multi-head-view', 'variance-lab', 'saturation-plot', 'gradient-view', 'overflow-demo'];
const WIDTHS = [1440, 390];
const SCHEMES = ['light', 'dark'];

await mkdir(OUT, { recursive: true });
const server = await startServer({ port: 0, root: resolve(options.root) });
const url = `http://127.0.0.1:${server.address().port}/`;
const chromium = await launchChromium();
const taken = [];
const shot = async (target, name, extra = {}) => {
  const path = join(OUT, `${name}.png`);
  if (extra.fullPage) {
    // A page taller than the window is drawn into a window as tall as the page: the lab's lower
    // cards are content-visibility: auto, and Chromium skips their contents off screen even in a
    // full-page capture (they came out as empty cards).
    const viewport = target.viewportSize();
    const height = await target.evaluate(() => document.documentElement.scrollHeight);
    await target.setViewportSize({ width: viewport.width, height });
    await target.waitForFunction(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))));
    await target.screenshot({ path, ...extra });
    await target.setViewportSize(viewport);
  } else {
    await target.screenshot({ path, ...extra });
  }
  taken.push(path);
};

async function openLab(page) {
  await page.goto(url);
  await page.locator('attention-lab').evaluate((lab) => lab.ready);
  await page.waitForTimeout(400); // fonts and the parts drawn after the first frame
}

// The whole element in the viewport (a viewport as tall as the page): parts with
// content-visibility: auto are drawn as a reader who scrolls to them sees them.
async function shootWhole(page, locator, name, width) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await page.waitForTimeout(300);
  await shot(locator, name);
  await page.setViewportSize({ width, height: 900 });
}

// Every instrument of the page scrolled near and drawn with the latest state, each prediction
// answered by "Just show me" (until then an instrument is veiled: blurred). The asides (several
// heads, the max subtraction) opened, or left closed as a reader first meets them (their
// instruments then undrawn).
async function drawLesson(page, { asides = true } = {}) {
  await page.evaluate(() => customElements.whenDefined('attention-lesson'));
  if (asides) await page.evaluate(() => document.querySelectorAll('attention-lesson details.story-aside').forEach((d) => (d.open = true)));
  for (const tag of INSTRUMENTS) if (asides || !['multi-head-view', 'overflow-demo'].includes(tag)) await page.locator(tag).scrollIntoViewIfNeeded();
  await page.evaluate(() => {
    for (const predict of document.querySelectorAll('attention-lesson lesson-predict')) predict.shadowRoot?.querySelector('button.skip')?.click();
  });
  await page.waitForFunction(() => document.querySelector('attention-lesson')?.pending === false, null, { timeout: 30000 });
  await page.evaluate(() => scrollTo(0, 0));
}

// The trained model's section (index.html) brought near, and drawn: its eight heads' thumbnails.
async function drawModel(page) {
  await page.locator('#model').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('model-view')?.shadowRoot?.querySelectorAll('.thumb').length === 8, null, { timeout: 30000 });
}

// The trained model's section (index.html) on `sentence`, its heads drawn, layer `layer` head `head` open.
async function openModel(page, { sentence = 'The cat sat on the', layer = 1, head = 4 } = {}) {
  await openLab(page);
  await page.locator('attention-lab').evaluate((lab, s) => lab.set({ sentence: s }), sentence);
  await drawLesson(page); // the sections above draw first: the model's section then stays where it is
  await drawModel(page);
  await page.locator('model-view').evaluate((el, [l, h]) => el.shadowRoot.querySelector(`[data-layer="${l}"][data-head="${h}"]`).click(), [layer, head]);
  await page.waitForFunction(([l, h]) => document.querySelector('model-view').shadowRoot.querySelector('.opened h3')?.textContent.includes(`${l}, head ${h}`), [layer, head]);
  await page.waitForTimeout(300);
}

// The training experiment (index.html) after Train with the defaults, drawn to its last step.
async function trainDefault(page) {
  await openLab(page);
  await page.locator('#training').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('training-experiment')?.session?.state.runs, null, { timeout: 30000 });
  await page.locator('training-experiment').getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('training-experiment').session.state.phase === 'done', null, { timeout: 60000 });
  await page.waitForTimeout(300); // the frame that draws the last state
}

try {
  for (const colorScheme of SCHEMES) {
    for (const width of WIDTHS) {
      const page = await chromium.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      const tag = `${width}-${colorScheme}`;

      // the lab: default, then 64 tokens on Random, d_k = 1024, causal; focused and hovered
      await openLab(page);
      await shootWhole(page, page.locator('attention-lab'), `lab-default-${tag}`, width);
      await page.locator('attention-lab').evaluate(async (lab, sentence) => {
        const changed = new Promise((done) => lab.addEventListener('change', done, { once: true }));
        lab.set({ sentence, projection: 'random', dk: 1024, causal: true });
        await changed;
      }, SENTENCE_64);
      await page.waitForTimeout(400);
      await shootWhole(page, page.locator('attention-lab'), `lab-64-causal-${tag}`, width);
      const stage = page.locator('attention-lab attention-heatmap .stage');
      await stage.focus();
      for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
      const box = await stage.boundingBox();
      await page.mouse.move(box.x + Math.min(200, box.width / 2), box.y + 400);
      await page.waitForTimeout(300);
      await shot(page.locator('attention-lab attention-heatmap'), `lab-64-causal-focus-${tag}`);

      // index.html whole as a reader first meets it (the asides closed), every instrument on the
      // path and the trained model drawn; its lesson section alone
      await openLab(page);
      await drawLesson(page, { asides: false });
      await drawModel(page);
      await page.evaluate(() => scrollTo(0, 0));
      await shot(page, `index-${tag}`, { fullPage: true });
      await shot(page.locator('#why'), `index-why-${tag}`);

      // lesson.html and each instrument
      await page.goto(`${url}lesson.html`);
      await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 30000 });
      await drawLesson(page);
      await shot(page, `lesson-${tag}`, { fullPage: true });
      for (const instrument of INSTRUMENTS) await shot(page.locator(instrument), `${instrument}-${tag}`);

      await trainDefault(page);
      await shot(page.locator('#training'), `training-${tag}`);

      await openModel(page);
      await shootWhole(page, page.locator('#model'), `model-${tag}`, width);

      // embed.html as an iframe shows it: the lab alone (a link's settings), and one instrument
      await page.goto(`${url}embed.html?sentence=She+bought+fresh+bread+and+milk&projection=random&dk=16`);
      await page.locator('attention-lab').evaluate((lab) => lab.ready);
      await page.waitForFunction(() => customElements.get('lab-share'));
      await page.waitForTimeout(400);
      await shootWhole(page, page.locator('main'), `embed-${tag}`, width);
      await page.goto(`${url}embed.html?view=variance&projection=random&dk=256`);
      await page.waitForFunction(() => document.querySelector('variance-lab')?.shadowRoot?.querySelector('svg'), null, { timeout: 30000 });
      await page.waitForTimeout(400);
      await shootWhole(page, page.locator('main'), `embed-variance-${tag}`, width);
      await page.close();
    }
  }

  if (options.readme) {
    // the README's picture: the lab at 1280 px, light, tokens to bars in one view
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 1280, height: 1130 });
    await openLab(page);
    const box = await page.locator('attention-lab').boundingBox();
    await page.evaluate((y) => scrollTo(0, y), Math.max(0, box.y - 16));
    await page.screenshot({ path: README_PICTURE });
    console.log(`wrote ${README_PICTURE}`);
    // the training experiment at 1280 px, light: from its heading to its plots
    await trainDefault(page);
    const clip = await page.evaluate(() => {
      const top = document.querySelector('#training').getBoundingClientRect().top;
      const plots = document.querySelector('training-experiment').shadowRoot.querySelector('.plots').getBoundingClientRect();
      return { x: 0, y: top + scrollY - 12, width: document.documentElement.clientWidth, height: plots.bottom - top + 28 };
    });
    await page.screenshot({ path: README_TRAINING, clip, fullPage: true });
    console.log(`wrote ${README_TRAINING}`);
    // the trained model at 1280 px, light: from its heading to the next word's bars
    await openModel(page);
    const modelClip = await page.evaluate(() => {
      const top = document.querySelector('#model').getBoundingClientRect().top;
      const bars = document.querySelector('model-view').shadowRoot.querySelector('.next svg').getBoundingClientRect();
      return { x: 0, y: top + scrollY - 12, width: document.documentElement.clientWidth, height: bars.bottom - top + 28 };
    });
    await page.screenshot({ path: README_MODEL, clip: modelClip, fullPage: true });
    console.log(`wrote ${README_MODEL}`);
    await page.close();
  }
  console.log(`${taken.length} pictures in ${OUT}`);

  if (options.compare) {
    const before = new Set(await readdir(options.compare));
    const page = await chromium.context.newPage();
    for (const path of taken) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (!before.has(name)) {
        console.log(`${name}: not in ${options.compare}`);
        continue;
      }
      const diff = await diffImages(page, join(options.compare, name), path, join(OUT, `diff-${name}`));
      console.log(`${name}: ${diff.sizes ? `sizes differ ${JSON.stringify(diff.sizes)}` : `${diff.differing} pixels differ (max ${diff.maxLevel}/255)`}`);
    }
  }
} finally {
  await chromium.close();
  server.close();
}
