// The command line: `attention-lab render …` draws the lab's figure for a sentence as the page
// does — the same settings table, pipeline, engine and views (web/api/lab.js) — as SVG, or its
// numbers as CSV or JSON. main() takes the arguments and the output streams and returns the exit
// status, so tests run it in-process; bin/attention-lab.js is the executable.
//
// Exit status: 0 done; 2 a wrong command, option or value (the message names it and says what
// was expected); 1 anything else (a file that cannot be read or written, a failure of the core).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';

import { createEngine } from '../web/core/engine.js';
import { FIGURE_FORMATS, FIGURE_VIEWS, SETTINGS, THEMES, labState, loadVocab, renderFigure } from '../web/api/lab.js';
import { FORMATS, formatOfExtension } from '../web/views/export.js';
import { DEFAULT_LANGUAGE, english, loadStrings, matchLanguage, messageOf } from '../web/i18n/i18n.js';
import { readSetting } from '../web/lab/settings.js';
import { FileError, describeFileError, inputNamedBy, readBounded, writeAtomic, writeStream } from './io.js';
import { modelCommand } from './model.js';
import { scormCommand } from './scorm.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const NAME = 'attention-lab';
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
  'no-caption': { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
};

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
    { option: 'no-caption', words: 'cli.optionCaption' },
    { option: 'output', value: 'cli.valueFile', words: 'cli.optionOutput' },
    { option: 'help', words: 'cli.optionHelp' },
    { option: 'version', words: 'cli.optionVersion' },
  ]],
];
const HELP_COLUMN = 24; // where an option's words start
// An option without its line in the help fails at once (and with it every test of the CLI).
const HELPED = new Set(HELP.flatMap(([, rows]) => rows.flatMap((row) => (row.switch ? [row.switch, `no-${row.switch}`] : [row.option].flat(2)))));
for (const name of Object.keys(OPTIONS)) if (!HELPED.has(name)) throw new Error(`bin/cli.js: --${name} has no line in HELP`);

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
    formats: or(FIGURE_FORMATS),
    themes: or(Object.keys(THEMES)),
    min: '200',
    max: '10000',
    width: String(DEFAULT_WIDTH),
  };
  const helpRow = (row) => {
    const value = row.value ? ` ${row.value.includes('.') ? t(row.value) : row.value}` : '';
    const flag = (name) => `${OPTIONS[name].short ? `-${OPTIONS[name].short}, ` : ''}--${name}`;
    const names = row.switch
      ? [`--${SETTINGS[SWITCHES[row.switch]].default ? 'no-' : ''}${row.switch}`]
      : (Array.isArray(row.option) ? row.option : [[row.option]]).map((line) => line.map((name) => `${flag(name)}${value}`).join(', '));
    let words = t(row.words, params);
    if (row.range) words += `: ${expected(row.setting)}`;
    const fallback = row.setting ? SETTINGS[row.setting].default : row.default;
    if (fallback !== undefined) words += ` ${t(row.quoted ? 'cli.defaultQuoted' : 'cli.default', { value: String(fallback) })}`;
    const lines = words.split('\n');
    return Array.from({ length: Math.max(names.length, lines.length) }, (_, i) => {
      const name = names[i] ?? '';
      return `  ${name.padEnd(HELP_COLUMN - 4)}  ${lines[i] ?? ''}`.trimEnd();
    }).join('\n');
  };
  return {
    help: () =>
      [
        t('cli.helpUsage', { name: NAME }),
        t('cli.helpIntro', { element: '<attention-lab>' }),
        ...HELP.map(([heading, rows]) => [t(heading), ...rows.map(helpRow)].join('\n')),
        t('cli.helpLanguage'),
        t('cli.helpPng'),
        t('cli.helpExamples', { name: NAME }),
      ].join('\n\n') + '\n',
    usage: t('cli.usage', { name: NAME }),
    noCommand: t('cli.noCommand', { name: NAME }),
    unknownCommand: (command) => t('cli.unknownCommand', { command: JSON.stringify(command) }),
    unknownOption: (option, near) => (near ? t('cli.unknownOptionNear', { option, near }) : t('cli.unknownOption', { option })),
    missingValue: (option) => t('cli.missingValue', { option }),
    ambiguousValue: (option) => t('cli.ambiguousValue', { option }),
    noValue: (option) => t('cli.noValue', { option }),
    invalid: (option, value, must) => t('cli.invalid', { option, value: JSON.stringify(value), must }),
    mustBe: (describe) => t('settings.mustBe', { expected: describe }),
    expectedOneOf: (values) => t('settings.mustBe', { expected: { key: 'settings.oneOf', params: { values: values.join(', ') } } }),
    width: t('settings.mustBe', { expected: { key: 'cli.widthRange', params: { min: '200', max: '10000' } } }),
    bothSwitches: (name) => t('cli.bothSwitches', { name }),
    png: t('cli.png'),
    formatMismatch: (format, file) => t('cli.formatMismatch', { format, file }),
    pastedNeedsQK: t('cli.pastedNeedsQK'),
    qkNeedPasted: (projection) => t('cli.qkNeedPasted', { projection }),
    rowNotFound: (row, labels) => t('cli.rowNotFound', { row: JSON.stringify(row), count: String(labels.length), labels: labels.join(' ') }),
    readFailed: (option, file, reason) => t('cli.readFailed', { option, file, reason }),
    writeFailed: (file, reason) => t('cli.writeFailed', { file, reason }),
    inFile: (option, file, message) => t('cli.inFile', { option, file, message }),
    fileError: (error) => describeFileError(error, t),
    outputIsInput: (output, option, file) => t('cli.outputIsInput', { output, option, file }),
    repeated: (option, count, value) => t('cli.repeated', { option, count: String(count), value }),
    stdoutClosed: t('cli.stdoutClosed'),
    stdoutFailed: (reason) => t('cli.stdoutFailed', { reason }),
  };
}

