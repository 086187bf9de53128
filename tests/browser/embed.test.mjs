// embed.html in an iframe on another site, as a lesson platform shows it: the host page (a
// made-up platform, startHost, with a strict policy of its own) receives the lab's resize messages and no
// other, web/embed.js sizes the frame to the lab's content, and no request leaves the lab's and
// the host's origins. Pictures of a host page: npm run screenshots.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { checkEachTest, firstViewRequests, launch, startHost, until } from './browser.mjs';

// A frame's height is a whole number of CSS px, the content's rounded up: within 2 px of it.
const HEIGHT_TOLERANCE = 2;
const SENTENCE = 'She bought fresh bread and milk at the corner shop';
const LONG = 'the quick brown fox jumps over the lazy dog while a cat sleeps on the warm mat near the door and then it runs away';

let browser;
let host;
let page;
const requests = [];

before(async () => {
  browser = await launch({ viewport: { width: 1000, height: 800 } });
  host = await startHost(browser.url);
  browser.context.on('request', (request) =>
    requests.push({ url: request.url(), frame: request.frame()?.url() ?? '', navigation: request.isNavigationRequest() }));
  page = await browser.newPage();
});

after(async () => {
  await browser?.close();
  await host?.close();
});

checkEachTest(() => browser);

const embedUrl = (query) => `${browser.url}embed.html${query}`;

// A host page with the lab's iframe (150 px high, the default) and, unless `script` is false, embed.js.
async function openHost(query, { script = true, path = 'week-3.html' } = {}) {
  const url = await host.page(path,
    `<iframe id="lab" src="${embedUrl(query).replace(/&/g, '&amp;')}" title="Attention Lab" width="100%"></iframe>` +
      (script ? `<script src="${browser.url}embed.js" async></script>` : ''));
  await page.goto(url);
  const frame = page.frameLocator('#lab');
  await frame.locator('attention-lab').evaluate((lab) => lab.ready);
  return { frame, inner: page.frames().find((f) => f.url().startsWith(browser.url)) };
}

// { frame: the iframe's content-box height on the host, content: the embed page's own height }
async function heights(inner) {
  return {
    frame: await page.locator('#lab').evaluate((el) => el.clientHeight),
    content: await inner.evaluate(() => document.documentElement.getBoundingClientRect().height),
  };
}

const fits = ({ frame, content }) => Math.abs(frame - content) <= HEIGHT_TOLERANCE;


test('in an iframe on another site: the host receives resize messages, and the frame ends at the content’s height within 2 px', async () => {
  const { inner } = await openHost(`?sentence=${encodeURIComponent(SENTENCE)}&dk=8&projection=random`);
  const sized = await until(() => heights(inner), fits, { timeout: 15000, what: 'the frame at the content’s height' });
  assert.ok(sized.content > 1000, `the lab is ${sized.content} px high: more than the heading of the issue`);
  // the settings of the link are the lab's
  assert.deepEqual(await inner.locator('attention-lab').evaluate((el) => el.state.tokens.map((t) => t.text)), SENTENCE.toLowerCase().split(' '));
  assert.equal(await inner.locator('attention-lab').evaluate((el) => el.state.d), 8);
  // nothing to scroll inside the frame
  assert.ok(await inner.evaluate(() => document.documentElement.scrollHeight <= innerHeight + 2), 'the frame scrolls');

  const messages = await page.evaluate(() => window.__messages);
  assert.ok(messages.length >= 2, 'messages were posted');
  for (const { origin, data } of messages) {
    assert.equal(origin, new URL(browser.url).origin);
    const keys = Object.keys(data).sort().join(',');
    assert.ok(
      (keys === 'height,type' && data.type === 'attention-lab:resize') || (keys === 'height,subject' && data.subject === 'lti.frameResize'),
      `an unexpected message: ${JSON.stringify(data)}`,
    );
    assert.ok(Number.isInteger(data.height) && data.height > 0, JSON.stringify(data));
  }
  const own = messages.filter((m) => m.data.type).map((m) => m.data.height);
  const canvas = messages.filter((m) => m.data.subject).map((m) => m.data.height);
  assert.deepEqual(canvas, own, 'each height is posted in both forms');
  // the last height posted is the content's: read together, since the lab may still grow (a later
  // draw) after the frame first fitted, and then posts again
  const lastPosted = () => page.evaluate(() => window.__messages.filter((m) => m.data.type).at(-1).data.height);
  await until(async () => ({ last: await lastPosted(), content: (await heights(inner)).content }), ({ last, content }) => Math.abs(last - content) <= HEIGHT_TOLERANCE, {
    timeout: 15000,
    what: 'the last height posted at the content’s height',
  });
  // no height twice in a row: only changes are posted
  own.forEach((h, i) => i > 0 && assert.notEqual(h, own[i - 1], `height ${h} posted twice in a row`));

});

test('the frame follows its content: more tokens make it taller, fewer shorter', async () => {
  const { inner } = await openHost('?sentence=the+cat+sat');
  const small = await until(() => heights(inner), fits, { timeout: 15000, what: 'the first height' });
  await inner.locator('attention-lab').evaluate((el, sentence) => el.set({ sentence }), LONG);
  const large = await until(() => heights(inner), (h) => fits(h) && h.content > small.content + 200, { timeout: 15000, what: 'a taller frame' });
  await inner.locator('attention-lab').evaluate((el) => el.set({ sentence: 'the cat sat' }));
  const again = await until(() => heights(inner), (h) => fits(h) && h.content < large.content - 200, { timeout: 15000, what: 'a shorter frame' });
  assert.ok(Math.abs(again.content - small.content) <= HEIGHT_TOLERANCE, `${again.content} px again, ${small.content} px before`);
});

