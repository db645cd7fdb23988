// y = x·w + b accumulated in float64 with plain loops, for the two float64 computations: the
// reference oracle (reference.cpp, tests only) and the deliberate mistakes (pitfalls.cpp). The
// fast paths the oracle checks never use it, so the oracle still shares no code with them.
#pragma once
#include <cstddef>
#include <vector>

namespace attn::float64 {

// y (rows × out) = x (rows × in, float or double) · w (in × out) + b (b may be null).
template <typename X>
std::vector<double> linear(const X* x, size_t rows, size_t in, const float* w, const float* b,
                           size_t out) {
  std::vector<double> y(rows * out);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < out; ++c) {
      double sum = b ? double(b[c]) : 0.0;
      for (size_t p = 0; p < in; ++p) sum += double(x[r * in + p]) * double(w[p * out + c]);
      y[r * out + c] = sum;
    }
  return y;
}

}  // namespace attn::float64
