// The lesson as a story, in Chromium under the site's strict policy: its sections in the story's
// order on both pages, each heading a question; a prediction and an exercise driven by the
// keyboard alone, with their feedback in a live region and the lesson's score event; every
// number the new prose states read back from the instrument it describes; axe clean on the new
// elements in English and Norwegian.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/i18n/en.js';
import nb from '../../web/i18n/nb.js';
import { AXE_OWN_PROBLEM, axeViolations, describeViolations } from './axe.mjs';
import { drawWholeLesson, until, useBrowser } from './browser.mjs';

const STORY_ORDER = ['step', 'output', 'heads', 'variance', 'saturation', 'gradient', 'overflow'];
const NEW_PARTS = ['lesson-predict', 'lesson-exercise', 'attention-output', '.story-lead', '.story-note', '.story-scaling', '.lesson-score'];
const NEW_ELEMENTS = new RegExp(NEW_PARTS.map((s) => s.replace('.', '\\.')).join('|'));

let browser;
let page;

useBrowser({ viewport: { width: 1440, height: 900 } }, (opened) => ({ browser, page } = opened), (problem) => AXE_OWN_PROBLEM.test(problem));

async function openIndex(query = '') {
  await page.goto(`${browser.url}index.html${query}`);
  await page.locator('attention-lab').evaluate((lab) => lab.ready);
  await drawWholeLesson(page);
  await page.waitForFunction(() => customElements.get('lesson-predict') && customElements.get('lesson-exercise'));
}

// The text of an element's live feedback (inside its shadow root).
const feedback = (selector) => page.locator(selector).evaluate((el) => el.shadowRoot.querySelector('.feedback').textContent);

test('the story runs q·k → softmax → output → heads → variance → saturation → gradient, on both pages', async () => {
  await openIndex();
  const read = () =>
    page.evaluate(() => ({
      parts: [...document.querySelectorAll('attention-lesson section[data-part]')].map((s) => s.dataset.part),
      headings: [...document.querySelectorAll('attention-lesson section[data-part] > h3')].map((h) => h.textContent),
      leads: [...document.querySelectorAll('attention-lesson section[data-part] > .story-lead')].map((p) => p.textContent.length),
      // the lab on top, then the lesson, then training
      order: ['attention-lab', 'attention-lesson', '#training'].map((s) => document.querySelector(s).getBoundingClientRect().top),
    }));
  const index = await read();
  assert.deepEqual(index.parts, STORY_ORDER);
  assert.ok(index.headings.every((h) => h.endsWith('?')), `every heading asks: ${index.headings.join(' | ')}`);
  assert.ok(index.leads.every((n) => n > 40), 'every section has its lead');
  assert.ok(index.order[0] < index.order[1] && index.order[1] < index.order[2], 'lab, lesson, training');
  // predictions before the four claims' instruments, exercises after (in an aside or not)
  const layout = await page.evaluate(() =>
    [...document.querySelectorAll('attention-lesson section[data-part]')].map((s) =>
      [...s.querySelectorAll(':scope > *, :scope > details > *')].map((c) => c.localName).filter((n) => n.includes('-')).join(' ')),
  );
  assert.deepEqual(layout, [
    'lesson-predict step-by-step lesson-exercise lesson-exercise',
    'attention-output',
    'multi-head-view',
    'lesson-predict variance-lab lesson-exercise',
    'lesson-predict saturation-plot lesson-exercise',
    'lesson-predict gradient-view',
    'overflow-demo lesson-exercise',
  ]);

  await page.goto(`${browser.url}lesson.html`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 30000 });
  const lesson = await page.evaluate(() => ({
    parts: [...document.querySelectorAll('attention-lesson section[data-part]')].map((s) => s.dataset.part),
    headings: [...document.querySelectorAll('attention-lesson section[data-part] > h2')].map((h) => h.textContent),
  }));
  assert.deepEqual(lesson.parts, [...STORY_ORDER, 'quiz'], 'the lesson page closes with the quiz');
  assert.deepEqual(lesson.headings.slice(0, -1), index.headings, 'the same questions on both pages');
  const top = await page.evaluate(() => ['attention-lesson', '#training'].map((s) => document.querySelector(s).getBoundingClientRect().top));
  assert.ok(top[0] < top[1], 'lesson, then training');
});

