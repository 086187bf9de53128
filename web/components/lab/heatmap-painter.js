// Paints a heatmap scene (web/views/heatmap.js) on the two canvases of <attention-heatmap>, and
// repaints only what changed. Not an element: the element owns the canvases and the
// interaction, and hands this the scene and where the pointer and the focus are.
//
// Two layers, both sized and placed from the scene:
//   cells    an n×m canvas, one pixel a cell, that the browser scales up by `cell` without
//            smoothing (image-rendering: pixelated): new weights cost n·m pixels, not the whole
//            picture. Masked cells are left transparent for the overlay's hatching. A scene past
//            MAX_VECTOR_CELLS (supplied attention of thousands of tokens) brings its own pooled
//            picture (scene.raster: the pixels a reader sees, masked cells in the masked colour):
//            the canvas is that picture, never larger than the room, whatever n·m is.
//   overlay  labels, hatched masked cells, gutters, numbers and the rings of the selected row,
//            the hovered and the focused cell, redrawn only when one of them changes. It is drawn
//            on an OffscreenCanvas and handed to the page's canvas as one ImageBitmap
//            ('bitmaprenderer'), so the compositor gets a new picture only when it changes (why,
//            with the measurements: docs/page-performance.md, "The slider latency, continued",
//            item 3). The labels live on a detached canvas of their own, redrawn only when
//            they, the selected row, the layout or the theme change: a slider input redraws
//            the cells alone. Text drawn here forces no layout (a font set on a canvas in the
//            page would bring style and layout up to date).
import { rasterColours } from '../../views/heatmap.js';

export class HeatmapPainter {
  #cells;
  #overlay;
  #cellsCtx = null;
  #cellsImage = null; // ImageData of the cells layer and its pixels as Uint32 (RGBA in memory order)
  #cellsPixels = null;
  #cellsBox = '';
  #cellsScene = null; // the scene the cells layer shows
  #rampPalette = null;
  #rampPixels = null; // the palette's 256 colours as ImageData pixels
  #mask = new Uint8Array(0); // the masked cells the overlay shows
  #maskVersion = 0;
  #overlayDrawn = null; // what the overlay shows (see #overlayState)
  #offscreen = null;
  #shown = null; // the overlay canvas's 'bitmaprenderer' context
  #labels = null; // { canvas, ctx, drawn }
  #hatch = null; // { theme, pattern }

  /** `cells` and `overlay`: the element's two canvases. */
  constructor(cells, overlay) {
    this.#cells = cells;
    this.#overlay = overlay;
  }

  /**
   * Brings both layers up to date with `scene` and the interaction:
   * { hover: { i, j } | null, focus: { i, j }, focused, dpr }.
   */
  paint(scene, { hover = null, focus = { i: 0, j: 0 }, focused = false, dpr = 1 } = {}) {
    this.#paintCells(scene);
    const state = {
      scene: scene.numbers ? scene : null, // numbers on the cells change with every scene
      rowLabels: scene.rowLabels,
      colLabels: scene.colLabels,
      selected: scene.selected,
      box: `${scene.n} ${scene.m} ${scene.x0} ${scene.y0} ${scene.cell} ${scene.width} ${scene.height} ${dpr}`,
      hover: hover ? `${hover.i} ${hover.j}` : '',
      focus: focused ? `${focus.i} ${focus.j}` : '',
      mask: this.#maskVersion,
      theme: scene.theme,
    };
    const drawn = this.#overlayDrawn;
    if (drawn && Object.keys(state).every((key) => drawn[key] === state[key])) return;
    this.#overlayDrawn = state;
    this.#paintOverlay(scene, hover, focused ? focus : null, dpr);
  }

