// Shared checks of the backward tests: float32 gradients against float64 ones on the scale of the
// tensor, and central finite differences of a float64 loss.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "test_util.h"

namespace attn::testing {

inline double max_abs(const std::vector<double>& x) {
  double largest = 0.0;
  for (double v : x) largest = std::max(largest, std::fabs(v));
  return largest;
}

// A float32 gradient sums many products, so its rounding error grows with the largest magnitude
// of the tensor (or of `scale_of`, for a gradient that is a difference of such sums), not with
// each element: atol = floor + relative × that largest magnitude.
inline ::testing::AssertionResult close_on_largest_scale(
    const std::vector<float>& actual, const std::vector<double>& expected, const std::string& what,
    double floor, double relative, const std::vector<double>* scale_of = nullptr) {
  const double atol = floor + relative * max_abs(scale_of ? *scale_of : expected);
  return all_close(actual, expected, what, atol, 1e-4);
}

// Σ output ⊙ r in float64: the loss whose gradient with respect to the output is r.
inline double weighted_sum(const std::vector<double>& output, const std::vector<float>& r) {
  double sum = 0.0;
  for (size_t i = 0; i < output.size(); ++i) sum += output[i] * r[i];
  return sum;
}

// Central difference of loss() with respect to x, divided by the step that the float x really took
// (x ± h is rounded to float).
template <typename Loss>
double central_difference(float& x, float h, Loss loss) {
  const float saved = x;
  x = saved + h;
  const float up = x;
  const double plus = loss();
  x = saved - h;
  const float down = x;
  const double minus = loss();
  x = saved;
  return (plus - minus) / (double(up) - double(down));
}

}  // namespace attn::testing
