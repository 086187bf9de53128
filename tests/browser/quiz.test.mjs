// The closing quiz on the lesson page (<quiz-question>, web/lesson/quiz.js) in Chromium: a
// question checked once says whether it was right and why, then holds still; its answer is
// announced as the lesson's `answer` event (what an LMS records) and kept across a reload; its
// words are Norwegian on a Norwegian page.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import nb from '../../web/i18n/nb.js';
import { until, useBrowser } from './browser.mjs';

let browser;
let page;

useBrowser({ viewport: { width: 1280, height: 900 } }, (opened) => ({ browser, page } = opened));

async function openLesson(query = '') {
  await page.goto(`${browser.url}lesson.html${query}`);
  await page.waitForFunction(() => customElements.get('quiz-question') && [...document.querySelectorAll('quiz-question')].every((q) => q.description), null, { timeout: 30000 });
}

const question = (id) => `quiz-question[data-question="${id}"]`;
const read = (id) => page.locator(question(id)).evaluate((el) => ({
  said: el.shadowRoot.querySelector('.feedback').textContent,
  locked: [...el.shadowRoot.querySelectorAll('input, button')].every((c) => c.disabled),
  shown: [...el.shadowRoot.querySelectorAll('label.answer input')].map((input) => input.value),
}));

test('checked once: right or not, and why; then it holds still; the answer is announced and kept', async () => {
  await openLesson();
  await page.evaluate(() => localStorage.clear());
  await openLesson();
  assert.equal(await page.locator('attention-lesson section[data-part]').last().getAttribute('data-part'), 'quiz', 'the quiz closes the lesson');
  await page.evaluate(() => {
    window.__answers = [];
    document.addEventListener('answer', (event) => window.__answers.push(event.detail));
  });
  // no choice yet: asked to choose
  await page.locator(`${question('root')} button.check`).click();
  assert.equal((await read('root')).said, en['quiz.chooseFirst']);
  // a wrong choice: the verdict, the reason, the right option marked, nothing more to press
  await page.locator(`${question('root')} input[value="larger"]`).check();
  await page.locator(`${question('root')} button.check`).click();
  const wrong = await read('root');
  assert.ok(wrong.said.startsWith(`${en['quiz.wrong']} Var(q·k / c)`), wrong.said);
  assert.equal(wrong.locked, true);
  assert.deepEqual(wrong.shown, ['spread']);
  // a right one
  await page.locator(`${question('output')} input[value="average"]`).check();
  await page.locator(`${question('output')} button.check`).click();
  assert.ok((await read('output')).said.startsWith(`${en['quiz.right']} output = `));
  const answers = await until(() => page.evaluate(() => window.__answers), (a) => a.length === 2, { what: 'two answers' });
  assert.deepEqual(answers.map(({ id, kind, type, response, correct, result, step }) => ({ id, kind, type, response, correct, result, step })), [
    { id: 'quiz-root', kind: 'quiz', type: 'choice', response: 'larger', correct: 'spread', result: 'wrong', step: 'quiz' },
    { id: 'quiz-output', kind: 'quiz', type: 'choice', response: 'average', correct: 'average', result: 'correct', step: 'quiz' },
  ]);
  assert.equal(answers[1].description, en['quiz.outputQuestion']);
  // the quiz is recorded, not scored
  assert.equal(await page.evaluate(() => document.querySelector('attention-lesson').score.raw), 0);
  // kept across a reload
  await page.reload();
  await openLesson();
  const back = await until(() => read('root'), (x) => x.said !== '', { what: 'the quiz answer put back' });
  assert.deepEqual(back, wrong);
  assert.equal(await page.locator(`${question('root')} input[value="larger"]`).isChecked(), true);
  // Start over: the page forgets what it kept (clearing localStorage alone would be rewritten on leaving)
  await page.evaluate(() => document.querySelector('attention-lesson').startOver());
});

test('in Norwegian on a Norwegian page', async () => {
  await openLesson('?lang=nb');
  assert.equal(await page.locator(question('output')).evaluate((el) => el.description), nb['quiz.outputQuestion']);
  await page.locator(`${question('output')} input[value="row"]`).check();
  await page.locator(`${question('output')} button.check`).click();
  assert.ok((await read('output')).said.startsWith(`${nb['quiz.wrong']} utdata = `));
  // Start over: the page forgets what it kept (clearing localStorage alone would be rewritten on leaving)
  await page.evaluate(() => document.querySelector('attention-lesson').startOver());
});
