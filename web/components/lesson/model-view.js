// <model-view for="lab">: a trained language model to look inside (docs/model.md) — the lab's
// sentence (or repeated random words) through either twin, every head, one head opened, the
// next word, and what removing √d_k changes. Draws web/views/model.js.
//
// The model (2 MB per twin: web/assets/model/) is loaded only when the element first comes near
// the viewport, each twin once, by attention-lab/model on its own engine. The element follows
// the sentence of the <attention-lab> named by `for` (its state's tokens), or `tokens` set by the
// page, until the learner asks for the repeated words; its own settings (twin, head, √d_k, temperature, position) live here.
import { languageFor, onLanguageChange } from '../../i18n/dom.js';
import { loadStrings } from '../../i18n/i18n.js';
import { sheet } from '../theme.js';
import { modelView } from '../../views/model.js';
import { Instrument } from './instrument.js';

const NEAR_VIEWPORT = '600px 0px';
const HEADING = 3;
const DEFAULT_SENTENCE = 'the cat sat on the mat because it was tired'.split(' ');
// the next word's temperatures: the slider's steps
const TEMPERATURES = Object.freeze([0.25, 0.5, 0.75, 1, 1.5, 2, 3]);
const DEMO_SPAN = 12; // random words, then the same again

export class ModelView extends Instrument {
  static styles = [
    ...Instrument.styles,
    sheet(`
      .controls { display: flex; flex-wrap: wrap; gap: .6em 1.4em; align-items: center; margin: .4em 0 1em; }
      fieldset.twins { border: 0; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .3em 1em; align-items: center; }
      fieldset.twins legend { float: left; font-weight: 600; font-size: 13px; margin-right: .6em; }
      input[type=radio], input[type=checkbox] { width: 18px; height: 18px; margin: 3px; accent-color: var(--_accent); }
      select, button { font: inherit; font-size: 13px; padding: .3em .6em; border-radius: 6px; border: 1px solid var(--_border); background: var(--_raised); color: var(--_text); min-height: 28px; }
      button { cursor: pointer; }
      .tokens { display: flex; flex-wrap: wrap; gap: .3em; margin: .3em 0; }
      .token { padding: .1em .45em; border-radius: 4px; background: var(--_raised); border: 1px solid var(--_border); font-size: 13px; }
      .token.unknown { text-decoration: underline dotted; text-underline-offset: 3px; color: var(--_muted); }
      .thumbs { display: grid; grid-template-columns: repeat(4, max-content); gap: 10px 12px; margin: .4em 0 1em; }
      .thumbs.per-row-2 { grid-template-columns: repeat(2, max-content); }
      .thumb { display: flex; flex-direction: column; align-items: center; gap: .15em; padding: 4px; border-radius: 6px; font-size: 12px; }
      .thumb.open { outline: 2px solid var(--_accent); outline-offset: 1px; font-weight: 600; }
      .thumb-role { color: var(--_muted); font-weight: normal; }
      section { margin: 1em 0; max-width: 75ch; }
      section > p { margin: .3em 0 .5em; }
      ul { margin: .3em 0; padding-left: 1.3em; }
    `),
  ];
  static view = modelView;

  #language = null;
  #stopWatching = null;
  #visibility = null;
  #wanted = false; // came near the viewport: load
  #models = new Map(); // variant → Promise<TrainedModel>
  #api = null;
  #lab = null;
  #state = { variant: 'scaled', layer: 1, head: 1, scaleAtInference: true, temperature: 1, position: null, demo: 0 };
  #tokens = DEFAULT_SENTENCE;
  #frame = 0;
  #runs = new Map(); // the latest runs by what they ran: opening a head or toggling √d_k back runs nothing

