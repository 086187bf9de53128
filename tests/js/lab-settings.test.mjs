// The lab's settings (web/lab/settings.js): the table, the store, the one rule that reads a
// setting from text, and what an invalid attribute does (a warning, then the default).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  ATTRIBUTES, DEFAULT_SENTENCE, DK_STEPS, SETTINGS, TEMPERATURE_STEPS, applyAttribute, createStore, defaultSettings, readSetting, settingsInWords,
} from '../../web/lab/settings.js';
import { MAX_TOKENS } from '../../web/lab/tokenize.js';

test('the defaults: the demo sentence, "cat" selected, identity at d_k 64, scaled, T = 1', () => {
  const s = defaultSettings();
  assert.deepEqual(Object.keys(s).sort(), Object.keys(SETTINGS).sort());
  assert.equal(s.sentence, DEFAULT_SENTENCE);
  assert.deepEqual(s.tokens, ['the', 'cat', 'sat', 'on', 'the', 'mat', 'because', 'it', 'was', 'tired']);
  assert.equal(s.tokens[s.selected], 'cat');
  assert.deepEqual(
    { probe: s.probe, projection: s.projection, dk: s.dk, seed: s.seed, scaled: s.scaled, temperature: s.temperature, causal: s.causal, positional: s.positional, pasted: s.pasted, truncated: s.truncated },
    { probe: 'animal', projection: 'identity', dk: 64, seed: 1, scaled: true, temperature: 1, causal: false, positional: false, pasted: null, truncated: false },
  );
  // every default is valid by its own type, and the sliders' stops lie in their ranges
  for (const [key, entry] of Object.entries(SETTINGS)) if (entry.type) assert.deepEqual(entry.type.check(entry.default), { value: entry.default }, key);
  for (const dk of DK_STEPS) assert.equal(SETTINGS.dk.type.check(dk).value, dk);
  for (const t of TEMPERATURE_STEPS) assert.equal(SETTINGS.temperature.type.check(t).value, t);
});

test('set(patch) applies what is valid and says why it left the rest out', () => {
  const store = createStore();
  const seen = [];
  store.subscribe((s) => seen.push(s));
  const { rejected } = store.set({ dk: 5000, scaled: 'maybe', temperature: 0, projection: 'pasted', truncated: true, colour: 'red', seed: 7 });
  assert.match(rejected.dk, /whole number from 1 to 1024/);
  assert.match(rejected.scaled, /true or false/);
  assert.match(rejected.temperature, /from 0\.01 to 100/);
  assert.match(rejected.projection, /paste Q and K first/);
  assert.match(rejected.truncated, /derived/);
  assert.equal(rejected.colour, 'unknown setting');
  assert.equal(rejected.seed, undefined);
  assert.equal(store.get().seed, 7);
  assert.equal(store.get().dk, 64);
  assert.equal(seen.length, 1);
  assert.ok(Object.isFrozen(store.get()));
  // an unchanged value notifies nobody
  store.set({ seed: 7 });
  assert.equal(seen.length, 1);
});

test('a sentence sets the tokens (at most MAX_TOKENS, and says so); chips set both', () => {
  const store = createStore();
  store.set({ sentence: 'Dogs chase cats.' });
  assert.deepEqual(store.get().tokens, ['dogs', 'chase', 'cats', '.']);
  assert.equal(store.get().truncated, false);
  store.set({ sentence: 'a '.repeat(MAX_TOKENS + 5) });
  assert.equal(store.get().tokens.length, MAX_TOKENS);
  assert.equal(store.get().truncated, true);
  store.set({ tokens: ['the', 'Cat'], sentence: 'the Cat' });
  assert.deepEqual(store.get().tokens, ['the', 'Cat']); // chips are checked one by one (checkToken), not re-tokenised
  assert.equal(store.get().sentence, 'the Cat');
  assert.match(store.set({ tokens: ['a', ''] }).rejected.tokens, /non-empty/);
  store.set({ probe: '  Puppies and kittens' });
  assert.equal(store.get().probe, 'puppies');
});

test('pasted vectors: projection "pasted" is accepted with them, and each paste is a new one', () => {
  const store = createStore();
  const pasted = { q: new Float32Array([1, 0]), k: new Float32Array([1, 0]), v: null, n: 1, m: 1, d: 2, dv: 0 };
  assert.deepEqual(store.set({ pasted, projection: 'pasted' }).rejected, {});
  const first = store.get().pasted;
  assert.equal(store.get().projection, 'pasted');
  store.set({ pasted });
  assert.notEqual(store.get().pasted.id, first.id);
  assert.match(store.set({ pasted: { q: [1, 0] } }).rejected.pasted, /parseVectors/);
});

