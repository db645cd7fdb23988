// The fast paths of the performance work against float64 loops and the float64 reference, at
// sizes below, at, above and at multiples of the SIMD width (4), the packed panel width (16), the
// 2-row register block, the depth block of on-the-fly packing (512 rows of B), the row count
// below which matmul reads B in place (8), and the streaming tiles (64 queries × 256 keys), so
// every tail runs. Runs against both kernel builds (SIMD and scalar).
#include <algorithm>
#include <cmath>
#include <limits>

#include "attention.h"
#include "kernels.h"
#include "multi_head_attention.h"
#include "reference.h"
#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr size_t W = kernels::kPanelWidth;

TEST(FastPaths, PackPanelsLayoutAndZeroPadding) {
  for (size_t rows : {1, 3, 4, 17})
    for (size_t cols : {1, 4, 5, 15, 16, 17, 31, 32, 33}) {
      const size_t ld = cols + 3;
      auto b = random_floats(rows * ld, uint32_t(rows * 100 + cols));
      std::vector<float> panels(kernels::packed_floats(rows, cols), std::nanf(""));
      kernels::pack_panels(b.data(), ld, rows, cols, panels.data());
      for (size_t j = 0; j < (cols + W - 1) / W * W; ++j)
        for (size_t p = 0; p < rows; ++p) {
          const float got = panels[(j / W) * W * rows + p * W + j % W];
          ASSERT_EQ(got, j < cols ? b[p * ld + j] : 0.0f)
              << shape_of({rows, cols}) << " p " << p << " j " << j;
        }
      // Transposed packing of bt = bᵀ (cols × rows) gives the same panels.
      std::vector<float> bt(cols * (rows + 2));
      for (size_t p = 0; p < rows; ++p)
        for (size_t j = 0; j < cols; ++j) bt[j * (rows + 2) + p] = b[p * ld + j];
      std::vector<float> from_t(panels.size(), std::nanf(""));
      kernels::pack_panels_transposed(bt.data(), rows + 2, rows, cols, from_t.data());
      for (size_t i = 0; i < panels.size(); ++i) ASSERT_EQ(from_t[i], panels[i]) << "index " << i;
    }
}

// c = alpha · a · b (+ c) in double, for the matmul variants below.
std::vector<double> expected_product(const std::vector<float>& a, size_t lda,
                                     const std::vector<float>& b, size_t ldb,
                                     const std::vector<float>& c0, size_t ldc, size_t n, size_t m,
                                     size_t k, double alpha, bool accumulate) {
  std::vector<double> out(n * m);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j) {
      double sum = 0;
      for (size_t p = 0; p < k; ++p) sum += double(a[i * lda + p]) * b[p * ldb + j];
      out[i * m + j] = alpha * sum + (accumulate ? c0[i * ldc + j] : 0.0);
    }
  return out;
}

