// The lab's state: settings → inputs → results, as the one frozen object that
// <attention-lab>.state is and its 'change' event announces (LabState in
// web/components/attention-lab.d.ts). No DOM: a page without the lab (the lesson alone) and
// Node build the same state with the same function. Also the inputs of the lab's two views,
// taken from a state.
import { labResults } from './results.js';

/**
 * The state for `settings` (a settings object of web/lab/settings.js), with Q, K, V from
 * `pipeline` (a LabPipeline of web/lab/inputs.js) and the results of `engine`. Throws, with a
 * message for the page, when the settings give nothing to compute (see inputs.js, results.js).
 */
export function labState(settings, pipeline, engine) {
  const frozen = Object.isFrozen(settings) ? settings : Object.freeze({ ...settings });
  const inputs = pipeline.inputs(frozen);
  const { result, probe } = labResults(inputs, frozen, engine);
  const { n, m, d, queryLabels, keyLabels, known, sources } = inputs;
  return Object.freeze({
    settings: frozen,
    tokens: Object.freeze(queryLabels.map((text, i) => Object.freeze({ text, known: known ? known[i] : null, source: sources ? sources[i] : null }))),
    queryLabels,
    keyLabels,
    unknown: inputs.unknown,
    projection: frozen.projection,
    n,
    m,
    d,
    dv: inputs.dv,
    q: inputs.q,
    k: inputs.k,
    v: inputs.v,
    x: inputs.x,
    scaled: frozen.scaled,
    temperature: frozen.temperature,
    causal: frozen.causal,
    positional: frozen.positional,
    selected: Math.min(frozen.selected, n - 1),
    result,
    probe,
  });
}

/**
 * One query row of a state, as web/views/bars.js draws it: the selected row (default) or row i.
 * { labels (m keys), weights, scores (m), rowSum, entropy, maxWeight, known (m booleans | null) }.
 */
export function queryRow(state, i = state.selected) {
  const { m, result } = state;
  const row = (array) => array.subarray(i * m, (i + 1) * m);
  return {
    labels: state.keyLabels,
    weights: row(result.weights),
    scores: row(result.scores),
    rowSum: result.rowSum[i],
    entropy: result.entropy[i],
    maxWeight: result.maxWeight[i],
    known: knownKeys(state),
  };
}

/** The probe's row (as queryRow), or null without a probe. */
export function probeRow(state) {
  const probe = state.probe;
  if (!probe) return null;
  const { result } = probe;
  return {
    labels: state.keyLabels,
    weights: result.weights,
    scores: result.scores,
    rowSum: probe.rowSum,
    entropy: result.entropy[0],
    maxWeight: result.maxWeight[0],
    known: knownKeys(state),
  };
}

/** The heatmap's data (web/views/heatmap.js): { n, m, weights, scores, dots, queryLabels, keyLabels, selected }. */
export function heatmapData(state) {
  const { n, m, result, queryLabels, keyLabels, selected } = state;
  return { n, m, weights: result.weights, scores: result.scores, dots: result.dots, queryLabels, keyLabels, selected };
}

// In the lab a key is a query too (identity and random: the same tokens); pasted keys have no words.
function knownKeys(state) {
  return state.projection === 'pasted' ? null : state.tokens.map((token) => token.known);
}
