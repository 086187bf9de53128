// <multi-head-view>: several heads side by side and their concatenated output
// (web/views/heads.js). Results: model.heads(state, lesson) of web/lesson/model.js. Its slider
// requests { heads } (`input`, `change`; the lesson keeps it as its own setting).
import { sheet } from '../theme.js';
import { headsView } from '../../views/heads.js';
import { Instrument } from './instrument.js';

export class MultiHeadView extends Instrument {
  static styles = [
    ...Instrument.styles,
    sheet(`
      .controls { margin: .3em 0 .6em; }
      .grid { display: flex; flex-wrap: wrap; gap: .8em 1.2em; }
    `),
  ];
  static view = headsView;

  onInnerInput(event) {
    if (event.target.dataset?.intent !== 'heads') return;
    this.request({ heads: Number(event.target.value) }, event.type);
  }
}

customElements.define('multi-head-view', MultiHeadView);
