// Where the time of one interactive call goes (N = 16, d = 64 unless given): the engine call
// against its parts — the bare wasm export (validation + kernel), the argument checks and
// copy-in, and the copy-out. Minimum of 9 batches (the machine is shared; minima are the least
// disturbed). Run after `npm run build`:  node scripts/bench/latency.mjs [N]
import { createEngine } from '../../web/core/engine.js';

const N = Number(process.argv[2] ?? 16), D = 64;
const engine = await createEngine({ simd: true });
const { default: createModule } = await import('../../web/build/attention-simd.mjs');
const wasm = await createModule(); // a second instance for the bare calls

function random(length, seed) {
  let state = seed;
  return Float32Array.from({ length }, () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5));
}
const q = random(N * D, 1), k = random(N * D, 2), v = random(N * D, 3);

function time(name, f, reps = Math.max(200, Math.round(2e6 / (N * N * D)))) {
  for (let i = 0; i < 20 * reps; i++) f(); // tier up to TurboFan
  let best = Infinity;
  for (let b = 0; b < 9; b++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) f();
    best = Math.min(best, ((performance.now() - t0) / reps) * 1e3);
  }
  console.log(`${name.padEnd(58)} ${best.toFixed(2).padStart(8)} µs`);
  return best;
}

// the bare calls of the second instance: q, k, v placed once in its input slots 0-2, no mask (cpp/binding/binding.cpp)
const [qp, kp, vp] = [q, k, v].map((array, slot) => wasm.reserveInput(slot, N * D, 'qkv'[slot]));
[q, k, v].forEach((array, slot) => wasm.HEAPF32.set(array, [qp, kp, vp][slot] / 4));
wasm.HEAPF64.set([N * D, N * D, N * D, -1], wasm.inputLengths() / 8);
const descriptor = wasm.descriptor() / 4; // after a call: [block address, floats, ...] (cpp/core/boundary.hpp)
const bareAttention = () => wasm.attention(N, N, D, D, 1, 1, 1);

console.log(`N = ${N}, d = ${D}, SIMD build, ${process.version}`);
time('engine.attention() (everything a view needs)', () => engine.attention({ q, k, v, n: N, m: N, d: D, dv: D }));
time('  bare attention binding (validation + kernels)', bareAttention);
bareAttention();
const block = wasm.HEAPU32[descriptor] / 4, floats = wasm.HEAPU32[descriptor + 1];
time('  copy-out: one slice of the result block', () => wasm.HEAPF32.slice(block, block + floats));
time('  copy-in: three HEAPF32.set', () => {
  const heap = wasm.HEAPF32;
  heap.set(q, qp / 4);
  heap.set(k, kp / 4);
  heap.set(v, vp / 4);
});
time('  new Float32Array(256) (V8 allocation of > 64 bytes)', () => new Float32Array(256));
time('engine.attentionStreaming() (output only)', () => engine.attentionStreaming({ q, k, v, n: N, m: N, d: D, dv: D }));
const out = new Float32Array(N * D);
time('engine.attentionStreaming({ out }) (no new output array)', () =>
  engine.attentionStreaming({ q, k, v, n: N, m: N, d: D, dv: D, out }));
time('  bare attentionStreaming binding', () => wasm.attentionStreaming(N, N, D, D, 1, 1, -1));
