// The lab's two pictures without a browser: the heatmap and the bars as scenes
// (web/views/heatmap.js, bars.js), written as SVG text with toMarkup, from a LabState made in
// Node. The numbers in the text are read back and checked against the engine's result; the
// colours against what a reader relies on (a heavier weight is a stronger colour).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEngine } from '../../web/core/engine.js';
import { loadVocab } from '../../web/core/vocab.js';
import { LabPipeline } from '../../web/lab/inputs.js';
import { createStore } from '../../web/lab/settings.js';
import { heatmapData, labState, queryRow } from '../../web/lab/state.js';
import { barsScene, barsSvg } from '../../web/views/bars.js';
import { luminance } from '../../web/views/color.js';
import { LABEL_CHARS, TIP_CHARS } from '../../web/i18n/format.js';
import { toMarkup } from '../../web/views/h.js';
import { MAX_LABEL_PX, MIN_CELL, approximateMeasure, heatmapScene, heatmapSvg, patternId } from '../../web/views/heatmap.js';
import { THEMES } from '../../web/views/theme.js';

const engine = await createEngine();
const vocab = await loadVocab(); // every bucket, from the package's files
const pipeline = new LabPipeline(engine, vocab);

function stateWith(patch) {
  const store = createStore();
  assert.deepEqual(store.set(patch).rejected, {});
  return labState(store.get(), pipeline, engine);
}

const unescape = (text) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
const all = (markup, pattern) => [...markup.matchAll(pattern)].map((match) => match.slice(1).map(unescape));

test('heatmap SVG: one titled cell per (query, key) with the engine’s weight, numbers on large cells', () => {
  const state = stateWith({});
  const svg = toMarkup(heatmapSvg(heatmapScene(heatmapData(state), { width: 640, theme: THEMES.light })));
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
  const titles = all(svg, /<title>([^<]*)<\/title>/g).map(([t]) => t);
  assert.equal(titles.length, 100);
  const { n, m, queryLabels, keyLabels, result } = state;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      assert.equal(titles[i * m + j], `${queryLabels[i]} → ${keyLabels[j]}: weight ${result.weights[i * m + j].toFixed(3)}`);
    }
  }
  assert.ok(titles.includes('cat → cat: weight 0.363'));
  // 640 px leave cells wide enough for their numbers (2 decimals), in row-major order
  const numbers = all(svg, /<text [^>]*text-anchor="middle"[^>]*>([^<]*)<\/text>/g).map(([t]) => t);
  assert.deepEqual(numbers, Array.from(result.weights, (w) => w.toFixed(2)));
  // the labels, the selected row's in bold
  assert.match(svg, /font-weight="600"[^>]*>cat<\/text>/);
  assert.doesNotMatch(svg, /NaN|Infinity|undefined/);
});

test('heatmap colours: a heavier weight is darker in light mode and lighter in dark mode; masked cells are hatched', () => {
  const state = stateWith({ causal: true });
  for (const [name, theme, sign] of [['light', THEMES.light, -1], ['dark', THEMES.dark, 1]]) {
    const svg = toMarkup(heatmapSvg(heatmapScene(heatmapData(state), { width: 640, theme })));
    const fills = all(svg, /<rect x="[\d.]+" y="[\d.]+" width="\d+" height="\d+" fill="([^"]+)"><title>/g).map(([f]) => f);
    assert.equal(fills.length, 100);
    const weights = state.result.weights;
    const cells = [];
    fills.forEach((fill, at) => {
      if (state.result.scores[at] === -Infinity) assert.equal(fill, `url(#${patternId('al-hatch', theme)})`, `${name}: masked cell ${at}`);
      else cells.push({ w: weights[at], l: luminance(fill) });
    });
    assert.equal(cells.length, 55); // 10 queries, query i sees i + 1 keys
    cells.sort((a, b) => a.w - b.w);
    for (let k = 1; k < cells.length; k++) assert.ok(sign * (cells[k].l - cells[k - 1].l) >= -1e-12, `${name}: ${JSON.stringify(cells.slice(k - 1, k + 1))}`);
    assert.match(svg, new RegExp(`<pattern id="${patternId('al-hatch', theme)}"[^]*fill="${theme.masked}"`));
  }
});

