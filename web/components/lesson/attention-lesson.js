// <attention-lesson>: the six lesson instruments ("why divide by √d_k?"), one section each, all
// drawn from one lab state by one model (web/lesson/model.js). Two ways to drive it:
//
//   <attention-lesson for="lab"></attention-lesson>   follows <attention-lab id="lab">: its
//       engine, and every state it announces (its `change` event)
//   lesson.engine = engine; lesson.state = labState(…)  a page with its own controls
//       (web/lesson.js builds its state with the lab's own web/lab/state.js)
//
// The instruments only draw; what the learner asks for in them arrives here as their
// `input`/`change` events, which stop here. The lesson's own settings (`heads`, the `key` of
// step by step) are kept here (`lesson.settings`); a request that is a lab setting (the
// temperature) is passed to the lab it follows (lab.set), and announced as this element's own
// `input`/`change` with `.value` holding it (e.g. { temperature: 0.1 }), for a page without a lab.
//
// Light DOM (no shadow root): the page styles the sections, and the instruments stay
// addressable as document.querySelector('variance-lab') etc. Attributes: `for`,
// `heading-level` (1–6, default 2), `loading="eager"`, `theme` (light, dark or auto, as the lab's),
// `lang` (as the lab's; without it the lesson speaks the language of the lab it follows, and each
// section it writes carries that lang).
//
// Lazy by design, so the lab stays fast: an instrument's module (KaTeX included) is imported
// only when its section comes near the viewport, and a new state reaches an instrument only
// when it is near the viewport, once the lab's states stop coming for 150 ms (never during a
// slider drag), after the next frame (the lab paints first) and in idle time, one instrument per
// idle callback. loading="eager" draws every instrument (still after the frame and in idle
// time), for a page that is only the lesson. `pending` is true while a drawing is due.
//
// For a learning platform (web/lms/scorm.js) and a page that keeps progress (web/lesson.js):
// each prediction checked and each exercise's verdict is announced as a bubbling `answer` event
// (detail: LessonAnswer in attention-lesson.d.ts), the score as `score`; `progress` reads and
// puts back the learner's answers; "Start over" (startOver()) clears them and announces `startover`. `no-reveal`: an
// exercise never shows its answer after wrong tries; `mastery` (a percent) is the score that
// passes, for the platform to read; `quiz` adds the closing quiz (web/lesson/quiz.js) as the last
// section, its questions announced like the exercises (not counted in the score).
// `steps` (read once, web/lesson/steps.js): the steps shown, in the order named — "variance,
// saturation,quiz" — for a class; the score, the questions and the progress count those alone,
// and the answers of the steps not shown are kept, untouched, in `progress`. `pretest` (read
// once): the quiz's questions asked first too, without feedback (PRETEST), and the closing quiz
// shown whatever `quiz` and `steps` say: a teacher compares the two answers to each question.
// `view="compact"`: the lesson for a slide or a frame of fixed height (docs/slides.md) — one step
// at a time in a box of COMPACT_HEIGHT_PX, with Previous / Next and "2 of 5" below it; a step's
// heading and lead, its prediction, scaling and exercises beside its instrument where the width
// allows, the quiz one question at a time; the asides stay closed (opened, one fills the step).
// The box sets its own text (the deck's size, alignment and line height stay out) and keeps the
// keys of its controls from the deck. Its steps are <div>s (read once: set `view` in the markup),
// since reveal.js takes every <section> inside a slide for a slide. The same sections and questions as the long form: the
// answers, the score, the progress and what an LMS is told do not depend on the view.
import { languageFor, onLanguageChange } from '../../i18n/dom.js';
import { english, loadStrings, withNodes } from '../../i18n/i18n.js';
import { shortLabel } from '../../i18n/format.js';
import { h, subscripts, toDom } from '../../views/h.js';
import { settingsInWords } from '../../lab/settings.js';
import { LESSON_DEFAULTS, LESSON_MAX_TOKENS, LessonModel, sameValue, updateLessonSettings } from '../../lesson/model.js';
import { ElementBase, define, keepKeys } from '../base.js';
import { TYPE_CSS, sheet } from '../theme.js';
import { FONTS, PALETTE, propertyName } from '../../views/theme.js';
import { STORY } from '../../lesson/story.js';
import { ANSWER_TOLERANCE, EXERCISES } from '../../lesson/exercises.js';
import { QUIZ_IDS } from '../../lesson/quiz.js';
import { readSteps } from '../../lesson/steps.js';

// The order of the lesson is a story: one query's row (q·k, the scores, softmax), the output (the
// weights mix the values), several heads,
// then why √d_k: the variance of q·k, saturated rows, their gradient; the max and temperature last.
// Each entry: tag, section id (kept: links name them), the model's results for it (part); its
// heading asks the question the section answers (title), a lead joins it to the one before
// (lead), and web/lesson/story.js adds the prediction made before the
// instrument and the exercises after it. A `note` follows the instrument (the heads' caveat);
// `scaling` adds "scaling is a temperature" with its two buttons, after the lead. An `aside` (its
// summary's key) puts the instrument, its exercises and its note in a closed <details> the learner
// opens: off the main path, in its section (the id stays). The ids claim-1 … claim-4 are
// those of the lesson's first version (numbered claims): links, tests and an LMS's saved place
// (web/lms/) name them, so they stay although the headings are questions now.
const SECTIONS = [
  { tag: 'step-by-step', id: 'claim-4', part: 'step', title: 'story.headingStep', lead: 'story.leadStep' },
  { tag: 'attention-output', id: 'output', part: 'output', title: 'story.headingOutput', lead: 'story.leadOutput' },
  { tag: 'multi-head-view', id: 'heads', part: 'heads', title: 'story.headingHeads', lead: 'story.leadHeads', note: 'heads.caveat', aside: 'story.asideHeads' },
  { tag: 'variance-lab', id: 'claim-1', part: 'variance', title: 'story.headingVariance', lead: 'story.leadVariance' },
  { tag: 'saturation-plot', id: 'claim-2', part: 'saturation', title: 'story.headingSaturation', lead: 'story.leadSaturation' },
  { tag: 'gradient-view', id: 'claim-3', part: 'gradient', title: 'story.headingGradient', lead: 'story.leadGradient' },
  { tag: 'overflow-demo', id: 'overflow', part: 'overflow', title: 'story.headingOverflow', lead: 'story.leadOverflow', scaling: true, aside: 'story.asideOverflow' },
  // the closing quiz: questions on the argument, no instrument (web/lesson/quiz.js)
  { tag: null, id: 'quiz', part: 'quiz', title: 'story.headingQuiz', lead: 'story.leadQuiz', quiz: QUIZ_IDS },
].map((section) => ({ predict: null, exercises: [], quiz: [], ...section, ...STORY[section.part] }));
// The same questions before the lesson (the `pretest` attribute): first, not a step a `steps`
// selection names, each question checked once with no feedback and announced as pretest-<id>.
const PRETEST = { tag: null, id: 'pretest', part: 'pretest', title: 'story.headingPretest', lead: 'story.leadPretest', predict: null, exercises: [], quiz: QUIZ_IDS, pretest: true };
export const INSTRUMENTS = SECTIONS.map(({ tag }) => tag).filter(Boolean);
/**
 * The steps in the story's order: { part, id, title } — the step's id, its section's id (a link's
 * target: lesson.html#claim-4) and its heading's key — for the pages that let a teacher choose
 * steps (web/lesson-steps.js) and link them (web/teacher.js).
 */
