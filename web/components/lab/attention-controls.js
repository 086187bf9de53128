// <attention-controls>: the settings of the lab as form controls. Shows a settings object; what
// the reader changes goes out the platform's way: `.value` holds the settings with the change,
// then an 'input' event (a slider while it moves, a switch, a valid seed), and 'change' once it
// is settled (a slider let go). It holds no state of its own beyond what it shows.
//
//   controls.value = { projection, dk, seed, scaled, temperature, causal, positional,
//                      hasPaste, d (the width in use), scale (the factor the core applied) }
//   controls.value → the same with the reader's change, e.g. { …, dk: 256 }
import { DK_STEPS, TEMPERATURE_STEPS } from '../../lab/settings.js';
import { fixed } from '../../views/format.js';
import { AlElement, setText } from '../base.js';
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
  input[type="range"] { width: 100%; margin: 4px 0; accent-color: var(--_accent); }
  input[type="range"]:disabled { opacity: 0.45; }
  .check { display: flex; align-items: center; gap: 10px; cursor: pointer; font-weight: 600; font-size: 0.875rem; }
  .check input { width: 18px; height: 18px; margin: 0; accent-color: var(--_accent); flex: none; }
  input[role="switch"] { appearance: none; width: 34px; height: 20px; border-radius: 999px; background: var(--_track);
    border: 1px solid var(--_control); position: relative; cursor: pointer; transition: background 0.12s; }
  input[role="switch"]::after { content: ""; position: absolute; top: 2px; left: 2px; width: 14px; height: 14px; border-radius: 50%;
    background: var(--_muted); transition: transform 0.12s; }
  input[role="switch"]:checked { background: var(--_accent); border-color: var(--_accent); }
  input[role="switch"]:checked::after { transform: translateX(14px); background: var(--_accent-text); }
  .hint { margin: 0; }
  .hint.indent { margin-left: 44px; }
  .hint.indent-check { margin-left: 28px; }
  .seed input { width: 100%; padding: 5px 8px; border: 1px solid var(--_control); border-radius: 6px; background: var(--_bg); font-family: var(--_mono); }
  .seed input:disabled { opacity: 0.5; }
  sub { font-size: 0.75em; }
  .group { display: grid; gap: 8px; }
`);

export class AttentionControls extends AlElement {
  static styles = [styles];
  static template = `
      <form novalidate>
        <fieldset>
          <legend>Projection</legend>
          <div class="segmented">
            <label><input type="radio" name="projection" value="identity" aria-describedby="proj-hint"><span>Identity</span></label>
            <label><input type="radio" name="projection" value="random" aria-describedby="proj-hint"><span>Random</span></label>
            <label><input type="radio" name="projection" value="pasted" aria-describedby="proj-hint"><span>Pasted</span></label>
          </div>
          <p class="hint" id="proj-hint"></p>
        </fieldset>

        <div class="field">
          <div class="top"><label for="dk">d<sub>k</sub> <span class="hint">(width of q and k)</span></label><output id="dk-out" for="dk"></output></div>
          <input id="dk" type="range" min="0" max="${DK_STEPS.length - 1}" step="1" aria-label="d_k">
        </div>

        <div class="group">
          <label class="check"><input id="scaled" type="checkbox" role="switch" aria-label="Scale by √d_k" aria-describedby="scale-hint">
            <span>Scale by √d<sub>k</sub></span></label>
          <p class="hint indent" id="scale-hint"></p>
        </div>

        <div class="field">
          <div class="top"><label for="temperature">Temperature</label><output id="t-out" for="temperature"></output></div>
          <input id="temperature" type="range" min="0" max="${TEMPERATURE_STEPS.length - 1}" step="1" aria-describedby="t-hint">
          <p class="hint" id="t-hint">softmax(scores / T): low T sharpens, high T flattens.</p>
        </div>

        <div class="group">
          <label class="check"><input id="causal" type="checkbox" aria-describedby="causal-hint"> <span>Causal mask</span></label>
          <p class="hint indent-check" id="causal-hint">Each token sees only itself and earlier tokens.</p>
          <label class="check"><input id="positional" type="checkbox" aria-describedby="pe-hint"> <span>Positional encoding</span></label>
          <p class="hint indent-check" id="pe-hint">Adds sin/cos of the position to each word vector.</p>
        </div>

        <div class="field seed">
          <div class="top"><label for="seed">Seed</label></div>
          <input id="seed" type="number" inputmode="numeric" min="0" max="4294967295" step="1" aria-describedby="seed-hint">
          <p class="hint" id="seed-hint">Picks the random W<sub>Q</sub> and W<sub>K</sub>.</p>
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
      dkOut: $('dk-out'),
      scaled: $('scaled'),
      scaleHint: $('scale-hint'),
      temperature: $('temperature'),
      tOut: $('t-out'),
      causal: $('causal'),
      positional: $('positional'),
      seed: $('seed'),
    };
    this.#els.form.addEventListener('submit', (event) => event.preventDefault());
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
    const projHint = {
      identity: 'q = k = x: attention by word similarity; d<sub>k</sub> = 100.',
      random: 'q = x·W<sub>Q</sub>, k = x·W<sub>K</sub>: seeded random 100 × d<sub>k</sub> matrices.',
      pasted: 'Q and K as pasted under “Bring your own vectors”.',
    }[value.projection];
    if (this.#projHint !== projHint) e.projHint.innerHTML = this.#projHint = projHint;
    const step = nearestStep(DK_STEPS, random ? value.dk : value.d);
    e.dk.value = String(step);
    e.dk.disabled = !random;
    e.dk.setAttribute('aria-valuetext', `d_k = ${random ? value.dk : value.d}`);
    setText(e.dkOut, String(random ? value.dk : value.d ?? '—'));
    e.scaled.checked = value.scaled;
    setText(e.scaleHint, Number.isFinite(value.scale)
      ? value.scaled
        ? `scores = q·k × ${fixed(value.scale, 4)} (= 1/√${value.d})`
        : 'scores = q·k, unscaled'
      : '');
    const t = nearestStep(TEMPERATURE_STEPS, value.temperature);
    e.temperature.value = String(t);
    e.temperature.setAttribute('aria-valuetext', `T = ${value.temperature}`);
    setText(e.tOut, String(value.temperature));
    e.causal.checked = value.causal;
    e.positional.checked = value.positional;
    e.positional.disabled = value.projection === 'pasted';
    if (this.shadowRoot.activeElement !== e.seed) e.seed.value = String(value.seed);
    e.seed.disabled = !random;
  }

  // Every control fires a native 'input' as it changes (checkboxes and radios included) and
  // 'change' when settled; the seed field is reset on leaving it with an invalid number.
  onInnerInput(event) {
    const target = event.target;
    const e = this.#els;
    if (event.type === 'change') {
      if (target === e.seed && target.getAttribute('aria-invalid') === 'true') {
        target.value = String(this.#value?.seed ?? 1);
        target.setAttribute('aria-invalid', 'false');
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
      if (ok) patch = { seed };
    }
    if (!patch || !this.#value) return;
    this.#value = { ...this.#value, ...patch };
    this.emit('input');
  }
}

// The index of the stop closest to x (the sliders move in steps; attributes may give any value).
function nearestStep(steps, x) {
  let best = 0;
  for (let k = 1; k < steps.length; k++) if (Math.abs(steps[k] - x) < Math.abs(steps[best] - x)) best = k;
  return best;
}

customElements.define('attention-controls', AttentionControls);
