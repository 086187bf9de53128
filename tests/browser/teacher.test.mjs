// The teacher's page (web/teacher.html) in Chromium under the site's policy: it loads without a
// console error in English and in Norwegian, its key shows the exercises' answers as float64
// softmax gives them (in the reader's decimal sign), printing hides the navigation and the
// buttons and prints black on white with the worksheet and the key each from a new page, and
// axe finds nothing. The printed pages themselves are looked at: scripts/print-teacher.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import nb from '../../web/i18n/nb.js';
import { EXERCISES } from '../../web/lesson/exercises.js';
import { softmax64 } from '../support/reference.mjs';
import { AXE_OWN_PROBLEM, assertAxeCleanAcross, axeViolations, describeViolations } from './axe.mjs';
import { useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({ viewport: { width: 1440, height: 900 } }, (opened) => ({ browser, page } = opened), (problem) => AXE_OWN_PROBLEM.test(problem));

// The exercises' answers in float64, from their scores as web/lesson/exercises.js states them.
const e = EXERCISES;
const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const root = Math.sqrt(e.scale.q.length);
const WEIGHTS = {
  softmaxWeight: softmax64(e.softmaxWeight.scores)[e.softmaxWeight.key],
  softmaxAxis: softmax64(e.softmaxAxis.rows[e.softmaxAxis.query])[e.softmaxAxis.key],
  scale: softmax64(e.scale.k.map((k) => dot(e.scale.q, k) / root))[e.scale.key],
  stableMax: softmax64(e.stableMax.scores.map((z) => z - Math.max(...e.stableMax.scores)))[e.stableMax.key],
};

async function open(lang) {
  await page.goto(`${browser.url}teacher.html?lang=${lang}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
}
const keyItem = (item) => page.locator(`#key-items [data-item="${item}"] .answer`).textContent();

for (const [lang, table, decimal] of [['en', en, '.'], ['nb', nb, ',']]) {
  test(`${lang}: the page in its language, the key’s weights equal float64 softmax, the predictions’ answers the lesson’s options`, async () => {
    await open(lang);
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), table['teacher.heading']);
    assert.equal(await page.title(), table['teacher.title']);
    for (const [id, value] of Object.entries(WEIGHTS)) {
      const shown = (await keyItem(`exercise-${id}`)).match(/\d+[.,]\d{4}/)[0];
      assert.equal(shown, value.toFixed(4).replace('.', decimal), id);
    }
    assert.match(await keyItem('exercise-saturate'), /dk = \d+/);
    assert.ok((await keyItem('predict-distribution')).includes(table['predict.distributionDistribution']));
    assert.ok((await keyItem('predict-variance')).includes(table['predict.varianceFour']));
    // the worksheet asks the same nine questions, without their answers
    assert.equal(await page.locator('#worksheet .question').count(), 9);
    assert.equal(await page.locator('#worksheet').getByText(WEIGHTS.softmaxWeight.toFixed(4).replace('.', decimal)).count(), 0);
    // the links to the lesson keep the language
    for (const href of await page.locator('a[data-keep-lang]').evaluateAll((links) => links.map((a) => a.href))) assert.match(href, new RegExp(`lesson\\.html\\?lang=${lang}$`));
  });
}

test('the lesson links the teacher’s page in its language', async () => {
  await page.goto(`${browser.url}lesson.html?lang=nb`);
  const link = page.getByRole('link', { name: nb['page.forTeachers'] });
  assert.match(await link.getAttribute('href'), /teacher\.html\?lang=nb$/);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 }); // leave the page loaded, not loading
});

test('printed: no navigation or buttons, black on white, the worksheet and the key from a new page, the width of A4 and Letter', async () => {
  await open('en');
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  try {
    const looks = await page.evaluate(() => {
      const style = (el) => getComputedStyle(el);
      return {
        hidden: [...document.querySelectorAll('nav, button, footer')].map((el) => style(el).display),
        color: style(document.body).color,
        background: style(document.body).backgroundColor,
        breaks: ['worksheet', 'key'].map((id) => style(document.getElementById(id)).breakBefore),
        sections: [...document.querySelectorAll('section')].map((el) => style(el).backgroundColor),
      };
    });
    assert.ok(looks.hidden.length >= 4 && looks.hidden.every((d) => d === 'none'), JSON.stringify(looks.hidden));
    assert.equal(looks.color, 'rgb(0, 0, 0)');
    assert.equal(looks.background, 'rgb(255, 255, 255)');
    assert.deepEqual(looks.breaks, ['page', 'page']);
    assert.ok(looks.sections.every((c) => c === 'rgb(255, 255, 255)'), JSON.stringify(looks.sections));
    // 180 mm: the narrower paper (A4, 210 mm) less the page's margins (@page, 15 mm each side)
    await page.setViewportSize({ width: Math.floor((180 / 25.4) * 96), height: 900 });
    assert.equal(await page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth), 0, 'the printed page is no wider than the paper');
    // "Print the worksheet": the worksheet alone
    await page.evaluate(() => document.body.classList.add('print-worksheet'));
    const shown = await page.evaluate(() => [...document.querySelectorAll('header, main > section')].filter((el) => getComputedStyle(el).display !== 'none').map((el) => el.id || el.localName));
    assert.deepEqual(shown, ['worksheet']);
    for (const format of ['A4', 'Letter']) assert.ok((await page.pdf({ format })).length > 10000, `a ${format} PDF`);
  } finally {
    await page.emulateMedia({ media: 'screen', colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

test('axe finds nothing: English light and dark at 390 and 1440 px, Norwegian', async () => {
  await open('en');
  await assertAxeCleanAcross(page, 'teacher.html', [390, 1440]);
  await open('nb');
  const violations = await axeViolations(page);
  assert.equal(violations.length, 0, describeViolations([{ where: 'teacher.html?lang=nb', violations }]));
});
