// A model never turns to NaN and never outgrows memory: Adam's options out of range are refused
// naming the option and its range; a step whose logits, loss, gradients or update would not be
// finite fails with the cause and leaves the parameters, Adam's moments and the step count as they
// were; forward refuses non-finite logits; sizes beyond the bounds are refused before anything is
// allocated. Also the row-selected forward and the loss without backward against the full
// forward, and −100 as an ignored target.
#include <cfloat>
#include <chrono>
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "cross_entropy.h"
#include "optimizer.h"
#include "position_loss.h"
#include "test_util.h"
#include "transformer.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

std::unique_ptr<Transformer> make(const TransformerConfig& c) {
  Transformer* t = nullptr;
  Status s = Transformer::create(c, &t);
  EXPECT_TRUE(s.ok()) << s.message;
  return std::unique_ptr<Transformer>(t);
}

TransformerConfig small(bool layer_norm = true, bool tied = true) {
  TransformerConfig c;
  c.vocab_size = 5, c.context_length = 6, c.d_model = 8, c.num_layers = 2, c.num_heads = 2;
  c.layer_norm = layer_norm, c.tie_embeddings = tied, c.seed = 3;
  return c;
}

const std::vector<int32_t> kTokens = {0, 3, 1, 4, 2, 2, 4, 1, 0, 3};
const std::vector<int32_t> kTargets = {3, 1, -1, 2, 2, 4, 1, -1, 3, 0};

std::vector<float> parameters_of(Transformer& m) {
  return std::vector<float>(m.parameters(), m.parameters() + m.layout().total_floats);
}

float* tensor(Transformer& m, const std::string& name) {
  return m.parameters() + m.layout().tensors[find_parameter(m.layout(), name)].offset;
}

bool says(const Status& s, const std::string& text) {
  return s.message.find(text) != std::string::npos;
}

TEST(AdamOptionsRange, OutOfRangeOptionsAreRefusedNamingTheOptionAndTheRange) {
  struct Case {
    void (*set)(AdamOptions&);
    std::string text;
  };
  const Case cases[] = {
      {[](AdamOptions& o) { o.eps = 0; }, "eps must be a number in [1e-30, 1], got 0"},
      {[](AdamOptions& o) { o.eps = -1e-8; }, "eps must be a number in [1e-30, 1]"},
      {[](AdamOptions& o) { o.learning_rate = 1e30; },
       "learningRate must be a number in [0, 10], got 1e+30"},
      {[](AdamOptions& o) { o.learning_rate = INFINITY; },
       "learningRate must be a number in [0, 10]"},
      {[](AdamOptions& o) { o.beta1 = 1; }, "betas[0] must be a number in [0, 1), got 1"},
      {[](AdamOptions& o) { o.beta2 = -0.5; }, "betas[1] must be a number in [0, 1)"},
      {[](AdamOptions& o) { o.weight_decay = -0.1; }, "weightDecay must be a number in [0, ∞)"},
      {[](AdamOptions& o) { o.learning_rate = 1, o.weight_decay = 3; },
       "learningRate × weightDecay must be at most 1"},
      {[](AdamOptions& o) { o.clip_norm = -1; }, "clipNorm must be a positive finite number"},
      {[](AdamOptions& o) { o.clip_norm = NAN; }, "clipNorm"},
  };
  for (const Case& c : cases) {
    AdamOptions o;
    c.set(o);
    EXPECT_TRUE(says(validate_adam_options(o), c.text))
        << validate_adam_options(o).message << " / " << c.text;
  }
  AdamOptions edge;
  edge.learning_rate = 10, edge.eps = 1e-30, edge.weight_decay = 0.1;
  EXPECT_TRUE(validate_adam_options(edge).ok()) << validate_adam_options(edge).message;
}

