// Multi-head attention as in torch.nn.MultiheadAttention (batch_first), in x·W + b layout:
//   Q = query·W_Q + b_Q, K = key·W_K + b_K, V = value·W_V + b_V        (B, tokens, E)
//   head h reads columns [h·d, (h+1)·d) of Q, K, V (d = E / heads: a reshape, not a copy)
//   concat = [head_0 | … | head_{h-1}],  output = concat·W_O + b_O      (B, n, E)
// Each head scales by 1/√d with its own d. Masks are shared by all heads.
#pragma once
#include <cstddef>
#include <cstdint>

#include "status.h"

namespace attn {

struct MultiHeadShape {
  size_t embed_dim = 0;  // E
  size_t num_heads = 0;  // h, must divide E
  size_t kdim = 0;       // features of `key` (E for self-attention)
  size_t vdim = 0;       // features of `value`
  bool has_bias = true;
};

// W matrices are (in, out): wq (E, E), wk (kdim, E), wv (vdim, E), wo (E, E); biases (E).
struct MultiHeadWeights {
  const float* wq = nullptr;
  const float* wk = nullptr;
  const float* wv = nullptr;
  const float* wo = nullptr;
  const float* bq = nullptr;
  const float* bk = nullptr;
  const float* bv = nullptr;
  const float* bo = nullptr;
};

struct MultiHeadProblem {
  MultiHeadShape shape;
  MultiHeadWeights weights;
  size_t batch = 1, n = 0, m = 0;
  const float* query = nullptr;  // (B, n, E)
  const float* key = nullptr;    // (B, m, kdim)
  const float* value = nullptr;  // (B, m, vdim)
  float scale = 0.0f;            // multiplies Q_h·K_hᵀ; 0 means the standard 1/√(E/h)
  bool causal = false;
  size_t window = 0;         // > 0: query i sees keys j > i − window (aligned as causal)
  bool lower_right = false;  // causal and window aligned at the bottom right: query i at i + m − n
  const uint8_t* mask = nullptr;         // (n, m), nonzero = hidden
  const float* bias = nullptr;           // (n, m), added to the scaled scores
  const uint8_t* key_padding = nullptr;  // (B, m), nonzero = padding
};

// Caller-owned outputs; nullptr = not wanted. Only `output` is required.
struct MultiHeadResult {
  float* output = nullptr;   // (B, n, E)
  float* weights = nullptr;  // (B, h, n, m), or (B, n, m) when average_weights
  bool average_weights = true;
  float* q_proj = nullptr;        // (B, n, E)
  float* k_proj = nullptr;        // (B, m, E)
  float* v_proj = nullptr;        // (B, m, E)
  float* scores = nullptr;        // (B, h, n, m)
  float* scaled = nullptr;        // (B, h, n, m)
  float* masked = nullptr;        // (B, h, n, m)
  float* head_weights = nullptr;  // (B, h, n, m), per-head weights even when `weights` averages
  float* head_outputs = nullptr;  // (B, h, n, E / h)
  float* concat = nullptr;        // (B, n, E)
  uint8_t* fully_masked_rows = nullptr;  // (B, n)
};

size_t multi_head_parameter_count(const MultiHeadShape& shape);
// The scale the heads use: problem.scale, or 1/√(E/h) when it is 0.
float multi_head_scale(const MultiHeadProblem& problem);
Status validate_multi_head_shape(const MultiHeadShape& shape);
size_t multi_head_workspace_floats(const MultiHeadProblem& problem, const MultiHeadResult& result);
Status multi_head_attention(const MultiHeadProblem& problem, const MultiHeadResult& result,
                            float* workspace);

}  // namespace attn