TEST(FastPaths, MatmulPackedMatchesDoubleAtEveryTail) {
  for (size_t n : {1, 2, 3, 5, 8, 9})
    for (size_t m : {1, 3, 4, 12, 16, 17, 33, 48})
      for (size_t k : {1, 5, 16, 64}) {
        const size_t lda = k + 1, ldb = m + 2, ldc = m + 3, panel_rows = k + 5;
        auto a = random_floats(n * lda, uint32_t(n + 10), -2, 2);
        auto b = random_floats(panel_rows * ldb, uint32_t(m + 20), -2, 2);
        auto c0 = random_floats(n * ldc, uint32_t(k + 30));
        // Pack more rows than are used and start at row 5: a sub-range of a packing.
        std::vector<float> panels(kernels::packed_floats(panel_rows, m));
        kernels::pack_panels(b.data(), ldb, panel_rows, m, panels.data());
        std::vector<float> b_used(b.begin() + 5 * ldb, b.end());
        for (bool accumulate : {false, true}) {
          auto c = c0;
          kernels::matmul_packed(a.data(), lda, panels.data() + 5 * W, panel_rows, c.data(), ldc, n,
                                 m, k, -0.75f, accumulate);
          auto expected =
              expected_product(a, lda, b_used, ldb, c0, ldc, n, m, k, -0.75, accumulate);
          std::vector<double> actual(n * m);
          for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < m; ++j) actual[i * m + j] = c[i * ldc + j];
          ASSERT_TRUE(all_close(actual, expected, shape_of({n, m, k}), 1e-5, 1e-5))
              << "accumulate " << accumulate;
          for (size_t i = 0; i < n; ++i)
            for (size_t j = m; j < ldc; ++j)
              ASSERT_EQ(c[i * ldc + j], c0[i * ldc + j]) << "padding written";
        }
        // The fused row max: the same product (alpha 1), and each row's max raised from its start.
        auto c = c0;
        std::vector<float> row_max(n);
        for (size_t i = 0; i < n; ++i) row_max[i] = i % 2 ? -kInf : 0.25f;
        kernels::matmul_packed_row_max(a.data(), lda, panels.data() + 5 * W, panel_rows, c.data(),
                                       ldc, n, m, k, row_max.data());
        auto expected = expected_product(a, lda, b_used, ldb, c0, ldc, n, m, k, 1.0, false);
        for (size_t i = 0; i < n; ++i) {
          float want = i % 2 ? -kInf : 0.25f;
          for (size_t j = 0; j < m; ++j) {
            ASSERT_NEAR(c[i * ldc + j], expected[i * m + j],
                        1e-5 + 1e-5 * std::fabs(expected[i * m + j]));
            want = std::max(want, c[i * ldc + j]);
          }
          ASSERT_EQ(row_max[i], want) << shape_of({n, m, k}) << " row " << i;
        }
      }
}

TEST(FastPaths, MatmulDeepAndTallUsesDepthBlocksAndDirectPath) {
  // k beyond one depth block (512) and n on both sides of the direct-path threshold (8).
  for (size_t n : {1, 7, 8, 9, 20})
    for (size_t m : {5, 16, 37})
      for (size_t k : {255, 511, 512, 513, 1100}) {
        const size_t lda = k, ldb = m + 1, ldc = m;
        auto a = random_floats(n * lda, uint32_t(n * 7 + k), -1, 1);
        auto b = random_floats(k * ldb, uint32_t(m * 3 + k), -1, 1);
        auto c0 = random_floats(n * ldc, 99);
        for (bool accumulate : {false, true}) {
          auto c = c0;
          kernels::matmul(a.data(), lda, b.data(), ldb, c.data(), ldc, n, m, k, 1.0f, accumulate);
          auto expected = expected_product(a, lda, b, ldb, c0, ldc, n, m, k, 1.0, accumulate);
          // Float32 sums of k terms of size ≤ 1 drift by up to ~k·2^-24 each: scale atol with k.
          ASSERT_TRUE(
              all_close(c.data(), expected.data(), n * m, shape_of({n, m, k}), 1e-7 * k, 1e-5))
              << "accumulate " << accumulate;
        }
      }
}

TEST(FastPaths, ExpScaledShiftedSumMatchesDoubleAndZeroesHiddenKeys) {
  for (size_t len : {1, 3, 4, 5, 8, 15, 16, 17, 64, 65}) {
    auto x = random_floats(len, uint32_t(len), -40, 8);
    for (size_t i = 0; i < len; i += 4) x[i] = -kInf;
    if (len > 2) x[1] = -1e30f;  // far below the range: exactly 0 too
    const float s = 0.3f, shift = 0.3f * 8.0f;
    std::vector<double> expected(len);
    double expected_sum = 0;
    for (size_t i = 0; i < len; ++i)
      expected_sum += (expected[i] = std::exp(double(x[i] * s) - double(shift)));
    const float sum = kernels::exp_scaled_shifted_sum(x.data(), len, s, shift);
    ASSERT_TRUE(all_close(x, expected, shape_of({len}), 1e-7, 2e-6));
    for (size_t i = 0; i < len; i += 4) ASSERT_EQ(x[i], 0.0f) << "exp(-inf) at " << i;
    if (len > 2) ASSERT_EQ(x[1], 0.0f);
    ASSERT_NEAR(sum, expected_sum, 1e-6 + 2e-6 * expected_sum);
  }
}