test('a prediction by keyboard: the instrument is veiled, Check reveals the measured answer', async () => {
  await openIndex();
  const predict = 'lesson-predict[data-prediction="variance"]';
  // veiled for the eye (not drawn on screen: a blur left its numbers readable) and for the
  // keyboard and a screen reader (inert, hidden): the instrument's focusable parts are not
  // reached, its numbers are not in the accessibility tree
  const veiled = () => page.evaluate(() => {
    const el = document.querySelector('variance-lab');
    const p = el.shadowRoot.querySelector('p');
    return { hidden: getComputedStyle(el).visibility === 'hidden' && !p?.checkVisibility({ visibilityProperty: true }), filter: getComputedStyle(el).filter };
  });
  const unreachable = () =>
    page.evaluate(() => {
      const el = document.querySelector('variance-lab');
      const focusable = el.shadowRoot.querySelector('button, input, [tabindex]');
      focusable?.focus();
      return { inert: el.inert, hidden: el.getAttribute('aria-hidden'), focused: focusable ? el.shadowRoot.activeElement === focusable : false };
    });
  assert.deepEqual(await veiled(), { hidden: true, filter: 'none' });
  assert.deepEqual(await unreachable(), { inert: true, hidden: 'true', focused: false });
  // hidden in place: the page below does not jump when it is revealed
  const box = await page.locator('variance-lab').boundingBox();
  assert.ok(box && box.height > 100, 'the instrument keeps its place');
  // a few words of the instrument's own text: not in the section's accessibility tree until revealed
  const sample = await page.evaluate(() => document.querySelector('variance-lab').shadowRoot.querySelector('p')?.textContent.trim().split(/\s+/).slice(0, 4).join(' '));
  assert.ok(sample, 'the instrument has drawn');
  const spoken = () => page.locator('section[data-part="variance"]').ariaSnapshot();
  assert.ok(!(await spoken()).includes(sample), `“${sample}” is not read out while veiled`);
  assert.equal(await page.locator(predict).evaluate((el) => el.shadowRoot.querySelector('.veiled').hidden), false, 'the prediction says why');
  // Check with nothing chosen asks for a choice
  await page.locator(`${predict} button.check`).focus();
  await page.keyboard.press('Enter');
  assert.equal(await feedback(predict), en['predict.chooseFirst']);
  assert.equal((await veiled()).hidden, true, 'still veiled');
  assert.equal((await unreachable()).inert, true, 'still inert');
  // the radio group: focus it, arrow to the third option ("grows about 4 times"), Tab to Check
  await page.locator(`${predict} input[value="same"]`).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator(`${predict} input[value="four"]`).isChecked(), true);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate((s) => document.querySelector(s).shadowRoot.activeElement?.className, predict), 'check');
  await page.keyboard.press('Enter');
  assert.equal((await veiled()).hidden, false, 'revealed');
  assert.deepEqual(await page.evaluate(() => [document.querySelector('variance-lab').inert, document.querySelector('variance-lab').hasAttribute('aria-hidden')]), [false, false], 'reachable');
  assert.equal(await page.locator(predict).evaluate((el) => el.shadowRoot.querySelector('.veiled').hidden), true);
  assert.ok((await spoken()).includes(sample), `“${sample}” is read out once revealed`);
  const text = await feedback(predict);
  assert.equal(await page.locator(predict).evaluate((el) => el.shadowRoot.querySelector('.feedback').getAttribute('role')), 'status');
  // its numbers are the variance instrument's, in its words
  const numbers = await page.evaluate(() => {
    const el = document.querySelector('variance-lab');
    const { curve, samples } = el.results;
    const s = el.strings;
    const at = (d) => curve.dims.indexOf(d);
    return {
      from: s.fmt(curve.unscaled[at(16)], 3),
      to: s.fmt(curve.unscaled[at(64)], 3),
      ratio: s.fixed(curve.unscaled[at(64)] / curve.unscaled[at(16)], 2),
      scaledFrom: s.fmt(curve.scaled[at(16)], 3),
      scaledTo: s.fmt(curve.scaled[at(64)], 3),
      samples: s.integer(samples),
      right: curve.unscaled[at(64)] / curve.unscaled[at(16)] > 3 && curve.unscaled[at(64)] / curve.unscaled[at(16)] < 5.5,
    };
  });
  assert.ok(numbers.right, 'the measured ratio is about 4');
  assert.ok(text.startsWith('Right: grows about 4 times.'), text);
  for (const key of ['from', 'to', 'ratio', 'scaledFrom', 'scaledTo', 'samples']) assert.ok(text.includes(numbers[key]), `${key} ${numbers[key]} in “${text}”`);
  // answered, the form folds to the question and the answer; the keyboard stays on the answer
  assert.deepEqual(await page.locator(predict).evaluate((el) => ({
    options: el.shadowRoot.querySelector('.options').checkVisibility(),
    buttons: el.shadowRoot.querySelector('.actions').checkVisibility(),
    focused: el.shadowRoot.activeElement?.classList.contains('feedback'),
  })), { options: false, buttons: false, focused: true });
  // a wrong guess is told so, with the guess and the answer (on another prediction: one answered stays answered)
  const other = 'lesson-predict[data-prediction="distribution"]';
  await page.locator(`${other} input[value="negative"]`).focus();
  await page.keyboard.press('Space');
  await page.locator(`${other} button.check`).focus();
  await page.keyboard.press('Enter');
  assert.ok((await feedback(other)).startsWith('You predicted “Some negative, where the scores are negative”; the measurement says “None negative, and together they add up to 1”.'), await feedback(other));
});