TEST(AdamStepIsFinite, AgreesWithWhatAdamStepWouldWrite) {
  AdamOptions o;
  o.learning_rate = 0.1;
  std::vector<float> p = random_floats(9, 1), g = random_floats(9, 2), m(9), v(9);
  EXPECT_TRUE(adam_step_is_finite(p.data(), g.data(), m.data(), v.data(), 9, 1, o));
  g[4] = 1e20f;  // g² overflows float32: v would become +∞ (the parameter itself stays finite)
  EXPECT_FALSE(adam_step_is_finite(p.data(), g.data(), m.data(), v.data(), 9, 1, o));
  std::vector<float> p2 = p, m2 = m, v2 = v;
  adam_step(p2.data(), g.data(), m2.data(), v2.data(), 9, 1, o);
  EXPECT_TRUE(std::isinf(v2[4]));
  EXPECT_TRUE(std::isfinite(p2[4]));
  g[4] = 0.5f;
  p[7] = NAN;
  EXPECT_FALSE(adam_step_is_finite(p.data(), g.data(), m.data(), v.data(), 9, 1, o));
  p[7] = -FLT_MAX,
  g[7] = 1.0f;  // the update pushes −FLT_MAX down by lr·10 on step 1: still rounds to −FLT_MAX
  EXPECT_TRUE(adam_step_is_finite(p.data(), g.data(), m.data(), v.data(), 9, 1, o));
}

TEST(TrainStepSafety, ZeroEpsIsRefusedAndNothingChanges) {
  auto model = make(small());
  const std::vector<float> before = parameters_of(*model);
  AdamOptions o;
  o.eps = 0;
  double loss = 0;
  EXPECT_TRUE(says(model->train_step(kTokens.data(), kTargets.data(), 2, 5, o, &loss), "eps"));
  EXPECT_EQ(parameters_of(*model), before);
  EXPECT_EQ(model->optimizer_step(), 0);
}

// Weights of 3e38 overflow the logits: forward, gradients and a step fail naming the cause.
TEST(TrainStepSafety, OverflowingWeightsFailEveryCallAndAStepChangesNothing) {
  auto model = make(small());
  double loss = 0;
  AdamOptions o;
  ASSERT_TRUE(model->train_step(kTokens.data(), kTargets.data(), 2, 5, o, &loss).ok());
  tensor(*model, "wte.weight")[3] = 3e38f;
  const std::vector<float> before = parameters_of(*model);
  std::vector<float> logits(2 * 5 * 5);
  EXPECT_TRUE(
      says(model->forward(kTokens.data(), 2, 5, logits.data(), nullptr), "logits are not finite"));
  EXPECT_TRUE(says(model->compute_gradients(kTokens.data(), kTargets.data(), 2, 5, &loss),
                   "logits are not finite"));
  EXPECT_TRUE(says(model->train_step(kTokens.data(), kTargets.data(), 2, 5, o, &loss),
                   "logits are not finite"));
  EXPECT_TRUE(
      says(model->loss(kTokens.data(), kTargets.data(), 2, 5, &loss), "logits are not finite"));
  EXPECT_EQ(parameters_of(*model), before);
  EXPECT_EQ(model->optimizer_step(), 1);
}

