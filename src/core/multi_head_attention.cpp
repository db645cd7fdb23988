#include "multi_head_attention.h"

#include <cmath>
#include <cstring>

#include "attention_head.h"
#include "multi_head_heads.h"
#include "kernels.h"

namespace attn {
namespace {

// rows × out = x (rows × in) · w (in × out) + b
void project(const float* x, size_t rows, size_t in, const float* w, const float* b, size_t out,
             float* y) {
  kernels::matmul(x, in, w, out, y, out, rows, out, in, 1.0f, false);
  if (b)
    for (size_t r = 0; r < rows; ++r) kernels::axpy(y + r * out, b, out, 1.0f);
}

bool wants_head_matrix(const MultiHeadResult& r) {
  return r.weights || r.head_weights || r.scores || r.scaled || r.masked;
}

// Averaged weights without per-head ones need one head's n × m weights to sum from. Output only
// needs none: each head streams, so the workspace stays linear in n and m.
bool needs_head_weights(const MultiHeadResult& r) {
  return r.weights && r.average_weights && !r.head_weights;
}

struct Workspace {
  float* q;             // B·n·E
  float* k;             // B·m·E
  float* v;             // B·m·E
  float* concat;        // B·n·E
  float* head_weights;  // n·m, for averaging (only when needs_head_weights)
  float* head;          // attend_head scratch
};

// Sub-buffers start on 16-float (64-byte) boundaries, so when the caller's block is 64-byte aligned
// the kernels' 16-byte loads and stores never straddle a cache line.
constexpr size_t kAlignFloats = 16;
inline size_t aligned(size_t floats) {
  return (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats;
}

Workspace carve(const MultiHeadProblem& p, const MultiHeadResult& r, float* base) {
  const size_t E = p.shape.embed_dim;
  Workspace w;
  w.q = base;
  w.k = w.q + aligned(p.batch * p.n * E);
  w.v = w.k + aligned(p.batch * p.m * E);
  w.concat = w.v + aligned(p.batch * p.m * E);
  w.head_weights = w.concat + aligned(p.batch * p.n * E);
  w.head = w.head_weights + (needs_head_weights(r) ? aligned(p.n * p.m) : 0);
  return w;
}

void copy_if(float* dst, const float* src, size_t count) {
  if (dst) std::memcpy(dst, src, count * sizeof(float));
}

}  // namespace

size_t multi_head_parameter_count(const MultiHeadShape& s) {
  const size_t E = s.embed_dim;
  return E * E + s.kdim * E + s.vdim * E + E * E + (s.has_bias ? 4 * E : 0);
}

float multi_head_scale(const MultiHeadProblem& p) {
  if (p.scale > 0.0f) return p.scale;
  return 1.0f / std::sqrt(static_cast<float>(p.shape.embed_dim / p.shape.num_heads));
}

Status validate_multi_head_shape(const MultiHeadShape& s) {
  if (s.embed_dim == 0 || s.num_heads == 0 || s.kdim == 0 || s.vdim == 0)
    return Status::error("embed_dim, num_heads, kdim and vdim must be positive");
  if (s.embed_dim % s.num_heads != 0) return Status::error("num_heads must divide embed_dim");
  return Status::success();
}

size_t multi_head_workspace_floats(const MultiHeadProblem& p, const MultiHeadResult& r) {
  const size_t E = p.shape.embed_dim, d = E / p.shape.num_heads;
  const bool stream = !wants_head_matrix(r);
  return 2 * aligned(p.batch * p.n * E) + 2 * aligned(p.batch * p.m * E) +
         (needs_head_weights(r) ? aligned(p.n * p.m) : 0) +
         head_workspace_floats(p.n, p.m, d, d, stream);
}

Status multi_head_attention(const MultiHeadProblem& p, const MultiHeadResult& r, float* workspace) {
  Status status = validate_multi_head_shape(p.shape);
  if (!status.ok()) return status;
  if (p.batch == 0 || p.n == 0 || p.m == 0) return Status::error("batch, n and m must be positive");
  if (p.scale < 0.0f || !std::isfinite(p.scale))
    return Status::error("scale must be a positive finite number");
  if (!p.query || !p.key || !p.value || !r.output) return Status::error("missing input or output");
  const MultiHeadWeights& w = p.weights;
  if (!w.wq || !w.wk || !w.wv || !w.wo) return Status::error("missing projection weights");

  const size_t B = p.batch, n = p.n, m = p.m, E = p.shape.embed_dim, H = p.shape.num_heads;
  const size_t d = E / H, nm = n * m;
  Workspace ws = carve(p, r, workspace);
  project(p.query, B * n, E, w.wq, w.bq, E, ws.q);
  project(p.key, B * m, p.shape.kdim, w.wk, w.bk, E, ws.k);
  project(p.value, B * m, p.shape.vdim, w.wv, w.bv, E, ws.v);

  const bool average = r.weights && r.average_weights;
  for (size_t b = 0; b < B; ++b) {
    if (average) std::memset(r.weights + b * nm, 0, nm * sizeof(float));
    for (size_t h = 0; h < H; ++h) {
      const size_t head_index = b * H + h;
      const HeadInputs in = multi_head_inputs(p, ws.q, ws.k, ws.v, b, h);

      HeadOutputs out;
      out.output = {ws.concat + b * n * E + h * d, n, d, E};
      if (r.head_weights)
        out.weights = r.head_weights + head_index * nm;
      else if (average)
        out.weights = ws.head_weights;
      else if (r.weights)
        out.weights = r.weights + head_index * nm;
      out.scores = r.scores ? r.scores + head_index * nm : nullptr;
      out.scaled = r.scaled ? r.scaled + head_index * nm : nullptr;
      out.masked = r.masked ? r.masked + head_index * nm : nullptr;
      // Masks are shared by the heads, so every head hides the same rows.
      out.fully_masked_rows =
          (h == 0 && r.fully_masked_rows) ? r.fully_masked_rows + b * n : nullptr;
      attend_head(in, out, ws.head);
      if (average)
        kernels::axpy(r.weights + b * nm, out.weights, nm, 1.0f / static_cast<float>(H));
      else if (r.weights && r.head_weights)
        std::memcpy(r.weights + head_index * nm, out.weights, nm * sizeof(float));
      if (r.head_outputs)
        for (size_t i = 0; i < n; ++i)
          std::memcpy(r.head_outputs + (head_index * n + i) * d, out.output.row(i),
                      d * sizeof(float));
    }
  }
  project(ws.concat, B * n, E, w.wo, w.bo, E, r.output);
  copy_if(r.q_proj, ws.q, B * n * E);
  copy_if(r.k_proj, ws.k, B * m * E);
  copy_if(r.v_proj, ws.v, B * m * E);
  copy_if(r.concat, ws.concat, B * n * E);
  return Status::success();
}

}  // namespace attn
