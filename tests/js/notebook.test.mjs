// The notebook side as a user gets it: python/ built into a wheel offline and installed into a
// fresh virtual environment (tests/support/python-wheel.mjs), where tests/fixtures/attention-fallback.ipynb
// is executed by nbconvert/nbclient with a real ipykernel running that environment's Python — a random
// torch.nn.TransformerEncoder, its attention as BertViz's dict (from_torch), layer 2 head 3
// displayed through _repr_html_ — and the HTML it produced is opened in headless Chromium: the
// table holds the tensors' weights (the JSON the notebook wrote) rounded to 3 decimals, the SVG
// one cell per weight, and the output has no script. The kernel imported attention_lab from the
// environment (not from python/), with its widget module inside, and without anywidget the
// package works and says what the widget needs.
// Skips only when /usr/bin/python3 cannot import torch, nbclient, nbconvert, ipykernel, venv
// (scripts/setup.sh installs them).
// Run: node --test tests/js/notebook.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

import { launchChromium } from '../../scripts/chromium.mjs';
import { PYTHON, installWheel, wheelSkip } from '../support/python-wheel.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOTEBOOK = fileURLToPath(new URL('../fixtures/attention-fallback.ipynb', import.meta.url));
const skip = wheelSkip(['torch', 'nbclient', 'nbconvert', 'ipykernel']);

const dir = await mkdtemp(join(tmpdir(), 'attention-notebook-'));
after(() => rm(dir, { recursive: true, force: true }));

test('the wheel, installed offline in a fresh environment, draws layer 2, head 3 in a real kernel: the tensors\' weights to 3 decimals, no script', { skip, timeout: 600000 }, async () => {
  const { python, venv } = installWheel(dir);
  // a kernel that runs the environment's Python (Debian's kernel runs /usr/bin/python3)
  const kernel = spawnSync(python, ['-m', 'ipykernel', 'install', '--prefix', venv, '--name', 'attention-lab-wheel'], { encoding: 'utf8' });
  assert.equal(kernel.status, 0, kernel.stderr);
  const json = join(dir, 'attention.json');
  const r = spawnSync(python, ['-m', 'nbconvert', '--execute', '--ExecutePreprocessor.kernel_name=attention-lab-wheel', '--to', 'html', '--template', 'basic', '--output-dir', dir, '--output', 'executed', NOTEBOOK], {
    encoding: 'utf8', env: { ...process.env, ATTENTION_LAB_ROOT: ROOT, ATTENTION_JSON: json, PYTHONPATH: '' }, timeout: 300000,
  });
  assert.equal(r.status, 0, r.stderr);
  const data = JSON.parse(await readFile(json, 'utf8'));
  assert.ok(data.module.startsWith(join(venv, 'lib')), `attention_lab imported from the environment: ${data.module}`);
  assert.match(data.widget, /needs anywidget/);
  const widget = join(dirname(data.module), 'static', 'attention-widget.js');
  assert.deepEqual(await readFile(widget), await readFile(join(ROOT, 'web/build/attention-widget.js')), 'the widget\'s module is inside the installed package');
  const tokens = data.tokens;
  const expected = data.attention[1][0][2]; // layer 2, batch 0, head 3: the tensors' own numbers
  const n = tokens.length;
  assert.equal(n, 12);

  const chromium = await launchChromium();
  try {
    const page = await chromium.context.newPage();
    await page.goto(pathToFileURL(join(dir, 'executed.html')).href);
    const shown = await page.evaluate(() => {
      const figure = document.querySelector('figure.attention-lab-head');
      return figure && {
        caption: figure.querySelector('figcaption').textContent,
        columns: [...figure.querySelectorAll('thead th')].slice(1).map((th) => th.textContent),
        rows: [...figure.querySelectorAll('tbody tr')].map((tr) => ({
          token: tr.querySelector('th').textContent,
          cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
        })),
        rects: figure.querySelectorAll('svg rect').length,
        scripts: figure.querySelectorAll('script').length,
      };
    });
    assert.ok(shown, 'the notebook\'s output holds the figure');
    assert.match(shown.caption, /^Layer 2, head 3: .*rounded to 3 decimals/);
    assert.deepEqual(shown.columns, tokens);
    assert.deepEqual(shown.rows.map((row) => row.token), tokens);
    assert.equal(shown.rects, n * n);
    assert.equal(shown.scripts, 0);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const cell = shown.rows[i].cells[j];
        assert.match(cell, /^\d\.\d{3}$/, `row ${i + 1}, column ${j + 1}`);
        // within half a unit of the 3rd decimal of the float32 weight the tensor held
        assert.ok(Math.abs(Number(cell) - expected[i][j]) <= 0.0005 + 1e-12, `row ${i + 1}, column ${j + 1}: ${cell} vs ${expected[i][j]}`);
      }
  } finally {
    await chromium.close();
  }
});

test('a layer or head outside the data is refused with the range it has', () => {
  const code = `import sys; sys.path.insert(0, ${JSON.stringify(join(ROOT, 'python'))})
from attention_lab import attention_html
a = [[[[[1.0, 0.0], [0.5, 0.5]], [[1.0, 0.0], [0.25, 0.75]]]]]   # 1 layer, batch 1, 2 heads, 2 tokens
for layer, head in ((1, 3), (2, 1), (1, 0)):
    try:
        attention_html(a, ["a", "b"], layer, head)
        print("shown")
    except ValueError as error:
        print(error)`;
  const r = spawnSync(PYTHON, ['-B', '-c', code], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), ['head must be from 1 to 2, got 3', 'layer must be from 1 to 1, got 2', 'head must be from 1 to 2, got 0']);
});
