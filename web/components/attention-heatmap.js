// <attention-heatmap>: the n×m attention weights (rows = queries, columns = keys) drawn on a
// canvas. Hover or keyboard focus shows a cell's weight, score and q·k; a visually hidden
// table holds the same numbers for screen readers. Masked cells (causal) are hatched and say
// "masked" — never a score. Every number comes from the engine result it is given.
//
//   heatmap.data = { n, m, weights, scores, dots (Float32Array n×m), queryLabels (n),
//                    keyLabels (m), selected }
//   events: 'rowselect' { detail: { index } } on click, or ↑/↓ while focused
import { fixed, score } from '../views/format.js';
import { attachShadow, escapeHtml, setHidden } from './dom.js';
import { base, sheet } from './styles.js';

const styles = sheet(`
  :host { display: block; position: relative; }
  .scroll { overflow-x: auto; overflow-y: hidden; padding: 6px; margin: -6px; } /* room for the focus ring */
  .stage { position: relative; width: max-content; border-radius: 4px; }
  .stage:focus-visible { outline: 2px solid var(--al-focus); outline-offset: 3px; }
  canvas { display: block; touch-action: manipulation; cursor: pointer; }
  /* two layers: the cells (one pixel each, scaled up by the browser without smoothing) under
     the overlay (labels, hatching, numbers, rings), which a new set of weights leaves alone */
  .overlay { position: relative; }
  .cells { position: absolute; pointer-events: none; image-rendering: pixelated; }
  /* the 1 px gutters between cells: each cell × cell tile of the mask ends in a transparent line */
  .cells.gutters {
    mask-image: linear-gradient(to right, #000 calc(100% - 1px), transparent 0), linear-gradient(#000 calc(100% - 1px), transparent 0);
    mask-size: var(--cell) var(--cell);
    mask-composite: intersect;
  }
  .tip {
    position: absolute; z-index: 2; pointer-events: none; transform: translate(-50%, calc(-100% - 8px));
    padding: 6px 9px; border-radius: 6px; background: var(--al-text); color: var(--al-bg);
    font-size: 0.8125rem; line-height: 1.35; white-space: nowrap; box-shadow: 0 2px 10px rgb(0 0 0 / 0.2);
    font-variant-numeric: tabular-nums;
  }
  .tip b { font-weight: 650; }
  .legend { display: flex; align-items: center; flex-wrap: wrap; gap: 6px 14px; margin-top: 10px; font-size: 0.75rem; color: var(--al-muted); }
  .ramp { display: inline-flex; align-items: center; gap: 6px; }
  .ramp i { display: inline-block; width: 96px; height: 10px; border-radius: 2px; border: 1px solid var(--al-border);
    background: linear-gradient(90deg, var(--al-heat-0), var(--al-heat-1), var(--al-heat-2), var(--al-heat-3), var(--al-heat-4)); }
  .swatch { display: inline-flex; align-items: center; gap: 6px; }
  .swatch i { display: inline-block; width: 12px; height: 12px; border-radius: 2px;
    background: repeating-linear-gradient(135deg, var(--al-masked) 0 3px, var(--al-masked-line) 3px 4px); }
  .empty { color: var(--al-muted); font-size: 0.875rem; min-height: 120px; }
  /* the hidden table (n·m cells, read by screen readers, not hidden from them): a 1 px box whose
     contents never change the layout around it, placed outside the viewport so that
     content-visibility: auto skips its ~8,000 layout objects in every frame's layout, pre-paint
     and paint (skipped content stays in the accessibility tree; focus or find-in-page renders it) */
  .table { contain: strict; content-visibility: auto; top: 0; left: -10000px; }
`);

const FONT_PX = 12;
const MIN_CELL = 14; // below this the grid scrolls sideways
const MAX_CELL = 52;
const NUMBERS_FROM_CELL = 34; // cells at least this wide show their weight
const MAX_LABEL_PX = 96;
const HEADER_ANGLE_SIN = 0.866; // column labels rise at 60°: sin 60°
const HEADER_ANGLE = -Math.PI / 3;
const TABLE_DELAY_MS = 150; // the hidden table follows the picture once input settles