  #paintCells(scene) {
    const { n, m, x0, y0, cell, raster } = scene;
    const [width, height] = raster ? [raster.width, raster.height] : [m, n];
    const canvas = this.#cells;
    if (canvas.width !== width || canvas.height !== height || !this.#cellsCtx) {
      canvas.width = width;
      canvas.height = height;
      this.#cellsCtx = canvas.getContext('2d');
      this.#cellsImage = this.#cellsCtx.createImageData(width, height);
      this.#cellsPixels = new Uint32Array(this.#cellsImage.data.buffer);
      this.#cellsScene = null;
    }
    const box = `${x0} ${y0} ${cell} ${n} ${m}`;
    if (this.#cellsBox !== box) {
      this.#cellsBox = box;
      const style = canvas.style;
      style.left = `${x0}px`;
      style.top = `${y0}px`;
      style.width = `${m * cell}px`;
      style.height = `${n * cell}px`;
      style.setProperty('--cell', `${cell}px`);
      canvas.classList.toggle('gutters', scene.gap > 0);
    }
    if (this.#cellsScene === scene) return;
    this.#cellsScene = scene;
    const pixels = this.#cellsPixels;
    if (raster) {
      // the pooled picture, masked pixels in the masked colour: nothing for the overlay to hatch
      const colours = Uint32Array.from(rasterColours(scene), pixel);
      const { image } = raster;
      for (let p = 0; p < image.length; p++) pixels[p] = colours[image[p]];
      this.#cellsCtx.putImageData(this.#cellsImage, 0, 0);
      if (this.#mask.length !== 0) {
        this.#mask = new Uint8Array(0);
        this.#maskVersion++;
      }
      return;
    }
    const ramp = this.#ramp(scene.palette);
    const { levels, masked } = scene;
    for (let at = 0; at < n * m; at++) pixels[at] = masked[at] ? 0 : ramp[levels[at]];
    this.#cellsCtx.putImageData(this.#cellsImage, 0, 0);
    // the overlay hatches the masked cells: a new mask redraws it
    const mask = this.#mask;
    if (mask.length !== masked.length || mask.some((value, at) => value !== masked[at])) {
      this.#mask = masked.slice();
      this.#maskVersion++;
    }
  }

