// <saturation-plot>: claim 2, measured — unscaled rows saturate as d_k grows
// (web/views/saturation.js). Results: model.saturation(state) of web/lesson/model.js.
import { saturationView } from '../../views/saturation.js';
import { Instrument } from './instrument.js';

export class SaturationPlot extends Instrument {
  static view = saturationView;
}

customElements.define('saturation-plot', SaturationPlot);
