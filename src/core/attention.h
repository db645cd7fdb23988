// Scaled dot-product attention: softmax(Q·Kᵀ·scale + bias, masked) · V, batched.
//   q: (batch, n, dk), k: (batch, m, dk), v: (batch, m, dv) -> output: (batch, n, dv); row-major.
// Masks are applied to the scores before the softmax and combine: a key is hidden from a query if
// any of causal / mask / key_padding hides it. A query whose every key is hidden gets all-zero
// weights and an all-zero output row (never NaN) and is flagged in fully_masked_rows.
#pragma once
#include <cstddef>
#include <cstdint>

#include "status.h"

namespace attn {

struct AttentionProblem {
  size_t batch = 1, n = 0, m = 0, dk = 0, dv = 0;
  const float* q = nullptr;
  const float* k = nullptr;
  const float* v = nullptr;
  float scale = 0.0f;  // > 0; callers pass 1/√dk for the standard scaling

  bool causal = false;            // query i sees keys j ≤ i (top-left aligned, as PyTorch)
  size_t window = 0;              // > 0: query i sees keys j > i − window (a sliding window)
  bool lower_right = false;       // align causal and window at the bottom right: query i sits
                                  // at key position i + m − n (PyTorch's causal_lower_right)
  const uint8_t* mask = nullptr;  // (n, m) or (batch, n, m); nonzero = hidden
  bool mask_per_batch = false;
  const float* bias = nullptr;  // (n, m) or (batch, n, m); added to the scaled scores
  bool bias_per_batch = false;
  const uint8_t* key_padding = nullptr;  // (batch, m); nonzero = padding, hidden from every query
};

// Caller-owned outputs; nullptr means "not wanted". Only `output` is required.
struct AttentionResult {
  float* output = nullptr;               // (batch, n, dv)
  float* weights = nullptr;              // (batch, n, m)
  float* scores = nullptr;               // (batch, n, m)  Q·Kᵀ
  float* scaled = nullptr;               // (batch, n, m)  Q·Kᵀ·scale
  float* masked = nullptr;               // (batch, n, m)  + bias, hidden keys = -inf
  uint8_t* fully_masked_rows = nullptr;  // (batch, n); 1 where every key was hidden
};

// True when the output-only streaming kernel is used: no n × m matrix is wanted, so none is built.
bool attention_streams(const AttentionResult& result);

// Floats of scratch memory scaled_dot_product_attention needs for this problem.
size_t attention_workspace_floats(const AttentionProblem& problem, const AttentionResult& result);

Status scaled_dot_product_attention(const AttentionProblem& problem, const AttentionResult& result,
                                    float* workspace);

}  // namespace attn
