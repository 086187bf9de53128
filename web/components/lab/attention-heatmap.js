// <attention-heatmap>: the n×m attention weights (rows = queries, columns = keys). The picture is
// a scene (web/views/heatmap.js) painted on canvases by HeatmapPainter; this element holds the
// interaction: hover or keyboard focus shows a cell's weight, score and q·k in a tooltip, a
// visually hidden table holds the same numbers for screen readers. Masked cells (causal) are
// hatched and say "masked" — never a score. Every number comes from the engine result it is given.
//
//   heatmap.data = { n, m, weights, scores, dots (Float32Array n×m), queryLabels (n),
//                    keyLabels (m), selected }     (web/lab/state.js heatmapData)
//   .value: the query row the reader chose; 'input' and 'change' when they choose one
//           (a click, or ↑/↓ while focused)
// The data is drawn as it is set: whoever sets it may read the picture at once.
import { FONT_PX, MAX_VECTOR_CELLS, heatmapScene } from '../../views/heatmap.js';
import { AlElement, SCROLLS_CSS, define, escapeHtml, setHidden, setScrolls } from '../base.js';
import { readTheme, sheet } from '../theme.js';
import { HeatmapPainter } from './heatmap-painter.js';

const styles = sheet(`
  :host { display: block; position: relative; }
  .scroll { overflow-x: auto; overflow-y: hidden; padding: 6px; margin: -6px; } /* room for the focus ring */
  ${SCROLLS_CSS}
  .stage { position: relative; width: max-content; border-radius: 4px; }
  .stage:focus-visible { outline: 2px solid var(--_focus); outline-offset: 3px; }
  canvas { display: block; touch-action: manipulation; cursor: pointer; }
  /* two layers (heatmap-painter.js): the cells (one pixel each, scaled up by the browser without
     smoothing) under the overlay (labels, hatching, numbers, rings), which new weights leave alone */
  .overlay { position: relative; }
  .cells { position: absolute; pointer-events: none; image-rendering: pixelated; }
  /* a pooled picture (thousands of tokens) is drawn at twice the room: scaled down, smoothed */
  .cells.pooled { image-rendering: auto; }
  .pooled-note { margin: 8px 0 0; font-size: 0.875rem; color: var(--_muted); }
  /* the 1 px gutters between cells: each cell × cell tile of the mask ends in a transparent line */
  .cells.gutters {
    mask-image: linear-gradient(to right, #000 calc(100% - 1px), transparent 0), linear-gradient(#000 calc(100% - 1px), transparent 0);
    mask-size: var(--cell) var(--cell);
    mask-composite: intersect;
  }
  /* as wide as its text, up to 28em: a long token wraps in the first line, the numbers never */
  .tip {
    position: absolute; z-index: 2; pointer-events: none; transform: translate(-50%, calc(-100% - 8px));
    width: max-content; max-width: min(28em, 100%);
    padding: 6px 9px; border-radius: 6px; background: var(--_text); color: var(--_bg);
    font-size: 0.8125rem; line-height: 1.35; white-space: nowrap; box-shadow: 0 2px 10px rgb(0 0 0 / 0.2);
    font-variant-numeric: tabular-nums;
  }
  .tip.below { transform: translate(-50%, 8px); }
  .tip .pair { white-space: normal; overflow-wrap: anywhere; }
  /* the focused cell's box: what is scrolled into view when the keyboard moves the focus */
  .cursor { position: absolute; pointer-events: none; visibility: hidden; scroll-margin: 8px; }
  .tip b { font-weight: 650; }
  .legend { display: flex; align-items: center; flex-wrap: wrap; gap: 6px 14px; margin-top: 10px; font-size: 0.875rem; color: var(--_muted); }
  .ramp { display: inline-flex; align-items: center; gap: 6px; }
  .ramp i { display: inline-block; width: 96px; height: 10px; border-radius: 2px; border: 1px solid var(--_border);
    background: linear-gradient(90deg, var(--_heat-0), var(--_heat-1), var(--_heat-2), var(--_heat-3), var(--_heat-4)); }
  .swatch { display: inline-flex; align-items: center; gap: 6px; }
  .swatch i { display: inline-block; width: 12px; height: 12px; border-radius: 2px;
    background: repeating-linear-gradient(135deg, var(--_masked) 0 3px, var(--_masked-line) 3px 4px); }
  .empty { color: var(--_muted); font-size: 0.875rem; min-height: 120px; }
  /* the hidden table (n·m cells, read by screen readers, not hidden from them): a 1 px box whose
     contents never change the layout around it, placed outside the viewport so that
     content-visibility: auto skips its ~8,000 layout objects in every frame's layout, pre-paint
     and paint (skipped content stays in the accessibility tree; focus or find-in-page renders it) */
  .table { contain: strict; content-visibility: auto; top: 0; left: -10000px; }
`);

