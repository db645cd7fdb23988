#include "multi_head_layer.h"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <vector>

namespace attn {
namespace {

struct LayerDeleter {
  void operator()(MultiHeadLayer* layer) const { multi_head_layer_destroy(layer); }
};
using LayerPtr = std::unique_ptr<MultiHeadLayer, LayerDeleter>;

LayerPtr make(const MultiHeadShape& shape) {
  Status status;
  LayerPtr layer(multi_head_layer_create(shape, &status));
  EXPECT_EQ(layer != nullptr, status.ok()) << status.message;
  return layer;
}

TEST(MultiHeadLayer, RecordsItsShapeAndWeightSizes) {
  LayerPtr layer = make({8, 2, 3, 5, true});
  ASSERT_TRUE(layer);
  EXPECT_EQ(multi_head_layer_shape(*layer).embed_dim, 8u);
  const size_t want[kLayerWeightCount] = {64, 24, 40, 64, 8, 8, 8, 8};
  for (int i = 0; i < kLayerWeightCount; ++i)
    EXPECT_EQ(multi_head_layer_weight_floats(*layer, i), want[i]) << i;
  EXPECT_EQ(multi_head_layer_weight_floats(*layer, 8), 0u);
  EXPECT_EQ(multi_head_layer_weight_floats(*layer, -1), 0u);
  const MultiHeadWeights w = multi_head_layer_weights(*layer);
  EXPECT_EQ(w.wk, w.wq + 64);
  EXPECT_EQ(w.bo, w.bv + 8);
}

TEST(MultiHeadLayer, SetAndGetCheckTheSizeAgainstTheBlock) {
  LayerPtr layer = make({4, 2, 4, 4, false});
  ASSERT_TRUE(layer);
  std::vector<float> big(4096, 7.0f), out(16, -1.0f);
  // A caller that claims more (or fewer) values than the weight holds is refused, block unchanged.
  EXPECT_FALSE(multi_head_layer_set_weight(layer.get(), 0, big.data(), big.size()).ok());
  EXPECT_FALSE(multi_head_layer_set_weight(layer.get(), 0, big.data(), 15).ok());
  EXPECT_FALSE(multi_head_layer_set_weight(layer.get(), 4, big.data(), 4).ok());  // no biases
  EXPECT_FALSE(multi_head_layer_set_weight(layer.get(), 9, big.data(), 16).ok());
  ASSERT_TRUE(multi_head_layer_get_weight(layer.get(), 1, out.data(), 16).ok());
  for (float x : out) EXPECT_EQ(x, 0.0f);
  ASSERT_TRUE(multi_head_layer_set_weight(layer.get(), 1, big.data(), 16).ok());
  ASSERT_TRUE(multi_head_layer_get_weight(layer.get(), 1, out.data(), 16).ok());
  for (float x : out) EXPECT_EQ(x, 7.0f);
  ASSERT_TRUE(multi_head_layer_get_weight(layer.get(), 0, out.data(), 16).ok());
  for (float x : out) EXPECT_EQ(x, 0.0f);  // the neighbour was not touched
  EXPECT_FALSE(multi_head_layer_get_weight(layer.get(), 0, out.data(), 17).ok());
  EXPECT_FALSE(multi_head_layer_set_weight(nullptr, 0, big.data(), 16).ok());
  MultiHeadProblem problem;
  EXPECT_FALSE(use_multi_head_layer(nullptr, &problem).ok());
  ASSERT_TRUE(use_multi_head_layer(layer.get(), &problem).ok());
  EXPECT_EQ(problem.shape.embed_dim, 4u);
  EXPECT_EQ(problem.weights.wk, multi_head_layer_weights(*layer).wk);
}

TEST(MultiHeadLayer, RefusesShapesThatOverflowOrAreInvalid) {
  Status status;
  const size_t huge = std::numeric_limits<size_t>::max() / 2;
  EXPECT_EQ(multi_head_layer_create({huge, 1, huge, huge, true}, &status), nullptr);
  EXPECT_NE(status.message.find("too large"), std::string::npos) << status.message;
  EXPECT_EQ(multi_head_layer_create({6, 4, 6, 6, true}, &status), nullptr);
  EXPECT_FALSE(status.ok());
}

}  // namespace
}  // namespace attn
