// The language of an element on a page, and its words put into its shadow root.
//
// An outermost element (<attention-lab>, <attention-lesson>) speaks, in this order:
//   1. its own `lang` attribute            <attention-lab lang="nb">
//   2. the page's URL parameter `lang`     index.html?lang=nb
//   3. the host page's language            the nearest ancestor's lang, up to <html lang="nb">
//   4. the reader's browser                navigator.languages
// The first of 1–3 that is given decides (a language without a table is English: a German page
// gets English, not the browser's Norwegian); only when none is given does the browser.
// Elements inside an element are handed its strings (`.strings`), never resolve their own.
import { DEFAULT_LANGUAGE, LANGUAGES, loadStrings, matchLanguage, pickLanguage } from './i18n.js';

/** The language (one of LANGUAGES) `element` speaks; `inherited` (optional) stands in for 3. */
export function languageFor(element, { inherited = null } = {}) {
  const given = [element.getAttribute('lang'), urlLanguage(), inherited, hostLanguage(element)];
  for (const tag of given) if (tag) return matchLanguage(tag) ?? DEFAULT_LANGUAGE;
  return pickLanguage(globalThis.navigator?.languages ?? [globalThis.navigator?.language]);
}

function urlLanguage() {
  return globalThis.location ? new URLSearchParams(location.search).get('lang') : null;
}

// The lang of the nearest ancestor that has one, through shadow roots to the document.
function hostLanguage(element) {
  let node = element.parentNode;
  while (node) {
    if (node.nodeType === Node.ELEMENT_NODE && node.hasAttribute('lang')) return node.getAttribute('lang');
    node = node.parentNode ?? node.host ?? null;
  }
  return null;
}

/** Whether `tag` names a language with a table (for a warning about an attribute). */
export function speaks(tag) {
  return LANGUAGES.includes(matchLanguage(tag));
}

const listeners = new Set();
let observer = null;

/**
 * Calls `callback` when something a language is read from changes other than an element's own
 * attribute: the document's lang, the browser's languages, the URL (history navigation).
 * Returns the function that stops it.
 */
export function onLanguageChange(callback) {
  if (!observer) {
    const notify = () => {
      for (const listener of listeners) listener();
    };
    observer = new MutationObserver(notify);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    addEventListener('languagechange', notify);
    addEventListener('popstate', notify);
  }
  listeners.add(callback);
  return () => listeners.delete(callback);
}

/**
 * Keeps an outermost element in its language (languageFor): chooses it now and whenever
 * something it is read from changes, loads that language's strings and sets `element.strings`
 * (a later choice wins over one still loading). Returns the function that stops it.
 */
export function followLanguage(element) {
  let asked = null;
  const choose = () => {
    const language = languageFor(element);
    if (language === asked) return;
    asked = language;
    loadStrings(language).then((strings) => {
      if (asked === language) element.strings = strings;
    });
  };
  const stop = onLanguageChange(choose);
  choose();
  return stop;
}

/**
 * Writes the words of `strings` into `root` (a shadow root or an element) where its markup asks
 * for them: data-t="key" → the text, data-t-html="key" → markup of our own table,
 * data-t-attrs="aria-label:key placeholder:key2" → those attributes. The root's top-level
 * elements get `lang`, so that a screen reader voices the words in their language.
 */
export function localize(root, strings) {
  for (const child of root.children) if (child.lang !== strings.lang) child.lang = strings.lang;
  for (const element of root.querySelectorAll('[data-t], [data-t-html], [data-t-attrs]')) {
    const text = element.getAttribute('data-t');
    if (text) setIfChanged(element, 'textContent', strings.t(text));
    const html = element.getAttribute('data-t-html');
    if (html) setIfChanged(element, 'innerHTML', strings.html(html));
    for (const pair of (element.getAttribute('data-t-attrs') ?? '').split(' ')) {
      if (!pair) continue;
      const [attribute, key] = pair.split(':');
      const value = strings.t(key);
      if (element.getAttribute(attribute) !== value) element.setAttribute(attribute, value);
    }
  }
}

function setIfChanged(element, property, value) {
  if (element[property] !== value) element[property] = value;
}
