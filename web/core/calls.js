// The engine's table of calls: every call of the WebAssembly core described once (its adapter in
// cpp/binding/*.cpp, its input arrays in slot order, its other arguments in the adapter's order,
// with their types and defaults). web/core/engine.js holds the one generic path that checks,
// places, calls and builds the result of every row; each row of CALLS is an engine method.

// A row: `core`, the adapter (cpp/binding/*.cpp, registered under that name); `params`, the
// method's parameters (a name, ARGS for one object of named arguments, OPTIONS for an optional
// object of options; every other argument is read from that object by name); `args`, what the
// method checks, in this order, as [name, kind, default, extra]: the arrays (F32, F32_OR_NULL) are
// the call's inputs in slot order, everything else the adapter's arguments in its order (or, with
// `options: true`, the fields of the one object it takes). A default of undefined means required;
// { from: 'm' } means "the value of m". The result is the core's (its fields named by the adapter),
// or its field `pick`, after the fields of `extra` and the checked arguments named in `echo`.
// `read`, only for the two calls an interactive view makes every frame: the arguments as given,
// in the order of `args` (undefined for a CHECK), by destructuring, in the order these methods
// always read them (a getter runs when it did). V8 reads a literal name from the caller's object
// far faster than a name held in a variable (docs/performance.md, "Measurements that the code's
// comments point to"). tests/js/engine-calls.test.mjs holds each `read` to its `args`.
// A new core call: one adapter and one row (docs/architecture.md §1). The engine's generic path
// (web/core/engine.js) reads the rows as compile() leaves them.
export const ARGS = 0;
export const OPTIONS = 1;
// argument kinds
export const F32 = 0; // an array of numbers, placed in the next input slot
export const F32_OR_NULL = 1; // the same, or null (not given)
export const INT = 2; // a C++ int
export const SEED = 3; // an unsigned 32-bit integer
export const NUMBER = 4;
export const BOOL = 5;
export const STRING = 6;
export const WIDTHS = 7; // a list of key widths, crossing as a JS array of integers
export const CAUSAL = 8; // a boolean, the adapter's call flag `causal` (the next SCALE passes the flags)
export const SCALE = 9; // 'sqrt' | 'none' | a number: the flags so far and the scale, two arguments
export const OUT = 10; // null or a Float32Array that receives the output (extra.into): its length crosses
export const RANGE = 11; // undefined or [lo, hi]
export const RECORD = 12; // an object (extra.what says which), whose fields the following rows read (extra.at)
export const CHOICE = 13; // one of extra.values' names, crossing as its value
export const CHECK = 14; // extra.check(the two arguments of extra.of, as given): a rule between them; what is wrong, or null
export const BYTES = 15; // a file's bytes: an ArrayBuffer or a view of one, crossing as a Uint8Array

// the token vectors of a lesson call (x, t×dIn)
const TOKENS = [['t', INT], ['dIn', INT, 100], ['x', F32]];

