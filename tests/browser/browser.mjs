// Shared set-up of the browser suites: the static server of scripts/serve.mjs (with its strict
// CSP) and Chromium as scripts/chromium.mjs launches it, in a fresh profile per launch. Every
// page records console errors, page errors, failed requests and CSP violations; each test
// asserts its own (checkEachTest), so a test holds alone, in any order.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before } from 'node:test';

import { launchChromium } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';

export { SENTENCE_64 } from '../../scripts/chromium.mjs';

/** Starts the server and a browser; returns { url, context, newPage, takeProblems, close }. */
export async function launch({ viewport = { width: 1280, height: 900 }, colorScheme = 'light' } = {}) {
  const server = await startServer({ port: 0 });
  const url = `http://127.0.0.1:${server.address().port}/`;
  const chromium = await launchChromium({ viewport, colorScheme });
  const { context } = chromium;
  // Console errors, uncaught exceptions, failed requests and CSP violations not yet taken.
  let problems = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  const record = (problem) => problems.push(problem);
  context.on('page', (page) => watch(page, record));
  for (const page of context.pages()) watch(page, record);
  return {
    url,
    context,
    newPage: () => context.newPage(),
    /** The problems seen since the last call (on any page of this browser), and forgets them. */
    takeProblems() {
      const taken = problems;
      problems = [];
      return taken;
    },
    async close() {
      await chromium.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A test file's browser and page: launched (with `options`, as launch's) before its first test,
 * closed after its last, and each test checked with checkEachTest(…, `allowed`). `ready`
 * receives { browser, page } once they are open, and may set up more (awaited before the tests).
 */
export function useBrowser(options, ready, allowed) {
  let browser;
  before(async () => {
    browser = await launch(options);
    await ready({ browser, page: await browser.newPage() });
  });
  after(() => browser?.close());
  checkEachTest(() => browser, allowed);
}

/**
 * A test file's browser and a site of its own on another origin than the lab's
 * (http://localhost:<port>, the lab at 127.0.0.1): before the first test `build(root, browser)`
 * fills a fresh directory and returns { policy, dir }, the site's policy and the directory to
 * serve (root unless given); after the last test the browser, the site and the directory go, and
 * each test is checked with checkEachTest. Returns the object that then holds { browser, page,
 * origin } (page: one page, 20 s default timeout). With `skip` nothing is set up, for a file
 * whose tests are all skipped.
 */
export function useSiteElsewhere({ viewport, skip = false }, build) {
  const site = {};
  let server;
  let root;
  before(async () => {
    if (skip) return;
    site.browser = await launch({ viewport });
    root = await mkdtemp(join(tmpdir(), 'attention-lab-site-'));
    const { policy, dir = root } = await build(root, site.browser);
    server = await startServer({ port: 0, root: dir, policy });
    site.origin = `http://localhost:${server.address().port}`;
    site.page = await site.browser.newPage();
    site.page.setDefaultTimeout(20000);
  });
  after(async () => {
    await site.browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
    if (root) await rm(root, { recursive: true, force: true });
  });
  checkEachTest(() => site.browser);
  return site;
}

/**
 * After each test of the file: no console error, page error, failed request or CSP violation
 * happened during it. `getBrowser` returns the file's browser (launched in `before`);
 * `allowed(problem)` may excuse problems a test causes on purpose.
 */
export function checkEachTest(getBrowser, allowed = () => false) {
  afterEach(() => {
    const browser = getBrowser();
    if (!browser) return;
    assert.deepEqual(browser.takeProblems().filter((problem) => !allowed(problem)), [], 'console errors, page errors, failed requests or CSP violations');
  });
}

function watch(page, record) {
  page.on('console', (message) => {
    if (message.type() === 'error') record(`console error: ${message.text().slice(0, 300)}`);
  });
  page.on('pageerror', (error) => record(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) record(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    if (!reason.includes('ERR_ABORTED')) record(`request failed: ${request.url()} ${reason}`);
  });
}

/** Opens the demo page and waits until the lab has drawn its first result. */
/**
 * Has the page's <attention-lesson> draw every instrument (loading="eager": drawing no longer
 * waits for a section to come near the viewport, which an IntersectionObserver reports a frame
 * late; its asides opened: an instrument in a closed one has no width to draw at) and waits until
 * each has drawn the lab's latest state.
 */
export async function drawWholeLesson(page, { timeout = 30000 } = {}) {
  await page.evaluate(() => customElements.whenDefined('attention-lesson'));
  await page.locator('attention-lesson').evaluate((lesson) => {
    for (const aside of lesson.querySelectorAll('details.story-aside')) aside.open = true;
    lesson.setAttribute('loading', 'eager');
  });
  await page.waitForFunction(() => document.querySelector('attention-lesson').pending === false, null, { timeout });
}

/**
 * Opens every aside of the page (each <details>, in shadow roots too; the lesson's once it has
 * written its sections), as a reader who opens them all.
 */
export function openAsides(page) {
  return page.evaluate(async () => {
    if (document.querySelector('attention-lesson')) await customElements.whenDefined('attention-lesson');
    const open = (root) => {
      for (const details of root.querySelectorAll('details')) details.open = true;
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) open(el.shadowRoot);
    };
    open(document);
  });
}

/** Opens the lab's probe (an aside: closed, its word and bars are not shown). */
export function openProbe(page, lab = 'attention-lab') {
  return page.locator(lab).first().evaluate((el) => {
    el.shadowRoot.querySelector('details.probe').open = true;
  });
}

/**
 * What the page in `page` hinted (preload, modulepreload), loaded as scripts, and fetched before
 * its first result: absolute URLs.
 */
export function firstViewRequests(page) {
  return page.evaluate(() => {
    const first = performance.getEntriesByName('attention-lab:first-result')[0].startTime;
    return {
      hinted: [...document.querySelectorAll('link[rel=modulepreload], link[rel=preload]')].map((link) => link.href),
      scripts: [...document.querySelectorAll('script[src]')].map((script) => script.src),
      fetched: performance.getEntriesByType('resource').filter((e) => e.startTime < first).map((e) => e.name),
    };
  });
}

export async function openLab(page, url) {
  await page.goto(url);
  await page.locator('attention-lab').evaluate((lab) => lab.ready);
  return page.locator('attention-lab');
}

/** Polls `read()` until `accept(value)` holds (or fails with the last value after `timeout` ms). */
export async function until(read, accept, { timeout = 5000, what = 'condition' } = {}) {
  const start = Date.now();
  let value;
  for (;;) {
    value = await read();
    if (accept(value)) return value;
    if (Date.now() - start > timeout) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** [{ name, value, text }] of the meters in a <probability-bars> ('#bars' or '#probe-bars'). */
export function readMeters(page, bars = '#bars') {
  return page.locator(`attention-lab ${bars}`).getByRole('meter').evaluateAll((meters) =>
    meters.map((m) => ({
      name: m.getAttribute('aria-label'),
      value: Number(m.getAttribute('aria-valuenow')),
      text: m.getAttribute('aria-valuetext'),
    })),
  );
}

/** { sum, entropy, max } as shown under a <probability-bars>. */
export function readSummary(page, bars = '#bars') {
  return page.locator(`attention-lab ${bars}`).evaluate((el) => {
    const text = (k) => el.shadowRoot.querySelector(`[data-k="${k}"]`).textContent;
    return { sum: text('sum'), entropy: text('entropy'), max: text('max') };
  });
}
/**
 * A made-up lesson platform on another site than the lab's (http://localhost:<port>, while the
 * lab is served at 127.0.0.1), sending the policy a strict platform would: its own scripts and
 * the lab's, frames from the lab only. `page(path, body, { policy })` writes a lesson page
 * holding `body` and returns its URL; every message such a page receives is kept in window.__messages as
 * { origin, data }. Both sites are on the loopback address, as the browser requires of a plain
 * http page that loads the other's script.
 */
export async function startHost(lab) {
  const labOrigin = new URL(lab).origin;
  const root = await mkdtemp(join(tmpdir(), 'attention-lab-host-'));
  await writeFile(join(root, 'favicon.ico'), ''); // asked for by every page: no 404 in the console
  await writeFile(join(root, 'record.js'), 'window.__messages = []; addEventListener("message", (e) => window.__messages.push({ origin: e.origin, data: e.data }));\n');
  const policy = `default-src 'self'; script-src 'self' ${labOrigin}; frame-src ${labOrigin}; style-src 'self'`;
  const policies = new Map(); // path → a policy of its own
  const server = await startServer({ port: 0, root, policy: (path) => policies.get(path) ?? policy });
  const origin = `http://localhost:${server.address().port}`;
  return {
    origin,
    /** A lesson page at `path` holding `body`; `policy` replaces the platform's for it. */
    async page(path, body, { policy: own } = {}) {
      if (own) policies.set(`/${path}`, own);
      await writeFile(join(root, path), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 3: attention</title>
        <script src="./record.js"></script></head>
        <body><h1>Week 3: attention</h1>${body}<p id="after">After the lab.</p></body></html>\n`);
      return `${origin}/${path}`;
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await rm(root, { recursive: true, force: true });
    },
  };
}