export const STEPS = Object.freeze(SECTIONS.map(({ part, id, title }) => Object.freeze({ part, id, title })));

const DEFAULT_HEADING_LEVEL = 2;
const NEAR_VIEWPORT = '600px 0px'; // start loading and drawing a little before a section scrolls in
const IDLE_TIMEOUT_MS = 500; // an instrument is drawn within this long even on a busy page
const SETTLE_MS = 150; // the lab's states are taken up once they stop coming for this long (a slider drag ends)

/**
 * The steps a `steps` attribute chooses, in its order (web/lesson/steps.js), or null: every step
 * (the closing quiz where `quiz` asks for it). What it cannot follow is a warning.
 */
export function chosenSteps(text) {
  if (text === null) return null;
  const { steps, unknown, more, repeated } = readSteps(text);
  if (unknown.length > 0) {
    const named = [...unknown.map((id) => JSON.stringify(id)), ...(more ? [`${more} more`] : [])].join(', ');
    const valid = STEPS.map((s) => s.part).join(', ');
    console.warn(`<attention-lesson>: steps="${text}": ${named} not steps of the lesson (${valid}).${steps ? '' : ' Every step is shown.'}`);
  }
  if (repeated.length > 0) console.warn(`<attention-lesson>: steps="${text}" names ${repeated.join(', ')} more than once; each is shown once, where first named.`);
  return steps;
}

/** The heading level of the sections: a whole number from 1 to 6, else the default (with a warning). */
export function headingLevel(text) {
  if (text === null) return DEFAULT_HEADING_LEVEL;
  const level = Number(text);
  if (text.trim() !== '' && Number.isInteger(level) && level >= 1 && level <= 6) return level;
  console.warn(`<attention-lesson>: heading-level="${text}" is not a whole number from 1 to 6; using ${DEFAULT_HEADING_LEVEL}.`);
  return DEFAULT_HEADING_LEVEL;
}

// The settings the status names (settingsInWords' entries): the scaling, the seed and T, the mask.
const STATUS_WORDS = {
  scaled: { on: 'lesson.statusScaled', off: 'lesson.statusUnscaled' },
  seed: (seed) => ['lesson.statusSeed', { seed: String(seed) }],
  causal: { on: 'lesson.statusCausal' },
};

/** The sentence saying how the instruments follow the lab's `state`, as view nodes, in `strings`' language. */
export function followingStatus(state, strings = english()) {
  const { n, m, d } = state;
  const t = (key, params) => strings.t(key, params);
  // the table's words with d_k written as d with a subscript; the learner's word stays as typed
  const rich = (text, nodes = {}) => withNodes(text, nodes, subscripts);
  const [scaled, ...rest] = settingsInWords(state.settings, strings, STATUS_WORDS, { params: { t: strings.fmt(state.temperature) } });
  const setting = [state.scaled ? rich(scaled) : h('b', {}, scaled), ...rest];
  const query = rich(t('lesson.statusQuery'), { word: shortLabel(state.queryLabels[state.selected]) });
  const rowViews = t('lesson.rowViews');
  if (state.projection === 'pasted')
    return h('p', { class: 'lesson-status' }, rich(t('lesson.statusPasted', { n: String(n), m: String(m), d: String(d), rowViews }), { query, setting }));
  const count = Math.min(n, LESSON_MAX_TOKENS);
  const cut = n > count ? ` ${t('lesson.statusCut', { count, n })}` : '';
  const where = rich(t(state.projection === 'random' ? 'lesson.whereRandom' : 'lesson.whereIdentity', { d: String(d), rowViews }));
  return h('p', { class: 'lesson-status' }, rich(t('lesson.status', { count: n, cut }), { query, setting, where }));
}

// The buttons of "scaling is a temperature" and the asides: the lesson is light DOM and a page's
// sheet does not know them, so the lesson brings these few rules (a constructable sheet adopted by the document:
// allowed under style-src 'self'); :where() keeps them weaker than any rule of the page.
const STORY_SHEET = sheet(`
  :where(attention-lesson .story-note, attention-lesson .story-scaling p) { max-width: 75ch; }
  :where(attention-lesson .story-note) { font-size: 0.875rem; }
  :where(attention-lesson .story-actions) { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 8px; }
  :where(attention-lesson .story-actions button, attention-lesson .lesson-start-over button) { font: inherit; font-size: 0.875rem; min-height: 28px; padding: 2px 12px;
    border: 1px solid currentColor; border-radius: 999px; background: transparent; color: inherit; cursor: pointer; }
  :where(attention-lesson .story-actions button:disabled) { cursor: not-allowed; }
  :where(attention-lesson .story-aside) { margin: 12px 0 0; }
  :where(attention-lesson .story-aside > summary) { cursor: pointer; font-weight: 600; width: fit-content; padding: 3px 0; }
  :where(attention-lesson .story-aside[open] > summary) { margin-bottom: 10px; }
`);

