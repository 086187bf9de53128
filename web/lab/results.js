// The lab's results: inputs (web/lab/inputs.js) + settings → the engine's attention result for
// the sentence and for the probe word. No DOM; every number comes from the engine.
//
// The one place that decides what the causal mask means. Query i sees keys j ≤ i: that orders
// queries and keys along one sequence, so it needs as many queries as keys (n = m). Pasted Q
// and K of different lengths with the mask on are an error with a message that says so — the
// mask is never dropped silently, and never applied to a shape it has no meaning for. The probe
// is cross-attention: one query from outside the sequence, with no position in it, so it sees
// every key whether the mask is on or not.
import { localError } from '../i18n/i18n.js';

/**
 * { result, probe }: result = engine.attention of Q, K, V (n×m weights …); probe = null, or
 * { text, known, q, result (1×m), rowSum }. Throws a RangeError for the causal mask with
 * n ≠ m, and the engine's errors (their messages name the argument and what was expected).
 */
export function labResults(inputs, settings, engine) {
  const { q, k, v, n, m, d, dv } = inputs;
  if (settings.causal && n !== m) {
    throw localError(RangeError, 'lab.causalShape', { count: n, m });
  }
  const options = { scale: settings.scaled ? 'sqrt' : 'none', temperature: settings.temperature };
  const result = engine.attention({ q, k, v, n, m, d, dv, causal: settings.causal, ...options });
  let probe = null;
  if (inputs.probe) {
    const probeResult = engine.attention({ q: inputs.probe.q, k, n: 1, m, d, ...options });
    probe = Object.freeze({ ...inputs.probe, result: probeResult, rowSum: probeResult.rowSum[0] });
  }
  return { result, probe };
}
