// <vector-paste>: "Bring your own vectors". Q, K and (optionally) V typed or pasted as numbers
// — CSV-like rows or JSON arrays — for a worked example. A bad paste shows an inline alert
// naming the matrix, row and column; the lab keeps its previous vectors.
//
//   .value   { q, k, v }: the text of the three fields (as a text field's value)
//   .vectors the last good paste: parseVectors' result (web/lab/paste.js), or null
//   .inUse   the pasted vectors the lab's result on screen comes from (the lab sets it), or null:
//            the status line says what the lab shows, not what was last parsed
//   .error   why the lab could not use the last paste (the lab sets it; '' when it could)
//   'input' and 'change' when the reader uses a good paste ("Use these vectors", "Example")
import { messageOf } from '../../i18n/i18n.js';
import { checkSize, parseVectors } from '../../lab/paste.js';
import { AlElement, define } from '../base.js';
import { sheet } from '../theme.js';

const styles = sheet(`
  :host { display: block; }
  details > summary { cursor: pointer; font-weight: 600; font-size: 1rem; padding: 2px 0; }
  details[open] > summary { margin-bottom: 10px; }
  .grid { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); }
  label { display: grid; gap: 4px; font-weight: 600; font-size: 0.875rem; }
  label .hint { font-weight: 400; }
  textarea { min-height: 7.5em; resize: vertical; padding: 8px; border: 1px solid var(--_control); border-radius: 6px;
    background: var(--_bg); font-family: var(--_mono); font-size: 0.8125rem; line-height: 1.45; tab-size: 4; }
  textarea[aria-invalid="true"] { border-color: var(--_danger); box-shadow: 0 0 0 1px var(--_danger); }
  .actions { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; margin-top: 10px; }
  button { padding: 7px 14px; border-radius: 6px; border: 1px solid var(--_border); background: var(--_raised); cursor: pointer; font-size: 0.875rem; }
  button.primary { background: var(--_accent); border-color: var(--_accent); color: var(--_accent-text); font-weight: 600; }
  .status { font-size: 0.8125rem; color: var(--_muted); }
`);

// Characters of a field's own text counted with a paste (more can never be within the bound).
const MAX_KEPT = 1 << 21;

// A worked example: three keys in 3-d, two queries; labels name the rows.
const EXAMPLE = {
  q: 'it,  0.9, 0.1, 0.4\nmat, 0.0, 1.0, 0.2',
  k: 'cat, 1.0, 0.0, 0.5\nsat, 0.2, 0.3, 0.1\nmat, 0.0, 1.0, 0.3',
  v: '',
};

export class VectorPaste extends AlElement {
  static styles = [styles];
  static template = `
      <details>
        <summary data-t="paste.title"></summary>
        <p class="hint" data-t-html="paste.helpHtml"></p>
        <form class="grid" novalidate>
          <label>Q <span class="hint" data-t-html="paste.qHtml"></span><textarea name="q" spellcheck="false" autocomplete="off"></textarea></label>
          <label>K <span class="hint" data-t-html="paste.kHtml"></span><textarea name="k" spellcheck="false" autocomplete="off"></textarea></label>
          <label>V <span class="hint" data-t-html="paste.vHtml"></span><textarea name="v" spellcheck="false" autocomplete="off"></textarea></label>
        </form>
        <div class="actions">
          <button type="button" class="primary" data-action="use" data-t="paste.use"></button>
          <button type="button" data-action="example" data-t="paste.example"></button>
          <span class="status" aria-live="polite"></span>
        </div>
        <p class="alert" role="alert"></p>
      </details>`;

  #fields;
  #alert;
  #status;
  #vectors = null;
  #inUse = null;
  #error = null; // the last problem of the paste, kept to show it again in another language
  #labError = ''; // the lab's reason for not using the last paste, in the lab's language

