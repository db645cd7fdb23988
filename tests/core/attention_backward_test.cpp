// Attention's backward pass (attend_head_backward through scaled_dot_product_attention_backward)
// against the float64 reference and against finite differences of the float64 forward, on both
// paths, at the kernels' tail sizes and with every mask kind.
#include "attention_backward.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention_head.h"
#include "gradient_check.h"
#include "kernels.h"
#include "reference.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h
using Inputs = testing::RandomAttention;

constexpr float kSentinel = 12345.0f;
constexpr size_t kGuard = 32;

struct Grads {
  std::vector<float> output, weights, d_q, d_k, d_v, d_scores;
  Status status;
};

// Runs the core; `materialize` asks for weights and d_scores (the materialized path). The
// workspace is sized exactly as the core says, followed by guard floats that must stay untouched.
Grads run(const AttentionProblem& p, const std::vector<float>& d_output, bool materialize) {
  Grads g;
  const float nan = std::nanf("");
  g.output.assign(p.batch * p.n * p.dv, nan);
  g.d_q.assign(p.batch * p.n * p.dk, nan);
  g.d_k.assign(p.batch * p.m * p.dk, nan);
  g.d_v.assign(p.batch * p.m * p.dv, nan);
  AttentionGradResult r;
  r.output = g.output.data();
  r.d_q = g.d_q.data(), r.d_k = g.d_k.data(), r.d_v = g.d_v.data();
  if (materialize) {
    g.weights.assign(p.batch * p.n * p.m, nan);
    g.d_scores.assign(p.batch * p.n * p.m, nan);
    r.weights = g.weights.data();
    r.d_scores = g.d_scores.data();
  }
  EXPECT_EQ(attention_backward_streams(r), !materialize);
  const size_t floats = attention_backward_workspace_floats(p, r);
  std::vector<float> workspace(floats + kGuard, kSentinel);
  g.status = scaled_dot_product_attention_backward(p, d_output.data(), r, workspace.data());
  for (size_t i = floats; i < workspace.size(); ++i)
    EXPECT_EQ(workspace[i], kSentinel) << "workspace overrun at " << i - floats;
  return g;
}

::testing::AssertionResult close_to(const std::vector<float>& actual,
                                    const std::vector<double>& expected, const std::string& what) {
  return close_on_largest_scale(actual, expected, what, 5e-6, 2e-5);
}

void expect_matches_reference(const AttentionProblem& p, const std::vector<float>& d_output,
                              const std::string& label) {
  const auto ref = reference::scaled_dot_product_attention_backward(p, d_output.data());
  const std::string shape = label + " " + shape_of({p.batch, p.n, p.m, p.dk, p.dv});
  for (bool materialize : {true, false}) {
    SCOPED_TRACE(std::string(materialize ? "materialized " : "streaming ") + shape);
    const Grads g = run(p, d_output, materialize);
    ASSERT_TRUE(g.status.ok()) << g.status.message;
    EXPECT_TRUE(close_to(g.output, ref.output, "output " + shape));
    EXPECT_TRUE(close_to(g.d_q, ref.d_q, "d_q " + shape));
    EXPECT_TRUE(close_to(g.d_k, ref.d_k, "d_k " + shape));
    EXPECT_TRUE(close_to(g.d_v, ref.d_v, "d_v " + shape));
    if (!materialize) continue;
    EXPECT_TRUE(close_to(g.d_scores, ref.d_scores, "d_scores " + shape));
    for (size_t i = 0; i < ref.weights.size(); ++i)
      if (ref.weights[i] == 0.0 && g.weights[i] == 0.0f) {  // hidden key: gradient exactly +0
        ASSERT_EQ(g.d_scores[i], 0.0f) << "hidden cell " << i;
        ASSERT_FALSE(std::signbit(g.d_scores[i])) << "hidden cell " << i << " is −0";
      }
  }
}

