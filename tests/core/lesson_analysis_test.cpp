#include "lesson_analysis.h"

#include <cmath>
#include <limits>
#include <numeric>

#include "numpy_random.h"
#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

TEST(LessonAnalysis, DotProductSpreadGrowsLikeSqrtDkAndScalingRemovesIt) {
  for (size_t dk : {1, 16, 64, 512}) {
    const size_t count = 10000;
    std::vector<double> raw(count), scaled(count);
    ASSERT_TRUE(sample_dot_products(7, dk, count, raw.data(), scaled.data()).ok());
    const Moments r = moments(raw.data(), count), s = moments(scaled.data(), count);
    // The product of two independent N(0, 1) has variance 1, so the sum of dk has std √dk.
    EXPECT_NEAR(r.std, std::sqrt(double(dk)), 0.04 * std::sqrt(double(dk))) << "dk " << dk;
    EXPECT_NEAR(s.std, 1.0, 0.04) << "dk " << dk;
    EXPECT_NEAR(s.mean, 0.0, 0.05) << "dk " << dk;
  }
}

TEST(LessonAnalysis, DotProductsDrawQThenKFromTheNumPyGenerator) {
  std::vector<double> raw(2), scaled(2);
  ASSERT_TRUE(sample_dot_products(42, 3, 2, raw.data(), scaled.data()).ok());
  NumpyRandomState s;
  numpy_seed(s, 42);
  std::vector<double> x(12);
  numpy_fill_randn(s, x.data(), 12);  // q0, k0, q1, k1
  EXPECT_DOUBLE_EQ(raw[0], x[0] * x[3] + x[1] * x[4] + x[2] * x[5]);
  EXPECT_DOUBLE_EQ(raw[1], x[6] * x[9] + x[7] * x[10] + x[8] * x[11]);
  EXPECT_DOUBLE_EQ(scaled[1], raw[1] / std::sqrt(3.0));
}

TEST(LessonAnalysis, MomentsAndHistogram) {
  const double v[] = {1, 2, 3, 4, -10, 10};
  const Moments m = moments(v, 4);
  EXPECT_DOUBLE_EQ(m.mean, 2.5);
  EXPECT_DOUBLE_EQ(m.std, std::sqrt(1.25));
  uint32_t counts[4];
  ASSERT_TRUE(histogram(v, 6, 4, 0.0, 4.0, counts).ok());
  // bins [0,1) [1,2) [2,3) [3,4]: -10 clamps into the first bin, 4 and 10 into the last.
  EXPECT_EQ(counts[0], 1u);
  EXPECT_EQ(counts[1], 1u);
  EXPECT_EQ(counts[2], 1u);
  EXPECT_EQ(counts[3], 3u);
  EXPECT_FALSE(histogram(v, 6, 4, 1.0, 1.0, counts).ok());
  EXPECT_FALSE(histogram(v, 6, 0, 0.0, 1.0, counts).ok());
}

TEST(LessonAnalysis, RowStatisticsEntropyMaxSum) {
  const float w[] = {0.25f, 0.25f, 0.25f, 0.25f, 0, 1, 0, 0, 0, 0, 0, 0};
  float entropy[3], mx[3], sum[3];
  row_statistics(w, 3, 4, entropy, mx, sum);
  EXPECT_NEAR(entropy[0], std::log(4.0), 1e-6);
  EXPECT_EQ(entropy[1], 0.0f);
  EXPECT_EQ(entropy[2], 0.0f);
  EXPECT_EQ(mx[0], 0.25f);
  EXPECT_EQ(mx[1], 1.0f);
  EXPECT_FLOAT_EQ(sum[0], 1.0f);
  EXPECT_EQ(sum[2], 0.0f);
}

TEST(LessonAnalysis, SoftmaxRowsMatchesDoubleAndHandlesHiddenRows) {
  const float inf = std::numeric_limits<float>::infinity();
  const float scores[] = {1, 2, 3, -inf, 0.5f, -1, 4, 2, -inf, -inf, -inf, -inf};
  float out[12];
  ASSERT_TRUE(softmax_rows(scores, 3, 4, 0.5f, out).ok());
  std::vector<double> expected(12, 0.0);
  for (int r = 0; r < 2; ++r) {
    double sum = 0;
    for (int c = 0; c < 4; ++c) sum += std::exp(0.5 * scores[r * 4 + c]);
    for (int c = 0; c < 4; ++c) expected[r * 4 + c] = std::exp(0.5 * scores[r * 4 + c]) / sum;
  }
  EXPECT_TRUE(all_close(out, expected.data(), 12, "(3, 4)", 1e-7, 1e-6));
  EXPECT_EQ(out[3], 0.0f);
  EXPECT_FALSE(softmax_rows(scores, 3, 4, 0.0f, out).ok());
}

TEST(LessonAnalysis, AttentionCost) {
  AttentionCost c;
  ASSERT_TRUE(attention_cost(4, 4, 512, 8, true, &c).ok());
  EXPECT_EQ(c.parameters, 1050624.0);
  AttentionCost one_head;
  ASSERT_TRUE(attention_cost(4, 4, 512, 1, true, &one_head).ok());
  EXPECT_EQ(one_head.parameters, c.parameters);  // heads split d_model, they add no parameters
  ASSERT_TRUE(attention_cost(10, 6, 8, 2, false, &c).ok());
  EXPECT_EQ(c.projection_flops, 2.0 * 64 * (10 + 6 + 6 + 10));
  EXPECT_EQ(c.score_flops, 4.0 * 10 * 6 * 8);
  EXPECT_EQ(c.attention_matrix_bytes, 4.0 * 2 * 10 * 6);
  EXPECT_NE(attention_cost(4, 4, 10, 3, true, &c).message.find("divide"), std::string::npos);
}

}  // namespace
}  // namespace attn
