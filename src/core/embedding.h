// Token and position embeddings: x[b, t] = wte[token[b, t]] + wpe[t], and their backward.
// Tokens are checked by the caller (Transformer) to lie in [0, V).
#pragma once
#include <cstddef>
#include <cstdint>

namespace attn {

// x (B·T × E); wpe may be null (no learned positions).
void embedding_forward(const int32_t* tokens, size_t batch, size_t T, const float* wte,
                       const float* wpe, size_t E, float* x);

// dwte[token] += dx, dwpe[t] += dx (dwpe may be null).
void embedding_backward(const int32_t* tokens, size_t batch, size_t T, const float* dx, size_t E,
                        float* dwte, float* dwpe);

}  // namespace attn
