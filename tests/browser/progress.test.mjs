// Kept progress on the lesson page and the demo page (web/lesson-keep.js, web/lesson/progress.js)
// in Chromium: the learner's answers and place survive a reload; "Start over" clears them and what
// the page kept; a corrupt or foreign value in localStorage is ignored without an error; a visit
// that answers nothing keeps nothing; a link to a place goes there, not to the place kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import { PAGE_PROGRESS_KEY, PROGRESS_KEY } from '../../web/lesson/progress.js';
import { drawWholeLesson, until, useBrowser } from './browser.mjs';

let browser;
let page;

useBrowser({ viewport: { width: 1280, height: 900 } }, (opened) => ({ browser, page } = opened));

const RIGHT = (Math.exp(1) / (Math.exp(2) + Math.exp(1) + 1)).toFixed(4); // softmax(2, 1, 0)'s second weight, in float64

async function openLesson() {
  await page.goto(`${browser.url}lesson.html`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true' && customElements.get('lesson-exercise') && customElements.get('lesson-predict') &&
    [...document.querySelectorAll('lesson-exercise')].every((e) => e.engine && e.shadowRoot.querySelector('.prompt').textContent) &&
    document.querySelector('attention-lesson').pending === false, null, { timeout: 30000 });
}

const read = () => page.evaluate(() => {
  const exercise = document.querySelector('lesson-exercise[data-exercise="softmaxWeight"]').shadowRoot;
  const predict = document.querySelector('lesson-predict[data-prediction="variance"]').shadowRoot;
  return {
    answer: exercise.querySelector('input').value,
    said: exercise.querySelector('.feedback').textContent,
    four: predict.querySelector('input[value="four"]').checked,
    veiled: document.querySelector('variance-lab').inert,
    score: document.querySelector('attention-lesson').score.raw,
  };
});
const kept = (key = PROGRESS_KEY) => page.evaluate((name) => localStorage.getItem(name), key);
const inView = (id) => until(() => page.evaluate((section) => {
  const top = document.getElementById(section).getBoundingClientRect().top;
  return top > -5 && top < innerHeight / 2;
}, id), Boolean, { what: `section ${id} in view`, timeout: 30000 });

test('answers and place survive a reload; Start over clears them and what was kept', async () => {
  await openLesson();
  await page.evaluate(() => localStorage.clear());
  await openLesson();
  assert.equal(await kept(), null);
  const exercise = page.locator('lesson-exercise[data-exercise="softmaxWeight"]');
  await exercise.locator('input').fill(RIGHT);
  await exercise.locator('button.check').click();
  await page.locator('lesson-predict[data-prediction="variance"] input[value="four"]').check();
  await page.locator('lesson-predict[data-prediction="variance"] button.check').click();
  await until(kept, (text) => text?.includes('predict-variance'), { what: 'the answers kept' });
  await page.evaluate(() => document.getElementById('claim-2').scrollIntoView({ block: 'start' }));
  await page.reload();
  await openLesson();
  await inView('claim-2');
  const back = await until(read, (x) => x.said !== '', { what: 'the answers put back' });
  assert.deepEqual({ ...back, said: back.said.startsWith(en['exercise.right']) }, { answer: RIGHT, said: true, four: true, veiled: false, score: 1 });

  // Start over: visible, in the reader's words; it clears the answers, the place and what the page kept
  const button = page.locator('attention-lesson .lesson-start-over button');
  assert.equal(await button.textContent(), en['progress.startOver']);
  assert.ok(await button.isVisible());
  await button.click();
  assert.deepEqual(await read(), { answer: '', said: '', four: false, veiled: true, score: 0 });
  assert.equal(await kept(), null);
  await page.reload();
  await openLesson();
  assert.deepEqual(await read(), { answer: '', said: '', four: false, veiled: true, score: 0 });
  assert.equal(await kept(), null, 'a visit that answers nothing keeps nothing');
});

test('a corrupt or foreign value kept is ignored: the lesson starts afresh, without an error', async () => {
  await openLesson();
  for (const value of ['{"v":2,"a":{"exercise-softmaxWeight":', '{"v":99,"a":{}}', '"hello"', JSON.stringify({ v: 2, at: 'nowhere', a: { 'exercise-softmaxWeight': { a: 12, n: 'x', s: 'yes' }, 'predict-variance': { c: '<img>' } } })]) {
    await page.evaluate(([key, text]) => localStorage.setItem(key, text), [PROGRESS_KEY, value]);
    await page.reload();
    await openLesson();
    const state = await read();
    assert.deepEqual({ ...state, said: state.said }, { answer: '', said: '', four: false, veiled: true, score: 0 }, value);
  }
  // Start over: the page forgets what it kept (clearing localStorage alone would be rewritten on leaving)
  await page.evaluate(() => document.querySelector('attention-lesson').startOver());
});

test('the demo page keeps its lesson\'s answers and place under its own key; a #link wins over the place', async () => {
  const openIndex = async (hash = '') => {
    await page.goto(`${browser.url}index.html${hash}`);
    await page.locator('attention-lab').evaluate((lab) => lab.ready);
    await drawWholeLesson(page);
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true' &&
      [...document.querySelectorAll('lesson-exercise')].every((e) => e.engine && e.shadowRoot?.querySelector('.prompt')?.textContent), null, { timeout: 90000 });
  };
  await openIndex();
  await page.evaluate(() => localStorage.clear());
  await openIndex();
  const exercise = page.locator('lesson-exercise[data-exercise="softmaxWeight"]');
  await exercise.locator('input').fill(RIGHT);
  await exercise.locator('button.check').click();
  await until(() => kept(PAGE_PROGRESS_KEY), (text) => text?.includes('exercise-softmaxWeight'), { what: 'the answer kept' });
  assert.equal(await kept(PROGRESS_KEY), null, 'the lesson page\'s progress is its own');
  await page.evaluate(() => document.getElementById('claim-2').scrollIntoView({ block: 'start' }));
  await page.reload();
  await openIndex();
  await inView('claim-2');
  await until(read, (x) => x.answer === RIGHT && x.said.startsWith(en['exercise.right']), { what: 'the answer put back' });

  // a link to a place: there, with the answers
  await openIndex('#training');
  await inView('training');
  assert.equal((await read()).answer, RIGHT);

  await page.locator('attention-lesson .lesson-start-over button').click();
  assert.equal(await kept(PAGE_PROGRESS_KEY), null);
  assert.equal((await read()).answer, '');
});
