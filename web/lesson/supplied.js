// Attention from any model, in BertViz's shape: per layer a (1, heads, n, n) array (the batch of
// one optional), row = query, column = key, and the n tokens. Read from JSON text, a parsed
// object or an .npy file's bytes, its shape checked here with a message that names what is wrong;
// its values and rows are the core's to check (engine.checkAttention: finite, ≥ 0, each row
// summing to 1 within limits.supplied.rowSumTolerance), which also measures each head as the
// trained model's heads are measured. No DOM: the page, the Node API and the command line share it.
//
//   { "tokens": ["[CLS]", "the", "cat", "[SEP]"], "attention": [ layer ][ batch? ][ head ][ n ][ n ] }
//   [ layer ][ batch? ][ head ][ n ][ n ]                      with { tokens } given separately
//   .npy: float32 or float64, little-endian, C order, shape (L, 1, H, n, n) or (L, H, n, n)
//
// Every error carries `code`: ATTN_INVALID_SHAPE for a shape, ATTN_INVALID_ARGUMENT for a value
// of the wrong kind, or the core's code for a value (ATTN_NON_FINITE_INPUT, ATTN_INVALID_ARGUMENT).
import { describe, rangeError, typeError } from '../core/errors.js';
import { byHead, headRecords } from '../core/heads.js';

const SHAPE = 'ATTN_INVALID_SHAPE';
const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"

/**
 * `data` (JSON text, its parsed value, or the bytes of a JSON or .npy file) → { tokens,
 * attention: [layer][head] Float32Array n×n row-major, heads: [{ layer, head (from 1), role,
 * previous, first, self, spread }], causal, worstRowError, tolerance }: the shape of a trained model's
 * run() without its next word. `tokens` is required when `data` holds no tokens (a bare array,
 * an .npy file); given as well, it must agree.
 */
export function readAttention(data, { tokens, engine } = {}) {
  const given = parsed(data, engine.limits);
  const layers = given.layers;
  const words = tokensOf(given.tokens, tokens);
  const shape = given.flat ? given : flatten(layers, engine.limits);
  const { L, H, n, values } = shape;
  if (words.length !== n)
    throw rangeError(`attention: ${words.length} tokens but rows of ${n}: give one token per row and column`, SHAPE);
  let check;
  try {
    check = engine.checkAttention({ layers: L, heads: H, n, attention: values });
  } catch (error) {
    error.message = error.message.replace(/^checkAttention:/, 'attention:'); // one prefix for every fault of the data
    throw error;
  }
  return { tokens: words, attention: byHead(values, L, H, n), heads: headRecords(check, L, H, engine.headRoles), causal: check.causal, worstRowError: check.worstRowError, tolerance: engine.limits.supplied.rowSumTolerance };
}

// ---- the container: JSON text, a value, or bytes ----------------------------------------------

function parsed(data, limits) {
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (NPY_MAGIC.every((b, i) => bytes[i] === b)) return npy(bytes, limits);
    return parsed(new TextDecoder().decode(bytes), limits);
  }
  if (typeof data === 'string') {
    let value;
    try {
      value = JSON.parse(data);
    } catch (error) {
      // Python's json.dumps writes NaN and Infinity, which JSON has no words for
      const hint = /\b(NaN|-?Infinity)\b/.exec(data);
      throw typeError(hint
        ? `attention: the file holds ${hint[1]}, which is not a JSON number: attention weights must be finite (${error.message})`
        : `attention: the text is not JSON: ${error.message}`);
    }
    return parsed(value, limits);
  }
  if (Array.isArray(data)) return { layers: data };
  if (data !== null && typeof data === 'object') {
    if (!('attention' in data)) throw typeError(`attention: expected { tokens, attention } or an array of layers, got an object without "attention"`);
    return { tokens: data.tokens, layers: data.attention };
  }
  throw typeError(`attention: expected JSON text, { tokens, attention }, an array of layers or a file's bytes, got ${describe(data)}`);
}

