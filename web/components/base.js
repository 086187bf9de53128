// The one base of every element, lab and lesson.
//
//   class MyView extends AlElement {
//     static styles = [sheet(`...`)];          // after the theme and the basics
//     static template = `<div class="x"></div>`; // static markup, never user text
//     render() { ... }                          // draws the element's inputs; at most once per microtask
//   }
//
// Words: the template names them by key (data-t="bars.entropy", data-t-html, data-t-attrs; see
// web/i18n/dom.js localize) and holds no text of its own; render() reads `this.strings`. Setting
// `.strings` (the strings of a language, web/i18n/i18n.js) writes the template's words again,
// calls stringsChanged() (an element hands them to the elements inside it there) and renders.
//
// The convention every element follows, the platform's own: inputs are properties (setting one
// calls invalidate(); drawnInputs() below defines the plain ones); what the user asks for goes
// out as `input` (while it changes) and `change` (when it is settled) events, after which the
// element's `.value` holds it. Native input/change events of the controls inside a shadow root
// stop at the root, so a host only ever sees its children's own events.
import { localize } from '../i18n/dom.js';
import { english } from '../i18n/i18n.js';
import { base, theme } from './theme.js';

// Where there is no DOM (a static site's server render — Docusaurus, Next — importing the
// element's module in Node) the classes are declared over a stand-in and nothing is defined.
const ElementBase = globalThis.HTMLElement ?? class {};

/**
 * Defines the custom element `name` once: not on a server (no customElements), and not again
 * when a second copy of the module loads (a notebook re-running its cell, a page with two bundles).
 */
export function define(name, element) {
  if (globalThis.customElements && !customElements.get(name)) customElements.define(name, element);
}

export { ElementBase };

/**
 * Passes each property of `names` that a page set on `element` before its class was defined
 * through the class's setter: until then the value sits on the element as an own property that
 * hides the accessor. Call it once the class is in force (constructor or connectedCallback).
 */
export function takeEarlyProperties(element, names) {
  for (const name of names) {
    if (!Object.hasOwn(element, name)) continue;
    const value = element[name];
    delete element[name];
    element[name] = value;
  }
}

/**
 * Gives `Element` an input property per entry of `inputs` (name → check, or null): it reads null
 * until set, and setting it runs the check (which throws on a wrong value), keeps the value and
 * draws again (invalidate).
 *
 *   drawnInputs(LessonPredict, { results: null, prediction: (id) => { if (!known(id)) throw ... } });
 */
export function drawnInputs(Element, inputs) {
  for (const [name, check] of Object.entries(inputs)) {
    const values = new WeakMap();
    Object.defineProperty(Element.prototype, name, {
      configurable: true,
      get() {
        return values.has(this) ? values.get(this) : null;
      },
      set(value) {
        check?.(value);
        values.set(this, value);
        this.invalidate();
      },
    });
  }
}

export class AlElement extends ElementBase {
  /** Constructable sheets of the element, adopted after the theme and the basics. */
  static styles = [];
  /** Static markup of the shadow root (no user text: that is set as text later). */
  static template = '';

  #scheduled = false;
  #strings = english();

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [theme, base, ...this.constructor.styles];
    root.innerHTML = this.constructor.template;
    localize(root, this.#strings);
    for (const type of ['input', 'change']) root.addEventListener(type, (event) => this.#stopInner(event));
    root.addEventListener('keydown', keepKeys);
  }

  /** The shadow root's first element matching `selector`. */
  $(selector) {
    return this.shadowRoot.querySelector(selector);
  }

  /** Schedules render() for the end of the current task: several changes draw once. */
  invalidate() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (this.isConnected) this.render();
    });
  }

  /** Draws the element from its inputs. */
  render() {}

  /** The words the element shows (web/i18n/i18n.js): English until it is handed others. */
  get strings() {
    return this.#strings;
  }

  set strings(strings) {
    if (strings === this.#strings) return;
    this.#strings = strings;
    localize(this.shadowRoot, strings);
    this.stringsChanged();
    this.invalidate();
  }

  /** Called when the words change, after the template's are written: hand them on here. */
  stringsChanged() {}

  connectedCallback() {
    // words handed over before this element's class was defined: through the setter, before anything is shown
    takeEarlyProperties(this, ['strings']);
    this.invalidate();
  }

  /** Tells the host that `.value` changed: 'input' while the user changes it, 'change' when settled. */
  emit(type = 'input') {
    this.dispatchEvent(new Event(type, { bubbles: true }));
  }

  /**
   * Called with every native input/change event from inside the shadow root, which stops there:
   * an element turns the ones that matter into its own emit().
   */
  onInnerInput(_event) {}

  #stopInner(event) {
    if (event.target === this) return;
    event.stopPropagation();
    this.onInnerInput(event);
  }
}

