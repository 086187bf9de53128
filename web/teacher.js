// The teacher's page: the lesson's goals, two plans, where learners go wrong, a worksheet to print
// and the answer key, all from web/lesson/teaching.js and the string tables. The key's answers
// are computed here as the page loads, by the lesson's own code on the lesson page's state (the
// lab's defaults on the Random projection, as web/lesson.js starts): the same engine, vocabulary,
// pipeline and model — no number is written into the page.
import { strings } from './i18n/page.js';
import { loadEngine, loadingWords, pageVocab } from './lab/assets.js';
import { LabPipeline } from './lab/inputs.js';
import { createStore } from './lab/settings.js';
import { labState } from './lab/state.js';
import { LessonModel } from './lesson/model.js';
import { ANSWER_TOLERANCE, EXERCISES, promptParams } from './lesson/exercises.js';
import { PREDICTIONS } from './lesson/story.js';
import { QUIZ } from './lesson/quiz.js';
import { LESSON_STEPS } from './lesson/steps.js';
import { GOALS, PITFALLS, PLANS, PREDICTION_RULES, WORKSHEET, answerKey } from './lesson/teaching.js';
import { STEPS } from './components/lesson/attention-lesson.js';
import { richText } from './components/lesson/lesson-predict.js';

const t = (key, params) => strings.t(key, params);
const $ = (id) => document.getElementById(id);
const SECTION = Object.fromEntries(STEPS.map((section) => [section.part, section]));

/** An element: `tag` with attributes and children (strings become text, with d_k's subscripts). */
function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of [children].flat()) node.append(...(typeof child === 'string' ? richText(child) : [child]));
  return node;
}

// A step of the lesson named by its heading, linked to its section of lesson.html.
const stepLink = (part) => el('a', { href: `./lesson.html?lang=${strings.lang}#${SECTION[part].id}` }, t(SECTION[part].title));

function drawGoals() {
  $('goal-list').replaceChildren(...GOALS.map((key) => el('li', {}, t(key))));
}

function drawPlans() {
  const tables = Object.values(PLANS).map((plan) => {
    const head = el('tr', {}, ['teacher.minutes', 'teacher.step', 'teacher.classDoes'].map((key) => el('th', { scope: 'col' }, t(key))));
    const rows = plan.rows.map((row) => el('tr', {}, [el('td', { class: 'minutes' }, String(row.minutes)), el('td', {}, stepLink(row.part)), el('td', {}, t(row.does))]));
    const table = el('table', {}, [el('caption', {}, t('teacher.planTitle', { minutes: String(plan.minutes) })), el('thead', {}, head), el('tbody', {}, rows)]);
    const skipped = LESSON_STEPS.filter((part) => !plan.rows.some((row) => row.part === part));
    if (skipped.length === 0) return table;
    // the steps a short plan leaves out, to give as homework
    return el('div', {}, [table, el('p', { class: 'homework' }, t('teacher.homework')), el('ul', {}, skipped.map((part) => el('li', {}, stepLink(part))))]);
  });
  $('plan-tables').replaceChildren(...tables);
}

function drawPitfalls() {
  const parts = LESSON_STEPS.filter((part) => PITFALLS[part].length > 0);
  $('pitfall-list').replaceChildren(
    ...parts.map((part) =>
      el('div', { class: 'pitfall' }, [
        el('h3', {}, stepLink(part)),
        el('ul', {}, PITFALLS[part].map(({ wrong, ask }) =>
          el('li', {}, [el('p', {}, [el('b', {}, t('teacher.theyThink')), ' ', ...richText(t(wrong))]), el('p', {}, [el('b', {}, t('teacher.ask')), ' ', ...richText(t(ask))])]))),
      ]),
    ),
  );
}

// A worksheet question's words: a prediction's question, or an exercise's prompt with its numbers.
function question({ kind, id }) {
  if (kind === 'predict') return t(PREDICTIONS[id].keys.question);
  if (EXERCISES[id].kind === 'dk') return t('teacher.worksheetSaturate', promptParams(id, strings));
  return t(EXERCISES[id].prompt, promptParams(id, strings));
}

function drawWorksheet() {
  const items = [];
  let part = null;
  WORKSHEET.forEach((item, i) => {
    if (item.part !== part) items.push(el('h3', {}, t(SECTION[item.part].title)));
    part = item.part;
    const number = el('b', {}, `${i + 1}.`);
    const answer =
      item.kind === 'predict'
        ? el('ul', { class: 'options' }, PREDICTIONS[item.id].options.map((option) => el('li', {}, [el('span', { class: 'box' }), ...richText(t(PREDICTIONS[item.id].keys[option]))])))
        : el('p', { class: 'answer-line' }, [el('span', {}, t('exercise.yourAnswer')), el('span', { class: 'blank' })]);
    items.push(el('div', { class: 'question' }, [el('p', {}, [number, ' ', ...richText(question(item))]), answer]));
  });
  $('worksheet-items').replaceChildren(...items);
}

