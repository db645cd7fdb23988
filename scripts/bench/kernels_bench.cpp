// Native Google Benchmark of the core's kernels and attention paths (x86 SSE4.1 through xsimd, or
// the scalar loops), for profiling kernels without a browser or Node: `bash scripts/bench/native.sh`.
// Native numbers are not the WebAssembly numbers (different compiler back end, FMA-less SSE vs V8's
// code), but the shapes of the curves and the relative cost of each stage carry over.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "attention.h"
#include "kernels.h"
#include "multi_head_attention.h"

namespace {

std::vector<float> random_floats(size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist;
  std::vector<float> v(count);
  for (float& x : v) x = dist(gen);
  return v;
}

// c (n × m) = a (n × k) · b (k × m), B packed on the fly (the projections of multi-head attention).
void BM_Matmul(benchmark::State& state) {
  const size_t n = state.range(0), m = state.range(1), k = state.range(2);
  auto a = random_floats(n * k, 1), b = random_floats(k * m, 2);
  std::vector<float> c(n * m);
  for (auto _ : state) {
    attn::kernels::matmul(a.data(), k, b.data(), m, c.data(), m, n, m, k, 1.0f, false);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * m * k, benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Matmul)->Args({256, 512, 512})->Args({512, 512, 64})->Args({8, 8, 8});

// Q·Kᵀ on pre-packed Kᵀ panels (the score product of one attention head).
void BM_MatmulPacked(benchmark::State& state) {
  const size_t n = state.range(0), m = state.range(1), k = state.range(2);
  auto a = random_floats(n * k, 3), keys = random_floats(m * k, 4);
  std::vector<float> panels(attn::kernels::packed_floats(k, m)), c(n * m);
  attn::kernels::pack_panels_transposed(keys.data(), k, k, m, panels.data());
  for (auto _ : state) {
    attn::kernels::matmul_packed(a.data(), k, panels.data(), k, c.data(), m, n, m, k, 1.0f, false);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * m * k, benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
}
BENCHMARK(BM_MatmulPacked)->Args({512, 512, 64});

// Softmax numerators of one 256-key tile row (the exponential).
void BM_ExpScaledShiftedSum(benchmark::State& state) {
  const size_t len = state.range(0);
  auto src = random_floats(len, 5);
  std::vector<float> x(len);
  for (auto _ : state) {
    x = src;
    benchmark::DoNotOptimize(attn::kernels::exp_scaled_shifted_sum(x.data(), len, 0.125f, 0.5f));
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(len));
}
BENCHMARK(BM_ExpScaledShiftedSum)->Arg(256);

// One head: range(1) = 1 materializes the n × m weights, 0 streams (output only); range(2) causal.
void BM_Attention(benchmark::State& state) {
  const size_t n = state.range(0), d = 64;
  auto q = random_floats(n * d, 6), k = random_floats(n * d, 7), v = random_floats(n * d, 8);
  attn::AttentionProblem p;
  p.n = p.m = n, p.dk = p.dv = d, p.q = q.data(), p.k = k.data(), p.v = v.data();
  p.scale = 1.0f / std::sqrt(float(d));
  p.causal = state.range(2) != 0;
  std::vector<float> out(n * d), weights(state.range(1) ? n * n : 0);
  attn::AttentionResult r;
  r.output = out.data();
  r.weights = weights.empty() ? nullptr : weights.data();
  std::vector<float> workspace(attn::attention_workspace_floats(p, r));
  for (auto _ : state) {
    attn::scaled_dot_product_attention(p, r, workspace.data());
    benchmark::DoNotOptimize(out.data());
  }
  const double flops = 4.0 * n * n * d * (p.causal ? 0.5 : 1.0);
  state.counters["GFLOP/s"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Attention)->ArgNames({"n", "weights", "causal"})
    ->Args({512, 0, 0})->Args({512, 1, 0})->Args({512, 0, 1})->Args({8, 1, 0})->Args({4096, 0, 0});

// Self-attention layer B = 1, n tokens, E = 512, h = 8, output only.
void BM_MultiHead(benchmark::State& state) {
  const size_t n = state.range(0), E = 512, H = 8;
  auto w = random_floats(4 * E * E, 9), b = random_floats(4 * E, 10), x = random_floats(n * E, 11);
  for (float& value : w) value *= 0.05f;
  attn::MultiHeadProblem p;
  p.shape = {E, H, E, E, true};
  p.weights = {w.data(), w.data() + E * E, w.data() + 2 * E * E, w.data() + 3 * E * E,
               b.data(), b.data() + E, b.data() + 2 * E, b.data() + 3 * E};
  p.n = p.m = n, p.query = p.key = p.value = x.data();
  std::vector<float> out(n * E);
  attn::MultiHeadResult r;
  r.output = out.data();
  std::vector<float> workspace(attn::multi_head_workspace_floats(p, r));
  for (auto _ : state) {
    attn::multi_head_attention(p, r, workspace.data());
    benchmark::DoNotOptimize(out.data());
  }
  const double flops = 8.0 * n * E * E + 4.0 * n * n * E;
  state.counters["GFLOP/s"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
}
BENCHMARK(BM_MultiHead)->Arg(256);

}  // namespace

BENCHMARK_MAIN();
