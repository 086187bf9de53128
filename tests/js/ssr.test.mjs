// A static site's server render (Docusaurus, Next, Astro) imports the element's module in Node,
// where there is no DOM: the import must not throw, and nothing is defined. So must every entry
// point of package.json's "exports", imported by its package name. The Docusaurus
// page of docs/sites.md (the element written in MDX, its module loaded by a script tag) is rendered to a string by
// react-dom/server, as a Docusaurus build renders a page: the element and its attributes are
// written, and nothing imports the element's module. In a page, a second copy of a module (a notebook re-running its cell,
// two bundles) defines nothing twice. Each case runs in a fresh Node process, so no other test's
// globals leak in. Cost: ~3 s (13 processes). A real Docusaurus build is not run here (docs/sites.md).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

// the element's modules, and those it loads later (model-view: for supplied attention)
const MODULES = ['web/components/attention-lab.js', 'web/components/lab/attention-lab.js', 'web/components/lab/lab-share.js', 'web/components/lab/vector-paste.js',
  'web/components/lesson/attention-lesson.js', 'web/components/lesson/model-view.js'];
const ROOT = new URL('../../', import.meta.url);
const PACKAGE = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));
// exports that are files, not modules: the assets (word vectors, weights) are fetched, never imported
const NOT_MODULES = ['./assets/*'];

const run = (source) => execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' });
const NO_DOM = `for (const name of ['window', 'document', 'HTMLElement', 'customElements', 'CSSStyleSheet']) if (name in globalThis) throw new Error(name + ' exists');`;

for (const module of MODULES) {
  test(`${module} imports in Node without a DOM`, () => {
    const out = run(`${NO_DOM}
      const exports = await import('./${module}');
      console.log(JSON.stringify(Object.keys(exports).sort()));`);
    assert.ok(JSON.parse(out).length > 0, `${module} exports something`);
  });
}

test('every entry point of package.json "exports" imports by its package name in Node without a DOM', async (t) => {
  const entries = Object.keys(PACKAGE.exports);
  assert.deepEqual(entries.filter((entry) => entry.includes('*')), NOT_MODULES, 'a new pattern export: say here whether it is a module');
  for (const entry of entries.filter((e) => !NOT_MODULES.includes(e))) {
    const specifier = entry === '.' ? PACKAGE.name : `${PACKAGE.name}/${entry.slice(2)}`;
    await t.test(specifier, () => {
      const json = entry.endsWith('.json') ? ", { with: { type: 'json' } }" : '';
      const out = run(`${NO_DOM}
        const exports = await import('${specifier}'${json});
        console.log(JSON.stringify(Object.keys(exports).sort()));`);
      assert.ok(JSON.parse(out).length > 0, `${specifier} exports something`);
    });
  }
});

// docs/sites.md's Docusaurus page, which this test mirrors with React.createElement, as MDX compiles
// the tag (no MDX compiler here): its text is checked, so a change to that page fails until the
// mirror follows.
const README_MDX = '<attention-lab sentence="The cat sat on the mat" projection="random"></attention-lab>';

test('docs/sites.md\'s Docusaurus page renders on the server: the element and its attributes, and nothing imports the element', () => {
  const readme = readFileSync(new URL('docs/sites.md', ROOT), 'utf8');
  assert.ok(readme.includes(`\`\`\`mdx\n${README_MDX}\n\`\`\``), 'docs/sites.md holds the page this test mirrors');
  // A resolve hook (module.register, on its own thread) tells this process every specifier
  // imported and where it resolved. The element's module imported afterwards, by another
  // specifier, is the control: it shows that the hook sees an import, and its message, the last,
  // arrives after any the effect would have caused.
  const out = run(`${NO_DOM}
    import { register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const hooks = \`let port;
      export function initialize(data) { port = data.port; }
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        port.postMessage({ specifier, url: resolved.url });
        return resolved;
      }\`;
    const { port1, port2 } = new MessageChannel();
    const seen = [];
    let controlSeen;
    const control = new Promise((resolve) => (controlSeen = resolve));
    port1.on('message', (m) => {
      seen.push(m);
      if (m.specifier === './web/components/attention-lab.js?control') controlSeen();
    });
    register('data:text/javascript,' + encodeURIComponent(hooks), { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });

    const React = await import('react');
    const { renderToString } = await import('react-dom/server');
    const { createElement } = React;
    // docs/sites.md's page, as MDX compiles it (see README_MDX)
    const html = renderToString(createElement('attention-lab', { sentence: 'The cat sat on the mat', projection: 'random' }));
    await import('./web/components/attention-lab.js?control');
    await control;
    port1.close();
    const element = seen.filter((m) => m.url.endsWith('/web/components/attention-lab.js') || m.url.includes('/web/components/attention-lab.js?'));
    console.log(JSON.stringify({ html, element: element.map((m) => m.specifier), dom: ['window', 'document', 'customElements'].filter((n) => n in globalThis) }));`);
  assert.deepEqual(JSON.parse(out), {
    html: '<attention-lab sentence="The cat sat on the mat" projection="random"></attention-lab>',
    element: ['./web/components/attention-lab.js?control'], // the control only: the render imported nothing
    dom: [],
  });
});

test('a second copy of the lab’s module defines nothing twice', () => {
  const out = run(`
    const registry = new Map();
    globalThis.HTMLElement = class {};
    globalThis.CSSStyleSheet = class { replaceSync() {} };
    globalThis.customElements = {
      get: (name) => registry.get(name),
      define(name, element) {
        if (registry.has(name)) throw new Error(name + ' has already been defined');
        registry.set(name, element);
      },
    };
    await import('./web/components/attention-lab.js');
    const first = registry.size;
    await import('./web/components/attention-lab.js?copy=2');
    await import('./web/components/lab/attention-lab.js?copy=3');
    console.log(JSON.stringify({ first, after: registry.size, lab: registry.has('attention-lab') }));`);
  assert.deepEqual(JSON.parse(out), { first: 5, after: 5, lab: true });
});