TEST(FastPaths, ExpScaledShiftedSumGivesTheMaxTermExactlyOneForHugeScores) {
  // Scaled scores around 5e8 and beyond: the max term must be exp(0) = 1 exactly (no inf, NaN or
  // zero sum from rounding s·x and s·max differently), the others ≤ 1.
  for (float magnitude : {1e3f, 5e8f, 3e9f, 1e30f}) {
    std::vector<float> x = random_floats(37, 7, -1.0f, 1.0f);
    for (float& v : x) v *= magnitude;
    const float s = 0.1118034f;  // 1/√80: not a power of two, so roundings can differ
    float max = -kInf;
    for (float v : x) max = std::max(max, v);
    const float sum = kernels::exp_scaled_shifted_sum(x.data(), x.size(), s, max * s);
    ASSERT_TRUE(std::isfinite(sum) && sum >= 1.0f) << "magnitude " << magnitude << " sum " << sum;
    float largest = 0.0f;
    for (float v : x) {
      ASSERT_TRUE(v >= 0.0f && v <= 1.0f) << "magnitude " << magnitude << " term " << v;
      largest = std::max(largest, v);
    }
    ASSERT_EQ(largest, 1.0f) << "magnitude " << magnitude;
  }
}

using Problem = testing::RandomAttention;

// The streaming path (output only) or the materializing one (with the weights).
AttentionOutcome run_path(const AttentionProblem& p, bool weights) {
  AttentionOutcome r = run_attention(p, weights ? Asked::weights : Asked::output);
  EXPECT_TRUE(r.status.ok()) << r.status.message;
  return r;
}

TEST(FastPaths, HugeScoresStayFiniteInBothPaths) {
  // |scaled scores| up to ~1e10 (still far from float32 overflow): the softmax is nearly one-hot;
  // both paths must match the float64 reference and flag no live row as fully masked.
  for (bool causal : {false, true}) {
    Problem pr = random_attention(1, 70, 300, 20, 8, 91);  // scale 1/√20, not a power of two
    for (float& v : pr.q) v *= 3e4f;
    for (float& v : pr.k) v *= 3e4f;
    pr.problem.causal = causal;
    const auto ref = reference::scaled_dot_product_attention(pr.problem);
    for (bool weights : {false, true}) {
      const AttentionOutcome r = run_path(pr.problem, weights);
      ASSERT_TRUE(all_close(r.output, ref.output, "(70, 300) huge", 1e-4, 1e-4))
          << "causal " << causal << " weights " << weights;
      ASSERT_EQ(r.fully_masked_rows, ref.fully_masked_rows);
    }
  }
}

// Streaming (output only) and materializing paths against the float64 reference: the causal
// fast path (shortened rows, skipped tiles), the general masked path and no mask at all, with
// head sizes that are not multiples of the panel width.
TEST(FastPaths, StreamingAndMaterializingMatchReferenceAcrossTiles) {
  enum Masks { kNone, kCausal, kGeneral, kCausalAndGeneral };
  for (size_t n : {1, 63, 64, 65, 130})
    for (size_t m : {1, 15, 17, 255, 256, 257, 520})
      for (Masks masks : {kNone, kCausal, kGeneral, kCausalAndGeneral}) {
        const size_t dk = n % 2 ? 20 : 64, dv = m % 2 ? 7 : 16;
        Problem pr = random_attention(2, n, m, dk, dv, uint32_t(n * 7919 + m * 31 + masks));
        pr.problem.causal = masks == kCausal || masks == kCausalAndGeneral;
        if (masks == kGeneral || masks == kCausalAndGeneral) {
          pr.mask = random_mask(n * m, 3, 0.2);
          pr.bias = random_floats(2 * n * m, 4, -1, 1);
          pr.key_padding = random_mask(2 * m, 5, 0.1);
          pr.key_padding[0] = 0;  // key 0 visible in batch 0, so causal rows there keep a key
          pr.problem.mask = pr.mask.data(), pr.problem.bias = pr.bias.data(),
          pr.problem.bias_per_batch = true;
          pr.problem.key_padding = pr.key_padding.data();
        }
        const auto ref = reference::scaled_dot_product_attention(pr.problem);
        const std::string shape = shape_of({2, n, m, dk, dv}) + " masks " + std::to_string(masks);
        const AttentionOutcome streamed = run_path(pr.problem, false);
        const AttentionOutcome full = run_path(pr.problem, true);
        ASSERT_TRUE(all_close(streamed.output, ref.output, shape, 2e-5, 1e-4)) << "streaming";
        ASSERT_TRUE(all_close(full.output, ref.output, shape, 2e-5, 1e-4)) << "materializing";
        ASSERT_TRUE(all_close(full.weights, ref.weights, shape, 1e-6, 1e-4)) << "weights";
        ASSERT_TRUE(all_close(streamed.output, full.output, shape, 1e-5, 1e-5)) << "paths differ";
        ASSERT_EQ(streamed.fully_masked_rows, ref.fully_masked_rows) << shape;
        ASSERT_EQ(full.fully_masked_rows, ref.fully_masked_rows) << shape;
      }
}

