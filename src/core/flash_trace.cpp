#include "flash_trace.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "attention_head.h"
#include "attention_positions.h"
#include "kernels.h"
#include "online_softmax.h"

namespace attn {
namespace {

// Blocks of `size` covering `count` (0 for a size of 0, which validate() refuses).
size_t blocks(size_t count, size_t size) { return size ? (count + size - 1) / size : 0; }

Status validate(const FlashTraceProblem& p) {
  if (p.n == 0 || p.m == 0 || p.dk == 0 || p.dv == 0)
    return Status::error("attention sizes must be positive");
  if (!p.q || !p.k || !p.v) return Status::error("q, k and v are required");
  if (p.block_rows == 0 || p.block_cols == 0)
    return Status::error("blockRows and blockCols must be positive");
  if (!(p.scale > 0.0f) || !std::isfinite(p.scale))
    return Status::error("scale must be a positive finite number");
  return Status::success();
}

// Where a step's state lives in the state arrays.
struct StepState {
  float* max;
  float* sum;
  float* partial;
};

// One tile of one row block: scores on the fly, the shared masking, then the online-softmax step
// for each row, the row's accumulated output rescaled and the tile's exp(s − max)·V added.
void tile(const FlashTraceProblem& p, const HeadMasks& masks, size_t i0, size_t rows, size_t j0,
          size_t cols, const StepState& state, float* s) {
  for (size_t r = 0; r < rows; ++r) {
    const size_t i = i0 + r;
    for (size_t j = 0; j < cols; ++j)
      s[j] = kernels::dot(p.q + i * p.dk, p.k + (j0 + j) * p.dk, p.dk);
    scale_and_mask_scores(s, cols, i, j0, p.m, p.scale, masks, nullptr, nullptr);
    float correction;
    const bool any = online_softmax_step(
        kernels::max_value(s, cols), state.max[r], state.sum[r], correction,
        [&](float new_max) { return kernels::exp_shifted_sum(s, cols, new_max); });
    if (!any) continue;
    float* acc = state.partial + r * p.dv;
    kernels::scale(acc, p.dv, correction);
    for (size_t j = 0; j < cols; ++j) kernels::axpy(acc, p.v + (j0 + j) * p.dv, p.dv, s[j]);
  }
}

}  // namespace

size_t flash_trace_steps(const FlashTraceProblem& p) {
  return blocks(p.n, p.block_rows) * blocks(p.m, p.block_cols);
}

size_t flash_trace_state_rows(const FlashTraceProblem& p) {
  return p.n * blocks(p.m, p.block_cols);
}

Status flash_attention_trace(const FlashTraceProblem& p, float* output, uint8_t* skipped,
                             float* row_max, float* row_sum, float* partial, float* workspace) {
  const Status status = validate(p);
  if (!status.ok()) return status;
  HeadMasks masks;
  masks.causal = p.causal;
  masks.query_offset =
      p.lower_right ? static_cast<ptrdiff_t>(p.m) - static_cast<ptrdiff_t>(p.n) : 0;
  const size_t C = blocks(p.m, p.block_cols);
  size_t step = 0;
  for (size_t i0 = 0; i0 < p.n; i0 += p.block_rows) {
    const size_t rows = std::min(p.block_rows, p.n - i0);
    StepState previous{nullptr, nullptr, nullptr};
    for (size_t c = 0; c < C; ++c, ++step) {
      const size_t at = i0 * C + c * rows, j0 = c * p.block_cols,
                   cols = std::min(p.block_cols, p.m - j0);
      const StepState state{row_max + at, row_sum + at, partial + at * p.dv};
      if (previous.max) {
        std::memcpy(state.max, previous.max, rows * sizeof(float));
        std::memcpy(state.sum, previous.sum, rows * sizeof(float));
        std::memcpy(state.partial, previous.partial, rows * p.dv * sizeof(float));
      } else {
        std::fill(state.max, state.max + rows, -std::numeric_limits<float>::infinity());
        std::fill(state.sum, state.sum + rows, 0.0f);
        std::fill(state.partial, state.partial + rows * p.dv, 0.0f);
      }
      const KeySpan span = block_visible_keys(masks, i0, rows, p.m);
      skipped[step] = span.end <= j0 || span.begin >= j0 + cols ? 1 : 0;
      if (!skipped[step]) tile(p, masks, i0, rows, j0, cols, state, workspace);
      previous = state;
    }
    for (size_t r = 0; r < rows; ++r) {
      const float inv = previous.sum[r] == 0.0f ? 0.0f : 1.0f / previous.sum[r];
      for (size_t c = 0; c < p.dv; ++c)
        output[(i0 + r) * p.dv + c] = previous.partial[r * p.dv + c] * inv;
    }
  }
  return Status::success();
}

}  // namespace attn
