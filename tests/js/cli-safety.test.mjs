// The command line never destroys a file and never crashes on what it is given: an output that
// names an input is refused (by its real path, so a symbolic link or a "./" does not fool it),
// an output is written whole or not at all (a failed write leaves the old file as it was), an
// input is read only up to a bound (a big file, /dev/zero, a deeply nested JSON: exit 2 and a
// message), a reader that stops early (| head) ends it quietly, a closed stdout is an error,
// and a repeated option takes its first value with a notice, as a repeated URL parameter does.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main } from '../../bin/cli.js';
import { MAX_INPUT_BYTES, writeAtomic } from '../../bin/io.js';

const BIN = fileURLToPath(new URL('../../bin/attention-lab.js', import.meta.url));

async function run(args, env = { LANG: 'C' }) {
  let out = '';
  let err = '';
  const status = await main(args, { stdout: { write: (text) => (out += text) }, stderr: { write: (text) => (err += text) }, env });
  return { status, out, err };
}

// The executable in a shell (for pipes and closed descriptors): { status, stdout, stderr }.
function shell(script) {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], { env: { ...process.env, LC_ALL: 'C', BIN, NODE: process.execPath } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function withDir(body) {
  const dir = await mkdtemp(join(tmpdir(), 'attention-lab-safety-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const Q = 'a, 1, 0\nb, 0, 1\n';
const K = '[[1, 0], [0, 1], [1, 1]]';

test('an output that names an input is refused, by its real path, and the input is left as it was', async () => {
  await withDir(async (dir) => {
    const [q, k] = [join(dir, 'q.csv'), join(dir, 'k.csv')];
    await writeFile(q, Q);
    await writeFile(k, K);
    await symlink(q, join(dir, 'link.csv'));
    for (const output of [q, join(dir, '.', 'q.csv'), join(dir, 'link.csv'), k]) {
      const { status, out, err } = await run(['render', '--q', q, '--k', k, '-o', output, '--format', 'csv']);
      assert.equal(status, EXIT_USAGE, `${output}: ${err}`);
      assert.equal(out, '');
      assert.match(err, /--output .* is also an input \(--[qk] .*\): write the result to another file/);
    }
    assert.equal(await readFile(q, 'utf8'), Q);
    assert.equal(await readFile(k, 'utf8'), K);
  });
});

test('a write that fails leaves the old file whole and no temporary file behind', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'figure.svg');
    await writeFile(file, 'the old figure');
    // a writer that fails half way, as a full disk does: it writes part of the text, then ENOSPC
    const failing = {
      async writeFile(path, text) {
        await writeFile(path, text.slice(0, 10));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    };
    let err = '';
    const status = await main(['render', '-o', file], { stdout: { write() {} }, stderr: { write: (text) => (err += text) }, env: { LANG: 'C' }, fs: failing });
    assert.equal(status, EXIT_FAILURE);
    assert.equal(err, `attention-lab: cannot write ${file}: the disk is full\n`);
    assert.equal(await readFile(file, 'utf8'), 'the old figure');
    assert.deepEqual(await readdir(dir), ['figure.svg']);
    await assert.rejects(writeAtomic(file, 'x'.repeat(100), { fs: failing }), { code: 'ENOSPC' });
    assert.equal(await readFile(file, 'utf8'), 'the old figure');
    await writeAtomic(file, 'the new figure');
    assert.equal(await readFile(file, 'utf8'), 'the new figure');
    assert.deepEqual(await readdir(dir), ['figure.svg']);
  });
});

test('a failed write says what went wrong in the project’s words, not ENOSPC or EIO', async () => {
  await withDir(async (dir) => {
    // /dev/full: every write fails with ENOSPC (a character device: written in place, never renamed over)
    const full = await run(['render', '--sentence', 'a b', '--format', 'csv', '-o', '/dev/full']);
    assert.equal(full.status, EXIT_FAILURE);
    assert.match(full.err, /^attention-lab: cannot write \/dev\/full: the disk is full\n$/);
    const nb = await run(['render', '--sentence', 'a b', '--format', 'csv', '-o', '/dev/full'], { LANG: 'nb_NO.UTF-8' });
    assert.match(nb.err, /^attention-lab: kan ikke skrive \/dev\/full: disken er full\n$/);
    assert.ok(!/ENOSPC|EIO/.test(full.err + nb.err));
    assert.deepEqual(await readdir(dir), []);
  });
});

test('inputs are read up to a bound: a big file, /dev/zero and a deeply nested JSON exit 2 with a message', async () => {
  await withDir(async (dir) => {
    const big = join(dir, 'big.csv');
    await writeFile(big, '1\n'.repeat(MAX_INPUT_BYTES / 2 + 1));
    const nested = join(dir, 'nested.json');
    await writeFile(nested, `${'['.repeat(200000)}1${']'.repeat(200000)}`);
    const k = join(dir, 'k.json');
    await writeFile(k, K);
    const tooBig = await run(['render', '--q', big, '--k', k]);
    assert.equal(tooBig.status, EXIT_USAGE, tooBig.err);
    assert.match(tooBig.err, /cannot read --q .*big\.csv: it is larger than 1 MiB, the most a pasted matrix can be/);
    const zero = await run(['render', '--q', '/dev/zero', '--k', k]);
    assert.equal(zero.status, EXIT_USAGE, zero.err);
    assert.match(zero.err, /cannot read --q \/dev\/zero: it is larger than 1 MiB/);
    const deep = await run(['render', '--q', nested, '--k', k]);
    assert.equal(deep.status, EXIT_USAGE, deep.err);
    assert.match(deep.err, /--q .*nested\.json: Q is nested deeper than rows of numbers/);
    assert.ok(!/call stack|Invalid string length/.test(tooBig.err + zero.err + deep.err));
  });
});

test('a reader that stops early ends the command quietly; a closed stdout is an error, not exit 0', async () => {
  const piped = await shell('"$NODE" "$BIN" render --sentence "$(seq -s " " 1 128)" --format csv | head -c 10');
  assert.equal(piped.stdout.length, 10);
  assert.equal(piped.stderr, '', 'no EPIPE stack trace');
  const closed = await shell('"$NODE" "$BIN" render --sentence "a b" --format csv >&-');
  assert.equal(closed.status, EXIT_FAILURE, closed.stderr);
  assert.match(closed.stderr, /^attention-lab: cannot write to the standard output: it is closed\n$/);
  const devnull = await shell('"$NODE" "$BIN" render --sentence "a b" --format csv >/dev/null');
  assert.equal(devnull.status, EXIT_OK, devnull.stderr);
});

test('a repeated option takes its first value with a notice, as a repeated URL parameter does; --help=1 is about --help', async () => {
  const twice = await run(['render', '--dk', '8', '--dk', '16', '--projection', 'random', '--format', 'json', '--view', 'bars']);
  assert.equal(twice.status, EXIT_OK, twice.err);
  assert.equal(JSON.parse(twice.out).settings.dk, 8);
  assert.equal(twice.err, 'attention-lab: --dk is given 2 times: the first, "8", is used\n');
  const help = await run(['--help=1']);
  assert.equal(help.status, EXIT_USAGE);
  assert.match(help.err, /^attention-lab: --help takes no value\n/);
  const nb = await run(['render', '--seed', '1', '--seed', '2', '--format', 'json'], { LANG: 'nb_NO.UTF-8' });
  assert.match(nb.err, /^attention-lab: --seed er gitt 2 ganger: den første, «1», brukes\n$/);
});

test('every subcommand reads its options alike: --help=1, a repeated option, a stray word, a closed stdout, a full disk', async () => {
  for (const command of ['model', 'scorm']) {
    const help = await run([command, '--help=1']);
    assert.equal(help.status, EXIT_USAGE, command);
    assert.match(help.err, /^attention-lab: --help takes no value\n/, command);
    const stray = await run([command, 'extra']);
    assert.equal(stray.status, EXIT_USAGE, command);
    assert.match(stray.err, /^attention-lab: unexpected word "extra"/, command);
    const closed = await shell(`"$NODE" "$BIN" ${command} --help >&-`);
    assert.equal(closed.status, EXIT_FAILURE, `${command}: ${closed.stderr}`);
    assert.match(closed.stderr, /^attention-lab: cannot write to the standard output: it is closed\n$/, command);
  }
  const twice = await run(['model', '--sentence', 'the cat', '--sentence', 'a dog', '--format', 'json']);
  assert.equal(twice.status, EXIT_OK, twice.err);
  assert.deepEqual(JSON.parse(twice.out).tokens, ['the', 'cat']);
  assert.equal(twice.err, 'attention-lab: --sentence is given 2 times: the first, "the cat", is used\n');
  const versions = await run(['scorm', '--version', '2004', '--version', '1.2', '-o', '/dev/full']);
  assert.equal(versions.status, EXIT_FAILURE, versions.err);
  assert.match(versions.err, /^attention-lab: --version is given 2 times: the first, "2004", is used\n/);
  assert.match(versions.err, /cannot write \/dev\/full: the disk is full/);
  assert.doesNotMatch(versions.err, /ENOSPC/);
  const model = await run(['model', '--sentence', 'the cat', '-o', '/dev/full']);
  assert.equal(model.status, EXIT_FAILURE, model.err);
  assert.doesNotMatch(model.err, /ENOSPC/);
});

// RFC 4180 fields of a CSV line (quoted fields may hold commas and "").
const fields = (line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map(([, field]) => (field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field));

test('CSV cells a spreadsheet would run (= + - @ tab CR) are neutralised as OWASP says; numbers stay numbers', async () => {
  await withDir(async (dir) => {
    const [q, k] = [join(dir, 'q.csv'), join(dir, 'k.csv')];
    await writeFile(q, '=1+1, 1, 0\n@SUM(A1), -0.5, 1\n');
    await writeFile(k, '+cmd|x, 1, 0\n-x, 0, 1\nplain, 1, 1\n');
    const { status, out, err } = await run(['render', '--q', q, '--k', k, '--format', 'csv', '--view', 'heatmap']);
    assert.equal(status, EXIT_OK, err);
    const lines = out.trimEnd().split('\r\n').slice(1).map(fields);
    const tokens = new Set(lines.flatMap((cells) => [cells[1], cells[3]]));
    assert.deepEqual([...tokens].sort(), ["'+cmd|x", "'-x", "'=1+1", "'@sum(a1)", 'plain']);
    for (const cells of lines) {
      for (const cell of cells) assert.ok(!/^[=+\-@\t\r]/.test(cell) || /^-?\d/.test(cell) || cell === '-Infinity', `a cell a spreadsheet runs: ${JSON.stringify(cell)}`);
      for (const number of cells.slice(4, 7)) assert.ok(Number.isFinite(Number(number)) || number === '-Infinity', number);
    }
    // a negative number stays a number, unquoted and unprefixed
    assert.ok(lines.some((cells) => /^-\d/.test(cells[4])), 'a negative dot');
  });
  const chips = await run(['render', '--sentence', '= + - @ cat', '--format', 'csv', '--view', 'heatmap']);
  assert.deepEqual([...new Set(chips.out.trimEnd().split('\r\n').slice(1).map((line) => fields(line)[1]))], ["'=", "'+", "'-", "'@", 'cat']);
});
