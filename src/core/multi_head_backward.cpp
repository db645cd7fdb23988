// Multi-head attention's backward: the projections' gradients around attend_head_backward.
#include "multi_head_backward.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "attention_head.h"
#include "multi_head_heads.h"
#include "kernels.h"

namespace attn {
namespace {

// Sub-buffers start on 16-float (64-byte) boundaries, as in the forward's workspace.
constexpr size_t kAlignFloats = 16;
size_t aligned(size_t floats) { return (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }

struct Buffers {
  float *q, *k, *v;          // projections: (B·n, E), (B·m, E), (B·m, E)
  float *concat, *d_concat;  // (B·n, E)
  float *dq, *dk, *dv;       // gradients of the projections
  float* transposed;  // one transposed input, or one packed transposed weight matrix, at a time
  float* weights;     // one head's n × m weights (materialized path)
  float* lse;         // one head's row log-sum-exp (n)
  float* head;        // attend_head / attend_head_backward scratch
};

size_t transposed_floats(const MultiHeadProblem& p) {
  using kernels::packed_floats;
  const size_t E = p.shape.embed_dim, Bn = p.batch * p.n, Bm = p.batch * p.m;
  return std::max({packed_floats(E, E), packed_floats(E, p.shape.kdim),
                   packed_floats(E, p.shape.vdim), Bn * E, Bm * p.shape.kdim, Bm * p.shape.vdim});
}

size_t head_scratch_floats(const MultiHeadProblem& p, bool stream) {
  const size_t d = p.shape.embed_dim / p.shape.num_heads;
  return std::max(head_workspace_floats(p.n, p.m, d, d, stream),
                  head_backward_workspace_floats(p.n, p.m, d, d, stream));
}

Buffers carve(const MultiHeadProblem& p, bool stream, float* base) {
  const size_t E = p.shape.embed_dim, nE = aligned(p.batch * p.n * E),
               mE = aligned(p.batch * p.m * E);
  Buffers b;
  b.q = base;
  b.k = b.q + nE;
  b.v = b.k + mE;
  b.concat = b.v + mE;
  b.d_concat = b.concat + nE;
  b.dq = b.d_concat + nE;
  b.dk = b.dq + nE;
  b.dv = b.dk + mE;
  b.transposed = b.dv + mE;
  b.weights = b.transposed + aligned(transposed_floats(p));
  b.lse = b.weights + (stream ? 0 : aligned(p.n * p.m));
  b.head = b.lse + aligned(p.n);
  return b;
}

// y (rows × out) = x (rows × in) · w (in × out) + b
void project(const float* x, size_t rows, size_t in, const float* w, const float* b, size_t out,
             float* y) {
  kernels::matmul(x, in, w, out, y, out, rows, out, in, 1.0f, false);
  if (b)
    for (size_t r = 0; r < rows; ++r) kernels::axpy(y + r * out, b, out, 1.0f);
}

// dx (rows × in) = dy (rows × out) · wᵀ, for w (in × out): wᵀ is packed into panels straight from
// w, without a transposed copy first.
void input_gradient(const float* dy, size_t rows, const float* w, size_t in, size_t out, float* dx,
                    float* panels) {
  kernels::pack_panels_transposed(w, out, out, in, panels);
  kernels::matmul_packed(dy, out, panels, out, dx, in, rows, in, out, 1.0f, false);
}

// dw (in × out) = xᵀ · dy; db = Σ over rows of dy (when wanted).
void weight_gradient(const float* x, size_t rows, size_t in, const float* dy, size_t out, float* dw,
                     float* db, float* transposed) {
  kernels::transpose(x, in, rows, in, transposed, rows);
  kernels::matmul(transposed, rows, dy, out, dw, out, in, out, rows, 1.0f, false);
  if (!db) return;
  std::fill(db, db + out, 0.0f);
  for (size_t r = 0; r < rows; ++r) kernels::axpy(db, dy + r * out, out, 1.0f);
}

Status validate(const MultiHeadProblem& p, const float* d_output, const MultiHeadGradResult& r) {
  Status status = validate_multi_head_shape(p.shape);
  if (!status.ok()) return status;
  if (p.batch == 0 || p.n == 0 || p.m == 0) return Status::error("batch, n and m must be positive");
  if (p.scale < 0.0f || !std::isfinite(p.scale))
    return Status::error("scale must be a positive finite number");
  if (!p.query || !p.key || !p.value || !d_output)
    return Status::error("missing input or output gradient");
  const MultiHeadWeights& w = p.weights;
  if (!w.wq || !w.wk || !w.wv || !w.wo) return Status::error("missing projection weights");
  if (!r.output || !r.d_query || !r.d_key || !r.d_value || !r.d_wq || !r.d_wk || !r.d_wv || !r.d_wo)
    return Status::error("missing output or gradient buffers");
  if ((w.bq && !r.d_bq) || (w.bk && !r.d_bk) || (w.bv && !r.d_bv) || (w.bo && !r.d_bo))
    return Status::error("missing bias gradient buffers");
  return Status::success();
}

// Forward then backward of every (batch item, head); fills b.concat and b.dq, b.dk, b.dv.
void heads(const MultiHeadProblem& p, bool stream, const Buffers& b) {
  const size_t n = p.n, m = p.m, E = p.shape.embed_dim, d = E / p.shape.num_heads;
  for (size_t item = 0; item < p.batch; ++item)
    for (size_t h = 0; h < p.shape.num_heads; ++h) {
      const size_t qo = item * n * E + h * d, ko = item * m * E + h * d;
      const HeadInputs in = multi_head_inputs(p, b.q, b.k, b.v, item, h);
      HeadOutputs out;
      out.output = {b.concat + qo, n, d, E};
      out.weights = stream ? nullptr : b.weights;
      out.row_lse = b.lse;
      attend_head(in, out, b.head);

      HeadGradInputs g;
      g.output = out.output;
      g.d_output = {b.d_concat + qo, n, d, E};
      g.weights = out.weights;
      g.row_lse = b.lse;
      HeadGradOutputs go;
      go.dq = {b.dq + qo, n, d, E};
      go.dk = {b.dk + ko, m, d, E};
      go.dv = {b.dv + ko, m, d, E};
      attend_head_backward(in, g, go, b.head);
    }
}

}  // namespace

bool multi_head_backward_streams(const MultiHeadProblem& p, const MultiHeadGradResult& r) {
  if (r.path != HeadBackwardPath::automatic) return r.path == HeadBackwardPath::streaming;
  return p.n * p.m > kMultiHeadMaterializeLimit;
}

size_t multi_head_backward_workspace_floats(const MultiHeadProblem& p,
                                            const MultiHeadGradResult& r) {
  if (!validate_multi_head_shape(p.shape).ok()) return 0;  // the call itself reports the error
  const bool stream = multi_head_backward_streams(p, r);
  const size_t E = p.shape.embed_dim, nE = aligned(p.batch * p.n * E),
               mE = aligned(p.batch * p.m * E);
  return 4 * nE + 4 * mE + aligned(transposed_floats(p)) + (stream ? 0 : aligned(p.n * p.m)) +
         aligned(p.n) + head_scratch_floats(p, stream);
}

Status multi_head_attention_backward(const MultiHeadProblem& p, const float* d_output,
                                     const MultiHeadGradResult& r, float* workspace) {
  Status status = validate(p, d_output, r);
  if (!status.ok()) return status;
  const size_t Bn = p.batch * p.n, Bm = p.batch * p.m, E = p.shape.embed_dim;
  const size_t kdim = p.shape.kdim, vdim = p.shape.vdim;
  const MultiHeadWeights& w = p.weights;
  const bool stream = multi_head_backward_streams(p, r);
  const Buffers b = carve(p, stream, workspace);

  project(p.query, Bn, E, w.wq, w.bq, E, b.q);
  project(p.key, Bm, kdim, w.wk, w.bk, E, b.k);
  project(p.value, Bm, vdim, w.wv, w.bv, E, b.v);
  input_gradient(d_output, Bn, w.wo, E, E, b.d_concat, b.transposed);
  heads(p, stream, b);

  project(b.concat, Bn, E, w.wo, w.bo, E, r.output);
  weight_gradient(b.concat, Bn, E, d_output, E, r.d_wo, w.bo ? r.d_bo : nullptr, b.transposed);
  input_gradient(b.dq, Bn, w.wq, E, E, r.d_query, b.transposed);
  weight_gradient(p.query, Bn, E, b.dq, E, r.d_wq, w.bq ? r.d_bq : nullptr, b.transposed);
  input_gradient(b.dk, Bm, w.wk, kdim, E, r.d_key, b.transposed);
  weight_gradient(p.key, Bm, kdim, b.dk, E, r.d_wk, w.bk ? r.d_bk : nullptr, b.transposed);
  input_gradient(b.dv, Bm, w.wv, vdim, E, r.d_value, b.transposed);
  weight_gradient(p.value, Bm, vdim, b.dv, E, r.d_wv, w.bv ? r.d_bv : nullptr, b.transposed);
  return Status::success();
}

}  // namespace attn
