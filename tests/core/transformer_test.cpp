// The whole transformer: every gradient against central finite differences of its own loss, in
// several configurations; determinism by seed; initial distributions; errors; no allocation
// growth over many training steps; and a tiny task that training must learn.
#include "transformer.h"

#include <malloc.h>

#include <cmath>
#include <memory>
#include <vector>

#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

std::unique_ptr<Transformer> make(const TransformerConfig& c) {
  Transformer* t = nullptr;
  Status s = Transformer::create(c, &t);
  EXPECT_TRUE(s.ok()) << s.message;
  return std::unique_ptr<Transformer>(t);
}

// The optional parts of a small model, named at each call: small(kMlp | kLayerNorm).
enum Part : unsigned {
  kAttentionOnly = 0,
  kMlp = 1,
  kLayerNorm = 2,
  kLearnedPositions = 4,
  kTiedEmbeddings = 8
};
constexpr unsigned kGpt2 = kMlp | kLayerNorm | kLearnedPositions | kTiedEmbeddings;

TransformerConfig small(unsigned parts) {
  TransformerConfig c;
  c.vocab_size = 5, c.context_length = 6, c.d_model = 8, c.num_layers = 2, c.num_heads = 2;
  c.mlp = parts & kMlp, c.layer_norm = parts & kLayerNorm;
  c.learned_positions = parts & kLearnedPositions, c.tie_embeddings = parts & kTiedEmbeddings;
  c.seed = 3;
  return c;
}

struct Batch {
  std::vector<int32_t> tokens = {0, 3, 1, 4, 2, 2, 4, 1, 0, 3};
  std::vector<int32_t> targets = {3, 1, -1, 2, 2, 4, 1, -1, 3, 0};
  size_t batch = 2, T = 5;
};

double loss_of(Transformer& model, const Batch& b) {
  double loss = 0;
  Status s = model.compute_gradients(b.tokens.data(), b.targets.data(), b.batch, b.T, &loss);
  EXPECT_TRUE(s.ok()) << s.message;
  return loss;
}

void check_gradients(const TransformerConfig& config, bool stream_attention = false) {
  auto model = make(config);
  if (stream_attention) model->set_attention_memory_limit(0);
  Batch b;
  loss_of(*model, b);
  const ParameterLayout& layout = model->layout();
  std::vector<float> analytic(model->gradients(), model->gradients() + layout.total_floats);
  float* p = model->parameters();
  const double h = 4e-3;
  for (const ParameterInfo& t : layout.tensors) {
    std::vector<double> numeric(t.size);
    for (size_t i = 0; i < t.size; ++i) {
      float& w = p[t.offset + i];
      const float keep = w;
      w = keep + float(h);
      const double up = loss_of(*model, b);
      w = keep - float(h);
      const double down = loss_of(*model, b);
      w = keep;
      numeric[i] = (up - down) / (2 * h);
    }
    EXPECT_TRUE(all_close(analytic.data() + t.offset, numeric.data(), t.size, t.name, 2e-3, 2e-2))
        << "mlp " << config.mlp << " layerNorm " << config.layer_norm << " positions "
        << config.learned_positions << " tied " << config.tie_embeddings;
  }
}

TEST(Transformer, GradientsMatchFiniteDifferencesFullGpt2) { check_gradients(small(kGpt2)); }
TEST(Transformer, GradientsMatchFiniteDifferencesAttentionOnly) {
  check_gradients(small(kAttentionOnly));
}
TEST(Transformer, GradientsMatchFiniteDifferencesMlpWithoutLayerNorm) {
  check_gradients(small(kMlp | kLearnedPositions | kTiedEmbeddings));
}
TEST(Transformer, GradientsMatchFiniteDifferencesLayerNormUntied) {
  check_gradients(small(kLayerNorm | kLearnedPositions));
}

TEST(Transformer, GradientsMatchFiniteDifferencesStreamingAttention) {
  check_gradients(small(kGpt2 & ~kTiedEmbeddings), true);
}

