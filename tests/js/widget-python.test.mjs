// The widget's Python class (python/attention_lab/widget.py, from the wheel installed in a fresh
// environment: tests/support/python-wheel.mjs) against its front end (web/widget/attention-widget.js,
// bundled into web/build/attention-widget.js), with a stand-in for anywidget (not a Debian
// package): a traitlets.HasTraits that, as anywidget does, reads a pathlib.Path _esm as the
// module's text. Checked: the synced traits are exactly the names the module reads (model.get,
// 'change:…'), _esm is the built module inside the installed package, from_torch of a torch
// model's attentions gives its tokens and weights, a layer of 0 or an unknown theme is refused,
// and attention the JavaScript side refuses is refused with its words.
// Skips only when /usr/bin/python3 cannot import traitlets, torch, venv (scripts/setup.sh installs them).
// Run: node --test tests/js/widget-python.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { installWheel, wheelSkip } from '../support/python-wheel.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const skip = wheelSkip(['traitlets', 'torch']);

const dir = await mkdtemp(join(tmpdir(), 'attention-widget-python-'));
const stand = join(dir, 'stand-in');
let PYTHON;
before(() => {
  if (!skip) ({ python: PYTHON } = installWheel(dir));
});
after(() => rm(dir, { recursive: true, force: true }));

// anywidget as far as the class uses it: AnyWidget is HasTraits whose _esm, a Path, is read
const FAKE_ANYWIDGET = `import pathlib, traitlets
class AnyWidget(traitlets.HasTraits):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        esm = type(self)._esm
        self.esm_text = esm.read_text() if isinstance(esm, pathlib.Path) else esm
`;

// Runs `code` in the environment with the stand-in on the path; returns what it printed as JSON.
function python(code) {
  const result = spawnSync(PYTHON, ['-c', code], {
    encoding: 'utf8', env: { ...process.env, PYTHONPATH: stand }, timeout: 120000,
  });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test('the synced traits are the names the module reads; _esm is the built module', { skip }, async () => {
  await mkdir(stand, { recursive: true });
  await writeFile(join(stand, 'anywidget.py'), FAKE_ANYWIDGET);
  const got = python(`import json
from attention_lab.widget import AttentionWidget, ESM
w = AttentionWidget({"tokens": ["a", "b"], "attention": [[[[[1.0, 0.0], [0.5, 0.5]]]]]})
print(json.dumps({"synced": sorted(w.trait_names(sync=True)), "esm": str(ESM), "text": w.esm_text,
                  "state": {name: getattr(w, name) for name in w.trait_names(sync=True)}}))`);
  const source = readFileSync(join(ROOT, 'web/widget/attention-widget.js'), 'utf8');
  const read = new Set([...source.matchAll(/model\.get\('(\w+)'\)/g), ...source.matchAll(/'change:(\w+)'/g)].map((m) => m[1]));
  const set = new Set([...source.matchAll(/model\.set\('(\w+)'/g)].map((m) => m[1]));
  assert.deepEqual(got.synced, [...read].sort());
  assert.ok([...set].every((name) => read.has(name)), `the module sets ${[...set]}, all of them traits`);
  assert.ok(got.esm.startsWith(dir) && got.esm.endsWith(join('attention_lab', 'static', 'attention-widget.js')), `the installed package's module: ${got.esm}`);
  assert.equal(got.text, readFileSync(join(ROOT, 'web/build/attention-widget.js'), 'utf8'));
  assert.match(got.text, /export\s*\{[^}]*as default/, 'an ES module with a default export');
  assert.deepEqual(got.state, { tokens: ['a', 'b'], attention: [[[[[1, 0], [0.5, 0.5]]]]], layer: 1, head: 1, theme: 'auto' });
});

test('from_torch: a torch model\'s attentions, BertViz\'s shape; bad settings refused', { skip }, async () => {
  await mkdir(stand, { recursive: true });
  await writeFile(join(stand, 'anywidget.py'), FAKE_ANYWIDGET);
  const got = python(`import json, torch, traitlets
from attention_lab.widget import AttentionWidget
torch.manual_seed(0)
attentions = tuple(torch.softmax(torch.randn(1, 3, 4, 4), dim=-1) for _ in range(2))
w = AttentionWidget.from_torch(attentions, ["the", "cat", "sat", "down"], layer=2, head=3, theme="dark")
refused = []
for name, value in (("layer", 0), ("head", -1), ("theme", "blue")):
    try:
        setattr(w, name, value)
    except traitlets.TraitError:
        refused.append(name)
from attention_lab import AttentionLabError
try:
    AttentionWidget({"tokens": ["a", "b"], "attention": [[[[1.0, 0.0], [3.5, 3.5]]]]})
    bad = "shown"
except AttentionLabError as error:
    bad = [str(error), error.code]
print(json.dumps({"bad": bad, "tokens": w.tokens, "attention": w.attention, "expected": [a.tolist() for a in attentions],
                  "layer": w.layer, "head": w.head, "theme": w.theme, "refused": refused}))`);
  assert.deepEqual(got.tokens, ['the', 'cat', 'sat', 'down']);
  assert.deepEqual(got.attention, got.expected);
  assert.deepEqual([got.attention.length, got.attention[0].length, got.attention[0][0].length, got.attention[0][0][0].length, got.attention[0][0][0][0].length], [2, 1, 3, 4, 4]);
  assert.deepEqual([got.layer, got.head, got.theme], [2, 3, 'dark']);
  assert.deepEqual(got.refused, ['layer', 'head', 'theme']);
  // as the JavaScript side words it (tests/js/python-checks.test.mjs compares every case)
  assert.deepEqual(got.bad, ['attention: layer 1, head 1, row 2 sums to 7: each row of attention weights must sum to 1 within 0.001', 'ATTN_INVALID_ARGUMENT']);
});