export class AttentionHeatmap extends HTMLElement {
  #data = null;
  #layout = null;
  #labels = null; // measured and clipped labels, reused while the labels stay the same
  #theme = null;
  #hover = null; // { i, j }
  #focus = { i: 0, j: 0 };
  #focused = false;
  #width = 0;
  #tableTimer = 0;
  #tableKey = '';
  #tableText = []; // the table's n·m Text nodes, row-major
  #cellsDrawn = null; // { data, theme } the cells layer shows
  #cellsCtx = null;
  #cellsImage = null; // ImageData of the cells layer and its pixels as Uint32 (RGBA in memory order)
  #cellsPixels = null;
  #cellsBox = '';
  #masked = new Uint8Array(0); // 1 where the cells layer has a masked cell (hatched on the overlay)
  #maskVersion = 0;
  #dataVersion = 0;
  #overlayKey = '';
  #overlayTheme = null;
  #overlayPainter = null; // an OffscreenCanvas the overlay is drawn on, then shown as one bitmap
  #overlayShown = null; // the page canvas's 'bitmaprenderer' context
  #text = null; // { canvas, ctx, key, theme }: text measuring and the label layer
  #stage;
  #canvas; // the overlay (labels, hatching, numbers, rings) as a bitmap; also takes the pointer
  #cells; // the cells layer: an n×m canvas under the overlay
  #tip;
  #live;
  #table;
  #empty;
  #legend;
  #resizeObserver;
  #colorScheme;

