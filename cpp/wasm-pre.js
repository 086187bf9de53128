// Runs inside the Emscripten module (--pre-js). SINGLE_FILE inlines the .wasm as a data: URL,
// and Emscripten 3.1.6 first fetch()es that URL; a strict Content-Security-Policy (connect-src
// without data:, as a lesson page may set) refuses it and logs a violation before the loader
// falls back to decoding it. Decoding it here skips the fetch: no violation, and the compile
// stays asynchronous. Uses only names of the loader's own scope (tryParseAsDataURI,
// wasmBinaryFile, readyPromiseReject), which the build does not minify.
Module['instantiateWasm'] = function (imports, receiveInstance) {
  WebAssembly.instantiate(tryParseAsDataURI(wasmBinaryFile), imports).then(function (result) {
    receiveInstance(result.instance, result.module);
  }, readyPromiseReject);
  return {};
};
