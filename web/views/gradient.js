// Claim 3, measured: the softmax Jacobian diag(p) − p pᵀ of the lab's selected row (its q, k,
// temperature and mask), unscaled next to scaled, with the size of the gradient that flows back
// through softmax, ‖∂L/∂z‖ for L = ⟨g, p⟩ (g fixed and seeded); and that size against d_k (the
// sweep). Draws results.gradient of web/lesson/model.js.
import { divergingColor, dkLine, headingTag, labMarker, legend, log2Scale, mutedText, panelWidth, plot, polyline, scrollBox, short, widthAxis } from './chart.js';
import { english, withNodes } from '../i18n/i18n.js';
import { shortLabel } from '../i18n/format.js';
import { h } from './h.js';

// p(1 − p) ≤ 1/4: the largest entry a softmax Jacobian can have. A fixed colour scale makes the
// two heatmaps comparable.
const JACOBIAN_EXTENT = 0.25;
const LABEL_WIDTH = 60;
const SHARED_PAD = 12; // px right of a heatmap drawn without row labels
const SHARED_CELL = 12; // px: rows this far apart still hold their 12 px labels apart
// Each cell says its value in a tooltip (<title>) up to this many keys: past it the cells are
// too small to point at, and Chromium takes seconds to lay out thousands of SVG titles (128 keys:
// 2 × 16,384 of them, a 30–60 s frame). The plot's own name states its numbers at any size.
const TITLED_KEYS = 32;

/** (results of model.gradient, settings { projection, strings }, theme, { width }) → view nodes. */
export function gradientView(r, { projection, strings = english(), heading }, theme, { width }) {
  const s = strings;
  const hn = headingTag({ heading });
  const w = panelWidth(width);
  // two heatmaps (60 px of labels each) side by side when they fit at 12 px a cell; else, on a
  // phone, side by side with the rows named once, by the first (the same keys); else stacked
  const sideBySide = (w - 2 * (LABEL_WIDTH + 4) - 16) / (2 * r.m) >= 12;
  const sharedRows = !sideBySide && (w - (LABEL_WIDTH + 4) - 2 * SHARED_PAD - 16) / (2 * r.m) >= SHARED_CELL;
  const room = sideBySide ? (w - 2 * (LABEL_WIDTH + 4) - 16) / 2 : sharedRows ? (w - (LABEL_WIDTH + 4) - 2 * SHARED_PAD - 16) / 2 : w - (LABEL_WIDTH + 4);
  const cell = Math.max(8, Math.min(24, Math.floor(room / r.m)));
  return h('div', { class: 'view' }, [
    h('p', { class: 'explain' }, s.t('gradient.explain', { word: shortLabel(r.word) })),
    // on Identity the lab's row is q = k = x, not the sweeps' random projection: say so
    projection === 'identity' ? h('p', { class: 'note identity-row' }, s.t('gradient.identityRow', { word: shortLabel(r.word) })) : null,
    // at T ≠ 1 the softmax's input is scores / T: the Jacobian and ‖∂L/∂z‖ are taken against it
    r.temperature !== 1 ? h('p', { class: 'note temperature' }, s.t('gradient.temperature', { t: s.fmt(r.temperature) })) : null,
    h('div', { class: 'panels' }, [
      h('div', {}, [
        h('div', { class: sharedRows ? 'jacs shared-rows' : 'jacs' }, r.panels.map((panel, k) => jacobian(r, panel, cell, theme, s, hn, !(sharedRows && k > 0)))),
        legend([
          { color: theme.positive, text: s.t('gradient.positive') },
          { color: theme.negative, text: s.t('gradient.negative', { extent: s.fmt(JACOBIAN_EXTENT) }) },
        ]),
      ]),
      r.sweeps ? normChart(r, theme, w, s, hn) : h('p', { class: 'note' }, s.t('gradient.needsWords')),
    ]),
  ]);
}

