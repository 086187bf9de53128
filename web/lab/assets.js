// What the lab loads: one engine and one vocabulary, shared by every <attention-lab> of a page
// (and by web/lesson.js). Both resolve against their modules, not the page: the lab works
// wherever it is embedded. The vocabulary comes word by word (web/core/vocab.js): the demo
// sentence's words in one small pack read at once (index.html preloads it), any other word with
// its bucket when a sentence needs it — a first result never waits for the whole vocabulary.
// The engine's module is imported when it is first asked for (pages hint it with modulepreload):
// this module stays small, so that web/first-words.js, which needs only the vocabulary, runs early.
import { GLOVE, createVocab } from '../core/vocab.js';

let engine = null;
let vocabulary = null;

/** The engine (created once). */
export function loadEngine() {
  engine ??= import('../core/engine.js').then(({ createEngine }) => createEngine());
  return engine;
}

/** The page's vocabulary (created once; the first-view pack is fetched at once). */
export function pageVocab() {
  vocabulary ??= createVocab({ preload: [GLOVE.firstView] });
  return vocabulary;
}

/**
 * What a chip says of a word's vector: vocab.status(word) ('known', 'unknown', 'loading'), with
 * 'induced' for a known word whose vector was induced from the Brown corpus rather than GloVe's
 * (vocab.source; a vocabulary without source() knows GloVe's words only).
 */
export function wordStatus(vocab, word) {
  const status = vocab.status(word);
  return status === 'known' && vocab.source?.(word) === 'induced' ? 'induced' : status;
}

/**
 * The words of `settings` whose vectors `vocab` is still loading (none for pasted vectors): the
 * tokens, then the probe, each once. The lab computes only when this is empty.
 */
export function loadingWords(vocab, settings) {
  if (settings.projection === 'pasted') return [];
  const words = new Set(settings.probe ? [...settings.tokens, settings.probe] : settings.tokens);
  return [...words].filter((word) => vocab.status(word) === 'loading');
}
