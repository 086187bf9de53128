// What the packages weigh, as the docs state it: the npm tarball (`npm pack --dry-run`: packed
// size, unpacked size, file count; docs/install.md) and the SCORM zip (bin/scorm.js's entries,
// zipped; docs/lms.md). Rounding rule: sizes in MB (10^6 bytes) to one decimal, the file count to
// the nearest hundred. A change that moves a figure fails here with the sentence to write.
// Also what they leave out: no page loads the docs' pictures (the README's screenshot aside, which
// the npm page shows) or the notebook widget (a SCORM lesson never does).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { packageEntries } from '../../bin/scorm.js';
import { zip } from '../../bin/zip.js';
import { loadStrings } from '../../web/i18n/i18n.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const hundreds = (count) => (Math.round(count / 100) * 100).toLocaleString('en-US');
const doc = (name) => readFileSync(join(ROOT, 'docs', name), 'utf8');

test('the npm tarball: what docs/install.md says it weighs, and no pictures but the README’s', async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: ROOT, maxBuffer: 64 << 20 });
  const [packed] = JSON.parse(stdout);
  const sentence = `${mb(packed.size)} packed, ${mb(packed.unpackedSize)} unpacked in about ${hundreds(packed.entryCount)} files`;
  assert.ok(doc('install.md').includes(sentence), `docs/install.md should say "${sentence}"`);
  const pictures = packed.files.map((f) => f.path).filter((path) => /^docs\/.*\.png$/.test(path));
  assert.deepEqual(pictures, ['docs/screenshot.png']);
  assert.ok(!packed.files.some((f) => f.path.startsWith('web/widget/')), 'the widget’s sources are bundled, not shipped');
});

test('the SCORM zip: what docs/lms.md says it weighs, and no notebook widget', async () => {
  const strings = await loadStrings('en');
  const entries = await packageEntries('1.2', strings);
  const bytes = zip(entries);
  const sentence = `(${mb(bytes.length)}, about ${hundreds(entries.length)} files`;
  assert.ok(doc('lms.md').includes(sentence), `docs/lms.md should say "${sentence}"`);
  const names = entries.map((e) => e.name);
  assert.ok(names.includes('lesson.html') && names.includes('build/attention-simd.wasm'));
  assert.deepEqual(names.filter((name) => /widget|\.d\.ts$|\.md$/.test(name) && !/LICENSES\.md$/.test(name)), []);
});
