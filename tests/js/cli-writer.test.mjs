// The command line's one writer (bin/command.js deliver, bin/io.js): a standard output that fails
// (> /dev/full) is a message and exit status 1 for every command, never a stack trace; a file's
// extension and its format agree or the command refuses, for `render` and `model` alike; `-o -` is
// the standard output; a file this user may not write is refused as `cp` refuses it; and the small
// rules every command shares (a position is digits only; an --attention file's own bound in its
// message; a byte-order mark is no part of a token).
// Run: node --test tests/js/cli-writer.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main } from '../../bin/cli.js';

const BIN = fileURLToPath(new URL('../../bin/attention-lab.js', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'attention-writer-'));
after(() => rm(dir, { recursive: true, force: true }));

async function run(args, { cwd } = {}) {
  let out = '';
  let err = '';
  const here = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const status = await main(args, { stdout: { write: (text) => (out += text) }, stderr: { write: (text) => (err += text) }, env: { LANG: 'C' } });
    assert.doesNotMatch(err, /\n\s+at /, 'no stack trace');
    return { status, out, err };
  } finally {
    process.chdir(here);
  }
}

// The executable with its stdout on `stdoutPath` (opened by the shell), as user `uid` if given.
function spawnBin(args, { stdoutPath, uid } = {}) {
  return new Promise((resolve) => {
    const redirect = stdoutPath ? ` > ${stdoutPath}` : '';
    const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const child = spawn('sh', ['-c', `"$NODE" "$BIN" ${quoted}${redirect}`], {
      env: { ...process.env, LC_ALL: 'C', BIN, NODE: process.execPath }, cwd: dir, ...(uid === undefined ? {} : { uid, gid: uid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('a standard output that fails (> /dev/full) is a message and exit 1 for every command, not a stack trace', async () => {
  for (const args of [['render', '--format', 'csv'], ['model', '--sentence', 'the cat', '--format', 'csv'], ['--help'], ['scorm', '--help']]) {
    const { status, stderr } = await spawnBin(args, { stdoutPath: '/dev/full' });
    assert.equal(status, EXIT_FAILURE, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, /^attention-lab: cannot write to the standard output: /m, args.join(' '));
    assert.doesNotMatch(stderr, /\n\s+at |Error: ENOSPC/, `${args.join(' ')}: no stack trace`);
  }
});

test('an output file\'s extension and the format agree, or render and model refuse (and write nothing)', async () => {
  for (const [command, extra] of [['render', []], ['model', ['--sentence', 'the cat']]]) {
    for (const [file, format] of [['fig.png', 'svg'], ['fig.csv', 'json'], ['fig.json', 'svg']]) {
      const args = [command, ...extra, '-o', join(dir, file), '--format', format];
      const { status, err } = await run(args);
      assert.equal(status, EXIT_USAGE, `${args.join(' ')}: ${err}`);
      assert.match(err, /does not match --output/, args.join(' '));
    }
    // the extension alone chooses: -o fig.csv writes CSV
    const csv = join(dir, `${command}.csv`);
    assert.equal((await run([command, ...extra, '-o', csv])).status, EXIT_OK);
    assert.match(await readFile(csv, 'utf8'), /^(query|layer),/);
  }
  assert.deepEqual((await readdir(dir)).filter((name) => name.startsWith('fig')), []);
});

test('-o - writes to the standard output, and no file named "-"', async () => {
  for (const args of [['render', '--format', 'csv', '-o', '-'], ['model', '--sentence', 'the cat', '--format', 'csv', '-o', '-']]) {
    const { status, out, err } = await run(args, { cwd: dir });
    assert.equal(status, EXIT_OK, err);
    assert.match(out, /^(query|layer),/, args.join(' '));
  }
  assert.equal((await readdir(dir)).includes('-'), false);
});

test('-o over a file this user may not write (mode 444) is refused as cp refuses it, and the file is kept', async () => {
  const target = join(dir, 'kept.csv');
  await writeFile(target, 'old\n');
  await chmod(target, 0o444);
  await chmod(dir, 0o777); // the folder is writable: only the file's own mode stands in the way
  // root may write any file (cp would): the check runs as an ordinary user
  const uid = process.getuid?.() === 0 ? 65534 : undefined;
  const { status, stderr } = await spawnBin(['render', '--format', 'csv', '-o', target], { uid });
  assert.equal(status, EXIT_FAILURE, stderr);
  assert.match(stderr, /cannot write .*kept\.csv: /);
  assert.equal(await readFile(target, 'utf8'), 'old\n');
  await chmod(dir, 0o700);
});

test('model --layer and --head are read as render reads them: digits only', async () => {
  for (const value of ['0x1', '1e0', '1.0', '+1', '0']) {
    const { status, err } = await run(['model', '--sentence', 'the cat', '--layer', value, '--head', '1', '--format', 'csv']);
    assert.equal(status, EXIT_USAGE, `${value}: ${err}`);
    assert.match(err, /--layer .* is not valid/);
  }
  assert.equal((await run(['model', '--sentence', 'the cat', '--layer', ' 2 ', '--head', '1', '--format', 'csv'])).status, EXIT_OK);
});

test('an --attention file past its bound names that bound (256 MiB), not the paste\'s', async () => {
  const big = join(dir, 'big.json');
  await writeFile(big, '');
  await truncate(big, 2 ** 28 + 1); // sparse: no disk used
  const { status, err } = await run(['render', '--attention', big]);
  await rm(big);
  assert.equal(status, EXIT_USAGE, err);
  assert.match(err, /larger than 256 MiB/);
  assert.doesNotMatch(err, /pasted matrix/);
});

test('a byte-order mark at the start of a --tokens file is no part of the first token', async () => {
  const attention = join(dir, 'one.json');
  await writeFile(attention, JSON.stringify([[[[1, 0], [0.5, 0.5]]]]));
  const tokens = join(dir, 'tokens.txt');
  await writeFile(tokens, '\uFEFFhello\r\nworld\r\n');
  const { status, out, err } = await run(['render', '--attention', attention, '--tokens', tokens, '--format', 'json']);
  assert.equal(status, EXIT_OK, err);
  assert.deepEqual(JSON.parse(out).tokens, ['hello', 'world']);
});
