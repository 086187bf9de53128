// <lab-share for="lab">: share and take away what an <attention-lab> shows. "Copy link" copies a
// link to the lab's page (index.html) that reopens these settings; "Copy embed code" an <iframe>
// of embed.html with them, for a lesson page. Exports: the heatmap and the selected query's bars
// as PNG and SVG, the numbers as CSV and JSON (web/views/export.js: the page's own views).
// Links point at the pages beside this module, wherever the element itself is used. It speaks
// its lab's language (the lab's strings, web/i18n/).
//
//   <lab-share for="lab"></lab-share>
//   share.page = { theme, layout, view, lang, share } the page's own URL options, kept in the links
//   share.frameHeight = 1234               the iframe's height in the embed code (default: measured
//                                          in a lesson column, COLUMN_WIDTH)
//   share.link, share.embedCode            what the buttons copy
//   await share.export('heatmap', 'png')   → { name, type, blob, width, height } (export.js), in the
//                                          colours chosen on the panel (as on screen, light or
//                                          dark; a transparent background for slides), or
//   await share.export('bars', 'svg', { colours: 'dark', background: false })
// Types in lab-share.d.ts.
import { writeUrl } from '../../lab/url.js';
import { EXPORTS, exportFile } from '../../views/export.js';
import { messageOf } from '../../i18n/i18n.js';
import { AlElement, define, escapeHtml, setHidden, takeEarlyProperties } from '../base.js';
import { readTheme, sheet } from '../theme.js';
import { THEMES } from '../../views/theme.js';

const PAGE_URL = new URL('../../index.html', import.meta.url);
const EMBED_URL = new URL('../../embed.html', import.meta.url);
const RESIZER_URL = new URL('../../embed.js', import.meta.url);
const FRAME_STEP = 10; // px: the embed code's height is rounded up to this
// The width the embed code's height is measured at: a lesson platform's text column (Canvas's and
// Moodle's page body, a Quarto or MkDocs article are 700–800 px), not the copying window — the
// lab is far taller in one column than in the three a wide window gives it.
export const COLUMN_WIDTH = 760;
const EMBED_PADDING = 8; // px: embed.html's <main> padding (web/styles/embed.css)
const EMBED_SHARE_GAP = 16; // px: the share panel's margin-top there
// The frame's title names the sentence by its start: a title is read aloud whole, and the code
// stays a few kilobytes whatever was pasted (the address itself is bounded by web/lab/url.js).
const TITLE_CHARS = 80;
const shortened = (text) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TITLE_CHARS ? flat : `${flat.slice(0, TITLE_CHARS - 1).trimEnd()}…`;
};
// The words of each export (the string tables' keys, named here so that their test finds them).
const NAMES = { heatmap: 'share.heatmap', bars: 'share.bars', numbers: 'share.numbers' };
// The colours a figure may be exported in: the lab's as shown, or one theme whatever the reader's.
const COLOURS = { shown: 'share.coloursShown', light: 'share.coloursLight', dark: 'share.coloursDark' };

const styles = sheet(`
  :host { display: block; font-family: var(--_font); color: var(--_text); background: var(--_surface);
    border: 1px solid var(--_border); border-radius: 12px; padding: 16px; }
  h2 { margin: 0 0 4px; font-size: 1rem; font-weight: 650; }
  .hint { margin: 0 0 12px; }
  .row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 10px; margin: 0 0 10px; }
  .group { display: inline-flex; align-items: center; gap: 6px; margin-right: 8px; }
  .name { font-size: 0.875rem; font-weight: 600; }
  button { min-height: 32px; padding: 4px 12px; border-radius: 8px; border: 1px solid var(--_border); background: var(--_raised);
    cursor: pointer; font-size: 0.875rem; }
  button:hover { border-color: var(--_accent); }
  button.primary { background: var(--_accent); border-color: var(--_accent); color: var(--_accent-text); font-weight: 600; }
  select { min-height: 32px; padding: 4px 8px; border-radius: 8px; border: 1px solid var(--_control); background: var(--_raised);
    color: var(--_text); font: inherit; font-size: 0.875rem; }
  label.group { font-size: 0.875rem; }
  input[type=checkbox] { width: 24px; height: 24px; margin: 0; accent-color: var(--_accent); flex: none; }
  .status { margin: 4px 0 0; font-size: 0.875rem; min-height: 1.3em; }
  .output { display: grid; gap: 4px; margin-top: 8px; font-size: 0.875rem; color: var(--_muted); }
  textarea { width: 100%; min-height: 4.5em; resize: vertical; padding: 6px 8px; border: 1px solid var(--_control); border-radius: 6px;
    background: var(--_bg); color: var(--_text); font-family: var(--_mono); font-size: 0.8125rem; }
`);

