// The command line (bin/attention-lab.js → bin/cli.js): SVG that is well-formed XML with one bar
// per token whose labels hold the engine's weights; CSV and JSON that parse back to the engine's
// float32 numbers exactly; every wrong option or value a message naming it and exit status 2.
// Most runs are in-process (main() with string streams); one runs the executable itself.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main } from '../../bin/cli.js';
import { createEngine } from '../../web/core/engine.js';
import { labInputs, loadVocab, tokenize } from '../../web/api/lab.js';

const BIN = fileURLToPath(new URL('../../bin/attention-lab.js', import.meta.url));
const engine = await createEngine();
const vocab = await loadVocab();

// A weight shown with 3 decimals is the float64 reference rounded, give or take the float32
// error of the weight (≤ 4e-5 scaled by 1/√100, see package-lab.test.mjs) and half a unit of
// the last decimal.
const SHOWN_TOLERANCE = 5e-4 + 4e-5;

async function run(...args) {
  let out = '';
  let err = '';
  // in English whatever the machine's locale (tests/js/i18n-cli.test.mjs runs it in bokmål)
  const status = await main(args, { stdout: { write: (text) => (out += text) }, stderr: { write: (text) => (err += text) }, env: { LANG: 'C' } });
  return { status, out, err };
}

// Well-formed XML: every tag closed in order, attributes quoted, only the five named entities.
function assertWellFormed(xml) {
  const stack = [];
  const TAG = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|apos);)/g;
  for (const match of xml.matchAll(TAG)) {
    const [whole, closing, name, , selfClosing] = match;
    assert.ok(name, `stray ${JSON.stringify(whole)} at ${match.index}: ${xml.slice(match.index, match.index + 60)}`);
    if (closing) assert.equal(stack.pop(), name, `</${name}> at ${match.index}`);
    else if (!selfClosing) stack.push(name);
  }
  assert.deepEqual(stack, [], 'every element is closed');
}

// RFC 4180: quoted fields may hold commas, quotes ("") and line breaks.
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), i++;
    else field += c;
  }
  assert.equal(field + row.join(''), '', 'the text ends with a line break');
  const [header, ...body] = rows;
  return body.map((cells) => Object.fromEntries(header.map((name, k) => [name, cells[k]])));
}

const unescape = (text) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