  connectedCallback() {
    super.connectedCallback();
    this.settings = { heading: HEADING };
    this.#stopWatching = onLanguageChange(() => this.#chooseLanguage());
    this.#chooseLanguage();
    this.shadowRoot.addEventListener('click', this.#onClick);
    this.#lab = this.getAttribute('for') ? document.getElementById(this.getAttribute('for')) : null;
    this.#lab?.addEventListener('change', this.#followLab);
    this.#followLab();
    this.#visibility = new IntersectionObserver((entries) => {
      if (!entries.at(-1).isIntersecting || this.#wanted) return;
      this.#wanted = true;
      this.#update();
    }, { rootMargin: NEAR_VIEWPORT });
    this.#visibility.observe(this);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#stopWatching?.();
    this.#visibility?.disconnect();
    this.shadowRoot.removeEventListener('click', this.#onClick);
    this.#lab?.removeEventListener('change', this.#followLab);
    cancelAnimationFrame(this.#frame);
  }

  #chooseLanguage() {
    const language = languageFor(this);
    if (language === this.#language) return;
    this.#language = language;
    loadStrings(language).then((strings) => {
      if (this.#language === language) this.strings = strings;
    });
  }

  /** The sentence shown, as the lab's tokens (a page without an <attention-lab> sets it). */
  get tokens() {
    return this.#tokens;
  }

  set tokens(tokens) {
    if (!tokens?.length || tokens.join('\u0000') === this.#tokens.join('\u0000')) return;
    this.#tokens = [...tokens];
    this.#state.position = null;
    if (!this.#state.demo) this.#update();
  }

  // The lab's sentence, as its tokens (the model reads the same lower-case tokens).
  #followLab = () => {
    const tokens = this.#lab?.state?.tokens?.map((token) => token.text ?? token);
    if (tokens) this.tokens = tokens;
  };

  onInnerInput(event) {
    const intent = event.target.dataset?.intent;
    const s = this.#state;
    if (intent === 'variant' && event.target.checked) {
      s.variant = event.target.value;
      if (s.variant === 'unscaled') s.scaleAtInference = true;
    } else if (intent === 'removeScale') s.scaleAtInference = !event.target.checked;
    else if (intent === 'temperature') s.temperature = TEMPERATURES[Number(event.target.value)] ?? 1;
    else if (intent === 'position') s.position = Number(event.target.value);
    else return;
    this.#update();
  }

  #onClick = (event) => {
    const target = event.target.closest?.('button');
    if (!target) return;
    const s = this.#state;
    if (target.dataset.layer) {
      s.layer = Number(target.dataset.layer);
      s.head = Number(target.dataset.head);
    } else if (target.dataset.intent === 'demo') {
      s.demo = s.demo ? 0 : s.demo + 1 + Math.floor(Math.random() * 1e6);
      s.position = null;
    } else return;
    this.#update();
  };

  // model.run(tokens, options), or the same run made before.
  #runOf(model, tokens, options) {
    const key = JSON.stringify([model.variant, tokens, options]);
    let run = this.#runs.get(key);
    if (!run) {
      run = model.run(tokens, options);
      if (this.#runs.size >= RUNS_KEPT) this.#runs.delete(this.#runs.keys().next().value);
    } else this.#runs.delete(key); // moved to the end: the most recently used
    this.#runs.set(key, run);
    return run;
  }

  // Loads what is needed, then runs the model and draws, at most once a frame.
  #update() {
    if (!this.#wanted) return;
    cancelAnimationFrame(this.#frame);
    this.#frame = requestAnimationFrame(() => this.#run());
  }

  async #run() {
    const s = { ...this.#state };
    let model;
    try {
      this.#api ??= import('../../api/model.js');
      const api = await this.#api;
      if (!this.#models.has(s.variant)) {
        if (!this.results) this.results = { empty: 'loading', key: 'modelView.loading' };
        const loading = api.loadModel({ variant: s.variant });
        this.#models.set(s.variant, loading);
        loading.catch(() => this.#models.delete(s.variant)); // tried again on the next change
      }
      model = await this.#models.get(s.variant);
      if (s.variant !== this.#state.variant) return; // the learner switched again meanwhile
      const tokens = s.demo ? api.repeatedSequences(model.vocab, { span: DEMO_SPAN, seed: s.demo })[0] : this.#tokens;
      const shown = tokens.slice(0, model.info.context);
      const position = Math.min(s.position ?? shown.length - 1, shown.length - 1);
      const run = this.#runOf(model, tokens, { scaleAtInference: s.scaleAtInference, temperature: s.temperature, position });
      const contrast = model.info.scaled ? this.#runOf(model, tokens, { scaleAtInference: !s.scaleAtInference, temperature: 1, position }) : null;
      this.results = {
        run, contrast, info: model.info, twin: model.twin, variant: s.variant, layer: s.layer, head: s.head,
        scaleAtInference: s.scaleAtInference, temperature: s.temperature, temperatures: TEMPERATURES,
        demo: Boolean(s.demo), unigramThe: model.unigram.the,
      };
    } catch (error) {
      this.results = { empty: error.message, key: 'modelView.failed', params: { message: error.message } };
    }
  }
}

// At most this many runs are kept (each 2 × 4 heads of n×n rows and 12,000 probabilities).
const RUNS_KEPT = 8;

customElements.define('model-view', ModelView);