const TABLE_DELAY_MS = 150; // the hidden table follows the picture once input settles
const MEASURED_TEXTS = 4096; // the measuring cache starts again beyond this many texts

export class AttentionHeatmap extends AlElement {
  static styles = [styles];
  static template = `
    <p class="empty" hidden></p>
    <div class="scroll">
      <div class="stage" tabindex="0" role="group" data-t-attrs="aria-roledescription:heatmap.role aria-label:heatmap.label"
           aria-describedby="help">
        <canvas class="cells" aria-hidden="true"></canvas>
        <canvas class="overlay" aria-hidden="true"></canvas>
        <div class="tip" hidden></div>
        <div class="cursor" aria-hidden="true"></div>
      </div>
    </div>
    <p class="pooled-note" hidden></p>
    <p id="help" class="visually-hidden" data-t="heatmap.help"></p>
    <p class="visually-hidden" aria-live="polite"></p>
    <div class="visually-hidden table"><table><caption data-t="heatmap.caption"></caption>
      <thead></thead><tbody></tbody></table></div>
    <div class="legend" aria-hidden="true">
      <span class="ramp">0 <i></i> 1</span><span class="swatch"><i></i> <span data-t="heatmap.legendMasked"></span></span>
    </div>`;

  #data = null;
  #scene = null; // heatmapScene of the data at #width in #theme
  #theme = null; // readTheme(this): concrete colours, until the colour scheme changes
  #measure = null; // text width at the theme's font (canvas measureText, remembered)
  #width = 0;
  #value = 0;
  #hover = null; // { i, j }
  #focus = { i: 0, j: 0 };
  #focused = false;
  #painter;
  #table;
  #stage;
  #overlay;
  #tip;
  #cursor;
  #live;
  #empty;
  #legend;
  #resizeObserver = null;
  #colorScheme = null;

