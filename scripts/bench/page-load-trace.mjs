// Where the first visit's time goes: a devtools.timeline + V8 trace (with CPU samples) of one
// page load in a fresh profile, as page.mjs's first visit (after the browser's start-up work,
// browser-idle.mjs; --at-launch: right after launch), then the work from navigation to the frame
// that paints the first bars: busy time per thread, events by name, the main thread's timeline
// and the network.
//   node scripts/bench/page-load-trace.mjs [ROOT] [--visits N] [--at-launch]   (N ≥ 2 also traces later visits)
// Writes artifacts/bench/load-trace-<k>.json (open in chrome://tracing or the DevTools Performance panel).
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { launchChromium, stopTracing } from '../chromium.mjs';
import { SITE_ROOT, startServer } from '../serve.mjs';
import { waitForBrowserIdle } from './browser-idle.mjs';
import { markFirstFrame } from './first-frame.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { visits: { type: 'string', default: '1' }, 'at-launch': { type: 'boolean', default: false } } });
const root = positionals[0] ?? SITE_ROOT;
const OUT = new URL('../../artifacts/bench/', import.meta.url).pathname;
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.wasm', 'v8.execute', 'blink.user_timing',
  'loading', 'disabled-by-default-devtools.timeline.stack', 'disabled-by-default-v8.compile', 'disabled-by-default-v8.cpu_profiler'];

const server = await startServer({ port: 0, root });
const url = `http://127.0.0.1:${server.address().port}/`;
const chromium = await launchChromium({ viewport: { width: 1440, height: 900 } });
const { context, profile } = chromium;
await context.addInitScript(markFirstFrame);
await mkdir(OUT, { recursive: true });
try {
  if (!values['at-launch']) console.log(`browser start-up work ended after ${(await waitForBrowserIdle(profile)).waitedMs.toFixed(0)} ms`);
  for (let visit = 0; visit < Number(values.visits); visit++) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES }, transferMode: 'ReturnAsStream' });
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName('bench:first-frame').length > 0);
    await page.waitForTimeout(300);
    const text = await stopTracing(cdp);
    await writeFile(`${OUT}load-trace-${visit}.json`, text);
    console.log(`\n## visit ${visit + 1}${visit === 0 ? ' (fresh profile)' : ''}`);
    summarise(JSON.parse(text));
    await page.close();
  }
} finally {
  await chromium.close();
  server.close();
}

function summarise(trace) {
  const events = trace.traceEvents ?? trace;
  const threads = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith(url))
    ?? events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame);
  const frame = events.find((e) => e.name === 'bench:first-frame');
  const result = events.find((e) => e.name === 'attention-lab:first-result');
  if (!nav || !frame) return console.log('navigationStart or the first-frame mark is missing from the trace');
  const t0 = nav.ts;
  const ms = (ts) => ((ts - t0) / 1000).toFixed(1).padStart(7);
  const main = `${frame.pid}:${frame.tid}`;
  console.log(`first-result mark ${ms(result.ts)} ms, first frame ${ms(frame.ts)} ms after navigationStart`);
  // top-level (depth-0) complete events on the renderer main thread, by name, before the frame
  const inWindow = events.filter((e) => e.ph === 'X' && e.dur && e.ts >= t0 && e.ts < frame.ts);
  const sums = new Map();
  const byThread = new Map();
  for (const e of inWindow) {
    const thread = threads.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
    const key = `${`${e.pid}:${e.tid}` === main ? 'main' : thread} | ${e.name}`;
    sums.set(key, (sums.get(key) ?? 0) + e.dur / 1000);
    if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') byThread.set(thread, (byThread.get(thread) ?? 0) + e.dur / 1000);
  }
  console.log('\nbusy time (RunTask) by thread, navigation → first frame:');
  for (const [k, v] of [...byThread].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);
  console.log('\nevents (inclusive, may nest), navigation → first frame, ≥ 2 ms:');
  for (const [k, v] of [...sums].filter(([, v]) => v >= 2).sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);
  console.log('\ntimeline of the main thread (events ≥ 1 ms, top level):');
  const mainEvents = inWindow.filter((e) => `${e.pid}:${e.tid}` === main && e.dur >= 1000
    && ['RunTask', 'ThreadControllerImpl::RunTask'].includes(e.name) === false);
  let until = 0;
  for (const e of mainEvents.sort((a, b) => a.ts - b.ts)) {
    if (e.ts < until && !['v8.compileModule', 'v8.compile', 'wasm.SyncCompile', 'wasm.AsyncCompile', 'v8.wasm.compileModule'].includes(e.name)) continue;
    until = Math.max(until, e.ts + e.dur);
    const d = e.args?.data ?? {};
    const what = d.url ?? d.fileName ?? d.functionName ?? d.type ?? '';
    console.log(`${ms(e.ts)} +${(e.dur / 1000).toFixed(1).padStart(6)} ms  ${e.name} ${String(what).replace(url, '/')}`);
  }
  console.log('\nnetwork (request sent → finished):');
  const sent = events.filter((e) => e.name === 'ResourceSendRequest');
  for (const s of sent) {
    const id = s.args.data.requestId;
    const done = events.find((e) => e.name === 'ResourceFinish' && e.args.data.requestId === id);
    if (s.ts < frame.ts) console.log(`${ms(s.ts)} → ${done ? ms(done.ts) : '   ?   '}  ${s.args.data.url.replace(url, '/')}`);
  }
  const wasm = events.filter((e) => /wasm/i.test(e.name) && e.ts >= t0 && e.ts < frame.ts);
  const wasmSums = new Map();
  for (const e of wasm) wasmSums.set(`${threads.get(`${e.pid}:${e.tid}`)} | ${e.name}`, (wasmSums.get(`${threads.get(`${e.pid}:${e.tid}`)} | ${e.name}`) ?? 0) + (e.dur ?? 0) / 1000);
  console.log('\nwasm events:');
  for (const [k, v] of [...wasmSums].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);
}