TEST(AttentionBackward, MatchesFloat64ReferenceAtKernelTails) {
  // Below, at and above the SIMD width (4), the panel width (16) and the 2-row register block.
  const size_t sizes[] = {1, 2, 3, 4, 5, 15, 16, 17, 33};
  uint32_t seed = 100;
  for (size_t n : sizes)
    for (size_t m : sizes)
      for (size_t d : {size_t(1), size_t(4), size_t(17)}) {
        Inputs in = random_attention(1, n, m, d, d + 3, seed += 3);
        auto d_output = random_floats(n * (d + 3), seed + 7, -1, 1);
        expect_matches_reference(in.problem, d_output, "tails");
        if (HasFatalFailure()) return;
      }
}

TEST(AttentionBackward, MatchesReferenceAcrossStreamingTiles) {
  // More than one 64-query block and 256-key tile, with ragged last ones, causal or not.
  for (bool causal : {false, true})
    for (auto [n, m] : {std::pair<size_t, size_t>{130, 300}, {70, 513}, {257, 65}}) {
      Inputs in = random_attention(1, n, m, 20, 9, uint32_t(n + m));
      in.problem.causal = causal;
      auto d_output = random_floats(n * 9, 5, -1, 1);
      expect_matches_reference(in.problem, d_output, causal ? "causal" : "plain");
    }
}

TEST(AttentionBackward, EveryMaskKindMatchesReference) {
  const size_t B = 2, n = 19, m = 23, dk = 8, dv = 5;
  for (int kind = 0; kind < 6; ++kind) {
    Inputs in = random_attention(B, n, m, dk, dv, 40 + kind);
    AttentionProblem& p = in.problem;
    in.mask = random_mask(B * n * m, 50 + kind, 0.3);
    in.bias = random_floats(B * n * m, 60 + kind, -2, 2);
    in.key_padding = random_mask(B * m, 70 + kind, 0.25);
    switch (kind) {
      case 0:
        p.causal = true;
        break;
      case 1:
        p.mask = in.mask.data();
        break;
      case 2:
        p.mask = in.mask.data(), p.mask_per_batch = true;
        break;
      case 3:
        p.bias = in.bias.data(), p.bias_per_batch = true;
        break;
      case 4:
        p.key_padding = in.key_padding.data();
        break;
      default:
        p.causal = true, p.mask = in.mask.data(), p.bias = in.bias.data();
        p.key_padding = in.key_padding.data();
    }
    auto d_output = random_floats(B * n * dv, 80 + kind, -1, 1);
    expect_matches_reference(p, d_output, "mask kind " + std::to_string(kind));
  }
}

TEST(AttentionBackward, FullyMaskedRowsGetZeroGradient) {
  const size_t n = 6, m = 40, dk = 5, dv = 3;
  Inputs in = random_attention(1, n, m, dk, dv, 9);
  in.mask.assign(n * m, 0);
  for (size_t j = 0; j < m; ++j) in.mask[2 * m + j] = in.mask[5 * m + j] = 1;  // rows 2 and 5
  in.problem.mask = in.mask.data();
  auto d_output = random_floats(n * dv, 10, -1, 1);
  for (bool materialize : {true, false}) {
    const Grads g = run(in.problem, d_output, materialize);
    ASSERT_TRUE(g.status.ok());
    for (size_t row : {size_t(2), size_t(5)}) {
      for (size_t c = 0; c < dk; ++c) EXPECT_EQ(g.d_q[row * dk + c], 0.0f) << row << "," << c;
      for (size_t c = 0; c < dv; ++c) EXPECT_EQ(g.output[row * dv + c], 0.0f);
      if (materialize)
        for (size_t j = 0; j < m; ++j) EXPECT_EQ(g.d_scores[row * m + j], 0.0f);
    }
    // dO of the hidden rows reaches no key: changing it leaves dK and dV as they are.
    auto other = d_output;
    for (size_t c = 0; c < dv; ++c) other[2 * dv + c] = 100.0f, other[5 * dv + c] = -7.0f;
    const Grads h = run(in.problem, other, materialize);
    EXPECT_EQ(h.d_k, g.d_k);
    EXPECT_EQ(h.d_v, g.d_v);
  }
}

// x is an input of p; the loss is Σ O ⊙ R of the float64 reference forward.
void expect_near_difference(float* x, const std::vector<float>& grad, const AttentionProblem& p,
                            const std::vector<float>& r, const std::string& what) {
  const auto loss = [&] {
    return weighted_sum(reference::scaled_dot_product_attention(p).output, r);
  };
  for (size_t i = 0; i < grad.size(); ++i) {
    const double fd = central_difference(x[i], 1e-2f, loss);
    EXPECT_NEAR(grad[i], fd, 2e-3 * (1.0 + std::fabs(fd))) << what << "[" << i << "]";
  }
}

