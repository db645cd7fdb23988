// One (batch item, head) of attention on strided views: the building block shared by
// scaled_dot_product_attention and multi_head_attention. Internal to the core.
#pragma once
#include <cstddef>
#include <cstdint>

#include "matrix_view.h"

namespace attn {

// Masks of one batch item, contiguous: mask/bias (n, m), key_padding (m). The position fields
// (attention_positions.h) place query i at key position p = i + query_offset: causal hides keys
// j > p, a window W > 0 hides keys j ≤ p − W, and alibi_slope adds −slope·(p − j) to the scaled
// scores. query_offset 0 is PyTorch's top-left alignment; m − n is lower-right (a decode step
// against a cache of m − n earlier keys).
struct HeadMasks {
  bool causal = false;
  const uint8_t* mask = nullptr;
  const float* bias = nullptr;
  const uint8_t* key_padding = nullptr;
  ptrdiff_t query_offset = 0;
  size_t window = 0;
  float alibi_slope = 0.0f;
};

struct HeadInputs {
  ConstMatrixView q;  // n × dk
  ConstMatrixView k;  // m × dk
  ConstMatrixView v;  // m × dv
  float scale = 1.0f;
  HeadMasks masks;
};

struct HeadOutputs {
  MatrixView output;         // n × dv, required
  float* weights = nullptr;  // n × m contiguous, optional
  float* scores = nullptr;   // trace, n × m, optional
  float* scaled = nullptr;
  float* masked = nullptr;
  uint8_t* fully_masked_rows = nullptr;  // n, optional
  float* row_lse = nullptr;  // n, optional: per row, log-sum-exp of the scaled, masked scores
                             // (−inf for a fully masked row); what the streaming backward needs.
};

// Floats of workspace attend_head needs. `stream` selects the output-only kernel.
size_t head_workspace_floats(size_t n, size_t m, size_t dk, size_t dv, bool stream);

// Computes one head. Streams (never builds the n × m matrix) when no weights or trace are asked.
// A few queries against many keys (n ≤ 4, m ≥ 64: a decode step) are scored row by row on K and V
// in place, without packing them.
void attend_head(const HeadInputs& in, const HeadOutputs& out, float* workspace);

// ---- Backward --------------------------------------------------------------------------------
// What the backward needs from the forward of the same HeadInputs.
struct HeadGradInputs {
  ConstMatrixView output;          // O from the forward, n × dv
  ConstMatrixView d_output;        // dO, n × dv
  const float* weights = nullptr;  // A from the forward, n × m contiguous: materialized path
  const float* row_lse =
      nullptr;  // n, from the forward: streaming path (used when weights is null)
};

struct HeadGradOutputs {
  MatrixView dq;              // n × dk (strided, like the inputs)
  MatrixView dk;              // m × dk
  MatrixView dv;              // m × dv
  float* d_scores = nullptr;  // n × m contiguous, optional (materialized path only): the gradient
                              // with respect to the scaled, masked scores before the softmax (dS),
                              // which is also the gradient of an additive bias
  bool accumulate = false;    // add into dq, dk, dv instead of overwriting them
};

// Floats of workspace attend_head_backward needs; `stream` = the streaming (no n × m) path:
//   materialized: packed(n, m) + n·m + max(dv, dk)·(n + m) + max(packed(dv, m), packed(m, dk))
//   streaming:    packed(dk, m) + packed(dv, m) + packed(m, dk) + packed(64, dk) + packed(64, dv)
//                 + 3 · 64 · 256 + 64          (packed(r, c) = kernels::packed_floats(r, c))
size_t head_backward_workspace_floats(size_t n, size_t m, size_t dk, size_t dv, bool stream);

// dV = Aᵀ·dO; dA = dO·Vᵀ; dS = A ⊙ (dA − rowsum(dO ⊙ O)); dQ = scale·dS·K; dK = scale·dSᵀ·Q.
// Hidden cells get exactly 0; a fully masked row gets zero gradient. Uses the packed kernels.
// With weights null it streams: scores are recomputed tile by tile from Q, K and row_lse, and
// d_scores is not written.
void attend_head_backward(const HeadInputs& in, const HeadGradInputs& grad_in,
                          const HeadGradOutputs& grad_out, float* workspace);

}  // namespace attn
