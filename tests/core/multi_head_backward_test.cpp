// Multi-head attention's backward against the float64 reference (both head paths, batches, self-
// and cross-attention, every mask kind, with and without biases) and against finite differences.
#include "multi_head_backward.h"

#include <algorithm>
#include <cmath>

#include "gradient_check.h"
#include "reference.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

using Layer = testing::RandomLayer;

struct Problem {
  Layer layer;
  std::vector<float> query, key, value, bias;
  std::vector<uint8_t> mask, key_padding;
  MultiHeadProblem p;

  Problem(size_t B, size_t n, size_t m, size_t E, size_t H, size_t kdim, size_t vdim, bool has_bias,
          uint32_t seed)
      : layer(E, H, kdim, vdim, has_bias, seed) {
    query = random_floats(B * n * E, seed + 10, -1, 1);
    key = random_floats(B * m * kdim, seed + 11, -1, 1);
    value = random_floats(B * m * vdim, seed + 12, -1, 1);
    p.shape = layer.shape;
    p.weights = layer.weights();
    p.batch = B, p.n = n, p.m = m;
    p.query = query.data(), p.key = key.data(), p.value = value.data();
  }
};

struct Grads {
  std::vector<float> output, d_query, d_key, d_value, d_wq, d_wk, d_wv, d_wo, d_bq, d_bk, d_bv,
      d_bo;
  Status status;
};

constexpr float kSentinel = 4321.0f;

Grads run(const MultiHeadProblem& p, const std::vector<float>& d_output, HeadBackwardPath path) {
  const size_t B = p.batch, n = p.n, m = p.m, E = p.shape.embed_dim;
  Grads g;
  const float nan = std::nanf("");
  g.output.assign(B * n * E, nan), g.d_query.assign(B * n * E, nan);
  g.d_key.assign(B * m * p.shape.kdim, nan), g.d_value.assign(B * m * p.shape.vdim, nan);
  g.d_wq.assign(E * E, nan), g.d_wk.assign(p.shape.kdim * E, nan);
  g.d_wv.assign(p.shape.vdim * E, nan), g.d_wo.assign(E * E, nan);
  for (auto* b : {&g.d_bq, &g.d_bk, &g.d_bv, &g.d_bo}) b->assign(E, nan);
  MultiHeadGradResult r;
  r.output = g.output.data(), r.d_query = g.d_query.data(), r.d_key = g.d_key.data();
  r.d_value = g.d_value.data(), r.d_wq = g.d_wq.data(), r.d_wk = g.d_wk.data();
  r.d_wv = g.d_wv.data(), r.d_wo = g.d_wo.data(), r.d_bq = g.d_bq.data(), r.d_bk = g.d_bk.data();
  r.d_bv = g.d_bv.data(), r.d_bo = g.d_bo.data();
  r.path = path;
  const size_t floats = multi_head_backward_workspace_floats(p, r);
  std::vector<float> workspace(floats + 32, kSentinel);
  g.status = multi_head_attention_backward(p, d_output.data(), r, workspace.data());
  for (size_t i = floats; i < workspace.size(); ++i)
    EXPECT_EQ(workspace[i], kSentinel) << "overrun";
  return g;
}

::testing::AssertionResult close_to(const std::vector<float>& actual,
                                    const std::vector<double>& expected, const std::string& what,
                                    const std::vector<double>* scale_of = nullptr) {
  return close_on_largest_scale(actual, expected, what, 1e-6, 3e-5, scale_of);
}

void expect_matches_reference(const MultiHeadProblem& p, const std::string& label) {
  const auto d_output = random_floats(p.batch * p.n * p.shape.embed_dim, 99, -1, 1);
  const auto ref = reference::multi_head_attention_backward(p, d_output.data());
  for (auto path : {HeadBackwardPath::materialized, HeadBackwardPath::streaming}) {
    const std::string what =
        label + (path == HeadBackwardPath::streaming ? " streaming " : " materialized ") +
        shape_of({p.batch, p.n, p.m, p.shape.embed_dim, p.shape.num_heads});
    const Grads g = run(p, d_output, path);
    ASSERT_TRUE(g.status.ok()) << g.status.message;
    EXPECT_TRUE(close_to(g.output, ref.output, "output " + what));
    EXPECT_TRUE(close_to(g.d_query, ref.d_query, "d_query " + what));
    EXPECT_TRUE(close_to(g.d_key, ref.d_key, "d_key " + what));
    EXPECT_TRUE(close_to(g.d_value, ref.d_value, "d_value " + what));
    EXPECT_TRUE(close_to(g.d_wq, ref.d_wq, "d_wq " + what));
    EXPECT_TRUE(close_to(g.d_wk, ref.d_wk, "d_wk " + what));
    EXPECT_TRUE(close_to(g.d_wv, ref.d_wv, "d_wv " + what));
    EXPECT_TRUE(close_to(g.d_wo, ref.d_wo, "d_wo " + what));
    if (!p.weights.bq) {
      // Without biases the bias gradients are not written.
      EXPECT_TRUE(std::isnan(g.d_bq[0]) && std::isnan(g.d_bo[0]));
      continue;
    }
    EXPECT_TRUE(close_to(g.d_bq, ref.d_bq, "d_bq " + what));
    // b_K adds q·b_K to every score of a row, which the softmax ignores: d_bk is 0 up to rounding,
    // so its error is judged on the scale of the sums it cancels (dW_K's).
    EXPECT_TRUE(close_to(g.d_bk, ref.d_bk, "d_bk " + what, &ref.d_wk));
    EXPECT_TRUE(close_to(g.d_bv, ref.d_bv, "d_bv " + what));
    EXPECT_TRUE(close_to(g.d_bo, ref.d_bo, "d_bo " + what));
  }
}

