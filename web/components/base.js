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
// calls invalidate()); what the user asks for goes out as `input` (while it changes) and
// `change` (when it is settled) events, after which the element's `.value` holds it. Native
// input/change events of the controls inside a shadow root stop at the root, so a host only
// ever sees its children's own events.
import { localize } from '../i18n/dom.js';
import { english } from '../i18n/i18n.js';
import { base, theme } from './theme.js';

export class AlElement extends HTMLElement {
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
    // Words handed over before this element's class was defined sit on it as an own property
    // that hides the accessor: take them through it, before anything is shown.
    if (Object.hasOwn(this, 'strings')) {
      const strings = this.strings;
      delete this.strings;
      this.strings = strings;
    }
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

/** Text made safe to put into HTML markup. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
