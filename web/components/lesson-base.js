// Shared plumbing of the lesson's instruments: a base element whose inputs are plain
// properties (engine, tokens, vectors, dk, scaled, selectedRow, seed, and the current
// setting's q, k, labels, temperature, causal, projection), re-rendered once per microtask
// after any change and whenever its width changes; and small SVG helpers.
// Presentation math only (scales, ticks, colours): every number shown comes from the engine.
//
// Two kinds of numbers, two sources:
//   the current setting (one row at one d_k) — `current()`: the q and k the page gives (the
//     lab's own Q and K: identity, random or pasted), with the lab's scaling, temperature and
//     causal mask, through engine.attention: the same numbers as the lab's bars. Standalone
//     (no q, k given), head 0 of engine.headProjections of the vectors at dk — which is what
//     the lab's Random mode uses, so a standalone instrument shows the lab's Random numbers.
//   the sweeps over d_k — engine.saturationSweep / tokenVarianceCurve of the vectors, which
//     use that same head-0 projection at every width.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes and children (strings become text nodes). */
export function svg(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const child of [].concat(children)) el.append(child);
  return el;
}

/** Creates an HTML element with attributes and children. */
export function html(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const child of [].concat(children)) el.append(child);
  return el;
}

export const linear = (d0, d1, r0, r1) => (v) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0);
export const log2Scale = (d0, d1, r0, r1) => (v) => r0 + ((Math.log2(v) - Math.log2(d0)) / (Math.log2(d1) - Math.log2(d0))) * (r1 - r0);

/** A number for people: ∞ and NaN spelled out, few significant digits. */
export function fmt(x, digits = 3) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e5 || a < 1e-3) return x.toExponential(digits - 1).replace('e+', 'e').replace('-', '−');
  return Number(x.toPrecision(digits)).toString().replace('-', '−');
}

/** Powers of two from lo to hi: the widths every sweep uses. */
export function powersOfTwo(lo = 1, hi = 1024) {
  const out = [];
  for (let d = lo; d <= hi; d *= 2) out.push(d);
  return out;
}

// Sequential colour for a weight in [0, 1]: background to the accent, perceptually smooth enough.
export function weightColor(p) {
  const v = Math.max(0, Math.min(1, p));
  return `color-mix(in oklab, var(--accent) ${Math.round(Math.sqrt(v) * 100)}%, var(--cell))`;
}

// Diverging colour for a signed value relative to `extent`.
export function divergingColor(v, extent) {
  const f = extent > 0 ? Math.max(-1, Math.min(1, v / extent)) : 0;
  const hue = f >= 0 ? 'var(--pos)' : 'var(--neg)';
  return `color-mix(in oklab, ${hue} ${Math.round(Math.sqrt(Math.abs(f)) * 100)}%, var(--cell))`;
}

/** A max weight or entropy as the lab prints it (probability-bars.js: 3 decimals). */
export function fixed3(x) {
  return Number.isFinite(x) ? x.toFixed(3) : fmt(x);
}

