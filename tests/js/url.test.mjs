// The pages' URL (web/lab/url.js): every parameter through the settings table, as attributes
// are read; a link written from settings reads back to the same settings; every unknown,
// repeated or invalid parameter is a problem that names it, and its setting keeps the default.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LessonModel } from '../../web/lesson/model.js';
import { ATTRIBUTES, applyAttribute, createStore, defaultSettings } from '../../web/lab/settings.js';
import { PARAMETERS, VIEWS, readUrl, writeUrl } from '../../web/lab/url.js';

// One non-default value per parameter (written by hand, not by the code under test).
const CHANGED = {
  sentence: 'Dogs chase the ball, and cats watch them.',
  probe: 'puppy',
  projection: 'random',
  dk: 256,
  seed: 42,
  scaled: false,
  temperature: 0.25,
  causal: true,
  positional: true,
  selected: 3,
};
const PAGE = { theme: 'dark', view: 'variance', lang: 'nb' };

test('the parameters: every attribute of <attention-lab>, then view and lang', () => {
  assert.deepEqual(PARAMETERS, [...ATTRIBUTES, 'view', 'lang']);
  assert.deepEqual(Object.keys(CHANGED).sort(), ATTRIBUTES.filter((a) => a !== 'theme').sort());
  assert.equal(VIEWS[0], 'lab');
  for (const part of VIEWS.slice(1)) assert.equal(typeof LessonModel.prototype[part], 'function', `${part}: a part of the lesson's model`);
  assert.equal(readUrl('lang=nb-NO').page.lang, 'nb-NO', 'a language by its tag (the string tables decide what they speak)');
});

test('no parameter: the defaults; the defaults write no parameter', () => {
  assert.deepEqual(readUrl(''), { settings: {}, page: { theme: 'auto', view: 'lab', lang: '' }, problems: [] });
  assert.equal(writeUrl(defaultSettings()), '');
  assert.equal(writeUrl(defaultSettings(), { theme: 'auto', view: 'lab', lang: '' }), '');
});

test('round trip: settings → link → the same settings, one parameter at a time and all at once', () => {
  for (const [name, value] of Object.entries(CHANGED)) {
    const store = createStore();
    assert.deepEqual(store.set({ [name]: value }).rejected, {}, name);
    const link = writeUrl(store.get());
    assert.match(link, new RegExp(`^\\?${name}=`), name);
    const { settings, problems } = readUrl(link);
    assert.deepEqual(problems, [], name);
    const reopened = createStore();
    reopened.set(settings);
    assert.deepEqual(reopened.get(), store.get(), `${name}: ${link}`);
  }
  const store = createStore();
  store.set(CHANGED);
  const link = writeUrl(store.get(), PAGE);
  const read = readUrl(link);
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.page, PAGE);
  const reopened = createStore();
  reopened.set(read.settings);
  assert.deepEqual(reopened.get(), store.get());
  // in the table's order, readable
  assert.equal(link, '?sentence=Dogs+chase+the+ball%2C+and+cats+watch+them.&probe=puppy&projection=random&dk=256&seed=42' +
    '&scaled=false&temperature=0.25&causal=true&positional=true&selected=3&theme=dark&view=variance&lang=nb');
});

test('the issue’s link: index.html?sentence=hello%20world&dk=8&projection=random', () => {
  const { settings, problems } = readUrl('?sentence=hello%20world&dk=8&projection=random');
  assert.deepEqual(problems, []);
  assert.deepEqual(settings, { sentence: 'hello world', dk: 8, projection: 'random' });
});

test('text is read by the attributes’ rule: booleans, numbers with spaces, the probe’s first token', () => {
  for (const text of ['', 'true', 'ON', 'yes', '1']) assert.equal(readUrl(`causal=${text}`).settings.causal, true, text);
  for (const text of ['false', 'off', 'No', '0']) assert.equal(readUrl(`scaled=${text}`).settings.scaled, false, text);
  assert.equal(readUrl('dk=%20128%20').settings.dk, 128);
  assert.equal(readUrl('probe=Puppies+and+kittens').settings.probe, 'puppies');
  assert.equal(readUrl('probe=').settings.probe, ''); // no probe
});

