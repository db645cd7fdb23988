// The transformer with RoPE, ALiBi, grouped/multi-query key/value heads and a sliding window:
// gradients against central finite differences (materialized and streaming heads), streaming
// training equal to materialized past one query block, the parameter layout, and config errors.
#include <memory>
#include <vector>

#include "test_util.h"
#include "transformer.h"

namespace attn {
namespace {

using testing::all_close;

std::unique_ptr<Transformer> make(const TransformerConfig& c) {
  Transformer* t = nullptr;
  Status s = Transformer::create(c, &t);
  EXPECT_TRUE(s.ok()) << s.message;
  return std::unique_ptr<Transformer>(t);
}

TransformerConfig small(AttentionPositions positions, size_t kv_heads, size_t window) {
  TransformerConfig c;
  c.vocab_size = 5, c.context_length = 6, c.d_model = 8, c.num_layers = 2, c.num_heads = 4;
  c.learned_positions = false, c.attention_positions = positions;
  c.num_kv_heads = kv_heads, c.attention_window = window, c.rope_base = 50.0;
  c.seed = 3;
  return c;
}

double loss_of(Transformer& model) {
  static const std::vector<int32_t> tokens = {0, 3, 1, 4, 2, 2, 4, 1, 0, 3};
  static const std::vector<int32_t> targets = {3, 1, -1, 2, 2, 4, 1, -1, 3, 0};
  double loss = 0;
  Status s = model.compute_gradients(tokens.data(), targets.data(), 2, 5, &loss);
  EXPECT_TRUE(s.ok()) << s.message;
  return loss;
}

void check_gradients(const TransformerConfig& config, bool stream) {
  auto model = make(config);
  if (stream) model->set_attention_memory_limit(0);
  loss_of(*model);
  const ParameterLayout& layout = model->layout();
  std::vector<float> analytic(model->gradients(), model->gradients() + layout.total_floats);
  float* p = model->parameters();
  const float h = 4e-3f;
  for (const ParameterInfo& t : layout.tensors) {
    std::vector<double> numeric(t.size);
    for (size_t i = 0; i < t.size; ++i) {
      float& w = p[t.offset + i];
      const float keep = w;
      w = keep + h;
      const double up = loss_of(*model);
      w = keep - h;
      const double down = loss_of(*model);
      w = keep;
      numeric[i] = (up - down) / (2.0 * double(h));
    }
    EXPECT_TRUE(all_close(analytic.data() + t.offset, numeric.data(), t.size, t.name, 2e-3, 2e-2))
        << (stream ? "streaming" : "materialized");
  }
}

TEST(TransformerPositions, RopeWithGroupedKeyValueHeadsGradientsMatchFiniteDifferences) {
  for (bool stream : {false, true}) check_gradients(small(AttentionPositions::rope, 2, 0), stream);
}

TEST(TransformerPositions, AlibiMultiQueryWindowGradientsMatchFiniteDifferences) {
  for (bool stream : {false, true}) check_gradients(small(AttentionPositions::alibi, 1, 3), stream);
}

TEST(TransformerPositions, RopeWindowGroupedGradientsMatchFiniteDifferences) {
  TransformerConfig c = small(AttentionPositions::rope, 2, 2);
  c.num_heads = 2, c.num_kv_heads = 1;  // head dimension 4: two RoPE frequencies
  for (bool stream : {false, true}) check_gradients(c, stream);
}

// T = 300 spans five query blocks and two key tiles; the window of 100 makes the streaming kernels
// skip whole tiles on both passes.
TEST(TransformerPositions, StreamingTrainingWithAWindowEqualsMaterialized) {
  TransformerConfig c = small(AttentionPositions::rope, 2, 100);
  c.context_length = 300, c.vocab_size = 11;
  std::vector<int32_t> tokens(300), targets(300);
  for (size_t i = 0; i < 300; ++i)
    tokens[i] = int32_t((i * 7 + i / 5) % 11), targets[i] = int32_t((i * 3) % 11);
  std::vector<float> grads[2];
  double losses[2];
  for (int stream = 0; stream < 2; ++stream) {
    auto model = make(c);
    if (stream) model->set_attention_memory_limit(0);
    ASSERT_TRUE(
        model->compute_gradients(tokens.data(), targets.data(), 1, 300, &losses[stream]).ok());
    grads[stream].assign(model->gradients(), model->gradients() + model->layout().total_floats);
  }
  EXPECT_NEAR(losses[1], losses[0], 1e-6);
  EXPECT_TRUE(all_close(grads[1], grads[0], "gradients, streaming vs materialized", 1e-6, 1e-4));
}

TEST(TransformerPositions, CAttnHasTheKeyValueHeadsColumnsAndNoWpe) {
  auto model = make(small(AttentionPositions::alibi, 1, 0));
  const ParameterLayout& l = model->layout();
  EXPECT_EQ(find_parameter(l, "wpe.weight"), kAbsent);
  const ParameterInfo& w = l.tensors[find_parameter(l, "h.1.attn.c_attn.weight")];
  EXPECT_EQ(w.shape, (std::vector<size_t>{8, 8 + 2 * 1 * 2}));
  EXPECT_EQ(l.tensors[find_parameter(l, "h.0.attn.c_attn.bias")].shape, std::vector<size_t>{12});
}

TEST(TransformerPositions, ConfigErrorsAreStatuses) {
  TransformerConfig c = small(AttentionPositions::rope, 3, 0);
  EXPECT_NE(validate_transformer_config(c).message.find("numKVHeads (3) must divide numHeads (4)"),
            std::string::npos);
  c = small(AttentionPositions::rope, 0, 0);
  c.d_model = 12;  // head dimension 3
  EXPECT_NE(validate_transformer_config(c).message.find("even head dimension"), std::string::npos);
  c = small(AttentionPositions::alibi, 0, 0);
  c.learned_positions = true;
  EXPECT_NE(validate_transformer_config(c).message.find("replace the learned wpe"),
            std::string::npos);
  c = small(AttentionPositions::rope, 0, 0);
  c.rope_base = 0.0;
  EXPECT_NE(validate_transformer_config(c).message.find("ropeBase"), std::string::npos);
  EXPECT_TRUE(validate_transformer_config(small(AttentionPositions::none, 4, 1)).ok());
}

}  // namespace
}  // namespace attn
