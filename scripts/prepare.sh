#!/usr/bin/env bash
# Builds what the package ships but git does not hold: the two WebAssembly builds and the notebook
# widget bundled from them (web/build/), and KaTeX (web/vendor/katex/, with its licence). npm runs
# this as the `prepare` script: before `npm pack` and `npm publish`, on `npm install` in a clone,
# and when it installs the package from a git URL — so no package is made without its core.
# Needs the tools scripts/setup.sh installs; fetches the project-local parts itself (xsimd:
# `setup.sh local`). Without the tools, stops with what is missing instead of making a package
# whose createEngine() cannot load.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v em++ >/dev/null || missing+=("Emscripten (em++)")
command -v cmake >/dev/null || missing+=("CMake")
command -v g++ >/dev/null || missing+=("g++")
[ -f /usr/include/catch2/catch.hpp ] || missing+=("Catch2 (its header /usr/include/catch2/catch.hpp)")
[ -f third_party/xsimd/include/xsimd/xsimd.hpp ] || command -v curl >/dev/null || missing+=("curl (to fetch the xsimd headers)")
[ -f node_modules/katex/dist/katex.mjs ] && [ -d node_modules/esbuild ] || missing+=("the npm devDependencies (npm install)")
if [ ${#missing[@]} -gt 0 ]; then
  {
    echo "attention-lab: building the package needs its WebAssembly toolchain, and this machine lacks:"
    printf '  - %s\n' "${missing[@]}"
    echo "On Debian 12, \`npm run setup\` installs them (as root, or with sudo)."
    echo "To use the package without building it, install a packed tarball instead: npm install ./attention-lab-<version>.tgz"
  } >&2
  exit 1
fi
bash scripts/setup.sh local
bash scripts/build.sh