// view="compact": the box's height, which fits a 1280×720 reveal.js slide (960×700 before the
// deck scales it) with the deck's margins; tests/browser/platforms.test.mjs holds every step to it.
const COMPACT_HEIGHT_PX = 640;
// Its two columns (the step's words and questions, then its instrument) from this width on.
const COMPACT_COLUMNS_PX = 720;
const COMPACT = 'attention-lesson[view="compact"]';
const colour = (key) => `var(${propertyName(key)}, light-dark(${PALETTE[key][0]}, ${PALETTE[key][1]}))`;
// Stronger than a host's rules on its own elements (a deck theme's `.reveal h2`, `.reveal p`,
// `.reveal .slides section`): what the light DOM shows of the box is the lesson's. The instruments'
// shadow roots set their own text; text-align is inherited, so it is set here, on the box.
const COMPACT_SHEET = sheet(`
  ${COMPACT} { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; grid-template-rows: minmax(0, 1fr) auto; gap: 8px 12px;
    box-sizing: border-box; height: ${COMPACT_HEIGHT_PX}px; padding: 12px 16px 10px; container: lesson / inline-size;
    color-scheme: var(--al-color-scheme, light dark); background: ${colour('bg')}; color: ${colour('text')};
    border: 1px solid ${colour('border')}; border-radius: 12px;
    font-family: var(${propertyName('font')}, ${FONTS.font}); font-size: 1rem; font-weight: 400; font-style: normal; line-height: 1.5;
    text-align: start; text-indent: 0; text-transform: none; text-shadow: none; letter-spacing: normal; word-spacing: normal; white-space: normal; }
  ${COMPACT}[hidden] { display: none; }
  ${COMPACT} *, ${COMPACT} *::before, ${COMPACT} *::after { box-sizing: border-box; }
  ${COMPACT} > .lesson-status { display: none; }
  ${COMPACT} > .instrument { grid-column: 1 / -1; grid-row: 1; min-height: 0; overflow: auto; margin: 0; padding: 0;
    border: 0; background: none; line-height: 1.5; align-content: start; }
  ${COMPACT} > .instrument:not([data-current]) { display: none; }
  ${COMPACT} > .instrument > :is(h1, h2, h3, h4, h5, h6) { margin: 0 0 2px; color: inherit; font-family: inherit; font-size: 1.125rem; font-weight: 600; line-height: 1.3;
    text-transform: none; letter-spacing: normal; text-shadow: none; }
  ${COMPACT} p { margin: 0 0 8px; line-height: inherit; }
  /* the heading asks the step's question; the lead's setting-up is the long form's */
  ${COMPACT} .story-lead { display: none; }
  ${COMPACT} .story-note, ${COMPACT} .story-now { font-size: ${TYPE_CSS.note}; }
  ${COMPACT} :is(lesson-predict, lesson-exercise, quiz-question) { margin: 0 0 8px; }
  ${COMPACT} quiz-question { max-width: 75ch; }
  ${COMPACT} > .instrument > :is(lesson-predict, lesson-exercise, quiz-question):not([data-current]) { display: none; }
  ${COMPACT} > .instrument > :is(${INSTRUMENTS.join(', ')}) { align-self: start; }
  /* an aside opened: it fills the step (the step's other parts come back when it closes) */
  ${COMPACT} > .instrument:has(> details[open]) > :not(:is(h1, h2, h3, h4, h5, h6, details)) { display: none; }
  ${COMPACT} .story-aside { margin: 4px 0 0; }
  ${COMPACT} > .lesson-pager { grid-column: 1; grid-row: 2; display: flex; align-items: center; gap: 10px; }
  ${COMPACT} > .lesson-score { grid-column: 2; grid-row: 2; justify-self: end; align-self: center; margin: 0; font-size: ${TYPE_CSS.note}; }
  ${COMPACT} > .lesson-start-over { grid-column: 3; grid-row: 2; align-self: center; margin: 0; }
  ${COMPACT} .lesson-pager p { margin: 0; min-width: 9ch; text-align: center; font-variant-numeric: tabular-nums; font-size: ${TYPE_CSS.note}; }
  ${COMPACT} .lesson-pager button { font: inherit; font-size: ${TYPE_CSS.note}; min-height: 32px; padding: 2px 14px; border-radius: 999px; cursor: pointer;
    border: 1px solid ${colour('accent')}; background: ${colour('accent')}; color: ${colour('accentText')}; font-weight: 600; }
  ${COMPACT} .lesson-pager button.lesson-previous { background: transparent; color: inherit; border-color: ${colour('control')}; font-weight: 400; }
  ${COMPACT} .lesson-pager button:disabled { cursor: not-allowed; opacity: 0.45; }
  ${COMPACT} :focus-visible { outline: 2px solid ${colour('focus')}; outline-offset: 2px; }
  attention-lesson:not([view="compact"]) > .lesson-pager { display: none; }
  /* wide enough: the words and questions on the left, the instrument on the right */
  @container lesson (min-width: ${COMPACT_COLUMNS_PX}px) {
    ${COMPACT} > .instrument { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); column-gap: 20px;
      grid-template-rows: auto auto auto auto auto auto minmax(0, 1fr); }
    ${COMPACT} > .instrument > * { grid-column: 1; }
    ${COMPACT} > .instrument > :is(h1, h2, h3, h4, h5, h6, .story-lead, details[open]) { grid-column: 1 / -1; }
    ${COMPACT} > .instrument > :is(${INSTRUMENTS.join(', ')}) { grid-column: 2; grid-row: 2 / -1; }
    ${COMPACT} > .instrument:not(:has(> :is(${INSTRUMENTS.join(', ')}))) { grid-template-columns: minmax(0, 1fr); }
  }
`);

// The `theme` attribute (as the lab's) as the colour scheme the instruments inherit.
const COLOR_SCHEMES = { light: 'light', dark: 'dark', auto: 'light dark' };

export class AttentionLesson extends ElementBase {
  static observedAttributes = ['theme', 'lang', 'loading', 'no-reveal', 'view'];

