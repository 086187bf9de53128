// A trained language model (cpp/model/model.hpp): the weights held by the engine (engine.loadModel),
// its vocabulary here. The engine checks and makes every call (its table MODEL_CALLS in
// web/core/calls.js); a model maps the lab's tokens to its ids, keeps a text within its context,
// and shapes what the core reports (heads.js), under the core's names.
import { describe, rangeError, typeError } from './errors.js';
import { byHead, headRecords } from './heads.js';
import { Held, use } from './held.js';

/**
 * A loaded model. predict(tokens) runs one sentence: every layer's and head's attention, what
 * each head does, and the next-word distribution after one position.
 */
export class LanguageModel extends Held {
  #roles; // role names by number (cpp/model/heads.hpp, HeadRole)
  #ids; // token → id

  constructor(core, registry, loaded, words) {
    super(core, registry, loaded.id, 'model');
    this.#roles = core.roles;
    this.#ids = new Map(words.map((word, id) => [word, id]));
    /** The model's settings, as its weights file gives them. */
    this.config = Object.freeze({
      vocab: loaded.vocab, context: loaded.context, layers: loaded.layers, heads: loaded.heads,
      dModel: loaded.dModel, dHead: loaded.dModel / loaded.heads, scaled: loaded.scaled, scale: loaded.scale,
      parameters: loaded.parameters, encoding: ['float32', 'float16', 'int8'][loaded.encoding],
    });
    /** Its tokens, by id (id 0 is `<unk>`, every word it does not know). */
    this.vocabulary = Object.freeze(words);
    /** How a head's role is named from its profile (cpp/model/heads.hpp, head_role). */
    this.roleRule = Object.freeze({ ...core.thresholds });
  }

  /** The model's id of each token (the lab's tokens: lower case), 0 for a word it does not know. */
  ids(tokens) {
    return tokens.map((token) => this.#ids.get(typeof token === 'string' ? token.toLowerCase() : token) ?? 0);
  }

  /**
   * One sentence (the lab's tokens) through the model; past config.context tokens the rest is
   * left out (`truncated` says how many). Returns { tokens (those read), ids, known (per token),
   * truncated, position, attention: [layer][head] → Float32Array T×T (row = query, causal),
   * heads: [{ layer, head (both from 1), role, previous, first, self, spread, induction? }],
   * meanSpread (the heads' spreads' mean), even (what even rows would put on the previous, the
   * first and the own token at this T, over rows 2…T),
   * next: { probs (Float32Array, one per id), top: [{ word, id, probability }], unknown,
   * entropy, temperature }, scaleAtInference }: `next` is the distribution of the word after
   * `position` (default the last token read) at `temperature`, `top` its `top` most likely.
   * scaleAtInference false takes the 1/√d_head out of a model trained with it (its scores ×
   * √d_head); a model trained without it is unchanged. `span` > 0: the tokens repeat with that
   * period, and each head's `induction` score is measured (cpp/model/heads.hpp).
   */
  predict(tokens, { position, temperature = 1, top = 10, scaleAtInference = true, span = 0 } = {}) {
    if (!Array.isArray(tokens)) throw typeError(`model.predict: tokens must be an array of the lab's tokens, got ${describe(tokens)}`);
    const read = tokens.slice(0, this.config.context);
    position ??= read.length - 1;
    const ids = this.ids(read);
    const r = use(this, 'predict', { tokens: Float32Array.from(ids), position, temperature, top, scaleAtInference, span });
    const { layers, heads } = this.config;
    return {
      tokens: read, ids, known: ids.map((id) => id !== 0), truncated: tokens.length - read.length, position,
      attention: byHead(r.attention, layers, heads, ids.length), heads: headRecords(r, layers, heads, this.#roles), meanSpread: r.meanSpread, even: r.even,
      next: {
        probs: r.next.all,
        top: Array.from(r.next.ids, (id, k) => ({ word: this.vocabulary[id], id, probability: r.next.probabilities[k] })),
        unknown: r.next.unknown, entropy: r.next.entropy, temperature,
      },
      scaleAtInference,
    };
  }

  /**
   * What each head does over a text: `windows`, sequences of the lab's tokens of one length
   * (≤ config.context), each run through the model; every head's profile averaged over them,
   * its role named from that average, and with `span` > 0 (every window repeats with that
   * period) its induction score averaged (cpp/model/heads.hpp, measure_heads). Returns
   * { heads: [{ layer, head, role, previous, first, self, spread, induction? }], even, evenInduction? }:
   * what a head spreading every row evenly would score as previous, first or self, and as induction.
   */
  measureHeads(windows, { scaleAtInference = true, span = 0 } = {}) {
    if (!Array.isArray(windows) || !windows.every(Array.isArray)) throw typeError(`model.measureHeads: windows must be an array of token arrays, got ${describe(windows)}`);
    const length = windows[0]?.length ?? 0;
    const other = windows.findIndex((w) => w.length !== length);
    if (other > 0) throw rangeError(`model.measureHeads: windows[${other}] has ${windows[other].length} tokens, windows[0] ${length}: give windows of one length`, 'ATTN_INVALID_SHAPE');
    const ids = Float32Array.from(windows.flatMap((w) => this.ids(w)));
    const r = use(this, 'measureHeads', { tokens: ids, length, span, scaleAtInference });
    const { layers, heads } = this.config;
    return { heads: headRecords(r, layers, heads, this.#roles), even: r.even, ...(span > 0 ? { evenInduction: r.evenInduction } : {}) };
  }

  /**
   * One training step on `batch` windows of the model's token ids (`windows`: batch × (T + 1)
   * ids, row-major, T ≤ config.context; a window's first T ids are the inputs, its last T the
   * targets): forward, backward, the gradient's norm clipped at 1, AdamW (β1 0.9, β2 0.95, eps
   * 1e-8, weight decay 0.1 on the matrices and embeddings) at `learningRate` — the native
   * training driver's step. The weights change: predict() answers with the trained model after.
   * Returns { loss (the batch's mean, nats, before the update), gradNorm (before clipping), steps }.
   */
  trainStep(windows, { batch, learningRate } = {}) {
    return use(this, 'trainStep', { tokens: windows, batch, learningRate });
  }
}
