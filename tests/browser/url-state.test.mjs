// Links reopen exactly what was shown: chips edited to tokens the tokenizer would split reopen as
// those tokens with the same weights; the language links carry the learner's changes; a long
// address is served (not 431) and the page keeps its own address within the 128 tokens the lab
// uses; an empty sentence is a state the page shows and recovers from.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { until, useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({}, (opened) => ({ browser, page } = opened));

async function open(path) {
  const response = await page.goto(`${browser.url}${path}`);
  const lab = page.locator('attention-lab');
  await lab.evaluate((el) => el.ready);
  return { lab, response };
}

const shown = (lab) => lab.evaluate((el) => ({ tokens: el.state.tokens.map((t) => t.text), weights: Array.from(el.state.result.weights) }));

test('chips edited to "don\'t", "e.g.", "cat\'s" and "a/b" reopen as the same chips with the same weights', async () => {
  const { lab } = await open('index.html');
  const chips = page.locator('attention-lab token-chips');
  for (const [from, to] of [['cat', "don't"], ['sat', 'e.g.'], ['mat', "cat's"], ['tired', 'a/b']]) {
    await chips.getByRole('button', { name: from, exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type(to);
    await page.keyboard.press('Enter');
    await until(() => lab.evaluate((el) => el.settings.tokens), (tokens) => tokens.includes(to), { what: `the chip ${to}` });
  }
  const expected = ['the', "don't", 'e.g.', 'on', 'the', "cat's", 'because', 'it', 'was', 'a/b'];
  const before = await until(() => shown(lab), (now) => now.tokens.join() === expected.join(), { what: 'the result of the edited chips' });
  const address = await until(() => page.evaluate(() => location.search), (search) => search.includes('a%2Fb'), { what: 'the address' });
  const reopened = await open(`index.html${address}`);
  assert.deepEqual(await shown(reopened.lab), before);
  // the share panel's link is the same address
  await page.waitForFunction(() => customElements.get('lab-share'));
  assert.equal(new URL(await page.locator('lab-share').evaluate((el) => el.link)).search, address);
});

test('the language links carry the learner\'s changes, not the address the page was opened with', async () => {
  const { lab } = await open('index.html?dk=8&projection=random');
  await lab.evaluate((el) => el.set({ dk: 32, seed: 7 }));
  await until(() => page.evaluate(() => location.search), (search) => search.includes('seed=7'), { what: 'the address' });
  const link = page.locator('nav.languages a[hreflang="nb"]');
  // the Norwegian page, once it has loaded and defined the lab (before that, the locator may
  // find the old page's lab, or the new one not yet upgraded)
  await Promise.all([page.waitForURL((url) => url.searchParams.get('lang') === 'nb'), link.click()]);
  await page.waitForFunction(() => customElements.get('attention-lab'));
  const after = page.locator('attention-lab');
  await after.evaluate((el) => el.ready);
  assert.deepEqual(await after.evaluate((el) => [el.settings.dk, el.settings.seed, el.settings.projection, document.documentElement.lang]), [32, 7, 'random', 'nb']);
});

test('a long address is served with the page; the page keeps its address to the 128 tokens the lab uses', async () => {
  const words = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ');
  const { lab, response } = await open(`index.html?sentence=${encodeURIComponent(words)}&dk=8`);
  assert.equal(response.status(), 200);
  assert.equal(await lab.evaluate((el) => el.state.n), 128);
  const address = await until(() => page.evaluate(() => location.search), (search) => search.includes('tokens='), { what: 'the address, cut' });
  assert.ok(address.length < 128 * 12, `${address.length} characters`);
  const params = new URLSearchParams(address);
  assert.equal(params.get('tokens').split(' ').length, 128);
  assert.equal(params.get('dk'), '8');
  // the embed code too: its address is the bounded one, its title the sentence's start (the
  // share panel's module is loaded once the lab is ready: wait for it)
  await page.waitForFunction(() => customElements.get('lab-share'));
  const code = await page.locator('lab-share').evaluate((share) => share.embedCode);
  assert.ok(code.length < 4096, `the embed code has ${code.length} characters`);
  assert.match(code, /title="Attention Lab: word0 word1 [^"]*…"/);
});

test('an empty or invisible sentence in a link is named and the default used: the page, share and lesson load', { timeout: 60000 }, async () => {
  for (const sentence of ['', '\u200b\u200d\ufeff']) {
    const { lab } = await open(`index.html?sentence=${encodeURIComponent(sentence)}`);
    assert.equal(await lab.evaluate((el) => el.state.n), 10, 'the default sentence');
    const notice = page.locator('#url-notice');
    await until(() => notice.textContent(), (text) => /sentence=.* is not valid: it must be text with at least one word or punctuation mark/.test(text), { what: 'the notice' });
    await page.waitForFunction(() => customElements.get('lab-share') && customElements.get('attention-lesson'));
  }
  await page.goto(`${browser.url}embed.html?view=variance&sentence=`);
  await until(() => page.locator('attention-lesson').textContent(), (text) => !text.includes('Waiting for the lab'), { timeout: 20000, what: 'the variance instrument, not "Waiting for the lab…"' });
});

test('a lab set to no tokens before its first result is ready, says why in the views, and recovers', { timeout: 60000 }, async () => {
  await page.goto(`${browser.url}index.html`);
  const said = await page.evaluate(async () => {
    await customElements.whenDefined('attention-lab');
    const lab = document.createElement('attention-lab');
    lab.set({ sentence: '' });
    document.body.append(lab);
    const ready = await Promise.race([lab.ready.then(() => 'ready'), new Promise((resolve) => setTimeout(() => resolve('not ready after 20 s'), 20000))]);
    const texts = [lab.shadowRoot.querySelector('[role="alert"]')?.textContent ?? '', ...[...lab.shadowRoot.querySelectorAll('attention-heatmap, probability-bars')].map((v) => v.shadowRoot.textContent)];
    return { ready, state: lab.state, texts: texts.join(' | ') };
  });
  assert.equal(said.ready, 'ready');
  assert.equal(said.state, null);
  assert.match(said.texts, /Type at least one token\./);
  assert.doesNotMatch(said.texts, /previous result/);
  const recovered = await page.evaluate(async () => {
    const lab = document.querySelectorAll('attention-lab')[1];
    const next = new Promise((resolve) => lab.addEventListener('change', resolve, { once: true }));
    lab.set({ sentence: 'the cat sat' });
    await next;
    const n = lab.state.n;
    lab.remove();
    return n;
  });
  assert.equal(recovered, 3);
});
