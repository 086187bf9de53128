// The lesson page's side of a SCORM package (bin/scorm.js adds this module to the package's
// lesson.html, with <meta name="attention-lab:scorm" content="1.2|2004">: SCORM_META and
// SCORM_VERSIONS below, which the package's writer imports). It finds the LMS's
// API as SCORM's discovery algorithm does — this window, then each window.parent up to
// MAX_PARENTS, then the same from window.opener — named `API` in SCORM 1.2 and `API_1484_11` in
// 2004, and reports to it:
//   start   Initialize; the status incomplete (never lowering completed/passed); the learner's
//           settings and section from valid suspend_data whatever cmi.core.entry says (a 1.2 LMS
//           sends "" on a revisit after completion; only 2004's "ab-initio" starts afresh), and
//           the saved location alone when suspend_data is unreadable
//   while   the section reached (location) and the learner's answers, steps seen and
//           interaction indices (suspend_data ≤ 4,096 characters, web/lesson/progress.js); an
//           objective per step (its id the section's part: step, variance…), completed once seen;
//           each `answer` of <attention-lesson> as one cmi.interactions.n record per question
//           (interactionRecord); the lesson's `score` ({ raw, max }) as score.raw/min/max (2004
//           also scaled); the status by connect's rule (completed, passed, failed)
//   leave   session time, exit (suspend while incomplete), Commit and Finish — on pagehide, once
// Without an LMS (no API found, or a cross-origin parent) it does nothing: the page is as always.
import { encodeProgress, readProgress } from '../lesson/progress.js';
import { readControls, restoreControls, whenSettled } from '../lesson-keep.js';

/** The SCORM versions a package can be written for, the first the default. */
export const SCORM_VERSIONS = Object.freeze(['1.2', '2004']);
/** The name of the meta whose content is the package's SCORM version. */
export const SCORM_META = 'attention-lab:scorm';

export const MAX_PARENTS = 500; // ADL's 2004 sample bounds the climb; a real chain is a few frames
export const SUSPEND_DATA_LIMIT = 4096; // SCORM 1.2's CMIString4096 (2004 allows 64,000; the smaller fits both)

