#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian 12 machine: installs only what is missing, then exits.
#   Debian packages : emscripten, catch2, chromium, cmake, g++; clang and libclang-rt-14-dev (the
#                     sanitizer and libFuzzer runtimes) for build/sanitize; libxml2-utils and
#                     unzip for the SCORM package's test; python3-torch for the test of the attention
#                     export from a PyTorch model; python3-nbclient, python3-nbconvert and
#                     python3-ipykernel for the test that executes the notebook fallback, and
#                     python3-venv for the environment its wheel is installed into; mkdocs
#                     and mkdocs-material for the MkDocs site's test; librsvg2-bin and
#                     fonts-dejavu-core for the PNG test (the font PNG is drawn in)
#   xsimd 13.2      : headers from the pinned Debian trixie .deb, sha256-checked, unpacked into
#                     third_party/xsimd (git-ignored) — bookworm's xsimd 8 has no WebAssembly arch
#   npm packages    : from package-lock.json (npm ci), only when node_modules is missing or stale
# No registry or mirror host is written here: the Debian mirror is read from apt's own sources,
# npm uses its configured registry.
#   bash scripts/setup.sh          everything above
#   bash scripts/setup.sh local    only the project-local parts (xsimd, the Catch2 include folder):
#                                  no root, no npm; scripts/prepare.sh runs this before a build
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE=${1:-all}

XSIMD_VERSION=13.2.0-1
XSIMD_SHA256=60878acfc02bfca76e8c31d53a1b9fdff490c319e53f620f4327c9786eaf631f
XSIMD_DIR=$ROOT/third_party/xsimd

log() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*"; exit 1; fi
}

# --- 1. Debian packages (not in local mode: it installs nothing, so it probes nothing) ------
if [ "$MODE" = all ]; then
  missing=()
  command -v em++ >/dev/null || missing+=(emscripten)
  [ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v cmake >/dev/null || missing+=(cmake)
  command -v g++ >/dev/null || missing+=(g++)
  command -v make >/dev/null || missing+=(make)
  command -v curl >/dev/null || missing+=(curl ca-certificates)
  command -v clang++ >/dev/null || missing+=(clang)
  command -v xmllint >/dev/null || missing+=(libxml2-utils) # SCORM manifests against ADL's schemas; every SVG parsed
  command -v unzip >/dev/null || missing+=(unzip)            # the SCORM package unpacked by a reader not our own
  command -v rsvg-convert >/dev/null || missing+=(librsvg2-bin) # the figures' text as rsvg draws it (spaces kept)
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core) # PNG's font (bin/png.js)
  # PyTorch, Debian's, for the test of the export of any model's attention (Debian's own python3)
  /usr/bin/python3 -c 'import torch' 2>/dev/null || missing+=(python3-torch)
  # a notebook executed with a real kernel, for the test of the notebook fallback (python/)
  /usr/bin/python3 -c 'import nbclient' 2>/dev/null || missing+=(python3-nbclient)
  /usr/bin/python3 -c 'import nbconvert' 2>/dev/null || missing+=(python3-nbconvert)
  /usr/bin/python3 -c 'import ipykernel' 2>/dev/null || missing+=(python3-ipykernel)
  # a fresh virtual environment for the test that installs the notebook side's wheel
  /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
  # and what builds that wheel offline (npm run python:wheel)
  # setuptools first: imported after pip (which loads the standard distutils) it refuses to load
  /usr/bin/python3 -c 'import setuptools, pip, wheel' 2>/dev/null || missing+=(python3-pip python3-setuptools python3-wheel)
  # MkDocs and its Material theme, Debian's, for the test of the lab on a MkDocs site
  command -v mkdocs >/dev/null || missing+=(mkdocs)
  [ -d /usr/share/mkdocs/themes/material ] || missing+=(mkdocs-material)
  # libFuzzer, ASan and UBSan come with clang's runtime package: can clang link a fuzz target?
  fuzz_probe=$(mktemp -d)
  printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$fuzz_probe/probe.cpp"
  command -v clang++ >/dev/null && clang++ -fsanitize=fuzzer,address,undefined "$fuzz_probe/probe.cpp" -o "$fuzz_probe/probe" 2>/dev/null ||
    missing+=(libclang-rt-14-dev)
  rm -rf "$fuzz_probe"
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

# --- 2. xsimd 13.2 headers --------------------------------------------------------------------
if [ ! -f "$XSIMD_DIR/include/xsimd/xsimd.hpp" ] || [ "$(cat "$XSIMD_DIR/VERSION" 2>/dev/null)" != "$XSIMD_VERSION" ]; then
  mirror=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | awk '{print $1}' | grep -v -- '-security' | head -n1 || true)
  if [ -z "$mirror" ]; then   # one-line sources.list format
    mirror=$(awk '$1=="deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  fi
  [ -n "$mirror" ] || { log "cannot read a Debian mirror from apt's sources"; exit 1; }
  deb=libxsimd-dev_${XSIMD_VERSION}_amd64.deb   # header-only; the amd64 build is the pinned one
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  log "fetching xsimd $XSIMD_VERSION from the configured Debian mirror"
  curl -fsSL --retry 3 -o "$tmp/$deb" "${mirror%/}/pool/main/x/xsimd/$deb"
  [ -s "$tmp/$deb" ] || { log "xsimd .deb download failed"; exit 1; }
  echo "$XSIMD_SHA256  $tmp/$deb" | sha256sum -c --quiet - || { log "xsimd .deb checksum mismatch"; exit 1; }
  dpkg-deb -x "$tmp/$deb" "$tmp/x"
  rm -rf "$XSIMD_DIR" && mkdir -p "$XSIMD_DIR"
  cp -r "$tmp/x/usr/include" "$XSIMD_DIR/include"
  echo "$XSIMD_VERSION" > "$XSIMD_DIR/VERSION"
fi

# --- 3. Catch2 include folder that holds only catch2 (never -I/usr/include under em++) -------
mkdir -p "$ROOT/third_party/catch2-include"
ln -sfn /usr/include/catch2 "$ROOT/third_party/catch2-include/catch2"

# --- 4. npm packages --------------------------------------------------------------------------
stamp=node_modules/.package-lock.json
if [ "$MODE" = all ] && { [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; }; then
  log "installing npm packages"
  # --ignore-scripts: installing is not building (the package's prepare script builds)
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
fi
