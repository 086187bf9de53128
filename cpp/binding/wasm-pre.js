// Runs inside the Emscripten module (--pre-js). The .wasm is a file beside this module. In a
// browser web/core/engine.js fetches and compiles it while this module loads, and passes it in
// as Module.instantiateWasm (used alone, the loader fetches it relative to import.meta.url).
// On Node >= 18 Emscripten 3.1.6's loader would fetch() the file's path, which fails (fetch
// takes no file paths): read the file here instead. A dynamic import, not require():
// Node < 20.16 gives this ES module no synchronous require (cpp/binding/node-shim.js). Uses only names
// of the loader's own scope (wasmBinaryFile: a file: URL string, new URL('<name>.wasm',
// import.meta.url), or a path from a Module.locateFile; readyPromiseReject), which the build
// does not minify. (No import.meta here: the build's minifier cannot print it in a --pre-js.)
if (typeof process == 'object' && process.versions && process.versions.node && !Module['instantiateWasm']) {
  Module['instantiateWasm'] = function (imports, receiveInstance) {
    import('node:fs/promises')
      .then(function (fs) { return fs.readFile(/^file:/.test(wasmBinaryFile) ? new URL(wasmBinaryFile) : wasmBinaryFile); })
      .then(function (bytes) { return WebAssembly.instantiate(bytes, imports); })
      .then(function (result) { receiveInstance(result.instance, result.module); }, readyPromiseReject);
    return {};
  };
}
