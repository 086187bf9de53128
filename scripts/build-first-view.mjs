// Writes the first view's words: the demo sentence and its probe word (web/lab/settings.js), so
// the demo page draws its first result before any bucket of the vocabulary has arrived — with the
// very same numbers, since each word's record is copied byte for byte from its bucket.
//   web/assets/glove/first-view.bin   a pack in the bucket format (web/core/vocab.js), read by
//                                     createVocab({ preload: [GLOVE.firstView] })
// Deterministic; rerun after scripts/build-vocab.mjs, or when the demo sentence changes:
//   node scripts/build-first-view.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { GLOVE, PACK, bucketName, bucketOf, encodeBucket, parseBucket } from '../web/core/vocab.js';
import { DEFAULT_PROBE, DEFAULT_SENTENCE } from '../web/lab/settings.js';
import { tokenize } from '../web/lab/tokenize.js';

const asset = (name) => fileURLToPath(new URL(`../web/assets/${name}`, import.meta.url));
const needed = [...new Set([...tokenize(DEFAULT_SENTENCE), ...tokenize(DEFAULT_PROBE)])];

// every needed word's record from its bucket
const records = needed.map((word) => {
  const name = `glove/${bucketName(bucketOf(word))}`;
  const record = parseBucket(readFileSync(asset(name)), { name, bucket: bucketOf(word) }).records.find((r) => r.word === word);
  if (!record) throw new Error(`"${word}" (demo sentence or probe) is not in the vocabulary: it belongs in ${name}`);
  return record;
});
writeFileSync(asset(`glove/${GLOVE.firstView}`), encodeBucket({ bucket: PACK, records }));
console.log(`web/assets/glove/${GLOVE.firstView}: ${records.length} words (${needed.join(' ')})`);

