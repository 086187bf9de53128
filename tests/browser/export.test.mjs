// Share and export (<lab-share>), as a teacher uses them: Copy link and Copy embed code give a
// link and a snippet that reopen the same state (both are opened here), and each export — the
// heatmap and bars as PNG and SVG, the numbers as CSV and JSON — is a file that parses and
// holds the page's own numbers. Buttons are reached and pressed from the keyboard.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';

import { checkEachTest, launch, startHost, until } from './browser.mjs';

// The numbers in a file are the engine's float32 values as their shortest decimal text: read
// back, they are those values (Math.fround). A figure's labels show 3 decimals.
const SENTENCE = 'Dogs chase the ball, and cats watch them.';
const SETTINGS = { sentence: SENTENCE, projection: 'random', dk: 16, seed: 3, scaled: false, temperature: 0.5, causal: true, selected: 5, probe: 'puppy' };

let browser;
let host;
let page;

before(async () => {
  browser = await launch();
  host = await startHost(browser.url);
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(browser.url).origin });
  page = await browser.newPage();
});

after(async () => {
  await browser?.close();
  await host?.close();
});

checkEachTest(() => browser);

// index.html in a given state, with <lab-share> loaded.
async function openShared(settings = SETTINGS) {
  await page.goto(browser.url);
  const lab = page.locator('attention-lab');
  await lab.evaluate((el, s) => el.ready.then(() => el.set(s)), settings);
  await until(() => lab.evaluate((el) => el.state.settings.dk), (dk) => dk === settings.dk, { what: 'the settings' });
  await page.waitForFunction(() => customElements.get('lab-share'));
  return { lab, share: page.locator('lab-share') };
}

// The state a page shows, in the terms of the settings table.
const readSettings = (lab) =>
  lab.evaluate((el) => {
    const { sentence, probe, projection, dk, seed, scaled, temperature, causal, positional, selected } = el.settings;
    return { sentence, probe, projection, dk, seed, scaled, temperature, causal, positional, selected };
  });

test('Copy link, from the keyboard: a link that reopens the same state; the button says it is done', async () => {
  const { lab, share } = await openShared();
  const expected = await readSettings(lab);
  const button = share.getByRole('button', { name: 'Copy link' });
  await button.focus();
  await page.keyboard.press('Enter');
  await until(() => share.getByRole('status').textContent(), (t) => t === 'Link copied.', { what: 'the confirmation' });
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(link.startsWith(`${browser.url}index.html?`), link);
  assert.equal(await share.evaluate((el) => el.link), link);
  assert.equal(await share.locator('textarea').inputValue(), link, 'what was copied is shown');
  // open it: the same settings
  const other = await browser.newPage();
  await other.goto(link);
  const reopened = other.locator('attention-lab');
  await reopened.evaluate((el) => el.ready);
  assert.deepEqual(await readSettings(reopened), expected);
  assert.equal(await reopened.evaluate((el) => el.state.queryLabels[el.state.selected]), 'and');
  await other.close();
});

test('Copy embed code: an iframe snippet that shows the same state on another site, sized by its script', async () => {
  const { lab, share } = await openShared();
  const expected = await readSettings(lab);
  await share.getByRole('button', { name: 'Copy embed code' }).click();
  await until(() => share.getByRole('status').textContent(), (t) => /^Embed code copied/.test(t), { what: 'the confirmation' });
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  const [iframe, script] = snippet.split('\n');
  assert.match(iframe, /^<iframe src="[^"]+" title="Attention Lab: Dogs chase the ball, and cats watch them\." width="100%" height="\d+" loading="lazy" allow="clipboard-write" frameborder="0"><\/iframe>$/);
  assert.equal(script, `<script src="${browser.url}embed.js" async></script>`);
  const src = iframe.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  assert.ok(src.startsWith(`${browser.url}embed.html?`), src);

  const other = await browser.newPage();
  await other.goto(await host.page('pasted.html', snippet));
  const frame = other.frameLocator('iframe');
  const framed = frame.locator('attention-lab');
  await framed.evaluate((el) => el.ready);
  assert.deepEqual(await readSettings(framed), expected);
  // its script sizes it to the content (loading="lazy": it is on screen)
  const inner = other.frames().find((f) => f.url().startsWith(`${browser.url}embed.html`));
  await until(
    async () => [await other.locator('iframe').evaluate((el) => el.clientHeight), await inner.evaluate(() => document.documentElement.getBoundingClientRect().height)],
    ([a, b]) => Math.abs(a - b) <= 2,
    { timeout: 15000, what: 'the pasted frame sized to its content' },
  );
  await other.close();
});

