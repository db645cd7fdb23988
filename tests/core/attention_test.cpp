#include "attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "reference.h"
#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

// Runs the core with every output requested, or output only (the streaming kernel).
AttentionOutcome run(const AttentionProblem& p, bool materialize = true) {
  return run_attention(p, materialize ? Asked::trace : Asked::output);
}

using Inputs = testing::RandomAttention;

TEST(Attention, HandComputedTwoByTwo) {
  // q = [[1, 0], [0, 1]], k = [[1, 0], [0, 1]], v = [[1, 2], [3, 4]], scale 1:
  // row 0 scores (1, 0): weights (e/(e+1), 1/(e+1)); row 1 scores (0, 1): the mirror image.
  const float q[] = {1, 0, 0, 1}, k[] = {1, 0, 0, 1}, v[] = {1, 2, 3, 4};
  AttentionProblem p;
  p.n = p.m = p.dk = p.dv = 2;
  p.q = q, p.k = k, p.v = v, p.scale = 1.0f;
  AttentionOutcome r = run(p);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  const double a = std::exp(1.0) / (std::exp(1.0) + 1.0), b = 1.0 - a;
  const double weights[] = {a, b, b, a};
  const double output[] = {a * 1 + b * 3, a * 2 + b * 4, b * 1 + a * 3, b * 2 + a * 4};
  EXPECT_TRUE(all_close(r.weights.data(), weights, 4, "(2, 2)", 1e-6, 0));
  EXPECT_TRUE(all_close(r.output.data(), output, 4, "(2, 2)", 1e-6, 0));
}

TEST(Attention, DefaultScaleIsInverseSqrtDk) {
  Inputs in = random_attention(1, 3, 5, 16, 2, 3);
  AttentionOutcome r = run(in.problem);
  for (size_t i = 0; i < r.scores.size(); ++i)
    ASSERT_FLOAT_EQ(r.scaled[i], r.scores[i] * 0.25f) << "index " << i;
}

// Random problems with every mask kind, against the float64 reference, both kernels.
TEST(Attention, MatchesFloat64ReferenceWithMasks) {
  const size_t shapes[][5] = {{1, 1, 1, 1, 1},      {1, 3, 5, 4, 7},   {2, 5, 3, 8, 8},
                              {3, 4, 4, 3, 5},      {1, 9, 17, 33, 2}, {2, 16, 16, 16, 16},
                              {1, 70, 300, 64, 64}, {1, 130, 70, 5, 9}};
  uint32_t seed = 100;
  for (const auto& s : shapes)
    for (int masks = 0; masks < 8; ++masks) {
      Inputs in = random_attention(s[0], s[1], s[2], s[3], s[4], seed++);
      AttentionProblem& p = in.problem;
      const size_t nm = p.n * p.m;
      p.causal = masks & 1;
      if (masks & 2) {
        in.mask = random_mask(p.batch * nm, seed, 0.3);
        p.mask = in.mask.data(), p.mask_per_batch = (masks & 4) != 0;
        in.key_padding = random_mask(p.batch * p.m, seed + 7, 0.2);
        p.key_padding = in.key_padding.data();
      }
      if (masks & 4) {
        in.bias = random_floats(p.batch * nm, seed + 3, -1, 1);
        p.bias = in.bias.data(), p.bias_per_batch = (masks & 2) != 0;
      }
      if (masks == 5) p.scale = 1.0f;
      const auto ref = reference::scaled_dot_product_attention(p);
      const std::string shape =
          shape_of({p.batch, p.n, p.m, p.dk, p.dv}) + " masks " + std::to_string(masks);
      for (bool materialize : {true, false}) {
        AttentionOutcome r = run(p, materialize);
        ASSERT_TRUE(r.status.ok()) << r.status.message;
        ASSERT_TRUE(all_close(r.output, ref.output, shape, 1e-5, 1e-4)) << materialize;
        ASSERT_EQ(r.fully_masked_rows, ref.fully_masked_rows) << shape;
        if (!materialize) continue;
        ASSERT_TRUE(all_close(r.weights, ref.weights, shape, 1e-6, 1e-4));
        ASSERT_TRUE(all_close(r.scores, ref.scores, shape, 1e-5, 1e-5));
        ASSERT_TRUE(all_close(r.scaled, ref.scaled, shape, 1e-5, 1e-5));
        ASSERT_TRUE(all_close(r.masked, ref.masked, shape, 1e-5, 1e-5));
      }
    }
}

TEST(Attention, StreamingEqualsMaterializingAcrossTiles) {
  // Sizes around the 64-query and 256-key tiles, causal and not.
  for (size_t n : {63, 64, 65, 200})
    for (size_t m : {255, 256, 257, 600})
      for (bool causal : {false, true}) {
        Inputs in = random_attention(1, n, m, 24, 12, uint32_t(n * 1000 + m));
        in.problem.causal = causal;
        AttentionOutcome full = run(in.problem, true), streamed = run(in.problem, false);
        ASSERT_TRUE(all_close(streamed.output, full.output, shape_of({n, m}), 1e-5, 1e-5))
            << "causal " << causal;
        ASSERT_EQ(streamed.fully_masked_rows, full.fully_masked_rows);
      }
}

