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
const PAGE = { theme: 'dark', layout: 'compact', view: 'variance', lang: 'nb', share: false, steps: 'gradient,quiz' };

test('the parameters: the sentence (or its tokens), every other attribute of <attention-lab> (selected as row, from 1; view as layout), then view, lang, share and steps', () => {
  const renamed = { selected: 'row', view: 'layout' };
  assert.deepEqual(PARAMETERS, ['sentence', 'tokens', ...ATTRIBUTES.slice(1).map((a) => renamed[a] ?? a), 'view', 'lang', 'share', 'steps']);
  assert.deepEqual(Object.keys(CHANGED).sort(), ATTRIBUTES.filter((a) => a !== 'theme' && a !== 'view').sort());
  assert.deepEqual(readUrl('layout=compact&view=variance').page, { theme: 'auto', layout: 'compact', view: 'variance', lang: '', share: true, steps: '' }, 'layout (the lab’s view) and the page’s view apart');
  assert.equal(writeUrl(defaultSettings(), { layout: 'compact' }), '?layout=compact');
  const wrong = readUrl('layout=tiny');
  assert.equal(wrong.page.layout, 'full');
  assert.deepEqual(wrong.problems.map((p) => [p.reason, p.name, p.fallback]), [['invalid', 'layout', 'full']]);
  assert.equal(VIEWS[0], 'lab');
  assert.equal(VIEWS.at(-1), 'model', 'the trained model (<model-view>) comes last');
  for (const part of VIEWS.slice(1, -1)) assert.equal(typeof LessonModel.prototype[part], 'function', `${part}: a part of the lesson's model`);
  assert.equal(readUrl('lang=nb-NO').page.lang, 'nb-NO', 'a language by its tag (the string tables decide what they speak)');
});

test('no parameter: the defaults; the defaults write no parameter', () => {
  assert.deepEqual(readUrl(''), { settings: {}, page: { theme: 'auto', layout: 'full', view: 'lab', lang: '', share: true, steps: '' }, problems: [] });
  assert.equal(writeUrl(defaultSettings()), '');
  assert.equal(writeUrl(defaultSettings(), { theme: 'auto', layout: 'full', view: 'lab', lang: '', share: true }), '');
});

test('round trip: settings → link → the same settings, one parameter at a time and all at once', () => {
  for (const [name, value] of Object.entries(CHANGED)) {
    const store = createStore();
    assert.deepEqual(store.set({ [name]: value }).rejected, {}, name);
    const link = writeUrl(store.get());
    assert.match(link, new RegExp(`^\\?${name === 'selected' ? 'row' : name}=`), name); // the query: row, from 1
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
    '&scaled=false&temperature=0.25&causal=true&positional=true&row=4&theme=dark&layout=compact&view=variance&lang=nb&share=0&steps=gradient%2Cquiz');
});

test('steps=…: the steps of the lesson embed.html shows, each once; anything else is invalid and shows none', () => {
  assert.equal(readUrl('?steps=Variance, saturation,quiz').page.steps, 'variance,saturation,quiz');
  for (const wrong of ['variance,nope', 'quiz,quiz', ',']) {
    const { page, problems } = readUrl(`?steps=${encodeURIComponent(wrong)}`);
    assert.equal(page.steps, '', wrong);
    assert.deepEqual(problems.map((p) => [p.reason, p.name, p.fallback]), [['invalid', 'steps', '']], wrong);
  }
});

