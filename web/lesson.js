// The lesson on its own, for lesson authors who want only the instruments: its own bar of
// controls (sentence, d_k, query word, scaling, seed) in place of <attention-lab>, feeding the
// same <attention-lesson> element as the demo page. Tokens and word vectors are made exactly as
// the lab makes them (web/lab/tokenize.js, web/lab/vectors.js), so a sentence gives the same
// numbers on both pages. State flows one way: controls → here → instruments.
import { LESSON_MAX_TOKENS } from './components/attention-lesson.js';
import { createEngine } from './core/engine.js';
import { fetchVocab } from './core/vocab.js';
import { tokenize } from './lab/tokenize.js';
import { VectorBuilder, WORD_DIM } from './lab/vectors.js';

const $ = (id) => document.getElementById(id);
const status = $('status');

async function main() {
  const [engine, vocab] = await Promise.all([createEngine(), fetchVocab(new URL('./assets/glove-100d.bin', import.meta.url))]);
  const words = new VectorBuilder(engine, vocab);
  const lesson = document.querySelector('attention-lesson');
  let tokens = null;

  function update() {
    const next = tokenize($('sentence').value).slice(0, LESSON_MAX_TOKENS);
    const vectors = new Float32Array(next.length * WORD_DIM);
    const unknown = [];
    next.forEach((token, i) => {
      const { vector, known } = words.word(token);
      if (!known) unknown.push(token);
      vectors.set(vector, i * WORD_DIM);
    });
    const select = $('row');
    if (!tokens || tokens.join(' ') !== next.join(' ')) {
      const previous = Number(select.value) || 0;
      select.replaceChildren(...next.map((w, i) => new Option(`${i + 1}. ${w}`, String(i))));
      select.value = String(Math.min(previous, Math.max(0, next.length - 1)));
    }
    tokens = next;
    const dk = 2 ** Number($('dk').value);
    const seed = Math.max(0, Math.min(0xffffffff, Math.floor(Number($('seed').value) || 0)));
    $('dk-value').textContent = String(dk);
    lesson.inputs = { engine, tokens, vectors, dk, scaled: $('scaled').checked, selectedRow: Number(select.value) || 0, seed };
    status.textContent =
      tokens.length === 0
        ? 'Type a sentence.'
        : `${tokens.length} tokens${unknown.length ? `; not in the vocabulary (random vectors): ${unknown.join(', ')}` : ''}. ` +
          `Core: ${engine.simd ? 'WebAssembly SIMD' : 'scalar WebAssembly'}.`;
  }

  $('controls').addEventListener('input', update);
  $('controls').addEventListener('submit', (event) => event.preventDefault());
  update();
  document.documentElement.dataset.ready = 'true';
}

main().catch((error) => {
  status.textContent = `Could not start: ${error.message}`;
  status.classList.add('error');
  console.error(error);
});
