// GloVe word vectors for browsers and Node, loaded word by word.
//
// Beside GloVe's 20,000 words the files hold words the source package lacks ("a", "i", "n't",
// "'s", …) and one vector per shape of number (NUMBER_SHAPES), induced from their contexts in the
// Brown corpus (à la carte, Khodak et al. 2018; scripts/induce-vocab.mjs): source(word) says
// which, and a number token ("1990", "3.5") reads the vector of its shape.
//
// The vocabulary (web/assets/glove/, written by scripts/build-vocab.mjs; format and precision in
// docs/vocabulary.md) is split into GLOVE.buckets files by a hash of the word, so a sentence
// fetches only the few small files its words live in, and a word's file is known without an
// index. Each vector is stored as 12-bit integers times a per-vector scale: close enough to
// GloVe's float32 numbers that attention weights move by less than 1e-3 (scaled).
//
//   import { loadVocab } from 'attention-lab/vocab';
//   const vocab = await loadVocab(['the', 'cat']);   // fetches (browser) or reads (Node) 2 buckets
//   vocab.vector('cat');                             // Float32Array(100), a fresh copy
//   vocab.status('river');                           // 'loading': its bucket is not loaded yet
//   vocab.source('a');                               // 'induced' (after load(['a'])); 'glove' for 'cat'
//
// Plain ES module: runs unchanged in browsers (fetch, relative to this module) and in Node 18+
// (the package's own files through node:fs, imported only for file: URLs).

import { INVALID_ARGUMENT, coded, describe } from './errors.js';

/** The vocabulary shipped in web/assets/glove/: what every bucket's header must say. */
export const GLOVE = Object.freeze({
  /** components per vector */
  dim: 100,
  /** words: GloVe 6B's most frequent, in its frequency order */
  size: 20_000,
  /** words induced beside them (scripts/induce-vocab.mjs), the number shapes included */
  induced: 6173,
  /** files the words are hashed into (a power of two) */
  buckets: 2048,
  /** bits per stored component */
  bits: 12,
  /** a pack of the demo sentence's words, for a page's first view (scripts/build-first-view.mjs) */
  firstView: 'first-view.bin',
  /**
   * the à la carte map for one context (scripts/induce-vocab.mjs): a word the files lack gets
   * A·(mean of the known words within its window in the sentence); read only when a sentence
   * has such a word
   */
  contextMap: 'context-map.bin',
});

export const MAP_MAGIC = 'GLVM';
export const MAP_VERSION = 1;
const MAP_HEADER_BYTES = 16;

/**
 * Bytes of the context map file, little-endian:
 *   header   "GLVM" | u8 version | u8 window (tokens on either side) | u16 dim | u16 occurrences
 *            (the contexts per word the map was fitted for: 1) | u16 0 | u32 words it was fitted on
 *   a        dim × dim float32, row-major: (A·u)[r] = Σ_c a[r·dim + c]·u[c]
 *   checksum u32 CRC-32 of every byte before it
 */
export function encodeContextMap({ a, dim = GLOVE.dim, window, occurrences, fitWords }) {
  if (a.length !== dim * dim) throw coded(new RangeError(`encodeContextMap: a has ${a.length} numbers, expected dim·dim = ${dim * dim}`), INVALID);
  const bytes = new Uint8Array(MAP_HEADER_BYTES + 4 * dim * dim + CHECKSUM_BYTES);
  const view = new DataView(bytes.buffer);
  bytes.set(utf8.encode(MAP_MAGIC), 0);
  view.setUint8(4, MAP_VERSION);
  view.setUint8(5, window);
  view.setUint16(6, dim, true);
  view.setUint16(8, occurrences, true);
  view.setUint16(10, 0, true);
  view.setUint32(12, fitWords, true);
  for (let i = 0; i < a.length; i++) view.setFloat32(MAP_HEADER_BYTES + 4 * i, a[i], true);
  const end = bytes.length - CHECKSUM_BYTES;
  view.setUint32(end, crc32(bytes.subarray(0, end)), true);
  return bytes;
}

