// The one module that owns the WebAssembly core. Everything else (the page, Node users,
// tests) calls the core through the engine this module creates; nothing here computes
// attention — it checks argument types, copies arrays into the wasm heap, calls the core
// and builds the result the core describes (cpp/boundary.hpp) from one JS-owned copy. The
// core checks every range, length and value; its limits and status names are read from it.
//
// Loads unchanged in browsers and in Node 18+: the two wasm builds (SIMD and scalar) are each
// an ES module (the Emscripten loader) and its .wasm in ../build/, loaded lazily so only one
// build is ever fetched.

// Smallest module that uses a SIMD128 instruction (i32x4.splat): validates only where
// WebAssembly SIMD is supported. WebAssembly has no runtime dispatch, so the fallback is a
// second, scalar build of the same C++ source.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 17, 11,
]);

/** True when this JavaScript engine runs WebAssembly SIMD128. */
export function simdSupported() {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
}

/**
 * Creates an engine. `simd: 'auto'` (default) uses the SIMD build where supported and the
 * scalar build elsewhere; `true`/`false` force one (true fails where SIMD is unsupported).
 */
export async function createEngine({ simd = 'auto' } = {}) {
  const useSimd = simd === 'auto' ? simdSupported() : Boolean(simd);
  if (useSimd && !simdSupported())
    throw Object.assign(new Error('createEngine: this JavaScript engine has no WebAssembly SIMD'), { code: 'ATTN_UNSUPPORTED' });
  const loading = useSimd ? import('../build/attention-simd.mjs') : import('../build/attention-scalar.mjs');
  if (IN_NODE) return new Engine(await (await loading).default(), useSimd); // the loader reads its .wasm file (cpp/wasm-pre.js)
  // In a browser the .wasm is fetched and compiled while its loader module is imported (not
  // after it), and handed to the loader compiled.
  // Two literal URLs, not one template: bundlers (Vite's dependency optimizer among them) rewrite
  // new URL('<literal>', import.meta.url) to where the file is served, and cannot follow a template.
  const url = useSimd ? new URL('../build/attention-simd.wasm', import.meta.url) : new URL('../build/attention-scalar.wasm', import.meta.url);
  const [loader, module] = await Promise.all([loading, compileWasm(url)]);
  let failed;
  const failure = new Promise((_, reject) => (failed = reject));
  const instantiateWasm = (imports, receiveInstance) => {
    WebAssembly.instantiate(module, imports).then((instance) => receiveInstance(instance, module), failed);
    return {}; // the exports follow, through receiveInstance
  };
  const wasm = await Promise.race([loader.default({ instantiateWasm }), failure]);
  return new Engine(wasm, useSimd);
}

const IN_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';

// From the whole file, not WebAssembly.compileStreaming: V8 compiles the functions lazily, so
// there is little to overlap with the download, and for this ~100 kB module Chromium's
// streaming path cost more main-thread time (feeding V8 the body chunk by chunk: 12–28 ms in
// first-visit traces, against 3–8 ms). It also works whatever Content-Type the host sends.
async function compileWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw Object.assign(new Error(`createEngine: ${url}: HTTP ${response.status}`), { code: 'ATTN_LOAD_FAILED' });
  return WebAssembly.compile(await response.arrayBuffer());
}

class Engine {
  #wasm;
  #codes; // status number → error code, from the core's Status enum
  #descriptor; // word index of the descriptor the core publishes after each call (cpp/boundary.hpp)
  #inputLengths; // index in HEAPF64 of the lengths of the inputs of the next call, by slot (cpp/embind.cpp)
  #paths = new Map(); // name address in the descriptor → the result path it names (["mean", "entropy"])
  // the name addresses and paths of the last result's fields: the same method, called again,
  // describes the same fields in the same order (the hot path: one comparison per field)
  #lastNames = [];
  #lastPaths = [];
  // views of the wasm memory, taken again once growth has detached them (their length is then 0)
  #f32;
  #f64;
  #u32;
  // one reused heap block per input slot (cpp/embind.cpp reserve_input): float index, and the lengths it serves
  #inputAt;
  #inputCapacity;
  #inputKeepFrom;

  constructor(wasm, simd) {
    this.#wasm = wasm;
    /** True when the SIMD build runs. */
    this.simd = simd;
    /** Instruction set the kernels were compiled for ("wasm" or "emulated"). */
    this.arch = wasm.simdArch();
    this.#codes = [];
    for (const [name, status] of Object.entries(wasm.Status)) if (typeof status?.value === 'number') this.#codes[status.value] = name;
    this.#descriptor = wasm.descriptor() >>> 2;
    this.#inputLengths = wasm.inputLengths() >>> 3;
    this.#inputAt = new Array(wasm.inputSlots).fill(0);
    this.#inputCapacity = new Array(wasm.inputSlots).fill(-1); // -1: no block yet
    this.#inputKeepFrom = new Array(wasm.inputSlots).fill(0);
    this.#views();
  }

  // The current views of the wasm memory (reading them from the module object costs more).
  #views() {
    if (this.#f32?.length) return;
    this.#f32 = this.#wasm.HEAPF32;
    this.#f64 = this.#wasm.HEAPF64;
    this.#u32 = this.#wasm.HEAPU32;
  }

