// The lab's inputs: settings (web/lab/settings.js) → the Q, K and V an attention head sees,
// built by the engine from GloVe word vectors, the sinusoidal positional encoding and seeded
// random projections. A word the files lack gets a vector made from the known words around it
// in the sentence (engine.induceInSentence with the vocabulary's context map: à la carte, Khodak
// et al. 2018); with none around it, a text-seeded one (it stays unknown). No DOM, and no arithmetic here:
// every number comes from the vocabulary or the engine, so the same code runs in a page and in
// Node. Arrays are row-major Float32Arrays, t tokens × width; they are shared with the lab's
// state (and cached here) and must be treated as read-only.
import { localError } from '../i18n/i18n.js';

/** Width of the GloVe vectors (web/assets/glove/). */
export const WORD_DIM = 100;

// An unknown word gets N(0, σ²) components with σ = 0.54: the root-mean-square component of
// the vocabulary's 20,000 vectors (0.540 over all 2,000,000 components; 0.59 over the 1,000
// most frequent words). With it, an unknown word's vector has the length of a typical
// known one (≈ 5.4), so its dot products — and its share of attention — are neither drowned
// out nor dominant: "not in vocabulary" changes the direction, not the scale.
export const UNKNOWN_WORD_SIGMA = 0.54;

// Strength of the sinusoidal positional encoding added to the word vectors (Vaswani et al.'s
// formula as is). Its components are sin/cos (RMS ≈ 0.71), comparable with GloVe's (≈ 0.54),
// so turning it on visibly pulls attention towards nearby positions without erasing meaning.
export const POSITIONAL_STRENGTH = 1;

// Random mode's Q and K are engine.headProjections (as projectionWeights, cached per (seed, d_k), then
// projectQK, which give the same numbers bit for bit): head 0 of the lesson's token pipeline
// (cpp/lesson/lesson.hpp: x̂ = LayerNorm(x), then seeded N(0, 1/d_in) W_Q ≠ W_K), so the lesson's sweeps
// pass through the lab's own row. Why the layer norm, with the numbers: docs/architecture.md §5.
// Identity mode (q = k = x) is untouched.

const WEIGHT_CACHE = 12; // (seed, d_k) pairs kept: a d_k slider sweep has 11 stops
const INPUT_CACHE = 12; // built inputs kept, so sweeping d_k back and forth costs one attention call

export class LabPipeline {
  #engine;
  #vocab;
  #words = new Map(); // token text → { vector (Float32Array WORD_DIM), known, source }
  #weights = new Map(); // `${seed}:${dk}` → engine.projectionWeights (W_Q, W_K: WORD_DIM×dk each)
  #inputs = new Map(); // inputKey → inputs (least recently used first)

  constructor(engine, vocab) {
    this.#engine = engine;
    this.#vocab = vocab;
  }

