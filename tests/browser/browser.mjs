// Shared set-up of the browser suites: the static server of scripts/serve.mjs (with its strict
// CSP) and Debian's Chromium driven by playwright-core, in a fresh profile per launch. Every
// page records console errors, page errors and CSP violations, for the tests to assert on.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { startServer } from '../../scripts/serve.mjs';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = fileURLToPath(new URL('../../artifacts/screenshots/', import.meta.url));

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Starts the server and a browser; returns { url, context, newPage, problems, close }. */
export async function launch({ viewport = { width: 1280, height: 900 }, colorScheme = 'light' } = {}) {
  const server = await startServer({ port: 0 });
  const url = `http://127.0.0.1:${server.address().port}/`;
  const profile = await mkdtemp(join(tmpdir(), 'attention-lab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    viewport,
    colorScheme,
  });
  /** Console errors, uncaught exceptions and CSP violations seen on any page so far. */
  const problems = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  context.on('page', (page) => watch(page, problems));
  for (const page of context.pages()) watch(page, problems);
  return {
    url,
    context,
    problems,
    async newPage() {
      const page = await context.newPage();
      return page;
    },
    async close() {
      await context.close();
      await new Promise((resolve) => server.close(resolve));
      await rm(profile, { recursive: true, force: true });
    },
  };
}

function watch(page, problems) {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text().slice(0, 300)}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    if (!reason.includes('ERR_ABORTED')) problems.push(`request failed: ${request.url()} ${reason}`);
  });
}

/** Opens the demo page and waits until the lab has drawn its first result. */
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

export async function ensureDir(dir) {
  await mkdir(dir, { recursive: true });
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