const CALLS = {
  /** softmax(scores / temperature) of one row; -Infinity entries are hidden (weight 0). */
  softmax: { core: 'softmax', params: ['scores', OPTIONS], args: [['scores', F32], ['temperature', NUMBER, 1]], pick: 'weights' },
  /** `count` samples of N(0, sigma²), the same for a given 32-bit seed on every platform. */
  randomNormal: { core: 'randomNormal', params: ['seed', 'count', OPTIONS], args: [['seed', SEED], ['count', INT], ['sigma', NUMBER, 1]], pick: 'values' },
  /** A dIn×dOut random projection with N(0, 1/dIn) entries (x·W keeps the scale of x). */
  randomProjection: { core: 'randomProjection', params: ['seed', 'dIn', 'dOut'], args: [['seed', SEED], ['dIn', INT], ['dOut', INT]], pick: 'w' },
  /** x (t×dIn) · w (dIn×dOut) → t×dOut. */
  project: { core: 'project', params: ['x', 't', 'dIn', 'w', 'dOut'], args: [['t', INT], ['dIn', INT], ['dOut', INT], ['x', F32], ['w', F32]], pick: 'output' },
  /** A copy of x (t×d) plus strength × the sinusoidal positional encoding. */
  addPositionalEncoding: { core: 'addPositionalEncoding', params: ['x', 't', 'd', OPTIONS], args: [['t', INT], ['d', INT], ['strength', NUMBER, 1], ['x', F32]], pick: 'output' },
  /** A deterministic N(0, sigma²) vector of width d for a word (used for unknown words). */
  textVector: { core: 'textVector', params: ['text', 'd', OPTIONS], args: [['text', STRING], ['d', INT], ['sigma', NUMBER, 1]], pick: 'vector' },
  /**
   * À la carte from one sentence (Khodak et al. 2018): each unknown row of x (t×d, known[i] 0)
   * with a known word within `window` tokens becomes A·u, u the mean of those known words'
   * vectors; a (d×d, row-major) is the map. Returns { vectors (t×d), context (t×d: u, 0 where
   * none), contexts (t: known words in the window), induced (t: 1 where A·u was written) }.
   */
  induceInSentence: { core: 'induceInSentence', args: [['t', INT], ['d', INT], ['window', INT, 5], ['x', F32], ['known', F32], ['a', F32]] },
  /**
   * Scaled dot-product attention for one head. Returns the intermediates a view shows:
   * { dots, scores, weights (n×m row-major), output (n×dv, or null without v), entropy,
   *   maxWeight, rowSum (n), scale }: views of one JS-owned buffer per call.
   */
  attention: { core: 'attention', args: [['n', INT], ['m', INT], ['d', INT], ['dv', INT, 0], ['v and dv', CHECK, undefined, { of: ['v', 'dv'], check: valueWidth }],
    ['q', F32], ['k', F32], ['v', F32_OR_NULL, null], ['mask', F32_OR_NULL, null], ['causal', CAUSAL, false], ['scale', SCALE, 'sqrt'], ['temperature', NUMBER, 1]],
    read: ({ q, k, v, n, m, d, dv, scale, causal, temperature, mask }) => [n, m, d, dv, undefined, q, k, v, mask, causal, scale, temperature] },
  /**
   * Streaming (online-softmax) attention: only the output, computed without an n×m matrix, so
   * long sequences fit (n = m = 16,384 at d = 64 in a 64 MB heap). No temperature, no mask.
   * Returns { output (n×dv row-major), scale }; `out` (a Float32Array of n·dv) receives the
   * output instead of a new array.
   */
  attentionStreaming: { core: 'attentionStreaming', args: [['n', INT], ['m', INT], ['d', INT], ['dv', INT], ['q', F32], ['k', F32], ['v', F32],
    ['causal', CAUSAL, false], ['scale', SCALE, 'sqrt'], ['out', OUT, null, { into: 'output' }]],
    read: ({ q, k, v, n, m, d, dv, scale, causal, out }) => [n, m, d, dv, q, k, v, causal, scale, out] },

  // ---- the lesson's measurements (cpp/lesson/lesson.hpp): every number an instrument shows ----

  /**
   * `samples` pairs q, k with i.i.d. N(0,1) components of width d (seeded); histograms of q·k
   * over `range` and of q·k/√d over `scaledRange` (when omitted, the core's ±4√d and ±4), with
   * `bins` bins each, plus their sample mean and variance, and √d. Each histogram:
   * { counts, below, above, mean, variance, lo, hi }.
   */
  dotHistograms: { core: 'lessonDotHistograms', options: true, echo: ['d', 'samples'],
    args: [['seed', SEED, 1], ['d', INT], ['samples', INT, 2000], ['bins', INT, 40], ['range', RANGE], ['scaledRange', RANGE]] },
  /** Measured Var(q·k) and Var(q·k/√d) of `samples` random pairs for each width in `dims` (expected d and 1). */
  dotVarianceCurve: { core: 'lessonDotVarianceCurve', echo: ['dims'], args: [['seed', SEED, 1], ['dims', WIDTHS], ['samples', INT, 2000]] },
  /**
   * The same for a sentence: token vectors x (t×dIn) are layer-normalised and projected by
   * `draws` seeded random W_Q, W_K per width; the variance of all draws·t² dot products.
   */
  tokenVarianceCurve: { core: 'lessonTokenVarianceCurve', echo: ['dims'], args: [...TOKENS, ['seed', SEED, 1], ['dims', WIDTHS], ['draws', INT, 8]] },
  /** Q, K, V (t×d each) of head `head`: LayerNorm(x) times seeded N(0, 1/dIn) projections. */
  headProjections: { core: 'lessonHeadProjections', args: [...TOKENS, ['seed', SEED, 1], ['head', INT, 0], ['d', INT]] },
  /**
   * The weights headProjections uses for (seed, head, d): { wq, wk } (dIn×d each, seeded
   * N(0, 1/dIn)). With projectQK they give headProjections' Q and K bit for bit; keep them
   * to project new x at the same (seed, d) without drawing the weights again.
   */
  projectionWeights: { core: 'projectionWeights', echo: ['dIn', 'd'], args: [['seed', SEED, 1], ['dIn', INT, 100], ['head', INT, 0], ['d', INT]] },
  /** Q = LayerNorm(x) W_Q and K = LayerNorm(x) W_K (t×d each) for weights from projectionWeights. */
  projectQK: { core: 'projectQK', args: [['weights', RECORD, undefined, { what: "projectionWeights' result" }], ['t', INT],
    ['dIn', INT, undefined, { at: 'weights.dIn' }], ['x', F32], ['weights.d', INT], ['weights.wq', F32], ['weights.wk', F32]] },
  /**
   * For each width in `dims`: head 0's attention over the sentence with scores q·k/√d
   * (scaled) or q·k, and per row its max weight, entropy, regime (0 balanced, 1 peaked,
   * 2 flat) and ‖∂L/∂scores‖ for L = ⟨g, p⟩ with a fixed seeded g. Arrays are dims.length×t;
   * peakedCount and flatCount count the rows of each width, maxEntropy = ln t, and `mean`
   * holds the averages over rows and the fractions of peaked and flat rows.
   */
  saturationSweep: { core: 'lessonSaturationSweep', echo: ['dims', 't', 'scaled'], args: [...TOKENS, ['seed', SEED, 1], ['dims', WIDTHS], ['scaled', BOOL, true]] },
  /**
   * For each width in `dims`: each row's largest weight averaged over `draws` projections
   * (heads 0 … draws − 1; head 0 is saturationSweep's), scores q·k/√d (scaled) or q·k. One
   * projection jumps from width to width; the mean follows the trend. maxWeight is dims.length×t,
   * mean.maxWeight its mean over the rows; firstAbove the index in dims where that mean first
   * passes `threshold`, or −1.
   */
  saturationTrend: { core: 'lessonSaturationTrend', echo: ['dims', 't', 'draws', 'scaled', 'threshold'],
    args: [...TOKENS, ['seed', SEED, 1], ['dims', WIDTHS], ['draws', INT, 16], ['scaled', BOOL, false], ['threshold', NUMBER]] },
  /** The softmax Jacobian diag(p) − p pᵀ of one row of weights p (m×m, row-major). */
  softmaxJacobian: { core: 'lessonSoftmaxJacobian', params: ['p'], args: [['p', F32]], pick: 'jacobian' },
  /** ∂L/∂z = p ⊙ (dp − ⟨p, dp⟩) for p = softmax(z) and dp = ∂L/∂p. */
  softmaxBackward: { core: 'lessonSoftmaxBackward', params: ['p', 'dp'], args: [['p', F32], ['dp', F32]], pick: 'dz' },
  /** The fixed N(0,1) upstream gradient g (m) that saturationSweep uses for row `row`. */
  upstreamGradient: { core: 'lessonUpstreamGradient', params: ['seed', 'row', 'm'], args: [['seed', SEED], ['row', INT], ['m', INT]], pick: 'g' },
  /**
   * Every step of one query row q (d) against keys k (m×d), in float32: the element-wise
   * product with key `key`, its sum, the scores (÷√d when scaled; keys j ≥ visible hidden as
   * -Infinity, e.g. visible = row + 1 under a causal mask), minus the max and ÷ temperature,
   * exp, normalised; with √d, the row's max weight, smallest visible weight and entropy —
   * attention()'s for the same row.
   */
  stepByStep: { core: 'lessonStepByStep', echo: ['key', 'temperature', 'visible'], args: [['m', INT], ['d', INT], ['key', INT, 0],
    ['visible', INT, { from: 'm' }], ['scaled', BOOL, true], ['temperature', NUMBER, 1], ['q', F32], ['k', F32]] },
  /**
   * ‖∂L/∂z‖₂ of one softmax row p for L = ⟨g, p⟩ with g = upstreamGradient(seed, row, p.length):
   * the gradient size saturationSweep reports for row `row`, for any row of weights.
   */
  softmaxGradientNorm: { core: 'lessonSoftmaxGradientNorm', params: ['p', OPTIONS], args: [['p', F32], ['seed', SEED, 1], ['row', INT, 0]], pick: 'norm' },
  /**
   * THE BROKEN NAIVE SOFTMAX, for showing why the max is subtracted: exp(z/T) in float32
   * without the shift. Past expOverflowThreshold the exps are Infinity, the sum Infinity and
   * the weights NaN — returned raw, marked `naive: true`, with `largest` (max z/T) and
   * `overflowed`. Never use these as attention weights.
   */
  softmaxNaive: { core: 'lessonSoftmaxNaive', params: ['scores', OPTIONS], extra: { naive: true }, echo: ['temperature'],
    args: [['scores', F32], ['temperature', NUMBER, 1]] },
  /**
   * h heads over the sentence, each with its own seeded projections (head r = headProjections
   * with head r) and width d: weights (h×t×t), entropy and maxWeight (h×t), and the
   * concatenated outputs (t×h·d) before any output projection.
   */
  multiHead: { core: 'lessonMultiHead', echo: ['heads', 't', 'd', 'scaled'],
    args: [...TOKENS, ['seed', SEED, 1], ['heads', INT, 4], ['d', INT, 16], ['scaled', BOOL, true]] },

  // ---- attention from any model (cpp/binding/supplied_attention.cpp; cpp/model/supplied_attention.hpp) ----

  /**
   * Another model's attention (BertViz's shape without its batch: layers×heads×n×n, row-major)
   * checked whole — every weight finite and ≥ 0, every row summing to 1 within
   * limits.supplied.rowSumTolerance; a failure names the first bad place (layer, head, row,
   * column, from 1) — and each head measured as the trained model's are (cpp/model/heads.hpp):
   * { previous, first, self, spread, role (layers·heads each, layer by layer), worstRowError
   * (the largest |Σ row − 1|), causal (every weight above the diagonal is 0) }.
   */
  checkAttention: { core: 'suppliedAttention', args: [['layers', INT], ['heads', INT], ['n', INT], ['attention', F32]] },
};

