// <training-experiment>: the training experiment — one attention model trained twice, scaled
// and unscaled, side by side, live (docs/training.md). Its own controls (d_k, init scale,
// optimiser, learning rate, momentum, steps, seed), Train / Pause·Resume / Step / Reset, settings
// to try, progress, and the view of web/views/training.js: both runs' heatmaps of one example
// and their curves, with the outcome in numbers.
//
// The element only draws and forwards intent: training happens in a Web Worker that owns its
// own engine (web/train/worker.js), behind a TrainingSession (web/train/session.js). The main
// thread only draws, and little: the status, buttons and progress at most once per frame, the
// plots and heatmaps at most every VIEW_INTERVAL_MS while the run goes on and only while the
// element is on screen (it catches up when it comes back), so the lab stays responsive.
// `session` may be set before the element is connected (tests, a page that shares one); else the
// element starts its own worker when it first comes near the viewport (NEAR_VIEWPORT), so a page
// may load it early at no cost. Words: web/views/training-text.js, in the language the element
// chooses as the lab does (its lang, the URL's, the page's, the browser's: web/i18n/dom.js).
import { followLanguage } from '../../i18n/dom.js';
import { TYPE_CSS, sheet } from '../theme.js';
import { h, toMarkup } from '../../views/h.js';
import { trainingView } from '../../views/training.js';
import { trainingText } from '../../views/training-text.js';
import { CONTROLLED, PRESETS, presetSettings } from '../../train/presets.js';
import { TrainingSession, matchesConfig } from '../../train/session.js';
import { Instrument } from './instrument.js';

// d_k's choices: powers of two from 2 to the core's largest (limits.maxDk), filled in once the
// worker reports the limits
const dkChoices = (maxDk) => Array.from({ length: Math.floor(Math.log2(maxDk)) }, (_, i) => 2 ** (i + 1));
// The plots of a running experiment are redrawn at most this often (~8 per second: still a live
// curve, and a view of 1,500 steps costs a few ms per draw on a slow machine).
const VIEW_INTERVAL_MS = 120;
const NEAR_VIEWPORT = '400px 0px';
// The view's headings (each run's heatmap) sit under its section's h2: an h4 there followed the
// h2 (axe: heading-order).
const HEADING = 3;

// The template names its words by key (data-t; AlElement writes them in the element's language).
const words = (key) => ({ 'data-t': key });

function field(key, control) {
  return h('label', { class: 'field' }, [h('span', { class: 'name', ...words(key) }), control]);
}
const numberInput = (name, attrs = {}) => h('input', { type: 'number', name, step: 'any', inputmode: 'decimal', required: true, ...attrs });

const TEMPLATE = toMarkup(
  h('div', {}, [
    h('p', { class: 'explain', ...words('training.intro') }),
    h('p', { class: 'explain', ...words('training.task') }),
    // novalidate: the core checks every value and its message names the field (shown in the alert)
    h('form', { class: 'controls', 'data-t-attrs': 'aria-label:training.settings', novalidate: true }, [
      h('div', { class: 'fields' }, [
        field('training.dk', h('select', { name: 'dk' })),
        field('training.initScale', numberInput('initScale', { min: 0, step: 0.05 })),
        field('training.optimizer', h('select', { name: 'optimizer' }, [h('option', { value: 'adam', ...words('training.adam') }), h('option', { value: 'sgd', ...words('training.sgd') })])),
        field('training.learningRate', numberInput('learningRate', { min: 0 })),
        field('training.momentum', numberInput('momentum', { min: 0, max: 0.999, step: 0.05 })),
        field('training.steps', numberInput('steps', { min: 1, step: 1, inputmode: 'numeric' })),
        field('training.seed', numberInput('seed', { min: 0, max: 4294967295, step: 1, inputmode: 'numeric' })),
      ]),
      h('p', { class: 'hint', ...words('training.hint') }),
      h('div', { class: 'actions' }, [
        h('button', { type: 'submit', class: 'primary', 'data-action': 'train', disabled: true, ...words('training.train') }),
        h('button', { type: 'button', class: 'toggle', 'data-action': 'pause', disabled: true, ...words('training.pause') }),
        h('button', { type: 'button', 'data-action': 'step', disabled: true, ...words('training.step') }),
        h('button', { type: 'button', 'data-action': 'reset', disabled: true, ...words('training.reset') }),
        h('button', { type: 'button', 'data-action': 'restart', hidden: true, ...words('training.restart') }),
        h('progress', { max: 1, value: 0, 'data-t-attrs': 'aria-label:training.progress' }),
        h('span', { class: 'count stats', 'aria-hidden': 'true' }),
      ]),
      // the outcome is announced once, when the run ends (the visible numbers are in the view)
      h('p', { class: 'status', role: 'status' }, [h('span', { class: 'phase', ...words('training.loading') }), h('span', { class: 'visually-hidden outcome' })]),
      h('p', { class: 'hint stale', hidden: true, ...words('training.stale') }),
      h('div', { class: 'presets', role: 'group', 'data-t-attrs': 'aria-label:training.presets' }, [
        h('span', { class: 'name', ...words('training.presets') }),
        Object.keys(PRESETS).map((id) => {
          const key = `training.preset${id[0].toUpperCase()}${id.slice(1)}`;
          return h('button', { type: 'button', 'data-preset': id, 'data-t-attrs': `title:${key}Note`, disabled: true, ...words(key) });
        }),
      ]),
      h('p', { class: 'alert', role: 'alert' }),
    ]),
    h('div', { class: 'root' }),
    // the reading of the measurements: asides the learner opens (the intro says what they show)
    h('div', { class: 'reading' }, [
      ['training.lookFor', 'training.lookForText'],
      ['training.disappears', 'training.disappearsText'],
      ['training.larger', 'training.largerText'],
      ['training.reparam', 'training.reparamText'],
    ].map(([title, text]) => h('details', {}, [h('summary', words(title)), h('p', words(text))]))),
  ]),
);