TEST(AttentionBackward, MatchesFiniteDifferencesOfTheForward) {
  // Tail sizes on both sides of the SIMD width; a bias (its gradient is dS) and a causal mask.
  for (auto [n, m, dk, dv] : {std::array<size_t, 4>{3, 5, 3, 2}, {5, 6, 5, 7}, {4, 17, 4, 1}}) {
    Inputs in = random_attention(1, n, m, dk, dv, uint32_t(n * m));
    in.bias = random_floats(n * m, 3, -1, 1);
    in.problem.bias = in.bias.data();
    in.problem.causal = n == 4;
    in.problem.scale = 0.7f;
    auto r = random_floats(n * dv, 4, -1, 1);
    for (bool materialize : {true, false}) {
      SCOPED_TRACE(materialize ? "materialized" : "streaming");
      const Grads g = run(in.problem, r, materialize);
      ASSERT_TRUE(g.status.ok());
      expect_near_difference(in.q.data(), g.d_q, in.problem, r, "d_q");
      expect_near_difference(in.k.data(), g.d_k, in.problem, r, "d_k");
      expect_near_difference(in.v.data(), g.d_v, in.problem, r, "d_v");
      if (materialize) expect_near_difference(in.bias.data(), g.d_scores, in.problem, r, "d_bias");
    }
  }
}

TEST(AttentionBackward, StreamingEqualsMaterializedAtModerateSize) {
  const size_t n = 300, m = 700, d = 64;
  Inputs in = random_attention(1, n, m, d, d, 77);
  in.key_padding = random_mask(m, 78, 0.2);
  in.problem.key_padding = in.key_padding.data();
  in.problem.causal = true;
  auto d_output = random_floats(n * d, 79, -1, 1);
  const Grads a = run(in.problem, d_output, true), b = run(in.problem, d_output, false);
  ASSERT_TRUE(a.status.ok() && b.status.ok());
  EXPECT_TRUE(all_close(b.output, a.output, "output", 1e-5, 1e-5));
  for (auto [x, y, what] :
       {std::tuple{&b.d_q, &a.d_q, "d_q"}, {&b.d_k, &a.d_k, "d_k"}, {&b.d_v, &a.d_v, "d_v"}}) {
    float largest = 0.0f;
    for (float v : *y) largest = std::max(largest, std::fabs(v));
    EXPECT_TRUE(all_close(*x, *y, what, 1e-5 * largest, 1e-4));
  }
}

TEST(AttentionBackward, WorkspaceFormulaAndLongSequenceBudget) {
  using kernels::packed_floats;
  const size_t n = 300, m = 70, dk = 20, dv = 9;
  EXPECT_EQ(head_backward_workspace_floats(n, m, dk, dv, false),
            packed_floats(n, m) + n * m + std::max(dv, dk) * (n + m) +
                std::max(packed_floats(dv, m), packed_floats(m, dk)));
  EXPECT_EQ(head_backward_workspace_floats(n, m, dk, dv, true),
            packed_floats(dk, m) + packed_floats(dv, m) + packed_floats(m, dk) +
                packed_floats(64, dk) + packed_floats(64, dv) + 3 * 64 * 256 + 64);
  // n = m = 16384, d = 64: the streaming backward's scratch, the row log-sum-exp and the
  // forward's scratch (shared) stay within 32 MB of extra heap.
  AttentionProblem p;
  p.n = p.m = 16384, p.dk = p.dv = 64;
  AttentionGradResult r;
  ASSERT_TRUE(attention_backward_streams(r));
  const size_t bytes = attention_backward_workspace_floats(p, r) * sizeof(float);
  EXPECT_LE(bytes, size_t(32) << 20) << bytes;
  EXPECT_EQ(head_backward_workspace_floats(16384, 16384, 64, 64, true) * sizeof(float),
            size_t(12) * 16384 * 64 + (3 * 64 * 256 + 64 + 2 * 64 * 64) * 4);
}

