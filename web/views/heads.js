// Several heads: h heads, each attention with its own seeded projections of width d_k / h, as
// small multiples of their weight heatmaps, and the concatenated output [head 1 | … | head h]
// (t × h·(d_k / h)) before the output projection W_O. Draws results.heads of
// web/lesson/model.js; its slider (data-intent="heads") is read by the element.
import { divergingColor, headingTag, mutedText, plot, scrollBox, weightColor } from './chart.js';
import { english } from '../i18n/i18n.js';
import { shortLabel } from '../i18n/format.js';
import { h } from './h.js';

/** (results of model.heads, settings { strings }, theme, { width }) → view nodes. */
export function headsView(r, { strings = english(), heading }, theme, { width }) {
  const s = strings;
  const hn = headingTag({ heading });
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
    h('p', { class: 'explain' }, s.t(heads === 1 ? 'heads.explainOne' : 'heads.explain', { dk: String(dk), heads: String(heads), d: String(d) })),
    h(
      'div',
      { class: 'controls' },
      h('label', { class: 'inline' }, [
        `${s.t('heads.heads')} `,
        h('input', { type: 'range', min: 1, max: maxHeads, step: 1, value: heads, 'data-intent': 'heads', 'aria-label': s.t('heads.slider') }),
        h('b', {}, String(heads)),
      ]),
    ),
    h(
      'div',
      { class: 'grid' },
      Array.from({ length: heads }, (_, head) =>
        h('div', { class: 'head' }, [
          h(hn, {}, s.t('heads.head', { index: head + 1 })),
          plot(theme, { width: size, height: size, label: headLabel(r, head, s) }, [
            Array.from({ length: t * t }, (_, idx) => {
              const [i, j] = [Math.floor(idx / t), idx % t];
              const p = weights[head * t * t + idx];
              return h(
                'rect',
                { x: j * cell, y: i * cell, width: Math.max(0.5, cell - 0.6), height: Math.max(0.5, cell - 0.6), fill: weightColor(theme, p) },
                h('title', {}, s.t('heads.cell', { index: head + 1, query: s.tipLabel(tokens[i]), key: s.tipLabel(tokens[j]), value: s.fmt(p, 3) })),
              );
            }),
          ]),
        ]),
      ),
    ),
    h('p', { class: 'note' }, s.t('heads.note')),
    h(hn, {}, s.t('heads.concat', { t: String(t), heads: String(heads), d: String(d), cols: String(cols) })),
    scrollBox(
      s.t('heads.concatBox'),
      plot(theme, { width: labelWidth + cols * colWidth + 2, height: t * rowHeight + 22, label: s.t('heads.concatLabel', { t, cols, heads, extent: s.fmt(extent) }) }, [
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
    h('p', { class: 'note' }, s.t('heads.concatNote', { extent: s.fmt(extent) })),
  ]);
}

// A head's picture in words: the largest weight of each row (h×t maxWeight from the core).
function headLabel({ t, tokens, maxWeight }, head, s) {
  const rows = Array.from({ length: t }, (_, i) => `${shortLabel(tokens[i])} ${s.fixed(maxWeight[head * t + i], 2)}`);
  return s.t('heads.headLabel', { index: head + 1, rows: rows.join('; ') });
}
