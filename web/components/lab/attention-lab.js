// <attention-lab>: the whole explainer in one element. Type tokens; see softmax(Q·Kᵀ/√d_k)
// as a heatmap and as probability bars, on real GloVe word vectors.
//
//   <script type="module" src=".../components/attention-lab.js"></script>
//   <attention-lab sentence="The cat sat" probe="animal" dk="64" scaled="false"></attention-lab>
//
// view="compact": a lab for a slide or a narrow frame — the tokens (as chips, still editable),
// the heatmap, the selected query's bars, and three controls: d_k, the √d_k switch and the
// temperature, the knobs of the step the lab exists to show (scores grow with d_k; 1/√d_k undoes
// that; a temperature sharpens or flattens the same row directly). No probe, no paste panel, no
// long hints; the projection and the mask are set by attributes (projection="random" for a d_k
// that moves). At 1280×720 in a reveal.js slide it fits the slide up to about 12 tokens
// (tests/browser/platforms.test.mjs): the heatmap's column is at most COMPACT_HEAT_PX wide, and
// its square cells then make it about as tall as that.
//
// State flows one way: controls → settings (web/lab/settings.js) → state (web/lab/state.js:
// inputs.js builds Q, K, V with the engine, results.js computes the result) → views (the
// elements below, which only draw what they are given) → 'change'. Each render does those steps
// in that order, one method each; loading the engine and the words is web/lab/assets.js. A
// result is computed only once every word of the settings is known or unknown: while a word's
// vectors load, its chip says so and the previous result stays.
// Public API for lesson scripts: `state`, the 'change' event,
// `settings`, `set(patch)`, `ready`, `engine`, `vocab`; see attention-lab.d.ts.
//
// Attention from any other model, in BertViz's shape, is shown in place of the lab's body:
//   lab.attention = { tokens, attention: [layer][1][head][n][n] };   // or JSON text, a file's bytes
//   <attention-lab attention-src="bert.json">                          // a file of the same site
// drawn by a <model-view> (web/components/lesson/model-view.js, loaded only then), which checks
// it and says on the page what is wrong. The lab's settings stay as they were, and show again
// when the attention is removed (`attention = null`, the attribute removed, or the view's button).
import { loadEngine, loadingWords, pageVocab, wordStatus } from '../../lab/assets.js';
import { LabPipeline, WORD_DIM } from '../../lab/inputs.js';
import { ATTRIBUTES, DEFAULT_SENTENCE, DK_STEPS, applyAttribute, createStore, settingsInWords } from '../../lab/settings.js';
import { heatmapData, labState, probeRow, queryRow } from '../../lab/state.js';
import { MAX_TOKENS } from '../../lab/tokenize.js';
import { languageFor, onLanguageChange, speaks } from '../../i18n/dom.js';
import { LANGUAGES, loadStrings, messageOf, withNodes } from '../../i18n/i18n.js';
import { LABEL_CHARS, shortLabel } from '../../i18n/format.js';
import { AlElement, define, setHidden, setText, takeEarlyProperties } from '../base.js';
import { sheet } from '../theme.js';
import './attention-controls.js';
import './attention-heatmap.js';
import './probability-bars.js';
import './token-chips.js';

// The summary a screen reader hears is spoken once input has settled this long (a slider drag
// says its last value only).
const SUMMARY_DELAY_MS = 600;

// The widest the heatmap's card is in view="compact": its square cells make the grid about as
// tall as it is wide, so this bounds the lab's height (numbers show in the cells up to ~11 tokens).
const COMPACT_HEAT_PX = 460;

