#include "multi_head_attention.h"

#include <cmath>

#include "attention.h"
#include "reference.h"
#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

using Layer = testing::RandomLayer;

struct Outcome {
  std::vector<float> output, weights, head_weights, q_proj, k_proj, v_proj, scores, concat,
      head_outputs;
  std::vector<uint8_t> fully_masked_rows;
  Status status;
};

Outcome run(const MultiHeadProblem& p, bool weights, bool average, bool trace) {
  const size_t B = p.batch, n = p.n, m = p.m, E = p.shape.embed_dim, H = p.shape.num_heads;
  Outcome r;
  MultiHeadResult res;
  r.output.assign(B * n * E, NAN);
  r.fully_masked_rows.assign(B * n, 9);
  res.output = r.output.data();
  res.fully_masked_rows = r.fully_masked_rows.data();
  if (weights) {
    r.weights.assign(average ? B * n * m : B * H * n * m, NAN);
    res.weights = r.weights.data();
    res.average_weights = average;
  }
  if (trace) {
    r.q_proj.assign(B * n * E, NAN), r.k_proj.assign(B * m * E, NAN),
        r.v_proj.assign(B * m * E, NAN);
    r.scores.assign(B * H * n * m, NAN), r.concat.assign(B * n * E, NAN);
    r.head_outputs.assign(B * n * E, NAN);
    r.head_weights.assign(B * H * n * m, NAN);
    res.head_weights = r.head_weights.data();
    res.q_proj = r.q_proj.data(), res.k_proj = r.k_proj.data(), res.v_proj = r.v_proj.data();
    res.scores = r.scores.data(), res.concat = r.concat.data();
    res.head_outputs = r.head_outputs.data();
  }
  std::vector<float> workspace(multi_head_workspace_floats(p, res));
  r.status = multi_head_attention(p, res, workspace.data());
  return r;
}

TEST(MultiHead, ParameterCountMatchesPyTorch) {
  // nn.MultiheadAttention(512, 8): 4·512² + 4·512 = 1,050,624 parameters, independent of heads.
  EXPECT_EQ(multi_head_parameter_count({512, 8, 512, 512, true}), 1050624u);
  EXPECT_EQ(multi_head_parameter_count({512, 1, 512, 512, true}), 1050624u);
  EXPECT_EQ(multi_head_parameter_count({16, 2, 16, 16, false}), 4u * 256u);
  EXPECT_EQ(multi_head_parameter_count({8, 2, 3, 5, true}), 64u + 24u + 40u + 64u + 32u);
}

TEST(MultiHead, RejectsHeadsThatDoNotDivideEmbedDim) {
  EXPECT_NE(validate_multi_head_shape({10, 3, 10, 10, true}).message.find("divide"),
            std::string::npos);
  EXPECT_FALSE(validate_multi_head_shape({0, 1, 1, 1, true}).ok());
  EXPECT_TRUE(validate_multi_head_shape({12, 3, 5, 7, false}).ok());
}

