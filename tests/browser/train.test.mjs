// The training experiment on index.html (<training-experiment>), in Debian's headless Chromium
// under the strict CSP of scripts/serve.mjs: the module worker loads its own engine; Train with
// the defaults draws both runs' curves and heatmaps with the numbers of the run; Pause holds,
// Resume goes on, Reset returns to step 0, Step takes one; the lab stays responsive while the
// experiment trains; it fits a 360 px screen; nothing logs an error or violates the CSP (each
// test checks its own: checkEachTest). Its pictures: npm run screenshots.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openLab, until, useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({ viewport: { width: 1440, height: 900 } }, (opened) => ({ browser, page } = opened));

const experiment = () => page.locator('training-experiment');
const button = (name) => experiment().getByRole('button', { name, exact: true });
const session = () => page.evaluate(() => {
  const { phase, step, steps, error, runs, config } = document.querySelector('training-experiment').session.state;
  return { phase, step, steps, error: error?.message ?? null, dk: config?.dk ?? null,
    reachedAt: runs && { scaled: runs.scaled.reachedAt, unscaled: runs.unscaled.reachedAt },
    counts: runs && { scaled: runs.scaled.count, unscaled: runs.unscaled.count } };
});
const shown = (selector) => experiment().evaluate((el, s) => el.shadowRoot.querySelector(s)?.textContent ?? null, selector);

// Opens the page, scrolls to the experiment (which loads it and starts its worker) and waits
// until the worker has configured the defaults at step 0.
async function openExperiment() {
  await openLab(page, browser.url);
  await page.locator('#training').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('training-experiment')?.session?.state.runs, null, { timeout: 30000 });
  await until(() => shown('.phase'), (t) => /Ready at step 0/.test(t), { what: 'the ready status', timeout: 10000 });
}