/** Styles every instrument shares; light and dark follow the page's colour scheme. */
export const BASE_CSS = `
:host { display: block; font: 14px/1.45 system-ui, sans-serif; color: var(--fg);
  --fg: #1d2330; --muted: #5d6677; --bg: #ffffff; --cell: #f1f3f7; --grid: #d9dde5;
  --accent: #2f5fd0; --unscaled: #d9622b; --scaled: #2f5fd0; --pos: #2f5fd0; --neg: #c8372d;
  --bad: #b3261e; --bad-bg: #fdecea; --band: rgba(120, 130, 150, 0.13); }
@media (prefers-color-scheme: dark) {
  :host { --fg: #e6e9ef; --muted: #a3acbd; --bg: #161a22; --cell: #232938; --grid: #3a4254;
    --accent: #7aa2ff; --unscaled: #ff9a5c; --scaled: #7aa2ff; --pos: #7aa2ff; --neg: #ff7b6e;
    --bad: #ff8a80; --bad-bg: #3b1f1f; --band: rgba(200, 210, 230, 0.10); }
}
* { box-sizing: border-box; }
.explain { margin: 0 0 .6em; max-width: 70ch; }
.note { color: var(--muted); font-size: 12.5px; margin: .3em 0; }
.stats { font-variant-numeric: tabular-nums; }
svg { display: block; overflow: visible; }
svg text { fill: var(--fg); font: 11px system-ui, sans-serif; }
svg .muted { fill: var(--muted); }
.axis line, .axis path { stroke: var(--grid); }
.legend { display: flex; flex-wrap: wrap; gap: .4em 1.2em; font-size: 12.5px; margin: .3em 0; }
.swatch { display: inline-block; width: .9em; height: .9em; border-radius: 2px; vertical-align: -2px; margin-right: .3em; }
.empty { color: var(--muted); font-style: italic; }
label.inline { display: inline-flex; gap: .5em; align-items: center; font-size: 13px; }
h4 { margin: .2em 0; font-size: 13.5px; font-weight: 600; }
.panels { display: grid; gap: 1.2em; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); align-items: start; }
.scroll { overflow-x: auto; margin: .3em 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 12.5px; }
th, td { padding: .22em .55em; text-align: right; border-bottom: 1px solid var(--grid); white-space: nowrap; }
th[scope=row] { text-align: left; font-weight: normal; }
thead th { font-weight: 600; }
`;

/**
 * Base of every instrument. Subclasses set `static inputs` (extra property names), implement
 * `draw(root, width)` and may define `css`. Inputs are plain properties: setting one schedules
 * a render; nothing is computed until the element has an engine and is connected.
 */
export class LessonElement extends HTMLElement {
  static inputs = [];
  /** Fewer tokens than this: a prompt instead of the instrument. */
  static minTokens = 1;
  /** True for an instrument of the current setting: it draws from q and k alone (no word vectors needed). */
  static current = false;
  static commonInputs = [
    'engine', 'tokens', 'vectors', 'dk', 'scaled', 'selectedRow', 'seed',
    // the current setting (see the top of this file); all optional
    'q', 'k', 'queryLabels', 'keyLabels', 'temperature', 'causal', 'projection',
  ];

