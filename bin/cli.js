// The command line: `attention-lab render …` draws the lab's figure for a sentence as the page
// does — the same settings table, pipeline, engine and views (web/api/lab.js) — as SVG, or its
// numbers as CSV or JSON. main() takes the arguments and the output streams and returns the exit
// status, so tests run it in-process; bin/attention-lab.js is the executable.
//
// Exit status: 0 done; 2 a wrong command, option or value (the message names it and says what
// was expected); 1 anything else (a file that cannot be read or written, a failure of the core).
import { readFile } from 'node:fs/promises';

import { createEngine } from '../web/core/engine.js';
import { FIGURE_VIEWS, SETTINGS, THEMES, labState, loadVocab, renderFigure } from '../web/api/lab.js';
import { FORMATS } from '../web/views/export.js';
import { DEFAULT_LANGUAGE, english, loadStrings, matchLanguage, messageOf } from '../web/i18n/i18n.js';
import { readSetting } from '../web/lab/settings.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, deliver, formatFor, helpText, notify, parseOptions, positionFrom } from './command.js';
import { FileError, describeFileError, inputNamedBy, readBounded } from './io.js';
import { attentionCsv, modelCommand } from './model.js';
import { attentionFromBertViz } from '../web/api/model.js';
import { toMarkup } from '../web/views/h.js';
import { suppliedFigure } from '../web/views/model.js';
import { DEFAULT_PNG_SCALE, PNG_SCALES, svgToPng } from './png.js';
import { scormCommand } from './scorm.js';

export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE };

const NAME = 'attention-lab';
// The formats the command line writes: every export format (PNG: the SVG rasterised by resvg, bin/png.js).
const CLI_FORMATS = Object.keys(FORMATS);
const DEFAULT_WIDTH = 640;

// The settings the options set, each read from text by the settings table's rule.
const SETTING_OPTIONS = ['sentence', 'probe', 'projection', 'dk', 'seed', 'temperature'];
// Boolean settings: --name sets true, --no-name false.
const SWITCHES = { scale: 'scaled', causal: 'causal', positional: 'positional' };

