// What each head of the shipped twins measurably does (issue 20, docs/model.md), written into
// web/assets/model/model.json as `heads`: every head's profile (cpp/model/model.hpp, head_profile)
// averaged over the test text in windows of the model's context, for each twin as trained and
// for the scaled twin run without its 1/√d_head; and each head's induction score on repeated
// random word sequences. The page names heads from these numbers, never from one sentence.
// Deterministic: the same weights and test text give the same file.
//   node scripts/model/measure-heads.mjs [--from build/model] [--to web/assets/model] [--windows N]
// (--windows N: the first N windows only, as tests/js/model-heads.test.mjs runs it)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { repeatedSequences } from '../../web/api/model.js';
import { createEngine } from '../../web/core/engine.js';

// The repeated sequences (web/api/model.js, repeatedSequences: the page draws its own the same way).
export const INDUCTION = Object.freeze({ span: 24, repeats: 32, pool: 2000, seed: 20 });

// A head's average over sentences of what predict() reports for it.
function averageProfiles(model, sentences, options) {
  const { layers, heads } = model.config;
  const sums = Array.from({ length: layers * heads }, () => ({ previous: 0, first: 0, self: 0, spread: 0 }));
  for (const tokens of sentences) {
    for (const [i, p] of model.predict(tokens, options).heads.entries())
      for (const key of Object.keys(sums[i])) sums[i][key] += p[key];
  }
  return sums.map((s) => Object.fromEntries(Object.entries(s).map(([key, value]) => [key, value / sentences.length])));
}

// The mean weight a head puts, at each word of the second copy, on the word after its first
// occurrence.
function inductionScores(model, sequences, span) {
  const { layers, heads } = model.config;
  const scores = new Array(layers * heads).fill(0);
  let rows = 0;
  for (const tokens of sequences) {
    const T = tokens.length;
    const { attention } = model.predict(tokens);
    for (let i = span; i < T; i++) {
      for (let l = 0; l < layers; l++)
        for (let h = 0; h < heads; h++) scores[l * heads + h] += attention[l][h][i * T + i - span + 1];
      rows++;
    }
  }
  return scores.map((s) => s / rows);
}

// The name of an averaged profile, by the rule and thresholds of cpp/model/model.hpp (head_role), as
// model.roleRule gives them; tests/js/model-heads.test.mjs holds this to the core's own naming.
export function roleOf({ previous, first, self, spread }, { share, spread: broad }) {
  const best = Math.max(previous, first, self);
  if (best >= share) return previous === best ? 'previous' : first === best ? 'first' : 'self';
  return spread >= broad ? 'broad' : 'mixed';
}

const round = (x) => Number(x.toFixed(4));

// What a head spreading every row evenly would score, for comparison: a row i (from 0) gives
// 1/(i+1) to each of its positions; profiles average rows 1…T−1, induction rows SPAN…2·SPAN−1.
function evenRows(from, to) {
  let sum = 0;
  for (let i = from; i < to; i++) sum += 1 / (i + 1);
  return round(sum / (to - from));
}

/** Measures both twins; returns model.json's `heads`. */
export async function measureHeads({ assets, testIds, windows = Infinity }) {
  const engine = await createEngine();
  const vocabulary = readFileSync(join(assets, 'vocab.txt'), 'utf8');
  const out = { text: 'test', windows: 0, induction: { ...INDUCTION, even: evenRows(INDUCTION.span, 2 * INDUCTION.span) } };
  for (const variant of ['scaled', 'unscaled']) {
    const model = await engine.loadModel(readFileSync(join(assets, `${variant}.weights`)), vocabulary);
    const T = model.config.context;
    const count = Math.min(windows, Math.floor(testIds.length / T));
    const sentences = Array.from({ length: count }, (_, w) => Array.from(testIds.subarray(w * T, (w + 1) * T), (id) => model.vocabulary[id]));
    out.windows = count;
    out.even = evenRows(1, T); // a share of `previous`, `first` or `self` for even rows
    const runs = { asTrained: averageProfiles(model, sentences, {}) };
    if (model.config.scaled) runs.withoutScale = averageProfiles(model, sentences, { scaleAtInference: false });
    const sequences = repeatedSequences(model.vocabulary, INDUCTION);
    const induction = inductionScores(model, sequences, INDUCTION.span);
    out[variant] = Object.fromEntries(Object.entries(runs).map(([run, profiles]) => [run, profiles.map((p, i) => ({
      layer: Math.floor(i / model.config.heads) + 1,
      head: (i % model.config.heads) + 1,
      role: roleOf(p, model.roleRule),
      ...Object.fromEntries(Object.entries(p).map(([key, value]) => [key, round(value)])),
      ...(run === 'asTrained' ? { induction: round(induction[i]) } : {}),
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