/**
 * Parses and checks the context map file (encodeContextMap): { dim, window, occurrences,
 * fitWords, a: Float32Array(dim·dim) }. Throws an Error naming the file: wrong magic, version or
 * width, truncated, a number that is not finite, bytes after the checksum, a checksum mismatch.
 */
export function parseContextMap(data, { name = 'context map' } = {}) {
  return readFramed(toBytes(data, 'parseContextMap'), { name, magic: MAP_MAGIC, version: MAP_VERSION, kind: 'context map' }, (r, fail) => {
    const window = r.u8('window');
    const dim = r.u16('dim');
    const occurrences = r.u16('occurrences');
    r.u16('reserved');
    const fitWords = r.u32('fit words');
    if (dim !== GLOVE.dim) fail(`header says dim ${dim}, expected ${GLOVE.dim} (the files and vocab.js are out of step)`);
    if (window < 1) fail('header says window 0, expected 1 or more tokens');
    const a = new Float32Array(dim * dim);
    for (let i = 0; i < a.length; i++) {
      a[i] = r.f32('the map');
      if (!Number.isFinite(a[i])) fail(`a[${Math.floor(i / dim)}][${i % dim}] is ${a[i]}, expected a finite number`);
    }
    return { dim, window, occurrences, fitWords, a };
  });
}

export const BUCKET_MAGIC = 'GLVB';
export const BUCKET_VERSION = 3;
/** The bucket number a pack (words of any bucket) carries in its header. */
export const PACK = 0xffff;
/** Largest integer code: components are round(x / scale) in [−CODE_MAX, CODE_MAX], scale = max|x| / CODE_MAX. */
export const CODE_MAX = (1 << (GLOVE.bits - 1)) - 1;

// Every error carries error.code, as the engine's do: a wrong argument, or a file that could not
// be read or is not what it should be (the message names the file and the reason): errors.js.
const INVALID = INVALID_ARGUMENT;
const LOAD_FAILED = 'ATTN_LOAD_FAILED';

const HEADER_BYTES = 20;
const CHECKSUM_BYTES = 4;
const MAX_WORD_BYTES = 255; // a record's u8 length
const DEFAULT_BASE = new URL('../assets/glove/', import.meta.url);
// A file of the package's own vocabulary, written as one template on import.meta.url so that a
// bundler sees which files the module needs: Vite's build makes it a glob of web/assets/glove/*
// and emits every file (a URL joined from a variable base is invisible to it, and the build would
// ship no vocabulary). Vite's dev-server dependency optimizer cannot map such a template (the
// URL ends in "undefined") but does rewrite the plain literal of DEFAULT_BASE: then `root`, the
// folder that literal names, is used.
function packageFile(name, root) {
  const url = new URL(`../assets/glove/${name}`, import.meta.url);
  return url.pathname.endsWith('/undefined') ? new URL(name, root) : url;
}
const utf8 = new TextEncoder();

/**
 * The shapes of number a vocabulary stores one vector each for, under a key no token can be
 * (the tokenizer makes "<" a token of its own): a number token reads its shape's vector.
 * Integers by their count of digits (five or more share one), numbers grouped by commas,
 * decimals (a point or a comma), ordinals and decades ("3rd", "1960s"), and ranges or scores
 * ("1990-91", "3-2").
 */
export const NUMBER_SHAPES = Object.freeze(['<0>', '<00>', '<000>', '<0000>', '<00000>', '<0,000>', '<0.0>', '<0th>', '<0-0>']);

/**
 * The key a number token's vector is stored under (one of NUMBER_SHAPES), or null for any other
 * token: digits (any script's) optionally with a sign of grouping, decimals, ordinals or ranges.
 */
