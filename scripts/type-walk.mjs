// The type scale's floor, and the one walk that measures a page against it (scripts/type-audit.mjs
// prints it, tests/browser/type-scale.test.mjs holds index.html to it at 390 px).
//
// What a reader sees is the size a glyph is drawn at: for HTML text its computed font-size, for
// SVG text its font-size times the SVG's current scale (getScreenCTM: a plot drawn in a fixed
// viewBox shrinks with its box on a phone, and its text with it).

/** The smallest rendered size, in CSS px, of each kind of text (issue 32). */
export const TYPE_FLOOR = Object.freeze({
  prose: 16, // a paragraph or list item one reads
  note: 14, // notes, captions, legends, status lines, hints
  chart: 12, // text inside a plot (SVG): axis labels, ticks, subscripts
  script: 12, // a subscript or superscript in text (the k of d_k)
  control: 12, // controls and data: buttons, labels, table cells, chips, a vector's numbers
});

/**
 * Draws every text the walk judges (a Playwright page with <attention-lesson> and <model-view>):
 * the lesson eager with its asides open, each prediction answered (the instrument it veils shown),
 * the trained model's eight heads; then back to the top.
 */
export async function showEveryInstrument(page, { timeout = 60000 } = {}) {
  await page.evaluate(() => customElements.whenDefined('attention-lesson'));
  await page.locator('attention-lesson').evaluate((lesson) => {
    for (const aside of lesson.querySelectorAll('details.story-aside')) aside.open = true;
    lesson.setAttribute('loading', 'eager');
  });
  await page.waitForFunction(() => document.querySelector('attention-lesson').pending === false, null, { timeout });
  await page.evaluate(async () => {
    await customElements.whenDefined('lesson-predict');
    for (const predict of document.querySelectorAll('attention-lesson lesson-predict')) predict.shadowRoot.querySelector('button.skip')?.click();
  });
  await page.waitForFunction(() => document.querySelector('attention-lesson').pending === false, null, { timeout });
  await page.locator('#model').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('model-view')?.shadowRoot?.querySelectorAll('.thumb').length === 8, null, { timeout });
  await page.evaluate(() => scrollTo(0, 0));
}

/**
 * In the page (pass to page.evaluate): every visible text run, in the document and every shadow
 * root, as { kind, px, text, where }, px rounded to 0.1. `kind` is a key of the floor (what the
 * text is decides how small it may be); headings are left out (they are larger by design).
 */
export function walkText() {
  const NOTE = '.note, .hint, .legend, .caption, figcaption, caption, small, footer, .status, .lesson-status, .caveat, .story-note, .progress, .veiled, .pooled-note, .summary';
  const PROSE = 'p, li, dd, blockquote, summary';
  const CONTROL = 'button, label, select, input, textarea, td, th, output, .token, .tok, .thumb, legend, .kicker, .vec';
  const runs = [];
  // a short address: the host elements' tags down to the text's own element
  const where = (el) => {
    const parts = [];
    for (let node = el; node; ) {
      if (node.nodeType === 1) {
        const cls = typeof node.className === 'string' && node.className ? `.${node.className.trim().split(/\s+/)[0]}` : '';
        if (parts.length < 3 || node.localName.includes('-')) parts.unshift(node.localName + (node.localName.includes('-') ? '' : cls));
      }
      node = node.parentNode ?? node.host;
      if (node === document) break;
    }
    return parts.slice(-5).join(' ');
  };
  const visible = (el) => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) return false; // .visually-hidden: read, not seen
    // inside a closed <details> (any shadow boundary between), beyond its summary
    for (let node = el; node; node = node.parentNode ?? node.host) {
      if (node.localName === 'details' && !node.open && !el.closest('summary')) return false;
    }
    return true;
  };
  const visit = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const value = text.data.trim();
      const el = text.parentElement;
      if (!value || !el || el.closest('script, style, title, desc, h1, h2, h3, h4, h5, h6, .katex-mathml')) continue;
      if (el.closest('.visually-hidden') || (el.closest('[aria-hidden="true"]') && !el.closest('svg'))) continue;
      if (!visible(el)) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      let px = size;
      let kind;
      const svg = el.closest('svg');
      if (svg && el instanceof SVGElement) {
        const ctm = el.getScreenCTM?.() ?? svg.getScreenCTM();
        px = size * Math.hypot(ctm.c, ctm.d); // the vertical scale: a glyph's height
        kind = 'chart';
      } else if (el.closest('sub, sup')) kind = 'script';
      else if (el.closest(NOTE)) kind = 'note';
      else if (el.closest(CONTROL)) kind = 'control';
      else if (el.closest(PROSE)) kind = 'prose';
      else kind = 'control';
      runs.push({ kind, px: Math.round(px * 10) / 10, text: value.slice(0, 40), where: where(el) });
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
  };
  visit(document);
  return runs;
}

/** The runs under their kind's floor. */
export function underFloor(runs, floor = TYPE_FLOOR) {
  return runs.filter((run) => run.px < floor[run.kind] - 0.05);
}

/** Runs grouped by kind, size and address: [{ kind, px, where, count, sample }], most first. */
export function groupRuns(runs) {
  const groups = new Map();
  for (const run of runs) {
    const key = `${run.kind}|${run.px}|${run.where}`;
    const group = groups.get(key) ?? { kind: run.kind, px: run.px, where: run.where, count: 0, sample: run.text };
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}
