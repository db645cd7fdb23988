// The FlashAttention lesson: the online softmax of the streaming kernel, tile by tile, with the
// state of every row block after every tile, so a lesson can show how the output is built without
// ever holding the n × m matrix. Same recurrence as the kernel (online_softmax.h), same masking
// (attention_positions.h); tiles of the caller's size, in FlashAttention-2 order.
#pragma once
#include <cstddef>
#include <cstdint>

#include "status.h"

namespace attn {

struct FlashTraceProblem {
  size_t n = 0, m = 0, dk = 0, dv = 0;
  const float* q = nullptr;  // n × dk
  const float* k = nullptr;  // m × dk
  const float* v = nullptr;  // m × dv
  float scale = 0.0f;        // > 0
  bool causal = false;
  bool lower_right =
      false;  // causal aligned at the bottom right: query i at key position i + m − n
  size_t block_rows = 0, block_cols = 0;
};

// Steps: ⌈n / block_rows⌉ row blocks × ⌈m / block_cols⌉ column blocks, row blocks outer. Step
// (r, c) is number r·C + c; its state has the rows of row block r, stored from row r·block_rows·C
// + c·rows(r) of the state arrays (n·C rows in all).
size_t flash_trace_steps(const FlashTraceProblem& problem);
size_t flash_trace_state_rows(const FlashTraceProblem& problem);

// For each step: skipped[s] = 1 when the causal mask hides the whole tile (the state is then the
// previous one); the block's rows after the tile: row_max (running max of the scaled scores, −inf
// before any visible key), row_sum (running Σ exp(s − max)) and partial (rows × dv, the output
// before dividing by row_sum). output (n × dv) = partial / row_sum after the last tile (0 for a
// row that sees no key). workspace: block_cols floats.
Status flash_attention_trace(const FlashTraceProblem& problem, float* output, uint8_t* skipped,
                             float* row_max, float* row_sum, float* partial, float* workspace);

}  // namespace attn
