#!/usr/bin/env bash
# Builds what the package ships but git does not hold: the two WebAssembly builds (web/build/) and
# KaTeX (web/vendor/katex/, with its licence). npm runs this before `npm pack` and `npm publish`,
# and when it installs the package from a git URL, so no tarball is ever made without its core.
# Needs the toolchain scripts/setup.sh installs; without it, stops with what is missing instead
# of packing a package whose createEngine() cannot load.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v em++ >/dev/null || missing+=("Emscripten (em++)")
command -v cmake >/dev/null || missing+=("CMake")
command -v g++ >/dev/null || missing+=("g++")
[ -f /usr/include/catch2/catch.hpp ] || missing+=("Catch2 (the native test tree)")
[ -f third_party/xsimd/include/xsimd/xsimd.hpp ] || missing+=("xsimd 13.2 headers (third_party/xsimd)")
[ -f node_modules/katex/dist/katex.mjs ] || missing+=("the npm devDependencies (katex)")
if [ ${#missing[@]} -gt 0 ]; then
  {
    echo "attention-lab: packing builds the WebAssembly core, and this machine lacks:"
    printf '  - %s\n' "${missing[@]}"
    echo "Run \`npm run setup\` (Debian 12: installs them), then pack again."
    echo "To use the package without building it, install a packed tarball: npm install ./attention-lab-<version>.tgz"
  } >&2
  exit 1
fi
bash scripts/build.sh
