// What a transformer holds in memory: only its parameters until training starts (a checkpoint
// opened to run forward never pays for gradients or Adam's moments), the gradients from the first
// compute_gradients, Adam's two moments from the first train_step; and a model created without
// initialization starts at exactly zero.
#include <malloc.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "test_util.h"
#include "transformer.h"

namespace attn {
namespace {

TransformerConfig config() {
  TransformerConfig c;
  c.vocab_size = 300, c.context_length = 16, c.d_model = 32, c.num_layers = 2, c.num_heads = 4;
  c.seed = 1;
  return c;
}

std::unique_ptr<Transformer> make(bool initialize) {
  Transformer* t = nullptr;
  const Status s = Transformer::create(config(), &t, initialize);
  EXPECT_TRUE(s.ok()) << s.message;
  return std::unique_ptr<Transformer>(t);
}

// Bytes malloc has handed out, the large blocks it maps separately included.
size_t in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// Under AddressSanitizer malloc is ASan's own, and mallinfo2 reports nothing to measure.
bool malloc_is_measurable() {
  const size_t before = in_use();
  void* volatile block = std::malloc(size_t(1) << 20);  // volatile: the call cannot be elided
  const bool seen = in_use() >= before + (size_t(1) << 20);
  std::free(block);
  return seen;
}

TEST(TransformerMemory, GradientsAndAdamMomentsAreAllocatedOnlyWhenTrainingStarts) {
  if (!malloc_is_measurable())
    GTEST_SKIP() << "mallinfo2 does not see this malloc (a sanitizer's allocator)";
  const size_t start = in_use();
  auto model = make(true);
  const size_t block = model->layout().total_floats * sizeof(float);
  const size_t created = in_use() - start;
  EXPECT_GE(created, block);
  EXPECT_LT(created, block + block / 4) << "creating holds the parameters and little else";
  EXPECT_EQ(model->gradients(), nullptr);

  std::vector<int32_t> tokens = {1, 2, 3, 4, 5, 6}, targets = {2, 3, 4, 5, 6, 7};
  std::vector<float> logits(6 * 300);
  ASSERT_TRUE(model->forward(tokens.data(), 1, 6, logits.data(), nullptr).ok());
  EXPECT_EQ(model->gradients(), nullptr) << "forward allocates no gradients";
  const size_t after_forward = in_use() - start;

  double loss = 0;
  ASSERT_TRUE(model->compute_gradients(tokens.data(), targets.data(), 1, 6, &loss).ok());
  ASSERT_NE(model->gradients(), nullptr);
  const size_t after_gradients = in_use() - start;
  EXPECT_GE(after_gradients, after_forward + block) << "the gradients: one float per parameter";

  ASSERT_TRUE(model->train_step(tokens.data(), targets.data(), 1, 6, AdamOptions{}, &loss).ok());
  const size_t after_step = in_use() - start;
  EXPECT_GE(after_step, after_gradients + 2 * block)
      << "Adam's two moments come with the first step";
  EXPECT_LT(after_step, after_gradients + 2 * block + block / 4) << "and nothing else of that size";
  EXPECT_EQ(model->optimizer_step(), 1);
}

TEST(TransformerMemory, AModelCreatedWithoutInitializationIsZero) {
  auto model = make(false);
  const float* p = model->parameters();
  for (size_t i = 0; i < model->layout().total_floats; ++i) ASSERT_EQ(p[i], 0.0f) << "index " << i;
  auto drawn = make(true);
  size_t nonzero = 0;
  for (size_t i = 0; i < drawn->layout().total_floats; ++i)
    nonzero += drawn->parameters()[i] != 0.0f;
  EXPECT_GT(nonzero, drawn->layout().total_floats / 2)
      << "initialize = true still draws the weights";
}

}  // namespace
}  // namespace attn
