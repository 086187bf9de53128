// The trained language model as an API (`attention-lab/model`): either twin of docs/model.md —
// the same small transformer trained with and without √d_k — loaded from the package's own
// files, run on a text the way the page runs it.
//
//   const model = await loadModel({ variant: 'scaled' });
//   const r = model.run('the cat sat on the');
//   r.attention[0][2];          // layer 1, head 3: n×n, row = query, causal
//   r.next.top[0];              // { word, p }: the most likely next word
//   model.run('the cat sat on the', { scaleAtInference: false });   // the rows without √d_k
//   await attentionFromBertViz(jsonText);   // any model's attention, in BertViz's shape, checked
//
// Node reads the files with node:fs; a browser fetches them relative to this module (2 MB per
// twin). Every error thrown here carries `code` (ATTN_INVALID_ARGUMENT, or the engine's own).
import { createEngine } from '../core/engine.js';
import { describe, literal, rangeError, typeError } from '../core/errors.js';
import { mulberry32 } from '../core/random.js';
import { readBytes } from '../core/vocab.js';
import { tokenize } from '../lab/tokenize.js';
import { readAttention } from './supplied.js';

/** The twins: trained with scores × 1/√d_k, and without. */
export const VARIANTS = Object.freeze(['scaled', 'unscaled']);

const DEFAULT_BASE = new URL('../assets/model/', import.meta.url);

/**
 * Sequences to look for induction heads in: `repeats` runs of `span` random words from the `pool`
 * most frequent (after <unk>), each followed by itself, drawn from `seed` (the same words every
 * time). A head that finds a word's earlier copy and reads on looks, at a word of the second
 * copy, at the word after the first (position i − span + 1).
 */
export function repeatedSequences(vocabulary, { span = 24, repeats = 1, pool = 2000, seed = 1 } = {}) {
  const draw = mulberry32(seed);
  const next = () => draw() / 4294967296;
  return Array.from({ length: repeats }, () => {
    const half = Array.from({ length: span }, () => vocabulary[1 + Math.floor(next() * pool)]);
    return [...half, ...half];
  });
}

const TOP = 10; // next words listed in `top`

let sharedEngine = null;
const described = new Map(); // base URL → model.json, vocabulary text and unigram, read once

async function assetsOf(base) {
  const key = base.href;
  if (!described.has(key)) {
    // (file names in backticks: tests/js/i18n.test.mjs reads a quoted 'vocab.…' as a string key)
    const readText = async (name) => new TextDecoder().decode(await readBytes(new URL(name, base)));
    const loading = Promise.all([readText(`model.json`), readText(`vocab.txt`), readText(`unigram.txt`)]).then(([json, vocabulary, counts]) => ({
      description: JSON.parse(json), vocabulary, counts: counts.trimEnd().split('\n').map(Number),
    }));
    described.set(key, loading);
    loading.catch(() => described.delete(key)); // a failed read is tried again next time
  }
  return described.get(key);
}

/**
 * Attention from any model in BertViz's shape (web/api/supplied.js): JSON text, its parsed value
 * ({ tokens, attention } or an array of layers with `tokens` given), or the bytes of a JSON or
 * .npy file → { tokens, attention: [layer][head] Float32Array n×n, heads, causal, worstRowError },
 * checked by the core (finite, ≥ 0, each row summing to 1 within engine.limits.supplied.rowSumTolerance).
 */
export async function attentionFromBertViz(data, { tokens, engine } = {}) {
  return readAttention(data, { tokens, engine: engine ?? (sharedEngine ??= await createEngine()) });
}

/** What the package's twins are (model.json: their settings, corpus, perplexities), without loading weights. */
export async function modelDescription({ base } = {}) {
  return (await assetsOf(new URL(base ?? DEFAULT_BASE, import.meta.url))).description;
}

/**
 * One twin, ready to run: `variant` 'scaled' (default) or 'unscaled'; `engine` to share one
 * (default: one made for the models); `base` the folder of the files (default the package's);
 * `onProgress({ loaded, total })` told of the weights' bytes as they arrive (total: model.json's
 * size of the file, 0 until it is read).
 */
