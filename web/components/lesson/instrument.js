// The one base of the lesson's instruments: an AlElement that draws `view(results, settings,
// theme, { width })` (a pure function of web/views/) at its own width, in the theme's concrete
// colours, whenever its results, its settings or its width change.
//
//   class VarianceLab extends Instrument { static view = varianceView; }
//   element.results = model.variance(state);          // or { empty: 'why there is nothing to draw', key }
//   element.settings = { projection: state.projection, heading: 4 };   // heading: the level of its own headings
//   element.strings = strings;                         // the reader's language (the views get them as settings.strings)
//
// Redraws patch the shadow DOM in place (same tag at the same place: attributes and text
// updated, the node kept), so a slider or a key button keeps focus and a drag goes on while the
// numbers around it change, and a formula is typeset again only when its TeX changes.
// What the learner asks for (a key, a number of heads, a temperature) goes out as `input` and
// `change` events, after which `.value` holds it, e.g. { heads: 6 }: the lesson routes it.
import { AlElement, SCROLLS_CSS, drawnInputs, markScrolling } from '../base.js';
import { TYPE_CSS, readTheme, sheet } from '../theme.js';
import { h, toDom } from '../../views/h.js';

/** What every instrument's shadow root shares, after the theme and the basics. */
export const instrumentSheet = sheet(`
  /* its own background (the theme's card surface): readable on a host page of any colour */
  :host { display: block; font: ${TYPE_CSS.body}/1.5 var(--_font); color: var(--_text); background: var(--_surface); }
  .explain { margin: 0 0 .6em; max-width: 70ch; }
  .note { color: var(--_muted); font-size: ${TYPE_CSS.note}; margin: .3em 0; }
  .stats { font-variant-numeric: tabular-nums; }
  svg { display: block; overflow: visible; }
  .legend { display: flex; flex-wrap: wrap; gap: .4em 1.2em; font-size: ${TYPE_CSS.note}; margin: .3em 0; }
  .legend .swatch { display: inline-block; width: .9em; height: .9em; vertical-align: -2px; margin-right: .3em; }
  .empty { color: var(--_muted); font-style: italic; }
  label.inline { display: inline-flex; gap: .5em; align-items: center; font-size: ${TYPE_CSS.note}; }
  /* every control at least 24 × 24 px (WCAG 2.2's target size) */
  input[type=range] { height: 24px; margin: 0; accent-color: var(--_accent); }
  h2, h3, h4, h5, h6 { margin: .2em 0; font-size: ${TYPE_CSS.body}; font-weight: 600; }
  .panels { display: grid; gap: 1.2em; grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr)); align-items: start; }
  .scroll { overflow-x: auto; margin: .3em 0; }
  ${SCROLLS_CSS}
  table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: ${TYPE_CSS.note}; }
  th, td { padding: .22em .55em; text-align: right; border-bottom: 1px solid var(--_grid); white-space: nowrap; }
  th[scope=row] { text-align: left; font-weight: normal; }
  thead th { font-weight: 600; }
  /* compact (set by <attention-lesson view="compact">, a slide): the picture without its prose */
  :host([compact]) :is(.explain, .note) { display: none; }
`);

// The SVG colours are concrete: a change of the reader's colour scheme redraws.
const DARK = globalThis.matchMedia?.('(prefers-color-scheme: dark)') ?? null;

export class Instrument extends AlElement {
  static styles = [instrumentSheet];
  static template = '<div class="root"></div>';
  /** (results, settings, theme, { width }) → view nodes: the picture this element draws. */
  static view = null;
  /** Draws a formula for toDom (KaTeX for step by step); null draws its TeX source. */
  static tex = null;

  #settings = {};
  #width = 0;
  #drawn = 0; // draws so far: only the latest one is measured for scrolling
  #observer = null;
  #value = null;

  /** The settings the view labels (e.g. { projection }). */
  get settings() {
    return this.#settings;
  }

  set settings(settings) {
    this.#settings = settings ?? {};
    this.invalidate();
  }

  /** The learner's latest request, e.g. { key: 2 } (null until there is one). */
  get value() {
    return this.#value;
  }

