// Claim 2, measured on the sentence: for each d_k, the largest weight and the entropy of every
// softmax row, scaled and unscaled, with the "extremely peaked" and "nearly flat" regimes
// (thresholds from the core) shaded; ◆ marks the lab's own row. Draws results.saturation of
// web/lesson/model.js.
import { dkLine, identityNote, labMarker, legend, linear, log2Scale, panelWidth, plot, polyline, valueAxis, widthAxis } from './chart.js';
import { fixed, fmt, shortLabel, tipLabel } from './format.js';
import { h } from './h.js';

/** (results of model.saturation, settings { projection }, theme, { width }) → view nodes. */
export function saturationView(r, { projection }, theme, { width }) {
  const w = panelWidth(width);
  const { t, dk, maxEntropy, constants, at, lab } = r;
  const { peakedMaxWeight, flatEntropyFraction } = constants;
  const [u, s] = [at.unscaled, at.scaled];
  return h('div', { class: 'view' }, [
    h(
      'p',
      { class: 'explain' },
      'Softmax turns a row of scores into weights. If the scores are spread far apart, almost all the weight lands on ' +
        'one word ("extremely peaked"); if they are nearly equal, every word gets about the same weight ("nearly flat"). ' +
        'Without scaling, the spread of q·k grows like √d_k, so rows become peaked as d_k grows; with scaling they do not.',
    ),
    h('div', { class: 'panels' }, [
      chart(r, theme, w, {
        title: 'Largest weight in each row',
        key: 'maxWeight',
        range: [0, 1],
        ticks: [0, 0.25, 0.5, 0.75, 1],
        band: [peakedMaxWeight, 1],
        bandLabel: `extremely peaked (max weight > ${peakedMaxWeight.toFixed(2)})`,
      }),
      chart(r, theme, w, {
        title: `Entropy of each row (nats; uniform = ln ${t} = ${fmt(maxEntropy)})`,
        key: 'entropy',
        range: [0, maxEntropy * 1.04],
        ticks: [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6].filter((v) => v <= maxEntropy * 1.04),
        band: [flatEntropyFraction * maxEntropy, maxEntropy],
        bandLabel: `nearly flat (entropy > ${Math.round(flatEntropyFraction * 100)} % of ln ${t})`,
      }),
    ]),
    legend([
      { color: theme.unscaled, text: 'unscaled q·k (line: mean over rows, dots: each row)' },
      { color: theme.scaled, text: 'scaled q·k/√d_k' },
      lab ? { color: theme.muted, text: '◆ the lab’s own row', dashed: true } : null,
    ].filter(Boolean)),
    h(
      'p',
      { class: 'note stats' },
      `At d_k = ${dk}: unscaled, ${u.peaked} of ${t} rows are extremely peaked and ${u.flat} nearly flat ` +
        `(mean max weight ${fmt(u.meanMaxWeight)}); scaled, ${s.peaked} peaked and ${s.flat} flat (mean max weight ${fmt(s.meanMaxWeight)}). ` +
        'The projections here are random, not trained, so scaled rows are fairly even; what scaling guarantees is that they do not collapse onto one word.',
    ),
    r.row === null
      ? null
      : h('p', { class: 'note stats sweep-row' }, [
          `The row of "${shortLabel(r.word)}" at d_k = ${dk}: unscaled max weight `,
          h('b', { 'data-k': 'max-unscaled' }, fixed(u.maxWeight)),
          ', entropy ',
          h('b', { 'data-k': 'entropy-unscaled' }, fixed(u.entropy)),
          ' nats; scaled max weight ',
          h('b', { 'data-k': 'max-scaled' }, fixed(s.maxWeight)),
          ', entropy ',
          h('b', { 'data-k': 'entropy-scaled' }, fixed(s.entropy)),
          ' nats.',
          lab
            ? ` ◆ The lab’s own row (${lab.scaled ? 'scaled' : 'unscaled'}, d = ${lab.d}): max weight ${fixed(lab.maxWeight)}, entropy ${fixed(lab.entropy)} nats` +
              (projection === 'random' ? ' — on Random at T = 1 without the causal mask, the same numbers.' : '.')
            : null,
        ]),
    identityNote(projection),
  ]);
}

function chart({ unscaled, scaled, t, dk, row, lab }, theme, width, { title, key, range: [lo, hi], ticks, band, bandLabel }) {
  const height = 220;
  const pad = { l: 40, r: 10, t: 10, b: 40 };
  const { dims } = unscaled;
  const x = log2Scale(dims[0], dims.at(-1), pad.l + 6, width - pad.r - 6);
  const y = linear(lo, hi, height - pad.b, pad.t);
  const series = [
    [unscaled, theme.unscaled, -3],
    [scaled, theme.scaled, 3],
  ];
  return h('div', {}, [
    h('h4', {}, title),
    plot(theme, { width, height, label: title }, [
      h('rect', { x: pad.l, y: y(band[1]), width: width - pad.l - pad.r, height: y(band[0]) - y(band[1]), fill: theme.band }),
      valueAxis(theme, pad.l, y, ticks),
      widthAxis(theme, x, height - pad.b, dims, { every: width < 420 ? 3 : 1 }),
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
        ? labMarker(x(lab.d) + (lab.scaled ? 3 : -3), y(lab[key]), lab.scaled ? theme.scaled : theme.unscaled, `the lab's row "${tipLabel(lab.word)}": ${fixed(lab[key])}`)
        : null,
    ]),
    legend([{ color: theme.band, text: `shaded: ${bandLabel}` }]),
  ]);
}
