// axe-core on every page, in every state a learner meets, light and dark, at 1440 and 360 px:
// zero violations of any impact (issue #14), and no page wider than its window (no sideways
// scrolling; at 320 px: tests/browser/keyboard.test.mjs). Pages: index.html (the lab and the lesson),
// lesson.html (the lesson alone), embed.html when the site has one, and a lesson page that a
// teacher writes with two labs (served here, under the site's policy). States: the default,
// words induced and unknown, the story's unscaled d_k = 1024, pasted vectors, and an error (a
// paste that does not parse, and the causal mask on pasted Q and K of different lengths). Each
// page is loaded once; every state is set on it, then themes and widths, and axe runs once for
// each, after every instrument has drawn that state. The default state is checked in two pairs
// of theme and width (light at 1440, dark at 360: both themes, both widths); every other state in
// one pair, the four pairs taken in turn from state to state. Contrast follows the theme and
// layout the width, and a state's own markup (an alert, a note, a pasted label) is the same in
// every pair; a fault of one state in one pair alone is what this leaves out. embed.html is the
// lab of the two-labs page with a page of its own: its default and its error state (on the pasted example) are checked.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CONTENT_SECURITY_POLICY } from '../../scripts/serve.mjs';
import { AXE_OWN_PROBLEM, axeViolations, describeViolations } from './axe.mjs';
import { openAsides, until, useBrowser } from './browser.mjs';

const THEMES = ['light', 'dark'];
const WIDTHS = [1440, 360];

// A teacher's page: two labs, each followed by its lesson, and no style sheet or colour scheme
// of its own (a white page in both themes: the lab must stay readable on it).
const TWO_LABS = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Attention, twice</title>
  <script type="module" src="./components/attention-lab.js"></script>
  <script type="module" src="./components/lesson/attention-lesson.js"></script>
</head>
<body>
  <main>
    <h1>Attention, twice</h1>
    <h2>The demo sentence</h2>
    <attention-lab id="first"></attention-lab>
    <attention-lesson for="first" heading-level="3"></attention-lesson>
    <h2>Another sentence, on Random</h2>
    <attention-lab id="second" sentence="A dog barked at the mailman" projection="random" dk="256"></attention-lab>
    <attention-lesson for="second" heading-level="3"></attention-lesson>
  </main>
</body>
</html>`;

let browser;
let page;

useBrowser(
  { viewport: { width: 1440, height: 900 } },
  async (opened) => {
    ({ browser, page } = opened);
    await page.route('**/two-labs.html', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY }, body: TWO_LABS }),
    );
  },
  (problem) => AXE_OWN_PROBLEM.test(problem),
);

// Every lab's settings, then until each has drawn them.
async function setLabs(patch) {
  await page.evaluate((p) => {
    for (const lab of document.querySelectorAll('attention-lab')) lab.set(p);
  }, patch);
  await until(
    () => page.evaluate((p) => [...document.querySelectorAll('attention-lab')].every((lab) => Object.entries(p).every(([k, v]) => lab.state?.settings[k] === v)), patch),
    Boolean,
    { what: `the labs at ${JSON.stringify(patch)}`, timeout: 15000 },
  );
}

// Each lab's "Bring your own vectors": opened, the example used (2 queries, 3 keys, 3-d).
async function pasteExample() {
  await page.evaluate(async () => {
    await customElements.whenDefined('vector-paste');
    for (const lab of document.querySelectorAll('attention-lab')) {
      const paste = lab.shadowRoot.querySelector('vector-paste');
      paste.open();
      paste.shadowRoot.querySelector('[data-action="example"]').click();
    }
  });
  await until(() => page.evaluate(() => [...document.querySelectorAll('attention-lab')].every((lab) => lab.state?.projection === 'pasted')), Boolean, {
    what: 'the pasted vectors in use',
  });
}

// Errors shown as a learner makes them: Q that does not parse (the panel's alert; the lab keeps
// the previous vectors), and the causal mask on 2 queries × 3 keys (the lab's alert).
async function showErrors() {
  await page.evaluate(() => {
    for (const lab of document.querySelectorAll('attention-lab')) {
      const paste = lab.shadowRoot.querySelector('vector-paste');
      paste.value = { q: 'cat, 1, zero, 0.5' };
      paste.apply();
      lab.set({ causal: true });
    }
  });
  await until(
    () => page.evaluate(() => [...document.querySelectorAll('attention-lab')].every((lab) => lab.shadowRoot.querySelector('.lab > .alert').textContent !== '')),
    Boolean,
    { what: 'the lab’s alert' },
  );
}

// lesson.html's own bar: d_k → 1024 and scaling off; or an empty sentence.
async function lessonControls({ dk, scaled, sentence }) {
  await page.evaluate((c) => {
    const $ = (id) => document.getElementById(id);
    if (c.dk !== undefined) $('dk').value = String(Math.log2(c.dk));
    if (c.scaled !== undefined) $('scaled').checked = c.scaled;
    if (c.sentence !== undefined) $('sentence').value = c.sentence;
    $('controls').dispatchEvent(new Event('input', { bubbles: true }));
  }, { dk, scaled, sentence });
}

// Every instrument draws the latest state. The first time, each section is brought into view and
// drawn in turn, as a reader scrolling down would; after that the lessons draw every instrument
// (loading="eager"), which takes less time than scrolling again for each state.
async function drawEverything() {
  const eager = await page.evaluate(() => [...document.querySelectorAll('attention-lesson')].every((l) => l.getAttribute('loading') === 'eager'));
  const settled = () => page.waitForFunction(() => [...document.querySelectorAll('attention-lesson')].every((lesson) => !lesson.pending), null, { timeout: 30000 });
  if (!eager) {
    const sections = await page.locator('attention-lesson section.instrument').count();
    for (let i = 0; i < sections; i++) {
      await page.locator('attention-lesson section.instrument').nth(i).scrollIntoViewIfNeeded();
      await settled();
    }
    await page.evaluate(() => {
      scrollTo(0, 0);
      for (const lesson of document.querySelectorAll('attention-lesson')) lesson.setAttribute('loading', 'eager');
    });
  }
  // a new state is taken up once the lab's states stop coming (150 ms), then drawn in idle time
  await page.waitForTimeout(250);
  await settled();
  // the heatmap's accessible table follows once input settles (150 ms, then idle time)
  await page.waitForTimeout(250);
}

// Two frames and a moment: a new theme or width is drawn (each element redraws itself for them).
const redrawn = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 200)))));

// The pairs of theme and width each state is checked in (see the top of this file).
const ALL_PAIRS = THEMES.flatMap((theme) => WIDTHS.map((width) => [theme, width]));
const DEFAULT_PAIRS = [ALL_PAIRS[0], ALL_PAIRS[3]]; // light 1440, dark 360
const pairsFor = (k) => (k === 0 ? DEFAULT_PAIRS : [ALL_PAIRS[(k - 1) % ALL_PAIRS.length]]);

// axe in the themes and widths of the state the page is in (every instrument has drawn it).
async function themesAndWidths(name, state, pairs, runs) {
  await drawEverything();
  for (const [theme, width] of pairs) {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width, height: 900 });
    await redrawn();
    const started = performance.now();
    runs.push({ where: `${name}, ${state}, ${theme}, ${width} px`, violations: await axeViolations(page), ms: performance.now() - started });
    // and nothing wider than the window: the page never scrolls sideways
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(sideways <= 0, `${name}, ${state}, ${theme}, ${width} px: the page scrolls sideways by ${sideways} px`);
  }
}

async function checkPage(name, path, states, ready) {
  const started = performance.now();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(browser.url + path);
  await ready();
  const runs = [];
  for (const [k, [state, apply]] of Object.entries(states).entries()) {
    await apply();
    await themesAndWidths(name, state, pairsFor(k), runs);
  }
  const nodes = runs.reduce((n, run) => n + run.violations.reduce((m, v) => m + v.nodes.length, 0), 0);
  const axeSeconds = runs.reduce((total, run) => total + run.ms, 0) / 1000;
  console.log(
    `# axe ${name}: ${runs.length} runs (${Object.keys(states).join(', ')}; the default in light at 1440 and dark at 360 px, the others in one pair each), ${nodes} violating nodes; ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s, of which axe ${axeSeconds.toFixed(1)} s`,
  );
  assert.equal(nodes, 0, `axe violations:\n${describeViolations(runs)}`);
}

