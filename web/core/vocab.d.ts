// Types for web/core/vocab.js: GloVe word vectors loaded word by word (web/assets/glove/).

/** The vocabulary shipped in web/assets/glove/. */
export const GLOVE: Readonly<{
  /** components per vector: 100 */
  dim: number;
  /** words: GloVe 6B's 20,000 most frequent */
  size: number;
  /** words induced beside them from the Brown corpus (scripts/induce-vocab.mjs), the number shapes included */
  induced: number;
  /** bucket files: 2048 */
  buckets: number;
  /** bits per stored component: 12 */
  bits: number;
  /** file name of the first view's pack (the demo sentence's words): 'first-view.bin' */
  firstView: string;
  /** file name of the one-context à la carte map: 'context-map.bin' (read only for a word the files lack) */
  contextMap: string;
}>;

/** The one-context à la carte map (Khodak et al. 2018) of web/assets/glove/context-map.bin. */
export interface ContextMap {
  /** 100 */
  dim: number;
  /** tokens on either side whose known words make the context (5) */
  window: number;
  /** contexts per word the map was fitted for (1) */
  occurrences: number;
  /** GloVe words it was fitted on */
  fitWords: number;
  /** dim × dim, row-major: (A·u)[r] = Σ_c a[r·dim + c]·u[c] */
  a: Float32Array;
}
export const MAP_MAGIC: 'GLVM';
export const MAP_VERSION: 1;
/** Bytes of the context map file. */
export function encodeContextMap(map: { a: ArrayLike<number>; dim?: number; window: number; occurrences: number; fitWords: number }): Uint8Array;
/** Parses and checks the context map file; throws an Error prefixed with `name`. */
export function parseContextMap(data: ArrayBuffer | ArrayBufferView, options?: { name?: string }): ContextMap;

export const BUCKET_MAGIC: 'GLVB';
export const BUCKET_VERSION: 3;
/** The bucket number in a pack's header. */
export const PACK: 0xffff;
/** Largest integer code (2047): x̂ = q · scale with |q| ≤ CODE_MAX, scale = max|x| / CODE_MAX. */
export const CODE_MAX: number;

/** 'known': the vector is loaded; 'unknown': its bucket is loaded and lacks the word; 'loading': its bucket is not loaded yet. */
export type WordStatus = 'known' | 'unknown' | 'loading';
/** Where a known word's vector comes from: GloVe's own, or induced from its Brown corpus contexts (à la carte). */
export type WordSource = 'glove' | 'induced';

/** The keys of the number shapes: '<0>', '<00>', '<000>', '<0000>', '<00000>', '<0,000>', '<0.0>', '<0th>', '<0-0>'. */
export const NUMBER_SHAPES: readonly string[];
/** The key a number token's vector is stored under (one of NUMBER_SHAPES), or null for any other token. */
export function numberShape(token: string): string | null;

export interface BucketVocab {
  /** Components per vector (100). */
  readonly dim: number;
  /** GloVe words in the whole vocabulary (20,000), loaded or not. */
  readonly size: number;
  /** Induced words in the whole vocabulary (GLOVE.induced), loaded or not. */
  readonly induced: number;
  /** The folder of the bucket files (a URL). */
  readonly base: string;
  /** Buckets loaded so far, of GLOVE.buckets. */
  readonly loadedBuckets: number;
  /**
   * Loads the buckets of `words` not loaded yet, in parallel; resolves when each word is 'known'
   * or 'unknown'. Rejects with an Error naming the file and the reason (HTTP status, file-system
   * error, corrupt file) once the others have settled; failed buckets are read again by the next
   * call. Rejects with a TypeError for anything but an iterable of strings.
   */
  load(words: Iterable<string>): Promise<void>;
  /** Loads every bucket not loaded yet (4.3 MB in all); otherwise as load(). */
  loadAll(): Promise<void>;
  /**
   * A number token ("1990", "3.5") reads its shape's vector (numberShape). 'loading' also while
   * the context map, which may make a missing word's vector from its sentence, is on its way.
   */
  status(word: string): WordStatus;
  /** 'glove' or 'induced' for a known word; null while it is unknown or loading. */
  source(word: string): WordSource | null;
  /** true when the word's vector is loaded. */
  has(word: string): boolean;
  /**
   * The map that makes a vector for a word the files lack from the words around it in its
   * sentence (engine.induceInSentence); null until loaded: load() reads it when a word the files
   * lack turns up, loadAll() always.
   */
  contextMap(): ContextMap | null;
  /** Reads the context map if not here yet; rejects with an Error naming the file (a later call asks again). */
  loadContextMap(): Promise<ContextMap>;
  /** Why the context map could not be read the last time (null: it was, or it was not asked for). */
  readonly contextMapError: Error | null;
  /** A fresh Float32Array(dim), or null while the word is unknown or loading. */
  vector(word: string): Float32Array | null;
}

export interface VocabOptions {
  /** Folder of the bucket files, resolved against vocab.js (default: the package's web/assets/glove/). */
  base?: string | URL;
  /** Packs in `base` to read at once (e.g. [GLOVE.firstView]); load() waits for them; one that fails is skipped. */
  preload?: string[];
  /** Reads a file's bytes (default: readBytes). */
  read?: (url: URL) => Promise<ArrayBuffer | ArrayBufferView>;
}

/** A new vocabulary over the bucket files; no I/O until load(), except reading the `preload` packs. */
export function createVocab(options?: VocabOptions): BucketVocab;

/**
 * The vocabulary shared by every caller with the same `base`, after loading the buckets of
 * `words` (all 2048, 4.3 MB, when omitted). Browsers: fetch relative to vocab.js; Node: the
 * package's own files (node:fs). The first call for a base creates the vocabulary with its options.
 */
export function loadVocab(words?: Iterable<string>, options?: VocabOptions): Promise<BucketVocab>;

/** The bucket (0 … buckets − 1) a word lives in. */
export function bucketOf(word: string, buckets?: number): number;
/** "000.bin" … "7ff.bin". */
export function bucketName(bucket: number): string;
/** CRC-32 (IEEE), the checksum every bucket file ends with. */
export function crc32(bytes: Uint8Array): number;

export interface BucketRecord {
  word: string;
  /** float32 */
  scale: number;
  /** dim integers in [−CODE_MAX, CODE_MAX] */
  q: Int16Array | ArrayLike<number>;
  /** induced (written after GloVe's records), not GloVe's own */
  induced?: boolean;
}

export interface ParsedBucket {
  bucket: number;
  buckets: number;
  dim: number;
  size: number;
  records: { word: string; scale: number; q: Int16Array; induced: boolean }[];
}

/** Bytes of one bucket or pack file (the format is described in vocab.js). */
export function encodeBucket(bucket: { bucket: number; buckets?: number; dim?: number; size?: number; records: BucketRecord[] }): Uint8Array;
/** Parses and checks a bucket or pack file; throws an Error prefixed with `name`. */
export function parseBucket(data: ArrayBuffer | ArrayBufferView, options?: { name?: string; bucket?: number }): ParsedBucket;
/** The codes of a vector: scale = max|x| / CODE_MAX (float32), q = round(x / scale). */
export function quantise(x: ArrayLike<number>): { scale: number; q: Int16Array };
/** q[k] · scale as float32, into `out` when given. */
export function recordVector(record: { scale: number; q: ArrayLike<number> }, out?: Float32Array): Float32Array;
/** A file's bytes: node:fs for file: URLs, fetch otherwise; rejects with an Error naming the URL. */
export function readBytes(url: string | URL): Promise<Uint8Array>;
