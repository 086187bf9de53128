// The trained model's view as text (web/views/model.js, pure): in English and bokmål, for both
// twins, with √d_k removed, on repeated words, with unknown words and past the context — every
// message filled in (no {placeholder}, no NaN, no undefined), the facts it states read from the
// runs, the opened head's data for the lab's heatmap and its row as the lab's meters, how
// loading is said, the twins' curves (web/views/model-curve.js) against the files read here, and
// the command line's figure well formed.
// Run: node --test tests/js/model-view.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

import { loadModel, repeatedSequences } from '../../web/api/model.js';
import { loadStrings } from '../../web/i18n/i18n.js';
import { barsScene } from '../../web/views/bars.js';
import { parseColor } from '../../web/views/color.js';
import { toMarkup } from '../../web/views/h.js';
import { TEMPERATURES, modelFacts, modelFigure, modelView, openedHeadData, openedRowData, thumbnailPixels } from '../../web/views/model.js';
import { parseCurve } from '../../web/lesson/trained-model.js';
import { curveChart, curveFacts } from '../../web/views/model-curve.js';
import { THEMES } from '../../web/views/theme.js';

const models = { scaled: await loadModel({ variant: 'scaled' }), unscaled: await loadModel({ variant: 'unscaled' }) };

// The curve files read here, apart from parseCurve: [step, lr, training loss, held-out loss or ''] per row.
const curveText = (variant) => fs.readFileSync(new URL(`../../web/assets/model/${variant}-curve.tsv`, import.meta.url), 'utf8');
const curveRows = (variant) => curveText(variant).trim().split('\n').slice(1).map((line) => line.split('\t'));
const rows = { scaled: curveRows('scaled'), unscaled: curveRows('unscaled') };
const heldRows = (variant) => rows[variant].filter((row) => row[3] !== '');
const curves = { scaled: parseCurve(curveText('scaled')), unscaled: parseCurve(curveText('unscaled')) };

function results(variant, tokens, { scaleAtInference = true, temperature = 1, layer = 1, head = 1, demo = false } = {}) {
  const model = models[variant];
  const run = model.run(tokens, { scaleAtInference, temperature, span: demo ? tokens.length / 2 : 0 });
  const contrast = model.info.scaled ? model.run(tokens, { scaleAtInference: !scaleAtInference }) : null;
  return { run, contrast, info: model.info, twin: model.twin, variant, layer, head, scaleAtInference, temperature, demo, unigramThe: model.unigram.the,
    status: { state: 'loaded', variant, file: `${variant}.weights` }, curves };
}

const CASES = {
  'scaled, as trained': ['scaled', 'the cat sat on the mat'.split(' ')],
  'scaled, √d_k removed, head 2.3': ['scaled', 'the cat sat on the mat'.split(' '), { scaleAtInference: false, layer: 2, head: 3 }],
  'unscaled, T = 2': ['unscaled', 'i do n\'t think so'.split(' '), { temperature: 2 }],
  'unknown words, past the context': ['scaled', ['zyxwvut', ...Array.from({ length: 70 }, () => 'the')]],
  'repeated words': ['scaled', repeatedSequences(models.scaled.vocab, { span: 12, seed: 7 })[0], { demo: true }],
};

for (const lang of ['en', 'nb']) {
  test(`model view (${lang}): every message filled in, in every case`, async () => {
    const strings = await loadStrings(lang);
    for (const [name, [variant, tokens, options]] of Object.entries(CASES)) {
      const markup = toMarkup(modelView(results(variant, tokens, options), { strings, heading: 3 }, THEMES.light, { width: 900 }));
      for (const bad of [/\{[a-zA-Z]+\}/, /NaN/, /undefined/, />null</, /Infinity/]) assert.doesNotMatch(markup, bad, `${name}: ${bad}`);
      assert.equal((markup.match(/class="thumb( open)?"/g) ?? []).length, 8, name);
    }
  });
}

