#!/usr/bin/env bash
# Regenerates the language model of docs/model.md: the corpus (scripts/model/prepare-corpus.mjs),
# the n-gram baselines, then both twins — scaled and unscaled, the same seed, data order and
# initialisation — trained side by side, one process per core. Each writes a resumable
# checkpoint and its loss curves under build/model/ (git-ignored): run the script again after
# an interruption and both continue where they stopped, to the same numbers.
#   bash scripts/model/train-model.sh [train_model train options...]   (npm run train:model)
# e.g. --minutes 20 stops both after 20 minutes of training (run again to go on).
# The twins' settings are scripts/model/twins.options (trial I of docs/model.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh local  # the xsimd headers, when this checkout has not built yet
[ -f build/native/CMakeCache.txt ] || cmake -B build/native -S . -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native --target train_model -j "${JOBS:-2}"
node scripts/model/prepare-corpus.mjs
build/native/train_model baselines | tee build/model/baselines.md
read -ra options <<<"$(sed 's/#.*//' scripts/model/twins.options | tr '\n' ' ')"
pids=()
for variant in scaled unscaled; do
  build/native/train_model train --variant "$variant" "${options[@]}" "$@" > >(tee "build/model/$variant.log") 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
[ $status = 0 ] || exit $status
# both twins finished: what the page and the API load goes to web/assets/model/ (committed)
if grep -q 'test perplexity' build/model/scaled.log && grep -q 'test perplexity' build/model/unscaled.log; then
  node scripts/model/ship-model.mjs
  node scripts/model/measure-heads.mjs  # what each shipped head does over the test text
fi
