// A Norwegian learner's page: index.html and lesson.html in bokmål (every word from the nb
// table, none left in English), numbers with a decimal comma (and plain decimals for software),
// `lang` where the words are; and the order the language is chosen in: the element's lang
// attribute, the URL's lang, the host page's lang, the browser (issue #14).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import nb from '../../web/i18n/nb.js';
import { CONTENT_SECURITY_POLICY } from '../../scripts/serve.mjs';
import { drawWholeLesson, openLab, readMeters, readSummary, until, useBrowser } from './browser.mjs';

let browser;
let page;
let fixture = '';

useBrowser({ viewport: { width: 1440, height: 900 } }, async (opened) => {
  ({ browser, page } = opened);
  // a host page of the test's own, served under the site's policy
  await page.route('**/host.html*', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY }, body: fixture }),
  );
});

const hostPage = (htmlLang, body) => `<!doctype html>
<html${htmlLang ? ` lang="${htmlLang}"` : ''}>
<head><meta charset="utf-8"><title>host</title><script type="module" src="./components/attention-lab.js"></script></head>
<body>${body}</body>
</html>`;

async function openHost(htmlLang, body, query = '') {
  fixture = hostPage(htmlLang, body);
  await page.goto(`${browser.url}host.html${query}`);
  await page.waitForFunction(() => Promise.all([...document.querySelectorAll('attention-lab')].map((lab) => lab.ready)).then(() => true));
  return page.evaluate(() => [...document.querySelectorAll('attention-lab')].map((lab) => [lab.language, lab.shadowRoot.firstElementChild.lang]));
}

// Every text a reader sees (or a screen reader reads as a name): text nodes and names, through shadow roots.
function visibleTexts() {
  return page.evaluate(() => {
    const texts = new Set();
    const walk = (root) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest('script, style, [hidden]')) continue;
        const text = node.data.trim();
        if (text) texts.add(text);
      }
      for (const el of root.querySelectorAll('*')) {
        for (const name of ['aria-label', 'title', 'placeholder', 'aria-roledescription', 'aria-valuetext']) if (el.hasAttribute(name)) texts.add(el.getAttribute(name));
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return [...texts];
  });
}

