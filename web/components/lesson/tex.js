// KaTeX, served from web/vendor/katex/ (copied from the npm package by scripts/build.sh; no
// CDN). Formulas are typeset with katex.render, which builds DOM nodes and sets their styles
// through the CSSOM (allowed under `style-src 'self'`); renderToString's markup carries
// style="…" attributes, which that policy blocks. Only the lesson's own TeX is typeset: a
// learner's words are never part of a formula (web/views/step.js).
import katex from '../../vendor/katex/katex.mjs';
import { Instrument } from './instrument.js';

/** KaTeX's style sheet, for a shadow root's <link> (no <style> element needed). */
export const KATEX_CSS = new URL('../../vendor/katex/katex.min.css', import.meta.url).href;

/**
 * Puts KaTeX's sheet in the document once: browsers ignore @font-face inside a shadow root, so
 * the fonts are declared by the document's copy and used by every shadow root's.
 */
export function loadKatexFonts() {
  if (document.head.querySelector(`link[href="${KATEX_CSS}"]`)) return;
  document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: KATEX_CSS }));
}

/** The typeset formula `source` as an element (a block when `display`), for toDom's `tex`. */
export function texElement(source, display = false) {
  const element = document.createElement(display ? 'div' : 'span');
  element.className = 'tex';
  katex.render(source, element, { displayMode: display, throwOnError: true, output: 'htmlAndMathml' });
  return element;
}

/** An instrument whose view holds formulas: KaTeX's sheet in its shadow root, its fonts loaded. */
export class TexInstrument extends Instrument {
  static template = `<link rel="stylesheet" href="${KATEX_CSS}"><div class="root"></div>`;
  static tex = texElement;

  constructor() {
    super();
    loadKatexFonts();
  }
}
