// The language model's corpus as scripts/model/prepare-corpus.mjs writes it, made once for the
// test files that check what it gives (model-assets, model-corpus, model-heads): a few seconds
// of work each would otherwise repeat. Under scripts/test.sh (ATTN_TEST_FIXTURES set: a folder
// the run empties at its start) the first file to ask makes it and the others, in other
// processes, wait for it; a file run alone makes its own in a temporary folder.
//
//   const dir = preparedCorpus();   // vocab.txt, train.bin, validation.bin, test.bin, corpus.json
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = path.join(ROOT, 'scripts/model/prepare-corpus.mjs');
const DONE = 'prepared';
const FAILED = 'failed';

function prepare(dir) {
  execFileSync(process.execPath, [SCRIPT, '--out', dir], { stdio: 'pipe' });
  fs.writeFileSync(path.join(dir, DONE), '');
}

let own; // this process's folder, when it made one
process.on('exit', () => own && fs.rmSync(own, { recursive: true, force: true }));

/** The folder of the prepared corpus (default settings); made on the first call of the run. */
export function preparedCorpus({ timeout = 300_000 } = {}) {
  const shared = process.env.ATTN_TEST_FIXTURES;
  if (!shared) {
    if (!own) {
      own = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-corpus-'));
      prepare(own);
    }
    return own;
  }
  const dir = path.join(shared, 'corpus');
  fs.mkdirSync(shared, { recursive: true });
  try {
    fs.mkdirSync(dir); // the one process that creates it prepares it
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    const start = Date.now();
    while (!fs.existsSync(path.join(dir, DONE))) {
      if (fs.existsSync(path.join(dir, FAILED))) throw new Error(`${dir}: preparing the corpus failed in another test process:\n${fs.readFileSync(path.join(dir, FAILED), 'utf8')}`);
      if (Date.now() - start > timeout) throw new Error(`${dir}: another test process did not finish preparing the corpus`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
    return dir;
  }
  try {
    prepare(dir);
  } catch (error) {
    fs.writeFileSync(path.join(dir, FAILED), String(error.stderr ?? error.message));
    throw error;
  }
  return dir;
}