export function numberShape(token) {
  if (typeof token !== 'string' || token.length > 64) return null;
  const s = token.replace(/\p{Nd}/gu, '0');
  if (!s.includes('0')) return null;
  if (/^0+$/.test(s)) return NUMBER_SHAPES[Math.min(s.length, 5) - 1];
  if (/^0{1,3}(?:,000)+$/.test(s)) return '<0,000>';
  if (/^0+(?:[.,]0+)+$/.test(s)) return '<0.0>';
  if (/^0+(?:st|nd|rd|th|s)$/.test(s)) return '<0th>';
  if (/^0+(?:[.,]0+)*(?:-0+(?:[.,]0+)*)+$/.test(s)) return '<0-0>';
  return null;
}

/**
 * The bucket a word lives in: FNV-1a over its UTF-8 bytes, then murmur3's finaliser so that the
 * low bits, which pick the bucket, depend on every byte. Shared with the encoder.
 */
export function bucketOf(word, buckets = GLOVE.buckets) {
  return bucketOfBytes(utf8.encode(word), buckets);
}

function bucketOfBytes(bytes, buckets) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) & (buckets - 1);
}

/** File name of bucket b: three hex digits, "000.bin" … "7ff.bin". */
export function bucketName(b) {
  return `${b.toString(16).padStart(3, '0')}.bin`;
}

// CRC-32 (IEEE 802.3, reflected 0xEDB88320), the checksum of zip and PNG: a bucket whose bytes
// changed in transit or on disk fails with a message instead of giving wrong vectors.
let crcTable = null;
export function crc32(bytes) {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Bytes of one bucket (or pack) file, little-endian:
 *   header   "GLVB" | u8 version | u8 bits | u16 dim | u16 bucket (PACK for a pack) | u16 buckets
 *            | u32 size (GloVe words in the whole vocabulary) | u16 count | u16 induced
 *   records  count × (u8 n | n bytes UTF-8 word | f32 scale | dim × 12-bit codes, two per 3 bytes)
 *            code = q + 2048 with q in [−CODE_MAX, CODE_MAX]; x[k] = q[k] · scale; the last
 *            `induced` records are induced (scripts/induce-vocab.mjs), the others GloVe's
 *   checksum u32 CRC-32 of every byte before it
 * records: [{ word, scale, q: Int16Array(dim), induced? }], written GloVe's first (in their
 * order), then the induced. The writer of scripts/build-vocab.mjs, scripts/induce-vocab.mjs and
 * scripts/build-first-view.mjs; parseBucket is its inverse.
 */
export function encodeBucket({ bucket, buckets = GLOVE.buckets, dim = GLOVE.dim, size = GLOVE.size, records: given }) {
  if (dim % 2) throw coded(new RangeError(`encodeBucket: dim ${dim} must be even (two 12-bit codes per 3 bytes)`), INVALID);
  const records = [...given.filter((r) => !r.induced), ...given.filter((r) => r.induced)];
  const words = records.map(({ word }) => utf8.encode(word));
  const recordBytes = (n) => 1 + n + 4 + (dim * 3) / 2;
  const total = HEADER_BYTES + words.reduce((t, w) => t + recordBytes(w.length), 0) + CHECKSUM_BYTES;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  bytes.set(utf8.encode(BUCKET_MAGIC), 0);
  view.setUint8(4, BUCKET_VERSION);
  view.setUint8(5, GLOVE.bits);
  view.setUint16(6, dim, true);
  view.setUint16(8, bucket, true);
  view.setUint16(10, buckets, true);
  view.setUint32(12, size, true);
  view.setUint16(16, records.length, true);
  view.setUint16(18, records.length - given.filter((r) => !r.induced).length, true);
  let p = HEADER_BYTES;
  records.forEach(({ word, scale, q }, r) => {
    const w = words[r];
    if (w.length < 1 || w.length > MAX_WORD_BYTES) throw coded(new RangeError(`encodeBucket: word ${JSON.stringify(word)} has ${w.length} UTF-8 bytes, expected 1–${MAX_WORD_BYTES}`), INVALID);
    if (q.length !== dim) throw coded(new RangeError(`encodeBucket: "${word}" has ${q.length} codes, expected ${dim}`), INVALID);
    bytes[p++] = w.length;
    bytes.set(w, p);
    p += w.length;
    view.setFloat32(p, scale, true);
    p += 4;
    for (let k = 0; k < dim; k += 2) {
      for (const v of [q[k], q[k + 1]]) {
        if (!Number.isInteger(v) || Math.abs(v) > CODE_MAX) throw coded(new RangeError(`encodeBucket: "${word}" has code ${v}, expected an integer in ±${CODE_MAX}`), INVALID);
      }
      const a = q[k] + CODE_MAX + 1;
      const b = q[k + 1] + CODE_MAX + 1;
      bytes[p++] = a & 0xff;
      bytes[p++] = (a >>> 8) | ((b & 0x0f) << 4);
      bytes[p++] = b >>> 4;
    }
  });
  view.setUint32(p, crc32(bytes.subarray(0, p)), true);
  return bytes;
}

