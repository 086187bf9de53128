// A page's side of kept progress (web/lesson/progress.js encodes it): the lesson page's controls
// (web/lesson.html) read and put back, the section the learner is at, and — on a page outside an
// LMS — the learner's answers and place kept in localStorage across a reload, cleared by the
// lesson's "Start over" (but for the answers of steps a `steps` selection does not show). The
// demo page (web/index.js) keeps its lesson's answers and place under a key of its own.
// web/lms/scorm.js keeps the same in the LMS's suspend_data instead.
import { PROGRESS_KEY, clearProgress, loadProgress, saveProgress } from './lesson/progress.js';

const SETTLE_LIMIT_MS = 30000; // the place is restored after this long even if the lesson still draws

// The page's controls kept, with their kinds.
const CONTROLS = { sentence: 'text', dk: 'text', row: 'text', scaled: 'check', seed: 'text' };

/** The page's controls: { id: value }. */
export function readControls(doc) {
  const values = {};
  for (const [id, kind] of Object.entries(CONTROLS)) {
    const input = doc.getElementById(id);
    if (input) values[id] = kind === 'check' ? input.checked : input.value;
  }
  return values;
}

// The saved settings put back into the page's controls: the sentence, d_k, scaling and seed at
// once (web/lesson.js reads them when it starts), the query word once its options exist.
export function restoreControls(doc, values) {
  const put = (id) => {
    const input = doc.getElementById(id);
    if (!input || !Object.hasOwn(values, id)) return;
    if (CONTROLS[id] === 'check') input.checked = Boolean(values[id]);
    else input.value = String(values[id]);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  for (const id of ['sentence', 'dk', 'scaled', 'seed']) put(id);
  whenReady(doc, () => put('row'));
}

/** Runs `callback` once the page has drawn its first state (web/lesson.js sets data-ready). */
export function whenReady(doc, callback) {
  const root = doc.documentElement;
  if (root.dataset.ready === 'true') return void callback();
  const watcher = new MutationObserver(() => {
    if (root.dataset.ready !== 'true') return;
    watcher.disconnect();
    callback();
  });
  watcher.observe(root, { attributes: true, attributeFilter: ['data-ready'] });
}

/**
 * Runs `callback(lesson)` once the lesson is defined, the page has drawn and the instruments have
 * their heights (before that, sections holding only their headings would all fit in the window).
 */
export function whenSettled(doc, win, callback, now = () => Date.now()) {
  win.customElements.whenDefined('attention-lesson').then(() =>
    whenReady(doc, () => {
      const lesson = doc.querySelector('attention-lesson');
      const deadline = now() + SETTLE_LIMIT_MS;
      const settled = () => {
        if (lesson?.pending && now() < deadline) return void win.requestAnimationFrame(settled);
        callback(lesson);
      };
      settled();
    }),
  );
}

/**
 * The id of the lesson's section the reader is at: the last shown whose top has passed a third of
 * the window (view="compact" shows one).
 */
export function currentSection(doc, win) {
  let at = null;
  for (const section of doc.querySelectorAll('attention-lesson .instrument[id]')) {
    if (section.getClientRects().length > 0 && section.getBoundingClientRect().top <= win.innerHeight / 3) at = section.id;
  }
  return at;
}

/**
 * Keeps the learner's progress on the page's lesson in `storage` (localStorage, under `key`) from
 * their first answer on: put back now (controls at once, answers and — when `place` — the place
 * once drawn), saved on each answer and when the page is hidden, forgotten on "Start over". A page
 * opened at a place of its address's choosing (a #link) passes place: false.
 */
export function keepProgress({ doc = document, win = window, storage = safeStorage(win), key = PROGRESS_KEY, place = true } = {}) {
  if (!storage) return;
  const lesson = doc.querySelector('attention-lesson');
  if (!lesson) return;
  const saved = loadProgress(storage, key);
  if (saved) {
    restoreControls(doc, saved.controls);
    win.customElements.whenDefined('attention-lesson').then(() => (lesson.progress = { answers: saved.answers }));
  }
  let restored = !saved?.at || !place;
  if (saved?.at && place) whenSettled(doc, win, () => {
    lesson.goTo(saved.at); // scrolled to, or shown in view="compact"
    restored = true;
  });
  let keeping = Boolean(saved); // kept from the first answer on: a visit that answers nothing leaves nothing behind
  const save = () => {
    const answers = lesson.progress?.answers ?? {};
    keeping ||= Object.keys(answers).length > 0;
    if (!keeping) return;
    // before the place is put back, the page is still at its top: keep the saved place
    const at = restored ? currentSection(doc, win) : saved.at;
    saveProgress(storage, { at, controls: readControls(doc), answers }, key);
  };
  lesson.addEventListener('answer', save);
  lesson.addEventListener('startover', () => {
    restored = true;
    // the answers of steps not shown (a `steps` selection) outlive "Start over": they stay kept
    const answers = lesson.progress?.answers ?? {};
    if (Object.keys(answers).length > 0) return void saveProgress(storage, { at: null, controls: readControls(doc), answers }, key);
    clearProgress(storage, key);
    keeping = false;
  });
  win.addEventListener('pagehide', save);
  doc.addEventListener('visibilitychange', () => doc.visibilityState === 'hidden' && save());
}

// localStorage, or null where reading it throws (a sandboxed frame without same-origin).
function safeStorage(win) {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}
