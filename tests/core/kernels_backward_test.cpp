// The softmax-backward kernels against float64 loops at every SIMD tail size.
#include <limits>

#include "kernels.h"
#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

TEST(KernelsBackward, DotMatchesDouble) {
  for (size_t len : kKernelSizes) {
    auto x = random_floats(len, 31, -2, 2), y = random_floats(len, 32, -2, 2);
    double expected = 0;
    for (size_t i = 0; i < len; ++i) expected += double(x[i]) * y[i];
    ASSERT_NEAR(kernels::dot(x.data(), y.data(), len), expected, 1e-5) << "len " << len;
  }
  EXPECT_EQ(kernels::dot(nullptr, nullptr, 0), 0.0f);
}

TEST(KernelsBackward, SoftmaxBackwardRowMatchesDoubleAndGivesPlusZeroForHiddenKeys) {
  for (size_t len : kKernelSizes) {
    auto p = random_floats(len, 33, 0, 1), d = random_floats(len, 34, -3, 3);
    for (size_t i = 0; i < len; i += 3) p[i] = 0.0f;  // hidden keys, in the SIMD body and the tail
    std::vector<double> expected(len);
    for (size_t i = 0; i < len; ++i) expected[i] = double(p[i]) * (double(d[i]) - 0.75);
    kernels::softmax_backward_row(p.data(), d.data(), len, 0.75f);
    ASSERT_TRUE(all_close(d, expected, shape_of({len}), 1e-6, 1e-6));
    for (size_t i = 0; i < len; i += 3) {
      ASSERT_EQ(d[i], 0.0f) << "len " << len << " at " << i;
      ASSERT_FALSE(std::signbit(d[i])) << "−0 at " << i << " (len " << len << ")";
    }
  }
}

TEST(KernelsBackward, TransposeWithStridesAtEveryTailLeavesPaddingAlone) {
  // The 4 × 4 register blocks and both scalar edges, with row strides wider than the rows.
  for (size_t rows : kKernelSizes)
    for (size_t cols : kKernelSizes) {
      const size_t lda = cols + 3, ldo = rows + 2;
      auto a = random_floats(rows * lda, uint32_t(rows * 100 + cols));
      std::vector<float> out(cols * ldo, -7.0f);
      kernels::transpose(a.data(), lda, rows, cols, out.data(), ldo);
      for (size_t j = 0; j < cols; ++j) {
        for (size_t i = 0; i < rows; ++i)
          ASSERT_EQ(out[j * ldo + i], a[i * lda + j])
              << rows << "x" << cols << " at " << i << "," << j;
        for (size_t i = rows; i < ldo; ++i) ASSERT_EQ(out[j * ldo + i], -7.0f) << "padding written";
      }
    }
}

}  // namespace
}  // namespace attn
