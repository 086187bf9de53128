// Writes web/assets/glove-first-view.json: the words glove-100d.bin stores at full float32
// precision (the demo sentence, its probe word and "dog"), so the demo page can draw its first
// result before the 1 MB vocabulary has arrived — with the very same numbers, since these rows
// are exact in both files. Deterministic; rerun after scripts/build-vocab.mjs.
//   node scripts/build-first-view.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { decodeVocab } from '../web/core/vocab.js';
import { DEFAULT_PROBE, DEFAULT_SENTENCE } from '../web/lab/store.js';
import { tokenize } from '../web/lab/tokenize.js';

const SOURCE = fileURLToPath(new URL('../web/assets/glove-100d.bin', import.meta.url));
const OUT = fileURLToPath(new URL('../web/assets/glove-first-view.json', import.meta.url));

const vocab = decodeVocab(readFileSync(SOURCE));
const needed = new Set([...tokenize(DEFAULT_SENTENCE), ...tokenize(DEFAULT_PROBE)]);
const missing = [...needed].filter((w) => !vocab.exactWords.includes(w));
if (missing.length) throw new Error(`not stored exactly in glove-100d.bin (rebuild it with them): ${missing.join(', ')}`);

const words = {};
for (const word of vocab.exactWords) {
  const bytes = Buffer.alloc(vocab.dim * 4);
  vocab.vector(word).forEach((x, d) => bytes.writeFloatLE(x, 4 * d));
  words[word] = bytes.toString('base64');
}
const json = { about: 'Exact rows of glove-100d.bin for the first view; written by scripts/build-first-view.mjs', dim: vocab.dim, words };
writeFileSync(OUT, `${JSON.stringify(json, null, 1)}\n`);
console.log(`${OUT}: ${vocab.exactWords.length} words (${vocab.exactWords.join(' ')})`);