  /** A word's vector and whether the vocabulary knows it (unknown words: engine.textVector). */
  word(text) {
    let entry = this.#words.get(text);
    if (!entry) {
      const known = this.#vocab.vector(text);
      entry = known
        ? { vector: known, known: true, source: this.#vocab.source?.(text) ?? 'glove' }
        : { vector: this.#engine.textVector(text, WORD_DIM, { sigma: UNKNOWN_WORD_SIGMA }), known: false, source: null };
      // a word whose file has not arrived (it failed; Retry asks again) stands in as unknown for
      // now, and is not kept: once its file arrives it is looked up again
      if (!this.#stillLoading(text)) this.#words.set(text, entry);
    }
    return entry;
  }

  #stillLoading(word) {
    return this.#vocab.status?.(word) === 'loading';
  }

  /**
   * The inputs for `settings` (frozen; the same object again for the same inputs):
   *   tokens     the tokens the vectors are made from ([] for pasted vectors)
   *   q (n×d), k (m×d), v (m×dv) | null, n, m, d, dv
   *   queryLabels (n), keyLabels (m): the tokens, or the pasted labels (q1…, k1… without)
   *   known      m booleans: the key's word has a vector — the files', or made from its sentence
   *              (null for pasted vectors)
   *   sources    m of 'glove' | 'induced' (the files') | 'context' (made from this sentence) | null
   *              (unknown: no known word near it); null for pasted vectors
   *   unknown    the distinct tokens with no vector, in order of appearance
   *   x          t×WORD_DIM word vectors (+ positions when on), the values; null when pasted
   *   probe      { text, known, q (1×d) } | null
   * Throws an Error whose message the page can show (no tokens; no paste yet; the engine's).
   */
  inputs(settings) {
    const key = inputKey(settings, this.#vocab.contextMap?.());
    let inputs = this.#inputs.get(key);
    if (inputs) this.#inputs.delete(key);
    else inputs = Object.freeze(settings.projection === 'pasted' ? this.#fromPaste(settings.pasted) : this.#fromWords(settings));
    const provisional = settings.projection !== 'pasted' && [...settings.tokens, settings.probe].some((word) => word && this.#stillLoading(word));
    if (provisional) return inputs; // made with stand-ins for words still loading: not kept
    this.#inputs.set(key, inputs);
    if (this.#inputs.size > INPUT_CACHE) this.#inputs.delete(this.#inputs.keys().next().value);
    return inputs;
  }

  /**
   * Draws the weights of every d_k stop for `seed` ahead of time (call when idle): the first
   * sweep of the d_k slider then costs no random-number generation. Returns false once all
   * are cached.
   */
  prepareProjection(seed, dkSteps) {
    const missing = dkSteps.find((dk) => !this.#weights.has(`${seed}:${dk}`));
    if (missing === undefined) return false;
    this.#projectionWeights(seed, missing);
    return true;
  }

  #fromPaste(pasted) {
    if (!pasted) throw localError(Error, 'paste.first');
    const { q, k, v, n, m, d, dv } = pasted;
    return {
      tokens: [],
      q, k, v, n, m, d, dv,
      queryLabels: pasted.queryLabels ?? numbered('q', n),
      keyLabels: pasted.keyLabels ?? numbered('k', m),
      known: null,
      sources: null,
      unknown: [],
      x: null,
      probe: null,
    };
  }

  #fromWords({ tokens, projection, dk, seed, positional, probe }) {
    const t = tokens.length;
    if (t === 0) throw localError(Error, 'lab.noTokens');
    const entries = tokens.map((token) => this.word(token));
    let x = new Float32Array(t * WORD_DIM);
    entries.forEach(({ vector }, i) => x.set(vector, i * WORD_DIM));
    let sources = entries.map((entry) => entry.source);
    // a word the files lack: A·(the mean of the known words within the map's window), before
    // positions are added (the map was fitted on plain word vectors)
    const map = this.#vocab.contextMap?.() ?? null;
    if (map && sources.includes(null)) {
      const made = this.#engine.induceInSentence({ t, d: WORD_DIM, window: map.window, x, known: Float32Array.from(sources, (s) => (s ? 1 : 0)), a: map.a });
      x = made.vectors;
      sources = sources.map((source, i) => (made.induced[i] === 1 ? 'context' : source));
    }
    if (positional) x = this.#engine.addPositionalEncoding(x, t, WORD_DIM, { strength: POSITIONAL_STRENGTH });

    const probeWord = probe ? this.word(probe) : null;
    let q = x;
    let k = x;
    let d = WORD_DIM;
    let probeQ = probeWord?.vector ?? null;
    if (projection === 'random') {
      // the probe is one more row: LayerNorm is per row, so its q is the one it would get alone
      const rows = probeQ ? t + 1 : t;
      let input = x;
      if (probeQ) {
        input = new Float32Array(rows * WORD_DIM);
        input.set(x);
        input.set(probeQ, t * WORD_DIM);
      }
      const head = this.#engine.projectQK({ x: input, t: rows, weights: this.#projectionWeights(seed, dk) });
      q = head.q.subarray(0, t * dk);
      k = head.k.subarray(0, t * dk);
      if (probeQ) probeQ = head.q.slice(t * dk);
      d = dk;
    }
    const known = sources.map((source) => source !== null);
    return {
      tokens,
      q, k,
      v: x, // W_V = identity: each output row is a weighted average of the (positioned) word vectors
      n: t, m: t, d, dv: WORD_DIM,
      queryLabels: tokens,
      keyLabels: tokens,
      known,
      sources,
      unknown: [...new Set(tokens.filter((_, i) => !known[i]))],
      x,
      probe: probeWord ? Object.freeze({ text: probe, known: probeWord.known, q: probeQ }) : null,
    };
  }

  #projectionWeights(seed, dk) {
    const key = `${seed}:${dk}`;
    let w = this.#weights.get(key);
    if (!w) {
      w = this.#engine.projectionWeights({ dIn: WORD_DIM, seed, head: 0, d: dk });
      if (this.#weights.size >= WEIGHT_CACHE) this.#weights.delete(this.#weights.keys().next().value);
      this.#weights.set(key, w);
    }
    return w;
  }
}

// Everything the inputs depend on; scale, temperature, causal and the selected row do not.
// `map`: whether the vocabulary's context map is there (a word the files lack then gets a vector).
function inputKey({ projection, tokens, positional, seed, dk, probe, pasted }, map) {
  if (projection === 'pasted') return `pasted\u0001${pasted?.id ?? ''}`;
  return [projection, tokens.join('\u0000'), positional, probe, projection === 'random' ? `${seed}:${dk}` : '', map ? 1 : 0].join('\u0001');
}

function numbered(prefix, count) {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
}
