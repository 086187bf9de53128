// The pages' state in their URL, in the browser: a link with every parameter opens exactly that
// state on index.html and embed.html; the address follows the learner, and reopened it gives
// the same state; every invalid parameter — and every invalid attribute — is named, with what
// was expected, and its setting takes the default.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { VIEWS } from '../../web/lab/url.js';
import { until, useBrowser } from './browser.mjs';

// One value per parameter, none the default (written by hand).
const LINK = {
  sentence: 'Dogs chase the ball, and cats watch them.',
  probe: 'puppy',
  projection: 'random',
  dk: '256',
  seed: '42',
  scaled: 'false',
  temperature: '0.5',
  causal: 'true',
  positional: 'true',
  row: '4', // the query, counted from 1: selected 3
  theme: 'dark',
  view: 'variance',
  lang: 'nb',
};
const EXPECTED = {
  sentence: LINK.sentence, probe: 'puppy', projection: 'random', dk: 256, seed: 42, scaled: false, temperature: 0.5,
  causal: true, positional: true, selected: 3,
};
// One invalid value per parameter, the message's words for what was expected, and the default.
const INVALID = {
  projection: ['Random', 'one of identity, random, pasted', 'identity'],
  dk: ['0', 'a whole number from 1 to 1024', 64],
  seed: ['-1', 'a whole number from 0 to 4294967295', 1],
  scaled: ['maybe', 'true or false', true],
  temperature: ['hot', 'a number from 0.01 to 100', 1],
  causal: ['2', 'true or false', false],
  positional: ['yes please', 'true or false', false],
  selected: ['128', 'a whole number from 0 to 127', 1],
  theme: ['blue', 'one of auto, light, dark', 'auto'],
};

let browser;
let page;
useBrowser({}, (opened) => ({ browser, page } = opened));

const settingsOf = (lab) =>
  lab.evaluate((el) => {
    const { sentence, probe, projection, dk, seed, scaled, temperature, causal, positional, selected } = el.settings;
    return { sentence, probe, projection, dk, seed, scaled, temperature, causal, positional, selected };
  });

async function open(path) {
  await page.goto(`${browser.url}${path}`);
  const lab = page.locator('attention-lab');
  await lab.evaluate((el) => el.ready);
  return lab;
}

for (const file of ['index.html', 'embed.html']) {
  test(`${file}: a link with every parameter opens that state; the address follows the learner and reopens it`, async () => {
    const link = `${file}?${new URLSearchParams(LINK)}`;
    const lab = await open(link);
    assert.deepEqual(await settingsOf(lab), EXPECTED);
    const state = await lab.evaluate((el) => ({ d: el.state.d, query: el.state.queryLabels[el.state.selected], n: el.state.n }));
    assert.deepEqual(state, { d: 256, query: 'ball', n: 10 });
    const page_ = await page.evaluate(() => ({
      theme: document.documentElement.dataset.theme,
      lab: document.querySelector('attention-lab').getAttribute('theme'),
      lang: document.documentElement.lang,
      notice: document.getElementById('url-notice').hidden,
    }));
    assert.deepEqual(page_, { theme: 'dark', lab: 'dark', lang: 'nb', notice: true });
    if (file === 'embed.html') {
      await until(() => page.evaluate(() => [...document.querySelectorAll('attention-lesson section')].filter((s) => s.checkVisibility()).map((s) => s.dataset.part)),
        (parts) => parts.join() === 'variance', { what: 'the variance instrument alone' });
    } else {
      await until(() => page.evaluate(() => document.querySelector('#claim-1')?.getBoundingClientRect().top ?? 1e9), (top) => Math.abs(top) < 50,
        { timeout: 10000, what: 'the variance instrument scrolled to' });
    }
    // the share panel speaks the link's language
    await page.waitForFunction(() => customElements.get('lab-share'));
    assert.equal(await page.locator('lab-share').getByRole('button', { name: 'Kopier lenke' }).count(), 1);
    assert.equal(new URL(page.url()).search, `?${new URLSearchParams(LINK)}`, 'unchanged until the learner changes something');

    // the learner: scaling back on, another row, another sentence (typed where the lab shows;
    // with view=variance the lab is hidden, and a lesson script sets it)
    await lab.evaluate((el) => el.set({ scaled: true, selected: 0 }));
    const sentence = 'The river bank was muddy after the rain';
    if (await lab.isVisible()) await lab.locator('#sentence').fill(sentence);
    else await lab.evaluate((el, text) => el.set({ sentence: text }), sentence);
    const address = await until(() => page.evaluate(() => location.search), (s) => s.includes('river'), { what: 'the address' });
    const params = new URLSearchParams(address);
    assert.equal(params.get('scaled'), null, 'the default is not written');
    assert.equal(params.get('row'), '1', 'the query, counted from 1');
    assert.equal(params.get('selected'), null);
    assert.equal(params.get('sentence'), 'The river bank was muddy after the rain');
    assert.equal(params.get('view'), 'variance');
    const now = await settingsOf(lab);

    const reopened = await open(`${file}${address}`);
    assert.deepEqual(await settingsOf(reopened), now);
  });
}

