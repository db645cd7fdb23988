// Gradients of multi-head attention (multi_head_attention.h, x·W + b layout, W is [in, out]) for
// d_output = ∂L/∂output (B, n, E). With P = Q, K, V the projections and concat the heads' outputs:
//   d_concat = d_output·W_Oᵀ,   dW_O = concatᵀ·d_output,   db_O = Σ_rows d_output
//   per head: attend_head_backward gives dQ_h, dK_h, dV_h (columns [h·d, (h+1)·d) of dQ, dK, dV)
//   d_query = dQ·W_Qᵀ,  dW_Q = queryᵀ·dQ,  db_Q = Σ_rows dQ   (likewise for key and value)
// The forward runs inside the call (its output is returned too). When the same tensor is the
// query, key and value, each argument still gets its own gradient; the caller adds them.
#pragma once
#include <cstddef>

#include "multi_head_attention.h"
#include "status.h"

namespace attn {

// How each head's backward runs: the materialized path keeps one head's n × m weights at a time;
// the streaming path recomputes them tile by tile (memory linear in n and m). `automatic` streams
// once one head's n × m matrix would pass kMultiHeadMaterializeLimit floats.
enum class HeadBackwardPath { automatic, materialized, streaming };
constexpr size_t kMultiHeadMaterializeLimit = size_t(1) << 20;

// Caller-owned outputs, all required except the bias gradients, which are required exactly when
// the layer has biases (weights.bq is set).
struct MultiHeadGradResult {
  float* output = nullptr;   // (B, n, E): the forward's output
  float* d_query = nullptr;  // (B, n, E)
  float* d_key = nullptr;    // (B, m, kdim)
  float* d_value = nullptr;  // (B, m, vdim)
  float* d_wq = nullptr;     // (E, E)
  float* d_wk = nullptr;     // (kdim, E)
  float* d_wv = nullptr;     // (vdim, E)
  float* d_wo = nullptr;     // (E, E)
  float* d_bq = nullptr;     // (E)
  float* d_bk = nullptr;
  float* d_bv = nullptr;
  float* d_bo = nullptr;
  HeadBackwardPath path = HeadBackwardPath::automatic;
};

bool multi_head_backward_streams(const MultiHeadProblem& problem,
                                 const MultiHeadGradResult& result);

size_t multi_head_backward_workspace_floats(const MultiHeadProblem& problem,
                                            const MultiHeadGradResult& result);

Status multi_head_attention_backward(const MultiHeadProblem& problem, const float* d_output,
                                     const MultiHeadGradResult& result, float* workspace);

}  // namespace attn