  #ramp(palette) {
    if (this.#rampPalette !== palette) {
      this.#rampPalette = palette;
      this.#rampPixels = Uint32Array.from(palette.rgb, pixel);
    }
    return this.#rampPixels;
  }

  #paintOverlay(scene, hover, focus, dpr) {
    const { n, m, x0, y0, cell, gap, theme } = scene;
    const width = Math.round(scene.width * dpr);
    const height = Math.round(scene.height * dpr);
    const canvas = this.#overlay;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
      canvas.style.width = `${scene.width}px`;
      canvas.style.height = `${scene.height}px`;
    }
    const offscreen = (this.#offscreen ??= new OffscreenCanvas(width, height));
    if (offscreen.width !== width || offscreen.height !== height) {
      offscreen.width = width;
      offscreen.height = height;
    }
    const ctx = offscreen.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.drawImage(this.#paintLabels(scene, width, height, dpr), 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);

    const mask = this.#mask;
    if (scene.maskedCount > 0 && !scene.raster) {
      // masked cells: hatched (the pattern is anchored to the canvas, so a run of cells is one rect)
      ctx.fillStyle = this.#hatchPattern(ctx, theme);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < m; j++) {
          if (!mask[i * m + j]) continue;
          let end = j + 1;
          while (end < m && mask[i * m + end]) end++;
          ctx.fillRect(x0 + j * cell, y0 + i * cell, (end - j) * cell, cell);
          j = end - 1;
        }
      }
      if (gap) {
        // the 1 px gutters between cells (each cell is cell - gap wide), through the hatching too
        for (let i = 1; i <= n; i++) ctx.clearRect(x0, y0 + i * cell - gap, m * cell, gap);
        for (let j = 1; j <= m; j++) ctx.clearRect(x0 + j * cell - gap, y0, gap, n * cell);
      }
    }
    if (scene.numbers) {
      ctx.font = scene.font; // few cells (n, m ≤ 16 or so)
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const { levels, weights, palette } = scene;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < m; j++) {
          const at = i * m + j;
          if (mask[at]) continue;
          ctx.fillStyle = palette.ink[levels[at]];
          ctx.fillText(scene.strings.fixed(weights[at], 2), x0 + j * cell + (cell - gap) / 2, y0 + i * cell + (cell - gap) / 2 + 0.5);
        }
      }
    }
    // the selected row, the hovered cell, the focused cell
    const selected = scene.selected;
    ctx.lineWidth = 2;
    ctx.strokeStyle = theme.accent;
    if (selected >= 0 && selected < n) ctx.strokeRect(x0 - 1, y0 + selected * cell - 1, m * cell - gap + 2, cell - gap + 2);
    if (hover) {
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = theme.text;
      ctx.strokeRect(x0 + hover.j * cell + 0.75, y0 + hover.i * cell + 0.75, cell - gap - 1.5, cell - gap - 1.5);
    }
    if (focus) {
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = theme.focus;
      ctx.strokeRect(x0 + focus.j * cell - 1.5, y0 + focus.i * cell - 1.5, cell - gap + 3, cell - gap + 3);
    }
    this.#shown ??= canvas.getContext('bitmaprenderer');
    this.#shown.transferFromImageBitmap(offscreen.transferToImageBitmap());
  }

  // The row and column labels at device size, on a detached canvas.
  #paintLabels(scene, width, height, dpr) {
    const labels = (this.#labels ??= { canvas: document.createElement('canvas'), drawn: null });
    labels.ctx ??= labels.canvas.getContext('2d');
    const { n, m, x0, y0, cell, gap, selected, theme, font } = scene;
    const state = { rowLabels: scene.rowLabels, colLabels: scene.colLabels, selected, box: `${x0} ${y0} ${cell} ${width} ${height} ${dpr}`, theme };
    const drawn = labels.drawn;
    if (drawn && Object.keys(state).every((key) => drawn[key] === state[key])) return labels.canvas;
    labels.drawn = state;
    const { canvas, ctx } = labels;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.textBaseline = 'middle';
    // row labels (queries), right-aligned; the selected row in bold accent
    ctx.textAlign = 'right';
    for (let i = 0; i < n; i++) {
      if (scene.rowLabels[i] === '') continue; // a raster scene labels every k-th row
      const isSelected = i === selected;
      ctx.font = isSelected ? `600 ${font}` : font;
      ctx.fillStyle = isSelected ? theme.accent : theme.text;
      ctx.fillText(scene.rowLabels[i], x0 - 8, y0 + i * cell + cell / 2);
    }
    // column labels (keys), rising at 60°
    ctx.font = font;
    ctx.fillStyle = theme.text;
    ctx.textAlign = 'left';
    for (let j = 0; j < m; j++) {
      if (scene.colLabels[j] === '') continue;
      ctx.save();
      ctx.translate(x0 + j * cell + (cell - gap) / 2 + 3, y0 - 6);
      ctx.rotate(-Math.PI / 3);
      ctx.fillText(scene.colLabels[j], 0, 0);
      ctx.restore();
    }
    return canvas;
  }

  // The hatching of masked cells in the theme's colours: an 8 px tile, made once per theme.
  #hatchPattern(ctx, theme) {
    if (this.#hatch?.theme !== theme) {
      const tile = document.createElement('canvas');
      tile.width = tile.height = 8;
      const t = tile.getContext('2d');
      t.fillStyle = theme.masked;
      t.fillRect(0, 0, 8, 8);
      t.strokeStyle = theme.maskedLine;
      t.lineWidth = 1.5;
      t.beginPath();
      t.moveTo(-2, 10);
      t.lineTo(10, -2);
      t.moveTo(-2, 2);
      t.lineTo(2, -2);
      t.moveTo(6, 10);
      t.lineTo(10, 6);
      t.stroke();
      this.#hatch = { theme, pattern: ctx.createPattern(tile, 'repeat') };
    }
    return this.#hatch.pattern;
  }
}

// An opaque [r, g, b] as one ImageData pixel read through a Uint32Array (the platform's byte order).
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
function pixel([r, g, b]) {
  return (LITTLE_ENDIAN ? (255 << 24) | (b << 16) | (g << 8) | r : (r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
}