// The language of the environment (see cliText).
function environmentLanguage(env) {
  const tag = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return matchLanguage(tag) ?? DEFAULT_LANGUAGE;
}

let TEXT = cliText(english());

class UsageError extends Error {}

/**
 * Runs the command line with `args` (process.argv.slice(2)); writes the result to `stdout` (or
 * the --output file) and messages to `stderr`, in the language of `env`. Resolves with the exit status.
 * `stdoutClosed`: stdout was closed at the start (bin/io.js stdoutWasClosed); `fs`: the file
 * writer (node:fs/promises; tests pass one that fails).
 */
export async function main(args, { stdout = process.stdout, stderr = process.stderr, env = process.env, stdoutClosed = false, fs } = {}) {
  const strings = await loadStrings(environmentLanguage(env));
  TEXT = cliText(strings);
  if (args[0] === 'scorm') return scormCommand(args.slice(1), { stdout, stderr, strings, name: NAME });
  if (args[0] === 'model') return modelCommand(args.slice(1), { stdout, stderr, strings, name: NAME });
  try {
    const request = parse(args);
    for (const notice of request.notices ?? []) write(stderr, `${NAME}: ${notice}\n`);
    if (request.help) return await output(stdout, TEXT.help(), stdoutClosed);
    if (request.version) return await output(stdout, `${await version()}\n`, stdoutClosed);
    await refuseOutputOverInput(request);
    const text = await render(request, strings);
    if (request.output) {
      await writeAtomic(request.output, text, { fs }).catch((error) => {
        throw new Error(TEXT.writeFailed(request.output, TEXT.fileError(error)));
      });
      return EXIT_OK;
    }
    return await output(stdout, text, stdoutClosed);
  } catch (error) {
    const usage = error instanceof UsageError || error.code === 'ATTN_INVALID_ARGUMENT';
    // an error of the pipeline (a paste, a token) in the language; the engine's own in English
    const message = error.inFile && error.key ? TEXT.inFile(error.inFile.option, error.inFile.file, messageOf(error, strings)) : messageOf(error, strings);
    write(stderr, `${NAME}: ${message}\n${usage ? `${TEXT.usage}\n` : ''}`);
    return usage ? EXIT_USAGE : EXIT_FAILURE;
  }
}

function write(stream, text) {
  stream.write(text);
}

// The result on stdout → the exit status: a reader that stopped early (| head) is no failure and
// no message; a stdout closed from the start (>&-) or failing is one (nothing was delivered).
async function output(stdout, text, closed) {
  if (closed) throw new Error(TEXT.stdoutFailed(TEXT.stdoutClosed));
  await writeStream(stdout, text).catch((error) => {
    throw new Error(TEXT.stdoutFailed(TEXT.fileError(error)));
  });
  return EXIT_OK;
}

