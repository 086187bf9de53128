// Themes on another page, as an author's own site shows the elements: <attention-lab>,
// <lab-share> and <attention-lesson> with theme="light" and theme="dark", on a white and on a
// black page. Every piece of text a reader sees meets WCAG AA against what is behind it
// (4.5:1; 3:1 for large text), and the graphics that carry meaning meet 3:1 — measured on the
// computed colours the browser draws with, through web/views/color.js (contrast). The theme
// attribute wins over the reader's colour scheme; the URL's theme parameter sets it on the pages.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openAsides, until, useBrowser } from './browser.mjs';

// WCAG 2.2 AA: 1.4.3 text, 1.4.11 graphics and the boundaries of controls.
const TEXT = 4.5;
const LARGE_TEXT = 3; // at least 24 px, or 18.66 px bold
const GRAPHICS = 3;

let browser;
let page;
useBrowser({ viewport: { width: 1280, height: 900 } }, (opened) => ({ browser, page } = opened));

// An author's lesson page on the lab's origin, under the strict policy, with a page colour of its own.
async function openAuthorPage(theme, host) {
  const base = `${browser.url}lessons/theme-${theme}-${host.replace('#', '')}/`;
  const policy = { 'Content-Security-Policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'" };
  await page.route(`${base}page.css`, (route) =>
    route.fulfill({ contentType: 'text/css', headers: policy, body: `html { background: ${host}; color: ${host === '#ffffff' ? '#000' : '#fff'}; font-family: serif; }` }));
  await page.route(`${base}index.html`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      headers: policy,
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lesson</title><link rel="stylesheet" href="page.css">
        <script type="module" src="../../components/attention-lab.js"></script>
        <script type="module" src="../../components/lab/lab-share.js"></script>
        <script type="module" src="../../components/lesson/attention-lesson.js"></script></head>
        <body><h1>Week 3</h1>
        <attention-lab id="lab" theme="${theme}" projection="random" dk="64" scaled="false" causal></attention-lab>
        <lab-share for="lab" theme="${theme}"></lab-share>
        <attention-lesson for="lab" theme="${theme}" loading="eager"></attention-lesson></body></html>`,
    }),
  );
  await page.goto(`${base}index.html`);
  await page.locator('attention-lab').evaluate((el) => el.ready);
  await openAsides(page); // every instrument and note is measured, the asides' too
  await page.waitForFunction(() => {
    const lesson = document.querySelector('attention-lesson');
    return customElements.get('lab-share') && lesson.state && !lesson.pending &&
      // each section's instrument has drawn (its prediction and exercises hold no picture; an aside's
      // instrument sits in its <details>, opened above)
      [...lesson.querySelectorAll('section[data-part]')].every((s) => [...s.querySelectorAll('*')].some((el) => el.shadowRoot?.querySelector('svg, table')));
  }, null, { timeout: 30000 });
  await page.waitForTimeout(300);
}

// Every visible text (and SVG text) with its colour, the colour behind it and its size; and the
// graphics that carry meaning with their colours. Colours are computed by the browser; what is
// behind an element is the first opaque background on its way up (through shadow roots).
function measure() {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const up = (el) => el.parentElement ?? (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  const over = (top, under) => top.slice(0, 3).map((c, k) => c * top[3] + under[k] * (1 - top[3])).concat(1);
  const behind = (el) => {
    const layers = [];
    for (let at = el; at; at = up(at)) {
      const bg = parse(getComputedStyle(at).backgroundColor);
      if (bg && bg[3] > 0) {
        layers.push(bg);
        if (bg[3] === 1) break;
      }
    }
    if (layers.length === 0 || layers.at(-1)[3] < 1) layers.push([255, 255, 255, 1]); // the canvas of the page
    return layers.reduceRight((under, top) => over(top, under));
  };
  const faded = (el) => {
    for (let at = el; at; at = up(at)) if (Number(getComputedStyle(at).opacity) < 1) return true;
    return false;
  };
  const rgb = (c) => `rgb(${c.slice(0, 3).map(Math.round).join(' ')})`;
  const texts = [];
  const graphics = [];
  const visit = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === Node.ELEMENT_NODE) {
        if (node.shadowRoot) visit(node.shadowRoot);
        continue;
      }
      const el = node.parentElement;
      if (!el || !node.data.trim() || ['STYLE', 'SCRIPT', 'TITLE', 'OPTION'].includes(el.tagName)) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue; // visually hidden: for screen readers
      if (el.closest('[aria-hidden="true"] .katex-mathml, .katex-mathml')) continue;
      const style = getComputedStyle(el);
      const inSvg = el instanceof SVGElement;
      const color = parse(inSvg ? style.fill : style.color);
      if (!color || color[3] === 0) continue;
      const disabled = el.closest(':disabled') || faded(el); // WCAG exempts inactive controls
      const size = parseFloat(style.fontSize);
      const bold = Number(style.fontWeight) >= 700;
      const back = behind(inSvg ? el.ownerSVGElement ?? el : el);
      texts.push({ text: node.data.trim().slice(0, 30), where: `${el.getRootNode().host?.localName ?? 'page'} ${el.localName}.${[...el.classList].join('.')}`,
        color: rgb(over(color, back)), back: rgb(back), large: size >= 24 || (bold && size >= 18.66), disabled: Boolean(disabled) });
    }
  };
  for (const el of document.querySelectorAll('attention-lab, lab-share, attention-lesson')) visit(el.shadowRoot ?? el);

  // graphics: a bar against its track; a field's or a switch's border against what is behind it;
  // the selected chip against its card
  const lab = document.querySelector('attention-lab').shadowRoot;
  const bars = lab.querySelector('#bars').shadowRoot;
  const controls = lab.querySelector('attention-controls').shadowRoot;
  const chips = lab.querySelector('token-chips').shadowRoot;
  // [what, the element, its colour property, optional]: a missing element fails unless optional
  const measured = [
    ['bar on its track', bars.querySelector('.row:not(.masked) .fill'), 'backgroundColor'],
    ['largest bar on its track', bars.querySelector('.row.max .fill'), 'backgroundColor', true],
    ['the Tokens field’s border', lab.querySelector('#sentence'), 'borderTopColor'],
    ['the switch’s border', controls.querySelector('input[role=switch]'), 'borderTopColor'],
    ['a switch that is off: its border', controls.querySelector('input[role=switch]:not(:checked)'), 'borderTopColor', true],
    ['the seed field’s border', controls.querySelector('#seed'), 'borderTopColor'],
    ['the selected chip', chips.querySelector('.chip.selected'), 'backgroundColor'],
    ['the add-a-token field’s border', chips.querySelector('.add'), 'borderTopColor'],
  ];
  for (const [what, el, property, optional] of measured) {
    if (!el && optional) continue;
    graphics.push({ what, a: rgb(parse(getComputedStyle(el)[property])), b: rgb(behind(el.parentElement)) });
  }
  return { texts, graphics };
}

for (const theme of ['light', 'dark']) {
  for (const host of ['#ffffff', '#000000']) {
    test(`theme="${theme}" on a ${host === '#ffffff' ? 'white' : 'black'} page: every text ≥ 4.5:1 (large ≥ 3:1), graphics ≥ 3:1`, async (t) => {
      // the reader's scheme is the other one: the attribute must win
      await page.emulateMedia({ colorScheme: theme === 'light' ? 'dark' : 'light' });
      await openAuthorPage(theme, host);
      const { texts, graphics } = await page.evaluate(measure);
      const { contrast } = await import('../../web/views/color.js');
      const failing = [];
      let lowest = Infinity;
      for (const x of texts) {
        if (x.disabled) continue;
        const ratio = contrast(x.color, x.back);
        lowest = Math.min(lowest, ratio);
        if (ratio < (x.large ? LARGE_TEXT : TEXT)) failing.push(`${ratio.toFixed(2)}: “${x.text}” (${x.where}) ${x.color} on ${x.back}`);
      }
      const lowestGraphic = Math.min(...graphics.map((g) => contrast(g.a, g.b)));
      for (const g of graphics) {
        const ratio = contrast(g.a, g.b);
        if (ratio < GRAPHICS) failing.push(`${ratio.toFixed(2)}: ${g.what}, ${g.a} on ${g.b}`);
      }
      t.diagnostic(`${texts.length} texts, lowest ${lowest.toFixed(2)}:1; ${graphics.length} graphics, lowest ${lowestGraphic.toFixed(2)}:1`);
      assert.ok(texts.length > 200, `only ${texts.length} texts measured`);
      assert.deepEqual(failing, []);
    });
  }
}

test('the pages take the theme from the link: ?theme=dark on a reader in light, and back', async () => {
  await page.emulateMedia({ colorScheme: 'light' });
  for (const path of ['', 'embed.html']) {
    await page.goto(`${browser.url}${path}?theme=dark`);
    const lab = page.locator('attention-lab');
    await lab.evaluate((el) => el.ready);
    const read = () => page.evaluate(() => ({
      root: document.documentElement.dataset.theme,
      scheme: getComputedStyle(document.body).colorScheme,
      lab: document.querySelector('attention-lab').getAttribute('theme'),
      labBackground: getComputedStyle(document.querySelector('attention-lab')).backgroundColor,
      share: document.querySelector('lab-share').getAttribute('theme'),
    }));
    assert.deepEqual(await read(), { root: 'dark', scheme: 'dark', lab: 'dark', labBackground: 'rgb(18, 21, 26)', share: 'dark' }, path);
    // the link keeps it as the learner works
    await lab.evaluate((el) => el.set({ dk: 16, projection: 'random' }));
    await until(() => page.evaluate(() => location.search), (s) => s.includes('theme=dark') && s.includes('dk=16'), { what: 'the URL' });
  }
});

