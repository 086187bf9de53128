// <saturation-plot>: claim 2, measured on the learner's sentence. For each d_k, the largest
// weight and the entropy of every softmax row, scaled and unscaled, with the "extremely
// peaked" and "nearly flat" regimes (thresholds from the core) shaded.
// The sweep uses head 0 of engine.headProjections at every width: the lab's Random mode, so at
// the lab's d_k (T = 1, no mask, the whole sentence) the selected row's dots are the lab's row.
// ◆ marks the lab's own row (its q, k, scaling, temperature and mask) at its width d.
// Inputs: engine, tokens, vectors (t×100), dk, seed, selectedRow; q, k, scaled, temperature,
// causal, projection of the current setting for the ◆ (optional).
import {
  LessonElement, fixed3, fmt, html, identityNote, labMarker, legend, line, log2Scale, linear, powersOfTwo, svg, valueAxis, widthAxis,
} from './lesson-base.js';

const DIMS = powersOfTwo(1, 1024);

export class SaturationPlot extends LessonElement {
  static minTokens = 2;

  draw(root, width) {
    const t = this.t;
    const { engine, seed, dk } = this;
    const common = { x: this.vectors, t, seed, dims: DIMS };
    // The sweeps do not depend on d_k or the query row: computed once per sentence and seed.
    const unscaled = this.memo('unscaled', [this.vectors, seed], () => engine.saturationSweep({ ...common, scaled: false }));
    const scaled = this.memo('scaled', [this.vectors, seed], () => engine.saturationSweep({ ...common, scaled: true }));
    const { peakedMaxWeight, flatEntropyFraction } = engine.lessonConstants;
    const lnM = Math.log(t);
    // The numbers at d_k: from the sweep when d_k is one of its widths, else measured at d_k alone (e.g. 100).
    const i = DIMS.indexOf(dk);
    const [atUnscaled, atScaled, c] =
      i >= 0 ? [unscaled, scaled, i] : [false, true].map((s) => engine.saturationSweep({ ...common, dims: [dk], scaled: s })).concat(0);
    const count = (sweep, key) => Math.round(sweep.mean[key][c] * t);
    // the lab's own row (◆), when the page gives its q and k
    const row = this.selectedRow ?? 0;
    let lab = null;
    if (this.q && this.k) {
      const cur = this.current();
      const r = Math.min(row, cur.n - 1);
      const attention = this.currentAttention();
      lab = { d: cur.d, word: cur.queryLabels[r], maxWeight: attention.maxWeight[r], entropy: attention.entropy[r], scaled: Boolean(this.scaled) };
    }
    this._lab = lab;

    root.append(
      html('p', {
        class: 'explain',
        text:
          'Softmax turns a row of scores into weights. If the scores are spread far apart, almost all the weight lands on ' +
          'one word ("extremely peaked"); if they are nearly equal, every word gets about the same weight ("nearly flat"). ' +
          'Without scaling, the spread of q·k grows like √d_k, so rows become peaked as d_k grows; with scaling they do not.',
      }),
    );
    const panels = html('div', { class: 'panels' });
    const panelWidth = width >= 640 ? Math.floor((width - 20) / 2) : width;
    panels.append(
      this.#chart(panelWidth, 'Largest weight in each row', unscaled, scaled, 'maxWeight', [0, 1], {
        band: [peakedMaxWeight, 1],
        bandLabel: `extremely peaked (max weight > ${peakedMaxWeight.toFixed(2)})`,
      }),
      this.#chart(panelWidth, `Entropy of each row (nats; uniform = ln ${t} = ${fmt(lnM)})`, unscaled, scaled, 'entropy', [0, lnM * 1.04], {
        band: [flatEntropyFraction * lnM, lnM],
        bandLabel: `nearly flat (entropy > ${Math.round(flatEntropyFraction * 100)} % of ln ${t})`,
      }),
    );
    root.append(panels);
    root.append(
      legend([
        ['var(--unscaled)', 'unscaled q·k (line: mean over rows, dots: each row)'],
        ['var(--scaled)', 'scaled q·k/√d_k'],
        ...(this._lab ? [['var(--muted)', '◆ the lab’s own row', true]] : []),
      ]),
    );
    root.append(
      html('p', {
        class: 'note stats',
        text:
          `At d_k = ${dk}: unscaled, ${count(atUnscaled, 'fractionPeaked')} of ${t} rows are extremely peaked and ` +
          `${count(atUnscaled, 'fractionFlat')} nearly flat (mean max weight ${fmt(atUnscaled.mean.maxWeight[c])}); scaled, ` +
          `${count(atScaled, 'fractionPeaked')} peaked and ${count(atScaled, 'fractionFlat')} flat (mean max weight ${fmt(atScaled.mean.maxWeight[c])}). ` +
          'The projections here are random, not trained, so scaled rows are fairly even; what scaling guarantees is that they do not collapse onto one word.',
      }),
    );
    if (row < t) {
      const at = (sweep) => [fixed3(sweep.maxWeight[c * t + row]), fixed3(sweep.entropy[c * t + row])];
      const [mu, eu] = at(atUnscaled);
      const [ms, es] = at(atScaled);
      const sweepRow = html('p', { class: 'note stats sweep-row' }, [
        `The row of "${this.tokens[row]}" at d_k = ${dk}: unscaled max weight `, html('b', { 'data-k': 'max-unscaled', text: mu }),
        ', entropy ', html('b', { 'data-k': 'entropy-unscaled', text: eu }), ' nats; scaled max weight ',
        html('b', { 'data-k': 'max-scaled', text: ms }), ', entropy ', html('b', { 'data-k': 'entropy-scaled', text: es }), ' nats.',
      ]);
      if (lab)
        sweepRow.append(
          ` ◆ The lab’s own row (${lab.scaled ? 'scaled' : 'unscaled'}, d = ${lab.d}): max weight ${fixed3(lab.maxWeight)}, entropy ${fixed3(lab.entropy)} nats` +
            (this.projection === 'random' ? ' — on Random at T = 1 without the causal mask, the same numbers.' : '.'),
        );
      root.append(sweepRow);
    }
    const note = identityNote(this.projection);
    if (note) root.append(note);
  }

  #chart(width, title, unscaled, scaled, key, [lo, hi], { band, bandLabel }) {
    const box = html('div');
    box.append(html('h4', { text: title }));
    const height = 220;
    const pad = { l: 40, r: 10, t: 10, b: 40 };
    const chart = svg('svg', { width, height, role: 'img', 'aria-label': title });
    const x = log2Scale(1, 1024, pad.l + 6, width - pad.r - 6);
    const y = linear(lo, hi, height - pad.b, pad.t);
    chart.append(svg('rect', { x: pad.l, y: y(band[1]), width: width - pad.l - pad.r, height: y(band[0]) - y(band[1]), style: 'fill:var(--band)' }));
    const ticks = key === 'maxWeight' ? [0, 0.25, 0.5, 0.75, 1] : [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6].filter((v) => v <= hi);
    valueAxis(chart, pad.l, y, ticks);
    widthAxis(chart, x, height - pad.b, DIMS, { every: width < 420 ? 3 : 1 });
    chart.append(svg('line', { x1: x(this.dk), x2: x(this.dk), y1: pad.t, y2: height - pad.b, style: 'stroke:var(--muted)', 'stroke-dasharray': '2 3' }));
    const t = unscaled.t;
    for (const [sweep, color, shift] of [[unscaled, 'var(--unscaled)', -3], [scaled, 'var(--scaled)', 3]]) {
      DIMS.forEach((d, c) => {
        for (let r = 0; r < t; r++) {
          const v = sweep[key][c * t + r];
          const selected = r === this.selectedRow;
          chart.append(
            svg('circle', {
              cx: x(d) + shift,
              cy: y(v),
              r: selected ? 3 : 2,
              style: `fill:${color};fill-opacity:${selected ? 1 : 0.35}`,
            }),
          );
        }
      });
      chart.append(line(DIMS.map((d, c) => [x(d), y(sweep.mean[key][c])]), { style: `stroke:${color}` }));
    }
    const lab = this._lab;
    if (lab && lab.d >= 1 && lab.d <= 1024) {
      const shift = lab.scaled ? 3 : -3; // on the dots of its scaling
      chart.append(labMarker(x(lab.d) + shift, y(lab[key]), lab.scaled ? 'var(--scaled)' : 'var(--unscaled)', `the lab's row "${lab.word}": ${fixed3(lab[key])}`));
    }
    box.append(chart);
    box.append(legend([['var(--band)', `shaded: ${bandLabel}`]]));
    return box;
  }
}

SaturationPlot.define('saturation-plot');
