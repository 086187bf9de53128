// <saturation-plot>: claim 2, measured — unscaled rows saturate as d_k grows
// (web/views/saturation.js). Results: model.saturation(state) of web/lesson/model.js.
import { sheet } from '../theme.js';
import { saturationView } from '../../views/saturation.js';
import { Instrument } from './instrument.js';

export class SaturationPlot extends Instrument {
  // compact (a slide): each row's largest weight alone, which the prediction asks about
  static styles = [...Instrument.styles, sheet(':host([compact]) .panels > :last-child { display: none; }')];
  static view = saturationView;
}

customElements.define('saturation-plot', SaturationPlot);