  constructor() {
    super();
    const root = attachShadow(this, [base, styles], `
      <p class="empty" hidden></p>
      <div class="scroll">
        <div class="stage" tabindex="0" role="group" aria-roledescription="heatmap"
             aria-label="Attention weights heatmap" aria-describedby="help">
          <canvas class="cells" aria-hidden="true"></canvas>
          <canvas class="overlay" aria-hidden="true"></canvas>
          <div class="tip" hidden></div>
        </div>
      </div>
      <p id="help" class="visually-hidden">Rows are queries, columns are keys. Arrow keys move between cells;
        moving up or down selects that query's row. The same numbers are in the table that follows.</p>
      <p class="visually-hidden" aria-live="polite"></p>
      <div class="visually-hidden table"><table><caption>Attention weights: rows are queries, columns are keys</caption>
        <thead></thead><tbody></tbody></table></div>
      <div class="legend" aria-hidden="true">
        <span class="ramp">0 <i></i> 1</span><span class="swatch"><i></i> masked (not a score)</span>
      </div>`);
    this.#stage = root.querySelector('.stage');
    this.#canvas = root.querySelector('canvas.overlay');
    this.#cells = root.querySelector('canvas.cells');
    this.#tip = root.querySelector('.tip');
    this.#live = root.querySelector('[aria-live]');
    this.#table = root.querySelector('table');
    this.#empty = root.querySelector('.empty');
    this.#legend = root.querySelector('.legend');

    this.#canvas.addEventListener('pointermove', (event) => this.#onPointer(event));
    this.#canvas.addEventListener('pointerleave', () => {
      this.#hover = null;
      this.#draw();
      this.#showTip();
    });
    this.#canvas.addEventListener('click', (event) => {
      const cell = this.#cellAt(event);
      if (!cell) return;
      this.#focus = cell;
      this.#select(cell.i);
    });
    this.#stage.addEventListener('keydown', (event) => this.#onKey(event));
    this.#stage.addEventListener('focus', () => {
      this.#focused = true;
      this.#draw();
      this.#showTip();
      this.#announce();
    });
    this.#stage.addEventListener('blur', () => {
      this.#focused = false;
      this.#draw();
      this.#showTip();
    });
  }

  connectedCallback() {
    // The available width comes from the observer, so drawing never forces a layout.
    this.#resizeObserver = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry.contentRect.width);
      if (width === this.#width) return;
      this.#width = width;
      this.#draw();
      this.#showTip();
    });
    this.#resizeObserver.observe(this);
    this.#colorScheme = matchMedia('(prefers-color-scheme: dark)');
    this.#colorScheme.addEventListener('change', this.#onScheme);
  }

  disconnectedCallback() {
    this.#resizeObserver?.disconnect();
    this.#colorScheme?.removeEventListener('change', this.#onScheme);
    clearTimeout(this.#tableTimer);
  }

  #onScheme = () => {
    this.#theme = null;
    this.#draw();
  };

  /** Shows a message instead of the heatmap (e.g. while loading). */
  set message(text) {
    this.#empty.textContent = text;
    this.#empty.hidden = !text;
    this.#stage.parentElement.hidden = Boolean(text);
    this.#legend.hidden = Boolean(text);
  }

  set data(data) {
    const previous = this.#data;
    this.#data = data;
    this.#dataVersion++;
    if (!this.#empty.hidden) this.message = '';
    if (!previous || previous.selected !== data.selected || previous.n !== data.n) {
      this.#focus = { i: data.selected, j: Math.min(this.#focus.j, data.m - 1) };
    }
    this.#focus.j = Math.min(this.#focus.j, data.m - 1);
    if (this.#hover && (this.#hover.i >= data.n || this.#hover.j >= data.m)) this.#hover = null;
    this.#draw();
    this.#showTip();
    // The table (n·m cells) follows once input settles, in idle time: never in the way of a frame.
    clearTimeout(this.#tableTimer);
    this.#tableTimer = setTimeout(() => {
      const idle = window.requestIdleCallback ?? ((callback) => callback());
      idle(() => this.#fillTable(), { timeout: 1000 });
    }, TABLE_DELAY_MS);
  }

  // ---- drawing ---------------------------------------------------------------------------

  #draw() {
    const data = this.#data;
    if (!data || !this.isConnected) return;
    const theme = (this.#theme ??= readTheme(this));
    const font = `${FONT_PX}px ${theme.font}`;
    // Text is measured and drawn on detached canvases: setting a font on the page's canvas
    // makes the browser bring style and layout up to date first (a forced layout per input).
    const text = this.#textLayer();
    text.ctx.font = font;
    const layout = (this.#layout = this.#measure(text.ctx, data));
    const dpr = window.devicePixelRatio || 1;
    const maskChanged = this.#drawCells(data, theme, layout);
    const numbers = layout.cell >= NUMBERS_FROM_CELL;
    const key = [
      this.#labels.key, data.selected, data.n, data.m, layout.x0, layout.y0, layout.cell, layout.width, layout.height, dpr,
      this.#hover?.i, this.#hover?.j, this.#focused, this.#focus.i, this.#focus.j, this.#maskVersion, numbers ? this.#dataVersion : 0,
    ].join('\u0001');
    if (key === this.#overlayKey && !maskChanged && this.#overlayTheme === theme) return;
    this.#overlayKey = key;
    this.#overlayTheme = theme;
    this.#drawOverlay(data, theme, layout, text, font, dpr);
  }

  // The cells: one pixel each in an n×m canvas that the browser scales up by `cell` without
  // smoothing (image-rendering: pixelated): a new set of weights costs n·m pixels, not the
  // whole picture. Masked cells are left transparent for the overlay's hatching. Returns
  // whether the masked cells changed.
  #drawCells(data, theme, layout) {
    const { n, m, weights, scores } = data;
    const { x0, y0, cell } = layout;
    const canvas = this.#cells;
    if (canvas.width !== m || canvas.height !== n || !this.#cellsCtx) {
      canvas.width = m;
      canvas.height = n;
      this.#cellsCtx = canvas.getContext('2d');
      this.#cellsImage = this.#cellsCtx.createImageData(m, n);
      this.#cellsPixels = new Uint32Array(this.#cellsImage.data.buffer);
      this.#cellsDrawn = null;
    }
    const box = `${x0} ${y0} ${cell} ${n} ${m}`;
    if (this.#cellsBox !== box) {
      this.#cellsBox = box;
      const style = canvas.style;
      style.left = `${x0}px`;
      style.top = `${y0}px`;
      style.width = `${m * cell}px`;
      style.height = `${n * cell}px`;
      style.setProperty('--cell', `${cell}px`);
      canvas.classList.toggle('gutters', cell >= 20);
    }
    if (this.#cellsDrawn?.data === data && this.#cellsDrawn.theme === theme) return false;
    this.#cellsDrawn = { data, theme };
    if (this.#masked.length !== n * m) {
      this.#masked = new Uint8Array(n * m);
      this.#maskVersion++;
    }
    const pixels = this.#cellsPixels;
    const masked = this.#masked;
    let maskChanged = false;
    for (let at = 0; at < n * m; at++) {
      const isMasked = scores[at] === -Infinity ? 1 : 0;
      if (masked[at] !== isMasked) {
        masked[at] = isMasked;
        maskChanged = true;
      }
      pixels[at] = isMasked ? 0 : theme.rampRGBA[colorLevel(weights[at])];
    }
    if (maskChanged) this.#maskVersion++;
    this.#cellsCtx.putImageData(this.#cellsImage, 0, 0);
    return maskChanged;
  }

  // Everything over the cells: labels, hatched masked cells, gutters, numbers and the rings of
  // the selected row, the hovered and the focused cell. Redrawn only when one of them changes.
  // It is drawn on an OffscreenCanvas and handed to the page's canvas as one ImageBitmap
  // ('bitmaprenderer'): the browser passes a new bitmap to the compositor once, where a 2D
  // canvas of this size (~1000 × 1000 px at 64 tokens) was copied again at every commit in
  // software rendering, ~0.6 ms a frame, changed or not. Text drawn here forces no layout.
  #drawOverlay(data, theme, layout, text, font, dpr) {
    const w = layout.width;
    const h = layout.height;
    const width = Math.round(w * dpr);
    const height = Math.round(h * dpr);
    if (this.#canvas.width !== width || this.#canvas.height !== height) {
      this.#canvas.width = width;
      this.#canvas.height = height;
      this.#canvas.style.width = `${w}px`;
      this.#canvas.style.height = `${h}px`;
    }
    const painter = (this.#overlayPainter ??= new OffscreenCanvas(width, height));
    if (painter.width !== width || painter.height !== height) {
      painter.width = width;
      painter.height = height;
    }
    const ctx = painter.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.drawImage(this.#drawLabels(text, data, layout, theme, font, dpr), 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);

    const { n, m, weights, scores, selected } = data;
    const { x0, y0, cell } = layout;
    const gap = cell >= 20 ? 1 : 0;
    const masked = this.#masked;
    if (masked.includes(1)) {
      // masked cells: hatched (the pattern is anchored to the canvas, so a run of cells is one rect)
      ctx.fillStyle = theme.hatch(ctx);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < m; j++) {
          if (!masked[i * m + j]) continue;
          let end = j + 1;
          while (end < m && masked[i * m + end]) end++;
          ctx.fillRect(x0 + j * cell, y0 + i * cell, (end - j) * cell, cell);
          j = end - 1;
        }
      }
      if (gap) {
        // the 1 px gutters between cells (each cell is cell - gap wide), through the hatching too
        for (let i = 1; i <= n; i++) ctx.clearRect(x0, y0 + i * cell - gap, m * cell, gap);
        for (let j = 1; j <= m; j++) ctx.clearRect(x0 + j * cell - gap, y0, gap, n * cell);
      }
    }
    if (cell >= NUMBERS_FROM_CELL) {
      ctx.font = font; // few cells (n, m ≤ 16 or so)
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < m; j++) {
          const at = i * m + j;
          if (scores[at] === -Infinity) continue;
          ctx.fillStyle = theme.ink[colorLevel(weights[at])];
          ctx.fillText(fixed(weights[at], 2), x0 + j * cell + (cell - gap) / 2, y0 + i * cell + (cell - gap) / 2 + 0.5);
        }
      }
    }
    // the selected row, the hovered cell, the focused cell
    ctx.lineWidth = 2;
    ctx.strokeStyle = theme.accent;
    if (selected >= 0 && selected < n) ctx.strokeRect(x0 - 1, y0 + selected * cell - 1, m * cell - gap + 2, cell - gap + 2);
    if (this.#hover) {
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = theme.text;
      ctx.strokeRect(x0 + this.#hover.j * cell + 0.75, y0 + this.#hover.i * cell + 0.75, cell - gap - 1.5, cell - gap - 1.5);
    }
    if (this.#focused) {
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = theme.focus;
      ctx.strokeRect(x0 + this.#focus.j * cell - 1.5, y0 + this.#focus.i * cell - 1.5, cell - gap + 3, cell - gap + 3);
    }
    this.#overlayShown ??= this.#canvas.getContext('bitmaprenderer');
    this.#overlayShown.transferFromImageBitmap(painter.transferToImageBitmap());
  }

  // A detached canvas for measuring text and holding the labels.
  #textLayer() {
    if (!this.#text) {
      const canvas = document.createElement('canvas');
      this.#text = { canvas, ctx: canvas.getContext('2d'), key: '' };
    }
    return this.#text;
  }

  // The row and column labels at device size, redrawn only when they, the selected row, the
  // layout or the theme change: a slider input redraws the cells alone.
  #drawLabels(text, data, layout, theme, font, dpr) {
    const { n, m, selected } = data;
    const { x0, y0, cell, width, height } = layout;
    const key = [this.#labels.key, selected, n, m, x0, y0, cell, width, height, dpr].join('\u0001');
    if (text.key === key && text.theme === theme) return text.canvas;
    text.key = key;
    text.theme = theme;
    const ctx = text.ctx;
    if (text.canvas.width !== this.#canvas.width || text.canvas.height !== this.#canvas.height) {
      text.canvas.width = this.#canvas.width;
      text.canvas.height = this.#canvas.height;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, text.canvas.width, text.canvas.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const gap = cell >= 20 ? 1 : 0;
    ctx.textBaseline = 'middle';
    // row labels (queries), right-aligned; the selected row in bold accent
    ctx.textAlign = 'right';
    for (let i = 0; i < n; i++) {
      const isSelected = i === selected;
      ctx.font = isSelected ? `600 ${font}` : font;
      ctx.fillStyle = isSelected ? theme.accent : theme.text;
      ctx.fillText(this.#labels.rows[i], x0 - 8, y0 + i * cell + cell / 2);
    }
    // column labels (keys), rising at 60°
    ctx.font = font;
    ctx.fillStyle = theme.text;
    ctx.textAlign = 'left';
    for (let j = 0; j < m; j++) {
      ctx.save();
      ctx.translate(x0 + j * cell + (cell - gap) / 2 + 3, y0 - 6);
      ctx.rotate(HEADER_ANGLE);
      ctx.fillText(this.#labels.cols[j], 0, 0);
      ctx.restore();
    }
    ctx.font = font; // measuring expects the plain font
    return text.canvas;
  }

  // Label widths, header height and the cell size that fits the available width.
  #measure(ctx, data) {
    const { n, m } = data;
    if (!this.#width) this.#width = this.clientWidth; // before the first resize observation
    const same = this.#labels?.font === ctx.font && this.#labels.queryLabels === data.queryLabels && this.#labels.keyLabels === data.keyLabels;
    const labelKey = same ? this.#labels.key : `${ctx.font}\u0001${data.queryLabels.join('\u0000')}\u0001${data.keyLabels.join('\u0000')}`;
    if (this.#labels?.key !== labelKey) {
      const widest = (labels) => labels.reduce((most, label) => Math.max(most, ctx.measureText(label).width), 0);
      const clipped = (labels) => labels.map((label) => clip(ctx, label, MAX_LABEL_PX));
      this.#labels = {
        key: labelKey,
        rowWidth: Math.min(MAX_LABEL_PX, widest(data.queryLabels)),
        colWidth: Math.min(MAX_LABEL_PX, widest(data.keyLabels)),
        rows: clipped(data.queryLabels),
        cols: clipped(data.keyLabels),
      };
    }
    // the same arrays (a new d_k keeps the tokens) need no new key next time
    Object.assign(this.#labels, { font: ctx.font, queryLabels: data.queryLabels, keyLabels: data.keyLabels });
    const rowLabels = this.#labels.rowWidth;
    const colLabels = this.#labels.colWidth;
    const x0 = Math.ceil(rowLabels + 12);
    const y0 = Math.ceil(colLabels * HEADER_ANGLE_SIN + 14);
    const available = Math.max(0, this.#width - x0 - 24);
    const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(available / m)));
    // the last column label leans right beyond the grid: leave room for it
    const tail = Math.ceil(colLabels * 0.5);
    return { x0, y0, cell, width: x0 + m * cell + tail, height: y0 + n * cell + 2 };
  }

  // ---- interaction -----------------------------------------------------------------------

  #cellAt(event) {
    const layout = this.#layout;
    const data = this.#data;
    if (!layout || !data) return null;
    const rect = this.#canvas.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const i = Math.floor((y - layout.y0) / layout.cell);
    let j = Math.floor((x - layout.x0) / layout.cell);
    if (i < 0 || i >= data.n) return null;
    if (x < layout.x0) j = this.#focus.j; // a row label: the row, keep the column
    if (j < 0 || j >= data.m) return null;
    return { i, j };
  }

  #onPointer(event) {
    const cell = this.#cellAt(event);
    const same = cell && this.#hover && cell.i === this.#hover.i && cell.j === this.#hover.j;
    if (same || (!cell && !this.#hover)) return;
    this.#hover = cell;
    this.#draw();
    this.#showTip();
  }

  #onKey(event) {
    const data = this.#data;
    if (!data) return;
    const { i, j } = this.#focus;
    const moves = {
      ArrowUp: [i - 1, j],
      ArrowDown: [i + 1, j],
      ArrowLeft: [i, j - 1],
      ArrowRight: [i, j + 1],
      Home: [i, 0],
      End: [i, data.m - 1],
      PageUp: [0, j],
      PageDown: [data.n - 1, j],
    };
    const to = moves[event.key];
    if (!to) return;
    event.preventDefault();
    const next = { i: Math.max(0, Math.min(data.n - 1, to[0])), j: Math.max(0, Math.min(data.m - 1, to[1])) };
    this.#focus = next;
    if (next.i !== data.selected) this.#select(next.i);
    this.#draw();
    this.#showTip();
    this.#announce();
  }

  #select(i) {
    this.dispatchEvent(new CustomEvent('rowselect', { detail: { index: i } }));
  }

  // The tooltip: the hovered cell, else the focused one while the heatmap has focus.
  #showTip() {
    const cell = this.#hover ?? (this.#focused ? this.#focus : null);
    const data = this.#data;
    const layout = this.#layout;
    if (!cell || !data || !layout || cell.i >= data.n || cell.j >= data.m) {
      setHidden(this.#tip, true);
      return;
    }
    const { i, j } = cell;
    const at = i * data.m + j;
    const q = escapeHtml(data.queryLabels[i]);
    const k = escapeHtml(data.keyLabels[j]);
    this.#tip.innerHTML =
      data.scores[at] === -Infinity
        ? `<b>${q}</b> → <b>${k}</b><br>masked: a query sees only earlier keys`
        : `<b>${q}</b> → <b>${k}</b><br>weight <b>${fixed(data.weights[at], 3)}</b><br>score ${score(data.scores[at])} · q·k ${score(data.dots[at])}`;
    this.#tip.hidden = false;
    const half = this.#tip.offsetWidth / 2;
    const centre = layout.x0 + j * layout.cell + layout.cell / 2;
    const x = Math.max(half, Math.min(layout.width - half, centre));
    this.#tip.style.left = `${x}px`;
    this.#tip.style.top = `${layout.y0 + i * layout.cell}px`;
  }

  #announce() {
    const data = this.#data;
    if (!data) return;
    const { i, j } = this.#focus;
    const at = i * data.m + j;
    const value = data.scores[at] === -Infinity ? 'masked' : `weight ${fixed(data.weights[at], 3)}`;
    this.#live.textContent = `${data.queryLabels[i]} (query ${i + 1}) to ${data.keyLabels[j]} (key ${j + 1}): ${value}`;
  }

  // ---- the accessible table ---------------------------------------------------------------

  #fillTable() {
    const data = this.#data;
    if (!data) return;
    const { n, m, weights, scores } = data;
    const key = `${n}\u0001${data.queryLabels.join('\u0000')}\u0001${data.keyLabels.join('\u0000')}`;
    const tbody = this.#table.tBodies[0];
    if (key !== this.#tableKey) {
      this.#tableKey = key;
      const head = data.keyLabels.map((label, j) => `<th scope="col">${escapeHtml(label)} (key ${j + 1})</th>`).join('');
      this.#table.tHead.innerHTML = `<tr><th scope="col">query \\ key</th>${head}</tr>`;
      tbody.innerHTML = data.queryLabels
        .map((label, i) => `<tr><th scope="row">${escapeHtml(label)} (query ${i + 1})</th>${'<td> </td>'.repeat(m)}</tr>`)
        .join('');
      // each cell's one Text node, written in place: no nodes created per update
      this.#tableText = [];
      for (const row of tbody.rows) for (let j = 1; j < row.cells.length; j++) this.#tableText.push(row.cells[j].firstChild);
    }
    const text = this.#tableText;
    for (let at = 0; at < n * m; at++) {
      const value = scores[at] === -Infinity ? 'masked' : fixed(weights[at], 3);
      if (text[at].data !== value) text[at].data = value;
    }
  }
}

