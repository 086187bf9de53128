// <attention-lesson>: the six lesson instruments ("why divide by √d_k?"), one section each,
// all fed the same inputs. Two ways to drive it:
//
//   <attention-lesson for="lab"></attention-lesson>   follows <attention-lab id="lab">: every
//       'statechange' of the lab becomes the instruments' inputs (see lessonInputs below)
//   lesson.inputs = { engine, tokens, vectors, dk, scaled, selectedRow, seed, temperature }
//       (optionally q, k, queryLabels, keyLabels, causal, projection: the current setting;
//       without them the instruments of one row use head 0 of the vectors at dk, see lesson-base.js)
//       a page with its own controls (web/lesson.js)
//
// Light DOM (no shadow root): the page styles the sections, and the instruments stay
// addressable as document.querySelector('variance-lab') etc.
//
// Lazy by design, so the lab stays fast: an instrument's module (KaTeX included) is imported
// only when its section comes near the viewport, and new inputs reach an instrument only when
// it is near the viewport, once the lab's states stop coming for 150 ms (never during a slider
// drag), after the next frame (the lab paints first) and in idle time, one instrument per idle
// callback. Attribute loading="eager" draws every instrument (still after
// the frame and in idle time), for a page that is only the lesson.
import { WORD_DIM } from '../lab/vectors.js';
import { escapeHtml } from './dom.js';
import { sameValue } from './lesson-base.js';

/** Most tokens the instruments take: their heatmaps and tables stay readable. */
export const LESSON_MAX_TOKENS = 24;

// [tag, id, title (HTML)]: the order of the lesson.
const SECTIONS = [
  ['variance-lab', 'claim-1', '1 · The variance of q·k grows with d<sub>k</sub>'],
  ['saturation-plot', 'claim-2', '2 · Unscaled scores make softmax extremely peaked'],
  ['gradient-view', 'claim-3', '3 · A saturated softmax passes back almost no gradient'],
  ['step-by-step', 'claim-4', '4 · Step by step: each row becomes a probability distribution'],
  ['overflow-demo', 'overflow', 'Temperature, and why softmax subtracts the max'],
  ['multi-head-view', 'heads', 'Several heads'],
];
export const INSTRUMENTS = SECTIONS.map(([tag]) => tag);

const NEAR_VIEWPORT = '600px 0px'; // start loading and drawing a little before a section scrolls in
const IDLE_TIMEOUT_MS = 500; // an instrument is drawn within this long even on a busy page
const SETTLE_MS = 150; // the lab's states are taken up once they stop coming for this long (a slider drag ends)

/**
 * The instruments' inputs for a state of <attention-lab> (its 'statechange' detail). The
 * current setting is the lab's own: its Q and K (Identity, Random or pasted), width, labels,
 * scaling, temperature, mask and row — the instruments of one row draw exactly the lab's
 * numbers from them. The sweeps over d_k take the word vectors (the first LESSON_MAX_TOKENS;
 * none for pasted vectors) and project them as the lab's Random mode does at every width.
 */
export function lessonInputs(state, engine) {
  const current = {
    engine,
    q: state.q,
    k: state.k,
    dk: state.d,
    queryLabels: state.queryLabels,
    keyLabels: state.keyLabels,
    scaled: state.scaled,
    temperature: state.temperature,
    causal: state.causal,
    projection: state.projection,
    selectedRow: state.selected,
    seed: state.settings.seed,
  };
  if (!state.x) return { ...current, tokens: [], vectors: new Float32Array(0) };
  const t = Math.min(state.n, LESSON_MAX_TOKENS);
  return { ...current, tokens: state.queryLabels.slice(0, t), vectors: state.x.subarray(0, t * WORD_DIM) };
}

/** A sentence describing how `inputs` follow the lab's `state`, for the page. */
export function describeInputs(state, inputs) {
  const settings =
    `${inputs.scaled ? 'scaled by 1/√d<sub>k</sub>' : '<b>unscaled</b>'}, seed ${inputs.seed}, T = ${inputs.temperature}` +
    (inputs.causal ? ', causal' : '');
  const query = `query “${escapeHtml(state.queryLabels[state.selected])}”`;
  const rowViews = 'the gradient, step-by-step and overflow views use the lab’s own Q and K';
  if (state.projection === 'pasted')
    return (
      `Following the lab: your pasted Q (${state.n} × ${state.d}) and K (${state.m} × ${state.d}), ${query}, ${settings}; ` +
      `${rowViews}. The sweeps over d<sub>k</sub> and the heads need word vectors: choose Identity or Random.`
    );
  const t = inputs.tokens.length;
  const cut = state.n > t ? ` (the sweeps take the first ${t} of ${state.n})` : '';
  const where =
    state.projection === 'random'
      ? `d<sub>k</sub> = ${state.d}, as in the lab; ${rowViews}, and the sweeps over d<sub>k</sub> use the lab’s Random projection at every width`
      : `the lab is on Identity (q = k = the 100-d word vectors, d = 100): ${rowViews}; the sweeps over d<sub>k</sub> show seeded random ` +
        `projections of the same words (the lab’s Random mode), ◆ marking the lab’s own row`;
  return `Following the lab: ${state.n} tokens${cut}, ${query}, ${settings}; ${where}.`;
}