function jacobian({ m, d, keyLabels, labScaled }, { scaled, jacobian: jac, maxWeight, entropy, norm }, cell, theme, s, hn, rowLabels = true) {
  // without its row labels, the cells start at the left (room for the last column's label on the right)
  const left = rowLabels ? LABEL_WIDTH : 4;
  const width = left + m * cell + (rowLabels ? 4 : SHARED_PAD), height = LABEL_WIDTH + m * cell + 4;
  const angle = cell < 16 ? -90 : -60; // narrow columns: upright labels, one a column, do not overlap
  const title = s.t(scaled ? 'lesson.scaled' : 'lesson.unscaled');
  const labels = keyLabels.map((word) => short(word));
  const numbers = { max: s.fixed(maxWeight), entropy: s.fixed(entropy), norm: s.fmt(norm) };
  return h('div', { class: 'jac', 'data-scaled': String(scaled) }, [
    h(hn, {}, [`${title}, d_k = ${d}`, scaled === labScaled ? h('span', { class: 'yours' }, ` ${s.t('gradient.yours')}`) : null]),
    scrollBox(
      s.t('gradient.jacobianBox', { setting: title }),
      plot(theme, { width, height, label: s.t('gradient.jacobianLabel', { setting: title, dk: String(d), ...numbers }) }, [
        labels.map((word, i) => [
          rowLabels ? h('text', { x: LABEL_WIDTH - 4, y: LABEL_WIDTH + i * cell + cell / 2 + 4, 'text-anchor': 'end' }, word) : null,
          h('text', { transform: `translate(${left + i * cell + cell / 2 + 4}, ${LABEL_WIDTH - 4}) rotate(${angle})`, 'text-anchor': 'start' }, word),
        ]),
        Array.from({ length: m * m }, (_, idx) => {
          const [i, j] = [Math.floor(idx / m), idx % m];
          const v = jac[idx];
          return h(
            'rect',
            { x: left + j * cell, y: LABEL_WIDTH + i * cell, width: cell - 1, height: cell - 1, fill: divergingColor(theme, v, JACOBIAN_EXTENT) },
            m > TITLED_KEYS ? null : h('title', {}, `∂p(${s.tipLabel(keyLabels[i])}) / ∂z(${s.tipLabel(keyLabels[j])}) = ${s.fmt(v, 4)}`),
          );
        }),
      ]),
    ),
    h('p', { class: 'note stats' }, withNodes(s.t('gradient.stats'), {
      max: h('b', { 'data-k': 'max' }, numbers.max),
      entropy: h('b', { 'data-k': 'entropy' }, numbers.entropy),
      norm: h('b', { 'data-k': 'grad' }, numbers.norm),
    })),
  ]);
}

function normChart({ sweeps: { unscaled, scaled }, t, d, word, sweepRow, panels, labScaled }, theme, width, s, hn) {
  const height = width < 420 ? 190 : 230; // a phone: the decades 15 px apart, still clear of their 12 px labels
  const pad = { l: 52, r: 10, t: 10, b: 40 };
  const lab = panels.find((panel) => panel.scaled === labScaled);
  // the axis spans whole decades around every value drawn
  const values = [...unscaled.mean.gradNorm, ...scaled.mean.gradNorm, ...unscaled.gradNorm, ...scaled.gradNorm, lab.norm].filter((v) => v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.max(1e-8, Math.min(...values))));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const { dims } = unscaled;
  const x = log2Scale(dims[0], dims.at(-1), pad.l + 6, width - pad.r - 6);
  const y = (v) => pad.t + ((Math.log10(hi) - Math.log10(Math.max(v, lo))) / (Math.log10(hi) - Math.log10(lo))) * (height - pad.b - pad.t);
  const decades = [];
  for (let e = Math.log10(lo); e <= Math.log10(hi); e++) decades.push(e);
  const at = dims.indexOf(d);
  const label = at < 0
    ? s.t('gradient.normLabel')
    : s.t('gradient.normLabelAt', { dk: String(d), unscaled: s.fmt(unscaled.mean.gradNorm[at]), scaled: s.fmt(scaled.mean.gradNorm[at]) });
  return h('div', {}, [
    h(hn, {}, s.t('gradient.normTitle')),
    plot(theme, { width, height, label }, [
      decades.map((e) => [
        h('line', { x1: pad.l, x2: width - pad.r, y1: y(10 ** e), y2: y(10 ** e), stroke: theme.grid, 'stroke-opacity': 0.5 }),
        mutedText(theme, { x: pad.l - 6, y: y(10 ** e) + 4, 'text-anchor': 'end' }, e >= -2 && e < 5 ? s.fmt(10 ** e) : `1e${String(e).replace('-', '−')}`),
      ]),
      widthAxis(theme, x, height - pad.b, dims, s, { every: width < 420 ? 3 : 1 }),
      dkLine(theme, x(d), pad.t, height - pad.b),
      [
        [unscaled, theme.unscaled],
        [scaled, theme.scaled],
      ].map(([sweep, color]) => [
        polyline(dims.map((dd, c) => [x(dd), y(sweep.mean.gradNorm[c])]), { stroke: color }),
        sweepRow === null
          ? null
          : dims.map((dd, c) => h('circle', { cx: x(dd), cy: y(sweep.gradNorm[c * t + sweepRow]), r: 3, fill: theme.bg, stroke: color, 'stroke-width': 1.5 })),
      ]),
      d >= dims[0] && d <= dims.at(-1) ? labMarker(x(d), y(lab.norm), labScaled ? theme.scaled : theme.unscaled, s.t('gradient.labMarker', { value: s.fmt(lab.norm) })) : null,
    ]),
    legend([
      { color: theme.unscaled, text: s.t('lesson.unscaled') },
      { color: theme.scaled, text: s.t('lesson.scaled') },
    ]),
    h('p', { class: 'note' }, s.t('gradient.normNote', { word: shortLabel(word), d: String(d) })),
    h('p', { class: 'note measured' }, s.t('gradient.measured')),
  ]);
}