const oneOf = (names) => `one of ${names.map((name) => `'${name}'`).join(', ')}`;

// The calls of the training experiment (cpp/experiment/train.hpp): createTrainer's, and those a Trainer
// makes (web/core/trainer.js); not methods of the engine.
const TRAIN_CALLS = {
  // every field of TrainConfig, its default from trainDefaults; unknown fields are refused
  createTrainer: { core: 'trainCreate', params: [OPTIONS], options: true, closed: true, defaults: 'trainDefaults',
    args: [['seed', SEED], ['dk', INT], ['initScale', NUMBER], ['optimizer', STRING], ['learningRate', NUMBER], ['momentum', NUMBER],
      ['beta1', NUMBER], ['beta2', NUMBER], ['eps', NUMBER], ['clipNorm', NUMBER], ['steps', INT], ['batch', INT], ['heldout', INT],
      ['letters', INT], ['pairs', INT], ['queries', INT], ['dModel', INT], ['dv', INT]] },
  step: { core: 'trainStep', where: 'trainer.step', args: [['id', INT], ['count', INT, 1]] },
  read: { core: 'trainRead', where: 'trainer.read', args: [['id', INT], ['run', CHOICE, undefined, { values: 'TrainRun', where: 'read', phrase: oneOf }], ['since', INT, 0]] },
  reset: { core: 'trainReset', where: 'trainer.reset', args: [['id', INT]] },
  dispose: { core: 'trainDispose', where: 'dispose', args: [['id', INT]] },
  batch: { core: 'trainBatch', where: 'trainer.batch',
    args: [['id', INT], ['which', CHOICE, 'last', { values: { last: false, heldout: true }, where: 'batch', phrase: () => "'last' or 'heldout'" }]] },
  parameters: { core: 'trainParameters', where: 'trainer.parameters', args: [['id', INT], ['run', CHOICE, undefined, { values: 'TrainRun', where: 'parameters', phrase: oneOf }]] },
};

