// <attention-lab>: the whole explainer in one element. Type tokens; see softmax(Q·Kᵀ/√d_k)
// as a heatmap and as probability bars, on real GloVe word vectors.
//
//   <script type="module" src=".../components/attention-lab.js"></script>
//   <attention-lab sentence="The cat sat" probe="animal" dk="64" scaled="false"></attention-lab>
//
// State flows one way: controls → settings (web/lab/settings.js) → state (web/lab/state.js:
// inputs.js builds Q, K, V with the engine, results.js computes the result) → views (the
// elements below, which only draw what they are given) → 'change'. Each render does those steps
// in that order, one method each; loading the engine and the words is web/lab/assets.js. A
// result is computed only once every word of the settings is known or unknown: while a word's
// vectors load, its chip says so and the previous result stays.
// Public API for lesson scripts: `state`, the 'change' event (and its older name 'statechange'),
// `settings`, `set(patch)`, `ready`, `engine`, `vocab`; see attention-lab.d.ts.
import { loadEngine, loadingWords, pageVocab } from '../../lab/assets.js';
import { LabPipeline, WORD_DIM } from '../../lab/inputs.js';
import { ATTRIBUTES, DK_STEPS, applyAttribute, createStore } from '../../lab/settings.js';
import { heatmapData, labState, probeRow, queryRow } from '../../lab/state.js';
import { MAX_TOKENS } from '../../lab/tokenize.js';
import { LABEL_CHARS, shortLabel } from '../../views/format.js';
import { AlElement, escapeHtml, setHidden, setText } from '../base.js';
import { sheet } from '../theme.js';
import './attention-controls.js';
import './attention-heatmap.js';
import './probability-bars.js';
import './token-chips.js';

const styles = sheet(`
  /* its own background where its text stands: a dark lab on a white page (or the reverse) stays readable */
  :host { display: block; font-family: var(--_font); color: var(--_text); background: var(--_bg); line-height: 1.45; }
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
  .note { margin: 0; font-size: 0.8125rem; color: var(--_muted); overflow-wrap: anywhere; }
  .note.oov::before { content: "?"; display: inline-grid; place-items: center; width: 1.3em; height: 1.3em; margin-right: 6px;
    border: 1px dashed var(--_warn); border-radius: 50%; color: var(--_warn); font-weight: 700; font-size: 0.75rem; }
  .note b { color: var(--_text); font-weight: 600; }
  .main { display: grid; gap: 16px; grid-template-columns: minmax(0, 1fr); }
  .lower { display: grid; gap: 16px; grid-template-columns: minmax(0, 1fr); align-items: start; }
  /* below the fold at 64 tokens (the probe's 64 bars): while off screen, its updates cost no
     layout or paint; it stays in the accessibility tree, and keeps its last size once drawn */
  .lower > .card { content-visibility: auto; contain-intrinsic-size: auto 420px; }
  @container lab (min-width: 700px) {
    .main { grid-template-columns: minmax(220px, 260px) minmax(0, 1fr); grid-template-areas: "controls heat" "controls bars"; align-items: start; }
    .controls { grid-area: controls; }
    .heat { grid-area: heat; }
    .bars { grid-area: bars; }
  }
  @container lab (min-width: 1080px) {
    .main { grid-template-columns: 250px minmax(0, 1.2fr) minmax(0, 1fr); grid-template-areas: "controls heat bars"; }
    .lower { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  }
  .probe-field { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; margin: 8px 0 12px; }
  .probe-field .text { width: 12em; max-width: 100%; flex: 0 1 auto; }
  .probe-field label { font-weight: 600; font-size: 0.875rem; }
  .probe .note { margin-bottom: 10px; }
  #bars-title { overflow-wrap: anywhere; }
  .foot { margin: 0; text-align: right; }
  /* words of the settings are loading: the result on show is the previous one */
  .lab[aria-busy="true"] :is(.main, .lower) { opacity: 0.55; transition: opacity 0.2s 0.15s; }
  .alert { margin: 0; }
`);

const LOADING = 'Loading word vectors…';
// The settings the controls show and set.
const CONTROLLED = ['projection', 'dk', 'seed', 'scaled', 'temperature', 'causal', 'positional'];