test('every invalid parameter is a problem naming it and what was expected; its setting keeps the default', () => {
  const cases = {
    projection: ['Random', /one of identity, random, pasted/, 'identity'],
    dk: ['0', /whole number from 1 to 1024/, 64],
    seed: ['-1', /whole number from 0 to 4294967295/, 1],
    scaled: ['maybe', /true or false/, true],
    temperature: ['hot', /number from 0\.01 to 100/, 1],
    causal: ['2', /true or false/, false],
    positional: ['yes please', /true or false/, false],
    selected: ['128', /whole number from 0 to 127/, 1],
    theme: ['blue', /one of auto, light, dark/, 'auto'],
    view: ['everything', /one of lab, variance, saturation, gradient, step, overflow, heads/, 'lab'],
    lang: ['norsk!', /a language tag such as en or nb/, ''],
  };
  assert.deepEqual(Object.keys(cases).sort(), PARAMETERS.filter((p) => p !== 'sentence' && p !== 'probe').sort(),
    'every parameter that can be invalid (sentence and probe take any text)');
  for (const [name, [value, expected, fallback]] of Object.entries(cases)) {
    const [beside, valid] = name === 'seed' ? ['dk', 8] : ['seed', 7]; // a valid parameter beside it
    const { settings, page, problems } = readUrl(`?${name}=${encodeURIComponent(value)}&${beside}=${valid}`);
    assert.equal(problems.length, 1, name);
    const [problem] = problems;
    assert.equal(problem.reason, 'invalid', name);
    assert.equal(problem.name, name);
    assert.equal(problem.value, value);
    assert.match(problem.error, expected, name);
    assert.deepEqual(problem.fallback, fallback, name);
    assert.ok(!(name in settings), `${name} is not set: the default stays`);
    if (name in page) assert.equal(page[name], fallback, name);
    assert.equal(settings[beside], valid, 'the valid parameter beside it still applies');
  }
  // valid as text, not for the store: the pasted projection needs vectors no link holds
  const pasted = readUrl('projection=pasted');
  assert.match(pasted.problems[0].error, /needs pasted vectors/);
  assert.deepEqual(pasted.settings, {});
});

test('the same text gives the same verdict as an attribute (one rule): dk, scaled, temperature, selected', () => {
  for (const [name, text] of [['dk', '0'], ['dk', '300'], ['scaled', 'maybe'], ['scaled', 'off'], ['temperature', '1e1'], ['selected', '5'], ['seed', '9'.repeat(12)]]) {
    const store = createStore();
    const warning = applyAttribute(store, name, text);
    const { settings, problems } = readUrl(new URLSearchParams({ [name]: text }).toString());
    assert.equal(Boolean(warning), problems.length === 1, `${name}=${text}`);
    if (!warning) assert.equal(settings[name], store.get()[name], `${name}=${text}`);
  }
});

test('unknown and repeated parameters are problems too', () => {
  const { settings, problems } = readUrl('?colour=red&dk=8&dk=16&utm_source=lms');
  assert.deepEqual(settings, { dk: 8 });
  assert.deepEqual(problems, [
    { reason: 'unknown', name: 'colour', value: 'red' },
    { reason: 'repeated', name: 'dk', value: '8', count: 2 },
    { reason: 'unknown', name: 'utm_source', value: 'lms' },
  ]);
});

test('pasted vectors have no parameter: the link keeps the other settings', () => {
  const store = createStore();
  const pasted = { q: new Float32Array([1, 0]), k: new Float32Array([1, 0]), v: null, n: 1, m: 1, d: 2, dv: 0 };
  store.set({ pasted, projection: 'pasted', dk: 32 });
  assert.equal(writeUrl(store.get()), '?dk=32');
});