const styles = sheet(`
  /* its own background: the text between the cards stays readable on a host page of any colour
     (a dark lab on a white page, say) */
  /* the host page's text stops here: what a page sets on an ancestor and text inherits (reveal.js's
     theme sets a 42 px font on .reveal, centred text on its slides, and line-height, weight and
     case on sections) reaches no card of the lab */
  :host { display: block; font-family: var(--_font); color: var(--_text); background: var(--_bg);
    font-size: 1rem; font-weight: 400; font-style: normal; font-variant: normal; line-height: 1.45; text-align: start;
    text-indent: 0; text-transform: none; text-shadow: none; letter-spacing: normal; word-spacing: normal; white-space: normal; }
  .lab { container: lab / inline-size; display: grid; gap: 16px; }
  /* layout containment: an update inside one card (bars, chips, controls) relays out that card, not the page */
  .card { background: var(--_surface); border: 1px solid var(--_border); border-radius: 12px; padding: 16px; min-width: 0;
    contain: layout style; }
  h2, .title { display: block; margin: 0 0 4px; font-size: 1rem; font-weight: 650; letter-spacing: 0.005em; }
  .card > .hint { margin: 0 0 12px; }
  .text { width: 100%; padding: 9px 12px; border: 1px solid var(--_control); border-radius: 8px; background: var(--_bg); font-size: 1rem; }
  .text:focus-visible { outline-offset: 0; border-color: var(--_focus); }
  .tokens { display: grid; gap: 10px; }
  .tokens .title { margin: 0; }
  .note { margin: 0; font-size: 0.875rem; color: var(--_muted); overflow-wrap: anywhere; }
  .note.oov::before { content: "?"; display: inline-grid; place-items: center; width: 1.3em; height: 1.3em; margin-right: 6px;
    border: 1px dashed var(--_warn); border-radius: 50%; color: var(--_warn); font-weight: 700; font-size: 0.75rem; }
  .note b { color: var(--_text); font-weight: 600; }
  .heat > .note.identity { margin-top: 10px; }
  .bars > .note.caveat { margin-top: 12px; }
  /* narrow (a phone): the picture first — the heatmap on the first screen, then the sentence,
     the bars, and the settings folded below them (.main's cards join .lab's column, in this order) */
  .main { display: contents; }
  .lab > .alert { order: -3; }
  .heat { order: -2; }
  .tokens { order: -1; }
  .controls { order: 1; }
  .lower, .foot { order: 2; }
  .note.failed { color: var(--_danger-text); }
  .note .retry { padding: 2px 10px; border-radius: 6px; border: 1px solid var(--_border); background: var(--_raised); color: var(--_text); cursor: pointer; }
  .lower { display: grid; gap: 16px; grid-template-columns: minmax(0, 1fr); align-items: start; }
  /* below the fold at 64 tokens (the probe's 64 bars): while off screen, its updates cost no
     layout or paint; it stays in the accessibility tree, and keeps its last size once drawn.
     --al-content-visibility: visible turns this off where a placeholder's height would show: in
     an iframe sized to its content (embed.html), whose cards are off screen while the host page
     has not scrolled to them, then shrink to their real height as they come into view. Until
     drawn, each holds the height of its closed form (a summary line), not of its open one: a
     taller placeholder made the page 760 px longer at 390 px until the reader reached it */
  .lower > .card { content-visibility: var(--al-content-visibility, auto); contain-intrinsic-size: auto 64px; }
  @container lab (min-width: 700px) {
    .main { display: grid; gap: 16px; grid-template-columns: minmax(220px, 260px) minmax(0, 1fr); grid-template-areas: "controls heat" "controls bars"; align-items: start; }
    .lab > .alert, .heat, .tokens, .controls, .lower, .foot { order: 0; }
    .controls { grid-area: controls; }
    .heat { grid-area: heat; }
    .bars { grid-area: bars; }
  }
  @container lab (min-width: 1080px) {
    .main { grid-template-columns: 250px minmax(0, 1.2fr) minmax(0, 1fr); grid-template-areas: "controls heat bars"; }
    .lower { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  }
  /* view="compact" (see the top of this file): the chips, the heatmap, the bars, three controls */
  :host([view="compact"]) :is(.tokens > .title, #sentence, #sentence-hint, .card > .hint, .note.identity, .note.caveat,
    .note.induced, .note.english, .lower, .foot) { display: none; }
  :host([view="compact"]) :is(.lab, .main) { gap: 10px; }
  :host([view="compact"]) .card { padding: 10px 12px; }
  @container lab (min-width: 700px) {
    :host([view="compact"]) .main { grid-template-columns: minmax(170px, 210px) minmax(0, ${COMPACT_HEAT_PX}px) minmax(0, 1fr);
      grid-template-areas: "controls heat bars"; }
  }
  /* the probe: an aside the learner opens (closed, it is its summary alone) */
  .probe > summary { cursor: pointer; font-size: 1rem; font-weight: 650; width: fit-content; padding: 2px 0; }
  .probe[open] > summary { margin-bottom: 4px; }
  .probe-field { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; margin: 8px 0 12px; }
  .probe-field .text { width: 12em; max-width: 100%; flex: 0 1 auto; }
  .probe-field label { font-weight: 600; font-size: 0.875rem; }
  .probe .note { margin-bottom: 10px; }
  #bars-title { overflow-wrap: anywhere; }
  .foot { margin: 0; text-align: right; }
  /* words of the settings are loading: the result on show is the previous one */
  .lab[aria-busy="true"] :is(.main > .card, .lower) { opacity: 0.55; transition: opacity 0.2s 0.15s; }
  .alert { margin: 0; }
  .supplied { background: var(--_surface); border: 1px solid var(--_border); border-radius: 12px; padding: 16px; min-width: 0; }
`);

