// <variance-lab>: claim 1, measured — the variance of q·k against d_k (web/views/variance.js).
// Results: model.variance(state) of web/lesson/model.js.
import { sheet } from '../theme.js';
import { varianceView } from '../../views/variance.js';
import { Instrument } from './instrument.js';

export class VarianceLab extends Instrument {
  // compact (a slide): the variance against d_k alone, which the prediction asks about
  static styles = [...Instrument.styles, sheet(':host([compact]) .panels > :first-child { display: none; }')];
  static view = varianceView;
}

customElements.define('variance-lab', VarianceLab);
