// The engine of the notebook widget's bundle (scripts/build-widget.mjs): every import of
// web/core/engine.js in the bundle comes here, and gets the core's SIMD build from the bytes the
// bundle carries — a module loaded from a blob: URL (as anywidget loads it) has no files beside
// it. Only for the bundler: the .wasm import is esbuild's binary loader (a Uint8Array).
import wasm from '../build/attention-simd.wasm';
import { createEngine as createFromFiles, simdSupported } from '../core/engine.js';

export * from '../core/engine.js';

let compiled = null;

/** createEngine of web/core/engine.js on the SIMD build carried here; no SIMD: a clear error. */
export function createEngine(options = {}) {
  if (!simdSupported())
    return Promise.reject(Object.assign(new Error('this browser has no WebAssembly SIMD, which the notebook widget needs: it carries only the SIMD build of the core'), { code: 'ATTN_UNSUPPORTED' }));
  compiled ??= WebAssembly.compile(wasm);
  return compiled.then((module) => createFromFiles({ ...options, simd: true, wasm: module }));
}
