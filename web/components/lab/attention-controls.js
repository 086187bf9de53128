// <attention-controls>: the settings of the lab as form controls. Shows a settings object; what
// the reader changes goes out the platform's way: `.value` holds the settings with the change,
// then an 'input' event (a slider while it moves, a switch, a valid seed), and 'change' once it
// is settled (a slider let go). It holds no state of its own beyond what it shows.
//
//   controls.value = { projection, dk, seed, scaled, temperature, causal, positional,
//                      hasPaste, d (the width in use), scale (the factor the core applied) }
//   controls.value → the same with the reader's change, e.g. { …, dk: 256 }
//   <attention-controls compact>: only d_k, the √d_k switch and the temperature, without the
//   temperature's hint (the lab's view="compact" sets it; attention-lab.js says why these three)
import { DK_STEPS, TEMPERATURE_STEPS } from '../../lab/settings.js';
import { AlElement, define, setHidden, setText } from '../base.js';
import { sheet } from '../theme.js';

const styles = sheet(`
  :host { display: block; font-size: 0.9375rem; }
  form { display: grid; gap: 14px; margin: 0; }
  fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
  legend, .name { font-weight: 600; font-size: 0.875rem; padding: 0; margin-bottom: 6px; }
  .segmented { display: grid; grid-template-columns: repeat(3, 1fr); border: 1px solid var(--_border); border-radius: 8px; overflow: hidden; }
  .segmented label { position: relative; display: flex; }
  .segmented label + label { border-left: 1px solid var(--_border); }
  .segmented input { position: absolute; opacity: 0; inset: 0; margin: 0; cursor: pointer; }
  .segmented span { flex: 1; text-align: center; padding: 6px 4px; font-size: 0.8125rem; cursor: pointer; }
  .segmented input:checked + span { background: var(--_accent); color: var(--_accent-text); font-weight: 600; }
  .segmented input:focus-visible + span { outline: 2px solid var(--_focus); outline-offset: -3px; border-radius: 6px; }
  .segmented input:disabled + span { color: var(--_muted); opacity: 0.6; cursor: not-allowed; }
  .field { display: grid; gap: 4px; }
  .top { display: flex; justify-content: space-between; align-items: baseline; gap: 8px; }
  .top label { font-weight: 600; font-size: 0.875rem; }
  output { font-family: var(--_mono); font-size: 0.875rem; font-variant-numeric: tabular-nums; }
  /* every control at least 24 × 24 px (WCAG 2.2's target size) */
  input[type="range"] { width: 100%; height: 24px; margin: 0; accent-color: var(--_accent); }
  /* a control that does not apply stays in the Tab order (aria-disabled), and says why (its hint) */
  [aria-disabled="true"] { opacity: 0.5; cursor: not-allowed; }
  /* a read-only field keeps its text at full contrast (it can still be read and copied) */
  .seed input[readonly] { border-style: dashed; background: transparent; cursor: not-allowed; }
  .check { display: flex; align-items: center; gap: 10px; min-height: 24px; cursor: pointer; font-weight: 600; font-size: 0.875rem; }
  .check input { width: 24px; height: 24px; margin: 0; accent-color: var(--_accent); flex: none; }
  input[role="switch"] { appearance: none; width: 42px; height: 24px; border-radius: 999px; background: var(--_track);
    border: 1px solid var(--_control); position: relative; cursor: pointer; transition: background 0.12s; }
  input[role="switch"]::after { content: ""; position: absolute; top: 2px; left: 2px; width: 18px; height: 18px; border-radius: 50%;
    background: var(--_muted); transition: transform 0.12s; }
  input[role="switch"]:checked { background: var(--_accent); border-color: var(--_accent); }
  input[role="switch"]:checked::after { transform: translateX(18px); background: var(--_accent-text); }
  .hint { margin: 0; }
  .hint.indent { margin-left: 52px; }
  .hint.indent-check { margin-left: 34px; }
  .seed input { width: 100%; padding: 5px 8px; border: 1px solid var(--_control); border-radius: 6px; background: var(--_bg); font-family: var(--_mono); }
  .group { display: grid; gap: 8px; }
  :host([compact]) :is(fieldset, .flags, .seed, #t-hint) { display: none; }
  /* a phone: the temperature's hint is the lesson's own sentence (its last step); it stays the
     slider's description */
  @media (max-width: 420px) { #t-hint { display: none; } }
  :host([compact]) form { gap: 10px; }
`);

