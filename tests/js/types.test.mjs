// The TypeScript of the docs compiles under `tsc --strict`: every ```ts block of the README and
// docs/*.md is written to a file inside this package (so `attention-lab/...` resolves to its own
// exports and .d.ts, by the package's self-reference) and checked, each block its own module.
// Then the blocks run in Node with their types stripped, so what they print is what they claim.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/.bin/tsc');
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const blocks = pages.flatMap((page) => [...readFileSync(join(ROOT, page), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => ({ page, i, code: m[1] })));

test('the docs hold TypeScript to check', () => {
  assert.ok(blocks.some((b) => b.code.includes('compareAttention((Q, K, V) =>')), 'docs/node.md: compareAttention with a function written inline');
});

test('every ```ts block of the docs compiles under tsc --strict', { skip: !existsSync(TSC) && 'typescript is not installed (npm ci)' }, async () => {
  const folder = mkdtempSync(join(ROOT, '.types-'));
  try {
    const files = blocks.map(({ page, i, code }) => {
      const file = `${page.replace(/\W/g, '-')}-${i}.mts`;
      writeFileSync(join(folder, file), code);
      return file;
    });
    const args = ['--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,dom', ...files];
    const { stdout } = await promisify(execFile)(TSC, args, { cwd: folder }).catch((error) => error);
    assert.equal(stdout.trim(), '', `tsc --strict:\n${stdout}`);
    // and each block runs as it says (types stripped by esbuild, a devDependency)
    const { transformSync } = await import('esbuild');
    for (const [index, { page, code }] of blocks.entries()) {
      const script = join(folder, `${index}.mjs`);
      writeFileSync(script, transformSync(code, { loader: 'ts', format: 'esm' }).code);
      const { stdout: printed } = await promisify(execFile)(process.execPath, [script], { cwd: folder });
      const claim = code.match(/console\.log\([^)]*\);\s*\/\/ (.*)$/m)?.[1];
      if (claim) assert.equal(printed.trim(), claim.trim(), `${page}: the block prints what its comment says`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
