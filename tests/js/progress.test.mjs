// Kept progress (web/lesson/progress.js): what the lesson page keeps in localStorage and an LMS
// in suspend_data — read back as written, anything corrupt or foreign ignored (never thrown),
// the worst case within SCORM 1.2's 4,096 characters with every answer kept — and the records
// web/lms/scorm.js writes per answer, checked by SCORM's own formats (written out here).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ANSWER_MAX, PROGRESS_KEY, clearProgress, encodeProgress, loadProgress, readProgress, saveProgress } from '../../web/lesson/progress.js';
import { SUSPEND_DATA_LIMIT, interactionRecord, readSuspendData, scormDecimal, suspendData } from '../../web/lms/scorm.js';
import { EXERCISE_IDS } from '../../web/lesson/exercises.js';
import { PREDICTIONS } from '../../web/lesson/story.js';
import { QUIZ, QUIZ_IDS } from '../../web/lesson/quiz.js';

const memoryStorage = () => {
  const items = new Map();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), removeItem: (k) => items.delete(k), items };
};

const sample = {
  at: 'claim-2',
  controls: { sentence: 'the cat sat', dk: '6', row: '1', scaled: true, seed: '1' },
  answers: {
    'exercise-scale': { answer: '0,67', attempts: 3, wrong: 2, solved: true, credited: false, revealed: true },
    'predict-variance': { choice: 'four', revealed: 'guess' },
  },
  seen: ['step', 'output'],
  reported: ['predict-variance', null, 'exercise-scale'],
};

test('progress reads back as written, the answers in the order given', () => {
  const back = readProgress(encodeProgress(sample));
  assert.deepEqual(back, sample);
  assert.deepEqual(Object.keys(back.answers), ['exercise-scale', 'predict-variance']);
});

test('a corrupt, foreign or older value is ignored, never thrown', () => {
  for (const text of ['', 'not json', '{"v":1,"at":', 'null', '[]', '42', '"text"', '{"v":3,"at":"claim-1"}', '{"at":"claim-1"}', JSON.stringify({ ...JSON.parse(encodeProgress(sample)), v: '2' })])
    assert.equal(readProgress(text), null, text);
  // fields of the wrong kind are dropped one by one; the rest is kept
  const odd = JSON.stringify({ v: 2, at: '<script>', c: { sentence: 7, dk: '6', '__proto__x': 'y' }, a: { 'exercise-scale': { n: -1, s: 'yes', k: true, a: 'x'.repeat(ANSWER_MAX + 1) }, 'bad id': { c: 'four' }, 'predict-variance': 'four' }, s: 'step', r: [1, 'ok'] });
  assert.deepEqual(readProgress(odd), { at: null, controls: { dk: '6' }, answers: { 'exercise-scale': { credited: true } }, seen: [], reported: ['ok'] });
  // the first version (a place and the controls) still reads
  assert.deepEqual(readProgress('{"v":1,"at":"claim-3","c":{"sentence":"a b"}}'), { at: 'claim-3', controls: { sentence: 'a b' }, answers: {}, seen: [], reported: [] });
});

test('storage: saved, loaded, cleared; a storage that throws is no error', () => {
  const storage = memoryStorage();
  assert.equal(loadProgress(storage), null);
  assert.equal(saveProgress(storage, sample), true);
  assert.deepEqual(loadProgress(storage), sample);
  assert.ok(storage.items.has(PROGRESS_KEY));
  storage.setItem(PROGRESS_KEY, '{"v":2,');
  assert.equal(loadProgress(storage), null);
  clearProgress(storage);
  assert.equal(storage.items.size, 0);
  const refusing = { getItem() { throw new Error('SecurityError'); }, setItem() { throw new Error('QuotaExceededError'); }, removeItem() { throw new Error('SecurityError'); } };
  assert.equal(loadProgress(refusing), null);
  assert.equal(saveProgress(refusing, sample), false);
  assert.doesNotThrow(() => clearProgress(refusing));
  assert.equal(loadProgress(null), null);
});

