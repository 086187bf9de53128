#!/usr/bin/env bash
# Issue 34's short trials (docs/model.md, "Trials"), one training process at a time, niced to
# the bottom: each writes build/model-trials/<name>/ (git-ignored) and resumes from its
# checkpoint when run again.
#   bash scripts/model/run-trials.sh [name ...]      (default: all of them, in order)
# First: node scripts/model/prepare-corpus.mjs --out build/model-4k (4,000 words, the default)
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --build build/native --target train_model -j "${JOBS:-2}" >/dev/null
SHORT=(--data build/model-4k --steps 600 --eval-every 100 --watch-every 50)
# trial I became the shipped twins: its settings are theirs, in one place
read -ra TWINS <<<"$(sed 's/#.*//' scripts/model/twins.options | tr '\n' ' ')"
LONG_I=(--data build/model-4k "${TWINS[@]}")
trial() {  # name variant options...
  local name=$1 variant=$2
  shift 2
  mkdir -p "build/model-trials/$name"
  echo "== $name $variant: $*" >>"build/model-trials/$name/$variant.log"
  nice -n 19 build/native/train_model train --variant "$variant" --out "build/model-trials/$name" "$@" \
    >>"build/model-trials/$name/$variant.log" 2>&1
  nice -n 19 build/native/train_model measure --data "${DATA:-build/model-4k}" \
    --checkpoint "build/model-trials/$name/$variant.ckpt" >"build/model-trials/$name/$variant-measure.md"
}
run() {
  case $1 in
    A) for v in scaled unscaled; do trial A $v "${SHORT[@]}" --repeat-share 0.2 --qk-init-std unit; done ;;
    B) trial B scaled "${SHORT[@]}" --repeat-share 0.2 --qk-init-std unit --attention-only ;;
    C) trial C scaled "${SHORT[@]}" --repeat-share 0.5 --repeat-min 8 --repeat-max 32 --qk-init-std unit --attention-only ;;
    D) trial D scaled --data build/model-4k --steps 1500 --eval-every 250 --watch-every 100 --minutes "${MINUTES:-0}" \
         --repeat-share 0.5 --repeat-min 8 --repeat-max 32 --qk-init-std unit --attention-only ;;
    E) for v in scaled unscaled; do
         trial E $v --data build/model-4k --steps 3000 --eval-every 250 --watch-every 100 --context 128 \
           --repeat-share 0.5 --repeat-min 8 --repeat-max 32 --qk-init-std unit
       done ;;
    # F: the repeated spans are random words, which only an induction circuit predicts
    F) trial F scaled --data build/model-4k --steps 3000 --eval-every 250 --watch-every 100 \
         --repeat-share 0.5 --repeat-min 8 --repeat-max 32 --repeat-random --qk-init-std unit ;;
    # G: F longer, with more of the windows repeating (F formed a previous-token head, no induction)
    G) trial G scaled --data build/model-4k --steps 6000 --eval-every 500 --watch-every 200 \
         --repeat-share 0.8 --repeat-min 8 --repeat-max 32 --repeat-random --qk-init-std unit ;;
    # H: G's data on attention-only layers, where small models are known to form induction soonest
    H) trial H scaled --data build/model-4k --steps 4000 --eval-every 500 --watch-every 200 \
         --repeat-share 0.8 --repeat-min 8 --repeat-max 32 --repeat-random --qk-init-std unit --attention-only ;;
    # I: H for twice as long (H's induction score rose from 0.038 to 0.119 in its last 1,000 steps)
    I) trial I scaled "${LONG_I[@]}" ;;
    # Iu: I's unscaled twin (the same initialisation and batches: seed 1); I2, I3: both twins at seeds 2, 3
    Iu) trial I unscaled "${LONG_I[@]}" ;;
    I2|I3) for v in scaled unscaled; do trial "$1" $v "${LONG_I[@]}" --seed "${1#I}"; done ;;
    *) echo "no trial $1" >&2; exit 2 ;;
  esac
}
for name in "${@:-A B}"; do for n in $name; do run "$n"; done; done