  connectedCallback() {
    super.connectedCallback();
    this.#observer = new ResizeObserver((entries) => {
      const width = Math.floor(entries[0].contentRect.width);
      if (width !== this.#width) {
        this.#width = width;
        this.invalidate();
      }
    });
    this.#observer.observe(this);
    DARK?.addEventListener('change', this.themeChanged);
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    DARK?.removeEventListener('change', this.themeChanged);
  }

  /** Draws again in the colours of now (the colour scheme, a theme attribute or a --al-* property changed). */
  themeChanged = () => this.invalidate();

  /** Sets `.value` to the learner's request and tells the host ('input', then 'change' once settled). */
  request(value, type = 'input') {
    this.#value = Object.freeze({ ...value });
    this.emit(type);
  }

  /** Called after each drawing with its theme: a subclass paints here what the view placed but cannot draw (canvases, the lab's elements). */
  drawn(_theme) {}

  render() {
    if (!this.#width) return;
    const root = this.$('.root');
    const results = this.results;
    const strings = this.strings;
    if (!results) return patch(root, [message(strings.t('lesson.loading'))]);
    if (results.empty) return patch(root, [message(results.key ? strings.t(results.key, results.params) : results.empty)]);
    try {
      const theme = readTheme(this);
      patch(root, [this.constructor.view(results, { ...this.#settings, strings }, theme, { width: this.#width })], this.constructor.tex);
      this.drawn(theme);
      // a table or plot wider than the room says that it scrolls, measured once the frame is laid out
      const drawn = ++this.#drawn;
      requestAnimationFrame(() => setTimeout(() => drawn === this.#drawn && markScrolling(root, strings.t('lab.scrolls'))));
    } catch (error) {
      // a wrong input is shown where the instrument would be, and reported as an error
      root.replaceChildren(toDom(message(strings.t('lesson.cannotDraw', { message: error.message }))));
      console.error(error);
    }
  }
}

// results: what to draw (a model method's), or { empty: text, key?, params? } (key: the text in the string tables)
drawnInputs(Instrument, { results: null });

function message(text) {
  return h('p', { class: 'empty' }, text);
}

// ---- patching the DOM to a view tree ----

const SVG_NS = 'http://www.w3.org/2000/svg';
const texSources = new WeakMap(); // a typeset formula's element → the TeX (and mode) it shows
// an element → the view node it was last brought to. Views hand back the same node for what they
// draw again unchanged (the twins' curves); such a subtree is not walked again.
const applied = new WeakMap();

/** Makes `parent`'s children the DOM of `nodes`, reusing every node of the same kind in its place. */
function patch(parent, nodes, tex = null, svg = parent.namespaceURI === SVG_NS && parent.localName !== 'foreignObject') {
  const children = parent.childNodes;
  nodes.forEach((node, i) => {
    const current = children[i] ?? null;
    if (current && update(current, node, tex, svg)) return;
    const fresh = create(node, tex, svg);
    if (current) current.replaceWith(fresh);
    else parent.append(fresh);
  });
  while (children.length > nodes.length) parent.lastChild.remove();
}

function create(node, tex, svg) {
  if (node.tag !== '#tex') return toDom(node, { tex, svg });
  const element = toDom(node, { tex });
  texSources.set(element, texKey(node));
  return element;
}

const texKey = (node) => `${node.attrs.display ? 'display' : 'inline'}:${node.attrs.source}`;

// Brings `current` to `node` when they are of the same kind (returns true), else leaves it.
function update(current, node, tex, svg) {
  if (typeof node === 'string') {
    if (current.nodeType !== Node.TEXT_NODE) return false;
    if (current.data !== node) current.data = node;
    return true;
  }
  if (node.tag === '#tex') return texSources.get(current) === texKey(node);
  if (applied.get(current) === node) return true;
  const inSvg = svg || node.tag === 'svg';
  if (current.nodeType !== Node.ELEMENT_NODE || current.localName !== node.tag) return false;
  if ((current.namespaceURI === SVG_NS) !== inSvg) return false;
  let kept = 0; // the node's attributes, all set below: any other the element has is removed after
  for (const name in node.attrs) {
    const value = node.attrs[name];
    if (value === null || value === undefined || value === false) continue;
    kept++;
    const text = value === true ? '' : String(value);
    if (current.getAttribute(name) === text) continue;
    current.setAttribute(name, text);
    // an input the learner has moved no longer follows its value attribute: set the property too
    if (name === 'value' && 'value' in current) current.value = text;
  }
  if (current.attributes.length > kept) {
    for (const attribute of [...current.attributes]) {
      const value = node.attrs[attribute.name];
      // an aside the learner opened (<details open>) stays open: a view never sets `open`
      if (attribute.name === 'open' && current.localName === 'details' && !(attribute.name in node.attrs)) continue;
      if (value === undefined || value === null || value === false) current.removeAttribute(attribute.name);
    }
  }
  patch(current, node.children, tex, inSvg && node.tag !== 'foreignObject');
  applied.set(current, node);
  return true;
}
