// Bundles the notebook widget (web/widget/attention-widget.js) into one ES module,
// web/build/attention-widget.js, with the core's SIMD .wasm inside it: anywidget imports a
// widget's module from a blob: URL, beside which there are no files to fetch. Run by
// scripts/build.sh after web/build/ holds the WebAssembly builds; needs the devDependency esbuild.
//   node scripts/build-widget.mjs
// What changes from the package's modules, and why:
// - web/core/engine.js is imported as web/widget/engine.js, which hands it the SIMD .wasm's bytes
//   (esbuild's binary loader); the scalar loader stays out (a browser without WebAssembly SIMD is
//   told so in the view: the widget carries one build).
// - import.meta.url names a file under the page's address (not the blob: URL, against which a
//   relative address throws on import): the package's other files (the trained model, the word
//   vectors) are not there, and the widget shows only the attention it is given.
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = `${root}web/widget/attention-widget.js`;
const shim = `${root}web/widget/engine.js`;
const out = `${root}web/build/attention-widget.js`;

const widgetEngine = {
  name: 'widget-engine',
  setup(b) {
    b.onResolve({ filter: /(^|\/)engine\.js$/ }, (args) => {
      if (args.importer === shim) return undefined;
      const path = fileURLToPath(new URL(args.path, `file://${args.resolveDir}/`));
      return path === `${root}web/core/engine.js` ? { path: shim } : undefined;
    });
    b.onResolve({ filter: /attention-scalar\.mjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};

await build({
  entryPoints: [entry],
  outfile: out,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  // Node's modules, named only on Node paths of the core's loader and the word vectors' reader
  external: ['node:*', 'fs', 'path', 'module'],
  loader: { '.wasm': 'binary' },
  define: { 'import.meta.url': 'ATTENTION_WIDGET_URL' },
  banner: { js: `// attention-lab's notebook widget (web/widget/attention-widget.js), bundled by scripts/build-widget.mjs.\nconst ATTENTION_WIDGET_URL = new URL('attention-lab/web/build/attention-widget.js', document.baseURI).href;` },
  plugins: [widgetEngine],
  logLevel: 'warning',
});
console.error(`[build] widget: web/build/attention-widget.js, ${(await stat(out)).size} bytes`);
