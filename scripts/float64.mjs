// Attention over a sentence in float64, written from the formula (no code shared with the core):
// what scripts/build-vocab.mjs measures the stored word vectors' precision with, and the tests'
// float64 references (tests/support/reference.mjs re-exports these), so the build and the tests
// measure alike.

/** softmax(scores / temperature) in float64, max-subtracted; a key at −∞ weighs 0 (a row all at −∞: all 0). */
export function softmax64(scores, temperature = 1) {
  const top = Math.max(...scores);
  if (top === -Infinity) return scores.map(() => 0);
  const e = scores.map((s) => Math.exp((s - top) / temperature));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
}

/** Σ a_k·b_k in float64. */
export function dot64(a, b) {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}

/** softmax(X Xᵀ · scale) row by row in float64, over a sentence's vectors (q = k = x). */
export function sentenceWeights64(vectors, scale) {
  return vectors.map((qi) => softmax64(vectors.map((kj) => dot64(qi, kj) * scale)));
}

/** The key row i attends to most among the other words (not the token itself, nor its repeats). */
export function topOther(row, words, i) {
  let best = -1;
  for (let j = 0; j < words.length; j++) if (words[j] !== words[i] && (best < 0 || row[j] > row[best])) best = j;
  return best;
}
