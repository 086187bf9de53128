// The one way the project starts Chromium: the browser tests, the page benchmarks and the
// screenshot script all launch it here. Debian's headless Chromium (scripts/setup.sh installs
// it), driven by playwright-core, in a fresh profile that is removed on close.
//
// Why these flags: --no-sandbox because CI runs as root; the background-networking, component
// update and sync flags because this machine's network is closed and Chromium otherwise keeps
// opening connections that are refused; --no-first-run skips the first-run pages.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]);

/**
 * Launches Chromium with a fresh profile. Returns { context, profile, close }: `context` is a
 * persistent playwright BrowserContext (its pages share the profile's cache), `profile` the
 * profile's folder (page benchmarks watch its processes), `close()` ends the browser and removes
 * the profile.
 */
export async function launchChromium({ viewport = { width: 1280, height: 900 }, colorScheme = 'light' } = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'attention-lab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS], viewport, colorScheme });
  return {
    context,
    profile,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Sixty-four tokens: the size at which the page's input → paint is measured (docs/page-performance.md). */
export const SENTENCE_64 = (() => {
  const words = 'the quick brown fox jumps over the lazy dog while a cat sleeps on the warm mat near the door'.split(' ');
  return Array.from({ length: 64 }, (_, i) => words[i % words.length]).join(' ');
})();

/** Ends a trace started with CDP's Tracing.start (transferMode 'ReturnAsStream') and returns its JSON text. */
export async function stopTracing(cdp) {
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  return text;
}
