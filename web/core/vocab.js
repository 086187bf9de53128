// Decoder for web/assets/glove-100d.bin, the compact GloVe vocabulary written by
// scripts/build-vocab.mjs (the encoder; see web/assets/README.md for the format).
// Plain ES module: no Node-only imports, runs unchanged in browsers and Node 20.
//
// Layout (little-endian):
//   header  "GLVQ" | u16 version | u16 dim | u32 size | f32 relStep | f32 stepLo | f32 stepHi | i16 codeMin
//   mean    dim × f32                   μ, the mean vector
//   words   u32 textBytes | rANS block of the UTF-8 text, words joined by "\n", frequency order
//   steps   size × u8                   step_i = stepLo · (stepHi / stepLo)^(steps[i] / 255)
//   codes   rANS block of size × dim symbols; x[i][d] = μ[d] + (symbol + codeMin) · step_i
//   exact   u16 n | n × (u32 row, dim × f32)   rows stored at full float32 precision
//   rANS block: u16 nsym | nsym × (u8 symbol, u16 freq), freqs summing to 2^14 | u32 len | len bytes

export const VOCAB_MAGIC = 'GLVQ';
export const VOCAB_VERSION = 1;

const PROB_BITS = 14;
const PROB_SCALE = 1 << PROB_BITS;
const RANS_L = 1 << 23; // lower bound of the rANS state; also the encoder's initial state

function fail(msg) {
  throw new Error(`decodeVocab: ${msg}`);
}

// Bounds-checked little-endian cursor: every read names what it was reading, so a
// truncated file fails with a message instead of a RangeError or silent garbage.
function reader(bytes) {
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

// Decodes one rANS block into n byte symbols (byte-wise renormalisation, after ryg_rans).
// The encoder starts from state RANS_L, so ending anywhere else means the block is corrupt.
function ransDecode(r, n, what) {
  const nsym = r.u16(`${what} table`);
  const freq = new Uint32Array(256);
  const cum = new Uint32Array(256);
  const slotSym = new Uint8Array(PROB_SCALE);
  let total = 0;
  for (let k = 0; k < nsym; k++) {
    const s = r.u8(`${what} table`);
    const f = r.u16(`${what} table`);
    if (f === 0 || freq[s] !== 0 || total + f > PROB_SCALE) fail(`${what} frequency table is corrupt`);
    freq[s] = f;
    cum[s] = total;
    slotSym.fill(s, total, total + f);
    total += f;
  }
  if (total !== PROB_SCALE) fail(`${what} frequency table is corrupt`);
  const len = r.u32(`${what} length`);
  const buf = r.bytes(len, what);
  if (len < 4) fail(`${what} stream is corrupt`);

  const out = new Uint8Array(n);
  let x = (buf[0] | (buf[1] << 8) | (buf[2] << 16) | (buf[3] << 24)) >>> 0;
  let p = 4;
  for (let i = 0; i < n; i++) {
    const slot = x & (PROB_SCALE - 1);
    const s = slotSym[slot];
    x = freq[s] * (x >>> PROB_BITS) + slot - cum[s];
    while (x < RANS_L) {
      if (p >= len) fail(`${what} stream is corrupt (ran out of bytes)`);
      x = ((x << 8) | buf[p++]) >>> 0;
    }
    out[i] = s;
  }
  if (x !== RANS_L || p !== len) fail(`${what} stream is corrupt (final state check failed)`);
  return out;
}

function toBytes(data) {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError('decodeVocab: expected an ArrayBuffer or ArrayBufferView');
}

function readHeader(r) {
  const magic = String.fromCharCode(...r.bytes(4, 'magic'));
  if (magic !== VOCAB_MAGIC) fail(`bad magic ${JSON.stringify(magic)} (expected "${VOCAB_MAGIC}"): not a GloVe vocab file`);
  const version = r.u16('version');
  if (version !== VOCAB_VERSION) fail(`unsupported version ${version} (this decoder reads version ${VOCAB_VERSION})`);
  const dim = r.u16('dim');
  const size = r.u32('word count');
  if (dim === 0 || size === 0) fail(`empty vocabulary (dim ${dim}, size ${size})`);
  const relStep = r.f32('relStep');
  const stepLo = r.f32('stepLo');
  const stepHi = r.f32('stepHi');
  if (!(stepLo > 0 && stepHi >= stepLo && relStep > 0)) fail('quantisation parameters are corrupt');
  const codeMin = r.i16('codeMin');
  const mean = new Float32Array(dim);
  for (let d = 0; d < dim; d++) mean[d] = r.f32('mean');
  return { version, dim, size, relStep, stepLo, stepHi, codeMin, mean };
}

/**
 * Reads only the header (format parameters), e.g. for tests that derive error bounds from it.
 */
export function readVocabHeader(data) {
  return readHeader(reader(toBytes(data)));
}

/** The 256 step sizes a u8 step code can name (log-spaced); shared with the encoder. */
export function stepTable(stepLo, stepHi) {
  return Float64Array.from({ length: 256 }, (_, b) => stepLo * (stepHi / stepLo) ** (b / 255));
}

/**
 * Decodes the vocabulary asset. Accepts an ArrayBuffer or any ArrayBufferView (e.g. a Node Buffer).
 * Words and codes are decoded once; vector(word) returns a fresh Float32Array(dim) or null.
 */
export function decodeVocab(data) {
  const bytes = toBytes(data);
  const r = reader(bytes);
  const { dim, size, stepLo, stepHi, codeMin, mean } = readHeader(r);

  // 1. words
  const textBytes = r.u32('words length');
  const text = new TextDecoder('utf-8', { fatal: true }).decode(ransDecode(r, textBytes, 'words'));
  const words = text.split('\n');
  if (words.length !== size) fail(`words section holds ${words.length} words, header says ${size}`);
  const index = new Map(words.map((w, i) => [w, i]));
  if (index.size !== size) fail('words section has duplicate words');

  // 2. per-vector steps, 3. codes: kept as bytes (2 MB, not an 8 MB Float32Array) and turned
  // into floats per lookup (100 multiply-adds); decoding takes ~50 ms, nearly all of it rANS.
  const table = stepTable(stepLo, stepHi);
  const steps = Float64Array.from(r.bytes(size, 'steps'), (b) => table[b]);
  const codes = ransDecode(r, size * dim, 'codes');

  // 4. rows kept at full precision replace their quantised version
  const exact = new Map();
  const nExact = r.u16('exact count');
  for (let k = 0; k < nExact; k++) {
    const row = r.u32('exact row');
    if (row >= size) fail(`exact row ${row} out of range`);
    const v = new Float32Array(dim);
    for (let d = 0; d < dim; d++) v[d] = r.f32('exact vector');
    exact.set(row, v);
  }
  if (r.pos !== bytes.length) fail(`${bytes.length - r.pos} unexpected bytes after the last section`);

  Object.freeze(words);
  return {
    dim,
    size,
    words,
    /** the words whose vectors are stored at full float32 precision (the demo sentence's) */
    exactWords: Object.freeze([...exact.keys()].sort((a, b) => a - b).map((i) => words[i])),
    has: (word) => index.has(word),
    vector(word) {
      const i = index.get(word);
      if (i === undefined) return null;
      if (exact.has(i)) return exact.get(i).slice();
      const v = new Float32Array(dim);
      const step = steps[i];
      for (let d = 0, j = i * dim; d < dim; d++, j++) v[d] = mean[d] + (codes[j] + codeMin) * step;
      return v;
    },
  };
}

/** Fetches and decodes the asset in a browser (or any runtime with fetch). */
export async function fetchVocab(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`fetchVocab: ${url}: HTTP ${res.status}`);
  return decodeVocab(await res.arrayBuffer());
}

