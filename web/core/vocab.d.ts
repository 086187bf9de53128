// Types for web/core/vocab.js: the decoder of web/assets/glove-100d.bin.

export const VOCAB_MAGIC: 'GLVQ';
export const VOCAB_VERSION: 1;

export interface Vocab {
  /** Components per vector (100). */
  readonly dim: number;
  /** Number of words (≥ 20,000). */
  readonly size: number;
  /** Words in source frequency order: words[0] === 'the'. Frozen. */
  readonly words: readonly string[];
  /** Words whose vectors are stored at full float32 precision (the demo sentence's). */
  readonly exactWords?: readonly string[];
  /** true for a word subset (decodeWordSubset): words it lacks may still be in the full vocabulary. */
  readonly partial?: boolean;
  has(word: string): boolean;
  /** A fresh Float32Array(dim) on every call, or null for an unknown word. */
  vector(word: string): Float32Array | null;
}

export interface VocabHeader {
  version: number;
  dim: number;
  size: number;
  /** Quantiser step relative to rms(x − mean); per-vector error ≤ ~relStep · |x − mean|. */
  relStep: number;
  /** Range of the log-spaced per-vector steps. */
  stepLo: number;
  stepHi: number;
  /** Integer value of code symbol 0. */
  codeMin: number;
  mean: Float32Array;
}

/** Throws an Error naming the problem on a wrong magic/version or a truncated or corrupt file. */
export function decodeVocab(data: ArrayBuffer | ArrayBufferView): Vocab;

export function readVocabHeader(data: ArrayBuffer | ArrayBufferView): VocabHeader;

/** The 256 step sizes a u8 step code names; shared by encoder and decoder. */
export function stepTable(stepLo: number, stepHi: number): Float64Array;

/** fetch + decodeVocab; rejects with an Error on an HTTP error status. */
export function fetchVocab(url: string | URL): Promise<Vocab>;

/** A few words at full precision (web/assets/glove-first-view.json): the first view's vocabulary. */
export function decodeWordSubset(json: { dim: number; words: Record<string, string> }): Vocab;

/** fetch + decodeWordSubset; rejects with an Error on an HTTP error status. */
export function fetchWordSubset(url: string | URL): Promise<Vocab>;
