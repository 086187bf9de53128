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
//   while   the section reached (location, suspend_data ≤ 4,096 characters); the score of the
//           lesson's `score` event ({ raw, max, completed }, bubbling from <attention-lesson>)
//           as score.raw/min/max (2004 also scaled); completed when the learner has gone through
//           the story: by that event's `completed` once the lesson sends one, else on reaching
//           the lesson's last section
//   leave   session time, exit (suspend while incomplete), Commit and Finish — on pagehide, once
// Without an LMS (no API found, or a cross-origin parent) it does nothing: the page is as always.

/** The SCORM versions a package can be written for, the first the default. */
export const SCORM_VERSIONS = Object.freeze(['1.2', '2004']);
/** The name of the meta whose content is the package's SCORM version. */
export const SCORM_META = 'attention-lab:scorm';

export const MAX_PARENTS = 500; // ADL's 2004 sample bounds the climb; a real chain is a few frames
const SETTLE_LIMIT_MS = 30000; // the lesson's sections are watched after this long even if it still draws
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

// The lesson page's controls (web/lesson.html) kept in suspend_data, with their kinds.
const CONTROLS = { sentence: 'text', dk: 'text', row: 'text', scaled: 'check', seed: 'text' };

/**
 * suspend_data for `at` (a section's id) and `controls` ({ id: value }): JSON of at most
 * SUSPEND_DATA_LIMIT characters — a long sentence is cut until it fits.
 */
export function suspendData(at, controls) {
  const state = { v: 1, at, c: { ...controls } };
  let text = JSON.stringify(state);
  while (text.length > SUSPEND_DATA_LIMIT && state.c.sentence) {
    const over = text.length - SUSPEND_DATA_LIMIT;
    state.c.sentence = state.c.sentence.slice(0, Math.max(0, state.c.sentence.length - Math.max(over, 1)));
    text = JSON.stringify(state);
  }
  return text.length <= SUSPEND_DATA_LIMIT ? text : JSON.stringify({ v: 1, at: String(at).slice(0, 100) });
}

/** suspend_data read back: { at, c } or null for anything else. */
export function readSuspendData(text) {
  try {
    const state = JSON.parse(text);
    return state && state.v === 1 && typeof state === 'object' ? { at: typeof state.at === 'string' ? state.at : null, c: state.c && typeof state.c === 'object' ? state.c : {} } : null;
  } catch {
    return null;
  }
}

/**
 * Connects the page `doc` to the LMS of `version` ('1.2' or '2004'), if one is found; returns
 * the session ({ finish }) or null. `now` is the clock (ms).
 */
