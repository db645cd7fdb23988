// One (batch item, head) of attention on strided views: the building block shared by
// scaled_dot_product_attention and multi_head_attention. Internal to the core.
#pragma once
#include <cstddef>
#include <cstdint>

#include "matrix_view.h"

namespace attn {

// Masks of one batch item, contiguous: mask/bias (n, m), key_padding (m).
struct HeadMasks {
  bool causal = false;
  const uint8_t* mask = nullptr;
  const float* bias = nullptr;
  const uint8_t* key_padding = nullptr;
};

struct HeadInputs {
  ConstMatrixView q;  // n × dk
  ConstMatrixView k;  // m × dk
  ConstMatrixView v;  // m × dv
  float scale = 1.0f;
  HeadMasks masks;
};

struct HeadOutputs {
  MatrixView output;                   // n × dv, required
  float* weights = nullptr;            // n × m contiguous, optional
  float* scores = nullptr;             // trace, n × m, optional
  float* scaled = nullptr;
  float* masked = nullptr;
  uint8_t* fully_masked_rows = nullptr;  // n, optional
};

// Floats of workspace attend_head needs. `stream` selects the output-only kernel.
size_t head_workspace_floats(size_t n, size_t m, size_t dk, size_t dv, bool stream);

// Computes one head. Streams (never builds the n × m matrix) when no weights or trace are asked.
void attend_head(const HeadInputs& in, const HeadOutputs& out, float* workspace);

}  // namespace attn
