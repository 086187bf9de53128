// The page and Node give the same numbers: <attention-lab> in headless Chromium, set to a
// setting, against `attention-lab/lab` (labInputs, labState) and the command line in this Node
// process. Both run the same wasm build (SIMD) on the same inputs, so the numbers must be equal
// to the last bit, not close: the page's state, what its meters and its accessible table say,
// and the figure the command line draws.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { main } from '../../bin/cli.js';
import { createEngine } from '../../web/core/engine.js';
import { labInputs, labState, loadVocab } from '../../web/api/lab.js';
import { checkEachTest, launch, openLab, openProbe, readMeters, readSummary, until } from './browser.mjs';

// Settings a reader can reach with the controls, each with what the CLI says for it.
const CASES = [
  { name: 'the defaults', patch: {}, args: [] },
  {
    name: 'random projection, d_k 64, unscaled',
    patch: { sentence: 'the cat sat on the mat', projection: 'random', dk: 64, scaled: false },
    args: ['--sentence', 'the cat sat on the mat', '--projection', 'random', '--dk', '64', '--no-scale'],
  },
  {
    name: 'positions, causal mask, temperature 0.5, seed 7, an unknown word and punctuation',
    patch: { sentence: 'Well, the zorblax purred: it was happy!', projection: 'random', dk: 16, seed: 7, positional: true, causal: true, temperature: 0.5, probe: 'dog' },
    args: ['--sentence', 'Well, the zorblax purred: it was happy!', '--projection', 'random', '--dk', '16', '--seed', '7', '--positional', '--causal', '--temperature', '0.5', '--probe', 'dog'],
  },
  {
    name: 'identity, unscaled, another row',
    patch: { sentence: 'A dog chased the ball across the park', scaled: false, selected: 4 },
    args: ['--sentence', 'A dog chased the ball across the park', '--no-scale', '--row', '5'],
  },
];

const engine = await createEngine();
const vocab = await loadVocab();
let browser;
let page;
let lab;

before(async () => {
  browser = await launch();
  page = await browser.newPage();
  lab = await openLab(page, browser.url);
});

after(async () => {
  await browser?.close();
});

checkEachTest(() => browser);

// Sets the page to the defaults plus `patch` (as the controls would) and waits for its state.
async function pageState(patch) {
  const want = { sentence: 'The cat sat on the mat because it was tired', probe: 'animal', projection: 'identity', dk: 64, seed: 1,
    scaled: true, temperature: 1, causal: false, positional: false, selected: 1, ...patch };
  const rejected = await lab.evaluate((element, settings) => element.set(settings).rejected, want);
  assert.deepEqual(rejected, {});
  return until(
    () => lab.evaluate((element) => {
      const s = element.state;
      if (!s) return null;
      const plain = (a) => (a ? Array.from(a) : null);
      return {
        settings: { ...s.settings, tokens: [...s.settings.tokens], pasted: null },
        tokens: s.tokens.map((t) => t.text),
        n: s.n, m: s.m, d: s.d, selected: s.selected,
        q: plain(s.q), k: plain(s.k), v: plain(s.v),
        dots: plain(s.result.dots), scores: plain(s.result.scores), weights: plain(s.result.weights),
        entropy: plain(s.result.entropy), maxWeight: plain(s.result.maxWeight),
        probe: s.probe && { text: s.probe.text, weights: plain(s.probe.result.weights) },
      };
    }),
    (s) => s && Object.entries(want).every(([key, value]) => s.settings[key] === value),
    { what: `the page's state for ${JSON.stringify(patch)}`, timeout: 10000 },
  );
}

async function cli(...args) {
  let out = '';
  const status = await main(args, { stdout: { write: (text) => (out += text) }, stderr: { write: (text) => (out += text) } });
  assert.equal(status, 0, out);
  return out;
}

const unescape = (text) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

