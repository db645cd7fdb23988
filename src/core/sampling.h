// The next token from a row of logits, as generation needs it: greedy, or a seeded draw from the
// softmax at a temperature over the top-k logits. The random number comes from the caller (NumPy's
// generator, numpy_random.h), so a seed gives the same tokens everywhere.
#pragma once
#include <cstddef>
#include <cstdint>

#include "status.h"

namespace attn {

// logits (V) → *token.
// - temperature 0: the argmax, the lowest id among equal maxima.
// - temperature > 0: the kept ids are the top_k largest logits (0 or ≥ V: all; ties at the k-th
//   value are kept in increasing id order); p_i ∝ exp((logit_i − max) / temperature) over them, in
//   float64; the token is the first kept id, in increasing id order, whose cumulative p exceeds
//   u · Σ p (u in [0, 1)): NumPy's searchsorted(cumsum(p), u · sum(p), side='right').
// scratch: V floats. Logits must be finite.
Status sample_token(const float* logits, size_t V, double temperature, size_t top_k, double u,
                    float* scratch, int32_t* token);

}  // namespace attn
