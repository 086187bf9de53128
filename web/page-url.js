// The pages' state in their URL (index.html and embed.html; web/lab/url.js reads and writes
// it). A module the page loads first, on its own, small graph (the vocabulary, the tokenizer,
// the settings table), so that it runs while the lab's larger graph is still downloading:
//  1. at once: asks for the word vectors of the sentence and probe the page will draw first (the
//     link's, or the <attention-lab>'s attributes) — over a slow link the lab's first result then
//     waits for no word;
//  2. when <attention-lab> is defined, before its first render: the link's settings go to the
//     lab, its theme to the page and its elements, and what could not be followed is listed in
//     the page's #url-notice, politely, in the page's language (each such setting takes its
//     default). The link's `lang` is web/i18n/page.js's to apply;
//  3. from then on the URL follows the learner (history.replaceState: a reload or a copied
//     address reopens the same state; the Back button is not filled with every slider step),
//     once changes settle: a slider drag costs no history work per step (replaceState takes
//     milliseconds, and a browser throttles a page that calls it hundreds of times).
import { pageVocab } from './lab/assets.js';
import { MAX_TOKENS, tokenize } from './lab/tokenize.js';
import { quote } from './lab/settings.js';
import { PARAMETERS, readUrl, writeUrl } from './lab/url.js';

const link = readUrl(location.search);

/** The page's options from its URL: { theme, layout, view, lang, share } (web/lab/url.js). */
export const page = link.page;

const lab = document.querySelector('attention-lab');
const text = (name) => link.settings[name] ?? lab?.getAttribute(name) ?? '';
const words = [...tokenize(text('sentence')).slice(0, MAX_TOKENS), ...tokenize(text('probe')).slice(0, 1)];
// a hint only: the lab asks for what it needs itself (and reports a failure); each bucket is fetched once
if (words.length > 0) pageVocab().load(words).catch(() => {});

/** Resolves once the link has been applied to the page's lab (see 2. above). */
export const followed = customElements.whenDefined('attention-lab').then(follow);

function follow() {
  const root = document.documentElement;
  const notice = document.getElementById('url-notice');
  const shares = [...document.querySelectorAll('lab-share')];
  if (page.theme === 'auto') root.removeAttribute('data-theme');
  else root.dataset.theme = page.theme;
  if (page.theme !== 'auto') for (const element of [lab, ...document.querySelectorAll('attention-lesson'), ...shares]) element.setAttribute('theme', page.theme);
  if (page.layout !== 'full') lab.setAttribute('view', page.layout); // layout=compact: the lab's view="compact"
  for (const share of shares) share.page = page;
  const { rejected } = lab.set(link.settings);
  for (const [name, reason] of Object.entries(rejected)) console.warn(`The link's ${name} was not applied: it ${reason}.`);
  if (link.problems.length > 0) showProblems(notice, link.problems);
  let timer = 0;
  const write = () => {
    clearTimeout(timer);
    timer = 0;
    const url = new URL(location.href);
    url.search = writeUrl(lab.settings, page);
    if (url.href !== location.href) history.replaceState(history.state, '', url);
  };
  lab.addEventListener('change', () => {
    clearTimeout(timer);
    timer = setTimeout(write, SETTLE_MS);
  });
  addEventListener('pagehide', () => timer && write()); // a change within SETTLE_MS of leaving is kept too
  // the page's own language links (web/i18n/page.js) read the address when used: it is written
  // at once when one is about to be, so that a change within SETTLE_MS goes with it
  for (const type of ['pointerdown', 'keydown']) document.querySelector('nav.languages')?.addEventListener(type, () => timer && write(), true);
  // a link with more tokens than the lab takes: the address holds the ones it uses (web/lab/url.js)
  if (lab.settings.truncated) write();
}

const SETTLE_MS = 250; // the URL is written once the lab's changes stop for this long

// A problem of readUrl (web/lab/url.js) in the page's language (web/i18n/page.js), whose
// table names each kind (the keys named here, so that the tables' test finds them).
const PROBLEMS = { unknown: 'link.unknown', repeated: 'link.repeated', invalid: 'link.invalid', more: 'link.more' };

async function showProblems(notice, problems) {
  const { strings } = await import('./i18n/page.js');
  const t = strings.t;
  const title = document.createElement('p');
  title.textContent = t('link.problems');
  const list = document.createElement('ul');
  for (const problem of problems) {
    const item = document.createElement('li');
    if (problem.reason === 'more') {
      item.textContent = t(PROBLEMS.more, { count: problem.count });
      list.append(item);
      continue;
    }
    const fallback = problem.fallback === '' ? t('link.pageLanguage') : JSON.stringify(problem.fallback);
    item.textContent = t(PROBLEMS[problem.reason], {
      name: quote(problem.name),
      value: quote(problem.value),
      times: String(problem.count),
      count: problem.count,
      // what was expected, in the page's language when the settings table says it as a message
      error: problem.expected ? { key: 'settings.mustBe', params: { expected: problem.expected } } : problem.error,
      fallback,
      list: PARAMETERS.join(', '),
    });
    list.append(item);
  }
  notice.replaceChildren(title, list);
  notice.hidden = false;
}