export class TrainingExperiment extends Instrument {
  static styles = [
    ...Instrument.styles,
    sheet(`
      .controls { margin: .4em 0 1em; }
      .fields { display: flex; flex-wrap: wrap; gap: .6em 1.1em; align-items: flex-end; }
      .field { display: flex; flex-direction: column; gap: .2em; font-size: ${TYPE_CSS.note}; }
      .field .name { font-weight: 600; }
      .controls > .hint { margin: .4em 0 0; max-width: 90ch; }
      input[type=number] { width: 8.5em; }
      input, select { padding: .3em .45em; border: 1px solid var(--_border); border-radius: 6px; background: var(--_bg); }
      input:invalid { border-color: var(--_danger); }
      .actions, .presets { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin-top: .7em; }
      button { padding: .38em .95em; border-radius: 6px; border: 1px solid var(--_border); background: var(--_raised); cursor: pointer; }
      button.primary { background: var(--_accent); color: var(--_accent-text); border-color: var(--_accent); font-weight: 600; }
      button:disabled { opacity: .5; cursor: default; }
      .presets button { font-size: ${TYPE_CSS.note}; padding: .25em .7em; border-radius: 999px; }
      .presets .name { font-size: ${TYPE_CSS.note}; font-weight: 600; }
      progress { width: min(220px, 40vw); }
      .status { margin: .5em 0 0; font-size: ${TYPE_CSS.note}; }
      .stale { margin: .3em 0 0; }
      .summary { margin: 1.4em 0 .6em; max-width: 75ch; }
      .summary p { margin: 0 0 .4em; }
      .top { display: flex; flex-wrap: wrap; gap: 1em 2.5em; align-items: flex-start; }
      .pair { display: flex; flex-wrap: wrap; gap: 1em 16px; }
      .heatmap { margin: 0; }
      /* a phone: each as wide as its heatmap, the title wraps instead of pushing the other run below */
      @media (max-width: 560px) { .heatmap { width: min-content; } }
      .outcome { flex: 1 1 300px; }
      .key { align-self: center; }
      .plots { display: grid; gap: 1em 16px; margin-top: .4em; }
      .plots.cols-1 { grid-template-columns: 1fr; }
      .plots.cols-2 { grid-template-columns: repeat(2, 1fr); }
      .plots.cols-3 { grid-template-columns: repeat(3, 1fr); }
      .reading { margin-top: .8em; }
      .reading details { margin: .4em 0 0; }
      .reading summary { cursor: pointer; font-weight: 600; width: fit-content; padding: 3px 0; }
      .presets .name::after { content: ":"; }
      /* a phone: the fields in three aligned columns, the presets two to a row (their names wrap) */
      @media (max-width: 560px) {
        .fields { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: .6em .7em; }
        .fields input, .fields select { width: 100%; box-sizing: border-box; }
        .presets { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .4em; }
        .presets .name { grid-column: 1 / -1; }
        .presets button { border-radius: 10px; text-align: center; min-height: 2.6em; }
        .summary { margin-top: .6em; }
        .plots { gap: .6em 16px; }
      }
      .reading p { margin: .3em 0 .6em; max-width: 75ch; }
    `),
  ];
  static template = TEMPLATE;
  static view = trainingView;

  #session = null;
  #unsubscribe = null;
  #frame = 0;
  #viewTimer = 0;
  #viewAt = -Infinity; // when the view last drew
  #visible = false;
  #visibility = null;
  #latest = null;
  #filled = false; // the controls hold the defaults (set once, when the worker reports them)
  #wired = false;
  #stopWatching = null;

  /** The TrainingSession this element draws and drives (its own, unless one is set before connecting). */
  get session() {
    return this.#session;
  }

  set session(session) {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#session = session;
    if (this.isConnected && session) this.#follow();
  }

