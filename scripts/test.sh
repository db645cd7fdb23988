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

# ---- Reliability: the native suite under sanitizers, and a short fuzzing run. Both build
# incrementally with clang in their own directories (build/asan, build/fuzz).
echo "== C++ core: GoogleTest under AddressSanitizer + UndefinedBehaviorSanitizer"
bash scripts/sanitize.sh
echo "== C++ core: libFuzzer harnesses, short run over the committed corpus"
bash scripts/fuzz.sh --short
