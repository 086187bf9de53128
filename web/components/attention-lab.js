// <attention-lab>: the whole explainer in one element. Type tokens; see softmax(Q·Kᵀ/√d_k)
// as a heatmap and as probability bars, on real GloVe word vectors.
//
//   <script type="module" src=".../components/attention-lab.js"></script>
//   <attention-lab sentence="The cat sat" probe="animal" dk="64" scaled="false"></attention-lab>
//
// State flows one way: controls → settings (web/lab/settings.js) → state (web/lab/state.js:
// inputs.js builds Q, K, V with the engine; results.js computes the result) → views (the elements below), which
// only draw the numbers they are given. Public API for lesson instruments: `state` (the latest
// inputs and engine result), the 'statechange' event, `settings`, `set(patch)`, `ready`;
// see attention-lab.d.ts.
import { createEngine } from '../core/engine.js';
import { fetchVocab, fetchWordSubset } from '../core/vocab.js';
import { LabPipeline, WORD_DIM } from '../lab/inputs.js';
import { ATTRIBUTES, DK_STEPS, applyAttribute, createStore } from '../lab/settings.js';
import { labState, queryRow, probeRow } from '../lab/state.js';
import { MAX_TOKENS } from '../lab/tokenize.js';
import { attachShadow, escapeHtml, setHidden, setText } from './dom.js';
import { base, sheet, theme } from './styles.js';
import './attention-controls.js';
import './attention-heatmap.js';
import './probability-bars.js';
import './token-chips.js';
import './vector-paste.js';

// Assets resolve against this module, not the page: the element works wherever it is embedded.
const VOCAB_URL = new URL('../assets/glove-100d.bin', import.meta.url);
// The default sentence's words at full precision (6 kB): the first result is drawn from these
// before the 1 MB vocabulary arrives, with the same numbers (these rows are exact in both files).
const FIRST_VIEW_URL = new URL('../assets/glove-first-view.json', import.meta.url);

let core = null; // one engine and first-view word subset for every <attention-lab> on the page
function loadCore() {
  core ??= Promise.all([createEngine(), fetchWordSubset(FIRST_VIEW_URL).catch(() => null)]).then(([engine, words]) => ({ engine, words }));
  return core;
}
let fullVocab = null; // fetched once the first result is painted, or as soon as a word needs it
function loadFullVocab() {
  fullVocab ??= fetchVocab(VOCAB_URL);
  return fullVocab;
}

// The settings need no word beyond a partial vocabulary's (a word it lacks may still be in the full one).
function covers(vocab, s) {
  if (!vocab.partial || s.projection === 'pasted') return true;
  return s.tokens.every((token) => vocab.has(token)) && (!s.probe || vocab.has(s.probe));
}

const styles = sheet(`
  :host { display: block; font-family: var(--al-font); color: var(--al-text); line-height: 1.45; }
  .lab { container: lab / inline-size; display: grid; gap: 16px; }
  /* layout containment: an update inside one card (bars, chips, controls) relays out that card, not the page */
  .card { background: var(--al-surface); border: 1px solid var(--al-border); border-radius: 12px; padding: 16px; min-width: 0;
    contain: layout style; }
  h2, .title { display: block; margin: 0 0 4px; font-size: 1rem; font-weight: 650; letter-spacing: 0.005em; }
  .card > .hint { margin: 0 0 12px; }
  .text { width: 100%; padding: 9px 12px; border: 1px solid var(--al-border); border-radius: 8px; background: var(--al-bg); font-size: 1rem; }
  .text:focus-visible { outline-offset: 0; border-color: var(--al-focus); }
  .tokens { display: grid; gap: 10px; }
  .tokens .title { margin: 0; }
  .note { margin: 0; font-size: 0.8125rem; color: var(--al-muted); }
  .note.oov::before { content: "?"; display: inline-grid; place-items: center; width: 1.3em; height: 1.3em; margin-right: 6px;
    border: 1px dashed var(--al-warn); border-radius: 50%; color: var(--al-warn); font-weight: 700; font-size: 0.75rem; }
  .note b { color: var(--al-text); font-weight: 600; }
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
  .foot { margin: 0; text-align: right; }
  .alert { margin: 0; }
`);

