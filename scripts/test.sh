#!/usr/bin/env bash
# Runs every test suite; assumes scripts/setup.sh and scripts/build.sh have run (npm test does both),
# and builds the sanitizer tree (build/sanitize) itself.
#   1. Catch2 natively (g++) and the same suite as WebAssembly under Node, SIMD and scalar; in the
#      WebAssembly trees also the fuzz target's driver (seed corpus + generated inputs, 32-bit size_t)
#   2. Catch2 under ASan + UBSan (clang), then 60 s of libFuzzer (ASan + UBSan) on the core
#   3. node:test on the JavaScript API (with the soak: 10,000 engine calls) and the data assets;
#      the lesson's and the training experiment's claims again on the scalar build
#   4. node:test + Playwright on the page in Debian's headless Chromium
set -euo pipefail
cd "$(dirname "$0")/.."
# each part says when it starts (seconds into this script): where the suite's time goes
phase() { echo "== $* (at ${SECONDS} s)"; }
for tree in native wasm-simd wasm-scalar; do
  phase "Catch2 ($tree)$([ "$tree" = native ] || echo ' and the fuzz driver')"
  ctest --test-dir "build/$tree" --output-on-failure
done
phase "Catch2 under ASan + UBSan (build/sanitize)"
bash scripts/build.sh sanitize >/dev/null
ctest --test-dir build/sanitize --output-on-failure
phase "fuzz (libFuzzer, ASan + UBSan, 60 s)"
bash scripts/fuzz.sh 60
phase "node:test (JavaScript API)"
node --test tests/js/
phase "node:test (the lesson's claims, scalar build)"
ATTN_TEST_BUILD=scalar node --test tests/js/lesson.test.mjs
phase "node:test (the training experiment's claims, scalar build)"
ATTN_TEST_BUILD=scalar node --test tests/js/train-claims.test.mjs
phase "node:test (browser)"
node --test --test-concurrency=1 tests/browser/
phase "all passed"
