#include "lesson_analysis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels.h"
#include "multi_head_attention.h"
#include "numpy_random.h"

namespace attn {

Status sample_dot_products(uint32_t seed, size_t dk, size_t count, double* raw, double* scaled) {
  if (dk == 0) return Status::error("dk must be positive");
  NumpyRandomState state;
  numpy_seed(state, seed);
  std::vector<double> q(dk), k(dk);
  const double inv_sqrt_dk = 1.0 / std::sqrt(static_cast<double>(dk));
  for (size_t i = 0; i < count; ++i) {
    numpy_fill_randn(state, q.data(), dk);
    numpy_fill_randn(state, k.data(), dk);
    double dot = 0.0;
    for (size_t c = 0; c < dk; ++c) dot += q[c] * k[c];
    raw[i] = dot;
    scaled[i] = dot * inv_sqrt_dk;
  }
  return Status::success();
}

Moments moments(const double* values, size_t count) {
  Moments m;
  if (count == 0) return m;
  for (size_t i = 0; i < count; ++i) m.mean += values[i];
  m.mean /= static_cast<double>(count);
  double sq = 0.0;  // two passes: no cancellation for large means
  for (size_t i = 0; i < count; ++i) sq += (values[i] - m.mean) * (values[i] - m.mean);
  m.std = std::sqrt(sq / static_cast<double>(count));
  return m;
}

Status histogram(const double* values, size_t count, size_t bins, double lo, double hi,
                 uint32_t* counts) {
  if (bins == 0) return Status::error("bins must be positive");
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi))
    return Status::error("the histogram range needs finite lo < hi");
  std::fill(counts, counts + bins, 0u);
  const double width = (hi - lo) / static_cast<double>(bins);
  if (!(width > 0.0) || !std::isfinite(width))
    return Status::error("the histogram range is too narrow or too wide for its bins");
  for (size_t i = 0; i < count; ++i) {
    const double x = (values[i] - lo) / width;
    // Clamp before converting: a double outside size_t's range (or NaN) has no defined conversion.
    const size_t b = !(x > 0.0)                       ? 0
                     : x >= static_cast<double>(bins) ? bins - 1
                                                      : static_cast<size_t>(x);
    ++counts[b];
  }
  return Status::success();
}

void row_statistics(const float* weights, size_t rows, size_t cols, float* entropy, float* max,
                    float* sum) {
  for (size_t r = 0; r < rows; ++r) {
    const float* w = weights + r * cols;
    double h = 0.0, s = 0.0;
    float best = 0.0f;
    for (size_t c = 0; c < cols; ++c) {
      if (w[c] > 0.0f) h -= double(w[c]) * std::log(double(w[c]));
      s += w[c];
      best = std::max(best, w[c]);
    }
    if (entropy) entropy[r] = static_cast<float>(h);
    if (max) max[r] = best;
    if (sum) sum[r] = static_cast<float>(s);
  }
}

Status softmax_rows(const float* scores, size_t rows, size_t cols, float scale, float* out) {
  if (!(scale > 0.0f) || !std::isfinite(scale))
    return Status::error("scale must be a positive finite number");
  for (size_t r = 0; r < rows; ++r) {
    float* o = out + r * cols;
    std::copy(scores + r * cols, scores + (r + 1) * cols, o);
    kernels::scale(o, cols, scale);
    const float mx = kernels::max_value(o, cols);
    if (mx == -std::numeric_limits<float>::infinity()) {
      std::fill(o, o + cols, 0.0f);
      continue;
    }
    kernels::scale(o, cols, 1.0f / kernels::exp_shifted_sum(o, cols, mx));
  }
  return Status::success();
}

Status attention_cost(size_t n, size_t m, size_t d_model, size_t num_heads, bool bias,
                      AttentionCost* cost) {
  MultiHeadShape shape{d_model, num_heads, d_model, d_model, bias};
  Status status = validate_multi_head_shape(shape);
  if (!status.ok()) return status;
  if (n == 0 || m == 0) return Status::error("n and m must be positive");
  const double N = double(n), M = double(m), D = double(d_model), H = double(num_heads);
  cost->parameters = double(multi_head_parameter_count(shape));
  cost->projection_flops = 2.0 * D * D * (N + M + M + N);
  cost->score_flops = 2.0 * N * M * D * 2.0;  // Q·Kᵀ and weights·V, all heads together
  cost->softmax_flops = 5.0 * H * N * M;
  cost->attention_matrix_bytes = 4.0 * H * N * M;
  return Status::success();
}

}  // namespace attn
