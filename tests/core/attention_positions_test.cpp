// Positions inside attention (attention_positions.h): sliding windows and lower-right causal
// alignment through scaled_dot_product_attention and its backward, ALiBi on one head against the
// same bias given as a matrix, the ALiBi slopes, and RoPE against a complex-number rotation in
// float64. Sizes cross the SIMD width, the 16-key panels and the 64 × 256 streaming tiles.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

#include "attention.h"
#include "attention_backward.h"
#include "attention_batch.h"
#include "attention_head.h"
#include "attention_positions.h"
#include "gradient_check.h"
#include "reference.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

::testing::AssertionResult close_to(const std::vector<float>& actual,
                                    const std::vector<double>& expected, const std::string& what) {
  return close_on_largest_scale(actual, expected, what, 5e-6, 2e-5);
}

struct Case {
  size_t n, m, window;
  bool causal, lower_right;
};

std::string label(const Case& c, size_t dk) {
  return shape_of({c.n, c.m, dk}) + " window " + std::to_string(c.window) +
         (c.causal ? " causal" : "") + (c.lower_right ? " lower-right" : " top-left");
}

// Every alignment the decoder and the lessons use, at tail sizes and across streaming tiles.
const Case kCases[] = {
    {1, 1, 1, true, false},
    {1, 9, 3, true, true},
    {5, 5, 2, true, false},
    {7, 19, 4, true, true},
    {17, 17, 16, false, false},
    {33, 20, 5, true, true},
    {20, 33, 7, false, true},
    {65, 65, 64, true, false},
    {64, 300, 17, true, true},
    {300, 300, 100, true, false},
    {300, 600, 0, true, true},
    {70, 520, 260, false, false},
    {9, 4, 0, true, true},
    {3, 40, 0, true, true},
    // A few queries against many keys: the decode-step path, which scores rows on K in place.
    {1, 64, 0, true, true},
    {3, 100, 10, true, true},
    {4, 300, 0, false, false},
    {2, 70, 5, false, false},
    {4, 64, 70, true, false},
};

TEST(AttentionPositions, WindowAndLowerRightMatchTheReferenceOnBothPaths) {
  for (const Case& c : kCases)
    for (size_t dk : {1, 4, 5, 16}) {
      RandomAttention r = random_attention(2, c.n, c.m, dk, dk + 1, uint32_t(c.n * 31 + c.m + dk));
      AttentionProblem& p = r.problem;
      p.causal = c.causal, p.window = c.window, p.lower_right = c.lower_right;
      const auto ref = reference::scaled_dot_product_attention(p);
      for (Asked asked : {Asked::output, Asked::weights, Asked::trace}) {
        SCOPED_TRACE(label(c, dk) + (asked == Asked::output ? " streaming" : " materialized"));
        const AttentionOutcome got = run_attention(p, asked);
        ASSERT_TRUE(got.status.ok()) << got.status.message;
        EXPECT_TRUE(all_close(got.output, ref.output, "output", 2e-5, 2e-5));
        EXPECT_EQ(got.fully_masked_rows, ref.fully_masked_rows);
        if (asked == Asked::output) continue;
        EXPECT_TRUE(all_close(got.weights, ref.weights, "weights", 1e-6, 1e-5));
        for (size_t i = 0; i < ref.weights.size(); ++i)  // hidden keys: exactly 0
          if (std::isinf(ref.masked[i])) ASSERT_EQ(got.weights[i], 0.0f) << "cell " << i;
      }
    }
}

