// Several heads: h heads, each attention with its own seeded projections of width d_k / h, as
// small multiples of their weight heatmaps, and the concatenated output [head 1 | … | head h]
// (t × h·(d_k / h)) before the output projection W_O. Draws results.heads of
// web/lesson/model.js; its slider (data-intent="heads") is read by the element.
import { divergingColor, mutedText, plot, weightColor } from './chart.js';
import { fmt, shortLabel, tipLabel } from './format.js';
import { h } from './h.js';

/** (results of model.heads, settings, theme, { width }) → view nodes. */
export function headsView(r, _settings, theme, { width }) {
  const { heads, maxHeads, d, dk, t, tokens, weights, concat } = r;
  // small multiples: per-head weights, the same size each
  const perRow = Math.max(1, Math.min(heads, Math.floor(width / 150)));
  const size = Math.max(60, Math.min(150, Math.floor((width - (perRow - 1) * 19) / perRow) - 4));
  const cell = size / t;
  // concatenated output: t rows × heads·d columns, head boundaries marked; one colour scale for all
  const cols = heads * d;
  const labelWidth = 70;
  const colWidth = Math.max(0.5, Math.min(14, (width - labelWidth - 4) / cols));
  const rowHeight = 16;
  let extent = 0;
  for (const v of concat) extent = Math.max(extent, Math.abs(v));
  return h('div', { class: 'view' }, [
    h(
      'p',
      { class: 'explain' },
      `Instead of one attention of width ${dk}, multi-head attention runs ${heads} smaller ones of width ${dk} / ${heads} = ${d}, ` +
        `each with its own projections W_Q, W_K, W_V, so each head can attend to different words. Their outputs are placed side by side ` +
        `(concatenated) into one row per word, which a trained model then mixes with one more matrix, W_O.`,
    ),
    h(
      'div',
      { class: 'controls' },
      h('label', { class: 'inline' }, [
        'heads h ',
        h('input', { type: 'range', min: 1, max: maxHeads, step: 1, value: heads, 'data-intent': 'heads', 'aria-label': 'number of heads' }),
        h('b', {}, String(heads)),
      ]),
    ),
    h(
      'div',
      { class: 'grid' },
      Array.from({ length: heads }, (_, head) =>
        h('div', { class: 'head' }, [
          h('h4', {}, `head ${head + 1}`),
          plot(theme, { width: size, height: size, label: `attention weights of head ${head + 1}` }, [
            Array.from({ length: t * t }, (_, idx) => {
              const [i, j] = [Math.floor(idx / t), idx % t];
              const p = weights[head * t * t + idx];
              return h(
                'rect',
                { x: j * cell, y: i * cell, width: Math.max(0.5, cell - 0.6), height: Math.max(0.5, cell - 0.6), fill: weightColor(theme, p) },
                h('title', {}, `head ${head + 1}: "${tipLabel(tokens[i])}" → "${tipLabel(tokens[j])}" ${fmt(p, 3)}`),
              );
            }),
          ]),
        ]),
      ),
    ),
    h('p', { class: 'note' }, 'Each square: rows are queries, columns keys, in sentence order; darker = more weight. Hover a cell for its word pair and weight.'),
    h('h4', {}, `Concatenated output: ${t} × (${heads} · ${d}) = ${t} × ${cols}`),
    h(
      'div',
      { class: 'scroll' },
      plot(theme, { width: labelWidth + cols * colWidth + 2, height: t * rowHeight + 22, label: 'concatenated output' }, [
        tokens.map((word, i) => h('text', { x: labelWidth - 6, y: i * rowHeight + rowHeight - 4, 'text-anchor': 'end' }, shortLabel(word))),
        Array.from({ length: t * cols }, (_, idx) => {
          const [i, c] = [Math.floor(idx / cols), idx % cols];
          return h('rect', { x: labelWidth + c * colWidth, y: i * rowHeight, width: colWidth + 0.05, height: rowHeight - 1, fill: divergingColor(theme, concat[idx], extent) });
        }),
        Array.from({ length: heads + 1 }, (_, head) => {
          const x = labelWidth + head * d * colWidth;
          return [
            h('line', { x1: x, x2: x, y1: 0, y2: t * rowHeight + 4, stroke: theme.text, 'stroke-width': 1.5 }),
            head < heads && colWidth * d > 26 ? mutedText(theme, { x: x + (d * colWidth) / 2, y: t * rowHeight + 17, 'text-anchor': 'middle' }, `h${head + 1}`) : null,
          ];
        }),
      ]),
    ),
    h('p', { class: 'note' }, `Blue positive, red negative (scale ±${fmt(extent)}). Each block is one head's output P·V for every word.`),
  ]);
}
