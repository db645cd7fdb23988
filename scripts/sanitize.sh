#!/usr/bin/env bash
# The native GoogleTest suite (both kernel variants) under AddressSanitizer + UndefinedBehaviorSanitizer
# with clang, in its own build directory (build/asan), from the same CMakeLists.txt. Any report
# stops the test (-fno-sanitize-recover=all); LeakSanitizer checks every test binary at exit.
# Incremental: only what changed is rebuilt.
#
#   bash scripts/sanitize.sh            build and run
#   bash scripts/sanitize.sh --build    build only
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build/asan
jobs=$(nproc 2>/dev/null || echo 2)

cxx=$(command -v clang++ || command -v clang++-14 || true)
if [ -z "$cxx" ]; then
  echo "sanitize: clang++ not found (scripts/setup.sh installs it)" >&2
  exit 1
fi

# -O2 keeps the optimized kernels' code paths; _GLIBCXX_ASSERTIONS adds bounds checks to std::vector.
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -D_GLIBCXX_ASSERTIONS"
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
fi
if ! cmake --build "$dir" -j"$jobs" >"$dir/build.log" 2>&1; then
  cat "$dir/build.log" >&2
  exit 1
fi
[ "${1:-}" = "--build" ] && exit 0

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if ! ctest --test-dir "$dir" --output-on-failure -j2 >"$dir/ctest.log" 2>&1; then
  cat "$dir/ctest.log" >&2
  exit 1
fi
# The totals, and each skipped test with the reason it gave (a sanitizer's allocator hides what
# a memory test measures).
grep -E 'tests passed|\(Skipped\)' "$dir/ctest.log"
grep -A1 -E ': Skipped$' "$dir/Testing/Temporary/LastTest.log" | grep -vE ': Skipped$|^--$' | sort -u | sed 's/^/skipped because: /' || true
