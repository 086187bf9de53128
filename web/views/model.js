// What a trained model looks at: the learner's sentence in the model's tokens, every layer × head
// as a small heatmap (a button that opens it), the opened head in the lab's own heatmap
// (<attention-heatmap>, given openedHeadData) and its selected row as the lab's bars (meters),
// with what the head measurably does over the test text and in this sentence, the next-word
// distribution as probability bars, and what removing √d_k, or the twin trained without it (its
// heads, its curve: model-curve.js), changes. Draws the results of <model-view>
// (web/components/lesson/model-view.js): runs of attention-lab/model, the twins' curves, and
// how loading goes.
import { english } from '../i18n/i18n.js';
import { headingTag, plot, weightRamp, weightStep } from './chart.js';
import { parseColor } from './color.js';
import { shortLabel } from '../i18n/format.js';
import { h } from './h.js';
import { heatmapScene, heatmapSvg } from './heatmap.js'; // the command line's figure: the lab's own heatmap
import { curveChart } from './model-curve.js';

const THUMB_MAX = 120;
const THUMB_MIN_ROOM = 80; // px a thumbnail needs beside the others: a layer's four in a row on a phone, its name wrapped
/** The most thumbnails in one row (the element's style sheet has a grid for each count). */
export const THUMB_MAX_PER_ROW = 16;
/** The next word's temperatures: the slider's steps (its value is the index of one). */
export const TEMPERATURES = Object.freeze([0.25, 0.5, 0.75, 1, 1.5, 2, 3]);
// a head's role (cpp/model/heads.hpp, HeadRole) in a word, and what it means
const ROLE = { previous: 'modelView.rolePrevious', first: 'modelView.roleFirst', self: 'modelView.roleSelf', broad: 'modelView.roleBroad', mixed: 'modelView.roleMixed' };
const ROLE_MEANS = { previous: 'modelView.meansPrevious', first: 'modelView.meansFirst', self: 'modelView.meansSelf', broad: 'modelView.meansBroad', mixed: 'modelView.meansMixed' };
// An induction score at least this (issue 34's target; even rows give ~0.02) names a head an
// induction head beside its role by position: the core measures the score, the page only names it.
export const INDUCTION_HEAD = 0.3;
const isInduction = (m) => m.induction >= INDUCTION_HEAD;
const BAR_ROW = 22;
// From this width the view lays out in two columns (the opened head's words beside its heatmap,
// the next word beside √d_k) with COLUMN_GAP between them: no half of a wide screen left empty.
const TWO_COLUMNS = 1000;
const COLUMN_GAP = 32; // px, as .view.wide's column-gap in web/components/lesson/model-view.js
const UNKNOWN = '<unk>'; // the model's token for every word it does not know

/**
 * What the view states in numbers, from the results alone (tests/js/model-view.test.mjs holds
 * every sentence to these): for the opened head, this sentence and the test text; the
 * next word; the effect of the other scaling; the twin.
 */
export function modelFacts(r) {
  const { run, contrast, info, twin, layer, head } = r;
  const i = (layer - 1) * info.heads + (head - 1);
  const measured = info.headMeasurements[i];
  const top = run.next.top[0];
  const facts = {
    measured, here: run.heads[i], even: info.measuredOver.even,
    top, entropy: run.next.entropy, unknown: run.next.unknown,
    spread: run.meanSpread,
    perplexity: info.heldOutPerplexity, twinPerplexity: twin.heldOutPerplexity,
    // by how each twin was trained, whichever of the two is shown
    perplexityScaled: info.scaled ? info.heldOutPerplexity : twin.heldOutPerplexity,
    perplexityUnscaled: info.scaled ? twin.heldOutPerplexity : info.heldOutPerplexity,
    trigram: info.baselines.find((b) => b.name === 'Kneser-Ney trigram').testPerplexity,
  };
  if (contrast) facts.contrastSpread = contrast.meanSpread;
  // the spread of each layer's heads over the test text, this twin and the other
  facts.layers = Array.from({ length: info.layers }, (_, l) => {
    const range = (list) => {
      const spreads = list.slice(l * info.heads, (l + 1) * info.heads).map((x) => x.spread);
      return [Math.min(...spreads), Math.max(...spreads)];
    };
    return { layer: l + 1, here: range(info.headMeasurements), twin: range(twin.headMeasurements) };
  });
  if (r.demo) {
    // on the repeated words: the opened head's induction score here (the core's, measured on this
    // run), and what the model expects after the last word against what the earlier copy went on with
    const n = run.tokens.length, span = n / 2;
    facts.induction = { here: run.heads[i].induction, measured: measured.induction, best: Math.max(...info.headMeasurements.map((x) => x.induction)), even: info.measuredOver.induction.even };
    const at = run.position;
    facts.repeat = { expected: at >= span ? run.tokens[at - span + 1] : null, predicted: top.word, probability: top.probability };
  }
  return facts;
}