/**
 * A handful of words at full float32 precision, for a page's first view
 * (web/assets/glove-first-view.json, written from the exact rows of glove-100d.bin by
 * scripts/build-first-view.mjs): { dim, size, words, partial: true, has, vector } — the same
 * lookups as decodeVocab's result, and the same numbers for these words.
 * JSON: { dim, words: { word: base64 of dim little-endian float32 } }.
 */
export function decodeWordSubset(json) {
  const { dim, words: encoded } = json ?? {};
  if (!Number.isInteger(dim) || dim < 1 || typeof encoded !== 'object' || encoded === null) fail('word subset: expected { dim, words }');
  const vectors = new Map();
  for (const [word, base64] of Object.entries(encoded)) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    if (bytes.length !== dim * 4) fail(`word subset: "${word}" has ${bytes.length} bytes, expected ${dim * 4}`);
    const view = new DataView(bytes.buffer);
    vectors.set(word, Float32Array.from({ length: dim }, (_, d) => view.getFloat32(4 * d, true)));
  }
  const words = Object.freeze([...vectors.keys()]);
  return {
    dim,
    size: words.length,
    words,
    partial: true,
    has: (word) => vectors.has(word),
    vector: (word) => vectors.get(word)?.slice() ?? null,
  };
}

/** Fetches and decodes a word subset (see decodeWordSubset). */
export async function fetchWordSubset(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`fetchWordSubset: ${url}: HTTP ${res.status}`);
  return decodeWordSubset(await res.json());
}