function tokensOf(inData, given) {
  if (inData !== undefined && given !== undefined && !sameTokens(inData, given))
    throw rangeError('attention: the tokens given differ from the tokens in the data', SHAPE);
  const tokens = inData ?? given;
  if (tokens === undefined) throw typeError('attention: no tokens: give { tokens, attention }, or the tokens beside an array of layers');
  if (!Array.isArray(tokens)) throw typeError(`attention: tokens must be an array of strings, got ${describe(tokens)}`);
  tokens.forEach((token, i) => {
    if (typeof token !== 'string') throw typeError(`attention: token ${i + 1} is ${describe(token)}, expected a string`);
  });
  return [...tokens];
}

const sameTokens = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((t, i) => t === b[i]);

// ---- nested arrays: [layer][batch?][head][row][column] -----------------------------------------

// The core's limits, checked before the numbers are copied: a file that claims more layers, heads
// or tokens than the core takes is refused before its array is made (in the core's words).
function withinLimits(L, H, n, { supplied, memoryBudgetBytes }) {
  for (const [name, value, most] of [['layers', L, supplied.maxLayers], ['heads', H, supplied.maxHeads], ['n', n, supplied.maxTokens]])
    if (value > most) throw rangeError(`attention: ${name} must be an integer from 1 to ${most}, got ${value}`, SHAPE);
  if (L * H * n * n * Float32Array.BYTES_PER_ELEMENT > memoryBudgetBytes)
    throw rangeError(`attention: ${L} layers × ${H} heads × ${n}² weights are more than one call may hold (${memoryBudgetBytes} bytes)`, 'ATTN_TOO_LARGE');
}

function flatten(layers, limits) {
  if (!Array.isArray(layers)) throw typeError(`attention: "attention" must be an array of layers, got ${describe(layers)}`);
  if (layers.length === 0) throw rangeError('attention: there are no layers', SHAPE);
  const headsOf = (layer, l) => {
    if (!Array.isArray(layer)) throw typeError(`attention: layer ${l + 1} is ${describe(layer)}, expected an array of heads`);
    // a batch dimension when the layer is four arrays deep: (1, H, n, n)
    if (Array.isArray(layer[0]?.[0]?.[0])) {
      if (layer.length !== 1) throw rangeError(`attention: layer ${l + 1} holds a batch of ${layer.length} sentences: export one (batch 1)`, SHAPE);
      layer = layer[0];
    }
    if (!Array.isArray(layer) || layer.length === 0) throw rangeError(`attention: layer ${l + 1} has no heads`, SHAPE);
    return layer;
  };
  const first = headsOf(layers[0], 0);
  const H = first.length;
  const firstHead = first[0];
  if (!Array.isArray(firstHead) || firstHead.length === 0) throw rangeError('attention: layer 1, head 1 has no rows', SHAPE);
  const n = firstHead.length;
  const L = layers.length;
  withinLimits(L, H, n, limits);
  // every head's shape and every value checked before the tensor is made: its size is L·H·n²
  // from the first head's shape, which a small file may claim (4,096 empty rows) without holding
  const checked = layers.map((layer, l) => {
    const heads = l === 0 ? first : headsOf(layer, l);
    if (heads.length !== H) throw rangeError(`attention: layer ${l + 1} has ${heads.length} heads, layer 1 has ${H}`, SHAPE);
    heads.forEach((rows, h) => {
      const where = `layer ${l + 1}, head ${h + 1}`;
      if (!Array.isArray(rows)) throw typeError(`attention: ${where} is ${describe(rows)}, expected an array of rows`);
      if (rows.length !== n) throw rangeError(`attention: ${where} has ${rows.length} rows, layer 1, head 1 has ${n}`, SHAPE);
      rows.forEach((row, i) => {
        if (!Array.isArray(row)) throw typeError(`attention: ${where}, row ${i + 1} is ${describe(row)}, expected an array of numbers`);
        if (row.length !== n) throw rangeError(`attention: ${where}, row ${i + 1} has ${row.length} columns, expected ${n}: attention is square (n queries × n keys)`, SHAPE);
        for (let j = 0; j < n; j++)
          if (typeof row[j] !== 'number') throw typeError(`attention: ${where}, row ${i + 1}, column ${j + 1} is ${describe(row[j])}, expected a number`);
      });
    });
    return heads;
  });
  const values = new Float32Array(L * H * n * n);
  let at = 0;
  for (const heads of checked) for (const rows of heads) for (const row of rows) for (let j = 0; j < n; j++) values[at++] = row[j];
  return { L, H, n, values };
}

