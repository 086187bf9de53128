// <model-view for="lab">: a trained language model to look inside (docs/model.md) — the lab's
// sentence (or repeated random words) through either twin, every head, one head opened, and as
// asides the learner opens, the next word and what removing √d_k changes. Draws web/views/model.js.
//
// The model (2 MB per twin: web/assets/model/) is loaded only when the element first comes near
// the viewport, each twin once, with the twins' training curves, by web/lesson/model-loader.js
// (over what attention-lab/model publishes); the view says how loading goes, and which file failed.
// The opened head is drawn by the lab's own <attention-heatmap> (keyboard, table, tooltips): its
// selected row is the looking word, and choosing another row (a click, ↑/↓) chooses that word;
// that word's row is the lab's own <probability-bars>. Each head's thumbnail is a canvas this
// element paints (views/model.js thumbnailPixels).
// The element follows the sentence of the <attention-lab> named by `for` (its state's tokens), or
// `tokens` set by the page, until the learner asks for the repeated words; its own settings
// (twin, head, √d_k, temperature, position) live here.
//
// Attention from any other model, in BertViz's shape, is shown instead of the trained model's:
//   view.attention = { tokens, attention: [layer][1][head][n][n] };   // or JSON text, an .npy file's bytes
//   <model-view attention-src="bert.json">                              // a file of the same site
// checked by the core (attention-lab/model, attentionFromBertViz) before anything is drawn; data
// that cannot be shown is said on the page, with what is wrong. `attention = null` goes back.
// The view does not know what holds it: a host with somewhere to go back to (the lab, to its own
// body) puts its own control in the slot `back`, shown beside the supplied attention only:
//   <model-view attention-src="bert.json"><button slot="back">Back</button></model-view>
// The opened head is `layer` and `head` (1-based, as the CLI counts; kept when new attention
// comes, shown within its layers and heads); opening another by its button sets them and sends
// `input` and `change` (the notebook widget, web/widget/, follows them).
import { followLanguage } from '../../i18n/dom.js';
import { define, takeEarlyProperties } from '../base.js';
import '../lab/attention-heatmap.js';
import '../lab/probability-bars.js';
import { TYPE_CSS, sheet } from '../theme.js';
import { TEMPERATURES, THUMB_MAX_PER_ROW, modelView, openedHeadData, openedRowData, thumbnailPixels } from '../../views/model.js';
import { ModelLoader } from '../../lesson/model-loader.js';
import { Instrument } from './instrument.js';

const NEAR_VIEWPORT = '600px 0px';
const HEADING = 3;
const DEFAULT_SENTENCE = 'the cat sat on the mat because it was tired'.split(' ');
const DEMO_SPAN = 12; // random words, then the same again

