#!/usr/bin/env bash
# npm run bench: builds what the benchmark needs, installs the peer libraries into
# scripts/bench/node_modules on demand (npm's configured registry, this folder's lock file), then
# runs every implementation interleaved in one Node process: attention (bench.mjs), the
# training experiment (train.mjs), then the trained language model's forward and training steps
# (model.mjs). Results: artifacts/bench/.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}   # emcc's JS optimiser (docs/toolchain.md)
bash scripts/setup.sh
bash scripts/build.sh
cmake --build build/wasm-simd --target peak_bench -j "${JOBS:-$(nproc)}" >/dev/null
stamp=scripts/bench/node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ scripts/bench/package-lock.json -nt "$stamp" ]; then
  echo "[bench] installing the peer libraries into scripts/bench/node_modules" >&2
  npm --prefix scripts/bench ci --no-audit --no-fund --loglevel=error
fi
# --expose-gc: a clean heap before each timed batch
node --expose-gc scripts/bench/bench.mjs "$@"
node --expose-gc scripts/bench/train.mjs "$@"  # the training row (docs/training.md)
exec node --expose-gc scripts/bench/model.mjs "$@"  # the language model's rows (docs/model.md, "Speed")
