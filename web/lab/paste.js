// "Bring your own vectors": parses Q, K and V pasted as numbers, the way a teacher writes a
// worked example. Two formats:
//   CSV-like rows: one row per line, numbers separated by commas, semicolons, tabs or spaces;
//                  blank lines and lines starting with # are skipped; a row may start with a
//                  label ("cat, 0.1, 0.2") when the first row does.
//   JSON:          [[0.1, 0.2], [0.3, 0.4]] (a flat [0.1, 0.2] is one row).
// A minus sign may be the typographic one (U+2212 "−", as text copied from a formatted page or
// a paper has it) as well as "-": "−1" is the number −1, never a row label.
// Every problem throws a PasteError whose message names the matrix, row and column (in English;
// its `key` and `params` give the same message in the page's language, web/i18n/).
import { english } from '../i18n/i18n.js';

/** Largest pasted shapes: rows (tokens) and columns (d_k). */
export const MAX_ROWS = 128;
export const MAX_COLS = 1024;
/**
 * Most characters and lines of one pasted matrix, checked before anything else: the full
 * 128 × 1024 at about 8 characters a number fits, with room for comments; a text past them (a
 * file pasted by mistake) is refused at once, before the page lays it out or parses it.
 */
export const MAX_PASTE_CHARS = 1 << 20;
export const MAX_PASTE_LINES = 4 * MAX_ROWS;
/** JSON rows of numbers are two arrays deep; deeper JSON is refused before JSON.parse (whose recursion a deep one exhausts). */
const MAX_JSON_DEPTH = 2;

export class PasteError extends Error {
  /** The message of `key` in the string tables (paste.*) with `params`; where it is. */
  constructor(key, params, { matrix = null, row = null, column = null } = {}) {
    super(english().t(key, params));
    this.name = 'PasteError';
    this.key = key;
    this.params = params;
    this.matrix = matrix;
    this.row = row;
    this.column = column;
  }
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
// Minus signs other than "-" that a number may carry: U+2212 MINUS SIGN, U+FE63 SMALL HYPHEN-MINUS,
// U+FF0D FULLWIDTH HYPHEN-MINUS.
const MINUS = /[\u2212\ufe63\uff0d]/g;
const SEPARATOR = /[,;\t ]+/;
// a number with a comma between digits ("1,5"), and a separator other than a lone comma; digits
// beside a decimal point ("0.2,0.3") are two numbers, not one with a decimal comma
const DECIMAL_COMMA = /(?<![\d.])[+\-\u2212]?\d+,\d+(?![\d.])/;
const OTHER_SEPARATOR = /[;\t ]/;

/**
 * Parses one matrix. Returns { rows, cols, data: Float32Array (rows×cols, row-major),
 * labels: string[] | null }. `name` ("Q", "K", "V") is used in messages.
 */
export function parseMatrix(text, name = 'matrix') {
  if (typeof text !== 'string') throw new PasteError('paste.notText', { name, type: typeof text }, { matrix: name });
  checkSize(text, name);
  const trimmed = text.trim();
  if (trimmed === '') throw new PasteError('paste.empty', { name }, { matrix: name });
  const parsed = trimmed.startsWith('[') ? rowsFromJson(trimmed, name) : rowsFromLines(trimmed, name);
  const { rows: cells, labels } = parsed;
  if (cells.length > MAX_ROWS) throw new PasteError('paste.tooManyRows', { name, rows: cells.length, max: MAX_ROWS }, { matrix: name });
  const cols = cells[0].values.length;
  if (cols === 0) throw new PasteError('paste.noNumbers', { name }, { matrix: name, row: 1 });
  if (cols > MAX_COLS) throw new PasteError('paste.tooManyColumns', { name, cols, max: MAX_COLS }, { matrix: name, row: 1 });
  const data = new Float32Array(cells.length * cols);
  cells.forEach(({ values, line }, r) => {
    if (values.length !== cols) {
      throw new PasteError('paste.width', { name, where: where(line, r), count: values.length, cols }, { matrix: name, row: r + 1 });
    }
    values.forEach((raw, c) => {
      const x = toNumber(raw);
      const problem = x === null ? 'paste.notNumber' : !Number.isFinite(Math.fround(x)) ? 'paste.tooLarge' : null;
      if (problem)
        throw new PasteError(problem, { name, where: where(line, r), column: c + 1, value: quote(raw) }, { matrix: name, row: r + 1, column: c + 1 });
      data[r * cols + c] = x;
    });
  });
  return { rows: cells.length, cols, data, labels };
}

/**
 * Parses the pasted Q, K and (optional) V and checks they fit together:
 * Q (n×d), K (m×d), V (m×dv). Returns { q, k, v, n, m, d, dv, queryLabels, keyLabels }.
 */
export function parseVectors({ q, k, v = '' }) {
  const Q = parseMatrix(q, 'Q');
  const K = parseMatrix(k, 'K');
  const V = typeof v === 'string' && v.trim() === '' ? null : parseMatrix(v, 'V');
  if (K.cols !== Q.cols) throw new PasteError('paste.widths', { q: Q.cols, k: K.cols }, { matrix: 'K' });
  if (V && V.rows !== K.rows) throw new PasteError('paste.valueRows', { v: V.rows, k: K.rows }, { matrix: 'V' });
  return {
    q: Q.data,
    k: K.data,
    v: V ? V.data : null,
    n: Q.rows,
    m: K.rows,
    d: Q.cols,
    dv: V ? V.cols : 0,
    queryLabels: Q.labels,
    keyLabels: K.labels ?? V?.labels ?? null,
  };
}

/** Throws the PasteError of a text past MAX_PASTE_CHARS or MAX_PASTE_LINES (the page checks a paste with it before it takes it). */
export function checkSize(text, name) {
  if (text.length > MAX_PASTE_CHARS) throw new PasteError('paste.tooManyChars', { name, count: text.length, max: MAX_PASTE_CHARS }, { matrix: name });
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0 && lines <= MAX_PASTE_LINES; at = text.indexOf('\n', at + 1)) lines++;
  if (lines > MAX_PASTE_LINES) {
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++; // the count to name (a bounded text: fast)
    lines -= MAX_PASTE_LINES;
    throw new PasteError('paste.tooManyLines', { name, count: lines, max: MAX_PASTE_LINES }, { matrix: name });
  }
}