const OPTIONS = {
  ...Object.fromEntries(SETTING_OPTIONS.map((key) => [key, { type: 'string' }])),
  ...Object.fromEntries(Object.keys(SWITCHES).flatMap((name) => [[name, { type: 'boolean' }], [`no-${name}`, { type: 'boolean' }]])),
  q: { type: 'string' },
  k: { type: 'string' },
  v: { type: 'string' },
  row: { type: 'string' },
  view: { type: 'string' },
  format: { type: 'string' },
  theme: { type: 'string' },
  width: { type: 'string' },
  'png-scale': { type: 'string' },
  'no-caption': { type: 'boolean' },
  transparent: { type: 'boolean' },
  attention: { type: 'string' },
  tokens: { type: 'string' },
  layer: { type: 'string' },
  head: { type: 'string' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
};
// Options that set the lab's computation or its drawing of a query: they do not apply to attention
// read from a file (--attention), which is drawn as given.
const LAB_ONLY = [...SETTING_OPTIONS, ...Object.keys(SWITCHES).flatMap((name) => [name, `no-${name}`]), 'q', 'k', 'v', 'row', 'view', 'no-caption', 'transparent'];
// The most bytes of an --attention file: 12 layers × 12 heads at n = 128 is ~50 MB of JSON.
const MAX_ATTENTION_BYTES = 1 << 28;

// The help, in the order a reader looks for the options: each row an option of OPTIONS (or a
// switch of SWITCHES, shown on the side that is not the default; or lines of options), the name
// of its value (a key of the string tables, or as written) and its words (cli.option…); a
// setting's range and default are the settings table's. Every option of OPTIONS has a row.
const HELP = [
  ['cli.helpCompute', [
    { option: 'sentence', value: 'cli.valueText', words: 'cli.optionSentence', setting: 'sentence', quoted: true },
    { option: 'probe', value: 'cli.valueWord', words: 'cli.optionProbe', setting: 'probe', quoted: true },
    { option: 'projection', value: 'cli.valueName', words: 'cli.optionProjection', setting: 'projection' },
    { option: 'dk', value: 'N', words: 'cli.optionDk', setting: 'dk', range: true },
    { option: 'seed', value: 'N', words: 'cli.optionSeed', setting: 'seed', range: true },
    { switch: 'scale', words: 'cli.optionScale' },
    { option: 'temperature', value: 'T', words: 'cli.optionTemperature', setting: 'temperature', range: true },
    { switch: 'causal', words: 'cli.optionCausal' },
    { switch: 'positional', words: 'cli.optionPositional' },
    { option: [['q', 'k'], ['v']], value: 'cli.valueFile', words: 'cli.optionPasted' },
  ]],
  ['cli.helpDraw', [
    { option: 'view', value: 'cli.valueName', words: 'cli.optionView' },
    { option: 'row', value: 'TOKEN|N', words: 'cli.optionRow' },
    { option: 'format', value: 'cli.valueName', words: 'cli.optionFormat' },
    { option: 'theme', value: 'cli.valueName', words: 'cli.optionTheme', default: 'light' },
    { option: 'width', value: 'PX', words: 'cli.optionWidth' },
    { option: 'png-scale', value: 'N', words: 'cli.optionPngScale' },
    { option: 'no-caption', words: 'cli.optionCaption' },
    { option: 'transparent', words: 'cli.optionTransparent' },
    { option: 'output', value: 'cli.valueFile', words: 'cli.optionOutput' },
    { option: 'help', words: 'cli.optionHelp' },
    { option: 'version', words: 'cli.optionVersion' },
  ]],
  ['cli.helpAttention', [
    { option: 'attention', value: 'cli.valueFile', words: 'cli.optionAttention' },
    { option: 'tokens', value: 'cli.valueFile', words: 'cli.optionTokens' },
    { names: ['--layer L --head H'], covers: ['layer', 'head'], words: 'cli.optionLayerHead' },
  ]],
];
// Every text the command line writes, from the string tables (cli.*, web/i18n/) in the language
// of the environment (LC_ALL, else LC_MESSAGES, else LANG: nb_NO.UTF-8 speaks bokmål; C,
// POSIX or a language without a table, English).
function cliText(strings) {
  const t = strings.t;
  // what a setting must be, in words, from the settings table
  const expected = (key) => t(SETTINGS[key].type.describe.key, SETTINGS[key].type.describe.params);
  const or = (values) => t('cli.or', { list: values.slice(0, -1).join(', '), last: values.at(-1) });
  // what a row's words may name
  const params = {
    row: String(SETTINGS.selected.default + 1),
    formats: or(CLI_FORMATS),
    scale: String(DEFAULT_PNG_SCALE),
    scaleMin: String(PNG_SCALES.min),
    scaleMax: String(PNG_SCALES.max),
    themes: or(Object.keys(THEMES)),
    min: '200',
    max: '10000',
    width: String(DEFAULT_WIDTH),
  };
  // a row of HELP as bin/command.js's helpText reads it: a switch named on the side that is
  // not the default, a setting's range and default from the settings table
  const helpRow = (row) => {
    let more = row.range ? `: ${expected(row.setting)}` : '';
    const fallback = row.setting ? SETTINGS[row.setting].default : row.default;
    if (fallback !== undefined) more += ` ${t(row.quoted ? 'cli.defaultQuoted' : 'cli.default', { value: String(fallback) })}`;
    if (!row.switch) return { ...row, more };
    return { ...row, more, names: [`--${SETTINGS[SWITCHES[row.switch]].default ? 'no-' : ''}${row.switch}`], covers: [row.switch, `no-${row.switch}`] };
  };
  return {
    help: (limits) =>
      helpText({
        top: [t('cli.helpUsage', { name: NAME }), t('cli.helpIntro', { element: '<attention-lab>' })],
        sections: HELP.map(([heading, rows]) => [heading, rows.map(helpRow)]),
        bottom: [t('cli.helpLanguage'), t('cli.helpPng', params), t('cli.helpExamples', { name: NAME })],
      }, OPTIONS, t, { ...params, tolerance: String(limits.supplied.rowSumTolerance) }),
    usage: t('cli.usage', { name: NAME }),
    noCommand: t('cli.noCommand', { name: NAME }),
    unknownCommand: (command) => t('cli.unknownCommand', { command: JSON.stringify(command) }),
    invalid: (option, value, must) => t('cli.invalid', { option, value: JSON.stringify(value), must }),
    mustBe: (describe) => t('settings.mustBe', { expected: describe }),
    expectedOneOf: (values) => t('settings.mustBe', { expected: { key: 'settings.oneOf', params: { values: values.join(', ') } } }),
    width: t('settings.mustBe', { expected: { key: 'cli.widthRange', params: { min: '200', max: '10000' } } }),
    bothSwitches: (name) => t('cli.bothSwitches', { name }),
    scaleRange: t('settings.mustBe', { expected: { key: 'settings.number', params: { min: String(PNG_SCALES.min), max: String(PNG_SCALES.max) } } }),
    formatMismatch: (format, file) => t('cli.formatMismatch', { format, file }),
    pastedNeedsQK: t('cli.pastedNeedsQK'),
    pngScaleNeedsPng: t('cli.pngScaleNeedsPng'),
    qkNeedPasted: (projection) => t('cli.qkNeedPasted', { projection }),
    rowNotFound: (row, labels) => t('cli.rowNotFound', { row: JSON.stringify(row), count: String(labels.length), labels: labels.join(' ') }),
    readFailed: (option, file, reason) => t('cli.readFailed', { option, file, reason }),
    inFile: (option, file, message) => t('cli.inFile', { option, file, message }),
    fileError: (error) => describeFileError(error, t),
    outputIsInput: (output, option, file) => t('cli.outputIsInput', { output, option, file }),
    notWithAttention: (option) => t('cli.notWithAttention', { option }),
    layerHeadNeedAttention: t('cli.layerHeadNeedAttention'),
    countRange: (most) => t('settings.mustBe', { expected: { key: 'modelCli.countRange', params: { most } } }),
  };
}

// The language of the environment (see cliText).
function environmentLanguage(env) {
  const tag = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return matchLanguage(tag) ?? DEFAULT_LANGUAGE;
}

let TEXT = cliText(english());

/**
 * Runs the command line with `args` (process.argv.slice(2)); writes the result to `stdout` (or
 * the --output file) and messages to `stderr`, in the language of `env`. Resolves with the exit status.
 * `stdoutClosed`: stdout was closed at the start (bin/io.js stdoutWasClosed); `fs`: the file
 * writer (node:fs/promises; tests pass one that fails).
 */
/** The string tables in the language of `env` (see cliText). */
export function environmentStrings(env) {
  return loadStrings(environmentLanguage(env));
}

export async function main(args, { stdout = process.stdout, stderr = process.stderr, env = process.env, stdoutClosed = false, fs } = {}) {
  const strings = await environmentStrings(env);
  TEXT = cliText(strings);
  const streams = { stdout, stderr, stdoutClosed, fs, strings, name: NAME };
  if (args[0] === 'scorm') return scormCommand(args.slice(1), streams);
  if (args[0] === 'model') return modelCommand(args.slice(1), streams);
  const t = strings.t;
  try {
    const request = parse(args, t);
    notify(stderr, NAME, request.notices);
    if (request.help) return await deliver(TEXT.help((await createEngine()).limits), { stdout, stdoutClosed, t });
    if (request.version) return await deliver(`${await version()}\n`, { stdout, stdoutClosed, t });
    await refuseOutputOverInput(request);
    const text = request.attention ? await renderSupplied(request, strings) : await render(request, strings);
    return await deliver(text, { output: request.output, stdout, stdoutClosed, fs, t });
  } catch (error) {
    const usage = error instanceof UsageError || error.code === 'ATTN_INVALID_ARGUMENT';
    // an error of the pipeline (a paste, a token) in the language; the engine's own in English
    const message = error.inFile && error.key ? TEXT.inFile(error.inFile.option, error.inFile.file, messageOf(error, strings)) : messageOf(error, strings);
    stderr.write(`${NAME}: ${message}\n${usage ? `${TEXT.usage}\n` : ''}`);
    return usage ? EXIT_USAGE : EXIT_FAILURE;
  }
}

// An --output that names one of the input files would replace it with the result.
async function refuseOutputOverInput(request) {
  if (!request.output || !(request.files || request.attention)) return;
  const inputs = request.attention ? { '--attention': request.attention.file, '--tokens': request.attention.tokens } : { '--q': request.files.q, '--k': request.files.k, '--v': request.files.v };
  const named = await inputNamedBy(request.output, inputs);
  if (named) throw new UsageError(TEXT.outputIsInput(request.output, ...named));
}

async function version() {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
  return pkg.version;
}

// ---- arguments → a request: every option checked, nothing computed yet -------------------

function parse(args, t) {
  const { values, positionals, notices } = parseOptions(args, OPTIONS, t, { allowPositionals: true });
  if (values.help) return { help: true, notices };
  if (values.version) return { version: true, notices };
  if (positionals.length === 0) throw new UsageError(TEXT.noCommand);
  if (positionals[0] !== 'render') throw new UsageError(TEXT.unknownCommand(positionals[0]));
  if (positionals.length > 1) throw new UsageError(TEXT.unknownCommand(positionals.slice(0, 2).join(' ')));

  const attention = attentionRequest(values);
  const settings = {};
  for (const key of SETTING_OPTIONS) {
    if (values[key] === undefined) continue;
    const read = readSetting(key, values[key]);
    if (read.error) throw new UsageError(TEXT.invalid(`--${key}`, values[key], read.expected ? TEXT.mustBe(read.expected) : read.error));
    settings[key] = read.value;
  }
  for (const [name, key] of Object.entries(SWITCHES)) {
    if (values[name] && values[`no-${name}`]) throw new UsageError(TEXT.bothSwitches(name));
    if (values[name]) settings[key] = true;
    if (values[`no-${name}`]) settings[key] = false;
  }

  const pasted = ['q', 'k', 'v'].some((name) => values[name] !== undefined);
  if (pasted && settings.projection && settings.projection !== 'pasted') throw new UsageError(TEXT.qkNeedPasted(settings.projection));
  if ((pasted || settings.projection === 'pasted') && (values.q === undefined || values.k === undefined)) throw new UsageError(TEXT.pastedNeedsQK);

  const view = choice('--view', values.view ?? 'both', FIGURE_VIEWS);
  const theme = choice('--theme', values.theme ?? 'light', Object.keys(THEMES));
  const format = formatFor(values, CLI_FORMATS, {
    invalid: (value, known) => TEXT.invalid('--format', value, TEXT.expectedOneOf(known)),
    mismatch: TEXT.formatMismatch,
    unsupported: (value) => TEXT.invalid('--format', value, TEXT.expectedOneOf(CLI_FORMATS)),
  });
  const pngScale = readPngScale(values['png-scale'], format);
  let width = DEFAULT_WIDTH;
  if (values.width !== undefined) {
    width = /^\s*\d+\s*$/.test(values.width) ? Number(values.width) : NaN;
    if (!(width >= 200 && width <= 10000)) throw new UsageError(TEXT.invalid('--width', values.width, TEXT.width));
  }
  return {
    settings,
    attention,
    files: pasted ? { q: values.q, k: values.k, v: values.v } : null,
    row: values.row,
    view,
    format,
    theme,
    width,
    caption: !values['no-caption'],
    background: !values.transparent,
    output: values.output,
    pngScale,
    notices,
  };
}

// --png-scale N: pixels of a PNG per CSS px, a number in PNG_SCALES; only with --format png.
function readPngScale(text, format) {
  if (text === undefined) return DEFAULT_PNG_SCALE;
  if (format !== 'png') throw new UsageError(TEXT.pngScaleNeedsPng);
  const value = /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : NaN;
  if (!(value >= PNG_SCALES.min && value <= PNG_SCALES.max)) throw new UsageError(TEXT.invalid('--png-scale', text, TEXT.scaleRange));
  return value;
}

// --attention FILE [--tokens FILE] [--layer L --head H]: which head of which file (the layer and
// head are checked once the file says how many there are), or null; no option of the lab's beside it.
function attentionRequest(values) {
  if (values.attention === undefined) {
    if (['layer', 'head', 'tokens'].some((name) => values[name] !== undefined)) throw new UsageError(TEXT.layerHeadNeedAttention);
    return null;
  }
  const given = LAB_ONLY.find((name) => values[name] !== undefined);
  if (given) throw new UsageError(TEXT.notWithAttention(`--${given}`));
  return { file: values.attention, tokens: values.tokens, layer: values.layer ?? '1', head: values.head ?? '1' };
}

function choice(option, value, values) {
  if (!values.includes(value)) throw new UsageError(TEXT.invalid(option, value, TEXT.expectedOneOf(values)));
  return value;
}

// ---- a request → the figure's text ----------------------------------------------------------

async function render(request, strings) {
  const settings = { ...request.settings };
  if (request.files) {
    settings.pasted = {};
    for (const [name, file] of Object.entries(request.files)) {
      if (file === undefined) continue;
      settings.pasted[name] = await readBounded(file).catch((error) => {
        const message = TEXT.readFailed(`--${name}`, file, TEXT.fileError(error));
        throw error instanceof FileError && error.code === 'TOO_LARGE' ? new UsageError(message) : new Error(message);
      });
    }
  }
  const [engine, vocab] = await Promise.all([createEngine(), loadVocab()]);
  let state;
  try {
    state = labState(settings, { engine, vocab });
  } catch (error) {
    // a paste error names its matrix (Q, K, V): say which file that is
    const option = error.name === 'PasteError' && error.matrix ? `--${error.matrix.toLowerCase()}` : null;
    if (option && request.files?.[option.slice(2)]) {
      error.inFile = { option, file: request.files[option.slice(2)] };
      error.message = TEXT.inFile(option, error.inFile.file, error.message);
    }
    throw error;
  }
  if (request.row !== undefined) state = labState({ ...settings, selected: rowIndex(request.row, state.queryLabels) }, { engine, vocab });
  const png = request.format === 'png';
  const text = renderFigure(state, { view: request.view, format: png ? 'svg' : request.format, theme: request.theme, width: request.width, caption: request.caption, background: request.background, strings });
  return png ? svgToPng(text, { scale: request.pngScale }) : text;
}

// Attention from another model (--attention): one head as its figure (SVG), its n×n rows under
// the tokens (CSV), or those rows with what the file holds (JSON: the input's numbers, as float32).
async function renderSupplied(request, strings) {
  const { file, tokens: tokensFile } = request.attention;
  const read = (option, path, bytes) => readBounded(path, MAX_ATTENTION_BYTES, { bytes }).catch((error) => {
    const message = TEXT.readFailed(option, path, TEXT.fileError(error));
    throw error instanceof FileError && error.code === 'TOO_LARGE' ? new UsageError(message) : new Error(message);
  });
  const bytes = await read('--attention', file, true);
  const tokens = tokensFile === undefined ? undefined : (await read('--tokens', tokensFile, false)).replace(/^\uFEFF/, '').replace(/\r?\n$/, '').split(/\r?\n/);
  let supplied;
  try {
    supplied = await attentionFromBertViz(bytes, { tokens });
  } catch (error) {
    // what is wrong with the file: not a usage error (exit 1), said with the file's name
    throw new Error(TEXT.inFile('--attention', file, error.message));
  }
  const layers = supplied.attention.length, heads = supplied.attention[0].length;
  const index = (option, text, most) => {
    const value = positionFrom(text, most);
    if (value === null) throw new UsageError(TEXT.invalid(option, text, TEXT.countRange(most)));
    return { value };
  };
  const layer = index('--layer', request.attention.layer, layers), head = index('--head', request.attention.head, heads);
  if (request.format === 'svg' || request.format === 'png') {
    const svg = `${toMarkup(suppliedFigure(supplied, { layer: layer.value, head: head.value, theme: THEMES[request.theme], width: request.width, strings }))}\n`;
    return request.format === 'png' ? svgToPng(svg, { scale: request.pngScale }) : svg;
  }
  if (request.format === 'csv') return attentionCsv(supplied, layer.value, head.value);
  const n = supplied.tokens.length;
  const w = supplied.attention[layer.value - 1][head.value - 1];
  const measured = supplied.heads[(layer.value - 1) * heads + head.value - 1];
  return `${JSON.stringify({
    source: 'supplied', tokens: supplied.tokens, layers, heads, layer: layer.value, head: head.value,
    causal: supplied.causal, worstRowError: supplied.worstRowError, measured,
    rows: Array.from({ length: n }, (_, i) => Array.from(w.subarray(i * n, (i + 1) * n))),
  }, null, 1)}\n`;
}

// --row: a query's token (its first occurrence), else its position from 1.
function rowIndex(row, labels) {
  const token = labels.indexOf(row.trim().toLowerCase());
  if (token >= 0) return token;
  const position = positionFrom(row, labels.length);
  if (position !== null) return position - 1;
  throw new UsageError(TEXT.rowNotFound(row, labels));
}