// Past the attention memory limit the heads stream and the backward recomputes the weights from
// each row's log-sum-exp: the same gradients as keeping the weights, within float32 rounding.
TEST(Transformer, StreamingAttentionGivesTheSameGradients) {
  TransformerConfig c = small(kGpt2 & ~kTiedEmbeddings);
  c.context_length = 80, c.vocab_size = 11,
  c.num_heads = 4;  // T = 80: more than one 64-query block
  std::vector<int32_t> tokens(2 * 80), targets(2 * 80);
  for (size_t i = 0; i < tokens.size(); ++i)
    tokens[i] = int32_t((i * 7 + i / 5) % 11), targets[i] = int32_t((i * 3) % 11);
  std::vector<float> grads[2];
  double losses[2];
  for (int stream = 0; stream < 2; ++stream) {
    auto model = make(c);
    if (stream) model->set_attention_memory_limit(0);
    ASSERT_TRUE(
        model->compute_gradients(tokens.data(), targets.data(), 2, 80, &losses[stream]).ok());
    grads[stream].assign(model->gradients(), model->gradients() + model->layout().total_floats);
  }
  EXPECT_NEAR(losses[1], losses[0], 1e-6);
  EXPECT_TRUE(all_close(grads[1], grads[0], "gradients, streaming vs materialized", 1e-6, 1e-4));
}

// Batches of four sequences or more run a head's attention four sequences at a time in SIMD lanes
// (kernels::causal_attention_x4) when the weights are kept; streaming takes one head at a time.
// Both give the same loss, gradients and forward attentions, with plain and grouped heads, and
// with a batch that leaves one sequence outside the groups of four.
TEST(Transformer, FourSequencesAtOnceGiveTheSameGradientsAsOneHeadAtATime) {
  for (size_t kv_heads : {size_t(0), size_t(1)}) {
    TransformerConfig c = small(kGpt2 & ~kTiedEmbeddings);
    c.context_length = 7, c.vocab_size = 9, c.num_heads = 2, c.num_kv_heads = kv_heads;
    const size_t batch = 5, T = 7;
    std::vector<int32_t> tokens(batch * T), targets(batch * T);
    for (size_t i = 0; i < tokens.size(); ++i)
      tokens[i] = int32_t((i * 5 + i / 3) % 9), targets[i] = int32_t((i * 4 + 1) % 9);
    std::vector<float> grads[2];
    double losses[2];
    for (int stream = 0; stream < 2; ++stream) {
      auto model = make(c);
      if (stream) model->set_attention_memory_limit(0);
      ASSERT_TRUE(
          model->compute_gradients(tokens.data(), targets.data(), batch, T, &losses[stream]).ok());
      grads[stream].assign(model->gradients(), model->gradients() + model->layout().total_floats);
    }
    EXPECT_NEAR(losses[1], losses[0], 1e-6) << "kv heads " << kv_heads;
    EXPECT_TRUE(all_close(grads[1], grads[0], "gradients, four lanes vs streaming", 1e-6, 1e-4))
        << "kv heads " << kv_heads;

    auto model = make(c);
    const size_t V = c.vocab_size, H = c.num_heads;
    std::vector<float> logits(batch * T * V), att(c.num_layers * batch * H * T * T);
    ASSERT_TRUE(model->forward(tokens.data(), batch, T, logits.data(), att.data()).ok());
    std::vector<float> one_logits(T * V), one_att(c.num_layers * H * T * T);
    ASSERT_TRUE(
        model->forward(tokens.data() + 4 * T, 1, T, one_logits.data(), one_att.data()).ok());
    EXPECT_TRUE(all_close(one_logits.data(), logits.data() + 4 * T * V, T * V, "sequence 4 alone",
                          1e-5, 1e-5));
    ASSERT_TRUE(
        model->forward(tokens.data() + 2 * T, 1, T, one_logits.data(), one_att.data()).ok());
    EXPECT_TRUE(all_close(one_logits.data(), logits.data() + 2 * T * V, T * V, "sequence 2 alone",
                          1e-5, 1e-5));
    for (size_t l = 0; l < c.num_layers; ++l)
      EXPECT_TRUE(all_close(one_att.data() + l * H * T * T,
                            att.data() + (l * batch + 2) * H * T * T, H * T * T,
                            "attentions of sequence 2", 1e-6, 1e-5))
          << "layer " << l;
  }
}

