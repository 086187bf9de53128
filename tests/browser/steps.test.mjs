// The lesson's steps chosen for a class (lesson.html?steps=…, web/lesson-steps.js and the
// `steps` attribute of <attention-lesson>) in Chromium: exactly the steps named, in their order,
// and what counts steps counting those alone; a link's unknown or repeated step named in the
// page's notice; the teacher's checkboxes writing the link; the answers of the steps not shown
// kept through a visit and its "Start over".
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import { LESSON_STEPS } from '../../web/lesson/steps.js';
import { PROGRESS_KEY } from '../../web/lesson/progress.js';
import { until, useBrowser } from './browser.mjs';

let browser;
let page;

useBrowser({ viewport: { width: 1280, height: 900 } }, (opened) => ({ browser, page } = opened));

const RIGHT = (Math.exp(1) / (Math.exp(2) + Math.exp(1) + 1)).toFixed(4); // softmax(2, 1, 0)'s second weight, in float64

async function openLesson(query = '') {
  await page.goto(`${browser.url}lesson.html${query}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true' && customElements.get('lesson-exercise') && customElements.get('lesson-predict') &&
    [...document.querySelectorAll('lesson-exercise')].every((e) => e.engine && e.shadowRoot.querySelector('.prompt').textContent) &&
    document.querySelector('attention-lesson').pending === false, null, { timeout: 30000 });
}

const shown = () => page.evaluate(() => [...document.querySelectorAll('attention-lesson section')].map((s) => [s.dataset.part, s.id]));
const kept = () => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null')?.a ?? null, PROGRESS_KEY);

test('?steps=variance,saturation,quiz shows exactly those steps, in that order; the score and questions count them alone', async () => {
  await openLesson('?steps=variance,saturation,quiz');
  // the section ids are the lesson's own (old links name them): claim-1, claim-2
  assert.deepEqual(await shown(), [['variance', 'claim-1'], ['saturation', 'claim-2'], ['quiz', 'quiz']]);
  const lesson = await page.evaluate(() => {
    const element = document.querySelector('attention-lesson');
    return { score: element.score, steps: [...new Set(element.questions.map((q) => q.step))], notice: document.getElementById('url-notice').hidden };
  });
  // the exercises of those steps: variance's d_k scale and saturation's width (docs/lms.md lists them)
  assert.deepEqual(lesson, { score: { raw: 0, max: 2, completed: false }, steps: ['variance', 'saturation', 'quiz'], notice: true });
  // the list the command line checks against is the element's own, in its order
  assert.deepEqual(await page.evaluate(() => import('./components/lesson/attention-lesson.js').then((m) => m.STEPS.map((s) => s.part))), LESSON_STEPS);

  // the teacher's checkboxes: the steps shown ticked, each named by its heading; the link follows them
  const chooser = page.locator('#choose-steps');
  await chooser.locator('summary').click();
  const boxes = chooser.getByRole('checkbox');
  assert.equal(await boxes.count(), LESSON_STEPS.length);
  // every control at least 24 × 24 px (WCAG 2.2's target size), as the page's others (keyboard.test.mjs)
  const small = await chooser.locator('summary, input, button').evaluateAll((controls) => controls
    .map((c) => [c.localName, c.getBoundingClientRect()]).filter(([, r]) => r.width < 24 || r.height < 24).map(([name, r]) => `${name} ${r.width}×${r.height}`));
  assert.deepEqual(small, []);
  const ticked = () => chooser.locator('input:checked').evaluateAll((inputs) => inputs.map((input) => input.value));
  assert.deepEqual(await ticked(), ['variance', 'saturation', 'quiz']);
  const link = () => chooser.locator('#steps-link').inputValue();
  assert.equal(new URL(await link()).search, '?steps=variance,saturation,quiz');
  await chooser.getByRole('checkbox', { name: en['story.headingStep'].replace('d_k', 'dk') }).check(); // by its label, as a screen reader names it
  assert.equal(new URL(await link()).search, '?steps=variance,saturation,quiz,step', 'a step ticked joins after the ones shown');
  // by keyboard: Space on the focused box unticks it
  await chooser.getByRole('checkbox', { name: en['story.headingQuiz'] }).focus();
  await page.keyboard.press('Space');
  assert.equal(new URL(await link()).search, '?steps=variance,saturation,step');
  for (const box of await boxes.all()) await box.check();
  assert.equal(new URL(await link()).search, '?steps=variance,saturation,quiz,step,output,heads,gradient,overflow', 'every step, the ones shown first');
});

test('a link naming an unknown or repeated step: a notice in the page\'s words, the valid steps shown', async () => {
  await openLesson('?steps=variance,bogus,Variance');
  assert.deepEqual(await shown(), [['variance', 'claim-1']]);
  const notice = page.locator('#url-notice');
  assert.ok(await notice.isVisible());
  const items = await notice.locator('li').allTextContents();
  assert.equal(items.length, 2, items.join('\n'));
  assert.match(items[0], /bogus/);
  assert.match(items[0], /The steps are step, output, heads, variance, saturation, gradient, overflow, quiz\./);
  assert.match(items[1], /^steps names variance more than once/);
  assert.equal(await notice.locator('p').textContent(), en['link.problems']);
});

test('the answers of the steps not shown are kept through the visit and its "Start over"', async () => {
  await openLesson();
  await page.evaluate(() => localStorage.clear());
  await openLesson();
  // on the whole lesson: an exercise of the first step solved
  const weight = page.locator('lesson-exercise[data-exercise="softmaxWeight"]');
  await weight.locator('input').fill(RIGHT);
  await weight.locator('button.check').click();
  await until(kept, (answers) => answers?.['exercise-softmaxWeight']?.s === true, { what: 'the answer kept' });

  // a link to two other steps: the first step is not shown; an answer there is kept beside the old one
  await openLesson('?steps=variance,quiz');
  assert.deepEqual((await shown()).map(([part]) => part), ['variance', 'quiz']);
  await page.locator('lesson-predict[data-prediction="variance"] input[value="four"]').check();
  await page.locator('lesson-predict[data-prediction="variance"] button.check').click();
  let answers = await until(kept, (a) => a?.['predict-variance'], { what: 'the new answer kept' });
  assert.deepEqual(Object.keys(answers), ['exercise-softmaxWeight', 'predict-variance'], 'the first answered first');
  // "Start over" clears the steps shown; the first step's answer stays kept
  await page.locator('attention-lesson .lesson-start-over button').click();
  answers = await until(kept, (a) => a && !a['predict-variance'], { what: 'the steps shown cleared' });
  assert.deepEqual(Object.keys(answers), ['exercise-softmaxWeight']);
  assert.equal(await page.evaluate(() => document.querySelector('attention-lesson').score.raw), 0);

  // the whole lesson again: the answer is there, and counts
  await openLesson();
  const back = await until(() => weight.evaluate((el) => ({ answer: el.shadowRoot.querySelector('input').value, score: document.querySelector('attention-lesson').score.raw })),
    (x) => x.answer !== '', { what: 'the answer put back' });
  assert.deepEqual(back, { answer: RIGHT, score: 1 });
  await page.locator('attention-lesson .lesson-start-over button').click();
  assert.equal(await page.evaluate((key) => localStorage.getItem(key), PROGRESS_KEY), null, 'the whole lesson started over: nothing kept');
});
