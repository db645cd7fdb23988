#!/usr/bin/env bash
# `npm run bench:read-ceiling`: scripts/bench/read_ceiling.cpp, linked with the SIMD WebAssembly
# build's core library and run in Node: how fast one thread reads GPT-2 small's block weights in
# the patterns a decode step could use (docs/performance.md, "GPT-2 small").
set -euo pipefail
cd "$(dirname "$0")/../.."
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
out=build/bench/read-ceiling.cjs
mkdir -p build/bench
if [ ! -f "$out" ] || [ scripts/bench/read_ceiling.cpp -nt "$out" ] ||
  [ build/wasm-simd/libattention_core.a -nt "$out" ]; then
  # One file (the .wasm inlined): Node 20's fetch cannot load a .wasm path next to the script.
  em++ -O3 -msimd128 -std=c++17 -Isrc/core scripts/bench/read_ceiling.cpp \
    build/wasm-simd/libattention_core.a -s ALLOW_MEMORY_GROWTH=1 -s MAXIMUM_MEMORY=4294967296 \
    -s ENVIRONMENT=node -s SINGLE_FILE=1 -o "$out"
fi
node -e "import('./scripts/bench/machine.mjs').then((m) => console.log('CPU: ' + m.cpuDescription() + ', Node ' + process.version))"
# main() runs once, so V8 would never swap its loops from the baseline compiler to the optimizing
# one that the model's long-lived calls run on: compile with the optimizing one from the start.
node --no-liftoff "$out"
