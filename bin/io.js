// The command line's files and streams, read and written so that nothing is lost:
//  - an input is read up to MAX_INPUT_BYTES, whatever it is (a regular file by its size first; a
//    device or a pipe, /dev/zero included, by a read that stops one byte past the bound);
//  - an output that is one of the inputs (by real path or by inode: a symbolic link, "./q.csv"
//    or a hard link to it) is refused before anything is computed;
//  - an output is written to a temporary file in its own folder, then renamed over the old one:
//    a full disk or an I/O error leaves the old file whole (a device such as /dev/null or
//    /dev/full is written in place: it is not a file to replace); a file this user may not write
//    (mode 444, another owner's) is refused as `cp` or `>` would refuse it, not replaced;
//  - stdout that a reader closed (| head) ends the command quietly, as Unix tools do; a stdout
//    that was closed before the start (>&-) or that fails (> /dev/full) is an error, said in
//    the project's words (stdoutErrorHandler), never a stack trace.
// Every failure is described in the string tables' words (cli.* keys), never as a raw code.
import { constants, readFileSync, readlinkSync } from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

import { MAX_PASTE_CHARS } from '../web/lab/paste.js';

/**
 * Most bytes read from one input file: the paste's own bound (web/lab/paste.js), so that a file
 * the command line reads is one the page would take, and a mistaken file (a log, a disk image,
 * /dev/zero) never fills the memory.
 */
export const MAX_INPUT_BYTES = MAX_PASTE_CHARS;

/** A file problem the messages know: `code` is a Node error code or TOO_LARGE. */
export class FileError extends Error {
  constructor(code, message = code) {
    super(message);
    this.code = code;
  }
}

const tooLarge = (limit) => Object.assign(new FileError('TOO_LARGE'), { limit });

/**
 * Reads `path` as UTF-8 (or its bytes, with `bytes`), at most `limit` bytes; a larger input
 * rejects with FileError('TOO_LARGE'). Memory grows with what is read, not with the bound.
 */
export async function readBounded(path, limit = MAX_INPUT_BYTES, { bytes = false } = {}) {
  const handle = await fsPromises.open(path, constants.O_RDONLY);
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new FileError('EISDIR');
    if (info.isFile() && info.size > limit) throw tooLarge(limit);
    const chunks = [];
    let length = 0;
    while (length <= limit) {
      const chunk = Buffer.alloc(Math.min(READ_CHUNK, limit + 1 - length));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
    }
    if (length > limit) throw tooLarge(limit);
    const buffer = Buffer.concat(chunks, length);
    return bytes ? new Uint8Array(buffer.buffer, buffer.byteOffset, length) : buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
const READ_CHUNK = 1 << 20;

const mebibytes = (bytes) => `${bytes / 1024 / 1024} MiB`;

// The real path of `path`, also when the file does not exist yet (its folder's real path + its name).
async function realPath(path) {
  try {
    return await fsPromises.realpath(path);
  } catch {
    const folder = await fsPromises.realpath(dirname(resolve(path))).catch(() => dirname(resolve(path)));
    return join(folder, basename(path));
  }
}

/**
 * The first of `inputs` ({ option: path }) that `output` names — by real path, or as the same
 * inode (a hard link) — as [option, path], or null.
 */
export async function inputNamedBy(output, inputs) {
  const target = await realPath(output);
  const targetInfo = await fsPromises.stat(output).catch(() => null);
  for (const [option, path] of Object.entries(inputs)) {
    if (path === undefined) continue;
    if ((await realPath(path)) === target) return [option, path];
    const info = await fsPromises.stat(path).catch(() => null);
    if (info && targetInfo && info.isFile() && info.dev === targetInfo.dev && info.ino === targetInfo.ino) return [option, path];
  }
  return null;
}

/**
 * Writes `text` to `path` whole or not at all: into a temporary file beside it, then renamed
 * over it (keeping the old file's permissions). `fs` is node:fs/promises (tests pass a writer
 * that fails). A path that exists and is no regular file (a device, a pipe) is written in place.
 */
export async function writeAtomic(path, text, { fs = fsPromises } = {}) {
  const target = await realPath(path);
  const info = await fsPromises.stat(target).catch(() => null);
  if (info && !info.isFile()) return (fs.writeFile ?? fsPromises.writeFile)(target, text);
  // the rename would replace a file we may not write (it needs only the folder's permission)
  if (info) await (fs.access ?? fsPromises.access)(target, constants.W_OK);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    await (fs.writeFile ?? fsPromises.writeFile)(temp, text, { flag: 'wx', mode: info ? info.mode & 0o7777 : 0o666 });
    await (fs.rename ?? fsPromises.rename)(temp, target);
  } catch (error) {
    await fsPromises.rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}

/**
 * Writes `text` to a stream; resolves once it is written. A reader that went away (EPIPE) resolves
 * with 'closed' (the caller ends quietly); any other failure rejects. Streams without callbacks
 * (tests' string collectors) are written synchronously.
 */
export function writeStream(stream, text) {
  if (typeof stream.on !== 'function') return stream.write(text), Promise.resolve('written');
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error) => {
      if (error) HANDLED.add(error); // the stream emits it as 'error' too: stdoutErrorHandler lets it be
      if (settled) return;
      settled = true;
      if (!error) resolve('written');
      else if (error.code === 'EPIPE') resolve('closed');
      else reject(error);
    };
    stream.once('error', settle);
    stream.write(text, (error) => settle(error ?? null));
  });
}
// Stream errors a writer has already turned into a result or a message.
const HANDLED = new WeakSet();

