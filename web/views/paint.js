// View nodes (web/views/h.js) painted on a 2D canvas: the third way to draw a view, beside
// toDom (the page) and toMarkup (SVG text). It makes a PNG of the very picture an SVG export
// holds, without loading that SVG as an image — which a page under `default-src 'self'` may not
// do (a blob: or data: image is blocked by its img-src).
//
//   const canvas = paintToCanvas(figureSvg(state, { theme }), { scale: 2 });
//   const png = await canvas.convertToBlob({ type: 'image/png' });
//
// It paints the SVG the views write, no more: svg (nested ones placed at x, y), g, rect (rx;
// fill a colour, none or url(#pattern)), line, path, text with tspans (fill, dx), text-anchor,
// dominant-baseline central, font-family/-size/-weight, text-decoration underline, translate()
// and rotate() transforms, patterns in userSpaceOnUse (patternTransform rotate()); title and the
// ARIA attributes are skipped. Anything else throws, naming the tag or attribute value, so a
// view that starts using more is caught by its tests rather than drawn wrong.

const SKIPPED = new Set(['title', 'desc']);
const INHERITED = ['fill', 'stroke', 'stroke-width', 'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline'];
const DEFAULTS = { fill: '#000', stroke: 'none', 'stroke-width': 1, 'font-family': 'sans-serif', 'font-size': 16, 'font-weight': 'normal', 'text-anchor': 'start', 'dominant-baseline': 'auto' };
const ALIGN = { start: 'left', middle: 'center', end: 'right' };

/**
 * An OffscreenCanvas of the <svg> root `node` (its width × height) times `scale`, with the tree
 * painted on it. Throws an Error for a root that is not an <svg> of finite size, or a part it
 * does not paint.
 */
export function paintToCanvas(node, { scale = 1 } = {}) {
  if (node?.tag !== 'svg') throw new TypeError(`paintToCanvas: expected an <svg> view node, got ${node?.tag ?? typeof node}`);
  const width = Number(node.attrs.width);
  const height = Number(node.attrs.height);
  if (!(width > 0 && height > 0 && Number.isFinite(width * height))) throw new RangeError(`paintToCanvas: the svg is ${node.attrs.width} × ${node.attrs.height}`);
  if (!(scale > 0 && scale <= 8)) throw new RangeError(`paintToCanvas: scale ${scale} must be in (0, 8]`);
  const canvas = new OffscreenCanvas(Math.round(width * scale), Math.round(height * scale));
  const ctx = canvas.getContext('2d');
  ctx.scale(scale, scale);
  const patterns = new Map();
  collectPatterns(node, patterns);
  paintNode(ctx, node, { ...DEFAULTS }, { patterns, scale, made: new Map() }, true);
  return canvas;
}

function collectPatterns(node, patterns) {
  if (typeof node === 'string') return;
  if (node.tag === 'pattern') patterns.set(node.attrs.id, node);
  for (const child of node.children) collectPatterns(child, patterns);
}

function paintNode(ctx, node, inherited, env, root = false) {
  if (typeof node === 'string' || SKIPPED.has(node.tag) || node.tag === 'defs') return;
  const style = { ...inherited };
  for (const key of INHERITED) if (node.attrs[key] != null) style[key] = node.attrs[key];
  ctx.save();
  if (node.attrs.transform) applyTransform(ctx, node.attrs.transform);
  switch (node.tag) {
    case 'svg':
      if (!root) ctx.translate(Number(node.attrs.x ?? 0), Number(node.attrs.y ?? 0));
      for (const child of node.children) paintNode(ctx, child, style, env);
      break;
    case 'g':
      for (const child of node.children) paintNode(ctx, child, style, env);
      break;
    case 'rect':
      paintRect(ctx, node.attrs, style, env);
      break;
    case 'line':
      ctx.beginPath();
      ctx.moveTo(Number(node.attrs.x1 ?? 0), Number(node.attrs.y1 ?? 0));
      ctx.lineTo(Number(node.attrs.x2 ?? 0), Number(node.attrs.y2 ?? 0));
      stroke(ctx, style, env);
      break;
    case 'path': {
      const path = new Path2D(node.attrs.d);
      fill(ctx, style, env, path);
      stroke(ctx, style, env, path);
      break;
    }
    case 'text':
      paintText(ctx, node, style, env);
      break;
    default:
      throw new Error(`paintToCanvas: cannot paint <${node.tag}>`);
  }
  ctx.restore();
}

function paintRect(ctx, attrs, style, env) {
  const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((k) => Number(attrs[k] ?? 0));
  if (!(w > 0 && h > 0)) return;
  const path = new Path2D();
  const r = Math.min(Number(attrs.rx ?? 0), w / 2, h / 2);
  if (r > 0) path.roundRect(x, y, w, h, r);
  else path.rect(x, y, w, h);
  fill(ctx, style, env, path);
  stroke(ctx, style, env, path);
}

function fill(ctx, style, env, path) {
  if (style.fill === 'none') return;
  ctx.fillStyle = paintOf(ctx, style.fill, env);
  ctx.fill(path);
}

function stroke(ctx, style, env, path) {
  if (style.stroke === 'none') return;
  ctx.strokeStyle = paintOf(ctx, style.stroke, env);
  ctx.lineWidth = Number(style['stroke-width']);
  if (path) ctx.stroke(path);
  else ctx.stroke();
}

