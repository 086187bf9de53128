// Claim 2, measured on the sentence: for each d_k, the largest weight and the entropy of every
// softmax row, scaled and unscaled, with the "extremely peaked" and "nearly flat" regimes
// (thresholds from the core) shaded; ◆ marks the lab's own row. Draws results.saturation of
// web/lesson/model.js.
import { dkLine, headingTag, identityNote, labMarker, legend, linear, log2Scale, mutedText, panelWidth, plot, polyline, valueAxis, widthAxis } from './chart.js';
import { english, withNodes } from '../i18n/i18n.js';
import { shortLabel } from '../i18n/format.js';
import { h } from './h.js';

/** (results of model.saturation, settings { projection, strings }, theme, { width }) → view nodes. */
export function saturationView(r, { projection, strings = english(), heading }, theme, { width }) {
  const w = panelWidth(width);
  const { t, dk, maxEntropy, constants, at, lab } = r;
  const { peakedMaxWeight, flatEntropyFraction } = constants;
  const [u, s] = [at.unscaled, at.scaled];
  const tr = strings.t;
  const summary = tr('saturation.summary', {
    dk: String(dk), t, unscaledPeaked: u.peaked, unscaledFlat: u.flat, unscaledMean: strings.fmt(u.meanMaxWeight),
    scaledPeaked: s.peaked, scaledFlat: s.flat, scaledMean: strings.fmt(s.meanMaxWeight),
  });
  return h('div', { class: 'view' }, [
    h('p', { class: 'explain' }, tr('saturation.explain')),
    h('div', { class: 'panels' }, [
      chart(r, theme, w, strings, {
        heading,
        title: tr('saturation.maxTitle'),
        summary,
        key: 'maxWeight',
        range: [0, 1],
        ticks: [0, 0.25, 0.5, 0.75, 1],
        band: [peakedMaxWeight, 1],
        bandLabel: tr('saturation.peakedBand', { value: strings.fixed(peakedMaxWeight, 2) }),
      }),
      chart(r, theme, w, strings, {
        heading,
        title: tr('saturation.entropyTitle', { t, value: strings.fmt(maxEntropy) }),
        summary,
        key: 'entropy',
        range: [0, maxEntropy * 1.04],
        ticks: [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6].filter((v) => v <= maxEntropy * 1.04),
        band: [flatEntropyFraction * maxEntropy, maxEntropy],
        bandLabel: tr('saturation.flatBand', { percent: strings.percent(flatEntropyFraction), t }),
      }),
    ]),
    legend([
      { color: theme.unscaled, text: tr('saturation.legendUnscaled') },
      { color: theme.scaled, text: tr('saturation.legendScaled') },
      lab ? { color: theme.muted, text: tr('saturation.legendLab'), dashed: true } : null,
    ].filter(Boolean)),
    h('p', { class: 'note stats' }, `${summary} ${tr('saturation.untrained')}`),
    r.row === null
      ? null
      : h('p', { class: 'note stats sweep-row' }, [
          // the learner's word goes in as a node: a word such as "{scaledMax}" stays a word
          withNodes(tr('saturation.row', { dk: String(dk) }), {
            word: shortLabel(r.word),
            unscaledMax: h('b', { 'data-k': 'max-unscaled' }, strings.fixed(u.maxWeight)),
            unscaledEntropy: h('b', { 'data-k': 'entropy-unscaled' }, strings.fixed(u.entropy)),
            scaledMax: h('b', { 'data-k': 'max-scaled' }, strings.fixed(s.maxWeight)),
            scaledEntropy: h('b', { 'data-k': 'entropy-scaled' }, strings.fixed(s.entropy)),
          }),
          lab
            ? ` ${tr(projection === 'random' ? 'saturation.labRandom' : 'saturation.lab', {
                setting: tr(lab.scaled ? 'lesson.scaled' : 'lesson.unscaled'),
                d: String(lab.d),
                max: strings.fixed(lab.maxWeight),
                entropy: strings.fixed(lab.entropy),
              })}`
            : null,
        ]),
    identityNote(projection, strings),
  ]);
}

function chart({ unscaled, scaled, t, dk, row, lab }, theme, width, strings, { heading, title, summary, key, range: [lo, hi], ticks, band, bandLabel }) {
  const height = width < 420 ? 180 : 220; // a phone: the ticks 29 px apart
  const pad = { l: 40, r: 10, t: 24, b: 40 }; // the top margin holds the band's threshold
  const { dims } = unscaled;
  const x = log2Scale(dims[0], dims.at(-1), pad.l + 6, width - pad.r - 6);
  const y = linear(lo, hi, height - pad.b, pad.t);
  const series = [
    [unscaled, theme.unscaled, -3],
    [scaled, theme.scaled, 3],
  ];
  return h('div', {}, [
    h(headingTag({ heading }), {}, title),
    plot(theme, { width, height, label: `${title}. ${summary}` }, [
      h('rect', { x: pad.l, y: y(band[1]), width: width - pad.l - pad.r, height: y(band[0]) - y(band[1]), fill: theme.band }),
      // the band is a few px tall (0.99 to 1 of the axis): its edge drawn and its threshold written
      // above the plot, so that it can be seen on a phone
      h('line', { class: 'band-edge', x1: pad.l, x2: width - pad.r, y1: y(band[0]), y2: y(band[0]), stroke: theme.muted, 'stroke-width': 1.5 }),
      h('line', { x1: width - pad.r, x2: width - pad.r, y1: pad.t - 8, y2: y(band[0]), stroke: theme.muted, 'stroke-width': 1.5 }),
      mutedText(theme, { x: width - pad.r - 4, y: pad.t - 8, 'text-anchor': 'end' }, `> ${strings.fixed(band[0], 2)}`),
      valueAxis(theme, pad.l, y, ticks, { format: strings.fmt }),
      widthAxis(theme, x, height - pad.b, dims, strings, { every: width < 420 ? 3 : 1 }),
      dkLine(theme, x(dk), pad.t, height - pad.b),
      series.map(([sweep, color, shift]) => [
        dims.map((d, c) =>
          Array.from({ length: t }, (_, i) =>
            h('circle', { cx: x(d) + shift, cy: y(sweep[key][c * t + i]), r: i === row ? 3 : 2, fill: color, 'fill-opacity': i === row ? 1 : 0.35 }),
          ),
        ),
        polyline(dims.map((d, c) => [x(d), y(sweep.mean[key][c])]), { stroke: color }),
      ]),
      // ◆ on the dots of its scaling
      lab && lab.d >= dims[0] && lab.d <= dims.at(-1)
        ? labMarker(x(lab.d) + (lab.scaled ? 3 : -3), y(lab[key]), lab.scaled ? theme.scaled : theme.unscaled,
            strings.t('saturation.labMarker', { word: strings.tipLabel(lab.word), value: strings.fixed(lab[key]) }))
        : null,
    ]),
    legend([{ color: theme.band, text: strings.t('saturation.shaded', { band: bandLabel }) }]),
  ]);
}
