// <overflow-demo>: why softmax subtracts the max — the naive softmax overflowing next to the
// stable one (web/views/overflow.js). Results: model.overflow(state) of web/lesson/model.js.
// Its slider requests { temperature } (`input` while it moves, `change` when released): a lab
// setting, which the lesson passes to the lab.
import { sheet } from '../theme.js';
import { overflowView } from '../../views/overflow.js';
import { Instrument } from './instrument.js';

export class OverflowDemo extends Instrument {
  static styles = [
    ...Instrument.styles,
    sheet(`
      .controls { display: flex; flex-wrap: wrap; gap: .4em 1.2em; align-items: center; margin: .3em 0 .6em; }
      input[type=range] { width: min(260px, 40vw); }
      tr.naive th, tr.naive td { background: var(--_danger-bg); }
      tr.naive th { color: var(--_danger); font-weight: 600; }
      td.broken { color: var(--_danger); font-weight: 700; }
      .status { font-weight: 600; }
      .status.bad { color: var(--_danger); }
      .cellbar { display: block; height: 4px; width: 100%; margin-top: 2px; border-radius: 2px; overflow: hidden; }
    `),
  ];
  static view = overflowView;

  onInnerInput(event) {
    if (event.target.dataset?.intent !== 'temperature') return;
    // the slider is log₁₀ T; three significant digits are what the lesson shows
    this.request({ temperature: Number((10 ** Number(event.target.value)).toPrecision(3)) }, event.type);
  }
}

customElements.define('overflow-demo', OverflowDemo);