// The English messages a Norwegian page must not show: whole messages without placeholders that
// the Norwegian table words differently (names such as "Attention Lab" or "SIMD" are the same).
const englishOnly = Object.entries(en)
  .filter(([key, text]) => typeof text === 'string' && !key.endsWith('Html') && !/\{/.test(text) && text !== nb[key] && text.length > 3)
  .map(([, text]) => text);

test('index.html?lang=nb: the page, the lab and the lesson in bokmål, with lang where the words are', async () => {
  await openLab(page, `${browser.url}?lang=nb`);
  await drawWholeLesson(page);
  const langs = await page.evaluate(() => ({
    html: document.documentElement.lang,
    lab: document.querySelector('attention-lab').language,
    labRoot: document.querySelector('attention-lab').shadowRoot.firstElementChild.lang,
    lesson: document.querySelector('attention-lesson').language,
    sections: [...document.querySelectorAll('attention-lesson section')].map((s) => s.lang),
  }));
  assert.deepEqual(langs, { html: 'nb', lab: 'nb', labRoot: 'nb', lesson: 'nb', sections: Array(7).fill('nb') });
  const texts = await visibleTexts();
  const left = englishOnly.filter((text) => texts.includes(text));
  assert.deepEqual(left, [], 'English left on the Norwegian page');
  for (const expected of [nb['lab.tokens'], nb['lab.settings'], nb['page.trainingTitle'], nb['story.headingSaturation'], nb['bars.entropy']]) assert.ok(texts.includes(expected), expected);
  // the word vectors are English, and the page says so, with a sentence to try
  assert.ok(texts.some((text) => text.startsWith('Ordvektorene er engelske (GloVe): skriv en engelsk setning, for eksempel «The cat sat on the mat')));
  assert.equal(await page.locator('h2#why-title').textContent(), 'Fra q·k til utdata — og hvorfor dele på √dk?');
});

test('induced words in Norwegian: the chip’s name and the note under the chips', async () => {
  await openLab(page, `${browser.url}?lang=nb`);
  await page.locator('attention-lab').evaluate((el) => el.set({ sentence: 'I saw a cat in 1990' }));
  await until(() => readMeters(page), (m) => m.length === 6, { what: 'six meters' });
  const note = await page.locator('attention-lab .note.induced').textContent();
  assert.ok(note.startsWith('* Mangler i GloVe-pakken som brukes her, så utledet: i, a og 1990.'), note);
  for (const word of ['i', 'a', '1990']) {
    assert.equal(await page.getByRole('button', { name: new RegExp(`^${word}.*, ${nb['chips.induced'].replace(/[.()]/g, '\\$&')}$`) }).count(), 1, word);
  }
  const title = await page.locator('attention-lab token-chips .chip.induced .mark').first().getAttribute('title');
  assert.equal(title, nb['chips.induced']);
});

test('numbers in Norwegian: a decimal comma for people, a plain decimal for software', async () => {
  await openLab(page, `${browser.url}?lang=nb`);
  const meters = await readMeters(page);
  const cat = meters.find((m) => m.name === 'cat (nøkkel 2)');
  assert.match(cat.text, /^0,3\d\d$/);
  assert.match(String(cat.value), /^0\.3\d+$/);
  assert.equal(cat.text, cat.value.toFixed(3).replace('.', ','));
  const sum = await readSummary(page);
  assert.equal(sum.sum, '1,000');
  assert.match(sum.entropy, /^\d,\d{3} nat$/);
  // the summary a screen reader hears, and the controls, in the same digits
  await page.locator('attention-lab').evaluate((el) => el.set({ temperature: 0.5 }));
  const heard = await until(() => page.locator('attention-lab .spoken').textContent(), (t) => t !== '', { what: 'the summary' });
  assert.match(heard, /^temperatur 0,5: «cat» gir nå 0,\d\d til «\w+», entropi \d,\d\d nat\.$/);
  assert.equal(await page.locator('attention-lab attention-controls #t-out').textContent(), '0,5');
  // formulas stay as they are: the scale factor's sentence keeps q·k and √
  assert.match(await page.locator('attention-lab attention-controls #scale-hint').textContent(), /^skårer = q·k × 0,1000 \(= 1\/√100\)$/);
});

test('errors in Norwegian: a paste that does not parse, and the causal mask on pasted Q and K of different lengths', async () => {
  await openLab(page, `${browser.url}?lang=nb`);
  const alerts = await page.locator('attention-lab').evaluate(async (lab) => {
    await customElements.whenDefined('vector-paste');
    const paste = lab.shadowRoot.querySelector('vector-paste');
    paste.open();
    paste.value = { q: 'cat, 1, 0, 0.5\nsat, 1, 0', k: '1 0 0', v: '' };
    paste.apply();
    const pasteAlert = paste.shadowRoot.querySelector('.alert').textContent;
    paste.value = { q: '1 0 0\n0 1 0', k: '1 0 0\n0 1 0\n0 0 1' };
    paste.apply();
    lab.set({ causal: true });
    await new Promise((resolve) => setTimeout(resolve));
    return { pasteAlert, labAlert: lab.shadowRoot.querySelector('.lab > .alert').textContent };
  });
  // the first paste: no pasted vectors are in use, so none are said to be "still in use"
  assert.equal(alerts.pasteAlert, 'Q rad 2 har 2 tall, men rad 1 har 3: alle radene må være like brede.');
  assert.equal(
    alerts.labAlert,
    'Den kausale masken krever like mange spørringer som nøkler (Q har 2 rader, K har 3): slå av masken, eller lim inn like mange spørringer som nøkler. Viser forrige resultat.',
  );
});

test('lesson.html?lang=nb: its bar, its status line and the instruments in bokmål', async () => {
  await page.goto(`${browser.url}lesson.html?lang=nb`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
  await page.waitForFunction(() => document.querySelector('attention-lesson')?.pending === false, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'nb');
  assert.equal(await page.locator('#status').textContent(), '10 tokener. Beregnet av oppmerksomhetskjernen, C++ kompilert til WebAssembly SIMD.');
  assert.match(await page.title(), /^Attention Lab — hvorfor skalert skalarprodukt-oppmerksomhet deler på √d_k$/);
  const texts = await visibleTexts();
  assert.deepEqual(englishOnly.filter((text) => texts.includes(text)), [], 'English left on lesson.html?lang=nb');
  const saturation = await page.locator('saturation-plot').evaluate((el) => el.shadowRoot.textContent);
  assert.match(saturation, /Ved d_k = 64: uskalert er \d+ av 10 rader ekstremt spisse/);
  assert.match(saturation, /gjennomsnittlig største vekt 0,\d+/);
});

test('the language: the element’s lang, then the URL’s, then the host page’s, then the browser', async () => {
  // the element's own attribute on an English page, and beside it a lab that follows the page
  assert.deepEqual(await openHost('en', '<attention-lab lang="nb"></attention-lab><attention-lab></attention-lab>'), [['nb', 'nb'], ['en', 'en']]);
  // the host page's lang, nearest ancestor first
  assert.deepEqual(await openHost('en', '<div lang="nb-NO"><attention-lab></attention-lab></div>'), [['nb', 'nb']]);
  assert.deepEqual(await openHost('nb', '<attention-lab></attention-lab>'), [['nb', 'nb']]);
  // the URL's lang before the host page's, the element's before the URL's
  assert.deepEqual(await openHost('nb', '<attention-lab></attention-lab><attention-lab lang="nb"></attention-lab>', '?lang=en'), [['en', 'en'], ['nb', 'nb']]);
  // a language without a table is English, even when the browser prefers Norwegian
  await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['nb-NO', 'en'] }));
  assert.deepEqual(await openHost('de', '<attention-lab></attention-lab>'), [['en', 'en']]);
  // nothing given: the browser's preference
  assert.deepEqual(await openHost(null, '<attention-lab></attention-lab>'), [['nb', 'nb']]);
  // the host page changes its language: the lab follows
  await page.evaluate(() => {
    document.documentElement.lang = 'en';
  });
  await until(() => page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('label[for="sentence"]').textContent), (t) => t === 'Tokens', {
    what: 'the lab in English after the page’s lang changed',
  });
});
