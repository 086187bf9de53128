// The lesson's steps chosen for a class: the one rule that reads a list of them
// (web/lesson/steps.js, for the `steps` attribute and lesson.html?steps=).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LESSON_STEPS, MAX_UNKNOWN, readSteps } from '../../web/lesson/steps.js';
import { STORY } from '../../web/lesson/story.js';

// the steps of the lesson, in its order, as docs/lms.md lists its objectives
const ALL = ['step', 'output', 'heads', 'variance', 'saturation', 'gradient', 'overflow', 'quiz'];

test('the steps are the story\'s parts and the quiz, in the lesson\'s order', () => {
  assert.deepEqual(LESSON_STEPS, ALL);
  assert.deepEqual(Object.keys(STORY), ALL.slice(0, -1), 'every part of the story is a step');
});

test('a list of steps: its order, each once, in any case, spaces and empty entries ignored', () => {
  assert.deepEqual(readSteps('variance,saturation,quiz'), { steps: ['variance', 'saturation', 'quiz'], unknown: [], more: 0, repeated: [] });
  assert.deepEqual(readSteps('quiz,step').steps, ['quiz', 'step'], 'the order named, not the lesson\'s');
  assert.deepEqual(readSteps('  variance , saturation,,quiz, ').steps, ['variance', 'saturation', 'quiz']);
  assert.deepEqual(readSteps('variance saturation\tquiz').steps, ['variance', 'saturation', 'quiz'], 'spaces separate too');
  assert.deepEqual(readSteps('Variance,SATURATION').steps, ['variance', 'saturation']);
  assert.deepEqual(readSteps(ALL.join(',')).steps, ALL);
});

test('unknown and repeated entries are named; the valid ones are kept', () => {
  assert.deepEqual(readSteps('variance,claim-1,bogus,quiz'), { steps: ['variance', 'quiz'], unknown: ['claim-1', 'bogus'], more: 0, repeated: [] });
  assert.deepEqual(readSteps('variance,quiz,Variance,variance,quiz'), { steps: ['variance', 'quiz'], unknown: [], more: 0, repeated: ['variance', 'quiz'] });
  assert.deepEqual(readSteps('bogus,bogus').unknown, ['bogus'], 'an unknown entry is named once');
  // a link of many unknown entries: a few are named, the others counted
  const many = Array.from({ length: MAX_UNKNOWN + 3 }, (_, i) => `x${i}`);
  const r = readSteps([...many, 'x0', 'heads'].join(','));
  assert.deepEqual(r.unknown, many.slice(0, MAX_UNKNOWN));
  assert.equal(r.more, 3);
  assert.deepEqual(r.steps, ['heads']);
  const long = readSteps('y'.repeat(5000)).unknown[0];
  assert.ok(long.length <= 40 && long.endsWith('…'), long);
});

test('no step named is no selection: the lesson as without the list', () => {
  for (const text of ['', ' ', ',', ' , ,', null, undefined]) assert.deepEqual(readSteps(text), { steps: null, unknown: [], more: 0, repeated: [] }, String(text));
  assert.deepEqual(readSteps('bogus'), { steps: null, unknown: ['bogus'], more: 0, repeated: [] });
});
