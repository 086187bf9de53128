// The demo page in headless Chromium: what a learner sees and does. Run by scripts/test.sh
// (node --test --test-concurrency=1 tests/browser/); pictures: npm run screenshots.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SENTENCE_64, firstViewRequests, openLab, readMeters, readSummary, until, useBrowser } from './browser.mjs';

// Tolerance of the headline numbers: they are quoted to two decimals.
const HEADLINE_TOLERANCE = 0.005;
// A row of weights sums to 1 up to float32 rounding of m terms.
const ROW_SUM_TOLERANCE = 1e-3;

let browser;
let page;
useBrowser({}, (opened) => ({ browser, page } = opened));

const sum = (meters) => meters.reduce((total, m) => total + m.value, 0);
const meter = (meters, name) => meters.find((m) => m.name === name);

// How fast is a benchmark's question (npm run bench:page, target 400 ms to the first bars); this
// test holds what that benchmark reads: one mark, set when the first bars are drawn.
test('the first result is marked once, when the first bars are drawn, on a first and a second visit', async () => {
  const measure = async () => {
    await openLab(page, browser.url);
    return page.evaluate(() => {
      const marks = performance.getEntriesByName('attention-lab:first-result');
      const lab = document.querySelector('attention-lab');
      const meters = lab.shadowRoot.querySelector('#bars').shadowRoot.querySelectorAll('[role="meter"]').length;
      return { marks: marks.length, first: marks[0]?.startTime, meters };
    });
  };
  const cold = await measure(); // a fresh browser profile: nothing compiled or cached yet
  const warm = await measure();
  console.log(`# navigation → first result (not a benchmark: see npm run bench:page): first visit ${cold.first?.toFixed(0)} ms, second visit ${warm.first?.toFixed(0)} ms`);
  for (const visit of [cold, warm]) {
    assert.equal(visit.marks, 1, 'one mark per page load');
    assert.ok(visit.first > 0, `the mark's time: ${visit.first}`);
    assert.ok(visit.meters > 0, 'bars are drawn when the mark is read');
  }
});

test('the page hints what its first view fetches, and each hinted file is fetched once', async () => {
  await openLab(page, browser.url);
  const { hinted, scripts, fetched } = await firstViewRequests(page);
  // a preload the page does not use, or uses with other request options (crossorigin), is fetched twice
  for (const url of hinted) assert.equal(fetched.filter((u) => u === url).length, 1, `${url}: fetched ${fetched.filter((u) => u === url).length} times before the first result`);
  // scripts, wasm and data found only as the modules run are hinted (the page's scripts are in the markup)
  const late = fetched.filter((url) => /\.(m?js|wasm|json|bin)$/.test(new URL(url).pathname) && !hinted.includes(url) && !scripts.includes(url));
  assert.deepEqual(late, [], 'fetched before the first result without a preload hint in index.html');
});

test('headline numbers: cat 1.00 on itself unscaled, 0.36 scaled; the probe "animal" looks most at "cat" (≈ 0.18)', async () => {
  await openLab(page, browser.url);
  const scaled = await readMeters(page);
  assert.equal(scaled.length, 10);
  assert.ok(Math.abs(meter(scaled, 'cat (key 2)').value - 0.36) < HEADLINE_TOLERANCE, JSON.stringify(scaled));
  assert.equal(meter(scaled, 'cat (key 2)').text, '0.363');
  const lab = page.locator('attention-lab');
  assert.match(await lab.locator('#bars-title').textContent(), /Where “cat” looks/);

  await lab.locator('details.probe > summary').click(); // the probe is an aside: opened to read
  const probe = await readMeters(page, '#probe-bars');
  const largest = probe.reduce((best, m) => (m.value > best.value ? m : best));
  assert.equal(largest.name, 'cat (key 2)');
  assert.ok(Math.abs(largest.value - 0.18) < 0.01, `animal → cat ${largest.value}`);
  assert.match(await lab.locator('#probe-bars').evaluate((el) => el.shadowRoot.textContent), /0\.175/);

  await page.getByRole('switch', { name: 'Scale by √d_k', exact: true }).uncheck();
  const unscaled = await until(() => readMeters(page), (m) => m[1].value > 0.9, { what: 'the unscaled row' });
  assert.ok(Math.abs(meter(unscaled, 'cat (key 2)').value - 1) < HEADLINE_TOLERANCE);
  assert.equal(meter(unscaled, 'cat (key 2)').text, '1.000');
  await page.getByRole('switch', { name: 'Scale by √d_k', exact: true }).check();
});

