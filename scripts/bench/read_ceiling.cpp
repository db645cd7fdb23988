// How fast one thread of WebAssembly reads GPT-2 small's block weights (12 layers × c_attn,
// attn.c_proj, mlp.c_fc, mlp.c_proj: 340 MB) in the patterns a decode step could use, built with
// the core's own kernels and run in Node: the ceiling a decode step's layers cannot beat. Rounds
// go round-robin over the patterns (so the shared machine's drift hits each alike); medians.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <wasm_simd128.h>

#include "kernels.h"

namespace {

struct Weight {
  size_t in, out;
  float* w;   // in × out, as the model stores it (Hugging Face's Conv1D layout)
  float* wt;  // out × in, a transposed copy (the layout dot products along rows would need)
};

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// A plain sequential read of n floats with four add chains (no multiply, nothing written).
__attribute__((noinline)) float sum(const float* x, size_t n) {
  v128_t a0 = wasm_f32x4_splat(0), a1 = a0, a2 = a0, a3 = a0;
  for (size_t i = 0; i + 16 <= n; i += 16) {
    a0 = wasm_f32x4_add(a0, wasm_v128_load(x + i));
    a1 = wasm_f32x4_add(a1, wasm_v128_load(x + i + 4));
    a2 = wasm_f32x4_add(a2, wasm_v128_load(x + i + 8));
    a3 = wasm_f32x4_add(a3, wasm_v128_load(x + i + 12));
  }
  return wasm_f32x4_extract_lane(wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3)), 0);
}

enum Pattern { kSum, kDecoder, kDotRows, kPatterns };
const char* const kNames[kPatterns] = {
    "plain sequential read (sum)",
    "the decoder's read: kernels::matmul of one row (rows of W into y)",
    "kernels::dot_rows along a transposed copy (out x in)",
};

float run(Pattern p, const std::vector<Weight>& weights, float* x, float* y) {
  float sink = 0;
  for (const Weight& m : weights) {
    if (p == kSum) sink += sum(m.w, m.in * m.out);
    if (p == kDecoder)
      attn::kernels::matmul(x, m.in, m.w, m.out, y, m.out, 1, m.out, m.in, 1.0f, false);
    if (p == kDotRows) attn::kernels::dot_rows(x, 1, m.wt, m.out, m.in, y, m.out);
    sink += y[0];
  }
  return sink;
}

}  // namespace

int main() {
  const size_t E = 768, layers = 12, shapes[4][2] = {{E, 3 * E}, {E, E}, {E, 4 * E}, {4 * E, E}};
  size_t floats = 0;
  for (auto& s : shapes) floats += layers * s[0] * s[1];
  float* block = static_cast<float*>(std::aligned_alloc(64, floats * sizeof(float)));
  float* transposed = static_cast<float*>(std::aligned_alloc(64, floats * sizeof(float)));
  std::vector<Weight> weights;
  size_t at = 0;
  for (size_t l = 0; l < layers; ++l)
    for (auto& s : shapes) {
      Weight m{s[0], s[1], block + at, transposed + at};
      for (size_t i = 0; i < s[0] * s[1]; ++i) m.w[i] = m.wt[i] = float((i * 7) % 13) * 0.01f;
      at += s[0] * s[1];
      weights.push_back(m);
    }
  std::vector<float> x(4 * E, 0.5f), y(4 * E);
  std::vector<double> ms[kPatterns];
  float sink = 0;
  const int warmup = 5, rounds = 40;
  for (int r = 0; r < warmup + rounds; ++r)
    for (int p = 0; p < kPatterns; ++p) {
      const double t0 = now_ms();
      sink += run(Pattern(p), weights, x.data(), y.data());
      if (r >= warmup) ms[p].push_back(now_ms() - t0);
    }
  const double mb = floats * sizeof(float) / 1e6;
  std::printf("GPT-2 small's block weights, %.0f MB, one thread, median of %d rounds:\n\n", mb,
              rounds);
  std::printf("| read pattern | ms | GB/s |\n| --- | ---: | ---: |\n");
  for (int p = 0; p < kPatterns; ++p) {
    std::sort(ms[p].begin(), ms[p].end());
    const double median = ms[p][ms[p].size() / 2];
    std::printf("| %s | %.2f | %.1f |\n", kNames[p], median, mb / median);
  }
  std::printf("\n(checksum %g)\n", double(sink));
}
