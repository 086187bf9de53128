// The strings of the embed page, the link messages, and share and export, one table per language.
// A small table of their own, in the project's two languages, until the project's string tables
// hold every string of the UI: then these keys move there, unchanged. Placeholders are {name}.
//
//   const t = embedStrings(element);        // the language of the nearest lang attribute
//   format(t.saved, { file: 'attention-lab-heatmap.png' })
import { quote } from '../lab/settings.js';

/** key → text, per language. */
export const EMBED_STRINGS = Object.freeze({
  en: Object.freeze({
    shareTitle: 'Share and export',
    shareHint: 'A link opens the lab with these settings; the embed code shows it in a lesson page (an iframe).',
    copyLink: 'Copy link',
    copyEmbed: 'Copy embed code',
    copiedLink: 'Link copied.',
    copiedEmbed: 'Embed code copied: paste it into your lesson page.',
    copyManually: 'Copying is not allowed here: the text is selected below, copy it with Ctrl+C (⌘C on a Mac).',
    copied: 'What was copied',
    pastedNotInLink: 'Pasted vectors are not part of a link: it opens the other settings.',
    exportTitle: 'Take away',
    heatmap: 'Heatmap',
    bars: 'Bars',
    numbers: 'Numbers',
    saved: 'Saved {file}.',
    exportFailed: 'Could not export: {reason}',
    notReady: 'Nothing to export yet: the lab is still loading.',
    embedTitle: 'Attention Lab',
    problemsTitle: 'This link could not be followed exactly:',
    problemUnknown: '{name}={value} is not a parameter of this page, so it is ignored. The parameters are {list}.',
    problemRepeated: '{name} is given {count} times: the first, {name}={value}, is used.',
    problemInvalid: '{name}={value} is not valid: it {error}. The default, {fallback}, is used instead.',
    pageLanguage: 'the page’s language',
  }),
  nb: Object.freeze({
    shareTitle: 'Del og eksporter',
    shareHint: 'En lenke åpner laben med disse innstillingene; innbyggingskoden viser den i en leksjonsside (en iframe).',
    copyLink: 'Kopier lenke',
    copyEmbed: 'Kopier innbyggingskode',
    copiedLink: 'Lenken er kopiert.',
    copiedEmbed: 'Innbyggingskoden er kopiert: lim den inn i leksjonssiden din.',
    copyManually: 'Kopiering er ikke tillatt her: teksten er merket nedenfor, kopier den med Ctrl+C (⌘C på Mac).',
    copied: 'Det som ble kopiert',
    pastedNotInLink: 'Innlimte vektorer er ikke med i en lenke: den åpner de andre innstillingene.',
    exportTitle: 'Ta med deg',
    heatmap: 'Varmekart',
    bars: 'Søyler',
    numbers: 'Tall',
    saved: 'Lagret {file}.',
    exportFailed: 'Kunne ikke eksportere: {reason}',
    notReady: 'Ingenting å eksportere ennå: laben lastes fortsatt inn.',
    embedTitle: 'Attention Lab',
    problemsTitle: 'Lenken kunne ikke følges helt:',
    problemUnknown: '{name}={value} er ikke en parameter på denne siden og blir ignorert. Parameterne er {list}.',
    problemRepeated: '{name} er oppgitt {count} ganger: den første, {name}={value}, brukes.',
    problemInvalid: '{name}={value} er ikke gyldig: den {error}. Standardverdien, {fallback}, brukes i stedet.',
    pageLanguage: 'sidens språk',
  }),
});

/** The table of `lang` ("nb", "nb-NO" …), English when there is none. */
export function stringsFor(lang) {
  return EMBED_STRINGS[String(lang ?? '').toLowerCase().split('-')[0]] ?? EMBED_STRINGS.en;
}

/** The table of the language `element` is in: its nearest lang attribute (across shadow roots). */
export function embedStrings(element) {
  let node = element;
  while (node) {
    if (node.lang) return stringsFor(node.lang);
    node = node.parentElement ?? node.getRootNode?.().host ?? null;
  }
  return EMBED_STRINGS.en;
}

/** `template` with each {key} replaced by values[key]. */
export function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** A problem of readUrl (web/lab/url.js) as a sentence of table `t`. */
export function problemText(t, problem, parameters) {
  const values = { ...problem, name: quote(problem.name), value: quote(problem.value), list: parameters.join(', ') };
  if (problem.reason === 'unknown') return format(t.problemUnknown, values);
  if (problem.reason === 'repeated') return format(t.problemRepeated, values);
  const fallback = problem.fallback === '' ? t.pageLanguage : JSON.stringify(problem.fallback);
  return format(t.problemInvalid, { ...values, fallback });
}
