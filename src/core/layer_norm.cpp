#include "layer_norm.h"

#include <cmath>

namespace attn {

// Mean and variance accumulate in double: a row of large, nearly equal values would otherwise lose
// the variance to cancellation (PyTorch uses Welford's algorithm for the same reason).
void layer_norm_forward(const float* x, const float* w, const float* b, float* out, float* mean,
                        float* rstd, size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    double sum = 0.0;
    for (size_t c = 0; c < cols; ++c) sum += xr[c];
    const double mu = sum / double(cols);
    double sq = 0.0;
    for (size_t c = 0; c < cols; ++c) sq += (xr[c] - mu) * (xr[c] - mu);
    const float s = static_cast<float>(1.0 / std::sqrt(sq / double(cols) + double(kLayerNormEps)));
    const float m = static_cast<float>(mu);
    float* o = out + r * cols;
    for (size_t c = 0; c < cols; ++c) o[c] = (xr[c] - m) * s * w[c] + b[c];
    mean[r] = m;
    rstd[r] = s;
  }
}

// dx = rstd·(g − mean(g) − x̂·mean(g·x̂)) with g = dout·w: the normalization's Jacobian applied to g.
void layer_norm_backward(const float* x, const float* w, const float* mean, const float* rstd,
                         const float* dout, float* dx, float* dw, float* db, size_t rows,
                         size_t cols) {
  for (size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    const float* dr = dout + r * cols;
    const float m = mean[r], s = rstd[r];
    double g_mean = 0.0, gx_mean = 0.0;
    for (size_t c = 0; c < cols; ++c) {
      const float xhat = (xr[c] - m) * s;
      const float g = dr[c] * w[c];
      g_mean += g;
      gx_mean += double(g) * xhat;
      dw[c] += dr[c] * xhat;
      db[c] += dr[c];
    }
    const float a = static_cast<float>(g_mean / double(cols));
    const float bb = static_cast<float>(gx_mean / double(cols));
    float* dxr = dx + r * cols;
    for (size_t c = 0; c < cols; ++c) {
      const float xhat = (xr[c] - m) * s;
      dxr[c] += s * (dr[c] * w[c] - a - xhat * bb);
    }
  }
}

}  // namespace attn