test('in a frame that may not write to the clipboard, the text is selected for copying by hand', async () => {
  const other = await browser.newPage();
  await other.goto(await host.page('no-clipboard.html', `<iframe src="${browser.url}embed.html" title="Attention Lab" width="100%" height="2000"></iframe>`));
  const frame = other.frameLocator('iframe');
  await frame.locator('attention-lab').evaluate((el) => el.ready);
  const share = frame.locator('lab-share');
  await share.getByRole('button', { name: 'Copy link' }).click();
  const status = await until(() => share.getByRole('status').textContent(), (t) => t !== '', { what: 'a message' });
  const field = share.locator('textarea');
  const selected = await field.evaluate((el) => el.value.slice(el.selectionStart, el.selectionEnd));
  assert.ok(status === 'Link copied.' || /copy it with Ctrl\+C/.test(status), status);
  assert.equal(selected, await field.inputValue(), 'the whole link is selected');
  assert.match(selected, /\/index\.html\?$|\/index\.html$/);
  await other.close();
});

test('exports: each file parses and holds the page’s numbers; the PNGs are twice the SVG’s size', async () => {
  const { lab, share } = await openShared();
  const state = await lab.evaluate((el) => ({
    n: el.state.n,
    m: el.state.m,
    tokens: [...el.state.queryLabels],
    weights: Array.from(el.state.result.weights),
    scores: Array.from(el.state.result.scores, (x) => (x === -Infinity ? null : x)),
    dots: Array.from(el.state.result.dots),
    entropy: Array.from(el.state.result.entropy),
    maxWeight: Array.from(el.state.result.maxWeight),
    probe: Array.from(el.state.probe.result.weights),
    selected: el.state.selected,
  }));
  // the numbers the bars show (drawn once input settles)
  await page.waitForTimeout(300);
  const shown = await lab.evaluate((el) => [...el.shadowRoot.querySelector('#bars').shadowRoot.querySelectorAll('.value')].map((v) => v.textContent));

  // each button, pressed from the keyboard, downloads its file, named for what it holds: the
  // selected query (not for the numbers: every row), d_k 16, unscaled, causal, temperature 0.5
  const word = state.tokens[state.selected];
  assert.match(word, /^[a-z]+$/, 'the selected query of SETTINGS is a plain word');
  const files = {};
  for (const [what, format] of [['heatmap', 'svg'], ['heatmap', 'png'], ['bars', 'svg'], ['bars', 'png'], ['numbers', 'csv'], ['numbers', 'json']]) {
    const label = { heatmap: 'Heatmap', bars: 'Bars', numbers: 'Numbers' }[what];
    const name = `attention-${what === 'numbers' ? '' : `${word}-`}dk16-unscaled-causal-t0_5-${what}.${format}`;
    await share.getByRole('button', { name: `${label}, ${format.toUpperCase()}` }).focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    assert.equal(download.suggestedFilename(), name);
    files[`${what}.${format}`] = await readFile(await download.path());
    await until(() => share.getByRole('status').textContent(), (t) => t === `Saved ${name}.`, { what: 'the confirmation' });
  }

  // SVG: parses as XML in the browser; every cell's weight and every bar's number is the page's
  const parsed = await page.evaluate(([heatmap, bars]) => {
    const read = (text) => new DOMParser().parseFromString(text, 'image/svg+xml');
    const h = read(heatmap);
    const b = read(bars);
    return {
      errors: [h, b].map((doc) => doc.querySelector('parsererror')?.textContent ?? null),
      size: [h, b].map((doc) => [Number(doc.documentElement.getAttribute('width')), Number(doc.documentElement.getAttribute('height'))]),
      cells: [...h.querySelectorAll('rect > title')].map((t) => t.textContent),
      bars: [...b.querySelectorAll('g[data-key] > text:last-of-type')].map((t) => t.textContent),
    };
  }, [files['heatmap.svg'].toString('utf8'), files['bars.svg'].toString('utf8')]);
  assert.deepEqual(parsed.errors, [null, null]);
  assert.equal(parsed.cells.length, state.n * state.m);
  parsed.cells.forEach((title, at) => {
    const w = state.scores[at] === null ? 'masked' : `weight ${state.weights[at].toFixed(3)}`;
    assert.ok(title.endsWith(w), `cell ${at}: ${title}, expected …${w}`);
  });
  assert.deepEqual(parsed.bars, shown, 'the bars figure shows the page’s numbers');

  // PNG: a PNG, twice the SVG's width and height
  const pngSize = (bytes) => {
    assert.equal(bytes.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'the PNG signature');
    return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  };
  assert.deepEqual(pngSize(files['heatmap.png']), parsed.size[0].map((x) => 2 * x));
  assert.deepEqual(pngSize(files['bars.png']), parsed.size[1].map((x) => 2 * x));

  // CSV: a header and one line per query and key, then the probe's row; the numbers are the engine's
  const lines = files['numbers.csv'].toString('utf8').trimEnd().split('\r\n');
  assert.equal(lines[0], 'query,query_token,key,key_token,dot,score,weight,masked,row_entropy,row_max_weight');
  assert.equal(lines.length, 1 + state.n * state.m + state.m);
  const cells = (line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g).slice(0, 10).map((c) => c.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"'));
  lines.slice(1, 1 + state.n * state.m).forEach((line, at) => {
    const c = cells(line);
    const [i, j] = [Math.floor(at / state.m), at % state.m];
    assert.deepEqual([Number(c[0]), c[1], Number(c[2]), c[3]], [i + 1, state.tokens[i], j + 1, state.tokens[j]], line);
    assert.equal(Math.fround(Number(c[4])), state.dots[at], `dot ${line}`);
    assert.equal(c[5] === '-Infinity' ? null : Math.fround(Number(c[5])), state.scores[at], `score ${line}`);
    assert.equal(Math.fround(Number(c[6])), state.weights[at], `weight ${line}`);
    assert.equal(c[7], String(state.scores[at] === null));
    assert.equal(Math.fround(Number(c[8])), state.entropy[i]);
    assert.equal(Math.fround(Number(c[9])), state.maxWeight[i]);
  });
  lines.slice(1 + state.n * state.m).forEach((line, j) => {
    const c = cells(line);
    assert.equal(c[0], 'probe');
    assert.equal(Math.fround(Number(c[6])), state.probe[j], `probe weight ${line}`);
  });

  // JSON: the settings, the tokens, every row and the probe's
  const json = JSON.parse(files['numbers.json'].toString('utf8'));
  assert.deepEqual(json.tokens, state.tokens);
  // the query as the JSON says it: row, counted from 1 (the setting selected counts from 0)
  const { selected, ...rest } = SETTINGS;
  assert.deepEqual({ ...json.settings, sentence: undefined }, { ...rest, row: selected + 1, sentence: undefined, positional: false });
  assert.equal(json.settings.sentence, SENTENCE);
  assert.equal(json.rows.length, state.n);
  json.rows.forEach((row, i) => {
    row.weights.forEach((w, j) => assert.equal(Math.fround(w), state.weights[i * state.m + j]));
    row.scores.forEach((s, j) => assert.equal(s === null ? null : Math.fround(s), state.scores[i * state.m + j]));
    assert.equal(Math.fround(row.entropy), state.entropy[i]);
  });
  assert.deepEqual(json.probe.weights.map(Math.fround), state.probe);
});

test('exports for slides: light or dark whatever the reader’s scheme, on a transparent background if asked; the name says the settings', async () => {
  await page.emulateMedia({ colorScheme: 'light' });
  const { share } = await openShared({ sentence: 'The cat sat on the mat', projection: 'random', dk: 64, seed: 1, scaled: false, temperature: 1, causal: false, selected: 1 });
  // the figure's background (a rect as large as the SVG, first) and its title's colour
  const look = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), share.getByRole('button', { name: 'Bars, SVG' }).click()]);
    const text = (await readFile(await download.path())).toString();
    return page.evaluate(([svg, name]) => {
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
      const first = doc.firstElementChild;
      const whole = first.localName === 'rect' && first.getAttribute('width') === doc.getAttribute('width') && first.getAttribute('height') === doc.getAttribute('height');
      return { name, background: whole ? first.getAttribute('fill') : null, title: doc.querySelector('text').getAttribute('fill') };
    }, [text, download.suggestedFilename()]);
  };
  const colours = share.getByRole('combobox', { name: 'Colours of PNG and SVG' });
  const transparent = share.getByRole('checkbox', { name: 'transparent background (for slides)' });
  // web/views/theme.js's PALETTE: bg and text, light then dark
  // as on screen: the colours the page computed
  assert.deepEqual(await look(), { name: 'attention-cat-dk64-unscaled-bars.svg', background: 'rgb(255, 255, 255)', title: 'rgb(27, 31, 36)' }, 'as on screen (light)');
  await colours.selectOption('dark');
  assert.deepEqual(await look(), { name: 'attention-cat-dk64-unscaled-bars.svg', background: '#12151a', title: '#e7eaee' }, 'dark on a light page');
  await transparent.check();
  assert.deepEqual(await look(), { name: 'attention-cat-dk64-unscaled-bars.svg', background: null, title: '#e7eaee' }, 'dark, transparent');
  await colours.selectOption('light');
  assert.deepEqual(await look(), { name: 'attention-cat-dk64-unscaled-bars.svg', background: null, title: '#1b1f24' }, 'light, transparent');
  // on a dark screen, "light" is still light
  await page.emulateMedia({ colorScheme: 'dark' });
  await transparent.uncheck();
  assert.deepEqual(await look(), { name: 'attention-cat-dk64-unscaled-bars.svg', background: '#ffffff', title: '#1b1f24' }, 'light on a dark screen');
  const wrong = await share.evaluate((el) => el.export('bars', 'svg', { colours: 'sepia' }).then(() => null, (e) => e.message));
  assert.match(wrong, /colours must be one of shown, light, dark, got "sepia"/);
  await page.emulateMedia({ colorScheme: 'light' });
});