// Keys a control inside a shadow root uses stop at the root. Outside, the focused control is the
// host element (the event is retargeted to it), which a page's keyboard shortcuts do not see as
// a control: a slide deck (reveal.js, which skips only input, textarea and contenteditable
// targets) turned the slide when the learner moved a slider or a heatmap's cell with an arrow
// key, and took letters typed into a field as its shortcuts. Tab and Escape, and keys with Ctrl,
// Alt or Meta, go on: they belong to the page. The elements' own handlers sit inside their roots
// and run first.
const NAVIGATION_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown', ' ', 'Enter']);
const TEXT_INPUTS = new Set(['text', 'search', 'number', 'email', 'url', 'tel', 'password']);

export function keepKeys(event) {
  if (event.key === 'Tab' || event.key === 'Escape' || event.ctrlKey || event.altKey || event.metaKey) return;
  const target = event.composedPath()[0];
  const typing = target.isContentEditable || target.localName === 'textarea' || (target.localName === 'input' && TEXT_INPUTS.has(target.type));
  if (typing || NAVIGATION_KEYS.has(event.key)) event.stopPropagation();
}

// Small DOM functions every element draws with (presentation only).

/**
 * Writes text only when it changes: an unchanged view costs no style or layout work. An
 * element holding one Text node keeps it (its data is rewritten): no node is replaced, so
 * nothing is restyled or re-attached, only the text laid out again.
 */
export function setText(element, text) {
  const node = element.firstChild;
  if (node !== null && node === element.lastChild && node.nodeType === Node.TEXT_NODE) {
    if (node.data !== text) node.data = text;
  } else if (element.textContent !== text) element.textContent = text;
}

/** Sets `hidden` only when it changes: writing the same value still restyles the element. */
export function setHidden(element, hidden) {
  if (element.hidden !== hidden) element.hidden = hidden;
}

/**
 * A box that scrolls sideways says so: `scrolls` sets its data-scrolls attribute and `text` its
 * data-more, which the style sheet (SCROLLS_CSS) shows above the content at the box's left edge,
 * where it stays as the box scrolls — a heatmap or table wider than a phone's screen shows that
 * there is more of it.
 */
export function setScrolls(box, scrolls, text) {
  if (box.hasAttribute('data-scrolls') !== scrolls) box.toggleAttribute('data-scrolls', scrolls);
  if (scrolls && box.dataset.more !== text) box.dataset.more = text;
}

/** setScrolls for every `.scroll` box of `root`, measured (it reads the layout: call it after one). */
export function markScrolling(root, text) {
  for (const box of root.querySelectorAll('.scroll')) setScrolls(box, box.scrollWidth > box.clientWidth + 1, text);
}

/** The style of a box marked by setScrolls (its words, kept in view at its left). */
export const SCROLLS_CSS = `.scroll[data-scrolls]::before { content: attr(data-more); display: block; position: sticky; left: 0;
    width: fit-content; max-width: 100%; margin: 0 0 4px; font-size: 12px; color: var(--_muted); white-space: normal; }`;

/** Text made safe to put into HTML markup. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
