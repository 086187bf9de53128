// <token-chips>: the tokens as chips. A chip selects its query row; the learner can edit,
// remove and add tokens. One Tab stop (roving tabindex): ←/→ move, Home/End jump, Enter or
// F2 edits, Delete/Backspace removes, typing in the last field adds. A chip shows at most
// LABEL_CHARS characters of its token (then "…", the token in its tooltip).
//
//   chips.tokens   = string[]             chips.status = ('known' | 'induced' | 'context' | 'unknown' | 'loading')[] | null
//                                          (a word's vectors: GloVe's, induced from the Brown corpus,
//                                          made from the words around it in this sentence, not in the
//                                          vocabulary, or still loading; null: nothing to say, as for
//                                          pasted vectors)
//   chips.selected = number
//   <token-chips compact>: smaller chips (the lab's view="compact")
//   .value → { tokens, selected }: what the learner chose; 'input' and 'change' when they
//            select a chip or change the tokens
import { messageOf } from '../../i18n/i18n.js';
import { checkToken } from '../../lab/tokenize.js';
import { shortLabel } from '../../i18n/format.js';
import { AlElement, define, escapeHtml } from '../base.js';
import { sheet } from '../theme.js';

const styles = sheet(`
  :host { display: block; }
  .list { display: contents; }
  .chips { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 0; padding: 0; }
  .chip { display: inline-flex; align-items: stretch; border: 1px solid var(--_border); border-radius: 999px;
          background: var(--_raised); min-height: 32px; }
  .chip.oov { border-style: dashed; border-color: var(--_warn); background: var(--_warn-bg); }
  .chip.loading { border-style: dotted; }
  .chip.induced .mark { color: var(--_muted); }
  .chip.context { border-style: dashed; }
  .chip.context .mark { color: var(--_muted); }
  .chip.loading .mark { color: var(--_muted); font-weight: 400; }
  .chip.selected { border-color: var(--_accent); background: var(--_accent); color: var(--_accent-text); }
  .tok { border: 0; background: none; padding: 4px 4px 4px 12px; border-radius: 999px 0 0 999px; cursor: pointer;
         font-size: 0.9375rem; white-space: nowrap; color: inherit; }
  .tok:focus-visible { outline-offset: 1px; }
  .mark { font-size: 0.75em; font-weight: 700; margin-left: 3px; color: var(--_warn); }
  .chip.selected .mark { color: inherit; }
  .x { border: 0; background: none; padding: 0 10px 0 6px; border-radius: 0 999px 999px 0; cursor: pointer;
       color: var(--_muted); font-size: 1rem; line-height: 1; }
  .chip.selected .x { color: inherit; opacity: 0.85; }
  .x:hover { color: var(--_danger); }
  .chip.selected .x:hover { color: inherit; opacity: 1; }
  .edit { width: 7em; border: 0; border-radius: 999px; padding: 4px 12px; background: var(--_bg); color: var(--_text); }
  .add { width: 9em; min-height: 32px; border: 1px dashed var(--_control); border-radius: 999px; padding: 4px 12px;
         background: transparent; color: var(--_text); }
  .add::placeholder { color: var(--_muted); }
  /* the lab's view="compact" (a slide): smaller chips, so that about 12 fit in two lines */
  :host([compact]) .chips { gap: 5px; }
  :host([compact]) :is(.chip, .add) { min-height: 28px; }
  :host([compact]) .tok { padding: 2px 3px 2px 10px; font-size: 0.875rem; }
  :host([compact]) .x { padding: 0 8px 0 4px; }
  :host([compact]) .add { width: 8.5em; padding: 2px 10px; font-size: 0.875rem; }
`);

// How a chip shows the status of its word's vectors (a known word has no mark): a class, a
// sign, and the words of the string tables it says them with.
const MARKS = {
  unknown: { class: 'oov', sign: '?', key: 'chips.notInVocabulary' },
  induced: { class: 'induced', sign: '*', key: 'chips.induced' },
  context: { class: 'context', sign: '†', key: 'chips.context' },
  loading: { class: 'loading', sign: '…', key: 'chips.loading' },
};

export class TokenChips extends AlElement {
  static styles = [styles];
  static template = `
    <div class="chips" role="toolbar" data-t-attrs="aria-label:chips.label" aria-describedby="keys">
      <span class="list"></span>
      <input class="add" type="text" data-t-attrs="aria-label:chips.add placeholder:chips.addPlaceholder" autocomplete="off" spellcheck="false">
    </div>
    <p id="keys" class="visually-hidden" data-t="chips.keys"></p>
    <p class="alert" role="alert"></p>`;

  #tokens = [];
  #status = null;
  #selected = 0;
  #focusIndex = 0; // the chip that holds the Tab stop
  #editing = -1;
  #list;
  #add;
  #alert;

