// Types of the public JavaScript API (web/core/engine.js). This is the published contract; at run
// time each method is its row in the engine's table of calls (web/core/calls.js), which a new
// method's types here follow.

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

/**
 * createEngine's own failures: no WebAssembly SIMD when forced, the .wasm file not found, or a
 * `wasm` given that does not compile (ATTN_LOAD_FAILED) or is not bytes nor a module (a TypeError,
 * ATTN_INVALID_ARGUMENT).
 */
export interface LoadError extends Error {
  code: 'ATTN_UNSUPPORTED' | 'ATTN_LOAD_FAILED' | 'ATTN_INVALID_ARGUMENT';
}

/** The limits the core checks every call against (the same numbers its messages name). */
export interface EngineLimits {
  /** the largest n, m, d, dv, dIn, dOut, t of attention, attentionStreaming and the projections (65536) */
  maxDim: number;
  /** the most one array, or one call's outputs together, may take in the wasm heap: 1 GiB */
  memoryBudgetBytes: number;
  /** the largest sigma of randomNormal / textVector: every sample then fits float32 */
  maxSigma: number;
  /** the widest window of induceInSentence, in tokens on either side (255) */
  maxInductionWindow: number;
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
  /** the training experiment: letters (26), dk (512), dModel and dv (256), batch (256), heldout (1024), steps (100,000), bytes of one experiment (128 MiB), live trainers per engine (8) */
  train: {
    maxLetters: number;
    maxDk: number;
    maxWidth: number;
    maxBatch: number;
    maxHeldout: number;
    maxSteps: number;
    maxBytes: number;
    maxTrainers: number;
  };
  /** the trained language model: models loaded at once (4), most likely next words reported (100) */
  model: {
    maxModels: number;
    maxTop: number;
  };
  /** attention from any model (checkAttention): layers (256), heads (256), tokens (4096); a row's sum may miss 1 by rowSumTolerance (0.001) */
  supplied: {
    maxLayers: number;
    maxHeads: number;
    maxTokens: number;
    rowSumTolerance: number;
  };
}

/** checkAttention's result: each head measured (layers·heads entries, layer by layer). */
export interface AttentionCheck {
  previous: Float32Array;
  first: Float32Array;
  self: Float32Array;
  spread: Float32Array;
  /** a head's role by number: headRoles names it */
  role: Float32Array;
  /** the largest |Σ row − 1| */
  worstRowError: number;
  /** every weight above the diagonal is 0 */
  causal: boolean;
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
  /**
   * À la carte induction from one sentence (Khodak et al. 2018): every unknown row of x (t×d,
   * known[i] = 0) that has a known word within `window` (default 5) tokens on either side becomes
   * A·u, u the mean of those known words' vectors; a is the d×d map, row-major. Known rows, and
   * unknown rows with no known neighbour, are x's. known holds 1 or 0 per row.
   */
  induceInSentence(args: { t: number; d: number; window?: number; x: Float32Array | ArrayLike<number>;
    known: Float32Array | ArrayLike<number>; a: Float32Array | ArrayLike<number> }): InduceInSentenceResult;
}

/** What induceInSentence returns (arrays: views of one JS-owned copy). */
export interface InduceInSentenceResult {
  /** t×d: the vectors to use (known rows as given, induced rows A·u, the rest as given) */
  vectors: Float32Array;
  /** t×d: the mean context vector u of each induced row; 0 in the others */
  context: Float32Array;
  /** t: known words within the window of each unknown row (0 for a known row) */
  contexts: Float32Array;
  /** t: 1 where the row was induced, else 0 */
  induced: Float32Array;
}

/** true when this JavaScript engine supports WebAssembly SIMD128 */
export function simdSupported(): boolean;

/**
 * Loads the SIMD build where supported ('auto'), else the scalar build; true/false force one.
 * `wasm`: that build's .wasm given (its bytes, or compiled) instead of read from the package's
 * files, for code that cannot reach them (one bundled module loaded from a blob: URL).
 */
export function createEngine(options?: { simd?: boolean | 'auto'; wasm?: BufferSource | WebAssembly.Module }): Promise<Engine>;

// ---- the lesson's measurements (cpp/lesson/lesson.hpp) ----

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

export interface ProjectionWeights {
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
  /** the W_Q, W_K (dIn×d) headProjections uses; projectQK(x, them) = headProjections' Q and K */
  projectionWeights(options: { dIn?: number; seed?: number; head?: number; d: number }): ProjectionWeights;
  /** LayerNorm(x) W_Q and LayerNorm(x) W_K (t×d each) */
  projectQK(options: { x: Floats; t: number; weights: ProjectionWeights }): { q: Float32Array; k: Float32Array };
  saturationSweep(options: LessonTokens & { dims: number[]; scaled?: boolean }): SaturationSweep;
  /**
   * each row's largest weight averaged over `draws` projections (default 16), per width:
   * dims.length×t, unscaled by default; mean.maxWeight its mean over the rows; firstAbove the
   * index in dims where that mean first passes `threshold`, or −1
   */
  saturationTrend(options: LessonTokens & { dims: number[]; draws?: number; scaled?: boolean; threshold: number }): { dims: number[]; t: number; draws: number; scaled: boolean; threshold: number; maxWeight: Float32Array; mean: { maxWeight: Float32Array }; firstAbove: number };
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
  /**
   * Another model's attention (layers×heads×n×n, row-major) checked — finite, ≥ 0, rows summing
   * to 1 within limits.supplied.rowSumTolerance; else a RangeError naming the first bad place —
   * and each head measured.
   */
  checkAttention(input: { layers: number; heads: number; n: number; attention: Floats }): AttentionCheck;
  /** the names of a head's roles, by the number checkAttention and a model give them */
  readonly headRoles: HeadProfile['role'][];
}

