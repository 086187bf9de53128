// PNG from the command line without a system tool (bin/png.js: resvg's WebAssembly build and
// Debian's DejaVu fonts): render, render --attention and model write PNG files whose size is the
// SVG's times --png-scale (2 by default), with no rsvg-convert on the PATH; --png-scale is checked;
// and the words of the figures keep their spaces in rsvg and resvg ("Σ weights 1.000": the text
// drawn with its trailing space differs from the text drawn without it).
// Run: node --test tests/js/png.test.mjs
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { main } from '../../bin/cli.js';
import { svgToPng } from '../../bin/png.js';

const BIN = fileURLToPath(new URL('../../bin/attention-lab.js', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'attention-png-'));
after(() => rm(dir, { recursive: true, force: true }));

async function run(args) {
  let out = '';
  let err = '';
  const status = await main(args, { stdout: { write: (t) => (out += t) }, stderr: { write: (t) => (err += t) }, env: { LANG: 'C' } });
  return { status, out, err };
}

// A PNG's width and height (its IHDR), after checking the signature.
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}
const svgSize = (svg) => [Number(/<svg[^>]* width="([\d.]+)"/.exec(svg)[1]), Number(/<svg[^>]* height="([\d.]+)"/.exec(svg)[1])];

test('render, render --attention and model write PNG at --png-scale (2 by default), with no rsvg-convert on the PATH', async () => {
  const attention = join(dir, 'a.json');
  await writeFile(attention, JSON.stringify({ tokens: ['a', 'b', 'c'], attention: [[[[1, 0, 0], [0.5, 0.5, 0], [0.2, 0.3, 0.5]]]] }));
  const cases = [[['render'], 2], [['render', '--png-scale', '1'], 1], [['render', '--attention', attention, '--png-scale', '3'], 3], [['model', '--sentence', 'the cat sat'], 2]];
  for (const [args, scale] of cases) {
    const svg = await run([...args.filter((a, i) => a !== '--png-scale' && args[i - 1] !== '--png-scale'), '--format', 'svg']);
    assert.equal(svg.status, 0, svg.err);
    const file = join(dir, 'out.png');
    // PATH without any tool: only this node runs
    const done = spawnSync(process.execPath, [BIN, ...args, '-o', file], { env: { PATH: '/nonexistent', LC_ALL: 'C' }, encoding: 'utf8' });
    assert.equal(done.status, 0, `${args.join(' ')}: ${done.stderr}`);
    const [w, h] = svgSize(svg.out);
    assert.deepEqual(pngSize(await readFile(file)), [Math.round(w * scale), Math.round(h * scale)], args.join(' '));
  }
});

test('--png-scale: a number from 0.5 to 8, and only for PNG', async () => {
  for (const [args, message] of [
    [['render', '--format', 'png', '--png-scale', '0'], /--png-scale "0" is not valid: it must be a number from 0.5 to 8/],
    [['render', '--format', 'png', '--png-scale', '1e1'], /--png-scale "1e1" is not valid/],
    [['render', '--png-scale', '2'], /--png-scale sets the pixels of a PNG/],
    [['model', '--sentence', 'a', '--format', 'csv', '--png-scale', '2'], /--png-scale sets the pixels of a PNG/],
    [['model', '--sentence', 'a', '--format', 'png', '--png-scale', '9'], /--png-scale "9" is not valid/],
  ]) {
    const { status, err } = await run(args);
    assert.equal(status, 2, `${args.join(' ')}: ${err}`);
    assert.match(err, message);
  }
});

test('"Σ weights 1.000" keeps the space after its name in resvg and in rsvg', async () => {
  const { status, out: svg, err } = await run(['render', '--view', 'bars']);
  assert.equal(status, 0, err);
  assert.match(svg, /xml:space="preserve"[^>]*><tspan[^>]*>Σ weights <\/tspan>1\.000/);
  // the same figure with no space after the names: drawn differently if, and only if, the space counts
  const spaceless = svg.replace(/(<tspan[^>]*>[^<]*?) <\/tspan>/g, '$1</tspan>');
  assert.notEqual(spaceless, svg);
  const resvg = async (text) => Buffer.from(await svgToPng(text, { scale: 1 }));
  assert.ok(!(await resvg(svg)).equals(await resvg(spaceless)), 'resvg draws the space');
  const rsvg = (text) => execFileSync('rsvg-convert', ['--format', 'png'], { input: text });
  assert.ok(!rsvg(svg).equals(rsvg(spaceless)), 'rsvg-convert draws the space');
});
