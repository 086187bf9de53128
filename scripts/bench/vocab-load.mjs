// A first visit on a slow network: navigation → first bars painted, with Chromium's network
// throttling at 1.5 Mbit/s and 150 ms round-trip latency (DevTools' emulation: every request
// waits 150 ms, all responses share 187,500 bytes/s), in a fresh profile each time, for the demo
// sentence and for 10-word sentences of common words that are not the demo's. The figures are in
// docs/vocabulary.md.
//
//   node scripts/bench/vocab-load.mjs                          # web/ as built, 3 runs
//   node scripts/bench/vocab-load.mjs --root A/web --root B/web --runs 5   # side by side, interleaved
//   node scripts/bench/vocab-load.mjs --sentence "a b c" --sentence "d e"   # other sentences (and the demo)
//   node scripts/bench/vocab-load.mjs --via url --page embed.html            # a link: embed.html?sentence=…
//   node scripts/bench/vocab-load.mjs --encoding gzip --encoding identity   # served compressed (the default) and not
//
// The page is index.html (or --page) as served by scripts/serve.mjs, with the sentence set as
// the <attention-lab> element's `sentence` attribute (a copy of the root whose other entries are
// links to the real ones), or with --via url in the link (?sentence=…) as a teacher shares it.
// Each visit launches Chromium with a fresh profile and waits until it is idle (browser-idle.mjs)
// before navigating; the time is the frame after the lab's 'attention-lab:first-result' mark
// (first-frame.mjs). Writes artifacts/bench/vocab-load.json.
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { launchChromium } from '../chromium.mjs';
import { SITE_ROOT, startServer } from '../serve.mjs';
import { waitForBrowserIdle } from './browser-idle.mjs';
import { markFirstFrame } from './first-frame.mjs';

const THROTTLE = { offline: false, latency: 150, downloadThroughput: 1_500_000 / 8, uploadThroughput: 1_500_000 / 8 };
const DEMO = 'demo sentence';
const COMMON = 'she bought fresh bread and milk at the corner shop'; // 10 common words, 1 shared with the demo
const TIMEOUT_MS = 60_000;
const OUT = fileURLToPath(new URL('../../artifacts/bench/vocab-load.json', import.meta.url));

const { values: options } = parseArgs({
  options: {
    root: { type: 'string', multiple: true, default: [SITE_ROOT] },
    runs: { type: 'string', default: '3' },
    sentence: { type: 'string', multiple: true, default: [COMMON] },
    via: { type: 'string', default: 'attribute' },
    page: { type: 'string', default: 'index.html' },
    encoding: { type: 'string', multiple: true, default: ['gzip'] },
  },
});
const RUNS = Math.max(1, Number(options.runs));
if (!['attribute', 'url'].includes(options.via)) throw new Error(`--via must be attribute or url, got ${options.via}`);
for (const encoding of options.encoding) if (!['gzip', 'identity'].includes(encoding)) throw new Error(`--encoding must be gzip or identity, got ${encoding}`);

const firstBars = () =>
  new Promise((resolve) => {
    const poll = () => {
      const [frame] = performance.getEntriesByName('bench:first-frame');
      if (frame) resolve(frame.startTime);
      else setTimeout(poll, 20);
    };
    poll();
  });

// A copy of `root` with the sentence in the page's markup: links to every other entry.
async function siteWithSentence(root, sentence) {
  const dir = await mkdtemp(join(tmpdir(), 'attention-lab-vocab-site-'));
  for (const name of await readdir(root)) if (name !== options.page) await symlink(join(root, name), join(dir, name));
  let html = await readFile(join(root, options.page), 'utf8');
  if (sentence !== DEMO && options.via === 'attribute') {
    const tag = '<attention-lab id="lab"';
    if (!html.includes(tag)) throw new Error(`${root}/${options.page} has no ${tag}>`);
    html = html.replace(tag, `${tag} sentence="${sentence.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}"`);
  }
  await writeFile(join(dir, options.page), html);
  return dir;
}