async function setField(name, value) {
  await experiment().evaluate((el, [n, v]) => {
    const input = el.shadowRoot.querySelector(`[name=${n}]`);
    input.value = v;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, [name, String(value)]);
}

test('Train with the defaults: within seconds, two learning curves and two heatmaps with the run\'s numbers', async () => {
  await openExperiment();
  // step 0: the untrained attention of the shown example, 8 × 8 cells per run
  const cells = () => experiment().evaluate((el) => ['scaled', 'unscaled'].map((run) => el.shadowRoot.querySelectorAll(`figure[data-run=${run}] rect[data-weight]`).length));
  assert.deepEqual(await cells(), [64, 64]);
  const started = Date.now();
  await button('Train').click();
  const done = await until(session, (s) => s.phase === 'done', { what: 'the end of the run', timeout: 60000 });
  const seconds = (Date.now() - started) / 1000;
  console.log(`# the default experiment (150 steps, both runs) took ${seconds.toFixed(2)} s from the click; scaled reached 90 % at step ${done.reachedAt.scaled}, unscaled at ${done.reachedAt.unscaled}`);
  assert.equal(done.step, 150);
  assert.deepEqual(done.counts, { scaled: 150, unscaled: 150 });
  await page.waitForTimeout(100); // the frame that draws the last state
  assert.deepEqual(await cells(), [64, 64]);
  // five plots, each with a curve per run
  const curves = await experiment().evaluate((el) => [...el.shadowRoot.querySelectorAll('.plot')].map((p) => p.querySelectorAll('polyline').length));
  assert.equal(curves.length, 5);
  curves.forEach((n) => assert.ok(n >= 2, `a plot with ${n} curves`));
  // the numbers on screen are the run's
  const summary = await shown('.summary');
  assert.match(summary, /Step 150 of 150 \(d_k 128, Adam, learning rate 0\.002, seed 1/);
  assert.match(summary, new RegExp(`Scaled: .*90\\s% accuracy reached at step ${done.reachedAt.scaled};`));
  assert.match(summary, new RegExp(`Unscaled: .*90\\s% accuracy reached at step ${done.reachedAt.unscaled};`));
  assert.match(await shown('.status'), /Done: 150 steps\. Step 150 of 150/);
  assert.ok(done.reachedAt.scaled < done.reachedAt.unscaled, 'the default shows the claim');
  assert.equal(await experiment().evaluate((el) => el.shadowRoot.querySelector('progress').value), 150);
});

test('Pause holds, Resume goes on, Reset returns to step 0, Step takes one step', async () => {
  await openExperiment();
  await setField('steps', 4000); // long enough to be running when it is paused
  await button('Train').click();
  await until(session, (s) => s.phase === 'running' && s.step > 5, { what: 'training', timeout: 20000 });
  await button('Pause').click();
  const paused = await until(session, (s) => s.phase === 'paused', { what: 'paused' });
  assert.ok(paused.step < 4000);
  await until(() => shown('.phase'), (t) => t === `Paused at step ${paused.step} of 4000.`, { what: 'the paused status' });
  await page.waitForTimeout(400);
  assert.equal((await session()).step, paused.step, 'no step while paused');
  // the same button now resumes
  await button('Resume').click();
  await until(session, (s) => s.phase === 'running' && s.step > paused.step, { what: 'running again' });
  await button('Reset').click();
  const reset = await until(session, (s) => s.phase === 'ready' && s.step === 0, { what: 'step 0' });
  assert.deepEqual(reset.counts, { scaled: 0, unscaled: 0 });
  await until(() => shown('figure[data-run=scaled] h3'), (t) => /attention at step 0$/.test(t), { what: 'the step-0 heatmap' });
  await button('Step').click();
  const one = await until(session, (s) => s.step === 1, { what: 'one step' });
  assert.equal(one.phase, 'paused');
  await button('Step').click();
  await until(session, (s) => s.step === 2, { what: 'a second step' });
});

test('a setting changed while paused: Step starts over with it; a bad value is refused, naming it, and keeps the run', async () => {
  await openExperiment();
  await button('Step').click();
  await until(session, (s) => s.step === 1, { what: 'one step' });
  await experiment().evaluate((el) => {
    const select = el.shadowRoot.querySelector('[name=dk]');
    select.value = '4';
    select.dispatchEvent(new Event('input', { bubbles: true }));
  });
  assert.equal(await experiment().evaluate((el) => el.shadowRoot.querySelector('.stale').hidden), false);
  await button('Step').click();
  const fresh = await until(session, (s) => s.dk === 4 && s.step === 1, { what: 'a new experiment at d_k 4' });
  assert.equal(fresh.phase, 'paused');
  await setField('learningRate', -1);
  await button('Train').click();
  await until(() => shown('.alert'), (t) => /learningRate must be a positive finite number, got -1/.test(t), { what: 'the error' });
  const kept = await session();
  assert.equal(kept.dk, 4);
  assert.equal(kept.step, 1);
  await setField('learningRate', 0.002);
  await button('Reset').click();
  await until(() => shown('.alert'), (t) => t === '', { what: 'the error cleared' });
});

test('the lab stays responsive while the experiment trains: its key presses paint, none hangs', async () => {
  await openExperiment();
  await setField('steps', 50000);
  await button('Train').click();
  await until(session, (s) => s.phase === 'running' && s.step > 5, { what: 'training' });
  await button('Pause').click();
  await until(session, (s) => s.phase === 'paused', { what: 'paused' });
  // the browser's own measure of each key press: input → the next paint (Event Timing; presses
  // under 16 ms are not reported, and count as 16 here)
  await page.evaluate(() => {
    window.__events = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'keydown') window.__events.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'event', durationThreshold: 16 });
  });
  await page.locator('attention-lab').scrollIntoViewIfNeeded();
  await page.getByRole('radio', { name: 'Random' }).check();
  const slider = page.getByRole('slider', { name: 'd_k', exact: true });
  await slider.focus();
  // the lab's d_k slider by keyboard, in rounds: with the experiment paused, then training
  // (off screen: it draws its status, not its plots), three times over
  const presses = { paused: [], training: [] };
  const keys = ['Home', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'End', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft'];
  const steps = [];
  for (let round = 0; round < 3; round++) {
    for (const phase of ['paused', 'training']) {
      await page.evaluate((run) => {
        const s = document.querySelector('training-experiment').session;
        if (run) s.resume();
      }, phase === 'training');
      if (phase === 'training') await until(session, (s) => s.phase === 'running', { what: 'running' });
      const first = (await session()).step;
      for (const key of keys) {
        const at = await page.evaluate(() => performance.now());
        await page.keyboard.press(key);
        presses[phase].push(at);
        await page.waitForTimeout(80);
      }
      if (phase === 'training') {
        await button('Pause').click();
        const paused = await until(session, (s) => s.phase === 'paused', { what: 'paused' });
        steps.push(paused.step - first);
      }
    }
  }
  await page.waitForTimeout(200);
  const events = await page.evaluate(() => window.__events);
  // each press: the longest keydown entry that started within 60 ms after it, else under 16 ms
  const durations = (starts) =>
    starts.map((at) => Math.max(16, ...events.filter((e) => e.start >= at - 1 && e.start < at + 60).map((e) => e.duration)));
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const paused = durations(presses.paused), training = durations(presses.training);
  console.log(
    `# key press → next paint on the lab's d_k slider, median (max) of ${training.length}: paused ${median(paused)} ms (${Math.max(...paused)}), ` +
      `while training ${median(training)} ms (${Math.max(...training)}); steps trained meanwhile: ${steps.join(', ')}`,
  );
  steps.forEach((n) => assert.ok(n > 0, 'the experiment trained during every round'));
  // A hang detector, not a speed test: no press waits 5 s for its paint while the worker trains
  // (a main thread blocked by training would; the slowest press seen under load took 744 ms, see
  // docs/training.md). The budget — the median within 50 ms, three 60 Hz frames — is measured by
  // npm run bench:page (its "while the experiment trains" row).
  assert.ok(Math.max(...training) < 5000, `a key press waited ${Math.max(...training)} ms for its paint while training: the lab hung`);
});

test('lesson.html has the experiment too, with its own controls', async () => {
  await page.goto(`${browser.url}lesson.html`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 30000 });
  await page.locator('training-experiment').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('training-experiment')?.session?.state.runs, null, { timeout: 30000 });
  await button('Step').click();
  const one = await until(session, (s) => s.step === 1, { what: 'one step' });
  assert.deepEqual(one.counts, { scaled: 1, unscaled: 1 });
});

test('at 360 px, light and dark, the finished experiment fits the screen', async () => {
  for (const colorScheme of ['light', 'dark']) {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.emulateMedia({ colorScheme });
    await openExperiment();
    await button('Train').click();
    await until(session, (s) => s.phase === 'done', { what: 'done', timeout: 60000 });
    await page.waitForTimeout(200); // the frame that draws the last state
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(overflow, 0, `${colorScheme}: the page scrolls sideways by ${overflow} px`);
    const plots = await experiment().evaluate((el) => [...el.shadowRoot.querySelectorAll('.plot svg')].map((svg) => svg.getBoundingClientRect().right));
    plots.forEach((right) => assert.ok(right <= 360, `a plot ends at ${right} px`));
  }
  await page.setViewportSize({ width: 1440, height: 900 });
});
