// The one module that owns the WebAssembly core. Everything else (the page, Node users,
// tests) calls the core through the engine this module creates; nothing here computes
// attention — it checks argument types, copies arrays into the wasm heap, calls the core
// and copies the results out into JS-owned Float32Arrays.
//
// Loads unchanged in browsers and in Node 18+: the two wasm builds (SIMD and scalar) are
// single-file ES modules in ../build/, imported lazily so only one is ever fetched.

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
  const loader = useSimd
    ? await import('../build/attention-simd.mjs')
    : await import('../build/attention-scalar.mjs');
  const wasm = await loader.default();
  return new Engine(wasm, useSimd);
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
    const m = z.length;
    if (m === 0) throw new RangeError('scores must hold at least one number, got an empty array');
    const base = this.#reserve(2 * m);
    const heap = this.#wasm.HEAPF32;
    heap.set(z, base / BYTES_PER_FLOAT);
    const status = this.#wasm._attn_softmax(base, m, temperature, base + m * BYTES_PER_FLOAT);
    this.#throwIfFailed(status, 'softmax');
    const out = base / BYTES_PER_FLOAT + m;
    return this.#wasm.HEAPF32.slice(out, out + m);
  }

  /**
   * Scaled dot-product attention for one head. Returns the intermediates a view shows:
   * { dots, scores, weights (n×m row-major), output (n×dv, or null without v), entropy,
   *   maxWeight (n), scale }.
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

    // heap layout: q | k | v | mask | dots | scores | weights | entropy | maxWeight | output | scale
    const nm = n * m;
    const inputFloats = n * d + m * d + m * dv + (maskArray ? nm : 0);
    const outputFloats = 3 * nm + 2 * n + n * dv + 1;
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

    const status = this.#wasm._attn_attention(
      qPtr, kPtr, vPtr, maskPtr, n, m, d, dv, options.flags, options.scale, temperature, outPtr);
    this.#throwIfFailed(status, 'attention');

    // JS-owned copies (a HEAPF32 view would be overwritten by the next call, or detached by growth)
    const result = this.#wasm.HEAPF32;
    const take = (count) => {
      const copy = result.slice(at, at + count);
      at += count;
      return copy;
    };
    const dots = take(nm);
    const scores = take(nm);
    const weights = take(nm);
    const entropy = take(n);
    const maxWeight = take(n);
    const output = dv > 0 ? take(n * dv) : null;
    const usedScale = result[at];
    return { dots, scores, weights, output, entropy, maxWeight, scale: usedScale };
  }

  /**
   * Streaming (online-softmax) attention: only the output, computed without an n×m matrix, so
   * long sequences fit (n = m = 16,384 at d = 64 in a 64 MB heap). No temperature, no mask.
   * Returns { output (n×dv row-major), scale }.
   */
  attentionStreaming({ q, k, v, n, m, d, dv, scale = 'sqrt', causal = false } = {}) {
    checkDim('n', n, 1);
    checkDim('m', m, 1);
    checkDim('d', d, 1);
    checkDim('dv', dv, 1);
    const qa = floatArray('q', q, n * d, 'n·d');
    const ka = floatArray('k', k, m * d, 'm·d');
    const va = floatArray('v', v, m * dv, 'm·dv');
    const options = resolveOptions(scale, causal, 1);

    // heap layout: q | k | v | output | scale
    const base = this.#reserve(n * d + m * d + m * dv + n * dv + 1);
    const heap = this.#wasm.HEAPF32;
    let at = base / BYTES_PER_FLOAT;
    heap.set(qa, at);
    heap.set(ka, at + n * d);
    heap.set(va, at + n * d + m * d);
    const out = at + n * d + m * d + m * dv;
    const status = this.#wasm._attn_attention_streaming(
      base, base + n * d * BYTES_PER_FLOAT, base + (n * d + m * d) * BYTES_PER_FLOAT,
      n, m, d, dv, options.flags, options.scale, out * BYTES_PER_FLOAT);
    this.#throwIfFailed(status, 'attentionStreaming');
    const result = this.#wasm.HEAPF32;
    return { output: result.slice(out, out + n * dv), scale: result[out + n * dv] };
  }

  /** Current size of the WebAssembly heap in bytes (it only grows). */
  get heapBytes() {
    return this.#wasm.HEAPU8.length;
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

function checkDim(name, value, min) {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new TypeError(`${name} must be an integer, got ${describe(value)}`);
  if (value < min || value > 65536) throw new RangeError(`${name} must be from ${min} to 65536, got ${value}`);
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
