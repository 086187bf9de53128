// The language of the project's own pages (index.html, lesson.html, teacher.html): the URL's `lang`
// (index.html?lang=nb), else the reader's browser. The page's <html lang> is set to it — which the
// lab and the lesson then follow as their host page's — and every element of the page that names
// a key (data-t, data-t-html, data-t-attrs; see dom.js) gets its words. A <nav class="languages">
// gets a link to the page in each language, each named in its own language; a link to another of
// the pages marked data-keep-lang opens it in this page's language.
import { localize } from './dom.js';
import { LANGUAGES, LANGUAGE_NAMES, loadStrings, pageLanguage } from './i18n.js';

const language = pageLanguage(location.search, navigator.languages ?? [navigator.language]);
document.documentElement.lang = language;

/** The strings of the page's language. */
export const strings = await loadStrings(language);
localize(document.documentElement, strings);

// The address of the page in `lang`: the page's address as it is now — which follows the
// learner's changes (web/page-url.js) — with its language.
function inLanguage(lang) {
  const url = new URL(location.href);
  url.searchParams.set('lang', lang);
  return `${url.search}${url.hash}`;
}

const nav = document.querySelector('nav.languages');
if (nav) {
  // each link is written again just before it is used (followed, opened in a tab, copied),
  // so it carries the state on screen rather than the one the page was opened with
  const refresh = (event) => {
    const link = event.target.closest?.('a[hreflang]');
    if (link) link.href = inLanguage(link.hreflang);
  };
  for (const type of ['pointerdown', 'click', 'auxclick', 'contextmenu', 'focusin', 'keydown']) nav.addEventListener(type, refresh, true);
  nav.replaceChildren(
    ...LANGUAGES.map((lang) => {
      const link = document.createElement('a');
      link.href = inLanguage(lang);
      link.hreflang = lang;
      link.lang = lang;
      link.textContent = LANGUAGE_NAMES[lang];
      if (lang === language) link.setAttribute('aria-current', 'true');
      return link;
    }),
  );
}

for (const link of document.querySelectorAll('a[data-keep-lang]')) {
  const url = new URL(link.getAttribute('href'), location.href);
  url.searchParams.set('lang', language);
  link.href = url.href;
}