  constructor() {
    super();
    this.#list = this.$('.list');
    this.#add = this.$('.add');
    this.#alert = this.$('.alert');
    this.#list.addEventListener('click', (event) => this.#onClick(event));
    this.#list.addEventListener('dblclick', (event) => {
      const i = indexOf(event.target);
      if (i >= 0) this.#startEdit(i);
    });
    this.#list.addEventListener('keydown', (event) => this.#onKey(event));
    this.#add.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && this.#add.value.trim() !== '') {
        event.preventDefault();
        const result = this.#commit(this.#tokens.length, this.#add.value, true);
        if (result) this.#add.value = '';
      }
    });
  }

  set tokens(tokens) {
    if (sameList(tokens, this.#tokens)) return;
    this.#tokens = tokens.slice();
    this.#render();
  }

  get tokens() {
    return this.#tokens.slice();
  }

  /** What the learner chose: the tokens and the selected chip. */
  get value() {
    return { tokens: this.#tokens.slice(), selected: this.#selected };
  }

  set status(status) {
    const same = status === this.#status || (status && this.#status && sameList(status, this.#status));
    this.#status = status;
    if (!same) this.#render();
  }

  set selected(index) {
    if (index === this.#selected) return;
    this.#selected = index;
    this.#focusIndex = index;
    this.#markSelection();
  }

  render() {
    this.#render();
  }

  #render() {
    if (this.#editing >= 0) return; // never pull the field out from under the learner
    const hadFocus = this.shadowRoot.activeElement?.classList.contains('tok');
    this.#focusIndex = Math.min(this.#focusIndex, Math.max(0, this.#tokens.length - 1));
    const s = this.strings;
    const html = this.#tokens.map((token, i) => {
      const status = this.#status?.[i];
      const label = shortLabel(token);
      const shortened = label !== token;
      const mark = MARKS[status];
      return `<span class="chip${mark ? ` ${mark.class}` : ''}" data-i="${i}">` +
        `<button type="button" class="tok" data-i="${i}"${shortened ? ` title="${escapeHtml(s.tipLabel(token))}"` : ''}>${escapeHtml(label)}` +
        (mark ? `<span class="mark" aria-hidden="true" title="${escapeHtml(s.t(mark.key))}">${mark.sign}</span><span class="visually-hidden">, ${escapeHtml(s.t(mark.key))}</span>` : '') +
        `</button><button type="button" class="x" data-i="${i}" tabindex="-1" aria-hidden="true" title="${escapeHtml(s.t('chips.remove', { word: label }))}">×</button></span>`;
    });
    this.#list.innerHTML = html.join('');
    this.#markSelection();
    if (hadFocus) this.#chip(this.#focusIndex)?.focus();
  }

  #markSelection() {
    this.#list.querySelectorAll('.chip').forEach((chip, i) => {
      chip.classList.toggle('selected', i === this.#selected);
      const tok = chip.querySelector('.tok');
      tok.setAttribute('aria-pressed', String(i === this.#selected));
      tok.tabIndex = i === this.#focusIndex ? 0 : -1;
    });
  }

  #chip(i) {
    return this.#list.querySelector(`.tok[data-i="${i}"]`);
  }

  #onClick(event) {
    const button = event.target.closest('button');
    if (!button) return;
    const i = Number(button.dataset.i);
    if (button.classList.contains('x')) this.#remove(i);
    else this.#select(i);
  }

  #select(i) {
    this.#focusIndex = i;
    this.#selected = i;
    this.#markSelection();
    this.emit('input');
    this.emit('change');
  }

  #onKey(event) {
    if (!event.target.classList.contains('tok')) return;
    const i = Number(event.target.dataset.i);
    const last = this.#tokens.length - 1;
    const move = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: last }[event.key];
    if (move !== undefined) {
      event.preventDefault();
      const j = Math.max(0, Math.min(last, move));
      this.#select(j);
      this.#chip(j)?.focus();
    } else if (event.key === 'Enter' || event.key === 'F2') {
      event.preventDefault();
      this.#startEdit(i);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      this.#remove(i);
    }
  }

  #startEdit(i) {
    const chip = this.#list.querySelector(`.chip[data-i="${i}"]`);
    if (!chip) return;
    this.#editing = i;
    const input = document.createElement('input');
    input.className = 'edit';
    input.value = this.#tokens[i];
    input.setAttribute('aria-label', this.strings.t('chips.edit', { index: i + 1 }));
    input.spellcheck = false;
    chip.replaceChildren(input);
    input.focus();
    input.select();
    let done = false;
    const finish = (save) => {
      if (done) return;
      done = true;
      this.#editing = -1;
      if (!save || !this.#commit(i, input.value, false)) this.#render();
      this.#chip(i)?.focus();
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        finish(true);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        finish(false);
      }
    });
    input.addEventListener('blur', () => finish(true));
  }

  // Replaces (or, with `insert`, adds) token i; returns false and shows why when it is invalid.
  #commit(i, text, insert) {
    const checked = checkToken(text);
    const { token, error } = checked;
    if (error) {
      this.#alert.textContent = messageOf(checked, this.strings);
      return false;
    }
    this.#alert.textContent = '';
    const tokens = this.#tokens.slice();
    if (insert) tokens.splice(i, 0, token);
    else if (tokens[i] === token) return true;
    else tokens[i] = token;
    this.#change(tokens);
    return true;
  }

  #remove(i) {
    const tokens = this.#tokens.slice();
    tokens.splice(i, 1);
    this.#focusIndex = Math.min(i, tokens.length - 1);
    this.#change(tokens);
    if (tokens.length > 0) this.#chip(this.#focusIndex)?.focus();
    else this.#add.focus();
  }

  #change(tokens) {
    this.#tokens = tokens;
    this.#status = null; // nothing to say until the lab says
    this.#render();
    this.emit('input');
    this.emit('change');
  }
}

function indexOf(target) {
  const el = target.closest?.('[data-i]');
  return el ? Number(el.dataset.i) : -1;
}

function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

define('token-chips', TokenChips);
