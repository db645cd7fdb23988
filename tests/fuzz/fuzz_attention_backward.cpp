// libFuzzer harness for attn::scaled_dot_product_attention_backward, on both of its paths: the
// materialized one (weights and dS wanted) and the streaming one (neither), over the problems of
// attention_input.h with an incoming gradient dO of its own magnitude.
//
// Always: no crash, no sanitizer report. When every value is finite and nothing can overflow
// float32: no NaN; the output, weights, dS, dQ, dK and dV agree with attn::reference within the
// bounds of grad_bounds.h on both paths; hidden cells of dS are exactly 0; a fully masked query row
// gets all-zero dQ and dS rows.
#include <cmath>
#include <cstdint>
#include <vector>

#include "attention_backward.h"
#include "attention_input.h"
#include "error_bounds.h"
#include "fuzz_input.h"
#include "grad_bounds.h"
#include "reference.h"

namespace {

constexpr double kInRange = 1e30;

struct Grads {
  std::vector<float> output, weights, d_q, d_k, d_v, d_scores;
  attn::AttentionGradResult result;

  Grads(const attn::AttentionProblem& p, bool materialized)
      : output(p.batch * p.n * p.dv, -1.0f),
        weights(materialized ? p.batch * p.n * p.m : 0, -1.0f),
        d_q(p.batch * p.n * p.dk, -1.0f),
        d_k(p.batch * p.m * p.dk, -1.0f),
        d_v(p.batch * p.m * p.dv, -1.0f),
        d_scores(weights.size(), -1.0f) {
    result.output = output.data(), result.d_q = d_q.data(), result.d_k = d_k.data();
    result.d_v = d_v.data();
    if (materialized) result.weights = weights.data(), result.d_scores = d_scores.data();
  }

  Grads(const Grads&) = delete;
  Grads& operator=(const Grads&) = delete;

  void run(const attn::AttentionProblem& p, const float* d_o) {
    std::vector<float> workspace(attn::attention_backward_workspace_floats(p, result));
    const attn::Status status =
        attn::scaled_dot_product_attention_backward(p, d_o, result, workspace.data());
    FUZZ_CHECK(status.ok(), "backward failed: %s", status.message.c_str());
  }
};

void check_close(const char* what, const char* path, const std::vector<float>& actual,
                 size_t offset, const std::vector<double>& expected,
                 const std::vector<double>& bound) {
  const size_t count = expected.size();
  const size_t bad =
      fuzz::first_mismatch(actual.data() + offset, expected.data(), bound.data(), count);
  FUZZ_CHECK(bad == count, "%s (%s)[%zu]: actual %.9g, expected %.9g, bound %.3g", what, path,
             offset + bad, double(actual[offset + bad]), expected[bad], bound[bad]);
}

// The reference's batch item b of a tensor with `size` elements per item.
std::vector<double> item(const std::vector<double>& all, size_t b, size_t size) {
  return std::vector<double>(all.begin() + b * size, all.begin() + (b + 1) * size);
}

void check_item(const fuzz::AttentionInput& in, const float* d_o, size_t b,
                const attn::reference::AttentionGradReference& ref, const Grads& mat,
                const Grads& str) {
  const attn::AttentionProblem& p = in.p;
  const size_t n = p.n, m = p.m, dk = p.dk, dv = p.dv;
  const fuzz::HeadBounds h = in.bounds(b);
  const fuzz::HeadGradBounds g =
      fuzz::head_grad_bounds(h, n, m, dk, dv, in.q.data() + b * n * dk, in.k.data() + b * m * dk,
                             in.v.data() + b * m * dv, d_o + b * n * dv, double(p.scale));
  if (h.max_score_magnitude > kInRange || g.magnitude > kInRange) return;

  // The oracle itself: attn::reference and grad_bounds.h agree.
  const std::vector<double> ref_dq = item(ref.d_q, b, n * dk);
  for (size_t x = 0; x < n * dk; ++x)
    FUZZ_CHECK(
        std::fabs(ref_dq[x] - g.d_q[x]) <= 1e-9 * std::fabs(g.d_q[x]) + 1e-6 * g.e_d_q[x] + 1e-300,
        "reference dQ %zu: %.17g vs %.17g (bound %.3g)", x, ref_dq[x], g.d_q[x], g.e_d_q[x]);
  for (const Grads* r : {&mat, &str}) {
    const char* path = r == &mat ? "materialized" : "streaming";
    check_close("output", path, r->output, b * n * dv, h.output, h.e_output);
    check_close("dQ", path, r->d_q, b * n * dk, g.d_q, g.e_d_q);
    check_close("dK", path, r->d_k, b * m * dk, g.d_k, g.e_d_k);
    check_close("dV", path, r->d_v, b * m * dv, g.d_v, g.e_d_v);
  }
  check_close("weights", "materialized", mat.weights, b * n * m, h.weights, h.e_weights);
  check_close("dS", "materialized", mat.d_scores, b * n * m, g.d_scores, g.e_d_scores);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j)
      if (h.masked[i * m + j] == -INFINITY)
        FUZZ_CHECK(mat.d_scores[b * n * m + i * m + j] == 0.0f, "hidden dS[%zu, %zu] = %g", i, j,
                   double(mat.d_scores[b * n * m + i * m + j]));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const fuzz::AttentionInput problem(in);
  const attn::AttentionProblem& p = problem.p;
  const std::vector<float> d_o = in.values(p.batch * p.n * p.dv, in.magnitude());

  Grads mat(p, true), str(p, false);
  FUZZ_CHECK(
      !attn::attention_backward_streams(mat.result) && attn::attention_backward_streams(str.result),
      "path selection");
  mat.run(p, d_o.data());
  str.run(p, d_o.data());

  if (!problem.finite() || !fuzz::all_finite(d_o)) return 0;
  const attn::reference::AttentionGradReference ref =
      attn::reference::scaled_dot_product_attention_backward(p, d_o.data());
  for (size_t b = 0; b < p.batch; ++b) check_item(problem, d_o.data(), b, ref, mat, str);
  return 0;
}
