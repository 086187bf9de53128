#!/usr/bin/env bash
# Fuzzes the core with libFuzzer under ASan + UBSan (build/sanitize, clang) and prints how many
# inputs it ran and what they reached; tests/fuzz/fuzz_core.cpp says what is checked.
#   bash scripts/fuzz.sh [SECONDS]       fuzz for SECONDS (default 600)
#   bash scripts/fuzz.sh --runs N        N inputs from seed 1 and the committed seeds alone: the same
#                                        inputs on every machine (npm test runs 3,000)
#   bash scripts/fuzz.sh --rerun FILE... run saved inputs once each (a crash file, a corpus file)
#   bash scripts/fuzz.sh --write-seeds   rewrite the committed seed corpus tests/fuzz/corpus from
#                                        tests/fuzz/seeds.cpp
# The run reads the committed seeds and never writes them: what it finds grows build/fuzz/corpus
# (kept between runs), an input that breaks an invariant is saved in build/fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh sanitize >/dev/null
FUZZER=build/sanitize/fuzz_core
SEEDS=tests/fuzz/corpus
WORK=build/fuzz

case "${1:-}" in
  --write-seeds)
    rm -f "$SEEDS"/*
    exec build/sanitize/fuzz_core_driver --write-seeds "$SEEDS" ;;
  --rerun)
    shift
    exec "$FUZZER" "$@" ;;
esac

mkdir -p "$WORK/corpus" "$WORK/crashes"
log=$WORK/last-run.log
if [ "${1:-}" = --runs ]; then
  # a fixed seed and a fresh corpus: what the run tries does not depend on earlier runs
  corpus=$(mktemp -d)
  trap 'rm -rf "$corpus"' EXIT
  limit=(-runs="${2:?--runs needs a count}" -seed=1)
  echo "[fuzz] libFuzzer with ASan + UBSan: ${2} inputs from seed 1 and the $(ls "$SEEDS" | wc -l) seeds of $SEEDS (log: $log)"
else
  corpus=$WORK/corpus
  limit=(-max_total_time="${1:-600}")
  echo "[fuzz] libFuzzer with ASan + UBSan for ${1:-600} s from the $(ls "$SEEDS" | wc -l) seeds of $SEEDS and the $(ls "$WORK/corpus" | wc -l) inputs of $WORK/corpus (log: $log)"
fi
# -max_len: values past an input's end are generated, so short inputs reach every size.
# -timeout: one input is at most a few hundred ms; anything near 30 s is a hang.
status=0
"$FUZZER" "${limit[@]}" -max_len=1024 -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$WORK/crashes/" "$corpus" "$SEEDS" >"$log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
echo "[fuzz] ${runs:-?} inputs executed (${rate:-?}/s), corpus now $(ls "$corpus" | wc -l) inputs; $(grep -m1 'INFO: Seed:' "$log" || true)"
sed -n '/^fuzz_core: /,$p' "$log"
if [ "$status" -ne 0 ]; then
  grep -A3 -E 'fuzz invariant violated|ERROR: (AddressSanitizer|libFuzzer)|runtime error' "$log" | head -40 >&2 || true
  grep -E '^(artifact_prefix|Test unit written)' "$log" >&2 || true
  echo "[fuzz] FAILED (exit $status): rerun the input with: bash scripts/fuzz.sh --rerun <the file above>" >&2
  exit "$status"
fi
