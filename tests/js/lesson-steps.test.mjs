// The lesson's steps chosen for a class: the one rule that reads a list of them
// (web/lesson/steps.js, for the `steps` attribute and lesson.html?steps=), and
// `attention-lab scorm --steps`, which writes the selection into the package's lesson.html or
// refuses it with a usage error, writing nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { EXIT_OK, EXIT_USAGE, main } from '../../bin/cli.js';
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

async function run(args) {
  let out = '';
  let err = '';
  const status = await main(args, { stdout: { write: (text) => (out += text) }, stderr: { write: (text) => (err += text) }, env: { LANG: 'C' } });
  return { status, out, err };
}

async function withDir(body) {
  const dir = await mkdtemp(join(tmpdir(), 'attention-lab-steps-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// the package's lesson.html, read by unzip (not by our writer)
const launchPage = (zip) => execFileSync('unzip', ['-p', zip, 'lesson.html'], { encoding: 'utf8' });
const lessonTag = (html) => html.match(/<attention-lesson[^>]*>/)[0];

test('scorm --steps writes the selection into the package\'s lesson as its steps attribute', async () => {
  await withDir(async (dir) => {
    const zip = join(dir, 'lesson.zip');
    const { status, err } = await run(['scorm', '--steps', 'Variance, saturation,quiz', '--mastery', '50', '-o', zip]);
    assert.equal(status, EXIT_OK, err);
    const tag = lessonTag(launchPage(zip));
    assert.match(tag, / steps="variance,saturation,quiz"/);
    assert.match(tag, / mastery="50"/);
    const plain = join(dir, 'plain.zip');
    assert.equal((await run(['scorm', '-o', plain])).status, EXIT_OK);
    assert.doesNotMatch(lessonTag(launchPage(plain)), /steps=/, 'without --steps: every step');
  });
});

test('scorm --pretest writes the lesson\'s pretest attribute; without it there is none', async () => {
  await withDir(async (dir) => {
    const zip = join(dir, 'lesson.zip');
    const { status, err } = await run(['scorm', '--pretest', '--steps', 'variance', '-o', zip]);
    assert.equal(status, EXIT_OK, err);
    const tag = lessonTag(launchPage(zip));
    assert.match(tag, / pretest[ >]/);
    assert.match(tag, / steps="variance"/, 'beside the other choices');
    const plain = join(dir, 'plain.zip');
    assert.equal((await run(['scorm', '-o', plain])).status, EXIT_OK);
    assert.doesNotMatch(lessonTag(launchPage(plain)), /pretest/);
  });
  const help = await run(['scorm', '--help']);
  assert.match(help.out, /\n {2}--pretest +asks the quiz's questions before the lesson too, without feedback/);
  assert.match(help.out, /\[--pretest\]/, 'in the usage line');
});

test('scorm --steps: an unknown, repeated or missing step is a usage error, and no package is written', async () => {
  const cases = [
    ['variance,claim-1', /^attention-lab: --steps "variance,claim-1" is not valid: it must name steps of the lesson \(step, output, heads, variance, saturation, gradient, overflow, quiz\); not steps: claim-1\n/],
    ['variance,quiz,variance', /^attention-lab: --steps "variance,quiz,variance" is not valid: it must name each step once; named more than once: variance\n/],
    [' , ', /^attention-lab: --steps " , " is not valid: it must name at least one step \(step, output/],
  ];
  await withDir(async (dir) => {
    for (const [value, message] of cases) {
      const zip = join(dir, 'lesson.zip');
      const { status, out, err } = await run(['scorm', '--steps', value, '-o', zip]);
      assert.equal(status, EXIT_USAGE, `${value}: ${err}`);
      assert.equal(out, '');
      assert.match(err, message);
      assert.match(err, /\nRun "attention-lab scorm --help" for the options\.\n$/);
      await assert.rejects(stat(zip), { code: 'ENOENT' }, `${value}: no package`);
    }
  });
  const help = await run(['scorm', '--help']);
  assert.match(help.out, /--steps LIST +the steps the package shows, in this order, separated by commas;\n +the steps: step,output,heads,variance,saturation,gradient,overflow,quiz \(default: all of them\)/);
  const nb = await main(['scorm', '--help'], { stdout: { write: (text) => (help.nb = (help.nb ?? '') + text) }, stderr: { write: () => {} }, env: { LANG: 'nb_NO.UTF-8' } });
  assert.equal(nb, EXIT_OK);
  assert.match(help.nb, /--steps LISTE +stegene pakken viser/);
});