export class AttentionLab extends AlElement {
  static observedAttributes = ATTRIBUTES;
  static styles = [styles];
  static template = `
    <div class="lab">
      <section class="card tokens">
        <label class="title" for="sentence">Tokens</label>
        <input id="sentence" class="text" type="text" autocomplete="off" spellcheck="false" aria-describedby="sentence-hint">
        <p class="hint note" id="sentence-hint">Type a sentence: it is split into lower-case words and punctuation, one chip each.
          Choose a chip to see where it looks; double-click (or press Enter on) a chip to edit it.</p>
        <token-chips></token-chips>
        <p class="note oov" hidden></p>
        <p class="note truncated" hidden>Only the first ${MAX_TOKENS} tokens are used.</p>
        <p class="note long" hidden>Tokens longer than ${LABEL_CHARS} characters are shown cut, ending in “…”: their tooltips
          show more, and the heatmap’s table reads them in full.</p>
      </section>
      <p class="alert" role="alert"></p>
      <div class="main">
        <section class="card controls" aria-labelledby="controls-title">
          <h2 id="controls-title">Settings</h2>
          <attention-controls></attention-controls>
        </section>
        <section class="card heat" aria-labelledby="heat-title">
          <h2 id="heat-title">Attention weights</h2>
          <p class="hint">Each row is a query, each column a key; a row’s weights add up to 1. Hover or focus a cell for its numbers.</p>
          <attention-heatmap></attention-heatmap>
        </section>
        <section class="card bars" aria-labelledby="bars-title">
          <h2 id="bars-title">Where the selected token looks</h2>
          <p class="hint" id="bars-hint">Select a row in the heatmap or a chip.</p>
          <probability-bars id="bars"></probability-bars>
        </section>
      </div>
      <div class="lower">
        <section class="card probe" aria-labelledby="probe-title">
          <h2 id="probe-title">Cross-attention probe</h2>
          <p class="hint">One extra query word (n = 1) attends over the sentence’s tokens (m keys).</p>
          <div class="probe-field"><label for="probe">Probe word</label>
            <input id="probe" class="text" type="text" autocomplete="off" spellcheck="false"></div>
          <p class="note probe-note" hidden></p>
          <probability-bars id="probe-bars"></probability-bars>
        </section>
        <section class="card paste"><vector-paste></vector-paste></section>
      </div>
      <p class="hint foot"></p>
    </div>`;