TEST(AttentionPositions, WindowAndLowerRightGradientsMatchTheReferenceOnBothPaths) {
  for (const Case& c : kCases)
    for (size_t dk : {3, 16}) {
      RandomAttention r = random_attention(1, c.n, c.m, dk, 4, uint32_t(c.n * 7 + c.m * 3 + dk));
      AttentionProblem& p = r.problem;
      p.causal = c.causal, p.window = c.window, p.lower_right = c.lower_right;
      const std::vector<float> d_output = random_floats(c.n * 4, 99);
      const auto ref = reference::scaled_dot_product_attention_backward(p, d_output.data());
      for (bool materialize : {true, false}) {
        SCOPED_TRACE(label(c, dk) + (materialize ? " materialized" : " streaming"));
        std::vector<float> out(c.n * 4), dq(c.n * dk, NAN), dkey(c.m * dk, NAN), dv(c.m * 4, NAN);
        std::vector<float> weights(materialize ? c.n * c.m : 0);
        AttentionGradResult g;
        g.output = out.data(), g.d_q = dq.data(), g.d_k = dkey.data(), g.d_v = dv.data();
        g.weights = materialize ? weights.data() : nullptr;
        std::vector<float> workspace(attention_backward_workspace_floats(p, g));
        const Status s =
            scaled_dot_product_attention_backward(p, d_output.data(), g, workspace.data());
        ASSERT_TRUE(s.ok()) << s.message;
        EXPECT_TRUE(close_to(dq, ref.d_q, "d_q"));
        EXPECT_TRUE(close_to(dkey, ref.d_k, "d_k"));
        EXPECT_TRUE(close_to(dv, ref.d_v, "d_v"));
      }
    }
}

TEST(AttentionPositions, FewQueriesAgainstManyKeysMatchTheReferenceWithEveryMask) {
  for (size_t n : {1, 2, 4})
    for (size_t m : {64, 65, 301}) {
      RandomAttention r = random_attention(2, n, m, 7, 5, uint32_t(n * 100 + m));
      AttentionProblem& p = r.problem;
      r.bias = random_floats(n * m, 4, -2, 2);
      r.mask = random_mask(2 * n * m, 5, 0.3);
      r.key_padding = random_mask(2 * m, 6, 0.2);
      p.bias = r.bias.data(), p.mask = r.mask.data(), p.mask_per_batch = true;
      p.key_padding = r.key_padding.data(), p.causal = true, p.lower_right = true, p.window = m / 2;
      const auto ref = reference::scaled_dot_product_attention(p);
      for (Asked asked : {Asked::output, Asked::weights, Asked::trace}) {
        SCOPED_TRACE(shape_of({n, m}) + (asked == Asked::output ? " output" : " weights"));
        const AttentionOutcome got = run_attention(p, asked);
        ASSERT_TRUE(got.status.ok()) << got.status.message;
        EXPECT_TRUE(all_close(got.output, ref.output, "output", 2e-5, 2e-5));
        EXPECT_EQ(got.fully_masked_rows, ref.fully_masked_rows);
        if (asked == Asked::output) continue;
        EXPECT_TRUE(all_close(got.weights, ref.weights, "weights", 1e-6, 1e-5));
        if (asked == Asked::trace)
          EXPECT_TRUE(all_close(got.masked, ref.masked, "masked", 1e-5, 1e-5));
      }
      const std::vector<float> d_output = random_floats(2 * n * 5, 8);
      const auto grad = reference::scaled_dot_product_attention_backward(p, d_output.data());
      for (bool materialize : {true, false}) {
        std::vector<float> out(2 * n * 5), dq(2 * n * 7), dk(2 * m * 7), dv(2 * m * 5),
            w(2 * n * m);
        AttentionGradResult g;
        g.output = out.data(), g.d_q = dq.data(), g.d_k = dk.data(), g.d_v = dv.data();
        g.weights = materialize ? w.data() : nullptr;
        std::vector<float> ws(attention_backward_workspace_floats(p, g));
        ASSERT_TRUE(scaled_dot_product_attention_backward(p, d_output.data(), g, ws.data()).ok());
        EXPECT_TRUE(close_to(dq, grad.d_q, "d_q"));
        EXPECT_TRUE(close_to(dk, grad.d_k, "d_k"));
        EXPECT_TRUE(close_to(dv, grad.d_v, "d_v"));
      }
    }
}