test('SVG of the bars: well-formed, one bar per token, each label the engine’s weight (and the float64 reference’s)', async () => {
  const sentence = 'The cat sat on the mat, "purring" & <happy>';
  const { status, out, err } = await run('render', '--sentence', sentence, '--view', 'bars', '--row', 'cat');
  assert.equal(status, EXIT_OK, err);
  assert.equal(err, '');
  assertWellFormed(out);
  assert.match(out, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
  const tokens = tokenize(sentence);
  const bars = [...out.matchAll(/<g data-key="(\d+)"><title>([^<]*)<\/title>/g)].map((match) => ({ key: Number(match[1]), title: unescape(match[2]) }));
  assert.equal(bars.length, tokens.length);
  // identity projection: scores are GloVe dot products ÷ √100 (unknown words: the engine's text vector)
  const inputs = labInputs({ sentence }, { engine, vocab });
  const { weights } = engine.attention(inputs);
  const x = (j) => inputs.x.subarray(j * 100, (j + 1) * 100);
  const scores = tokens.map((_, j) => x(j).reduce((sum, value, c) => sum + value * x(1)[c], 0) / 10);
  const top = Math.max(...scores);
  const total = scores.reduce((sum, s) => sum + Math.exp(s - top), 0);
  bars.forEach(({ key, title }, j) => {
    assert.equal(key, j + 1);
    assert.equal(title, `${tokens[j]} (key ${j + 1}): ${weights[tokens.length + j].toFixed(3)}`);
    const shown = Number(title.split(': ')[1]);
    assert.ok(Math.abs(shown - Math.exp(scores[j] - top) / total) <= SHOWN_TOLERANCE, `${tokens[j]}: ${shown}`);
  });
  assert.match(out, /Where “cat” looks/);
  assert.match(out, /Σ weights <\/tspan>1\.000/);
});

test('SVG of both views in the dark theme: the heatmap’s n×m cells and the bars of the default row', async () => {
  const { status, out } = await run('render', '--sentence', 'the cat sat on the mat', '--dk', '64', '--projection', 'random', '--no-scale', '--theme', 'dark');
  assert.equal(status, EXIT_OK);
  assertWellFormed(out);
  const cells = [...out.matchAll(/<title>([^<]*) → ([^<]*): weight ([\d.]+)<\/title>/g)];
  assert.equal(cells.length, 36);
  const { weights } = engine.attention(labInputs({ sentence: 'the cat sat on the mat', dk: 64, projection: 'random', scaled: false }, { engine, vocab }));
  cells.forEach((cell, at) => assert.equal(cell[3], weights[at].toFixed(3)));
  assert.equal([...out.matchAll(/<g data-key=/g)].length, 6);
  assert.match(out, /<rect width="\d+" height="\d+" fill="#12151a"\/>/); // the dark background
  assert.match(out, /random projections, d_k = 64, seed 1 · not scaled/);
  assert.doesNotMatch(out, /NaN|undefined|Infinity/);
});

test('CSV: parses back to the engine’s float32 dots, scores and weights exactly, with tokens that need quoting', async () => {
  const sentence = 'Hello, "world" — causal; yes';
  const { status, out } = await run('render', '--sentence', sentence, '--causal', '--view', 'heatmap', '--format', 'csv', '--temperature', '0.5');
  assert.equal(status, EXIT_OK);
  const rows = parseCsv(out);
  const inputs = labInputs({ sentence, causal: true, temperature: 0.5 }, { engine, vocab });
  const result = engine.attention(inputs);
  const { n, m, tokens } = inputs;
  assert.equal(rows.length, n * m);
  rows.forEach((row, at) => {
    const [i, j] = [Math.floor(at / m), at % m];
    assert.deepEqual([row.query, row.query_token, row.key, row.key_token], [String(i + 1), tokens[i], String(j + 1), tokens[j]]);
    for (const [column, array] of [['dot', result.dots], ['score', result.scores], ['weight', result.weights]]) {
      assert.equal(Math.fround(Number(row[column])), array[at], `${column} at ${at}: ${row[column]}`);
    }
    assert.equal(row.masked, String(j > i));
    assert.equal(Math.fround(Number(row.row_entropy)), result.entropy[i]);
    assert.equal(Math.fround(Number(row.row_max_weight)), result.maxWeight[i]);
  });
  assert.ok(rows.some((row) => row.query_token === ',' && row.score === '-Infinity'));
  assert.ok(rows.some((row) => row.key_token === '"'));
});

test('JSON: the settings, and the selected row’s numbers as the engine’s float32 exactly (masked scores are null)', async () => {
  const { status, out } = await run('render', '--view', 'bars', '--row', '3', '--format', 'json', '--projection', 'random', '--dk', '16', '--seed', '9', '--causal', '--positional');
  assert.equal(status, EXIT_OK);
  const data = JSON.parse(out);
  const settings = { projection: 'random', dk: 16, seed: 9, causal: true, positional: true };
  const inputs = labInputs(settings, { engine, vocab });
  const result = engine.attention(inputs);
  assert.deepEqual(data.settings, {
    sentence: 'The cat sat on the mat because it was tired', probe: 'animal', projection: 'random', dk: 16, seed: 9,
    scaled: true, temperature: 1, causal: true, positional: true, row: 3, // --row 3: counted from 1, as given
  });
  assert.deepEqual([data.n, data.m, data.d, data.dv], [10, 10, 16, 100]);
  assert.equal(Math.fround(data.scale), Math.fround(1 / 4));
  assert.deepEqual(data.keys, inputs.tokens);
  assert.equal(data.rows.length, 1);
  const [row] = data.rows;
  assert.deepEqual([row.query, row.token], [3, 'sat']);
  row.weights.forEach((w, j) => assert.equal(Math.fround(w), result.weights[2 * 10 + j]));
  row.scores.forEach((s, j) => assert.equal(s === null ? -Infinity : Math.fround(s), result.scores[2 * 10 + j]));
  assert.deepEqual(row.scores.map((s) => s === null), Array.from({ length: 10 }, (_, j) => j > 2));
  assert.equal(Math.fround(row.rowSum), result.rowSum[2]);
  const probe = JSON.parse((await run('render', '--view', 'probe', '--format', 'json')).out);
  assert.deepEqual([probe.rows[0].query, probe.rows[0].token], ['probe', 'animal']);
});

test('a sentence longer than the lab takes: the first 128 tokens, and the caption says so', async () => {
  const sentence = Array.from({ length: 130 }, (_, i) => `w${i}`).join(' ');
  const { status, out } = await run('render', '--sentence', sentence, '--view', 'heatmap', '--no-caption');
  assert.equal(status, EXIT_OK);
  assert.equal([...out.matchAll(/<title>/g)].length, 128 * 128);
  assert.doesNotMatch(out, /Only the first/);
  const captioned = await run('render', '--sentence', sentence, '--view', 'bars');
  assert.match(captioned.out, /Only the first 128 tokens of the sentence are used\./);
  assert.equal([...captioned.out.matchAll(/<g data-key=/g)].length, 128);
});

test('--transparent: the same SVG without the background behind it, for a slide; --theme dark keeps dark text colours', async () => {
  const plain = await run('render', '--view', 'bars', '--theme', 'dark');
  const clear = await run('render', '--view', 'bars', '--theme', 'dark', '--transparent');
  assert.equal(clear.status, EXIT_OK);
  // web/views/theme.js's PALETTE: dark bg #12151a, dark text #e7eaee
  const background = /^<svg [^>]*>\s*<rect width="(\d+)" height="(\d+)" fill="#12151a"\s*\/>/;
  assert.match(plain.out, background);
  assert.doesNotMatch(clear.out, /fill="#12151a"/);
  assert.match(clear.out, /<text [^>]*fill="#e7eaee"/);
  assert.equal(clear.out, plain.out.replace(background.exec(plain.out)[0], plain.out.match(/^<svg [^>]*>\s*/)[0]), 'the rest is the same figure');
});

test('--output writes the file, in the format of its extension; --help names every option; --version is the package’s', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'attention-lab-cli-'));
  try {
    const file = join(dir, 'weights.csv');
    const { status, out } = await run('render', '--sentence', 'a b', '-o', file);
    assert.equal(status, EXIT_OK);
    assert.equal(out, '');
    assert.match(await readFile(file, 'utf8'), /^query,query_token,key,key_token,dot,score,weight/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const help = await run('--help');
  assert.equal(help.status, EXIT_OK);
  for (const option of ['sentence', 'probe', 'projection', 'dk', 'seed', 'no-scale', 'temperature', 'causal', 'positional', 'q FILE', 'k FILE', 'v FILE',
    'view', 'row', 'format', 'theme', 'width', 'no-caption', 'transparent', 'output', 'help', 'version']) {
    assert.match(help.out, new RegExp(`--${option}\\b`), option);
  }
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.equal((await run('--version')).out, `${pkg.version}\n`);
});

