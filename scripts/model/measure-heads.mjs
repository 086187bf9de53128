// What each head of the shipped twins measurably does (issue 20, docs/model.md), written into
// web/assets/model/model.json as `heads`: every head's profile (cpp/model/heads.hpp, head_profile)
// averaged over the test text in windows of the model's context, for each twin as trained and
// for the scaled twin run without its 1/√d_head; and each head's induction score on repeated
// random word sequences. The page names heads from these numbers, never from one sentence; the
// core computes every one of them (engine model.measureHeads), this script only writes them.
// Deterministic: the same weights and test text give the same file.
//   node scripts/model/measure-heads.mjs [--from build/model] [--to web/assets/model] [--windows N]
// (--windows N: the first N windows only, as tests/js/model-heads.test.mjs runs it)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { repeatedSequences } from '../../web/api/model.js';
import { createEngine } from '../../web/core/engine.js';

// The repeated sequences (web/lesson/trained-model.js, repeatedSequences: the page draws its own the same way).
export const INDUCTION = Object.freeze({ span: 24, repeats: 32, pool: 2000, seed: 20 });

const round = (x) => Number(x.toFixed(4));

/** Measures both twins; returns model.json's `heads`. */
export async function measureHeads({ assets, testIds, windows = Infinity }) {
  const engine = await createEngine();
  const vocabulary = readFileSync(join(assets, 'vocab.txt'), 'utf8');
  const out = { text: 'test', windows: 0, induction: { ...INDUCTION } };
  for (const variant of ['scaled', 'unscaled']) {
    const model = await engine.loadModel(readFileSync(join(assets, `${variant}.weights`)), vocabulary);
    const T = model.config.context;
    const count = Math.min(windows, Math.floor(testIds.length / T));
    const sentences = Array.from({ length: count }, (_, w) => Array.from(testIds.subarray(w * T, (w + 1) * T), (id) => model.vocabulary[id]));
    out.windows = count;
    // the core measures every head (cpp/model/heads.hpp): averages, roles, induction, even rows
    const runs = { asTrained: model.measureHeads(sentences) };
    if (model.config.scaled) runs.withoutScale = model.measureHeads(sentences, { scaleAtInference: false });
    const repeats = model.measureHeads(repeatedSequences(model.vocabulary, INDUCTION), { span: INDUCTION.span });
    out.even = round(runs.asTrained.even); // a share of `previous`, `first` or `self` for even rows
    out.induction.even = round(repeats.evenInduction);
    out[variant] = Object.fromEntries(Object.entries(runs).map(([run, { heads }]) => [run, heads.map((h, i) => ({
      layer: h.layer, head: h.head, role: h.role,
      ...Object.fromEntries(['previous', 'first', 'self', 'spread'].map((key) => [key, round(h[key])])),
      ...(run === 'asTrained' ? { induction: round(repeats.heads[i].induction) } : {}),
    }))]));
    model.dispose();
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const option = (name, fallback) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : fallback;
  };
  const from = option('--from', 'build/model');
  const to = option('--to', 'web/assets/model');
  const windows = Number(option('--windows', Infinity));
  let bytes;
  try {
    bytes = readFileSync(join(from, 'test.bin'));
  } catch {
    console.error(`measure-heads: ${join(from, 'test.bin')} is missing: run npm run train:model first`);
    process.exit(1);
  }
  const testIds = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
  const heads = await measureHeads({ assets: to, testIds, windows });
  const file = join(to, 'model.json');
  const model = JSON.parse(readFileSync(file, 'utf8'));
  model.heads = heads;
  writeFileSync(file, `${JSON.stringify(model, null, 1)}\n`);
  for (const variant of ['scaled', 'unscaled'])
    console.log(`measure-heads: ${variant}: ${heads[variant].asTrained.map((h) => `${h.layer}.${h.head} ${h.role} (induction ${h.induction})`).join(', ')}`);
}