test('view=variance: one instrument of the lesson in the frame, sized the same way', async () => {
  const { inner } = await openHost('?view=variance&projection=random&dk=256');
  await until(() => inner.evaluate(() => Boolean(document.querySelector('variance-lab')?.shadowRoot?.querySelector('svg'))), Boolean,
    { timeout: 20000, what: 'the variance instrument' });
  const shown = await inner.evaluate(() => ({
    lab: document.querySelector('attention-lab').checkVisibility(),
    parts: [...document.querySelectorAll('attention-lesson section[data-part]')].filter((s) => s.checkVisibility()).map((s) => s.dataset.part),
  }));
  assert.deepEqual(shown, { lab: false, parts: ['variance'] });
  await until(() => heights(inner), fits, { timeout: 15000, what: 'the frame at the instrument’s height' });
});

test('without embed.js the frame keeps the host’s height (and scrolls); the messages still come', async () => {
  const { inner } = await openHost('', { script: false, path: 'no-script.html' });
  await until(() => page.evaluate(() => window.__messages.length), (n) => n >= 2, { what: 'messages' });
  const { frame, content } = await heights(inner);
  assert.equal(frame, 150, 'the default iframe height');
  assert.ok(content > 1000);
});

test('embed.js resizes only the frame that sent the message, and only for the lab’s origin and a sane height', async () => {
  const { inner } = await openHost('', { path: 'two-frames.html' });
  await until(() => heights(inner), fits, { timeout: 15000, what: 'the lab’s frame sized' });
  const before = await page.locator('#lab').evaluate((el) => el.clientHeight);
  // a message from the host page itself (not the lab's origin), and lab messages with bad heights
  await inner.evaluate(() => {
    for (const height of [-5, 1e9, Number.NaN, '900']) window.parent.postMessage({ type: 'attention-lab:resize', height }, '*');
  });
  await page.evaluate(() => window.postMessage({ type: 'attention-lab:resize', height: 20 }, '*'));
  await page.waitForTimeout(200);
  assert.equal(await page.locator('#lab').evaluate((el) => el.clientHeight), before);
});

test('outside a frame embed.html posts nothing; it fetches what its first view needs, each file once, all hinted', async () => {
  await page.addInitScript(() => {
    window.__posted = [];
    const post = window.postMessage.bind(window);
    window.postMessage = (...args) => {
      window.__posted.push(args[0]);
      return post(...args);
    };
  });
  // over a slow link (as scripts/bench/vocab-load.mjs measures it), where the order of requests shows
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 187_500, uploadThroughput: 187_500 });
  await page.goto(embedUrl(`?sentence=${encodeURIComponent(SENTENCE)}`));
  await page.locator('attention-lab').evaluate((lab) => lab.ready);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await cdp.detach();
  await page.waitForTimeout(300);
  assert.deepEqual(await page.evaluate(() => window.__posted), []);
  const { hinted, scripts, fetched } = await firstViewRequests(page);
  for (const url of hinted) assert.ok(fetched.filter((u) => u === url).length <= 1, `${url} fetched twice`);
  const late = fetched.filter((url) => /\.(m?js|wasm)$/.test(new URL(url).pathname) && !hinted.includes(url) && !scripts.includes(url));
  assert.deepEqual(late, [], 'fetched before the first result without a hint in embed.html');
  // the sentence's buckets were asked for before the lab's own module had run
  const timing = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource');
    const lab = entries.find((e) => e.name.endsWith('/components/lab/attention-lab.js'));
    const buckets = entries.filter((e) => /\/assets\/glove\/[0-9a-f]{3}\.bin$/.test(e.name));
    return { lab: lab.responseEnd, firstBucket: Math.min(...buckets.map((e) => e.startTime)), buckets: buckets.length };
  });
  assert.ok(timing.buckets >= 5, `${timing.buckets} buckets`);
  assert.ok(timing.firstBucket <= timing.lab, `buckets asked for at ${timing.firstBucket} ms, the lab's module arrived at ${timing.lab} ms`);
});

test('<attention-lab> on another site, loaded from the lab’s origin under the site’s strict policy', async () => {
  const lab = new URL(browser.url).origin;
  const url = await host.page('element.html', `<script type="module" src="${browser.url}components/attention-lab.js"></script>
    <attention-lab sentence="Dogs chase cats" projection="random" dk="32"></attention-lab>`,
  { policy: `default-src 'self'; script-src 'self' ${lab} 'wasm-unsafe-eval'; connect-src 'self' ${lab}; style-src 'self'` });
  await page.goto(url);
  const state = await page.locator('attention-lab').evaluate((el) => el.ready.then(() => ({ tokens: el.state.tokens.map((t) => t.text), d: el.state.d })));
  assert.deepEqual(state, { tokens: ['dogs', 'chase', 'cats'], d: 32 });
});

test('no request leaves the lab’s origin and the host’s', () => {
  const origins = new Set(requests.map((r) => new URL(r.url).origin));
  origins.delete(new URL(browser.url).origin);
  origins.delete(host.origin);
  assert.deepEqual([...origins], []);
  // what the lab's pages asked for (the test's own navigations aside)
  const fromFrame = requests.filter((r) => r.frame.startsWith(browser.url) && !r.navigation && !r.url.startsWith(browser.url));
  assert.deepEqual(fromFrame, [], 'the frame asked another origin');
});