  #store = createStore();
  #engine = null;
  #vocab = null;
  #pipeline = null;
  #state = null;
  #loading = null;
  #wordsFailed = ''; // the last failure to load word vectors (shown until a load succeeds)
  #preparing = null; // the seed whose projections are being computed in idle time
  #oovHtml = '';
  #resolveReady;
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
    };
    for (const view of [this.#els.heatmap, this.#els.bars, this.#els.probeBars]) view.message = LOADING;
    this.#store.subscribe(() => this.invalidate());
  }

  attributeChangedCallback(name, _previous, value) {
    const warning = applyAttribute(this.#store, name, value);
    if (warning) console.warn(warning);
    if (name === 'theme') this.#els.heatmap.themeChanged();
  }

  connectedCallback() {
    super.connectedCallback();
    this.#loading ??= this.#load();
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
    setBusy(this.#els.lab, loading.length > 0);
    if (!this.#pipeline || loading.length > 0) {
      this.#showLoading(s, loading);
      return this.#showControls(s, this.#state);
    }
    const state = this.#compute(s);
    if (!state) return;
    this.#showState(state);
    this.#publish(state);
  }

  // The words of `s` still loading, whose buckets are asked for (drawn again when they arrive).
  #needWords(s) {
    const loading = loadingWords(this.#vocab, s);
    if (loading.length > 0) {
      this.#vocab.load(loading).then(
        () => {
          this.#wordsFailed = '';
          this.invalidate();
        },
        (error) => {
          this.#wordsFailed = `Could not load word vectors (${error.message}). Change the sentence to try again.`;
          this.#showError(this.#wordsFailed);
        },
      );
    }
    return loading;
  }

  // While words load: their chips say so (the others as known or not), the last result stays.
  #showLoading(s, loading) {
    if (s.projection === 'pasted') return;
    const vocab = this.#vocab;
    this.#els.chips.status = vocab ? s.tokens.map((token) => vocab.status(token)) : s.tokens.map(() => 'loading');
    if (loading.length > 0) this.#showNote('note loading', `Loading the word vectors of ${wordList(loading)}…`);
  }

  // The settings as they are, before anything is computed: the fields and the chips.
  #showSettings(s) {
    const e = this.#els;
    if (e.sentence.value !== s.sentence) e.sentence.value = s.sentence; // typing keeps them equal
    if (this.shadowRoot.activeElement !== e.probe && e.probe.value !== s.probe) e.probe.value = s.probe;
    setHidden(e.truncated, !s.truncated);
    setHidden(e.long, !s.tokens.some((token) => token.length > LABEL_CHARS));
    e.chips.tokens = s.tokens;
  }

  // Settings → state (inputs, then results); on an error the page says why and keeps the last state.
  #compute(s) {
    try {
      const state = labState(s, this.#pipeline, this.#engine);
      this.#showError('');
      return state;
    } catch (error) {
      this.#showControls(s, this.#state);
      this.#showError(`${error.message} Showing the previous result.`);
      return null;
    }
  }

  // The controls show the settings, with the width and scale of `state` (the last good one).
  #showControls(s, state) {
    this.#els.controls.value = { ...s, hasPaste: Boolean(s.pasted), d: state?.d ?? WORD_DIM, scale: state?.result.scale ?? NaN };
  }

  // The views of a state: every element is handed its part.
  #showState(state) {
    const e = this.#els;
    const { settings: s, selected, queryLabels, n, probe } = state;
    this.#showControls(s, state);
    e.chips.status = s.projection === 'pasted' ? null : state.tokens.map((token) => (token.known ? 'known' : 'unknown'));
    e.chips.selected = selected;
    this.#showUnknownWords(state);
    e.heatmap.data = heatmapData(state);
    setText(e.barsTitle, `Where “${shortLabel(queryLabels[selected])}” looks`);
    setText(e.barsHint, `Query ${selected + 1} of ${n}: its weight on each key. Select another row in the heatmap or a chip.`);
    e.bars.data = queryRow(state);
    if (probe) e.probeBars.data = probeRow(state);
    else e.probeBars.message = s.projection === 'pasted' ? 'The probe needs word vectors: choose Identity or Random.' : 'Type a probe word.';
    setHidden(e.probeNote, !probe || probe.known);
    if (probe && !probe.known) e.probeNote.innerHTML = `<b>${escapeHtml(shortLabel(probe.text))}</b> is not in vocabulary: it gets a fixed random vector made from its spelling.`;
  }

  #showUnknownWords(state) {
    if (state.projection === 'pasted') {
      this.#showNote('note', 'Using the pasted vectors: these tokens are not used until you choose Identity or Random.');
      return;
    }
    const unknown = state.unknown;
    if (unknown.length === 0) return this.#showNote('note oov', '');
    this.#showNote('note oov', `Not in vocabulary: ${wordList(unknown)}. Each gets a fixed random vector made from its spelling.`);
  }

  // The note under the chips: its kind (class) and HTML, or hidden when `html` is empty.
  #showNote(className, html) {
    const note = this.#els.oov;
    if (note.className !== className) note.className = className;
    setHidden(note, html === '');
    if (html !== '' && this.#oovHtml !== html) note.innerHTML = this.#oovHtml = html;
  }

  // The new state goes out: the property, the events, the first-result marks, and idle work.
  #publish(state) {
    this.#state = state;
    this.dispatchEvent(new Event('change', { bubbles: true }));
    this.dispatchEvent(new CustomEvent('statechange', { detail: state }));
    if (state.projection === 'random') this.#prepareProjections(state.settings.seed);
    if (this.#resolveReady) {
      const resolve = this.#resolveReady;
      this.#resolveReady = null;
      performance.mark('attention-lab:first-result');
      resolve(this);
      // 'attention-lab:first-frame': the frame that paints the first bars begins (scripts/bench/page.mjs).
      // <vector-paste> (a closed panel below the bars, and its parser) is fetched after that
      // frame: it never delays the first bars.
      requestAnimationFrame(() => {
        performance.mark('attention-lab:first-frame');
        setTimeout(() => import('./vector-paste.js'));
      });
    }
  }

  #showError(message) {
    if (this.#els.alert.textContent !== message) this.#els.alert.textContent = message;
  }

  // ---- loading: the engine and the words, in parallel ------------------------------------

  #load() {
    this.#vocab = pageVocab();
    this.invalidate(); // asks for the sentence's words while the engine compiles
    return loadEngine()
      .then((engine) => {
        this.#engine = engine;
        this.#pipeline = new LabPipeline(engine, this.#vocab);
        this.#els.foot.textContent =
          `Core: WebAssembly ${engine.simd ? 'SIMD' : '(scalar)'} · ${this.#vocab.size.toLocaleString('en')} GloVe words, ${this.#vocab.dim}-d`;
        this.render();
      })
      .catch((error) => this.#failed(error));
  }

  #failed(error) {
    this.#showError(`Could not load the attention core: ${error.message}`);
    if (!this.#state) for (const view of [this.#els.heatmap, this.#els.bars, this.#els.probeBars]) view.message = 'Not available.';
  }

  // In idle time, one d_k stop at a time: the random projections of the other stops.
  #prepareProjections(seed) {
    if (this.#preparing === seed) return;
    this.#preparing = seed;
    const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 50));
    const step = () => {
      if (this.#preparing !== seed || this.#store.get().seed !== seed) return (this.#preparing = null);
      if (this.#pipeline.prepareProjection(seed, DK_STEPS)) idle(step);
    };
    idle(step);
  }
}

function setBusy(element, busy) {
  if ((element.getAttribute('aria-busy') === 'true') !== busy) element.setAttribute('aria-busy', String(busy));
}

// Up to 8 words in bold, then how many more.
function wordList(words) {
  const list = words.slice(0, 8).map((w) => `<b>${escapeHtml(shortLabel(w))}</b>`).join(', ');
  return words.length > 8 ? `${list} and ${words.length - 8} more` : list;
}

customElements.define('attention-lab', AttentionLab);
