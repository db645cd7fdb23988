// Attention computed with one deliberate, common mistake, so a lesson can show the correct result
// next to the wrong one on the same inputs. Straightforward loops (lesson sizes), separate from the
// fast paths; with Pitfall::kNone they compute ordinary attention.
#pragma once
#include <cstddef>

#include "attention.h"
#include "multi_head_attention.h"
#include "status.h"

namespace attn {

enum class Pitfall : int {
  kNone = 0,
  kMaskAfterSoftmax = 1,      // softmax over every key, then zero the hidden ones: rows sum < 1
  kMaskValueZero = 2,         // hidden scores set to 0 instead of −∞: they still get weight
  kScaleByDk = 3,             // divide by dk instead of √dk: scores squashed, weights too flat
  kScaleByModelDim = 4,       // multi-head only: divide by √E instead of the per-head √(E/h)
  kSkipOutputProjection = 5,  // multi-head only: return the concatenation, heads never mix
};

bool pitfall_is_valid(int value);

// Single-head attention (the problem's scale is used unless the pitfall replaces it).
// output (batch, n, dv); weights (batch, n, m) may be null.
Status attention_with_pitfall(const AttentionProblem& problem, Pitfall pitfall, float* output,
                              float* weights);

// Multi-head attention; output (B, n, E); weights averaged over heads (B, n, m), may be null.
Status multi_head_with_pitfall(const MultiHeadProblem& problem, Pitfall pitfall, float* output,
                               float* weights);

}  // namespace attn
