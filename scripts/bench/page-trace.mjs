// per-input breakdown from a devtools.timeline trace of N d_k inputs at 64 tokens
import { chromium } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { startServer } from '../serve.mjs';
const root = process.argv[2] ?? '/work/wt/latency/web';
const N = 20;
const OUT = new URL('../../artifacts/bench/trace.json', import.meta.url).pathname;
const server = await startServer({ port: 0, root });
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(url);
await page.locator('attention-lab').evaluate(async (lab) => { await lab.ready;
  const words = 'the quick brown fox jumps over the lazy dog while a cat sleeps on the warm mat near the door'.split(' ');
  lab.set({ sentence: Array.from({ length: 64 }, (_, i) => words[i % words.length]).join(' '), projection: 'random', dk: 64 });
  await new Promise((r) => lab.addEventListener('statechange', r, { once: true })); });
await page.waitForTimeout(1500);
const slider = page.getByRole('slider', { name: 'd_k', exact: true });
await slider.focus();
await browser.startTracing(page, { path: OUT, categories: ['disabled-by-default-devtools.timeline.stack', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'cc', 'viz'] });
for (let k = 0; k < N; k++) { await page.keyboard.press(Math.floor(k / 10) % 2 === 0 ? 'ArrowRight' : 'ArrowLeft'); await page.waitForTimeout(120); }
await browser.stopTracing();
await browser.close(); server.close();
const { traceEvents } = JSON.parse(await readFile(OUT, 'utf8'));
const sums = new Map();
const names = new Set(['EventDispatch','FunctionCall','UpdateLayoutTree','Layout','PrePaint','Paint','Layerize','Commit','RasterTask','Rasterize','TimerFire','FireIdleCallback','FireAnimationFrame','ProfileCall','ScheduleStyleRecalculation','UpdateLayer','CompositeLayers','IntersectionObserverController::computeIntersections','HitTest','ParseHTML','GPUTask','ImageDecodeTask','PaintImage','Decode Image','v8.run','RunMicrotasks','ResourceReceivedData']);
const threads = new Map();
for (const e of traceEvents) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
for (const e of traceEvents) {
  if (e.ph !== 'X' || !e.dur) continue;
  const t = threads.get(`${e.pid}:${e.tid}`) ?? '?';
  const key = `${t} | ${e.name}`;
  sums.set(key, (sums.get(key) ?? 0) + e.dur / 1000);
}
const rows = [...sums].filter(([, v]) => v / N > 0.3).sort((a, b) => b[1] - a[1]).slice(0, 40);
for (const [k, v] of rows) console.log((v / N).toFixed(2).padStart(7), 'ms/input', k);