  #engine = null;
  #model = null;
  #state = null; // the lab state the instruments draw
  #pendingState = null; // the lab's latest state, not yet taken up
  #settings = LESSON_DEFAULTS;
  #value = null;
  #sections = []; // { tag, part, section, element, loaded, near, stale }
  #scheduled = false;
  #settle = 0; // timer: running while the lab's states keep coming
  #lab = null;
  #status = null;
  #observer = null;
  #strings = english();
  #language = null; // the language asked for (its strings may still be loading)
  #stopWatching = null;

  constructor() {
    super();
    for (const type of ['input', 'change']) this.addEventListener(type, (event) => this.#onRequest(event));
    // in a slide, the keys of the box's own buttons (light DOM) are not the deck's (base.js keepKeys)
    this.addEventListener('keydown', (event) => this.compact && keepKeys(event));
  }

  attributeChangedCallback(name, _previous, value) {
    if (name === 'no-reveal') return void this.#invalidateAll();
    if (name === 'view') {
      if (value !== null && value !== 'compact' && value !== 'full') console.warn(`<attention-lesson>: view="${value}" is not full or compact; the full lesson is shown.`);
      return void this.#showPage();
    }
    if (name === 'lang') {
      if (this.isConnected) this.#chooseLanguage();
      return;
    }
    if (name === 'loading') {
      // loading="eager" set later: every instrument loads now (not only when it comes near)
      if (value === 'eager') for (const s of this.#sections) if (!s.loaded) this.#load(s);
      this.#schedule();
      return;
    }
    if (name !== 'theme') return;
    const known = value !== null && Object.hasOwn(COLOR_SCHEMES, value);
    if (value !== null && !known)
      console.warn(`<attention-lesson>: theme="${value}" is not one of ${Object.keys(COLOR_SCHEMES).join(', ')}; the page's scheme is used.`);
    // set through the CSSOM (allowed under style-src 'self'); without it, the page's or the reader's scheme
    if (known) this.style.setProperty('--al-color-scheme', COLOR_SCHEMES[value]);
    else this.style.removeProperty('--al-color-scheme');
    for (const s of this.#sections) s.element?.themeChanged?.();
  }

  connectedCallback() {
    for (const rules of [STORY_SHEET, COMPACT_SHEET]) if (rules && !document.adoptedStyleSheets.includes(rules)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, rules];
    if (!this.#sections.length) this.#build();
    this.#observer = new IntersectionObserver((entries) => this.#onIntersect(entries), { rootMargin: NEAR_VIEWPORT });
    for (const s of this.#sections) this.#observer.observe(s.section);
    const id = this.getAttribute('for');
    if (id) this.#follow(document.getElementById(id));
    this.#stopWatching = onLanguageChange(() => this.#chooseLanguage());
    this.#chooseLanguage();
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#stopWatching?.();
    this.#lab?.removeEventListener('change', this.#onLabState);
    this.#lab?.removeEventListener('languagechange', this.#onLabLanguage);
    clearTimeout(this.#settle);
    this.#settle = 0;
    this.#lab = null;
  }

  /** The engine the model computes with (set by the page, or the followed lab's). */
  get engine() {
    return this.#engine;
  }

  set engine(engine) {
    if (engine === this.#engine) return;
    this.#engine = engine;
    this.#model = null;
    this.#invalidateAll();
  }

  /** The lab state the instruments draw (LabState of attention-lab.d.ts); each is drawn when near the viewport. */
  get state() {
    return this.#state;
  }

  set state(state) {
    this.#pendingState = null;
    this.#state = state;
    this.#writeScaling();
    this.#invalidateAll();
  }

  /** The lesson's own settings: { heads, key } (web/lesson/model.js). Setting a patch keeps the other fields. */
  get settings() {
    return this.#settings;
  }

  set settings(patch) {
    const { settings, rejected } = updateLessonSettings(this.#settings, patch);
    for (const [name, reason] of Object.entries(rejected)) console.warn(`<attention-lesson>: settings.${name} ${reason}.`);
    this.#settings = settings;
    this.#invalidateAll();
  }

  /** The lab setting the learner last asked for in an instrument, e.g. { temperature: 0.1 }. */
  get value() {
    return this.#value;
  }

  /**
   * The exercises' score, for a learning platform: { raw (exercises solved), max (exercises),
   * completed (all solved) }. Announced by a `score` event (detail: the same) when it changes.
   * Nothing is stored: a reload starts at 0.
   */
  get score() {
    const exercises = this.#sections.flatMap((s) => s.story.filter((element) => element.localName === 'lesson-exercise'));
    // solved before the answer was shown (an answer put back and not yet drawn counts as saved)
    const credited = (element) => (this.#restoring.has(element) ? this.#restoring.get(element)?.credited === true : element.credited === true);
    const raw = exercises.filter(credited).length;
    return Object.freeze({ raw, max: exercises.length, completed: exercises.length > 0 && raw === exercises.length });
  }

  #restoring = new Map(); // story element → its saved state, put back when it is first drawn
  #shownAt = new Map(); // story element → when it was first drawn (or last answered): answers' latency
  #answered = []; // question ids in the order of their first answer

  /** The questions: { id, step, element } for every prediction and exercise, in the lesson's order. */
  get questions() {
    return this.#sections.flatMap((s) => s.story.map((element) => ({ id: questionId(element), step: s.part, element })));
  }

  /** The learner's work: { answers: { [question id]: state } }, the first answered first (web/lesson/progress.js keeps it). */
  get progress() {
    const questions = this.questions;
    const stateOf = ({ element }) => (this.#restoring.has(element) ? this.#restoring.get(element) : customElements.get(element.localName) ? element.state : null);
    const order = [...this.#answered, ...questions.map((q) => q.id).filter((id) => !this.#answered.includes(id))];
    const answers = {};
    for (const id of order) {
      const question = questions.find((q) => q.id === id);
      const state = question ? stateOf(question) : this.#hiddenAnswers[id];
      if (state) answers[id] = state;
    }
    return { answers };
  }

  /** Puts back saved answers ({ answers }); a question not named starts afresh. */
  set progress(progress) {
    const answers = progress?.answers ?? {};
    const hidden = new Set(this.#hiddenQuestions);
    this.#hiddenAnswers = Object.fromEntries(Object.entries(answers).filter(([id, state]) => hidden.has(id) && state));
    this.#answered = Object.keys(answers).filter((id) => hidden.has(id) || this.questions.some((q) => q.id === id));
    for (const { id, element } of this.questions) {
      const state = Object.hasOwn(answers, id) ? answers[id] : null;
      if (this.#drawn.has(element)) element.restore(state);
      else this.#restoring.set(element, state);
    }
    this.#writeScore(true);
  }

  #drawn = new Set(); // story elements given their results at least once
  #hiddenQuestions = []; // the ids of the questions of the steps not shown (a `steps` selection)
  #hiddenAnswers = {}; // their answers, as put back: given back by `progress`, never lost

  /** Clears the answers of the steps shown (and announces `startover`: a page forgets what it kept). */
  startOver() {
    // a pretest's answers stay (and stay locked): "before the lesson" is measured once
    const before = Object.entries(this.progress.answers).filter(([id]) => id.startsWith(`${PRETEST.part}-`));
    this.progress = { answers: { ...this.#hiddenAnswers, ...Object.fromEntries(before) } };
    this.dispatchEvent(new CustomEvent('startover', { bubbles: true }));
    if (this.#sections[0]) this.goTo(this.#sections[0].section.id);
  }

  /** True in view="compact": one step at a time. */
  get compact() {
    return this.getAttribute('view') === 'compact';
  }

  #page = 0; // view="compact": the index of the step shown
  #question = 0; // and of its quiz question shown (a section of questions: one at a time)
  #pager = null;

  /**
   * Brings the step whose section has id `id` (lesson.html#claim-1; what an LMS kept) before the
   * reader: scrolled to in the long form, shown in view="compact". False when there is none.
   */
  goTo(id) {
    const at = this.#sections.findIndex((s) => s.section.id === id);
    if (at < 0) return false;
    if (!this.compact) {
      this.#sections[at].section.scrollIntoView({ block: 'start' });
      return true;
    }
    this.#page = at;
    this.#question = 0;
    this.#showPage();
    return true;
  }

  // The pages of view="compact", in order: each question of a step (its prediction, its exercises,
  // the quiz's questions; not those of an aside) beside the step's instrument, or the step alone.
  #turn(by) {
    let page = this.#page;
    let question = this.#question + by;
    if (question < 0 || question >= Math.max(pagedQuestions(this.#sections[page]).length, 1)) {
      page += by;
      if (page < 0 || page >= this.#sections.length) return;
      question = by > 0 ? 0 : Math.max(pagedQuestions(this.#sections[page]).length - 1, 0);
    }
    this.#page = page;
    this.#question = question;
    this.#showPage();
  }

  // view="compact": marks the step and the question shown (the compact rules hide the others),
  // makes the instruments compact, and writes the pager. The long form marks nothing.
  #showPage() {
    if (!this.#pager) return;
    const compact = this.compact;
    this.#page = Math.min(this.#page, Math.max(this.#sections.length - 1, 0));
    this.#sections.forEach((s, i) => {
      s.section.toggleAttribute('data-current', compact && i === this.#page);
      pagedQuestions(s).forEach((element, j) => element.toggleAttribute('data-current', compact && i === this.#page && j === this.#question));
      s.element?.toggleAttribute('compact', compact);
    });
    this.#pager.hidden = !compact;
    if (!compact || this.#sections.length === 0) return;
    const t = (key, params) => this.#strings.t(key, params);
    const current = this.#sections[this.#page];
    const count = pagedQuestions(current).length;
    const at = t('lesson.pagerAt', { n: String(this.#page + 1), count: String(this.#sections.length) });
    const text = count > 1 ? `${at} · ${t('lesson.pagerQuestion', { n: String(this.#question + 1), count: String(count) })}` : at;
    const [previous, position, next] = [this.#pager.querySelector('.lesson-previous'), this.#pager.querySelector('p'), this.#pager.querySelector('.lesson-next')];
    this.#pager.lang = this.#strings.lang;
    this.#pager.setAttribute('aria-label', t('lesson.pagerLabel'));
    previous.textContent = t('lesson.pagerPrevious');
    next.textContent = t('lesson.pagerNext');
    if (position.textContent !== text) position.textContent = text;
    const first = this.#page === 0 && this.#question === 0;
    const last = this.#page === this.#sections.length - 1 && this.#question >= count - 1;
    // focus stays on the pager: a button that just became disabled hands it to the other
    const focused = document.activeElement;
    previous.disabled = first;
    next.disabled = last;
    if (focused === previous && first) next.focus();
    if (focused === next && last) previous.focus();
  }

  // An answer as the `answer` event announces it (LessonAnswer in attention-lesson.d.ts).
  #announceAnswer(element) {
    const value = element.value;
    if (!value) return;
    const s = this.#sections.find((x) => x.story.includes(element));
    const id = questionId(element);
    if (!this.#answered.includes(id)) this.#answered.push(id);
    const now = performance.now();
    const latency = Math.max(0, now - (this.#shownAt.get(element) ?? now));
    this.#shownAt.set(element, now);
    const base = { id, step: s.part, description: element.description.replace(/\s+/g, ' ').trim(), lang: this.#strings.lang, latency };
    let detail;
    if (element.localName === 'quiz-question') {
      // a pretest's result is reported as right or wrong (the learner is not told): the LMS's
      // report then reads the same for the question before and after the lesson
      detail = { ...base, kind: element.hasAttribute('pretest') ? 'pretest' : 'quiz', type: 'choice', response: value.choice, correct: value.answer, result: value.right ? 'correct' : 'wrong', attempts: 1 };
    } else if (element.localName === 'lesson-predict') {
      detail = { ...base, kind: 'prediction', type: 'choice', response: value.choice, correct: value.answer, result: value.right === null ? 'neutral' : value.right ? 'correct' : 'wrong', attempts: 1 };
    } else {
      const choice = EXERCISES[value.exercise].kind === 'dk';
      // a right answer typed after the feedback showed it is neither credited nor wrong
      const result = !value.right ? 'wrong' : value.credited ? 'correct' : 'neutral';
      detail = {
        ...base, kind: 'exercise', type: choice ? 'choice' : 'numeric', attempts: value.attempts,
        response: choice ? String(value.given) : typeof value.given === 'number' ? value.given : null,
        correct: choice ? String(value.expected) : { value: value.expected, tolerance: ANSWER_TOLERANCE },
        result, credited: value.credited,
      };
    }
    this.dispatchEvent(new CustomEvent('answer', { detail: Object.freeze(detail), bubbles: true }));
  }

  #score = null; // the line that shows the score
  #lastRaw = 0;

  // Shows the score; `announce`: a check happened, so a changed score is announced as an event.
  #writeScore(announce = false) {
    if (!this.#score) return;
    const score = this.score;
    this.#score.lang = this.#strings.lang;
    const text = this.#strings.t('story.score', { raw: score.raw, max: score.max });
    if (this.#score.textContent !== text) this.#score.textContent = text;
    this.#score.hidden = score.max === 0; // steps chosen without an exercise: no score to show
    if (this.#startOverElement) {
      const button = this.#startOverElement.querySelector('button');
      this.#startOverElement.lang = this.#strings.lang;
      button.textContent = this.#strings.t('progress.startOver');
      button.setAttribute('aria-label', this.#strings.t('progress.startOverLabel'));
    }
    if (announce && score.raw !== this.#lastRaw) {
      this.#lastRaw = score.raw;
      this.dispatchEvent(new CustomEvent('score', { detail: score, bubbles: true }));
    }
  }

  /** The language the lesson speaks (en or nb): its `lang`, else its lab's, else as the lab chooses one. */
  get language() {
    return this.#language ?? this.#strings.lang;
  }

  #chooseLanguage() {
    const language = languageFor(this, { inherited: this.#lab?.language ?? null });
    if (language === this.#language) return;
    this.#language = language;
    loadStrings(language).then((strings) => {
      if (this.#language !== language || strings === this.#strings) return;
      this.#strings = strings;
      this.#writeWords();
      this.#invalidateAll();
    });
  }

  #onLabLanguage = () => this.#chooseLanguage();

  // The words the lesson writes itself: the sections' titles and lang, the status line.
  #writeWords() {
    const strings = this.#strings;
    const level = this.#level;
    for (const s of this.#sections) {
      s.section.lang = strings.lang;
      const heading = s.section.querySelector(`h${level}`);
      heading.replaceChildren(...subscripts(strings.t(s.title)).map((node) => toDom(node)));
      s.leadElement.replaceChildren(...subscripts(strings.t(s.lead)).map((node) => toDom(node)));
      s.noteElement?.replaceChildren(...subscripts(strings.t(s.note)).map((node) => toDom(node)));
      s.asideElement?.replaceChildren(...subscripts(strings.t(s.aside)).map((node) => toDom(node)));
      for (const element of s.story) if (customElements.get(element.localName)) element.strings = strings;
    }
    this.#writeScaling();
    this.#writeScore();
    this.#showPage();
    if (this.#status) {
      this.#status.lang = strings.lang;
      const status = this.#state ? toDom(followingStatus(this.#state, strings)) : toDom(h('p', { class: 'lesson-status' }, strings.t('lesson.waiting')));
      status.lang = strings.lang;
      this.#status.replaceWith(status);
      this.#status = status;
    }
  }

  /** True while an instrument in or near the viewport (every one, when eager) has not drawn the latest state. */
  get pending() {
    return Boolean(this.#pendingState) || this.#sections.some((s) => s.stale && this.#visible(s));
  }

  #level = DEFAULT_HEADING_LEVEL;

  #build() {
    const level = (this.#level = headingLevel(this.getAttribute('heading-level')));
    const strings = this.#strings;
    if (this.hasAttribute('for')) {
      this.#status = toDom(h('p', { class: 'lesson-status', lang: strings.lang }, strings.t('lesson.waiting')));
      this.append(this.#status);
    }
    // the steps chosen, in their order (`steps`, read once), else every step, the closing quiz
    // only where the page asks for it (the `quiz` attribute, read once)
    // only where the page asks for it (the `quiz` attribute, read once); with `pretest` (read
    // once) its questions come first too, and the closing quiz is there whatever the others say
    const chosen = chosenSteps(this.getAttribute('steps'));
    const pretest = this.hasAttribute('pretest');
    const closing = SECTIONS.find((section) => section.part === 'quiz');
    let sections = chosen
      ? chosen.map((part) => SECTIONS.find((section) => section.part === part)).filter(Boolean)
      : SECTIONS.filter((section) => section !== closing || this.hasAttribute('quiz'));
    if (pretest) sections = [PRETEST, ...sections, ...(sections.includes(closing) ? [] : [closing])];
    this.#hiddenQuestions = [...SECTIONS, PRETEST].filter((section) => !sections.includes(section)).flatMap(questionIds);
    this.#sections = sections.map(({ tag, id, title, lead, part, predict, exercises, quiz, pretest, note, scaling, aside }) => {
      const body = [
        tag ? h(tag) : null,
        exercises.map((exercise) => h('lesson-exercise', { 'data-exercise': exercise })),
        quiz.map((question) => h('quiz-question', { 'data-question': question, pretest: Boolean(pretest) })),
        note ? h('p', { class: 'story-note' }, subscripts(strings.t(note))) : null,
      ];
      const section = toDom(
        // (a <div> in view="compact": a slide deck takes every <section> in a slide for a slide of its own)
        h(this.compact ? 'div' : 'section', { id: uniqueId(id), class: 'instrument', 'data-part': part, lang: strings.lang }, [
          h(`h${level}`, {}, subscripts(strings.t(title))),
          h('p', { class: 'story-lead' }, subscripts(strings.t(lead))),
          predict ? h('lesson-predict', { 'data-prediction': predict }) : null,
          scaling
            ? h('div', { class: 'story-scaling' }, [
              h('p', { class: 'story-scaling-text' }),
              h('p', { class: 'story-actions' }, [
                h('button', { type: 'button', 'data-temperature': 'root', disabled: true }),
                h('button', { type: 'button', 'data-temperature': 'one', disabled: true }),
              ]),
              h('p', { class: 'story-now' }),
            ])
            : null,
          aside ? h('details', { class: 'story-aside' }, [h('summary', {}, subscripts(strings.t(aside))), body]) : body,
        ]),
      );
      this.append(section);
      section.querySelector('.story-actions')?.addEventListener('click', (event) => this.#onTemperatureButton(event));
      const story = [...section.querySelectorAll('lesson-predict, lesson-exercise, quiz-question')];
      return {
        tag, title, lead, note, aside, part, section, element: tag ? section.querySelector(tag) : null, leadElement: section.querySelector('.story-lead'),
        noteElement: section.querySelector('.story-note'), asideElement: section.querySelector('.story-aside > summary'),
        scalingElement: section.querySelector('.story-scaling'), story, loaded: false, near: false, stale: false,
      };
    });
    this.#writeScaling();
    // view="compact"'s Previous / Next, and where the reader is ("2 of 5"), said when it changes
    this.#pager = toDom(h('nav', { class: 'lesson-pager', hidden: true }, [
      h('button', { type: 'button', class: 'lesson-previous' }),
      h('p', { role: 'status' }),
      h('button', { type: 'button', class: 'lesson-next' }),
    ]));
    this.#pager.querySelector('.lesson-previous').addEventListener('click', () => this.#turn(-1));
    this.#pager.querySelector('.lesson-next').addEventListener('click', () => this.#turn(1));
    this.append(this.#pager);
    this.#showPage();
    this.#score = toDom(h('p', { class: 'lesson-score', role: 'status', lang: strings.lang }, ''));
    this.append(this.#score);
    this.#startOverElement = toDom(h('p', { class: 'lesson-start-over' }, h('button', { type: 'button' }, '')));
    this.#startOverElement.querySelector('button').addEventListener('click', () => this.startOver());
    this.append(this.#startOverElement);
    this.#writeScore();
  }

  #startOverElement = null; // "Start over": clears the answers (and what the page or the LMS kept)

  #follow(lab) {
    if (!lab || lab === this.#lab) return;
    this.#lab = lab;
    lab.addEventListener('change', this.#onLabState);
    lab.addEventListener('languagechange', this.#onLabLanguage);
    if (lab.state) this.#onLabState();
  }

  // Runs inside the lab's update: it only records the state. The work waits until the states
  // stop coming (no instrument work, not even the status line, during a slider drag), then for a
  // frame and idle time.
  #onLabState = () => {
    const state = this.#lab?.state;
    if (!state || state === this.#state || state === this.#pendingState) return;
    this.#pendingState = state;
    clearTimeout(this.#settle);
    this.#settle = setTimeout(() => {
      this.#settle = 0;
      this.#schedule();
    }, SETTLE_MS);
  };

  // "Scaling is a temperature": its words, its buttons (T = √d_k of the state shown, or 1) and the
  // line that reads the selected row's largest weight from the lab's result — the lab's own
  // number, so a press shows its effect where it was made.
  #writeScaling() {
    const strings = this.#strings;
    const t = (key, params) => strings.t(key, params);
    const state = this.#pendingState ?? this.#state;
    const write = (element, nodes) => {
      const fresh = nodes.flat(Infinity).map((node) => toDom(node));
      if (element.textContent !== fresh.map((node) => node.textContent).join('')) element.replaceChildren(...fresh);
    };
    for (const s of this.#sections) {
      const box = s.scalingElement;
      if (!box) continue;
      write(box.querySelector('.story-scaling-text'), subscripts(t('story.scalingTemperature')));
      const [root, one] = box.querySelectorAll('.story-actions button');
      write(root, subscripts(t('story.setRootT', { root: state ? strings.fmt(Math.sqrt(state.d), 3) : '…' })));
      write(one, subscripts(t('story.setT1')));
      root.disabled = one.disabled = !state;
      const now = box.querySelector('.story-now');
      if (!state?.result) {
        now.replaceChildren();
        continue;
      }
      const row = state.selected;
      const params = {
        setting: t(state.scaled ? 'lesson.statusScaled' : 'lesson.statusUnscaled'),
        d: String(state.d),
        t: strings.fmt(state.temperature),
        max: strings.fixed(state.result.maxWeight[row], 3),
      };
      write(now, withNodes(t('story.scalingNow', params), { word: shortLabel(state.queryLabels[row]) }, subscripts));
    }
  }

  // A button of "scaling is a temperature": T = √d_k of the state shown, or T = 1, asked of the
  // lab (or, on a page without one, announced as this element's `input`/`change`).
  #onTemperatureButton(event) {
    const button = event.target.closest?.('button[data-temperature]');
    const state = this.#pendingState ?? this.#state;
    if (!button || !state) return;
    const temperature = button.dataset.temperature === 'root' ? Math.sqrt(state.d) : 1;
    this.#value = Object.freeze({ temperature });
    this.#lab?.set(this.#value);
    for (const type of ['input', 'change']) this.dispatchEvent(new Event(type, { bubbles: true }));
  }

  // An instrument's request: the lesson's own settings are kept here; lab settings go to the lab.
  #onRequest(event) {
    const source = event.target;
    if (this.#sections.some((s) => s.story.includes(source))) {
      // a prediction or an exercise: nothing for the lab; an exercise's check may change the score
      event.stopPropagation();
      if (event.type === 'change') this.#announceAnswer(source);
      if (source.localName === 'lesson-exercise') this.#writeScore(true);
      return;
    }
    if (source === this || !this.#sections.some((s) => s.element && s.element === source)) return;
    event.stopPropagation();
    const lesson = {};
    const lab = {};
    for (const [name, value] of Object.entries(source.value ?? {})) (name in LESSON_DEFAULTS ? lesson : lab)[name] = value;
    if (Object.keys(lesson).length) this.settings = lesson;
    if (Object.keys(lab).length) {
      this.#value = Object.freeze(lab);
      this.#lab?.set(lab);
      this.dispatchEvent(new Event(event.type, { bubbles: true }));
    }
  }

  #onIntersect(entries) {
    const eager = this.getAttribute('loading') === 'eager';
    for (const entry of entries) {
      const s = this.#sections.find((x) => x.section === entry.target);
      s.near = entry.isIntersecting;
      if ((s.near || eager) && !s.loaded) this.#load(s);
    }
    if (eager) for (const s of this.#sections) if (!s.loaded) this.#load(s);
    this.#schedule();
  }

  #load(s) {
    s.loaded = true;
    const story = [...new Set(s.story.map((element) => element.localName))];
    Promise.all([...(s.tag ? [s.tag] : []), ...story].map((tag) => import(`./${tag}.js`))).then(
      () => this.#schedule(),
      (error) => {
        s.section.append(toDom(h('p', { class: 'error' }, this.#strings.t('lesson.loadFailed', { message: error.message }))));
        console.error(error);
      },
    );
  }

  #invalidateAll() {
    for (const s of this.#sections) s.stale = true;
    this.#schedule();
  }

  #visible(s) {
    return s.near || this.getAttribute('loading') === 'eager';
  }

  #wanted(s) {
    return s.stale && this.#visible(s) && customElements.get(s.tag ?? s.story[0].localName);
  }

  // After the next frame (the lab's update is painted first), in idle time: one instrument per callback.
  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    requestAnimationFrame(() => idle(() => this.#step()));
  }

  #step() {
    this.#scheduled = false;
    if (this.#settle) return; // the lab is still changing: its timer schedules the next step
    if (this.#pendingState) {
      this.#state = this.#pendingState;
      this.#pendingState = null;
      if (this.#lab.engine !== this.#engine) {
        this.#engine = this.#lab.engine;
        this.#model = null;
      }
      if (this.#status) {
        const status = toDom(followingStatus(this.#state, this.#strings));
        status.lang = this.#strings.lang;
        this.#status.replaceWith(status);
        this.#status = status;
      }
      this.#writeScaling();
      for (const s of this.#sections) s.stale = true;
    }
    if (!this.#state || !this.#engine) return;
    const next = this.#sections.find((s) => this.#wanted(s));
    if (!next) return;
    next.stale = false;
    try {
      this.#draw(next);
    } finally {
      // an instrument that throws is reported (console) and the others are drawn all the same
      if (this.#sections.some((s) => this.#wanted(s))) {
        this.#scheduled = true;
        idle(() => this.#step());
      }
    }
  }

  // A section of questions only (the quiz): their words, and their saved answers once drawn.
  #drawQuestions(s) {
    for (const element of s.story) {
      if (!customElements.get(element.localName)) continue;
      if (element.strings !== this.#strings) element.strings = this.#strings;
      if (element.question !== element.dataset.question) element.question = element.dataset.question;
      this.#firstDrawn(element);
    }
  }

  // A story element drawn: when it was first shown (an answer's latency), and its saved answer put back.
  #firstDrawn(element) {
    if (!this.#drawn.has(element)) {
      this.#drawn.add(element);
      this.#shownAt.set(element, performance.now());
    }
    if (this.#restoring.has(element)) {
      element.restore(this.#restoring.get(element));
      this.#restoring.delete(element);
    }
  }

  // Gives an instrument its results; an instrument whose results did not change is not redrawn.
  #draw(s) {
    if (!s.tag) return this.#drawQuestions(s);
    this.#model ??= new LessonModel(this.#engine);
    let results;
    try {
      results = this.#model[s.part](this.#state, this.#settings);
    } catch (error) {
      const params = { message: error.message };
      results = { empty: english().t('lesson.cannotCompute', params), key: 'lesson.cannotCompute', params };
      console.error(error);
    }
    if (s.element.strings !== this.#strings) s.element.strings = this.#strings;
    for (const element of s.story) {
      if (!customElements.get(element.localName)) continue;
      if (element.strings !== this.#strings) element.strings = this.#strings;
      if (element.localName === 'lesson-predict') {
        if (element.prediction !== element.dataset.prediction) element.prediction = element.dataset.prediction;
        if (element.target !== s.element) element.target = s.element;
      } else {
        if (element.exercise !== element.dataset.exercise) element.exercise = element.dataset.exercise;
        if (element.engine !== this.#engine) element.engine = this.#engine;
      }
      if (element.localName === 'lesson-exercise') element.reveal = !this.hasAttribute('no-reveal');
      if (element.results !== results) element.results = results;
      this.#firstDrawn(element);
    }
    if (!sameResults(s.element.results, results)) s.element.results = results;
    // the instruments' own headings sit one level below their section's
    const settings = { projection: this.#state.projection, heading: this.#level + 1 };
    if (!sameResults(s.element.settings, settings)) s.element.settings = settings;
  }
}

// A question's id, stable across versions of the page: predict-variance, exercise-softmaxWeight,
// quiz-root, and pretest-root for the same question asked before the lesson.
function questionId(element) {
  if (element.localName === 'quiz-question') return `${element.hasAttribute('pretest') ? 'pretest' : 'quiz'}-${element.dataset.question}`;
  return element.localName === 'lesson-predict' ? `predict-${element.dataset.prediction}` : `exercise-${element.dataset.exercise}`;
}

// The ids of a section's questions, as questionId names their elements.
function questionIds({ predict, exercises, quiz, pretest }) {
  return [...(predict ? [`predict-${predict}`] : []), ...exercises.map((id) => `exercise-${id}`), ...quiz.map((id) => `${pretest ? 'pretest' : 'quiz'}-${id}`)];
}

// The questions view="compact" shows one at a time: a step's own, not those of its aside.
function pagedQuestions(s) {
  return s.story.filter((element) => !element.closest('details'));
}

// Results compared field by field: the model hands out the same arrays while nothing they depend on changed.
function sameResults(a, b) {
  if (sameValue(a, b)) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || ArrayBuffer.isView(a) || Array.isArray(a)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameResults(a[key], b[key]));
}

// `id`, or `id-2`, `id-3`… when the page has it already (a second lesson on the page): the first
// lesson keeps the ids a page links to (#claim-1).
function uniqueId(id) {
  let candidate = id;
  for (let n = 2; document.getElementById(candidate); n++) candidate = `${id}-${n}`;
  return candidate;
}

function idle(callback) {
  if (window.requestIdleCallback) requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(callback, 1);
}

define('attention-lesson', AttentionLesson);
