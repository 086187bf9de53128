// The learner's progress through the lesson, kept between visits: where they were (a section's
// id), the page's controls, their answers (<attention-lesson>.progress), the steps they have
// seen, and — for an LMS — which interaction record each question writes. One encoding for the
// page's localStorage and an LMS's suspend_data: versioned JSON with short keys, validated field
// by field on reading, so that a corrupt, foreign or older value is ignored (null), never thrown.
// No DOM: the same code runs in a page and in Node.

/** The version written; a value of another version is not ours (version 1 held only `at` and `c`). */
export const PROGRESS_VERSION = 2;
/** The localStorage key of the lesson page. */
export const PROGRESS_KEY = 'attention-lab:lesson-progress';
/** The demo page's (index.html): its own, as its lab keeps its state in the address, not in controls. */
export const PAGE_PROGRESS_KEY = 'attention-lab:page-progress';
/** A kept answer's longest text: an answer is a number or an option's id. */
export const ANSWER_MAX = 64;

const ID = /^[A-Za-z][\w-]{0,63}$/;
const TEXT_MAX = 20000; // a control's value (the sentence) read back at most this long
// an answer's fields and their short keys in the encoding, with the check of each value
const FIELDS = {
  choice: ['c', (v) => typeof v === 'string' && ID.test(v)],
  revealed: ['r', (v) => typeof v === 'boolean' || v === 'guess' || v === 'skip'],
  answer: ['a', (v) => typeof v === 'string' && v.length <= ANSWER_MAX],
  attempts: ['n', (v) => Number.isInteger(v) && v >= 0 && v <= 1e6],
  wrong: ['w', (v) => Number.isInteger(v) && v >= 0 && v <= 1e6],
  solved: ['s', (v) => typeof v === 'boolean'],
  credited: ['k', (v) => typeof v === 'boolean'],
};

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const ids = (list) => (Array.isArray(list) ? list.filter((id) => id === null || (typeof id === 'string' && ID.test(id))) : []);

/**
 * `progress` ({ at, controls, answers, seen, reported }) as text of at most `limit` characters:
 * a long sentence is cut first, then the answers last given are dropped, so it always fits.
 */
export function encodeProgress({ at = null, controls = {}, answers = {}, seen = [], reported = [] } = {}, limit = Infinity) {
  const encoded = { v: PROGRESS_VERSION, at: typeof at === 'string' && ID.test(at) ? at : null, c: { ...controls }, a: {}, s: [...seen], r: [...reported] };
  for (const [id, state] of Object.entries(answers ?? {})) {
    if (!ID.test(id) || !isObject(state)) continue;
    const short = {};
    for (const [name, [key]] of Object.entries(FIELDS)) {
      if (state[name] === undefined || state[name] === null) continue;
      short[key] = name === 'answer' ? String(state[name]).slice(0, ANSWER_MAX) : state[name];
    }
    encoded.a[id] = short;
  }
  let text = JSON.stringify(encoded);
  while (text.length > limit && typeof encoded.c.sentence === 'string' && encoded.c.sentence.length > 0) {
    const over = text.length - limit;
    encoded.c.sentence = encoded.c.sentence.slice(0, Math.max(0, encoded.c.sentence.length - Math.max(over, 1)));
    text = JSON.stringify(encoded);
  }
  const keys = Object.keys(encoded.a);
  while (text.length > limit && keys.length > 0) {
    delete encoded.a[keys.pop()];
    text = JSON.stringify(encoded);
  }
  return text.length <= limit ? text : JSON.stringify({ v: PROGRESS_VERSION, at: encoded.at });
}

/** Progress read back from `text`: { at, controls, answers, seen, reported }, or null when it is not ours. */
export function readProgress(text) {
  let value;
  try {
    value = JSON.parse(String(text));
  } catch {
    return null;
  }
  if (!isObject(value) || (value.v !== PROGRESS_VERSION && value.v !== 1)) return null;
  const controls = {};
  if (isObject(value.c)) {
    for (const [name, v] of Object.entries(value.c)) {
      if (ID.test(name) && (typeof v === 'boolean' || (typeof v === 'string' && v.length <= TEXT_MAX))) controls[name] = v;
    }
  }
  const answers = {};
  if (isObject(value.a)) {
    for (const [id, short] of Object.entries(value.a)) {
      if (!ID.test(id) || !isObject(short)) continue;
      const state = {};
      for (const [name, [key, valid]] of Object.entries(FIELDS)) if (key in short && valid(short[key])) state[name] = short[key];
      answers[id] = state;
    }
  }
  return {
    at: typeof value.at === 'string' && ID.test(value.at) ? value.at : null,
    controls,
    answers,
    seen: ids(value.s).filter((id) => id !== null),
    reported: ids(value.r),
  };
}

/** The progress kept in `storage` (localStorage), or null: none, not ours, or storage refused. */
export function loadProgress(storage, key = PROGRESS_KEY) {
  try {
    const text = storage?.getItem(key);
    return text ? readProgress(text) : null;
  } catch {
    return null; // storage blocked (a sandboxed frame, privacy settings): nothing kept
  }
}

/** Keeps `progress` in `storage`; false when the storage refused it (full, blocked). */
export function saveProgress(storage, progress, key = PROGRESS_KEY) {
  try {
    storage.setItem(key, encodeProgress(progress));
    return true;
  } catch {
    return false;
  }
}

/** Forgets the progress kept in `storage`. */
export function clearProgress(storage, key = PROGRESS_KEY) {
  try {
    storage.removeItem(key);
  } catch {
    // nothing kept where nothing can be
  }
}
