// The FlashAttention lesson trace (flash_trace.h): every step's state against a float64
// computation of the same prefix of keys, the skipped tiles against the causal mask, and the final
// output against the streaming kernel (the same recurrence) and the float64 reference, at tile and
// problem sizes that leave partial blocks.
#include <cmath>
#include <limits>
#include <vector>

#include "attention.h"
#include "flash_trace.h"
#include "reference.h"
#include "test_util.h"

namespace attn {
namespace {

using namespace testing;

struct Trace {
  std::vector<float> output, row_max, row_sum, partial;
  std::vector<uint8_t> skipped;
  Status status;
};

Trace run(const FlashTraceProblem& p) {
  Trace t;
  t.output.assign(p.n * p.dv, NAN);
  t.skipped.assign(flash_trace_steps(p), 7);
  const size_t rows = flash_trace_state_rows(p);
  t.row_max.assign(rows, NAN), t.row_sum.assign(rows, NAN), t.partial.assign(rows * p.dv, NAN);
  std::vector<float> workspace(p.block_cols);
  t.status = flash_attention_trace(p, t.output.data(), t.skipped.data(), t.row_max.data(),
                                   t.row_sum.data(), t.partial.data(), workspace.data());
  return t;
}

// The state of row i after keys [0, end): max of the visible scaled scores, Σ exp(s − max) and
// Σ exp(s − max)·v, in float64.
void expected_state(const RandomAttention& r, const FlashTraceProblem& p, size_t i, size_t end,
                    double* max, double* sum, std::vector<double>& partial) {
  const double offset = p.lower_right ? double(p.m) - double(p.n) : 0.0;
  std::vector<double> s;
  std::vector<size_t> keys;
  for (size_t j = 0; j < end; ++j) {
    if (p.causal && double(j) > double(i) + offset) continue;
    double dot = 0;
    for (size_t c = 0; c < p.dk; ++c) dot += double(r.q[i * p.dk + c]) * double(r.k[j * p.dk + c]);
    s.push_back(dot * double(p.scale));
    keys.push_back(j);
  }
  *max = -std::numeric_limits<double>::infinity();
  for (double x : s) *max = std::max(*max, x);
  *sum = 0;
  partial.assign(p.dv, 0.0);
  for (size_t a = 0; a < s.size(); ++a) {
    const double e = std::exp(s[a] - *max);
    *sum += e;
    for (size_t c = 0; c < p.dv; ++c) partial[c] += e * double(r.v[keys[a] * p.dv + c]);
  }
}

TEST(FlashTrace, EveryStepHoldsTheOnlineSoftmaxStateOfItsRows) {
  for (size_t n : {1, 5, 9})
    for (size_t m : {1, 6, 13})
      for (size_t br : {1, 2, 4})
        for (size_t bc : {1, 3, 16})
          for (int causal : {0, 1, 2}) {
            RandomAttention r = random_attention(1, n, m, 3, 2, uint32_t(n * 31 + m * 7 + br + bc));
            FlashTraceProblem p{n,          m,           3,          2,
                                r.q.data(), r.k.data(),  r.v.data(), r.problem.scale,
                                causal > 0, causal == 2, br,         bc};
            SCOPED_TRACE(shape_of({n, m, br, bc}) + " causal " + std::to_string(causal));
            const Trace t = run(p);
            ASSERT_TRUE(t.status.ok()) << t.status.message;
            const size_t C = (m + bc - 1) / bc;
            size_t step = 0;
            for (size_t i0 = 0; i0 < n; i0 += br) {
              const size_t rows = std::min(br, n - i0);
              for (size_t c = 0; c < C; ++c, ++step) {
                const size_t j0 = c * bc, at = i0 * C + c * rows;
                const double offset = causal == 2 ? double(m) - double(n) : 0.0;
                const bool hidden = causal && double(j0) > double(i0 + rows - 1) + offset;
                EXPECT_EQ(t.skipped[step], hidden ? 1 : 0) << "step " << step;
                for (size_t rr = 0; rr < rows; ++rr) {
                  double max, sum;
                  std::vector<double> partial;
                  expected_state(r, p, i0 + rr, std::min(m, j0 + bc), &max, &sum, partial);
                  const size_t row = at + rr;
                  if (std::isinf(max)) {
                    EXPECT_EQ(t.row_max[row], -std::numeric_limits<float>::infinity())
                        << "step " << step;
                    EXPECT_EQ(t.row_sum[row], 0.0f);
                  } else {
                    EXPECT_NEAR(t.row_max[row], max, 1e-5 * (1 + std::fabs(max)))
                        << "step " << step;
                    EXPECT_NEAR(t.row_sum[row], sum, 1e-5 * sum) << "step " << step;
                  }
                  EXPECT_TRUE(
                      all_close(&t.partial[row * 2], partial.data(), 2, "partial", 1e-5, 1e-5))
                      << "step " << step;
                }
              }
            }
          }
}

TEST(FlashTrace, TheOutputIsTheStreamingKernelsAndTheReferences) {
  for (size_t n : {1, 7, 33, 70})
    for (size_t m : {1, 16, 17, 90})
      for (size_t bc : {2, 16, 64})
        for (bool causal : {false, true}) {
          RandomAttention r = random_attention(1, n, m, 5, 4, uint32_t(n + 100 * m + bc));
          r.problem.causal = causal, r.problem.lower_right = causal && n < m;
          FlashTraceProblem p{n,          m,
                              5,          4,
                              r.q.data(), r.k.data(),
                              r.v.data(), r.problem.scale,
                              causal,     r.problem.lower_right,
                              8,          bc};
          SCOPED_TRACE(shape_of({n, m, bc}) + (causal ? " causal" : ""));
          const Trace t = run(p);
          ASSERT_TRUE(t.status.ok());
          const AttentionOutcome streamed = run_attention(r.problem, Asked::output);
          EXPECT_TRUE(all_close(t.output, streamed.output, "vs streaming kernel", 1e-6, 1e-5));
          const auto ref = reference::scaled_dot_product_attention(r.problem);
          EXPECT_TRUE(all_close(t.output, ref.output, "vs reference", 2e-6, 1e-5));
        }
}

TEST(FlashTrace, RowsThatSeeNoKeyKeepTheEmptyStateAndGiveZero) {
  // Lower-right with n > m: the first n − m queries sit before every key.
  RandomAttention r = random_attention(1, 6, 2, 3, 3, 1);
  FlashTraceProblem p{6, 2, 3, 3, r.q.data(), r.k.data(), r.v.data(), 0.5f, true, true, 2, 1};
  const Trace t = run(p);
  ASSERT_TRUE(t.status.ok());
  EXPECT_EQ(t.skipped[0], 1);  // rows 0-1 against key 0
  EXPECT_EQ(t.skipped[1], 1);
  for (size_t i = 0; i < 4 * 3; ++i) EXPECT_EQ(t.output[i], 0.0f) << i;
  for (size_t i = 12; i < 18; ++i) EXPECT_NE(t.output[i], 0.0f) << i;
}

TEST(FlashTrace, BadProblemsAreStatuses) {
  RandomAttention r = random_attention(1, 2, 2, 2, 2, 1);
  FlashTraceProblem p{2, 2, 2, 2, r.q.data(), r.k.data(), r.v.data(), 1.0f, false, false, 0, 2};
  EXPECT_FALSE(run(p).status.ok());
  p.block_rows = 1, p.scale = 0;
  EXPECT_FALSE(run(p).status.ok());
}

}  // namespace
}  // namespace attn
