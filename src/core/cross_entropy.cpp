#include "cross_entropy.h"

#include <cmath>

#include "kernels.h"

namespace attn {

size_t count_targets(const int32_t* targets, size_t rows) {
  size_t n = 0;
  for (size_t r = 0; r < rows; ++r) n += targets[r] >= 0 ? 1 : 0;
  return n;
}

// Per row: log-sum-exp shifted by the row max (no overflow), summed in double so that the mean over
// thousands of tokens keeps float32's precision.
double cross_entropy(const float* logits, const int32_t* targets, size_t rows, size_t vocab,
                     size_t counted, float* dlogits) {
  double total = 0.0;
  const float inv_count = 1.0f / static_cast<float>(counted);
  for (size_t r = 0; r < rows; ++r) {
    const float* z = logits + r * vocab;
    const int32_t target = targets[r];
    if (target < 0) {
      if (dlogits)
        for (size_t j = 0; j < vocab; ++j) dlogits[r * vocab + j] = 0.0f;
      continue;
    }
    const float max = kernels::max_value(z, vocab);
    double sum = 0.0;
    for (size_t j = 0; j < vocab; ++j) sum += std::exp(double(z[j]) - max);
    const double log_sum = std::log(sum) + max;
    total += log_sum - z[target];  // before d, which may alias z, overwrites the row
    if (dlogits) {
      float* d = dlogits + r * vocab;
      for (size_t j = 0; j < vocab; ++j)
        d[j] = static_cast<float>(std::exp(double(z[j]) - log_sum)) * inv_count;
      d[target] -= inv_count;
    }
  }
  return total / double(counted);
}

}  // namespace attn