  /**
   * The limits the core checks every call against (cpp/check.hpp, attention.hpp, lesson.hpp):
   * a call beyond them fails with a RangeError whose code says which kind.
   */
  get limits() {
    const w = this.#wasm;
    return {
      maxDim: w.maxDim,
      memoryBudgetBytes: w.memoryBudgetBytes,
      maxSigma: w.maxSigma,
      lesson: {
        maxTokens: w.lessonMaxTokens,
        maxWidth: w.lessonMaxWidth,
        maxSamples: w.lessonMaxSamples,
        maxWidths: w.lessonMaxWidths,
        maxDraws: w.lessonMaxDraws,
        maxHeads: w.lessonMaxHeads,
        maxBins: w.lessonMaxBins,
      },
      train: {
        maxLetters: w.trainMaxLetters,
        maxDk: w.trainMaxDk,
        maxWidth: w.trainMaxWidth,
        maxBatch: w.trainMaxBatch,
        maxHeldout: w.trainMaxHeldout,
        maxSteps: w.trainMaxSteps,
        maxBytes: w.trainMaxBytes,
        maxTrainers: w.trainMaxTrainers,
      },
    };
  }

  /** softmax(scores / temperature) of one row; -Infinity entries are hidden (weight 0). */
  softmax(scores, options) {
    const { temperature = 1 } = optionsOf('softmax', options);
    const z = floatArray('scores', scores);
    number('temperature', temperature);
    this.#place(0, 'scores', z);
    this.#check(this.#wasm.softmax(temperature), 'softmax');
    return this.#result().weights;
  }

  /** `count` samples of N(0, sigma²), the same for a given 32-bit seed on every platform. */
  randomNormal(seed, count, options) {
    const { sigma = 1 } = optionsOf('randomNormal', options);
    uint32('seed', seed);
    int32('count', count);
    number('sigma', sigma);
    this.#check(this.#wasm.randomNormal(seed, sigma, count), 'randomNormal');
    return this.#result().values;
  }

  /** A dIn×dOut random projection with N(0, 1/dIn) entries (x·W keeps the scale of x). */
  randomProjection(seed, dIn, dOut) {
    uint32('seed', seed);
    int32('dIn', dIn);
    int32('dOut', dOut);
    this.#check(this.#wasm.randomProjection(seed, dIn, dOut), 'randomProjection');
    return this.#result().w;
  }

  /** x (t×dIn) · w (dIn×dOut) → t×dOut. */
  project(x, t, dIn, w, dOut) {
    int32('t', t);
    int32('dIn', dIn);
    int32('dOut', dOut);
    const xa = floatArray('x', x);
    const wa = floatArray('w', w);
    this.#place(0, 'x', xa);
    this.#place(1, 'w', wa);
    this.#check(this.#wasm.project(t, dIn, dOut), 'project');
    return this.#result().output;
  }

  /** A copy of x (t×d) plus strength × the sinusoidal positional encoding. */
  addPositionalEncoding(x, t, d, options) {
    const { strength = 1 } = optionsOf('addPositionalEncoding', options);
    int32('t', t);
    int32('d', d);
    number('strength', strength);
    const xa = floatArray('x', x);
    this.#place(0, 'x', xa);
    this.#check(this.#wasm.addPositionalEncoding(t, d, strength), 'addPositionalEncoding');
    return this.#result().output;
  }

  /** A deterministic N(0, sigma²) vector of width d for a word (used for unknown words). */
  textVector(text, d, options) {
    const { sigma = 1 } = optionsOf('textVector', options);
    if (typeof text !== 'string') throw typeError(`text must be a string, got ${describe(text)}`);
    int32('d', d);
    number('sigma', sigma);
    this.#check(this.#wasm.textVector(text, d, sigma), 'textVector');
    return this.#result().vector;
  }

  /**
   * Scaled dot-product attention for one head. Returns the intermediates a view shows:
   * { dots, scores, weights (n×m row-major), output (n×dv, or null without v), entropy,
   *   maxWeight, rowSum (n), scale }: views of one JS-owned buffer per call.
   */
  attention(input) {
    const { q, k, v = null, n, m, d, dv = 0, scale = 'sqrt', causal = false, temperature = 1, mask = null } =
      objectOf('attention', input);
    int32('n', n);
    int32('m', m);
    int32('d', d);
    int32('dv', dv);
    if (v !== null && dv === 0) throw typeError('dv (the width of v) is required when v is given');
    if (v === null && dv !== 0) throw typeError(`v is required when dv > 0 (dv = ${dv})`);
    const qa = floatArray('q', q);
    const ka = floatArray('k', k);
    const va = v === null ? null : floatArray('v', v);
    const maskArray = mask === null ? null : floatArray('mask', mask);
    const flags = optionFlags(scale, causal);
    number('temperature', temperature);
    this.#place(0, 'q', qa);
    this.#place(1, 'k', ka);
    this.#place(2, 'v', va);
    this.#place(3, 'mask', maskArray);
    this.#check(this.#wasm.attention(n, m, d, dv, flags, scaleValue(scale), temperature), 'attention');
    return this.#result();
  }