test('typing a sentence gives one chip and one meter per token; a row sums to 1', async () => {
  await openLab(page, browser.url);
  const field = page.getByLabel('Tokens', { exact: true });
  await field.fill('');
  await field.pressSequentially('Dogs chase the ball, and cats watch them.', { delay: 5 });
  const tokens = ['dogs', 'chase', 'the', 'ball', ',', 'and', 'cats', 'watch', 'them', '.'];
  const meters = await until(() => readMeters(page), (m) => m.length === tokens.length && m[9].name === '. (key 10)', {
    what: 'ten meters',
  });
  assert.deepEqual(meters.map((m) => m.name), tokens.map((t, j) => `${t} (key ${j + 1})`));
  const chips = page.locator('attention-lab token-chips').getByRole('button', { pressed: false }).or(
    page.locator('attention-lab token-chips').getByRole('button', { pressed: true }),
  );
  assert.equal(await chips.count(), tokens.length);
  for (const m of meters) assert.ok(m.value >= 0 && m.value <= 1);
  assert.ok(Math.abs(sum(meters) - 1) < ROW_SUM_TOLERANCE, `row sums to ${sum(meters)}`);
  assert.equal((await readSummary(page)).sum, '1.000');

  // every row: select it with a chip
  for (let i = 0; i < tokens.length; i += 3) {
    await page.locator('attention-lab token-chips').getByRole('button', { name: tokens[i], exact: true }).first().click();
    const row = await until(() => readMeters(page), () => true);
    assert.ok(Math.abs(sum(row) - 1) < ROW_SUM_TOLERANCE);
  }
  assert.doesNotMatch(await page.locator('attention-lab').evaluate((el) => el.shadowRoot.textContent), /NaN|Infinity/);
});

test('turning scaling off at a large d_k makes the selected row more peaked', async () => {
  await openLab(page, browser.url);
  await page.getByRole('radio', { name: 'Random' }).check();
  const dk = page.getByRole('slider', { name: 'd_k', exact: true });
  await dk.focus();
  await page.keyboard.press('End');
  const lab = page.locator('attention-lab');
  await until(() => lab.evaluate((el) => el.state.d), (d) => d === 1024, { what: 'd_k = 1024' });
  const before = await readSummary(page);
  await page.getByRole('switch', { name: 'Scale by √d_k', exact: true }).uncheck();
  const afterOff = await until(() => readSummary(page), (s) => s.max !== before.max, { what: 'the unscaled row' });
  console.log(`# d_k = 1024, scaled: max ${before.max}, entropy ${before.entropy}; unscaled: max ${afterOff.max}, entropy ${afterOff.entropy}`);
  assert.ok(Number(afterOff.max) > Number(before.max), 'max weight rises');
  assert.ok(parseFloat(afterOff.entropy) < parseFloat(before.entropy), 'entropy falls');
  // the page shows what the engine returned
  const state = await lab.evaluate((el) => ({ max: el.state.result.maxWeight[el.state.selected], scaled: el.state.scaled }));
  assert.equal(state.scaled, false);
  assert.equal(state.max.toFixed(3), afterOff.max);
});