test('model view: the temperature slider steps through TEMPERATURES, 1 (the model as trained) among them, rising', async () => {
  assert.ok(TEMPERATURES.includes(1));
  for (let k = 1; k < TEMPERATURES.length; k++) assert.ok(TEMPERATURES[k] > TEMPERATURES[k - 1]);
  const strings = await loadStrings('en');
  const markup = toMarkup(modelView(results('unscaled', 'i do n\'t think so'.split(' '), { temperature: 2 }), { strings, heading: 3 }, THEMES.light, { width: 900 }));
  const slider = markup.match(/<input type="range"[^>]*data-intent="temperature"[^>]*>/)?.[0] ?? '';
  assert.match(slider, new RegExp(`max="${TEMPERATURES.length - 1}"`));
  assert.match(slider, new RegExp(`value="${TEMPERATURES.indexOf(2)}"`));
  assert.match(slider, /aria-valuetext="2\.00"/);
});

test('model view: the facts it states come from the runs', () => {
  const r = results('scaled', 'the cat sat on the mat'.split(' '), { layer: 1, head: 3 });
  const f = modelFacts(r);
  assert.equal(f.measured, r.info.headMeasurements[2]);
  assert.equal(f.here, r.run.heads[2]);
  assert.equal(f.top, r.run.next.top[0]);
  assert.ok(Math.abs(f.spread - r.run.heads.reduce((s, h) => s + h.spread, 0) / 8) < 1e-6, 'the core\'s mean of the heads\' spreads');
  assert.ok(f.contrastSpread < f.spread, 'without √d_k the rows are more peaked');
  const repeated = results('scaled', repeatedSequences(models.scaled.vocab, { span: 12, seed: 7 })[0], { demo: true, layer: 2, head: 3 });
  const demo = modelFacts(repeated);
  // the opened head's weight at each word of the repeat on the word after its earlier copy, in float64
  const w = repeated.run.attention[1][2];
  let here = 0;
  for (let q = 12; q < 24; q++) here += w[q * 24 + q - 11] / 12;
  assert.ok(Math.abs(demo.induction.here - here) < 1e-6, `${demo.induction.here} vs ${here}`);
  assert.equal(demo.repeat.expected, repeatedSequences(models.scaled.vocab, { span: 12, seed: 7 })[0][12]);
});

test('the command line\'s figure: one svg element, its texts escaped, in both themes', async () => {
  const strings = await loadStrings('en');
  for (const theme of Object.values(THEMES)) {
    const svg = toMarkup(modelFigure(models.scaled.run('the <cat> & the "dog"'), { info: models.scaled.info, layer: 2, head: 1, theme, strings }));
    assert.match(svg, /^<svg /);
    assert.ok(svg.includes('&lt;cat&gt;') || svg.includes('&lt;') , 'markup in a token is escaped');
    assert.doesNotMatch(svg, /NaN|undefined|\{[a-z]+\}/);
  }
});

const f2 = (x) => x.toFixed(2);
const f3 = (x) => x.toFixed(3);

test('the opened head: the lab\'s heatmap gets its rows, causal, the looking word selected; its row is the lab\'s meters', async () => {
  const strings = await loadStrings('en');
  const r = results('scaled', 'the cat sat on the mat'.split(' '), { layer: 2, head: 3 });
  const data = openedHeadData(r);
  const n = 6;
  assert.equal(data.weights, r.run.attention[1][2]);
  assert.deepEqual([data.n, data.m, data.selected], [n, n, n - 1]);
  assert.deepEqual(data.queryLabels, r.run.tokens);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) assert.ok(j > i ? data.scores[i * n + j] === -Infinity : Number.isNaN(data.scores[i * n + j]), `score ${i},${j}: masked after the query, else not given`);
  assert.equal(openedHeadData({ ...r }), data, 'the same rows and row: the same data, drawn once');
  // the row of the third word: its weights as meters, the keys after it masked
  const third = { ...r, run: models.scaled.run(r.run.tokens, { position: 2 }) };
  assert.equal(openedHeadData(third).selected, 2);
  const markup = toMarkup(modelView(third, { strings, heading: 3 }, THEMES.light, { width: 900 }));
  assert.match(markup, /<attention-heatmap data-intent="row"><\/attention-heatmap>/);
  const w = third.run.attention[1][2];
  assert.match(markup, /<div class="rowbars" role="group" aria-label="[^"]*sat[^"]*"><probability-bars><\/probability-bars><\/div>/);
  // what the lab's bars are given, as they show it: a meter per key, no Σ or entropy (not a trained model's result)
  const row = openedRowData(third);
  assert.equal(openedRowData({ ...third }), row, 'the same rows and word: the same data, drawn once');
  const scene = barsScene(row, strings);
  assert.deepEqual(scene.rows.map((x) => [x.name, x.valueText]), r.run.tokens.map((token, j) => [`${token} (key ${j + 1})`, j <= 2 ? f3(w[2 * n + j]) : 'masked (causal)']));
  assert.equal(scene.summary, null);
  assert.deepEqual(scene.rows.map((x) => x.max), [0, 1, 2, 3, 4, 5].map((j) => j <= 2 && w[2 * n + j] === Math.max(w[2 * n], w[2 * n + 1], w[2 * n + 2])));
  assert.match(markup, /Where “sat” looks in this head/);
});

