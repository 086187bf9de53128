// What the tests share: the seeded generator of their inputs and the float64 references their
// expectations come from — written from the formula, no code shared with the core, so that a
// wrong core fails them. Used by tests/js/ and tests/browser/. The float64 attention of a
// sentence (softmax64, dot64, sentenceWeights64, topOther) lives in scripts/float64.mjs, which
// scripts/build-vocab.mjs measures the stored vectors' precision with, as vocab.test checks it.
//
//   const next = uniforms(20261203);  next() → [0, 1)        normals(count, seed) → Float32Array
//   softmax64(scores, temperature)   → float64 weights       rowReference(s, i, options) → one row
//   referenceAttention({ q, k, v, n, m, d, dv, scale, … }) → every output of attention()
import { softmax64 } from '../../scripts/float64.mjs';
import { mulberry32 } from '../../web/core/random.js';

export { dot64, sentenceWeights64, softmax64, topOther } from '../../scripts/float64.mjs';

// The tests' inputs come from mulberry32 (web/core/random.js): a generator of JavaScript's own,
// not the core's (attn::Rng), so a fault in the core's generator cannot hide in the inputs.
export { mulberry32 };

/** Seeded uniform numbers in [0, 1): the same sequence in every run. */
export function uniforms(seed) {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** `count` seeded N(0, 1) numbers (Box–Muller on uniforms in (0, 1), never 0). */
export function normals(count, seed) {
  const next = mulberry32(seed);
  const uniform = () => (next() + 0.5) / 4294967296;
  return Float32Array.from({ length: count }, () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()));
}

/** Entropy (nats) of a row of weights. */
export function entropy64(p) {
  return -p.reduce((h, x) => (x > 0 ? h + x * Math.log(x) : h), 0);
}

/**
 * One attention row in float64: z_j = scale·q_i·k_j (−∞ for j ≥ visible), p = softmax(z / T),
 * for q (rows of d) and k (m rows of d). → { z, p, maxWeight, entropy }.
 */
export function rowReference({ q, k, m, d }, i, { scale, temperature = 1, visible = m }) {
  const z = Array.from({ length: m }, (_, j) => {
    if (j >= visible) return -Infinity;
    let dot = 0;
    for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
    return scale * dot;
  });
  const p = softmax64(z, temperature);
  return { z, p, maxWeight: Math.max(...p), entropy: entropy64(p) };
}

/**
 * Every output of attention in float64 from the formula: dots, scores (scale·q·k plus an
 * additive mask, −∞ above the diagonal when causal), weights, output rows, entropy, max weight,
 * and Σ|q_c·k_c| per pair (what a float32 dot product's error is proportional to).
 */
export function referenceAttention({ q, k, v, n, m, d, dv, scale, temperature = 1, causal = false, mask = null }) {
  const dots = [], scores = [], weights = [], output = [], entropy = [], maxWeight = [], absSums = [];
  for (let i = 0; i < n; i++) {
    const rowScores = [];
    for (let j = 0; j < m; j++) {
      let dot = 0, absSum = 0;
      for (let c = 0; c < d; c++) {
        dot += q[i * d + c] * k[j * d + c];
        absSum += Math.abs(q[i * d + c] * k[j * d + c]);
      }
      dots.push(dot);
      absSums.push(absSum);
      let s = scale * dot + (mask ? mask[i * m + j] : 0);
      if (causal && j > i) s = -Infinity;
      rowScores.push(s);
    }
    scores.push(...rowScores);
    const p = softmax64(rowScores, temperature);
    weights.push(...p);
    entropy.push(entropy64(p));
    maxWeight.push(Math.max(...p));
    for (let c = 0; c < dv; c++) output.push(p.reduce((acc, x, j) => acc + x * v[j * dv + c], 0));
  }
  return { dots, scores, weights, output, entropy, maxWeight, absSums };
}

/**
 * The saturation trend in float64, apart from the core's (lesson model's trend, the saturation
 * exercise): for each width d of `dims`, every row's largest weight over the first 24 tokens of
 * the lab state `s`, from the engine's projections of heads 0 … draws − 1 (the seeded inputs
 * only: the products and the softmax are done here), averaged over the draws and the rows.
 */
export function maxWeightTrend64(engine, s, draws, dims) {
  const t = Math.min(s.n, 24);
  const dIn = s.x.length / s.n;
  const x = s.x.subarray(0, t * dIn);
  return dims.map((d) => {
    let sum = 0;
    for (let r = 0; r < draws; r++) {
      const { q, k } = engine.headProjections({ x, t, dIn, seed: s.settings.seed, head: r, d });
      for (let i = 0; i < t; i++) {
        const z = Array.from({ length: t }, (_, j) => {
          let dot = 0;
          for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
          return dot;
        });
        sum += Math.max(...softmax64(z));
      }
    }
    return sum / (draws * t);
  });
}