// A colour, or a pattern for url(#id), made once per id.
function paintOf(ctx, value, env) {
  const ref = /^url\(#(.+)\)$/.exec(value);
  if (!ref) return value;
  let pattern = env.made.get(ref[1]);
  if (!pattern) {
    const node = env.patterns.get(ref[1]);
    if (!node) throw new Error(`paintToCanvas: no pattern #${ref[1]}`);
    if ((node.attrs.patternUnits ?? 'objectBoundingBox') !== 'userSpaceOnUse') throw new Error(`paintToCanvas: pattern #${ref[1]} must be in userSpaceOnUse`);
    const w = Number(node.attrs.width);
    const h = Number(node.attrs.height);
    // the tile at the canvas's scale, shrunk back by the pattern's transform: sharp at any scale
    const tile = new OffscreenCanvas(Math.max(1, Math.round(w * env.scale)), Math.max(1, Math.round(h * env.scale)));
    const tileCtx = tile.getContext('2d');
    tileCtx.scale(tile.width / w, tile.height / h);
    for (const child of node.children) paintNode(tileCtx, child, { ...DEFAULTS }, env);
    pattern = ctx.createPattern(tile, 'repeat');
    let matrix = new DOMMatrix();
    if (node.attrs.patternTransform) matrix = parseTransform(node.attrs.patternTransform);
    pattern.setTransform(matrix.scale(w / tile.width, h / tile.height));
    env.made.set(ref[1], pattern);
  }
  return pattern;
}

// Text and its tspans, laid out as one line: runs one after another (dx moves a run), the whole
// line placed by text-anchor.
function paintText(ctx, node, style, env) {
  const runs = [];
  const collect = (child, runStyle, dx) => {
    if (typeof child === 'string') {
      runs.push({ text: child, style: runStyle, dx });
      return;
    }
    if (SKIPPED.has(child.tag)) return;
    if (child.tag !== 'tspan') throw new Error(`paintToCanvas: cannot paint <${child.tag}> inside <text>`);
    const inner = { ...runStyle };
    for (const key of INHERITED) if (child.attrs[key] != null) inner[key] = child.attrs[key];
    child.children.forEach((grandchild, k) => collect(grandchild, inner, k === 0 ? Number(child.attrs.dx ?? 0) : 0));
  };
  node.children.forEach((child) => collect(child, style, 0));
  let width = 0;
  for (const run of runs) {
    ctx.font = fontOf(run.style);
    run.width = ctx.measureText(run.text).width;
    width += run.dx + run.width;
  }
  const anchor = style['text-anchor'];
  if (!(anchor in ALIGN)) throw new Error(`paintToCanvas: text-anchor ${anchor}`);
  let x = Number(node.attrs.x ?? 0) - (anchor === 'middle' ? width / 2 : anchor === 'end' ? width : 0);
  const y = Number(node.attrs.y ?? 0);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  const central = style['dominant-baseline'] === 'central';
  for (const run of runs) {
    x += run.dx;
    ctx.font = fontOf(run.style);
    // SVG's central baseline (as Chromium draws it) is the middle of the font's box: the
    // alphabetic baseline lies below it by half of (ascent − descent). Canvas's 'middle', the
    // middle of the em square, sits ~1 px off at 12 px.
    const metrics = ctx.measureText(run.text);
    const baseline = central ? y + (metrics.fontBoundingBoxAscent - metrics.fontBoundingBoxDescent) / 2 : y;
    if (run.style.fill !== 'none') {
      ctx.fillStyle = paintOf(ctx, run.style.fill, env);
      ctx.fillText(run.text, x, baseline);
      if (node.attrs['text-decoration'] === 'underline') {
        const size = Number(run.style['font-size']);
        ctx.fillRect(x, baseline + size * 0.15, run.width, Math.max(1, size / 14));
      }
    }
    x += run.width;
  }
}

function fontOf(style) {
  return `${style['font-weight']} ${Number(style['font-size'])}px ${style['font-family']}`;
}

function applyTransform(ctx, text) {
  ctx.transform(...matrixValues(parseTransform(text)));
}

const matrixValues = (m) => [m.a, m.b, m.c, m.d, m.e, m.f];

// translate(x [y]) and rotate(deg), in order, as SVG applies a transform list.
function parseTransform(text) {
  let matrix = new DOMMatrix();
  const re = /(\w+)\(([^)]*)\)/g;
  let rest = text.trim();
  for (const [whole, name, args] of text.matchAll(re)) {
    rest = rest.replace(whole, '').trim();
    const n = args.split(/[\s,]+/).filter(Boolean).map(Number);
    if (n.some((v) => !Number.isFinite(v))) throw new Error(`paintToCanvas: transform ${JSON.stringify(text)}`);
    if (name === 'translate') matrix = matrix.translate(n[0], n[1] ?? 0);
    else if (name === 'rotate' && n.length === 1) matrix = matrix.rotate(n[0]);
    else throw new Error(`paintToCanvas: transform ${name}() is not painted`);
  }
  if (rest !== '') throw new Error(`paintToCanvas: transform ${JSON.stringify(text)}`);
  return matrix;
}
