// The trained language model (`attention-lab/model` publishes it: web/api/model.js): either twin
// of docs/model.md — the same small transformer trained with and without √d_k — loaded from the
// package's own files with its training curves, run on a text the way the page runs it; and
// attention from any other model. <model-view> and the public API both stand on this module.
//
//   const model = await loadModel({ variant: 'scaled' });
//   const r = model.run('the cat sat on the');
//   r.attention[0][2];          // layer 1, head 3: n×n, row = query, causal
//   r.next.top[0];              // { word, id, probability }: the most likely next word
//   model.run('the cat sat on the', { scaleAtInference: false });   // the rows without √d_k
//   await attentionFromBertViz(jsonText);   // any model's attention, in BertViz's shape, checked
//   await loadCurves();         // { scaled, unscaled }: the twins' training curves
//
// Node reads the files with node:fs; a browser fetches them relative to this module (2 MB per
// twin). Every error thrown here carries `code` (ATTN_INVALID_ARGUMENT; ATTN_LOAD_FAILED or
// ATTN_INVALID_ASSET, the file's address first, for a file that cannot be read or is not right;
// or the engine's own).
import { createEngine } from '../core/engine.js';
import { coded, describe, literal, rangeError, typeError } from '../core/errors.js';
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
    const url = (name) => new URL(name, base);
    const readText = async (name) => new TextDecoder().decode(await readBytes(url(name)));
    const loading = Promise.all([readText(`model.json`), readText(`vocab.txt`), readText(`unigram.txt`)]).then(([json, vocabulary, counts]) => {
      const words = vocabularyWords(vocabulary, url(`vocab.txt`));
      return { description: modelJson(json, url(`model.json`)), vocabulary, counts: unigramCounts(counts, words.length, url(`unigram.txt`)) };
    });
    described.set(key, loading);
    loading.catch(() => described.delete(key)); // a failed read is tried again next time
  }
  return described.get(key);
}

// A fault of one of the model's files: its address first (the page names the file from it), a
// code as every error here carries.
const assetError = (file, why) => coded(new Error(`${file.href}: ${why}`), ASSET_INVALID);
const ASSET_INVALID = 'ATTN_INVALID_ASSET';

// model.json: JSON, and every field the model reads from it there, for both twins.
function modelJson(text, file) {
  let d;
  try {
    d = JSON.parse(text);
  } catch (error) {
    throw assetError(file, `not JSON (${error.message})`);
  }
  const missing = (path) => assetError(file, `has no ${path}`);
  if (d === null || typeof d !== 'object' || Array.isArray(d)) throw assetError(file, `expected an object, got ${describe(d)}`);
  if (typeof d.source !== 'string') throw missing('"source" text');
  for (const field of ['split', 'settings', 'twins', 'heads']) if (d[field] === null || typeof d[field] !== 'object') throw missing(`"${field}" object`);
  if (!Array.isArray(d.baselines)) throw missing('"baselines" array');
  if (!d.heads || !Number.isFinite(d.heads.windows)) throw missing('"windows" in "heads"');
  for (const variant of VARIANTS) {
    const twin = d.twins[variant];
    const shipped = twin?.encodings?.[twin?.shipped];
    if (!shipped) throw missing(`twins.${variant}.encodings[twins.${variant}.shipped]`);
    if (!Number.isFinite(shipped.bytes) || !Number.isFinite(shipped.testPerplexity)) throw missing(`bytes and testPerplexity of twins.${variant}'s shipped encoding`);
    if (!Array.isArray(d.heads[variant]?.asTrained)) throw missing(`heads.${variant}.asTrained`);
  }
  return d;
}

// vocab.txt: one token a line (line i is id i), "\n" only, no token twice, none empty.
function vocabularyWords(text, file) {
  if (text.includes('\r')) throw assetError(file, 'has Windows line endings (CR LF): every token would end in a CR and be unknown; save it with LF line endings');
  const words = text.replace(/\n$/, '').split('\n');
  const seen = new Map();
  words.forEach((word, id) => {
    if (word === '') throw assetError(file, `line ${id + 1} is empty: every line is one token`);
    if (seen.has(word)) throw assetError(file, `${literal(word)} is on line ${seen.get(word) + 1} and on line ${id + 1}: each token once`);
    seen.set(word, id);
  });
  return words;
}

// unigram.txt: one count a line, a whole number ≥ 0 for each token of the vocabulary.
function unigramCounts(text, tokens, file) {
  if (text.includes('\r')) throw assetError(file, 'has Windows line endings (CR LF); save it with LF line endings');
  const lines = text.trimEnd().split('\n');
  if (lines.length !== tokens) throw assetError(file, `has ${lines.length} counts, the vocabulary ${tokens} tokens`);
  return lines.map((line, i) => {
    if (!/^\d+$/.test(line)) throw assetError(file, `line ${i + 1} is ${literal(line)}, expected a whole number`);
    return Number(line);
  });
}

/**
 * Attention from any model in BertViz's shape (web/lesson/supplied.js): JSON text, its parsed value
 * ({ tokens, attention } or an array of layers with `tokens` given), or the bytes of a JSON or
 * .npy file → { tokens, attention: [layer][head] Float32Array n×n, heads, causal, worstRowError },
 * checked by the core (finite, ≥ 0, each row summing to 1 within engine.limits.supplied.rowSumTolerance).
 */