// ---- training (cpp/experiment/train.hpp, docs/training.md) ----

/**
 * The training experiment: one attention head learns associative recall (pairs of a letter
 * key and a digit value; for each query letter, answer its digit), twice from the same seed,
 * data and initialisation: scores q·k/√d_k (the run "scaled") and q·k ("unscaled"). Every field
 * is optional (engine.trainDefaults); the core checks every range and names the field.
 */
export interface TrainConfig {
  /** the seed of the initialisation, the training batches and the held-out batch (32-bit) */
  seed?: number;
  /** key width d_k of W_Q, W_K: 1…512 (default 128) */
  dk?: number;
  /** g: W_Q, W_K ~ N(0, g²/dModel), so Var(q·k) ≈ g⁴·d_k (default 1) */
  initScale?: number;
  /** 'adam' (default) or 'sgd' (with momentum; 0 is plain SGD) */
  optimizer?: 'adam' | 'sgd';
  /** default 0.002 (Adam); SGD wants ~0.1 */
  learningRate?: number;
  /** SGD's momentum, 0 ≤ momentum < 1 (default 0.9) */
  momentum?: number;
  /** Adam's β1, β2 (0 ≤ β < 1; 0.9, 0.999) and eps (> 0; 1e-8) */
  beta1?: number;
  beta2?: number;
  eps?: number;
  /** > 0: clip the gradient's global norm to this; 0 (default): off */
  clipNorm?: number;
  /** the experiment's length (default 150) */
  steps?: number;
  /** training examples per step (32) and held-out examples (64) */
  batch?: number;
  heldout?: number;
  /** keys are the first `letters` letters (16); pairs per example (8); queries per example (8, ≤ pairs) */
  letters?: number;
  pairs?: number;
  queries?: number;
  /** model width (32) and value width (32) */
  dModel?: number;
  dv?: number;
}

/** One run's curves (a value per step, from step `from` + 1 on) and its state now. */
export interface RunCurves {
  /** the factor of q·k: 1/√d_k (scaled) or 1 (unscaled) */
  scale: number;
  /** index of the first value below: the step before it */
  from: number;
  /** steps this run has taken (it stops early when it blew up) */
  steps: number;
  /** the step at which the run's loss, gradient or parameters stopped being finite; 0 while healthy */
  divergedAt: number;
  /** the first step whose held-out accuracy reached engine.trainAccuracyGoal (0.9); 0 while none has */
  reachedAt: number;
  /** how many of the shown example's queries put their largest weight on the pair they ask about */
  shownOnTarget: number;
  /** the shown example's attention now: queries × pairs, row-major (rows sum to 1) */
  weights: Float32Array;
  /** the training batch's loss before the step's update (nats) */
  loss: Float32Array;
  /** after the update, on the held-out batch: its loss, accuracy, and the attention rows' mean largest weight, mean entropy (nats) and mean weight on the queried pair */
  heldoutLoss: Float32Array;
  heldoutAccuracy: Float32Array;
  maxWeight: Float32Array;
  entropy: Float32Array;
  matchWeight: Float32Array;
  /** ‖∂loss/∂W_Q‖₂ and ‖∂loss/∂W_K‖₂ of the step, before any clipping */
  gradNormWq: Float32Array;
  gradNormWk: Float32Array;
}

export interface TrainCurves {
  /** steps taken, of `steps` */
  step: number;
  steps: number;
  done: boolean;
  runs: { scaled: RunCurves; unscaled: RunCurves };
}

/** The shown example (held-out example 0) as symbols: letters for keys, digits for values. */
export interface TrainExample {
  keys: string[];
  values: string[];
  /** key + value of each pair, e.g. 'c7': the heatmap's columns */
  pairs: string[];
  /** the heatmap's rows */
  queries: string[];
  answers: string[];
  /** the pair each query asks about (its column) */
  target: number[];
}

/** A batch by index: keys and queries 0 = 'a', values and answers digits; count×pairs and count×queries. */
export interface TrainBatch {
  count: number;
  keys: Int32Array;
  values: Int32Array;
  queries: Int32Array;
  answers: Int32Array;
  target: Int32Array;
}