// 0…255: the index into the colour ramp for a weight in [0, 1].
function colorLevel(w) {
  return w > 0 ? Math.min(255, Math.round(w * 255)) : 0;
}

// Colours of the current theme, read from the CSS custom properties once per scheme change.
function readTheme(element) {
  const css = getComputedStyle(element);
  const get = (name) => css.getPropertyValue(name).trim();
  const stops = [0, 1, 2, 3, 4].map((k) => parseColor(get(`--al-heat-${k}`)));
  const ramp = [];
  const rampRGBA = new Uint32Array(256); // the ramp as ImageData pixels
  const ink = [];
  for (let level = 0; level < 256; level++) {
    const t = (level / 255) * (stops.length - 1);
    const a = Math.min(stops.length - 2, Math.floor(t));
    const f = t - a;
    const rgb = stops[a].map((c, k) => Math.round(c + (stops[a + 1][k] - c) * f));
    ramp.push(`rgb(${rgb.join(',')})`);
    rampRGBA[level] = rgba(rgb);
    ink.push(luminance(rgb) > 0.4 ? '#111418' : '#ffffff');
  }
  let pattern = null;
  const masked = get('--al-masked');
  const line = get('--al-masked-line');
  return {
    font: css.fontFamily || 'sans-serif',
    text: get('--al-text'),
    accent: get('--al-accent'),
    focus: get('--al-focus'),
    ramp,
    rampRGBA,
    ink,
    hatch(ctx) {
      if (!pattern) {
        const tile = document.createElement('canvas');
        tile.width = tile.height = 8;
        const t = tile.getContext('2d');
        t.fillStyle = masked;
        t.fillRect(0, 0, 8, 8);
        t.strokeStyle = line;
        t.lineWidth = 1.5;
        t.beginPath();
        t.moveTo(-2, 10);
        t.lineTo(10, -2);
        t.moveTo(-2, 2);
        t.lineTo(2, -2);
        t.moveTo(6, 10);
        t.lineTo(10, 6);
        t.stroke();
        pattern = ctx.createPattern(tile, 'repeat');
      }
      return pattern;
    },
  };
}

// An opaque [r, g, b] as one ImageData pixel read through a Uint32Array (the platform's byte order).
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
function rgba([r, g, b]) {
  return (LITTLE_ENDIAN ? ((255 << 24) | (b << 16) | (g << 8) | r) : ((r << 24) | (g << 16) | (b << 8) | 255)) >>> 0;
}

function parseColor(text) {
  const hex = /^#([0-9a-f]{6})$/i.exec(text);
  if (hex) return [0, 2, 4].map((k) => parseInt(hex[1].slice(k, k + 2), 16));
  const rgb = /rgba?\(\s*(\d+)[ ,]+(\d+)[ ,]+(\d+)/i.exec(text);
  return rgb ? rgb.slice(1, 4).map(Number) : [128, 128, 128];
}

// Relative luminance (WCAG) of an sRGB colour, to choose dark or light text on a cell.
function luminance(rgb) {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function clip(ctx, text, maxWidth) {
  if (ctx.measureText(text).width <= maxWidth) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > maxWidth) cut = cut.slice(0, -1);
  return `${cut}…`;
}

customElements.define('attention-heatmap', AttentionHeatmap);