TEST(AttentionPositions, LowerRightIsTopLeftShiftedByTheExtraKeys) {
  // One decode step (n = 1) against m keys sees every key; top-left it would see only key 0.
  RandomAttention r = random_attention(1, 1, 12, 8, 8, 5);
  r.problem.causal = true;
  r.problem.lower_right = true;
  const AttentionOutcome got = run_attention(r.problem, Asked::weights);
  for (size_t j = 0; j < 12; ++j) EXPECT_GT(got.weights[j], 0.0f) << j;
  r.problem.window = 3;  // the window keeps the last three
  const AttentionOutcome windowed = run_attention(r.problem, Asked::weights);
  for (size_t j = 0; j < 12; ++j) EXPECT_EQ(windowed.weights[j] > 0.0f, j >= 9) << j;
}

// One head with ALiBi against the reference given the same term as an additive bias matrix.
void check_alibi(size_t n, size_t m, size_t d, ptrdiff_t offset, size_t window, float slope) {
  SCOPED_TRACE(shape_of({n, m, d}) + " offset " + std::to_string(offset) + " window " +
               std::to_string(window));
  RandomAttention r = random_attention(1, n, m, d, d, uint32_t(n + 3 * m + d));
  AttentionProblem& p = r.problem;
  p.causal = true, p.window = window, p.lower_right = offset != 0;
  r.bias.resize(n * m);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j)
      r.bias[i * m + j] = -slope * float(double(i) + double(offset) - double(j));
  p.bias = r.bias.data();
  const std::vector<float> d_output = random_floats(n * d, 7);
  const auto ref = reference::scaled_dot_product_attention_backward(p, d_output.data());

  HeadInputs in = batch_head_inputs(p, 0);
  in.masks.bias = nullptr;
  in.masks.alibi_slope = slope;
  for (bool stream : {true, false}) {
    SCOPED_TRACE(stream ? "streaming" : "materialized");
    std::vector<float> out(n * d), weights(n * m), lse(n);
    std::vector<float> ws(std::max(head_workspace_floats(n, m, d, d, stream),
                                   head_backward_workspace_floats(n, m, d, d, stream)));
    HeadOutputs o;
    o.output = {out.data(), n, d, d};
    o.weights = stream ? nullptr : weights.data();
    o.row_lse = lse.data();
    attend_head(in, o, ws.data());
    EXPECT_TRUE(all_close(out, ref.output, "output", 2e-5, 2e-5));
    std::vector<float> dq(n * d), dk(m * d), dv(m * d);
    HeadGradInputs gi;
    gi.output = o.output;
    gi.d_output = {d_output.data(), n, d, d};
    gi.weights = o.weights;
    gi.row_lse = lse.data();
    HeadGradOutputs go;
    go.dq = {dq.data(), n, d, d}, go.dk = {dk.data(), m, d, d}, go.dv = {dv.data(), m, d, d};
    attend_head_backward(in, gi, go, ws.data());
    EXPECT_TRUE(close_to(dq, ref.d_q, "d_q"));
    EXPECT_TRUE(close_to(dk, ref.d_k, "d_k"));
    EXPECT_TRUE(close_to(dv, ref.d_v, "d_v"));
  }
}

TEST(AttentionPositions, AlibiEqualsItsBiasMatrixForwardAndBackward) {
  check_alibi(1, 1, 4, 0, 0, 0.5f);
  check_alibi(9, 9, 5, 0, 0, 0.25f);
  check_alibi(17, 17, 16, 0, 4, 0.125f);
  check_alibi(3, 40, 8, 37, 0, 0.0625f);
  check_alibi(70, 300, 8, 230, 50, 1.0f / 256);
  check_alibi(300, 300, 4, 0, 0, 0.5f);
}