// What --help says, in each language: every option with its value, what it does, its range and
// default (the settings table's: 64, 1 to 1024, …), the formats and where PNG comes from, the
// language variables and the examples. The layout may change; these facts may not.
const HELP_FACTS = {
  C: [
    /^Usage: attention-lab render \[options\] > figure\.svg\n/,
    /Draws the attention figure of <attention-lab> for a sentence/, /Nothing is fetched: the word vectors and the core ship with the package\./,
    /--sentence TEXT\s+the tokens' text \(default "The cat sat on the mat because it was tired"\)/,
    /--probe WORD\s+the cross-attention probe word, "" for none \(default "animal"\)/,
    /--projection NAME\s+identity \(q = k = x, GloVe 100-d\), random \(seeded projections to d_k\)\s+or pasted \(your own vectors: --q, --k\) \(default identity\)/,
    /--dk N\s+d_k of the random projection: a whole number from 1 to 1024 \(default 64\)/,
    /--seed N\s+seed of the random projections: a whole number from 0 to 4294967295 \(default 1\)/,
    /--no-scale\s+do not divide q·k by √d_k \(--scale: divide, the default\)/,
    /--temperature T\s+softmax\(scores \/ T\): a number from 0\.01 to 100 \(default 1\)/,
    /--causal\s+query i sees keys j ≤ i only \(--no-causal: the default\)/,
    /--positional\s+add the sinusoidal positional encoding \(--no-positional: the default\)/,
    /--q FILE, --k FILE\s+pasted Q \(n×d\) and K \(m×d\), CSV rows or JSON/, /--v FILE\s+"Bring your own vectors"\); they imply --projection pasted/,
    /--view NAME\s+heatmap, bars \(one query's weights\), probe \(the probe's\), or both \(default\)/,
    /--row TOKEN\|N\s+the query the bars show: .*\s+or a position from 1 \(default: 2, as on the page\)/,
    /--format NAME\s+svg, csv, json or png \(default: from --output's extension, else svg\)/,
    /--theme NAME\s+light or dark \(default light\)/,
    /--width PX\s+room for the figure, 200 to 10000 \(default 640\)/,
    /--no-caption\s+leave out the caption/, /-o, --output FILE\s+write there instead of to standard output/,
    /-h, --help\s+this text/, /--version\s+the package's version/,
    /LC_ALL, LC_MESSAGES or LANG \(nb_NO\.UTF-8: bokmål\)/,
    /PNG: the SVG drawn by resvg .*\n\s+fonts \(Debian: fonts-dejavu-core\), 2 pixels per px unless --png-scale says/, /--png-scale N\s+pixels of a PNG per px, 0\.5 to 8 \(default 2\)/,
    /Examples:\n  attention-lab render --sentence "the cat sat on the mat" --dk 64 --projection random --no-scale > cat\.svg\n/,
  ],
  'nb_NO.UTF-8': [
    /^Bruk: attention-lab render \[valg\] > figur\.svg\n/,
    /Tegner oppmerksomhetsfiguren til <attention-lab> for en setning/,
    /--sentence TEKST\s+teksten til tokenene \(standard «The cat sat on the mat because it was tired»\)/,
    /--probe ORD\s+sondeordet for kryssoppmerksomhet, "" for ingen \(standard «animal»\)/,
    /--projection NAVN\s+identity .*\s+frøet\) eller pasted \(dine egne vektorer: --q, --k\) \(standard identity\)/,
    /--dk N\s+d_k for den tilfeldige projeksjonen: et heltall fra 1 til 1024 \(standard 64\)/,
    /--seed N\s+frøet til de tilfeldige projeksjonene: et heltall fra 0 til 4294967295 \(standard 1\)/,
    /--no-scale\s+ikke del q·k på √d_k/, /--temperature T\s+softmax\(skårer \/ T\): et tall fra 0,01 til 100 \(standard 1\)/,
    /--causal\s+spørring i ser bare nøkler j ≤ i/, /--positional\s+legg til den sinusformede posisjonskodingen/,
    /--q FIL, --k FIL\s+innlimte Q/, /--v FIL\s+«Bruk dine egne vektorer»\); de gir --projection pasted/,
    /--view NAVN\s+heatmap \(varmekartet\)/, /posisjon fra 1 \(standard: 2, som på siden\)/,
    /--format NAVN\s+svg, csv, json eller png/, /--theme NAVN\s+light eller dark \(standard light\)/,
    /--width PX\s+plass til figuren, 200 til 10000 \(standard 640\)/, /--no-caption\s+utelat bildeteksten/,
    /-o, --output FIL\s+skriv dit/, /-h, --help\s+denne teksten/, /--version\s+versjonen til pakken/,
    /LC_ALL, LC_MESSAGES eller LANG \(nb_NO\.UTF-8: bokmål\)/, /PNG: SVG-en tegnet av resvg/,
    /Eksempler:\n  attention-lab render --sentence/, /> vekter\.csv\n$/,
  ],
};

