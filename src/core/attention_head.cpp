#include "attention_head.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "attention_positions.h"
#include "kernels.h"
#include "online_softmax.h"

namespace attn {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// Streaming tile: 64 queries × 256 keys of scores (64 KiB) stays in L2 while it is scaled,
// masked, exponentiated and multiplied into V.
constexpr size_t kQueryBlock = 64;
constexpr size_t kKeyBlock = 256;
constexpr size_t kCausalQueryBlock = 16;
static_assert(kKeyBlock % kernels::kPanelWidth == 0, "key tiles start on a panel boundary");

bool wants_matrix(const HeadOutputs& out) {
  return out.weights || out.scores || out.scaled || out.masked;
}

void copy_row(float* dst, const float* src, size_t len) {
  if (dst) std::memcpy(dst, src, len * sizeof(float));
}

// The softmax of row i of raw scores when no bias, boolean mask, key padding or ALiBi needs the
// scores themselves: only the visible span [begin, end) is scanned and exponentiated, with the
// scale folded into the exponential as in the streaming path (max of scale·s = scale·max s, scale
// being positive), and every key outside it gets exactly 0. Returns the row's log-sum-exp (only
// when `lse` is asked: a log per row is a visible cost at training sizes), −inf when it sees no key
// (the row is then all 0).
float softmax_visible_row(float* row, size_t m, KeySpan span, float scale, bool lse) {
  const size_t begin = std::min(span.begin, m), end = std::max(begin, std::min(span.end, m));
  const float raw_max = end > begin ? kernels::max_value(row + begin, end - begin) : kNegInf;
  if (raw_max == kNegInf) {
    std::fill(row, row + m, 0.0f);
    return kNegInf;
  }
  const float shift = raw_max * scale;
  const float sum = kernels::exp_scaled_shifted_sum(row + begin, end - begin, scale, shift);
  kernels::scale(row + begin, end - begin, 1.0f / sum);  // sum ≥ 1: the max term is exp(0)
  std::fill(row, row + begin, 0.0f);
  std::fill(row + end, row + m, 0.0f);
  return lse ? shift + std::log(sum) : 0.0f;
}

// The general row: scaled, biased and masked, then the softmax over all m keys. Returns the row's
// log-sum-exp (−inf for a fully masked row).
float softmax_masked_row(const HeadInputs& in, const HeadOutputs& out, float* row, size_t i,
                         size_t m) {
  copy_row(out.scores ? out.scores + i * m : nullptr, row, m);
  scale_and_mask_scores(row, m, i, 0, m, in.scale, in.masks,
                        out.scaled ? out.scaled + i * m : nullptr,
                        out.masked ? out.masked + i * m : nullptr);
  const float row_max = kernels::max_value(row, m);
  if (row_max == kNegInf) {
    std::fill(row, row + m, 0.0f);
    return kNegInf;
  }
  const float sum = kernels::exp_shifted_sum(row, m, row_max);
  kernels::scale(row, m, 1.0f / sum);  // sum ≥ 1: the max term contributes exp(0)
  return row_max + std::log(sum);
}

// Builds the full n × m matrix: needed when weights or a trace are asked for. Rows go in blocks;
// with a causal mask and no trace, keys after a block's last query are neither scored nor
// multiplied into V (their weights are exactly 0): blocks of 16 rows then, so that a square problem
// skips a quarter of its products at n = 32 (a training batch) and 48 % at n = 512 (44 % with
// blocks of 64).
void attend_materialized(const HeadInputs& in, const HeadOutputs& out, float* workspace) {
  const size_t n = in.q.rows, m = in.k.rows, dk = in.q.cols, dv = in.v.cols;
  float* kt = workspace;                           // Kᵀ panels: dk × m
  float* vp = kt + kernels::packed_floats(dk, m);  // V panels: m × dv
  float* p = out.weights ? out.weights : vp + kernels::packed_floats(m, dv);  // n × m
  kernels::pack_panels_transposed(in.k.data, in.k.ld, dk, m, kt);
  kernels::pack_panels(in.v.data, in.v.ld, m, dv, vp);
  const bool trace = out.scores || out.scaled || out.masked;
  const bool skip_hidden = in.masks.causal && !trace;
  const bool visible_only = !trace && !masks_need_scores(in.masks);
  const size_t block_rows = skip_hidden ? kCausalQueryBlock : kQueryBlock;
  for (size_t i0 = 0; i0 < n; i0 += block_rows) {
    const size_t rows = std::min(block_rows, n - i0);
    const size_t key_end = skip_hidden ? block_visible_keys(in.masks, i0, rows, m).end : m;
    float* block = p + i0 * m;
    kernels::matmul_packed(in.q.row(i0), in.q.ld, kt, dk, block, m, rows, key_end, dk, 1.0f, false);
    for (size_t i = i0; i < i0 + rows; ++i) {
      float* row = p + i * m;
      if (!visible_only) std::fill(row + key_end, row + m, kNegInf);  // causal-hidden, never scored
      const float lse = visible_only ? softmax_visible_row(row, m, visible_keys(in.masks, i, m),
                                                           in.scale, out.row_lse != nullptr)
                                     : softmax_masked_row(in, out, row, i, m);
      if (out.fully_masked_rows) out.fully_masked_rows[i] = lse == kNegInf ? 1 : 0;
      if (out.row_lse) out.row_lse[i] = lse;
    }
    kernels::matmul_packed(block, m, vp, m, out.output.row(i0), out.output.ld, rows, dv, key_end,
                           1.0f, false);
  }
}

// Turns one tile row of raw scores s (query i, keys [j0, j0 + len)) into softmax numerators
// relative to the running max, FlashAttention-style; returns false when every key so far is hidden
// (the row then adds nothing). Without bias, mask or ALiBi the scale is folded into the exponential
// and the causal mask and the window only cut the row to its visible span, so the common cases
// make two passes over the row.
bool online_softmax_row(float* s, size_t len, size_t i, size_t j0, size_t m, float scale,
                        const HeadMasks& masks, float raw_max, float& row_max, float& row_sum,
                        float& correction) {
  const bool general = masks_need_scores(masks);
  size_t begin = 0, end = len;  // the visible part of the tile, without general masks
  if (!general && (masks.causal || masks.window)) {
    const KeySpan span = visible_keys(masks, i, m);
    begin = std::min(len, span.begin > j0 ? span.begin - j0 : 0);
    end = std::max(begin, std::min(len, span.end > j0 ? span.end - j0 : 0));
  }
  float tile_max;
  if (general) {
    scale_and_mask_scores(s, len, i, j0, m, scale, masks, nullptr, nullptr);
    tile_max = kernels::max_value(s, len);
  } else if (begin == 0 && end == len) {
    tile_max = raw_max * scale;  // max of the whole row, fused into the score product
  } else {
    tile_max = end > begin ? kernels::max_value(s + begin, end - begin) * scale : kNegInf;
  }
  const bool any = online_softmax_step(tile_max, row_max, row_sum, correction, [&](float new_max) {
    return general ? kernels::exp_shifted_sum(s, len, new_max)
                   : kernels::exp_scaled_shifted_sum(s + begin, end - begin, scale, new_max);
  });
  if (!any) {
    std::fill(s, s + len, 0.0f);
    return false;
  }
  std::fill(s, s + begin, 0.0f);
  std::fill(s + end, s + len, 0.0f);
  return true;
}

// One tile of the online softmax, rows × cols raw scores.
struct TileRows {
  float* tile;
  size_t rows, cols, i0, j0, m;
  float scale;
  const HeadMasks& masks;
  const float* raw_max;  // per row, from the score product (used when fused_max)
  float* row_max;
  float* row_sum;
  float* acc;  // rows × dv accumulated outputs
  size_t dv;
};

#if defined(__GNUC__)
#define ATTN_NOINLINE __attribute__((noinline))
#else
#define ATTN_NOINLINE
#endif

// Turns a tile's scores into softmax numerators and rescales the accumulated outputs of rows whose
// max grew. Out of line on purpose (noinline, and two call sites that clang cannot merge, so
// Binaryen, which inlines every function with one caller, keeps it too): V8 moves a WebAssembly
// function to optimized code only between calls, so inside one long call (n = m = 16384 runs for
// seconds) a loop inlined into attend_streaming would run in the baseline tier for the whole call;
// as its own function it is optimized after a few tiles.
ATTN_NOINLINE void softmax_tile(const TileRows& t, bool fused_max) {
  for (size_t r = 0; r < t.rows; ++r) {
    float correction;
    const float raw_max = fused_max ? t.raw_max[r] : 0.0f;
    online_softmax_row(t.tile + r * t.cols, t.cols, t.i0 + r, t.j0, t.m, t.scale, t.masks, raw_max,
                       t.row_max[r], t.row_sum[r], correction);
    if (correction != 1.0f) kernels::scale(t.acc + r * t.dv, t.dv, correction);
  }
}

// Output only, FlashAttention-style online softmax: scores live one tile at a time, each row keeps
// its running max and sum, and the accumulated output is rescaled whenever the max grows. Kᵀ and V
// are packed once into panels (dk·m + m·dv floats, linear in m), never an n × m matrix.
void attend_streaming(const HeadInputs& in, const HeadOutputs& out, float* workspace) {
  const size_t n = in.q.rows, m = in.k.rows, dk = in.q.cols, dv = in.v.cols;
  float* kt = workspace;                             // Kᵀ panels: dk × m
  float* vp = kt + kernels::packed_floats(dk, m);    // V panels: m × dv
  float* tile = vp + kernels::packed_floats(m, dv);  // kQueryBlock × kKeyBlock
  float* acc = tile + kQueryBlock * kKeyBlock;       // kQueryBlock × dv
  float* row_max = acc + kQueryBlock * dv;           // kQueryBlock
  float* row_sum = row_max + kQueryBlock;            // kQueryBlock
  float* raw_max = row_sum + kQueryBlock;            // kQueryBlock: max of a tile row
  const bool general = masks_need_scores(in.masks);
  kernels::pack_panels_transposed(in.k.data, in.k.ld, dk, m, kt);
  kernels::pack_panels(in.v.data, in.v.ld, m, dv, vp);
  std::fill(raw_max, raw_max + kQueryBlock, kNegInf);

  for (size_t i0 = 0; i0 < n; i0 += kQueryBlock) {
    const size_t rows = std::min(kQueryBlock, n - i0);
    std::fill(acc, acc + rows * dv, 0.0f);
    std::fill(row_max, row_max + rows, kNegInf);
    std::fill(row_sum, row_sum + rows, 0.0f);
    // Keys the causal mask or the window hide from the whole block are never scored. Tiles start
    // on a panel boundary (the Kᵀ packing is addressed by whole panels).
    const KeySpan span = block_visible_keys(in.masks, i0, rows, m);
    const size_t key_end = span.end;
    const size_t key_begin = span.begin / kernels::kPanelWidth * kernels::kPanelWidth;
    for (size_t j0 = key_begin; j0 < key_end; j0 += kKeyBlock) {
      const size_t cols = std::min(kKeyBlock, key_end - j0);
      // key_begin and kKeyBlock are multiples of the panel width, so keys [j0, …) start a panel.
      const TileRows t{tile,     rows,    cols,    i0,      j0,  m, in.scale,
                       in.masks, raw_max, row_max, row_sum, acc, dv};
      if (general) {
        kernels::matmul_packed(in.q.row(i0), in.q.ld, kt + j0 * dk, dk, tile, cols, rows, cols, dk,
                               1.0f, false);
        softmax_tile(t, false);
      } else {
        kernels::matmul_packed_row_max(in.q.row(i0), in.q.ld, kt + j0 * dk, dk, tile, cols, rows,
                                       cols, dk, raw_max);
        softmax_tile(t, true);
        std::fill(raw_max, raw_max + rows, kNegInf);  // ready for the next tile
      }
      kernels::matmul_packed(tile, cols, vp + j0 * kernels::kPanelWidth, m, acc, dv, rows, dv, cols,
                             1.0f, true);
    }
    for (size_t r = 0; r < rows; ++r) {
      const bool all_hidden = row_sum[r] == 0.0f;
      float* dst = out.output.row(i0 + r);
      const float inv = all_hidden ? 0.0f : 1.0f / row_sum[r];
      for (size_t c = 0; c < dv; ++c) dst[c] = acc[r * dv + c] * inv;
      if (out.fully_masked_rows) out.fully_masked_rows[i0 + r] = all_hidden ? 1 : 0;
      if (out.row_lse)
        out.row_lse[i0 + r] = all_hidden ? kNegInf : row_max[r] + std::log(row_sum[r]);
    }
  }
}

// A few queries against many keys (a decode step against a cache): packing Kᵀ and V into panels
// would copy all m keys for a handful of rows, more traffic than the product itself, so each row is
// scored with dot products on the rows of K in place, and Σ p_j·v_j is a one-row product on V's
// rows in place.
// The masks, the softmax and every output are those of the materialized path. Uses m floats of
// workspace per row, one row at a time.
constexpr size_t kFewRows = 4;
constexpr size_t kFewRowsMinKeys = 64;

void attend_few_rows(const HeadInputs& in, const HeadOutputs& out, float* workspace) {
  const size_t n = in.q.rows, m = in.k.rows, dk = in.q.cols, dv = in.v.cols;
  for (size_t i = 0; i < n; ++i) {
    float* row = out.weights ? out.weights + i * m : workspace;
    const KeySpan span =
        masks_need_scores(in.masks) || out.scores ? KeySpan{0, m} : visible_keys(in.masks, i, m);
    std::fill(row, row + m, kNegInf);
    for (size_t j = span.begin; j < span.end; ++j)
      row[j] = kernels::dot(in.q.row(i), in.k.row(j), dk);
    copy_row(out.scores ? out.scores + i * m : nullptr, row, m);
    scale_and_mask_scores(row, m, i, 0, m, in.scale, in.masks,
                          out.scaled ? out.scaled + i * m : nullptr,
                          out.masked ? out.masked + i * m : nullptr);
    const float row_max = kernels::max_value(row, m);
    const bool all_hidden = row_max == kNegInf;
    float* dst = out.output.row(i);
    float sum = 0.0f;
    if (all_hidden) {
      std::fill(row, row + m, 0.0f);
      std::fill(dst, dst + dv, 0.0f);
    } else {
      sum = kernels::exp_shifted_sum(row, m, row_max);
      kernels::scale(row, m, 1.0f / sum);
      // Σ p_j·v_j over the visible keys: a one-row product that reads V's rows in place.
      kernels::matmul(row + span.begin, m, in.v.row(span.begin), in.v.ld, dst, dv, 1, dv,
                      span.end - span.begin, 1.0f, false);
    }
    if (out.fully_masked_rows) out.fully_masked_rows[i] = all_hidden ? 1 : 0;
    if (out.row_lse) out.row_lse[i] = all_hidden ? kNegInf : row_max + std::log(sum);
  }
}

}  // namespace

size_t head_workspace_floats(size_t n, size_t m, size_t dk, size_t dv, bool stream) {
  const size_t panels = kernels::packed_floats(dk, m) + kernels::packed_floats(m, dv);
  if (stream) return panels + kQueryBlock * kKeyBlock + kQueryBlock * dv + 3 * kQueryBlock;
  return panels + n * m;
}

void attend_head(const HeadInputs& in, const HeadOutputs& out, float* workspace) {
  if (in.q.rows <= kFewRows && in.k.rows >= kFewRowsMinKeys)
    attend_few_rows(in, out, workspace);
  else if (wants_matrix(out))
    attend_materialized(in, out, workspace);
  else
    attend_streaming(in, out, workspace);
}

}  // namespace attn