TEST(Transformer, ParameterNamesShapesAndCount) {
  auto model = make(small(kGpt2 & ~kTiedEmbeddings));
  const ParameterLayout& l = model->layout();
  std::vector<std::string> names;
  size_t count = 0;
  for (const auto& t : l.tensors) names.push_back(t.name), count += t.size;
  const std::vector<std::string> expected_head = {"wte.weight",
                                                  "wpe.weight",
                                                  "h.0.ln_1.weight",
                                                  "h.0.ln_1.bias",
                                                  "h.0.attn.c_attn.weight",
                                                  "h.0.attn.c_attn.bias",
                                                  "h.0.attn.c_proj.weight",
                                                  "h.0.attn.c_proj.bias",
                                                  "h.0.ln_2.weight",
                                                  "h.0.ln_2.bias",
                                                  "h.0.mlp.c_fc.weight",
                                                  "h.0.mlp.c_fc.bias",
                                                  "h.0.mlp.c_proj.weight",
                                                  "h.0.mlp.c_proj.bias"};
  ASSERT_GE(names.size(), expected_head.size());
  for (size_t i = 0; i < expected_head.size(); ++i) EXPECT_EQ(names[i], expected_head[i]);
  EXPECT_EQ(names.back(), "lm_head.weight");
  EXPECT_EQ(names[names.size() - 3], "ln_f.weight");
  const size_t V = 5, T = 6, E = 8;
  const size_t block =
      2 * E + 3 * E * E + 3 * E + E * E + E + 2 * E + 4 * E * E + 4 * E + 4 * E * E + E;
  EXPECT_EQ(count, V * E + T * E + 2 * block + 2 * E + V * E);
  EXPECT_EQ(l.parameter_count, count);
  const auto& w = l.tensors[find_parameter(l, "h.1.mlp.c_fc.weight")];
  EXPECT_EQ(w.shape, (std::vector<size_t>{E, 4 * E}));
  EXPECT_EQ(find_parameter(l, "h.2.ln_1.weight"), kAbsent);

  auto bare = make(small(kTiedEmbeddings));
  for (const auto& t : bare->layout().tensors) {
    EXPECT_EQ(t.name.find("ln_"), std::string::npos) << t.name;
    EXPECT_EQ(t.name.find("mlp"), std::string::npos) << t.name;
    EXPECT_NE(t.name, "wpe.weight");
    EXPECT_NE(t.name, "lm_head.weight");
  }
}

// GPT-2 small as Hugging Face counts it (124 439 808 parameters, lm_head tied to wte) is a valid
// config: it loads for inference within WebAssembly's 4 GiB.
TEST(Transformer, Gpt2SmallLayout) {
  TransformerConfig c;
  c.vocab_size = 50257, c.context_length = 1024, c.d_model = 768, c.num_layers = 12,
  c.num_heads = 12;
  EXPECT_TRUE(validate_transformer_config(c).ok());
  const ParameterLayout l = make_parameter_layout(c);
  EXPECT_EQ(l.parameter_count, 124439808u);
  EXPECT_EQ(l.tensors.size(), 2 + 12 * 12 + 2u);
}

// The larger GPT-2 family: medium (354 823 168 parameters) is valid for inference within the 4 GiB;
// large (774 M) is refused with the limit in the message.
TEST(Transformer, Gpt2MediumFitsLargeDoesNot) {
  TransformerConfig c;
  c.vocab_size = 50257, c.context_length = 1024, c.d_model = 1024, c.num_layers = 24,
  c.num_heads = 16;
  EXPECT_TRUE(validate_transformer_config(c).ok()) << validate_transformer_config(c).message;
  EXPECT_EQ(make_parameter_layout(c).parameter_count, 354823168u);
  c.d_model = 1280, c.num_layers = 36, c.num_heads = 20;
  const Status large = validate_transformer_config(c);
  EXPECT_FALSE(large.ok());
  EXPECT_NE(large.message.find("774027520 parameters, more than the 400000000"), std::string::npos)
      << large.message;
}