export class ModelView extends Instrument {
  static styles = [
    ...Instrument.styles,
    sheet(`
      .controls { display: flex; flex-wrap: wrap; gap: .6em 1.4em; align-items: center; margin: .4em 0 1em; }
      fieldset.twins { border: 0; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .3em 1em; align-items: center; }
      fieldset.twins legend { float: left; font-weight: 600; font-size: ${TYPE_CSS.note}; margin-right: .6em; }
      input[type=radio], input[type=checkbox] { width: 18px; height: 18px; margin: 3px; accent-color: var(--_accent); }
      select, button, ::slotted(button) { font: inherit; font-size: ${TYPE_CSS.note}; padding: .3em .6em; border-radius: 6px; border: 1px solid var(--_border); background: var(--_raised); color: var(--_text); min-height: 28px; }
      button, ::slotted(button) { cursor: pointer; }
      .tokens { display: flex; flex-wrap: wrap; gap: .3em; margin: .3em 0; }
      .token { padding: .1em .45em; border-radius: 4px; background: var(--_raised); border: 1px solid var(--_border); font-size: ${TYPE_CSS.note}; }
      .token.unknown { text-decoration: underline dotted; text-underline-offset: 3px; color: var(--_muted); }
      /* a column is as wide as its thumbnail's name, but narrows (the name wraps) rather than push the page sideways */
      .thumbs { display: grid; grid-template-columns: repeat(4, minmax(0, max-content)); gap: 10px 12px; margin: .4em 0 1em; }
      ${Array.from({ length: THUMB_MAX_PER_ROW }, (_, i) => `.thumbs.per-row-${i + 1} { grid-template-columns: repeat(${i + 1}, minmax(0, max-content)); }`).join('\n      ')}
      .thumb { min-width: 0; text-align: center; overflow-wrap: anywhere; display: flex; flex-direction: column; align-items: center; gap: .15em; padding: 4px; border-radius: 6px; font-size: ${TYPE_CSS.note}; }
      .thumb.open { outline: 2px solid var(--_accent); outline-offset: 1px; font-weight: 600; }
      .thumb-role { color: var(--_muted); font-weight: normal; }
      .thumb canvas { display: block; image-rendering: pixelated; }
      section { margin: 1em 0; max-width: 75ch; }
      section > p { margin: .3em 0 .5em; }
      ul { margin: .3em 0; padding-left: 1.3em; }
      .status p { margin: .2em 0; }
      .status button, .status ::slotted(button) { margin: .2em 0 .6em; }
      .progress { display: flex; flex-wrap: wrap; align-items: center; gap: .3em .7em; font-size: ${TYPE_CSS.note}; color: var(--_muted); }
      progress { width: min(320px, 70%); height: 12px; accent-color: var(--_accent); }
      section.opened { max-width: none; }
      section.opened p, section.opened :is(h2, h3, h4, h5) { max-width: 75ch; }
      /* two columns on a wide screen (web/views/model.js TWO_COLUMNS, COLUMN_GAP): the opened head's
         words and bars beside its heatmap, the next word beside √d_k */
      .view.wide { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); column-gap: 32px; align-items: start; }
      .view.wide > * { grid-column: 1 / -1; }
      .view.wide > :is(.next, section.induction) { grid-column: 1; }
      .view.wide > .scale { grid-column: 2; grid-row: span 2; }
      .wide section.opened { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); column-gap: 32px; align-items: start; }
      .wide section.opened > :is(.about, .row) { grid-column: 1; }
      .wide section.opened > .picture { grid-column: 2; grid-row: 1 / span 2; }
      .heatmap { max-width: 760px; margin: .6em 0 .3em; }
      /* the looking word's row: the lab's own bars (web/components/lab/probability-bars.js) */
      .rowbars { max-width: 520px; }
      .curve { margin: 1.2em 0 0; }
      .curve svg { max-width: 100%; height: auto; }
      .curve .legend svg { display: inline-block; vertical-align: -1px; margin-right: .35em; }
      .caveat { max-width: 75ch; margin: 0 0 .8em; }
      /* asides the learner opens, as the lesson's (details.story-aside) */
      details > summary { cursor: pointer; font-weight: 600; width: fit-content; padding: 3px 0; }
      details[open] > summary { margin-bottom: 10px; }
      details.aside { margin: .8em 0; max-width: 75ch; }
      .aside-body > :first-child { margin-top: 0; }
      details > .note, details > ul { margin: .3em 0 .5em; }
      /* a key press (a head, √d_k) changes a few parts: each part is painted on its own (a stacking
         context), so the others' paint is reused, and the parts that are often off screen (the
         looking word's bars, the bodies of the next word's and √d_k's asides) skip layout and paint there; they stay in the
         accessibility tree (docs/page-performance.md, "The trained model's key presses") */
      .view > * { isolation: isolate; }
      .aside-body { content-visibility: auto; contain-intrinsic-size: auto 600px; }
      .rowbars { content-visibility: auto; contain-intrinsic-size: auto 280px; }
    `),
  ];
  static view = modelView;
  static observedAttributes = ['attention-src'];
  // the caveat stands before the heads, and outside the drawn view: it shows while the model loads;
  // its summary says it, the literature is an aside the learner opens
  static template = `<details class="caveat"><summary data-t="modelView.caveatTitle"></summary><p class="note" data-t="modelView.caveat"></p></details>${Instrument.template}`;