// ---- .npy (NumPy's format, version 1 to 3): float32 or float64, little-endian, C order ----------

function npy(bytes, limits) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bad = (why) => rangeError(`attention: the .npy file ${why}`, SHAPE);
  if (bytes.length < 10) throw bad('is cut short');
  const [major, minor] = [bytes[6], bytes[7]];
  if (!(major >= 1 && major <= 3) || minor !== 0) throw bad(`is of format version ${major}.${minor}: this reader takes versions 1.0, 2.0 and 3.0`);
  const wide = major >= 2; // versions 2 and 3: a 4-byte header length
  const headerLength = wide ? (bytes.length >= 12 ? view.getUint32(8, true) : Infinity) : view.getUint16(8, true);
  const start = wide ? 12 : 10;
  if (start + headerLength > bytes.length) throw bad('is cut short');
  const header = npyHeader(new TextDecoder().decode(bytes.subarray(start, start + headerLength)));
  if (!header) throw bad('has a header this reader does not understand');
  const { descr, fortran_order: fortran, shape: shapeText } = header;
  const size = { '<f4': 4, '<f8': 8 }[descr];
  if (!size) throw bad(`holds ${descr}: expected float32 or float64, little-endian ('<f4' or '<f8')`);
  if (fortran === 'True') throw bad('is in Fortran order: save it in C order (numpy.ascontiguousarray)');
  // Python 2's NumPy wrote a dimension as 1L
  const shape = shapeText.split(',').map((d) => d.trim()).filter((d) => d !== '').map((d) => (/^\d+L?$/.test(d) ? Number.parseInt(d, 10) : NaN));
  if (shape.some(Number.isNaN)) throw bad(`has shape (${shapeText}): every dimension must be a whole number`);
  if (!(shape.length === 5 && shape[1] === 1) && shape.length !== 4)
    throw bad(`has shape (${shape.join(', ')}): expected (layers, 1, heads, n, n) or (layers, heads, n, n)`);
  const [L, H, n, m] = shape.length === 5 ? [shape[0], shape[2], shape[3], shape[4]] : shape;
  if (n !== m) throw bad(`has shape (${shape.join(', ')}): attention is square (n queries × n keys)`);
  if (![L, H, n].every((d) => Number.isInteger(d) && d >= 1)) throw bad(`has shape (${shape.join(', ')}): every dimension must be at least 1`);
  const count = L * H * n * n;
  const data = start + headerLength;
  if (limits) withinLimits(L, H, n, limits);
  if (bytes.length - data !== count * size) throw bad(`holds ${bytes.length - data} bytes of data, its shape says ${count * size}`);
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) values[i] = size === 4 ? view.getFloat32(data + 4 * i, true) : view.getFloat64(data + 8 * i, true);
  return { flat: true, L, H, n, values };
}

// The header of an .npy file: a Python dict literal of exactly 'descr', 'fortran_order' and
// 'shape', each once, read key by key from its start (a 'descr' inside another value is not
// one) → { descr, fortran_order, shape (the tuple's text) }, or null.
function npyHeader(text) {
  const body = /^\{(.*)\}\s*$/s.exec(text.replace(/[\s\n]+$/, ''))?.[1];
  if (body === undefined) return null;
  const entry = /\s*'(\w+)'\s*:\s*(?:'([^']*)'|(True|False)|\(([^()]*)\))\s*(?:,|$)/y;
  const header = {};
  while (entry.lastIndex < body.length) {
    const at = entry.lastIndex;
    const match = entry.exec(body);
    if (!match) return /^\s*$/.test(body.slice(at)) ? header : null;
    const [, key, string, flag, tuple] = match;
    if (Object.hasOwn(header, key)) return null;
    header[key] = string ?? flag ?? tuple;
  }
  const keys = Object.keys(header).sort().join(' ');
  return keys === 'descr fortran_order shape' && header.descr !== undefined && typeof header.shape === 'string' ? header : null;
}