test('--help says every option, its value, range and default, the formats, the language and examples, in English and bokmål', async () => {
  for (const [LANG, facts] of Object.entries(HELP_FACTS)) {
    let out = '';
    const status = await main(['--help'], { stdout: { write: (text) => (out += text) }, stderr: { write: () => {} }, env: { LANG } });
    assert.equal(status, EXIT_OK);
    for (const fact of facts) assert.match(out, fact, LANG);
    assert.ok(!/\{[a-zA-Z]+\}/.test(out), `${LANG}: no placeholder left unfilled`);
  }
});

test('every wrong command, option or value: exit 2, nothing on stdout, a message naming it and what was expected', async () => {
  const cases = [
    [[], /expected a command: attention-lab render/],
    [['draw'], /unknown command "draw": expected "render", "model" or "scorm"/],
    [['render', 'now'], /unknown command "render now"/],
    [['render', '--sentense', 'x'], /unknown option --sentense \(did you mean --sentence\?\)/],
    [['render', '--dk'], /--dk needs a value/],
    [['render', '--temperature', '-1'], /--temperature needs a value \(a value starting with "-" is written --temperature=-…\)/],
    [['render', '--temperature=-1'], /--temperature "-1" is not valid: it must be a number from 0.01 to 100/],
    [['render', '--dk', '0'], /--dk "0" is not valid: it must be a whole number from 1 to 1024/],
    [['render', '--dk', 'sixty-four'], /--dk "sixty-four" .*whole number/],
    [['render', '--seed', '1.5'], /--seed "1.5" .*whole number from 0 to 4294967295/],
    [['render', '--projection', 'learned'], /--projection "learned" .*one of identity, random, pasted/],
    [['render', '--projection', 'pasted'], /--projection pasted needs --q FILE and --k FILE/],
    [['render', '--projection', 'random', '--q', 'q.csv', '--k', 'k.csv'], /--q, --k and --v are pasted vectors: they do not go with --projection random/],
    [['render', '--q', 'q.csv'], /needs --q FILE and --k FILE/],
    [['render', '--scale', '--no-scale'], /--scale and --no-scale contradict each other/],
    [['render', '--causal=yes'], /--causal takes no value/],
    [['render', '--view', 'pie'], /--view "pie" is not valid: it must be one of heatmap, bars, probe, both/],
    [['render', '--format', 'pdf'], /--format "pdf" .*one of svg, csv, json, png/],
    [['render', '--format', 'svg', '-o', 'figure.png'], /--format svg does not match --output figure\.png/],
    [['render', '--png-scale', '2'], /--png-scale sets the pixels of a PNG/],
    [['render', '--format', 'csv', '-o', 'figure.svg'], /--format csv does not match --output figure.svg/],
    [['render', '--theme', 'blue'], /--theme "blue" .*one of light, dark/],
    [['render', '--width', '50'], /--width "50" is not valid: it must be a whole number of px from 200 to 10000/],
    [['render', '--row', 'dog'], /--row "dog" is neither a query's token nor a position from 1 to 10; the queries are: the cat sat/],
    [['render', '--row', '11'], /--row "11"/],
    [['render', '--sentence', ' '], /--sentence " " is not valid: it must be text with at least one word or punctuation mark/],
    [['render', '--sentence', '\u200b'], /--sentence "\u200b" is not valid: it must be text with at least one word/],
    [['render', '--probe', '', '--view', 'probe'], /view "probe" needs a probe word/],
  ];
  for (const [args, message] of cases) {
    const { status, out, err } = await run(...args);
    assert.equal(status, EXIT_USAGE, `${args.join(' ')}: ${err}`);
    assert.equal(out, '', args.join(' '));
    assert.match(err, message, args.join(' '));
    assert.match(err, /^attention-lab: .*\nRun "attention-lab --help" for the options\.\n$/);
  }
});

test('pasted vectors from files; a bad file names the option and the file, and a missing one exits 1', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'attention-lab-cli-'));
  try {
    const [q, k, bad] = ['q.csv', 'k.json', 'bad.csv'].map((name) => join(dir, name));
    await writeFile(q, 'a, 1, 0\nb, 0, 1\n');
    await writeFile(k, '[[1, 0], [0, 1], [1, 1]]');
    await writeFile(bad, '1, 2\n3\n');
    const { status, out } = await run('render', '--q', q, '--k', k, '--format', 'json', '--view', 'heatmap');
    assert.equal(status, EXIT_OK);
    const data = JSON.parse(out);
    assert.deepEqual([data.n, data.m, data.d, data.keys], [2, 3, 2, ['k1', 'k2', 'k3']]);
    assert.equal(Math.fround(data.rows[0].dots[2]), 1);
    const wrong = await run('render', '--q', bad, '--k', k);
    assert.equal(wrong.status, EXIT_USAGE);
    assert.match(wrong.err, new RegExp(`--q ${bad.replace(/[.\\/]/g, '\\$&')}: Q row 2 has 1 number, but row 1 has 2`));
    const missing = await run('render', '--q', join(dir, 'nope.csv'), '--k', k);
    assert.equal(missing.status, EXIT_FAILURE);
    assert.match(missing.err, /cannot read --q .*nope\.csv: no such file or folder/);
    const unwritable = await run('render', '-o', join(dir, 'no', 'such', 'dir.svg'));
    assert.equal(unwritable.status, EXIT_FAILURE);
    assert.match(unwritable.err, /cannot write .*dir\.svg: no such file or folder/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the executable: exit status and streams of a real process', async () => {
  const node = promisify(execFile);
  const { stdout, stderr } = await node(process.execPath, [BIN, 'render', '--sentence', 'the cat', '--view', 'bars', '--format', 'csv']);
  assert.equal(stderr, '');
  assert.equal(parseCsv(stdout).length, 2);
  await assert.rejects(node(process.execPath, [BIN, 'render', '--dk', '0'], { env: { ...process.env, LC_ALL: 'C' } }), (error) => {
    assert.equal(error.code, EXIT_USAGE);
    assert.equal(error.stdout, '');
    assert.match(error.stderr, /--dk "0" is not valid/);
    return true;
  });
});
