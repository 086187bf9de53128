// What the benchmarks of `npm run bench` share (bench.mjs, train.mjs, model.mjs): the median,
// the machine they ran on, a garbage collection before a timed batch, the peers' versions, and
// tfjs on its WebAssembly backend (one thread) beside our two builds.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

import { createEngine } from '../../web/core/engine.js';
import { registerTfjsGradients } from './tfjs-gradients.mjs';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// run with --expose-gc (scripts/bench/run.sh): a clean heap before each timed batch
export const collectGarbage = typeof globalThis.gc === 'function' ? () => globalThis.gc() : () => {};

/** The version of a peer installed in scripts/bench/node_modules. */
export const version = (name) =>
  JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;

/** The processor, its clock, the cores, Node and the date, for a result's header. */
export function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const mhz = /cpu MHz\s*:\s*(.*)/.exec(cpuinfo)?.[1];
  return { cpu: model, cpuMHz: mhz ? Number(mhz) : null, cores: cpus().length, node: process.version, date: new Date().toISOString() };
}

/** tfjs-core on tfjs-backend-wasm (XNNPACK, one thread, our gradients registered), and our SIMD and scalar engines. */
export async function tfjsAndEngines() {
  const tf = await import('@tensorflow/tfjs-core');
  const tfWasm = await import('@tensorflow/tfjs-backend-wasm');
  await registerTfjsGradients();
  tfWasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  return { tf, simd: await createEngine({ simd: true }), scalar: await createEngine({ simd: false }) };
}
