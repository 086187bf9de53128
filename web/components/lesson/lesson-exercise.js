// <lesson-exercise>: an exercise with checking. The learner types a number (or picks a d_k),
// "Check" compares it with the engine's (web/lesson/exercises.js, a tolerance), and the
// feedback — in a live region — names the mistake when the answer matches one (the codes of
// attention-lab/testing's DIAGNOSES). No learner code runs: an answer is read as a number.
//
//   exercise.exercise = 'softmaxWeight';   // an id of EXERCISES
//   exercise.engine = engine;
//   exercise.results = model.saturation(state);   // for 'saturate' only
//
// Each check emits `change` with .value = { exercise, right, solved, credited, attempts,
// revealed, given, expected }; `solved` stays true once an answer was right, `credited` only when
// it was right before the feedback showed the answer (the lesson counts those into its score).
// `reveal = false` never shows the engine's answer after wrong tries. `state` and `restore(state)`
// carry a learner's work across a reload (web/lesson/progress.js).
import { AlElement, drawnInputs } from '../base.js';
import { TYPE_CSS, sheet } from '../theme.js';
import { kickerStyles, verdictStyles } from './answer-styles.js';
import { DIAGNOSIS_KEYS, EXERCISES, SATURATED, checkExercise, promptParams } from '../../lesson/exercises.js';
import { SWEEP_DIMS } from '../../lesson/model.js';
import { richText, writeRich } from './lesson-predict.js';

const styles = sheet(`
  :host { display: block; margin: .8em 0 .4em; font: ${TYPE_CSS.body}/1.5 var(--_font); color: var(--_text); }
  .card { padding: .6em .9em .7em; border: 1px dashed var(--_control); border-radius: 8px; background: var(--_bg); }
  .prompt { margin: .1em 0 .5em; max-width: 70ch; }
  .prompt .math { font-family: var(--_mono); font-size: ${TYPE_CSS.note}; white-space: nowrap; }
  .answer { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; }
  label { display: inline-flex; gap: .5em; align-items: center; }
  input, select { min-height: 32px; padding: .2em .5em; border-radius: 6px; border: 1px solid var(--_control); background: var(--_bg); }
  input { width: 7em; font-variant-numeric: tabular-nums; }
`);

/** Wrong answers after which the feedback also gives the engine's answer. */
export const REVEAL_AFTER = 2;

export class LessonExercise extends AlElement {
  static styles = [kickerStyles, verdictStyles, styles];
  static template = `
    <div class="card" role="group">
      <span class="kicker" data-t="exercise.kicker"></span>
      <p class="prompt" id="prompt"></p>
      <div class="answer">
        <label class="number"><span data-t="exercise.yourAnswer"></span> <input type="text" inputmode="decimal" autocomplete="off" spellcheck="false" aria-describedby="prompt"></label>
        <label class="dk" hidden><span>d<sub>k</sub></span> <select aria-describedby="prompt"></select></label>
        <button type="button" class="check" data-t="exercise.check"></button>
      </div>
      <p class="feedback" role="status" aria-live="polite"></p>
    </div>`;

  #engine = null;
  #solved = false;
  #wrong = 0;
  #last = null; // the last check's result (re-written in another language)
  #value = null;
  #attempts = 0; // checks that gave a verdict
  #revealed = false; // the feedback has shown the answer
  #credited = false; // right before the answer was shown
  #restoring = null; // a saved state waiting for the engine (and the results) to check it again
  reveal = true; // show the engine's answer after REVEAL_AFTER wrong tries

