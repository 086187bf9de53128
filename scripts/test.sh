#!/usr/bin/env bash
# Runs every test suite; assumes scripts/setup.sh and scripts/build.sh have run (npm test does both).
#   1. Catch2 natively (g++) and the same suite as WebAssembly under Node, SIMD and scalar
#   2. node:test on the JavaScript API and the data assets; the lesson's and the training
#      experiment's claims again on the scalar build
#   3. node:test + Playwright on the page in Debian's headless Chromium
set -euo pipefail
cd "$(dirname "$0")/.."
for tree in native wasm-simd wasm-scalar; do
  echo "== Catch2 ($tree)"
  ctest --test-dir "build/$tree" --output-on-failure
done
echo "== node:test (JavaScript API)"
node --test tests/js/
echo "== node:test (the lesson's claims, scalar build)"
ATTN_TEST_BUILD=scalar node --test tests/js/lesson.test.mjs
echo "== node:test (the training experiment's claims, scalar build)"
ATTN_TEST_BUILD=scalar node --test tests/js/train-claims.test.mjs
echo "== node:test (browser)"
node --test --test-concurrency=1 tests/browser/
