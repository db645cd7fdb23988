#include "gelu.h"

#include "kernels.h"

namespace attn {

void gelu_forward(const float* x, float* out, size_t count) { kernels::gelu_tanh(x, out, count); }

void gelu_backward(const float* x, const float* dout, float* dx, size_t count) {
  kernels::gelu_tanh_backward(x, dout, dx, count);
}

}  // namespace attn
