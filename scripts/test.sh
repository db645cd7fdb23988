#!/usr/bin/env bash
# The whole suite, as CI runs it after a build: GoogleTest (CTest) for the C++ core, node --test for
# the JS API on both WebAssembly builds, headless Chromium for the page (the production site, dist/,
# and the unbundled web/ for the development path), a smoke set in headless Firefox, the C++ suite under
# sanitizers and a short fuzzing run. Stops at the first failing suite; at the end (and on failure)
# prints how many tests each suite ran and names every skipped test with its reason.
#
#   bash scripts/test.sh            everything (npm test)
#   bash scripts/test.sh --quick    the everyday tier (npm run test:quick): the C++ SIMD tests, the
#                                   node tests without the slow packaging and long property files,
#                                   and a smoke run of the page
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/test-lib.sh

suite "lint: ESLint, Prettier, clang-format and the stylesheets" npm run --silent lint
if [ "${1:-}" = "--quick" ]; then
  suite "C++ core: GoogleTest, SIMD kernels" ctest --test-dir build/native --output-on-failure -j2 -R '^simd\.'
  suite "JS API and page model: node --test (quick files)" node --test --test-reporter=tap $(quick_js_files)
  suite "page: headless Chromium (smoke)" node --test --test-reporter=tap \
    --test-name-pattern='the lesson NumPy example' tests/e2e/explorer.test.mjs
  summary
  exit 0
fi

suite "C++ core: GoogleTest via CTest (SIMD and scalar kernels)" ctest --test-dir build/native --output-on-failure -j2
suite "JS API: node --test on the SIMD and scalar WebAssembly builds" node --test --test-reporter=tap tests/js/
# The sanitizer and fuzzing builds (clang, ~3 min of compiling on 2 cores from scratch) run at the
# lowest priority while the browser suites mostly wait on their pages; the suites below then
# build only what is left (nothing, or what the builds here failed on, with its errors).
( nice -n 19 bash scripts/sanitize.sh --build && nice -n 19 bash scripts/fuzz.sh --build ) \
  >build/test-logs/native-builds.log 2>&1 &
native_builds=$!
suite "page: headless Chromium" node --test --test-reporter=tap tests/e2e/
suite "page: headless Firefox (firefox-esr via WebDriver BiDi), the smoke set" node --test --test-reporter=tap tests/e2e-firefox/
# Reliability: the native suite under sanitizers, and a short fuzzing run. Both build
# incrementally with clang in their own directories (build/asan, build/fuzz).
wait "$native_builds" || true
suite "C++ core: GoogleTest under AddressSanitizer + UndefinedBehaviorSanitizer" bash scripts/sanitize.sh
suite "C++ core: libFuzzer harnesses, short run over the committed corpus" bash scripts/fuzz.sh --short
summary