// The deepest array nesting of JSON text (brackets inside strings do not count).
function jsonDepth(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

function rowsFromJson(text, name) {
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new PasteError('paste.jsonDepth', { name }, { matrix: name });
  let value;
  try {
    value = JSON.parse(text.replace(MINUS, '-'));
  } catch (error) {
    throw new PasteError('paste.json', { name, detail: error.message }, { matrix: name });
  }
  if (!Array.isArray(value) || value.length === 0) throw new PasteError('paste.jsonArray', { name }, { matrix: name });
  const rows = value.every((x) => !Array.isArray(x)) ? [value] : value;
  return {
    labels: null,
    rows: rows.map((row, r) => {
      if (!Array.isArray(row)) throw new PasteError('paste.rowNotArray', { name, row: r + 1 }, { matrix: name, row: r + 1 });
      return { values: row.map((x) => (typeof x === 'number' || typeof x === 'string' ? x : JSON.stringify(x))), line: null };
    }),
  };
}

function rowsFromLines(text, name) {
  const rows = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const values = line.split(SEPARATOR).filter((cell) => cell !== '');
    if (values.length === 0) throw new PasteError('paste.onlySeparators', { name, where: where(index + 1, rows.length) }, { matrix: name, row: rows.length + 1 });
    const comma = DECIMAL_COMMA.exec(line);
    // "1,5; 2,5" or "1,5 2,5": a comma inside a number beside other separators is a decimal
    // comma or a separator — said, not guessed (four numbers or two)
    if (comma && OTHER_SEPARATOR.test(line)) {
      throw new PasteError('paste.decimalComma', { name, where: where(index + 1, rows.length), value: quote(comma[0]) }, { matrix: name, row: rows.length + 1 });
    }
    rows.push({ values, line: index + 1 });
  });
  if (rows.length === 0) throw new PasteError('paste.empty', { name }, { matrix: name });
  // A label column is recognised from the first row; after that it is required on every row.
  const labelled = toNumber(rows[0].values[0]) === null && rows[0].values.length > 1;
  if (!labelled) return { rows, labels: null };
  const labels = rows.map((row, r) => {
    const label = row.values.shift();
    if (toNumber(label) !== null) throw new PasteError('paste.labelMissing', { name, where: where(row.line, r) }, { matrix: name, row: r + 1, column: 1 });
    return label.toLowerCase();
  });
  return { rows, labels };
}

function toNumber(raw) {
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string') return null;
  const text = raw.trim().replace(MINUS, '-');
  return NUMBER.test(text) ? Number(text) : null;
}

// "row 2" plus the line number of the text area when blank or comment lines make them differ
// (a message of its own, filled in by the one it is part of).
function where(line, r) {
  return line !== null && line !== r + 1 ? { key: 'paste.rowLine', params: { row: r + 1, line } } : { key: 'paste.row', params: { row: r + 1 } };
}

function quote(raw) {
  const text = String(raw);
  return { key: 'format.quoted', params: { text: text.length > 24 ? `${text.slice(0, 24)}…` : text } };
}