export class LabShare extends AlElement {
  static observedAttributes = ['for'];
  static styles = [styles];
  static template = `
    <h2 id="title" data-t="share.title"></h2>
    <p class="hint" data-t="share.hint"></p>
    <div class="row">
      <button type="button" class="primary" data-copy="link" data-t="share.copyLink"></button>
      <button type="button" class="primary" data-copy="embed" data-t="share.copyEmbed"></button>
    </div>
    <div class="row" role="group" aria-labelledby="export-title">
      <span class="name" id="export-title" data-t="share.exportTitle"></span>
      ${Object.entries(EXPORTS).map(([what, formats]) => `
        <span class="group" role="group" aria-labelledby="${what}-name"><span id="${what}-name" data-t="${NAMES[what]}"></span>
          ${formats.map((f) => `<button type="button" data-what="${what}" data-format="${f}">${f.toUpperCase()}</button>`).join('')}
        </span>`).join('')}
    </div>
    <div class="row">
      <label class="group"><span data-t="share.colours"></span>
        <select name="colours">${Object.entries(COLOURS).map(([value, key]) => `<option value="${value}" data-t="${key}"></option>`).join('')}</select></label>
      <label class="group"><input type="checkbox" name="transparent"><span data-t="share.transparent"></span></label>
    </div>
    <p class="status" role="status"></p>
    <label class="output" hidden><span data-t="share.copied"></span><textarea readonly spellcheck="false"></textarea></label>`;

  #lab = null;
  #page = {};
  #frameHeight = null;
  #status;
  #output;
  #field;

  constructor() {
    super();
    takeEarlyProperties(this, ['lab', 'page', 'frameHeight']);
    this.#status = this.$('.status');
    this.#output = this.$('.output');
    this.#field = this.$('textarea');
    this.shadowRoot.addEventListener('click', (event) => {
      const button = event.target.closest('button');
      if (button?.dataset.copy) this.#copy(button.dataset.copy, button);
      else if (button?.dataset.what) this.#download(button.dataset.what, button.dataset.format);
    });
  }

  attributeChangedCallback(name) {
    if (name === 'for' && this.isConnected) this.#follow();
    this.invalidate();
  }

  connectedCallback() {
    super.connectedCallback();
    this.#follow();
  }

  /** The <attention-lab> this shares (by default the one named by `for`). */
  get lab() {
    return this.#lab;
  }

