// The package as a user gets it: `npm pack` (what package.json's `files` lists; the build is
// already in place, so its prepare step is skipped here — scripts/package-check.mjs packs a clean
// clone with it), `npm install` of the .tgz into an empty folder, offline, and then the package
// by its name only: imported from an ES module and from CommonJS, its command run, its README's
// links followed. Runs under whatever Node runs the test (scripts/package-check.mjs: every line
// of `engines`).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
// npm (the machine's own, on its own Node) packs and installs; the package runs on the Node under test.
const npm = (args, options) => run('npm', args, { maxBuffer: 64 << 20, ...options });

// What a tarball may weigh: the vocabulary (3.3 MB in buckets + the 1 MB legacy file), KaTeX
// (0.9 MB), the two builds (0.3 MB) and the trained twins (2 × 2.0 MB of int8 weights, which
// gzip barely shrinks) are nearly all of it; a stray build tree or node_modules would add megabytes.
const MAX_PACKED_BYTES = 10_000_000;

let dir;
let packed;
let installed;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'attention-lab-package-'));
  // ATTN_PACKAGE_TARBALL: a tarball packed already (scripts/package-check.mjs, from a clean clone)
  const given = process.env.ATTN_PACKAGE_TARBALL;
  if (given) {
    const { stdout } = await run('tar', ['-tzf', given]);
    packed = { filename: given, size: statSync(given).size, files: stdout.split('\n').filter(Boolean).map((path) => ({ path: path.replace(/^package\//, '') })) };
  } else {
    const { stdout } = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT });
    [packed] = JSON.parse(stdout);
    packed.filename = join(dir, packed.filename);
  }
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'a-lesson', private: true }));
  await npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', packed.filename], { cwd: dir });
  installed = join(dir, 'node_modules', 'attention-lab');
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const node = (file, ...args) => run(process.execPath, [file, ...args], { cwd: dir, maxBuffer: 16 << 20 });