for (const { name, patch, args } of CASES) {
  test(`${name}: the page's state is labState's and engine.attention(labInputs(…))'s, to the bit`, async () => {
    const shown = await pageState(patch);
    const inputs = labInputs(patch, { engine, vocab });
    const state = labState(patch, { engine, vocab });
    assert.deepEqual(shown.tokens, [...inputs.tokens]);
    assert.deepEqual([shown.n, shown.m, shown.d, shown.selected], [inputs.n, inputs.m, inputs.d, state.selected]);
    for (const key of ['q', 'k', 'v']) assert.deepEqual(shown[key], Array.from(inputs[key]), key);
    const result = engine.attention(inputs);
    for (const key of ['dots', 'scores', 'weights', 'entropy', 'maxWeight']) {
      assert.deepEqual(shown[key], Array.from(result[key]), `${key}: the page against engine.attention(labInputs(…))`);
      assert.deepEqual(shown[key], Array.from(state.result[key]), `${key}: the page against labState`);
    }
    assert.equal(shown.probe?.text ?? null, state.probe?.text ?? null);
    if (shown.probe) assert.deepEqual(shown.probe.weights, Array.from(state.probe.result.weights));
  });

  test(`${name}: the command line draws what the page shows — its bars, summary, table and probe`, async () => {
    await pageState(patch);
    // the selected query's bars: every meter's name and text, and the summary under them
    const meters = await readMeters(page);
    const svg = await cli('render', '--view', 'bars', ...args);
    const bars = [...svg.matchAll(/<g data-key="\d+"><title>([^<]*)<\/title>/g)].map((match) => unescape(match[1]));
    assert.deepEqual(bars, meters.map((meter) => `${meter.name}: ${meter.text}`));
    const summary = await readSummary(page);
    const [, sum, entropy, max] = /Σ weights <\/tspan>([^<]*)<tspan[^>]*>entropy <\/tspan>([^<]*)<tspan[^>]*>max weight <\/tspan>([^<]*)</.exec(svg);
    assert.deepEqual({ sum, entropy, max }, summary);
    // the heatmap: the accessible table's n·m texts against the figure's cell titles (the table
    // follows the picture once input settles: wait for it to catch up with this setting)
    const heatmap = await cli('render', '--view', 'heatmap', ...args);
    const cells = [...heatmap.matchAll(/<title>[^<]*: (?:weight )?([^<:]*)<\/title>/g)].map((match) => match[1]);
    const table = await until(
      () => lab.evaluate((element) => {
        const heatmap = element.shadowRoot.querySelector('attention-heatmap');
        return [...heatmap.shadowRoot.querySelectorAll('tbody td')].map((td) => td.textContent);
      }),
      (texts) => texts.length === cells.length && texts.every((text, at) => text === cells[at]),
      { what: `the accessible table to read ${JSON.stringify(cells)}` },
    );
    assert.deepEqual(cells, table);
    // the probe's bars (an aside: opened to read)
    await openProbe(page);
    const probeMeters = await readMeters(page, '#probe-bars');
    const probe = await cli('render', '--view', 'probe', ...args);
    const probeBars = [...probe.matchAll(/<g data-key="\d+"><title>([^<]*)<\/title>/g)].map((match) => unescape(match[1]));
    assert.deepEqual(probeBars, probeMeters.map((meter) => `${meter.name}: ${meter.text}`));
  });
}

test('attention-lab/lab in the browser: loadVocab fetches the vectors of the page’s words, and labInputs gives the element’s numbers', async () => {
  const shown = await pageState(CASES[1].patch);
  const computed = await page.evaluate(async ({ patch, base }) => {
    const { createEngine } = await import(new URL('core/engine.js', base).href);
    const { labInputs, labSettings, loadVocab } = await import(new URL('api/lab.js', base).href);
    // what a page asks for: the buckets of the sentence's and the probe's words (all 20,000 words are Node's)
    const { tokens, probe } = labSettings(patch);
    const [engine, vocab] = await Promise.all([createEngine(), loadVocab([...tokens, probe])]);
    return Array.from(engine.attention(labInputs(patch, { engine, vocab })).weights);
  }, { patch: CASES[1].patch, base: browser.url });
  assert.deepEqual(computed, shown.weights);
});

test('the figure is an SVG file a browser parses and draws at its size, in both themes', async () => {
  const blank = await browser.newPage(); // no page policy: an image from a blob: URL may load
  for (const theme of ['light', 'dark']) {
    const svg = await cli('render', '--sentence', 'the cat sat on the mat', '--theme', theme);
    const drawn = await blank.evaluate(async (text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const error = doc.querySelector('parsererror')?.textContent ?? null;
      const img = new Image();
      img.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
      await img.decode();
      const root = doc.documentElement;
      return { error, root: root.localName, width: img.naturalWidth, height: img.naturalHeight, declared: [Number(root.getAttribute('width')), Number(root.getAttribute('height'))] };
    }, svg);
    assert.equal(drawn.error, null);
    assert.equal(drawn.root, 'svg');
    assert.deepEqual([drawn.width, drawn.height], drawn.declared);
    assert.ok(drawn.width >= 200 && drawn.height >= 200, JSON.stringify(drawn));
  }
  await blank.close();
});