  connectedCallback() {
    super.connectedCallback();
    this.settings = { heading: HEADING };
    this.#stopWatching = followLanguage(this);
    if (!this.#wired) {
      this.#wired = true;
      const form = this.$('form');
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        if (!this.$('[data-action=train]').disabled) this.#session?.train(this.#settings());
      });
      form.addEventListener('click', (event) => this.#onClick(event));
    }
    this.#visibility = new IntersectionObserver(
      (entries) => {
        this.#visible = entries.at(-1).isIntersecting;
        if (!this.#visible) return;
        if (!this.#session) this.session = new TrainingSession();
        else this.#schedule(this.#latest ?? this.#session.state);
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    this.#visibility.observe(this);
    if (this.#session) this.#follow();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#stopWatching?.();
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#visibility?.disconnect();
    cancelAnimationFrame(this.#frame);
    clearTimeout(this.#viewTimer);
    this.#frame = this.#viewTimer = 0;
  }

  // New words: the status and the buttons are written again in them (the view redraws itself).
  stringsChanged() {
    if (this.#session) this.#schedule(this.#latest ?? this.#session.state);
  }

  #follow() {
    this.#unsubscribe?.();
    this.#unsubscribe = this.#session.subscribe((state) => this.#schedule(state));
    this.#schedule(this.#session.state);
  }

  // Draws the latest state once per frame at most, however often the worker reports.
  #schedule(state) {
    this.#latest = state;
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#draw(this.#latest);
    });
  }

  #draw(state) {
    this.#drawControls(state);
    if (!this.#visible || this.results === state) return;
    const wait = state.phase === 'running' ? this.#viewAt + VIEW_INTERVAL_MS - performance.now() : 0;
    if (wait > 0) {
      // the latest state, once the interval has passed
      this.#viewTimer ||= setTimeout(() => {
        this.#viewTimer = 0;
        this.#schedule(this.#latest);
      }, wait);
      return;
    }
    this.#viewAt = performance.now();
    this.results = state;
  }

  #drawControls(state) {
    if (!this.#filled && state.defaults) {
      this.$('select[name=dk]').replaceChildren(...dkChoices(state.limits.maxDk).map((d) => new Option(String(d), String(d))));
      this.#fill(presetSettings('default', state.defaults, state.defaults));
      this.$('input[name=steps]').max = String(state.limits.maxSteps);
      this.#filled = true;
    }
    const ready = state.phase !== 'loading' && state.phase !== 'failed';
    for (const button of this.shadowRoot.querySelectorAll('[data-action], [data-preset]')) button.disabled = !ready;
    // a worker that failed or went silent: a new one on request
    const restart = this.$('[data-action=restart]');
    restart.hidden = state.phase !== 'failed';
    restart.disabled = state.phase !== 'failed';
    const toggle = this.$('.toggle');
    const paused = state.phase === 'paused';
    const T = trainingText(this.strings);
    toggle.textContent = paused ? T.controls.resume : T.controls.pause;
    toggle.dataset.action = paused ? 'resume' : 'pause';
    toggle.disabled = state.phase !== 'running' && !paused;
    const progress = this.$('progress');
    progress.max = Math.max(1, state.steps);
    progress.value = state.step;
    this.$('.count').textContent = state.runs ? `${state.step} / ${state.steps}` : '';
    this.$('.alert').textContent = state.error && state.phase !== 'failed' ? state.error.message : '';
    // written whenever the words differ — not only when the phase does: a run that ends within a
    // frame of the last one is 'done' again, and its status and announcement are its own
    const phase = this.$('.status .phase');
    const outcome = this.$('.status .outcome');
    const status = statusText(state, T);
    const said = state.phase === 'done' ? ` ${T.summary(state)}` : '';
    if (phase.textContent !== status) phase.textContent = status;
    if (outcome.textContent !== said) outcome.textContent = said;
    this.#markStale();
  }

  #onClick(event) {
    const button = event.target.closest?.('button');
    if (!button || button.disabled || !this.#session) return;
    const session = this.#session;
    const preset = button.dataset.preset;
    if (preset) {
      const state = session.state;
      this.#fill(presetSettings(preset, state.defaults, this.#settings()));
      return session.train(this.#settings());
    }
    switch (button.dataset.action) {
      case 'pause': return session.pause();
      case 'resume': return session.resume();
      case 'step': return session.step(this.#settings());
      case 'reset': return session.reset();
      case 'restart': return session.restart();
    }
  }

  onInnerInput() {
    this.#markStale();
  }

  // The controls as a TrainConfig patch; the core checks every value (a bad one is shown in the alert).
  #settings() {
    const form = this.$('form').elements;
    const settings = {};
    for (const name of CONTROLLED) {
      const value = form[name].value;
      settings[name] = name === 'optimizer' ? value : value.trim() === '' ? NaN : Number(value);
    }
    return settings;
  }

  #fill(settings) {
    const form = this.$('form').elements;
    for (const [name, value] of Object.entries(settings)) form[name].value = String(value);
  }

  #markStale() {
    const config = this.#session?.state.config;
    this.$('.stale').hidden = !config || this.#session.state.step === 0 || matchesConfig(this.#settings(), config);
  }
}

function statusText(state, T) {
  switch (state.phase) {
    case 'loading': return T.status.loading;
    case 'failed': return T.status.failed(state.error);
    case 'ready': return T.status.ready;
    case 'running': return T.status.running;
    case 'paused': return T.status.paused(state.step, state.steps);
    case 'done': return T.status.done(state.steps);
  }
  return '';
}

customElements.define('training-experiment', TrainingExperiment);