// Where the model gives no score: its runs hold weights only. A causal row hides the keys after
// its query (−Infinity, as the lab marks them); the others are NaN, "not given" (never drawn as a
// number: the lab's heatmap writes "—" for its score). Attention supplied from another model may
// be causal or not (run.causal); a trained model's run always is.
const masks = new Map(); // `${n}|${causal}` → Float32Array n×n
function scoreMask(n, causal = true) {
  const key = `${n}|${causal}`;
  let mask = masks.get(key);
  if (!mask) {
    mask = new Float32Array(n * n).fill(NaN);
    if (causal) for (let i = 0; i < n; i++) mask.fill(-Infinity, i * n + i + 1, (i + 1) * n);
    masks.set(key, mask);
  }
  return mask;
}

const openedData = new WeakMap(); // a head's rows → the data last made of them

// Each run has its own array of tokens; the heatmap fits and paints its labels again for a new
// array, so the same words (√d_k toggled, the other twin) are handed over as the same array.
let lastLabels = [];
function sameLabels(tokens) {
  if (tokens.length !== lastLabels.length || tokens.some((token, i) => token !== lastLabels[i])) lastLabels = tokens;
  return lastLabels;
}
/**
 * The opened head as the data of the lab's <attention-heatmap> (web/components/lab/attention-heatmap.js):
 * its n×n causal rows, the tokens as queries and keys, the looking word's row selected. The same
 * rows and selection give the same object (the heatmap draws only when its data changes).
 */
export function openedHeadData(r) {
  const { run, layer, head } = r;
  const weights = run.attention[layer - 1][head - 1];
  const previous = openedData.get(weights);
  if (previous?.selected === run.position) return previous;
  const n = run.tokens.length;
  const labels = sameLabels(run.tokens);
  const data = Object.freeze({ n, m: n, weights, scores: scoreMask(n, run.causal), dots: null, queryLabels: labels, keyLabels: labels, selected: run.position });
  openedData.set(weights, data);
  return data;
}

const MB = 1e6;
const TWIN = { scaled: 'modelView.theScaledTwin', unscaled: 'modelView.theUnscaledTwin' };

// How loading goes (results.status): loading with a progress bar, loaded, or failed with the file
// and a button to try again. Its first paragraph is a live region that stays in its place, so a
// screen reader hears "loading", then the result.
function statusBlock(status, s) {
  if (!status) return h('div', { class: 'status' }, h('p', { role: 'status', class: 'note' }));
  const twin = s.t(TWIN[status.variant]);
  if (status.state === 'loading') {
    const known = status.total > 0;
    return h('div', { class: 'status' }, [
      h('p', { role: 'status', class: 'note' }, s.t('modelView.loading', { twin, file: status.file })),
      h('p', { class: 'progress' }, [
        h('progress', { max: known ? status.total : null, value: known ? status.loaded : null, 'aria-label': status.file }),
        ' ',
        h('span', { class: 'stats' }, known
          ? s.t('modelView.loadingBytes', { loaded: s.fixed(status.loaded / MB, 2), total: s.fixed(status.total / MB, 2) })
          : s.t('modelView.loadingAbout')),
      ]),
    ]);
  }
  if (status.state === 'failed') return failure(status, s, 'modelView.failedModel');
  return h('div', { class: 'status' }, h('p', { role: 'status', class: 'note' }, s.t('modelView.loaded', { twin, file: status.file })));
}

