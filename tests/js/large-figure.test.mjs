// A figure's cost is bounded by what a reader can see: past MAX_VECTOR_CELLS the command line's
// SVG carries the heatmap as one embedded PNG (web/views/raster.js), not one element per cell.
// The PNG is decoded here with node:zlib (which checks its Adler-32) and every chunk's CRC is
// recomputed; its pixels are the cells' colour levels as color.js's heatLevel
// gives them — each pixel the largest weight of the cells it covers — and the caption says so
// when the picture has fewer pixels than cells. The SVG parses as XML (xmllint).
// Run: node --test tests/js/large-figure.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import zlib from 'node:zlib';

import { main } from '../../bin/cli.js';
import { heatLevel } from '../../web/views/color.js';
import { MAX_VECTOR_CELLS } from '../../web/views/heatmap.js';

// zlib.crc32 is Node ≥ 20.15; on Node 18 the table-driven CRC-32 of the PNG specification
const crc32 = zlib.crc32 ?? ((bytes) => {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
});

const dir = await mkdtemp(join(tmpdir(), 'attention-large-'));
after(() => rm(dir, { recursive: true, force: true }));

async function render(n, rowOf, extra = []) {
  const file = join(dir, `a${n}.json`);
  await writeFile(file, JSON.stringify({ tokens: Array.from({ length: n }, (_, i) => `t${i}`), attention: [[Array.from({ length: n }, (_, i) => rowOf(i, n))]] }));
  let out = '';
  let err = '';
  const status = await main(['render', '--attention', file, ...extra], { stdout: { write: (t) => (out += t) }, stderr: { write: (t) => (err += t) }, env: { LANG: 'C' } });
  assert.equal(status, 0, err);
  await writeFile(join(dir, `a${n}.svg`), out);
  execFileSync('xmllint', ['--noout', join(dir, `a${n}.svg`)]);
  return out;
}

// The PNG of the SVG's one <image>: { width, height, palette ([r,g,b] per index), pixels (indices) }.
function embeddedPng(svg) {
  const images = [...svg.matchAll(/<image [^>]*href="data:image\/png;base64,([^"]+)"/g)];
  assert.equal(images.length, 1, 'one embedded picture');
  const bytes = Buffer.from(images[0][1], 'base64');
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks = {};
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    assert.equal(crc32(bytes.subarray(at + 4, at + 8 + length)), bytes.readUInt32BE(at + 8 + length), `${type}: its CRC`);
    chunks[type] = Buffer.concat([chunks[type] ?? Buffer.alloc(0), bytes.subarray(at + 8, at + 8 + length)]);
    at += 12 + length;
  }
  const width = chunks.IHDR.readUInt32BE(0);
  const height = chunks.IHDR.readUInt32BE(4);
  assert.deepEqual([...chunks.IHDR.subarray(8)], [8, 3, 0, 0, 0], '8-bit indexed');
  const raw = zlib.inflateSync(chunks.IDAT);
  assert.equal(raw.length, (width + 1) * height);
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    assert.equal(raw[y * (width + 1)], 0, 'filter none');
    pixels.set(raw.subarray(y * (width + 1) + 1, (y + 1) * (width + 1)), y * width);
  }
  return { width, height, pixels, palette: Array.from({ length: chunks.PLTE.length / 3 }, (_, i) => [...chunks.PLTE.subarray(3 * i, 3 * i + 3)]) };
}

// row i: 0.75 on key i, 0.25 spread over the keys before it (row 0: 1 on itself)
const lowerTriangle = (i, n) => Array.from({ length: n }, (_, j) => (i === 0 ? Number(j === 0) : j === i ? 0.75 : j < i ? 0.25 / i : 0));

test('up to MAX_VECTOR_CELLS a cell is an element; past it, one picture whose pixels are the cells\' levels', async () => {
  assert.equal(MAX_VECTOR_CELLS, 128 * 128);
  const small = await render(128, lowerTriangle);
  assert.equal((small.match(/<title>/g) ?? []).length, 128 * 128, 'one titled cell per weight');
  assert.doesNotMatch(small, /<image /);

  const n = 200; // 40,000 cells, drawn about 2.7 px a cell: one pixel a cell
  const svg = await render(n, lowerTriangle);
  assert.doesNotMatch(svg, /<title>/);
  const png = embeddedPng(svg);
  assert.deepEqual([png.width, png.height], [n, n]);
  for (const [i, j] of [[0, 0], [5, 5], [5, 2], [199, 199], [199, 0], [10, 150]]) {
    const w = lowerTriangle(i, n)[j];
    // the causal rows (keys after the query masked: index 255); a level above 254 is drawn as 254
    const expected = j > i ? 255 : Math.min(254, heatLevel(w));
    assert.equal(png.pixels[i * n + j], expected, `cell ${i}, ${j} (weight ${w})`);
  }
  assert.doesNotMatch(svg, /weights drawn as/, 'not pooled: nothing to say');
});

test('1,024 tokens in 320 px: a picture of fewer pixels than cells, each the largest weight it covers, and the caption says so', async () => {
  const n = 1024;
  const svg = await render(n, lowerTriangle, ['--width', '320']);
  assert.ok(svg.length < 2e6, `${svg.length} characters (one element per cell wrote 124 MB)`);
  const png = embeddedPng(svg);
  assert.ok(png.width < n && png.width === png.height, `${png.width} × ${png.height}`);
  const caption = new RegExp(`1,024 × 1,024 weights drawn as ${png.width.toLocaleString('en')} × ${png.height.toLocaleString('en')} pixels:`);
  assert.match(svg, caption);
  // pixel (y, x) covers rows and columns [⌊y·n/h⌋ … ⌈(y+1)·n/h⌉): its index is the largest level of those cells
  const cover = (p, size) => [Math.ceil((p * n) / size), Math.ceil(((p + 1) * n) / size)];
  for (const [y, x] of [[0, 0], [100, 100], [100, 50], [png.height - 1, 0], [png.height - 1, png.width - 1], [30, 700]]) {
    const [r0, r1] = cover(y, png.height);
    const [c0, c1] = cover(x, png.width);
    let expected = 255;
    for (let i = r0; i < r1; i++)
      for (let j = c0; j < c1; j++) if (j <= i) expected = expected === 255 ? Math.min(254, heatLevel(lowerTriangle(i, n)[j])) : Math.max(expected, Math.min(254, heatLevel(lowerTriangle(i, n)[j])));
    assert.equal(png.pixels[y * png.width + x], expected, `pixel ${y}, ${x}`);
  }
});
