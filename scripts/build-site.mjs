// `npm run site [-- --out DIR]`: the site as one folder any static host serves as it is
// (default dist/site/): the pages, the element, both WebAssembly builds, the word vectors and the
// trained model — the files of bin/site-files.js, the same list the SCORM package takes — with
// relative paths only, so it works under any path prefix. Beside them, for hosts that read them:
// `_headers` (the Content-Security-Policy `npm start` sends, scripts/serve.mjs, and the wasm
// MIME type), and `.nojekyll` (a git host's pages would otherwise drop files starting with `_`).
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { CORES, WEB, siteFiles } from '../bin/site-files.js';
import { CONTENT_SECURITY_POLICY } from './serve.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The `_headers` file (the format of Netlify and Cloudflare Pages): every path, then each wasm. */
export function headersFile(wasmFiles) {
  const lines = ['/*', `  Content-Security-Policy: ${CONTENT_SECURITY_POLICY}`, '  X-Content-Type-Options: nosniff', '  Access-Control-Allow-Origin: *'];
  for (const file of wasmFiles) lines.push(`/${file}`, '  Content-Type: application/wasm');
  return `${lines.join('\n')}\n`;
}

/** Writes the site into `out` (emptied first); resolves with the files' names. */
export async function buildSite(out = join(ROOT, 'dist/site')) {
  const files = await siteFiles();
  const missing = CORES.filter((core) => !files.includes(core));
  if (missing.length) throw new Error(`web/${missing[0]} is missing: run npm run build first`);
  await rm(out, { recursive: true, force: true });
  for (const name of files) {
    await mkdir(dirname(join(out, name)), { recursive: true });
    await copyFile(join(WEB, name), join(out, name));
  }
  await writeFile(join(out, '_headers'), headersFile(files.filter((name) => name.endsWith('.wasm'))));
  await writeFile(join(out, '.nojekyll'), '');
  return files;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = resolve(values.out ?? join(ROOT, 'dist/site'));
  const files = await buildSite(out);
  console.log(`wrote ${out}: ${files.length} files, _headers and .nojekyll; upload the folder as it is (docs/hosting.md)`);
}
