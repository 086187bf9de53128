// The numbers behind a lab figure as data: CSV (one line per query–key pair) and JSON, from a
// lab state (web/lab/state.js). Presentation only: every number is the engine's, written as the
// shortest decimal that reads back to the same float32 (Math.fround(Number(text)) === value).
//
//   rows: 'all' (every query: the heatmap), 'selected' (the bars' row) or 'probe' (the probe's row)
//
// CSV columns: query (1-based, or "probe"), query_token, key (1-based), key_token, dot (q·k),
// score (scale·q·k; "-Infinity" for a masked key), weight (softmax(score / temperature) over the
// row), masked, row_entropy (nats), row_max_weight. Text is quoted by RFC 4180 (tokens include "," and '"'); text that a spreadsheet would
// run as a formula is neutralised (csvText).

/** The shortest decimal text of a float32 value that reads back to it; "NaN", "Infinity", "-Infinity" as such. */
export function float32Text(x) {
  if (!Number.isFinite(x)) return String(x);
  const f = Math.fround(x);
  for (let digits = 1; digits < 9; digits++) {
    const text = f.toPrecision(digits);
    if (Math.fround(Number(text)) === f) return String(Number(text));
  }
  return String(Number(f.toPrecision(9)));
}

const ROW_SETS = ['all', 'selected', 'probe'];

// [{ query (1-based or 'probe'), token, at (offset of the row in the arrays), result }]
function rowsOf(state, rows) {
  if (!ROW_SETS.includes(rows)) throw new RangeError(`rows must be one of ${ROW_SETS.join(', ')}, got ${JSON.stringify(rows)}`);
  if (rows === 'probe') {
    if (!state.probe) throw new RangeError('rows "probe" needs a probe word: the state has none');
    return [{ query: 'probe', token: state.probe.text, at: 0, result: state.probe.result }];
  }
  const indices = rows === 'all' ? Array.from({ length: state.n }, (_, i) => i) : [state.selected];
  return indices.map((i) => ({ query: i + 1, token: state.queryLabels[i], at: i, result: state.result }));
}

/** The numbers of `rows` as CSV text (header first, CRLF line ends as RFC 4180 has them). */
export function numbersCsv(state, { rows = 'all' } = {}) {
  const lines = [['query', 'query_token', 'key', 'key_token', 'dot', 'score', 'weight', 'masked', 'row_entropy', 'row_max_weight'].join(',')];
  const { m, keyLabels } = state;
  for (const { query, token, at, result } of rowsOf(state, rows)) {
    const entropy = float32Text(result.entropy[at]);
    const max = float32Text(result.maxWeight[at]);
    for (let j = 0; j < m; j++) {
      const cell = at * m + j;
      const masked = result.scores[cell] === -Infinity;
      lines.push([query, csvText(token), j + 1, csvText(keyLabels[j]), float32Text(result.dots[cell]),
        float32Text(result.scores[cell]), float32Text(result.weights[cell]), masked, entropy, max].join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The numbers of `rows` as a JSON-ready object: the settings they were computed with, the
 * shapes and the scale used, the keys, and per row its dots, scores (null where masked),
 * weights, Σ weights, entropy and max weight.
 */
export function numbersJson(state, { rows = 'all' } = {}) {
  const { settings, n, m, d, dv, keyLabels, unknown, result } = state;
  const list = (array, from) => Array.from(array.subarray(from, from + m), (x) => (x === -Infinity ? null : Number(float32Text(x))));
  return {
    settings: {
      sentence: settings.sentence,
      probe: settings.probe,
      projection: settings.projection,
      dk: settings.dk,
      seed: settings.seed,
      scaled: settings.scaled,
      temperature: settings.temperature,
      causal: settings.causal,
      positional: settings.positional,
      row: state.selected + 1, // the query the bars show, counted from 1 (as the page, a link's row= and --row)
    },
    n,
    m,
    d,
    dv,
    scale: Number(float32Text(result.scale)),
    keys: [...keyLabels],
    unknown: [...unknown],
    rows: rowsOf(state, rows).map(({ query, token, at, result: r }) => ({
      query,
      token,
      dots: list(r.dots, at * m),
      scores: list(r.scores, at * m),
      weights: list(r.weights, at * m),
      rowSum: Number(float32Text(r.rowSum[at])),
      entropy: Number(float32Text(r.entropy[at])),
      maxWeight: Number(float32Text(r.maxWeight[at])),
    })),
  };
}

// A text cell (a token, a pasted label): quoted by RFC 4180, and one a spreadsheet would run as a
// formula (it begins with =, +, -, @, a tab or a carriage return: "=1+1", "@SUM(A1)",
// "+cmd|x") starts with an apostrophe and is quoted, as OWASP's advice on CSV injection has it.
// Numbers are never text cells: they stay numbers.
export function csvText(text) {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return safe !== text || /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
