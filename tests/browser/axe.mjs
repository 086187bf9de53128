// axe-core (npm dev dependency) in the browser suites: injected into a page (through the
// driver, so the page's strict policy stays in force), run over the whole document with every
// shadow root, every rule of WCAG 2.0–2.2 A/AA and axe's best practices, and target-size (WCAG
// 2.2's 24 × 24 px, which axe leaves off by default).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const AXE_OPTIONS = Object.freeze({
  resultTypes: ['violations'],
  rules: { 'target-size': { enabled: true } },
});

// While axe runs it tries a <style> element and an inline style of its own, which the page's
// policy blocks and reports: those two reports are axe's, not the page's.
export const AXE_OWN_PROBLEM = /Applying inline style violates the following Content Security Policy directive|CSP violation: style-src-(elem|attr) blocked inline/;

/**
 * Runs axe on `page` (injecting it first when needed); returns its violations, shortened.
 * `include`: CSS selectors of the parts to check (each with its shadow trees; colours are still
 * read against the whole page), for a test about one part whose page others check whole.
 */
export async function axeViolations(page, include = null) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    ([options, parts]) => {
      const context = parts ? { include: parts.filter((s) => document.querySelector(s)).map((s) => [s]) } : document;
      return window.axe.run(context, options).then((r) => r.violations);
    },
    [AXE_OPTIONS, include],
  );
  return violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.flat().join(' ▸ '), summary: n.failureSummary.split('\n').slice(1, 3).join(' ').slice(0, 240) })),
  }));
}

/** Violations as lines a failing test prints: where, rule, impact, then each node. */
export function describeViolations(runs) {
  const lines = [];
  for (const { where, violations } of runs) {
    for (const v of violations) {
      lines.push(`${where}: ${v.impact} ${v.id} (${v.nodes.length} nodes): ${v.help}`);
      for (const n of v.nodes.slice(0, 5)) lines.push(`    ${n.target} — ${n.summary}`);
    }
  }
  return lines.join('\n');
}

/**
 * Runs axe on `page` in the light and the dark scheme at each of `widths` (900 px high, after two
 * frames and 200 ms to settle), asserting at each that the page does not scroll sideways (a wide
 * heatmap scrolls in its own box); puts the page back to light at 1440 × 900, then asserts that
 * axe found nothing. `where` begins each run's name in a failure; `include` as axeViolations'.
 */
export async function assertAxeCleanAcross(page, where, widths, include = null) {
  const runs = [];
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 200)))));
      runs.push({ where: `${where}, ${colorScheme}, ${width} px`, violations: await axeViolations(page, include) });
      const sideways = await page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);
      assert.equal(sideways, 0, `the page scrolls sideways by ${sideways} px at ${width} px`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
  const nodes = runs.reduce((n, run) => n + run.violations.reduce((m, v) => m + v.nodes.length, 0), 0);
  assert.equal(nodes, 0, `axe violations:\n${describeViolations(runs)}`);
}