/** SCORM's names, per version: the API object's, its calls' and the data model's. */
export const DIALECTS = {
  '1.2': {
    api: 'API',
    calls: { initialize: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish' },
    status: 'cmi.core.lesson_status',
    location: 'cmi.core.lesson_location',
    entry: 'cmi.core.entry',
    exit: 'cmi.core.exit',
    sessionTime: 'cmi.core.session_time',
    score: 'cmi.core.score',
    mastery: 'cmi.student_data.mastery_score', // 0–100, or empty
    normalExit: '',
  },
  2004: {
    api: 'API_1484_11',
    calls: { initialize: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate' },
    status: 'cmi.completion_status',
    success: 'cmi.success_status',
    location: 'cmi.location',
    entry: 'cmi.entry',
    exit: 'cmi.exit',
    sessionTime: 'cmi.session_time',
    score: 'cmi.score',
    mastery: 'cmi.scaled_passing_score', // −1–1, or empty
    normalExit: 'normal',
  },
};

/** The LMS's API object named `name`, searched from `win` as SCORM's discovery does, or null. */
export function findApi(win, name) {
  const climb = (start) => {
    let w = start;
    for (let tries = 0; w && tries <= MAX_PARENTS; tries++) {
      try {
        if (w[name]) return w[name];
      } catch {
        // a cross-origin frame: its API is not ours to call; its parent may still be same-origin
      }
      let parent;
      try {
        parent = w.parent;
      } catch {
        return null;
      }
      if (!parent || parent === w) return null;
      w = parent;
    }
    return null;
  };
  let opener = null;
  try {
    opener = win.opener;
  } catch {
    opener = null;
  }
  return climb(win) ?? (opener ? climb(opener) : null);
}

/** A duration in SCORM 1.2's CMITimespan, HHHH:MM:SS.SS. */
export function timespan12(ms) {
  const cs = Math.max(0, Math.round(ms / 10));
  const hours = Math.min(9999, Math.floor(cs / 360000));
  const minutes = Math.floor(cs / 6000) % 60;
  const seconds = (cs % 6000) / 100;
  return `${String(hours).padStart(4, '0')}:${String(minutes).padStart(2, '0')}:${seconds.toFixed(2).padStart(5, '0')}`;
}

/** A duration in SCORM 2004's timeinterval (ISO 8601), PT#H#M#S with hundredths. */
export function timeinterval2004(ms) {
  const cs = Math.max(0, Math.round(ms / 10));
  return `PT${Math.floor(cs / 360000)}H${Math.floor(cs / 6000) % 60}M${((cs % 6000) / 100).toFixed(2)}S`;
}

// A section's id as the lesson writes them (claim-1, output…): a location that is not one is not ours.
const SECTION_ID = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * suspend_data for `at` (a section's id), `controls` ({ id: value }) and `more` (the answers,
 * the steps seen, the interactions reported: web/lesson/progress.js): at most
 * SUSPEND_DATA_LIMIT characters — a long sentence is cut first.
 */
export function suspendData(at, controls, more = {}) {
  return encodeProgress({ at, controls, ...more }, SUSPEND_DATA_LIMIT);
}

/** suspend_data read back: { at, controls, answers, seen, reported }, or null for anything else. */
export function readSuspendData(text) {
  return readProgress(text);
}

/** A number as SCORM's decimals take it (no exponent; 2004 allows 10 digits before the point): null when it cannot be. */
export function scormDecimal(x) {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e10) return null;
  const text = x.toFixed(7).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}

/**
 * The interaction record of one answer (the detail of <attention-lesson>'s `answer` event) in
 * `version`'s words, as [element, value] pairs in the order an LMS takes them (2004: the type
 * before the responses) under `prefix` (cmi.interactions.n).
 */
export function interactionRecord(version, prefix, answer, at = new Date()) {
  const v12 = version === '1.2';
  const pairs = [[`${prefix}.id`, answer.id], [`${prefix}.type`, answer.type], [`${prefix}.objectives.0.id`, answer.step]];
  pairs.push(v12 ? [`${prefix}.time`, at.toTimeString().slice(0, 8)] : [`${prefix}.timestamp`, at.toISOString()]);
  // the right response: an option, or the range an answer must fall in (1.2 takes one value)
  const correct = answer.correct;
  let pattern = null;
  if (typeof correct === 'string') pattern = correct;
  else if (correct && Number.isFinite(correct.value)) {
    const [lo, hi] = [scormDecimal(correct.value - correct.tolerance), scormDecimal(correct.value + correct.tolerance)];
    pattern = v12 ? scormDecimal(correct.value) : lo !== null && hi !== null ? `${lo}[:]${hi}` : null;
  }
  if (pattern !== null) pairs.push([`${prefix}.correct_responses.0.pattern`, pattern]);
  const response = typeof answer.response === 'number' ? scormDecimal(answer.response) : answer.response;
  if (response !== null && response !== undefined) pairs.push([`${prefix}.${v12 ? 'student_response' : 'learner_response'}`, response]);
  pairs.push([`${prefix}.result`, answer.result === 'wrong' && !v12 ? 'incorrect' : answer.result]);
  pairs.push([`${prefix}.latency`, v12 ? timespan12(answer.latency) : timeinterval2004(answer.latency)]);
  // 2004 only: the question in the learner's language (a localized string of at most 250 characters)
  if (!v12 && answer.description) pairs.push([`${prefix}.description`, `{lang=${answer.lang}}${answer.description.replace(/[{}]/g, '')}`.slice(0, 250)]);
  return pairs;
}

/**
 * Connects the page `doc` to the LMS of `version` ('1.2' or '2004'), if one is found; returns
 * the session ({ finish }) or null. `now` is the clock (ms).
 *
 * The rule it reports by: completed once the learner has seen every step (section) of the lesson;
 * with a mastery score — the LMS's (1.2 mastery_score, 2004 scaled_passing_score), else the
 * lesson's `mastery` attribute, in percent — passed once the score reaches it, failed when every
 * step is seen below it. The score counts exercises solved before their answer was shown.
 */
export function connect({ version, win = window, doc = document, now = () => Date.now() }) {
  const dialect = DIALECTS[version];
  if (!dialect) return null;
  const api = findApi(win, dialect.api);
  if (!api) return null;
  const v12 = version === '1.2';
  const call = (name, ...args) => {
    try {
      return String(api[dialect.calls[name]](...args));
    } catch (error) {
      console.warn(`SCORM ${dialect.calls[name]} failed: ${error.message}`);
      return 'false';
    }
  };
  const get = (key) => call('get', key);
  const set = (key, value) => call('set', key, String(value));
  if (call('initialize', '') !== 'true') return null;

  const started = now();
  const status = get(dialect.status);
  let completed = ['completed', 'passed', 'failed'].includes(status);
  let passed = status === 'passed' || (!v12 && get(dialect.success) === 'passed');
  if (!completed) set(dialect.status, 'incomplete');
  let score = null;

  // ---- resume where the learner was ----
  // Valid suspend_data is the learner's work whatever the entry: a 1.2 LMS sends entry "" (not
  // "resume") on a revisit after completion, and leaving would then overwrite it with defaults.
  const fresh = version === '2004' && get(dialect.entry) === 'ab-initio';
  const saved = fresh ? null : readSuspendData(get('cmi.suspend_data'));
  if (saved) restoreControls(doc, saved.controls);
  // the section: from suspend_data, else the location the LMS kept (corrupt data loses no place)
  const location = fresh ? '' : get(dialect.location);
  let at = saved?.at ?? (SECTION_ID.test(location) ? location : null);
  const resumeAt = at;
  const seen = new Set(saved?.seen ?? []);
  // which interaction record each question writes: kept, so a question's later answers rewrite its record
  const reported = saved?.reported ?? [];
  let answers = saved?.answers ?? {};
  call('commit', '');

  const lessonElement = () => doc.querySelector('attention-lesson');
  const save = () => {
    if (at) set(dialect.location, at);
    const lesson = lessonElement();
    if (lesson && 'progress' in lesson && lesson.progress) answers = lesson.progress.answers;
    set('cmi.suspend_data', suspendData(at, readControls(doc), { answers, seen: [...seen], reported }));
  };

  // the mastery score in percent: the LMS's, else the package's (the lesson's attribute), else none
  const mastery = () => {
    const lms = Number.parseFloat(get(dialect.mastery));
    if (Number.isFinite(lms)) return v12 ? lms : lms * 100;
    const own = Number.parseFloat(lessonElement()?.getAttribute('mastery') ?? '');
    return Number.isFinite(own) ? own : null;
  };

  // the steps: one objective each, written once (a resumed attempt has them)
  const steps = () => [...doc.querySelectorAll('attention-lesson .instrument[data-part]')].map((s) => s.dataset.part);
  const writeObjectives = () => {
    const count = Number.parseInt(get('cmi.objectives._count'), 10) || 0;
    steps().forEach((step, n) => {
      if (n >= count) set(`cmi.objectives.${n}.id`, step);
    });
  };
  const reportStep = (step) => {
    const n = steps().indexOf(step);
    if (n < 0) return;
    if (v12) set(`cmi.objectives.${n}.status`, 'completed');
    else set(`cmi.objectives.${n}.completion_status`, 'completed');
  };

  // the status by the rule above; never lowered from completed or passed
  let written = { status, success: v12 ? null : get(dialect.success) };
  const write = (key, element, value) => {
    if (written[key] === value) return;
    written[key] = value;
    set(element, value);
  };
  const report = () => {
    const all = steps();
    completed ||= all.length > 0 && all.every((step) => seen.has(step));
    const m = mastery();
    passed ||= m !== null && (score?.percent ?? 0) >= m;
    const failed = !passed && completed && m !== null;
    if (v12) {
      const next = passed ? 'passed' : failed ? 'failed' : completed ? 'completed' : null;
      if (next) write('status', dialect.status, next);
    } else {
      if (completed) write('status', dialect.status, 'completed');
      if (passed || failed) write('success', dialect.success, passed ? 'passed' : 'failed');
    }
    call('commit', '');
  };

  const onScore = (event) => {
    const { raw, max } = event.detail ?? {};
    if (!(Number.isFinite(raw) && Number.isFinite(max) && max > 0 && raw >= 0 && raw <= max)) return;
    // 1.2's raw, min and max are decimals from 0 to 100: a larger scale is reported as a percent
    const percent = (100 * raw) / max;
    const [r, m] = max <= 100 ? [raw, max] : [Math.round(percent * 100) / 100, 100];
    score = { percent, scaled: raw / max };
    set(`${dialect.score}.min`, 0);
    set(`${dialect.score}.max`, m);
    set(`${dialect.score}.raw`, r);
    if (!v12) set(`${dialect.score}.scaled`, Math.round((raw / max) * 10000) / 10000);
    report();
  };
  doc.addEventListener('score', onScore);

  // ---- each answer: its interaction record (one per question, rewritten by a later answer) ----
  const onAnswer = (event) => {
    const answer = event.detail;
    if (!answer?.id) return;
    let n = reported.indexOf(answer.id);
    if (n < 0) {
      // after the records the LMS holds (a question's index stays its own)
      n = Math.max(reported.length, Number.parseInt(get('cmi.interactions._count'), 10) || 0);
      reported[n] = answer.id;
      for (let i = 0; i < n; i++) reported[i] ??= null;
    }
    for (const [element, value] of interactionRecord(version, `cmi.interactions.${n}`, answer)) set(element, value);
    save();
    call('commit', '');
  };
  doc.addEventListener('answer', onAnswer);

  // ---- "Start over": the answers and the place forgotten (the records stay the learner's history) ----
  const onStartOver = () => {
    answers = {};
    at = null;
    save();
    call('commit', '');
  };
  doc.addEventListener('startover', onStartOver);

  // ---- the story: the section in view, the steps seen ----
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      at = entry.target.id;
      const step = entry.target.dataset.part;
      if (step && !seen.has(step)) {
        seen.add(step);
        reportStep(step);
        report();
      }
    }
  });
  whenSettled(doc, win, (lesson) => {
    if (finished) return;
    if (lesson && saved) lesson.progress = { answers: saved.answers };
    writeObjectives();
    // the score from the start: a learner who skips every exercise has 0, not none
    if (lesson?.score) onScore({ detail: lesson.score });
    if (resumeAt) lesson?.goTo(resumeAt); // scrolled to, or shown in view="compact"
    for (const section of doc.querySelectorAll('attention-lesson .instrument[id]')) observer.observe(section);
  }, now);

  // ---- leaving: once ----
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    observer.disconnect();
    doc.removeEventListener('score', onScore);
    doc.removeEventListener('answer', onAnswer);
    doc.removeEventListener('startover', onStartOver);
    save();
    set(dialect.sessionTime, v12 ? timespan12(now() - started) : timeinterval2004(now() - started));
    set(dialect.exit, completed ? dialect.normalExit : 'suspend');
    call('commit', '');
    call('finish', '');
  };
  win.addEventListener('pagehide', finish);
  doc.addEventListener('visibilitychange', () => {
    if (doc.visibilityState === 'hidden' && !finished) {
      save();
      call('commit', '');
    }
  });
  return { finish, get completed() { return completed; } };
}

const meta = typeof document === 'undefined' ? null : document.querySelector(`meta[name="${SCORM_META}"]`);
if (meta) connect({ version: meta.content });