TEST(Transformer, SameSeedSameModelAndSteps) {
  Batch b;
  std::vector<float> first;
  for (int run = 0; run < 2; ++run) {
    auto model = make(small(kGpt2));
    AdamOptions o;
    o.learning_rate = 1e-2;
    double loss;
    for (int i = 0; i < 3; ++i)
      ASSERT_TRUE(model->train_step(b.tokens.data(), b.targets.data(), 2, 5, o, &loss).ok());
    std::vector<float> p(model->parameters(), model->parameters() + model->layout().total_floats);
    if (run == 0)
      first = p;
    else
      EXPECT_TRUE(all_close(p, first, "params after 3 steps", 0, 0));
  }
  TransformerConfig other = small(kGpt2);
  other.seed = 4;
  auto a = make(small(kGpt2)), c = make(other);
  EXPECT_NE(a->parameters()[0], c->parameters()[0]);
}

// Sample mean and standard deviation of one tensor.
std::pair<double, double> stats(Transformer& m, const std::string& name) {
  const auto& t = m.layout().tensors[find_parameter(m.layout(), name)];
  double s = 0, s2 = 0;
  for (size_t i = 0; i < t.size; ++i) s += m.parameters()[t.offset + i];
  const double mean = s / t.size;
  for (size_t i = 0; i < t.size; ++i) s2 += std::pow(m.parameters()[t.offset + i] - mean, 2);
  return {mean, std::sqrt(s2 / t.size)};
}

TEST(Transformer, InitLikePyTorchOrGpt2) {
  TransformerConfig c;
  c.vocab_size = 200, c.context_length = 64, c.d_model = 64, c.num_layers = 2, c.num_heads = 4;
  auto torch_like = make(c);
  EXPECT_NEAR(stats(*torch_like, "wte.weight").second, 1.0, 0.03);
  const double bound = 1 / 8.0;  // 1/√64
  const double uniform_std = bound / std::sqrt(3.0);
  EXPECT_NEAR(stats(*torch_like, "h.0.attn.c_attn.weight").second, uniform_std, 0.005);
  EXPECT_NEAR(stats(*torch_like, "h.1.mlp.c_proj.weight").second, 1 / 16.0 / std::sqrt(3.0),
              0.003);  // fan_in 4E
  EXPECT_EQ(stats(*torch_like, "h.0.ln_1.weight"), std::make_pair(1.0, 0.0));
  EXPECT_EQ(stats(*torch_like, "ln_f.bias"), std::make_pair(0.0, 0.0));
  const auto& t =
      torch_like->layout().tensors[find_parameter(torch_like->layout(), "h.0.attn.c_attn.bias")];
  for (size_t i = 0; i < t.size; ++i)
    EXPECT_LE(std::fabs(torch_like->parameters()[t.offset + i]), bound);

  c.init = TransformerInit::gpt2;
  auto gpt2 = make(c);
  EXPECT_NEAR(stats(*gpt2, "wte.weight").second, 0.02, 0.001);
  EXPECT_NEAR(stats(*gpt2, "h.0.mlp.c_fc.weight").second, 0.02, 0.001);
  EXPECT_NEAR(stats(*gpt2, "h.0.attn.c_proj.weight").second, 0.01, 0.001);  // 0.02/√(2L)
  EXPECT_EQ(stats(*gpt2, "h.0.mlp.c_fc.bias"), std::make_pair(0.0, 0.0));
}

