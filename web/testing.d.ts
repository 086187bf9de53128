// Types of `attention-lab/testing` (web/testing.js): check an attention function against the core.
import type { Engine } from './core/engine.js';

export interface Shape {
  /** queries */
  n: number;
  /** keys */
  m: number;
  /** width of q and k */
  d: number;
  /** width of v */
  dv: number;
  /** integer-valued Q and K whose scores reach ±1000 (exp() overflows without the max subtraction) */
  large?: boolean;
}

export type Diagnosis =
  | 'missing-scale'
  | 'divided-by-dk'
  | 'missing-exp'
  | 'transposed-k'
  | 'softmax-axis'
  | 'missing-softmax'
  | 'returned-weights'
  | 'non-finite'
  | 'threw'
  | 'shape';

export const DIAGNOSES: Readonly<Record<Diagnosis, string>>;
export const DEFAULT_SHAPES: readonly Readonly<Shape>[];
/** 1e-4: largest |output − ours| that passes. */
export const DEFAULT_TOLERANCE: number;

export type Rows = ArrayLike<number>[];

export interface Dims { n: number; m: number; d: number; dv: number }
export type AttentionOutput = Rows | ArrayLike<number> | Promise<Rows | ArrayLike<number>>;
/** Layout 'rows' (the default): Q, K, V as arrays of rows. Returns the n×dv output. */
export type RowsAttentionFunction = (q: number[][], k: number[][], v: number[][], dims: Dims) => AttentionOutput;
/** Layout 'flat': Q, K, V as row-major Float32Arrays. Returns the n×dv output. */
export type FlatAttentionFunction = (q: Float32Array, k: Float32Array, v: Float32Array, dims: Dims) => AttentionOutput;
export type AttentionFunction = RowsAttentionFunction | FlatAttentionFunction;

export interface CompareOptions {
  shapes?: readonly Shape[];
  /** seed of the inputs (shape i uses seed + i), default 1 */
  seed?: number;
  /** default DEFAULT_TOLERANCE */
  tolerance?: number;
  /** default 'rows' */
  layout?: 'rows' | 'flat';
  /** an engine of createEngine(); one is created when omitted */
  engine?: Engine | null;
}

export interface ShapeReport extends Required<Shape> {
  pass: boolean;
  /** largest |output − ours| (Infinity for NaN/Infinity, or when the function failed) */
  maxError: number;
  /** where the largest error is */
  worst: { row: number; column: number; expected: number; actual: number } | null;
  /** what went wrong when the function threw or returned the wrong shape */
  error: string | null;
  diagnosis: Diagnosis | null;
  hint: string | null;
}

export interface CompareReport {
  pass: boolean;
  maxError: number;
  tolerance: number;
  seed: number;
  shapes: ShapeReport[];
  /** the first failing shape */
  failed: ShapeReport | null;
  /** the mistake recognised (else the first failure's kind), and what to do */
  diagnosis: Diagnosis | null;
  hint: string | null;
  /** every kind of mistake seen, the recognised one first */
  diagnoses: Diagnosis[];
  /** the report for people: PASS/FAIL, a line per shape, the hints */
  message: string;
}

/**
 * Runs `attention` on seeded inputs of each shape and compares it with the core. Rejects (code
 * ATTN_INVALID_ARGUMENT) only for wrong arguments. One overload per layout, so a function written
 * inline has its parameters inferred (a union of function types would infer nothing).
 */
export function compareAttention(attention: FlatAttentionFunction, options: CompareOptions & { layout: 'flat' }): Promise<CompareReport>;
export function compareAttention(attention: RowsAttentionFunction, options?: CompareOptions & { layout?: 'rows' }): Promise<CompareReport>;
export function compareAttention(attention: AttentionFunction, options?: CompareOptions): Promise<CompareReport>;
