// <lesson-predict>: predict, then see. Before an instrument, the learner picks what they expect
// (a group of radio buttons), then "Check" reveals the measured answer — the instrument's own
// numbers (web/lesson/story.js measures them from the results the lesson hands the
// instrument) — with feedback on the guess in a live region. Until then the instrument below is
// veiled (`target`): hidden (visibility, set through the CSSOM; its place kept, so the page does
// not jump) and inert, so that neither the eye, Tab nor a screen reader reaches its numbers
// before the learner has committed; "Show me" reveals it without a guess. Nothing is graded or
// kept: a reload starts again.
//
//   predict.prediction = 'variance';   // an id of PREDICTIONS
//   predict.target = instrumentElement; // veiled (hidden, inert) until revealed
//   predict.results = model.variance(state);
//   predict.strings = strings;
//
// After a check it emits `change` with .value = { prediction, choice, right, answer } (the lesson
// stops it). `state` and `restore(state)` carry the learner's guess across a reload.
import { AlElement, drawnInputs, setText } from '../base.js';
import { TYPE_CSS, sheet } from '../theme.js';
import { kickerStyles, optionStyles } from './answer-styles.js';
import { PREDICTIONS, measurePrediction } from '../../lesson/story.js';
import { shortLabel } from '../../i18n/format.js';
import { withNodes } from '../../i18n/i18n.js';
import { subscripts, toDom } from '../../views/h.js';

/**
 * DOM nodes of a string-table text with the maths' subscripts (d_k → d<sub>k</sub>); `nodes`
 * fill placeholders left in it — the learner's words go there, never through subscripts.
 */
export function richText(text, nodes = {}) {
  return withNodes(text, nodes, subscripts).flat(Infinity).map((node) => toDom(node));
}

/** Writes `text` (richText) into `element` when it differs from what the element reads now. */
export function writeRich(element, text, nodes = {}) {
  const fresh = richText(text, nodes);
  const reads = fresh.map((node) => node.textContent).join('');
  if (element.textContent !== reads) element.replaceChildren(...fresh);
}

const styles = sheet(`
  :host { display: block; margin: .4em 0 .8em; font: ${TYPE_CSS.body}/1.5 var(--_font); color: var(--_text); }
  fieldset { margin: 0; padding: .6em .9em .7em; border: 1px solid var(--_border); border-left: 4px solid var(--_accent);
    border-radius: 8px; background: var(--_accent-soft); min-width: 0; }
  /* floated: the legend sits inside the box (a long question would straddle the border) */
  legend { float: left; width: 100%; padding: 0; font-weight: 600; }
  .actions { display: flex; flex-wrap: wrap; gap: .5em; }
  button { min-height: 32px; padding: .25em .9em; border-radius: 6px; border: 1px solid var(--_control); background: var(--_raised); cursor: pointer; }
  button.check { background: var(--_accent); border-color: var(--_accent); color: var(--_accent-text); font-weight: 600; }
  .feedback:empty { display: none; }
  .feedback { margin: .6em 0 0; padding: .45em .7em; border-radius: 6px; background: var(--_bg); border: 1px solid var(--_border); }
  .feedback b { font-weight: 600; }
  .feedback.right .verdict { color: var(--_accent); }
  .veiled { margin: .5em 0 0; font-size: ${TYPE_CSS.note}; color: var(--_muted); }
  /* answered or shown: the question and what was measured, a few lines instead of the whole form
     (the verdict names the learner's choice and the answer) */
  :host([revealed]) :is(.options, .actions) { display: none; }
  :host([revealed]) .feedback { margin: .4em 0 0; padding: 0; border: 0; background: none; }
  :host([revealed]) .question { font-weight: 400; }
  .feedback:focus { outline: none; }
`);

export class LessonPredict extends AlElement {
  static styles = [kickerStyles, optionStyles, styles];
  static template = `
    <fieldset>
      <legend><span class="kicker" data-t="predict.kicker"></span><span class="question"></span></legend>
      <div class="options"></div>
      <div class="actions">
        <button type="button" class="check" data-t="predict.check"></button>
        <button type="button" class="skip" data-t="predict.skip"></button>
      </div>
      <p class="veiled" data-t="predict.veiled"></p>
      <p class="feedback" role="status" aria-live="polite" tabindex="-1"></p>
    </fieldset>`;

  #target = null;
  #choice = null; // the option checked (null: none yet)
  #revealed = null; // null, 'guess' (checked) or 'skip' (shown without a guess)
  #value = null;