test('a bad paste shows an inline error and keeps the previous result', async () => {
  const lab = await openLab(page, browser.url);
  const before = await readMeters(page);
  await lab.locator('vector-paste summary').click();
  const q = page.getByRole('textbox', { name: /^Q/ });
  await q.fill('1, 2\n3, x');
  await page.getByRole('button', { name: 'Use these vectors' }).click();
  const alert = lab.locator('vector-paste [role="alert"]');
  assert.match(await alert.textContent(), /Q row 2, column 2: “x” is not a number/);
  assert.equal(await q.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await readMeters(page), before);
  assert.equal(await page.getByRole('radio', { name: 'Identity' }).isChecked(), true);

  // a good paste (the example), then a bad one: the pasted result stays
  await page.getByRole('button', { name: 'Example' }).click();
  const pasted = await until(() => readMeters(page), (m) => m.length === 3, { what: 'three pasted keys' });
  assert.deepEqual(pasted.map((m) => m.name), ['cat (key 1)', 'sat (key 2)', 'mat (key 3)']);
  assert.ok(Math.abs(sum(pasted) - 1) < ROW_SUM_TOLERANCE);
  assert.equal(await alert.textContent(), '');
  await page.getByRole('textbox', { name: /^K/ }).fill('1, 0\n0, 1');
  await page.getByRole('button', { name: 'Use these vectors' }).click();
  assert.match(await alert.textContent(), /Q rows have 3 numbers but K rows have 2/);
  assert.deepEqual(await readMeters(page), pasted);
  assert.equal(await page.getByRole('radio', { name: 'Pasted' }).isChecked(), true);
});

test('causal mask: later keys are drawn as masked, never as scores', async () => {
  await openLab(page, browser.url);
  await page.getByRole('checkbox', { name: 'Causal mask' }).check();
  const meters = await until(() => readMeters(page), (m) => m[2].text === 'masked (causal)', { what: 'masked keys' });
  // "cat" is query 2: it sees keys 1 and 2 only
  assert.deepEqual(meters.slice(2).map((m) => m.value), Array(8).fill(0));
  assert.ok(Math.abs(sum(meters) - 1) < ROW_SUM_TOLERANCE);
  // the accessible table (filled once input settles): row "the" sees only key 1
  const firstRow = () =>
    page.locator('attention-lab attention-heatmap table').evaluate((t) => [...(t.tBodies[0].rows[0]?.cells ?? [])].map((c) => c.textContent));
  const row = await until(firstRow, (cells) => cells[2] === 'masked', { what: 'the table to say masked' });
  assert.deepEqual(row.slice(1), ['1.000', ...Array(9).fill('masked')]);
  await page.getByRole('checkbox', { name: 'Causal mask' }).uncheck();
});

test('unknown words are marked "not in vocabulary" and still get a distribution', async () => {
  await openLab(page, browser.url);
  // no known word within 5 tokens of "zorblax": nothing to make its vector from
  await page.getByLabel('Tokens', { exact: true }).fill('zorblax qwfpgj blorfx snarxt wibblx frumx sat');
  const lab = page.locator('attention-lab');
  await until(() => readMeters(page), (m) => m.length === 7, { what: 'seven meters' });
  assert.match(await lab.locator('.note.oov').textContent(), /Not in vocabulary: zorblax/);
  assert.equal(await page.getByRole('button', { name: /^zorblax.*not in vocabulary$/ }).count(), 1);
  const state = await lab.evaluate((el) => el.state.tokens.map((t) => t.known));
  assert.deepEqual(state, [false, true, true, true, true, true, true], 'the others have "sat" within 5 tokens');
});