export async function attentionFromBertViz(data, { tokens, engine } = {}) {
  return readAttention(data, { tokens, engine: engine ?? (sharedEngine ??= await createEngine()) });
}

/** The bytes of a file of attention (`url`), read as the model's own files are (a failure names the address). */
export function readAttentionFile(url) {
  return readBytes(url);
}

/** The columns of a training curve file (<variant>-curve.tsv, written by the training driver). */
export const CURVE_COLUMNS = Object.freeze(['step', 'lr', 'train_loss', 'validation_loss']);

/**
 * One curve file's text → { steps (Int32Array), train (Float64Array: the loss of each step's
 * batch), heldOut: [{ step, loss, train }] (the rows with a validation loss) }. A file that is not
 * such a curve (another header, a row that is not numbers) throws, saying where.
 */
export function parseCurve(text) {
  const lines = String(text).trimEnd().split(/\r?\n/);
  const header = lines[0].split('\t');
  if (header.join('\t') !== CURVE_COLUMNS.join('\t')) throw new Error(`not a training curve: its first line is "${lines[0].slice(0, 80)}", expected "${CURVE_COLUMNS.join(' ')}"`);
  const count = lines.length - 1;
  const steps = new Int32Array(count);
  const train = new Float64Array(count);
  const heldOut = [];
  for (let i = 0; i < count; i++) {
    const [step, , loss, validation = ''] = lines[i + 1].split('\t');
    steps[i] = Number(step);
    train[i] = Number(loss);
    if (!Number.isInteger(steps[i]) || step === '' || loss === '' || !Number.isFinite(train[i]) || (i > 0 && steps[i] <= steps[i - 1]))
      throw new Error(`line ${i + 2} of the training curve is not a step and its loss: "${lines[i + 1].slice(0, 80)}"`);
    if (validation !== '') {
      const value = Number(validation);
      if (!Number.isFinite(value)) throw new Error(`line ${i + 2} of the training curve has a held-out loss that is not a number`);
      heldOut.push({ step: steps[i], loss: value, train: train[i] });
    }
  }
  if (count === 0 || heldOut.length === 0) throw new Error('the training curve has no held-out loss');
  return { steps, train, heldOut };
}

/**
 * The twins' training curves, { scaled, unscaled } (parseCurve of each <variant>-curve.tsv, from
 * `base`, the package's files by default). A file that cannot be read or parsed throws, its
 * address first in the message.
 */
export async function loadCurves({ base } = {}) {
  const folder = new URL(base ?? DEFAULT_BASE, import.meta.url);
  const read = async (variant) => {
    const url = new URL(`${variant}-curve.tsv`, folder);
    const text = new TextDecoder().decode(await readBytes(url));
    try {
      return parseCurve(text);
    } catch (error) {
      throw new Error(`${url.href}: ${error.message}`);
    }
  };
  const [scaled, unscaled] = await Promise.all([read('scaled'), read('unscaled')]);
  return Object.freeze({ scaled, unscaled });
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
  const weightsFile = new URL(`${variant}.weights`, folder);
  const [{ description, vocabulary, counts }, weights] = await Promise.all([assets, readBytes(weightsFile, { onProgress, total: size })]);
  let model;
  try {
    model = await engine.loadModel(weights, vocabulary);
  } catch (error) {
    error.message = `${weightsFile.href}: ${error.message}`; // which file: the weights, or the vocabulary that does not fit them
    throw error;
  }
  // the file's name says the variant; the weights' own flag says how they were trained
  if (model.config.scaled !== (variant === 'scaled')) {
    model.dispose();
    throw assetError(weightsFile, `these weights were trained ${model.config.scaled ? 'with' : 'without'} 1/√d_k: they are not the ${variant} twin's`);
  }
  return new TrainedModel(model, variant, description, counts);
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
      // how it was trained: the share of windows that repeat a span (of random words), attention-only layers
      training: description.training ? Object.freeze({ ...description.training, options: Object.freeze([...description.training.options]) }) : null,
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
   * token after which the next word is predicted (default the last). `span` > 0: the text repeats
   * with that period (repeatedSequences), and each head's `induction` score is measured.
   */
  run(text, { scaleAtInference = true, temperature = 1, position, span = 0 } = {}) {
    if (typeof text !== 'string' && !Array.isArray(text)) throw typeError(`model.run: text must be a string or an array of tokens, got ${describe(text)}`);
    const all = typeof text === 'string' ? tokenize(text) : text;
    const notText = all.findIndex((token) => typeof token !== 'string');
    if (notText >= 0) throw typeError(`model.run: token ${notText + 1} is ${describe(all[notText])}, expected a string`);
    if (all.length === 0) throw rangeError('model.run: the text has no tokens: type at least one word');
    if (typeof scaleAtInference !== 'boolean') throw typeError(`model.run: scaleAtInference must be true or false, got ${describe(scaleAtInference)}`);
    const r = this.#model.predict(all, { temperature, top: TOP, scaleAtInference, position, span });
    return {
      ...r,
      ...(r.truncated ? { message: `the model reads at most ${this.info.context} tokens: the last ${r.truncated} were left out` } : {}),
      temperature,
    };
  }

  /** Gives the model's memory back; run() throws after. */
  dispose() {
    this.#model.dispose();
  }
}