// An update that would put +∞ in Adam's second moment (a gradient of ~1e20, squared) is refused
// before anything is written. Two identical models then take the same next step: the refused one
// ends bitwise equal to the other, so its moments and step count were left exactly as they were.
TEST(TrainStepSafety, ANonFiniteUpdateIsRefusedAndLeavesParametersMomentsAndStepCount) {
  TransformerConfig c = small(/*layer_norm=*/true, /*tied=*/false);
  auto refused = make(c), reference = make(c);
  double loss = 0;
  AdamOptions o;
  for (auto* m : {refused.get(), reference.get()})
    ASSERT_TRUE(m->train_step(kTokens.data(), kTargets.data(), 2, 5, o, &loss).ok());
  // ln_f scales its output by 1e20 and lm_head by 1e-22: the logits stay moderate, but
  // ∂lm_head = ∂logitsᵀ·x is ~1e20 and its square overflows float32.
  const std::vector<float> saved = parameters_of(*refused);
  for (size_t i = 0; i < 8; ++i) tensor(*refused, "ln_f.weight")[i] = 1e20f;
  for (size_t i = 0; i < 5 * 8; ++i) tensor(*refused, "lm_head.weight")[i] *= 1e-22f;
  const std::vector<float> before = parameters_of(*refused);
  const Status s = refused->train_step(kTokens.data(), kTargets.data(), 2, 5, o, &loss);
  EXPECT_TRUE(says(s, "the update of")) << s.message;
  EXPECT_TRUE(says(s, "would not be finite")) << s.message;
  EXPECT_EQ(parameters_of(*refused), before);
  EXPECT_EQ(refused->optimizer_step(), 1);
  std::copy(saved.begin(), saved.end(), refused->parameters());
  for (auto* m : {refused.get(), reference.get()})
    ASSERT_TRUE(m->train_step(kTokens.data(), kTargets.data(), 2, 5, o, &loss).ok());
  EXPECT_EQ(parameters_of(*refused), parameters_of(*reference));
  EXPECT_EQ(refused->optimizer_step(), 2);
}

TEST(ConfigBounds, HugeLayerCountsAreRefusedAtOnceWithTheLimit) {
  TransformerConfig c = small();
  c.d_model = 1, c.num_heads = 1;
  for (size_t layers : {size_t(1) << 19, size_t(1) << 20, size_t(1) << 40}) {
    c.num_layers = layers;
    Transformer* t = nullptr;
    const auto start = std::chrono::steady_clock::now();
    const Status s = Transformer::create(c, &t);
    EXPECT_TRUE(says(s, "numLayers must be at most 256, got " + std::to_string(layers)))
        << s.message;
    EXPECT_EQ(t, nullptr);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1))
        << "refused before building";
  }
  c.num_layers = 256;
  auto deepest = make(c);
  EXPECT_LE(deepest->layout().tensors.size(), kMaxTensors);
}

TEST(ConfigBounds, EverySizeHasAnUpperBoundInItsMessage) {
  struct Case {
    void (*set)(TransformerConfig&);
    std::string text;
  };
  const Case cases[] = {
      {[](TransformerConfig& c) { c.vocab_size = (size_t(1) << 20) + 1; },
       "vocabSize must be at most 1048576"},
      {[](TransformerConfig& c) { c.context_length = size_t(1) << 32; },
       "contextLength must be at most 1048576"},
      {[](TransformerConfig& c) { c.d_model = c.num_heads = (size_t(1) << 16) + 1; },
       "dModel must be at most 65536"},
      {[](TransformerConfig& c) { c.d_model = 4096, c.num_layers = 20; },
       "more than the 400000000"},
      {[](TransformerConfig& c) { c.vocab_size = 1 << 20, c.d_model = 512; },
       "more than the 400000000"},
  };
  for (const Case& k : cases) {
    TransformerConfig c = small();
    k.set(c);
    EXPECT_TRUE(says(validate_transformer_config(c), k.text))
        << validate_transformer_config(c).message;
  }
}

// GPT-2 small (124 M parameters) loads for inference, but its gradients and Adam's moments would
// not fit: training is refused with the sizes and the limit before anything is allocated.
TEST(ConfigBounds, TrainingBuffersBeyondMemoryAreRefusedWithTheLimit) {
  TransformerConfig c;
  c.vocab_size = 50257, c.context_length = 1024, c.d_model = 768, c.num_layers = 12,
  c.num_heads = 12;
  ASSERT_TRUE(validate_transformer_config(c).ok());
  const ParameterLayout layout = make_parameter_layout(c);
  EXPECT_TRUE(check_training_bytes(layout, 1).ok()) << "gradients alone fit";
  const Status s = check_training_bytes(layout, 3);
  // 124 439 808 parameters (and a little padding) × 4 bytes × 4 blocks = 1898.8 MiB.
  EXPECT_TRUE(says(s, "training needs 1899 MiB for the parameters (475 MiB)")) << s.message;
  EXPECT_TRUE(says(s, "more than the 1536 MiB")) << s.message;
  EXPECT_TRUE(check_training_bytes(make_parameter_layout(small()), 3).ok());
}