TEST(AttentionBackward, HeadBackwardOnStridedViewsAccumulates) {
  // Two heads side by side in (tokens × 2d) matrices, as the multi-head layer lays them out.
  const size_t n = 9, m = 21, d = 6, ld = 2 * d;
  auto q = random_floats(n * ld, 1, -2, 2), k = random_floats(m * ld, 2, -2, 2);
  auto v = random_floats(m * ld, 3, -2, 2), d_o = random_floats(n * ld, 4, -1, 1);
  for (bool stream : {false, true}) {
    HeadInputs in;
    in.q = {q.data() + d, n, d, ld}, in.k = {k.data() + d, m, d, ld},
    in.v = {v.data() + d, m, d, ld};
    in.scale = 0.4f;
    in.masks.causal = true;
    std::vector<float> out(n * ld, kSentinel), weights(n * m), lse(n);
    HeadOutputs fo;
    fo.output = {out.data() + d, n, d, ld};
    fo.weights = stream ? nullptr : weights.data();
    fo.row_lse = lse.data();
    std::vector<float> ws(std::max(head_workspace_floats(n, m, d, d, stream),
                                   head_backward_workspace_floats(n, m, d, d, stream)));
    attend_head(in, fo, ws.data());
    HeadGradInputs gi;
    gi.output = fo.output, gi.d_output = {d_o.data() + d, n, d, ld};
    gi.weights = fo.weights, gi.row_lse = lse.data();
    std::vector<float> dq(n * ld, kSentinel), dk(m * ld, kSentinel), dv(m * ld, kSentinel);
    HeadGradOutputs go;
    go.dq = {dq.data() + d, n, d, ld}, go.dk = {dk.data() + d, m, d, ld},
    go.dv = {dv.data() + d, m, d, ld};
    attend_head_backward(in, gi, go, ws.data());
    const auto once_q = dq, once_k = dk, once_v = dv;
    go.accumulate = true;
    attend_head_backward(in, gi, go, ws.data());
    for (auto [now, once] : {std::pair{&dq, &once_q}, {&dk, &once_k}, {&dv, &once_v}})
      for (size_t i = 0; i < now->size(); ++i) {
        if (i % ld < d) {  // the other head's columns are never written
          ASSERT_EQ((*now)[i], kSentinel) << i;
          continue;
        }
        ASSERT_NEAR((*now)[i], 2.0f * (*once)[i], 1e-6f * (1 + std::fabs((*once)[i]))) << i;
      }
  }
}

TEST(AttentionBackward, ForwardRowLogSumExpMatchesReference) {
  const size_t n = 70, m = 300, d = 7;
  Inputs in = random_attention(1, n, m, d, d, 5);
  in.mask = random_mask(n * m, 6, 0.5);
  for (size_t j = 0; j < m; ++j) in.mask[3 * m + j] = 1;
  in.problem.mask = in.mask.data();
  const auto ref = reference::scaled_dot_product_attention(in.problem);
  for (bool stream : {false, true}) {
    HeadInputs hi;
    hi.q = {in.q.data(), n, d, d}, hi.k = {in.k.data(), m, d, d}, hi.v = {in.v.data(), m, d, d};
    hi.scale = in.problem.scale, hi.masks.mask = in.mask.data();
    std::vector<float> out(n * d), weights(n * m), lse(n, std::nanf(""));
    HeadOutputs ho;
    ho.output = {out.data(), n, d, d};
    ho.weights = stream ? nullptr : weights.data();
    ho.row_lse = lse.data();
    std::vector<float> ws(head_workspace_floats(n, m, d, d, stream));
    attend_head(hi, ho, ws.data());
    for (size_t i = 0; i < n; ++i) {
      double mx = -INFINITY, sum = 0.0;
      for (size_t j = 0; j < m; ++j) mx = std::max(mx, ref.masked[i * m + j]);
      for (size_t j = 0; j < m; ++j) sum += std::exp(ref.masked[i * m + j] - mx);
      if (i == 3)
        EXPECT_EQ(lse[i], -INFINITY);
      else
        EXPECT_NEAR(lse[i], mx + std::log(sum), 1e-5 * (1 + std::fabs(mx))) << "row " << i;
    }
  }
}

}  // namespace
}  // namespace attn
