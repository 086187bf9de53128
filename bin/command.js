// What every subcommand of the command line (render in cli.js, model.js, scorm.js) does alike:
// its options read by one parser (a repeated option takes its first value, with a notice, as a
// repeated URL parameter does in web/lab/url.js; parseArgs' messages said in the string tables'
// words), its --help generated from its table of options, and its result delivered to standard
// output or, whole or not at all, to --output (bin/io.js). Exit status: 0 done; 2 a wrong
// command, option or value; 1 anything else.
import { extname } from 'node:path';
import { parseArgs } from 'node:util';

import { FORMATS, formatOfExtension } from '../web/views/export.js';
import { describeFileError, writeAtomic, writeStream } from './io.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A wrong command, option or value: exit status 2 and the command's usage line. */
export class UsageError extends Error {}

/**
 * Reads `args` against `options` (parseArgs' table): { values, positionals, notices } — every
 * option's first value, and a notice (in the words of `t`) for each option given more than once
 * with a value. A malformed option throws a UsageError naming it.
 */
export function parseOptions(args, options, t, { allowPositionals = false } = {}) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(parseArgsMessage(error, options, t));
  }
  const values = {};
  const counts = {};
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    counts[token.name] = (counts[token.name] ?? 0) + 1;
    if (counts[token.name] === 1) values[token.name] = token.value ?? true;
  }
  const notices = Object.entries(counts)
    .filter(([name, count]) => count > 1 && typeof values[name] === 'string') // a repeated switch says the same
    .map(([name, count]) => t('cli.repeated', { option: `--${name}`, count: String(count), value: values[name] }));
  return { values, positionals: parsed.positionals, notices };
}

// parseArgs' messages name options in its own words; ours say what to do.
function parseArgsMessage(error, options, t) {
  // "Option '-h, --help' does not take…": the long name, as the reader wrote it
  const option = /'(?:-\w, )?(-[^' ]+)/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const near = nearestOption(option, options);
      return near ? t('cli.unknownOptionNear', { option, near }) : t('cli.unknownOption', { option });
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(error.message)) return t('cli.noValue', { option });
      if (/ambiguous/.test(error.message)) return t('cli.ambiguousValue', { option });
      return t('cli.missingValue', { option });
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return t('cli.unexpectedWord', { word: JSON.stringify(/'([^']*)'/.exec(error.message)?.[1] ?? '') });
    default:
      return error.message;
  }
}

// The option a mistyped one most likely meant: at most two edits away (or null).
function nearestOption(option, options) {
  const typed = option.replace(/^-+/, '').replace(/=.*/, '');
  let best = null;
  let bestDistance = 3;
  for (const name of Object.keys(options)) {
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

const HELP_COLUMN = 24; // where an option's words start

/**
 * A command's --help from its table: `sections` are [headingKey, rows]; a row names its options
 * (`option`: a name of `options`, or lines of names [[a, b], [c]]; or `names`: the lines as
 * written), the name of its value (`value`: a key of the string tables, or as written) and its
 * words (`words`: a key, with `params`), and `more` text after them (as written). `top` and `bottom` are the
 * texts before and after the sections. Every option of `options` must have a row: a missing one
 * throws at once (and with it every test of the command line).
 */
export function helpText({ top = [], sections, bottom = [] }, options, t, params = {}) {
  const helped = new Set(sections.flatMap(([, rows]) => rows.flatMap((row) => row.covers ?? [row.option].flat(2))));
  for (const name of Object.keys(options)) if (!helped.has(name)) throw new Error(`bin: --${name} has no line in its command's help`);
  const flag = (name) => `${options[name].short ? `-${options[name].short}, ` : ''}--${name}`;
  const row = (r) => {
    const value = r.value ? ` ${r.value.includes('.') ? t(r.value) : r.value}` : '';
    const names = r.names ?? (Array.isArray(r.option) ? r.option : [[r.option]]).map((line) => line.map((name) => `${flag(name)}${value}`).join(', '));
    const words = `${t(r.words, { ...params, ...r.params })}${r.more ?? ''}`;
    const lines = words.split('\n');
    return Array.from({ length: Math.max(names.length, lines.length) }, (_, i) => `  ${(names[i] ?? '').padEnd(HELP_COLUMN - 4)}  ${lines[i] ?? ''}`.trimEnd()).join('\n');
  };
  return [...top, ...sections.map(([heading, rows]) => [t(heading, params), ...rows.map(row)].join('\n')), ...bottom].join('\n\n') + '\n';
}

/**
 * A position counted from 1 (--layer, --head, --row) read from `text` by one rule for every
 * command: digits only (no 0x1, 1e0, 1.0), from 1 to `most`; null if it is not one.
 */
export function positionFrom(text, most) {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  return value >= 1 && value <= most ? value : null;
}

/** `--output -`: the standard output, as for most Unix tools. */
export const STDOUT_NAME = '-';

/**
 * The format of a command's result, by one rule for every command: `--format` if given, else
 * the --output file's extension (figure.csv: csv), else 'svg'. Given both, they must agree; a
 * format (or an output's extension) that is not among `supported` is refused with
 * `unsupported(format)` (a UsageError's words), so a file never holds another format than its
 * name says. An unknown format throws `invalid(value, every format of the export table)`.
 */
export function formatFor({ format, output }, supported, { invalid, mismatch, unsupported }) {
  const byExtension = output && output !== STDOUT_NAME ? formatOfExtension(extname(output)) : undefined;
  if (format !== undefined && !Object.hasOwn(FORMATS, format)) throw new UsageError(invalid(format, Object.keys(FORMATS)));
  if (format !== undefined && byExtension && byExtension !== format) throw new UsageError(mismatch(format, output));
  const chosen = format ?? byExtension ?? 'svg';
  if (!supported.includes(chosen)) throw new UsageError(unsupported(chosen));
  return chosen;
}

/**
 * Delivers a command's result: to `output` (a path) whole or not at all, else (or for "-") to `stdout`.
 * A reader that stopped early (| head) is no failure and no message; a stdout closed from the
 * start (>&-) or failing is one (nothing was delivered). `fs`: the file writer (tests pass one
 * that fails). Resolves with EXIT_OK; throws an Error in the words of `t`.
 */
export async function deliver(text, { output, stdout, stdoutClosed = false, fs, t }) {
  if (output && output !== STDOUT_NAME) {
    await writeAtomic(output, text, { fs }).catch((error) => {
      throw new Error(t('cli.writeFailed', { file: output, reason: describeFileError(error, t) }));
    });
    return EXIT_OK;
  }
  if (stdoutClosed) throw new Error(t('cli.stdoutFailed', { reason: t('cli.stdoutClosed') }));
  await writeStream(stdout, text).catch((error) => {
    throw new Error(t('cli.stdoutFailed', { reason: describeFileError(error, t) }));
  });
  return EXIT_OK;
}

/** Writes a command's notices (repeated options, a truncated sentence) to `stderr`, one a line. */
export function notify(stderr, name, notices) {
  for (const notice of notices) stderr.write(`${name}: ${notice}\n`);
}
