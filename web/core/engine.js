// The one module that owns the WebAssembly core. Everything else (the page, Node users,
// tests) calls the core through the engine this module creates; nothing here computes
// attention — it checks argument types, copies arrays into the wasm heap, calls the core
// and copies the results out into JS-owned Float32Arrays.
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

// Status codes of cpp/attention.hpp (attn::Status) → stable error codes for callers.
const STATUS_CODES = {
  1: 'ATTN_INVALID_SHAPE',
  2: 'ATTN_INVALID_ARGUMENT',
  3: 'ATTN_NON_FINITE_INPUT',
  4: 'ATTN_OVERFLOW',
};

const BYTES_PER_FLOAT = 4;

/**
 * Creates an engine. `simd: 'auto'` (default) uses the SIMD build where supported and the
 * scalar build elsewhere; `true`/`false` force one (true fails where SIMD is unsupported).
 */
export async function createEngine({ simd = 'auto' } = {}) {
  const useSimd = simd === 'auto' ? simdSupported() : Boolean(simd);
  if (useSimd && !simdSupported()) throw new Error('createEngine: this JavaScript engine has no WebAssembly SIMD');
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
  if (!response.ok) throw new Error(`createEngine: ${url}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

class Engine {
  #wasm;
  #arena = 0; // one heap block reused by every call: failed calls never grow the heap
  #arenaBytes = 0;

  constructor(wasm, simd) {
    this.#wasm = wasm;
    /** True when the SIMD build runs. */
    this.simd = simd;
    /** Instruction set the kernels were compiled for ("wasm" or "emulated"). */
    this.arch = wasm.simdArch();
  }

  /** softmax(scores / temperature) of one row; -Infinity entries are hidden (weight 0). */
  softmax(scores, { temperature = 1 } = {}) {
    const z = floatArray('scores', scores);
    checkNumber('temperature', temperature);
    if (z.length === 0) throw new RangeError('scores must hold at least one number, got an empty array');
    return this.#run('softmax', [z], z.length, (zPtr, out) => this.#wasm.softmax(zPtr, z.length, temperature, out));
  }

  /** `count` samples of N(0, sigma²), the same for a given 32-bit seed on every platform. */
  randomNormal(seed, count, { sigma = 1 } = {}) {
    checkSeed(seed);
    checkDim('count', count, 0, 1 << 24);
    checkPositive('sigma', sigma);
    return this.#run('randomNormal', [], count, (out) => this.#wasm.randomNormal(seed, sigma, out, count));
  }

  /** A dIn×dOut random projection with N(0, 1/dIn) entries (x·W keeps the scale of x). */
  randomProjection(seed, dIn, dOut) {
    checkSeed(seed);
    checkDim('dIn', dIn, 1);
    checkDim('dOut', dOut, 1);
    return this.#run('randomProjection', [], dIn * dOut, (w) => this.#wasm.randomProjection(seed, dIn, dOut, w));
  }

  /** x (t×dIn) · w (dIn×dOut) → t×dOut. */
  project(x, t, dIn, w, dOut) {
    checkDim('t', t, 1);
    checkDim('dIn', dIn, 1);
    checkDim('dOut', dOut, 1);
    const xa = floatArray('x', x, t * dIn, 't·dIn');
    const wa = floatArray('w', w, dIn * dOut, 'dIn·dOut');
    return this.#run('project', [xa, wa], t * dOut, (xPtr, wPtr, out) =>
      this.#wasm.project(xPtr, t, dIn, wPtr, dOut, out),
    );
  }

  /** A copy of x (t×d) plus strength × the sinusoidal positional encoding. */
  addPositionalEncoding(x, t, d, { strength = 1 } = {}) {
    checkDim('t', t, 1);
    checkDim('d', d, 1);
    checkNumber('strength', strength);
    const xa = floatArray('x', x, t * d, 't·d');
    return this.#run('addPositionalEncoding', [xa], t * d, (xPtr, out) =>
      this.#wasm.addPositionalEncoding(xPtr, t, d, strength, out),
    );
  }

  /** A deterministic N(0, sigma²) vector of width d for a word (used for unknown words). */
  textVector(text, d, { sigma = 1 } = {}) {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}`);
    checkDim('d', d, 1);
    checkPositive('sigma', sigma);
    return this.#run('textVector', [], d, (out) => this.#wasm.textVector(text, d, sigma, out));
  }

  /**
   * Scaled dot-product attention for one head. Returns the intermediates a view shows:
   * { dots, scores, weights (n×m row-major), output (n×dv, or null without v), entropy,
   *   maxWeight, rowSum (n), scale }.
   */
  attention({ q, k, v = null, n, m, d, dv = 0, scale = 'sqrt', causal = false, temperature = 1, mask = null } = {}) {
    checkDim('n', n, 1);
    checkDim('m', m, 1);
    checkDim('d', d, 1);
    if (v && dv === 0) throw new TypeError('dv (the width of v) is required when v is given');
    checkDim('dv', dv, v ? 1 : 0);
    const qa = floatArray('q', q, n * d, 'n·d');
    const ka = floatArray('k', k, m * d, 'm·d');
    const va = v ? floatArray('v', v, m * dv, 'm·dv') : null;
    if (!v && dv > 0) throw new TypeError(`v is required when dv > 0 (dv = ${dv})`);
    const maskArray = mask ? floatArray('mask', mask, n * m, 'n·m') : null;
    const options = resolveOptions(scale, causal, temperature);

    // heap layout: q | k | v | mask | dots | scores | weights | entropy | maxWeight | rowSum | output | scale
    const nm = n * m;
    const inputFloats = n * d + m * d + m * dv + (maskArray ? nm : 0);
    const outputFloats = 3 * nm + 3 * n + n * dv + 1;
    const base = this.#reserve(inputFloats + outputFloats);
    const heap = this.#wasm.HEAPF32;
    let at = base / BYTES_PER_FLOAT;
    const place = (array) => {
      if (!array) return 0;
      heap.set(array, at);
      const offset = at * BYTES_PER_FLOAT;
      at += array.length;
      return offset;
    };
    const qPtr = place(qa);
    const kPtr = place(ka);
    const vPtr = place(va);
    const maskPtr = place(maskArray);
    const outPtr = at * BYTES_PER_FLOAT;

    const status = this.#wasm.attention(
      qPtr, kPtr, vPtr, maskPtr, n, m, d, dv, options.flags, options.scale, temperature, outPtr);
    this.#throwIfFailed(status, 'attention');

    // One JS-owned copy of the whole result block (a HEAPF32 view would be overwritten by the next
    // call, or detached by growth), handed out as views: one slice and seven subarrays cost less
    // than half of six slices at n = 16 (each slice allocates and zero-fills its own buffer).
    const block = this.#wasm.HEAPF32.slice(at, at + outputFloats);
    let offset = 0;
    const take = (count) => block.subarray(offset, (offset += count));
    const dots = take(nm);
    const scores = take(nm);
    const weights = take(nm);
    const entropy = take(n);
    const maxWeight = take(n);
    const rowSum = take(n);
    const output = dv > 0 ? take(n * dv) : null;
    const usedScale = block[outputFloats - 1];
    return { dots, scores, weights, output, entropy, maxWeight, rowSum, scale: usedScale };
  }

  /**
   * Streaming (online-softmax) attention: only the output, computed without an n×m matrix, so
   * long sequences fit (n = m = 16,384 at d = 64 in a 64 MB heap). No temperature, no mask.
   * Returns { output (n×dv row-major), scale }.
   */
  attentionStreaming({ q, k, v, n, m, d, dv, scale = 'sqrt', causal = false, out = null } = {}) {
    checkDim('n', n, 1);
    checkDim('m', m, 1);
    checkDim('d', d, 1);
    checkDim('dv', dv, 1);
    const qa = floatArray('q', q, n * d, 'n·d');
    const ka = floatArray('k', k, m * d, 'm·d');
    const va = floatArray('v', v, m * dv, 'm·dv');
    const options = resolveOptions(scale, causal, 1);
    if (out !== null) {
      if (!(out instanceof Float32Array)) throw new TypeError(`out must be a Float32Array, got ${describe(out)}`);
      if (out.length !== n * dv) throw new RangeError(`out has length ${out.length}, expected n·dv = ${n * dv}`);
    }
    // The hot path of the benchmarks, written out instead of going through #run (its closures and
    // spread arguments showed at n = 16): heap layout q | k | v | output (n×dv) | the scale used.
    const outFloats = n * dv;
    const base = this.#reserve(qa.length + ka.length + va.length + outFloats + 1) / BYTES_PER_FLOAT;
    const heap = this.#wasm.HEAPF32;
    const kAt = base + qa.length, vAt = kAt + ka.length, outAt = vAt + va.length;
    heap.set(qa, base);
    heap.set(ka, kAt);
    heap.set(va, vAt);
    const status = this.#wasm.attentionStreaming(base * BYTES_PER_FLOAT, kAt * BYTES_PER_FLOAT, vAt * BYTES_PER_FLOAT,
      n, m, d, dv, options.flags, options.scale, outAt * BYTES_PER_FLOAT);
    this.#throwIfFailed(status, 'attentionStreaming');
    const result = this.#wasm.HEAPF32;
    // `out` saves allocating the output: a fresh 4 KB Float32Array costs ~0.8 µs, a quarter of a
    // whole call at n = 16
    const output = out ? (out.set(result.subarray(outAt, outAt + outFloats)), out) : result.slice(outAt, outAt + outFloats);
    return { output, scale: result[outAt + outFloats] };
  }

  /** Current size of the wasm heap in bytes (it grows on demand and never shrinks). */
  heapBytes() {
    return this.#wasm.HEAPU8.length;
  }

  // Copies `inputs` into the arena, calls `call(...inputPointers, outputPointer)`, which returns
  // a status code, and returns a JS-owned copy of the `outFloats` floats written at the output.
  #run(where, inputs, outFloats, call) {
    const total = inputs.reduce((sum, array) => sum + array.length, 0) + outFloats;
    const base = this.#reserve(Math.max(total, 1));
    const heap = this.#wasm.HEAPF32;
    let at = base / BYTES_PER_FLOAT;
    const pointers = inputs.map((array) => {
      heap.set(array, at);
      at += array.length;
      return (at - array.length) * BYTES_PER_FLOAT;
    });
    const status = call(...pointers, at * BYTES_PER_FLOAT);
    this.#throwIfFailed(status, where);
    return this.#wasm.HEAPF32.slice(at, at + outFloats);
  }

  // A heap block of at least `floats` floats, reused across calls. Growing the wasm memory
  // detaches old HEAPF32 views: callers re-read this.#wasm.HEAPF32 after this returns.
  #reserve(floats) {
    const bytes = floats * BYTES_PER_FLOAT;
    if (bytes > this.#arenaBytes || this.#arenaBytes > 4 * bytes + (1 << 20)) {
      if (this.#arena) this.#wasm._free(this.#arena);
      this.#arena = 0;
      this.#arenaBytes = 0;
      const block = this.#wasm._malloc(bytes);
      if (!block) throw new RangeError(`out of memory: the core could not allocate ${bytes} bytes`);
      this.#arena = block;
      this.#arenaBytes = bytes;
    }
    return this.#arena;
  }

  #throwIfFailed(status, where) {
    if (status === 0) return;
    const error = new RangeError(`${where}: ${this.#wasm.lastError()}`);
    error.code = STATUS_CODES[status] ?? 'ATTN_INTERNAL';
    throw error;
  }

  // ---- the lesson's measurements (cpp/lesson.hpp): every number an instrument shows ----

  /**
   * Thresholds and limits the lesson uses, as the core defines them: a row is "peaked" when its
   * max weight exceeds peakedMaxWeight, "flat" when its entropy exceeds flatEntropyFraction·ln m;
   * a float32 exp overflows above expOverflowThreshold (= ln FLT_MAX).
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
   * over `range` and of q·k/√d over `scaledRange`, with `bins` bins each, plus their sample mean
   * and variance. Each histogram: { counts, below, above, mean, variance, lo, hi }.
   */
  dotHistograms({ seed = 1, d, samples = 2000, bins = 40, range, scaledRange = [-4, 4] } = {}) {
    checkSeed(seed);
    checkDim('d', d, 1, 4096);
    checkDim('samples', samples, 2, 1 << 20);
    checkDim('bins', bins, 1, 1024);
    const [lo, hi] = checkRange('range', range ?? [-4 * Math.sqrt(d), 4 * Math.sqrt(d)]);
    const [slo, shi] = checkRange('scaledRange', scaledRange);
    const stride = bins + 4;
    const flat = this.#run('dotHistograms', [], 2 * stride, (out) =>
      this.#wasm.lessonDotHistograms(seed, d, samples, bins, lo, hi, slo, shi, out),
    );
    const histogram = (offset, rangeLo, rangeHi) => ({
      counts: flat.slice(offset, offset + bins),
      below: flat[offset + bins],
      above: flat[offset + bins + 1],
      mean: flat[offset + bins + 2],
      variance: flat[offset + bins + 3],
      lo: Math.fround(rangeLo),
      hi: Math.fround(rangeHi),
    });
    return { d, samples, unscaled: histogram(0, lo, hi), scaled: histogram(stride, slo, shi) };
  }

  /** Measured Var(q·k) and Var(q·k/√d) of `samples` random pairs for each width in `dims` (expected d and 1). */
  dotVarianceCurve({ seed = 1, dims, samples = 2000 } = {}) {
    checkSeed(seed);
    const widths = checkWidths(dims);
    checkDim('samples', samples, 2, 1 << 20);
    const n = widths.length;
    const flat = this.#run('dotVarianceCurve', [], 2 * n, (out) =>
      this.#wasm.lessonDotVarianceCurve(seed, widths, samples, out),
    );
    return { dims: widths, unscaled: flat.slice(0, n), scaled: flat.slice(n) };
  }

  /**
   * The same for a sentence: token vectors x (t×dIn) are layer-normalised and projected by
   * `draws` seeded random W_Q, W_K per width; the variance of all draws·t² dot products.
   */
  tokenVarianceCurve({ x, t, dIn = 100, seed = 1, dims, draws = 8 } = {}) {
    const xa = lessonTokens(x, t, dIn);
    checkSeed(seed);
    const widths = checkWidths(dims);
    checkDim('draws', draws, 1, 64);
    if (t * t * draws < 2) throw new RangeError('a variance needs at least 2 dot products: use t ≥ 2 or draws ≥ 2');
    const n = widths.length;
    const flat = this.#run('tokenVarianceCurve', [xa], 2 * n, (xPtr, out) =>
      this.#wasm.lessonTokenVarianceCurve(xPtr, t, dIn, seed, widths, draws, out),
    );
    return { dims: widths, unscaled: flat.slice(0, n), scaled: flat.slice(n) };
  }

  /** Q, K, V (t×d each) of head `head`: LayerNorm(x) times seeded N(0, 1/dIn) projections. */
  headProjections({ x, t, dIn = 100, seed = 1, head = 0, d } = {}) {
    const xa = lessonTokens(x, t, dIn);
    checkSeed(seed);
    checkDim('head', head, 0, 64);
    checkDim('d', d, 1, 4096);
    const td = t * d;
    const flat = this.#run('headProjections', [xa], 3 * td, (xPtr, out) =>
      this.#wasm.lessonHeadProjections(xPtr, t, dIn, seed, head, d, out),
    );
    return { q: flat.slice(0, td), k: flat.slice(td, 2 * td), v: flat.slice(2 * td) };
  }

  /**
   * The weights headProjections uses for (seed, head, d): { wq, wk } (dIn×d each, seeded
   * N(0, 1/dIn)). With projectHead they give headProjections' Q and K bit for bit; keep them
   * to project new x at the same (seed, d) without drawing the weights again.
   */
  headWeights({ dIn = 100, seed = 1, head = 0, d } = {}) {
    checkSeed(seed);
    checkDim('dIn', dIn, 1, 4096);
    checkDim('head', head, 0, 64);
    checkDim('d', d, 1, 4096);
    const size = dIn * d;
    const flat = this.#run('headWeights', [], 2 * size, (out) => this.#wasm.lessonHeadWeights(seed, head, dIn, d, out));
    return { dIn, d, wq: flat.slice(0, size), wk: flat.slice(size) };
  }

  /** Q = LayerNorm(x) W_Q and K = LayerNorm(x) W_K (t×d each) for weights from headWeights. */
  projectHead({ x, t, weights } = {}) {
    if (!weights || typeof weights !== 'object') throw new TypeError(`weights must be headWeights' result, got ${describe(weights)}`);
    const { dIn, d } = weights;
    const xa = lessonTokens(x, t, dIn);
    checkDim('d', d, 1, 4096);
    const wq = floatArray('weights.wq', weights.wq, dIn * d, 'dIn·d');
    const wk = floatArray('weights.wk', weights.wk, dIn * d, 'dIn·d');
    const td = t * d;
    const flat = this.#run('projectHead', [xa, wq, wk], 2 * td, (xPtr, qPtr, kPtr, out) =>
      this.#wasm.lessonProjectHead(xPtr, t, dIn, qPtr, kPtr, d, out),
    );
    return { q: flat.slice(0, td), k: flat.slice(td) };
  }

  /**
   * For each width in `dims`: head 0's attention over the sentence with scores q·k/√d
   * (scaled) or q·k, and per row its max weight, entropy, regime (0 balanced, 1 peaked,
   * 2 flat) and ‖∂L/∂scores‖ for L = ⟨g, p⟩ with a fixed seeded g. Arrays are dims.length×t;
   * `mean` holds the averages over rows and the fractions of peaked and flat rows.
   */
  saturationSweep({ x, t, dIn = 100, seed = 1, dims, scaled = true } = {}) {
    const xa = lessonTokens(x, t, dIn);
    checkSeed(seed);
    const widths = checkWidths(dims);
    checkBoolean('scaled', scaled);
    const n = widths.length;
    const nt = n * t;
    const flat = this.#run('saturationSweep', [xa], 4 * nt + 5 * n, (xPtr, out) =>
      this.#wasm.lessonSaturationSweep(xPtr, t, dIn, seed, widths, scaled, out),
    );
    const [maxWeight, entropy, regime, gradNorm, meanMax, meanEntropy, meanGrad, peaked, flatRows] = split(flat, [
      nt, nt, nt, nt, n, n, n, n, n,
    ]);
    return {
      dims: widths,
      t,
      scaled,
      maxWeight,
      entropy,
      regime,
      gradNorm,
      mean: { maxWeight: meanMax, entropy: meanEntropy, gradNorm: meanGrad, fractionPeaked: peaked, fractionFlat: flatRows },
    };
  }

  /** The softmax Jacobian diag(p) − p pᵀ of one row of weights p (m×m, row-major). */
  softmaxJacobian(p) {
    const pa = floatArray('p', p);
    if (pa.length === 0) throw new RangeError('p must hold at least one number, got an empty array');
    const m = pa.length;
    return this.#run('softmaxJacobian', [pa], m * m, (pPtr, out) => this.#wasm.lessonSoftmaxJacobian(pPtr, m, out));
  }

  /** ∂L/∂z = p ⊙ (dp − ⟨p, dp⟩) for p = softmax(z) and dp = ∂L/∂p. */
  softmaxBackward(p, dp) {
    const pa = floatArray('p', p);
    if (pa.length === 0) throw new RangeError('p must hold at least one number, got an empty array');
    const da = floatArray('dp', dp, pa.length, 'the length of p');
    const m = pa.length;
    return this.#run('softmaxBackward', [pa, da], m, (pPtr, dPtr, out) =>
      this.#wasm.lessonSoftmaxBackward(pPtr, dPtr, m, out),
    );
  }

  /** The fixed N(0,1) upstream gradient g (m) that saturationSweep uses for row `row`. */
  upstreamGradient(seed, row, m) {
    checkSeed(seed);
    checkDim('row', row, 0);
    checkDim('m', m, 1);
    return this.#run('upstreamGradient', [], m, (out) => this.#wasm.lessonUpstreamGradient(seed, row, m, out));
  }

  /**
   * Every step of one query row q (d) against keys k (m×d), in float32: the element-wise
   * product with key `key`, its sum, the scores (÷√d when scaled; keys j ≥ visible hidden as
   * -Infinity, e.g. visible = row + 1 under a causal mask), minus the max and ÷ temperature,
   * exp, ÷ sum; with the row's max weight and entropy — attention()'s for the same row.
   */
  stepByStep({ q, k, m, d, key = 0, scaled = true, temperature = 1, visible = m } = {}) {
    checkDim('m', m, 1);
    checkDim('d', d, 1, 4096);
    checkDim('key', key, 0, m - 1);
    checkDim('visible', visible, 1, m);
    checkBoolean('scaled', scaled);
    checkPositive('temperature', temperature);
    const qa = floatArray('q', q, d, 'd');
    const ka = floatArray('k', k, m * d, 'm·d');
    const flat = this.#run('stepByStep', [qa, ka], d + 4 * m + 7, (qPtr, kPtr, out) =>
      this.#wasm.lessonStepByStep(qPtr, kPtr, m, d, key, scaled, temperature, visible, out),
    );
    const [product, scores, shifted, exps, weights, tail] = split(flat, [d, m, m, m, m, 7]);
    const [dot, scale, rowMax, sum, weightSum, maxWeight, entropy] = tail;
    return { key, temperature, visible, product, dot, scale, scores, rowMax, shifted, exps, sum, weights, weightSum, maxWeight, entropy };
  }

  /**
   * ‖∂L/∂z‖₂ of one softmax row p for L = ⟨g, p⟩ with g = upstreamGradient(seed, row, p.length):
   * the gradient size saturationSweep reports for row `row`, for any row of weights.
   */
  softmaxGradientNorm(p, { seed = 1, row = 0 } = {}) {
    const pa = floatArray('p', p);
    if (pa.length === 0) throw new RangeError('p must hold at least one number, got an empty array');
    checkSeed(seed);
    checkDim('row', row, 0);
    const m = pa.length;
    return this.#run('softmaxGradientNorm', [pa], 1, (pPtr, out) => this.#wasm.lessonSoftmaxGradientNorm(pPtr, m, seed, row, out))[0];
  }

  /**
   * THE BROKEN NAIVE SOFTMAX, for showing why the max is subtracted: exp(z/T) in float32
   * without the shift. Past expOverflowThreshold the exps are Infinity, the sum Infinity and
   * the weights NaN — returned raw, marked `naive: true`. Never use these as attention weights.
   */
  softmaxNaive(scores, { temperature = 1 } = {}) {
    const z = floatArray('scores', scores);
    checkPositive('temperature', temperature);
    if (z.length === 0) throw new RangeError('scores must hold at least one number, got an empty array');
    const m = z.length;
    const flat = this.#run('softmaxNaive', [z], 3 * m + 1, (zPtr, out) =>
      this.#wasm.lessonSoftmaxNaive(zPtr, m, temperature, out),
    );
    const [scaledScores, exps, weights] = split(flat, [m, m, m]);
    return { naive: true, temperature, scaledScores, exps, sum: flat[3 * m], weights };
  }

  /**
   * h heads over the sentence, each with its own seeded projections (head r = headProjections
   * with head r) and width d: weights (h×t×t), entropy and maxWeight (h×t), and the
   * concatenated outputs (t×h·d) before any output projection.
   */
  multiHead({ x, t, dIn = 100, seed = 1, heads = 4, d = 16, scaled = true } = {}) {
    const xa = lessonTokens(x, t, dIn);
    checkSeed(seed);
    checkDim('heads', heads, 1, 8);
    checkDim('d', d, 1, 4096);
    checkBoolean('scaled', scaled);
    const htt = heads * t * t;
    const ht = heads * t;
    const flat = this.#run('multiHead', [xa], htt + 2 * ht + t * heads * d, (xPtr, out) =>
      this.#wasm.lessonMultiHead(xPtr, t, dIn, seed, heads, d, scaled, out),
    );
    const [weights, entropy, maxWeight, concat] = split(flat, [htt, ht, ht, t * heads * d]);
    return { heads, t, d, scaled, weights, entropy, maxWeight, concat };
  }
}