test('induced words are marked * with their source, apart from GloVe’s and from "not in vocabulary"', async () => {
  await openLab(page, browser.url);
  await page.getByLabel('Tokens', { exact: true }).fill("I don't have a cat since 1990");
  const lab = page.locator('attention-lab');
  await until(() => readMeters(page), (m) => m.length === 8, { what: 'eight meters' });
  const induced = /.*vector induced from the Brown corpus contexts \(à la carte, Khodak et al\. 2018\)$/;
  const chips = await lab.locator('token-chips').evaluate((el) => [...el.shadowRoot.querySelectorAll('.chip')].map((chip) => ({
    text: chip.querySelector('.tok').firstChild.textContent,
    induced: chip.classList.contains('induced'),
    oov: chip.classList.contains('oov'),
    mark: chip.querySelector('.mark')?.textContent ?? null,
    title: chip.querySelector('.mark')?.title ?? null,
  })));
  assert.deepEqual(chips.map((c) => c.text), ['i', 'do', "n't", 'have', 'a', 'cat', 'since', '1990']);
  for (const c of chips) {
    const isInduced = ['i', "n't", 'a', '1990'].includes(c.text);
    assert.equal(c.induced, isInduced, c.text);
    assert.equal(c.oov, false, c.text);
    assert.equal(c.mark, isInduced ? '*' : null, c.text);
    if (isInduced) assert.match(c.title, /^vector induced from the Brown corpus contexts/);
  }
  // a screen reader hears it in the chip's name; the note under the chips says it in words
  for (const word of ['i', "n't", 'a', '1990']) assert.equal(await page.getByRole('button', { name: new RegExp(`^${word}${induced.source}`) }).count(), 1, word);
  assert.equal(await page.getByRole('button', { name: 'cat', exact: true }).count(), 1);
  assert.match(await lab.locator('.note.induced').textContent(), /^\* Not in the GloVe package used here, so induced: i, n't, a, and 1990\./);
  assert.deepEqual(await lab.evaluate((el) => el.state.tokens.map((t) => t.known)), Array(8).fill(true));
  // with an unknown word the note says that instead; the chips keep both marks apart
  // ("zorblax" is 6 tokens from "a", beyond the 5 a word's vector can be made from)
  await page.getByLabel('Tokens', { exact: true }).fill('a qwfpgj blorfx snarxt wibblx frumx zorblax');
  await until(() => readMeters(page), (m) => m.length === 7, { what: 'seven meters' });
  assert.match(await lab.locator('.note.oov').textContent(), /Not in vocabulary: zorblax/);
  assert.equal(await page.getByRole('button', { name: /^zorblax.*, not in vocabulary$/ }).count(), 1);
  assert.equal(await page.getByRole('button', { name: new RegExp(`^a${induced.source}`) }).count(), 1);
});

test('chips can be removed, added and edited from the keyboard', async () => {
  await openLab(page, browser.url);
  const chips = page.locator('attention-lab token-chips');
  await chips.getByRole('button', { name: 'sat', exact: true }).focus();
  await page.keyboard.press('Delete');
  const lab = page.locator('attention-lab');
  await until(() => lab.evaluate((el) => el.state.tokens.length), (n) => n === 9, { what: 'nine tokens' });
  assert.equal(await page.getByLabel('Tokens', { exact: true }).inputValue(), 'the cat on the mat because it was tired');
  await page.keyboard.press('Enter'); // edits the focused chip ("on")
  await page.keyboard.type('under');
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: 'Add a token' }).fill('again');
  await page.keyboard.press('Enter');
  const tokens = await until(() => lab.evaluate((el) => el.state.tokens.map((t) => t.text)), (t) => t.length === 10, {
    what: 'ten tokens',
  });
  assert.deepEqual(tokens, ['the', 'cat', 'under', 'the', 'mat', 'because', 'it', 'was', 'tired', 'again']);
});

