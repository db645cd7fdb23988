// LayerNorm over the last dimension (ε = 1e-5, weight and bias), as torch.nn.LayerNorm, with its
// backward. Rows are tokens: x (rows × cols), contiguous.
#pragma once
#include <cstddef>

namespace attn {

constexpr float kLayerNormEps = 1e-5f;

// out = (x − mean)·rstd·w + b; keeps mean and rstd (rows) for the backward.
void layer_norm_forward(const float* x, const float* w, const float* b, float* out, float* mean,
                        float* rstd, size_t rows, size_t cols);

// dx += ∂L/∂x, dw += Σ dout·x̂, db += Σ dout, from dout (rows × cols) and the forward's x, mean,
// rstd.
void layer_norm_backward(const float* x, const float* w, const float* mean, const float* rstd,
                         const float* dout, float* dx, float* dw, float* db, size_t rows,
                         size_t cols);

}  // namespace attn