test('the other predictions state the instruments’ own numbers', async () => {
  await openIndex('?projection=random&dk=64');
  await page.evaluate(() => {
    for (const p of document.querySelectorAll('lesson-predict')) p.shadowRoot.querySelector('button.skip').click();
  });
  const read = await page.evaluate(() => {
    const s = document.querySelector('step-by-step').strings;
    const text = (id) => document.querySelector(`lesson-predict[data-prediction="${id}"]`).shadowRoot.querySelector('.feedback').textContent;
    const trace = document.querySelector('step-by-step').results.trace;
    const scores = Array.from(trace.scores).slice(0, trace.visible);
    const sat = document.querySelector('saturation-plot').results;
    const i = sat.unscaled.dims.indexOf(1024);
    const grad = document.querySelector('gradient-view').results;
    const t = grad.t;
    let row = 0;
    for (let j = 1; j < t; j++) if (grad.sweeps.unscaled.maxWeight[i * t + j] > grad.sweeps.unscaled.maxWeight[i * t + row]) row = j;
    return {
      distribution: text('distribution'),
      distributionNumbers: [s.fmt(Math.min(...scores), 3), s.fmt(Math.max(...scores), 3), s.fmt(trace.minWeight, 3), s.fixed(trace.weightSum, 4)],
      sum: trace.weightSum,
      min: trace.minWeight,
      saturation: text('saturation'),
      saturationNumbers: [s.fixed(sat.unscaled.mean.maxWeight[i], 3), s.fixed(sat.scaled.mean.maxWeight[i], 3), String(sat.unscaled.peakedCount[i]), String(sat.t)],
      mean: sat.unscaled.mean.maxWeight[i],
      gradient: text('gradient'),
      gradientNumbers: [
        grad.keyLabels[row],
        s.fixed(grad.sweeps.unscaled.maxWeight[i * t + row], 3),
        s.fmt(grad.sweeps.unscaled.gradNorm[i * t + row], 3),
        s.fmt(grad.sweeps.scaled.gradNorm[i * t + row], 3),
        s.fmt(grad.sweeps.scaled.gradNorm[i * t + row] / grad.sweeps.unscaled.gradNorm[i * t + row], 2),
        s.fmt(grad.sweeps.unscaled.mean.gradNorm[i], 3),
        s.fmt(grad.sweeps.scaled.mean.gradNorm[i], 3),
      ],
      factor: grad.sweeps.scaled.gradNorm[i * t + row] / grad.sweeps.unscaled.gradNorm[i * t + row],
    };
  });
  for (const id of ['distribution', 'saturation', 'gradient']) {
    for (const number of read[`${id}Numbers`]) assert.ok(read[id].includes(number), `${id}: ${number} in “${read[id]}”`);
  }
  // and the verdicts are the measurements'
  assert.ok(read.min > 0 && Math.abs(read.sum - 1) < 1e-6);
  assert.ok(read.distribution.startsWith('The measurement says “None negative, and together they add up to 1”.'));
  assert.ok(read.mean >= 0.8 && read.saturation.startsWith('The measurement says “close to 1'), read.saturation);
  assert.ok(read.factor >= 10 && read.gradient.startsWith(`The measurement says “${en['predict.gradientMuchSmaller']}”.`), read.gradient);
});

