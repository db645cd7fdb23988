// Batched scaled dot-product attention gradients: the forward, then attend_head_backward, per item.
#include "attention_backward.h"

#include <algorithm>
#include <cmath>

#include "attention_batch.h"
#include "attention_head.h"

namespace attn {
namespace {

Status validate(const AttentionProblem& p, const float* d_output, const AttentionGradResult& r) {
  if (p.batch == 0 || p.n == 0 || p.m == 0 || p.dk == 0 || p.dv == 0)
    return Status::error("attention sizes must be positive");
  if (!p.q || !p.k || !p.v) return Status::error("q, k and v are required");
  if (!d_output) return Status::error("the output gradient is required");
  if (!r.output || !r.d_q || !r.d_k || !r.d_v)
    return Status::error("output, d_q, d_k and d_v buffers are required");
  if (!(p.scale > 0.0f) || !std::isfinite(p.scale))
    return Status::error("scale must be a positive finite number");
  return Status::success();
}

// The forward's scratch, the backward's scratch, the row log-sum-exp (n) and, on the
// materialized path, the weights when the caller does not keep them (n·m). The forward's and the
// backward's scratch are used one after the other, so they share memory.
struct Layout {
  size_t scratch, lse, weights;
};

Layout layout(const AttentionProblem& p, const AttentionGradResult& r) {
  const bool stream = attention_backward_streams(r);
  Layout l;
  l.scratch = std::max(head_workspace_floats(p.n, p.m, p.dk, p.dv, stream),
                       head_backward_workspace_floats(p.n, p.m, p.dk, p.dv, stream));
  l.lse = p.n;
  l.weights = !stream && !r.weights ? p.n * p.m : 0;
  return l;
}

}  // namespace

bool attention_backward_streams(const AttentionGradResult& r) { return !(r.weights || r.d_scores); }

size_t attention_backward_workspace_floats(const AttentionProblem& p,
                                           const AttentionGradResult& r) {
  const Layout l = layout(p, r);
  return l.scratch + l.lse + l.weights;
}

Status scaled_dot_product_attention_backward(const AttentionProblem& p, const float* d_output,
                                             const AttentionGradResult& r, float* workspace) {
  Status status = validate(p, d_output, r);
  if (!status.ok()) return status;
  const Layout l = layout(p, r);
  float* scratch = workspace;
  float* lse = scratch + l.scratch;
  float* own_weights = l.weights ? lse + l.lse : nullptr;
  const bool stream = attention_backward_streams(r);
  const size_t nm = p.n * p.m;
  for (size_t b = 0; b < p.batch; ++b) {
    const HeadInputs in = batch_head_inputs(p, b);

    HeadOutputs out;
    out.output = {r.output + b * p.n * p.dv, p.n, p.dv, p.dv};
    out.weights = stream ? nullptr : (r.weights ? r.weights + b * nm : own_weights);
    out.row_lse = lse;
    attend_head(in, out, scratch);

    HeadGradInputs g;
    g.output = out.output;
    g.d_output = {d_output + b * p.n * p.dv, p.n, p.dv, p.dv};
    g.weights = out.weights;
    g.row_lse = lse;
    HeadGradOutputs go;
    go.dq = {r.d_q + b * p.n * p.dk, p.n, p.dk, p.dk};
    go.dk = {r.d_k + b * p.m * p.dk, p.m, p.dk, p.dk};
    go.dv = {r.d_v + b * p.m * p.dv, p.m, p.dv, p.dv};
    go.d_scores = offset_or_null(r.d_scores, b * nm);
    attend_head_backward(in, g, go, scratch);
  }
  return Status::success();
}

}  // namespace attn
