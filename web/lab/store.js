// The lab's state: one plain object, changed only through set(patch), which cleans the patch
// (types, ranges, the tokens of a sentence) so that what reaches the core is always valid.
// Flow: controls → store → core → result → views (web/components/attention-lab.js).

import { MAX_TOKENS, tokenize } from './tokenize.js';

export const DEFAULT_SENTENCE = 'The cat sat on the mat because it was tired';
export const DEFAULT_PROBE = 'animal';

/** Stops of the d_k slider (log steps). */
export const DK_STEPS = Object.freeze([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
/** Stops of the temperature slider. */
export const TEMPERATURE_STEPS = Object.freeze([0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 4, 10]);
export const PROJECTIONS = Object.freeze(['identity', 'random', 'pasted']);

const MAX_SEED = 0xffffffff;

/**
 * @typedef {object} LabSettings
 * @property {string} sentence    the text in the Tokens field
 * @property {string[]} tokens    the tokens (chips); the text's tokens unless edited as chips
 * @property {boolean} truncated  the text had more than MAX_TOKENS tokens
 * @property {string} probe       the cross-attention query word ('' = none)
 * @property {'identity'|'random'|'pasted'} projection
 * @property {number} dk          projected width 1…1024 (random projection)
 * @property {number} seed        seed of W_Q (W_K uses a derived seed)
 * @property {boolean} scaled     scale q·k by 1/√d_k
 * @property {number} temperature softmax temperature
 * @property {boolean} causal     query i sees keys j ≤ i
 * @property {boolean} positional add the sinusoidal positional encoding
 * @property {number} selected    the query row shown as bars
 * @property {object|null} pasted the last valid paste (web/lab/paste.js parseVectors + id)
 */
export function defaultSettings() {
  const tokens = tokenize(DEFAULT_SENTENCE);
  return {
    sentence: DEFAULT_SENTENCE,
    tokens,
    truncated: false,
    probe: DEFAULT_PROBE,
    projection: 'identity',
    dk: 64,
    seed: 1,
    scaled: true,
    temperature: 1,
    causal: false,
    positional: false,
    selected: tokens.indexOf('cat'),
    pasted: null,
  };
}

export function createStore(initial = defaultSettings()) {
  let state = Object.freeze({ ...initial });
  const listeners = new Set();
  let pasteId = 0;
  return {
    get: () => state,
    /** Applies a patch; invalid fields are dropped (returned in `rejected` with a reason). */
    set(patch) {
      const { clean, rejected } = cleanPatch(patch, state);
      if ('pasted' in clean && clean.pasted) clean.pasted = Object.freeze({ ...clean.pasted, id: ++pasteId });
      const changed = Object.keys(clean).some((key) => clean[key] !== state[key]);
      if (changed) {
        state = Object.freeze({ ...state, ...clean });
        for (const listener of listeners) listener(state);
      }
      return { rejected };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function cleanPatch(patch, state) {
  const clean = {};
  const rejected = {};
  for (const [key, value] of Object.entries(patch)) {
    const check = CHECKS[key];
    if (!check) {
      rejected[key] = 'unknown setting';
      continue;
    }
    const result = check(value, state, patch);
    if (typeof result === 'object' && result && 'error' in result) rejected[key] = result.error;
    else Object.assign(clean, result);
  }
  return { clean, rejected };
}

const CHECKS = {
  sentence(value, _state, patch) {
    if (typeof value !== 'string') return { error: 'must be text' };
    if ('tokens' in patch) return { sentence: value };
    const all = tokenize(value);
    return { sentence: value, tokens: all.slice(0, MAX_TOKENS), truncated: all.length > MAX_TOKENS };
  },
  tokens(value) {
    if (!Array.isArray(value) || !value.every((t) => typeof t === 'string' && t !== ''))
      return { error: 'must be a list of non-empty strings' };
    return { tokens: Object.freeze(value.slice(0, MAX_TOKENS)), truncated: value.length > MAX_TOKENS };
  },
  probe(value) {
    if (typeof value !== 'string') return { error: 'must be text' };
    const [word = ''] = tokenize(value);
    return { probe: word };
  },
  projection(value, state, patch) {
    if (!PROJECTIONS.includes(value)) return { error: `must be one of ${PROJECTIONS.join(', ')}` };
    if (value === 'pasted' && !state.pasted && !patch.pasted) return { error: 'paste Q and K first' };
    return { projection: value };
  },
  dk: (value) => integer('dk', value, 1, DK_STEPS.at(-1)),
  seed: (value) => integer('seed', value, 0, MAX_SEED),
  temperature(value) {
    const t = typeof value === 'string' ? Number(value) : value;
    if (typeof t !== 'number' || !(t >= 0.01 && t <= 100)) return { error: 'must be a number from 0.01 to 100' };
    return { temperature: t };
  },
  scaled: (value) => boolean('scaled', value),
  causal: (value) => boolean('causal', value),
  positional: (value) => boolean('positional', value),
  selected: (value) => integer('selected', value, 0, MAX_TOKENS - 1),
  pasted(value) {
    if (value !== null && (typeof value !== 'object' || !(value.q instanceof Float32Array)))
      return { error: 'must be the result of parseVectors' };
    return { pasted: value };
  },
};

function integer(key, value, min, max) {
  const x = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (!Number.isInteger(x) || x < min || x > max) return { error: `must be a whole number from ${min} to ${max}` };
  return { [key]: x };
}

function boolean(key, value) {
  if (typeof value === 'boolean') return { [key]: value };
  return { error: 'must be true or false' };
}

/**
 * The patch an HTML attribute stands for: <attention-lab sentence="…" probe="…" dk="256"
 * scaled="false" projection="random" seed="7" temperature="0.5" causal positional>.
 * Boolean attributes: present (or "true") = on; "false", "off", "no" or "0" = off; removed = default.
 */
export function patchFromAttribute(name, value) {
  const defaults = defaultSettings();
  const key = ATTRIBUTES[name];
  if (!key) return {};
  if (value === null) return key === 'sentence' ? { sentence: defaults.sentence } : { [key]: defaults[key] };
  if (typeof defaults[key] === 'boolean') return { [key]: !/^(false|off|no|0)$/i.test(value.trim()) };
  return { [key]: value };
}

export const ATTRIBUTES = Object.freeze({
  sentence: 'sentence',
  probe: 'probe',
  dk: 'dk',
  scaled: 'scaled',
  projection: 'projection',
  seed: 'seed',
  temperature: 'temperature',
  causal: 'causal',
  positional: 'positional',
});
