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
      /* compact (a slide): the two rows' Jacobians, without the sweep over d_k */
      :host([compact]) .panels > :last-child { display: none; }
    `),
  ];
  static view = gradientView;
}

customElements.define('gradient-view', GradientView);