// A file that could not be loaded: which, why, and a button to try again.
function failure({ file, message }, s, otherwise) {
  return h('div', { class: 'status' }, [
    h('p', { role: 'status', class: 'alert' }, file ? s.t('modelView.failed', { file, message }) : s.t(otherwise, { message })),
    h('button', { type: 'button', 'data-intent': 'retry' }, s.t('modelView.retry')),
  ]);
}

/** (results of <model-view>, settings { strings, heading }, theme, { width }) → view nodes; attention supplied from another model draws suppliedView. */
export function modelView(r, { strings = english(), heading }, theme, { width }) {
  if (r.supplied) return suppliedView(r, { strings, heading }, theme, { width });
  const s = strings;
  const status = statusBlock(r.status, s);
  if (!r.run) return h('div', { class: 'view' }, [status]);
  const hn = headingTag({ heading });
  const { run, info, layer, head, variant } = r;
  const f = modelFacts(r);
  const n = run.tokens.length;
  const fx = (x, d = 2) => s.fixed(x, d);
  const word = (token) => shortLabel(token);
  const unknownCount = run.known.filter((k) => !k).length;
  const wide = width >= TWO_COLUMNS;
  const column = wide ? Math.floor((width - COLUMN_GAP) / 2) : width; // a plot's width in its column

  // ---- the controls ----
  const controls = h('div', { class: 'controls' }, [
    h('fieldset', { class: 'twins' }, [
      h('legend', {}, s.t('modelView.twin')),
      ['scaled', 'unscaled'].map((v) =>
        h('label', { class: 'inline' }, [
          h('input', { type: 'radio', name: 'variant', value: v, checked: v === variant, 'data-intent': 'variant' }),
          s.t(v === 'scaled' ? 'modelView.twinScaled' : 'modelView.twinUnscaled'),
        ])),
    ]),
    h('label', { class: 'inline' }, [
      h('input', { type: 'checkbox', checked: !r.scaleAtInference, disabled: variant !== 'scaled', 'data-intent': 'removeScale' }),
      s.t('modelView.removeScale'),
    ]),
    h('button', { type: 'button', 'data-intent': 'demo' }, s.t(r.demo ? 'modelView.backToSentence' : 'modelView.repeatWords')),
  ]);

  // ---- the sentence in the model's tokens ----
  const tokens = h('p', { class: 'tokens', 'aria-label': s.t('modelView.tokensLabel', { count: n }) },
    run.tokens.map((token, i) => h('span', { class: run.known[i] ? 'token' : 'token unknown', title: run.known[i] ? null : s.t('modelView.unknownTitle', { unk: UNKNOWN }) }, word(token))));
  const tokenNote = [
    unknownCount ? s.t('modelView.unknownNote', { count: unknownCount, vocab: s.integer(info.vocabSize), unk: UNKNOWN }) : s.t('modelView.allKnown', { vocab: s.integer(info.vocabSize) }),
    run.truncated ? s.t('modelView.truncated', { context: info.context, count: run.truncated }) : null,
  ].filter(Boolean).join(' ');

  // ---- every head, small ----
  const thumbs = headThumbs(run, info.headMeasurements, { layer, head, width, strings: s });

  // ---- the opened head: the lab's heatmap (its data set by the element: openedHeadData) and bars ----
  const m = f.measured;
  const looking = word(run.tokens[run.position]);
  const opened = h('section', { class: 'opened' }, [
    h('div', { class: 'about' }, [
      h(hn, {}, s.t('modelView.openedTitle', { layer, head })),
      h('p', {}, s.t('modelView.measured', { windows: s.integer(info.measuredOver.windows), tokens: info.measuredOver.tokens,
        previous: fx(m.previous), first: fx(m.first), self: fx(m.self), even: fx(f.even), spread: fx(m.spread) })),
      h('p', {}, s.t(ROLE_MEANS[m.role])),
      isInduction(m) ? h('p', {}, s.t('modelView.meansInduction', { repeats: info.measuredOver.induction.repeats, induction: fx(m.induction), even: fx(info.measuredOver.induction.even) })) : null,
      h('p', {}, s.t('modelView.hereEven', { previous: fx(f.here.previous), first: fx(f.here.first), self: fx(f.here.self), even: fx(run.even), spread: fx(f.here.spread) })),
    ]),
    h('div', { class: 'picture' }, [
      h('div', { class: 'heatmap', role: 'group', 'aria-label': s.t('modelView.heatmapLabel', { n }) }, h('attention-heatmap', { 'data-intent': 'row' })),
      h('p', { class: 'note' }, s.t('modelView.heatmapNote')),
    ]),
    h('div', { class: 'row' }, [
      h(hn, {}, s.t('modelView.rowTitle', { word: looking })),
      rowBars(r, s),
    ]),
  ]);

  // ---- the next word: an aside the learner opens, with the two controls only it uses ----
  const after = word(run.tokens[run.position]);
  const bars = nextWordBars(run, theme, Math.min(column, 520), s);
  const next = aside('next', s.t('modelView.nextAside', { word: after }), [
    h('p', {}, s.t('modelView.nextExplain')),
    h('div', { class: 'controls' }, [
      h('label', { class: 'inline' }, [
        `${s.t('modelView.after')} `,
        h('select', { 'data-intent': 'position' }, run.tokens.map((token, i) => h('option', { value: i, selected: i === run.position }, `${i + 1}. ${word(token)}`))),
      ]),
      h('label', { class: 'inline' }, [
        `${s.t('modelView.temperature')} `,
        h('input', { type: 'range', min: 0, max: TEMPERATURES.length - 1, step: 1, value: TEMPERATURES.indexOf(r.temperature), 'data-intent': 'temperature', 'aria-valuetext': fx(r.temperature, 2) }),
        h('b', { class: 'stats' }, fx(r.temperature, 2)),
      ]),
    ]),
    bars,
    h('p', { class: 'stats' }, s.t('modelView.nextStats', { word: shortLabel(f.top.word), p: fx(f.top.probability, 3), entropy: fx(f.entropy, 2), unknown: fx(f.unknown, 3), the: fx(r.unigramThe, 3), unk: UNKNOWN })),
    r.demo && f.repeat.expected
      ? h('p', {}, s.t(f.repeat.expected === f.repeat.predicted ? 'modelView.repeatHit' : 'modelView.repeatMiss', { expected: word(f.repeat.expected), predicted: word(f.repeat.predicted), p: fx(f.repeat.probability, 3) }))
      : null,
  ]);

  // ---- √d_k: an aside the learner opens ----
  const scale = aside('scale', s.t('modelView.scaleAside'), [
    variant === 'scaled'
      ? h('p', {}, s.t(r.scaleAtInference ? 'modelView.scaleRemovedWould' : 'modelView.scaleRemoved', { dk: info.dK, root: fx(Math.sqrt(info.dK), 2), with: fx(r.scaleAtInference ? f.spread : f.contrastSpread), without: fx(r.scaleAtInference ? f.contrastSpread : f.spread) }))
      : h('p', {}, s.t('modelView.scaleUnscaled')),
    h('p', {}, s.t('modelView.twinCompare', { scaled: fx(f.perplexityScaled), unscaled: fx(f.perplexityUnscaled), trigram: fx(f.trigram) })),
    h('ul', {}, f.layers.map((l) => h('li', {}, s.t('modelView.layerSpread', { layer: l.layer, lo: fx(l.here[0]), hi: fx(l.here[1]), twinLo: fx(l.twin[0]), twinHi: fx(l.twin[1]),
      twin: s.t(variant === 'scaled' ? 'modelView.theUnscaledTwin' : 'modelView.theScaledTwin') })))),
    curves(r, s, theme, heading, column),
  ]);

  // ---- induction ----
  const induction = r.demo
    ? h('section', { class: 'induction' }, [
      h(hn, {}, s.t('modelView.inductionTitle')),
      h('p', {}, s.t('modelView.inductionExplain', { span: n / 2 })),
      h('p', {}, s.t('modelView.inductionHere', { layer, head, here: fx(f.induction.here), even: fx(f.induction.even), best: fx(f.induction.best), repeats: info.measuredOver.induction.repeats })),
      inductionVerdict(info, s),
    ])
    : null;

  return h('div', { class: wide ? 'view wide' : 'view' }, [
    status,
    h('p', { class: 'explain' }, s.t('modelView.intro', { layers: info.layers, heads: info.heads, parameters: s.integer(info.parameters), words: s.integer(info.corpus.train.tokens) })),
    controls,
    h(hn, {}, s.t('modelView.tokensTitle')),
    tokens,
    h('p', { class: 'note' }, tokenNote),
    h(hn, {}, s.t('modelView.thumbsTitle', counts(s, info.layers, info.heads))),
    thumbs,
    opened,
    next,
    induction,
    scale,
    // an aside the learner opens (the element keeps it open across drawings)
    h('details', { class: 'not-shown' }, [
      h('summary', {}, s.t('modelView.notShownTitle')),
      h('ul', { class: 'note' }, ['modelView.notShown1', 'modelView.notShown2'].map((key) => h('li', {}, s.t(key)))),
    ]),
  ]);
}

