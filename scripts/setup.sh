#!/usr/bin/env bash
# Installs what the build and tests need, only when it is missing (safe to run every time):
# Debian packages (Emscripten, xsimd, GoogleTest, wabt, Chromium, NumPy) and the npm packages of
# package-lock.json. With --full (npm test) also what only the whole suite uses: PyTorch, which
# runs the page's exported PyTorch scripts, and Firefox ESR for the page's Firefox smoke set.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
need() { # need <package> <test command...>
  local pkg=$1; shift
  "$@" >/dev/null 2>&1 || missing+=("$pkg")
}
need cmake command -v cmake
need g++ command -v g++
need make command -v make
need emscripten command -v em++
need libxsimd-dev test -f /usr/include/xsimd/xsimd.hpp
need libgtest-dev test -f /usr/include/gtest/gtest.h
need wabt command -v wasm-objdump
need chromium command -v chromium
need clang-format command -v clang-format
# Fonts the page is tested with (chromium only recommends them; installs here skip recommends).
need fonts-liberation test -d /usr/share/fonts/truetype/liberation
need fonts-dejavu-core test -d /usr/share/fonts/truetype/dejavu
# pdftotext and pdftoppm: the print test reads back the PDF Chromium prints.
need poppler-utils command -v pdftotext
# NumPy for the system Python: the tests run the page's exported NumPy scripts.
need python3-numpy /usr/bin/python3 -c "import numpy"
if [ "${1:-}" = "--full" ]; then
  need python3-torch /usr/bin/python3 -c "import torch"
  # The Firefox smoke set of the page tests (tests/e2e-firefox/, driven by puppeteer-core).
  need firefox-esr command -v firefox-esr
fi
# clang with its sanitizer and libFuzzer runtimes, for scripts/sanitize.sh and scripts/fuzz.sh
need clang command -v clang++
need libclang-rt-14-dev compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a"

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages: reinstall only when package-lock.json changed since the last install.
stamp=node_modules/.package-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi

# Tools of the consumer tests (TypeScript, Jest with jsdom, Vite; tests/js/consumers.test.mjs and
# tests/e2e/bundled-app.test.mjs) have their own package.json, installed the same way: only when
# their lock file changed since the last install.
stamp=tests/consumers/node_modules/.package-lock.sha256
want=$(sha256sum tests/consumers/package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing the consumer-test tools (tests/consumers)"
  (cd tests/consumers && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi
