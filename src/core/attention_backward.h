// Gradients of scaled dot-product attention (attention.h), batched: runs the forward of each batch
// item, then its backward. With dO the gradient of a loss with respect to the output:
//   dV = Aᵀ·dO;  dA = dO·Vᵀ;  dS = A ⊙ (dA − rowsum(dO ⊙ O));  dQ = scale·dS·K;  dK = scale·dSᵀ·Q
// dS is the gradient with respect to the scaled, masked scores (and so of an additive bias). Hidden
// cells of dS are exactly 0; a fully masked query row gets all-zero dQ and dS rows.
#pragma once
#include <cstddef>

#include "attention.h"
#include "status.h"

namespace attn {

// Caller-owned outputs. output, d_q, d_k, d_v are required. When neither weights nor d_scores is
// wanted, the streaming path runs (no n × m matrix in memory, for long sequences).
struct AttentionGradResult {
  float* output = nullptr;    // (batch, n, dv): the forward's output
  float* weights = nullptr;   // (batch, n, m), optional: the forward's weights
  float* d_q = nullptr;       // (batch, n, dk)
  float* d_k = nullptr;       // (batch, m, dk)
  float* d_v = nullptr;       // (batch, m, dv)
  float* d_scores = nullptr;  // (batch, n, m), optional
};

bool attention_backward_streams(const AttentionGradResult& result);

// Floats of scratch memory scaled_dot_product_attention_backward needs for this problem.
size_t attention_backward_workspace_floats(const AttentionProblem& problem,
                                           const AttentionGradResult& result);

// d_output: (batch, n, dv). Per-batch bias and mask (mask_per_batch, bias_per_batch) work as in the
// forward; the gradient of a shared bias is the sum of d_scores over the batch.
Status scaled_dot_product_attention_backward(const AttentionProblem& problem, const float* d_output,
                                             const AttentionGradResult& result, float* workspace);

}  // namespace attn
