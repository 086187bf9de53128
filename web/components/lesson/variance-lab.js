// <variance-lab>: claim 1, measured — the variance of q·k against d_k (web/views/variance.js).
// Results: model.variance(state) of web/lesson/model.js.
import { varianceView } from '../../views/variance.js';
import { Instrument } from './instrument.js';

export class VarianceLab extends Instrument {
  static view = varianceView;
}

customElements.define('variance-lab', VarianceLab);
