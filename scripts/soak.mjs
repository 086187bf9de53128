// Soak (issue #15): seeded random interactions with the page, as a restless learner makes them —
// clicks, keys, typing, pasting, the lesson's controls and buttons, theme, width and language
// changes, scrolling — with no console error, page error or policy violation, and memory
// that stays put: the JS heap (after forced garbage collections), the page's nodes and its event
// listeners, in the same state after the last interaction as after the warm-up.
//
//   npm run soak -- --interactions 1000          the long run (~2.5 min; warm-up 400)
//   node scripts/soak.mjs --interactions 1000 --warm-up 400 --seed 20261203
//
// The long run: by 400 interactions the page's caches — words, projections, results — are as full
// as they get (measured every 200 interactions up to 1,800, the heap rises to ~7.5 MB by 800 and
// stays there), so a leak of a few kB per interaction over the 600 after shows as megabytes. The
// browser suite (tests/browser/soak.test.mjs) runs the short part: the first 70 interactions of
// the same seeded sequence, three times over (--replay --passes 3). After 100 the caches are
// still filling (measured: the heap rose 7.3 → 9.1 MB from interaction 100 to 200, the nodes
// 9,107 → 9,774), so the short run compares like with like instead: the third pass asks for what
// the first two cached, and what the page holds after it must be what it held after the second,
// within the same bounds (measured: heap 7.7 → 8.9 MB, nodes 9,774 → 9,774, listeners 197 → 197).
// One pass then a replay was too close to the heap's bound (7.4 → 9.1 MB: 1.23 of 1.25).
// Chromium's own count of live nodes is logged, not held to a bound: it rises by ~12,000 after the
// first change of theme or width (nodes no script holds: a heap snapshot shows no detached node)
// and stays at that plateau through hundreds more changes.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { mulberry32 } from '../web/core/random.js';
import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';

export const SEED = 20261203; // the same interactions in every run
export const LONG_RUN = Object.freeze({ interactions: 1000, warmUp: 400 });
export const SHORT_RUN = Object.freeze({ interactions: 70, replay: true, passes: 3 });
// Growth allowed between the warm-up and the end: a leak of a few kB per interaction over 600
// interactions shows as megabytes, a quarter or more of the heap.
export const GROWTH = Object.freeze({ heap: 1.25, nodes: 1.25, listeners: 1.25 });

const WORDS = ['the', 'cat', 'sat', 'on', 'mat', 'dog', 'because', 'it', 'was', 'tired', 'zyzzyva', 'queen', 'king', 'river', '42', '.'];

/**
 * Runs `interactions` seeded random interactions on `page`, which shows the demo page with its
 * lab ready, and measures memory after `warmUp` of them and after the last. With `replay`, runs
 * the `interactions` `passes` times over (the same seed) and measures after the last two. Returns
 * { counts, warm, end, state, seconds, failures }: `failures` lists what broke a bound (empty when
 * none); console and page errors are the caller's to record.
 */
