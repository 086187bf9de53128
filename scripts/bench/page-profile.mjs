// CPU profile (self time by function) of N d_k inputs at 64 tokens (from d_k = 1: every press changes d_k)
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';
const root = process.argv[2] ?? new URL('../../web', import.meta.url).pathname;
const N = 20;
const server = await startServer({ port: 0, root });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(`http://127.0.0.1:${server.address().port}/`);
await page.locator('attention-lab').evaluate(async (lab) => { await lab.ready;
  const words = 'the quick brown fox jumps over the lazy dog while a cat sleeps on the warm mat near the door'.split(' ');
  lab.set({ sentence: Array.from({ length: 64 }, (_, i) => words[i % words.length]).join(' '), projection: 'random', dk: 1 });
  await new Promise((r) => lab.addEventListener('statechange', r, { once: true })); });
await page.waitForTimeout(1500);
await page.getByRole('slider', { name: 'd_k', exact: true }).focus();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
for (let k = 0; k < N; k++) { await page.keyboard.press(Math.floor(k / 10) % 2 === 0 ? 'ArrowRight' : 'ArrowLeft'); await page.waitForTimeout(80); }
const { profile } = await cdp.send('Profiler.stop');
await browser.close(); server.close();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas; 
profile.samples.forEach((id, i) => { const n = byId.get(id); const f = n.callFrame; const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`; self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000); });
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((v / N).toFixed(2).padStart(6), 'ms/input', k);
