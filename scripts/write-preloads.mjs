// The first view's files, hinted in the <head> of the pages that open on the lab (index.html,
// embed.html): one list, here, written into each page between its two markers, so the pages
// cannot drift apart. tests/js/preloads.test.mjs fails when a page holds another list;
// tests/browser/lab.test.mjs and embed.test.mjs check it against what each page really loads.
//   node scripts/write-preloads.mjs           writes the pages
//   node scripts/write-preloads.mjs --check   exits 1, naming the page, when one is not as written
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const WEB = new URL('../web/', import.meta.url);

/** The pages that carry the list. */
export const PAGES = Object.freeze(['index.html', 'embed.html']);

export const BEGIN = '<!-- the first view\'s files, and why in this order: scripts/write-preloads.mjs -->';
export const END = '<!-- end of the first view\'s files -->';

// In the order they are needed, fetched in parallel rather than level by level: first the small
// module of the URL state and what it needs (the tokenizer and its English words included), which
// asks for the first sentence's word vectors while the rest arrives (over a slow link, responses
// arrive about in the order they were asked for); then the core and the demo sentence's words (the
// longest path to the first result: the wasm is compiled while the modules arrive); then the lab's
// modules. The paste panel, share and export, and the lesson follow the first paint.
// [what, the file under web/]: a module, a script (the URL state, run first), or bytes to fetch.
export const FIRST_VIEW = Object.freeze([
  ['script', './page-url.js'],
  ...['./lab/assets.js', './core/vocab.js', './core/errors.js', './lab/tokenize.js', './lab/url.js', './lesson/steps.js', './lab/settings.js',
    './i18n/i18n.js', './i18n/en.js', './i18n/format.js'].map((file) => ['module', file]),
  ['fetch', './assets/glove/first-view.bin'],
  ...['./core/engine.js', './core/calls.js', './core/trainer.js', './build/attention-simd.mjs'].map((file) => ['module', file]),
  ['fetch', './build/attention-simd.wasm'],
  ...['./components/lab/attention-lab.js', './components/lab/attention-controls.js', './components/lab/attention-heatmap.js',
    './components/lab/heatmap-painter.js', './components/lab/probability-bars.js', './components/lab/token-chips.js',
    './components/base.js', './components/theme.js', './core/arguments.js', './core/held.js', './lab/inputs.js',
    './lab/results.js', './lab/state.js', './views/theme.js', './views/heatmap.js', './views/raster.js', './views/bars.js',
    './views/color.js', './views/h.js', './i18n/dom.js', './i18n/page.js'].map((file) => ['module', file]),
].map(Object.freeze));

const TAG = {
  script: (file) => `<script type="module" src="${file}"></script>`,
  module: (file) => `<link rel="modulepreload" href="${file}">`,
  fetch: (file) => `<link rel="preload" href="${file}" as="fetch" crossorigin>`,
};

/** The lines between the markers, each indented as the marker is. */
export function preloadLines(indent) {
  return FIRST_VIEW.map(([kind, file]) => indent + TAG[kind](file));
}

/** `html` with the list written between its markers; a page without both markers throws, naming `page`. */
export function withPreloads(html, page) {
  const begin = html.indexOf(BEGIN);
  const end = html.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${page}: expected the markers ${BEGIN} and ${END}, in that order`);
  const indent = html.slice(html.lastIndexOf('\n', begin) + 1, begin);
  return `${html.slice(0, begin + BEGIN.length)}\n${preloadLines(indent).join('\n')}\n${indent}${html.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const page of PAGES) {
    const file = new URL(page, WEB);
    const html = readFileSync(file, 'utf8');
    const written = withPreloads(html, `web/${page}`);
    if (written === html) continue;
    if (check) {
      console.error(`web/${page}: its first view's files are not as scripts/write-preloads.mjs writes them (run it)`);
      stale++;
    } else {
      writeFileSync(file, written);
      console.error(`wrote the first view's files into web/${page}`);
    }
  }
  process.exitCode = stale ? 1 : 0;
}
