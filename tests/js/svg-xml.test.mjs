// Every SVG the project writes is well-formed XML, whatever text it carries: a sentence holding
// U+FFFE or U+FFFF (the tokenizer keeps them), supplied tokens holding control characters or a
// lone surrogate, a shared link's sentence — from the command line (render, render --attention,
// model) and from the page's export (exportFile). Each file is parsed by a real XML parser,
// libxml2's xmllint (Debian's libxml2-utils).
// Run: node --test tests/js/svg-xml.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { main } from '../../bin/cli.js';
import { createEngine } from '../../web/core/engine.js';
import { THEMES, labState, loadVocab } from '../../web/api/lab.js';
import { readUrl } from '../../web/lab/url.js';
import { exportFile } from '../../web/views/export.js';

const dir = await mkdtemp(join(tmpdir(), 'attention-xml-'));
after(() => rm(dir, { recursive: true, force: true }));

// xmllint's verdict on `text`: '' when well-formed, else its complaint.
async function xmlProblems(text, name) {
  const file = join(dir, `${name}.svg`);
  await writeFile(file, text);
  try {
    execFileSync('xmllint', ['--noout', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    return '';
  } catch (error) {
    return String(error.stderr);
  }
}

async function run(args) {
  let out = '';
  let err = '';
  const status = await main(args, { stdout: { write: (text) => (out += text) }, stderr: { write: (text) => (err += text) }, env: { LANG: 'C' } });
  assert.equal(status, 0, err);
  return out;
}

const STRANGE = ['\uFFFE', '\uFFFF', '\u0001', '\u001B[31m', '\uD800', 'ok\uDC00'];

test('render and model: a sentence with U+FFFE and U+FFFF gives well-formed SVG', async () => {
  for (const args of [['render', '--sentence', 'the \uFFFE cat \uFFFF'], ['model', '--sentence', 'the \uFFFE cat \uFFFF']]) {
    const svg = await run(args);
    assert.match(svg, /^<svg/);
    assert.equal(await xmlProblems(svg, args[0]), '', args.join(' '));
  }
});

test('render --attention: tokens with control characters and lone surrogates give well-formed SVG', async () => {
  const tokens = ['[CLS]', ...STRANGE];
  const n = tokens.length;
  const file = join(dir, 'strange.json');
  await writeFile(file, JSON.stringify({ tokens, attention: [[Array.from({ length: n }, () => Array(n).fill(1 / n))]] }));
  const svg = await run(['render', '--attention', file]);
  assert.equal(await xmlProblems(svg, 'supplied'), '');
  assert.match(svg, /\uFFFD/, 'a character XML cannot hold shows as U+FFFD');
});

test('the page\'s export: SVG of a sentence with U+FFFE and of a shared link\'s sentence is well-formed', async () => {
  const [engine, vocab] = await Promise.all([createEngine(), loadVocab()]);
  const { settings } = readUrl('?sentence=the%20%EF%BF%BE%20cat');
  assert.match(settings.sentence, /\uFFFE/);
  for (const [name, sentence] of [['link', settings.sentence], ['typed', `a \uFFFF b ${STRANGE.join(' ')}`]]) {
    const state = labState({ sentence }, { engine, vocab });
    for (const what of ['heatmap', 'bars']) {
      const file = await exportFile(state, { what, format: 'svg', theme: THEMES.light });
      assert.equal(await xmlProblems(await file.blob.text(), `${name}-${what}`), '', `${name} ${what}`);
    }
  }
});