export class AttentionLesson extends HTMLElement {
  #inputs = null;
  #pendingState = null; // the lab's latest state, not yet turned into inputs
  #sections = []; // { tag, section, element, loaded, near, stale }
  #scheduled = false;
  #settle = 0; // timer: running while the lab's states keep coming
  #lab = null;
  #status = null;
  #observer = null;

  connectedCallback() {
    if (!this.#sections.length) this.#build();
    this.#observer = new IntersectionObserver((entries) => this.#onIntersect(entries), { rootMargin: NEAR_VIEWPORT });
    for (const s of this.#sections) this.#observer.observe(s.section);
    const id = this.getAttribute('for');
    if (id) this.#follow(document.getElementById(id));
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#lab?.removeEventListener('statechange', this.#onState);
    clearTimeout(this.#settle);
    this.#settle = 0;
    this.#lab = null;
  }

  /** The inputs every instrument gets; each is drawn when it is near the viewport. */
  set inputs(inputs) {
    this.#inputs = inputs;
    for (const s of this.#sections) s.stale = true;
    this.#schedule();
  }

  get inputs() {
    return this.#inputs;
  }

  /** True while an instrument in or near the viewport (every one, when eager) has not drawn the latest inputs. */
  get pending() {
    return Boolean(this.#pendingState) || this.#sections.some((s) => s.stale && this.#visible(s));
  }

  #build() {
    const level = Number(this.getAttribute('heading-level')) || 2;
    const tpl = document.createElement('template');
    tpl.innerHTML =
      (this.hasAttribute('for') ? '<p class="lesson-status">Waiting for the lab…</p>' : '') +
      SECTIONS.map(([tag, id, title]) => `<section id="${id}" class="instrument"><h${level}>${title}</h${level}><${tag}></${tag}></section>`).join('');
    this.append(tpl.content);
    this.#status = this.querySelector('.lesson-status');
    this.#sections = SECTIONS.map(([tag, id]) => {
      const section = this.querySelector(`#${id}`);
      return { tag, section, element: section.querySelector(tag), loaded: false, near: false, stale: false };
    });
    // An instrument's own controls that stand for a lab setting change the lab instead.
    this.#sections[4].element.addEventListener('input', () => {
      const temperature = this.#sections[4].element.temperature;
      if (this.#lab && temperature >= 0.01) this.#lab.set({ temperature });
    });
  }

  #follow(lab) {
    if (!lab || lab === this.#lab) return;
    this.#lab = lab;
    lab.addEventListener('statechange', this.#onState);
    if (lab.state) this.#onState({ detail: lab.state });
  }

  // Runs inside the lab's update: it only records the state. The work waits until the states
  // stop coming (no instrument work, not even the status line, during a slider drag), then for a
  // frame and idle time.
  #onState = ({ detail: state }) => {
    this.#pendingState = state;
    clearTimeout(this.#settle);
    this.#settle = setTimeout(() => {
      this.#settle = 0;
      this.#schedule();
    }, SETTLE_MS);
  };

  #onIntersect(entries) {
    const eager = this.getAttribute('loading') === 'eager';
    for (const entry of entries) {
      const s = this.#sections.find((x) => x.section === entry.target);
      s.near = entry.isIntersecting;
      if ((s.near || eager) && !s.loaded) this.#load(s);
    }
    if (eager) for (const s of this.#sections) if (!s.loaded) this.#load(s);
    this.#schedule();
  }

  #load(s) {
    s.loaded = true;
    import(`./${s.tag}.js`).then(
      () => this.#schedule(),
      (error) => {
        s.section.append(Object.assign(document.createElement('p'), { className: 'error', textContent: `Could not load this part: ${error.message}` }));
        console.error(error);
      },
    );
  }

  #visible(s) {
    return s.near || this.getAttribute('loading') === 'eager';
  }

  #wanted(s) {
    return s.stale && this.#visible(s) && customElements.get(s.tag);
  }

  // After the next frame (the lab's update is painted first), in idle time: one instrument per callback.
  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    requestAnimationFrame(() => idle(() => this.#step()));
  }

  #step() {
    this.#scheduled = false;
    if (this.#settle) return; // the lab is still changing: its timer schedules the next step
    if (this.#pendingState) {
      const state = this.#pendingState;
      this.#pendingState = null;
      const inputs = lessonInputs(state, this.#lab.engine);
      if (this.#status) this.#status.innerHTML = describeInputs(state, inputs);
      this.#inputs = inputs;
      for (const s of this.#sections) s.stale = true;
    }
    if (!this.#inputs) return;
    const next = this.#sections.find((s) => this.#wanted(s));
    if (!next) return;
    next.stale = false;
    apply(next.element, this.#inputs);
    if (this.#sections.some((s) => this.#wanted(s))) {
      this.#scheduled = true;
      idle(() => this.#step());
    }
  }
}

// Sets only the inputs that changed (arrays compared by content): an unchanged instrument is not redrawn.
function apply(element, inputs) {
  for (const [key, value] of Object.entries(inputs)) if (!sameValue(element[key], value)) element[key] = value;
}

function idle(callback) {
  if (window.requestIdleCallback) requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(callback, 1);
}

customElements.define('attention-lesson', AttentionLesson);