export interface Trainer {
  /** every field, the defaults filled in */
  readonly config: Required<TrainConfig>;
  readonly example: TrainExample;
  readonly scale: { scaled: number; unscaled: number };
  /** parameters of one run's model; bytes the experiment holds in the engine */
  readonly parameterCount: number;
  readonly bytes: number;
  /** ln(pairs): the entropy of a uniform row */
  readonly maxEntropy: number;
  readonly stepsDone: number;
  readonly done: boolean;
  /** advances both runs by up to `count` steps (default 1); returns how many were taken */
  step(count?: number): number;
  /** what came after step `since` (default 0: everything) */
  read(since?: number): TrainCurves;
  curves(): TrainCurves;
  /** back to step 0: stepping again gives the same curves */
  reset(): void;
  /** the last step's training batch (count 0 before the first step) or the held-out batch */
  batch(which?: 'last' | 'heldout'): TrainBatch;
  /** one run's parameters now, row-major: embedKey letters×dModel, embedValue 10×dModel, wQ and wK dModel×dk, wV dModel×dv, wO dv×10 */
  parameters(run: 'scaled' | 'unscaled'): {
    embedKey: Float32Array;
    embedValue: Float32Array;
    wQ: Float32Array;
    wK: Float32Array;
    wV: Float32Array;
    wO: Float32Array;
  };
  /** gives the memory back; the trainer throws after (a dropped trainer is disposed when collected) */
  dispose(): void;
}

export interface Engine {
  /** the default experiment: dk 128, initScale 1, Adam at learningRate 0.002, 150 steps, seed 1, … */
  readonly trainDefaults: Required<TrainConfig>;
  /** held-out accuracy at which a run's reachedAt is set (0.9) */
  readonly trainAccuracyGoal: number;
  createTrainer(config?: TrainConfig): Trainer;
  /** the whole experiment at once: a trainer made, stepped to the end and disposed */
  train(config?: TrainConfig): TrainCurves;
}

/** What a head does in one sentence (cpp/model/heads.hpp, head_profile): its rows' average weights. */
export interface HeadProfile {
  /** both counted from 1 */
  layer: number;
  head: number;
  role: 'previous' | 'first' | 'self' | 'broad' | 'mixed';
  /** average weight on the token before, on the first token, on itself */
  previous: number;
  first: number;
  self: number;
  /** average entropy of a row divided by that of a uniform row over its positions */
  spread: number;
  /** with `span` (a repeating sequence): mean weight, at each word of a repeat, on the word after its earlier copy */
  induction?: number;
}

export interface Prediction {
  /** the tokens read: at most config.context */
  tokens: string[];
  ids: number[];
  /** false where the model does not know the word (id 0, `<unk>`) */
  known: boolean[];
  /** tokens past config.context left out */
  truncated: number;
  /** the token after which `next` is predicted */
  position: number;
  /** [layer][head]: T×T row-major, row = query, causal (zero above the diagonal) */
  attention: Float32Array[][];
  heads: HeadProfile[];
  /** the mean of the heads' spreads */
  meanSpread: number;
  /** the word after `position`, at `temperature`: the `top` most likely, most likely first */
  next: {
    /** the whole distribution, one probability per id */
    probs: Float32Array;
    top: { word: string; id: number; probability: number }[];
    /** probability of `<unk>` */
    unknown: number;
    /** in nats */
    entropy: number;
    temperature: number;
  };
  /** false: the scores were not divided by √d_head (a model trained with it, run without) */
  scaleAtInference: boolean;
}

export interface LanguageModel {
  readonly config: {
    vocab: number; context: number; layers: number; heads: number; dModel: number; dHead: number;
    scaled: boolean; scale: number; parameters: number; encoding: 'float32' | 'float16' | 'int8';
  };
  /** tokens by id; id 0 is `<unk>` */
  readonly vocabulary: readonly string[];
  /** the thresholds by which a head's role is named */
  readonly roleRule: { share: number; spread: number };
  ids(tokens: string[]): number[];
  /** `span` > 0: the tokens repeat with that period, and each head's `induction` is measured */
  predict(tokens: string[], options?: { position?: number; temperature?: number; top?: number; scaleAtInference?: boolean; span?: number }): Prediction;
  /**
   * every head over a text of windows of one length: profiles averaged, roles named from the
   * averages, induction averaged with `span`; what even rows score (`even`, `evenInduction`)
   */
  measureHeads(windows: string[][], options?: { scaleAtInference?: boolean; span?: number }): { heads: HeadProfile[]; even: number; evenInduction?: number };
  /**
   * one training step (forward, backward, gradient norm clipped at 1, AdamW) on `batch` windows of
   * token ids (batch × (T + 1), row-major: inputs then targets shifted by one); the weights change
   */
  trainStep(windows: ArrayLike<number>, options: { batch: number; learningRate: number }): { loss: number; gradNorm: number; steps: number };
  /** gives the memory back; the model throws after (a dropped model is disposed when collected) */
  dispose(): void;
}

export interface Engine {
  /** a trained model from its weights file and vocabulary text (one token per line); checked whole */
  loadModel(bytes: ArrayBuffer | ArrayBufferView, vocabulary: string): Promise<LanguageModel>;
}
