// What the lab loads: one engine and the GloVe word vectors, shared by every <attention-lab> of a
// page. The assets resolve against this module, not the page: the lab works wherever it is
// embedded. Order of arrival: the engine and the default sentence's words at full precision
// (6 kB: the first result is drawn from them, with the same numbers — these rows are exact in
// both files), then, once the first result is painted or as soon as a word needs it, the 1 MB
// vocabulary.
import { createEngine } from '../core/engine.js';
import { fetchVocab, fetchWordSubset } from '../core/vocab.js';

const VOCAB_URL = new URL('../assets/glove-100d.bin', import.meta.url);
const FIRST_VIEW_URL = new URL('../assets/glove-first-view.json', import.meta.url);

let core = null;
let full = null;

/** { engine, words }: the engine and the first view's words (null when that file is missing). */
export function loadCore() {
  core ??= Promise.all([createEngine(), fetchWordSubset(FIRST_VIEW_URL).catch(() => null)]).then(([engine, words]) => ({ engine, words }));
  return core;
}

/** The whole vocabulary (fetched once). */
export function loadFullVocab() {
  full ??= fetchVocab(VOCAB_URL);
  return full;
}

/** Whether `vocab` holds every word `settings` need (a word a partial vocabulary lacks may be in the full one). */
export function covers(vocab, settings) {
  if (!vocab.partial || settings.projection === 'pasted') return true;
  return settings.tokens.every((token) => vocab.has(token)) && (!settings.probe || vocab.has(settings.probe));
}
