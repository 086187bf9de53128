// The trained model's key presses (<model-view>, 64 tokens), side by side on copies of web/:
// the key sequence of page.mjs (Enter on a head's thumbnail, Space on "remove √d_k"), rounds
// interleaved over the roots given. Per root and round, the median key → next-paint time
// (page-input.mjs recordKeyToPaint, as page.mjs measures it), or with --trace, from a Chromium trace, the median per key press of
// the main thread's CPU time (tdur: less moved by other processes' load) of the frame that
// follows it, and within that frame the rAF's JavaScript, style, layout, pre-paint, paint,
// layerize and commit. --css / --shadow add a style sheet to the document / the view's shadow
// root before measuring (to try a rule without editing); --profile prints a CPU profile's self
// time per function and key press instead; --frames, from Chromium's own record of each press
// (key-frames.mjs), the first press of each kind and then the median, p90 and max of the frame
// that shows it, from its start to presented, and how many took more than 16.7 ms.
// docs/page-performance.md, "The trained model's key presses", has its figures.
//
//   node scripts/bench/model-keys.mjs [--trace | --frames] [--rounds 3] [--inputs 20] OLD_WEB web
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SENTENCE_64, launchChromium, stopTracing } from '../chromium.mjs';
import { startServer } from '../serve.mjs';
import { KEY_FRAME_CATEGORIES } from './key-frames.mjs';
import { modelKeyFrames, modelKeyToPaint, openDemo, pressModelKeys, recordKeyToPaint, showModelView } from './page-input.mjs';

const { values: o, positionals: roots } = parseArgs({
  allowPositionals: true,
  options: {
    inputs: { type: 'string', default: '20' }, // key presses of each kind
    rounds: { type: 'string', default: '1' },
    trace: { type: 'boolean', default: false },
    frames: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    css: { type: 'string', default: '' },
    shadow: { type: 'string', default: '' },
  },
});
const N = Number(o.inputs);
const TRACE = fileURLToPath(new URL('../../artifacts/bench/model-keys-trace.json', import.meta.url));
await mkdir(dirname(TRACE), { recursive: true });
const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN; };

async function one(root) {
  const server = await startServer({ port: 0, root });
  const chromium = await launchChromium({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await openDemo(chromium.context, `http://127.0.0.1:${server.address().port}/`, { sentence: SENTENCE_64 });
    await showModelView(page);
    await page.waitForTimeout(1000);
    await page.evaluate(([css, shadow]) => {
      if (css) { const s = new CSSStyleSheet(); s.replaceSync(css); document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }
      if (shadow) { const s = new CSSStyleSheet(); s.replaceSync(shadow); const r = document.querySelector('model-view').shadowRoot; r.adoptedStyleSheets = [...r.adoptedStyleSheets, s]; }
    }, [o.css, o.shadow]);
    await page.waitForTimeout(300);
    await recordKeyToPaint(page);
    const cdp = (o.trace || o.profile || o.frames) ? await chromium.context.newCDPSession(page) : null;
    if (o.frames) await cdp.send('Tracing.start', { traceConfig: { includedCategories: KEY_FRAME_CATEGORIES }, transferMode: 'ReturnAsStream' });
    if (o.trace) await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'] }, transferMode: 'ReturnAsStream' });
    if (o.profile) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); await cdp.send('Profiler.start'); }
    await pressModelKeys(page, N, 150);
    const m = await modelKeyToPaint(page);
    if (o.frames) {
      await page.waitForTimeout(300); // the last press presented
      m.frames = modelKeyFrames(await stopTracing(cdp));
    }
    if (o.trace) { await writeFile(TRACE, await stopTracing(cdp)); analyse(JSON.parse(await readFile(TRACE, 'utf8'))); }
    if (o.profile) printProfile((await cdp.send('Profiler.stop')).profile);
    return m;
  } finally { await chromium.close(); server.close(); }
}

function printProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => { const f = byId.get(id).callFrame; const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`; self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000); });
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 35)) console.log(`${(ms / (2 * N)).toFixed(2).padStart(6)} ms/input  ${key}`);
}

const lastRows = {};
function analyse({ traceEvents }) {
  const threads = new Map();
  for (const e of traceEvents) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const main = traceEvents.filter((e) => e.ph === 'X' && threads.get(`${e.pid}:${e.tid}`) === 'CrRendererMain').sort((a, b) => a.ts - b.ts);
  const keydowns = main.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  const commits = main.filter((e) => e.name === 'Commit');
  const frames = main.filter((e) => e.name === 'RunTask' && commits.some((c) => c.ts >= e.ts && c.ts < e.ts + e.dur));
  const within = (task, name) => main.filter((e) => e.name === name && e.ts >= task.ts && e.ts < task.ts + task.dur);
  const rows = { head: [], scale: [] };
  const keyups = main.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keyup');
  const names = new Map();
  keydowns.forEach((kd, i) => {
    const ku = keyups.find((e) => e.ts > kd.ts);
    const after = i % 2 ? ku.ts + ku.dur : kd.ts + kd.dur;
    const frame = frames.find((f) => f.ts > after - 1);
    if (!frame) return;
    const ms = (name) => within(frame, name).reduce((s, e) => s + (e.tdur ?? e.dur), 0) / 1000;
    const kind = i % 2 ? 'scale' : 'head';
    for (const e of main) if (e.ts >= frame.ts && e.ts < frame.ts + frame.dur) { const k = kind + ' ' + e.name; names.set(k, (names.get(k) ?? 0) + e.dur / 1000); }
    rows[kind].push({ input: kd.dur / 1000, wait: (frame.ts - kd.ts - kd.dur) / 1000, frame: frame.dur / 1000, cpu: (frame.tdur ?? NaN) / 1000, raf: ms('FireAnimationFrame'), style: ms('UpdateLayoutTree'), layout: ms('Layout'), prePaint: ms('PrePaint'), paint: ms('Paint'), layerize: ms('Layerize'), commit: ms('Commit'), total: (frame.ts + frame.dur - kd.ts) / 1000, dirty: within(frame, 'Layout')[0]?.args?.beginData?.dirtyObjects ?? 0, objs: within(frame, 'Layout')[0]?.args?.beginData?.totalObjects ?? 0 });
  });
  for (const [k, ms] of [...names].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((ms / (keydowns.length / 2)).toFixed(2).padStart(7), k);
  for (const kind of ['head', 'scale']) {
    const r = rows[kind]; if (!r.length) continue;
    lastRows[kind] = median(r.map((x) => x.cpu));
    console.log(kind, Object.keys(r[0]).map((k) => `${k} ${median(r.map((x) => x[k])).toFixed(1)}`).join(', '));
  }
}

const ms = (x) => (x === null || x === undefined ? '—' : x.toFixed(1));
const quantile = (xs, q) => { const s = xs.slice().sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN; };
// The first press of a kind (code not yet optimised, caches empty), then the others.
function printFrames(root, frames) {
  for (const kind of ['head', 'scale']) {
    const [first, ...rest] = frames[kind];
    const drawn = rest.filter((f) => f.frameMs !== null);
    const frame = drawn.map((f) => f.frameMs);
    console.log(`${root} ${kind}: first key → presented ${ms(first.totalMs)}, frame ${ms(first.frameMs)} (main ${ms(first.mainMs)}); ` +
      `then ${drawn.length} of ${rest.length} drawn: frame median ${ms(median(frame))}, p90 ${ms(quantile(frame, 0.9))}, max ${ms(Math.max(...frame))}, ` +
      `over 16.7 ms ${frame.filter((x) => x > 1000 / 60).length}; main median ${ms(median(drawn.map((f) => f.mainMs)))}; key → presented median ${ms(median(drawn.map((f) => f.totalMs)))}`);
  }
}

const results = roots.map(() => ({ head: [], scale: [] }));
for (let round = 0; round < Number(o.rounds); round++)
  for (const [i, root] of roots.entries()) {
    const m = await one(root);
    if (o.trace) { m.head = [lastRows.head]; m.scale = [lastRows.scale]; }
    if (o.frames) printFrames(root, m.frames);
    results[i].head.push(median(m.head)); results[i].scale.push(median(m.scale));
    console.log(`round ${round} ${root}: head ${median(m.head).toFixed(1)} scale ${median(m.scale).toFixed(1)} (n ${m.head.length}/${m.scale.length})`);
  }
for (const [i, root] of roots.entries()) console.log(`${root}: head medians ${results[i].head.map((x) => x.toFixed(1)).join(' ')}; scale ${results[i].scale.map((x) => x.toFixed(1)).join(' ')}`);
