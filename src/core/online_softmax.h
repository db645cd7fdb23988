// The online softmax (Milakov & Gimelshein 2018; FlashAttention): a row's softmax built over keys
// that arrive tile by tile, keeping only a running max m and a running sum ℓ of exp(s − m).
// Written once, here: the streaming attention kernel (attention_head.cpp) and the FlashAttention
// lesson trace (flash_trace.cpp) both step through it. Internal to the core.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {

// One tile of one row. tile_max is the largest scaled, masked score of the tile (−inf when the
// tile hides every key); exp_sum(new_max) turns the tile's scores into exp(s − new_max) and
// returns their sum. Then
//   m′ = max(m, tile_max),  correction = exp(m − m′),  ℓ′ = ℓ·correction + Σ exp(s − m′),
// and the caller multiplies the row's accumulated output by `correction` before adding the tile's
// exp(s − m′)·V. While every key so far is hidden (m′ = −inf) nothing changes: the function
// returns false with correction 1 and does not call exp_sum. exp(−inf − m′) is exactly 0, so the
// first tile with a visible key starts the sum afresh.
template <typename ExpSum>
inline bool online_softmax_step(float tile_max, float& row_max, float& row_sum, float& correction,
                                ExpSum exp_sum) {
  const float new_max = std::max(row_max, tile_max);
  correction = 1.0f;
  if (new_max == -std::numeric_limits<float>::infinity()) return false;
  correction = std::exp(row_max - new_max);
  row_sum = row_sum * correction + exp_sum(new_max);
  row_max = new_max;
  return true;
}

}  // namespace attn
