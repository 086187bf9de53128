// KaTeX, served from web/vendor/katex/ (copied from the npm package by scripts/build.sh; no
// CDN). KaTeX renders to HTML with inline styles only — no eval — so it runs under the page's
// strict Content-Security-Policy.
import katex from '../vendor/katex/katex.mjs';

const CSS_URL = new URL('../vendor/katex/katex.min.css', import.meta.url).href;

/**
 * A <link> to KaTeX's stylesheet for a shadow root. The same sheet is also put in the
 * document's <head> once: @font-face rules inside a shadow root are ignored by browsers.
 */
export function katexStyles() {
  if (!document.head.querySelector(`link[href="${CSS_URL}"]`))
    document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: CSS_URL }));
  return Object.assign(document.createElement('link'), { rel: 'stylesheet', href: CSS_URL });
}

/** An element holding the typeset formula `source` (inline, or display when display is true). */
export function tex(source, { display = false } = {}) {
  const el = document.createElement(display ? 'div' : 'span');
  el.className = 'tex';
  el.innerHTML = katex.renderToString(source, { displayMode: display, throwOnError: true, output: 'htmlAndMathml' });
  return el;
}