  #stopWatching = null;
  #visibility = null;
  #wanted = false; // came near the viewport: load
  #loader = new ModelLoader({
    changed: () => this.#show(),
    suppliedChanged: () => {
      this.#state.position = null;
      this.#update();
    },
  });
  #lab = null;
  #state = { variant: 'scaled', layer: 1, head: 1, scaleAtInference: true, temperature: 1, position: null, demo: 0 };
  #tokens = DEFAULT_SENTENCE;
  #frame = 0;
  #runs = new Map(); // the latest runs by what they ran: opening a head or toggling √d_k back runs nothing
  #shown = {}; // the latest run's results
  #suppliedRun = null; // the supplied result with the row chosen, the same object while nothing changes

  connectedCallback() {
    takeEarlyProperties(this, ['attention']);
    super.connectedCallback();
    this.settings = { heading: HEADING };
    this.#stopWatching = followLanguage(this);
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

  /**
   * Attention from another model shown instead of the trained model's: what attentionFromBertViz
   * reads ({ tokens, attention }, JSON text, a file's bytes), as it was given; null: the trained model.
   */
  get attention() {
    return this.#loader.supplied?.data ?? null;
  }

  set attention(data) {
    this.#loader.supply(data);
  }

  /** The opened head's layer, from 1. */
  get layer() {
    return this.#state.layer;
  }

  set layer(layer) {
    this.#open('layer', layer);
  }

  /** The opened head, from 1 within its layer. */
  get head() {
    return this.#state.head;
  }

  set head(head) {
    this.#open('head', head);
  }

  #open(name, value) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`<model-view>.${name} must be an integer from 1, got ${value}`);
    if (this.#state[name] === value) return;
    this.#state[name] = value;
    this.#update();
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    if (value === null) this.attention = null;
    else this.#loader.supplyFile(value);
  }

  // The results of the supplied attention: the opened head (within its layers and heads) and the row chosen.
  #showSupplied() {
    const { file, read, refused, loading, reading } = this.#loader.supplied;
    if (reading) return;
    if (!read) {
      const error = refused ? this.strings.t('suppliedView.notSameOrigin', refused) : this.#loader.supplied.error;
      this.results = { supplied: { file }, error, loading };
      return;
    }
    const s = this.#state;
    const n = read.tokens.length;
    const position = Math.min(Math.max(0, Number(s.position ?? n - 1)), n - 1);
    if (this.#suppliedRun?.source !== read || this.#suppliedRun.position !== position)
      this.#suppliedRun = { ...read, source: read, position, known: read.tokens.map(() => true) };
    const layer = Math.min(s.layer, read.attention.length), head = Math.min(s.head, read.attention[0].length);
    this.results = { supplied: { file }, run: this.#suppliedRun, layer, head, tolerance: read.tolerance };
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
    else if (intent === 'row') s.position = event.target.value; // the lab's heatmap: the row chosen
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
      this.#update();
      this.request({ layer: s.layer, head: s.head });
      this.emit('change');
      return;
    } else if (target.dataset.intent === 'demo') {
      s.demo = s.demo ? 0 : s.demo + 1 + Math.floor(Math.random() * 1e6);
      s.position = null;
    } else if (target.dataset.intent === 'retry') {
      this.#loader.retry();
      this.#show();
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
    this.$('.caveat')?.toggleAttribute('hidden', Boolean(this.#loader.supplied)); // the caveat is the trained model's
    if (!this.#wanted) return;
    cancelAnimationFrame(this.#frame);
    this.#frame = requestAnimationFrame(() => this.#run());
  }

  // The results drawn: the latest run's, how loading goes, and the curves.
  #show(fields = this.#shown) {
    this.#shown = fields;
    if (this.#loader.supplied) return; // the trained model's loading goes on behind the supplied attention
    const { status, curves, curvesStatus } = this.#loader;
    this.results = { ...fields, status, curves, curvesStatus };
  }

  #barsRow = null; // the row data the bars were last given
  #painted = new WeakMap(); // a thumbnail's canvas → the pixels it shows

  drawn(theme) {
    const run = this.results?.run;
    if (!run) return;
    // every head's thumbnail, from its button's layer and head: only a canvas whose pixels changed
    for (const canvas of this.shadowRoot.querySelectorAll('.thumb canvas')) {
      const { layer, head } = canvas.parentElement.dataset;
      const pixels = thumbnailPixels(run.attention[layer - 1][head - 1], run.tokens.length, canvas.width, theme, run.causal ?? true);
      if (this.#painted.get(canvas) === pixels) continue;
      canvas.getContext('2d').putImageData(new ImageData(pixels, canvas.width, canvas.height), 0, 0);
      this.#painted.set(canvas, pixels);
    }
    // the opened head, in the lab's heatmap and bars placed by the view
    const heatmap = this.$('attention-heatmap');
    const bars = this.$('probability-bars');
    if (!heatmap || !bars) return;
    heatmap.strings = this.strings;
    const data = openedHeadData(this.results);
    if (heatmap.data !== data) heatmap.data = data;
    const row = openedRowData(this.results);
    bars.strings = this.strings;
    // a new row, or new bars (the view drew them anew)
    if (row !== this.#barsRow || !bars.scene) bars.data = this.#barsRow = row;
  }

  async #run() {
    if (this.#loader.supplied) return this.#showSupplied();
    const s = { ...this.#state };
    let model;
    try {
      model = await this.#loader.twin(s.variant);
    } catch {
      return; // the loader says what failed
    }
    if (!model) return; // its load failed: until the learner asks again
    try {
      // repeated words, or the sentence (the same as before while the learner switches)
      const tokens = s.demo ? (await this.#loader.repeatedSequences(model.vocab, { span: DEMO_SPAN, seed: s.demo }))[0] : this.#tokens;
      if (s.variant !== this.#state.variant || this.#loader.supplied) return; // the learner switched again meanwhile
      // position null: the last token the model reads (a new sentence or the demo resets it)
      const position = s.position ?? undefined, span = s.demo ? DEMO_SPAN : 0;
      const run = this.#runOf(model, tokens, { scaleAtInference: s.scaleAtInference, temperature: s.temperature, position, span });
      const contrast = model.info.scaled ? this.#runOf(model, tokens, { scaleAtInference: !s.scaleAtInference, temperature: 1, position: run.position }) : null;
      this.#show({
        run, contrast, info: model.info, twin: model.twin, variant: s.variant, layer: s.layer, head: s.head,
        scaleAtInference: s.scaleAtInference, temperature: s.temperature,
        demo: Boolean(s.demo), unigramThe: model.unigram.the,
      });
    } catch (error) {
      this.results = { empty: error.message, key: 'modelView.failedModel', params: { message: error.message } };
    }
  }
}

// At most this many runs are kept (each 2 × 4 heads of n×n rows and 12,000 probabilities).
const RUNS_KEPT = 8;

define('model-view', ModelView);