TEST(MultiHeadBackward, SelfAttentionWithBiasesMatchesReference) {
  Problem pr(2, 7, 7, 12, 3, 12, 12, true, 1);
  pr.p.key = pr.p.value = pr.p.query;  // one tensor in all three roles
  expect_matches_reference(pr.p, "self");
}

TEST(MultiHeadBackward, CrossAttentionWithoutBiasesMatchesReference) {
  Problem pr(3, 5, 9, 8, 2, 6, 5, false, 2);
  expect_matches_reference(pr.p, "cross");
}

TEST(MultiHeadBackward, EveryMaskKindAndCustomScaleMatchReference) {
  for (int kind = 0; kind < 5; ++kind) {
    Problem pr(2, 9, 11, 8, 4, 8, 8, kind % 2 == 0, 10 + kind);
    pr.mask = random_mask(9 * 11, 20 + kind, 0.3);
    pr.bias = random_floats(9 * 11, 30 + kind, -2, 2);
    pr.key_padding = random_mask(2 * 11, 40 + kind, 0.3);
    for (size_t j = 0; j < 11; ++j) pr.mask[4 * 11 + j] = 1;  // row 4 fully masked under `mask`
    switch (kind) {
      case 0:
        pr.p.causal = true;
        break;
      case 1:
        pr.p.mask = pr.mask.data();
        break;
      case 2:
        pr.p.bias = pr.bias.data();
        break;
      case 3:
        pr.p.key_padding = pr.key_padding.data();
        break;
      default:
        pr.p.causal = true, pr.p.mask = pr.mask.data(), pr.p.bias = pr.bias.data();
        pr.p.key_padding = pr.key_padding.data(), pr.p.scale = 0.3f;
    }
    expect_matches_reference(pr.p, "mask kind " + std::to_string(kind));
  }
}

TEST(MultiHeadBackward, TailSizesAcrossStreamingTiles) {
  // Head size 17 (SIMD and panel tails), more than one 64-query block and 256-key tile.
  Problem pr(1, 70, 260, 34, 2, 5, 3, true, 5);
  pr.p.causal = true;
  expect_matches_reference(pr.p, "tiles");
}

TEST(MultiHeadBackward, AutomaticPathStreamsOnlyLargeProblems) {
  MultiHeadProblem p;
  p.n = p.m = 1024;
  EXPECT_FALSE(multi_head_backward_streams(p, {}));
  p.m = 1025;
  EXPECT_TRUE(multi_head_backward_streams(p, {}));
  MultiHeadGradResult forced;
  forced.path = HeadBackwardPath::materialized;
  EXPECT_FALSE(multi_head_backward_streams(p, forced));
}

TEST(MultiHeadBackward, MatchesFiniteDifferencesOfTheForward) {
  Problem pr(2, 3, 4, 6, 2, 5, 3, true, 7);
  pr.key_padding = {0, 0, 1, 0, 1, 0, 0, 0};
  pr.p.key_padding = pr.key_padding.data();
  pr.p.causal = false;
  const auto r = random_floats(2 * 3 * 6, 8, -1, 1);
  const Grads g = run(pr.p, r, HeadBackwardPath::automatic);
  ASSERT_TRUE(g.status.ok());
  const auto loss = [&] { return weighted_sum(reference::multi_head_attention(pr.p).output, r); };
  struct Param {
    std::vector<float>* x;
    const std::vector<float>* grad;
    const char* name;
  };
  Layer& l = pr.layer;
  for (Param q : {Param{&pr.query, &g.d_query, "d_query"},
                  {&pr.key, &g.d_key, "d_key"},
                  {&pr.value, &g.d_value, "d_value"},
                  {&l.wq, &g.d_wq, "d_wq"},
                  {&l.wk, &g.d_wk, "d_wk"},
                  {&l.wv, &g.d_wv, "d_wv"},
                  {&l.wo, &g.d_wo, "d_wo"},
                  {&l.bq, &g.d_bq, "d_bq"},
                  {&l.bk, &g.d_bk, "d_bk"},
                  {&l.bv, &g.d_bv, "d_bv"},
                  {&l.bo, &g.d_bo, "d_bo"}})
    for (size_t i = 0; i < q.x->size(); ++i) {
      const double fd = central_difference((*q.x)[i], 1e-2f, loss);
      EXPECT_NEAR((*q.grad)[i], fd, 2e-3 * (1.0 + std::fabs(fd))) << q.name << "[" << i << "]";
    }
}

TEST(MultiHeadBackward, RejectsMissingBuffersAndBadShapes) {
  Problem pr(1, 2, 2, 4, 2, 4, 4, true, 3);
  const std::vector<float> d_output(8, 0.5f);
  Grads g = run(pr.p, d_output, HeadBackwardPath::automatic);
  ASSERT_TRUE(g.status.ok());
  MultiHeadGradResult r;
  std::vector<float> ws(4096);
  EXPECT_FALSE(multi_head_attention_backward(pr.p, d_output.data(), r, ws.data()).ok());
  pr.p.shape.num_heads = 3;
  EXPECT_EQ(multi_head_attention_backward(pr.p, d_output.data(), r, ws.data()).message,
            "num_heads must divide embed_dim");
}

}  // namespace
}  // namespace attn