test('keyboard: every control is reachable with Tab, in reading order', async () => {
  await openLab(page, browser.url);
  await page.getByRole('radio', { name: 'Random' }).check(); // enables d_k and the seed
  await page.locator('body').focus();
  await page.evaluate(() => document.activeElement.blur());
  const names = [];
  // enough presses to go round the page once from wherever focus starts: every stop below the lab
  // (share, the lesson's and the training experiment's) and the lab's again
  for (let k = 0; k < 100; k++) {
    await page.keyboard.press('Tab');
    names.push(
      await page.evaluate(() => {
        let el = document.activeElement;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        if (!el || el === document.body) return 'body';
        const label = el.getAttribute('aria-label') ?? (el.labels?.[0]?.textContent ?? el.textContent).trim().replace(/\s+/g, ' ');
        return `${el.getAttribute('role') ?? el.type ?? el.tagName.toLowerCase()}:${label}`;
      }),
    );
  }
  const expected = ['text:Tokens', 'button:cat', 'text:Add a token', 'radio:Random', 'd_k', 'Scale by √d_k', 'range:Temperature',
    'checkbox:Causal mask', 'checkbox:Positional encoding', 'number:Seed', 'group:Attention weights heatmap', 'Go deeper: a probe word', 'Bring your own vectors'];
  let at = 0;
  for (const name of names) if (at < expected.length && name.includes(expected[at])) at++;
  assert.equal(at, expected.length, `Tab order: ${names.join(' → ')}`);
  // the focused heatmap answers arrow keys and selects rows
  await page.locator('attention-lab attention-heatmap .stage').focus();
  await page.keyboard.press('ArrowDown');
  const lab = page.locator('attention-lab');
  assert.equal(await lab.evaluate((el) => el.state.selected), 2);
  assert.match(await lab.locator('attention-heatmap [aria-live]').textContent(), /sat \(query 3\) to the \(key 1\): weight 0\.\d{3}/);
});

test('the element API: state, change, set(); the old aliases are gone', async () => {
  const lab = await openLab(page, browser.url);
  const { change, aliases } = await lab.evaluate(
    (el) =>
      new Promise((resolve) => {
        const read = (s) => ({
          tokens: s.tokens.length, n: s.n, d: s.d, qLength: s.q.length, kLength: s.k.length, scaled: s.scaled,
          selected: s.selected, weights: s.result.weights.length, probe: s.probe?.text, dk: el.settings.dk,
        });
        let statechange = false;
        el.addEventListener('statechange', () => (statechange = true));
        el.addEventListener('change', (event) => {
          // every listener of this change has run once the task ends
          const change = { ...read(event.target.state), same: event.target === el && event.target.state === el.state };
          setTimeout(() => resolve({ change, aliases: { statechange, dk: 'dk' in el.state, rowSums: 'rowSums' in el.state } }));
        }, { once: true });
        el.set({ projection: 'random', dk: 16 });
      }),
  );
  const expected = { tokens: 10, n: 10, d: 16, qLength: 160, kLength: 160, scaled: true, selected: 1, weights: 100, probe: 'animal', dk: 16, same: true };
  assert.deepEqual(change, expected);
  assert.deepEqual(aliases, { statechange: false, dk: false, rowSums: false });
  const { rejected } = await lab.evaluate((el) => el.set({ dk: 5000 }));
  assert.match(rejected.dk, /from 1 to 1024/);
});

test('attributes: an invalid value warns (naming the attribute, the value and what was expected) and the default is used', async () => {
  const warnings = [];
  const onConsole = (message) => message.type() === 'warning' && warnings.push(message.text());
  page.on('console', onConsole);
  await openLab(page, browser.url);
  const lab = page.locator('attention-lab');
  const apply = (attributes) =>
    lab.evaluate(async (el, list) => {
      const changed = new Promise((resolve) => el.addEventListener('change', resolve, { once: true }));
      for (const [name, value] of list) el.setAttribute(name, value);
      await changed;
      return { d: el.state.d, dk: el.settings.dk, scaled: el.state.scaled, causal: el.state.causal, temperature: el.state.temperature };
    }, attributes);
  assert.deepEqual(await apply([['projection', 'random'], ['dk', '300'], ['scaled', 'false'], ['causal', '']]),
    { d: 300, dk: 300, scaled: false, causal: true, temperature: 1 });
  assert.deepEqual(warnings, []);
  // dk="0" after dk="300" used to keep 300; scaled="maybe" used to be on without a word
  assert.deepEqual(await apply([['dk', '0'], ['scaled', 'maybe'], ['temperature', 'hot'], ['theme', 'blue']]),
    { d: 64, dk: 64, scaled: true, causal: true, temperature: 1 });
  page.off('console', onConsole);
  assert.deepEqual(warnings, [
    '<attention-lab> dk="0" is not valid: it must be a whole number from 1 to 1024. Using the default, 64.',
    '<attention-lab> scaled="maybe" is not valid: it must be true or false (also on/off, yes/no, 1/0; a bare attribute is true). Using the default, true.',
    '<attention-lab> temperature="hot" is not valid: it must be a number from 0.01 to 100. Using the default, 1.',
    '<attention-lab> theme="blue" is not valid: it must be one of auto, light, dark. Using the default, "auto".',
  ]);
  // the page looks as it should: the controls show the defaults that were used
  assert.equal(await page.getByRole('switch', { name: 'Scale by √d_k', exact: true }).isChecked(), true);
  assert.equal(await lab.locator('attention-controls #dk-out').textContent(), '64');
  // a removed attribute is the default too
  await lab.evaluate((el) => {
    for (const name of ['projection', 'dk', 'scaled', 'causal', 'temperature', 'theme']) el.removeAttribute(name);
  });
  await until(() => lab.evaluate((el) => [el.state.projection, el.state.causal]), (v) => v[0] === 'identity' && v[1] === false, { what: 'the defaults' });
});