async function firstVisit(url) {
  const chromium = await launchChromium({ viewport: { width: 1440, height: 900 } });
  const { context, profile } = chromium;
  try {
    await context.addInitScript(markFirstFrame);
    await waitForBrowserIdle(profile);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', THROTTLE);
    await page.goto(url, { timeout: TIMEOUT_MS });
    const frameMs = await page.evaluate(firstBars);
    const files = await page.evaluate((before) =>
      performance.getEntriesByType('resource').filter((e) => e.startTime < before).map((e) => ({ path: new URL(e.name).pathname, bytes: e.encodedBodySize })),
    frameMs);
    const tokens = await page.locator('attention-lab').evaluate((lab) => lab.state?.tokens ?? lab.state?.queryLabels ?? null);
    return { frameMs, files, tokens };
  } finally {
    await chromium.close();
  }
}

const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const roots = options.root.map((r) => resolve(r));
  const sentences = [DEMO, ...options.sentence];
  const sites = [];
  for (const root of roots) {
    for (const encoding of options.encoding) {
      for (const sentence of sentences) sites.push({ root, encoding, sentence, dir: await siteWithSentence(root, sentence), visits: [] });
    }
  }
  const servers = await Promise.all(sites.map((site) => startServer({ port: 0, root: site.dir, compress: site.encoding === 'gzip' })));
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const [k, site] of sites.entries()) { // interleaved: every root, encoding and sentence once per run
        const query = site.sentence !== DEMO && options.via === 'url' ? `?${new URLSearchParams({ sentence: site.sentence })}` : '';
        const visit = await firstVisit(`http://127.0.0.1:${servers[k].address().port}/${options.page}${query}`);
        site.visits.push(visit);
        const assets = visit.files.filter((f) => f.path.includes('/assets/'));
        console.error(`run ${run + 1}: ${site.root} (${site.encoding}) "${site.sentence}": ${visit.frameMs.toFixed(0)} ms; ` +
          `before first bars ${visit.files.length} files, ${(visit.files.reduce((t, f) => t + f.bytes, 0) / 1000).toFixed(0)} kB, ` +
          `word vectors ${assets.length} files, ${(assets.reduce((t, f) => t + f.bytes, 0) / 1000).toFixed(1)} kB`);
      }
    }
  } finally {
    await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
    await Promise.all(sites.map((site) => rm(site.dir, { recursive: true, force: true })));
  }
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg().map((x) => Number(x.toFixed(2))) },
    throttle: THROTTLE,
    sites: sites.map(({ root, encoding, sentence, visits }) => ({
      root, encoding, sentence,
      medianMs: median(visits.map((v) => v.frameMs)),
      ms: visits.map((v) => Math.round(v.frameMs)),
      visits,
    })),
  };
  await mkdir(fileURLToPath(new URL('.', `file://${OUT}`)), { recursive: true });
  await writeFile(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`First visit of ${options.page} (sentence by ${options.via}) at 1.5 Mbit/s, 150 ms RTT — ${result.machine.cpus} × ${result.machine.model}, load ${result.machine.loadavg.join(' ')}, ${RUNS} runs\n`);
  console.log('| page | served | sentence | navigation → first bars: median | runs | word-vector files before first bars |');
  console.log('|---|---|---|---|---|---|');
  for (const s of result.sites) {
    const assets = s.visits[0].files.filter((f) => f.path.includes('/assets/'));
    console.log(`| ${s.root} | ${s.encoding} | ${s.sentence} | ${(s.medianMs / 1000).toFixed(2)} s | ${s.ms.map((x) => (x / 1000).toFixed(2)).join(', ')} s | ` +
      `${assets.length}, ${(assets.reduce((t, f) => t + f.bytes, 0) / 1000).toFixed(1)} kB |`);
  }
  console.log(`\nJSON: ${OUT}`);
}

await main();
