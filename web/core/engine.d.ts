// Types of the public JavaScript API (web/core/engine.js).

/** Scale applied to q·k: 'sqrt' = 1/√d (default), 'none' = 1, or any positive finite number. */
export type Scale = 'sqrt' | 'none' | number;

export interface AttentionInput {
  /** queries, n×d row-major */
  q: Float32Array | ArrayLike<number>;
  /** keys, m×d row-major */
  k: Float32Array | ArrayLike<number>;
  /** values, m×dv row-major (optional) */
  v?: Float32Array | ArrayLike<number> | null;
  n: number;
  m: number;
  d: number;
  /** width of v; required with v */
  dv?: number;
  scale?: Scale;
  /** query i sees keys j ≤ i; needs n === m */
  causal?: boolean;
  /** softmax(scores / temperature); positive and finite */
  temperature?: number;
  /** additive mask, n×m; -Infinity hides a key */
  mask?: Float32Array | ArrayLike<number> | null;
}

export interface StreamingInput {
  q: Float32Array | ArrayLike<number>;
  k: Float32Array | ArrayLike<number>;
  v: Float32Array | ArrayLike<number>;
  n: number;
  m: number;
  d: number;
  dv: number;
  scale?: Scale;
  causal?: boolean;
  /** receives the n×dv output (no new array is allocated) */
  out?: Float32Array | null;
}

/** The arrays of every result are views of one JS-owned buffer per call (copied out of the wasm heap once). */
export interface AttentionResult {
  /** q·k, n×m; ±Infinity only where q·k leaves float32 for a hidden key (a visible one fails with ATTN_OVERFLOW) */
  dots: Float32Array;
  /** scale·q·k + mask, n×m (-Infinity where a key is hidden) */
  scores: Float32Array;
  /** softmax(scores / temperature) per row, n×m; a fully hidden row is all zeros */
  weights: Float32Array;
  /** weights · v, n×dv; null without v */
  output: Float32Array | null;
  /** per-row entropy in nats (0 for a fully hidden row) */
  entropy: Float32Array;
  /** per-row largest weight (0 for a fully hidden row) */
  maxWeight: Float32Array;
  /** per-row sum of the float32 weights, summed exactly (1 up to rounding; 0 for a fully hidden row) */
  rowSum: Float32Array;
  /** the scale that was applied (float32) */
  scale: number;
}

/**
 * Every error the engine throws is a TypeError (an argument of the wrong type) or a RangeError
 * (a value the core refuses), and carries a stable code besides the message, which names the
 * argument, the value received and what was expected.
 */
export interface EngineError extends Error {
  code:
    | 'ATTN_INVALID_SHAPE' // a dimension, count or index out of range; a length that does not match the shape
    | 'ATTN_INVALID_ARGUMENT' // a value of the wrong type (TypeError), or a scalar out of range
    | 'ATTN_NON_FINITE_INPUT' // NaN or ±Infinity where a finite number is required
    | 'ATTN_OVERFLOW' // valid input whose result leaves the float32 range
    | 'ATTN_TOO_LARGE' // an array or a call's outputs beyond the memory budget (limits.memoryBudgetBytes)
    | 'ATTN_INTERNAL'; // a bug: please report it
}

/** createEngine's own failures: no WebAssembly SIMD when forced, or the .wasm file not found. */
export interface LoadError extends Error {
  code: 'ATTN_UNSUPPORTED' | 'ATTN_LOAD_FAILED';
}

/** The limits the core checks every call against (the same numbers its messages name). */
export interface EngineLimits {
  /** the largest n, m, d, dv, dIn, dOut, t of attention, attentionStreaming and the projections (65536) */
  maxDim: number;
  /** the most one array, or one call's outputs together, may take in the wasm heap: 1 GiB */
  memoryBudgetBytes: number;
  /** the largest sigma of randomNormal / textVector: every sample then fits float32 */
  maxSigma: number;
  /** the lesson's measurements: tokens t, widths d and dIn, samples, widths per sweep, draws, heads, bins */
  lesson: {
    maxTokens: number;
    maxWidth: number;
    maxSamples: number;
    maxWidths: number;
    maxDraws: number;
    maxHeads: number;
    maxBins: number;
  };
}

