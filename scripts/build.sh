#!/usr/bin/env bash
# Builds the three trees of the product: native (g++, for fast tests and reference benchmarks) and
# the WebAssembly SIMD and scalar modules (em++), then places the two modules (each an .mjs loader
# and its .wasm) in web/build/, with the notebook widget bundled from them
# (web/build/attention-widget.js, scripts/build-widget.mjs).
#   bash scripts/build.sh            the three trees
#   bash scripts/build.sh sanitize   only build/sanitize: clang, ASan + UBSan, the libFuzzer target
#                                    (scripts/test.sh and scripts/fuzz.sh build it)
#   bash scripts/build.sh wasm-tests the WebAssembly trees' tests (Catch2, the fuzz driver): the
#                                    three trees build only what the product needs, and
#                                    scripts/test.sh builds these beside the browser tests
# Incremental: a second run with nothing changed takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
# emcc -O1+ runs its JS optimiser under Node and needs Debian's node modules (acorn).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

configure() {  # configure <dir> <build type> <cmake args...>: only when the tree is not configured yet
  local dir=$1 type=$2; shift 2
  [ -f "$dir/CMakeCache.txt" ] || "$@" -B "$dir" -S . -DCMAKE_BUILD_TYPE="$type" >/dev/null
}

if [ "${1:-}" = sanitize ]; then
  # -O2 with debug info: readable sanitizer reports at a usable fuzzing speed
  configure build/sanitize RelWithDebInfo env CXX=clang++ cmake -DATTN_SANITIZE=ON
  echo "[build] sanitize" >&2
  cmake --build build/sanitize -j "$JOBS"
  exit 0
fi

configure build/native Release cmake
configure build/wasm-simd Release emcmake cmake -DATTN_WASM_SIMD=ON
configure build/wasm-scalar Release emcmake cmake -DATTN_WASM_SIMD=OFF
if [ "${1:-}" = wasm-tests ]; then
  for tree in wasm-simd wasm-scalar; do
    echo "[build] $tree: tests" >&2
    cmake --build "build/$tree" -j "$JOBS"
  done
  exit 0
fi
echo "[build] native" >&2
cmake --build build/native -j "$JOBS"
for tree in wasm-simd wasm-scalar; do
  echo "[build] $tree" >&2
  cmake --build "build/$tree" -j "$JOBS" --target attention_wasm
done

mkdir -p web/build
for flavour in simd scalar; do
  cp -p "build/wasm-$flavour/attention-$flavour.wasm" web/build/
  # The loader's Node-only import (cpp/binding/wasm-pre.js) marked for bundlers to leave alone: webpack
  # (Docusaurus) fails on a node: import in a browser bundle, and the minifier drops comments
  # written in wasm-pre.js, so the mark goes in here, once, or the build stops.
  node -e '
    const fs = require("fs"); const [from, to] = process.argv.slice(1);
    const text = fs.readFileSync(from, "utf8"); const call = `import("node:fs/promises")`;
    if (text.split(call).length !== 2) { console.error(`[build] ${from}: expected one ${call}`); process.exit(1); }
    fs.writeFileSync(to, text.replace(call, `import(/* webpackIgnore: true */ /* @vite-ignore */ "node:fs/promises")`));
  ' "build/wasm-$flavour/attention-$flavour.mjs" "web/build/attention-$flavour.mjs"
done

# KaTeX (npm devDependency) served from the site itself — no CDN, works under the strict CSP
# (no eval), with its licence, which goes wherever a copy goes. Only the woff2 fonts: every
# browser that runs WebAssembly SIMD reads woff2.
if [ -f node_modules/katex/dist/katex.mjs ]; then
  mkdir -p web/vendor/katex/fonts
  cp -p node_modules/katex/dist/katex.mjs node_modules/katex/dist/katex.min.css node_modules/katex/LICENSE web/vendor/katex/
  cp -p node_modules/katex/dist/fonts/*.woff2 web/vendor/katex/fonts/
else
  echo "[build] node_modules/katex is missing: run scripts/setup.sh (npm ci)" >&2
  exit 1
fi

# The notebook widget: one ES module with the SIMD .wasm inside (anywidget loads it from a blob: URL).
node scripts/build-widget.mjs