/**
 * Parses and checks one bucket or pack file (see encodeBucket). `name` prefixes every error;
 * `bucket`, when given, is the bucket the file must hold (PACK for a pack), and every word of a
 * bucket must hash to it. Returns { bucket, buckets, dim, size, records: [{ word, scale, q }] }.
 * Throws an Error naming the file and the problem: truncated, wrong magic/version/shape,
 * checksum mismatch, a word in the wrong bucket.
 */
export function parseBucket(data, { name = 'bucket', bucket: expected } = {}) {
  return readFramed(toBytes(data, 'parseBucket'), { name, magic: BUCKET_MAGIC, version: BUCKET_VERSION, kind: 'GloVe bucket' }, (r, fail) => {
    const bits = r.u8('bits');
    const dim = r.u16('dim');
    const bucket = r.u16('bucket');
    const buckets = r.u16('bucket count');
    const size = r.u32('vocabulary size');
    const count = r.u16('word count');
    const induced = r.u16('induced count');
    if (bits !== GLOVE.bits || dim !== GLOVE.dim || buckets !== GLOVE.buckets || size !== GLOVE.size) {
      fail(`header says ${bits} bits, dim ${dim}, ${buckets} buckets, ${size} words; expected ` +
        `${GLOVE.bits}, ${GLOVE.dim}, ${GLOVE.buckets}, ${GLOVE.size} (the files and vocab.js are out of step)`);
    }
    if (bucket !== PACK && bucket >= buckets) fail(`bucket ${bucket} is out of range (0–${buckets - 1})`);
    if (expected !== undefined && bucket !== expected) fail(`holds bucket ${bucket}, expected ${expected}`);
    if (induced > count) fail(`says ${induced} of its ${count} words are induced`);

    const records = [];
    const seen = new Set();
    const text = new TextDecoder('utf-8', { fatal: true });
    for (let i = 0; i < count; i++) {
      const n = r.u8(`record ${i}`);
      const wordBytes = r.bytes(n, `record ${i}`);
      let word;
      try {
        word = text.decode(wordBytes);
      } catch {
        fail(`record ${i}: the word is not valid UTF-8`);
      }
      if (n === 0 || seen.has(word)) fail(`record ${i}: ${n === 0 ? 'empty' : `duplicate word ${JSON.stringify(word)}`}`);
      seen.add(word);
      if (bucket !== PACK && bucketOfBytes(wordBytes, buckets) !== bucket) fail(`"${word}" belongs in bucket ${bucketOf(word, buckets)}, not ${bucket}`);
      const scale = r.f32(`record ${i}`);
      if (!(scale >= 0 && scale < Infinity)) fail(`"${word}" has scale ${scale}, expected a finite number ≥ 0`);
      const packed = r.bytes((dim * 3) / 2, `record ${i}`);
      const q = new Int16Array(dim);
      for (let k = 0, p = 0; k < dim; k += 2, p += 3) {
        q[k] = (packed[p] | ((packed[p + 1] & 0x0f) << 8)) - CODE_MAX - 1;
        q[k + 1] = ((packed[p + 1] >>> 4) | (packed[p + 2] << 4)) - CODE_MAX - 1;
      }
      records.push({ word, scale, q, induced: i >= count - induced });
    }
    return { bucket, buckets, dim, size, records };
  });
}

