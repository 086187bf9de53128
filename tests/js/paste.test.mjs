// The parser of pasted Q, K, V ("Bring your own vectors", web/lab/paste.js): good inputs in
// both formats, and bad inputs with messages that name the matrix, row and column.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_COLS, MAX_PASTE_CHARS, MAX_PASTE_LINES, MAX_ROWS, PasteError, parseMatrix, parseVectors } from '../../web/lab/paste.js';
import { loadStrings, messageOf } from '../../web/i18n/i18n.js';
import en from '../../web/i18n/en.js';

const rowsOf = ({ data, cols }) => Array.from({ length: data.length / cols }, (_, r) => Array.from(data.slice(r * cols, (r + 1) * cols)));

test('CSV rows with commas, semicolons, tabs or spaces', () => {
  const m = parseMatrix('1, 2, 3\n4;5;6\n7\t8 9\n', 'Q');
  assert.equal(m.rows, 3);
  assert.equal(m.cols, 3);
  assert.ok(m.data instanceof Float32Array);
  assert.deepEqual(rowsOf(m), [[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
  assert.equal(m.labels, null);
});

test('blank lines and # comments are skipped; numbers in every usual notation', () => {
  const m = parseMatrix('# a worked example\n\n-1.5 +2 .25\n\r\n1e-3 2E2 0\n', 'K');
  assert.deepEqual(rowsOf(m), [[-1.5, 2, 0.25], [Math.fround(0.001), 200, 0]]);
});

test('JSON: an array of rows, or one flat row; numeric strings allowed', () => {
  assert.deepEqual(rowsOf(parseMatrix('[[1, 0], [0, 1]]', 'Q')), [[1, 0], [0, 1]]);
  assert.deepEqual(rowsOf(parseMatrix('[0.5, "-2"]', 'Q')), [[0.5, -2]]);
});

test('a typographic minus sign (−, U+2212) is a minus, not a row label', () => {
  const m = parseMatrix('−1, 0.5\n2, −3e−1', 'Q');
  assert.equal(m.labels, null);
  assert.deepEqual(rowsOf(m), [[-1, 0.5], [2, -0.3].map(Math.fround)]);
  assert.deepEqual(rowsOf(parseMatrix('[[−1, 2], ["−0.5", 1]]', 'K')), [[-1, 2], [-0.5, 1]]);
  // labels still work beside it, and a word is still not a number
  const labelled = parseMatrix('cat, −1, 0\ndog, 0, −2', 'K');
  assert.deepEqual(labelled.labels, ['cat', 'dog']);
  assert.deepEqual(rowsOf(labelled), [[-1, 0], [0, -2]]);
  assert.throws(() => parseMatrix('1, −x', 'Q'), /Q row 1, column 2: “−x” is not a number/);
});

test('a label column is taken from the first row and lower-cased', () => {
  const m = parseMatrix('Cat, 1, 0\ndog, 0.9, 0.1', 'K');
  assert.deepEqual(m.labels, ['cat', 'dog']);
  assert.deepEqual(rowsOf(m), [[1, 0], [0.9, 0.1]].map((r) => r.map(Math.fround)));
});

function throwsPaste(fn, { message, matrix = undefined, row = undefined, column = undefined }) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof PasteError, `expected a PasteError, got ${error}`);
    assert.match(error.message, message);
    // the page shows the message of error.key in the reader's language
    assert.ok(Object.hasOwn(en, error.key), `error.key ${JSON.stringify(error.key)} is not a key of the string tables`);
    if (matrix !== undefined) assert.equal(error.matrix, matrix);
    if (row !== undefined) assert.equal(error.row, row);
    if (column !== undefined) assert.equal(error.column, column);
    return true;
  });
}

test('empty input', () => {
  throwsPaste(() => parseMatrix('', 'Q'), { message: /^Q is empty/, matrix: 'Q' });
  throwsPaste(() => parseMatrix('# only a comment\n\n', 'K'), { message: /^K is empty/ });
});

test('a word where a number belongs names the row and column', () => {
  throwsPaste(() => parseMatrix('1, 2\n3, x', 'Q'), { message: /^Q row 2, column 2: “x” is not a number\.$/, row: 2, column: 2 });
  throwsPaste(() => parseMatrix('1, 2\n3, NaN', 'Q'), { message: /row 2, column 2: “NaN” is not a number/ });
  throwsPaste(() => parseMatrix('1, 2\n3, Infinity', 'Q'), { message: /“Infinity” is not a number/ });
  throwsPaste(() => parseMatrix('1, 2\n3, 0x10', 'Q'), { message: /“0x10” is not a number/ });
});

test('rows of different widths name the row (and its line when they differ)', () => {
  throwsPaste(() => parseMatrix('1 2\n3', 'K'), { message: /^K row 2 has 1 number, but row 1 has 2/, row: 2 });
  throwsPaste(() => parseMatrix('# c\n1 2\n\n3 4 5', 'K'), { message: /^K row 2 \(line 4\) has 3 numbers/ });
});

test('numbers beyond float32 are rejected rather than turned into Infinity', () => {
  throwsPaste(() => parseMatrix('1, 1e39', 'V'), { message: /V row 1, column 2: “1e39” is too large/, column: 2 });
});

test('bad JSON says so', () => {
  throwsPaste(() => parseMatrix('[[1, 2], [3, 4]', 'Q'), { message: /^Q is not valid JSON/ });
  throwsPaste(() => parseMatrix('[]', 'Q'), { message: /expected a JSON array of rows/ });
  throwsPaste(() => parseMatrix('[[1, 2], 3]', 'Q'), { message: /Q row 2 is not an array of numbers/ });
  throwsPaste(() => parseMatrix('[[1, true]]', 'Q'), { message: /Q row 1, column 2: “true” is not a number/ });
  throwsPaste(() => parseMatrix('[[]]', 'Q'), { message: /Q row 1 has no numbers/ });
});