test('a thumbnail\'s pixels: each cell the colour of its weight, the keys after a word empty', () => {
  // three words, two pixels a cell: the first looks at itself, the second half and half, the third at itself
  const w = new Float32Array([1, 0, 0, 0.5, 0.5, 0, 0, 0, 1]);
  for (const theme of [THEMES.light, THEMES.dark]) {
    const accent = [...parseColor(theme.accent).slice(0, 3), 255];
    const empty = [...parseColor(theme.cell).slice(0, 3), 255];
    const pixels = thumbnailPixels(w, 3, 6, theme, true);
    assert.equal(pixels.length, 6 * 6 * 4);
    // the four pixels of cell i, j
    const cell = (drawn, i, j) => [0, 1].flatMap((dy) => [0, 1].map((dx) => [...drawn.slice(((2 * i + dy) * 6 + 2 * j + dx) * 4, ((2 * i + dy) * 6 + 2 * j + dx) * 4 + 4)]));
    const all = (i, j, color, drawn = pixels) => cell(drawn, i, j).forEach((p) => p.forEach((v, k) => assert.ok(Math.abs(v - color[k]) <= 1, `cell ${i},${j}: ${p} against ${color}`)));
    all(0, 0, accent);
    all(2, 2, accent);
    all(2, 0, empty);
    all(2, 1, empty);
    for (const [i, j] of [[0, 1], [0, 2], [1, 2]]) all(i, j, [0, 0, 0, 0]);
    const half = cell(pixels, 1, 0)[0];
    all(1, 1, half);
    // a weight of one half lies between the empty cell and the accent
    for (let k = 0; k < 3; k++) assert.ok(Math.min(accent[k], empty[k]) <= half[k] && half[k] <= Math.max(accent[k], empty[k]), `half: ${half}`);
    assert.equal(thumbnailPixels(w, 3, 6, theme, true), pixels, 'the same rows, size and colours: the same pixels');
    // attention that is not causal fills every cell
    all(0, 2, empty, thumbnailPixels(w, 3, 6, theme, false));
  }
});

test('loading: which twin and file, bytes of the total when known, then the result; a failure names its file and offers a retry', async () => {
  const strings = await loadStrings('en');
  const draw = (r) => toMarkup(modelView(r, { strings, heading: 3 }, THEMES.dark, { width: 390 }));
  const loading = draw({ status: { state: 'loading', variant: 'unscaled', file: 'unscaled.weights', loaded: 985688, total: 1971376 } });
  assert.match(loading, /<p role="status" class="note">Loading the twin trained without √d_k \(unscaled\.weights\)…<\/p>/);
  assert.match(loading, /<progress max="1971376" value="985688" aria-label="unscaled.weights"><\/progress>/);
  assert.match(loading, /0\.99 of 1\.97 MB/);
  const unknown = draw({ status: { state: 'loading', variant: 'scaled', file: 'scaled.weights', loaded: 0, total: 0 } });
  assert.match(unknown, /<progress aria-label="scaled.weights"><\/progress>/, 'no total: an indeterminate bar');
  const failed = draw({ status: { state: 'failed', variant: 'scaled', file: 'scaled.weights', message: 'HTTP 404' } });
  assert.match(failed, /Could not load scaled\.weights: HTTP 404/);
  assert.match(failed, /<button type="button" data-intent="retry">Try again<\/button>/);
  const loaded = toMarkup(modelView(results('scaled', ['the', 'cat']), { strings, heading: 3 }, THEMES.light, { width: 900 }));
  assert.match(loaded, /^<div class="view"><div class="status"><p role="status" class="note">Loaded the model trained with √d_k \(scaled\.weights\)\.<\/p>/, 'the live region stays first');
  const curvesFailed = toMarkup(modelView({ ...results('scaled', ['the', 'cat']), curves: null, curvesStatus: { state: 'failed', file: 'unscaled-curve.tsv', message: 'HTTP 404' } }, { strings, heading: 3 }, THEMES.light, { width: 900 }));
  assert.match(curvesFailed, /Could not load unscaled-curve\.tsv: HTTP 404/);
  const nb = await loadStrings('nb');
  assert.match(toMarkup(modelView({ status: { state: 'loading', variant: 'scaled', file: 'scaled.weights', loaded: 500000, total: 1971376 } }, { strings: nb, heading: 3 }, THEMES.light, { width: 900 })), /0,50 av 1,97 MB/);
});