/**
 * The executable's listener for stdout's 'error' events: a reader that went away (EPIPE) ends the
 * command quietly; an error a writer already reported is let be; any other (a write outside
 * writeStream failing, > /dev/full) is said in the words of `t` on `stderr` with exit status 1.
 * `exit(status)` ends the process.
 */
export function stdoutErrorHandler({ stderr, name, t, exit }) {
  return (error) => {
    if (error?.code === 'EPIPE') return exit(process.exitCode ?? 0);
    if (HANDLED.has(error)) return;
    HANDLED.add(error);
    stderr.write(`${name}: ${t('cli.stdoutFailed', { reason: describeFileError(error, t) })}\n`);
    exit(1);
  };
}

/**
 * Whether stdout was closed when the process started (`>&-`): Node then opens /dev/null for it
 * (read-write, where a shell's `>/dev/null` opens it write-only), so writes would succeed
 * unseen. Linux tells through /proc; elsewhere this says false.
 */
export function stdoutWasClosed(fd = 1) {
  try {
    if (readlinkSync(`/proc/self/fd/${fd}`) !== '/dev/null') return false;
    const flags = /flags:\s*(\d+)/.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
    return flags !== undefined && (parseInt(flags, 8) & 3) === constants.O_RDWR;
  } catch {
    return false;
  }
}

// Problems of files, by code, as keys of the string tables; any other is said in general words.
const FILE_ERRORS = {
  ENOENT: 'cli.ENOENT',
  EACCES: 'cli.EACCES',
  EPERM: 'cli.EPERM',
  EISDIR: 'cli.EISDIR',
  ENOTDIR: 'cli.ENOTDIR',
  ENOSPC: 'cli.ENOSPC',
  EDQUOT: 'cli.EDQUOT',
  EIO: 'cli.EIO',
  EROFS: 'cli.EROFS',
  EEXIST: 'cli.EEXIST',
  ENAMETOOLONG: 'cli.ENAMETOOLONG',
  ELOOP: 'cli.ELOOP',
  EMFILE: 'cli.EMFILE',
  EBADF: 'cli.EBADF',
  TOO_LARGE: 'cli.tooLarge',
};

/**
 * What went wrong with a file, in the words of `t` (the string tables' function); `limit`: the
 * bound of the read that was too large (MAX_INPUT_BYTES unless the read said another).
 */
export function describeFileError(error, t) {
  const code = error?.code;
  if (code === 'TOO_LARGE') return t(error.limit === undefined || error.limit === MAX_INPUT_BYTES ? 'cli.tooLarge' : 'cli.tooLargeFile', { max: mebibytes(error.limit ?? MAX_INPUT_BYTES) });
  if (Object.hasOwn(FILE_ERRORS, code)) return t(FILE_ERRORS[code]);
  return t('cli.fileErrorOther', { code: typeof code === 'string' ? code : '?' });
}