  set lab(lab) {
    this.#lab?.removeEventListener('languagechange', this.#takeStrings);
    this.#lab = lab;
    lab?.addEventListener('languagechange', this.#takeStrings);
    this.#takeStrings();
  }

  /** The page's own URL options, kept in the links: { theme, layout, view, lang, share } (web/lab/url.js). */
  get page() {
    return this.#page;
  }

  set page(page) {
    this.#page = { ...page };
  }

  /**
   * The iframe height of the embed code, in px (default: embed.html's, the lab and this panel
   * laid out in a COLUMN_WIDTH column).
   */
  get frameHeight() {
    if (this.#frameHeight) return this.#frameHeight;
    const measured = 2 * EMBED_PADDING + this.#heightAt(this.#lab, COLUMN_WIDTH - 2 * EMBED_PADDING) + EMBED_SHARE_GAP + this.#heightAt(this, COLUMN_WIDTH - 2 * EMBED_PADDING);
    return Math.ceil(measured / FRAME_STEP) * FRAME_STEP;
  }

  // `element`'s height at `width` px, every card at its real size (no content-visibility
  // placeholder): laid out so for one synchronous measure, then put back before anything paints.
  #heightAt(element, width) {
    if (!element) return 0;
    const style = element.style;
    const saved = ['width', 'max-width', '--al-content-visibility'].map((name) => [name, style.getPropertyValue(name), style.getPropertyPriority(name)]);
    style.setProperty('width', `${width}px`, 'important');
    style.setProperty('max-width', 'none', 'important');
    style.setProperty('--al-content-visibility', 'visible');
    const height = element.getBoundingClientRect().height;
    for (const [name, value, priority] of saved) value ? style.setProperty(name, value, priority) : style.removeProperty(name);
    return height;
  }

  set frameHeight(px) {
    this.#frameHeight = Number.isFinite(px) && px > 0 ? Math.ceil(px / FRAME_STEP) * FRAME_STEP : null;
  }

  /** A link to the lab's page that reopens the lab's settings (and the page's options). */
  get link() {
    return new URL(this.#query(), PAGE_URL).href;
  }

  /**
   * An <iframe> of embed.html with the lab's settings and the theme it shows now (a reader's
   * system setting does not turn a light lesson page's lab dark), and the optional script that sizes it.
   */
  get embedCode() {
    const src = new URL(this.#query({ theme: this.#shownTheme() }), EMBED_URL).href;
    const title = `Attention Lab: ${shortened(this.#lab?.settings.sentence ?? '')}`.trim();
    return `<iframe src="${escapeHtml(src)}" title="${escapeHtml(title)}" width="100%" height="${this.frameHeight}" ` +
      // frameborder, not style: a lesson page's style-src may forbid inline styles
      `loading="lazy" allow="clipboard-write" frameborder="0"></iframe>\n` +
      `<script src="${escapeHtml(RESIZER_URL.href)}" async></script>`;
  }

  /**
   * The file of `what` (heatmap, bars, numbers) in `format` (png, svg, csv, json), in `colours`
   * ('shown': the lab's as on screen, 'light', 'dark') on the theme's background or, `background:
   * false`, on none; by default as chosen on the panel.
   */
  export(what, format, { colours = this.$('select[name=colours]').value, background = !this.$('input[name=transparent]').checked } = {}) {
    const state = this.#lab?.state ?? null;
    if (!Object.hasOwn(COLOURS, colours)) return Promise.reject(new RangeError(`colours must be one of ${Object.keys(COLOURS).join(', ')}, got ${JSON.stringify(colours)}`));
    const theme = state && (colours === 'shown' ? readTheme(this.#lab) : THEMES[colours]);
    return exportFile(state, { what, format, theme, background: background !== false, strings: this.#lab?.strings });
  }

  render() {
    const t = this.strings.t;
    for (const button of this.shadowRoot.querySelectorAll('button[data-what]')) {
      const label = t('share.file', { what: t(NAMES[button.dataset.what]), format: button.dataset.format.toUpperCase() });
      if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
    }
  }

  // The lab named by `for`, whose language this speaks (now, and whenever it changes).
  #follow() {
    const id = this.getAttribute('for');
    const lab = id ? document.getElementById(id) : this.#lab;
    if (lab !== this.#lab) this.#lab?.removeEventListener('languagechange', this.#takeStrings);
    this.#lab = lab;
    lab?.addEventListener('languagechange', this.#takeStrings);
    this.#takeStrings();
  }

  #takeStrings = () => {
    if (this.#lab?.strings) this.strings = this.#lab.strings;
    this.invalidate();
  };

  // The lab's theme attribute unless the page says otherwise; '?' alone: every default.
  #query(pinned = {}) {
    const theme = this.#lab?.getAttribute('theme') ?? undefined;
    return writeUrl(this.#lab?.settings ?? {}, { theme, ...this.#page, ...pinned }) || '?';
  }

  // light or dark: the page's or the lab's choice, else the reader's scheme as it is now
  #shownTheme() {
    const chosen = [this.#page.theme, this.#lab?.getAttribute('theme')].find((theme) => theme === 'light' || theme === 'dark');
    return chosen ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  }

  async #copy(kind, button) {
    const t = this.strings.t;
    const text = kind === 'link' ? this.link : this.embedCode;
    this.#field.value = text;
    setHidden(this.#output, false);
    // a frame without clipboard-write (a lesson platform's iframe) may not use the Clipboard API:
    // the old way there, then by hand
    const allowed = (document.permissionsPolicy ?? document.featurePolicy)?.allowsFeature('clipboard-write') ?? true;
    let copied = allowed && (await navigator.clipboard?.writeText(text).then(() => true, () => false));
    if (!copied) {
      this.#field.select();
      copied = document.execCommand?.('copy') ?? false;
    }
    const pasted = this.#lab?.settings.projection === 'pasted' ? ` ${t('share.pastedNotInLink')}` : '';
    this.#say(copied ? `${t(kind === 'link' ? 'share.copiedLink' : 'share.copiedEmbed')}${pasted}` : t('share.copyManually'));
    if (copied) button.focus();
    else {
      this.#field.focus();
      this.#field.select();
    }
  }

  async #download(what, formatName) {
    const t = this.strings.t;
    if (!this.#lab?.state) return this.#say(t('share.notReady'));
    try {
      const file = await this.export(what, formatName);
      // A sandboxed frame (an opaque origin: sandbox="allow-scripts", as WordPress embeds) drops a
      // download without a word to the page: say so, and hand a text file over by hand instead.
      if (self.origin === 'null') {
        if (file.type.startsWith('image/png')) return this.#say(t('share.blockedFile', { file: file.name }));
        this.#field.value = await file.blob.text();
        setHidden(this.#output, false);
        this.#field.focus();
        this.#field.select();
        return this.#say(t('share.blockedText', { file: file.name }));
      }
      const url = URL.createObjectURL(file.blob);
      const link = Object.assign(document.createElement('a'), { href: url, download: file.name, hidden: true });
      this.shadowRoot.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      this.#say(t('share.saved', { file: file.name }));
    } catch (error) {
      this.#say(t('share.exportFailed', { message: messageOf(error, this.strings) }));
    }
  }

  #say(text) {
    // the same text again is announced again: clear, then write
    this.#status.textContent = '';
    requestAnimationFrame(() => (this.#status.textContent = text));
  }
}

define('lab-share', LabShare);