// An answer as the key writes it: a prediction's option, an exercise's weight or d_k.
function answerText({ kind, id, answer }) {
  if (answer === null) return t('teacher.keyNone');
  if (kind === 'predict') return t(PREDICTIONS[id].keys[answer]);
  if (answer === 'none') return t('exercise.saturateNone');
  if (EXERCISES[id].kind === 'dk') return t('teacher.answerDk', { dk: String(answer) });
  return t('teacher.answerWeight', { value: strings.fixed(answer, 4), tolerance: strings.fixed(ANSWER_TOLERANCE, 3) });
}

function drawKey(key, settings) {
  const items = key.items.map((item, i) => {
    const lines = [el('p', { class: 'asked' }, [el('b', {}, `${i + 1}.`), ' ', ...richText(question(item))]), el('p', { class: 'answer' }, [el('b', {}, t('teacher.answer')), ' ', ...richText(answerText(item))])];
    if (item.kind === 'predict') lines.push(el('p', { class: 'why' }, t(PREDICTION_RULES[item.id])));
    return el('li', { 'data-item': `${item.kind}-${item.id}` }, lines);
  });
  const quiz = key.quiz.map(({ id, answer }, i) => {
    const { keys } = QUIZ[id];
    return el('li', { 'data-item': `quiz-${id}` }, [
      el('p', { class: 'asked' }, [el('b', {}, `${i + 1}.`), ' ', ...richText(t(keys.question))]),
      el('p', { class: 'answer' }, [el('b', {}, t('teacher.answer')), ' ', ...richText(t(keys[answer]))]),
      el('p', { class: 'why' }, t(keys.why)),
    ]);
  });
  // the sentence as typed, never through d_k's subscripts
  $('key-status').replaceChildren(...richText(t('teacher.keyMeasured', { seed: String(settings.seed), dk: String(settings.dk) }), { sentence: settings.sentence }));
  $('key-items').replaceChildren(
    el('h3', {}, t('teacher.keyWorksheet')),
    el('ol', { class: 'numbered' }, items),
    el('h3', {}, t('teacher.keyQuiz')),
    el('ol', { class: 'numbered' }, quiz),
  );
  document.documentElement.dataset.ready = 'true'; // the key is drawn (tests wait for it)
}

// The lesson page's first state: the lab's defaults on the Random projection (web/lesson.js).
async function computeKey() {
  const vocab = pageVocab();
  const engine = await loadEngine();
  const store = createStore();
  store.set({ projection: 'random', probe: '' });
  const settings = store.get();
  const loading = loadingWords(vocab, settings);
  if (loading.length > 0) await vocab.load(loading);
  const state = labState(settings, new LabPipeline(engine, vocab), engine);
  drawKey(answerKey(engine, new LessonModel(engine), state), settings);
}

// The class: four steps and the quiz, ticked at first.
const SLIDE_STEPS = ['variance', 'saturation', 'gradient', 'overflow', 'quiz'];

// "In a slide": a checkbox per step; the embed code (an iframe of embed.html) and the elements'
// markup for those steps, one at a time in a box that fits a 1280×720 slide (docs/slides.md).
function drawSlides() {
  const list = $('slide-steps');
  list.replaceChildren(...LESSON_STEPS.map((part) =>
    el('li', {}, el('label', {}, [Object.assign(el('input', { type: 'checkbox', value: part }), { checked: SLIDE_STEPS.includes(part) }), el('span', {}, t(SECTION[part].title))]))));
  const write = () => {
    const steps = [...list.querySelectorAll('input:checked')].map((box) => box.value).join(',') || SLIDE_STEPS.join(',');
    const site = new URL('./', location.href).href;
    $('slide-frame').value = `<iframe src="${site}embed.html?projection=random&steps=${steps}&layout=compact&share=0" title="Attention Lab" width="960" height="680"></iframe>`;
    $('slide-element').value = [
      '<attention-lab id="lab" projection="random" hidden></attention-lab>',
      `<attention-lesson for="lab" steps="${steps}" view="compact"></attention-lesson>`,
      `<script type="module" src="${site}components/attention-lab.js"></script>`,
      `<script type="module" src="${site}components/lesson/attention-lesson.js"></script>`,
    ].join('\n');
  };
  list.addEventListener('change', write);
  write();
}

function printOnly(className) {
  document.body.classList.add(className);
  addEventListener('afterprint', () => document.body.classList.remove(className), { once: true });
  print();
}

drawGoals();
drawPlans();
drawPitfalls();
drawWorksheet();
drawSlides();
$('print-worksheet').addEventListener('click', () => printOnly('print-worksheet'));
$('print-all').addEventListener('click', () => print());
computeKey().catch((error) => {
  $('key-status').textContent = t('teacher.keyFailed', { message: error.message });
  console.error(error);
});
