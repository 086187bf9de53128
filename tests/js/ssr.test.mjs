// A static site's server render (Docusaurus, Next, Astro) imports the element's module in Node,
// where there is no DOM: the import must not throw, and nothing is defined. In a page, a second
// copy of a module (a notebook re-running its cell, two bundles) defines nothing twice. Each case
// runs in a fresh Node process, so no other test's globals leak in. Cost: ~1 s (4 processes).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

const MODULES = ['web/components/attention-lab.js', 'web/components/lab/lab-share.js', 'web/components/lab/vector-paste.js', 'web/components/lesson/attention-lesson.js'];
const ROOT = new URL('../../', import.meta.url);

const run = (source) => execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' });

for (const module of MODULES) {
  test(`${module} imports in Node without a DOM`, () => {
    const out = run(`
      for (const name of ['window', 'document', 'HTMLElement', 'customElements', 'CSSStyleSheet']) if (name in globalThis) throw new Error(name + ' exists');
      const exports = await import('./${module}');
      console.log(JSON.stringify(Object.keys(exports).sort()));`);
    assert.ok(JSON.parse(out).length > 0, `${module} exports something`);
  });
}

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