test('text: the one boolean rule, whole numbers, numbers, choices', () => {
  for (const text of ['', 'true', 'TRUE', ' on ', 'yes', '1']) assert.deepEqual(readSetting('causal', text), { value: true }, JSON.stringify(text));
  for (const text of ['false', 'Off', 'no', '0', ' false ']) assert.deepEqual(readSetting('scaled', text), { value: false }, JSON.stringify(text));
  for (const text of ['maybe', 'ture', '2', 'null']) assert.match(readSetting('scaled', text).error, /true or false/, JSON.stringify(text));
  assert.deepEqual(readSetting('dk', ' 256 '), { value: 256 });
  for (const text of ['0', '1025', '2.5', '-3', '', '1e2', '0x10', 'Infinity']) assert.match(readSetting('dk', text).error, /whole number from 1 to 1024/, text);
  assert.deepEqual(readSetting('temperature', '0.5'), { value: 0.5 });
  assert.deepEqual(readSetting('temperature', '1e1'), { value: 10 });
  for (const text of ['0', '-1', 'NaN', 'hot', '1000']) assert.match(readSetting('temperature', text).error, /from 0\.01 to 100/, text);
  assert.deepEqual(readSetting('projection', 'random'), { value: 'random' });
  assert.match(readSetting('projection', 'Random').error, /one of identity, random, pasted/);
  assert.deepEqual(readSetting('theme', 'dark'), { value: 'dark' });
  assert.deepEqual(readSetting('selected', '3'), { value: 3 });
  assert.match(readSetting('selected', '128').error, /whole number from 0 to 127/);
  assert.match(readSetting('tokens', 'a b').error, /not a setting that text can set/);
  assert.match(readSetting('pasted', '1,2').error, /not a setting that text can set/);
});

test('an invalid attribute: a warning naming it, its value and what was expected; the default is used', () => {
  const store = createStore();
  assert.equal(applyAttribute(store, 'dk', '300'), null);
  assert.equal(store.get().dk, 300);
  const warning = applyAttribute(store, 'dk', '0');
  assert.equal(warning, '<attention-lab> dk="0" is not valid: it must be a whole number from 1 to 1024. Using the default, 64.');
  assert.equal(store.get().dk, 64); // not the 300 it had

  assert.match(applyAttribute(store, 'scaled', 'false') ?? '', /^$/);
  assert.equal(store.get().scaled, false);
  assert.match(applyAttribute(store, 'scaled', 'maybe'), /scaled="maybe" is not valid: it must be true or false.*Using the default, true\./);
  assert.equal(store.get().scaled, true);

  assert.equal(applyAttribute(store, 'causal', ''), null); // a bare attribute
  assert.equal(store.get().causal, true);
  assert.equal(applyAttribute(store, 'causal', null), null); // removed: the default
  assert.equal(store.get().causal, false);

  // valid as text, but not in this state: still the default, with the store's reason
  assert.match(applyAttribute(store, 'projection', 'pasted'), /projection="pasted" is not valid: it needs pasted vectors.*"identity"/);
  assert.equal(store.get().projection, 'identity');

  assert.match(applyAttribute(store, 'theme', 'blue'), /theme="blue" is not valid: it must be one of auto, light, dark\. Using the default, "auto"\./);
  assert.equal(applyAttribute(store, 'theme', 'dark'), null);
  assert.equal(applyAttribute(store, 'title', 'anything'), null); // not the lab's attribute

  // a long wrong value is quoted shortened
  const long = applyAttribute(store, 'seed', '9'.repeat(5000));
  assert.ok(long.length < 200, long);
  assert.match(long, /seed="9{40}…"/);
});

test('every attribute is documented in docs/embed.md and in attention-lab.d.ts', () => {
  assert.deepEqual([...ATTRIBUTES].sort(), ['causal', 'dk', 'positional', 'probe', 'projection', 'scaled', 'seed', 'selected', 'sentence', 'temperature', 'theme', 'view']);
  const readme = readFileSync(new URL('../../docs/embed.md', import.meta.url), 'utf8');
  const types = readFileSync(new URL('../../web/components/attention-lab.d.ts', import.meta.url), 'utf8');
  for (const name of ATTRIBUTES) {
    assert.match(readme, new RegExp(`^\\| \`${name}\` \\|`, 'm'), `docs/embed.md: a row for the attribute ${name}`);
    assert.match(types, new RegExp(`^\\s*${name}\\??: `, 'm'), `attention-lab.d.ts: LabAttributes.${name}`);
  }
});

test('settingsInWords: a phrase per entry in its order; switches by side, defaults left out on request, numbers in the language', () => {
  const t = (key, params = {}) => (key.startsWith('controls.') ? key.slice(9).toUpperCase() : `${key}(${params.value}${params.d ? `,${params.d}` : ''})`);
  const strings = { t, fmt: (x) => `≈${x}` };
  const words = {
    projection: 'w.projection',
    scaled: { on: 'w.scaled', off: 'w.unscaled' },
    temperature: { key: 'w.temperature', atDefault: false },
    causal: { on: 'w.causal' },
    seed: (seed) => (seed > 1 ? ['w.seed', { d: 'x' }] : null),
  };
  const s = defaultSettings();
  assert.deepEqual(settingsInWords(s, strings, words), ['w.projection(IDENTITY)', 'w.scaled(true)']);
  const other = { ...s, scaled: false, temperature: 2.5, causal: true, seed: 7 };
  assert.deepEqual(settingsInWords(other, strings, words),
    ['w.projection(IDENTITY)', 'w.unscaled(false)', 'w.temperature(≈2.5)', 'w.causal(true)', 'w.seed(7,x)']);
  assert.deepEqual(settingsInWords(other, strings, words, { only: ['seed', 'scaled'] }), ['w.unscaled(false)', 'w.seed(7,x)']);
});