export async function loadModel({ variant = 'scaled', engine, base, onProgress } = {}) {
  if (!VARIANTS.includes(variant)) throw rangeError(`loadModel: variant ${literal(variant)} is not valid: expected 'scaled' or 'unscaled'`);
  if (onProgress !== undefined && typeof onProgress !== 'function') throw typeError(`loadModel: onProgress must be a function, got ${describe(onProgress)}`);
  const folder = new URL(base ?? DEFAULT_BASE, import.meta.url);
  engine ??= sharedEngine ??= await createEngine();
  const assets = assetsOf(folder);
  const size = assets.then(({ description }) => {
    const twin = description.twins[variant];
    return twin.encodings[twin.shipped].bytes;
  }).catch(() => 0); // what failed is said by the read of model.json itself
  const [{ description, vocabulary, counts }, weights] = await Promise.all([assets, readBytes(new URL(`${variant}.weights`, folder), { onProgress, total: size })]);
  return new TrainedModel(await engine.loadModel(weights, vocabulary), variant, description, counts);
}

class TrainedModel {
  #model;

  constructor(model, variant, description, counts) {
    this.#model = model;
    const c = model.config;
    const twin = description.twins[variant];
    this.variant = variant;
    /** The model's shape, its corpus and how well it predicts held-out text. */
    this.info = Object.freeze({
      variant, layers: c.layers, heads: c.heads, dModel: c.dModel, dK: c.dHead, vocabSize: c.vocab, context: c.context,
      parameters: c.parameters, scaled: c.scaled, encoding: c.encoding,
      corpus: Object.freeze({ source: description.source, ...description.split }),
      heldOutPerplexity: twin.encodings[twin.shipped].testPerplexity,
      baselines: Object.freeze(description.baselines.map((b) => Object.freeze({ ...b }))),
      headMeasurements: Object.freeze(description.heads[variant].asTrained.map((h) => Object.freeze({ ...h }))),
      // over what: the test text's windows, and what even rows would score there and on repeats
      measuredOver: Object.freeze({ windows: description.heads.windows, tokens: c.context, even: description.heads.even, induction: Object.freeze({ ...description.heads.induction }) }),
    });
    /** The other twin's perplexity and head measurements, to compare with. */
    const other = VARIANTS.find((v) => v !== variant);
    this.twin = Object.freeze({
      variant: other,
      heldOutPerplexity: description.twins[other].encodings[description.twins[other].shipped].testPerplexity,
      headMeasurements: Object.freeze(description.heads[other].asTrained.map((h) => Object.freeze({ ...h }))),
    });
    /** Its tokens by id (id 0 `<unk>`: every word it does not know). */
    this.vocab = model.vocabulary;
    const total = counts.reduce((a, b) => a + b, 0);
    /** Each token's probability in the training text (word → p; `<unk>` for all it does not know). */
    this.unigram = Object.freeze(Object.fromEntries(model.vocabulary.map((word, id) => [word, counts[id] / total])));
  }

  /**
   * `text` (or the lab's tokens, an array) through the model: every layer's and head's rows and
   * the next word after the last token. `scaleAtInference` false runs the scaled twin without
   * its 1/√d_k (the unscaled twin has none to remove); `temperature` divides the logits.
   * Past `info.context` tokens the rest is cut, and `truncated` says how many. `position`: the
   * token after which the next word is predicted (default the last).
   */
  run(text, { scaleAtInference = true, temperature = 1, position } = {}) {
    if (typeof text !== 'string' && !Array.isArray(text)) throw typeError(`model.run: text must be a string or an array of tokens, got ${describe(text)}`);
    const all = typeof text === 'string' ? tokenize(text) : text;
    if (all.length === 0) throw rangeError('model.run: the text has no tokens: type at least one word');
    if (typeof scaleAtInference !== 'boolean') throw typeError(`model.run: scaleAtInference must be true or false, got ${describe(scaleAtInference)}`);
    const tokens = all.slice(0, this.info.context);
    const r = this.#model.predict(tokens, { temperature, top: TOP, scaleAtInference, position: position ?? tokens.length - 1 });
    return {
      tokens: r.tokens, ids: r.ids, known: r.known,
      truncated: all.length - tokens.length,
      ...(all.length > tokens.length ? { message: `the model reads at most ${this.info.context} tokens: the last ${all.length - tokens.length} were left out` } : {}),
      position: r.position, attention: r.attention, heads: r.heads, even: r.even,
      next: { probs: r.next.probs, top: r.next.words.map(({ word, probability }) => ({ word, p: probability })), unknown: r.next.unknown, entropy: r.next.entropy },
      scaleAtInference, temperature,
    };
  }

  /** Gives the model's memory back; run() throws after. */
  dispose() {
    this.#model.dispose();
  }
}
