// <variance-lab>: claim 1, measured. Histograms of q·k and q·k/√d_k for random q, k at the
// chosen d_k, and the measured variance against d_k (log-log) for random vectors and for the
// learner's sentence, with the theoretical lines Var = d_k and Var = 1.
// Inputs: engine, tokens, vectors (t×100), dk, seed. Every number comes from the core.
import { LessonElement, fmt, html, identityNote, legend, line, log2Scale, powersOfTwo, svg, valueAxis, widthAxis } from './lesson-base.js';

const SAMPLES = 2000;
const BINS = 48;
const DIMS = powersOfTwo(1, 1024);

export class VarianceLab extends LessonElement {
  static inputs = ['samples'];
  static minTokens = 0; // random vectors need no sentence

  draw(root, width) {
    const { engine, dk, seed } = this;
    const samples = this.samples ?? SAMPLES;
    // The curves depend on the seed and the sentence's vectors, not on d_k: cached across d_k changes.
    this._curve = this.memo('curve', [seed, samples], () => engine.dotVarianceCurve({ seed, dims: DIMS, samples }));
    const t = this.t;
    this._tokenCurve =
      t >= 2 ? this.memo('tokens', [seed, this.vectors], () => engine.tokenVarianceCurve({ x: this.vectors, t, seed, dims: DIMS, draws: 8 })) : null;
    const s = Math.sqrt(dk);
    const hist = engine.dotHistograms({ seed, d: dk, samples, bins: BINS, range: [-4 * s, 4 * s], scaledRange: [-4, 4] });

    root.append(
      html('p', {
        class: 'explain',
        text:
          `Draw q and k with ${dk} independent components, each with mean 0 and variance 1. ` +
          `q·k adds up ${dk} products that each have variance 1, so its variance is about d_k = ${dk}; ` +
          `dividing by √d_k = ${fmt(s)} brings it back to about 1, whatever d_k is.`,
      }),
    );
    const panels = html('div', { class: 'panels' });
    const panelWidth = width >= 640 ? Math.floor((width - 20) / 2) : width;
    panels.append(this.#histograms(hist, panelWidth), this.#curve(panelWidth));
    root.append(panels);
  }

  #histograms(hist, width) {
    const { dk } = this;
    const box = html('div');
    box.append(html('h4', { text: `${hist.samples} random pairs at d_k = ${dk}` }));
    const h = 92;
    const pad = { l: 12, r: 12, t: 8 };
    const gap = 26;
    const total = pad.t + 2 * h + gap + 40;
    const chart = svg('svg', { width, height: total, role: 'img', 'aria-label': 'histograms of q·k and q·k/√d_k' });
    const x = (v) => pad.l + ((v - hist.unscaled.lo) / (hist.unscaled.hi - hist.unscaled.lo)) * (width - pad.l - pad.r);
    const rows = [
      [hist.unscaled, 'var(--unscaled)', `q·k: variance ${fmt(hist.unscaled.variance)}`],
      [hist.scaled, 'var(--scaled)', `q·k/√d_k: variance ${fmt(hist.scaled.variance)}`],
    ];
    rows.forEach(([part, color, title], r) => {
      const top = pad.t + r * (h + gap);
      const base = top + h;
      const max = Math.max(...part.counts, 1);
      const binW = (part.hi - part.lo) / part.counts.length;
      part.counts.forEach((c, b) => {
        if (!c) return;
        const x0 = x(part.lo + b * binW);
        const x1 = x(part.lo + (b + 1) * binW);
        const barH = (c / max) * (h - 14);
        chart.append(svg('rect', { x: x0, y: base - barH, width: Math.max(1, x1 - x0 - 0.5), height: barH, style: `fill:${color}` }));
      });
      chart.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: base, y2: base, style: 'stroke:var(--grid)' }));
      chart.append(svg('text', { x: pad.l, y: top + 10 }, title));
      const outside = part.below + part.above;
      if (outside) chart.append(svg('text', { x: width - pad.r, y: top + 10, 'text-anchor': 'end', class: 'muted' }, `${outside} outside the axis`));
    });
    // shared axis: the unscaled range ±4√d_k
    const axisY = pad.t + 2 * h + gap;
    const s = Math.sqrt(dk);
    for (const v of [-4 * s, -2 * s, 0, 2 * s, 4 * s]) {
      chart.append(svg('line', { x1: x(v), x2: x(v), y1: axisY, y2: axisY + 4, style: 'stroke:var(--grid)' }));
      chart.append(svg('text', { x: x(v), y: axisY + 16, 'text-anchor': 'middle', class: 'muted' }, fmt(v, 3)));
    }
    chart.append(svg('text', { x: width / 2, y: axisY + 32, 'text-anchor': 'middle', class: 'muted' }, 'value (same axis for both)'));
    box.append(chart);
    box.append(
      html('p', {
        class: 'note',
        text: `Both histograms share one axis, ±4√d_k. The scaled values stay within about ±4 whatever d_k is, so as d_k grows they become a narrow spike.`,
      }),
    );
    return box;
  }

  #curve(width) {
    const { dk } = this;
    const box = html('div');
    box.append(html('h4', { text: 'Measured variance against d_k' }));
    const height = 230;
    const pad = { l: 46, r: 12, t: 12, b: 40 };
    const chart = svg('svg', { width, height, role: 'img', 'aria-label': 'variance of q·k against d_k' });
    const x = log2Scale(1, 1024, pad.l, width - pad.r);
    const y = log2Scale(0.25, 2048, height - pad.b, pad.t);
    const clampY = (v) => y(Math.min(2048, Math.max(0.25, v)));
    const ticks = [0.25, 1, 4, 16, 64, 256, 1024];
    for (const v of ticks) chart.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v), style: 'stroke:var(--grid);stroke-opacity:.5' }));
    valueAxis(chart, pad.l, y, ticks, { label: 'variance', format: String });
    widthAxis(chart, x, height - pad.b, DIMS, { every: width < 420 ? 3 : 1 });
    // theory: Var = d_k and Var = 1
    chart.append(line([[x(1), y(1)], [x(1024), y(1024)]], { style: 'stroke:var(--unscaled)', 'stroke-dasharray': '5 4', 'stroke-width': 1.5 }));
    chart.append(line([[x(1), y(1)], [x(1024), y(1)]], { style: 'stroke:var(--scaled)', 'stroke-dasharray': '5 4', 'stroke-width': 1.5 }));
    chart.append(svg('line', { x1: x(dk), x2: x(dk), y1: pad.t, y2: height - pad.b, style: 'stroke:var(--muted)', 'stroke-dasharray': '2 3' }));
    const dots = (values, color, hollow) =>
      DIMS.forEach((d, i) =>
        chart.append(
          svg('circle', {
            cx: x(d),
            cy: clampY(values[i]),
            r: hollow ? 4 : 3.5,
            style: hollow ? `fill:var(--bg);stroke:${color};stroke-width:1.6` : `fill:${color}`,
          }, svg('title', {}, `d_k = ${d}: ${fmt(values[i])}`)),
        ),
      );
    dots(this._curve.unscaled, 'var(--unscaled)', false);
    dots(this._curve.scaled, 'var(--scaled)', false);
    if (this._tokenCurve) {
      dots(this._tokenCurve.unscaled, 'var(--unscaled)', true);
      dots(this._tokenCurve.scaled, 'var(--scaled)', true);
    }
    box.append(chart);
    box.append(
      legend([
        ['var(--unscaled)', 'q·k'],
        ['var(--scaled)', 'q·k/√d_k'],
        ['var(--muted)', 'theory: d_k and 1', true],
      ]),
    );
    // The numbers at d_k: from the curves when d_k is one of their widths, else measured at d_k alone (e.g. 100).
    const i = DIMS.indexOf(dk);
    const { engine, seed } = this;
    const samples = this.samples ?? SAMPLES;
    const [curve, c] = i >= 0 ? [this._curve, i] : [engine.dotVarianceCurve({ seed, dims: [dk], samples }), 0];
    const tokenCurve =
      i >= 0 || !this._tokenCurve ? this._tokenCurve : engine.tokenVarianceCurve({ x: this.vectors, t: this.t, seed, dims: [dk], draws: 8 });
    const at = ` At d_k = ${dk}: random ${fmt(curve.unscaled[c])} → ${fmt(curve.scaled[c])}`;
    const tok = tokenCurve ? `; your sentence ${fmt(tokenCurve.unscaled[c])} → ${fmt(tokenCurve.scaled[c])}.` : '.';
    box.append(
      html('p', {
        class: 'note stats',
        text:
          `Filled dots: ${this.samples ?? SAMPLES} random pairs per d_k. Hollow dots: your sentence's words (layer-normalised, ` +
          `then 8 random projections to each d_k — the first is the lab’s Random projection), all their pairwise dot products — noisier, the same trend.` + at + tok,
      }),
    );
    const note = identityNote(this.projection, { marked: false });
    if (note) box.append(note);
    return box;
  }
}

VarianceLab.define('variance-lab');