test('heatmap labels: fitted to 96 px in O(log n) measurements, whatever a token’s length; the same as a linear search', () => {
  // the linear search the heatmap used to do, as the reference: drop one character at a time
  const linear = (text, room, measure) => {
    if (measure(text) <= room) return text;
    let cut = text;
    while (cut.length > 1 && measure(`${cut}…`) > room) cut = cut.slice(0, -1);
    return `${cut}…`;
  };
  const words = ['cat', 'because', 'internationalization', 'x'.repeat(LABEL_CHARS), 'supercalifragilistic', 'W', 'ab'];
  for (const room of [96]) {
    const state = { n: words.length, m: 1, weights: new Float32Array(words.length), scores: new Float32Array(words.length), queryLabels: words, keyLabels: ['k'], selected: 0 };
    const scene = heatmapScene(state, { width: 600, theme: THEMES.light, measure: approximateMeasure });
    assert.deepEqual(scene.rowLabels, words.map((w) => linear(w, room, approximateMeasure)));
  }
  // one word of 100,000 characters and 128 tokens: bounded measurements, bounded size
  let calls = 0;
  const counting = (text) => {
    calls++;
    assert.ok(text.length <= LABEL_CHARS + 2, `measured ${text.length} characters`);
    return approximateMeasure(text);
  };
  const long = 'a'.repeat(100_000);
  const labels = [long, ...Array.from({ length: 127 }, (_, i) => `w${i}`)];
  const t = labels.length;
  const data = { n: t, m: t, weights: new Float32Array(t * t).fill(1 / t), scores: new Float32Array(t * t), queryLabels: labels, keyLabels: labels, selected: 0 };
  const scene = heatmapScene(data, { width: 900, theme: THEMES.light, measure: counting });
  assert.ok(calls <= 2 * (t + Math.ceil(Math.log2(LABEL_CHARS + 1)) + 1), `${calls} measurements`);
  assert.ok(approximateMeasure(scene.rowLabels[0]) <= MAX_LABEL_PX && scene.rowLabels[0].endsWith('…'));
  assert.ok(scene.x0 < MAX_LABEL_PX + 20);
  // the same label lists again: no new measurement
  const before = calls;
  heatmapScene({ ...data, selected: 3 }, { width: 900, theme: THEMES.light, measure: counting });
  assert.equal(calls, before);
  // the title says how long the word is, and spells out TIP_CHARS of it
  const svg = toMarkup(heatmapSvg(scene));
  assert.ok(svg.includes(`<title>${'a'.repeat(TIP_CHARS)}… (100,000 characters) → w0: weight 0.008</title>`));
  assert.ok(svg.length < 2_000_000, `${svg.length} characters of SVG`);
});

test('a heatmap that has the room for its cells fits the width it is given, long column labels and all', () => {
  // wider than the room only where a cell would go below MIN_CELL (then the grid scrolls, and says so)
  const words = ['the', 'government', 'said', 'that', 'it', 'would', 'act', 'on', 'the', 'extraordinary', 'report'];
  for (const width of [300, 366, 420, 560, 700, 900]) {
    for (const labels of [words, words.map((w) => w.slice(0, 2)), ['internationalization', ...words]]) {
      const t = labels.length;
      const data = { n: t, m: t, weights: new Float32Array(t * t).fill(1 / t), scores: new Float32Array(t * t), queryLabels: labels, keyLabels: labels, selected: 0 };
      const scene = heatmapScene(data, { width, theme: THEMES.light, measure: approximateMeasure });
      if (scene.cell > MIN_CELL) assert.ok(scene.width <= width, `${width} px, ${t} words from "${labels[0]}": cell ${scene.cell} px, scene ${scene.width} px`);
      else {
        // a cell one px bigger, with the last label's lean (or 24 px of margin) after it, would not fit
        const lean = scene.width - scene.x0 - t * scene.cell;
        assert.ok(scene.x0 + t * (MIN_CELL + 1) + Math.max(24, lean) > width, `${width} px, ${t} words: cells at their least only where they must be`);
      }
    }
  }
});