  /**
   * Streaming (online-softmax) attention: only the output, computed without an n×m matrix, so
   * long sequences fit (n = m = 16,384 at d = 64 in a 64 MB heap). No temperature, no mask.
   * Returns { output (n×dv row-major), scale }; `out` (a Float32Array of n·dv) receives the
   * output instead of a new array.
   */
  attentionStreaming(input) {
    const { q, k, v, n, m, d, dv, scale = 'sqrt', causal = false, out = null } = objectOf('attentionStreaming', input);
    int32('n', n);
    int32('m', m);
    int32('d', d);
    int32('dv', dv);
    const qa = floatArray('q', q);
    const ka = floatArray('k', k);
    const va = floatArray('v', v);
    const flags = optionFlags(scale, causal);
    if (out !== null && typedArrayKind.call(out) !== 'Float32Array') throw typeError(`out must be a Float32Array, got ${describe(out)}`);
    this.#place(0, 'q', qa);
    this.#place(1, 'k', ka);
    this.#place(2, 'v', va);
    this.#check(this.#wasm.attentionStreaming(n, m, d, dv, flags, scaleValue(scale), lengthOf(out)), 'attentionStreaming');
    return this.#streamingResult(out);
  }

  // attentionStreaming's result is { output, scale }: once the descriptor's names have shown
  // that its fields are those two, in that order, they are read with a few HEAPU32 reads (the
  // generic loop of #result costs ~0.08 µs, 2.5 % of a whole n = 16 call with `out`).
  #streamingNames = null;
  #streamingResult(out) {
    this.#views();
    const words = this.#u32, heap = this.#f32, at = this.#descriptor;
    const names = this.#streamingNames;
    if (names === null || words[at + 2] !== 2 || words[at + 3] !== names[0] || words[at + 7] !== names[1]) {
      const result = this.#result(out && { output: out });
      const [first, second] = Object.keys(result);
      if (first === 'output' && second === 'scale') this.#streamingNames = [words[at + 3], words[at + 7]];
      return result;
    }
    const base = words[at] >>> 2, offset = base + words[at + 4], length = words[at + 5];
    const scale = heap[base + words[at + 8]];
    if (out) return { output: (out.set(heap.subarray(offset, offset + length)), out), scale };
    return { output: heap.slice(offset, offset + length), scale };
  }

  /** Current size of the wasm heap in bytes (it grows on demand and never shrinks). */
  heapBytes() {
    return this.#wasm.HEAPU8.length;
  }

  // ---- the one call path: place the inputs, call, read the result the core describes ----

  // Input `slot` of the next call: copies `array` into the slot's block and writes its length
  // where the core reads it (-1 for null: not given). The block is reserved by the core (which
  // checks its size) only when the cached one is too small or far too large; that may grow the
  // heap, which detaches HEAPF32 and HEAPF64: they are read after it.
  #place(slot, name, array) {
    const length = lengthOf(array); // not array.length: a typed array's own `length` can lie
    if (length > this.#inputCapacity[slot] || (length < this.#inputKeepFrom[slot] && length >= 0)) {
      const at = this.#wasm.reserveInput(slot, length, name);
      this.#inputCapacity[slot] = at ? this.#wasm.inputCapacity(slot) : -1;
      this.#inputKeepFrom[slot] = at ? this.#wasm.inputKeepFrom(slot) : 0;
      this.#inputAt[slot] = at >>> 2;
      if (!at) this.#check(this.#wasm.Status.ATTN_TOO_LARGE.value);
    }
    this.#views();
    if (length >= 0) this.#f32.set(array, this.#inputAt[slot]);
    this.#f64[this.#inputLengths + slot] = length;
  }

  // Throws the core's error for a failed call: a RangeError with the core's message and code.
  #check(status, where) {
    if (status === 0) return;
    const error = new RangeError(where ? `${where}: ${this.#wasm.lastError()}` : this.#wasm.lastError());
    error.code = this.#codes[status] ?? 'ATTN_INTERNAL';
    throw error;
  }

  // The result of the call that just succeeded, from the descriptor the core published: arrays
  // as subarrays of one JS-owned copy of the output block (a HEAPF32 view would be overwritten
  // by the next call, or detached by growth; one slice and subarrays cost less than a slice
  // each), scalars as numbers, flags as booleans, absent arrays as null. An array named in
  // `into` is copied into the caller's array instead (no new buffer when nothing else needs one).
  #result(into = null) {
    this.#views();
    const words = this.#u32;
    const heap = this.#f32;
    const at = this.#descriptor;
    const base = words[at] >>> 2, floats = words[at + 1], count = words[at + 2];
    const result = {};
    let block = null;
    for (let f = 0, w = at + 3; f < count; f++, w += 4) {
      if (this.#lastNames[f] !== words[w]) {
        this.#lastNames[f] = words[w];
        this.#lastPaths[f] = this.#path(words[w]);
      }
      const path = this.#lastPaths[f];
      const offset = base + words[w + 1], length = words[w + 2], kind = words[w + 3];
      let value;
      if (kind === FIELD_ARRAY) {
        const target = into?.[path[0]]; // of the right length: the core checked it
        if (target) {
          value = target;
          target.set(heap.subarray(offset, offset + length));
        } else {
          block ??= heap.slice(base, base + floats);
          value = block.subarray(offset - base, offset - base + length);
        }
      } else if (kind === FIELD_NUMBER) value = heap[offset];
      else if (kind === FIELD_FLAG) value = heap[offset] !== 0;
      else value = null;
      if (path.length === 1) result[path[0]] = value;
      else (result[path[0]] ??= {})[path[1]] = value;
    }
    return result;
  }

  // A field name (a C string literal of the binding, so its address never changes) as a path.
  #path(address) {
    let path = this.#paths.get(address);
    if (path === undefined) {
      const bytes = this.#wasm.HEAPU8;
      let end = address;
      while (bytes[end] !== 0) end++;
      path = String.fromCharCode(...bytes.subarray(address, end)).split('.');
      this.#paths.set(address, path);
    }
    return path;
  }

  // ---- the lesson's measurements (cpp/lesson.hpp): every number an instrument shows ----

  /**
   * Thresholds the lesson uses, as the core defines them: a row is "peaked" when its max weight
   * exceeds peakedMaxWeight, "flat" when its entropy exceeds flatEntropyFraction·ln m; a float32
   * exp overflows above expOverflowThreshold (= ln FLT_MAX).
   */
  get lessonConstants() {
    return {
      peakedMaxWeight: this.#wasm.lessonPeakedMaxWeight,
      flatEntropyFraction: this.#wasm.lessonFlatEntropyFraction,
      expOverflowThreshold: this.#wasm.lessonExpOverflowThreshold,
    };
  }

  /**
   * `samples` pairs q, k with i.i.d. N(0,1) components of width d (seeded); histograms of q·k
   * over `range` and of q·k/√d over `scaledRange` (when omitted, the core's ±4√d and ±4), with
   * `bins` bins each, plus their sample mean and variance, and √d. Each histogram:
   * { counts, below, above, mean, variance, lo, hi }.
   */
  dotHistograms(options) {
    const { seed = 1, d, samples = 2000, bins = 40, range, scaledRange } = objectOf('dotHistograms', options);
    uint32('seed', seed);
    int32('d', d);
    int32('samples', samples);
    int32('bins', bins);
    const [lo, hi] = range === undefined ? [0, 0] : pair('range', range);
    const [slo, shi] = scaledRange === undefined ? [0, 0] : pair('scaledRange', scaledRange);
    this.#check(
      this.#wasm.lessonDotHistograms(seed, d, samples, bins, range !== undefined, lo, hi, scaledRange !== undefined, slo, shi),
      'dotHistograms',
    );
    return { d, samples, ...this.#result() };
  }

  /** Measured Var(q·k) and Var(q·k/√d) of `samples` random pairs for each width in `dims` (expected d and 1). */
  dotVarianceCurve(options) {
    const { seed = 1, dims, samples = 2000 } = objectOf('dotVarianceCurve', options);
    uint32('seed', seed);
    const widths = widthList(dims);
    int32('samples', samples);
    this.#check(this.#wasm.lessonDotVarianceCurve(seed, widths, samples), 'dotVarianceCurve');
    return { dims: widths, ...this.#result() };
  }

  /**
   * The same for a sentence: token vectors x (t×dIn) are layer-normalised and projected by
   * `draws` seeded random W_Q, W_K per width; the variance of all draws·t² dot products.
   */
  tokenVarianceCurve(options) {
    const { x, t, dIn = 100, seed = 1, dims, draws = 8 } = objectOf('tokenVarianceCurve', options);
    const xa = tokens(x, t, dIn);
    uint32('seed', seed);
    const widths = widthList(dims);
    int32('draws', draws);
    this.#place(0, 'x', xa);
    this.#check(this.#wasm.lessonTokenVarianceCurve(t, dIn, seed, widths, draws), 'tokenVarianceCurve');
    return { dims: widths, ...this.#result() };
  }

  /** Q, K, V (t×d each) of head `head`: LayerNorm(x) times seeded N(0, 1/dIn) projections. */
  headProjections(options) {
    const { x, t, dIn = 100, seed = 1, head = 0, d } = objectOf('headProjections', options);
    const xa = tokens(x, t, dIn);
    uint32('seed', seed);
    int32('head', head);
    int32('d', d);
    this.#place(0, 'x', xa);
    this.#check(this.#wasm.lessonHeadProjections(t, dIn, seed, head, d), 'headProjections');
    return this.#result();
  }

  /**
   * The weights headProjections uses for (seed, head, d): { wq, wk } (dIn×d each, seeded
   * N(0, 1/dIn)). With projectHead they give headProjections' Q and K bit for bit; keep them
   * to project new x at the same (seed, d) without drawing the weights again.
   */
  headWeights(options) {
    const { dIn = 100, seed = 1, head = 0, d } = objectOf('headWeights', options);
    uint32('seed', seed);
    int32('dIn', dIn);
    int32('head', head);
    int32('d', d);
    this.#check(this.#wasm.lessonHeadWeights(seed, head, dIn, d), 'headWeights');
    return { dIn, d, ...this.#result() };
  }

  /** Q = LayerNorm(x) W_Q and K = LayerNorm(x) W_K (t×d each) for weights from headWeights. */
  projectHead(options) {
    const { x, t, weights } = objectOf('projectHead', options);
    if (weights === null || typeof weights !== 'object')
      throw typeError(`weights must be headWeights' result, got ${describe(weights)}`);
    const { dIn, d } = weights;
    const xa = tokens(x, t, dIn);
    int32('weights.d', d);
    const wq = floatArray('weights.wq', weights.wq);
    const wk = floatArray('weights.wk', weights.wk);
    this.#place(0, 'x', xa);
    this.#place(1, 'weights.wq', wq);
    this.#place(2, 'weights.wk', wk);
    this.#check(this.#wasm.lessonProjectHead(t, dIn, d), 'projectHead');
    return this.#result();
  }

  /**
   * For each width in `dims`: head 0's attention over the sentence with scores q·k/√d
   * (scaled) or q·k, and per row its max weight, entropy, regime (0 balanced, 1 peaked,
   * 2 flat) and ‖∂L/∂scores‖ for L = ⟨g, p⟩ with a fixed seeded g. Arrays are dims.length×t;
   * peakedCount and flatCount count the rows of each width, maxEntropy = ln t, and `mean`
   * holds the averages over rows and the fractions of peaked and flat rows.
   */
  saturationSweep(options) {
    const { x, t, dIn = 100, seed = 1, dims, scaled = true } = objectOf('saturationSweep', options);
    const xa = tokens(x, t, dIn);
    uint32('seed', seed);
    const widths = widthList(dims);
    boolean('scaled', scaled);
    this.#place(0, 'x', xa);
    this.#check(this.#wasm.lessonSaturationSweep(t, dIn, seed, widths, scaled), 'saturationSweep');
    return { dims: widths, t, scaled, ...this.#result() };
  }

  /** The softmax Jacobian diag(p) − p pᵀ of one row of weights p (m×m, row-major). */
  softmaxJacobian(p) {
    const pa = floatArray('p', p);
    this.#place(0, 'p', pa);
    this.#check(this.#wasm.lessonSoftmaxJacobian(), 'softmaxJacobian');
    return this.#result().jacobian;
  }

  /** ∂L/∂z = p ⊙ (dp − ⟨p, dp⟩) for p = softmax(z) and dp = ∂L/∂p. */
  softmaxBackward(p, dp) {
    const pa = floatArray('p', p);
    const da = floatArray('dp', dp);
    this.#place(0, 'p', pa);
    this.#place(1, 'dp', da);
    this.#check(this.#wasm.lessonSoftmaxBackward(), 'softmaxBackward');
    return this.#result().dz;
  }

  /** The fixed N(0,1) upstream gradient g (m) that saturationSweep uses for row `row`. */
  upstreamGradient(seed, row, m) {
    uint32('seed', seed);
    int32('row', row);
    int32('m', m);
    this.#check(this.#wasm.lessonUpstreamGradient(seed, row, m), 'upstreamGradient');
    return this.#result().g;
  }

  /**
   * Every step of one query row q (d) against keys k (m×d), in float32: the element-wise
   * product with key `key`, its sum, the scores (÷√d when scaled; keys j ≥ visible hidden as
   * -Infinity, e.g. visible = row + 1 under a causal mask), minus the max and ÷ temperature,
   * exp, normalised; with √d, the row's max weight, smallest visible weight and entropy —
   * attention()'s for the same row.
   */
  stepByStep(options) {
    const input = objectOf('stepByStep', options);
    const { q, k, m, d, key = 0, scaled = true, temperature = 1, visible = m } = input;
    int32('m', m);
    int32('d', d);
    int32('key', key);
    int32('visible', visible);
    boolean('scaled', scaled);
    number('temperature', temperature);
    const qa = floatArray('q', q);
    const ka = floatArray('k', k);
    this.#place(0, 'q', qa);
    this.#place(1, 'k', ka);
    this.#check(this.#wasm.lessonStepByStep(m, d, key, scaled, temperature, visible), 'stepByStep');
    return { key, temperature, visible, ...this.#result() };
  }

  /**
   * ‖∂L/∂z‖₂ of one softmax row p for L = ⟨g, p⟩ with g = upstreamGradient(seed, row, p.length):
   * the gradient size saturationSweep reports for row `row`, for any row of weights.
   */
  softmaxGradientNorm(p, options) {
    const { seed = 1, row = 0 } = optionsOf('softmaxGradientNorm', options);
    const pa = floatArray('p', p);
    uint32('seed', seed);
    int32('row', row);
    this.#place(0, 'p', pa);
    this.#check(this.#wasm.lessonSoftmaxGradientNorm(seed, row), 'softmaxGradientNorm');
    return this.#result().norm;
  }

  /**
   * THE BROKEN NAIVE SOFTMAX, for showing why the max is subtracted: exp(z/T) in float32
   * without the shift. Past expOverflowThreshold the exps are Infinity, the sum Infinity and
   * the weights NaN — returned raw, marked `naive: true`, with `largest` (max z/T) and
   * `overflowed`. Never use these as attention weights.
   */
  softmaxNaive(scores, options) {
    const { temperature = 1 } = optionsOf('softmaxNaive', options);
    const z = floatArray('scores', scores);
    number('temperature', temperature);
    this.#place(0, 'scores', z);
    this.#check(this.#wasm.lessonSoftmaxNaive(temperature), 'softmaxNaive');
    return { naive: true, temperature, ...this.#result() };
  }

  /**
   * h heads over the sentence, each with its own seeded projections (head r = headProjections
   * with head r) and width d: weights (h×t×t), entropy and maxWeight (h×t), and the
   * concatenated outputs (t×h·d) before any output projection.
   */
  multiHead(options) {
    const { x, t, dIn = 100, seed = 1, heads = 4, d = 16, scaled = true } = objectOf('multiHead', options);
    const xa = tokens(x, t, dIn);
    uint32('seed', seed);
    int32('heads', heads);
    int32('d', d);
    boolean('scaled', scaled);
    this.#place(0, 'x', xa);
    this.#check(this.#wasm.lessonMultiHead(t, dIn, seed, heads, d, scaled), 'multiHead');
    return { heads, t, d, scaled, ...this.#result() };
  }

  // ---- training (cpp/train.hpp): one attention model trained twice, scaled and unscaled ----

  #trainDefaults = null;
  #trainers = null; // disposes the experiment of a trainer that was dropped without dispose()

  /**
   * The default experiment (cpp/train.hpp, Config): every field of TrainConfig. Float32 fields
   * are given as the shortest decimal that is the same float32 (learningRate 0.002, not
   * 0.0020000000949949026).
   */
  get trainDefaults() {
    if (!this.#trainDefaults) {
      const raw = this.#wasm.trainDefaults();
      for (const [name, value] of Object.entries(raw)) if (typeof value === 'number') raw[name] = shortestFloat32(value);
      this.#trainDefaults = Object.freeze(raw);
    }
    return this.#trainDefaults;
  }

  /** The `accuracyGoal` a run's reachedAt counts to: held-out accuracy 0.9. */
  get trainAccuracyGoal() {
    return shortestFloat32(this.#wasm.trainAccuracyGoal);
  }

  /**
   * A trainer of the experiment `config` (fields left out take trainDefaults): two runs from the
   * same seed, data and initialisation, one with scores q·k/√d_k and one with q·k. Holds memory
   * in the engine until dispose() (at most limits.train.maxTrainers at once).
   */
  createTrainer(config) {
    const c = trainConfig(config === undefined ? {} : objectOf('createTrainer', config), this.trainDefaults);
    this.#check(
      this.#wasm.trainCreate(c.seed, c.dk, c.initScale, c.optimizer, c.learningRate, c.momentum, c.beta1, c.beta2, c.eps,
        c.clipNorm, c.steps, c.batch, c.heldout, c.letters, c.pairs, c.queries, c.dModel, c.dv),
      'createTrainer',
    );
    const created = this.#result();
    this.#trainers ??= new FinalizationRegistry((id) => this.#wasm.trainDispose(id));
    const call = (where, invoke) => {
      this.#check(invoke(this.#wasm), where);
      return this.#result();
    };
    const runs = Object.entries(this.#wasm.TrainRun)
      .filter(([, run]) => typeof run?.value === 'number')
      .map(([name, run]) => [name, run.value]);
    return new Trainer(call, this.#trainers, runs, Object.freeze(c), created);
  }

  /** Runs the whole experiment `config` and returns its curves (a trainer made and disposed). */
  train(config) {
    const trainer = this.createTrainer(config);
    try {
      trainer.step(trainer.config.steps);
      return trainer.curves();
    } finally {
      trainer.dispose();
    }
  }
}

/**
 * An experiment of two runs held by the engine (engine.createTrainer). Its curves grow by
 * step(); read(since) gives what came after step `since`, curves() everything.
 */
class Trainer {
  #call;
  #registry;
  #id;
  #runs; // [name, the core's run number]
  #step = 0; // steps taken, as the core last reported
  #disposed = false;

  constructor(call, registry, runs, config, created) {
    this.#call = call;
    this.#registry = registry;
    this.#id = created.id;
    this.#runs = runs;
    registry.register(this, created.id, this);
    /** The experiment's settings, every field (the defaults filled in). */
    this.config = config;
    /** Parameters of one run's model. */
    this.parameterCount = created.parameters;
    /** Bytes the experiment holds in the engine. */
    this.bytes = created.bytes;
    /** ln(pairs): the entropy of a uniform attention row, the top of the entropy curve. */
    this.maxEntropy = created.maxEntropy;
    /** The factor each run multiplies q·k by: { scaled: 1/√d_k, unscaled: 1 }. */
    this.scale = Object.freeze({ ...created.scale });
    /** The example whose attention the runs report (held-out example 0), as symbols. */
    this.example = exampleOf(created.example);
  }

  /** Steps taken (both runs advance together; a run that blew up stops early, see divergedAt). */
  get stepsDone() {
    return this.#step;
  }

  /** True once config.steps steps are taken. */
  get done() {
    return this.#step >= this.config.steps;
  }

  /** Advances both runs by up to `count` steps (default 1); returns how many were taken. */
  step(count = 1) {
    int32('count', count);
    const { taken, step } = this.#use('step', (w) => w.trainStep(this.#id, count));
    this.#step = step;
    return taken;
  }

  /**
   * Both runs' curves from step `since` on (0 = from the first step): per run the metrics of
   * steps from+1 … steps (arrays of steps − from values, from = min(since, steps)), and its state
   * now (the shown example's attention, divergedAt, reachedAt, shownOnTarget).
   */
  read(since = 0) {
    int32('since', since);
    const runs = {};
    for (const [name, run] of this.#runs) runs[name] = { scale: this.scale[name], ...this.#use('read', (w) => w.trainRead(this.#id, run, since)) };
    return { step: this.#step, steps: this.config.steps, done: this.done, runs };
  }

  /** Every step's metrics so far: read(0). */
  curves() {
    return this.read(0);
  }

  /** Back to step 0, the same initialisation and data: stepping again gives the same curves. */
  reset() {
    this.#use('reset', (w) => w.trainReset(this.#id));
    this.#step = 0;
  }

  /**
   * A batch as the runs see it: 'last' (the batch of the last step; count 0 before the first
   * step) or 'heldout'. Indices: keys and queries are letters (0 = a), values and answers digits,
   * target the pair each query asks about.
   */
  batch(which = 'last') {
    if (which !== 'last' && which !== 'heldout') throw typeError(`batch: which must be 'last' or 'heldout', got ${describe(which)}`);
    const b = this.#use('batch', (w) => w.trainBatch(this.#id, which === 'heldout'));
    return { count: b.count, keys: Int32Array.from(b.keys), values: Int32Array.from(b.values),
      queries: Int32Array.from(b.queries), answers: Int32Array.from(b.answers), target: Int32Array.from(b.target) };
  }

  /** One run's parameters now: { embedKey (letters×dModel), embedValue (10×dModel), wQ, wK (dModel×dk), wV (dModel×dv), wO (dv×10) }. */
  parameters(run) {
    const entry = this.#runs.find(([name]) => name === run);
    if (!entry) throw typeError(`parameters: run must be one of ${this.#runs.map(([name]) => `'${name}'`).join(', ')}, got ${describe(run)}`);
    return this.#use('parameters', (w) => w.trainParameters(this.#id, entry[1]));
  }

  /** Gives the experiment's memory back to the engine; the trainer cannot be used after. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#registry.unregister(this);
    this.#call('dispose', (w) => w.trainDispose(this.#id));
  }

  #use(where, invoke) {
    // the core would reuse a disposed trainer's id for the next one: refuse it here
    if (this.#disposed) throw rangeError(`trainer.${where}: this trainer was disposed`, 'ATTN_INVALID_ARGUMENT');
    return this.#call(`trainer.${where}`, invoke);
  }
}

// The fields of TrainConfig and the type each must have; ranges and values are the core's to check.
const TRAIN_FIELDS = {
  seed: 'seed', dk: 'int', initScale: 'number', optimizer: 'string', learningRate: 'number', momentum: 'number',
  beta1: 'number', beta2: 'number', eps: 'number', clipNorm: 'number', steps: 'int', batch: 'int', heldout: 'int',
  letters: 'int', pairs: 'int', queries: 'int', dModel: 'int', dv: 'int',
};

function trainConfig(config, defaults) {
  for (const name of Object.keys(config))
    if (!Object.hasOwn(TRAIN_FIELDS, name))
      throw typeError(`createTrainer: unknown field ${JSON.stringify(name)}; the fields are ${Object.keys(TRAIN_FIELDS).join(', ')}`);
  const c = {};
  for (const [name, type] of Object.entries(TRAIN_FIELDS)) {
    const value = config[name] === undefined ? defaults[name] : config[name];
    if (type === 'seed') uint32(name, value);
    else if (type === 'int') int32(name, value);
    else if (type === 'number') number(name, value);
    else if (typeof value !== 'string') throw typeError(`${name} must be a string, got ${describe(value)}`);
    c[name] = value;
  }
  return c;
}

// The shown example's indices as the symbols a learner reads: letters for keys, digits for values.
function exampleOf({ keys, values, queries, answers, target }) {
  const letter = (i) => String.fromCharCode(97 + i);
  const digit = (i) => String(i);
  return Object.freeze({
    keys: Array.from(keys, letter),
    values: Array.from(values, digit),
    pairs: Array.from(keys, (key, j) => letter(key) + digit(values[j])),
    queries: Array.from(queries, letter),
    answers: Array.from(answers, digit),
    target: Array.from(target),
  });
}

// The shortest decimal that reads back as the same float32 (a default as its source wrote it).
function shortestFloat32(x) {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  for (let digits = 1; digits <= 9; digits++) {
    const y = Number(x.toPrecision(digits));
    if (Math.fround(y) === x) return y;
  }
  return x;
}

// Field kinds of the descriptor (cpp/boundary.hpp, FieldKind).
const FIELD_ARRAY = 0;
const FIELD_NUMBER = 1;
const FIELD_FLAG = 2;

// Flags of the binding (cpp/embind.cpp, CallFlags).
const SCALE_BY_SQRT_D = 1;
const CAUSAL = 2;

// ---- argument types: what JavaScript must check before a value can cross into C++; every
// ---- range, length and value is checked by the core (cpp/check.hpp) ----

// Every error the engine throws carries error.code: the core's status names, and for a value
// of the wrong type ATTN_INVALID_ARGUMENT.
function typeError(message) {
  const error = new TypeError(message);
  error.code = 'ATTN_INVALID_ARGUMENT';
  return error;
}

function rangeError(message, code) {
  const error = new RangeError(message);
  error.code = code;
  return error;
}

// The argument object of a method: an object (not null, not an array).
function objectOf(where, value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw typeError(`${where} takes one object of named arguments, got ${describe(value)}`);
  return value;
}

// An optional options object: undefined means all defaults.
function optionsOf(where, value) {
  return value === undefined ? {} : objectOf(where, value);
}

function number(name, value) {
  if (typeof value !== 'number') throw typeError(`${name} must be a number, got ${describe(value)}`);
}

function boolean(name, value) {
  if (typeof value !== 'boolean') throw typeError(`${name} must be true or false, got ${describe(value)}`);
}

// An integer the binding takes as a C++ int (32 bits); its range is the core's to check.
function int32(name, value) {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw typeError(`${name} must be an integer, got ${describe(value)}`);
  if ((value | 0) !== value) throw rangeError(`${name} must be a 32-bit integer, got ${value}`, 'ATTN_INVALID_SHAPE');
}

// A seed: an unsigned 32-bit integer, which a JS number carries exactly.
function uint32(name, value) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw typeError(`${name} must be an integer from 0 to 4294967295 (32 bits), got ${describe(value)}`);
}

function optionFlags(scale, causal) {
  boolean('causal', causal);
  if (scale !== 'sqrt' && scale !== 'none' && typeof scale !== 'number')
    throw typeError(`scale must be 'sqrt', 'none' or a positive number, got ${describe(scale)}`);
  return (scale === 'sqrt' ? SCALE_BY_SQRT_D : 0) | (causal ? CAUSAL : 0);
}

function scaleValue(scale) {
  return typeof scale === 'number' ? scale : 1;
}

// [lo, hi]: two numbers (the core checks that they make a range).
function pair(name, value) {
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'number' || typeof value[1] !== 'number')
    throw typeError(`${name} must be [lo, hi], two numbers, got ${describe(value)}`);
  return value;
}

// A list of key widths: integers (the core checks how many and their range).
function widthList(dims) {
  if (!Array.isArray(dims) && typedArrayKind.call(dims) === undefined)
    throw typeError(`dims must be an array of widths, got ${describe(dims)}`);
  const widths = Array.from(dims);
  widths.forEach((d, i) => int32(`dims[${i}]`, d));
  return widths;
}

// The token vectors of a lesson call (x, t×dIn).
function tokens(x, t, dIn) {
  int32('t', t);
  int32('dIn', dIn);
  return floatArray('x', x);
}

// The internal slots of a typed array, read with the intrinsic getters: a typed array's own
// `length` can be redefined and a Proxy can pretend to be one, but neither fools these
// (they return undefined, or throw, for anything that is not a typed array).
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const typedArrayKind = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const typedArrayLength = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;

// The true length of a Float32Array, or -1 for null (the binding reads a negative length as "not given").
function lengthOf(array) {
  return array === null ? -1 : typedArrayLength.call(array);
}

// A Float32Array as is; any other typed array or array of numbers as a float32 copy.
function floatArray(name, value) {
  const kind = typedArrayKind.call(value);
  if (kind === 'Float32Array') return value; // its length is read with the intrinsic getter (#place)
  if (kind === 'BigInt64Array' || kind === 'BigUint64Array') throw typeError(`${name} must hold numbers, got a ${kind}`);
  if (kind !== undefined) return new Float32Array(value); // reads the source's own slots, not its properties
  let isArray;
  try {
    isArray = Array.isArray(value);
  } catch {
    isArray = false; // a revoked Proxy
  }
  if (!isArray) throw typeError(`${name} must be a Float32Array (or an array of numbers), got ${describe(value)}`);
  try {
    const length = value.length;
    const copy = new Float32Array(length);
    for (let i = 0; i < length; i++) {
      const x = value[i];
      if (typeof x === 'number') copy[i] = x;
      else if (Array.isArray(x))
        throw typeError(`${name}[${i}] is an array: pass ${name} as one flat array of numbers, row-major (${name}.flat() of its rows)`);
      else throw typeError(`${name}[${i}] must be a number, got ${describe(x)}`);
    }
    return copy;
  } catch (error) {
    if (error.code) throw error;
    throw typeError(`${name} could not be read as an array of numbers: ${error.message}`); // e.g. a Proxy's trap threw
  }
}

// A short description of any value for a message; never throws (a Proxy, an object without a
// prototype or a throwing getter included).
function describe(value) {
  try {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'undefined': return 'undefined';
      case 'string': return `the string ${JSON.stringify(value.slice(0, 40))}`;
      case 'number': case 'boolean': return `${typeof value} ${String(value)}`;
      case 'bigint': return `the BigInt ${String(value)}n`;
      case 'symbol': return 'a symbol';
      case 'function': return 'a function';
    }
    const kind = typedArrayKind.call(value);
    if (kind !== undefined) return `a ${kind}`;
    if (Array.isArray(value)) return 'an array';
    const tag = Object.prototype.toString.call(value).slice(8, -1); // "Object", "Map", "DataView"...
    return tag === 'Object' ? 'an object' : `a ${tag}`;
  } catch {
    return `an ${typeof value} that cannot be inspected`;
  }
}
