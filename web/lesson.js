// The lesson page: loads the core and the GloVe vectors, turns the sentence into token
// vectors and hands the shared inputs (engine, tokens, vectors, d_k, scaled, query row, seed)
// to every instrument as plain properties. State flows one way: controls → here → instruments.
import './components/variance-lab.js';
import './components/saturation-plot.js';
import './components/gradient-view.js';
import './components/step-by-step.js';
import './components/overflow-demo.js';
import './components/multi-head-view.js';
import { createEngine } from './core/engine.js';
import { fetchVocab } from './core/vocab.js';

const MAX_TOKENS = 24; // keeps every heatmap and table readable
const UNKNOWN_SIGMA = 0.4; // about the spread of a GloVe component (the layer norm rescales anyway)
const INSTRUMENTS = ['variance-lab', 'saturation-plot', 'gradient-view', 'step-by-step', 'overflow-demo', 'multi-head-view'];

const $ = (id) => document.getElementById(id);
const status = $('status');

function tokenize(text) {
  return (text.toLowerCase().match(/[\p{L}\p{N}']+|[^\s\p{L}\p{N}]/gu) ?? []).slice(0, MAX_TOKENS);
}

async function main() {
  const [engine, vocab] = await Promise.all([createEngine(), fetchVocab(new URL('./assets/glove-100d.bin', import.meta.url))]);
  const elements = INSTRUMENTS.map((tag) => document.querySelector(tag));
  let state = null;

  function update() {
    const tokens = tokenize($('sentence').value);
    const vectors = new Float32Array(tokens.length * vocab.dim);
    const unknown = [];
    tokens.forEach((word, i) => {
      let v = vocab.vector(word);
      if (!v) {
        unknown.push(word);
        v = engine.textVector(word, vocab.dim, { sigma: UNKNOWN_SIGMA });
      }
      vectors.set(v, i * vocab.dim);
    });
    const dk = 2 ** Number($('dk').value);
    const seed = Math.max(0, Math.min(0xffffffff, Math.floor(Number($('seed').value) || 0)));
    const select = $('row');
    const previous = Number(select.value) || 0;
    if (!state || state.tokens.join(' ') !== tokens.join(' ')) {
      select.replaceChildren(...tokens.map((w, i) => new Option(`${i + 1}. ${w}`, String(i))));
      select.value = String(Math.min(previous, Math.max(0, tokens.length - 1)));
    }
    state = { engine, tokens, vectors, dk, scaled: $('scaled').checked, selectedRow: Number(select.value) || 0, seed };
    $('dk-value').textContent = String(dk);
    for (const el of elements) Object.assign(el, state);
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
