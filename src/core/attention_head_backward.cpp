// The backward of one attention head (attend_head_backward in attention_head.h): a materialized
// path that reads the forward's weights, and a FlashAttention-2-style streaming path that
// recomputes the weights tile by tile from the row log-sum-exp, never holding an n × m matrix.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "attention_head.h"
#include "attention_positions.h"
#include "kernels.h"

namespace attn {
namespace {

using kernels::packed_floats;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// Streaming tile: 64 queries × 256 keys, as the forward's.
constexpr size_t kQueryBlock = 64;
constexpr size_t kKeyBlock = 256;
static_assert(kKeyBlock % kernels::kPanelWidth == 0, "key tiles start on a panel boundary");

void zero_rows(const MatrixView& x) {
  for (size_t i = 0; i < x.rows; ++i) std::fill(x.row(i), x.row(i) + x.cols, 0.0f);
}

// delta[r] = rowsum(dO ⊙ O) for rows [i0, i0 + rows): equals rowsum(dA ⊙ A) and costs dv, not m.
void row_deltas(const HeadGradInputs& g, size_t i0, size_t rows, float* delta) {
  for (size_t r = 0; r < rows; ++r)
    delta[r] = kernels::dot(g.d_output.row(i0 + r), g.output.row(i0 + r), g.output.cols);
}

// out (rows × cols, ld) = tᵀ for t (cols × rows, contiguous), or += tᵀ when accumulating.
void store_transposed(const float* t, size_t rows, size_t cols, const MatrixView& out,
                      bool accumulate) {
  for (size_t r = 0; r < rows; ++r) {
    float* dst = out.row(r);
    for (size_t c = 0; c < cols; ++c) dst[c] = t[c * rows + r] + (accumulate ? dst[c] : 0.0f);
  }
}

struct MaterializedBuffers {
  float* packed;    // packed_floats(n, m): A, later dS, as panels
  float* ds;        // n × m (when the caller does not keep dS)
  float* small_t;   // max(dv, dk) × n: dOᵀ, later Qᵀ
  float* small_p;   // max(packed(dv, m), packed(m, dk)): Vᵀ, later K, as panels
  float* result_t;  // max(dv, dk) × m: dVᵀ, later dKᵀ
};

MaterializedBuffers carve_materialized(size_t n, size_t m, size_t dk, size_t dv, float* base) {
  MaterializedBuffers b;
  b.packed = base;
  b.ds = b.packed + packed_floats(n, m);
  b.small_t = b.ds + n * m;
  b.small_p = b.small_t + std::max(dv, dk) * n;
  b.result_t = b.small_p + std::max(packed_floats(dv, m), packed_floats(m, dk));
  return b;
}

// dV = Aᵀ·dO; dS = A ⊙ (dO·Vᵀ − delta); dQ = scale·dS·K; dK = scale·dSᵀ·Q. The two products with
// a transposed n × m operand run transposed instead, dVᵀ = dOᵀ·A and dKᵀ = scale·Qᵀ·dS: the big
// matrix is then packed into panels (a streaming copy) rather than transposed (a strided one:
// natively, transposing 512 × 512 took about as long as one of the four products), and only the
// thin dOᵀ, Qᵀ, dVᵀ and dKᵀ are transposed.
void backward_materialized(const HeadInputs& in, const HeadGradInputs& g,
                           const HeadGradOutputs& out, float* workspace) {
  const size_t n = in.q.rows, m = in.k.rows, dk = in.q.cols, dv = in.v.cols;
  const float* a = g.weights;
  const MaterializedBuffers b = carve_materialized(n, m, dk, dv, workspace);
  float* ds = out.d_scores ? out.d_scores : b.ds;
  const bool acc = out.accumulate;

  kernels::transpose(g.d_output.data, g.d_output.ld, n, dv, b.small_t, n);
  kernels::pack_panels(a, m, n, m, b.packed);
  kernels::matmul_packed(b.small_t, n, b.packed, n, b.result_t, m, dv, m, n, 1.0f, false);
  store_transposed(b.result_t, m, dv, out.dv, acc);

  kernels::pack_panels_transposed(in.v.data, in.v.ld, dv, m, b.small_p);  // Vᵀ: dv × m
  kernels::matmul_packed(g.d_output.data, g.d_output.ld, b.small_p, dv, ds, m, n, m, dv, 1.0f,
                         false);
  for (size_t i = 0; i < n; ++i) {
    float delta;
    row_deltas(g, i, 1, &delta);
    kernels::softmax_backward_row(a + i * m, ds + i * m, m, delta);
  }

  kernels::pack_panels(in.k.data, in.k.ld, m, dk, b.small_p);
  kernels::matmul_packed(ds, m, b.small_p, m, out.dq.data, out.dq.ld, n, dk, m, in.scale, acc);
  kernels::transpose(in.q.data, in.q.ld, n, dk, b.small_t, n);
  kernels::pack_panels(ds, m, n, m, b.packed);
  kernels::matmul_packed(b.small_t, n, b.packed, n, b.result_t, m, dk, m, n, in.scale, false);
  store_transposed(b.result_t, m, dk, out.dk, acc);
}

// Raw scores s of query i against keys [j0, j0 + len) become the forward's weights:
// exp(s·scale + bias − lse), hidden keys exactly 0, and a fully masked row (lse = −inf) all 0.
void recompute_weights_row(float* s, size_t len, size_t i, size_t j0, size_t m, float scale,
                           const HeadMasks& masks, float lse) {
  if (lse == kNegInf) {
    std::fill(s, s + len, 0.0f);
    return;
  }
  scale_and_mask_scores(s, len, i, j0, m, scale, masks, nullptr, nullptr);
  kernels::exp_shifted_sum(s, len, lse);
}

struct StreamBuffers {
  float* kt;     // Kᵀ panels: dk × m (scores)
  float* vt;     // Vᵀ panels: dv × m (dA = dO·Vᵀ)
  float* kp;     // K panels: m × dk (dQ = dS·K)
  float* qp;     // panels of the query block's Q: kQueryBlock × dk (dK = dSᵀ·Q)
  float* dop;    // panels of the query block's dO: kQueryBlock × dv (dV = Aᵀ·dO)
  float* p;      // kQueryBlock × kKeyBlock weights
  float* ds;     // kQueryBlock × kKeyBlock dA, then dS
  float* t;      // kKeyBlock × kQueryBlock transposed tile
  float* delta;  // kQueryBlock
};

StreamBuffers carve_stream(size_t m, size_t dk, size_t dv, float* base) {
  StreamBuffers b;
  b.kt = base;
  b.vt = b.kt + packed_floats(dk, m);
  b.kp = b.vt + packed_floats(dv, m);
  b.qp = b.kp + packed_floats(m, dk);
  b.dop = b.qp + packed_floats(kQueryBlock, dk);
  b.p = b.dop + packed_floats(kQueryBlock, dv);
  b.ds = b.p + kQueryBlock * kKeyBlock;
  b.t = b.ds + kQueryBlock * kKeyBlock;
  b.delta = b.t + kKeyBlock * kQueryBlock;
  return b;
}

// One tile: queries [i0, i0 + rows) × keys [j0, j0 + cols). dQ of the block and dK, dV of the
// tile's keys are accumulated in the outputs.
void backward_tile(const HeadInputs& in, const HeadGradInputs& g, const HeadGradOutputs& out,
                   const StreamBuffers& b, size_t i0, size_t rows, size_t j0, size_t cols,
                   bool first_tile) {
  const size_t m = in.k.rows, dk = in.q.cols, dv = in.v.cols, W = kernels::kPanelWidth;
  kernels::matmul_packed(in.q.row(i0), in.q.ld, b.kt + j0 * dk, dk, b.p, cols, rows, cols, dk, 1.0f,
                         false);
  for (size_t r = 0; r < rows; ++r)
    recompute_weights_row(b.p + r * cols, cols, i0 + r, j0, m, in.scale, in.masks,
                          g.row_lse[i0 + r]);
  kernels::transpose(b.p, cols, rows, cols, b.t, rows);
  kernels::matmul_packed(b.t, rows, b.dop, rows, out.dv.row(j0), out.dv.ld, cols, dv, rows, 1.0f,
                         true);

  kernels::matmul_packed(g.d_output.row(i0), g.d_output.ld, b.vt + j0 * dv, dv, b.ds, cols, rows,
                         cols, dv, 1.0f, false);
  for (size_t r = 0; r < rows; ++r)
    kernels::softmax_backward_row(b.p + r * cols, b.ds + r * cols, cols, b.delta[r]);
  // Rows [j0, …) of the K packing are a packing with the same panel stride (kernels.h).
  kernels::matmul_packed(b.ds, cols, b.kp + j0 * W, m, out.dq.row(i0), out.dq.ld, rows, dk, cols,
                         in.scale, out.accumulate || !first_tile);
  kernels::transpose(b.ds, cols, rows, cols, b.t, rows);
  kernels::matmul_packed(b.t, rows, b.qp, rows, out.dk.row(j0), out.dk.ld, cols, dk, rows, in.scale,
                         true);
}

// FlashAttention-2's backward on one core: per block of queries, every key tile's weights are
// recomputed from Q·Kᵀ and the row log-sum-exp; dK and dV accumulate in the outputs across query
// blocks. Extra memory is three packings linear in m plus fixed tiles.
void backward_streaming(const HeadInputs& in, const HeadGradInputs& g, const HeadGradOutputs& out,
                        float* workspace) {
  const size_t n = in.q.rows, m = in.k.rows, dk = in.q.cols, dv = in.v.cols;
  const StreamBuffers b = carve_stream(m, dk, dv, workspace);
  kernels::pack_panels_transposed(in.k.data, in.k.ld, dk, m, b.kt);
  kernels::pack_panels_transposed(in.v.data, in.v.ld, dv, m, b.vt);
  kernels::pack_panels(in.k.data, in.k.ld, m, dk, b.kp);
  if (!out.accumulate) {
    zero_rows(out.dk);
    zero_rows(out.dv);
  }
  for (size_t i0 = 0; i0 < n; i0 += kQueryBlock) {
    const size_t rows = std::min(kQueryBlock, n - i0);
    row_deltas(g, i0, rows, b.delta);
    kernels::pack_panels(in.q.row(i0), in.q.ld, rows, dk, b.qp);
    kernels::pack_panels(g.d_output.row(i0), g.d_output.ld, rows, dv, b.dop);
    // Keys the causal mask or the window hide from the whole block have weight 0 for all of it;
    // skip their tiles (which start on a panel boundary, as the packings are addressed by panel).
    const KeySpan span = block_visible_keys(in.masks, i0, rows, m);
    const size_t key_begin = span.begin / kernels::kPanelWidth * kernels::kPanelWidth;
    for (size_t j0 = key_begin; j0 < span.end; j0 += kKeyBlock)
      backward_tile(in, g, out, b, i0, rows, j0, std::min(kKeyBlock, span.end - j0),
                    j0 == key_begin);
    if (key_begin >= span.end && !out.accumulate)  // no key visible: dQ of the block is 0
      zero_rows({out.dq.row(i0), rows, out.dq.cols, out.dq.ld});
  }
}

}  // namespace

size_t head_backward_workspace_floats(size_t n, size_t m, size_t dk, size_t dv, bool stream) {
  if (stream)
    return packed_floats(dk, m) + packed_floats(dv, m) + packed_floats(m, dk) +
           packed_floats(kQueryBlock, dk) + packed_floats(kQueryBlock, dv) +
           3 * kQueryBlock * kKeyBlock + kQueryBlock;
  return packed_floats(n, m) + n * m + std::max(dv, dk) * (n + m) +
         std::max(packed_floats(dv, m), packed_floats(m, dk));
}

void attend_head_backward(const HeadInputs& in, const HeadGradInputs& grad_in,
                          const HeadGradOutputs& grad_out, float* workspace) {
  if (grad_in.weights)
    backward_materialized(in, grad_in, grad_out, workspace);
  else
    backward_streaming(in, grad_in, grad_out, workspace);
}

}  // namespace attn
