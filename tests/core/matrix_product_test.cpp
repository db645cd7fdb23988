#include "matrix_product.h"

#include "test_util.h"

namespace attn {
namespace {

TEST(MatrixProduct, MatchesDoubleLoops) {
  for (size_t n : {1, 3, 4, 9})
    for (size_t k : {1, 5, 8})
      for (size_t m : {1, 4, 7, 17}) {
        auto a = testing::random_floats(n * k, 1), b = testing::random_floats(k * m, 2);
        std::vector<float> c(n * m);
        ASSERT_TRUE(matrix_product(a.data(), b.data(), c.data(), n, k, m).ok());
        std::vector<double> expected(n * m, 0.0);
        for (size_t i = 0; i < n; ++i)
          for (size_t j = 0; j < m; ++j)
            for (size_t p = 0; p < k; ++p)
              expected[i * m + j] += double(a[i * k + p]) * b[p * m + j];
        ASSERT_TRUE(testing::all_close(c, expected, testing::shape_of({n, k, m}), 1e-6, 1e-5));
      }
  float x = 0;
  EXPECT_FALSE(matrix_product(&x, &x, &x, 0, 1, 1).ok());
}

}  // namespace
}  // namespace attn
