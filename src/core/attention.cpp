#include "attention.h"

#include <cmath>

#include "attention_batch.h"
#include "attention_head.h"

namespace attn {
namespace {

Status validate(const AttentionProblem& p, const AttentionResult& r) {
  if (p.batch == 0 || p.n == 0 || p.m == 0 || p.dk == 0 || p.dv == 0)
    return Status::error("attention sizes must be positive");
  if (!p.q || !p.k || !p.v) return Status::error("q, k and v are required");
  if (!r.output) return Status::error("an output buffer is required");
  if (!(p.scale > 0.0f) || !std::isfinite(p.scale))
    return Status::error("scale must be a positive finite number");
  return Status::success();
}

}  // namespace

bool attention_streams(const AttentionResult& r) {
  return !(r.weights || r.scores || r.scaled || r.masked);
}

size_t attention_workspace_floats(const AttentionProblem& p, const AttentionResult& r) {
  return head_workspace_floats(p.n, p.m, p.dk, p.dv, attention_streams(r));
}

Status scaled_dot_product_attention(const AttentionProblem& p, const AttentionResult& r,
                                    float* workspace) {
  Status status = validate(p, r);
  if (!status.ok()) return status;
  const size_t nm = p.n * p.m;
  for (size_t b = 0; b < p.batch; ++b) {
    const HeadInputs in = batch_head_inputs(p, b);

    HeadOutputs out;
    out.output = {r.output + b * p.n * p.dv, p.n, p.dv, p.dv};
    out.weights = offset_or_null(r.weights, b * nm);
    out.scores = offset_or_null(r.scores, b * nm);
    out.scaled = offset_or_null(r.scaled, b * nm);
    out.masked = offset_or_null(r.masked, b * nm);
    out.fully_masked_rows = offset_or_null(r.fully_masked_rows, b * p.n);
    attend_head(in, out, workspace);
  }
  return Status::success();
}

}  // namespace attn
