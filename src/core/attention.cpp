#include "attention.h"

#include <cmath>

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

template <typename T>
T* at(T* base, size_t offset) {
  return base ? base + offset : nullptr;
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
    HeadInputs in;
    in.q = {p.q + b * p.n * p.dk, p.n, p.dk, p.dk};
    in.k = {p.k + b * p.m * p.dk, p.m, p.dk, p.dk};
    in.v = {p.v + b * p.m * p.dv, p.m, p.dv, p.dv};
    in.scale = p.scale;
    in.masks.causal = p.causal;
    in.masks.mask = at(p.mask, p.mask_per_batch ? b * nm : 0);
    in.masks.bias = at(p.bias, p.bias_per_batch ? b * nm : 0);
    in.masks.key_padding = at(p.key_padding, b * p.m);

    HeadOutputs out;
    out.output = {r.output + b * p.n * p.dv, p.n, p.dv, p.dv};
    out.weights = at(r.weights, b * nm);
    out.scores = at(r.scores, b * nm);
    out.scaled = at(r.scaled, b * nm);
    out.masked = at(r.masked, b * nm);
    out.fully_masked_rows = at(r.fully_masked_rows, b * p.n);
    attend_head(in, out, workspace);
  }
  return Status::success();
}

}  // namespace attn
