#!/usr/bin/env bash
# libFuzzer harnesses for the C++ core (tests/fuzz/), built with clang under ASan + UBSan in
# build/fuzz (incremental). Each run first replays the committed corpus (tests/fuzz/corpus/<name>/,
# the regression inputs), then mutates; new inputs go to build/fuzz/corpus/<name>/, crashes to
# build/fuzz/artifacts/.
#
#   bash scripts/fuzz.sh --short        CI: every harness, about 3 s each (npm test runs this)
#   bash scripts/fuzz.sh [seconds]      long run: every harness for `seconds` (default 600) each
#   bash scripts/fuzz.sh --merge        fold build/fuzz/corpus into the committed corpus, minimized
#   bash scripts/fuzz.sh --build        build only
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build/fuzz
jobs=$(nproc 2>/dev/null || echo 2)
mode=${1:-600}

# binary:corpus — the SIMD and scalar builds of a harness share one corpus.
harnesses=(attention_simd:attention attention_scalar:attention multi_head_simd:multi_head
  multi_head_scalar:multi_head attention_backward_simd:attention_backward
  attention_backward_scalar:attention_backward numpy_random:numpy_random lessons:lessons)

cxx=$(command -v clang++ || command -v clang++-14 || true)
if [ -z "$cxx" ]; then
  echo "fuzz: clang++ not found (scripts/setup.sh installs it)" >&2
  exit 1
fi
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S tests/fuzz -B "$dir" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
fi
if ! cmake --build "$dir" -j"$jobs" >"$dir/build.log" 2>&1; then
  cat "$dir/build.log" >&2
  exit 1
fi
[ "$mode" = --build ] && exit 0

if [ "$mode" = --merge ]; then
  for entry in "${harnesses[@]}"; do
    bin=${entry%%:*} corpus=${entry#*:}
    [ -d "$dir/corpus/$corpus" ] || continue
    mkdir -p "tests/fuzz/corpus/$corpus"
    # Edge coverage only (-use_counters=0) keeps the committed corpus small.
    "$dir/fuzz_$bin" -merge=1 -use_counters=0 "tests/fuzz/corpus/$corpus" "$dir/corpus/$corpus" 2>&1 | grep -E '^MERGE-OUTER: [0-9]+ new files' || true
  done
  exit 0
fi

# The short run starts from the committed corpus alone each time (a predictable few seconds);
# the long run keeps growing build/fuzz/corpus.
seconds=$mode work=$dir/corpus
if [ "$mode" = --short ]; then
  seconds=3 work=$dir/short-corpus
  rm -rf "$work"
fi
mkdir -p "$dir/artifacts" "$dir/logs"
status=0
for entry in "${harnesses[@]}"; do
  bin=${entry%%:*} corpus=${entry#*:}
  mkdir -p "$work/$corpus" "tests/fuzz/corpus/$corpus"
  log=$dir/logs/$bin.log
  if "$dir/fuzz_$bin" "$work/$corpus" "tests/fuzz/corpus/$corpus" \
      -max_total_time="$seconds" -max_len=2048 -len_control=0 -timeout=20 -rss_limit_mb=2048 \
      -artifact_prefix="$dir/artifacts/$bin-" -print_final_stats=1 >"$log" 2>&1; then
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')
    echo "fuzz $bin: $runs inputs in ${seconds} s, no findings"
  else
    status=1
    echo "fuzz $bin: FAILED" >&2
    grep -Ev '^(#|INFO:|MERGE|\s*$)' "$log" | head -40 >&2
    for a in "$dir/artifacts/$bin-"*; do
      [ -e "$a" ] && echo "  reproduce: $dir/fuzz_$bin $a   (once fixed, keep it: cp $a tests/fuzz/corpus/$corpus/)" >&2
    done
  fi
done
exit $status