// The selected rows' logits equal the same rows of the full forward.
void check_rows(bool layer_norm, bool tied) {
  auto model = make(small(layer_norm, tied));
  std::vector<float> full(2 * 5 * 5), rows_logits(3 * 5), att_full(2 * 2 * 2 * 5 * 5),
      att_rows(att_full.size());
  ASSERT_TRUE(model->forward(kTokens.data(), 2, 5, full.data(), att_full.data()).ok());
  const std::vector<uint32_t> rows = {4, 9, 2};
  ASSERT_TRUE(
      model->forward_rows(kTokens.data(), 2, 5, rows.data(), 3, rows_logits.data(), att_rows.data())
          .ok());
  for (size_t i = 0; i < rows.size(); ++i)
    EXPECT_TRUE(all_close(rows_logits.data() + i * 5, full.data() + rows[i] * 5, 5,
                          "row " + std::to_string(rows[i]), 1e-6, 1e-5))
        << "layerNorm " << layer_norm << " tied " << tied;
  EXPECT_EQ(att_rows, att_full);
  const std::vector<uint32_t> outside = {10};
  EXPECT_TRUE(says(
      model->forward_rows(kTokens.data(), 2, 5, outside.data(), 1, rows_logits.data(), nullptr),
      "rows[0] = 10 is outside [0, batch × T = 10)"));
}

TEST(ForwardRows, EqualTheSameRowsOfTheFullForward) {
  check_rows(true, true);
  check_rows(false, false);
}

// The unembedding packs Uᵀ 2048 vocabulary columns at a time: with V = 4100 (two full chunks and a
// tail of 4) every logit still equals wte[token] · lm_head[v] in double, for a model whose blocks
// add nothing (c_proj weights and biases 0) and that has no LayerNorm or positions.
TEST(Unembedding, ALargeVocabularyIsComputedInChunksExactlyLikeTheWholeProduct) {
  TransformerConfig c;
  c.vocab_size = 4100, c.context_length = 4, c.d_model = 8, c.num_layers = 1, c.num_heads = 2;
  c.mlp = false, c.layer_norm = false, c.learned_positions = false, c.tie_embeddings = false;
  auto model = make(c);
  for (const char* name : {"h.0.attn.c_proj.weight", "h.0.attn.c_proj.bias"}) {
    const ParameterInfo& t = model->layout().tensors[find_parameter(model->layout(), name)];
    std::fill(model->parameters() + t.offset, model->parameters() + t.offset + t.size, 0.0f);
  }
  const std::vector<int32_t> tokens = {7, 4099, 2048, 0};
  std::vector<float> logits(4 * 4100), last(4100);
  ASSERT_TRUE(model->forward(tokens.data(), 1, 4, logits.data(), nullptr).ok());
  const uint32_t row = 3;
  ASSERT_TRUE(model->forward_rows(tokens.data(), 1, 4, &row, 1, last.data(), nullptr).ok());
  const float* wte = tensor(*model, "wte.weight");
  const float* head = tensor(*model, "lm_head.weight");
  std::vector<double> expected(4 * 4100);
  for (size_t t = 0; t < 4; ++t)
    for (size_t v = 0; v < 4100; ++v) {
      double sum = 0;
      for (size_t e = 0; e < 8; ++e) sum += double(wte[tokens[t] * 8 + e]) * head[v * 8 + e];
      expected[t * 4100 + v] = sum;
    }
  EXPECT_TRUE(all_close(logits, expected, "[4, 4100]", 1e-5, 1e-5));
  EXPECT_TRUE(
      all_close(last.data(), expected.data() + 3 * 4100, 4100, "last row [1, 4100]", 1e-5, 1e-5));
}