// An aside the learner opens, as the lesson's are ("Go deeper: …"): its summary, then its body
// (the element keeps it open across drawings).
function aside(name, summary, body) {
  return h('details', { class: `aside ${name}` }, [h('summary', {}, summary), h('div', { class: 'aside-body' }, body)]);
}

// Every head of a run, small: whole layers per row where a head's name fits under its picture,
// else a share of a layer; each a button named by its layer, head and role (`measured[k].role`).
function headThumbs(run, measured, { layer, head, width, strings: s }) {
  const heads = run.attention[0].length;
  const total = run.attention.length * heads;
  // whole layers per row where they fit (every layer in one row on a wide screen), else the
  // largest share of a layer that fits (its heads stay aligned)
  const fits = Math.max(1, Math.min(THUMB_MAX_PER_ROW, Math.floor(width / THUMB_MIN_ROOM)));
  let perRow = Math.min(total, fits);
  while (perRow > heads ? perRow % heads !== 0 || total % perRow !== 0 : heads % perRow !== 0) perRow--;
  const size = Math.max(48, Math.min(THUMB_MAX, Math.floor((width - 8 - (perRow - 1) * 12) / perRow) - 12));
  return h('div', { class: `thumbs per-row-${perRow}`, role: 'group', 'aria-label': s.t('modelView.thumbsLabel') },
    run.attention.map((layerHeads, l) => layerHeads.map((_, hIndex) => {
      const open = l + 1 === layer && hIndex + 1 === head;
      const name = s.t('modelView.headName', { layer: l + 1, head: hIndex + 1 });
      // its name is its visible text: the layer, the head and its role
      return h('button', { type: 'button', class: open ? 'thumb open' : 'thumb', 'aria-pressed': open ? 'true' : 'false', 'data-layer': l + 1, 'data-head': hIndex + 1 }, [
        // its cells: thumbnailPixels, painted by <model-view>; hidden from screen readers (the button speaks)
        h('canvas', { class: 'cells', width: size, height: size, 'aria-hidden': 'true' }),
        h('span', { class: 'thumb-name' }, name),
        h('span', { class: 'thumb-role' }, s.t(isInduction(measured[l * heads + hIndex]) ? 'modelView.roleInduction' : ROLE[measured[l * heads + hIndex].role])),
      ]);
    })));
}

// "2 layers", "1 head", "5 tokens": each count with its own plural, in the strings' language.
const counts = (s, layers, heads, n = 0) => ({
  layers: s.t('count.layers', { count: layers }),
  heads: s.t('count.heads', { count: heads }),
  n: s.t('count.tokens', { count: n }),
});

/**
 * Attention supplied from another model (<model-view>.attention: attentionFromBertViz's result)
 * drawn as a trained model's run is — every head small, one opened in the lab's heatmap, the
 * selected row as bars — said to be the user's, with no next word (it has no vocabulary here).
 * `r`: { supplied: { file }, run (the result, with position and known), layer, head, tolerance },
 * or { supplied, error } for data that cannot be shown, or { supplied, loading }. The slot `back`
 * holds the host's way back, if it has one (<model-view>).
 */
export function suppliedView(r, { strings = english(), heading }, theme, { width }) {
  const s = strings;
  const back = h('slot', { name: 'back' });
  const file = r.supplied.file;
  if (r.loading) return h('div', { class: 'view' }, h('div', { class: 'status' }, h('p', { role: 'status', class: 'note' }, s.t('suppliedView.loading', { file }))));
  if (r.error) return h('div', { class: 'view' }, h('div', { class: 'status' }, [h('p', { role: 'alert', class: 'alert' }, s.t('suppliedView.failed', { message: file ? `${file}: ${r.error}` : r.error })), back]));
  const hn = headingTag({ heading });
  const { run, layer, head } = r;
  const n = run.tokens.length, layers = run.attention.length, heads = run.attention[0].length;
  const here = run.heads[(layer - 1) * heads + head - 1];
  const fx = (x, d = 2) => s.fixed(x, d);
  return h('div', { class: 'view' }, [
    h('div', { class: 'status' }, h('p', { role: 'status', class: 'note' }, file ? s.t('suppliedView.fromFile', { file }) : '')),
    h('p', { class: 'explain supplied' }, s.t('suppliedView.intro', counts(s, layers, heads, n))),
    h('p', { class: 'note' }, s.t('suppliedView.checked', { tolerance: String(r.tolerance) })),
    back,
    h(hn, {}, s.t('suppliedView.tokensTitle')),
    h('p', { class: 'tokens', 'aria-label': s.t('modelView.tokensLabel', { count: n }) }, run.tokens.map((token) => h('span', { class: 'token' }, shortLabel(token)))),
    h(hn, {}, s.t('modelView.thumbsTitle', counts(s, layers, heads))),
    headThumbs(run, run.heads, { layer, head, width, strings: s }),
    h('section', { class: 'opened' }, [
      h(hn, {}, s.t('modelView.openedTitle', { layer, head })),
      h('p', {}, s.t('modelView.here', { previous: fx(here.previous), first: fx(here.first), self: fx(here.self), spread: fx(here.spread) })),
      h('p', {}, s.t(ROLE_MEANS[here.role])),
      h('div', { class: 'heatmap', role: 'group', 'aria-label': s.t('suppliedView.heatmapLabel', { n }) }, h('attention-heatmap', { 'data-intent': 'row' })),
      h('p', { class: 'note' }, s.t(run.causal ? 'suppliedView.heatmapNoteCausal' : 'suppliedView.heatmapNote')),
      h(hn, {}, s.t('modelView.rowTitle', { word: shortLabel(run.tokens[run.position]) })),
      rowBars(r, s),
    ]),
  ]);
}

// A head's weights as the RGBA pixels of its size × size thumbnail (<model-view> puts them on the
// button's canvas): each cell the colour of its weight (weightColor), the keys a causal row hides
// transparent. Pixels, not SVG cells: toggling √d_k repaints eight small canvases instead of
// restyling, laying out and repainting some thousand paths; and a pixel is a step on the ramp
// read from a table, not a colour looked up as text, so the first toggle, before the engine has
// optimised this loop, costs ~2 ms and not ~30 (docs/page-performance.md). The same rows, size
// and colours give the same array.
const drawnPixels = new WeakMap(); // a head's rows → { key, pixels }
const rampPixels = new WeakMap(); // a weightRamp → its colours as pixels read through a Uint32Array
export function thumbnailPixels(w, n, size, theme, causal = true) {
  const key = `${n}|${size}|${causal}|${theme.accent}|${theme.cell}`;
  const drawn = drawnPixels.get(w);
  if (drawn?.key === key) return drawn.pixels;
  const steps = weightRamp(theme);
  let colors = rampPixels.get(steps);
  if (!colors) {
    colors = new Uint32Array(steps.length);
    const bytes = new Uint8Array(colors.buffer); // the platform's byte order, as the canvas reads it
    steps.forEach((text, k) => {
      const [r, g, b, a] = parseColor(text);
      bytes.set([r, g, b, Math.round(a * 255)], 4 * k);
    });
    rampPixels.set(steps, colors);
  }
  const pixels = new Uint8ClampedArray(size * size * 4);
  const out = new Uint32Array(pixels.buffer);
  const cellOf = Array.from({ length: size }, (_, x) => Math.min(n - 1, Math.floor((x * n) / size))); // pixel → its row or column
  for (let y = 0; y < size; y++) {
    const i = cellOf[y];
    for (let x = 0; x < size; x++) {
      const j = cellOf[x];
      if (!causal || j <= i) out[y * size + x] = colors[weightStep(w[i * n + j])];
    }
  }
  drawnPixels.set(w, { key, pixels });
  return pixels;
}