// The calls of the trained language model (cpp/binding/model.cpp): engine.loadModel makes the
// model (web/core/language-model.js), whose methods make the others.
const MODEL_CALLS = {
  loadModel: { core: 'modelLoad', params: ['bytes'], args: [['bytes', BYTES]] },
  predict: { core: 'modelPredict', where: 'model.predict',
    args: [['id', INT], ['tokens', F32], ['position', INT], ['temperature', NUMBER, 1], ['top', INT, 10], ['scaleAtInference', BOOL, true], ['span', INT, 0]] },
  measureHeads: { core: 'modelMeasureHeads', where: 'model.measureHeads',
    args: [['id', INT], ['tokens', F32], ['length', INT], ['span', INT, 0], ['scaleAtInference', BOOL, true]] },
  trainStep: { core: 'modelTrainStep', where: 'model.trainStep', args: [['id', INT], ['tokens', F32], ['batch', INT], ['learningRate', NUMBER]] },
  dispose: { core: 'modelDispose', where: 'dispose', args: [['id', INT]] },
};

// attention: v and its width dv come together (a CHECK: what is wrong, or null)
function valueWidth(v = null, dv = 0) {
  if (v !== null && dv === 0) return 'dv (the width of v) is required when v is given';
  if (v === null && dv !== 0) return `v is required when dv > 0 (dv = ${dv})`;
  return null;
}