export class AttentionLab extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  #store = createStore();
  #engine = null;
  #vocab = null;
  #builder = null;
  #state = null;
  #scheduled = false;
  #loading = null;
  #oovHtml = '';
  #preparing = null; // the seed whose projections are being computed in idle time
  #fullRequested = false;
  #last = { d: WORD_DIM, scale: NaN };
  #resolveReady;
  #els;

  /** Resolves with the element once the first result is drawn. */
  ready = new Promise((resolve) => {
    this.#resolveReady = resolve;
  });

  constructor() {
    super();
    const root = attachShadow(this, [theme, base, styles], `
      <div class="lab">
        <section class="card tokens">
          <label class="title" for="sentence">Tokens</label>
          <input id="sentence" class="text" type="text" autocomplete="off" spellcheck="false" aria-describedby="sentence-hint">
          <p class="hint note" id="sentence-hint">Type a sentence: it is split into lower-case words and punctuation, one chip each.
            Choose a chip to see where it looks; double-click (or press Enter on) a chip to edit it.</p>
          <token-chips></token-chips>
          <p class="note oov" hidden></p>
          <p class="note truncated" hidden>Only the first ${MAX_TOKENS} tokens are used.</p>
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
      </div>`);
    const $ = (selector) => root.querySelector(selector);
    this.#els = {
      sentence: $('#sentence'),
      chips: $('token-chips'),
      oov: $('.note.oov'),
      truncated: $('.note.truncated'),
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
    const e = this.#els;
    e.heatmap.message = 'Loading word vectors…';
    e.bars.message = 'Loading word vectors…';
    e.probeBars.message = 'Loading word vectors…';

    e.sentence.addEventListener('input', () => this.#store.set({ sentence: e.sentence.value }));
    e.probe.addEventListener('input', () => this.#store.set({ probe: e.probe.value }));
    e.chips.addEventListener('tokenschange', ({ detail }) =>
      this.#store.set({ tokens: detail.tokens, sentence: detail.tokens.join(' ') }),
    );
    e.chips.addEventListener('rowselect', ({ detail }) => this.#store.set({ selected: detail.index }));
    e.heatmap.addEventListener('rowselect', ({ detail }) => this.#store.set({ selected: detail.index }));
    e.controls.addEventListener('settingschange', ({ detail }) => this.#store.set(detail));
    e.paste.addEventListener('vectorspaste', ({ detail }) => this.#store.set({ pasted: detail, projection: 'pasted', selected: 0 }));
    this.#store.subscribe(() => this.#schedule());
  }

  attributeChangedCallback(name, _previous, value) {
    const warning = applyAttribute(this.#store, name, value);
    if (warning) console.warn(warning);
  }

  connectedCallback() {
    this.#loading ??= loadCore()
      .then(async ({ engine, words }) => {
        this.#engine = engine;
        this.#useVocab(words ?? (await loadFullVocab()));
      })
      .catch((error) => this.#failed(error));
    this.#schedule();
  }

  #useVocab(vocab) {
    this.#vocab = vocab;
    this.#builder = new LabPipeline(this.#engine, vocab);
    this.#els.foot.textContent =
      `Core: WebAssembly ${this.#engine.simd ? 'SIMD' : '(scalar)'} · ` +
      (vocab.partial ? 'loading the GloVe vocabulary…' : `${vocab.size.toLocaleString('en')} GloVe words, ${vocab.dim}-d`);
    this.#render();
  }

  #needFullVocab() {
    if (this.#fullRequested) return;
    this.#fullRequested = true;
    loadFullVocab().then((vocab) => this.#useVocab(vocab), (error) => this.#failed(error));
  }

  #failed(error) {
    this.#showError(`Could not load the attention core or the word vectors: ${error.message}`);
    if (!this.#state) for (const view of [this.#els.heatmap, this.#els.bars, this.#els.probeBars]) view.message = 'Not available.';
  }

  /**
   * The latest state, frozen (null until the core has loaded): the settings, the tokens, Q, K,
   * V, d_k, the selected row and the engine result. Its arrays are shared: do not modify them.
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

  /** The vocabulary in use: first the default sentence's words (partial: true), then all of GloVe's. */
  get vocab() {
    return this.#vocab;
  }

  // Several store changes in one task are drawn once.
  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#render();
    });
  }

  #render() {
    const s = this.#store.get();
    const e = this.#els;
    if (e.sentence.value !== s.sentence) e.sentence.value = s.sentence; // typing keeps them equal
    if (!this.#isFocused(e.probe) && e.probe.value !== s.probe) e.probe.value = s.probe;
    setHidden(e.truncated, !s.truncated);
    e.chips.tokens = s.tokens;
    if (this.#vocab && !covers(this.#vocab, s)) this.#needFullVocab(); // drawn again when it arrives
    if (!this.#builder || !covers(this.#vocab, s)) {
      e.controls.value = { ...s, hasPaste: Boolean(s.pasted), d: this.#last.d, scale: this.#last.scale };
      return;
    }

    // 1. inputs (Q, K, V) and 2. the core
    let state;
    try {
      state = labState(s, this.#builder, this.#engine);
    } catch (error) {
      e.controls.value = { ...s, hasPaste: Boolean(s.pasted), d: this.#last.d, scale: this.#last.scale };
      this.#showError(`${error.message} Showing the previous result.`);
      return;
    }
    this.#showError('');
    const { n, d, result, probe, queryLabels, selected } = state;
    this.#last = { d, scale: result.scale };

    // 3. views
    e.controls.value = { ...s, hasPaste: Boolean(s.pasted), d, scale: result.scale };
    e.chips.known = s.projection === 'pasted' ? null : state.tokens.map((t) => t.known);
    e.chips.selected = selected;
    this.#showUnknownWords(s, state);
    e.heatmap.data = { n, m: state.m, weights: result.weights, scores: result.scores, dots: result.dots, queryLabels, keyLabels: state.keyLabels, selected };
    setText(e.barsTitle, `Where “${queryLabels[selected]}” looks`);
    setText(e.barsHint, `Query ${selected + 1} of ${n}: its weight on each key. Select another row in the heatmap or a chip.`);
    e.bars.data = queryRow(state);
    if (probe) e.probeBars.data = probeRow(state);
    else e.probeBars.message = s.projection === 'pasted' ? 'The probe needs word vectors: choose Identity or Random.' : 'Type a probe word.';
    setHidden(e.probeNote, !probe || probe.known);
    if (probe && !probe.known) e.probeNote.innerHTML = `<b>${escapeHtml(probe.text)}</b> is not in vocabulary: it gets a fixed random vector made from its spelling.`;

    this.#state = state;
    this.dispatchEvent(new Event('change', { bubbles: true }));
    this.dispatchEvent(new CustomEvent('statechange', { detail: this.#state }));
    if (s.projection === 'random') this.#prepareProjections(s.seed);
    if (this.#resolveReady) {
      const resolve = this.#resolveReady;
      this.#resolveReady = null;
      performance.mark('attention-lab:first-result');
      resolve(this);
      // 'attention-lab:first-frame': the frame that paints the first bars begins (scripts/bench/page.mjs).
      // The full vocabulary is fetched after that frame: it never delays the first bars.
      requestAnimationFrame(() => {
        performance.mark('attention-lab:first-frame');
        setTimeout(() => this.#needFullVocab());
      });
    }
  }

  #showUnknownWords(s, state) {
    const note = this.#els.oov;
    if (s.projection === 'pasted') {
      this.#oovHtml = '';
      note.hidden = false;
      note.className = 'note';
      note.textContent = 'Using the pasted vectors: these tokens are not used until you choose Identity or Random.';
      return;
    }
    if (note.className !== 'note oov') note.className = 'note oov';
    const unknown = state.unknown;
    setHidden(note, unknown.length === 0);
    if (unknown.length > 0) {
      const list = unknown.slice(0, 8).map((w) => `<b>${escapeHtml(w)}</b>`).join(', ');
      const more = unknown.length > 8 ? ` and ${unknown.length - 8} more` : '';
      const html = `Not in vocabulary: ${list}${more}. Each gets a fixed random vector made from its spelling.`;
      if (this.#oovHtml !== html) note.innerHTML = this.#oovHtml = html;
    }
  }

  // In idle time, one d_k stop at a time: the random projections of the other stops.
  #prepareProjections(seed) {
    if (this.#preparing === seed) return;
    this.#preparing = seed;
    const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 50));
    const step = () => {
      if (this.#preparing !== seed || this.#store.get().seed !== seed) return (this.#preparing = null);
      if (this.#builder.prepareProjection(seed, DK_STEPS)) idle(step);
    };
    idle(step);
  }

  #showError(message) {
    if (this.#els.alert.textContent !== message) this.#els.alert.textContent = message;
  }

  #isFocused(element) {
    return this.shadowRoot.activeElement === element;
  }
}

customElements.define('attention-lab', AttentionLab);