TEST(AttentionPositions, AlibiSlopesFollowPressEtAlAndBloom) {
  // A power of two: the geometric sequence 2^(−8/H), 2^(−16/H), …, 2^(−8) of the paper.
  for (size_t H : {1, 2, 4, 8, 16})
    for (size_t h = 0; h < H; ++h)
      EXPECT_DOUBLE_EQ(alibi_slope(h, H), std::pow(2.0, -8.0 * double(h + 1) / double(H))) << H;
  // Otherwise: the slopes of the next lower power of two P, then every other slope of 2P heads.
  for (size_t H : {3, 5, 6, 7, 12, 20}) {
    size_t P = 1;
    while (P * 2 <= H) P *= 2;
    for (size_t h = 0; h < H; ++h) {
      const double expected = h < P ? alibi_slope(h, P) : alibi_slope(2 * (h - P), 2 * P);
      EXPECT_DOUBLE_EQ(alibi_slope(h, H), expected) << "H " << H << " h " << h;
    }
  }
  EXPECT_DOUBLE_EQ(alibi_slope(4, 6), 0.5);    // the first extra head of six: 2^(−4/4)
  EXPECT_DOUBLE_EQ(alibi_slope(5, 6), 0.125);  // then 2^(−12/4)
}

// RoPE as a complex rotation in float64: pair (x[i], x[i + d/2]) is x[i] + i·x[i + d/2], times
// e^{iθ}, θ = p·base^(−2i/d).
std::vector<double> rope_reference(const std::vector<float>& x, size_t rows, size_t d, size_t heads,
                                   const std::vector<double>& positions, double base) {
  std::vector<double> out(x.begin(), x.end());
  const size_t half = d / 2;
  for (size_t r = 0; r < rows; ++r)
    for (size_t h = 0; h < heads; ++h)
      for (size_t i = 0; i < half; ++i) {
        const double theta = positions[r] / std::pow(base, 2.0 * double(i) / double(d));
        const size_t at = r * heads * d + h * d + i;
        const std::complex<double> z =
            std::complex<double>(x[at], x[at + half]) * std::polar(1.0, theta);
        out[at] = z.real();
        out[at + half] = z.imag();
      }
  return out;
}

TEST(AttentionPositions, RopeRotatesPairsOfHalvesAndItsInverseUndoesIt) {
  for (size_t d : {2, 4, 6, 8, 16, 18, 130})
    for (size_t heads : {1, 3}) {
      const size_t rows = 7;
      std::vector<float> x = random_floats(rows * heads * d, uint32_t(d * 10 + heads), -2, 2);
      const std::vector<double> positions = {0, 1, 2, 17, 1000, 4095.5, 100000};
      const std::vector<float> original = x;
      std::vector<float> scratch(rope_scratch_floats(d));
      rope_rotate_rows(x.data(), rows, heads * d, heads, d, positions.data(), 0, 10000, false,
                       scratch.data());
      SCOPED_TRACE("d " + std::to_string(d) + " heads " + std::to_string(heads));
      EXPECT_TRUE(all_close(x, rope_reference(original, rows, d, heads, positions, 10000), "rope",
                            3e-6, 3e-6));
      rope_rotate_rows(x.data(), rows, heads * d, heads, d, positions.data(), 0, 10000, true,
                       scratch.data());
      EXPECT_TRUE(all_close(x, original, "inverse", 5e-6, 5e-6));
    }
}

TEST(AttentionPositions, RopeWithoutPositionsCountsFromTheFirstAndHonoursTheBase) {
  const size_t rows = 5, d = 8;
  std::vector<float> x = random_floats(rows * 2 * d, 3), y = x;
  std::vector<float> scratch(rope_scratch_floats(d));
  const std::vector<double> positions = {12, 13, 14, 15, 16};
  // Row stride 2·d with one head: the second half of each row is left alone.
  rope_rotate_rows(x.data(), rows, 2 * d, 1, d, nullptr, 12, 500, false, scratch.data());
  rope_rotate_rows(y.data(), rows, 2 * d, 1, d, positions.data(), 0, 500, false, scratch.data());
  EXPECT_EQ(x, y);
  const std::vector<float> untouched = random_floats(rows * 2 * d, 3);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = d; c < 2 * d; ++c) EXPECT_EQ(x[r * 2 * d + c], untouched[r * 2 * d + c]);
}

}  // namespace
}  // namespace attn
