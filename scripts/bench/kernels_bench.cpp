// Native Google Benchmark of the core's kernels and attention paths (x86 SSE4.1 through xsimd, or
// the scalar loops), for profiling kernels without a browser or Node: `bash
// scripts/bench/native.sh`. Native numbers are not the WebAssembly numbers (different compiler back
// end, FMA-less SSE vs V8's code), but the shapes of the curves and the relative cost of each stage
// carry over.
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
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * n * m * k, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Matmul)->Args({256, 512, 512})->Args({512, 512, 64})->Args({8, 8, 8});

// A decode step's product: one row (or a few) against a GPT-2 c_attn-sized B streamed in place.
// Bytes of B read per second is the number to watch (the step is bandwidth-bound).
void BM_MatmulFewRows(benchmark::State& state) {
  const size_t n = state.range(0), m = 2304, k = 768;
  auto a = random_floats(n * k, 12), b = random_floats(k * m, 13);
  std::vector<float> c(n * m);
  for (auto _ : state) {
    attn::kernels::matmul(a.data(), k, b.data(), m, c.data(), m, n, m, k, 1.0f, false);
    benchmark::DoNotOptimize(c.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(k * m * sizeof(float)));
}
BENCHMARK(BM_MatmulFewRows)->Arg(1)->Arg(4);

// Training's attention at the training view's size: four sequences of one head, T = 32, d = 8,
// forward and backward (kernels::causal_attention_x4).
void BM_CausalAttentionFourSequences(benchmark::State& state) {
  const size_t T = 32, d = state.range(0), ld = 3 * d;
  std::vector<std::vector<float>> qkv, o, dout, grads;
  attn::kernels::FourSequences in;
  in.ld_in = ld;
  float* w[4];
  float* out[4];
  const float* wc[4];
  const float* oc[4];
  const float* doc[4];
  float* g[12];
  std::vector<std::vector<float>> weights(4, std::vector<float>(T * T));
  for (size_t s = 0; s < 4; ++s) {
    qkv.push_back(random_floats(T * ld, 20 + s));
    o.emplace_back(T * d), dout.push_back(random_floats(T * d, 30 + s));
    in.q[s] = qkv[s].data(), in.k[s] = qkv[s].data() + d, in.v[s] = qkv[s].data() + 2 * d;
    w[s] = weights[s].data(), out[s] = o[s].data(), wc[s] = w[s], oc[s] = out[s],
    doc[s] = dout[s].data();
  }
  for (size_t i = 0; i < 12; ++i) grads.emplace_back(T * d), g[i] = grads[i].data();
  std::vector<float> scratch(attn::kernels::causal_attention_x4_scratch_floats(T, d));
  for (auto _ : state) {
    attn::kernels::causal_attention_x4(in, T, d, 0.35f, w, out, d, scratch.data());
    attn::kernels::causal_attention_x4_backward(in, T, d, 0.35f, wc, oc, doc, d, g, g + 4, g + 8, d,
                                                false, scratch.data());
    benchmark::DoNotOptimize(g[0]);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * 4);  // sequence-heads
}
BENCHMARK(BM_CausalAttentionFourSequences)->Arg(8)->Arg(16);

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
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * n * m * k, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
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
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Attention)
    ->ArgNames({"n", "weights", "causal"})
    ->Args({512, 0, 0})
    ->Args({512, 1, 0})
    ->Args({512, 0, 1})
    ->Args({8, 1, 0})
    ->Args({4096, 0, 0});

// Self-attention layer B = 1, n tokens, E = 512, h = 8, output only.
void BM_MultiHead(benchmark::State& state) {
  const size_t n = state.range(0), E = 512, H = 8;
  auto w = random_floats(4 * E * E, 9), b = random_floats(4 * E, 10), x = random_floats(n * E, 11);
  for (float& value : w) value *= 0.05f;
  attn::MultiHeadProblem p;
  p.shape = {E, H, E, E, true};
  p.weights = {w.data(), w.data() + E * E, w.data() + 2 * E * E, w.data() + 3 * E * E,
               b.data(), b.data() + E,     b.data() + 2 * E,     b.data() + 3 * E};
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
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_MultiHead)->Arg(256);

}  // namespace

BENCHMARK_MAIN();