test('the worst case fits SCORM 1.2\'s suspend_data: every question answered at length, a long sentence cut', () => {
  const predictions = Object.keys(PREDICTIONS);
  const ids = [...predictions.map((id) => `predict-${id}`), ...EXERCISE_IDS.map((id) => `exercise-${id}`)];
  // twice as many questions as the lesson has now, each id as long as the lesson's longest: room for more
  const longest = Math.max(...ids.map((id) => id.length));
  const questions = Array.from({ length: 2 * ids.length }, (_, i) => `q${i}-${'x'.repeat(longest)}`.slice(0, longest + 4));
  const answers = Object.fromEntries(questions.map((id) => [id, { answer: '9'.repeat(ANSWER_MAX), attempts: 999999, wrong: 999999, solved: true, credited: false, revealed: true }]));
  const controls = { sentence: 'word '.repeat(5000), dk: '10', row: '63', scaled: false, seed: '4294967295' };
  const steps = ['step', 'output', 'heads', 'variance', 'saturation', 'gradient', 'overflow'];
  const text = suspendData('overflow', controls, { answers, seen: steps, reported: questions });
  assert.ok(text.length <= SUSPEND_DATA_LIMIT, `${text.length} characters`);
  const back = readSuspendData(text);
  assert.deepEqual(back.answers, answers, 'every answer kept');
  assert.deepEqual(back.reported, questions);
  assert.deepEqual(back.seen, steps);
  assert.ok(controls.sentence.startsWith(back.controls.sentence), 'the sentence is cut, not replaced');
  assert.ok(back.controls.sentence.length > 100, `the sentence keeps what fits (${back.controls.sentence.length})`);
  // beyond any room, answers are dropped from the last given, and the place is kept
  const tight = readSuspendData(encodeProgress({ at: 'claim-1', controls, answers }, 600));
  assert.equal(tight.at, 'claim-1');
  assert.deepEqual(Object.keys(tight.answers), questions.slice(0, Object.keys(tight.answers).length));
});

test('a pretest\'s answers are kept apart from the closing quiz\'s, and the whole lesson with a pretest fits suspend_data', () => {
  // every question of the lesson with a pretest, each id written here as the lesson names it
  const quiz = QUIZ_IDS.map((id) => `quiz-${id}`);
  const pretest = QUIZ_IDS.map((id) => `pretest-${id}`);
  const ids = [...pretest, ...Object.keys(PREDICTIONS).map((id) => `predict-${id}`), ...EXERCISE_IDS.map((id) => `exercise-${id}`), ...quiz];
  // a question's longest option id as its choice: the longest a choice can be
  const longestOption = (id) => QUIZ[id.replace(/^\w+-/, '')]?.options.reduce((a, b) => (b.length > a.length ? b : a)) ?? 'x'.repeat(20);
  const answers = Object.fromEntries(ids.map((id) => [id, id.startsWith('exercise-')
    ? { answer: '9'.repeat(ANSWER_MAX), attempts: 999999, wrong: 999999, solved: true, credited: false, revealed: true }
    : { choice: longestOption(id), attempts: 1, revealed: 'guess' }]));
  // the same question before and after: two answers, each its own
  answers['pretest-root'] = { choice: 'larger', attempts: 1 };
  answers['quiz-root'] = { choice: 'spread', attempts: 1 };
  const controls = { sentence: 'word '.repeat(5000), dk: '10', row: '63', scaled: false, seed: '4294967295' };
  const text = suspendData('pretest', controls, { answers, seen: ['pretest', 'step'], reported: ids });
  assert.ok(text.length <= SUSPEND_DATA_LIMIT, `${text.length} characters`);
  const back = readSuspendData(text);
  assert.deepEqual(back.answers, answers, 'every answer kept, the pretest\'s first as given');
  assert.deepEqual(Object.keys(back.answers).slice(0, pretest.length), pretest);
  assert.deepEqual([back.answers['pretest-root'].choice, back.answers['quiz-root'].choice], ['larger', 'spread']);
  assert.deepEqual(back.reported, ids);
  assert.equal(back.at, 'pretest');
  assert.ok(back.controls.sentence.length > 100, `the sentence keeps what fits (${back.controls.sentence.length})`);
});

// SCORM's formats, written out from the standards (1.2: CMIDecimal, CMITimespan, CMITime; 2004:
// real(10,7), timeinterval, time(second,10,0), localized_string_type)
const DECIMAL_12 = /^-?\d+(\.\d+)?$/;
const REAL_2004 = /^-?\d{1,10}(\.\d{1,7})?$/;
const TIMESPAN_12 = /^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/;
const INTERVAL_2004 = /^PT\d+H\d+M\d+(\.\d{1,2})?S$/;

