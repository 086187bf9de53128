// The closing quiz on the lesson page (<quiz-question>, web/lesson/quiz.js) in Chromium: a
// question checked once says whether it was right and why, then holds still; its answer is
// announced as the lesson's `answer` event (what an LMS records) and kept across a reload; its
// words are Norwegian on a Norwegian page. With `pretest` the same questions come first, and
// say nothing of right or wrong.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import nb from '../../web/i18n/nb.js';
import { until, useBrowser } from './browser.mjs';
import { AXE_OWN_PROBLEM, axeViolations, describeViolations } from './axe.mjs';
import { CONTENT_SECURITY_POLICY } from '../../scripts/serve.mjs';

let browser;
let page;

useBrowser({ viewport: { width: 1280, height: 900 } }, (opened) => ({ browser, page } = opened), (problem) => AXE_OWN_PROBLEM.test(problem));

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

test('with pretest: the questions first, answered without right, wrong or why; the closing quiz still says both', async () => {
  // lesson.html as an author who sets `pretest` writes it, beside it on the same origin
  const html = (await readFile(new URL('../../web/lesson.html', import.meta.url), 'utf8')).replace('<attention-lesson ', '<attention-lesson pretest ');
  await page.route('**/pretest-lesson.html', (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY }, body: html }));
  await page.goto(`${browser.url}pretest-lesson.html`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForFunction(() => customElements.get('quiz-question') && [...document.querySelectorAll('quiz-question')].every((q) => q.description), null, { timeout: 30000 });
  const parts = await page.locator('attention-lesson section[data-part]').evaluateAll((sections) => sections.map((s) => s.dataset.part));
  assert.equal(parts[0], 'pretest', 'the pretest comes first');
  assert.equal(parts.at(-1), 'quiz', 'the closing quiz closes the lesson');
  assert.equal(await page.locator('#pretest h2').textContent(), en['story.headingPretest']);
  await page.evaluate(() => {
    window.__answers = [];
    document.addEventListener('answer', (event) => window.__answers.push(event.detail));
  });
  const before = `#pretest ${question('root')}`;
  const after = `#quiz ${question('root')}`;
  const readIn = (selector) => page.locator(selector).evaluate((el) => ({
    said: el.shadowRoot.querySelector('.feedback').textContent,
    kind: el.shadowRoot.querySelector('.feedback').className,
    locked: [...el.shadowRoot.querySelectorAll('input, button')].every((c) => c.disabled),
    shown: [...el.shadowRoot.querySelectorAll('label.answer input')].map((input) => input.value),
  }));
  // a wrong answer before the lesson: saved, nothing more
  await page.locator(`${before} input[value="larger"]`).check();
  await page.locator(`${before} button.check`).click();
  const saved = await until(() => readIn(before), (x) => x.locked, { what: 'the pretest answer checked' });
  assert.deepEqual(saved, { said: en['quiz.saved'], kind: 'feedback', locked: true, shown: [] }, 'no verdict, no why, no option marked');
  for (const words of [en['quiz.wrong'], en['quiz.right'], en['quiz.rootWhy'].slice(0, 20)]) assert.ok(!saved.said.includes(words), saved.said);
  // the same question after the lesson: its own, with its feedback
  assert.equal((await readIn(after)).locked, false, 'the closing quiz\'s question is still open');
  await page.locator(`${after} input[value="spread"]`).check();
  await page.locator(`${after} button.check`).click();
  const closing = await until(() => readIn(after), (x) => x.locked, { what: 'the quiz answer checked' });
  assert.ok(closing.said.startsWith(`${en['quiz.right']} Var(q·k / c)`), closing.said);
  assert.deepEqual(closing.shown, ['spread']);
  const answers = await until(() => page.evaluate(() => window.__answers), (a) => a.length === 2, { what: 'two answers' });
  assert.deepEqual(answers.map(({ id, kind, step, response, correct, result }) => ({ id, kind, step, response, correct, result })), [
    { id: 'pretest-root', kind: 'pretest', step: 'pretest', response: 'larger', correct: 'spread', result: 'wrong' },
    { id: 'quiz-root', kind: 'quiz', step: 'quiz', response: 'spread', correct: 'spread', result: 'correct' },
  ]);
  assert.equal(await page.evaluate(() => document.querySelector('attention-lesson').score.raw), 0, 'not scored');
  // axe on the pretest section, answered
  const violations = await axeViolations(page, ['#pretest']);
  assert.equal(violations.length, 0, describeViolations([{ where: '#pretest', violations }]));
  // kept across a reload, locked and still silent; kept through "Start over" too
  await page.reload();
  await page.waitForFunction(() => customElements.get('quiz-question'), null, { timeout: 30000 });
  assert.deepEqual(await until(() => readIn(before), (x) => x.locked, { what: 'the pretest answer put back' }), saved);
  assert.equal(await page.locator(`${before} input[value="larger"]`).isChecked(), true);
  await page.evaluate(() => document.querySelector('attention-lesson').startOver());
  assert.deepEqual(await readIn(before), saved, 'Start over keeps the before');
  assert.equal((await readIn(after)).locked, false, 'and clears the after');
  await page.evaluate(() => localStorage.clear());
});