export function connect({ version, win = window, doc = document, now = () => Date.now() }) {
  const dialect = DIALECTS[version];
  if (!dialect) return null;
  const api = findApi(win, dialect.api);
  if (!api) return null;
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
  const done = (status) => ['completed', 'passed', 'failed'].includes(status);
  let completed = done(get(dialect.status));
  if (!completed) set(dialect.status, 'incomplete');
  let scored = false; // a `score` event came: completion follows its `completed`
  let score = null;
  let at = null;

  // ---- resume where the learner was ----
  // Valid suspend_data is the learner's work whatever the entry: a 1.2 LMS sends entry "" (not
  // "resume") on a revisit after completion, and leaving would then overwrite it with defaults.
  const fresh = version === '2004' && get(dialect.entry) === 'ab-initio';
  const saved = fresh ? null : readSuspendData(get('cmi.suspend_data'));
  if (saved) restoreControls(doc, saved.c);
  // the section: from suspend_data, else the location the LMS kept (corrupt data loses no place)
  const location = fresh ? '' : get(dialect.location);
  at = saved?.at ?? (SECTION_ID.test(location) ? location : null);
  const resumeAt = at;
  call('commit', '');

  const controls = () => {
    const values = {};
    for (const [id, kind] of Object.entries(CONTROLS)) {
      const input = doc.getElementById(id);
      if (input) values[id] = kind === 'check' ? input.checked : input.value;
    }
    return values;
  };
  const save = () => {
    if (at) set(dialect.location, at);
    set('cmi.suspend_data', suspendData(at, controls()));
  };

  const complete = () => {
    if (completed) return;
    completed = true;
    set(dialect.status, 'completed');
    reportSuccess();
    call('commit', '');
  };

  // success: only where the LMS gives a passing score and the lesson gave a score
  const reportSuccess = () => {
    if (!score) return;
    const mastery = Number.parseFloat(get(dialect.mastery));
    if (!Number.isFinite(mastery)) return;
    const passed = version === '1.2' ? score.percent >= mastery : score.scaled >= mastery;
    if (version === '1.2') {
      if (completed) set(dialect.status, passed ? 'passed' : 'failed');
    } else set(dialect.success, passed ? 'passed' : 'failed');
  };

  const onScore = (event) => {
    const { raw, max, completed: finished } = event.detail ?? {};
    if (!(Number.isFinite(raw) && Number.isFinite(max) && max > 0 && raw >= 0 && raw <= max)) return;
    scored = true;
    // 1.2's raw, min and max are decimals from 0 to 100: a larger scale is reported as a percent
    const percent = (100 * raw) / max;
    const [r, m] = max <= 100 ? [raw, max] : [Math.round(percent * 100) / 100, 100];
    score = { percent, scaled: raw / max };
    set(`${dialect.score}.min`, 0);
    set(`${dialect.score}.max`, m);
    set(`${dialect.score}.raw`, r);
    if (version === '2004') set(`${dialect.score}.scaled`, Math.round((raw / max) * 10000) / 10000);
    if (finished) complete();
    else call('commit', '');
  };
  doc.addEventListener('score', onScore);

  // ---- the story: the section in view, and its end ----
  const sections = () => [...doc.querySelectorAll('attention-lesson section[id]')];
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      at = entry.target.id;
      const all = sections();
      if (!scored && entry.target === all[all.length - 1]) complete();
    }
  });
  const observeSections = () => {
    for (const section of sections()) observer.observe(section);
  };
  // Watched once the page has drawn and the lesson's instruments have their heights: before
  // that, sections holding only their headings would all fit in the window, the last included.
  customElements.whenDefined('attention-lesson').then(() =>
    whenReady(doc, () => {
      const lesson = doc.querySelector('attention-lesson');
      const deadline = now() + SETTLE_LIMIT_MS;
      const settled = () => {
        if (finished) return;
        if (lesson?.pending && now() < deadline) return void win.requestAnimationFrame(settled);
        if (resumeAt) doc.getElementById(resumeAt)?.scrollIntoView({ block: 'start' });
        observeSections();
      };
      settled();
    }),
  );

  // ---- leaving: once ----
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    observer.disconnect();
    doc.removeEventListener('score', onScore);
    save();
    set(dialect.sessionTime, version === '1.2' ? timespan12(now() - started) : timeinterval2004(now() - started));
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

// The saved settings put back into the page's controls: the sentence, d_k, scaling and seed at
// once (web/lesson.js reads them when it starts), the query word once its options exist.
function restoreControls(doc, values) {
  const put = (id) => {
    const input = doc.getElementById(id);
    if (!input || !(id in values)) return;
    if (CONTROLS[id] === 'check') input.checked = Boolean(values[id]);
    else input.value = String(values[id]);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  for (const id of ['sentence', 'dk', 'scaled', 'seed']) put(id);
  whenReady(doc, () => put('row'));
}

// Runs `callback` once the page has drawn its first state (web/lesson.js sets data-ready).
function whenReady(doc, callback) {
  const root = doc.documentElement;
  if (root.dataset.ready === 'true') return void callback();
  const watcher = new MutationObserver(() => {
    if (root.dataset.ready !== 'true') return;
    watcher.disconnect();
    callback();
  });
  watcher.observe(root, { attributes: true, attributeFilter: ['data-ready'] });
}

const meta = typeof document === 'undefined' ? null : document.querySelector(`meta[name="${SCORM_META}"]`);
if (meta) connect({ version: meta.content });