test('share=0 hides the share panel; share=1, yes or true keep it', () => {
  for (const off of ['0', 'false', 'no', 'off']) assert.equal(readUrl(`?share=${off}`).page.share, false, off);
  for (const on of ['1', 'true', 'yes']) assert.equal(readUrl(`?share=${on}`).page.share, true, on);
  assert.equal(writeUrl(defaultSettings(), { share: false }), '?share=0');
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
    row: ['0', /whole number from 1 to 128/, 2],
    theme: ['blue', /one of auto, light, dark/, 'auto'],
    layout: ['tiny', /one of full, compact/, 'full'],
    view: ['everything', /one of lab, step, output, heads, variance, saturation, gradient, overflow/, 'lab'],
    lang: ['norsk!', /a language tag such as en or nb/, ''],
    share: ['maybe', /true or false/, true],
    steps: ['variance,nope', /steps of the lesson \(step, output, heads, variance, saturation, gradient, overflow, quiz\), each once/, ''],
    tokens: ['x'.repeat(65), /tokens separated by spaces/, 'The cat sat on the mat because it was tired'],
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

test('positions count from 1 in a link (row=2 is the second token, as the page says "Query 2"); old links (selected, from 0) open the same view', () => {
  assert.deepEqual(readUrl('?row=2').settings, { selected: 1 });
  assert.deepEqual(readUrl('?row=1').settings, { selected: 0 });
  // a link written before row existed: the same query as then
  for (const old of [0, 1, 5, 127]) {
    const { settings, problems } = readUrl(`?selected=${old}&dk=8`);
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, { selected: old, dk: 8 });
    // written again, it says row, one more
    const store = createStore();
    store.set(settings);
    assert.equal(writeUrl(store.get()), `?dk=8${old === 1 ? '' : `&row=${old + 1}`}`);
  }
  // both: row is used, and selected is not a problem
  assert.deepEqual(readUrl('?selected=5&row=3'), readUrl('?row=3'));
  assert.match(readUrl('?row=129').problems[0].error, /whole number from 1 to 128/);
  assert.ok(!PARAMETERS.includes('selected'), 'selected is read, never written');
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

// A store whose chips were edited one by one, as <token-chips> does: tokens, and the text they make.
function editedChips(tokens) {
  const store = createStore();
  assert.deepEqual(store.set({ tokens, sentence: tokens.join(' ') }).rejected, {});
  return store;
}

test('chips edited to tokens the tokenizer would split ("don\'t", "e.g.", "cat\'s", "a/b") reopen as the same tokens', () => {
  for (const tokens of [["don't"], ['e.g.', 'cat'], ["cat's", 'mat'], ['a/b'], ['the', "don't", 'e.g.', "cat's", 'a/b', '=1+1']]) {
    const store = editedChips(tokens);
    const link = writeUrl(store.get());
    const { settings, problems } = readUrl(link);
    assert.deepEqual(problems, [], link);
    const reopened = createStore();
    assert.deepEqual(reopened.set(settings).rejected, {}, link);
    assert.deepEqual(reopened.get().tokens, tokens, link);
    assert.equal(reopened.get().sentence, store.get().sentence, link);
  }
  // tokens the text gives back keep the readable sentence link (and old links read as before)
  const plain = editedChips(['the', 'cat']);
  assert.equal(writeUrl(plain.get()), '?sentence=the+cat');
  assert.deepEqual(readUrl("?sentence=don't").settings, { sentence: "don't" });
});

test('a text longer than the lab takes: the link holds the first 128 tokens, the ones the lab uses', () => {
  const store = createStore();
  const words = Array.from({ length: 2000 }, (_, i) => `w${i}`);
  store.set({ sentence: words.join(' ') });
  assert.equal(store.get().truncated, true);
  const link = writeUrl(store.get());
  assert.ok(link.length < 128 * 8, `${link.length} characters`);
  const reopened = createStore();
  reopened.set(readUrl(link).settings);
  assert.deepEqual(reopened.get().tokens, words.slice(0, 128));
  // a link with more tokens than the lab takes: the first 128 (no problem; the lab says it cut them)
  const long = readUrl(`?tokens=${words.join('+')}`);
  assert.deepEqual(long.problems, []);
  const cut = createStore();
  cut.set(long.settings);
  assert.deepEqual([cut.get().tokens.length, cut.get().truncated], [128, true]);
});

test('a tokens parameter with a bad token is a problem naming it; the sentence takes its default', () => {
  const { settings, problems } = readUrl(`?tokens=${'x'.repeat(65)}`);
  assert.deepEqual(settings, {});
  assert.equal(problems.length, 1);
  assert.equal(problems[0].reason, 'invalid');
  assert.equal(problems[0].name, 'tokens');
  assert.match(problems[0].error, /tokens separated by spaces, each of at most 64 characters/);
});

test('a link with thousands of unknown parameters lists a few of them and counts the rest', () => {
  const search = `?${Array.from({ length: 5000 }, (_, i) => `x${i}=${i}`).join('&')}&dk=8`;
  const { settings, problems } = readUrl(search);
  assert.equal(settings.dk, 8);
  assert.equal(problems.length, 9);
  assert.deepEqual(problems.slice(0, 8).map((p) => p.name), Array.from({ length: 8 }, (_, i) => `x${i}`));
  assert.deepEqual(problems[8], { reason: 'more', count: 4992 });
});