TEST(MultiHead, MatchesFloat64Reference) {
  struct Case {
    size_t B, n, m, E, H, kdim, vdim;
    bool bias, causal, masks;
  };
  const Case cases[] = {
      {1, 4, 4, 8, 2, 8, 8, true, false, false},   {2, 5, 5, 12, 3, 12, 12, true, true, false},
      {2, 3, 7, 16, 4, 5, 9, false, false, true},  {1, 17, 17, 32, 8, 32, 32, true, true, true},
      {3, 9, 6, 20, 5, 20, 11, true, false, true}, {1, 1, 1, 4, 4, 4, 4, true, false, false}};
  uint32_t seed = 500;
  for (const Case& c : cases) {
    Layer layer(c.E, c.H, c.kdim, c.vdim, c.bias, seed);
    auto query = random_floats(c.B * c.n * c.E, seed + 10, -1, 1);
    auto key = random_floats(c.B * c.m * c.kdim, seed + 11, -1, 1);
    auto value = random_floats(c.B * c.m * c.vdim, seed + 12, -1, 1);
    auto mask = random_mask(c.n * c.m, seed + 13, 0.3);
    auto pad = random_mask(c.B * c.m, seed + 14, 0.2);
    auto bias = random_floats(c.n * c.m, seed + 15, -1, 1);
    seed += 100;
    MultiHeadProblem p;
    p.shape = layer.shape, p.weights = layer.weights();
    p.batch = c.B, p.n = c.n, p.m = c.m;
    p.query = query.data(), p.key = key.data(), p.value = value.data();
    p.causal = c.causal;
    if (c.masks) p.mask = mask.data(), p.key_padding = pad.data(), p.bias = bias.data();
    const auto ref = reference::multi_head_attention(p);
    const std::string shape = shape_of({c.B, c.n, c.m, c.E, c.H, c.kdim, c.vdim});

    Outcome full = run(p, true, false, true);
    ASSERT_TRUE(full.status.ok()) << full.status.message;
    EXPECT_TRUE(all_close(full.output, ref.output, shape, 1e-5, 1e-4));
    EXPECT_TRUE(all_close(full.weights, ref.weights, shape, 1e-6, 1e-4));
    EXPECT_TRUE(all_close(full.q_proj, ref.q_proj, shape, 1e-5, 1e-4));
    EXPECT_TRUE(all_close(full.k_proj, ref.k_proj, shape, 1e-5, 1e-4));
    EXPECT_TRUE(all_close(full.v_proj, ref.v_proj, shape, 1e-5, 1e-4));
    EXPECT_TRUE(all_close(full.concat, ref.concat, shape, 1e-5, 1e-4));
    EXPECT_EQ(full.fully_masked_rows, ref.fully_masked_rows);
    // head_outputs (B, h, n, d) is concat (B, n, E) with heads pulled out.
    const size_t d = c.E / c.H;
    for (size_t b = 0; b < c.B; ++b)
      for (size_t h = 0; h < c.H; ++h)
        for (size_t i = 0; i < c.n; ++i)
          for (size_t x = 0; x < d; ++x)
            ASSERT_EQ(full.head_outputs[((b * c.H + h) * c.n + i) * d + x],
                      full.concat[(b * c.n + i) * c.E + h * d + x]);

    Outcome averaged = run(p, true, true, false);
    EXPECT_TRUE(all_close(averaged.weights, ref.averaged_weights, shape, 1e-6, 1e-4));
    Outcome averaged_traced = run(p, true, true, true);
    EXPECT_TRUE(all_close(averaged_traced.weights, ref.averaged_weights, shape, 1e-6, 1e-4));
    EXPECT_TRUE(all_close(averaged_traced.head_weights, ref.weights, shape, 1e-6, 1e-4));
    EXPECT_TRUE(all_close(averaged.output, ref.output, shape, 1e-5, 1e-4));

    Outcome streamed = run(p, false, false, false);
    EXPECT_TRUE(all_close(streamed.output, ref.output, shape, 1e-5, 1e-4));
    EXPECT_EQ(streamed.fully_masked_rows, ref.fully_masked_rows);
  }
}

TEST(MultiHead, CustomScaleMatchesReferenceAndDefaultIsInverseSqrtHeadDim) {
  Layer layer(8, 2, 8, 8, true, 900);
  auto x = random_floats(5 * 8, 901);
  MultiHeadProblem p;
  p.shape = layer.shape, p.weights = layer.weights();
  p.n = p.m = 5, p.query = p.key = p.value = x.data();
  const auto standard = run(p, true, true, false);
  p.scale = 0.5f;  // = 1/√(8/2): the default, given explicitly
  EXPECT_TRUE(all_close(run(p, true, true, false).output, standard.output, "(5, 8)", 0, 0));
  p.scale = 2.0f;
  const auto ref = reference::multi_head_attention(p);
  const auto sharp = run(p, true, true, false);
  EXPECT_TRUE(all_close(sharp.output, ref.output, "(5, 8)", 1e-5, 1e-4));
  EXPECT_TRUE(all_close(sharp.weights, ref.averaged_weights, "(5, 5)", 1e-6, 1e-4));
  EXPECT_FALSE(all_close(sharp.output, standard.output, "(5, 8)", 1e-4, 0));
  p.scale = -1.0f;
  EXPECT_FALSE(run(p, false, false, false).status.ok());
}

TEST(MultiHead, OneHeadWithIdentityProjectionsIsPlainAttention) {
  const size_t n = 5, m = 7, E = 6;
  std::vector<float> eye(E * E, 0.0f);
  for (size_t i = 0; i < E; ++i) eye[i * E + i] = 1.0f;
  auto q = random_floats(n * E, 1), k = random_floats(m * E, 2), v = random_floats(m * E, 3);
  MultiHeadProblem p;
  p.shape = {E, 1, E, E, false};
  p.weights = {eye.data(), eye.data(), eye.data(), eye.data()};
  p.n = n, p.m = m, p.query = q.data(), p.key = k.data(), p.value = v.data();
  p.causal = true;
  Outcome mha = run(p, true, true, false);

  AttentionProblem sp;
  sp.n = n, sp.m = m, sp.dk = E, sp.dv = E, sp.q = q.data(), sp.k = k.data(), sp.v = v.data();
  sp.scale = 1.0f / std::sqrt(float(E)), sp.causal = true;
  std::vector<float> out(n * E), weights(n * m), workspace;
  AttentionResult res;
  res.output = out.data(), res.weights = weights.data();
  workspace.resize(attention_workspace_floats(sp, res));
  ASSERT_TRUE(scaled_dot_product_attention(sp, res, workspace.data()).ok());
  EXPECT_TRUE(all_close(mha.output, out, "(5, 6)", 1e-6, 1e-5));
  EXPECT_TRUE(all_close(mha.weights, weights, "(5, 7)", 1e-7, 1e-5));
}

}  // namespace
}  // namespace attn