// A link's parameters: the attributes', but the query is row (counted from 1) instead of selected.
const URL_INVALID = Object.fromEntries(Object.entries(INVALID).map(([name, entry]) => (name === 'selected' ? ['row', ['0', 'a whole number from 1 to 128', 2]] : [name, entry])));

test('a link made before row existed (selected=3, counted from 0) opens the same view', async () => {
  for (const file of ['index.html', 'embed.html']) {
    const lab = await open(`${file}?projection=random&dk=8&selected=3`);
    const settings = await settingsOf(lab);
    assert.equal(settings.selected, 3, file);
    assert.equal(await page.locator('#url-notice').isVisible(), false, `${file}: no problem with the old link`);
  }
});

test('every invalid parameter is named in a polite message with what was expected; its setting takes the default', async () => {
  const link = `?${new URLSearchParams(Object.fromEntries(Object.entries(URL_INVALID).map(([name, [value]]) => [name, value])))}&view=everything&lang=norsk!&colour=red&dk=8`;
  for (const file of ['index.html', 'embed.html']) {
    const lab = await open(`${file}${link}`);
    const defaults = Object.fromEntries(Object.entries(URL_INVALID).filter(([name]) => name !== 'theme').map(([name, [, , fallback]]) => (name === 'row' ? ['selected', fallback - 1] : [name, fallback])));
    const settings = await settingsOf(lab);
    for (const [name, fallback] of Object.entries(defaults)) assert.deepEqual(settings[name], fallback, `${file}: ${name}`);
    const notice = page.locator('#url-notice');
    await until(() => notice.isVisible(), Boolean, { what: 'the message' });
    assert.equal(await notice.getAttribute('role'), 'status');
    const items = await notice.locator('li').allTextContents();
    assert.equal(items.length, Object.keys(URL_INVALID).length + 4, items.join('\n'));
    for (const [name, [value, expected, fallback]] of Object.entries(URL_INVALID)) {
      const item = items.find((text) => text.startsWith(`${name}=${value} `));
      assert.ok(item, `${file}: a message for ${name}`);
      assert.ok(item.includes(expected) && item.includes(`The default, ${JSON.stringify(fallback)}, is used instead.`), item);
    }
    assert.ok(items.some((text) => /^view=everything is not valid: .*one of lab, step, output, heads, variance, saturation, gradient, overflow/.test(text)));
    assert.ok(items.some((text) => /^lang=norsk! is not valid: .*a language tag such as en or nb\. The default, the page’s language, is used instead\./.test(text)));
    assert.ok(items.some((text) => /^colour=red is not a parameter of this page/.test(text)));
    assert.ok(items.some((text) => /^dk is given 2 times: the first, dk=0, is used\./.test(text)));
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme ?? 'auto'), 'auto');
  }
});

test('in Norwegian: the message, for lang=nb', async () => {
  await open('embed.html?lang=nb&dk=0');
  const text = await until(() => page.locator('#url-notice').textContent(), (t) => t.length > 0, { what: 'the message' });
  assert.match(text, /^Lenken kunne ikke følges helt:dk=0 er ikke gyldig: den må være et heltall fra 1 til 1024\. Standardverdien, 64, brukes i stedet\./);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'nb');
});

test('every invalid attribute warns, naming it, its value and what was expected; its setting takes the default', async () => {
  const warnings = [];
  const onConsole = (message) => message.type() === 'warning' && warnings.push(message.text());
  page.on('console', onConsole);
  const lab = await open('');
  // valid values first, so that the default is seen to replace them
  await lab.evaluate((el) => {
    for (const [name, value] of [['projection', 'random'], ['dk', '300'], ['seed', '9'], ['scaled', 'false'], ['temperature', '2'], ['causal', ''], ['positional', 'on'], ['selected', '4'], ['theme', 'dark']]) el.setAttribute(name, value);
  });
  await until(() => settingsOf(lab), (s) => s.dk === 300 && s.selected === 4, { what: 'the valid attributes' });
  assert.deepEqual(warnings, []);
  await lab.evaluate((el, invalid) => {
    for (const [name, [value]] of Object.entries(invalid)) el.setAttribute(name, value);
  }, INVALID);
  const settings = await until(() => settingsOf(lab), (s) => s.dk === 64, { what: 'the defaults' });
  page.off('console', onConsole);
  for (const [name, [value, expected, fallback]] of Object.entries(INVALID)) {
    if (name !== 'theme') assert.deepEqual(settings[name], fallback, name);
    assert.ok(
      warnings.includes(`<attention-lab> ${name}="${value}" is not valid: it must be ${expected}${name === 'scaled' || name === 'causal' || name === 'positional' ? ' (also on/off, yes/no, 1/0; a bare attribute is true)' : ''}. Using the default, ${JSON.stringify(fallback)}.`),
      `${name}: ${warnings.join('\n')}`,
    );
  }
  assert.equal(warnings.length, Object.keys(INVALID).length);
});

test('every view a link may name is a section of the lesson, in its order, or the trained model', async () => {
  await open('');
  await page.waitForFunction(() => document.querySelectorAll('attention-lesson section[data-part]').length > 0);
  const parts = await page.evaluate(() => [...document.querySelectorAll('attention-lesson section[data-part]')].map((s) => s.dataset.part));
  assert.deepEqual(['lab', ...parts, 'model'], VIEWS);
  assert.equal(await page.locator('#model model-view').count(), 1);
});

