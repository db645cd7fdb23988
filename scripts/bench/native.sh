#!/usr/bin/env bash
# Native Google Benchmark of the kernels (SIMD via SSE4.1, and scalar): installs libbenchmark-dev
# when missing, builds the optional kernels_bench_* targets and runs them. Extra arguments go to
# the benchmark binaries, e.g. --benchmark_filter=Attention.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f /usr/include/benchmark/benchmark.h ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends libbenchmark-dev >/dev/null
fi
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j"$(nproc 2>/dev/null || echo 2)" --target kernels_bench_simd kernels_bench_scalar
for variant in simd scalar; do
  echo "== native kernels, $variant"
  "build/native/kernels_bench_$variant" "$@"
done
