// <probability-bars>: one query's attention weights over the keys, one bar per key, drawn from
// the scene of web/views/bars.js. Every bar is a role="meter" (0…1, aria-valuenow = the weight
// as a plain decimal, the key token in its name), followed by the row's sum, entropy and largest
// weight — all numbers from the engine.
//
//   bars.data = { labels, weights, scores, rowSum, entropy, maxWeight, known }  (web/lab/state.js queryRow;
//               a trained model's row, web/views/model.js openedRowData: rowSum and entropy NaN, no summary)
//
// The data is drawn as it is set, incrementally: rows are added or removed only when m changes.
// Every row's meter (its name, aria-valuenow and aria-valuetext) is written at once; what a row
// shows (bar, number, bold, hatching) is drawn at once only for rows on or within 100 px of the
// screen. Rows farther away (at 64 keys most of the list is below the fold) are drawn when they
// come that near, at the first scroll, or once input settles (150 ms without new data): an input
// costs them no style, layout or paint.
import { barsScene } from '../../views/bars.js';
import { AlElement, define, setHidden, setText } from '../base.js';
import { sheet } from '../theme.js';

const styles = sheet(`
  /* A compositing layer of its own (opacity, not transform: a transform layer would snap the
     rows to whole pixels): a new weight repaints and re-records the bars alone, not the display
     list of the whole page around them (~0.6 ms less Layerize per slider input at 64 rows). */
  :host { display: block; font-variant-numeric: tabular-nums; will-change: opacity; }
  /* Rows are independent flex lines with fixed-size parts, and every number sits in a
     size-contained box: a new weight repaints its bar and relays out only its own text. The
     list is a plain block with margins (as a grid with gaps it took ~0.2–0.3 ms more layout
     per slider input at 64 rows; the rows land on the same pixels). */
  .rows { display: block; }
  .row { display: flex; align-items: center; gap: 10px; height: 1.35rem; contain: layout style; }
  .row + .row { margin-top: 3px; }
  .label { flex: none; width: var(--label-width, 5em); text-align: right; overflow: hidden; text-overflow: ellipsis;
    white-space: nowrap; font-size: 0.875rem; }
  .label.oov { text-decoration: underline dotted var(--_warn); text-underline-offset: 3px; }
  .track { position: relative; flex: 1 1 auto; min-width: 40px; height: 14px; border-radius: 3px; background: var(--_track); overflow: hidden; }
  .fill { position: absolute; inset: 0; background: var(--_bar); transform-origin: left center; transform: scaleX(0); }
  .row.max .fill { background: var(--_bar-max); }
  .row.max .label, .row.max .value { font-weight: 600; }
  .row.masked .track {
    background: repeating-linear-gradient(135deg, var(--_masked) 0 4px, var(--_masked-line) 4px 5px);
  }
  .value { flex: none; contain: strict; width: 4.2em; height: 1.2rem; line-height: 1.2rem; font-size: 0.8125rem;
    text-align: right; color: var(--_text); font-family: var(--_mono); }
  .row.masked .value, .row.masked .label { color: var(--_muted); }
  .summary { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 12px 0 0; padding: 8px 0 0; border-top: 1px solid var(--_border); font-size: 0.875rem; }
  .summary div { display: flex; gap: 6px; }
  .summary dt { color: var(--_muted); }
  .summary dd { margin: 0; font-family: var(--_mono); }
  .empty { color: var(--_muted); font-size: 0.875rem; }
`);

// Rows within this margin of the viewport are drawn at once. A scroll draws the others in the
// frame it is handled in, before most scrolls reach them (only a jump of more than 100 px in one
// frame, within 150 ms of an input, can show a row's previous number for a frame).
const NEAR_SCREEN = '100px 0px';
const SETTLE_MS = 150; // rows farther away are drawn this long after the last update

export class ProbabilityBars extends AlElement {
  static styles = [styles];
  static template = `
    <p class="empty" hidden></p>
    <div class="rows" role="list"></div>
    <dl class="summary" hidden>
      <div><dt data-t="bars.sum"></dt><dd data-k="sum"></dd></div>
      <div><dt data-t="bars.entropy"></dt><dd data-k="entropy"></dd></div>
      <div><dt data-t="bars.max"></dt><dd data-k="max"></dd></div>
    </dl>`;

  #rows = []; // per key: its elements, what it should show and what it shows (see #resize)
  #scene = null;
  #row = null;
  #labelEm = NaN;
  #list;
  #summary;
  #sums;
  #empty;
  #near; // IntersectionObserver: which rows are on or near the screen
  #byElement = new Map(); // row element → its row
  #stale = new Set(); // rows whose drawing waits (off screen)
  #settleTimer = 0;

