// The SCORM package's parts that need no browser: the zip writer (bin/zip.js) against Debian's
// unzip and the CRC-32 check value, and the page module's pure functions (web/lms/scorm.js):
// SCORM's time formats, the suspend_data limit, the API discovery over a window chain; what the
// package leaves out (the teacher's page).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { crc32, zip } from '../../bin/zip.js';
import { MAX_PARENTS, SCORM_META, SCORM_VERSIONS, SUSPEND_DATA_LIMIT, findApi, readSuspendData, suspendData, timeinterval2004, timespan12 } from '../../web/lms/scorm.js';
import * as writer from '../../bin/scorm.js';
import { siteFiles } from '../../bin/site-files.js';
import { english } from '../../web/i18n/i18n.js';

test('CRC-32 gives the standard check value of "123456789"', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
});

test('a zip that unzip reads back byte for byte, the same bytes every time', async () => {
  const entries = [
    { name: 'imsmanifest.xml', data: Buffer.from('<manifest/>'.repeat(50)) },
    { name: 'build/core.bin', data: Buffer.from([0, 255, 1, 254]) }, // stored (deflate does not shrink it)
    { name: 'empty.txt', data: Buffer.alloc(0) },
  ];
  const bytes = zip(entries);
  assert.deepEqual(zip(entries), bytes);
  const dir = await mkdtemp(join(tmpdir(), 'attention-lab-zip-'));
  try {
    await writeFile(join(dir, 'a.zip'), bytes);
    assert.match(execFileSync('unzip', ['-t', join(dir, 'a.zip')], { encoding: 'utf8' }), /No errors detected/);
    for (const { name, data } of entries) assert.deepEqual(execFileSync('unzip', ['-p', join(dir, 'a.zip'), name]), data, name);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('session time in SCORM 1.2 CMITimespan and 2004 timeinterval', () => {
  const ms = ((1 * 60 + 2) * 60 + 3.456) * 1000; // 1 h 2 min 3.456 s
  assert.equal(timespan12(ms), '0001:02:03.46');
  assert.equal(timespan12(0), '0000:00:00.00');
  assert.equal(timeinterval2004(ms), 'PT1H2M3.46S');
});

test('suspend_data stays within 4,096 characters and reads back', () => {
  const sentence = 'x'.repeat(10000);
  const text = suspendData('claim-3', { sentence, dk: '6' });
  assert.equal(text.length, SUSPEND_DATA_LIMIT);
  const back = readSuspendData(text);
  assert.equal(back.at, 'claim-3');
  assert.ok(sentence.startsWith(back.controls.sentence));
  assert.equal(readSuspendData('not json'), null);
});

test('the API is found up the parent chain, past a cross-origin frame, then from the opener', () => {
  const top = { API: { name: 'lms' } };
  top.parent = top;
  const foreign = { parent: top };
  Object.defineProperty(foreign, 'API', { get: () => { throw new Error('SecurityError'); } });
  const sco = { parent: foreign };
  assert.equal(findApi(sco, 'API'), top.API);
  assert.equal(findApi(sco, 'API_1484_11'), null);
  const lonely = { opener: sco };
  lonely.parent = lonely;
  assert.equal(findApi(lonely, 'API'), top.API);
  // a chain longer than the bound is not climbed to its end
  let w = { API: {} };
  w.parent = w;
  for (let i = 0; i < MAX_PARENTS + 5; i++) w = { parent: w };
  assert.equal(findApi(w, 'API'), null);
});

test('the versions and the meta name are written once: the package\'s writer uses the page module\'s', async () => {
  assert.equal(writer.SCORM_VERSIONS, SCORM_VERSIONS);
  const entries = await writer.packageEntries('2004', english());
  const page = entries.find((entry) => entry.name === 'lesson.html').data.toString('utf8');
  const metas = [...page.matchAll(/<meta name="([^"]+)" content="([^"]+)">/g)].filter(([, name]) => name.includes('scorm'));
  assert.deepEqual(metas.map(([, name, content]) => [name, content]), [[SCORM_META, '2004']]);
});

test('the package leaves out the teacher’s page and the lesson’s link to it; the site keeps both', async () => {
  const entries = await writer.packageEntries('1.2', english());
  const names = entries.map((entry) => entry.name);
  for (const file of ['teacher.html', 'teacher.js', 'teacher.css']) assert.ok(!names.includes(file), `${file} is not in the package`);
  const page = entries.find((entry) => entry.name === 'lesson.html').data.toString('utf8');
  assert.doesNotMatch(page, /teacher\.html/);
  assert.match(await readFile(new URL('../../web/lesson.html', import.meta.url), 'utf8'), /href="\.\/teacher\.html"/);
  assert.ok((await siteFiles()).includes('teacher.html'), 'the site has the teacher’s page');
});