// The settings the controls show and set.
const CONTROLLED = ['projection', 'dk', 'seed', 'scaled', 'temperature', 'causal', 'positional'];

export class AttentionLab extends AlElement {
  static observedAttributes = [...ATTRIBUTES, 'lang', 'attention-src'];
  static styles = [styles];
  static template = `
    <div class="lab">
      <section class="card tokens">
        <label class="title" for="sentence" data-t="lab.tokens"></label>
        <input id="sentence" class="text" type="text" autocomplete="off" spellcheck="false" aria-describedby="sentence-hint">
        <p class="hint note" id="sentence-hint" data-t="lab.tokensHint"></p>
        <p class="note english" hidden></p>
        <token-chips></token-chips>
        <p class="note oov" hidden></p>
        <p class="note truncated" hidden></p>
        <p class="note long" hidden></p>
      </section>
      <p class="alert" role="alert"></p>
      <div class="main">
        <section class="card controls">
          <h2 id="controls-title" data-t="lab.settings"></h2>
          <attention-controls></attention-controls>
        </section>
        <section class="card heat">
          <h2 id="heat-title" data-t="lab.weights"></h2>
          <p class="hint" data-t="lab.weightsHint"></p>
          <attention-heatmap></attention-heatmap>
          <p class="note identity" data-t="lab.identityNote" hidden></p>
        </section>
        <section class="card bars">
          <h2 id="bars-title" data-t="lab.barsTitle"></h2>
          <p class="hint" id="bars-hint" data-t="lab.barsHint"></p>
          <probability-bars id="bars"></probability-bars>
          <p class="note caveat" data-t="lab.caveat"></p>
        </section>
      </div>
      <div class="lower">
        <details class="card probe">
          <summary data-t="lab.probe"></summary>
          <p class="hint" data-t="lab.probeHint"></p>
          <div class="probe-field"><label for="probe" data-t="lab.probeWord"></label>
            <input id="probe" class="text" type="text" autocomplete="off" spellcheck="false"></div>
          <p class="note probe-note" hidden></p>
          <probability-bars id="probe-bars"></probability-bars>
        </details>
        <section class="card paste"><vector-paste></vector-paste></section>
      </div>
      <p class="hint foot"></p>
      <p class="visually-hidden spoken" aria-live="polite" aria-atomic="true"></p>
    </div>
    <section class="supplied" hidden aria-labelledby="supplied-title">
      <h2 id="supplied-title" data-t="lab.suppliedTitle"></h2>
      <p class="alert" role="alert"></p>
    </section>`;

  #store = createStore();
  #engine = null;
  #vocab = null;
  #pipeline = null;
  #state = null;
  #loading = null;
  #wordsFailure = null; // { key: the loading words, error }: their files failed; Retry asks again
  #preparing = null; // the seed whose projections are being computed in idle time
  #oovShown = '';
  #summarized = null; // the settings the last summary spoke of
  #summaryTimer = 0;
  #language = null; // the language asked for (its strings may still be loading)
  #stopWatching = null;
  #resolveReady;
  #published = false; // a first result was drawn
  // attention from another model, shown in place of the lab's body: { data } (the property, as
  // given) or { src } (the attribute); null: the lab
  #supplied = null;
  #view = null; // the <model-view> that shows it, once its module has loaded
  #els;

  /** Resolves with the element once the first result is drawn. */
  ready = new Promise((resolve) => {
    this.#resolveReady = resolve;
  });

