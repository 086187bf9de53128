// <quiz-question>: one question of the closing quiz (web/lesson/quiz.js). The learner picks an
// option and checks it once: the question then holds still and says whether it was right and
// why. Nothing is measured: the answer is a matter of the argument, not of the sentence.
//
//   question.question = 'root';   // an id of QUIZ
//   question.strings = strings;
//
// After the check it emits `change` with .value = { question, choice, right, answer };
// `state` and `restore(state)` carry it across a reload. With the `pretest` attribute it is the
// same question asked before the lesson: checked once, it says only "Saved." — no verdict, no
// why, no option marked — so the learner's first answer is theirs, not the page's.
import { AlElement, drawnInputs, setText } from '../base.js';
import { TYPE_CSS, sheet } from '../theme.js';
import { kickerStyles, optionStyles, verdictStyles } from './answer-styles.js';
import { QUIZ, checkQuiz } from '../../lesson/quiz.js';
import { writeRich } from './lesson-predict.js';

const styles = sheet(`
  :host { display: block; margin: .6em 0; font: ${TYPE_CSS.body}/1.5 var(--_font); color: var(--_text); }
  fieldset { margin: 0; padding: .6em .9em .7em; border: 1px solid var(--_border); border-radius: 8px; background: var(--_bg); min-width: 0; }
  legend { float: left; width: 100%; padding: 0; font-weight: 600; }
  button:disabled { cursor: default; opacity: .6; }
`);

export class QuizQuestion extends AlElement {
  static styles = [kickerStyles, optionStyles, verdictStyles, styles];
  static template = `
    <fieldset>
      <legend><span class="kicker" data-t="quiz.kicker"></span><span class="question"></span></legend>
      <div class="options"></div>
      <button type="button" class="check" data-t="quiz.check"></button>
      <p class="feedback" role="status" aria-live="polite"></p>
    </fieldset>`;

  #choice = null;
  #checked = false;
  #value = null;

  constructor() {
    super();
    this.$('.check').addEventListener('click', () => this.#check());
  }

  onInnerInput(event) {
    if (event.target.name === 'option' && !this.#checked) this.#choice = event.target.value;
  }

  /** The check: { question, choice, right, answer } (null before it). */
  get value() {
    return this.#value;
  }

  /** The question as the learner reads it (plain text). */
  get description() {
    return this.$('.question').textContent;
  }

  /** The learner's answer, to keep: { choice, attempts: 1 }, or null before the check. */
  get state() {
    return this.#checked ? { choice: this.#choice, attempts: 1 } : null;
  }

  /** Puts back a `state` (null: as new), without emitting. */
  restore(state) {
    const options = this.question ? QUIZ[this.question].options : [];
    const valid = Boolean(state && options.includes(state.choice));
    this.#choice = valid ? state.choice : null;
    this.#checked = valid;
    this.#value = null;
    this.render();
  }

  #check() {
    if (this.#checked || !this.question) return;
    if (this.#choice === null) {
      setText(this.$('.feedback'), this.strings.t('quiz.chooseFirst'));
      return;
    }
    this.#checked = true;
    const question = QUIZ[this.question];
    this.#value = Object.freeze({ question: this.question, choice: this.#choice, right: checkQuiz(this.question, this.#choice), answer: question.answer });
    this.render();
    this.emit('change');
  }

  render() {
    const id = this.question;
    if (!id) return;
    const t = (key, params) => this.strings.t(key, params);
    const { options, answer, keys } = QUIZ[id];
    writeRich(this.$('.question'), t(keys.question));
    const box = this.$('.options');
    if (box.children.length !== options.length) {
      box.replaceChildren(...options.map((option) => {
        const label = document.createElement('label');
        label.append(Object.assign(document.createElement('input'), { type: 'radio', name: 'option', value: option }), document.createElement('span'));
        return label;
      }));
    }
    const pretest = this.hasAttribute('pretest');
    const kicker = this.$('.kicker');
    kicker.dataset.t = pretest ? 'quiz.pretestKicker' : 'quiz.kicker';
    setText(kicker, t(kicker.dataset.t));
    options.forEach((option, i) => {
      const label = box.children[i];
      const input = label.firstChild;
      input.checked = option === this.#choice;
      input.disabled = this.#checked;
      writeRich(label.lastChild, t(keys[option]));
      label.classList.toggle('answer', this.#checked && !pretest && option === answer);
    });
    this.$('.check').disabled = this.#checked;
    const feedback = this.$('.feedback');
    if (!this.#checked) {
      if (feedback.textContent !== t('quiz.chooseFirst')) feedback.replaceChildren();
      feedback.className = 'feedback';
      return;
    }
    if (pretest) {
      feedback.className = 'feedback';
      setText(feedback, t('quiz.saved'));
      return;
    }
    const right = this.#choice === answer;
    feedback.className = `feedback ${right ? 'right' : 'wrong'}`;
    const verdict = document.createElement('span');
    verdict.className = 'verdict';
    verdict.textContent = t(right ? 'quiz.right' : 'quiz.wrong');
    const why = document.createElement('span');
    writeRich(why, ` ${t(keys.why)}`);
    const reads = verdict.textContent + why.textContent;
    if (feedback.textContent !== reads) feedback.replaceChildren(verdict, why);
  }
}

drawnInputs(QuizQuestion, {
  question(id) {
    if (!Object.hasOwn(QUIZ, id)) throw new RangeError(`<quiz-question>: no question ${JSON.stringify(id)}`);
  },
});

customElements.define('quiz-question', QuizQuestion);