test('the output states the lab’s own weights and output row', async () => {
  await openIndex('?projection=random&dk=64');
  await page.evaluate(() => document.querySelector('attention-lab').set({ selected: 2 }));
  await until(() => page.evaluate(() => document.querySelector('attention-output').results?.row), (row) => row === 2, { what: 'the output of row 3', timeout: 15000 });
  const read = await page.evaluate(() => {
    const lab = document.querySelector('attention-lab');
    const { result, m, dv, selected, keyLabels } = lab.state;
    const el = document.querySelector('attention-output');
    const s = el.strings;
    const w = Array.from(result.weights.subarray(selected * m, (selected + 1) * m));
    const top = w.map((x, j) => [x, j]).sort((a, b) => b[0] - a[0]).slice(0, 3);
    const root = el.shadowRoot;
    return {
      madeOf: root.querySelector('.made-of').textContent,
      named: top.map(([x, j]) => `“${keyLabels[j]}” (${s.fixed(x, 3)})`),
      share: s.fixed(top.reduce((a, [x]) => a + x, 0), 3),
      output: Array.from(result.output.subarray(selected * dv, selected * dv + 6), (x) => s.fmt(x, 3)),
      shown: [...root.querySelectorAll('tfoot td.vec')].map((td) => td.textContent),
      rows: [...root.querySelectorAll('tbody tr[data-key] [data-k="weight"]')].map((x) => x.textContent),
      listed: top.map(([x]) => s.fixed(x, 3)),
      word: keyLabels[selected],
    };
  });
  assert.equal(read.word, 'sat');
  for (const name of read.named) assert.ok(read.madeOf.includes(name), `${name} in “${read.madeOf}”`);
  assert.ok(read.madeOf.includes(read.share));
  assert.deepEqual(read.shown, read.output, 'the output row is the engine’s');
  assert.deepEqual(read.rows.slice(0, 3), read.listed, 'keys by weight');
});

