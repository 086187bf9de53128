// Prepended to the Emscripten module (--extern-pre-js). On Node only, gives the ES-module
// loader the CommonJS names it expects; browsers and workers skip it. No top-level await
// here: that would break require() of the module.
var require, __filename, __dirname;
if (typeof process === 'object' && process.versions && process.versions.node) {
  __filename = decodeURIComponent(new URL(import.meta.url).pathname);
  __dirname = __filename.replace(/[\\/][^\\/]*$/, '');
  const builtin = process.getBuiltinModule && process.getBuiltinModule('module');
  // Node < 20.16 has no getBuiltinModule; the loader never reads a file through require
  // (cpp/binding/wasm-pre.js reads the .wasm), so names it only looks up (fs, path) can resolve to
  // empty objects.
  require = builtin ? builtin.createRequire(import.meta.url) : () => ({});
}