export async function soak(page, { interactions = LONG_RUN.interactions, warmUp = LONG_RUN.warmUp, seed = SEED, replay = false, passes = 2 } = {}) {
  let next = mulberry32(seed);
  const rand = () => next() / 4294967296;
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const inLab = (selector) => page.locator(`attention-lab ${selector}`);
  const cdp = await page.context().newCDPSession(page);
  // Memory is compared in one and the same state of the page: the lab's defaults, at 1280 px,
  // light, in English, at the top, every instrument drawn (eager while measuring; in between, an
  // instrument draws when it comes near the viewport, as for a reader).
  const measure = async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate(() => {
      document.documentElement.setAttribute('lang', 'en');
      const lab = document.querySelector('attention-lab');
      lab.set({ sentence: 'The cat sat on the mat because it was tired', probe: 'animal', projection: 'identity', dk: 64, seed: 1 });
      lab.set({ scaled: true, temperature: 1, causal: false, positional: false, selected: 1 });
      const lesson = document.querySelector('attention-lesson');
      lesson.settings = { heads: 4, key: null };
      lesson.setAttribute('loading', 'eager');
      lab.shadowRoot.querySelector('vector-paste')?.shadowRoot.querySelector('details')?.removeAttribute('open');
      scrollTo(0, 0);
    });
    await page.waitForTimeout(500);
    await page.waitForFunction(() => document.querySelector('attention-lesson')?.pending === false, null, { timeout: 30000 });
    await page.waitForTimeout(500); // the heatmap's table follows in idle time
    // several collections: nodes that only other garbage held go in the later ones
    for (let k = 0; k < 4; k++) await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const dom = await cdp.send('Memory.getDOMCounters');
    // the nodes on the page, shadow roots included (text nodes too)
    const attached = await page.evaluate(() => {
      let n = 0;
      const walk = (root) => {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_ALL);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          n++;
          if (node.shadowRoot) walk(node.shadowRoot);
        }
      };
      walk(document);
      return n;
    });
    await page.evaluate(() => document.querySelector('attention-lesson').removeAttribute('loading'));
    return { heap: heap.usedSize, nodes: attached, allNodes: dom.nodes, listeners: dom.jsEventListeners };
  };
  const focusIn = (selector) => inLab(selector).first().focus();
  const actions = [
    ['select a chip', () => inLab('token-chips .tok').nth(Math.floor(rand() * 8)).click({ timeout: 2000 }).catch(() => {})],
    ['heatmap keys', async () => {
      await focusIn('attention-heatmap .stage');
      for (let k = 0; k < 3; k++) await page.keyboard.press(pick(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']));
    }],
    ['projection', () => inLab(`attention-controls input[value="${pick(['identity', 'random', 'random', 'pasted'])}"]`).click({ force: true, timeout: 2000 }).catch(() => {})],
    ['d_k', async () => {
      await focusIn('attention-controls #dk');
      await page.keyboard.press(pick(['ArrowLeft', 'ArrowRight', 'Home', 'End']));
    }],
    ['temperature', async () => {
      await focusIn('attention-controls #temperature');
      await page.keyboard.press(pick(['ArrowLeft', 'ArrowRight', 'Home', 'End']));
    }],
    ['a switch', () => inLab(`attention-controls #${pick(['scaled', 'causal', 'positional'])}`).click({ timeout: 2000 }).catch(() => {})],
    ['type in Tokens', async () => {
      await focusIn('#sentence');
      await page.keyboard.press('End');
      if (rand() < 0.3) await page.keyboard.press('Backspace');
      else await page.keyboard.type(` ${pick(WORDS)}`);
    }],
    ['probe word', async () => {
      await page.locator('attention-lab').evaluate((lab) => lab.shadowRoot.querySelector('details.probe').setAttribute('open', '')); // an aside
      await inLab('#probe').fill(pick(WORDS));
    }],
    ['add a chip', async () => {
      await focusIn('token-chips .add');
      await page.keyboard.type(pick(WORDS));
      await page.keyboard.press('Enter');
    }],
    ['remove a chip', async () => {
      await focusIn('token-chips .tok[tabindex="0"]').catch(() => {});
      if ((await inLab('token-chips .tok').count()) > 3) await page.keyboard.press('Delete');
    }],
    ['seed', async () => {
      await focusIn('attention-controls #seed'); // read-only unless on Random: the keys then change nothing
      await page.keyboard.press('Control+A');
      await page.keyboard.type(String(Math.floor(rand() * 1000)));
    }],
    ['paste', () =>
      page.locator('attention-lab').evaluate((lab, bad) => {
        const paste = lab.shadowRoot.querySelector('vector-paste');
        if (!paste?.apply) return;
        paste.open();
        if (bad) paste.value = { q: '1, x', k: '1 2' };
        else paste.shadowRoot.querySelector('[data-action="example"]').click();
        paste.apply();
      }, rand() < 0.3)],
    // clicked by the DOM, as the story's buttons of "scaling is a temperature" (T = √d_k, T = 1) are
    // tested as a reader uses them in story.test.mjs; none yet while the lesson loads
    ['the temperature buttons', () => page.evaluate((i) => document.querySelectorAll('attention-lesson .story-actions button')[i]?.click(), Math.floor(rand() * 2))],
    ['step by step', () => page.locator('step-by-step').evaluate((el, i) => el.shadowRoot?.querySelectorAll('button[data-key]')[i]?.click(), Math.floor(rand() * 6))],
    ['lesson sliders', async () => {
      const slider = page.locator(`${pick(['overflow-demo', 'multi-head-view'])} input[type=range]`).first();
      if ((await slider.count()) === 0) return;
      // the slider can go between count() and focus(): its view redrawn empty (pasted vectors
      // have no words for the heads) once it comes near the viewport — then there is none to press
      if (!(await slider.focus({ timeout: 2000 }).then(() => true, () => false))) return;
      await page.keyboard.press(pick(['ArrowLeft', 'ArrowRight']));
    }],
    ['theme', () => page.emulateMedia({ colorScheme: pick(['light', 'dark']) })],
    ['width', () => page.setViewportSize({ width: pick([360, 800, 1280]), height: 900 })],
    ['language', () => page.evaluate((lang) => document.documentElement.setAttribute('lang', lang), pick(['en', 'nb']))],
    ['scroll', () => page.evaluate((y) => scrollTo(0, y * document.body.scrollHeight), rand())],
  ];
  const counts = new Map();
  let warm = null;
  const started = performance.now();
  const run = async (from, to) => {
    for (let n = from; n <= to; n++) {
      const [name, act] = pick(actions);
      counts.set(name, (counts.get(name) ?? 0) + 1);
      await act();
      if (n === warmUp && !replay) warm = await measure();
    }
  };
  await run(1, interactions);
  for (let pass = 1; pass < (replay ? passes : 1); pass++) {
    if (pass === passes - 1) warm = await measure();
    next = mulberry32(seed); // the same interactions again
    await run(1, interactions);
  }
  const end = await measure();
  await cdp.detach();
  const state = await page.locator('attention-lab').evaluate((lab) => ({ n: lab.state?.n, finite: Array.from(lab.state?.result.weights ?? []).every(Number.isFinite) }));
  const seconds = (performance.now() - started) / 1000;
  const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
  const failures = [];
  if (!(state.n > 0 && state.finite)) failures.push(`the lab no longer shows a result: ${JSON.stringify(state)}`);
  if (!(end.heap < warm.heap * GROWTH.heap)) failures.push(`JS heap grew from ${mb(warm.heap)} to ${mb(end.heap)} MB`);
  if (!(end.nodes < warm.nodes * GROWTH.nodes)) failures.push(`the page's nodes grew from ${warm.nodes} to ${end.nodes}`);
  if (!(end.listeners < warm.listeners * GROWTH.listeners)) failures.push(`event listeners grew from ${warm.listeners} to ${end.listeners}`);
  const [before, after] = replay ? [`after pass ${passes - 1}`, `after pass ${passes}`] : [`after ${warmUp}`, `after ${interactions}`];
  const summary =
    `soak: ${interactions} interactions${replay ? `, ${passes} times over,` : ''} in ${seconds.toFixed(0)} s (${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}); ` +
    `${before} → ${after}: JS heap ${mb(warm.heap)} → ${mb(end.heap)} MB, nodes on the page ${warm.nodes} → ${end.nodes} (all live nodes ${warm.allNodes} → ${end.allNodes}), listeners ${warm.listeners} → ${end.listeners}`;
  return { counts, warm, end, state, seconds, failures, summary };
}

async function main() {
  const { values } = parseArgs({
    options: {
      interactions: { type: 'string', default: String(LONG_RUN.interactions) },
      'warm-up': { type: 'string' },
      seed: { type: 'string', default: String(SEED) },
      replay: { type: 'boolean', default: false },
      passes: { type: 'string', default: '2' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log('usage: node scripts/soak.mjs [--interactions N (1000)] [--warm-up W (0.4·N) | --replay [--passes P (2)]] [--seed S (20261203)]\n  --replay: the N interactions P times over, memory compared after the last two passes (the browser test: --interactions 70 --replay --passes 3)');
    return;
  }
  const interactions = Number(values.interactions);
  const warmUp = values['warm-up'] === undefined ? Math.round(0.4 * interactions) : Number(values['warm-up']);
  const seed = Number(values.seed);
  if (!(Number.isInteger(interactions) && interactions >= 2 && (values.replay || (Number.isInteger(warmUp) && warmUp >= 1 && warmUp < interactions)) && Number.isInteger(seed))) {
    console.error('soak: --interactions must be an integer ≥ 2, --warm-up an integer from 1 to below it, --seed an integer');
    process.exit(2);
  }
  const server = await startServer({ port: 0 });
  const chromium = await launchChromium({ viewport: { width: 1280, height: 900 } });
  // as the browser tests record them: console errors, page errors, failed requests, CSP violations
  const problems = [];
  await chromium.context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`));
  });
  const page = await chromium.context.newPage();
  page.on('console', (message) => message.type() === 'error' && problems.push(`console error: ${message.text().slice(0, 300)}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => response.status() >= 400 && problems.push(`HTTP ${response.status()}: ${response.url()}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    if (!reason.includes('ERR_ABORTED')) problems.push(`request failed: ${request.url()} ${reason}`);
  });
  let failed = true;
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.locator('attention-lab').evaluate((lab) => lab.ready);
    const result = await soak(page, { interactions, warmUp, seed, replay: values.replay, passes: Math.max(2, Number(values.passes) || 2) });
    console.log(result.summary);
    for (const line of [...result.failures, ...problems]) console.error(`FAIL ${line}`);
    failed = result.failures.length > 0 || problems.length > 0;
  } finally {
    await chromium.close();
    await new Promise((resolve) => server.close(resolve));
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
