// The page as a learner on a phone and a laptop meets it: the first picture of the lab on the
// first screen at 390 × 844, and the guide's "Do it" bringing the changed picture into view
// (the heatmap sits far above the guide).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { drawWholeLesson, openLab, until, useBrowser } from './browser.mjs';

let browser;
let page;
useBrowser({ viewport: { width: 1440, height: 900 } }, (opened) => ({ browser, page } = opened));

// The box of the lab's card `name` (heat, bars, controls, tokens) in the window's coordinates.
const card = (name) =>
  page.locator('attention-lab').evaluate((lab, n) => {
    const r = lab.shadowRoot.querySelector(`.card.${n}`).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: r.height, viewport: innerHeight };
  }, name);

for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`at ${viewport.width} px every "Do it" brings the lab's heatmap into view`, async () => {
    await page.setViewportSize(viewport);
    await openLab(page, browser.url);
    const buttons = page.locator('.guide button[data-set]');
    const count = await buttons.count();
    assert.ok(count >= 3, `${count} buttons`);
    for (let i = 0; i < count; i++) {
      await page.mouse.wheel(0, 40); // the reader scrolls on (the page stops keeping the heatmap in view)
      await buttons.nth(i).scrollIntoViewIfNeeded();
      assert.ok((await card('heat')).bottom < 0, `button ${i + 1}: the heatmap is above the window before the click`);
      await buttons.nth(i).click();
      const heat = await until(() => card('heat'), (r) => r.top >= -1 && r.top < r.viewport / 2, { what: `the heatmap in view after button ${i + 1}` });
      assert.ok(heat.top < heat.viewport / 2, `button ${i + 1}: heatmap top at ${heat.top}`);
    }
  });
}

test('at 390 × 844 the lab’s first picture, the heatmap, is on the first screen; the settings fold below the bars', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLab(page, browser.url);
  const heatmap = await page.locator('attention-lab').evaluate((lab) => {
    const r = lab.shadowRoot.querySelector('attention-heatmap').getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: r.height };
  });
  assert.ok(heatmap.height > 200, `the heatmap is drawn (${heatmap.height} px)`);
  assert.ok(heatmap.top >= 0 && heatmap.bottom <= 844, `the whole heatmap on the first screen: ${heatmap.top}–${heatmap.bottom} px`);
  const [bars, controls] = [await card('bars'), await card('controls')];
  assert.ok(controls.top > bars.bottom, `settings (${controls.top}) below the bars (${bars.bottom})`);
  // a wide screen keeps the settings beside the heatmap
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(200);
  const [heat, side] = [await card('heat'), await card('controls')];
  assert.ok(Math.abs(heat.top - side.top) < 2, `at 1440 px settings and heatmap side by side (${side.top}, ${heat.top})`);
});

test('at 390 px a heatmap and an instrument’s table wider than the screen say that they scroll', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLab(page, browser.url);
  const words = 'the quick brown fox jumps over the lazy dog while a cat sleeps on the warm mat near the door'.split(' ');
  await page.locator('attention-lab').evaluate((lab, sentence) => lab.set({ sentence }), [...words, ...words].join(' '));
  const hint = () =>
    page.locator('attention-lab').evaluate((lab) => {
      const box = lab.shadowRoot.querySelector('attention-heatmap').shadowRoot.querySelector('.scroll');
      return { scrolls: box.hasAttribute('data-scrolls'), wider: box.scrollWidth > box.clientWidth, text: getComputedStyle(box, '::before').content };
    });
  const wide = await until(hint, (h) => h.wider && h.scrolls, { what: 'the 40-token heatmap marked as scrolling' });
  assert.match(wide.text, /scroll sideways/);
  // the default sentence fits: no hint
  await page.locator('attention-lab').evaluate((lab) => lab.set({ sentence: 'the cat sat' }));
  await until(hint, (h) => !h.wider && !h.scrolls, { what: 'a narrow heatmap without the hint' });
  // the lesson's step-by-step table of 40 keys scrolls, and says so
  await page.locator('attention-lab').evaluate((lab, sentence) => lab.set({ sentence }), [...words, ...words].join(' '));
  await drawWholeLesson(page, { timeout: 60000 }); // the lesson loads after the lab's first result and draws lazily
  await page.locator('step-by-step').scrollIntoViewIfNeeded();
  const table = await until(
    () => page.locator('step-by-step').evaluate((el) => [...(el.shadowRoot?.querySelectorAll('.scroll') ?? [])].map((b) => ({ wider: b.scrollWidth > b.clientWidth + 1, scrolls: b.hasAttribute('data-scrolls') }))),
    (boxes) => boxes.some((b) => b.wider) && boxes.every((b) => b.wider === b.scrolls),
    { what: 'step by step’s wide boxes marked', timeout: 20000 },
  );
  assert.ok(table.some((b) => b.scrolls));
});

test('beside “where it looks” the lab says it trains nothing, on index and embed, and lesson.html that its instruments are untrained; the Identity note only on Identity', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const file of ['', 'embed.html']) {
    await openLab(page, `${browser.url}${file}`);
    const read = () =>
      page.locator('attention-lab').evaluate((el) => {
        const caveat = el.shadowRoot.querySelector('.bars .caveat');
        const identity = el.shadowRoot.querySelector('.heat .identity');
        return { caveat: caveat?.checkVisibility() ? caveat.textContent : '', identity: identity?.checkVisibility() ? identity.textContent : '' };
      });
    const first = await read();
    assert.match(first.caveat, /The lab trains nothing/, `${file || 'index.html'}: the caveat under the bars`);
    assert.match(first.identity, /q = k = x[\s\S]*by construction/, `${file || 'index.html'}: Identity says its diagonal is by construction`);
    await page.locator('attention-lab').evaluate((el) => el.set({ projection: 'random' }));
    await until(read, (r) => r.identity === '' && /trains nothing/.test(r.caveat), { what: `${file || 'index.html'}: no Identity note on Random` });
  }
  await page.goto(`${browser.url}lesson.html`);
  assert.match(await page.locator('header .caveat').textContent(), /untrained[\s\S]*the model at the end of the page are trained/, 'lesson.html: the caveat under the lede');
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

test('the guide names the story’s steps by their questions, and the links made before (#claim-1 … #claim-4) still open them', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const lang of ['en', 'nb']) {
    await openLab(page, `${browser.url}?lang=${lang}`);
    await drawWholeLesson(page);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll('.guide a[href^="#"]')].map((a) => {
        const target = document.querySelector(a.getAttribute('href'));
        return { href: a.getAttribute('href'), text: a.textContent, heading: target?.querySelector('h3')?.textContent ?? null };
      }));
    assert.deepEqual(links.map((l) => l.href), ['#claim-1', '#claim-2', '#claim-3', '#claim-4', '#overflow'], lang);
    for (const link of links) assert.equal(link.text, link.heading, `${lang}: ${link.href} reads as its step’s question`);
    const guide = await page.locator('.guide').textContent();
    assert.doesNotMatch(guide, /\b(Claim|Påstand) \d/, `${lang}: no numbered claims`);
    assert.doesNotMatch(await page.locator('#why > p').first().textContent(), /Four claims|Fire påstander/);
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