test('an answer as 1.2 and 2004 records: names, order, formats, results', () => {
  const at = new Date(Date.UTC(2026, 11, 7, 9, 5, 3, 250));
  const numeric = { id: 'exercise-scale', step: 'variance', kind: 'exercise', type: 'numeric', response: 0.67, correct: { value: 0.669761, tolerance: 0.002 }, result: 'wrong', attempts: 2, latency: 65432, description: 'Give {the} weight', lang: 'nb' };
  const r12 = Object.fromEntries(interactionRecord('1.2', 'cmi.interactions.3', numeric, at));
  assert.deepEqual(Object.keys(r12).map((k) => k.slice('cmi.interactions.3.'.length)), ['id', 'type', 'objectives.0.id', 'time', 'correct_responses.0.pattern', 'student_response', 'result', 'latency']);
  assert.equal(r12['cmi.interactions.3.result'], 'wrong');
  assert.match(r12['cmi.interactions.3.correct_responses.0.pattern'], DECIMAL_12);
  assert.equal(r12['cmi.interactions.3.student_response'], '0.67');
  assert.match(r12['cmi.interactions.3.latency'], TIMESPAN_12);
  assert.equal(r12['cmi.interactions.3.latency'], '0000:01:05.43');
  assert.match(r12['cmi.interactions.3.time'], /^\d{2}:\d{2}:\d{2}$/);
  const pairs = interactionRecord('2004', 'cmi.interactions.0', numeric, at);
  const names = pairs.map(([k]) => k.slice('cmi.interactions.0.'.length));
  assert.ok(names.indexOf('type') < names.indexOf('learner_response') && names.indexOf('type') < names.indexOf('correct_responses.0.pattern'), '2004 takes the type first');
  const r04 = Object.fromEntries(pairs);
  assert.equal(r04['cmi.interactions.0.result'], 'incorrect');
  assert.equal(r04['cmi.interactions.0.timestamp'], '2026-12-07T09:05:03.250Z');
  assert.equal(r04['cmi.interactions.0.latency'], 'PT0H1M5.43S');
  assert.match(r04['cmi.interactions.0.latency'], INTERVAL_2004);
  const [lo, hi] = r04['cmi.interactions.0.correct_responses.0.pattern'].split('[:]');
  assert.match(lo, REAL_2004);
  assert.match(hi, REAL_2004);
  assert.ok(Number(lo) <= 0.669761 - 0.002 + 1e-7 && Number(hi) >= 0.669761 + 0.002 - 1e-7);
  assert.equal(r04['cmi.interactions.0.description'], '{lang=nb}Give the weight', 'braces would read as a delimiter');
  // a choice; a prediction the instrument could not measure has no right response
  const choice = { ...numeric, id: 'predict-saturation', type: 'choice', response: 'one', correct: null, result: 'neutral', description: 'x'.repeat(400) };
  const c04 = Object.fromEntries(interactionRecord('2004', 'cmi.interactions.1', choice, at));
  assert.equal(c04['cmi.interactions.1.learner_response'], 'one');
  assert.equal(c04['cmi.interactions.1.result'], 'neutral');
  assert.ok(!('cmi.interactions.1.correct_responses.0.pattern' in c04));
  assert.equal(c04['cmi.interactions.1.description'].length, 250);
  // an answer that is not a number (a calculator's "inf") has no numeric response to write
  const overflow = Object.fromEntries(interactionRecord('2004', 'cmi.interactions.2', { ...numeric, response: null }, at));
  assert.ok(!('cmi.interactions.2.learner_response' in overflow));
});

test('numbers as SCORM decimals: no exponent, at most 7 decimals, none beyond 10 digits', () => {
  assert.equal(scormDecimal(0.1 + 0.2), '0.3');
  assert.equal(scormDecimal(1e-9), '0');
  assert.equal(scormDecimal(-0.5), '-0.5');
  assert.equal(scormDecimal(2.5e-5), '0.000025');
  assert.equal(scormDecimal(1e12), null);
  assert.equal(scormDecimal(Number.NaN), null);
  assert.equal(scormDecimal(-1e-9), '0');
});

test('docs/lms.md states the lesson\'s own question ids, tolerance and limit', async () => {
  const { readFile } = await import('node:fs/promises');
  const { ANSWER_TOLERANCE } = await import('../../web/lesson/exercises.js');
  const text = await readFile(new URL('../../docs/lms.md', import.meta.url), 'utf8');
  const row = text.split('\n').find((line) => line.startsWith('| id |'));
  const ids = [...row.matchAll(/`([\w-]+)`/g)].map((m) => m[1]);
  assert.deepEqual(ids, [...Object.keys(PREDICTIONS).map((id) => `predict-${id}`), ...EXERCISE_IDS.map((id) => `exercise-${id}`), ...QUIZ_IDS.map((id) => `quiz-${id}`), ...QUIZ_IDS.map((id) => `pretest-${id}`)]);
  assert.ok(text.replace(/\s+/g, ' ').includes(`asks ${['', '', '', '', '', '', 'six', 'seven', 'eight'][QUIZ_IDS.length]} questions`), 'the number of quiz questions');
  assert.ok(text.includes(`± ${ANSWER_TOLERANCE}`), 'the tolerance');
  assert.ok(text.includes(`at most ${SUSPEND_DATA_LIMIT.toLocaleString('en')}`), 'the limit');
  assert.ok(text.includes(`of the ${['', '', '', '', '', 'five'][EXERCISE_IDS.length]}`), 'the number of exercises');
});
