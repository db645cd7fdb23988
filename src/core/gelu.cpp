#include "gelu.h"

#include <cmath>

namespace attn {
namespace {
constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kCubic = 0.044715f;
}  // namespace

void gelu_forward(const float* x, float* out, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float v = x[i];
    out[i] = 0.5f * v * (1.0f + std::tanh(kSqrt2OverPi * (v + kCubic * v * v * v)));
  }
}

void gelu_backward(const float* x, const float* dout, float* dx, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float v = x[i];
    const float u = kSqrt2OverPi * (v + kCubic * v * v * v);
    const float t = std::tanh(u);
    const float du = kSqrt2OverPi * (1.0f + 3.0f * kCubic * v * v);
    dx[i] = dout[i] * (0.5f * (1.0f + t) + 0.5f * v * (1.0f - t * t) * du);
  }
}

}  // namespace attn
