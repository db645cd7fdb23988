// Head h of batch item `item` of a multi-head problem as a view into the projections: shared by the
// forward (multi_head_attention.cpp) and the backward (multi_head_backward.cpp). Internal to the
// core.
#pragma once
#include <cstddef>

#include "attention_head.h"
#include "multi_head_attention.h"

namespace attn {

// q: (B·n, E), k and v: (B·m, E) projections; head h reads columns [h·d, (h+1)·d) of each.
inline HeadInputs multi_head_inputs(const MultiHeadProblem& p, const float* q, const float* k,
                                    const float* v, size_t item, size_t h) {
  const size_t n = p.n, m = p.m, E = p.shape.embed_dim, d = E / p.shape.num_heads;
  HeadInputs in;
  in.q = {q + item * n * E + h * d, n, d, E};
  in.k = {k + item * m * E + h * d, m, d, E};
  in.v = {v + item * m * E + h * d, m, d, E};
  in.scale = multi_head_scale(p);
  in.masks.causal = p.causal;
  in.masks.window = p.window;
  in.masks.query_offset = p.lower_right ? static_cast<ptrdiff_t>(m) - static_cast<ptrdiff_t>(n) : 0;
  in.masks.mask = p.mask;
  in.masks.bias = p.bias;
  in.masks.key_padding = p.key_padding ? p.key_padding + item * m : nullptr;
  return in;
}

}  // namespace attn