test('one very long word and 10,000 tokens: the page answers at once, cut labels say so, nothing grows wider than the screen', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const lab = await openLab(page, browser.url);
  const LONG = 100_000;
  // the words' buckets first: what is timed below is the page's work, not the network
  await lab.evaluate((el) => el.vocab.load(Array.from({ length: 97 }, (_, i) => `w${i}`)));
  // input event → views (the 'change' event) → style and layout of the page, measured in the page
  const ms = await lab.evaluate(async (el, long) => {
    const field = el.shadowRoot.getElementById('sentence');
    const update = async (text) => {
      const start = performance.now();
      const changed = new Promise((resolve) => el.addEventListener('change', resolve, { once: true }));
      field.value = text;
      field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      await changed;
      document.documentElement.getBoundingClientRect();
      const took = performance.now() - start;
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      return took;
    };
    return {
      word: await update(`the cat ${'a'.repeat(long)} sat`),
      tokens: await update(Array.from({ length: 10_000 }, (_, i) => `w${i % 97}`).join(' ')),
      wordAgain: await update(`the ${'b'.repeat(long)}`),
    };
  }, LONG);
  console.log(`# input → views → layout: a ${LONG.toLocaleString('en')}-character word ${ms.word.toFixed(1)} ms, 10,000 tokens ${ms.tokens.toFixed(1)} ms (128 shown), the word again ${ms.wordAgain.toFixed(1)} ms`);
  // Before, a 5,000-character word took ~2 s and a 100,000-character one never answered (labels
  // were cut one character and one measurement at a time). Now a long word costs what a short one
  // does, and 10,000 tokens what the 128 shown do (~30–60 ms here, most of it laying out 128
  // chips, bars and heatmap labels). The bound only tells an answer from a hang, on any machine;
  // the numbers above are the measurement.
  for (const [what, took] of Object.entries(ms)) assert.ok(took < 5000, `${what}: ${took} ms: the page hung`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0, 'the page grew wider than the screen');

  // the word, cut with "…" where it is shown; more of it in tooltips, all of it in the table
  const word = 'b'.repeat(LONG);
  await until(() => readMeters(page), (m) => m.length === 2, { what: 'two meters' });
  const shown = await lab.evaluate((el) => {
    const root = el.shadowRoot;
    const chips = root.querySelector('token-chips').shadowRoot;
    const bars = root.querySelector('#bars').shadowRoot;
    return {
      note: root.querySelector('.note.long').hidden,
      chip: chips.querySelectorAll('.tok')[1].textContent,
      chipTitle: chips.querySelectorAll('.tok')[1].title,
      bar: bars.querySelectorAll('.label')[1].textContent,
      note2: root.querySelector('.note.induced').textContent,
      title: root.querySelector('#bars-title').textContent,
    };
  });
  assert.equal(shown.note, false, 'the page says it cuts long tokens');
  // in no file, but "the" is next to it: the "†" of a vector made from the sentence
  assert.equal(shown.chip, `${'b'.repeat(24)}…†, no vector in the files; made from the words around it in this sentence (à la carte, Khodak et al. 2018)`);
  assert.equal(shown.bar, `${'b'.repeat(24)}…`);
  assert.equal(shown.chipTitle, `${'b'.repeat(200)}… (100,000 characters)`);
  assert.match(shown.note2, new RegExp(`^† Made from this sentence: b{24}…\. `));
  assert.equal((await readMeters(page))[1].name, `${'b'.repeat(200)}… (100,000 characters) (key 2)`);
  const header = await until(() => lab.locator('attention-heatmap table').evaluate((t) => t.tHead.rows[0]?.cells[2]?.textContent ?? ''), (text) => text.length > LONG, { what: 'the table' });
  assert.equal(header, `${word} (key 2)`);
  await lab.locator('attention-heatmap .stage').focus();
  await page.keyboard.press('ArrowRight');
  const tip = lab.locator('attention-heatmap .tip');
  assert.match(await tip.textContent(), /→ b{200}… \(100,000 characters\)weight 0\.\d{3}/);
  assert.ok((await tip.boundingBox()).width < 420, 'the tooltip wraps a long token');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0, 'the tooltip grew the page');
  await lab.evaluate((el) => el.set({ sentence: 'The cat sat on the mat because it was tired', selected: 1 }));
});