TEST(FastPaths, CausalWithMoreQueriesThanKeysAndFullyPaddedBatch) {
  // n > m causal: late queries see every key; batch 1 is all padding, so every row there is
  // fully masked, in both paths, and its output is exactly 0.
  Problem pr = random_attention(2, 300, 40, 16, 16, 77);
  pr.problem.causal = true;
  pr.key_padding.assign(2 * 40, 0);
  std::fill(pr.key_padding.begin() + 40, pr.key_padding.end(), 1);
  pr.problem.key_padding = pr.key_padding.data();
  const auto ref = reference::scaled_dot_product_attention(pr.problem);
  for (bool weights : {false, true}) {
    const AttentionOutcome r = run_path(pr.problem, weights);
    ASSERT_TRUE(all_close(r.output, ref.output, "(2, 300, 40)", 2e-5, 1e-4))
        << "weights " << weights;
    ASSERT_EQ(r.fully_masked_rows, ref.fully_masked_rows);
    for (size_t i = 300 * 16; i < 2 * 300 * 16; ++i) ASSERT_EQ(r.output[i], 0.0f);
  }
}

TEST(FastPaths, LongSequenceStreamingWorkspaceStaysUnder16MiB) {
  AttentionProblem p;
  p.n = p.m = 16384, p.dk = p.dv = 64;
  AttentionResult r;
  float out = 0;
  r.output = &out;
  ASSERT_TRUE(attention_streams(r));
  EXPECT_LE(attention_workspace_floats(p, r) * sizeof(float), size_t(16) << 20);
}

TEST(FastPaths, MultiHeadProjectionsBeyondOneDepthBlockMatchReference) {
  // E = 520 (> 512: projections pack B in two depth blocks), 4 heads of 130, n ≠ m (cross).
  const size_t E = 520, H = 4, B = 2, n = 9, m = 21;
  MultiHeadProblem p;
  p.shape = {E, H, E, E, true};
  auto wq = random_floats(E * E, 1, -0.1f, 0.1f), wk = random_floats(E * E, 2, -0.1f, 0.1f);
  auto wv = random_floats(E * E, 3, -0.1f, 0.1f), wo = random_floats(E * E, 4, -0.1f, 0.1f);
  auto bq = random_floats(E, 5), bk = random_floats(E, 6), bv = random_floats(E, 7),
       bo = random_floats(E, 8);
  p.weights = {wq.data(), wk.data(), wv.data(), wo.data(),
               bq.data(), bk.data(), bv.data(), bo.data()};
  auto x = random_floats(B * n * E, 9), y = random_floats(B * m * E, 10),
       z = random_floats(B * m * E, 11);
  p.batch = B, p.n = n, p.m = m, p.query = x.data(), p.key = y.data(), p.value = z.data();
  p.causal = true;
  const auto ref = reference::multi_head_attention(p);
  for (bool weights : {false, true}) {
    std::vector<float> out(B * n * E), avg(B * n * m);
    MultiHeadResult r;
    r.output = out.data();
    if (weights) r.weights = avg.data();
    std::vector<float> workspace(multi_head_workspace_floats(p, r));
    ASSERT_TRUE(multi_head_attention(p, r, workspace.data()).ok());
    ASSERT_TRUE(all_close(out, ref.output, shape_of({B, n, E}), 2e-5, 1e-4))
        << "weights " << weights;
    if (weights) ASSERT_TRUE(all_close(avg, ref.averaged_weights, shape_of({B, n, m}), 1e-6, 1e-4));
  }
}

}  // namespace
}  // namespace attn
