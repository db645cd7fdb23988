// Transformer::layer_input: what a layer's attention reads. Layer 0 against LN₁(wte + wpe) in
// double; a later layer's input, multiplied by c_attn, gives the q and k whose softmax is the
// attention forward() returns for that layer; the last layer's input leaves the residual buffers
// so that a forward afterwards is unchanged; bad arguments are errors.
#include "transformer.h"

#include <cmath>
#include <memory>
#include <vector>

#include "test_util.h"

namespace attn {
namespace {

std::unique_ptr<Transformer> make(bool mlp, bool layer_norm) {
  TransformerConfig c;
  c.vocab_size = 7, c.context_length = 6, c.d_model = 8, c.num_layers = 3, c.num_heads = 2;
  c.mlp = mlp, c.layer_norm = layer_norm, c.seed = 5;
  Transformer* t = nullptr;
  Status s = Transformer::create(c, &t);
  EXPECT_TRUE(s.ok()) << s.message;
  return std::unique_ptr<Transformer>(t);
}

const std::vector<int32_t> kTokens = {3, 1, 6, 1, 0};

TEST(TransformerLayerInput, LayerZeroIsTheFirstLayerNormOfTheEmbeddings) {
  auto model = make(true, true);
  const size_t T = kTokens.size(), E = 8;
  std::vector<float> out(T * E);
  ASSERT_TRUE(model->layer_input(kTokens.data(), T, 0, out.data()).ok());
  const float* p = model->parameters();
  const ParameterLayout& l = model->layout();
  for (size_t t = 0; t < T; ++t) {
    std::vector<double> x(E);
    double mean = 0, var = 0;
    for (size_t e = 0; e < E; ++e)
      mean += x[e] = double(p[l.wte + kTokens[t] * E + e]) + p[l.wpe + t * E + e];
    mean /= E;
    for (size_t e = 0; e < E; ++e) var += (x[e] - mean) * (x[e] - mean);
    const double rstd = 1 / std::sqrt(var / E + 1e-5);
    for (size_t e = 0; e < E; ++e) {
      const double want =
          (x[e] - mean) * rstd * p[l.blocks[0].ln1_w + e] + p[l.blocks[0].ln1_b + e];
      EXPECT_NEAR(out[t * E + e], want, 1e-5) << "t " << t << " e " << e;
    }
  }
}

// Head h's weights over the keys, from a layer's input and its c_attn (double).
std::vector<double> attention_from_input(const Transformer& m, const float* x, size_t layer,
                                         size_t h, size_t T) {
  const size_t E = 8, d = 4;
  const float* p = const_cast<Transformer&>(m).parameters();
  const BlockOffsets& b = m.layout().blocks[layer];
  auto proj = [&](size_t t, size_t col) {
    double s = p[b.attn_b + col];
    for (size_t e = 0; e < E; ++e) s += double(x[t * E + e]) * p[b.attn_w + e * 3 * E + col];
    return s;
  };
  std::vector<double> w(T * T, 0.0);
  for (size_t i = 0; i < T; ++i) {
    std::vector<double> s(i + 1);
    double top = -INFINITY, sum = 0;
    for (size_t j = 0; j <= i; ++j) {
      double dot = 0;
      for (size_t c = 0; c < d; ++c) dot += proj(i, h * d + c) * proj(j, E + h * d + c);
      top = std::max(top, s[j] = dot / std::sqrt(double(d)));
    }
    for (size_t j = 0; j <= i; ++j) sum += std::exp(s[j] - top);
    for (size_t j = 0; j <= i; ++j) w[i * T + j] = std::exp(s[j] - top) / sum;
  }
  return w;
}

TEST(TransformerLayerInput, EveryLayerInputGivesThatLayersAttention) {
  for (bool ln : {true, false}) {
    auto model = make(true, ln);
    const size_t T = kTokens.size(), E = 8, H = 2, L = 3;
    std::vector<float> logits(T * 7), attentions(L * H * T * T);
    ASSERT_TRUE(model->forward(kTokens.data(), 1, T, logits.data(), attentions.data()).ok());
    for (size_t layer = 0; layer < L; ++layer) {
      std::vector<float> x(T * E);
      ASSERT_TRUE(model->layer_input(kTokens.data(), T, layer, x.data()).ok());
      for (size_t h = 0; h < H; ++h) {
        const std::vector<double> want = attention_from_input(*model, x.data(), layer, h, T);
        for (size_t k = 0; k < T * T; ++k)
          EXPECT_NEAR(attentions[(layer * H + h) * T * T + k], want[k], 2e-5)
              << "ln " << ln << " layer " << layer << " head " << h;
      }
    }
    std::vector<float> again(T * 7), again_attentions(L * H * T * T);
    ASSERT_TRUE(model->forward(kTokens.data(), 1, T, again.data(), again_attentions.data()).ok());
    EXPECT_EQ(again, logits);
  }
}

TEST(TransformerLayerInput, BadArgumentsAreErrors) {
  auto model = make(false, true);
  std::vector<float> out(6 * 8);
  const int32_t bad[] = {1, 9};
  EXPECT_FALSE(model->layer_input(kTokens.data(), 5, 3, out.data()).ok());
  EXPECT_FALSE(model->layer_input(bad, 2, 0, out.data()).ok());
  std::vector<int32_t> long_tokens(7, 1);
  EXPECT_FALSE(model->layer_input(long_tokens.data(), 7, 0, out.data()).ok());
  EXPECT_FALSE(model->layer_input(kTokens.data(), 0, 0, out.data()).ok());
}

}  // namespace
}  // namespace attn
