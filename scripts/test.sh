#!/usr/bin/env bash
# Runs every test suite after a build: GoogleTest (CTest) for the C++ core, node --test for the JS
# API on both WebAssembly builds, and headless Chromium for the page. Stops at the first failing suite.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== C++ core: GoogleTest via CTest (SIMD and scalar kernels)"
ctest --test-dir build/native --output-on-failure -j2

echo "== JS API: node --test on the SIMD and scalar WebAssembly builds"
node --test tests/js/

if compgen -G "tests/e2e/*.test.mjs" >/dev/null; then
  echo "== page: headless Chromium"
  node --test tests/e2e/
fi