/**
 * Reads the frame every file here shares — 4 magic bytes, a u8 version, the body, a CRC-32 of
 * all before it, then nothing — around `readBody(r, fail)`, which reads and checks the body and
 * returns what the file holds. Every error is coded LOAD_FAILED and starts with `name`.
 */
function readFramed(bytes, { name, magic, version, kind }, readBody) {
  const fail = (msg) => {
    throw coded(new Error(`${name}: ${msg}`), LOAD_FAILED);
  };
  const r = reader(bytes, fail);
  const found = String.fromCharCode(...r.bytes(4, 'magic'));
  if (found !== magic) fail(`bad magic ${JSON.stringify(found)} (expected "${magic}"): not a ${kind} file`);
  const foundVersion = r.u8('version');
  if (foundVersion !== version) fail(`unsupported version ${foundVersion} (this decoder reads version ${version})`);
  const body = readBody(r, fail);
  const end = r.pos;
  const stored = r.u32('checksum');
  if (r.pos !== bytes.length) fail(`${bytes.length - r.pos} unexpected bytes after the checksum`);
  const computed = crc32(bytes.subarray(0, end));
  if (stored !== computed) fail(`checksum mismatch (stored ${hex(stored)}, computed ${hex(computed)}): the file is corrupt`);
  return body;
}

const hex = (n) => `0x${n.toString(16).padStart(8, '0')}`;

/**
 * A vector's codes: x (numbers) → { scale, q } with x̂[k] = q[k] · scale, scale = max|x| / CODE_MAX
 * as float32 and q[k] = round(x[k] / scale). The encoder's side of recordVector.
 */
export function quantise(x) {
  const max = Array.prototype.reduce.call(x, (m, v) => Math.max(m, Math.abs(v)), 0);
  const scale = Math.fround(max / CODE_MAX);
  // the rounded scale may be a hair below max / CODE_MAX: clamp the top code
  const q = Int16Array.from(x, (v) => (scale === 0 ? 0 : Math.max(-CODE_MAX, Math.min(CODE_MAX, Math.round(v / scale)))));
  return { scale, q };
}

/** A record's vector: q[k] · scale, rounded once to float32 (into `out` when given). */
export function recordVector({ scale, q }, out = new Float32Array(q.length)) {
  for (let k = 0; k < q.length; k++) out[k] = q[k] * scale;
  return out;
}

/**
 * A vocabulary over the bucket files in `base` (default: the package's web/assets/glove/); no
 * I/O until load() but the packs of `preload`. `preload`: file names in `base` of packs (e.g.
 * GLOVE.firstView), read at once; load() waits for them before choosing buckets, and a pack that
 * fails to load is skipped (its words come from their buckets). `read(url, { signal })`: resolves
 * to the file's bytes (default: readBytes). A file that has not arrived within `timeoutMs` is
 * asked for once more; then its load rejects, naming the file (a later load asks again).
 */
export function createVocab({ base = DEFAULT_BASE, preload = [], read = readBytes, timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  const root = new URL(base, import.meta.url);
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  const vectors = new Map(); // word → Float32Array(dim), never handed out (vector() copies)
  const inducedWords = new Set(); // the words of `vectors` induced, not GloVe's
  const loaded = new Uint8Array(GLOVE.buckets); // 1 once bucket b is in `vectors`
  const pending = new Map(); // bucket → Promise while it is being read
  let loadedCount = 0;
  let contextMap = null; // the parsed context map, once read
  let mapPending = null; // Promise while it is being read
  let mapError = null; // why the last read failed (a later load() with a word the files lack asks again)

  const add = ({ records, dim }) => {
    const block = new Float32Array(records.length * dim); // one allocation per file
    records.forEach((record, r) => {
      vectors.set(record.word, recordVector(record, block.subarray(r * dim, (r + 1) * dim)));
      if (record.induced) inducedWords.add(record.word);
    });
  };
  const fileUrl = base === DEFAULT_BASE ? (file) => packageFile(file, root) : (file) => new URL(file, root);
  const fetchFile = async (file, bucket) => {
    const url = fileUrl(file);
    return parseBucket(await readPatiently(read, url, timeoutMs), { name: url.href, bucket });
  };
  const packs = Promise.all(preload.map((file) => fetchFile(file, PACK).then(add, () => {})));

  // the files lack the word: its bucket is loaded (or it could be in none) and does not hold it
  const lacks = (key) => !vectors.has(key) && (!candidate(key) || loaded[bucketOf(key)] === 1);
  const loadMap = () => {
    if (contextMap) return Promise.resolve(contextMap);
    mapPending ??= (async () => {
      const url = fileUrl(GLOVE.contextMap);
      try {
        contextMap = Object.freeze(parseContextMap(await readPatiently(read, url, timeoutMs), { name: url.href }));
        mapError = null;
        return contextMap;
      } catch (error) {
        mapError = error;
        throw error;
      } finally {
        mapPending = null;
      }
    })();
    return mapPending;
  };

  const loadBucket = (b) => {
    if (loaded[b]) return undefined;
    let promise = pending.get(b);
    if (!promise) {
      promise = fetchFile(bucketName(b), b).then(
        (parsed) => {
          add(parsed);
          loaded[b] = 1;
          loadedCount++;
          pending.delete(b);
        },
        (error) => {
          pending.delete(b); // a later load() tries again
          throw error;
        },
      );
      pending.set(b, promise);
    }
    return promise;
  };

  return {
    dim: GLOVE.dim,
    size: GLOVE.size,
    induced: GLOVE.induced,
    base: root.href,

    /**
     * Loads the buckets of `words` that are not loaded yet, in parallel; resolves once every
     * word's status is 'known' or 'unknown'. If a bucket fails, rejects (after the others have
     * settled) with the first failure: the file's URL and the reason; its words stay 'loading',
     * and the next load() reads it again.
     */
    async load(words) {
      const list = checkWords(words);
      await packs;
      const need = new Set();
      for (const word of list) {
        const key = keyOf(word);
        if (!vectors.has(key) && candidate(key)) need.add(bucketOf(key));
      }
      await settle(Array.from(need, loadBucket));
      // a word the files lack is made from its sentence: the map comes with the first such word.
      // If it fails, such words stay 'unknown' (contextMapError says why) and load() resolves.
      if (!contextMap && list.some((word) => lacks(keyOf(word)))) await loadMap().catch(() => {});
    },

    /**
     * Loads every bucket not loaded yet (4.3 MB in all): as load(), but LOAD_ALL_AT_ONCE files
     * at a time — a browser refuses 2048 requests started at once (net::ERR_INSUFFICIENT_RESOURCES).
     */
    async loadAll() {
      await packs;
      let failure = null;
      for (let b0 = 0; b0 < GLOVE.buckets; b0 += LOAD_ALL_AT_ONCE) {
        const batch = Array.from({ length: Math.min(LOAD_ALL_AT_ONCE, GLOVE.buckets - b0) }, (_, i) => loadBucket(b0 + i));
        failure ??= (await Promise.allSettled(batch)).find((r) => r.status === 'rejected')?.reason ?? null;
      }
      if (failure) throw failure;
      await loadMap().catch(() => {});
    },

    /**
     * Reads the context map (GLOVE.contextMap) if it is not here yet; resolves to it, or rejects
     * with an Error naming the file and the reason (a later call asks again). load() calls it
     * when a word the files lack turns up.
     */
    loadContextMap() {
      return loadMap();
    },

    /**
     * The map that makes a vector for a word the files lack from the words around it in its
     * sentence: { dim, window, occurrences, fitWords, a (dim·dim float32, row-major) }, frozen;
     * null until loaded (loadContextMap(), or load() of a word the files lack).
     */
    contextMap() {
      return contextMap;
    },

    /** Why the context map could not be read the last time it was asked for (null: it was, or not yet asked). */
    get contextMapError() {
      return mapError;
    },

    /**
     * 'known' (its vector is here), 'unknown' (its bucket is loaded and lacks it) or 'loading'
     * (its bucket, or the context map that may make its vector from its sentence, is on its way).
     */
    status(word) {
      checkWord(word, 'status');
      const key = keyOf(word);
      if (vectors.has(key)) return 'known';
      // while the context map is on its way, a word the files lack may still get a vector
      return lacks(key) && !mapPending ? 'unknown' : 'loading';
    },

    /**
     * Where a known word's vector comes from: 'glove' (GloVe 6B's own), 'induced' (from its
     * contexts in the Brown corpus, scripts/induce-vocab.mjs; every number reads its shape's),
     * or null while the word is unknown or still loading.
     */
    source(word) {
      checkWord(word, 'source');
      const key = keyOf(word);
      if (!vectors.has(key)) return null;
      return inducedWords.has(key) ? 'induced' : 'glove';
    },

    /** true when the word's vector is loaded. */
    has(word) {
      checkWord(word, 'has');
      return vectors.has(keyOf(word));
    },

    /** A fresh Float32Array(dim), or null while the word is unknown or still loading. */
    vector(word) {
      checkWord(word, 'vector');
      return vectors.get(keyOf(word))?.slice() ?? null;
    },

    /** Buckets loaded so far, of GLOVE.buckets. */
    get loadedBuckets() {
      return loadedCount;
    },
  };
}

/**
 * How long one file may take before it is asked for again (once) and then given up on. A bucket
 * is ~1.6 kB: over the slowest usable link it takes well under a second; a request that stalls
 * (a proxy holding it, a host that stopped answering) would otherwise wait for good.
 */
export const REQUEST_TIMEOUT_MS = 8000;

// `read(url)` within `ms`: a stalled request is aborted and asked once more; a second stall
// rejects as LOAD_FAILED naming the file (an answer such as HTTP 404 is final at once).
async function readPatiently(read, url, ms) {
  try {
    return await readWithin(read, url, ms);
  } catch (error) {
    if (error.key !== 'vocab.timeout') throw error;
    return readWithin(read, url, ms);
  }
}

function readWithin(read, url, ms) {
  const controller = new AbortController();
  let timer;
  const stalled = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const seconds = ms / 1000;
      reject(coded(Object.assign(new Error(`${url.href ?? url} did not arrive within ${seconds} s (asked twice)`), { key: 'vocab.timeout', params: { file: String(url.href ?? url), seconds } }), LOAD_FAILED));
      controller.abort(); // after: the race is the stall's
    }, ms);
  });
  return Promise.race([read(url, { signal: controller.signal }), stalled]).finally(() => clearTimeout(timer));
}

