// <multi-head-view>: h heads, each attention with its own seeded projections of width
// d_k / h, as small multiples of their weight heatmaps, and the concatenated output
// [head 1 | … | head h] (t × d_k) before the output projection W_O.
// Inputs: engine, tokens, vectors (t×100), dk (the model width split over the heads),
// scaled, seed, heads (1…8).
import { LessonElement, divergingColor, fmt, html, svg, weightColor } from './lesson-base.js';

export class MultiHeadView extends LessonElement {
  static inputs = ['heads'];

  get css() {
    return `.controls { margin: .3em 0 .6em; }
      .grid { display: flex; flex-wrap: wrap; gap: .8em 1.2em; }`;
  }

  draw(root, width) {
    const t = this.t;
    const { engine, tokens, dk, seed, scaled } = this;
    const heads = this.heads ?? 4;
    const d = Math.max(1, Math.floor(dk / heads));
    const mh = engine.multiHead({ x: this.vectors, t, seed, heads, d, scaled });

    root.append(
      html('p', {
        class: 'explain',
        text:
          `Instead of one attention of width ${dk}, multi-head attention runs ${heads} smaller ones of width ${dk} / ${heads} = ${d}, ` +
          `each with its own projections W_Q, W_K, W_V, so each head can attend to different words. Their outputs are placed side by side ` +
          `(concatenated) into one row per word, which a trained model then mixes with one more matrix, W_O.`,
      }),
    );
    const slider = html('input', { type: 'range', min: 1, max: 8, step: 1, value: heads, 'aria-label': 'number of heads' });
    slider.addEventListener('input', () => {
      this.heads = Number(slider.value);
      this.dispatchEvent(new Event('input', { bubbles: true }));
    });
    root.append(html('div', { class: 'controls' }, html('label', { class: 'inline' }, ['heads h ', slider, html('b', { text: String(heads) })])));

    // small multiples: per-head weights; token labels on the first only
    const perRow = Math.max(1, Math.min(heads, Math.floor(width / 150)));
    const size = Math.max(60, Math.min(150, Math.floor((width - (perRow - 1) * 19) / perRow) - 4));
    const cell = size / t;
    const grid = html('div', { class: 'grid' });
    for (let r = 0; r < heads; r++) {
      const box = html('div');
      box.append(html('h4', { text: `head ${r + 1}` }));
      const chart = svg('svg', { width: size, height: size, role: 'img', 'aria-label': `attention weights of head ${r + 1}` });
      for (let i = 0; i < t; i++)
        for (let j = 0; j < t; j++) {
          const p = mh.weights[(r * t + i) * t + j];
          chart.append(
            svg('rect', { x: j * cell, y: i * cell, width: Math.max(0.5, cell - 0.6), height: Math.max(0.5, cell - 0.6), style: `fill:${weightColor(p)}` }, [
              svg('title', {}, `head ${r + 1}: "${tokens[i]}" → "${tokens[j]}" ${fmt(p, 3)}`),
            ]),
          );
        }
      box.append(chart);
      grid.append(box);
    }
    root.append(grid);
    root.append(html('p', { class: 'note', text: 'Each square: rows are queries, columns keys, in sentence order; darker = more weight. Hover a cell for its word pair and weight.' }));

    // concatenated output: t rows × heads·d columns, head boundaries marked
    const cols = heads * d;
    const labelW = 70;
    const colW = Math.max(0.5, Math.min(14, (width - labelW - 4) / cols));
    const rowH = 16;
    let extent = 0;
    for (const v of mh.concat) extent = Math.max(extent, Math.abs(v));
    const chart = svg('svg', { width: labelW + cols * colW + 2, height: t * rowH + 22, role: 'img', 'aria-label': 'concatenated output' });
    for (let i = 0; i < t; i++) {
      chart.append(svg('text', { x: labelW - 6, y: i * rowH + rowH - 4, 'text-anchor': 'end' }, tokens[i]));
      for (let c = 0; c < cols; c++)
        chart.append(svg('rect', { x: labelW + c * colW, y: i * rowH, width: colW + 0.05, height: rowH - 1, style: `fill:${divergingColor(mh.concat[i * cols + c], extent)}` }));
    }
    for (let r = 0; r <= heads; r++) {
      const x = labelW + r * d * colW;
      chart.append(svg('line', { x1: x, x2: x, y1: 0, y2: t * rowH + 4, style: 'stroke:var(--fg);stroke-width:1.5' }));
      if (r < heads) chart.append(svg('text', { x: x + (d * colW) / 2, y: t * rowH + 17, 'text-anchor': 'middle', class: 'muted' }, colW * d > 26 ? `h${r + 1}` : ''));
    }
    root.append(html('h4', { text: `Concatenated output: ${t} × (${heads} · ${d}) = ${t} × ${cols}` }));
    root.append(html('div', { class: 'scroll' }, chart));
    root.append(html('p', { class: 'note', text: `Blue positive, red negative (scale ±${fmt(extent)}). Each block is one head's output P·V for every word.` }));
  }
}

MultiHeadView.define('multi-head-view');
