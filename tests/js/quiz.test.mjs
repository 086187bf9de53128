// The closing quiz (web/lesson/quiz.js): six to eight questions, each with its right option among
// its options, every word in both languages, and the check.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import nb from '../../web/i18n/nb.js';
import { QUIZ, QUIZ_IDS, checkQuiz } from '../../web/lesson/quiz.js';

test('six to eight questions, each with two or more options and its answer among them', () => {
  assert.ok(QUIZ_IDS.length >= 6 && QUIZ_IDS.length <= 8, `${QUIZ_IDS.length} questions`);
  for (const id of QUIZ_IDS) {
    const { options, answer } = QUIZ[id];
    assert.ok(options.length >= 2 && new Set(options).size === options.length, id);
    assert.ok(options.includes(answer), id);
  }
});

test('every question, option and reason is written in English and Norwegian', () => {
  for (const id of QUIZ_IDS) {
    for (const key of ['question', 'why', ...QUIZ[id].options].map((part) => QUIZ[id].keys[part])) {
      for (const [lang, table] of [['en', en], ['nb', nb]]) assert.ok(typeof table[key] === 'string' && table[key].length > 10, `${lang} ${key}`);
      assert.notEqual(en[key], nb[key], `${key} translated`);
    }
  }
  for (const key of ['quiz.kicker', 'quiz.check', 'quiz.chooseFirst', 'quiz.right', 'quiz.wrong', 'story.headingQuiz', 'story.leadQuiz']) assert.ok(en[key] && nb[key], key);
  // the lead counts the questions in words
  assert.match(en['story.leadQuiz'], new RegExp(`^${['', '', '', '', '', '', 'Six', 'Seven', 'Eight'][QUIZ_IDS.length]} questions`));
  assert.match(nb['story.leadQuiz'], new RegExp(`^${['', '', '', '', '', '', 'Seks', 'Sju', 'Åtte'][QUIZ_IDS.length]} spørsmål`));
});

test('the check: the right option only; an unknown question is an error', () => {
  for (const id of QUIZ_IDS) for (const option of QUIZ[id].options) assert.equal(checkQuiz(id, option), option === QUIZ[id].answer);
  assert.equal(checkQuiz('root', null), false);
  assert.throws(() => checkQuiz('nope', 'x'), RangeError);
});