test('the PNG is the SVG’s picture: the browser’s drawing of the SVG and the PNG agree pixel for pixel but for anti-aliasing', async (t) => {
  const { share } = await openShared();
  const files = {};
  for (const what of ['heatmap', 'bars']) {
    for (const format of ['svg', 'png']) {
      files[`${what}.${format}`] = await share.evaluate(async (el, [w, f]) => {
        const bytes = new Uint8Array(await (await el.export(w, f)).blob.arrayBuffer());
        return Array.from(bytes);
      }, [what, format]);
    }
  }
  // a page of no site (about:blank, no policy) may draw an SVG as an image: the browser's own rendering
  const blank = await browser.newPage();
  for (const what of ['heatmap', 'bars']) {
    const diff = await blank.evaluate(async ([svg, png]) => {
      const image = new Image();
      image.src = URL.createObjectURL(new Blob([new Uint8Array(svg)], { type: 'image/svg+xml' }));
      await image.decode();
      const painted = await createImageBitmap(new Blob([new Uint8Array(png)], { type: 'image/png' }));
      const [w, h] = [painted.width, painted.height];
      const pixels = (draw) => {
        const canvas = new OffscreenCanvas(w, h);
        const ctx = canvas.getContext('2d');
        draw(ctx);
        return ctx.getImageData(0, 0, w, h).data;
      };
      const a = pixels((ctx) => ctx.drawImage(image, 0, 0, w, h));
      const b = pixels((ctx) => ctx.drawImage(painted, 0, 0));
      let total = 0;
      let far = 0;
      for (let k = 0; k < a.length; k += 4) {
        const d = Math.max(Math.abs(a[k] - b[k]), Math.abs(a[k + 1] - b[k + 1]), Math.abs(a[k + 2] - b[k + 2]));
        total += d;
        if (d > 64) far++;
      }
      return { mean: total / (w * h), far: far / (w * h) };
    }, [files[`${what}.svg`], files[`${what}.png`]]);
    t.diagnostic(`${what}: mean difference ${diff.mean.toFixed(2)} of 255; ${(100 * diff.far).toFixed(2)} % of pixels differ by more than 64`);
    // The same shapes, colours and glyphs at the same places: measured 0.03–0.04 of 255 on average
    // and no pixel far apart (anti-aliased edges differ a little). A text one pixel off gives ~2.5
    // and ~1.3 %; hatching at another angle ~1.5; a missing label more.
    assert.ok(diff.mean < 0.5 && diff.far < 0.001, `${what}: mean difference ${diff.mean.toFixed(2)} of 255, ${(100 * diff.far).toFixed(2)} % of pixels far apart`);
  }
  await blank.close();
});

test('a bad export request names what was wrong; before a result there is nothing to export', async () => {
  const { share } = await openShared();
  const error = await share.evaluate((el) => el.export('heatmap', 'gif').then(() => null, (e) => e.message));
  assert.equal(error, 'format of heatmap must be one of png, svg, got "gif"');
  const what = await share.evaluate((el) => el.export('table', 'csv').then(() => null, (e) => e.message));
  assert.match(what, /what must be one of heatmap, bars, numbers, got "table"/);
  const early = await page.evaluate(() => document.createElement('lab-share').export('heatmap', 'svg').then(() => null, (e) => e.message));
  assert.match(early, /state must be a lab state, got null/);
});

