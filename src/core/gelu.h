// GELU in GPT-2's tanh form, 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) (PyTorch's
// gelu(approximate='tanh'), Hugging Face's "gelu_new"), and its derivative.
#pragma once
#include <cstddef>

namespace attn {

void gelu_forward(const float* x, float* out, size_t count);

// dx[i] = dout[i]·gelu'(x[i]); dx may alias dout.
void gelu_backward(const float* x, const float* dout, float* dx, size_t count);

}  // namespace attn
