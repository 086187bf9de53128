// <step-by-step>: claim 4 and the formula, one number at a time (web/views/step.js), typeset by
// KaTeX. Results: model.step(state, lesson) of web/lesson/model.js. Choosing a key requests
// { key } (`input` and `change`; the lesson keeps it as its own setting).
import { TYPE_CSS, sheet } from '../theme.js';
import { stepView } from '../../views/step.js';
import { TexInstrument } from './tex.js';

export class StepByStep extends TexInstrument {
  static styles = [
    ...TexInstrument.styles,
    sheet(`
      .formulas { display: flex; flex-wrap: wrap; gap: .6em 2.5em; margin: .8em 0 1em; }
      .formula { max-width: 100%; }
      .keys { display: flex; flex-wrap: wrap; gap: .3em; margin: .3em 0 .8em; align-items: center; }
      .keys button { font-size: ${TYPE_CSS.note}; min-height: 24px; min-width: 24px; padding: .15em .6em; border-radius: 999px; border: 1px solid var(--_grid);
        background: var(--_bg); color: var(--_text); cursor: pointer; }
      .keys button[aria-pressed="true"] { background: var(--_accent); border-color: var(--_accent); color: var(--_accent-text); }
      ol { padding-left: 1.4em; margin: 0; }
      li { margin: .45em 0; }
      .step { display: flex; flex-wrap: wrap; gap: .2em .8em; align-items: baseline; }
      .vec { font-variant-numeric: tabular-nums; font-family: var(--_mono); font-size: ${TYPE_CSS.note}; overflow-wrap: anywhere; }
      .word { color: var(--_muted); overflow-wrap: anywhere; }
      .sel { background: color-mix(in oklab, var(--_accent) 14%, transparent); }
      .ok { color: var(--_muted); }
    `),
  ];
  static view = stepView;

  constructor() {
    super();
    this.shadowRoot.addEventListener('click', (event) => {
      const button = event.target.closest?.('button[data-key]');
      if (!button) return;
      this.request({ key: Number(button.dataset.key) }, 'input');
      this.request({ key: Number(button.dataset.key) }, 'change');
    });
  }
}

customElements.define('step-by-step', StepByStep);
