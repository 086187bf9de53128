// What the lab does when used roughly: a removed lab stops its idle-time work; the paste panel
// says what the lab shows (not a paste the lab rejected); a paste past the bound is refused
// before the page lays it out, with a message naming it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { bucketName, bucketOf } from '../../web/core/vocab.js';
import { openLab, until, useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({}, (opened) => ({ browser, page } = opened));

test('a removed lab with a random projection stops its idle-time work', async () => {
  await openLab(page, `${browser.url}index.html`);
  const calls = await page.evaluate(async () => {
    // the idle callbacks the lab's element code asks for once it is removed (the page's other
    // elements have their own); installed first, as the lab takes the function when it starts
    let removed = false;
    let asked = 0;
    const original = window.requestIdleCallback;
    window.requestIdleCallback = (callback, options) => {
      if (removed && /components\/lab\/attention-lab\.js/.test(new Error().stack)) asked++;
      return original.call(window, callback, options);
    };
    const lab = document.createElement('attention-lab');
    lab.setAttribute('projection', 'random');
    lab.setAttribute('seed', '99');
    document.body.append(lab);
    await lab.ready;
    lab.remove();
    removed = true;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    window.requestIdleCallback = original;
    return asked;
  });
  // (before: the 11 d_k stops, one idle callback each, went on after the removal)
  assert.equal(calls, 0, `idle callbacks the removed lab asked for: ${calls}`);
});

async function paste(lab, q, k) {
  const panel = lab.locator('vector-paste');
  await panel.evaluate((el) => el.open());
  await panel.locator('textarea[name="q"]').fill(q);
  await panel.locator('textarea[name="k"]').fill(k);
  await panel.getByRole('button', { name: 'Use these vectors' }).click();
  return panel;
}

test('the paste panel says what the lab shows: a paste the core rejects is not "in use"', async () => {
  await openLab(page, `${browser.url}index.html`);
  const lab = page.locator('attention-lab');
  await page.waitForFunction(() => customElements.get('vector-paste'));
  const panel = await paste(lab, 'a, 1, 0\nb, 0, 1', 'x, 1, 0\ny, 0, 1\nz, 1, 1');
  await until(() => panel.locator('.status').textContent(), (text) => text === 'Using 2 queries × 3 keys, d_k = 2.', { what: 'the first paste in use' });
  await paste(lab, '3e38, 3e38', '3e38, 3e38');
  const alert = await until(() => panel.locator('.alert').textContent(), (text) => text !== '', { what: 'the panel’s alert' });
  assert.match(alert, /overflows float32.*The previous vectors are still in use\./);
  assert.equal(await panel.locator('.status').textContent(), 'Using 2 queries × 3 keys, d_k = 2.', 'the vectors of the result on screen');
  assert.equal(await lab.evaluate((el) => [el.state.n, el.state.m]).then((s) => s.join('×')), '2×3');
  // a first paste the core rejects: no "previous vectors" when there are none
  await page.reload();
  await lab.evaluate((el) => el.ready);
  await page.waitForFunction(() => customElements.get('vector-paste'));
  const fresh = await paste(lab, '3e38, 3e38', '3e38, 3e38');
  const first = await until(() => fresh.locator('.alert').textContent(), (text) => text !== '', { what: 'the alert of a first rejected paste' });
  assert.doesNotMatch(first, /previous vectors/);
  assert.equal(await fresh.locator('.status').textContent(), '');
});

test('a paste past the bound is refused before it reaches the field, with a message naming it', async () => {
  await openLab(page, `${browser.url}index.html`);
  await page.waitForFunction(() => customElements.get('vector-paste'));
  const result = await page.locator('attention-lab vector-paste').evaluate((panel) => {
    panel.open();
    const field = panel.shadowRoot.querySelector('textarea[name="q"]');
    const before = field.value;
    const data = new DataTransfer();
    data.setData('text/plain', '1\n'.repeat(5 * 1024 * 1024 / 2));
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    field.dispatchEvent(event);
    panel.value = { k: '\n'.repeat(5 * 1024 * 1024) };
    return {
      refused: event.defaultPrevented,
      unchanged: field.value === before,
      kUnchanged: panel.shadowRoot.querySelector('textarea[name="k"]').value.length < 1000,
      alert: panel.shadowRoot.querySelector('.alert').textContent,
      invalid: field.getAttribute('aria-invalid'),
    };
  });
  assert.deepEqual({ ...result, alert: undefined }, { refused: true, unchanged: true, kUnchanged: true, alert: undefined, invalid: 'true' });
  assert.match(result.alert, /^K has [\d,]+ characters; at most 1,048,576 are read/);
});

test('a stalled word file: asked again, then named with a Retry; the other words work meanwhile; Retry loads it', { timeout: 90000 }, async () => {
  const file = bucketName(bucketOf('ocean'));
  const stalled = [];
  await page.route(`**/assets/glove/${file}`, (route) => stalled.push(route)); // never answered
  await page.goto(`${browser.url}index.html?sentence=the+ocean`);
  const lab = page.locator('attention-lab');
  const note = lab.locator('.note.failed');
  await note.waitFor({ timeout: 40000 });
  assert.match(await note.textContent(), new RegExp(`The word vectors of ocean could not be loaded: .*/${file.replace('.', '\\.')} did not arrive within 8 s \\(asked twice\\)\\.`));
  assert.equal(stalled.length, 2, 'asked once, and once again');
  assert.equal(await lab.locator('.note.loading').count(), 0, 'not "Loading…" beside the failure');
  assert.equal(await lab.locator('.lab > .alert').textContent(), '');
  // the words that arrived work meanwhile: ocean stands in as unknown, and the note stays the failure's
  const meanwhile = await until(() => lab.evaluate((el) => el.state?.tokens.map((t) => `${t.text}:${t.known}`).join(' ')), (text) => text === 'the:true ocean:false', { what: 'the result with ocean standing in' });
  assert.equal(meanwhile, 'the:true ocean:false');
  assert.equal(await lab.locator('.note.failed').count(), 1, 'the failure is still said, not "not in vocabulary"');
  await page.unroute(`**/assets/glove/${file}`);
  await lab.getByRole('button', { name: 'Try again' }).click();
  await lab.evaluate((el) => el.ready);
  const shown = await until(() => lab.evaluate((el) => el.state?.tokens.map((t) => `${t.text}:${t.known}`).join(' ')), (text) => text === 'the:true ocean:true', { what: 'the result with ocean' });
  assert.equal(shown, 'the:true ocean:true');
  assert.equal(await lab.locator('.note.failed').count(), 0);
});

// The training experiment of index.html driven through a worker whose replies the test holds
// back and lets through in one task (window.held.flush()), or keeps for good (a silent worker).
async function heldExperiment({ watchdogMs } = {}) {
  await openLab(page, `${browser.url}index.html`);
  await page.evaluate(async (ms) => {
    const { TrainingSession } = await import('/train/session.js');
    const held = { hold: false, queue: [], workers: [] };
    held.flush = () => {
      const queue = held.queue.splice(0);
      for (const [target, data] of queue) target.dispatchEvent(new MessageEvent('message', { data }));
    };
    const createWorker = () => {
      const real = new Worker('/train/worker.js', { type: 'module' });
      const target = new EventTarget();
      real.addEventListener('message', (event) => (held.hold ? held.queue.push([target, event.data]) : target.dispatchEvent(new MessageEvent('message', { data: event.data }))));
      held.workers.push(real);
      return { postMessage: (m) => real.postMessage(m), addEventListener: (t, l) => target.addEventListener(t, l), terminate: () => real.terminate() };
    };
    window.held = held;
    await customElements.whenDefined('training-experiment');
    document.querySelector('training-experiment').session = new TrainingSession({ createWorker, ...(ms ? { watchdogMs: ms } : {}) });
  }, watchdogMs);
  await page.locator('#training').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('training-experiment').session.state.runs, null, { timeout: 30000 });
}