test('labels on some rows only', () => {
  throwsPaste(() => parseMatrix('cat 1 2\n3 4 5', 'K'), { message: /K row 2 starts with a number, but row 1 starts with a label/ });
});

test('size limits', () => {
  const tooWide = Array.from({ length: MAX_COLS + 1 }, () => '1').join(',');
  throwsPaste(() => parseMatrix(tooWide, 'Q'), { message: new RegExp(`${(MAX_COLS + 1).toLocaleString("en")} columns; at most ${MAX_COLS.toLocaleString("en")}`) });
  const tooTall = Array.from({ length: MAX_ROWS + 1 }, () => '1').join('\n');
  throwsPaste(() => parseMatrix(tooTall, 'Q'), { message: new RegExp(`${MAX_ROWS + 1} rows; at most ${MAX_ROWS}`) });
});

test('parseVectors: shapes that fit together', () => {
  const p = parseVectors({ q: '1 0\n0 1', k: 'a 1 0\nb 0 1\nc 1 1', v: '1\n2\n3' });
  assert.equal(p.n, 2);
  assert.equal(p.m, 3);
  assert.equal(p.d, 2);
  assert.equal(p.dv, 1);
  assert.deepEqual(p.keyLabels, ['a', 'b', 'c']);
  assert.equal(p.queryLabels, null);
  assert.deepEqual(Array.from(p.v), [1, 2, 3]);
  assert.equal(parseVectors({ q: '1', k: '2' }).v, null);
});

test('parseVectors: Q and K of different widths, V with the wrong number of rows', () => {
  throwsPaste(() => parseVectors({ q: '1 2', k: '1 2 3' }), { message: /Q rows have 2 numbers but K rows have 3/, matrix: 'K' });
  throwsPaste(() => parseVectors({ q: '1 2', k: '1 2\n3 4', v: '1' }), { message: /V has 1 rows but K has 2/, matrix: 'V' });
  throwsPaste(() => parseVectors({ q: '', k: '1' }), { message: /^Q is empty/ });
});

// The messages of what follows, in bokmål too (the page speaks the reader's language).
const nb = await loadStrings('nb');
function bothLanguages(fn, english, norwegian) {
  throwsPaste(fn, { message: english });
  try {
    fn();
  } catch (error) {
    assert.match(messageOf(error, nb), norwegian);
  }
}

test('a decimal comma beside other separators is ambiguous: said, in both languages, never guessed', () => {
  bothLanguages(() => parseMatrix('1,5; 2,5', 'Q'), /^Q row 1: “1,5” looks like a number with a decimal comma/, /^Q rad 1: «1,5» ser ut som et tall med desimalkomma/);
  bothLanguages(() => parseMatrix('0.1 0.2\n1,5 2,5', 'K'), /^K row 2: “1,5” looks like/, /^K rad 2: «1,5» ser ut som/);
  throwsPaste(() => parseMatrix('cat\t0,5\t1', 'Q'), { message: /“0,5” looks like a number with a decimal comma/, row: 1 });
  // commas alone, or commas followed by a space, are separators: no ambiguity
  assert.deepEqual(rowsOf(parseMatrix('1,5\n2,5', 'Q')), [[1, 5], [2, 5]]);
  assert.deepEqual(rowsOf(parseMatrix('1, 5; 2', 'Q')), [[1, 5, 2]]);
  assert.deepEqual(rowsOf(parseMatrix('[1,5, 2]', 'Q')), [[1, 5, 2]]);
  // a number with a decimal point cannot also hold a decimal comma: "0.2,0.3" is two numbers
  assert.deepEqual(rowsOf(parseMatrix('0.1, 0.2,0.3', 'Q')), [[0.1, 0.2, 0.3]].map((r) => r.map(Math.fround)));
  assert.deepEqual(rowsOf(parseMatrix('-1.5,2 3', 'Q')), [[-1.5, 2, 3]]);
});

test('a line of separators only is named, not a crash (after a label row too)', () => {
  bothLanguages(() => parseMatrix('cat, 1, 2\n, , ,', 'Q'), /^Q row 2 has only separators, no numbers/, /^Q rad 2 har bare skilletegn, ingen tall/);
  throwsPaste(() => parseMatrix('1 2\n;;', 'K'), { message: /^K row 2 has only separators/, row: 2 });
});

test('deeply nested JSON and pastes past the bound are refused before they are parsed', () => {
  bothLanguages(() => parseMatrix(`${'['.repeat(100000)}1${']'.repeat(100000)}`, 'Q'), /^Q is nested deeper than rows of numbers/, /^Q er nøstet dypere enn rader med tall/);
  throwsPaste(() => parseMatrix('[[[1]]]', 'Q'), { message: /nested deeper/ });
  assert.deepEqual(rowsOf(parseMatrix('[["[[x"], [1]]'.replace('"[[x"', '"1"'), 'Q')), [[1], [1]]);
  bothLanguages(() => parseMatrix('1\n'.repeat(MAX_PASTE_LINES + 1), 'Q'), /^Q has \d+ lines; at most 512 are read/, /^Q har \d+ linjer; høyst 512 leses/);
  bothLanguages(() => parseMatrix('1,'.repeat(MAX_PASTE_CHARS), 'Q'), /^Q has [\d,]+ characters; at most 1,048,576 are read/, /^Q har [\d\s ]+ tegn; høyst 1\s048\s576 leses/);
});
