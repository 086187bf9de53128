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

export interface AttentionResult {
  /** q·k, n×m */
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
  /** the scale that was applied (float32) */
  scale: number;
}

/** Errors thrown by the engine carry a stable code besides the message. */
export interface EngineError extends Error {
  code?: 'ATTN_INVALID_SHAPE' | 'ATTN_INVALID_ARGUMENT' | 'ATTN_NON_FINITE_INPUT' | 'ATTN_OVERFLOW' | 'ATTN_INTERNAL';
}

export interface Engine {
  /** true when the WebAssembly SIMD build runs */
  readonly simd: boolean;
  /** instruction set of the kernels: 'wasm' (SIMD128) or 'emulated' (scalar build) */
  readonly arch: string;
  softmax(scores: Float32Array | ArrayLike<number>, options?: { temperature?: number }): Float32Array;
  attention(input: AttentionInput): AttentionResult;
  /** count samples of N(0, sigma²); the same for a given 32-bit seed on every platform */
  randomNormal(seed: number, count: number, options?: { sigma?: number }): Float32Array;
  /** dIn×dOut matrix with N(0, 1/dIn) entries */
  randomProjection(seed: number, dIn: number, dOut: number): Float32Array;
  /** x (t×dIn) · w (dIn×dOut) */
  project(x: Float32Array | ArrayLike<number>, t: number, dIn: number, w: Float32Array | ArrayLike<number>, dOut: number): Float32Array;
  /** a copy of x (t×d) plus strength × sinusoidal positional encoding */
  addPositionalEncoding(x: Float32Array | ArrayLike<number>, t: number, d: number, options?: { strength?: number }): Float32Array;
  /** current size of the wasm heap in bytes (grows on demand, never shrinks) */
  heapBytes(): number;
  /** deterministic N(0, sigma²) vector of width d derived from the text */
  textVector(text: string, d: number, options?: { sigma?: number }): Float32Array;
}

/** true when this JavaScript engine supports WebAssembly SIMD128 */
export function simdSupported(): boolean;

/** Loads the SIMD build where supported ('auto'), else the scalar build; true/false force one. */
export function createEngine(options?: { simd?: boolean | 'auto' }): Promise<Engine>;
