// <gradient-view>: claim 3, measured — a saturated softmax passes back almost no gradient
// (web/views/gradient.js). Results: model.gradient(state) of web/lesson/model.js.
import { sheet } from '../theme.js';
import { gradientView } from '../../views/gradient.js';
import { Instrument } from './instrument.js';

export class GradientView extends Instrument {
  static styles = [
    ...Instrument.styles,
    sheet(`
      .jacs { display: flex; flex-wrap: wrap; gap: 1em; }
      /* as wide as its heatmap: the title wraps instead of widening the box */
      .jac { width: min-content; max-width: 100%; }
      .jacs .yours { font-weight: normal; color: var(--_muted); }
      /* a phone: the two side by side, the rows named once; their titles, heatmaps and numbers aligned */
      .jacs.shared-rows { display: grid; grid-template-columns: repeat(2, min-content); grid-template-rows: repeat(3, auto); column-gap: 16px; }
      .jacs.shared-rows .jac { display: grid; grid-row: span 3; grid-template-rows: subgrid; width: auto; }
      .jacs.shared-rows .scroll { min-width: max-content; }
      .jacs.shared-rows .jac > * { margin-block: 0 .4em; }
      /* compact (a slide): the two rows' Jacobians, without the sweep over d_k */
      :host([compact]) .panels > :last-child { display: none; }
    `),
  ];
  static view = gradientView;
}

customElements.define('gradient-view', GradientView);
