// Where the time of a d_k input goes, at 64 tokens: a Chromium trace of N key presses on the
// d_k slider (each changing d_k), then per input, on the renderer's main thread, the median of
//   input   the keydown task (event dispatch: the store, the core, the views' DOM writes)
//   wait    from its end to the start of the next frame's task
//   frame   that task (the next BeginMainFrame), and within it style, layout, pre-paint,
//           paint, layerize and commit (the main thread blocked while the compositor commits)
//   total   keydown dispatch → end of that frame's task
// and the main-thread time per input by trace event. The trace is written to
// artifacts/bench/trace.json.
//
//   node scripts/bench/page-trace.mjs [ROOT] [--inputs 30] [--invalidations] [--detail] [--profile]
//     ROOT             another copy of web/ (default: this repository's)
//     --profile        instead of a trace, a CPU profile of the same inputs: self time per
//                      function and input (V8's sampling profiler, 100 µs)
//     --invalidations  also count style and layout invalidations by node and reason
//     --detail         also record the 'blink' and 'cc' categories (more events, more overhead)
//     --phone          as bench:page's phone row: a 390 × 800 window, the CPU slowed 4×
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { SENTENCE_64, launchChromium, stopTracing } from '../chromium.mjs';
import { SITE_ROOT, startServer } from '../serve.mjs';
import { openDemo } from './page-input.mjs';

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    inputs: { type: 'string', default: '30' },
    invalidations: { type: 'boolean', default: false },
    detail: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    phone: { type: 'boolean', default: false },
  },
});
const root = positionals[0] ?? SITE_ROOT;
const N = Number(options.inputs);
const OUT = new URL('../../artifacts/bench/trace.json', import.meta.url).pathname;
const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
if (options.invalidations) categories.push('disabled-by-default-devtools.timeline.invalidationTracking');
if (options.detail) categories.push('blink', 'cc');

await mkdir(new URL('../../artifacts/bench/', import.meta.url), { recursive: true });
const server = await startServer({ port: 0, root });
const chromium = await launchChromium({ viewport: options.phone ? { width: 390, height: 800 } : { width: 1440, height: 900 } });
let cpuProfile = null;
try {
  const page = await openDemo(chromium.context, `http://127.0.0.1:${server.address().port}/`, { sentence: SENTENCE_64, projection: 'random', dk: 1 });
  await page.waitForTimeout(1500);
  const slider = page.getByRole('slider', { name: 'd_k', exact: true });
  await slider.focus();
  const cdp = await chromium.context.newCDPSession(page);
  if (options.phone) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  if (options.profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  } else {
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReturnAsStream' });
  }
  // from d_k = 1 (the first stop): ten presses up, ten down, …: every press changes d_k
  for (let k = 0; k < N; k++) {
    await page.keyboard.press(Math.floor(k / 10) % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
    await page.waitForTimeout(options.phone ? 250 : 100);
  }
  if (options.profile) cpuProfile = (await cdp.send('Profiler.stop')).profile;
  else await writeFile(OUT, await stopTracing(cdp));
} finally {
  await chromium.close();
  server.close();
}

if (cpuProfile) {
  printProfile(cpuProfile);
  process.exit(0);
}

// Self time per function and input, the 30 largest.
function printProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(ms / N).toFixed(2).padStart(6)} ms/input  ${key}`);
}

const { traceEvents } = JSON.parse(await readFile(OUT, 'utf8'));
const threads = new Map();
for (const e of traceEvents) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
const thread = (e) => threads.get(`${e.pid}:${e.tid}`) ?? '?';
const main = traceEvents.filter((e) => e.ph === 'X' && thread(e) === 'CrRendererMain').sort((a, b) => a.ts - b.ts);

// per input: its keydown and the first task after it that commits a frame
const keydowns = main.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
const commits = main.filter((e) => e.name === 'Commit');
const frames = main.filter((e) => e.name === 'RunTask' && commits.some((c) => c.ts >= e.ts && c.ts < e.ts + e.dur));
const within = (task, name) => main.filter((e) => e.name === name && e.ts >= task.ts && e.ts < task.ts + task.dur);
const rows = [];
for (const keydown of keydowns) {
  const frame = frames.find((f) => f.ts > keydown.ts + keydown.dur - 1);
  if (!frame) continue;
  const ms = (name) => within(frame, name).reduce((sum, e) => sum + e.dur, 0) / 1000;
  rows.push({
    input: keydown.dur / 1000,
    wait: (frame.ts - keydown.ts - keydown.dur) / 1000,
    frame: frame.dur / 1000,
    style: ms('UpdateLayoutTree'),
    layout: ms('Layout'),
    prePaint: ms('PrePaint'),
    paint: ms('Paint'),
    layerize: ms('Layerize'),
    commit: ms('Commit'),
    total: (frame.ts + frame.dur - keydown.ts) / 1000,
    dirtyObjects: within(frame, 'Layout')[0]?.args?.beginData?.dirtyObjects ?? 0,
  });
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${rows.length} d_k inputs at 64 tokens, ${root}; main thread, median per input (ms):\n`);
console.log(`| ${Object.keys(rows[0]).join(' | ')} |`);
console.log(`|${Object.keys(rows[0]).map(() => '---:').join('|')}|`);
console.log(`| ${Object.keys(rows[0]).map((k) => (k === 'dirtyObjects' ? median(rows.map((r) => r[k])) : median(rows.map((r) => r[k])).toFixed(2))).join(' | ')} |`);

const perEvent = new Map();
for (const e of traceEvents) {
  if (e.ph !== 'X' || !e.dur) continue;
  const key = `${thread(e)} | ${e.name}`;
  perEvent.set(key, (perEvent.get(key) ?? 0) + e.dur / 1000);
}
console.log('\nTime per input by trace event (nested events are counted in their parents too):');
for (const [key, ms] of [...perEvent].filter(([, ms]) => ms / N > 0.1).sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log((ms / N).toFixed(2).padStart(7), 'ms', key);

if (options.invalidations) {
  const counts = new Map();
  for (const e of traceEvents) {
    if (!/InvalidationTracking$/.test(e.name) || e.name.startsWith('Schedule') || e.name.startsWith('StyleInvalidator')) continue;
    const d = e.args.data;
    const key = `${e.name.replace('InvalidationTracking', '')}: ${d.nodeName ?? ''} — ${d.reason ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  console.log('\nInvalidations per input:');
  for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((n / N).toFixed(1).padStart(6), key);
}