  constructor() {
    super();
    this.#list = this.$('.rows');
    this.#summary = this.$('.summary');
    this.#sums = { sum: this.$('[data-k="sum"]'), entropy: this.$('[data-k="entropy"]'), max: this.$('[data-k="max"]') };
    this.#empty = this.$('.empty');
    this.#near = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const r = this.#byElement.get(entry.target);
        if (!r) continue; // removed since
        r.near = entry.isIntersecting;
        if (r.near && this.#stale.delete(r)) draw(r);
      }
    }, { rootMargin: NEAR_SCREEN });
  }

  disconnectedCallback() {
    this.#drawStale();
  }

  /** Shows a message instead of bars (e.g. while loading). */
  set message(text) {
    this.#empty.textContent = text;
    setHidden(this.#empty, !text);
    if (text) {
      this.#scene = null;
      this.#resize(0);
      setHidden(this.#summary, true);
    }
  }

  set data(row) {
    this.#row = row;
    this.#show(barsScene(row, this.strings));
  }

  stringsChanged() {
    if (this.#row && this.#scene) this.#show(barsScene(this.#row, this.strings));
  }

  /** The scene on screen (web/views/bars.js), or null while a message shows. */
  get scene() {
    return this.#scene;
  }

  #show(scene) {
    this.#scene = scene;
    setHidden(this.#empty, true);
    this.#resize(scene.m);
    if (this.#labelEm !== scene.labelEm) {
      this.#labelEm = scene.labelEm;
      // on the list, not the host: a view that places these bars owns the host's attributes, and
      // patching it to its own would take the width away (the labels fell back to 5 em, cut short)
      this.#list.style.setProperty('--label-width', `${scene.labelEm.toFixed(1)}em`);
    }
    scene.rows.forEach((want, j) => {
      const r = this.#rows[j];
      if (r.name !== want.name) {
        r.name = want.name;
        r.label.textContent = want.label;
        r.label.title = want.title;
        r.meter.setAttribute('aria-label', want.name);
      }
      if (r.weight !== want.weight || r.masked !== want.masked) {
        r.weight = want.weight;
        r.masked = want.masked;
        r.meter.setAttribute('aria-valuenow', want.valueNow);
      }
      if (r.valueText !== want.valueText) {
        r.valueText = want.valueText;
        r.meter.setAttribute('aria-valuetext', want.valueText);
      }
      r.text = want.text;
      r.unknown = want.unknown;
      r.max = want.max;
      if (r.near) draw(r);
      else this.#stale.add(r);
    });
    if (this.#stale.size > 0) {
      clearTimeout(this.#settleTimer);
      this.#settleTimer = setTimeout(this.#drawStale, SETTLE_MS);
      // any scroll (the page or a container) draws them before it can bring them into view
      addEventListener('scroll', this.#drawStale, { capture: true, passive: true });
    }
    // a row given without its Σ and entropy (a trained model's) shows none
    setHidden(this.#summary, !scene.summary);
    if (!scene.summary) return;
    setText(this.#sums.sum, scene.summary.sum);
    setText(this.#sums.entropy, scene.summary.entropy);
    setText(this.#sums.max, scene.summary.max);
  }

  // Draws the rows that waited off screen (input has settled, or the page scrolls).
  #drawStale = () => {
    removeEventListener('scroll', this.#drawStale, { capture: true });
    clearTimeout(this.#settleTimer);
    for (const r of this.#stale) draw(r);
    this.#stale.clear();
  };

  #resize(m) {
    while (this.#rows.length > m) {
      const r = this.#rows.pop();
      this.#near.unobserve(r.row);
      this.#byElement.delete(r.row);
      this.#stale.delete(r);
      r.row.remove();
    }
    while (this.#rows.length < m) {
      const row = document.createElement('div');
      row.className = 'row';
      row.setAttribute('role', 'listitem');
      row.innerHTML = `<span class="label" aria-hidden="true"></span>
        <div class="track" role="meter" aria-valuemin="0" aria-valuemax="1"><div class="fill"></div></div>
        <span class="value" aria-hidden="true"></span>`;
      this.#list.append(row);
      const value = row.querySelector('.value');
      const r = {
        row,
        label: row.querySelector('.label'),
        meter: row.querySelector('[role="meter"]'),
        fill: row.querySelector('.fill'),
        number: value.appendChild(document.createTextNode('')),
        near: true, // until the observer says otherwise: a new row is drawn at once
        name: null,
        // what the row should show (weight and valueText are also its meter's aria-valuenow/-valuetext)
        weight: NaN,
        masked: false,
        valueText: '',
        text: '',
        unknown: false,
        max: false,
        // what it shows
        shown: { weight: 0, masked: false, text: '', unknown: false, max: false },
      };
      this.#byElement.set(row, r);
      this.#rows.push(r);
      this.#near.observe(row);
    }
  }
}

// Brings a row's bar, number and classes up to date with its meter, writing only what changed.
function draw(r) {
  const shown = r.shown;
  if (shown.weight !== r.weight) r.fill.style.transform = `scaleX(${(shown.weight = r.weight)})`;
  if (shown.text !== r.text) r.number.data = shown.text = r.text;
  if (shown.masked !== r.masked) r.row.classList.toggle('masked', (shown.masked = r.masked));
  if (shown.max !== r.max) r.row.classList.toggle('max', (shown.max = r.max));
  if (shown.unknown !== r.unknown) r.label.classList.toggle('oov', (shown.unknown = r.unknown));
}

define('probability-bars', ProbabilityBars);
