// A trained language model (cpp/model.hpp): the weights held by the engine (engine.loadModel),
// its vocabulary here. The engine checks and makes every call (its table MODEL_CALLS in
// web/core/calls.js); a model maps the lab's tokens to its ids and shapes what the core reports.
import { describe, typeError } from './errors.js';
import { Held, use } from './held.js';

/**
 * A loaded model. predict(tokens) runs one sentence: every layer's and head's attention, what
 * each head does, and the next-word distribution after one position.
 */
export class LanguageModel extends Held {
  #roles; // role names by number (cpp/model.hpp, head_role)
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
    /** How a head's role is named from its profile (cpp/model.hpp, head_role). */
    this.roleRule = Object.freeze({ ...core.thresholds });
  }

  /** The model's id of each token (the lab's tokens: lower case), 0 for a word it does not know. */
  ids(tokens) {
    return tokens.map((token) => this.#ids.get(typeof token === 'string' ? token.toLowerCase() : token) ?? 0);
  }

  /**
   * One sentence (the lab's tokens; at most config.context) through the model. Returns
   * { tokens, ids, known (per token), position, attention: [layer][head] → Float32Array T×T
   * (row = query, causal), heads: [{ layer, head (both from 1), role, previous, first, self,
   * spread }], even (what even rows would put on the previous, the first and the own token at
   * this T, over rows 2…T), next: { probs (Float32Array, one per id), words: [{ word, id, probability }],
   * unknown, entropy, temperature }, scaleAtInference }: `next` is the distribution of the word
   * after `position` (default the last token) at `temperature`, `words` its `top` most likely.
   * scaleAtInference false takes the 1/√d_head out of a model trained with it (its scores ×
   * √d_head); a model trained without it is unchanged.
   */
  predict(tokens, { position = tokens.length - 1, temperature = 1, top = 10, scaleAtInference = true } = {}) {
    if (!Array.isArray(tokens)) throw typeError(`model.predict: tokens must be an array of the lab's tokens, got ${describe(tokens)}`);
    const ids = this.ids(tokens);
    const r = use(this, 'predict', { tokens: Float32Array.from(ids), position, temperature, top, scaleAtInference });
    const { layers, heads } = this.config;
    const T = ids.length;
    const attention = Array.from({ length: layers }, (_, l) =>
      Array.from({ length: heads }, (_, h) => r.attention.subarray((l * heads + h) * T * T, (l * heads + h + 1) * T * T)));
    const profiles = [];
    for (let l = 0; l < layers; l++)
      for (let h = 0; h < heads; h++) {
        const i = l * heads + h;
        profiles.push({ layer: l + 1, head: h + 1, role: this.#roles[r.role[i]],
          previous: r.previous[i], first: r.first[i], self: r.self[i], spread: r.spread[i] });
      }
    const words = Array.from(r.next.ids, (id, k) => ({ word: this.vocabulary[id], id, probability: r.next.probabilities[k] }));
    return {
      tokens: [...tokens], ids, known: ids.map((id) => id !== 0), position,
      attention, heads: profiles, even: r.even,
      next: { probs: r.next.all, words, unknown: r.next.unknown, entropy: r.next.entropy, temperature },
      scaleAtInference,
    };
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