  constructor() {
    super();
    this.#stage = this.$('.stage');
    this.#overlay = this.$('canvas.overlay');
    this.#tip = this.$('.tip');
    this.#cursor = this.$('.cursor');
    this.#live = this.$('[aria-live]');
    this.#empty = this.$('.empty');
    this.#legend = this.$('.legend');
    this.#painter = new HeatmapPainter(this.$('canvas.cells'), this.#overlay);
    this.#table = new WeightsTable(this.$('table'));

    this.#overlay.addEventListener('pointermove', (event) => this.#onPointer(event));
    this.#overlay.addEventListener('pointerleave', () => {
      this.#hover = null;
      this.#paint();
    });
    this.#overlay.addEventListener('click', (event) => {
      const cell = this.#cellAt(event);
      if (!cell) return;
      this.#focus = cell;
      this.#choose(cell.i);
    });
    this.#stage.addEventListener('keydown', (event) => this.#onKey(event));
    this.#stage.addEventListener('focus', () => {
      this.#focused = true;
      this.#paint();
      this.#announce();
    });
    this.#stage.addEventListener('blur', () => {
      this.#focused = false;
      this.#paint();
    });
  }

  connectedCallback() {
    super.connectedCallback();
    // The available width comes from the observer, so drawing never forces a layout.
    this.#resizeObserver = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry.contentRect.width);
      if (width === this.#width) return;
      this.#width = width;
      this.#draw();
    });
    this.#resizeObserver.observe(this);
    this.#colorScheme = matchMedia('(prefers-color-scheme: dark)');
    this.#colorScheme.addEventListener('change', this.themeChanged);
  }

  disconnectedCallback() {
    this.#resizeObserver?.disconnect();
    this.#colorScheme?.removeEventListener('change', this.themeChanged);
    this.#table.cancel();
  }

  /** Reads the colours again (the colour scheme, the theme attribute or a --al-* property changed). */
  themeChanged = () => {
    this.#theme = null;
    this.#draw();
  };

  /** Shows a message instead of the heatmap (e.g. while loading). */
  set message(text) {
    this.#empty.textContent = text;
    setHidden(this.#empty, !text);
    setHidden(this.#stage.parentElement, Boolean(text));
    setHidden(this.#legend, Boolean(text));
  }

  set data(data) {
    const previous = this.#data;
    this.#data = data;
    this.#value = data.selected;
    if (!this.#empty.hidden) this.message = '';
    if (!previous || previous.selected !== data.selected || previous.n !== data.n) this.#focus = { i: data.selected, j: this.#focus.j };
    this.#focus.j = Math.min(this.#focus.j, data.m - 1);
    if (this.#hover && (this.#hover.i >= data.n || this.#hover.j >= data.m)) this.#hover = null;
    this.#draw();
    this.#table.follow(data, this.strings, TABLE_DELAY_MS);
  }

  get data() {
    return this.#data;
  }

  /** The query row the reader chose last (or the one the data selects). */
  get value() {
    return this.#value;
  }

  /** The scene on screen (web/views/heatmap.js), or null before the first data. */
  get scene() {
    return this.#scene;
  }

  render() {
    this.#draw();
  }

  stringsChanged() {
    if (this.#data) this.#table.follow(this.#data, this.strings, 0);
  }

  // A new scene (data, width or theme changed), then the picture and the tooltip.
  #draw() {
    const data = this.#data;
    if (!data || !this.isConnected) return;
    if (!this.#theme) {
      this.#theme = readTheme(this);
      this.#measure = measurer(`${FONT_PX}px ${this.#theme.font}`);
    }
    if (!this.#width) this.#width = this.clientWidth; // before the first resize observation
    this.#scene = heatmapScene(data, { width: this.#width, theme: this.#theme, measure: this.#measure, strings: this.strings });
    // wider than the room: it says that it scrolls (the scene knows its width: no layout is read)
    setScrolls(this.#stage.parentElement, this.#scene.width > this.#width, this.strings.t('lab.scrolls'));
    // fewer pixels than cells: it says how it is drawn
    const { raster } = this.#scene;
    const note = this.$('.pooled-note');
    note.hidden = !raster?.pooled;
    note.textContent = raster?.pooled ? this.strings.t('heatmap.pooled', { n: this.strings.integer(data.n), m: this.strings.integer(data.m), width: this.strings.integer(raster.width), height: this.strings.integer(raster.height) }).replace('\n', ' ') : '';
    this.$('canvas.cells').classList.toggle('pooled', Boolean(raster));
    this.#paint();
  }

  #paint() {
    if (!this.#scene) return;
    this.#painter.paint(this.#scene, { hover: this.#hover, focus: this.#focus, focused: this.#focused, dpr: window.devicePixelRatio || 1 });
    this.#showTip();
  }

  // ---- interaction -----------------------------------------------------------------------

  #cellAt(event) {
    const scene = this.#scene;
    if (!scene) return null;
    const rect = this.#overlay.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const i = Math.floor((y - scene.y0) / scene.cell);
    let j = Math.floor((x - scene.x0) / scene.cell);
    if (i < 0 || i >= scene.n) return null;
    if (x < scene.x0) j = this.#focus.j; // a row label: the row, keep the column
    if (j < 0 || j >= scene.m) return null;
    return { i, j };
  }

  #onPointer(event) {
    const cell = this.#cellAt(event);
    const same = cell && this.#hover && cell.i === this.#hover.i && cell.j === this.#hover.j;
    if (same || (!cell && !this.#hover)) return;
    this.#hover = cell;
    this.#paint();
  }

  #onKey(event) {
    const scene = this.#scene;
    if (!scene) return;
    const { i, j } = this.#focus;
    const moves = {
      ArrowUp: [i - 1, j],
      ArrowDown: [i + 1, j],
      ArrowLeft: [i, j - 1],
      ArrowRight: [i, j + 1],
      Home: [i, 0],
      End: [i, scene.m - 1],
      PageUp: [0, j],
      PageDown: [scene.n - 1, j],
    };
    const to = moves[event.key];
    if (!to) return;
    event.preventDefault();
    const next = { i: Math.max(0, Math.min(scene.n - 1, to[0])), j: Math.max(0, Math.min(scene.m - 1, to[1])) };
    this.#focus = next;
    if (next.i !== scene.selected) this.#choose(next.i);
    this.#showFocusedCell();
    this.#paint();
    this.#announce();
  }

  // The focused cell comes into view: the grid scrolls sideways (a wide heatmap on a phone) and
  // the page up or down, as little as needed.
  #showFocusedCell() {
    const scene = this.#scene;
    const { i, j } = this.#focus;
    const style = this.#cursor.style;
    style.left = `${scene.x0 + j * scene.cell}px`;
    style.top = `${scene.y0 + i * scene.cell}px`;
    style.width = style.height = `${scene.cell}px`;
    this.#cursor.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  #choose(i) {
    this.#value = i;
    this.emit('input');
    this.emit('change');
  }

  // The tooltip: the hovered cell, else the focused one while the heatmap has focus.
  #showTip() {
    const cell = this.#hover ?? (this.#focused ? this.#focus : null);
    const scene = this.#scene;
    if (!cell || !scene || cell.i >= scene.n || cell.j >= scene.m) {
      setHidden(this.#tip, true);
      return;
    }
    const { i, j } = cell;
    const at = i * scene.m + j;
    const s = this.strings;
    const pair = `<span class="pair"><b>${escapeHtml(s.tipLabel(scene.queryLabels[i]))}</b> → <b>${escapeHtml(s.tipLabel(scene.keyLabels[j]))}</b></span>`;
    this.#tip.innerHTML = scene.masked[at]
      ? `${pair}<br>${escapeHtml(s.t('heatmap.maskedTip'))}`
      : `${pair}<br>${escapeHtml(s.t('heatmap.weight'))} <b>${s.fixed(scene.weights[at], 3)}</b><br>` +
        `${escapeHtml(s.t('heatmap.score'))} ${s.score(scene.scores[at])} · q·k ${s.score(scene.dots?.[at])}`;
    this.#tip.hidden = false;
    // over the cell, within the part of the grid in view (it may scroll sideways); below the
    // cell when there is no room above it on the screen
    const half = this.#tip.offsetWidth / 2;
    const scroller = this.#stage.parentElement;
    const left = Math.max(half, scroller.scrollLeft + half);
    const right = Math.min(scene.width, scroller.scrollLeft + scroller.clientWidth) - half;
    const centre = scene.x0 + j * scene.cell + scene.cell / 2;
    const x = Math.max(left, Math.min(right, centre));
    const cellTop = this.#stage.getBoundingClientRect().top + scene.y0 + i * scene.cell;
    const below = cellTop - this.#tip.offsetHeight - 8 < 0;
    this.#tip.classList.toggle('below', below);
    this.#tip.style.left = `${x}px`;
    this.#tip.style.top = `${scene.y0 + (below ? i + 1 : i) * scene.cell}px`;
  }

  #announce() {
    const scene = this.#scene;
    if (!scene) return;
    const { i, j } = this.#focus;
    const s = this.strings;
    const at = i * scene.m + j;
    const value = scene.masked[at] ? s.t('heatmap.masked') : s.t('heatmap.cellWeight', { value: s.fixed(scene.weights[at], 3) });
    this.#live.textContent = s.t('heatmap.cell', { query: s.tipLabel(scene.queryLabels[i]), i: i + 1, key: s.tipLabel(scene.keyLabels[j]), j: j + 1, value });
  }
}

// The accessible table: the same n·m weights as text, labels in full. It follows the picture
// once input settles, in idle time, never in the way of a frame; its cells' Text nodes are
// written in place (no nodes created per update). Past MAX_VECTOR_CELLS (thousands of supplied
// tokens: millions of cells, a main thread blocked for seconds) it holds the selected row only.
class WeightsTable {
  #table;
  #timer = 0;
  #key = '';
  #text = []; // the n·m Text nodes, row-major
  #data = null;
  #strings = null;

  constructor(table) {
    this.#table = table;
  }

  follow(data, strings, delay) {
    this.#data = data;
    this.#strings = strings;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const idle = window.requestIdleCallback ?? ((callback) => callback());
      idle(() => this.#fill(), { timeout: 1000 });
    }, delay);
  }

  cancel() {
    clearTimeout(this.#timer);
  }

  #fill() {
    const data = this.#data;
    if (!data) return;
    const { n, m, weights, scores } = data;
    const s = this.#strings;
    const rows = n * m > MAX_VECTOR_CELLS ? [Math.min(n - 1, Math.max(0, data.selected))] : Array.from({ length: n }, (_, i) => i);
    const key = `${s.lang}\u0001${n}\u0001${rows.length < n ? rows[0] : ''}\u0001${data.queryLabels.join('\u0000')}\u0001${data.keyLabels.join('\u0000')}`;
    const tbody = this.#table.tBodies[0];
    if (key !== this.#key) {
      this.#key = key;
      const head = data.keyLabels.map((label, j) => `<th scope="col">${escapeHtml(s.t('heatmap.key', { word: label, index: j + 1 }))}</th>`).join('');
      this.#table.tHead.innerHTML = `<tr><th scope="col">${escapeHtml(s.t('heatmap.corner'))}</th>${head}</tr>`;
      tbody.innerHTML = rows
        .map((i) => `<tr><th scope="row">${escapeHtml(s.t('heatmap.query', { word: data.queryLabels[i], index: i + 1 }))}</th>${'<td> </td>'.repeat(m)}</tr>`)
        .join('');
      this.#text = [];
      for (const row of tbody.rows) for (let j = 1; j < row.cells.length; j++) this.#text.push(row.cells[j].firstChild);
    }
    const text = this.#text;
    const masked = s.t('heatmap.masked');
    rows.forEach((i, r) => {
      for (let j = 0; j < m; j++) {
        const at = i * m + j;
        const value = scores[at] === -Infinity ? masked : s.fixed(weights[at], 3);
        if (text[r * m + j].data !== value) text[r * m + j].data = value;
      }
    });
  }
}

// Width of text in `font`, measured on a detached canvas (setting a font on a canvas in the page
// would bring style and layout up to date first), and remembered: the scene asks again for the
// same labels only when they change.
function measurer(font) {
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = font;
  const widths = new Map();
  return (text) => {
    let width = widths.get(text);
    if (width === undefined) {
      if (widths.size >= MEASURED_TEXTS) widths.clear();
      width = ctx.measureText(text).width;
      widths.set(text, width);
    }
    return width;
  };
}

define('attention-heatmap', AttentionHeatmap);