// An --output that names one of the input files would replace it with the result.
async function refuseOutputOverInput(request) {
  if (!request.output || !request.files) return;
  const named = await inputNamedBy(request.output, { '--q': request.files.q, '--k': request.files.k, '--v': request.files.v });
  if (named) throw new UsageError(TEXT.outputIsInput(request.output, ...named));
}

async function version() {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
  return pkg.version;
}

// ---- arguments → a request: every option checked, nothing computed yet -------------------

function parse(args) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(parseArgsMessage(error));
  }
  const { positionals } = parsed;
  const { values, notices } = firstValues(parsed.tokens);
  if (values.help) return { help: true, notices };
  if (values.version) return { version: true, notices };
  if (positionals.length === 0) throw new UsageError(TEXT.noCommand);
  if (positionals[0] !== 'render') throw new UsageError(TEXT.unknownCommand(positionals[0]));
  if (positionals.length > 1) throw new UsageError(TEXT.unknownCommand(positionals.slice(0, 2).join(' ')));

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
  const byExtension = values.output ? formatOfExtension(extname(values.output)) : undefined;
  const format = values.format === undefined ? (byExtension ?? 'svg') : choice('--format', values.format, Object.keys(FORMATS));
  if (values.format !== undefined && byExtension && byExtension !== format) throw new UsageError(TEXT.formatMismatch(format, values.output));
  if (FORMATS[format].browserOnly) throw new UsageError(TEXT.png);
  let width = DEFAULT_WIDTH;
  if (values.width !== undefined) {
    width = /^\s*\d+\s*$/.test(values.width) ? Number(values.width) : NaN;
    if (!(width >= 200 && width <= 10000)) throw new UsageError(TEXT.invalid('--width', values.width, TEXT.width));
  }
  return {
    settings,
    files: pasted ? { q: values.q, k: values.k, v: values.v } : null,
    row: values.row,
    view,
    format,
    theme,
    width,
    caption: !values['no-caption'],
    output: values.output,
    notices,
  };
}

// An option given more than once takes its first value, with a notice — as a repeated URL
// parameter does (web/lab/url.js), so a command and a link read the same way.
function firstValues(tokens) {
  const values = {};
  const counts = {};
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    counts[token.name] = (counts[token.name] ?? 0) + 1;
    if (counts[token.name] === 1) values[token.name] = token.value ?? true;
  }
  const notices = Object.entries(counts)
    .filter(([name, count]) => count > 1 && typeof values[name] === 'string') // a repeated switch says the same
    .map(([name, count]) => TEXT.repeated(`--${name}`, count, values[name]));
  return { values, notices };
}

function choice(option, value, values) {
  if (!values.includes(value)) throw new UsageError(TEXT.invalid(option, value, TEXT.expectedOneOf(values)));
  return value;
}

// parseArgs' messages name options in its own words; ours say what to do.
function parseArgsMessage(error) {
  // "Option '-h, --help' does not take…": the long name, as the reader wrote it
  const option = /'(?:-\w, )?(-[^' ]+)/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return TEXT.unknownOption(option, nearestOption(option));
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(error.message)) return TEXT.noValue(option);
      if (/ambiguous/.test(error.message)) return TEXT.ambiguousValue(option);
      return TEXT.missingValue(option);
    default:
      return error.message;
  }
}

// The option a mistyped one most likely meant: at most two edits away (or null).
function nearestOption(option) {
  const typed = option.replace(/^-+/, '').replace(/=.*/, '');
  let best = null;
  let bestDistance = 3;
  for (const name of Object.keys(OPTIONS)) {
    const distance = editDistance(typed, name);
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}

function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
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
  return renderFigure(state, { view: request.view, format: request.format, theme: request.theme, width: request.width, caption: request.caption, strings });
}

// --row: a query's token (its first occurrence), else its position from 1.
function rowIndex(row, labels) {
  const token = labels.indexOf(row.trim().toLowerCase());
  if (token >= 0) return token;
  const position = /^\s*\d+\s*$/.test(row) ? Number(row) : NaN;
  if (position >= 1 && position <= labels.length) return position - 1;
  throw new UsageError(TEXT.rowNotFound(row, labels));
}