TEST(Transformer, ForwardAttentionsAreCausalRowsAndBatchIndependent) {
  auto model = make(small(kGpt2));
  Batch b;
  const size_t L = 2, H = 2, T = 5, V = 5;
  std::vector<float> logits(2 * T * V), att(L * 2 * H * T * T), plain(2 * T * V);
  ASSERT_TRUE(model->forward(b.tokens.data(), 2, T, logits.data(), att.data()).ok());
  ASSERT_TRUE(model->forward(b.tokens.data(), 2, T, plain.data(), nullptr).ok());
  EXPECT_TRUE(all_close(plain, logits, "streaming vs materialized logits", 1e-5, 1e-5));
  for (size_t r = 0; r < L * 2 * H * T; ++r) {
    const size_t i = r % T;
    double sum = 0;
    for (size_t j = 0; j < T; ++j) {
      sum += att[r * T + j];
      if (j > i) EXPECT_EQ(att[r * T + j], 0.0f);
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  std::vector<float> second(T * V);
  ASSERT_TRUE(model->forward(b.tokens.data() + T, 1, T, second.data(), nullptr).ok());
  EXPECT_TRUE(
      all_close(second.data(), logits.data() + T * V, T * V, "batch item 1 alone", 1e-5, 1e-5));
  // Causal: the first 3 positions do not depend on the tokens after them.
  std::vector<float> prefix(3 * V);
  ASSERT_TRUE(model->forward(b.tokens.data(), 1, 3, prefix.data(), nullptr).ok());
  EXPECT_TRUE(all_close(prefix.data(), logits.data(), 3 * V, "prefix", 1e-5, 1e-5));
}

TEST(Transformer, ErrorsAreStatuses) {
  TransformerConfig c = small(kGpt2);
  Transformer* t = nullptr;
  c.num_heads = 3;
  EXPECT_NE(Transformer::create(c, &t).message.find("numHeads"), std::string::npos);
  EXPECT_EQ(t, nullptr);
  c = small(kGpt2);
  c.vocab_size = 0;
  EXPECT_NE(Transformer::create(c, &t).message.find("vocabSize"), std::string::npos);
  c = small(kGpt2);
  c.vocab_size = 1 << 20, c.d_model = 1 << 10;
  EXPECT_NE(Transformer::create(c, &t).message.find("parameters"), std::string::npos);

  auto model = make(small(kGpt2));
  std::vector<float> logits(100);
  std::vector<int32_t> tokens = {0, 5}, ok_tokens = {0, 1}, none = {-1, -1};
  EXPECT_NE(
      model->forward(tokens.data(), 1, 2, logits.data(), nullptr).message.find("tokens[1] = 5"),
      std::string::npos);
  std::vector<int32_t> long_tokens(7, 0);
  EXPECT_NE(model->forward(long_tokens.data(), 1, 7, logits.data(), nullptr)
                .message.find("contextLength"),
            std::string::npos);
  double loss;
  EXPECT_NE(
      model->compute_gradients(ok_tokens.data(), none.data(), 1, 2, &loss).message.find("all −1"),
      std::string::npos);
  AdamOptions bad;
  bad.learning_rate = NAN;
  EXPECT_FALSE(model->train_step(ok_tokens.data(), ok_tokens.data(), 1, 2, bad, &loss).ok());
  EXPECT_EQ(model->optimizer_step(), 0);
}

TEST(Transformer, NoAllocationGrowthOverManySteps) {
  auto model = make(small(kGpt2 & ~kTiedEmbeddings));
  Batch b;
  AdamOptions o;
  double loss;
  ASSERT_TRUE(model->train_step(b.tokens.data(), b.targets.data(), 2, 5, o, &loss).ok());
  std::vector<float> logits(2 * 5 * 5);
  ASSERT_TRUE(model->forward(b.tokens.data(), 2, 5, logits.data(), nullptr).ok());
  const size_t before = mallinfo2().uordblks;
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(model->train_step(b.tokens.data(), b.targets.data(), 2, 5, o, &loss).ok());
    ASSERT_TRUE(model->forward(b.tokens.data(), 2, 5, logits.data(), nullptr).ok());
  }
  EXPECT_EQ(mallinfo2().uordblks, before);
  EXPECT_TRUE(std::isfinite(loss));
}

// Learn a fixed successor table: token t is followed by (3t + 1) mod V.
TEST(Transformer, LearnsASuccessorTable) {
  TransformerConfig c;
  c.vocab_size = 7, c.context_length = 8, c.d_model = 16, c.num_layers = 1, c.num_heads = 2;
  auto model = make(c);
  std::vector<int32_t> tokens(4 * 8), targets(4 * 8);
  for (size_t i = 0; i < tokens.size(); ++i) tokens[i] = int32_t((i * 5 + i / 8) % 7);
  for (size_t i = 0; i < tokens.size(); ++i) targets[i] = (3 * tokens[i] + 1) % 7;
  AdamOptions o;
  o.learning_rate = 1e-2;
  double first = 0, loss = 0;
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(model->train_step(tokens.data(), targets.data(), 4, 8, o, &loss).ok());
    if (i == 0) first = loss;
  }
  EXPECT_GT(first, 1.0);
  EXPECT_LT(loss, 0.05);
}

}  // namespace
}  // namespace attn