TEST(Attention, InvariantsRowsSumToOneMaskedExactlyZeroOutputInHull) {
  Inputs in = random_attention(2, 12, 9, 8, 3, 42);
  in.mask = random_mask(12 * 9, 5, 0.4);
  in.problem.mask = in.mask.data();
  in.problem.causal = true;
  AttentionOutcome r = run(in.problem);
  const AttentionProblem& p = in.problem;
  for (size_t b = 0; b < p.batch; ++b)
    for (size_t i = 0; i < p.n; ++i) {
      const float* w = &r.weights[(b * p.n + i) * p.m];
      double sum = 0;
      bool any_visible = false;
      for (size_t j = 0; j < p.m; ++j) {
        const bool hidden = in.mask[i * p.m + j] || j > i;
        if (hidden) {
          ASSERT_EQ(w[j], 0.0f) << "hidden weight (" << b << ", " << i << ", " << j << ")";
          ASSERT_EQ(r.masked[(b * p.n + i) * p.m + j], -std::numeric_limits<float>::infinity());
        }
        any_visible |= !hidden;
        sum += w[j];
      }
      ASSERT_EQ(r.fully_masked_rows[b * p.n + i], any_visible ? 0 : 1);
      ASSERT_NEAR(sum, any_visible ? 1.0 : 0.0, 1e-5) << "row " << i;
      // A convex combination of V's rows stays within each column's range.
      for (size_t c = 0; c < p.dv; ++c) {
        float lo = INFINITY, hi = -INFINITY;
        for (size_t j = 0; j < p.m; ++j) {
          lo = std::min(lo, in.v[(b * p.m + j) * p.dv + c]);
          hi = std::max(hi, in.v[(b * p.m + j) * p.dv + c]);
        }
        const float o = r.output[(b * p.n + i) * p.dv + c];
        if (any_visible)
          ASSERT_TRUE(o >= lo - 1e-5f && o <= hi + 1e-5f) << o;
        else
          ASSERT_EQ(o, 0.0f);
      }
    }
}

TEST(Attention, FullyMaskedRowIsZeroNotNaN) {
  Inputs in = random_attention(1, 3, 4, 2, 2, 9);
  in.mask = {1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1};  // rows 0 and 2 see nothing
  in.problem.mask = in.mask.data();
  for (bool materialize : {true, false}) {
    AttentionOutcome r = run(in.problem, materialize);
    EXPECT_EQ(r.fully_masked_rows, (std::vector<uint8_t>{1, 0, 1}));
    for (size_t c = 0; c < 2; ++c) {
      EXPECT_EQ(r.output[c], 0.0f);
      EXPECT_EQ(r.output[4 + c], 0.0f);
      EXPECT_FALSE(std::isnan(r.output[2 + c]));
    }
    if (materialize)
      for (size_t j = 0; j < 4; ++j) EXPECT_EQ(r.weights[j], 0.0f);
  }
}

TEST(Attention, CausalIsTopLeftAlignedWhenQueriesDifferFromKeys) {
  Inputs in = random_attention(1, 3, 5, 4, 4, 77);
  in.problem.causal = true;
  AttentionOutcome r = run(in.problem);
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 5; ++j)
      if (j > i)
        EXPECT_EQ(r.weights[i * 5 + j], 0.0f) << i << "," << j;
      else
        EXPECT_GT(r.weights[i * 5 + j], 0.0f) << i << "," << j;
}

TEST(Attention, PermutationEquivariance) {
  Inputs in = random_attention(1, 6, 7, 5, 3, 123);
  AttentionOutcome base = run(in.problem);
  const size_t perm_q[] = {3, 0, 5, 1, 4, 2}, perm_k[] = {6, 2, 0, 4, 1, 5, 3};
  Inputs moved = in;
  for (size_t i = 0; i < 6; ++i) std::copy_n(&in.q[perm_q[i] * 5], 5, &moved.q[i * 5]);
  for (size_t j = 0; j < 7; ++j) {  // keys and values move together
    std::copy_n(&in.k[perm_k[j] * 5], 5, &moved.k[j * 5]);
    std::copy_n(&in.v[perm_k[j] * 3], 3, &moved.v[j * 3]);
  }
  moved.problem.q = moved.q.data(), moved.problem.k = moved.k.data(),
  moved.problem.v = moved.v.data();
  AttentionOutcome r = run(moved.problem);
  for (size_t i = 0; i < 6; ++i)
    ASSERT_TRUE(all_close(&r.output[i * 3], &base.output[perm_q[i] * 3], 3, "(3)", 1e-6, 1e-5))
        << "output row " << i;
}

TEST(Attention, LargeScoresDoNotOverflow) {
  Inputs in = random_attention(1, 4, 6, 8, 2, 5);
  for (float& x : in.q) x *= 1e2f;
  for (float& x : in.k) x *= 1e2f;  // scores up to ~1e5
  in.problem.scale = 1.0f;
  const auto ref = reference::scaled_dot_product_attention(in.problem);
  for (bool materialize : {true, false}) {
    AttentionOutcome r = run(in.problem, materialize);
    for (float o : r.output) ASSERT_TRUE(std::isfinite(o));
    ASSERT_TRUE(all_close(r.output, ref.output, "(4, 2)", 1e-4, 1e-4));
  }
}

TEST(Attention, RejectsBadArguments) {
  Inputs in = random_attention(1, 2, 2, 2, 2, 1);
  AttentionProblem p = in.problem;
  p.scale = 0.0f;
  EXPECT_NE(run(p).status.message.find("scale"), std::string::npos);
  p.scale = std::nanf("");
  EXPECT_FALSE(run(p).status.ok());
  p = in.problem;
  p.m = 0;
  EXPECT_NE(run(p).status.message.find("positive"), std::string::npos);
}

}  // namespace
}  // namespace attn