export class AttentionControls extends AlElement {
  static styles = [styles];
  static template = `
      <form novalidate>
        <fieldset>
          <legend data-t="controls.projection"></legend>
          <div class="segmented">
            <label><input type="radio" name="projection" value="identity" aria-describedby="proj-hint pasted-hint"><span data-t="controls.identity"></span></label>
            <label><input type="radio" name="projection" value="random" aria-describedby="proj-hint pasted-hint"><span data-t="controls.randomLabel"></span></label>
            <label><input type="radio" name="projection" value="pasted" aria-describedby="proj-hint pasted-hint"><span data-t="controls.pasted"></span></label>
          </div>
          <p class="hint" id="proj-hint"></p>
          <p class="hint" id="pasted-hint" hidden></p>
        </fieldset>

        <div class="field">
          <div class="top"><label for="dk">d<sub>k</sub> <span class="hint" data-t="controls.dkWidth"></span></label><output id="dk-out" for="dk"></output></div>
          <input id="dk" type="range" min="0" max="${DK_STEPS.length - 1}" step="1" data-t-attrs="aria-label:controls.dkName" aria-describedby="dk-fixed">
          <p class="hint" id="dk-fixed" hidden></p>
        </div>

        <div class="group">
          <label class="check"><input id="scaled" type="checkbox" role="switch" data-t-attrs="aria-label:controls.scaleName" aria-describedby="scale-hint">
            <span data-t-html="controls.scaleHtml"></span></label>
          <p class="hint indent" id="scale-hint"></p>
        </div>

        <div class="field">
          <div class="top"><label for="temperature" data-t="controls.temperature"></label><output id="t-out" for="temperature"></output></div>
          <input id="temperature" type="range" min="0" max="${TEMPERATURE_STEPS.length - 1}" step="1" aria-describedby="t-hint">
          <p class="hint" id="t-hint" data-t="controls.temperatureHint"></p>
        </div>

        <div class="group flags">
          <label class="check"><input id="causal" type="checkbox" aria-describedby="causal-hint"> <span data-t="controls.causal"></span></label>
          <p class="hint indent-check" id="causal-hint" data-t="controls.causalHint"></p>
          <label class="check"><input id="positional" type="checkbox" aria-describedby="pe-hint"> <span data-t="controls.positional"></span></label>
          <p class="hint indent-check" id="pe-hint"></p>
        </div>

        <div class="field seed">
          <div class="top"><label for="seed" data-t="controls.seed"></label></div>
          <input id="seed" type="number" inputmode="numeric" min="0" max="4294967295" step="1" aria-describedby="seed-hint seed-fixed seed-invalid">
          <p class="hint" id="seed-hint" data-t-html="controls.seedHtml"></p>
          <p class="hint" id="seed-fixed" hidden></p>
          <p class="alert" id="seed-invalid" aria-live="polite"></p>
        </div>
      </form>`;

  #value = null;
  #projHint = '';
  #els;