// The twins' curves, or how loading them goes. The chart is made again only when what it shows
// changes: the same nodes are then patched in no time (a head opened redraws everything else).
const drawnCharts = new WeakMap(); // curves → { key, nodes }
function curves(r, s, theme, heading, width) {
  if (r.curves) {
    const key = [s.lang, heading, width, JSON.stringify(theme)].join('|');
    const drawn = drawnCharts.get(r.curves);
    if (drawn?.key === key && drawn.strings === s) return drawn.nodes;
    const nodes = curveChart(r.curves, { strings: s, heading }, theme, { width });
    drawnCharts.set(r.curves, { key, strings: s, nodes });
    return nodes;
  }
  if (r.curvesStatus?.state === 'failed') return failure(r.curvesStatus, s, 'modelView.curveFailed');
  return h('p', { class: 'note' }, s.t('modelView.curveLoading'));
}

// The looking word's row of the opened head as the lab's bars (web/components/lab/probability-bars.js,
// placed by rowBars: one role="meter" per key, 0…1, the weight its value; the keys after the word
// hatched, masked): the row alone — its Σ and entropy, which the lab's engine gives for its own
// rows, are not among a trained model's results (rowSum and entropy NaN: the bars show no summary).
// Which bar is the largest is presentation (it is drawn bold). The same rows and word give the
// same object (the element draws only a new one).
const openedRows = new WeakMap(); // a head's rows → the row data last made of them
export function openedRowData(r) {
  const { run, layer, head } = r;
  const w = run.attention[layer - 1][head - 1];
  const n = run.tokens.length, i = run.position;
  const previous = openedRows.get(w);
  if (previous?.position === i && previous.known === run.known) return previous.data;
  const weights = w.subarray(i * n, (i + 1) * n);
  const causal = run.causal ?? true;
  let largest = 0;
  for (let j = 0; j <= (causal ? i : n - 1); j++) largest = Math.max(largest, weights[j]);
  const data = Object.freeze({ labels: sameLabels(run.tokens), weights, scores: scoreMask(n, causal).subarray(i * n, (i + 1) * n), rowSum: NaN, entropy: NaN, maxWeight: largest, known: run.known });
  openedRows.set(w, { position: i, known: run.known, data });
  return data;
}

// Where the lab's bars go (<model-view> gives them openedRowData), named for a screen reader.
function rowBars(r, s) {
  const { run, layer, head } = r;
  const label = (run.causal ?? true) ? 'modelView.rowLabel' : 'suppliedView.rowLabel';
  return h('div', { class: 'rowbars', role: 'group', 'aria-label': s.t(label, { word: shortLabel(run.tokens[run.position]), layer, head }) }, h('probability-bars'));
}

// Probability bars: one row per item { label, probability }, its title the label and probability (3 decimals).
function probabilityBars(items, label, theme, width, s) {
  const labelW = 110, valueW = 56, track = Math.max(60, width - labelW - valueW - 16);
  const best = Math.max(...items.map((item) => item.probability));
  return plot(theme, { width, height: items.length * BAR_ROW + 4, label },
    items.map(({ label: name, probability: p }, k) => {
      const y = k * BAR_ROW;
      return h('g', {}, [
        h('title', `${name}: ${s.fixed(p, 3)}`),
        h('text', { x: labelW - 8, y: y + BAR_ROW / 2, 'text-anchor': 'end', 'dominant-baseline': 'central', 'font-size': 12, 'font-weight': p === best ? 600 : null }, shortLabel(name)),
        h('rect', { x: labelW, y: y + 4, width: track, height: BAR_ROW - 8, fill: theme.cell }),
        h('rect', { x: labelW, y: y + 4, width: Math.max(1, p * track), height: BAR_ROW - 8, fill: theme.accent }),
        h('text', { x: labelW + track + 8, y: y + BAR_ROW / 2, 'dominant-baseline': 'central', 'font-size': 12 }, s.fixed(p, 3)),
      ]);
    }));
}

// The next word's ten most likely, as probability bars.
function nextWordBars(run, theme, width, s) {
  return probabilityBars(run.next.top.map(({ word, probability }) => ({ label: word, probability })), s.t('modelView.nextLabel', { word: shortLabel(run.tokens[run.position]) }), theme, width, s);
}