// Flags of the binding (cpp/embind.cpp, CallFlags).
const SCALE_BY_SQRT_D = 1;
const CAUSAL = 2;

function resolveOptions(scale, causal, temperature) {
  if (typeof causal !== 'boolean') throw new TypeError(`causal must be true or false, got ${describe(causal)}`);
  checkNumber('temperature', temperature);
  const causalFlag = causal ? CAUSAL : 0;
  if (scale === 'sqrt') return { flags: SCALE_BY_SQRT_D | causalFlag, scale: 1 };
  if (scale === 'none') return { flags: causalFlag, scale: 1 };
  if (typeof scale !== 'number')
    throw new TypeError(`scale must be 'sqrt', 'none' or a positive number, got ${describe(scale)}`);
  if (!(scale > 0) || !Number.isFinite(scale) || !(Math.fround(scale) > 0))
    throw new RangeError(`scale must be a positive finite number, got ${scale}`);
  return { flags: causalFlag, scale };
}

function checkNumber(name, value) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
}

function checkDim(name, value, min, max = 65536) {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new TypeError(`${name} must be an integer, got ${describe(value)}`);
  if (value < min || value > max) throw new RangeError(`${name} must be from ${min} to ${max}, got ${value}`);
}

function checkPositive(name, value) {
  checkNumber(name, value);
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a positive finite number, got ${value}`);
}

function checkSeed(seed) {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new RangeError(`seed must be an integer from 0 to 4294967295, got ${describe(seed)}`);
}

// Accepts a Float32Array as is, and any other typed array or array of numbers as a copy.
function floatArray(name, value, expectedLength, formula) {
  const isArrayLike = ArrayBuffer.isView(value) && !(value instanceof DataView);
  if (!isArrayLike && !Array.isArray(value))
    throw new TypeError(`${name} must be a Float32Array (or an array of numbers), got ${describe(value)}`);
  if (expectedLength !== undefined && value.length !== expectedLength)
    throw new RangeError(`${name} has length ${value.length}, expected ${formula} = ${expectedLength}`);
  if (value instanceof Float32Array) return value;
  if (value instanceof BigInt64Array || value instanceof BigUint64Array)
    throw new TypeError(`${name} must hold numbers, got a ${value.constructor.name}`);
  if (Array.isArray(value)) {
    const bad = value.findIndex((x) => typeof x !== 'number');
    if (bad >= 0) throw new TypeError(`${name}[${bad}] must be a number, got ${describe(value[bad])}`);
  }
  return Float32Array.from(value);
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return `${typeof value} ${String(value).slice(0, 40)}`;
}

// ---- helpers of the lesson methods ----

function checkBoolean(name, value) {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false, got ${describe(value)}`);
}

