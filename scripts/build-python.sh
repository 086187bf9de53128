#!/usr/bin/env bash
# `npm run python:wheel [-- DIR]`: the notebook side (python/) as a wheel in dist/python/ (or DIR), built offline with
# Debian's Python, pip and setuptools (no index, no build isolation); python/setup.py copies the
# widget's module (web/build/attention-widget.js, built by scripts/build.sh) inside. Install it
# with `pip install --no-index dist/python/attention_lab-*.whl`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f web/build/attention-widget.js ] || bash scripts/build.sh
out=${1:-dist/python}
rm -rf python/build python/attention_lab.egg-info "$out"/attention_lab-*.whl
/usr/bin/python3 -m pip wheel --quiet --no-index --no-deps --no-build-isolation --wheel-dir "$out" ./python
rm -rf python/build python/attention_lab.egg-info
ls "$out"/attention_lab-*.whl