test('the twins\' curves: every number said or tabled is the files\'', async () => {
  // parseCurve against the rows read here
  for (const variant of ['scaled', 'unscaled']) {
    const c = curves[variant];
    assert.equal(c.steps.length, rows[variant].length);
    rows[variant].forEach((row, i) => {
      assert.equal(c.steps[i], Number(row[0]));
      assert.equal(c.train[i], Number(row[2]));
    });
    assert.deepEqual(c.heldOut.map((p) => [p.step, p.loss, p.train]), heldRows(variant).map((row) => [Number(row[0]), Number(row[3]), Number(row[2])]));
  }
  const f = curveFacts(curves);
  const check = (v, k) => Number(heldRows(v).at(k)[3]);
  assert.equal(f.every, Number(heldRows('scaled')[1][0]) - Number(heldRows('scaled')[0][0]));
  assert.equal(f.checks, heldRows('scaled').length);
  const strings = await loadStrings('en');
  const markup = toMarkup(curveChart(curves, { strings, heading: 3 }, THEMES.light, { width: 900 }));
  const said = markup.match(/<p>(Both twins.*?)<\/p>/)[1];
  assert.equal(said, `Both twins learned from the same batches in the same order. `
    + `Their loss on held-out text, measured every ${f.every} steps (the marks), went from ${f2(check('scaled', 0))} with √d_k and ${f2(check('unscaled', 0))} without at step ${heldRows('scaled')[0][0]} `
    + `to ${f2(check('scaled', -1))} and ${f2(check('unscaled', -1))} at step ${Number(heldRows('scaled').at(-1)[0]).toLocaleString('en')}.`);
  // the table: one row per held-out check, the training and held-out loss of each twin
  const body = markup.match(/<tbody>(.*?)<\/tbody>/)[1];
  const tableRows = [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1].matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1]));
  assert.deepEqual(tableRows, heldRows('scaled').map((row, k) => {
    const other = heldRows('unscaled')[k];
    return [Number(row[0]).toLocaleString('en'), f3(Number(row[2])), f3(Number(row[3])), f3(Number(other[2])), f3(Number(other[3]))];
  }));
  // the marks: one per check and twin, each titled with its number
  assert.equal((markup.match(/<circle /g) ?? []).length, heldRows('scaled').length + 1, 'the scaled twin’s marks, and its legend’s');
  assert.ok(markup.includes(`<title>with √d_k, step ${heldRows('scaled')[0][0]}: held-out loss ${f3(check('scaled', 0))}</title>`));
  assert.doesNotMatch(markup, /NaN|undefined|\{[a-zA-Z]+\}/);
  const nb = toMarkup(curveChart(curves, { strings: await loadStrings('nb'), heading: 3 }, THEMES.dark, { width: 360 }));
  assert.ok(nb.includes(`ved steg ${heldRows('scaled')[0][0]} til ${f2(check('scaled', -1)).replace('.', ',')}`), 'bokmål, with a decimal comma');
  assert.doesNotMatch(nb, /NaN|undefined|\{[a-zA-Z]+\}/);
});

test('parseCurve refuses what is not a curve, saying where', () => {
  assert.throws(() => parseCurve('step\tloss\n1\t2\n'), /not a training curve/);
  assert.throws(() => parseCurve('step\tlr\ttrain_loss\tvalidation_loss\n1\t0.1\tx\t\n'), /line 2/);
  assert.throws(() => parseCurve('step\tlr\ttrain_loss\tvalidation_loss\n2\t0.1\t3\t\n1\t0.1\t3\t4\n'), /line 3/);
  assert.throws(() => parseCurve('step\tlr\ttrain_loss\tvalidation_loss\n1\t0.1\t3\t\n'), /no held-out loss/);
});

