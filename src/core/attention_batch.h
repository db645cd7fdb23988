// One batch item of a scaled dot-product attention problem as a head on contiguous views: shared
// by the forward (attention.cpp) and the backward (attention_backward.cpp). Internal to the core.
#pragma once
#include <cstddef>

#include "attention.h"
#include "attention_head.h"

namespace attn {

// base + offset, or nullptr for an absent (optional) buffer.
template <typename T>
T* offset_or_null(T* base, size_t offset) {
  return base ? base + offset : nullptr;
}

// Q, K, V, the scale and the masks of batch item b.
inline HeadInputs batch_head_inputs(const AttentionProblem& p, size_t b) {
  const size_t nm = p.n * p.m;
  HeadInputs in;
  in.q = {p.q + b * p.n * p.dk, p.n, p.dk, p.dk};
  in.k = {p.k + b * p.m * p.dk, p.m, p.dk, p.dk};
  in.v = {p.v + b * p.m * p.dv, p.m, p.dv, p.dv};
  in.scale = p.scale;
  in.masks.causal = p.causal;
  in.masks.window = p.window;
  in.masks.query_offset =
      p.lower_right ? static_cast<ptrdiff_t>(p.m) - static_cast<ptrdiff_t>(p.n) : 0;
  in.masks.mask = offset_or_null(p.mask, p.mask_per_batch ? b * nm : 0);
  in.masks.bias = offset_or_null(p.bias, p.bias_per_batch ? b * nm : 0);
  in.masks.key_padding = offset_or_null(p.key_padding, b * p.m);
  return in;
}

}  // namespace attn
