// <attention-output>: the output of attention — the selected query's weights mix the value
// vectors (web/views/output.js). Results: model.output(state) of web/lesson/model.js.
import { sheet } from '../theme.js';
import { outputView } from '../../views/output.js';
import { TexInstrument } from './tex.js';

export class AttentionOutput extends TexInstrument {
  static styles = [
    ...TexInstrument.styles,
    sheet(`
      .formulas { margin: .2em 0 .5em; overflow-x: auto; }
      /* the hidden name of the last column stays inside the scrolling table */
      .scroll { position: relative; }
      td.vec, td.more { font-family: var(--_mono); font-size: 12px; }
      td.more { color: var(--_muted); }
      td.weight { text-align: left; }
      td.weight span { display: inline-block; min-width: 3.2em; }
      .wbar { display: inline-block; vertical-align: middle; margin-left: .3em; }
      tr.rest th, tr.rest td { color: var(--_muted); }
      td.note { text-align: left; white-space: normal; }
      tfoot tr.out th, tfoot tr.out td { font-weight: 700; border-top: 2px solid var(--_text); border-bottom: none; }
      /* a phone: tighter cells, so the table of two components fits its card (web/views/output.js) */
      @media (max-width: 420px) { th, td { padding-inline: .35em; } }
    `),
  ];
  static view = outputView;
}

customElements.define('attention-output', AttentionOutput);