  constructor() {
    super();
    this.$('.check').addEventListener('click', () => this.check());
    this.$('input').addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        this.check();
      }
    });
  }

  /** The engine answers are checked against. */
  get engine() {
    return this.#engine;
  }

  set engine(engine) {
    this.#engine = engine;
  }

  /** True once an answer was right. */
  get solved() {
    return this.#solved;
  }

  /** True once an answer was right before the feedback had shown it. */
  get credited() {
    return this.#credited;
  }

  /** The last check: { exercise, right, solved, credited, attempts, revealed, given, expected } (null before one). */
  get value() {
    return this.#value;
  }

  /** The question as the learner reads it (plain text; empty before it is drawn). */
  get description() {
    return this.$('.prompt').textContent;
  }

  /** The learner's work, to keep: { answer, attempts, wrong, solved, credited, revealed }, or null before a check. */
  get state() {
    if (this.#attempts === 0) return null;
    const kind = this.exercise ? EXERCISES[this.exercise].kind : 'number';
    const answer = kind === 'dk' ? this.$('select').value : this.$('input').value;
    return { answer, attempts: this.#attempts, wrong: this.#wrong, solved: this.#solved, credited: this.#credited, revealed: this.#revealed };
  }

  /** Puts back a `state` (null: as new). Its feedback is written once the answer can be checked again; nothing is emitted. */
  restore(saved) {
    // a state without a check or an answer is none (web/lesson/progress.js drops invalid fields one by one)
    const state = saved && saved.attempts > 0 && typeof saved.answer === 'string' ? saved : null;
    this.#attempts = state?.attempts ?? 0;
    this.#wrong = state?.wrong ?? 0;
    this.#solved = state?.solved ?? false;
    this.#credited = state?.credited ?? false;
    this.#revealed = state?.revealed ?? false;
    this.#last = null;
    this.#value = null;
    this.#restoring = state;
    this.$('input').value = state && this.exercise && EXERCISES[this.exercise].kind !== 'dk' ? state.answer : '';
    this.$('.feedback').replaceChildren();
    this.$('.feedback').className = 'feedback';
    this.render();
  }

  /** Checks the answer in the field (what "Check" and Enter do). */
  check() {
    if (!this.exercise || !this.#engine) return;
    const kind = EXERCISES[this.exercise].kind;
    const answer = kind === 'dk' ? this.$('select').value : this.$('input').value;
    const result = checkExercise(this.#engine, this.exercise, answer, this.results);
    this.#last = result;
    this.#restoring = null;
    if (result.status === 'wrong') this.#wrong++;
    if (result.status === 'right') {
      this.#solved = true;
      if (!this.#revealed) this.#credited = true;
    }
    this.#writeFeedback();
    if (result.status === 'right' || result.status === 'wrong') {
      this.#attempts++;
      // shown now: the engine's answer after REVEAL_AFTER wrong tries, or a saturation verdict that names the d_k
      if (result.status === 'wrong' && ((this.reveal && this.#wrong >= REVEAL_AFTER && kind !== 'dk') || result.diagnosis === 'passes')) this.#revealed = true;
      this.#value = Object.freeze({
        exercise: this.exercise, right: result.status === 'right', solved: this.#solved, credited: this.#credited,
        attempts: this.#attempts, revealed: this.#revealed, given: result.given, expected: result.expected,
      });
      this.emit('change');
    }
  }

  render() {
    const id = this.exercise;
    if (!id) return;
    const t = (key, params) => this.strings.t(key, params);
    const exercise = EXERCISES[id];
    const dk = exercise.kind === 'dk';
    this.$('.number').hidden = dk;
    this.$('.dk').hidden = !dk;
    const card = this.$('.card');
    card.setAttribute('aria-label', t('exercise.label'));
    const { word, ...params } = promptParams(id, this.strings, this.results);
    writeRich(this.$('.prompt'), t(exercise.prompt, params), word === undefined ? {} : { word });
    const input = dk ? this.$('select') : this.$('input');
    input.setAttribute('aria-label', t(dk ? 'exercise.chooseDk' : 'exercise.yourAnswer'));
    if (dk) this.#fillSelect();
    this.#recheck();
    if (this.#last) this.#writeFeedback();
  }

  // A restored answer checked again, silently, once its engine (and the saturation's results) are here.
  #recheck() {
    const state = this.#restoring;
    if (!state || !this.#engine || !this.exercise) return;
    const dk = EXERCISES[this.exercise].kind === 'dk';
    if (dk && (!this.results || this.results.empty)) return;
    this.#restoring = null;
    if (dk) this.$('select').value = state.answer;
    else this.$('input').value = state.answer;
    const result = checkExercise(this.#engine, this.exercise, state.answer, this.results);
    if (result.status === 'right' || result.status === 'wrong') this.#last = result;
  }

  #fillSelect() {
    const select = this.$('select');
    const values = [...SWEEP_DIMS.map(String), 'none'];
    if (select.options.length !== values.length) select.replaceChildren(...values.map((v) => new Option(v, v)));
    select.options[values.length - 1].text = this.strings.t('exercise.saturateNone');
  }

  #writeFeedback() {
    const result = this.#last;
    const feedback = this.$('.feedback');
    const s = this.strings;
    const t = (key, params) => s.t(key, params);
    const id = this.exercise;
    let verdict = '';
    let detail = '';
    if (result.status === 'empty') detail = t('exercise.empty');
    else if (result.status === 'invalid') detail = t(id === 'saturate' ? 'exercise.saturateInvalid' : 'exercise.invalid');
    else if (id === 'saturate') {
      const v = result.values;
      const params = { dk: String(v.dk ?? result.expected), weight: s.fixed(v.weight ?? 0, 3), threshold: s.fixed(SATURATED, 1) };
      verdict = t(result.status === 'right' ? 'exercise.right' : 'exercise.wrong');
      detail = result.status === 'right' ? t(result.expected === 'none' ? 'exercise.saturateRightNone' : 'exercise.saturateRight', { ...params, dk: String(result.expected) }) : t(DIAGNOSIS_KEYS[result.diagnosis], params);
    } else if (result.status === 'right') {
      verdict = t('exercise.right');
      detail = t('exercise.engineGives', { value: s.fixed(result.expected, 4) });
    } else {
      verdict = t('exercise.wrong');
      detail = result.diagnosis ? t(DIAGNOSIS_KEYS[result.diagnosis]) : t(EXERCISES[id].hint);
      if (this.#wrong >= REVEAL_AFTER && this.reveal) detail += ` ${t('exercise.engineGives', { value: s.fixed(result.expected, 4) })}`;
    }
    feedback.className = `feedback ${result.status === 'right' ? 'right' : result.status === 'wrong' ? 'wrong' : ''}`;
    const strong = document.createElement('span');
    strong.className = 'verdict';
    strong.textContent = verdict;
    const nodes = verdict ? [strong, ...richText(` ${detail}`)] : richText(detail);
    if (feedback.textContent !== nodes.map((node) => node.textContent).join('')) feedback.replaceChildren(...nodes);
  }
}

// exercise: the one shown, an id of EXERCISES (web/lesson/exercises.js); results: the lesson's
// saturation results ('saturate' reads the lab's row from them)
drawnInputs(LessonExercise, {
  exercise(id) {
    if (!Object.hasOwn(EXERCISES, id)) throw new RangeError(`<lesson-exercise>: no exercise ${JSON.stringify(id)}`);
  },
  results: null,
});

customElements.define('lesson-exercise', LessonExercise);
