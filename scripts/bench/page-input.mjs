// What the page benchmarks (page.mjs, model-keys.mjs, page-trace.mjs) do to the demo page in
// the same way: give the lab a state, record key press → next paint, press the d_k slider and
// the trained model's keys, and bring the model's view into sight.
import { keyFrames } from './key-frames.mjs';

/** Sets the lab's state (e.g. { sentence }) and waits until it has drawn it. */
export function setLab(page, state) {
  return page.locator('attention-lab').evaluate(async (lab, state) => {
    await lab.ready;
    const changed = new Promise((resolve) => lab.addEventListener('change', resolve, { once: true }));
    lab.set(state);
    await changed;
  }, state);
}

/** A new page on the demo at `url`, its lab set to `state` (setLab). */
export async function openDemo(context, url, state) {
  const page = await context.newPage();
  await page.goto(url);
  await setLab(page, state);
  return page;
}

/**
 * From now on, for every key press: from the key event that makes the change (the keydown; for
 * Space the keyup, on which a browser activates a checkbox or a button) to a task queued from the
 * next animation frame (the frame that paints the update; in software rendering its raster
 * follows within that frame), with the data-intent of the element pressed. Read by keyToPaint.
 */
export function recordKeyToPaint(page) {
  return page.evaluate(() => {
    window.__keyToPaint = [];
    const record = (event) => {
      if ((event.type === 'keyup') !== (event.key === ' ')) return;
      const start = event.timeStamp;
      const intent = event.composedPath()[0].dataset?.intent ?? null;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => window.__keyToPaint.push({ intent, ms: performance.now() - start });
        channel.port2.postMessage(0);
      });
    };
    addEventListener('keydown', record, { capture: true });
    addEventListener('keyup', record, { capture: true });
  });
}

/** The key press → next paint times recorded so far: [{ intent, ms }]. */
export function keyToPaint(page) {
  return page.evaluate(() => window.__keyToPaint);
}

/** keyToPaint of the model's keys: { head: ms[], scale: ms[] } (scale: "remove √d_k"). */
export async function modelKeyToPaint(page) {
  const times = await keyToPaint(page);
  const of = (scale) => times.filter((t) => (t.intent === 'removeScale') === scale).map((t) => t.ms);
  return { head: of(false), scale: of(true) };
}

/**
 * Chromium's own record (key-frames.mjs) of pressModelKeys's presses, from a trace of them alone:
 * { head: [...], scale: [...] }, each { totalMs, frameMs, mainMs } in the order pressed. Each
 * press is a keydown and a keyup: Enter opens a head on its keydown, Space toggles on its keyup.
 */
export function modelKeyFrames(traceText) {
  const events = keyFrames(traceText);
  if (events.length % 4 || events.some((e, k) => e.type !== (k % 2 ? 'keyup' : 'keydown'))) {
    throw new Error(`modelKeyFrames: expected keydown, keyup pairs, two per round; the trace has ${events.map((e) => e.type).join(' ')}`);
  }
  const of = (at) => events.filter((_, k) => k % 4 === at).map(({ totalMs, frameMs, mainMs }) => ({ totalMs, frameMs, mainMs }));
  return { head: of(0), scale: of(3) };
}

/**
 * `presses` key presses on the lab's d_k slider, `pauseMs` apart (the next press starts from an
 * idle page): up and down its stops, turning at either end, so every press changes d_k.
 */
export async function walkDkSlider(page, presses, pauseMs) {
  const slider = page.getByRole('slider', { name: 'd_k', exact: true });
  await slider.focus();
  let [stop, last] = await slider.evaluate((el) => [Number(el.value), Number(el.max)]);
  let step = 1;
  for (let k = 0; k < presses; k++) {
    if (stop + step < 0 || stop + step > last) step = -step;
    stop += step;
    await page.keyboard.press(step > 0 ? 'ArrowRight' : 'ArrowLeft');
    await page.waitForTimeout(pauseMs);
  }
}

/** Scrolls to the trained model's view and waits until it shows its eight heads. */
export async function showModelView(page) {
  for (let tries = 0; tries < 3; tries++) {
    await page.locator('#model').scrollIntoViewIfNeeded();
    await page.waitForTimeout(500); // the sections above draw and move it down
  }
  await page.waitForFunction(() => document.querySelector('model-view')?.shadowRoot?.querySelectorAll('.thumb').length === 8, null, { timeout: 60000 });
}

/**
 * `rounds` times, `pauseMs` after each press: Enter on a head's thumbnail (alternately two
 * heads, so each press opens another), then Space on "remove √d_k".
 */
export async function pressModelKeys(page, rounds, pauseMs) {
  const view = page.locator('model-view');
  const focus = (selector) => view.evaluate((el, s) => el.shadowRoot.querySelector(s).focus(), selector);
  for (let k = 0; k < rounds; k++) {
    await focus(k % 2 ? '[data-layer="1"][data-head="1"]' : '[data-layer="2"][data-head="3"]');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(pauseMs);
    await focus('[data-intent=removeScale]');
    await page.keyboard.press('Space');
    await page.waitForTimeout(pauseMs);
  }
}