// Token vectors of a lesson call: t×dIn finite numbers, t ≤ 256, dIn ≤ 4096.
function lessonTokens(x, t, dIn) {
  checkDim('t', t, 1, 256);
  checkDim('dIn', dIn, 1, 4096);
  return floatArray('x', x, t * dIn, 't·dIn');
}

// A list of 1 to 64 key widths, each an integer from 1 to 4096.
function checkWidths(dims) {
  if (!Array.isArray(dims) && !ArrayBuffer.isView(dims))
    throw new TypeError(`dims must be an array of widths, got ${describe(dims)}`);
  if (dims.length < 1 || dims.length > 64) throw new RangeError(`dims must hold 1 to 64 widths, got ${dims.length}`);
  const widths = Array.from(dims);
  widths.forEach((d, i) => checkDim(`dims[${i}]`, d, 1, 4096));
  return widths;
}

function checkRange(name, range) {
  if (!Array.isArray(range) || range.length !== 2 || range.some((v) => typeof v !== 'number'))
    throw new TypeError(`${name} must be [lo, hi], two numbers, got ${describe(range)}`);
  if (!Number.isFinite(range[0]) || !Number.isFinite(range[1]) || !(range[0] < range[1]))
    throw new RangeError(`${name} must be finite with lo < hi, got [${range[0]}, ${range[1]}]`);
  return range;
}

// Copies consecutive pieces of the given lengths out of one flat result.
function split(flat, lengths) {
  let at = 0;
  return lengths.map((length) => flat.slice(at, (at += length)));
}