const labsReady = () => page.waitForFunction(() => Promise.all([...document.querySelectorAll('attention-lab')].map((lab) => lab.ready)).then(() => true));

const LAB_STATES = {
  default: async () => {},
  // chips marked not in vocabulary (?: no known word within 5 tokens), made from the sentence (†)
  // and induced (*), and the notes that name them. Seven tokens: with 14, the second lab's probe
  // card, off screen, keeps the height it had when last drawn on screen (content-visibility: auto)
  // while its new rows overflow it onto the white page, and axe reads them as light text on white;
  // scrolled into view the card grows to fit, and nothing of it shows off screen.
  'induced and unknown words': () => setLabs({ sentence: 'qwfpgj zorblax blorfx snarxt wibblx frumx i' }),
  'unscaled d_k = 1024': () => setLabs({ projection: 'random', dk: 1024, scaled: false }),
  pasted: pasteExample,
  error: showErrors,
};

// The whole page scrolled, as a reader does after unscaling at the largest d_k: the training
// experiment starts its worker when it comes near and draws each run's heatmap under a heading
// of its own (an h4 straight after the section's h2 was a heading-order violation).
async function scrollWholePage() {
  await setLabs({ projection: 'random', dk: 1024, scaled: false });
  await openAsides(page); // what they hold is checked too
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 800) {
    await page.evaluate((top) => scrollTo(0, top), y);
    await page.waitForTimeout(60);
  }
  await page.locator('training-experiment').scrollIntoViewIfNeeded();
  await until(() => page.evaluate(() => document.querySelector('training-experiment')?.shadowRoot?.querySelector('figure[data-run="scaled"] :is(h3, h4, h5)') !== null), Boolean, {
    what: 'the training experiment’s heatmaps',
    timeout: 20000,
  });
}

const INDEX_STATES = { ...LAB_STATES, 'unscaled d_k = 1024, the whole page scrolled': scrollWholePage };

test('axe: index.html, every state, light and dark, 1440 and 360 px', async () => {
  await checkPage('index.html', '', INDEX_STATES, labsReady);
});

test('axe: a lesson page with two labs, every state, light and dark, 1440 and 360 px', async () => {
  await checkPage('two labs', 'two-labs.html', LAB_STATES, labsReady);
});

test('axe: lesson.html, every state, light and dark, 1440 and 360 px', async () => {
  await checkPage(
    'lesson.html',
    'lesson.html',
    {
      default: async () => {},
      'unscaled d_k = 1024': () => lessonControls({ dk: 1024, scaled: false }),
      error: () => lessonControls({ sentence: '' }),
      'a teacher choosing steps': () => page.locator('#choose-steps summary').click(),
    },
    () => page.waitForFunction(() => document.documentElement.dataset.ready === 'true'),
  );
});

test('axe: embed.html, the default and an error, light and dark, 1440 and 360 px', async () => {
  await checkPage('embed.html', 'embed.html', { default: LAB_STATES.default, error: () => pasteExample().then(showErrors) }, labsReady);
});