  static define(tag) {
    for (const name of [...this.commonInputs, ...this.inputs]) {
      if (Object.prototype.hasOwnProperty.call(this.prototype, name)) continue;
      Object.defineProperty(this.prototype, name, {
        get() {
          return this._inputs[name];
        },
        set(value) {
          this._inputs[name] = value;
          this.invalidate();
        },
        configurable: true,
      });
    }
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  constructor() {
    super();
    this._inputs = { dk: 64, scaled: true, selectedRow: 0, seed: 1 };
    this._pending = false;
    this._width = 0;
    this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = BASE_CSS + (this.css ?? '');
    this._root = document.createElement('div');
    this.shadowRoot.append(style, this._root);
  }

  connectedCallback() {
    // Properties set before the element was upgraded shadow the accessors: re-apply them.
    for (const name of [...this.constructor.commonInputs, ...this.constructor.inputs]) {
      if (Object.prototype.hasOwnProperty.call(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
    this._observer = new ResizeObserver((entries) => {
      const width = Math.floor(entries[0].contentRect.width);
      if (width !== this._width) {
        this._width = width;
        this.invalidate();
      }
    });
    this._observer.observe(this);
    this.invalidate();
  }

  disconnectedCallback() {
    this._observer?.disconnect();
  }

  /** The token count t when tokens and vectors are consistent, else 0. */
  get t() {
    const { tokens, vectors } = this._inputs;
    if (!tokens || !vectors || tokens.length === 0 || vectors.length !== tokens.length * 100) return 0;
    return tokens.length;
  }

  /**
   * compute() once for each new `deps` (typed arrays and arrays compared by content), else the
   * cached value: for the sweeps over every d_k, which neither d_k nor the query row changes.
   */
  memo(name, deps, compute) {
    this._memo ??= new Map();
    const entry = this._memo.get(name);
    if (entry && entry.deps.length === deps.length && entry.deps.every((d, i) => sameValue(d, deps[i]))) return entry.value;
    const value = compute();
    this._memo.set(name, { deps: deps.map((d) => (ArrayBuffer.isView(d) || Array.isArray(d) ? d.slice() : d)), value });
    return value;
  }

  /** The selected query row, clamped to the rows drawn (the current setting's, or the sentence's). */
  get row() {
    const rows = this.constructor.current ? this.current().n : this.t;
    return Math.max(0, Math.min(this._inputs.selectedRow ?? 0, rows - 1));
  }

  /**
   * The current setting: { q (n×d), k (m×d), n, m, d, queryLabels, keyLabels, options, given }
   * from the inputs q, k (given: true) or, standalone, head 0's projections of the vectors at
   * dk. `options` are engine.attention's: the lab's scaling, temperature and causal mask.
   */
  current() {
    const { engine, q, k, dk, tokens, vectors, seed } = this._inputs;
    const given = Boolean(q && k);
    return this.memo('current', [given ? q : vectors, given ? k : null, dk, seed, tokens, this._inputs.queryLabels, this._inputs.keyLabels], () => {
      const d = dk;
      const qk = given ? { q, k } : engine.headProjections({ x: vectors, t: this.t, seed, d });
      const n = Math.floor(qk.q.length / d);
      const m = Math.floor(qk.k.length / d);
      const labels = (list, count, prefix) => (list?.length === count ? list : Array.from({ length: count }, (_, i) => tokens?.[i] ?? `${prefix}${i + 1}`));
      return {
        q: qk.q, k: qk.k, n, m, d, given,
        queryLabels: labels(this._inputs.queryLabels, n, 'q'),
        keyLabels: labels(this._inputs.keyLabels, m, 'k'),
      };
    });
  }

  /** engine.attention's options for the current setting (the lab's, or scaled/unscaled with T = 1). */
  attentionOptions({ scaled = this._inputs.scaled } = {}) {
    const { n, m } = this.current();
    return { scale: scaled ? 'sqrt' : 'none', temperature: this._inputs.temperature ?? 1, causal: Boolean(this._inputs.causal) && n === m };
  }

  /** engine.attention over the current setting's q and k; `scaled` overrides the lab's scaling. */
  currentAttention({ scaled = this._inputs.scaled } = {}) {
    const { q, k, n, m, d } = this.current();
    const options = this.attentionOptions({ scaled });
    return this.memo(`attention:${scaled}`, [q, k, d, options.temperature, options.causal], () =>
      this._inputs.engine.attention({ q, k, n, m, d, ...options }),
    );
  }

  /**
   * The drawable rows: the current setting's for an instrument of the current setting when it
   * is given q and k (or has vectors), else the sentence's t.
   */
  get drawableRows() {
    if (this.constructor.current && this._inputs.q && this._inputs.k) return this.current().n;
    return this.t;
  }

  invalidate() {
    if (this._pending) return;
    this._pending = true;
    queueMicrotask(() => {
      this._pending = false;
      if (!this.isConnected || !this._width) return;
      this._root.replaceChildren();
      if (!this._inputs.engine) {
        this._root.append(html('p', { class: 'empty', text: 'Loading the core…' }));
        return;
      }
      if (this.drawableRows < this.constructor.minTokens) {
        const words = this.constructor.minTokens === 1 ? 'a sentence' : `a sentence of at least ${this.constructor.minTokens} words`;
        const text =
          this._inputs.q && !this.t && !this.constructor.current
            ? 'This part needs word vectors: choose Identity or Random in the lab.'
            : `Enter ${words}.`;
        this._root.append(html('p', { class: 'empty', text }));
        return;
      }
      try {
        this.draw(this._root, this._width);
      } catch (error) {
        // A wrong input is shown where the instrument would be, and reported as an error.
        this._root.replaceChildren(html('p', { class: 'empty', text: `Cannot draw: ${error.message}` }));
        console.error(error);
      }
    });
  }
}

/**
 * The sentence an instrument with sweeps over d_k shows when the lab is on Identity, which has
 * no d_k: what the sweeps are instead, and (marked) where the lab's own row sits. Else null.
 */
export function identityNote(projection, { marked = true } = {}) {
  if (projection !== 'identity') return null;
  return html('p', {
    class: 'note identity',
    text:
      'The lab is on Identity (q = k = the 100-d word vectors), which has no d_k to vary: these sweeps show seeded random ' +
      'projections of the same words to each d_k — what the lab shows on Random.' +
      (marked ? ' ◆ marks the lab’s own row, at d = 100.' : ''),
  });
}

/** A ◆ marker at (cx, cy) for the lab's own row on a sweep plot. */
export function labMarker(cx, cy, color, title) {
  const r = 6;
  return svg('path', {
    class: 'lab-marker',
    d: `M${cx},${cy - r}L${cx + r},${cy}L${cx},${cy + r}L${cx - r},${cy}Z`,
    style: `fill:none;stroke:${color};stroke-width:2`,
  }, svg('title', {}, title));
}

/** Equal values, or arrays / typed arrays with equal elements. */
export function sameValue(a, b) {
  if (a === b) return true;
  const list = (x) => Array.isArray(x) || ArrayBuffer.isView(x);
  if (!list(a) || !list(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A horizontal log₂ axis of key widths at y, with ticks at the powers of two. */
export function widthAxis(g, x, y, dims, { label = 'd_k (log scale)', every = 1 } = {}) {
  const axis = svg('g', { class: 'axis' });
  axis.append(svg('line', { x1: x(dims[0]), x2: x(dims[dims.length - 1]), y1: y, y2: y }));
  dims.forEach((d, i) => {
    if (i % every) return;
    axis.append(svg('line', { x1: x(d), x2: x(d), y1: y, y2: y + 4 }));
    axis.append(svg('text', { x: x(d), y: y + 16, 'text-anchor': 'middle', class: 'muted' }, String(d)));
  });
  axis.append(
    svg('text', { x: (x(dims[0]) + x(dims[dims.length - 1])) / 2, y: y + 32, 'text-anchor': 'middle', class: 'muted' }, label),
  );
  g.append(axis);
}

/** A vertical axis with the given tick values at x (labels to the left). */
export function valueAxis(g, x, y, ticks, { format = fmt, label } = {}) {
  const axis = svg('g', { class: 'axis' });
  for (const v of ticks) {
    axis.append(svg('line', { x1: x - 4, x2: x, y1: y(v), y2: y(v) }));
    axis.append(svg('text', { x: x - 7, y: y(v) + 4, 'text-anchor': 'end', class: 'muted' }, format(v)));
  }
  if (label) axis.append(svg('text', { x: x - 7, y: y(ticks[ticks.length - 1]) - 10, 'text-anchor': 'start', class: 'muted' }, label));
  g.append(axis);
}

/** A polyline through points [x, y]. */
export function line(points, attrs) {
  return svg('polyline', { fill: 'none', 'stroke-width': 2, ...attrs, points: points.map((p) => p.join(',')).join(' ') });
}

/** A legend row: [[colour, label, style?], …]. */
export function legend(items) {
  return html(
    'div',
    { class: 'legend' },
    items.map(([color, text, dashed]) =>
      html('span', {}, [
        html('span', {
          class: 'swatch',
          style: dashed ? `border: 2px dashed ${color}; background: none` : `background: ${color}`,
        }),
        text,
      ]),
    ),
  );
}
