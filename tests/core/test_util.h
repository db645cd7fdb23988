// Shared helpers for the core tests: one float comparison (absolute + relative tolerance, reports
// the first mismatch, the largest error and the shape) and seeded random data.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "attention.h"
#include "multi_head_attention.h"

namespace attn::testing {

template <typename Actual, typename Expected>
::testing::AssertionResult all_close(const Actual* actual, const Expected* expected, size_t count,
                                     const std::string& shape, double atol, double rtol) {
  size_t first_bad = count, worst = 0;
  double worst_err = 0.0;
  for (size_t i = 0; i < count; ++i) {
    const double a = double(actual[i]), e = double(expected[i]);
    const bool both_inf = std::isinf(a) && std::isinf(e) && (a > 0) == (e > 0);
    const double err = both_inf ? 0.0 : std::fabs(a - e);
    if (!(err <= atol + rtol * std::fabs(e))) {  // written so that NaN fails
      if (first_bad == count) first_bad = i;
      if (!(err <= worst_err)) worst_err = err, worst = i;
    }
  }
  if (first_bad == count) return ::testing::AssertionSuccess();
  std::ostringstream out;
  out << "shape " << shape << ": first mismatch at index " << first_bad << " (actual "
      << double(actual[first_bad]) << ", expected " << double(expected[first_bad])
      << "); largest error " << worst_err << " at index " << worst << "; atol " << atol << ", rtol "
      << rtol;
  return ::testing::AssertionFailure() << out.str();
}

template <typename A, typename E>
::testing::AssertionResult all_close(const std::vector<A>& actual, const std::vector<E>& expected,
                                     const std::string& shape, double atol, double rtol) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << "sizes differ: " << actual.size() << " vs "
                                         << expected.size() << " for shape " << shape;
  return all_close(actual.data(), expected.data(), actual.size(), shape, atol, rtol);
}

// Kernel test sizes: below, at, above and at multiples of the SIMD width (4 floats) and of the
// 4 × 8 register block, so every tail path runs.
constexpr size_t kKernelSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 64, 65};

inline std::vector<float> random_floats(size_t count, uint32_t seed, float lo = -1.0f,
                                        float hi = 1.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(count);
  for (float& x : v) x = dist(gen);
  return v;
}

inline std::vector<uint8_t> random_mask(size_t count, uint32_t seed, double p_hidden) {
  std::mt19937 gen(seed);
  std::bernoulli_distribution dist(p_hidden);
  std::vector<uint8_t> v(count);
  for (auto& x : v) x = dist(gen) ? 1 : 0;
  return v;
}

// A random attention problem that owns its data: q, k in [-2, 2], v in [-3, 3], scale 1/√dk.
// Tests fill bias, mask and key_padding themselves and point `problem` at them.
struct RandomAttention {
  std::vector<float> q, k, v, bias;
  std::vector<uint8_t> mask, key_padding;
  AttentionProblem problem;
};

inline RandomAttention random_attention(size_t batch, size_t n, size_t m, size_t dk, size_t dv,
                                        uint32_t seed) {
  RandomAttention r;
  r.q = random_floats(batch * n * dk, seed, -2, 2);
  r.k = random_floats(batch * m * dk, seed + 1, -2, 2);
  r.v = random_floats(batch * m * dv, seed + 2, -3, 3);
  AttentionProblem& p = r.problem;
  p.batch = batch, p.n = n, p.m = m, p.dk = dk, p.dv = dv;
  p.q = r.q.data(), p.k = r.k.data(), p.v = r.v.data();
  p.scale = 1.0f / std::sqrt(float(dk));
  return r;
}

// What a test asks scaled_dot_product_attention for: the output only (the streaming kernel), the
// weights too (the materializing path), or the trace (scores, scaled, masked) as well.
enum class Asked { output, weights, trace };

// Everything one call wrote, into buffers filled beforehand with NaN (7 for the row flags) so that
// an element the core left unwritten shows.
struct AttentionOutcome {
  std::vector<float> output, weights, scores, scaled, masked;
  std::vector<uint8_t> fully_masked_rows;
  Status status;
};

inline AttentionOutcome run_attention(const AttentionProblem& p, Asked asked) {
  AttentionOutcome r;
  const size_t nm = p.batch * p.n * p.m;
  r.output.assign(p.batch * p.n * p.dv, std::nanf(""));
  r.fully_masked_rows.assign(p.batch * p.n, 7);
  AttentionResult result;
  result.output = r.output.data();
  result.fully_masked_rows = r.fully_masked_rows.data();
  if (asked != Asked::output) {
    r.weights.assign(nm, std::nanf(""));
    result.weights = r.weights.data();
  }
  if (asked == Asked::trace) {
    for (auto* v : {&r.scores, &r.scaled, &r.masked}) v->assign(nm, std::nanf(""));
    result.scores = r.scores.data();
    result.scaled = r.scaled.data();
    result.masked = r.masked.data();
  }
  if (nm > 0) EXPECT_EQ(attention_streams(result), asked == Asked::output);
  std::vector<float> workspace(attention_workspace_floats(p, result));
  r.status = scaled_dot_product_attention(p, result, workspace.data());
  return r;
}

inline std::string shape_of(std::initializer_list<size_t> dims) {
  std::string s = "(";
  for (size_t d : dims) s += (s.size() > 1 ? ", " : "") + std::to_string(d);
  return s + ")";
}

// A multi-head layer's weights (x·W layout), uniform in ±0.5, biases in ±1 when it has them.
struct RandomLayer {
  MultiHeadShape shape;
  std::vector<float> wq, wk, wv, wo, bq, bk, bv, bo;

  RandomLayer(size_t E, size_t H, size_t kdim, size_t vdim, bool bias, uint32_t seed) {
    shape = {E, H, kdim, vdim, bias};
    wq = random_floats(E * E, seed, -0.5f, 0.5f);
    wk = random_floats(kdim * E, seed + 1, -0.5f, 0.5f);
    wv = random_floats(vdim * E, seed + 2, -0.5f, 0.5f);
    wo = random_floats(E * E, seed + 3, -0.5f, 0.5f);
    if (bias) {
      bq = random_floats(E, seed + 4), bk = random_floats(E, seed + 5);
      bv = random_floats(E, seed + 6), bo = random_floats(E, seed + 7);
    }
  }
  MultiHeadWeights weights() const {
    auto ptr = [](const std::vector<float>& v) { return v.empty() ? nullptr : v.data(); };
    return {wq.data(), wk.data(), wv.data(), wo.data(), ptr(bq), ptr(bk), ptr(bv), ptr(bo)};
  }
};

}  // namespace attn::testing