  constructor() {
    super();
    const root = this.shadowRoot;
    const form = root.querySelector('form');
    this.#fields = { q: form.elements.q, k: form.elements.k, v: form.elements.v };
    this.#alert = root.querySelector('.alert');
    this.#status = root.querySelector('.status');
    for (const [name, text] of Object.entries(EXAMPLE)) this.#fields[name].value = text;
    // A paste or a drop past the bound (web/lab/paste.js checkSize) is refused before the text
    // reaches the field: laying out megabytes of lines froze the page for seconds.
    for (const [name, field] of Object.entries(this.#fields)) {
      const guard = (event) => {
        const data = event.clipboardData ?? event.dataTransfer;
        const text = data?.getData('text/plain') ?? data?.getData('text') ?? '';
        const kept = field.value.length - (field.selectionEnd - field.selectionStart);
        if (!this.#tooLarge(name, text, kept)) return;
        event.preventDefault();
        field.setAttribute('aria-invalid', 'true');
      };
      field.addEventListener('paste', guard);
      field.addEventListener('drop', guard);
    }
    root.querySelector('[data-action="use"]').addEventListener('click', () => this.apply());
    root.querySelector('[data-action="example"]').addEventListener('click', () => {
      for (const [name, text] of Object.entries(EXAMPLE)) this.#fields[name].value = text;
      this.apply();
    });
  }

  // Typing in a field clears its error mark (the native events stop at the shadow root).
  onInnerInput(event) {
    if (event.type === 'input') event.target.removeAttribute('aria-invalid');
  }

  /** Sets the text of the fields: { q, k, v } (any may be omitted; a text past the bound is refused, and said). */
  set value(text) {
    for (const name of ['q', 'k', 'v']) if (typeof text[name] === 'string' && !this.#tooLarge(name, text[name], 0)) this.#fields[name].value = text[name];
  }

  // Whether `text` (to go into field `name` beside `kept` characters) is past the bound; if so the alert says so.
  #tooLarge(name, text, kept) {
    try {
      checkSize(kept > 0 ? text + ' '.repeat(Math.min(kept, MAX_KEPT)) : text, name.toUpperCase());
      return false;
    } catch (error) {
      this.#error = error;
      this.#showStatus();
      return true;
    }
  }

  get value() {
    return { q: this.#fields.q.value, k: this.#fields.k.value, v: this.#fields.v.value };
  }

  /** The last good paste (parseVectors' result), or null. */
  get vectors() {
    return this.#vectors;
  }

  /** Opens the panel. */
  open() {
    this.shadowRoot.querySelector('details').open = true;
  }

  /** Parses the fields; on success they are `.vectors` ('input', 'change'), else it shows why. Returns true on success. */
  apply() {
    for (const field of Object.values(this.#fields)) field.removeAttribute('aria-invalid');
    let parsed;
    try {
      parsed = parseVectors(this.value);
    } catch (error) {
      this.#error = error;
      const field = error.matrix && this.#fields[error.matrix.toLowerCase()];
      field?.setAttribute('aria-invalid', 'true');
      this.#showStatus();
      return false;
    }
    this.#error = null;
    this.#labError = '';
    this.#vectors = parsed;
    this.#showStatus();
    this.emit('input');
    this.emit('change');
    return true;
  }

  /** Why the lab could not use the last paste (e.g. the core rejected its numbers as overflowing), or ''. */
  set error(message) {
    this.#labError = message || '';
    this.#showStatus();
  }

  /** The pasted vectors (parseVectors' result) the lab's result on screen comes from, or null. */
  set inUse(vectors) {
    if (vectors === this.#inUse) return;
    this.#inUse = vectors ?? null;
    this.#showStatus();
  }

  get inUse() {
    return this.#inUse;
  }

  stringsChanged() {
    this.#showStatus();
  }

  // The alert and the status line, in the language of now.
  #showStatus() {
    const s = this.strings;
    const problem = this.#error ? messageOf(this.#error, s) : this.#labError;
    // "the previous vectors are still in use" only when some are
    this.#alert.textContent = !problem ? '' : this.#inUse ? s.t('paste.stillInUse', { message: problem }) : problem;
    const v = this.#inUse;
    this.#status.textContent = v
      ? s.t('paste.using', { queries: { key: 'paste.queries', params: { count: v.n } }, keys: { key: 'paste.keys', params: { count: v.m } }, d: v.d, dv: v.v ? { key: 'paste.dv', params: { dv: v.dv } } : '' })
      : '';
  }
}

define('vector-paste', VectorPaste);