export interface Engine {
  /** true when the WebAssembly SIMD build runs */
  readonly simd: boolean;
  /** instruction set of the kernels: 'wasm' (SIMD128) or 'emulated' (scalar build) */
  readonly arch: string;
  /** the core's limits */
  readonly limits: EngineLimits;
  softmax(scores: Float32Array | ArrayLike<number>, options?: { temperature?: number }): Float32Array;
  attention(input: AttentionInput): AttentionResult;
  /**
   * The output alone, softmax(scale·q·kᵀ) v, by online softmax (no n×m matrix): long sequences
   * fit (16,384 × 64 in a 64 MB heap). `out` (n·dv floats) receives the output instead of a new
   * array, and is returned as `output`. It adds up p·v before dividing by Σp: |v|·m must stay
   * below 3.4e38, else ATTN_OVERFLOW.
   */
  attentionStreaming(input: StreamingInput): { output: Float32Array; scale: number };
  /** count samples of N(0, sigma²); the same for a given 32-bit seed on every platform */
  randomNormal(seed: number, count: number, options?: { sigma?: number }): Float32Array;
  /** dIn×dOut matrix with N(0, 1/dIn) entries */
  randomProjection(seed: number, dIn: number, dOut: number): Float32Array;
  /** x (t×dIn) · w (dIn×dOut) */
  project(x: Float32Array | ArrayLike<number>, t: number, dIn: number, w: Float32Array | ArrayLike<number>, dOut: number): Float32Array;
  /** a copy of x (t×d) plus strength × sinusoidal positional encoding */
  addPositionalEncoding(x: Float32Array | ArrayLike<number>, t: number, d: number, options?: { strength?: number }): Float32Array;
  /** current size of the wasm heap in bytes (grows on demand, never shrinks; a call that fails its checks does not grow it) */
  heapBytes(): number;
  /** deterministic N(0, sigma²) vector of width d derived from the text */
  textVector(text: string, d: number, options?: { sigma?: number }): Float32Array;
}

/** true when this JavaScript engine supports WebAssembly SIMD128 */
export function simdSupported(): boolean;

/** Loads the SIMD build where supported ('auto'), else the scalar build; true/false force one. */
export function createEngine(options?: { simd?: boolean | 'auto' }): Promise<Engine>;

// ---- the lesson's measurements (cpp/lesson.hpp) ----

type Floats = Float32Array | ArrayLike<number>;

/** Token vectors of a lesson call: x is t×dIn row-major (dIn defaults to 100, GloVe's width). */
export interface LessonTokens {
  x: Floats;
  /** number of tokens, 1…256 */
  t: number;
  dIn?: number;
  /** 32-bit seed of the random projections (default 1) */
  seed?: number;
}

export interface LessonConstants {
  /** a row is "extremely peaked" when its max weight exceeds this (0.99) */
  peakedMaxWeight: number;
  /** a row is "nearly flat" when its entropy exceeds this fraction of ln m (0.98) */
  flatEntropyFraction: number;
  /** ln(FLT_MAX) ≈ 88.72: a float32 exp(z) is Infinity above it */
  expOverflowThreshold: number;
}

export interface DotHistogram {
  /** bin counts; bin b covers [lo + b·w, lo + (b+1)·w), the last bin closed at hi */
  counts: Float32Array;
  /** samples below lo / above hi: Σ counts + below + above = samples */
  below: number;
  above: number;
  /** sample mean and unbiased variance of all samples */
  mean: number;
  variance: number;
  lo: number;
  hi: number;
}

export interface VarianceCurve {
  dims: number[];
  /** measured Var(q·k) per width (expected ≈ d) */
  unscaled: Float32Array;
  /** measured Var(q·k/√d) per width (expected ≈ 1) */
  scaled: Float32Array;
}

export interface SaturationSweep {
  dims: number[];
  t: number;
  scaled: boolean;
  /** dims.length×t: per width, per row */
  maxWeight: Float32Array;
  entropy: Float32Array;
  /** 0 balanced, 1 extremely peaked, 2 nearly flat */
  regime: Float32Array;
  /** ‖∂L/∂scores‖₂ for L = ⟨g, p⟩ with a fixed seeded upstream gradient g per row */
  gradNorm: Float32Array;
  /** per width: how many of the t rows are extremely peaked / nearly flat */
  peakedCount: Float32Array;
  flatCount: Float32Array;
  /** ln t: the entropy of a uniform row, the most a row of t weights can have */
  maxEntropy: number;
  /** per width, over the rows */
  mean: {
    maxWeight: Float32Array;
    entropy: Float32Array;
    gradNorm: Float32Array;
    fractionPeaked: Float32Array;
    fractionFlat: Float32Array;
  };
}

