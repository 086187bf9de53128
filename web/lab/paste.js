// "Bring your own vectors": parses Q, K and V pasted as numbers, the way a teacher writes a
// worked example. Two formats:
//   CSV-like rows: one row per line, numbers separated by commas, semicolons, tabs or spaces;
//                  blank lines and lines starting with # are skipped; a row may start with a
//                  label ("cat, 0.1, 0.2") when the first row does.
//   JSON:          [[0.1, 0.2], [0.3, 0.4]] (a flat [0.1, 0.2] is one row).
// A minus sign may be the typographic one (U+2212 "−", as text copied from a formatted page or
// a paper has it) as well as "-": "−1" is the number −1, never a row label.
// Every problem throws a PasteError whose message names the matrix, row and column.

/** Largest pasted shapes: rows (tokens) and columns (d_k). */
export const MAX_ROWS = 128;
export const MAX_COLS = 1024;

export class PasteError extends Error {
  constructor(message, { matrix = null, row = null, column = null } = {}) {
    super(message);
    this.name = 'PasteError';
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

/**
 * Parses one matrix. Returns { rows, cols, data: Float32Array (rows×cols, row-major),
 * labels: string[] | null }. `name` ("Q", "K", "V") is used in messages.
 */
export function parseMatrix(text, name = 'matrix') {
  if (typeof text !== 'string') throw new PasteError(`${name}: expected text, got ${typeof text}`, { matrix: name });
  const trimmed = text.trim();
  if (trimmed === '') throw new PasteError(`${name} is empty: paste at least one row of numbers.`, { matrix: name });
  const parsed = trimmed.startsWith('[') ? rowsFromJson(trimmed, name) : rowsFromLines(trimmed, name);
  const { rows: cells, labels } = parsed;
  if (cells.length > MAX_ROWS)
    throw new PasteError(`${name} has ${cells.length} rows; at most ${MAX_ROWS} are allowed.`, { matrix: name });
  const cols = cells[0].values.length;
  if (cols === 0) throw new PasteError(`${name} row 1 has no numbers.`, { matrix: name, row: 1 });
  if (cols > MAX_COLS)
    throw new PasteError(`${name} has ${cols} columns; at most ${MAX_COLS} are allowed.`, { matrix: name, row: 1 });
  const data = new Float32Array(cells.length * cols);
  cells.forEach(({ values, line }, r) => {
    if (values.length !== cols) {
      throw new PasteError(
        `${name} ${where(line, r)} has ${values.length} number${values.length === 1 ? '' : 's'}, but row 1 has ${cols}: every row needs the same width.`,
        { matrix: name, row: r + 1 },
      );
    }
    values.forEach((raw, c) => {
      const x = toNumber(raw);
      const problem = x === null ? 'is not a number' : !Number.isFinite(Math.fround(x)) ? 'is too large (beyond the float32 range)' : null;
      if (problem)
        throw new PasteError(`${name} ${where(line, r)}, column ${c + 1}: ${quote(raw)} ${problem}.`, {
          matrix: name,
          row: r + 1,
          column: c + 1,
        });
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
  if (K.cols !== Q.cols)
    throw new PasteError(`Q rows have ${Q.cols} numbers but K rows have ${K.cols}: q·k needs queries and keys of the same width d_k.`, {
      matrix: 'K',
    });
  if (V && V.rows !== K.rows)
    throw new PasteError(`V has ${V.rows} rows but K has ${K.rows}: every key needs one value row.`, { matrix: 'V' });
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

function rowsFromJson(text, name) {
  let value;
  try {
    value = JSON.parse(text.replace(MINUS, '-'));
  } catch (error) {
    throw new PasteError(`${name} is not valid JSON (${error.message}).`, { matrix: name });
  }
  if (!Array.isArray(value) || value.length === 0)
    throw new PasteError(`${name}: expected a JSON array of rows like [[0.1, 0.2], [0.3, 0.4]].`, { matrix: name });
  const rows = value.every((x) => !Array.isArray(x)) ? [value] : value;
  return {
    labels: null,
    rows: rows.map((row, r) => {
      if (!Array.isArray(row))
        throw new PasteError(`${name} row ${r + 1} is not an array of numbers.`, { matrix: name, row: r + 1 });
      return { values: row.map((x) => (typeof x === 'number' || typeof x === 'string' ? x : JSON.stringify(x))), line: null };
    }),
  };
}

function rowsFromLines(text, name) {
  const rows = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    rows.push({ values: line.split(SEPARATOR).filter((cell) => cell !== ''), line: index + 1 });
  });
  if (rows.length === 0) throw new PasteError(`${name} is empty: paste at least one row of numbers.`, { matrix: name });
  // A label column is recognised from the first row; after that it is required on every row.
  const labelled = toNumber(rows[0].values[0]) === null && rows[0].values.length > 1;
  if (!labelled) return { rows, labels: null };
  const labels = rows.map((row, r) => {
    const label = row.values.shift();
    if (toNumber(label) !== null)
      throw new PasteError(`${name} ${where(row.line, r)} starts with a number, but row 1 starts with a label: give every row a label, or none.`, {
        matrix: name,
        row: r + 1,
        column: 1,
      });
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

// "row 2" plus the line number of the text area when blank or comment lines make them differ.
function where(line, r) {
  return line !== null && line !== r + 1 ? `row ${r + 1} (line ${line})` : `row ${r + 1}`;
}

function quote(raw) {
  const text = String(raw);
  return `“${text.length > 24 ? `${text.slice(0, 24)}…` : text}”`;
}
