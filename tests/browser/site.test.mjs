// `npm run site`'s folder works from a plain static server under a path prefix: the folder built
// (scripts/build-site.mjs) into a temporary directory, served by a few lines of node:http below
// (no policy, no compression, no CORS: none of scripts/serve.mjs) at /some/prefix/, and every page
// opened in Chromium: no failed request, no console or page error, and each page ready — the lab
// drawn (its bars), the lesson's first state drawn, the teacher's key computed, the model's view on
// embed.html?view=model.
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';

import { launchChromium } from '../../scripts/chromium.mjs';
import { buildSite } from '../../scripts/build-site.mjs';

const PREFIX = '/some/prefix/';
// what any static host knows of file types; the rest, .wasm included, goes out as bytes
// (docs/hosting.md: a .wasm may come with any content type)
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.txt': 'text/plain' };

let dir;
let server;
let origin;
let chromium;
const problems = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'attention-lab-site-'));
  await buildSite(dir);
  server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.startsWith(PREFIX) ? normalize(join(dir, path.slice(PREFIX.length))) : null;
    const info = file?.startsWith(dir) ? await stat(file).catch(() => null) : null;
    if (!info?.isFile()) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  chromium = await launchChromium();
  chromium.context.on('page', (page) => {
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text().slice(0, 300)}`));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
    page.on('requestfailed', (r) => !r.failure()?.errorText.includes('ERR_ABORTED') && problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  });
});

after(async () => {
  await chromium?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the folder: the pages, both cores, the word vectors, the model, and _headers with the policy and wasm type', async () => {
  for (const file of ['index.html', 'lesson.html', 'teacher.html', 'embed.html', 'embed.js', 'components/attention-lab.js', 'build/attention-simd.wasm', 'build/attention-scalar.wasm', 'assets/glove/first-view.bin', 'assets/model/scaled.weights', '.nojekyll']) {
    assert.ok(await stat(join(dir, file)).catch(() => null), `${file} is in the site`);
  }
  for (const file of ['build/attention-widget.js', 'core/engine.d.ts', 'assets/README.md']) {
    assert.equal(await stat(join(dir, file)).catch(() => null), null, `${file} is not for pages`);
  }
  const headers = await readFile(join(dir, '_headers'), 'utf8');
  assert.match(headers, /^\/\*\n {2}Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'$/m);
  assert.match(headers, /^\/build\/attention-simd\.wasm\n {2}Content-Type: application\/wasm$/m);
  // relative paths only: a page naming a root path would leave the prefix
  for (const page of ['index.html', 'lesson.html', 'teacher.html', 'embed.html']) {
    assert.doesNotMatch(await readFile(join(dir, page), 'utf8'), /(src|href)="\//, `${page} names no root path`);
  }
});

const pages = [
  ['index.html', async (page) => {
    await page.locator('attention-lab').evaluate((lab) => lab.ready);
    await page.locator('attention-lab #bars').getByRole('meter').first().waitFor();
  }],
  ['lesson.html', (page) => page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 })],
  // the teacher's page: its answer key computed
  ['teacher.html', (page) => page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 })],
  ['embed.html?sentence=A+dog+chased+the+red+ball', async (page) => {
    await page.locator('attention-lab').evaluate((lab) => lab.ready);
    assert.equal(await page.locator('attention-lab #bars').getByRole('meter').count(), 6);
  }],
  // the trained model loaded (its weights from assets/model/): the next word's bars drawn
  ['embed.html?view=model', (page) => page.waitForFunction(() => [...(document.querySelector('model-view')?.shadowRoot?.querySelectorAll('probability-bars') ?? [])]
    .some((bars) => bars.shadowRoot?.querySelector('[role=meter]')), null, { timeout: 60000 })],
];

for (const [path, ready] of pages) {
  test(`${PREFIX}${path} opens ready, with no failed request`, async () => {
    const page = await chromium.context.newPage();
    page.setDefaultTimeout(60000);
    try {
      await page.goto(`${origin}${PREFIX}${path}`);
      await ready(page);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(problems.splice(0), []);
    } finally {
      await page.close();
    }
  });
}