  constructor() {
    super();
    const $ = (selector) => this.$(selector);
    this.#els = {
      lab: $('.lab'),
      sentence: $('#sentence'),
      chips: $('token-chips'),
      english: $('.note.english'),
      identity: $('.note.identity'),
      oov: $('.note.oov'),
      truncated: $('.note.truncated'),
      long: $('.note.long'),
      alert: $('.lab > .alert'),
      controls: $('attention-controls'),
      heatmap: $('attention-heatmap'),
      barsTitle: $('#bars-title'),
      barsHint: $('#bars-hint'),
      bars: $('#bars'),
      probe: $('#probe'),
      probeNote: $('.probe-note'),
      probeBars: $('#probe-bars'),
      paste: $('vector-paste'),
      foot: $('.foot'),
      summary: $('.spoken'),
      supplied: $('.supplied'),
      suppliedAlert: $('.supplied > .alert'),
    };
    this.#showMessage('lab.loading');
    this.#store.subscribe(() => this.invalidate());
  }

  attributeChangedCallback(name, previous, value) {
    if (name === 'attention-src') {
      if (value !== previous) this.#supply(value === null ? null : { src: value });
      return;
    }
    if (name === 'lang') {
      if (value !== null && !speaks(value)) console.warn(`<attention-lab> lang="${value}" has no strings: using English. Languages: ${LANGUAGES.join(', ')}.`);
      if (this.isConnected) this.#chooseLanguage();
      return;
    }
    const warning = applyAttribute(this.#store, name, value);
    if (warning) console.warn(warning);
    if (name === 'view') for (const part of [this.#els.controls, this.#els.chips]) part.toggleAttribute('compact', value === 'compact');
    if (name === 'theme') {
      this.#els.heatmap.themeChanged();
      this.#view?.themeChanged?.();
    }
  }

  connectedCallback() {
    takeEarlyProperties(this, ['attention']);
    super.connectedCallback();
    this.#stopWatching = onLanguageChange(() => this.#chooseLanguage());
    const words = this.#chooseLanguage();
    this.#loading ??= this.#load(words);
  }

  disconnectedCallback() {
    this.#stopWatching?.();
    clearTimeout(this.#summaryTimer);
    this.#preparing = null; // a removed lab does no idle work (a new state, once back, starts it again)
  }

  /** The language the lab speaks (en or nb; see web/i18n/dom.js for how it is chosen). */
  get language() {
    return this.#language ?? this.strings.lang;
  }

  // The language the lab should speak now; its strings when they have loaded. Returns that promise.
  #chooseLanguage() {
    const language = languageFor(this);
    if (language === this.#language) return loadStrings(language);
    this.#language = language;
    const loading = loadStrings(language);
    loading.then((strings) => {
      if (this.#language === language) this.strings = strings;
    });
    return loading;
  }

  // The words go to every element inside, then everything is drawn again in them.
  stringsChanged() {
    const e = this.#els;
    for (const view of [e.chips, e.controls, e.heatmap, e.bars, e.probeBars]) view.strings = this.strings;
    if (this.#view) this.#speakTo(this.#view);
    e.paste.strings = this.strings; // also before <vector-paste> is defined: it takes them when it is
    this.#showFoot();
    this.dispatchEvent(new Event('languagechange'));
  }

  /**
   * The latest state, frozen (null until the core has loaded): the settings, the tokens, Q, K,
   * V, d_k, the selected row and the engine result (web/lab/state.js). Its arrays are shared:
   * do not modify them.
   */
  get state() {
    return this.#state;
  }

  /** The settings as the controls show them (see web/lab/settings.js). */
  get settings() {
    return this.#store.get();
  }

  /** Changes settings like the controls do, e.g. set({ dk: 256, projection: 'random' }). Returns { rejected }. */
  set(patch) {
    return this.#store.set(patch);
  }

  /** The engine in use (null until loaded): lesson instruments may call it for their own numbers. */
  get engine() {
    return this.#engine;
  }

  /** The page's vocabulary (web/core/vocab.js createVocab): words load as sentences need them. */
  get vocab() {
    return this.#vocab;
  }

  /**
   * Attention from another model, shown in place of the lab's body, as it was given: what
   * <model-view>.attention takes ({ tokens, attention }, JSON text, a file's bytes); null: the lab.
   */
  get attention() {
    return this.#supplied?.data ?? null;
  }

  set attention(data) {
    this.#supply(data === null || data === undefined ? null : { data });
  }

  // ---- attention from another model, in place of the lab's body ---------------------------

  // Shows `supplied` in a <model-view> in place of the lab's body, or (null) the lab again. A
  // fresh view each time: a view handed null would load the trained model (2 MB) behind the lab,
  // and a removed one stops its drawing. The latest call wins over a module still loading.
  async #supply(supplied) {
    const e = this.#els;
    this.#supplied = supplied;
    this.#view?.remove();
    this.#view = null;
    setHidden(e.lab, Boolean(supplied));
    setHidden(e.supplied, !supplied);
    this.#showSuppliedError('');
    if (!supplied) return;
    try {
      await import('../lesson/model-view.js');
    } catch (error) {
      if (this.#supplied === supplied) this.#showSuppliedError(this.strings.t('lab.suppliedFailed', { message: messageOf(error, this.strings) }));
      return;
    }
    if (this.#supplied !== supplied) return;
    const view = (this.#view = document.createElement('model-view'));
    // the way back to the lab, in the view's slot for its host's control (the view knows no host)
    const back = Object.assign(document.createElement('button'), { type: 'button', slot: 'back', textContent: this.strings.t('lab.suppliedBack') });
    back.dataset.t = 'lab.suppliedBack'; // said again in another language (the lab's shadow root is localized)
    back.addEventListener('click', () => this.#leaveSupplied());
    view.append(back);
    this.#speakTo(view);
    if (supplied.src !== undefined) view.setAttribute('attention-src', supplied.src);
    else view.attention = supplied.data;
    e.supplied.append(view);
  }

  // The view speaks the lab's language: its own lang (which it reads first) and the lab's strings.
  #speakTo(view) {
    if (view.lang !== this.strings.lang) view.lang = this.strings.lang;
    view.strings = this.strings;
  }

  #showSuppliedError(message) {
    if (this.#els.suppliedAlert.textContent !== message) this.#els.suppliedAlert.textContent = message;
  }

  // Back from the supplied attention to the lab (the view's `back` button, the lab's own).
  #leaveSupplied() {
    if (this.hasAttribute('attention-src')) this.removeAttribute('attention-src');
    else this.attention = null;
  }

  // ---- what the reader asks for: the settings --------------------------------------------

  // Every input of the fields and of the elements inside (their .value) becomes a patch.
  onInnerInput(event) {
    if (event.type !== 'input') return;
    const e = this.#els;
    const s = this.#store.get();
    switch (event.target) {
      case e.sentence:
        return this.#store.set({ sentence: e.sentence.value });
      case e.probe:
        return this.#store.set({ probe: e.probe.value });
      case e.controls:
        return this.#store.set(Object.fromEntries(CONTROLLED.map((key) => [key, e.controls.value[key]])));
      case e.heatmap:
        return this.#store.set({ selected: e.heatmap.value });
      case e.paste:
        return this.#store.set({ pasted: e.paste.vectors, projection: 'pasted', selected: 0 });
      case e.chips: {
        const { tokens, selected } = e.chips.value;
        const patch = selected === this.#state?.selected ? {} : { selected };
        if (tokens.length !== s.tokens.length || tokens.some((t, i) => t !== s.tokens[i])) Object.assign(patch, { tokens, sentence: tokens.join(' ') });
        return this.#store.set(patch);
      }
      default:
    }
  }

  // ---- one render: settings → state → views → events -------------------------------------

  render() {
    const s = this.#store.get();
    this.#showSettings(s);
    const loading = this.#vocab ? this.#needWords(s) : [];
    // words whose files failed stand in as unknown, so the words that arrived work meanwhile
    const failed = loading.length > 0 && this.#wordsFailure?.key === loading.join('\u0000') ? loading : null;
    setBusy(this.#els.lab, loading.length > 0 && !failed);
    if (!this.#pipeline || (loading.length > 0 && !failed)) {
      this.#showLoading(s, loading);
      return this.#showControls(s, this.#state);
    }
    const state = this.#compute(s);
    if (!state) return;
    this.#showState(state, failed);
    this.#publish(state);
  }

  // The words of `s` still loading, whose buckets are asked for (drawn again when they arrive).
  // Words whose files failed are asked for again only by the note's Retry (or other words).
  #needWords(s) {
    const loading = loadingWords(this.#vocab, s);
    const key = loading.join('\u0000');
    if (loading.length > 0 && this.#wordsFailure?.key !== key) {
      this.#vocab.load(loading).then(
        () => this.invalidate(),
        (error) => {
          this.#wordsFailure = { key, error };
          this.invalidate();
        },
      );
    }
    return loading;
  }

  // While words load: their chips say so (the others as known or not), the last result stays.
  // One state at a time in the note: loading, or the file that failed and a Retry.
  #showLoading(s, loading) {
    if (s.projection === 'pasted') return;
    const vocab = this.#vocab;
    this.#els.chips.status = vocab ? s.tokens.map((token) => wordStatus(vocab, token)) : s.tokens.map(() => 'loading');
    if (loading.length === 0) return;
    const key = loading.join('\u0000');
    if (this.#wordsFailure?.key !== key) {
      this.#showNote('note loading', key, () => withNodes(this.strings.t('lab.loadingWords'), { list: this.#wordList(loading) }).flat());
      return;
    }
    this.#showWordsFailure(loading);
  }

  // The note for words whose files failed: which file and why, and a Retry.
  #showWordsFailure(loading) {
    const key = loading.join('\u0000');
    const failure = this.#wordsFailure;
    this.#showNote('note failed', `${key}\u0000${failure.error.message}`, () => {
      const retry = document.createElement('button');
      retry.type = 'button';
      retry.className = 'retry';
      retry.textContent = this.strings.t('lab.retry');
      retry.addEventListener('click', () => {
        this.#wordsFailure = null;
        this.invalidate();
      });
      return [...withNodes(this.strings.t('lab.wordsFailed', { message: messageOf(failure.error, this.strings) }), { list: this.#wordList(loading) }).flat(), ' ', retry];
    });
  }

  // The settings as they are, before anything is computed: the fields and the chips.
  #showSettings(s) {
    const e = this.#els;
    const t = this.strings.t;
    if (e.sentence.value !== s.sentence) e.sentence.value = s.sentence; // typing keeps them equal
    if (this.shadowRoot.activeElement !== e.probe && e.probe.value !== s.probe) e.probe.value = s.probe;
    // on Identity a word's key is its own vector: the bright diagonal is arithmetic, not meaning
    setHidden(e.identity, s.projection !== 'identity');
    // the words are English: a reader of another language is told so, with a sentence to try
    setHidden(e.english, this.strings.lang === 'en');
    if (this.strings.lang !== 'en') setText(e.english, t('lab.englishWords', { example: DEFAULT_SENTENCE }));
    setHidden(e.truncated, !s.truncated);
    if (s.truncated) setText(e.truncated, t('lab.truncated', { count: MAX_TOKENS }));
    const long = s.tokens.some((token) => token.length > LABEL_CHARS);
    setHidden(e.long, !long);
    if (long) setText(e.long, t('lab.long', { count: LABEL_CHARS }));
    e.chips.tokens = s.tokens;
  }

  // Settings → state (inputs, then results); on an error the page says why and keeps the last state.
  #compute(s) {
    try {
      const state = labState(s, this.#pipeline, this.#engine);
      this.#showError('');
      this.#tellPaste(state.projection === 'pasted' ? s.pasted : null, '');
      return state;
    } catch (error) {
      this.#showControls(s, this.#state);
      const message = messageOf(error, this.strings);
      if (s.projection === 'pasted') this.#tellPaste(this.#state?.projection === 'pasted' ? this.#state.settings.pasted : null, message);
      if (this.#state) {
        this.#showError(this.strings.t('lab.previous', { message }));
        return null;
      }
      // nothing was shown yet (no tokens, say): the views say why in their place, and the lab is
      // ready all the same — what depends on it loads, and follows the first result when it comes
      this.#showError('');
      for (const view of [this.#els.heatmap, this.#els.bars, this.#els.probeBars]) view.message = message;
      this.#settleReady();
      return null;
    }
  }

  // <vector-paste> says what the lab shows: the pasted vectors of the result on screen (or none),
  // and why the last paste is not used. Nothing to tell before its class loads: nothing was pasted.
  #tellPaste(inUse, error) {
    const paste = this.#els.paste;
    if (!('inUse' in paste)) return;
    paste.inUse = inUse;
    paste.error = error;
  }

  // The controls show the settings, with the width and scale of `state` (the last good one).
  #showControls(s, state) {
    this.#els.controls.value = { ...s, hasPaste: Boolean(s.pasted), d: state?.d ?? WORD_DIM, scale: state?.result.scale ?? NaN };
  }

  // The views of a state: every element is handed its part.
  // `failed`: the words whose files failed (they stand in as unknown), or null.
  #showState(state, failed = null) {
    const e = this.#els;
    const t = this.strings.t;
    const { settings: s, selected, queryLabels, n, probe } = state;
    this.#showControls(s, state);
    e.chips.status = s.projection === 'pasted' ? null : state.tokens.map((token) => chipStatus(token, this.#vocab));
    e.chips.selected = selected;
    if (failed) this.#showWordsFailure(failed);
    else this.#showUnknownWords(state);
    e.heatmap.data = heatmapData(state);
    setText(e.barsTitle, t('lab.barsTitleWord', { word: shortLabel(queryLabels[selected]) }));
    setText(e.barsHint, t('lab.barsHintRow', { index: selected + 1, count: n }));
    e.bars.data = queryRow(state);
    if (probe) e.probeBars.data = probeRow(state);
    else e.probeBars.message = t(s.projection === 'pasted' ? 'lab.probeNeedsWords' : 'lab.probeEmpty');
    setHidden(e.probeNote, !probe || probe.known);
    if (probe && !probe.known) e.probeNote.replaceChildren(...withNodes(t('lab.probeUnknown'), { word: bold(shortLabel(probe.text)) }));
  }

  #showUnknownWords(state) {
    const t = this.strings.t;
    if (state.projection === 'pasted') {
      this.#showNote('note', 'pasted', () => [t('lab.pastedInUse')]);
      return;
    }
    const unknown = state.unknown;
    if (unknown.length > 0) {
      this.#showNote('note oov', unknown.join('\u0000'), () => withNodes(t('lab.unknown'), { list: this.#wordList(unknown) }).flat());
      return;
    }
    // no word unknown: say which vectors are made from this sentence (†) and which are induced
    // from the Brown corpus (*), not GloVe's own
    const words = (status) => [...new Set(state.tokens.filter((token) => chipStatus(token, this.#vocab) === status).map((token) => token.text))];
    const context = words('context'), induced = words('induced');
    if (induced.length + context.length === 0) return this.#showNote('note oov', '', null);
    const window = this.#vocab?.contextMap?.()?.window ?? 0;
    this.#showNote('note induced', `${context.join('\u0000')}\u0001${induced.join('\u0000')}`, () => [
      ...(context.length ? withNodes(t('lab.context', { window }), { list: this.#wordList(context) }).flat() : []),
      ...(context.length && induced.length ? [' '] : []),
      ...(induced.length ? withNodes(t('lab.induced'), { list: this.#wordList(induced) }).flat() : []),
    ]);
  }

  // The note under the chips: its kind (class), and its contents as nodes — made only when the
  // kind, `key` (what they say) or the language changed; hidden when `nodes` is null.
  #showNote(className, key, nodes) {
    const note = this.#els.oov;
    if (note.className !== className) note.className = className;
    setHidden(note, !nodes);
    const shown = `${className}\u0000${this.strings.lang}\u0000${key}`;
    if (!nodes || this.#oovShown === shown) return;
    this.#oovShown = shown;
    note.replaceChildren(...nodes());
  }

  // "a, b and 3 more": up to 8 words in the language's own list, each word in bold.
  #wordList(list) {
    const words = list.slice(0, 8).map(shortLabel);
    if (list.length > 8) words.push(this.strings.t('lab.unknownMore', { count: list.length - 8 }));
    const parts = new Intl.ListFormat(this.strings.lang, { type: 'conjunction' }).formatToParts(words);
    return parts.map((part, i) => (part.type === 'element' && !(list.length > 8 && i === parts.length - 1) ? bold(part.value) : part.value));
  }

  // The new state goes out: the property, the events, the first-result marks, and idle work.
  #publish(state) {
    this.#state = state;
    this.#summarize();
    this.dispatchEvent(new Event('change', { bubbles: true }));
    if (state.projection === 'random') this.#prepareProjections(state.settings.seed);
    this.#settleReady();
    if (!this.#published) {
      this.#published = true;
      performance.mark('attention-lab:first-result');
      // 'attention-lab:first-frame': the frame that paints the first bars begins (scripts/bench/page.mjs).
      // <vector-paste> (a closed panel below the bars, and its parser) is fetched after that
      // frame: it never delays the first bars.
      requestAnimationFrame(() => {
        performance.mark('attention-lab:first-frame');
        setTimeout(() => {
          import('./vector-paste.js');
        });
      });
    }
  }

  // Resolves `ready` (once): true the first time.
  #settleReady() {
    const resolve = this.#resolveReady;
    this.#resolveReady = null;
    resolve?.(this);
    return Boolean(resolve);
  }

  // A message in place of the heatmap and the bars (while loading, or when nothing can be drawn).
  #showMessage(key) {
    const e = this.#els;
    for (const view of [e.heatmap, e.bars, e.probeBars]) view.message = this.strings.t(key);
  }

  // Once input settles: what changed since the last summary, and where the selected query now
  // puts its largest weight, for a screen reader (a polite live region). The first state is the
  // page's own and is not spoken; a change of nothing the learner set (the full vocabulary
  // arriving) neither.
  #summarize() {
    if (!this.#summarized) {
      this.#summarized = this.#state.settings;
      return;
    }
    clearTimeout(this.#summaryTimer);
    this.#summaryTimer = setTimeout(() => {
      const state = this.#state;
      const change = describeChange(this.#summarized, state, this.strings);
      this.#summarized = state.settings;
      if (change) setText(this.#els.summary, summaryOf(state, change, this.strings));
    }, SUMMARY_DELAY_MS);
  }

  #showError(message) {
    if (this.#els.alert.textContent !== message) this.#els.alert.textContent = message;
  }

  // ---- loading: the engine and the words, in parallel ------------------------------------

  // The first result waits for the words of the lab's language too (they load in parallel); the
  // sentence's word vectors are asked for at once, while the engine compiles.
  #load(words) {
    this.#vocab = pageVocab();
    this.invalidate();
    return Promise.all([loadEngine(), words.catch(() => null)])
      .then(([engine]) => {
        this.#engine = engine;
        this.#pipeline = new LabPipeline(engine, this.#vocab);
        this.#showFoot();
        this.render();
      })
      .catch((error) => this.#failed(error));
  }

  #showFoot() {
    const engine = this.#engine;
    const vocab = this.#vocab;
    if (!engine || !vocab) return;
    const t = this.strings.t;
    setText(this.#els.foot, t('lab.core', { build: t(engine.simd ? 'lab.coreSimd' : 'lab.coreScalar'), words: t('lab.words', { count: vocab.size, induced: vocab.induced ?? 0, dim: vocab.dim }) }));
  }

  #failed(error) {
    this.#showError(this.strings.t('lab.loadFailed', { message: messageOf(error, this.strings) }));
    if (!this.#state) this.#showMessage('lab.notAvailable');
  }

  // In idle time, one d_k stop at a time: the random projections of the other stops.
  #prepareProjections(seed) {
    if (this.#preparing === seed) return;
    this.#preparing = seed;
    const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 50));
    const step = () => {
      if (this.#preparing !== seed || this.#store.get().seed !== seed || !this.isConnected) return (this.#preparing = null);
      if (this.#pipeline.prepareProjection(seed, DK_STEPS)) idle(step);
    };
    idle(step);
  }
}

function setBusy(element, busy) {
  if ((element.getAttribute('aria-busy') === 'true') !== busy) element.setAttribute('aria-busy', String(busy));
}

// What the learner changed between two settings, in words ("Scale by √d_k off, d_k = 1024"), or ''.
function describeChange(before, state, strings) {
  const after = state.settings;
  const random = after.projection === 'random';
  const pasted = after.projection === 'pasted';
  const said = Object.keys(CHANGE_WORDS).filter((key) => {
    // a new paste is a new projection; the tokens of pasted vectors, and d_k and the seed of
    // anything but the random projection, are not used
    if (key === 'projection') return before.projection !== after.projection || (pasted && before.pasted !== after.pasted);
    if (key === 'tokens' && pasted) return false;
    if ((key === 'dk' || key === 'seed') && !random) return false;
    return before[key] !== after[key];
  });
  // {word} of the query's phrase; the probe's phrase names its own
  const word = strings.tipLabel(state.queryLabels[state.selected]);
  const changes = settingsInWords(after, strings, CHANGE_WORDS, { only: said, params: { word } });
  return changes.length ? strings.list(changes) : '';
}

// The words of a change, per setting, in the order they are said (settingsInWords' entries).
const CHANGE_WORDS = {
  projection: 'lab.changeProjection',
  tokens: (tokens) => ['lab.changeTokens', { count: tokens.length }],
  dk: 'lab.changeDk',
  scaled: { on: 'lab.changeScaledOn', off: 'lab.changeScaledOff' },
  temperature: 'lab.changeTemperature',
  causal: { on: 'lab.changeCausalOn', off: 'lab.changeCausalOff' },
  positional: { on: 'lab.changePositionalOn', off: 'lab.changePositionalOff' },
  seed: 'lab.changeSeed',
  selected: 'lab.changeQuery',
  probe: (probe) => ['lab.changeProbe', { word: probe }],
};

// The selected query's row in words: the key of its largest weight (as the bars mark it), and its entropy.
function summaryOf(state, change, strings) {
  const { m, selected, result, queryLabels, keyLabels } = state;
  const word = strings.tipLabel(queryLabels[selected]);
  const max = result.maxWeight[selected];
  const weights = result.weights.subarray(selected * m, (selected + 1) * m);
  const j = max > 0 ? weights.indexOf(max) : -1;
  if (j < 0) return strings.t('lab.summaryMasked', { change, word });
  return strings.t('lab.summary', {
    change,
    word,
    weight: strings.fixed(max, 2),
    key: strings.tipLabel(keyLabels[j]),
    entropy: strings.fixed(result.entropy[selected], 2),
  });
}

function bold(text) {
  const b = document.createElement('b');
  b.textContent = text;
  return b;
}

define('attention-lab', AttentionLab);

// What a token's chip says of its vector: 'context' (made from this sentence), 'induced' (the
// files', from the Brown corpus), 'known' (GloVe's) or 'unknown'.
function chipStatus(token, vocab) {
  if (!token.known) return 'unknown';
  if (token.source === 'context' || token.source === 'induced') return token.source;
  return vocab ? wordStatus(vocab, token.text) : 'known';
}