const experimentText = (selector) => page.locator('training-experiment').evaluate((el, s) => el.shadowRoot.querySelector(s).textContent, selector);
const frames = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

test('the training status and announcement describe the run on screen, also when it ends within a frame of the last', { timeout: 90000 }, async () => {
  await heldExperiment();
  const experiment = page.locator('training-experiment');
  const setSteps = (n) => experiment.evaluate((el, v) => {
    const input = el.shadowRoot.querySelector('[name=steps]');
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, n);
  await setSteps(20);
  await experiment.getByRole('button', { name: 'Train', exact: true }).click();
  // (the frames of the first run are drawn as usual)
  await until(() => experimentText('.status .phase'), (text) => text === 'Done: 20 steps.', { timeout: 30000, what: 'the first run done' });
  // the second run, from its first reply to its last, within one frame: no frame is drawn until it is done
  await page.evaluate(() => {
    const frames = [];
    const real = window.requestAnimationFrame;
    window.requestAnimationFrame = (callback) => (frames.push(callback), frames.length);
    window.releaseFrames = () => {
      window.requestAnimationFrame = real;
      real(() => frames.forEach((callback) => callback(performance.now())));
    };
  });
  await setSteps(2);
  await experiment.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForFunction(() => {
    const { phase, steps } = document.querySelector('training-experiment').session.state;
    return phase === 'done' && steps === 2;
  }, null, { timeout: 30000 });
  await page.evaluate(() => window.releaseFrames());
  await frames();
  assert.equal(await experimentText('.status .phase'), 'Done: 2 steps.');
  assert.match(await experimentText('.status .outcome'), /Step 2 of 2 /);
});

test('a training worker that stops answering is noticed and said; Restart starts a new one', { timeout: 90000 }, async () => {
  await heldExperiment({ watchdogMs: 1500 });
  const experiment = page.locator('training-experiment');
  await page.evaluate(() => (window.held.hold = true)); // from now on the worker is silent
  await experiment.getByRole('button', { name: 'Train', exact: true }).click();
  const status = await until(() => experimentText('.status .phase'), (text) => text.startsWith('Training stopped'), { timeout: 10000, what: 'the silent worker noticed' });
  assert.equal(status, 'Training stopped: the training worker stopped answering (nothing for 1.5 s). Restart starts a new worker.');
  assert.equal(await experiment.getByRole('button', { name: 'Pause', exact: true }).isDisabled(), true, 'no dead Pause');
  await page.evaluate(() => (window.held.hold = false));
  await experiment.getByRole('button', { name: 'Restart', exact: true }).click();
  await until(() => experimentText('.status .phase'), (text) => /^Ready at step 0/.test(text), { timeout: 30000, what: 'a new worker, ready' });
  assert.equal(await page.evaluate(() => window.held.workers.length), 2);
  assert.equal(await experiment.getByRole('button', { name: 'Restart', exact: true }).isHidden(), true);
});