test('embedded on another page: attributes set the initial state; assets resolve from the module', async () => {
  // a lesson page two folders deep, served with the same strict CSP
  const lesson = `${browser.url}lessons/week-3/attention.html`;
  await page.route(lesson, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      headers: { 'Content-Security-Policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'" },
      body: `<!doctype html><title>Lesson</title><h1>Week 3</h1>
        <script type="module" src="../../components/attention-lab.js"></script>
        <attention-lab sentence="Dogs chase cats" probe="puppy" dk="256" scaled="false" projection="random"></attention-lab>`,
    }),
  );
  await page.goto(lesson);
  const lab = page.locator('attention-lab');
  await lab.evaluate((el) => el.ready);
  const state = await lab.evaluate((el) => ({
    tokens: el.state.tokens.map((t) => t.text), d: el.state.d, scaled: el.state.scaled, probe: el.state.probe.text,
  }));
  assert.deepEqual(state, { tokens: ['dogs', 'chase', 'cats'], d: 256, scaled: false, probe: 'puppy' });
  assert.equal(await page.getByRole('switch', { name: 'Scale by √d_k', exact: true }).isChecked(), false);
  await page.unroute(lesson);
});

test('interaction stays at interactive speed with 64 tokens', async () => {
  await openLab(page, browser.url);
  await page.getByLabel('Tokens', { exact: true }).fill(SENTENCE_64);
  await page.getByRole('radio', { name: 'Random' }).check();
  await until(() => readMeters(page), (m) => m.length === 64, { what: '64 meters' });
  // 1. the work of one update: input event → store → core → views (change), then style
  // and layout; 2. real key presses, measured by the browser (Event Timing: input → next paint)
  const timings = await page.evaluate(async () => {
    const lab = document.querySelector('attention-lab');
    const slider = lab.shadowRoot.querySelector('attention-controls').shadowRoot.getElementById('dk');
    const out = [];
    for (const step of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5, 10]) {
      const start = performance.now();
      const drawn = new Promise((resolve) => lab.addEventListener('change', () => resolve(performance.now()), { once: true }));
      slider.value = String(step);
      slider.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      const rendered = await drawn;
      lab.getBoundingClientRect(); // style and layout of the update
      out.push({ render: rendered - start, layout: performance.now() - rendered });
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 20)));
    }
    return out;
  });
  await page.evaluate(() => {
    window.__events = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'keydown') window.__events.push(e.duration);
    }).observe({ type: 'event', durationThreshold: 16 });
  });
  const dk = page.getByRole('slider', { name: 'd_k', exact: true });
  await dk.focus();
  for (const key of ['Home', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'End', 'ArrowLeft', 'ArrowLeft', 'End']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(60);
  }
  const slowKeys = await page.evaluate(() => window.__events);
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const render = timings.map((t) => t.render);
  const total = timings.map((t) => t.render + t.layout);
  console.log(
    `# 64 tokens, random projection, d_k 2…1024: input → views median ${median(render).toFixed(1)} ms (max ${Math.max(...render).toFixed(1)}), ` +
      `+ style/layout median ${median(total).toFixed(1)} ms (max ${Math.max(...total).toFixed(1)}); ` +
      `key presses over 16 ms to next paint (of 8): ${slowKeys.length ? slowKeys.join(', ') + ' ms' : 'none'}`,
  );
  // The bound only tells an answer from a hang; the speed target is npm run bench:page's.
  assert.ok(median(total) < 2000, `median input → layout ${median(total)} ms: the page hung`);
});