test('supplied attention: counts of one are singular, in both languages', async () => {
  const { attentionFromBertViz } = await import('../../web/api/model.js');
  const { suppliedView } = await import('../../web/views/model.js');
  const text = async (attention, tokens, lang) => {
    const run = await attentionFromBertViz({ tokens, attention });
    const r = { supplied: { file: null }, run: { ...run, position: 0, known: tokens.map(() => true) }, layer: 1, head: 1, tolerance: run.tolerance };
    return toMarkup(suppliedView(r, { strings: await loadStrings(lang), heading: 3 }, THEMES.light, { width: 640 })).replace(/<[^>]*>/g, ' ');
  };
  const one = [[[[1]]]]; // 1 layer, batch 1, 1 head, 1 × 1
  assert.match(await text(one, ['solo'], 'en'), /from another model \(1 layer × 1 head, 1 token\)/);
  assert.match(await text(one, ['solo'], 'nb'), /fra en annen modell \(1 lag × 1 hode, 1 token\)/);
  const row = [0.5, 0.5];
  const two = [0, 1].map(() => [[row.map(() => row), row.map(() => row)]]); // 2 layers × 2 heads × 2 tokens
  assert.match(await text(two, ['a', 'b'], 'en'), /\(2 layers × 2 heads, 2 tokens\)[\s\S]*Every head: 2 layers × 2 heads/);
  assert.match(await text(two, ['a', 'b'], 'nb'), /\(2 lag × 2 hoder, 2 tokener\)/);
});

test('supplied attention: the way back is the host\'s (a slot), never a button of the view\'s own', async () => {
  const { attentionFromBertViz } = await import('../../web/api/model.js');
  const { suppliedView } = await import('../../web/views/model.js');
  const strings = await loadStrings('en');
  const run = await attentionFromBertViz({ tokens: ['a', 'b'], attention: [[[[1, 0], [0.5, 0.5]]]] });
  const shown = { supplied: { file: 'x.json' }, run: { ...run, position: 1, known: [true, true] }, layer: 1, head: 1, tolerance: run.tolerance };
  const failed = { supplied: { file: 'x.json' }, error: 'row 2 sums to 1.3' };
  const loading = { supplied: { file: 'x.json' }, loading: true };
  const markup = (r) => toMarkup(suppliedView(r, { strings, heading: 3 }, THEMES.light, { width: 640 }));
  for (const [what, r] of Object.entries({ shown, failed })) {
    assert.equal(markup(r).match(/<slot name="back">/g)?.length, 1, `${what}: one slot for the host's control`);
    assert.doesNotMatch(markup(r), /trained model instead|Back to the lab|data-intent="trainedModel"/, `${what}: no way back of its own`);
  }
  assert.doesNotMatch(markup(loading), /<slot/, 'while the file loads, no way back is shown');
});

test('the twins’ perplexities are named by how each was trained, whichever twin is shown', async () => {
  // the files' own numbers, read apart from the view: the scaled model's and the unscaled one's
  const [scaled, unscaled] = [models.scaled.info.heldOutPerplexity, models.unscaled.info.heldOutPerplexity];
  assert.notEqual(scaled.toFixed(2), unscaled.toFixed(2));
  for (const lang of ['en', 'nb']) {
    const strings = await loadStrings(lang);
    for (const variant of ['scaled', 'unscaled']) {
      const markup = toMarkup(modelView(results(variant, 'the cat sat on the mat'.split(' ')), { strings, heading: 3 }, THEMES.light, { width: 900 }));
      const [withScale, without] = lang === 'en'
        ? [/trained with √d_k has a perplexity of ([\d.]+)/, /trained without it ([\d.]+)/]
        : [/trent med √d_k en perpleksitet på (\d+,\d+)/, /trent uten (\d+,\d+)/];
      const read = (re) => Number(markup.match(re)?.[1].replace(',', '.'));
      assert.equal(read(withScale), Number(scaled.toFixed(2)), `${lang}, ${variant} shown: the scaled model's perplexity`);
      assert.equal(read(without), Number(unscaled.toFixed(2)), `${lang}, ${variant} shown: the unscaled twin's`);
    }
  }
});