/**
 * One head of a run as a standalone figure (the command line's SVG): its heatmap, the next word's
 * bars, and a caption naming the model, the head and the settings. `run` is a TrainedModel.run().
 */
export function modelFigure(run, { info, layer, head, theme, width = 640, strings = english() }) {
  const s = strings;
  return headFigure(run, {
    layer, head, causal: true, selected: run.position, theme, width, strings,
    title: s.t('modelView.figureTitle', { layer, head, model: s.t(info.scaled ? 'modelView.twinScaled' : 'modelView.twinUnscaled') }),
    more: { title: s.t('modelView.nextTitle', { word: shortLabel(run.tokens[run.position]) }), plot: nextWordBars(run, theme, Math.min(width - 2 * FIGURE_PAD, 480), s) },
    caption: s.t(run.scaleAtInference ? 'modelView.figureCaption' : 'modelView.figureCaptionRemoved', { temperature: s.fixed(run.temperature, 2), perplexity: s.fixed(info.heldOutPerplexity, 2) }),
  });
}

/**
 * One head of attention supplied from another model (attentionFromBertViz) as a standalone
 * figure: its heatmap (the last token's row selected) and a caption saying whose attention it is.
 */
export function suppliedFigure(supplied, { layer, head, theme, width = 640, strings = english() }) {
  const s = strings;
  const n = supplied.tokens.length;
  return headFigure(supplied, {
    layer, head, causal: supplied.causal, selected: n - 1, theme, width, strings,
    title: s.t('suppliedView.figureTitle', { layer, head }),
    caption: s.t('suppliedView.figureCaption', counts(s, supplied.attention.length, supplied.attention[0].length, n)),
  });
}

const FIGURE_PAD = 16;

// A title, one head's heatmap, `more` ({ title, plot }) when given, and a caption (its lines at
// each "\n"), stacked.
function headFigure(run, { layer, head, causal, selected, theme, width, strings: s, title, more, caption }) {
  const PAD = FIGURE_PAD;
  const scene = heatmapScene({ n: run.tokens.length, m: run.tokens.length, weights: run.attention[layer - 1][head - 1], scores: null, causal,
    queryLabels: run.tokens, keyLabels: run.tokens, selected }, { width: width - 2 * PAD, theme, strings: s });
  const heat = heatmapSvg(scene);
  let y = PAD;
  const children = [];
  const place = (node, height) => {
    children.push({ ...node, attrs: { ...node.attrs, x: PAD, y } });
    y += height;
  };
  children.push(h('text', { x: PAD, y: y + 15, 'font-size': 15, 'font-weight': 650, fill: theme.text }, title));
  y += 25;
  place(heat, Number(heat.attrs.height) + 20);
  if (more) {
    children.push(h('text', { x: PAD, y: y + 13, 'font-size': 13, 'font-weight': 600, fill: theme.text }, more.title));
    y += 22;
    place(more.plot, Number(more.plot.attrs.height) + 12);
  }
  // a picture of fewer pixels than cells says how it was drawn
  const { raster } = scene;
  if (raster?.pooled) caption += `\n${s.t('heatmap.pooled', { n: s.integer(scene.n), m: s.integer(scene.m), width: s.integer(raster.width), height: s.integer(raster.height) })}`;
  for (const line of caption.split('\n')) { // a long caption is written on lines of its own
    children.push(h('text', { x: PAD, y: y + 12, 'font-size': 12, fill: theme.muted }, line));
    y += 16;
  }
  y += PAD - 4;
  const w = Math.ceil(Math.max(width, Number(heat.attrs.width) + 2 * PAD));
  return h('svg', { width: w, height: Math.ceil(y), viewBox: `0 0 ${w} ${Math.ceil(y)}`, role: 'img', 'aria-label': title, 'font-family': theme.font },
    h('rect', { width: w, height: Math.ceil(y), fill: theme.bg }), children);
}

// whether the model has an induction head (the best by its measured score) and what made it
function inductionVerdict(info, s) {
  const list = info.headMeasurements;
  const best = list.reduce((a, b) => (b.induction > a.induction ? b : a));
  if (!isInduction(best)) return h('p', {}, s.t('modelView.inductionNone'));
  return h('p', {}, s.t('modelView.inductionFound', { layer: best.layer, head: best.head, share: s.percent(info.training.repeatShare) }));
}
