#include "embedding.h"

#include "kernels.h"

namespace attn {

void embedding_forward(const int32_t* tokens, size_t batch, size_t T, const float* wte,
                       const float* wpe, size_t E, float* x) {
  for (size_t b = 0; b < batch; ++b)
    for (size_t t = 0; t < T; ++t) {
      float* row = x + (b * T + t) * E;
      const float* emb = wte + size_t(tokens[b * T + t]) * E;
      for (size_t c = 0; c < E; ++c) row[c] = emb[c];
      if (wpe) kernels::axpy(row, wpe + t * E, E, 1.0f);
    }
}

void embedding_backward(const int32_t* tokens, size_t batch, size_t T, const float* dx, size_t E,
                        float* dwte, float* dwpe) {
  for (size_t b = 0; b < batch; ++b)
    for (size_t t = 0; t < T; ++t) {
      const float* row = dx + (b * T + t) * E;
      kernels::axpy(dwte + size_t(tokens[b * T + t]) * E, row, E, 1.0f);
      if (dwpe) kernels::axpy(dwpe + t * E, row, E, 1.0f);
    }
}

}  // namespace attn
