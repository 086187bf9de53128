// The first view's files hinted by index.html and embed.html are one list (scripts/write-preloads.mjs):
// each page holds it as the script writes it, holds no other hint, and names only files that exist.
// Whether the list is what each page really loads: tests/browser/lab.test.mjs and embed.test.mjs.
// Run: node --test tests/js/preloads.test.mjs
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { BEGIN, END, FIRST_VIEW, PAGES, withPreloads } from '../../scripts/write-preloads.mjs';

const web = new URL('../../web/', import.meta.url);
const read = (page) => readFileSync(new URL(page, web), 'utf8');

test('each page holds the list as the script writes it (run node scripts/write-preloads.mjs)', () => {
  for (const page of PAGES) assert.equal(withPreloads(read(page), page), read(page), page);
});

test('a page whose list differs is caught, and one without the markers is named', () => {
  const html = read(PAGES[0]);
  const line = '<link rel="modulepreload" href="./core/held.js">\n';
  assert.ok(html.includes(line));
  assert.notEqual(withPreloads(html.replace(line, ''), 'edited'), html.replace(line, ''), 'a hint missing');
  assert.notEqual(withPreloads(html.replace(line, line + line), 'edited'), html.replace(line, line + line), 'a hint twice');
  assert.throws(() => withPreloads(html.replace(END, ''), 'web/x.html'), /^Error: web\/x\.html: expected the markers/);
});

test('no page hints a file outside the list, and every file of the list exists', () => {
  for (const page of PAGES) {
    const html = read(page);
    const outside = html.slice(0, html.indexOf(BEGIN)) + html.slice(html.indexOf(END));
    assert.doesNotMatch(outside, /rel="(module)?preload"/, `${page}: a hint outside the list`);
  }
  const files = FIRST_VIEW.map(([, file]) => file);
  assert.equal(new Set(files).size, files.length, 'each file once');
  for (const file of files) assert.ok(existsSync(new URL(file, web)), `${file} exists under web/`);
});
