// Writes the first view's words: the demo sentence and its probe word (web/lab/store.js), so the
// demo page draws its first result before any bucket of the vocabulary has arrived — with the
// very same numbers, since each word's record is copied byte for byte from its bucket.
//   web/assets/glove/first-view.bin   a pack in the bucket format (web/core/vocab.js), read by
//                                     createVocab({ preload: [GLOVE.firstView] })
//   web/assets/glove-first-view.json  legacy: the exact rows of glove-100d.bin, for the lab until
//                                     it reads the buckets (then deleted with glove-100d.bin)
// Deterministic; rerun after scripts/build-vocab.mjs (or build-vocab-v1.mjs), or when the demo
// sentence changes:   node scripts/build-first-view.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { GLOVE, PACK, bucketName, bucketOf, decodeVocab, encodeBucket, parseBucket } from '../web/core/vocab.js';
import { DEFAULT_PROBE, DEFAULT_SENTENCE } from '../web/lab/store.js';
import { tokenize } from '../web/lab/tokenize.js';

const asset = (name) => fileURLToPath(new URL(`../web/assets/${name}`, import.meta.url));
const needed = [...new Set([...tokenize(DEFAULT_SENTENCE), ...tokenize(DEFAULT_PROBE)])];

// 1. the pack: every needed word's record from its bucket
const records = needed.map((word) => {
  const name = `glove/${bucketName(bucketOf(word))}`;
  const record = parseBucket(readFileSync(asset(name)), { name, bucket: bucketOf(word) }).records.find((r) => r.word === word);
  if (!record) throw new Error(`"${word}" (demo sentence or probe) is not in the vocabulary: it belongs in ${name}`);
  return record;
});
writeFileSync(asset(`glove/${GLOVE.firstView}`), encodeBucket({ bucket: PACK, records }));
console.log(`web/assets/glove/${GLOVE.firstView}: ${records.length} words (${needed.join(' ')})`);

// 2. legacy: the rows glove-100d.bin stores at full float32 precision
const vocab = decodeVocab(readFileSync(asset('glove-100d.bin')));
const missing = needed.filter((w) => !vocab.exactWords.includes(w));
if (missing.length) throw new Error(`not stored exactly in glove-100d.bin (rebuild it with them): ${missing.join(', ')}`);
const words = {};
for (const word of vocab.exactWords) {
  const bytes = Buffer.alloc(vocab.dim * 4);
  vocab.vector(word).forEach((x, d) => bytes.writeFloatLE(x, 4 * d));
  words[word] = bytes.toString('base64');
}
const json = { about: 'Exact rows of glove-100d.bin for the first view; written by scripts/build-first-view.mjs', dim: vocab.dim, words };
writeFileSync(asset('glove-first-view.json'), `${JSON.stringify(json, null, 1)}\n`);
console.log(`web/assets/glove-first-view.json: ${vocab.exactWords.length} words (${vocab.exactWords.join(' ')})`);