  constructor() {
    super();
    const root = this.shadowRoot;
    const $ = (id) => root.getElementById(id);
    this.#els = {
      form: root.querySelector('form'),
      radios: [...root.querySelectorAll('input[name="projection"]')],
      projHint: $('proj-hint'),
      dk: $('dk'),
      dkFixed: $('dk-fixed'),
      pastedHint: $('pasted-hint'),
      seedFixed: $('seed-fixed'),
      seedInvalid: $('seed-invalid'),
      dkOut: $('dk-out'),
      scaled: $('scaled'),
      scaleHint: $('scale-hint'),
      temperature: $('temperature'),
      tOut: $('t-out'),
      causal: $('causal'),
      positional: $('positional'),
      peHint: $('pe-hint'),
      seedHint: $('seed-hint'),
      seed: $('seed'),
    };
    this.#els.form.addEventListener('submit', (event) => event.preventDefault());
    // a control that does not apply now (aria-disabled) keeps its focus but takes no change
    const blocked = (event) => event.target.getAttribute?.('aria-disabled') === 'true';
    this.#els.form.addEventListener('keydown', (event) => {
      if (blocked(event) && CHANGING_KEYS.has(event.key)) event.preventDefault();
    });
    for (const type of ['pointerdown', 'click']) this.#els.form.addEventListener(type, (event) => {
      if (blocked(event)) event.preventDefault();
    });
  }

  set value(value) {
    this.#value = value;
    this.invalidate();
  }

  get value() {
    return this.#value;
  }

  render() {
    const value = this.#value;
    if (!value) return;
    const e = this.#els;
    const random = value.projection === 'random';
    for (const radio of e.radios) {
      radio.checked = radio.value === value.projection;
      radio.disabled = radio.value === 'pasted' && !value.hasPaste;
    }
    const strings = this.strings;
    const projHint = strings.html(PROJECTION_HINTS[value.projection]);
    if (this.#projHint !== projHint) e.projHint.innerHTML = this.#projHint = projHint;
    showHint(e.pastedHint, value.hasPaste ? '' : strings.t('controls.pastedNeedsPaste'));
    const step = nearestStep(DK_STEPS, random ? value.dk : value.d);
    e.dk.value = String(step);
    setDisabled(e.dk, !random);
    showHint(e.dkFixed, random ? '' : strings.t('controls.dkFixed', { d: String(value.d), projection: strings.t(`controls.${value.projection}`) }));
    e.dk.setAttribute('aria-valuetext', `d_k = ${random ? value.dk : value.d}`);
    setText(e.dkOut, String(random ? value.dk : value.d ?? '—'));
    e.scaled.checked = value.scaled;
    setText(e.scaleHint, Number.isFinite(value.scale)
      ? value.scaled
        ? strings.t('controls.scaleOn', { factor: strings.fixed(value.scale, 4), d: String(value.d) })
        : strings.t('controls.scaleOff')
      : '');
    const t = nearestStep(TEMPERATURE_STEPS, value.temperature);
    e.temperature.value = String(t);
    e.temperature.setAttribute('aria-valuetext', `T = ${strings.fmt(value.temperature)}`);
    setText(e.tOut, strings.fmt(value.temperature));
    e.causal.checked = value.causal;
    e.positional.checked = value.positional;
    setDisabled(e.positional, value.projection === 'pasted');
    setText(e.peHint, strings.t(value.projection === 'pasted' ? 'controls.positionalPasted' : 'controls.positionalHint'));
    if (this.shadowRoot.activeElement !== e.seed) e.seed.value = String(value.seed);
    e.seed.readOnly = !random;
    showHint(e.seedFixed, random ? '' : strings.t('controls.seedFixed'));
    setHidden(e.seedHint, !random); // off Random, seedFixed says whose seed it is: one hint, not two
    setText(e.seedInvalid, e.seed.getAttribute('aria-invalid') === 'true' ? strings.t('controls.seedInvalid', { max: '4294967295' }) : '');
  }

  // Every control fires a native 'input' as it changes (checkboxes and radios included) and
  // 'change' when settled; the seed field is reset on leaving it with an invalid number.
  onInnerInput(event) {
    const target = event.target;
    const e = this.#els;
    // a value set on a control that does not apply (by assistive technology, say) is put back
    if (target.getAttribute('aria-disabled') === 'true') return this.render();
    if (event.type === 'change') {
      if (target === e.seed && target.getAttribute('aria-invalid') === 'true') {
        target.value = String(this.#value?.seed ?? 1);
        target.setAttribute('aria-invalid', 'false');
        this.invalidate();
      } else if (this.#value) this.emit('change');
      return;
    }
    let patch = null;
    if (target.name === 'projection') patch = { projection: target.value };
    else if (target === e.dk) patch = { dk: DK_STEPS[Number(target.value)] };
    else if (target === e.temperature) patch = { temperature: TEMPERATURE_STEPS[Number(target.value)] };
    else if (target === e.scaled) patch = { scaled: target.checked };
    else if (target === e.causal) patch = { causal: target.checked };
    else if (target === e.positional) patch = { positional: target.checked };
    else if (target === e.seed) {
      const seed = Number(target.value);
      const ok = target.value !== '' && Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff;
      target.setAttribute('aria-invalid', String(!ok));
      this.invalidate(); // its message
      if (ok) patch = { seed };
    }
    if (!patch || !this.#value) return;
    this.#value = { ...this.#value, ...patch };
    this.emit('input');
  }
}

// Keys that change a slider or a checkbox: a control that does not apply takes none of them.
const CHANGING_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown', ' ']);

// Marks a control that does not apply now: it stays focusable, and its hint says why.
function setDisabled(control, disabled) {
  if (disabled) control.setAttribute('aria-disabled', 'true');
  else control.removeAttribute('aria-disabled');
}

// A hint a control is described by: shown with its text, or hidden and empty (a description is
// read from a hidden element too).
function showHint(element, text) {
  setHidden(element, !text);
  setText(element, text);
}

// The hint under the projection, for each choice.
const PROJECTION_HINTS = { identity: 'controls.identityHtml', random: 'controls.randomHtml', pasted: 'controls.pastedHtml' };

// The index of the stop closest to x (the sliders move in steps; attributes may give any value).
function nearestStep(steps, x) {
  let best = 0;
  for (let k = 1; k < steps.length; k++) if (Math.abs(steps[k] - x) < Math.abs(steps[best] - x)) best = k;
  return best;
}

define('attention-controls', AttentionControls);
