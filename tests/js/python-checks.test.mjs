// The Python side checks attention as the JavaScript side does (issue 36): each case below goes
// through web/lesson/supplied.js's readAttention (the shape, then the core's checks of every weight
// and row) and through python/attention_lab's attention_html and AttentionHTML, and the two must
// agree: shown by both, or refused by both with the same message and the same error code. The
// JavaScript side is the reference: nothing expected is written here but which cases are refused.
// Skips only when /usr/bin/python3 is missing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { readAttention } from '../../web/lesson/supplied.js';
import { createEngine } from '../../web/core/engine.js';

const PYTHON = '/usr/bin/python3';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const skip = spawnSync(PYTHON, ['-c', 'pass']).status === 0 ? false : `${PYTHON} is missing`;

const head = (...rows) => [[rows]]; // one layer, one head
const CASES = {
  'a NaN weight': { tokens: ['a', 'b'], attention: head([1, 0], [NaN, 1]) },
  'an infinite weight': { tokens: ['a', 'b'], attention: head([1, 0], [Infinity, 0]) },
  'a weight beyond float32': { tokens: ['a', 'b'], attention: head([1, 0], [1e39, 0]) },
  'a negative weight': { tokens: ['a', 'b'], attention: head([1, 0], [-0.5, 1.5]) },
  'a row summing to 7': { tokens: ['a', 'b'], attention: head([1, 0], [3.5, 3.5]) },
  'a row summing to 0.7 (float32 0.699999988)': { tokens: ['a', 'b'], attention: head([0.7, 0], [0.5, 0.5]) },
  'rows rounded to two decimals': { tokens: ['a', 'b', 'c'], attention: head([0.33, 0.33, 0.33], [1, 0, 0], [0, 0, 1]) },
  'a token that is a number': { tokens: [5, 'b'], attention: head([1, 0], [0.5, 0.5]) },
  'tokens that are a string': { tokens: 'ab', attention: head([1, 0], [0.5, 0.5]) },
  'no tokens': { attention: head([1]) },
  'n = 0': { tokens: [], attention: [[[]]] },
  'no layers': { tokens: [], attention: [] },
  'a weight that is a string': { tokens: ['a', 'b'], attention: head([1, '0'], [0.5, 0.5]) },
  'a weight that is a boolean': { tokens: ['a', 'b'], attention: head([true, 0], [0.5, 0.5]) },
  'a weight that is null': { tokens: ['a', 'b'], attention: head([1, null], [0.5, 0.5]) },
  'fewer tokens than rows': { tokens: ['a'], attention: head([1, 0], [0.5, 0.5]) },
  'a row too short': { tokens: ['a', 'b'], attention: head([1], [0.5, 0.5]) },
  'a batch of two': { tokens: ['a'], attention: [[[[[1]]], [[[1]]]]] },
  'layers with different heads': { tokens: ['a'], attention: [[[[1]], [[1]]], [[[1]]]] },
  'a layer that is a number': { tokens: ['a'], attention: [[[[1]]], 2] },
  'an object without attention': { tokens: ['a'] },
  'a number for the data': 7,
  'good data, batch of one': { tokens: ['the', 'cat'], attention: [[[[[1, 0], [0.25, 0.75]], [[0.5, 0.5], [0, 1]]]]] },
  'good data, no batch': { tokens: ['the', 'cat'], attention: [[[[1, 0], [0.25, 0.75]]], [[[0.5, 0.5], [0, 1]]]] },
};

// JSON has no NaN or Infinity: they cross to Python as marked strings
const encode = (value) => JSON.stringify(value, (_, x) => (typeof x === 'number' && !Number.isFinite(x) ? `__number__${x}` : x));

const PROGRAM = `import json, math, sys
from attention_lab import AttentionHTML, AttentionLabError, attention_html
def number(x):
    return float(x[10:].replace("Infinity", "inf")) if isinstance(x, str) and x.startswith("__number__") else x
def decode(v):
    if isinstance(v, list): return [decode(x) for x in v]
    if isinstance(v, dict): return {k: decode(x) for k, x in v.items()}
    return number(v)
results = {}
for name, data in decode(json.load(sys.stdin)).items():
    outcome = []
    for show in (lambda: attention_html(data, None), lambda: AttentionHTML(data)._repr_html_()):
        try:
            show()
            outcome.append({"shown": True})
        except AttentionLabError as error:
            outcome.append({"message": str(error), "code": error.code, "type": isinstance(error, TypeError)})
        except Exception as error:
            outcome.append({"raw": f"{type(error).__name__}: {error}"})
    results[name] = outcome
print(json.dumps(results))
`;

test('the Python side refuses what the JavaScript side refuses, in the same words and codes', { skip }, async () => {
  const engine = await createEngine();
  const r = spawnSync(PYTHON, ['-B', '-c', PROGRAM], { input: encode(CASES), encoding: 'utf8', env: { ...process.env, PYTHONPATH: join(ROOT, 'python') } });
  assert.equal(r.status, 0, r.stderr);
  const python = JSON.parse(r.stdout);
  let refused = 0;
  for (const [name, data] of Object.entries(CASES)) {
    let expected;
    try {
      readAttention(data, { engine });
      expected = { shown: true };
    } catch (error) {
      expected = { message: error.message, code: error.code, type: error instanceof TypeError };
      refused += 1;
    }
    for (const got of python[name]) assert.deepEqual(got, expected, name);
  }
  assert.equal(refused, Object.keys(CASES).length - 2, 'every case but the good data is refused');
});

test('the Python package has the npm package\'s version, and the docs name its wheel by it', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const pyproject = readFileSync(join(ROOT, 'python/pyproject.toml'), 'utf8');
  assert.match(pyproject, new RegExp(`^version = "${version.replace(/\./g, '\\.')}"$`, 'm'));
  assert.ok(readFileSync(join(ROOT, 'python/attention_lab/__init__.py'), 'utf8').includes(`__version__ = "${version}"`));
  for (const page of ['README.md', 'docs/notebook.md']) {
    const named = [...readFileSync(join(ROOT, page), 'utf8').matchAll(/attention_lab-([\d.]+)-py3-none-any\.whl/g)].map((m) => m[1]);
    assert.ok(named.length > 0 && named.every((v) => v === version), `${page} names the wheel of version ${version}: ${named}`);
  }
});