test('the tarball holds what runs, its types and licences, and nothing of the repository besides', () => {
  const files = new Set(packed.files.map((f) => f.path));
  for (const file of ['package.json', 'README.md', 'LICENSE', 'THIRD_PARTY_LICENSES.md', 'bin/attention-lab.js',
    'web/build/attention-simd.mjs', 'web/build/attention-simd.wasm', 'web/build/attention-scalar.mjs', 'web/build/attention-scalar.wasm',
    'web/vendor/katex/katex.mjs', 'web/vendor/katex/LICENSE', 'web/assets/glove/first-view.bin', 'web/assets/glove/000.bin', 'web/index.html',
    'python/pyproject.toml', 'python/setup.py', 'python/attention_lab/__init__.py', 'python/attention_lab/checks.py', 'python/attention_lab/notebook.py', 'python/attention_lab/widget.py', 'web/build/attention-widget.js']) {
    assert.ok(files.has(file), `${file} is packed`);
  }
  for (const target of Object.values(pkg.exports).flatMap((entry) => (typeof entry === 'string' ? [] : Object.values(entry)))) {
    assert.ok(files.has(target.replace(/^\.\//, '')), `export ${target} is packed`);
  }
  const stray = [...files].filter((file) => /^(tests|cpp|scripts|build|third_party|node_modules|artifacts)\/|^CMakeLists/.test(file));
  assert.deepEqual(stray, []);
  assert.ok(packed.size < MAX_PACKED_BYTES, `packed ${packed.size} bytes`);
  assert.deepEqual(pkg.dependencies ?? {}, {}, 'nothing is imported at run time from another package');
});

test('every relative link of the packed README leads to a packed file', () => {
  const readme = readFileSync(join(installed, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((href) => !/^[a-z]+:/.test(href));
  assert.ok(links.length >= 3);
  for (const href of links) assert.ok(existsSync(join(installed, href)), `README links to ${href}`);
});

test('ES module: every export by its package path, the lab’s numbers, the checker, the word vectors', async () => {
  await writeFile(join(dir, 'use.mjs'), `
    import { createEngine } from 'attention-lab';
    import { labInputs, labState, loadVocab, renderFigure, tokenize } from 'attention-lab/lab';
    import { compareAttention } from 'attention-lab/testing';
    import { loadVocab as loadBuckets } from 'attention-lab/vocab';
    import { readFileSync } from 'node:fs';
    const [engine, vocab] = await Promise.all([createEngine(), loadVocab()]);
    const result = engine.attention(labInputs({ sentence: 'The cat sat on the mat because it was tired' }, { engine, vocab }));
    const state = labState({ sentence: 'the cat sat', projection: 'random', dk: 16 }, { engine, vocab });
    const report = await compareAttention((Q, K, V) => Q.map((q) => {
      const s = K.map((k) => k.reduce((a, x, c) => a + x * q[c], 0) / Math.sqrt(q.length));
      const top = Math.max(...s), e = s.map((x) => Math.exp(x - top)), z = e.reduce((a, b) => a + b);
      return V[0].map((_, c) => e.reduce((a, w, j) => a + (w / z) * V[j][c], 0));
    }), { engine });
    const buckets = await loadBuckets(['cat']);
    const asset = new URL(import.meta.resolve('attention-lab/assets/glove/first-view.bin'));
    console.log(JSON.stringify({
      catOnCat: result.weights[11], tokens: tokenize("Don't"), d: state.d, svg: renderFigure(state).slice(0, 4),
      pass: report.pass, cat: buckets.status('cat'), asset: readFileSync(asset).length,
      version: JSON.parse(readFileSync(new URL(import.meta.resolve('attention-lab/package.json')))).version,
    }));
  `);
  const out = JSON.parse((await node('use.mjs')).stdout);
  assert.equal(out.catOnCat.toFixed(3), '0.363');
  assert.deepEqual(out.tokens, ['do', "n't"]);
  assert.equal(out.d, 16);
  assert.equal(out.svg, '<svg');
  assert.equal(out.pass, true);
  assert.equal(out.cat, 'known');
  assert.equal(out.asset, readFileSync(join(ROOT, 'web/assets/glove/first-view.bin')).length);
  assert.equal(out.version, pkg.version);
});

test('CommonJS: import() on every Node; require() where Node loads ES modules synchronously (20.19+, 22.12+)', async () => {
  await writeFile(join(dir, 'use.cjs'), `
    const [major, minor] = process.versions.node.split('.').map(Number);
    const canRequire = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
    (async () => {
      const { createEngine } = await import('attention-lab');
      const { labInputs, loadVocab } = await import('attention-lab/lab');
      const [engine, vocab] = await Promise.all([createEngine(), loadVocab()]);
      const viaImport = engine.attention(labInputs({ scaled: false }, { engine, vocab })).weights[11];
      let viaRequire = null;
      if (canRequire) {
        const required = require('attention-lab');
        const lab = require('attention-lab/lab');
        const e = await required.createEngine();
        viaRequire = e.attention(lab.labInputs({ scaled: false }, { engine: e, vocab: await lab.loadVocab() })).weights[11];
      }
      console.log(JSON.stringify({ viaImport, viaRequire, canRequire }));
    })();
  `);
  const { stdout, stderr } = await node('use.cjs');
  const out = JSON.parse(stdout);
  assert.equal(out.viaImport.toFixed(2), '1.00');
  if (out.canRequire) assert.equal(out.viaRequire, out.viaImport);
  assert.doesNotMatch(stderr, /Error/);
});

test('the installed command draws the figure from the package’s own files', async () => {
  const bin = join(dir, 'node_modules', '.bin', 'attention-lab');
  const { stdout } = await run(process.execPath, [bin, 'render', '--sentence', 'the cat sat on the mat', '--view', 'bars', '--format', 'json'], { cwd: dir });
  const data = JSON.parse(stdout);
  assert.deepEqual(data.keys, ['the', 'cat', 'sat', 'on', 'the', 'mat']);
  assert.equal(data.rows[0].token, 'cat');
  const svg = await run(process.execPath, [bin, 'render'], { cwd: dir });
  assert.match(svg.stdout, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
});

test('the Node running this test is one that package.json’s engines names', () => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  const ranges = pkg.engines.node.split('||').map((range) => range.trim());
  const within = ranges.some((range) => {
    const m = /^>=(\d+)(?:\.(\d+))?$/.exec(range);
    assert.ok(m, `engines range ${range} is of the form >=major.minor`);
    const [minMajor, minMinor = 0] = [Number(m[1]), Number(m[2] ?? 0)];
    return major > minMajor || (major === minMajor && minor >= minMinor);
  });
  assert.ok(within, `Node ${process.versions.node} is outside engines ${pkg.engines.node}`);
});