test('64 keys: every meter is current at once, the rows on screen too; the rest once input settles or on the first scroll', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, browser.url);
  const lab = page.locator('attention-lab');
  await lab.evaluate(async (el, sentence) => {
    el.set({ sentence, projection: 'random', dk: 64 });
    await new Promise((resolve) => el.addEventListener('change', resolve, { once: true }));
  }, SENTENCE_64);
  await page.waitForTimeout(300);
  // each row: its meter, what it shows, where it is, and the weight from the engine
  const rows = (el) => {
    const { result, selected, m } = el.state;
    const bars = el.shadowRoot.querySelector('#bars').shadowRoot;
    return [...bars.querySelectorAll('.row')].map((row, j) => ({
      weight: result.weights[selected * m + j],
      now: Number(row.querySelector('[role="meter"]').getAttribute('aria-valuenow')),
      text: row.querySelector('[role="meter"]').getAttribute('aria-valuetext'),
      shown: row.querySelector('.value').textContent,
      scale: row.querySelector('.fill').style.transform,
      onScreen: row.getBoundingClientRect().bottom > 0 && row.getBoundingClientRect().top < innerHeight,
    }));
  };
  // (the style serializes the scale to 6 significant digits)
  const drawn = (r) => r.shown === r.text && Math.abs(Number(/scaleX\((.*)\)/.exec(r.scale)?.[1]) - r.weight) <= 1e-5 * r.weight + 1e-9;
  // one input, read in the task that drew it
  const at = await lab.evaluate(async (el, rowsSource) => {
    const read = new Function(`return (${rowsSource})`)();
    const done = new Promise((resolve) => el.addEventListener('change', () => resolve(read(el)), { once: true }));
    el.set({ dk: 256 });
    return done;
  }, rows.toString());
  assert.equal(at.length, 64);
  // aria-valuenow is the weight as a plain decimal of at most 6 places (never exponent notation)
  for (const r of at) assert.ok(Math.abs(r.now - r.weight) <= 5e-7, JSON.stringify(r));
  for (const r of at) assert.equal(r.text, r.weight.toFixed(3));
  assert.ok(at.some((r) => r.onScreen));
  for (const r of at.filter((r) => r.onScreen)) assert.ok(drawn(r), JSON.stringify(r));
  // once input settles, every row shows its meter
  await until(() => lab.evaluate((el, s) => new Function(`return (${s})`)()(el), rows.toString()), (now) => now.every(drawn), {
    what: 'every row drawn',
  });
  // another input, then a scroll at once: the rows scrolled to are drawn in that frame
  const scrolled = await lab.evaluate(async (el, rowsSource) => {
    const read = new Function(`return (${rowsSource})`)();
    const done = new Promise((resolve) => el.addEventListener('change', resolve, { once: true }));
    el.set({ dk: 1024 });
    await done;
    scrollBy(0, 600);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    return read(el);
  }, rows.toString());
  assert.ok(scrolled.filter((r) => r.onScreen).length > 20);
  for (const r of scrolled.filter((r) => r.onScreen)) assert.ok(drawn(r), JSON.stringify(r));
  await page.evaluate(() => scrollTo(0, 0));
});