// A row as the generic path reads it: each argument's parameter and key, its kind and default.
let rowCount = 0;
function compile(method, row) {
  const params = row.params ?? [ARGS];
  const object = params.findIndex((p) => p === ARGS || p === OPTIONS);
  const names = row.args.map(([name]) => name);
  const args = row.args.map(([name, kind, def, extra = {}]) => {
    const path = (extra.at ?? name).split('.');
    const param = params.indexOf(path[0]);
    return {
      name, kind, extra,
      def: def?.from === undefined ? def : undefined,
      defFrom: def?.from === undefined ? -1 : names.indexOf(def.from),
      param: param >= 0 && path.length === 1 ? param : object, // a parameter of its own, or a field of the object
      key: param >= 0 && path.length === 1 ? null : param >= 0 ? path[1] : path[0],
      key2: param >= 0 || path.length === 1 ? null : path[1],
      of: extra.of?.map((n) => row.args.findIndex(([m, k]) => m === n && k !== CHECK)),
    };
  });
  // every row the same shape, each field always present (the generic path reads them all alike)
  return {
    index: rowCount++,
    core: row.core,
    where: row.where ?? method,
    params,
    object,
    objectKind: object < 0 ? null : params[object],
    args,
    names,
    arrays: args.filter((a) => a.kind === F32 || a.kind === F32_OR_NULL).map((a) => a.name), // by slot
    into: args.find((a) => a.kind === OUT)?.extra.into ?? null, // the result's array that the caller's `out` receives
    keep: Boolean(row.echo || row.options || args.some((a) => a.defFrom >= 0)),
    options: Boolean(row.options),
    closed: Boolean(row.closed),
    defaults: row.defaults ?? null,
    pick: row.pick ?? null,
    extra: row.extra ?? null,
    echo: row.echo?.map((name) => names.indexOf(name)) ?? null,
    read: row.read ?? null,
  };
}

export const COMPILED = Object.fromEntries(Object.entries(CALLS).map(([method, row]) => [method, compile(method, row)]));
export const TRAIN = Object.fromEntries(Object.entries(TRAIN_CALLS).map(([name, row]) => [name, compile(name, row)]));
export const MODEL = Object.fromEntries(Object.entries(MODEL_CALLS).map(([name, row]) => [name, compile(name, row)]));