// Files loadAll() reads at a time: enough to keep a connection pool busy, far below what a
// browser refuses to start at once.
const LOAD_ALL_AT_ONCE = 64;

// Waits for every promise; then throws the first rejection, if any.
async function settle(promises) {
  const failed = (await Promise.allSettled(promises)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

const shared = new Map(); // base URL → vocabulary, so every caller shares one set of loaded buckets

/**
 * The shared vocabulary of `options.base` (default: the package's own files), with the buckets
 * of `words` loaded — all of them when `words` is omitted (4.3 MB: fine in Node, heavy for a
 * page). Node: `await loadVocab()` reads the package's files; browsers fetch relative to this
 * module. The first call for a base creates the vocabulary with its options.
 */
export async function loadVocab(words, options = {}) {
  const key = new URL(options.base ?? DEFAULT_BASE, import.meta.url).href;
  let vocab = shared.get(key);
  if (!vocab) shared.set(key, (vocab = createVocab(options)));
  await (words === undefined ? vocab.loadAll() : vocab.load(words));
  return vocab;
}

// The word the files store a token under: a number's shape, any other token itself.
function keyOf(word) {
  return numberShape(word) ?? word;
}

// Words the files could hold: GloVe's tokens are 1–255 UTF-8 bytes (a record's u8 length).
function candidate(word) {
  return word.length > 0 && word.length <= MAX_WORD_BYTES && utf8.encode(word).length <= MAX_WORD_BYTES;
}

function checkWord(word, where) {
  if (typeof word !== 'string') throw coded(new TypeError(`${where}: word must be a string, got ${describe(word)}`), INVALID);
}

function checkWords(words) {
  if (typeof words === 'string' || words == null || typeof words[Symbol.iterator] !== 'function') {
    throw coded(new TypeError(`load: words must be an array (or other iterable) of strings, got ${describe(words)}`), INVALID);
  }
  const list = [...words];
  list.forEach((word, i) => {
    if (typeof word !== 'string') throw coded(new TypeError(`load: words[${i}] must be a string, got ${describe(word)}`), INVALID);
  });
  return list;
}

/**
 * The bytes at `url`: node:fs for file: URLs (Node's fetch cannot read them), fetch otherwise.
 * Rejects with an Error naming the URL and the HTTP status or file-system error.
 */
export async function readBytes(url, { signal, onProgress = null, total = 0 } = {}) {
  const href = String(url);
  if (href.startsWith('file:')) {
    // Synchronous: a bucket is ~1.6 kB (~20 µs to read), all 2048 take ~45 ms, where async reads
    // cost ~10× that in thread-pool round trips and, started together, open every file at once
    // (EMFILE under a limit of 1024 open files).
    // left to Node: a bundler building for the browser (webpack in Docusaurus) must not resolve it
    const { readFileSync } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs');
    let bytes;
    try {
      bytes = new Uint8Array(readFileSync(new URL(href)));
    } catch (error) {
      throw coded(new Error(`${href}: ${error.code ?? error.message}`), LOAD_FAILED);
    }
    onProgress?.({ loaded: bytes.length, total: bytes.length });
    return bytes;
  }
  const failed = (error) => {
    throw coded(new Error(`${href}: ${error.message}`), LOAD_FAILED);
  };
  const res = await fetch(href, { signal }).catch(failed);
  if (!res.ok) throw coded(new Error(`${href}: HTTP ${res.status}`), LOAD_FAILED);
  if (!onProgress || !res.body) return new Uint8Array(await res.arrayBuffer().catch(failed));
  // the bytes as they arrive. `total` (a number, or a promise of one: 0 unknown) is what the
  // caller knows of the file's size; Content-Length would be the compressed size where a server
  // compresses
  const reader = res.body.getReader();
  const chunks = [];
  let loaded = 0;
  const expected = await Promise.resolve(total).catch(() => 0);
  onProgress({ loaded, total: expected });
  for (;;) {
    const { done, value } = await reader.read().catch(failed);
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress({ loaded, total: Math.max(expected, loaded) });
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

// Bounds-checked little-endian cursor: every read names what it was reading, so a truncated
// file fails with a message instead of a RangeError or silent garbage.
function reader(bytes, fail) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  const take = (n, what) => {
    if (pos + n > bytes.length) {
      fail(`file truncated while reading ${what} (need ${n} bytes at offset ${pos}, file has ${bytes.length})`);
    }
    pos += n;
    return pos - n;
  };
  return {
    get pos() { return pos; },
    u8: (what) => view.getUint8(take(1, what)),
    u16: (what) => view.getUint16(take(2, what), true),
    i16: (what) => view.getInt16(take(2, what), true),
    u32: (what) => view.getUint32(take(4, what), true),
    f32: (what) => view.getFloat32(take(4, what), true),
    bytes: (n, what) => bytes.subarray(take(n, what), pos),
  };
}

function toBytes(data, where) {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw coded(new TypeError(`${where}: expected an ArrayBuffer or ArrayBufferView, got ${describe(data)}`), INVALID);
}
