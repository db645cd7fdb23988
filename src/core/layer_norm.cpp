#include "layer_norm.h"

#include <cmath>

#include "kernels.h"

namespace attn {

// Mean and variance accumulate in double (kernels::sum_double, squared_deviations_double): a row
// of large, nearly equal values would otherwise lose the variance to cancellation (PyTorch uses
// Welford's algorithm for the same reason).
void layer_norm_forward(const float* x, const float* w, const float* b, float* out, float* mean,
                        float* rstd, size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    const double mu = kernels::sum_double(xr, cols) / double(cols);
    const double sq = kernels::squared_deviations_double(xr, cols, mu);
    const float s = static_cast<float>(1.0 / std::sqrt(sq / double(cols) + double(kLayerNormEps)));
    const float m = static_cast<float>(mu);
    kernels::normalize_row(xr, cols, m, s, w, b, out + r * cols);
    mean[r] = m;
    rstd[r] = s;
  }
}

// dx = rstd·(g − mean(g) − x̂·mean(g·x̂)) with g = dout·w: the normalization's Jacobian applied to g.
void layer_norm_backward(const float* x, const float* w, const float* mean, const float* rstd,
                         const float* dout, float* dx, float* dw, float* db, size_t rows,
                         size_t cols) {
  for (size_t r = 0; r < rows; ++r)
    kernels::layer_norm_backward_row(x + r * cols, dout + r * cols, w, mean[r], rstd[r], cols, dw,
                                     db, dx + r * cols);
}

}  // namespace attn
