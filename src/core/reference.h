// Float64 reference implementations: plain loops, no kernels, no blocking, no streaming. They are
// the test oracle for every fast path and are never used to produce results for users.
#pragma once
#include <cstdint>
#include <vector>

#include "attention.h"
#include "multi_head_attention.h"

namespace attn::reference {

struct AttentionReference {
  std::vector<double> output;   // (batch, n, dv)
  std::vector<double> weights;  // (batch, n, m)
  std::vector<double> scores;   // Q·Kᵀ
  std::vector<double> scaled;
  std::vector<double> masked;              // hidden keys = -inf
  std::vector<uint8_t> fully_masked_rows;  // (batch, n)
};

AttentionReference scaled_dot_product_attention(const AttentionProblem& problem);

struct MultiHeadReference {
  std::vector<double> q_proj, k_proj, v_proj;  // (B, tokens, E)
  std::vector<double> weights;                 // (B, h, n, m)
  std::vector<double> averaged_weights;        // (B, n, m)
  std::vector<double> concat;                  // (B, n, E)
  std::vector<double> output;                  // (B, n, E)
  std::vector<uint8_t> fully_masked_rows;      // (B, n)
};

MultiHeadReference multi_head_attention(const MultiHeadProblem& problem);

// Gradients of scaled dot-product attention for d_output (batch, n, dv), from the textbook
// formulas with dS = A ⊙ (dA − rowsum(dA ⊙ A)).
struct AttentionGradReference {
  std::vector<double> output, weights;  // the forward's
  std::vector<double> d_q, d_k, d_v;    // (batch, n, dk), (batch, m, dk), (batch, m, dv)
  std::vector<double> d_scores;         // (batch, n, m)
};

AttentionGradReference scaled_dot_product_attention_backward(const AttentionProblem& problem,
                                                             const float* d_output);

// Gradients of multi-head attention for d_output (B, n, E): the forward in float64 kept whole,
// then the chain rule through W_O, each head's softmax and the three input projections.
struct MultiHeadGradReference {
  std::vector<double> output;                   // (B, n, E)
  std::vector<double> d_query, d_key, d_value;  // (B, n, E), (B, m, kdim), (B, m, vdim)
  std::vector<double> d_wq, d_wk, d_wv, d_wo;   // [in, out]
  std::vector<double> d_bq, d_bk, d_bv, d_bo;   // (E); empty without biases
};

MultiHeadGradReference multi_head_attention_backward(const MultiHeadProblem& problem,
                                                     const float* d_output);

}  // namespace attn::reference
