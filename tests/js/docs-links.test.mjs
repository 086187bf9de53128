// Every relative link of the README and of docs/*.md leads to a file of the repository, and a
// link's #anchor to a heading of that file (GitHub's rule for heading ids), so a page moved or a
// heading renamed fails here rather than for a reader.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

// GitHub's heading id: lower case, punctuation dropped (letters, digits, spaces, - and _ kept),
// spaces to hyphens.
const slug = (heading) => heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const withoutCode = (text) => text.replace(/^(```|````)[\s\S]*?^\1$/gm, '').replace(/`[^`\n]*`/g, '');
const anchors = (text) => new Set(withoutCode(text).split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ''))));

test('every relative link of the README and docs/ resolves, with its anchor', () => {
  let checked = 0;
  for (const page of pages) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    for (const [, href] of withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(href)) continue; // another site: not ours to check offline
      const [path, anchor] = href.split('#');
      const target = path ? join(dirname(join(ROOT, page)), path) : join(ROOT, page);
      assert.ok(existsSync(target), `${page} links to ${href}: no such file`);
      assert.ok(relative(ROOT, target) && !relative(ROOT, target).startsWith('..'), `${page} links outside the repository: ${href}`);
      if (anchor) {
        assert.ok(statSync(target).isFile() && target.endsWith('.md'), `${page}: ${href} has an anchor into a non-Markdown file`);
        assert.ok(anchors(readFileSync(target, 'utf8')).has(anchor), `${page} links to ${href}: no heading with that id`);
      }
      checked += 1;
    }
  }
  assert.ok(checked > 30, `only ${checked} links found: the pattern no longer matches the pages`);
});

test('the README stays a first screen: at most 200 lines, both commands, a link to every path', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(readme.split('\n').length <= 200, `README has ${readme.split('\n').length} lines`);
  for (const line of ['npm start', 'npm test']) assert.ok(readme.includes(line), `README names ${line}`);
  for (const doc of ['embed', 'lms', 'slides', 'notebook', 'node', 'api', 'architecture']) {
    assert.ok(readme.includes(`(docs/${doc}.md)`), `README links to docs/${doc}.md`);
  }
});