test('bars SVG: one row per key with the engine’s weight, the largest marked, Σ, entropy and max weight', () => {
  const state = stateWith({});
  const row = queryRow(state);
  const scene = barsScene(row);
  const svg = toMarkup(barsSvg(scene, { theme: THEMES.light, width: 420 }));
  const titles = all(svg, /<title>([^<]*)<\/title>/g).map(([t]) => t);
  assert.deepEqual(titles, state.keyLabels.map((k, j) => `${k} (key ${j + 1}): ${row.weights[j].toFixed(3)}`));
  const values = all(svg, /font-family="[^"]*"[^>]*>([\d.]+|masked)<\/text>/g).map(([t]) => t);
  assert.deepEqual(values, Array.from(row.weights, (w) => w.toFixed(3)));
  // the shown weights add up to 1, up to their rounding to 3 decimals
  const total = values.reduce((s, v) => s + Number(v), 0);
  assert.ok(Math.abs(total - 1) <= 0.0005 * values.length, `Σ shown ${total}`);
  // bar lengths are proportional to the weights; the largest is drawn in barMax
  const bars = all(svg, /<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="14" rx="3" fill="([^"]+)"\/>/g);
  const tracks = bars.filter(([, fill]) => fill === THEMES.light.track);
  const fills = bars.filter(([, fill]) => fill !== THEMES.light.track);
  assert.equal(tracks.length, 10);
  const trackW = Number(tracks[0][0]);
  fills.forEach(([width], j) => assert.ok(Math.abs(Number(width) - row.weights[j] * trackW) <= 0.01, `bar ${j}`));
  const largest = row.weights.indexOf(Math.max(...row.weights));
  assert.deepEqual(fills.map(([, fill]) => fill === THEMES.light.barMax), Array.from(row.weights, (_, j) => j === largest));
  const summary = unescape(/<line [^>]*\/><text [^>]*>(.*)<\/text><\/svg>$/.exec(svg)[1].replace(/<[^>]+>/g, ''));
  assert.equal(summary, `Σ weights ${row.rowSum.toFixed(3)}entropy ${row.entropy.toFixed(3)} natsmax weight ${row.maxWeight.toFixed(3)}`);
  assert.equal(scene.summary.sum, '1.000');
});

test('bars scene: masked keys say so, unknown words are listed, long labels are cut with their full text in the title', () => {
  const long = 'z'.repeat(5000);
  // no word the files know, so none is made from the sentence: all three are unknown
  const state = stateWith({ sentence: `qwfpgj ${long} blorfx`, causal: true, selected: 1 });
  const scene = barsScene(queryRow(state));
  assert.deepEqual(scene.rows.map((r) => [r.text, r.valueText, r.masked]), [
    [state.result.weights[3].toFixed(3), state.result.weights[3].toFixed(3), false],
    [state.result.weights[4].toFixed(3), state.result.weights[4].toFixed(3), false],
    ['masked', 'masked (causal)', true],
  ]);
  assert.deepEqual(scene.unknown, ['qwfpgj', long, 'blorfx']);
  assert.deepEqual(scene.rows.map((r) => r.unknown), [true, true, true]);
  assert.equal(scene.rows[1].label, `${'z'.repeat(LABEL_CHARS)}…`);
  assert.equal(scene.rows[1].title, `${'z'.repeat(TIP_CHARS)}… (5,000 characters)`);
  assert.equal(scene.rows[1].name, `${scene.rows[1].title} (key 2)`);
  assert.equal(scene.labelEm, 9);
  const svg = toMarkup(barsSvg(scene, { theme: THEMES.dark }));
  assert.ok(svg.includes(`fill="url(#${patternId('al-bars-hatch', THEMES.dark)})"`));
  assert.ok(!svg.includes('z'.repeat(TIP_CHARS + 1)));
});
