#!/usr/bin/env bash
# The test suites, in two tiers; assumes scripts/setup.sh and scripts/build.sh have run (npm test
# and npm run test:fast do both).
#   bash scripts/test.sh        everything, what CI runs (npm test): Catch2 natively first, alone
#     (seconds; it says early whether the core is sound), then two lanes side by side:
#     lane 1: node:test + Playwright on the page in Debian's headless Chromium (tests/browser/),
#             the longest part, started as early as it can be
#     lane 2: node:test (every file of tests/js/, then the lesson's and the training experiment's
#             claims again on the scalar build); Catch2 as WebAssembly under Node (SIMD and scalar,
#             each with the fuzz target's driver: seed corpus + generated inputs, 32-bit size_t),
#             built here (scripts/build.sh builds only the product's WebAssembly); the sanitizer
#             tree (build/sanitize: clang, ASan + UBSan) built and its Catch2 run, then libFuzzer
#             on it for a fixed number of inputs from a fixed seed (scripts/fuzz.sh runs long ones)
#     Lane 2's output is printed when it ends.
#   bash scripts/test.sh fast   for every edit (npm run test:fast): Catch2 natively and the
#     DOM-free node tests of tests/js/ but the slow ones named in SLOW_JS below
# Each node:test run also writes TAP to build/test-logs/; at the end the script prints each part's
# seconds and one closing line, "tests: N passed, N failed, N skipped". Under CI a skipped test
# fails the run: a tool missing there is a missing install step in scripts/setup.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
TIER=${1:-all}
case "$TIER" in all | fast) ;; *) echo "usage: bash scripts/test.sh [fast]" >&2; exit 2 ;; esac

# tests/js files the fast tier leaves to npm test: each takes more than ~10 s on 2 cores
# (measured in scripts/test.sh's own summary), and none is the only check of a JavaScript module.
SLOW_JS=(
  model-assets      # reruns the language model's first training steps natively
  vocab-induced     # refits the induced vectors over the Brown corpus
  soak              # 10,000 seeded engine calls per build
  notebook          # executes a notebook in a Python kernel
  widget-python     # imports PyTorch
  export-attention  # imports PyTorch
  package           # packs and installs the npm tarball
  package-lab
  package-errors
  package-size      # packs the tarball and the SCORM zip
  train-claims      # trains the experiment's runs over ten seeds
)

LOGS=build/test-logs
rm -rf "$LOGS" && mkdir -p "$LOGS"
export ATTN_TEST_FIXTURES=$PWD/$LOGS/fixtures  # made once a run: tests/support/corpus.mjs
START=$SECONDS
declare -a SUMMARY=()
status=0

# part <name> <command...>: runs a part, records its seconds and whether it passed.
part() {
  local name=$1; shift
  local t0=$SECONDS
  echo "== $name"
  if "$@"; then
    echo "$name|$((SECONDS - t0))|ok" >>"$LOGS/parts"
  else
    echo "$name|$((SECONDS - t0))|FAILED" >>"$LOGS/parts"
    return 1
  fi
}

# node:test over files, spec to the terminal and TAP to $LOGS/<tap>.tap (counted at the end).
node_tests() {
  local tap=$1; shift
  node --test --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$LOGS/$tap.tap" "$@"
}

ctest_tree() { ctest --test-dir "build/$1" --output-on-failure; }

js_files() {  # tests/js/*.test.* for the tier
  local f base skip
  for f in tests/js/*.test.mjs tests/js/*.test.js; do
    base=$(basename "$f"); base=${base%%.test.*}
    skip=0
    if [ "$TIER" = fast ]; then
      for s in "${SLOW_JS[@]}"; do [ "$s" = "$base" ] && skip=1; done
    fi
    [ $skip = 1 ] || echo "$f"
  done
}

scalar_claims() {
  ATTN_TEST_BUILD=scalar node_tests scalar --test-concurrency=2 tests/js/lesson.test.mjs tests/js/train-claims.test.mjs
}

# Each part runs whatever failed before it: one run shows every failure.
node_parts() {
  local files ok=0
  mapfile -t files < <(js_files)
  part "node:test (tests/js, ${#files[@]} files)" node_tests js --test-concurrency=2 "${files[@]}" || ok=1
  [ "$TIER" = fast ] && return $ok
  part "node:test (the lesson's and the training experiment's claims, scalar build)" scalar_claims || ok=1
  return $ok
}

lane_browser() {
  part "node:test (browser, two files at a time)" node_tests browser --test-concurrency=2 tests/browser/
}

lane_rest() {
  local ok=0
  node_parts || ok=1
  part "WebAssembly trees' tests built" bash scripts/build.sh wasm-tests || return 1
  part "Catch2 and the fuzz driver (wasm-simd)" ctest_tree wasm-simd || ok=1
  part "Catch2 and the fuzz driver (wasm-scalar)" ctest_tree wasm-scalar || ok=1
  part "sanitizer build (build/sanitize)" bash scripts/build.sh sanitize || return 1
  part "Catch2 under ASan + UBSan" ctest_tree sanitize || ok=1
  part "libFuzzer, ASan + UBSan, 3,000 inputs from seed 1" bash scripts/fuzz.sh --runs 3000 || ok=1
  return $ok
}

part "Catch2 (native)" ctest_tree native || status=1
if [ $status = 0 ]; then
  if [ "$TIER" = all ]; then
    lane_rest >"$LOGS/lane2.log" 2>&1 &
    rest_pid=$!
    lane_browser || status=1
    wait "$rest_pid" || status=1
    echo "== lane 2's output (build/test-logs/lane2.log)"
    cat "$LOGS/lane2.log"
  else
    node_parts || status=1
  fi
fi

# ---- the summary ---------------------------------------------------------------------------
pass=0 fail=0 skipped=0
for tap in "$LOGS"/*.tap; do
  [ -f "$tap" ] || continue
  # the run's own totals: the last "# pass N" etc. at the start of a line
  for k in pass fail cancelled skipped todo; do
    n=$(sed -n "s/^# $k \([0-9]*\)$/\1/p" "$tap" | tail -n1)
    n=${n:-0}
    case $k in pass) pass=$((pass + n)) ;; fail | cancelled) fail=$((fail + n)) ;; *) skipped=$((skipped + n)) ;; esac
  done
done
echo
echo "== where the time went ($TIER tier$([ "$TIER" = all ] && echo '; lane 2 ran beside lane 1'))"
while IFS='|' read -r name seconds result; do
  printf '  %5d s  %-8s %s\n' "$seconds" "$result" "$name"
done <"$LOGS/parts"
printf '  %5d s  in all\n' "$((SECONDS - START))"
if [ "$skipped" -gt 0 ]; then
  echo "node:test skipped $skipped test(s):"
  grep -h '# SKIP' "$LOGS"/*.tap | sed 's/^ */  /' | head -20
  if [ -n "${CI:-}" ]; then
    echo "a skip under CI is a failure: scripts/setup.sh must install what the test needs"
    status=1
  fi
fi
grep -q 'FAILED' "$LOGS/parts" && status=1
[ "$fail" -gt 0 ] && status=1
echo "tests: $pass passed, $fail failed, $skipped skipped"
exit $status
