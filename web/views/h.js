// What a view returns: a tree of plain objects, not DOM. The same tree is drawn into a page by
// toDom and written out as SVG or HTML text by toMarkup (exports, the Node command line), so a
// view never needs a browser.
//
//   h('svg', { width: 200, height: 100, role: 'img', 'aria-label': 'variance' },
//     h('rect', { x: 0, y: 0, width: 10, height: 20, fill: theme.scaled }),
//     h('text', { x: 4, y: 12 }, 'q·k'))
//
// Rules that keep views pure and the pages working under `style-src 'self'`: no `style`
// attribute (colours go in presentation attributes such as fill and stroke, layout in classes
// of the element's style sheet), no event handlers (an element listens on its shadow root and
// reads data-* attributes), and text is always a child string, never markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * A node: h(tag, attrs?, ...children). Children may be nodes, strings, numbers, arrays of
 * them, or null/false/undefined (left out). Attributes with null/undefined/false are left out;
 * true writes an empty attribute.
 */
export function h(tag, attrs = {}, ...children) {
  if (attrs === null || typeof attrs !== 'object' || Array.isArray(attrs) || isNode(attrs)) {
    children.unshift(attrs);
    attrs = {};
  }
  if ('style' in attrs) throw new Error(`h(${tag}): no style attribute (blocked by style-src 'self'); use a class or fill/stroke`);
  return { tag, attrs, children: flatten(children) };
}

/** A formula in TeX; drawn by the renderer given to toDom / toMarkup (KaTeX in the page). */
export function tex(source, { display = false } = {}) {
  return { tag: '#tex', attrs: { source, display }, children: [] };
}

/**
 * Text with the maths' subscripts as <sub>: 'scaled by 1/√d_k' → ['scaled by 1/√d', <sub>k</sub>].
 * For the string tables' own words (headings, the lesson's status), never for a learner's.
 */
export function subscripts(text) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(/\b([A-Za-z])_([A-Za-z0-9])\b/g)) {
    parts.push(text.slice(last, match.index) + match[1], h('sub', {}, match[2]));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((part) => part !== '');
}

function isNode(value) {
  return typeof value === 'object' && value !== null && typeof value.tag === 'string' && Array.isArray(value.children);
}

function flatten(children, out = []) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) flatten(child, out);
    else out.push(typeof child === 'number' ? String(child) : child);
  }
  return out;
}

/**
 * Draws a tree as DOM nodes (SVG elements inside <svg>). `tex(source, display)` returns the DOM
 * node of a formula; without it a formula is drawn as its source in <code>.
 */
export function toDom(node, { tex: drawTex = null, svg = false } = {}) {
  if (typeof node === 'string') return document.createTextNode(node);
  if (node.tag === '#tex') {
    const { source, display } = node.attrs;
    return drawTex ? drawTex(source, display) : Object.assign(document.createElement('code'), { textContent: source });
  }
  const inSvg = svg || node.tag === 'svg';
  const el = inSvg ? document.createElementNS(SVG_NS, node.tag) : document.createElement(node.tag);
  for (const [name, value] of Object.entries(node.attrs)) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of node.children) el.append(toDom(child, { tex: drawTex, svg: inSvg && node.tag !== 'foreignObject' }));
  return el;
}

/**
 * Writes a tree as markup text. An <svg> root gets its namespace, so the text is a standalone
 * SVG file. `tex(source, display)` returns a formula's markup; without it, its source in <code>.
 */
export function toMarkup(node, { tex: texMarkup = null } = {}) {
  return markup(node, texMarkup, false, true);
}

// Empty SVG elements close themselves; in HTML only void elements may.
const HTML_VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'col', 'wbr']);

function markup(node, texMarkup, svg, root) {
  if (typeof node === 'string') return escapeText(node);
  if (node.tag === '#tex') {
    const { source, display } = node.attrs;
    return texMarkup ? texMarkup(source, display) : `<code>${escapeText(source)}</code>`;
  }
  const inSvg = svg || node.tag === 'svg';
  const attrs = root && node.tag === 'svg' ? { xmlns: SVG_NS, ...node.attrs } : node.attrs;
  let out = `<${node.tag}`;
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeAttribute(String(value))}"`;
  }
  if (node.children.length === 0 && (inSvg || HTML_VOID.has(node.tag))) return `${out}/>`;
  out += '>';
  for (const child of node.children) out += markup(child, texMarkup, inSvg && node.tag !== 'foreignObject', false);
  return `${out}</${node.tag}>`;
}

// XML 1.0 takes no C0 control but tab, newline and return, no lone surrogate, and neither U+FFFE
// nor U+FFFF, not even as a character reference: each becomes U+FFFD (a visible "unknown
// character", so a token made of one still shows), here, the one place where text becomes markup.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` with every character XML 1.0 cannot hold replaced by U+FFFD. */
export function xmlSafe(text) {
  return text.replace(NOT_XML, '\uFFFD');
}

function escapeText(text) {
  return xmlSafe(text).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
}

function escapeAttribute(text) {
  return xmlSafe(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