  constructor() {
    super();
    this.$('.check').addEventListener('click', () => this.#check());
    this.$('.skip').addEventListener('click', () => this.#reveal('skip'));
  }

  /** The element veiled (hidden and inert) until the answer is revealed. */
  get target() {
    return this.#target;
  }

  set target(element) {
    if (this.#target && this.#target !== element) unveil(this.#target);
    this.#target = element;
    this.#veil();
  }

  /** Whether the answer is shown: null, 'guess' or 'skip'. */
  get revealed() {
    return this.#revealed;
  }

  /** The last check: { prediction, choice, right, answer (the measured option, or null) } (null before one). */
  get value() {
    return this.#value;
  }

  /** The question as the learner reads it (plain text; empty before it is drawn). */
  get description() {
    return this.$('.question').textContent;
  }

  /** The learner's guess, to keep: { choice, revealed }, or null before the answer was shown. */
  get state() {
    return this.#revealed ? { choice: this.#choice, revealed: this.#revealed } : null;
  }

  /** Puts back a `state` (null: as new), without emitting. */
  restore(state) {
    const options = this.prediction ? PREDICTIONS[this.prediction].options : [];
    this.#choice = state && options.includes(state.choice) ? state.choice : null;
    this.#revealed = state?.revealed === 'guess' || state?.revealed === 'skip' ? state.revealed : null;
    if (this.#revealed === 'guess' && this.#choice === null) this.#revealed = null; // a guess must name its option
    this.#value = null;
    this.$('.feedback').replaceChildren();
    this.#veil();
    this.render();
  }

  onInnerInput(event) {
    if (event.target.name === 'option') this.#choice = event.target.value;
  }

  // Hidden from the eye (a blur left the numbers readable) and inert, out of the accessibility
  // tree, for the keyboard and a screen reader, which would otherwise read the answer first.
  #veil() {
    this.$('.veiled').hidden = Boolean(this.#revealed);
    this.toggleAttribute('revealed', Boolean(this.#revealed));
    if (!this.#target) return;
    if (this.#revealed) return unveil(this.#target);
    this.#target.style.setProperty('visibility', 'hidden');
    this.#target.inert = true;
    this.#target.setAttribute('aria-hidden', 'true');
  }

  #check() {
    if (this.#choice === null) {
      setText(this.$('.feedback'), this.strings.t('predict.chooseFirst'));
      this.shadowRoot.querySelector('input[name=option]')?.focus();
      return;
    }
    this.#reveal('guess');
  }

  #reveal(how) {
    if (!this.prediction) return; // not yet told which question it asks: nothing to reveal
    const hadFocus = this.shadowRoot.activeElement !== null;
    this.#revealed = how;
    this.#veil();
    this.render();
    // the buttons fold away with the form: keep the keyboard where the answer is
    if (hadFocus) this.$('.feedback').focus();
    const measured = measurePrediction(this.prediction, this.results);
    if (how === 'guess') {
      this.#value = Object.freeze({ prediction: this.prediction, choice: this.#choice, right: measured ? measured.answer === this.#choice : null, answer: measured?.answer ?? null });
      this.emit('change');
    }
  }

  render() {
    const id = this.prediction;
    if (!id) return;
    const t = (key, params) => this.strings.t(key, params);
    const { options, keys } = PREDICTIONS[id];
    writeRich(this.$('.question'), t(keys.question));
    const measured = this.#revealed ? measurePrediction(id, this.results) : null;
    const box = this.$('.options');
    if (box.children.length !== options.length) {
      box.replaceChildren(
        ...options.map((option) => {
          const label = document.createElement('label');
          const input = Object.assign(document.createElement('input'), { type: 'radio', name: 'option', value: option });
          label.append(input, document.createElement('span'));
          return label;
        }),
      );
    }
    options.forEach((option, i) => {
      const label = box.children[i];
      label.firstChild.checked = option === this.#choice;
      setText(label.lastChild, t(keys[option]));
      label.classList.toggle('answer', Boolean(measured && measured.answer === option));
    });
    const feedback = this.$('.feedback');
    feedback.classList.toggle('right', Boolean(measured && this.#revealed === 'guess' && measured.answer === this.#choice));
    if (!this.#revealed) {
      if (feedback.textContent && feedback.textContent !== t('predict.chooseFirst')) feedback.replaceChildren();
      return;
    }
    if (!measured) return setText(feedback, t('predict.notMeasured'));
    const answer = t(keys[measured.answer]);
    const verdict =
      this.#revealed === 'skip' ? t('predict.shown', { answer }) : measured.answer === this.#choice ? t('predict.right', { answer }) : t('predict.wrong', { answer, choice: t(keys[this.#choice]) });
    const { word, ...params } = this.#params(id, measured.values);
    const strong = document.createElement('b');
    strong.className = 'verdict';
    strong.textContent = verdict;
    const detail = richText(` ${t(keys.measured, params)}`, word === undefined ? {} : { word });
    const reads = verdict + detail.map((node) => node.textContent).join('');
    if (feedback.textContent !== reads) feedback.replaceChildren(strong, ...detail);
  }

  // The measured numbers as the feedback writes them (the reader's decimal sign).
  #params(id, v) {
    const s = this.strings;
    const f = (x, digits = 3) => s.fmt(x, digits);
    if (id === 'distribution') return { low: f(v.low), high: f(v.high), min: f(v.min), sum: s.fixed(v.sum, 4) };
    if (id === 'variance') return { from: f(v.from), to: f(v.to), ratio: s.fixed(v.ratio, 2), scaledFrom: f(v.scaledFrom), scaledTo: f(v.scaledTo), samples: s.integer(v.samples) };
    if (id === 'saturation') return { mean: s.fixed(v.mean, 3), scaled: s.fixed(v.scaled, 3), peaked: String(v.peaked), t: String(v.t), uniform: s.fixed(v.uniform, 3) };
    return {
      word: shortLabel(v.word),
      maxUnscaled: s.fixed(v.maxUnscaled, 3),
      maxScaled: s.fixed(v.maxScaled, 3),
      gUnscaled: f(v.gUnscaled),
      gScaled: f(v.gScaled),
      factor: f(v.factor, 2),
      meanUnscaled: f(v.meanUnscaled),
      meanScaled: f(v.meanScaled),
    };
  }
}

function unveil(element) {
  element.style.removeProperty('visibility');
  element.inert = false;
  element.removeAttribute('aria-hidden');
}

// prediction: the one shown, an id of PREDICTIONS (web/lesson/story.js); results: the
// instrument's (the lesson hands it the same as the instrument's)
drawnInputs(LessonPredict, {
  prediction(id) {
    if (!Object.hasOwn(PREDICTIONS, id)) throw new RangeError(`<lesson-predict>: no prediction ${JSON.stringify(id)}`);
  },
  results: null,
});

customElements.define('lesson-predict', LessonPredict);