export interface StepTrace {
  key: number;
  /** q ∘ k_key (d) */
  product: Float32Array;
  /** Σ product = q·k_key */
  dot: number;
  /** 1/√d when scaled, else 1 */
  scale: number;
  /** √d */
  sqrtD: number;
  /** scale·q·k_j for every key j (m) */
  scores: Float32Array;
  rowMax: number;
  /** (scores − rowMax) / temperature (m), all ≤ 0 (-Infinity for a hidden key) */
  shifted: Float32Array;
  /** exp(shifted) (m), in (0, 1]; 0 for a hidden key */
  exps: Float32Array;
  /** Σ exps ≥ 1 */
  sum: number;
  /** exps / sum (m): summing to 1, 0 for a hidden key */
  weights: Float32Array;
  weightSum: number;
  /** the row's largest weight and entropy (nats), as attention() reports them */
  maxWeight: number;
  entropy: number;
  /** the smallest weight of a visible key (> 0: every visible key gets some weight) */
  minWeight: number;
  temperature: number;
  /** keys 0 … visible − 1 are visible */
  visible: number;
}

/** The broken naive softmax: raw values, possibly Infinity and NaN. Never attention weights. */
export interface NaiveSoftmax {
  naive: true;
  temperature: number;
  /** z / T */
  scaledScores: Float32Array;
  /** exp(z / T) without subtracting the max */
  exps: Float32Array;
  sum: number;
  weights: Float32Array;
  /** max z / T: past expOverflowThreshold its exp is Infinity */
  largest: number;
  /** true when the sum or any weight is not finite */
  overflowed: boolean;
}

export interface HeadWeights {
  dIn: number;
  d: number;
  /** dIn×d each */
  wq: Float32Array;
  wk: Float32Array;
}

export interface MultiHeadResult {
  heads: number;
  t: number;
  d: number;
  scaled: boolean;
  /** heads×t×t */
  weights: Float32Array;
  /** heads×t */
  entropy: Float32Array;
  maxWeight: Float32Array;
  /** t×(heads·d): [head 0 output | head 1 output | …] */
  concat: Float32Array;
}

export interface Engine {
  readonly lessonConstants: LessonConstants;
  /** histograms of q·k and q·k/√d for random q, k ~ N(0, I_d); the core picks range ±4√d and scaledRange ±4 when omitted */
  dotHistograms(options: { seed?: number; d: number; samples?: number; bins?: number; range?: [number, number]; scaledRange?: [number, number] }): {
    d: number;
    samples: number;
    /** √d */
    sqrtD: number;
    unscaled: DotHistogram;
    scaled: DotHistogram;
  };
  dotVarianceCurve(options: { seed?: number; dims: number[]; samples?: number }): VarianceCurve;
  /** the variance of the sentence's draws·t² dot products after seeded projections to each width */
  tokenVarianceCurve(options: LessonTokens & { dims: number[]; draws?: number }): VarianceCurve;
  /** Q, K, V (t×d) of head `head`: LayerNorm(x) · seeded N(0, 1/dIn) projections */
  headProjections(options: LessonTokens & { head?: number; d: number }): { q: Float32Array; k: Float32Array; v: Float32Array };
  /** the W_Q, W_K (dIn×d) headProjections uses; projectHead(x, them) = headProjections' Q and K */
  headWeights(options: { dIn?: number; seed?: number; head?: number; d: number }): HeadWeights;
  /** LayerNorm(x) W_Q and LayerNorm(x) W_K (t×d each) */
  projectHead(options: { x: Floats; t: number; weights: HeadWeights }): { q: Float32Array; k: Float32Array };
  saturationSweep(options: LessonTokens & { dims: number[]; scaled?: boolean }): SaturationSweep;
  /** diag(p) − p pᵀ, m×m, for a row p of probabilities (numbers from 0 to 1) */
  softmaxJacobian(p: Floats): Float32Array;
  /** p ⊙ (dp − ⟨p, dp⟩), for p probabilities and dp finite */
  softmaxBackward(p: Floats, dp: Floats): Float32Array;
  upstreamGradient(seed: number, row: number, m: number): Float32Array;
  /** one query row step by step; visible (default m) hides keys j ≥ visible, e.g. row + 1 under a causal mask */
  stepByStep(options: { q: Floats; k: Floats; m: number; d: number; key?: number; scaled?: boolean; temperature?: number; visible?: number }): StepTrace;
  /** ‖∂L/∂z‖ of one softmax row p for L = ⟨g, p⟩, g = upstreamGradient(seed, row, p.length) */
  softmaxGradientNorm(p: Floats, options?: { seed?: number; row?: number }): number;
  softmaxNaive(scores: Floats, options?: { temperature?: number }): NaiveSoftmax;
  multiHead(options: LessonTokens & { heads?: number; d?: number; scaled?: boolean }): MultiHeadResult;
}
