#include "attention_head.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels.h"

namespace attn {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// Streaming tile: 64 queries × 256 keys of scores (64 KiB) stays in L2 while it is scaled,
// masked, exponentiated and multiplied into V.
constexpr size_t kQueryBlock = 64;
constexpr size_t kKeyBlock = 256;

bool wants_matrix(const HeadOutputs& out) {
  return out.weights || out.scores || out.scaled || out.masked;
}

void copy_row(float* dst, const float* src, size_t len) {
  if (dst) std::memcpy(dst, src, len * sizeof(float));
}

// Scores of query i against keys [j0, j0 + len): scale, add the bias, then hide masked keys with
// -inf so that exp() gives them a weight of exactly 0.
void scale_and_mask_row(float* s, size_t len, size_t i, size_t j0, size_t m, float scale,
                        const HeadMasks& masks, float* scaled_trace, float* masked_trace) {
  kernels::scale(s, len, scale);
  copy_row(scaled_trace, s, len);
  if (masks.bias) kernels::axpy(s, masks.bias + i * m + j0, len, 1.0f);
  if (masks.mask) {
    const uint8_t* hidden = masks.mask + i * m + j0;
    for (size_t j = 0; j < len; ++j)
      if (hidden[j]) s[j] = kNegInf;
  }
  if (masks.key_padding) {
    const uint8_t* pad = masks.key_padding + j0;
    for (size_t j = 0; j < len; ++j)
      if (pad[j]) s[j] = kNegInf;
  }
  if (masks.causal && j0 + len > i + 1) {
    const size_t first_hidden = std::max(i + 1, j0) - j0;
    std::fill(s + first_hidden, s + len, kNegInf);
  }
  copy_row(masked_trace, s, len);
}

// Builds the full n × m matrix: needed when weights or a trace are asked for.
void attend_materialized(const HeadInputs& in, const HeadOutputs& out, float* workspace) {
  const size_t n = in.q.rows, m = in.k.rows, dk = in.q.cols, dv = in.v.cols;
  float* kt = workspace;                                     // dk × m
  float* p = out.weights ? out.weights : workspace + dk * m;  // n × m
  kernels::transpose(in.k.data, in.k.ld, m, dk, kt, m);
  kernels::matmul(in.q.data, in.q.ld, kt, m, p, m, n, m, dk, 1.0f, false);
  for (size_t i = 0; i < n; ++i) {
    float* row = p + i * m;
    copy_row(out.scores ? out.scores + i * m : nullptr, row, m);
    scale_and_mask_row(row, m, i, 0, m, in.scale, in.masks,
                       out.scaled ? out.scaled + i * m : nullptr,
                       out.masked ? out.masked + i * m : nullptr);
    const float row_max = kernels::max_value(row, m);
    const bool all_hidden = row_max == kNegInf;
    if (all_hidden) {
      std::fill(row, row + m, 0.0f);
    } else {
      const float sum = kernels::exp_shifted_sum(row, m, row_max);
      kernels::scale(row, m, 1.0f / sum);  // sum ≥ 1: the max term contributes exp(0)
    }
    if (out.fully_masked_rows) out.fully_masked_rows[i] = all_hidden ? 1 : 0;
  }
  kernels::matmul(p, m, in.v.data, in.v.ld, out.output.data, out.output.ld, n, dv, m, 1.0f, false);
}

// Output only, FlashAttention-style online softmax: scores live one tile at a time, each row keeps
// its running max and sum, and the accumulated output is rescaled whenever the max grows.
void attend_streaming(const HeadInputs& in, const HeadOutputs& out, float* workspace) {
  const size_t n = in.q.rows, m = in.k.rows, dk = in.q.cols, dv = in.v.cols;
  float* kt = workspace;                   // dk × m
  float* tile = kt + dk * m;               // kQueryBlock × kKeyBlock
  float* acc = tile + kQueryBlock * kKeyBlock;  // kQueryBlock × dv
  float* row_max = acc + kQueryBlock * dv;      // kQueryBlock
  float* row_sum = row_max + kQueryBlock;       // kQueryBlock
  kernels::transpose(in.k.data, in.k.ld, m, dk, kt, m);

  for (size_t i0 = 0; i0 < n; i0 += kQueryBlock) {
    const size_t rows = std::min(kQueryBlock, n - i0);
    std::fill(acc, acc + rows * dv, 0.0f);
    std::fill(row_max, row_max + rows, kNegInf);
    std::fill(row_sum, row_sum + rows, 0.0f);
    // Causal: keys after the block's last query are hidden from all of it; skip those tiles.
    const size_t key_end = in.masks.causal ? std::min(m, i0 + rows) : m;
    for (size_t j0 = 0; j0 < key_end; j0 += kKeyBlock) {
      const size_t cols = std::min(kKeyBlock, key_end - j0);
      kernels::matmul(in.q.row(i0), in.q.ld, kt + j0, m, tile, cols, rows, cols, dk, 1.0f, false);
      for (size_t r = 0; r < rows; ++r) {
        float* s = tile + r * cols;
        scale_and_mask_row(s, cols, i0 + r, j0, m, in.scale, in.masks, nullptr, nullptr);
        const float new_max = std::max(row_max[r], kernels::max_value(s, cols));
        if (new_max == kNegInf) {  // every key so far hidden: this tile adds nothing
          std::fill(s, s + cols, 0.0f);
          continue;
        }
        const float correction = std::exp(row_max[r] - new_max);  // exp(-inf) = 0 on first tile
        const float tile_sum = kernels::exp_shifted_sum(s, cols, new_max);
        if (correction != 1.0f) kernels::scale(acc + r * dv, dv, correction);
        row_sum[r] = row_sum[r] * correction + tile_sum;
        row_max[r] = new_max;
      }
      kernels::matmul(tile, cols, in.v.row(j0), in.v.ld, acc, dv, rows, dv, cols, 1.0f, true);
    }
    for (size_t r = 0; r < rows; ++r) {
      const bool all_hidden = row_sum[r] == 0.0f;
      float* dst = out.output.row(i0 + r);
      const float inv = all_hidden ? 0.0f : 1.0f / row_sum[r];
      for (size_t c = 0; c < dv; ++c) dst[c] = acc[r * dv + c] * inv;
      if (out.fully_masked_rows) out.fully_masked_rows[i0 + r] = all_hidden ? 1 : 0;
    }
  }
}

}  // namespace

size_t head_workspace_floats(size_t n, size_t m, size_t dk, size_t dv, bool stream) {
  if (stream) return dk * m + kQueryBlock * kKeyBlock + kQueryBlock * dv + 2 * kQueryBlock;
  return dk * m + n * m;
}

void attend_head(const HeadInputs& in, const HeadOutputs& out, float* workspace) {
  if (wants_matrix(out))
    attend_materialized(in, out, workspace);
  else
    attend_streaming(in, out, workspace);
}

}  // namespace attn