test('an exercise by keyboard: a diagnosis, then right, and the score event', async () => {
  await openIndex();
  await page.evaluate(() => {
    window.__scores = [];
    document.querySelector('attention-lesson').addEventListener('score', (e) => window.__scores.push(e.detail));
  });
  const exercise = 'lesson-exercise[data-exercise="softmaxWeight"]';
  assert.deepEqual(await page.evaluate(() => document.querySelector('attention-lesson').score), { raw: 0, max: 5, completed: false });
  await page.locator(`${exercise} input`).focus();
  await page.keyboard.type('0.333'); // z₂ / Σz: no exp
  await page.keyboard.press('Enter');
  assert.equal(await feedback(exercise), `${en['exercise.wrong']} ${en['exercise.diagnosisMissingExp']}`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('0,245'); // a decimal comma
  await page.keyboard.press('Tab'); // to Check
  await page.keyboard.press('Enter');
  const engine = await page.evaluate(() => document.querySelector('attention-lab').engine.softmax(new Float32Array([2, 1, 0]))[1].toFixed(4));
  assert.equal(await feedback(exercise), `${en['exercise.right']} ${en['exercise.engineGives'].replace('{value}', engine)}`);
  await until(() => page.evaluate(() => window.__scores), (s) => s.length === 1, { what: 'a score event' });
  assert.deepEqual(await page.evaluate(() => window.__scores), [{ raw: 1, max: 5, completed: false }]);
  assert.equal(await page.evaluate(() => document.querySelector('.lesson-score').textContent), 'Exercises solved: 1 of 5.');
  // the overflow a calculator shows is named: no max subtraction
  const stable = 'lesson-exercise[data-exercise="stableMax"]';
  await page.locator(`${stable} input`).focus();
  await page.keyboard.type('NaN');
  await page.keyboard.press('Enter');
  assert.equal(await feedback(stable), `${en['exercise.wrong']} ${en['exercise.diagnosisNonFinite']}`);
  // the saturation exercise: its select, checked against the trend of the sentence's rows —
  // their largest weight averaged over the rows and the projections the prompt names, found here
  // from headProjections and a softmax written out, apart from the core's trend
  const saturate = 'lesson-exercise[data-exercise="saturate"]';
  const prompt = await page.locator(saturate).evaluate((el) => el.shadowRoot.querySelector('.prompt').textContent);
  const [, threshold, draws] = prompt.match(/pass ([\d.]+), on average over the rows and (\d+) random projections/) ?? [];
  assert.ok(Number(draws) > 1 && Number(threshold) > 0, prompt);
  const reference = await page.evaluate(([threshold, draws]) => {
    const lab = document.querySelector('attention-lab');
    const { x, n, settings } = lab.state;
    const t = Math.min(n, 24);
    const dIn = x.length / n;
    const dims = document.querySelector('saturation-plot').results.unscaled.dims;
    const means = Array.from(dims, (d) => {
      let sum = 0;
      for (let head = 0; head < draws; head++) {
        const { q, k } = lab.engine.headProjections({ x: x.subarray(0, t * dIn), t, dIn, seed: settings.seed, head, d });
        for (let i = 0; i < t; i++) {
          const z = Array.from({ length: t }, (_, j) => { let s = 0; for (let c = 0; c < d; c++) s += q[i * d + c] * k[j * d + c]; return s; });
          const top = Math.max(...z);
          sum += 1 / z.reduce((a, v) => a + Math.exp(v - top), 0);
        }
      }
      return sum / (draws * t);
    });
    const i = means.findIndex((m) => m > threshold);
    return { dk: i < 0 ? 'none' : String(dims[i]), weight: document.querySelector('saturation-plot').strings.fixed(i < 0 ? means.at(-1) : means[i], 3) };
  }, [Number(threshold), Number(draws)]);
  await page.locator(`${saturate} select`).selectOption(reference.dk);
  await page.locator(`${saturate} button`).focus();
  await page.keyboard.press('Enter');
  const said = await feedback(saturate);
  assert.ok(said.startsWith(en['exercise.right']), said);
  assert.ok(said.includes(reference.weight), `${reference.weight} in “${said}”`);
  assert.deepEqual(await page.evaluate(() => window.__scores.at(-1)), { raw: 2, max: 5, completed: false });
});

for (const lang of ['en', 'nb']) {
  test(`axe: the new elements are clean in ${lang}, before and after answers`, async () => {
    await openIndex(`?lang=${lang}`);
    const strings = lang === 'en' ? en : nb;
    const mine = (violations) =>
      violations.map((v) => ({ ...v, nodes: v.nodes.filter((n) => NEW_ELEMENTS.test(n.target)) })).filter((v) => v.nodes.length > 0);
    const runs = [{ where: `${lang} at first`, violations: mine(await axeViolations(page, NEW_PARTS)) }];
    await page.evaluate(() => {
      for (const p of document.querySelectorAll('lesson-predict')) {
        p.shadowRoot.querySelector('input[name=option]').click();
        p.shadowRoot.querySelector('button.check').click();
      }
      for (const e of document.querySelectorAll('lesson-exercise')) {
        const input = e.shadowRoot.querySelector('input');
        input.value = '0.5';
        e.check();
      }
    });
    assert.ok((await feedback('lesson-exercise[data-exercise="softmaxWeight"]')).startsWith(strings['exercise.wrong']));
    runs.push({ where: `${lang} answered`, violations: mine(await axeViolations(page, NEW_PARTS)) });
    await page.emulateMedia({ colorScheme: 'dark' });
    runs.push({ where: `${lang} answered, dark`, violations: mine(await axeViolations(page, NEW_PARTS)) });
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(runs.flatMap((r) => r.violations), [], describeViolations(runs));
  });
}

test('scaling is a temperature: the story’s buttons set T = √d_k and back, on both pages; the line reads the lab’s own row', async () => {
  await openIndex('?projection=random&dk=1024&scaled=false');
  const lab = page.locator('attention-lab');
  const button = (which) => page.locator(`#overflow .story-actions button[data-temperature="${which}"]`);
  const line = () => page.locator('#overflow .story-now').textContent();
  const labRow = () => lab.evaluate((el) => ({ max: el.state.result.maxWeight[el.state.selected].toFixed(3), weights: Array.from(el.state.result.weights), t: el.settings.temperature }));
  assert.equal(await button('root').textContent(), 'Set T = √dk = 32');
  await button('root').click();
  await until(() => lab.evaluate((el) => el.settings.temperature), (t) => t === 32, { what: 'T = 32 in the lab' });
  const unscaledT = await labRow();
  // the line says the lab's own largest weight of the selected row, at the setting it names
  await until(line, (text) => text.startsWith('Now: unscaled, dk = 1024, T = 32.') && text.includes(` puts ${unscaledT.max} on its largest key`), { what: 'the line at T = 32', timeout: 15000 });
  // unscaled at T = √d_k gives the weights of scaled at T = 1, as the paragraph says
  await lab.evaluate((el) => el.set({ scaled: true }));
  // the lesson redraws for the new state (its sections can move): click once it has settled
  const settled = () => page.waitForFunction(() => document.querySelector('attention-lesson').pending === false, null, { timeout: 30000 });
  await settled();
  await button('one').click();
  await until(() => lab.evaluate((el) => [el.settings.scaled, el.settings.temperature]), ([s, t]) => s && t === 1, { what: 'scaled at T = 1' });
  const scaled1 = await labRow();
  assert.ok(unscaledT.weights.every((w, i) => Math.abs(w - scaled1.weights[i]) <= 1e-6), 'the same weights');
  // scaled with T = √d_k on top: every weight near 1 ÷ the number of keys
  await settled();
  await button('root').click();
  await until(() => lab.evaluate((el) => el.settings.temperature), (t) => t === 32, { what: 'T = 32 again' });
  const flat = await labRow();
  const keys = await lab.evaluate((el) => el.state.m);
  assert.ok(flat.weights.every((w) => Math.abs(w * keys - 1) < 0.1), 'nearly flat');
  // lesson.html: no lab; the lesson's request reaches the page's own store
  await page.goto(`${browser.url}lesson.html`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
  await page.evaluate(() => {
    document.getElementById('dk').value = '10';
    document.getElementById('controls').dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.locator('#overflow').scrollIntoViewIfNeeded();
  await until(() => button('root').textContent(), (t) => t === 'Set T = √dk = 32', { what: 'the button at d_k = 1024', timeout: 15000 });
  await button('root').click();
  await until(() => page.locator('#status').textContent(), (t) => t.includes('Temperature T = 32'), { what: 'T = 32 on lesson.html' });
  await until(line, (text) => text.startsWith('Now: scaled by 1/√dk, dk = 1024, T = 32.'), { what: 'the line on lesson.html', timeout: 15000 });
});

test('the attention-as-explanation caveat, with its citations, is said once a page: beside the trained model, on index, lesson and embed?view=model', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const cites = /Jain & Wallace[\s\S]*2019[\s\S]*Wiegreffe & Pinter[\s\S]*2019[\s\S]*Kobayashi et al\.[\s\S]*2020/;
  const modelCaveat = () => page.evaluate(async () => {
    await customElements.whenDefined('model-view');
    return document.querySelector('model-view').shadowRoot.querySelector('.caveat')?.textContent ?? '';
  });
  // every text of the page, shadow roots included: how many times it cites Jain & Wallace
  const citations = () => page.evaluate(() => {
    let count = 0;
    const walk = (root) => {
      for (const node of root.querySelectorAll('*')) {
        if (node.shadowRoot) walk(node.shadowRoot);
        for (const child of node.childNodes) if (child.nodeType === Node.TEXT_NODE) count += (child.textContent.match(/Jain (&|og) Wallace/g) ?? []).length;
      }
    };
    walk(document);
    return count;
  });
  for (const file of ['', 'lesson.html']) {
    await page.goto(`${browser.url}${file}`);
    await page.evaluate(() => customElements.whenDefined('attention-lesson'));
    // the heads' note: untrained, said so, without the literature
    const heads = await until(() => page.evaluate(() => document.querySelector('#heads .story-note')?.textContent ?? ''), (t) => t !== '', { what: 'the heads’ note', timeout: 20000 });
    assert.match(heads, /untrained/);
    assert.doesNotMatch(heads, /Jain/);
    const model = await until(modelCaveat, (t) => t !== '', { what: 'the model’s caveat', timeout: 20000 });
    assert.match(model, /This model is trained/);
    assert.match(model, cites, `${file || 'index.html'}: the caveat beside the trained model`);
    assert.equal(await citations(), 1, `${file || 'index.html'}: the caveat once`);
  }
  assert.doesNotMatch(await page.locator('header .caveat').textContent(), /Nothing here is trained/);
  await page.goto(`${browser.url}embed.html?view=model`);
  assert.match(await until(modelCaveat, (t) => t !== '', { what: 'the embedded model’s caveat', timeout: 20000 }), cites, 'embed.html?view=model');
  await page.goto(`${browser.url}embed.html?view=model&lang=nb`);
  await until(modelCaveat, (t) => /Jain og Wallace[\s\S]*Kobayashi mfl\./.test(t), { what: 'the embedded model’s caveat in Norwegian', timeout: 20000 });
});

test('the links made before (#claim-1 … #claim-4) open their steps, and the story’s intro numbers no claims', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const lang of ['en', 'nb']) {
    await page.goto(`${browser.url}?lang=${lang}`);
    await page.locator('attention-lab').evaluate((lab) => lab.ready);
    await drawWholeLesson(page);
    const parts = await page.evaluate(() => ['claim-1', 'claim-2', 'claim-3', 'claim-4', 'overflow'].map((id) => document.getElementById(id)?.dataset.part));
    assert.deepEqual(parts, ['variance', 'saturation', 'gradient', 'step', 'overflow'], lang);
    assert.doesNotMatch(await page.locator('#why > p').first().textContent(), /Four claims|Fire påstander|\b(Claim|Påstand) \d/, lang);
  }
  // an old link to a claim opens its step, scrolled to the top of the window, and so does a link
  // to the trained model (a part the page has from the start, which the lab and the lesson above
  // it push down as they draw)
  for (const [id, part] of [['claim-3', 'gradient'], ['model', undefined]]) {
    // a fresh load: a fragment navigation on the page already open would not reload it
    await page.goto('about:blank');
    await page.goto(`${browser.url}#${id}`);
    await page.locator('attention-lab').evaluate((lab) => lab.ready);
    // the lesson writes its sections once its element is defined, which may be after the lab is ready
    await page.waitForFunction((id) => document.getElementById(id), id, { timeout: 20000 });
    assert.equal(await page.evaluate((id) => document.getElementById(id).dataset.part, id), part);
    // held there while what is above it draws: still there a second after it first arrived
    const top = () => page.evaluate((id) => Math.round(document.getElementById(id).getBoundingClientRect().top), id);
    await until(top, (y) => Math.abs(y) < 50, { timeout: 10000, what: `#${id} scrolled to the top of the window` });
    await page.waitForTimeout(1000);
    const y = await top();
    assert.ok(Math.abs(y) < 50, `#${id} moved to ${y} px from the top of the window`);
  }
});

test('the asides are closed <details> a learner opens, in their sections; one opened draws, and stays open while its view redraws', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${browser.url}index.html`);
  await page.locator('attention-lab').evaluate((lab) => lab.ready);
  await page.evaluate(() => customElements.whenDefined('attention-lesson'));
  // several heads and the max subtraction: closed, each in its section (its id kept), the
  // temperature's words and buttons on the path, before the aside
  const lesson = await page.evaluate(() => ({
    asides: [...document.querySelectorAll('attention-lesson details.story-aside')].map((d) => [d.closest('section').id, d.open, d.querySelector('summary + *')?.localName]),
    temperature: document.querySelector('#overflow .story-scaling').closest('details') === null,
    probe: document.querySelector('attention-lab').shadowRoot.querySelector('details.probe').open,
  }));
  assert.deepEqual(lesson.asides, [['heads', false, 'multi-head-view'], ['overflow', false, 'overflow-demo']]);
  assert.ok(lesson.temperature, 'scaling is a temperature stays on the path');
  assert.equal(lesson.probe, false, 'the probe is closed');
  // opened, the heads draw at their width
  await page.locator('#heads > details > summary').click();
  await page.locator('multi-head-view').scrollIntoViewIfNeeded();
  await until(() => page.locator('multi-head-view').evaluate((el) => el.shadowRoot?.querySelectorAll('.grid > div').length ?? 0), (n) => n > 0, { what: 'the heads drawn', timeout: 20000 });
  // the training experiment's reading: four closed asides
  await page.locator('#training').scrollIntoViewIfNeeded();
  const reading = await page.locator('training-experiment').evaluate((el) => [...el.shadowRoot.querySelectorAll('.reading details')].map((d) => d.open));
  assert.deepEqual(reading, [false, false, false, false]);
  // the trained model's caveat, next word, √d_k and notes: closed; opened, they stay open when a head is opened
  await page.locator('#model').scrollIntoViewIfNeeded();
  const view = page.locator('model-view');
  await until(() => view.evaluate((el) => el.shadowRoot.querySelectorAll('.thumb').length), (n) => n === 8, { what: 'the eight heads', timeout: 30000 });
  assert.deepEqual(await view.evaluate((el) => [...el.shadowRoot.querySelectorAll('details')].map((d) => [d.className, d.open])), [['caveat', false], ['aside next', false], ['aside scale', false], ['not-shown', false]]);
  await view.locator('details.not-shown > summary').click();
  await view.locator('details.next > summary').click();
  await view.locator('.thumb[data-layer="2"][data-head="1"]').click();
  await until(() => view.evaluate((el) => el.shadowRoot.querySelector('.opened h3')?.textContent), (t) => t === 'Layer 2, head 1', { what: 'layer 2, head 1 opened' });
  assert.equal(await view.evaluate((el) => el.shadowRoot.querySelector('details.not-shown').open), true, 'the notes stay open');
  assert.equal(await view.evaluate((el) => el.shadowRoot.querySelector('details.next').open), true, 'the next word stays open');
  // a link or an embed that names a part in an aside (view=heads, view=overflow) opens it
  for (const [file, id] of [['embed.html?view=heads', 'heads'], ['index.html?view=overflow', 'overflow']]) {
    await page.goto(`${browser.url}${file}`);
    await until(() => page.evaluate((id) => document.querySelector(`#${id} details.story-aside`)?.open ?? false, id), Boolean, { what: `${file}: the aside opened`, timeout: 20000 });
  }
});