// −log softmax(logits)[target] averaged in double over the counted rows of a full forward.
double reference_loss(Transformer& model, const std::vector<int32_t>& targets) {
  std::vector<float> logits(2 * 5 * 5);
  EXPECT_TRUE(model.forward(kTokens.data(), 2, 5, logits.data(), nullptr).ok());
  double total = 0;
  int counted = 0;
  for (size_t r = 0; r < 10; ++r) {
    if (targets[r] < 0) continue;
    double sum = 0;
    for (size_t j = 0; j < 5; ++j) sum += std::exp(double(logits[r * 5 + j]));
    total += std::log(sum) - logits[r * 5 + targets[r]];
    ++counted;
  }
  return total / counted;
}

TEST(Loss, MatchesTheFullForwardAndTheGradientsLoss) {
  for (bool layer_norm : {true, false}) {
    auto model = make(small(layer_norm, !layer_norm));
    double loss = 0, with_gradients = 0;
    ASSERT_TRUE(model->loss(kTokens.data(), kTargets.data(), 2, 5, &loss).ok());
    EXPECT_NEAR(loss, reference_loss(*model, kTargets), 1e-5);
    ASSERT_TRUE(
        model->compute_gradients(kTokens.data(), kTargets.data(), 2, 5, &with_gradients).ok());
    EXPECT_NEAR(loss, with_gradients, 1e-6);
  }
}

TEST(IgnoredTargets, MinusOneHundredIsIgnoredLikeMinusOneEverywhere) {
  auto model = make(small());
  std::vector<int32_t> hf = kTargets;
  for (int32_t& t : hf)
    if (t == -1) t = -100;
  double a = 0, b = 0;
  ASSERT_TRUE(model->compute_gradients(kTokens.data(), kTargets.data(), 2, 5, &a).ok());
  const std::vector<float> grads(model->gradients(),
                                 model->gradients() + model->layout().total_floats);
  ASSERT_TRUE(model->compute_gradients(kTokens.data(), hf.data(), 2, 5, &b).ok());
  EXPECT_EQ(a, b);
  EXPECT_EQ(
      std::vector<float>(model->gradients(), model->gradients() + model->layout().total_floats),
      grads);
  ASSERT_TRUE(model->loss(kTokens.data(), hf.data(), 2, 5, &b).ok());
  EXPECT_NEAR(a, b, 1e-6);
  std::vector<int32_t> bad = kTargets;
  bad[2] = -2;
  EXPECT_TRUE(says(model->compute_gradients(kTokens.data(), bad.data(), 2, 5, &a),
                   "targets[2] = -2 is neither −1 or −100"));
  std::vector<int32_t> none(10, -100);
  EXPECT_TRUE(says(model->compute_gradients(kTokens.data(), none.data(), 2, 5, &a),
                   "targets are all −1 (or −100)"));

  std::vector<float> logits = random_floats(2 * 3 * 4, 5);
  std::vector<int32_t> t1 = {1, -1, 3, -1, 0, 2}, t100 = {1, -100, 3, -100, 0, 2};
  std::vector<double> l1(3), l100(3);
  std::vector<uint32_t> c1(3), c100(3);
  ASSERT_TRUE(loss_by_position(logits.data(), t1.data(), 2, 3, 4, l1.data(), c1.data()).ok());
  ASSERT_TRUE(loss_by_position(logits.data(), t100.data(), 2, 3, 4, l100.data(), c100.data()).ok());
  EXPECT_EQ(l1, l100);
  EXPECT_EQ(c1, c100);
  t1[1] = -5;
  EXPECT_FALSE(loss_by_position(logits.data(), t1.data(), 2, 3, 4, l1.data(), c1.data()).ok());
}

}  // namespace
}  // namespace attn
