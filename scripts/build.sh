#!/usr/bin/env bash
# Incremental builds: the native library + GoogleTest suite (build/native) and the two WebAssembly
# variants (build/wasm-simd, build/wasm-scalar), each as the whole module and the base build the
# bundled page loads first, whose .mjs/.wasm land in web/lib/wasm/.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

# Two builds at once (a test run and an editor, say) would interleave links of the same outputs.
mkdir -p build
exec 9>build/.lock
flock 9

# GPT-2's tokenizer for pages served without a bundler: js-tiktoken's core and ranks as plain ES
# modules in web/lib/vendor/ (scripts/vendor/vendor-tiktoken.mjs; from node_modules, nothing fetched).
node scripts/vendor/vendor-tiktoken.mjs

if [ ! -f build/native/CMakeCache.txt ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/native -j"$jobs"

# Emscripten 3.1.6's JS optimizer needs Debian's acorn, which Node does not search by default.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
for variant in simd scalar; do
  dir=build/wasm-$variant
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    simd=ON; [ "$variant" = scalar ] && simd=OFF
    emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DATTN_SIMD=$simd >/dev/null
  fi
  cmake --build "$dir" -j"$jobs"
  mkdir -p web/lib/wasm
  # Copy under temporary names, then rename: a test loading the module meanwhile never sees a new
  # .mjs next to an old .wasm.
  changed=()
  for name in "attention-$variant" "attention-$variant-base"; do
    for ext in wasm mjs; do
      src="$dir/$name.$ext" dst="web/lib/wasm/$name.$ext"
      cmp -s "$src" "$dst" 2>/dev/null || { cp "$src" "$dst.tmp"; changed+=("$dst"); }
    done
  done
  for dst in "${changed[@]}"; do mv -f "$dst.tmp" "$dst"; done
done

# The production site, dist/: web/ bundled by esbuild (scripts/bundle.mjs); skipped when nothing
# under web/ changed since the last bundle.
node scripts/bundle.mjs
