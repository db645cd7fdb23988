#include "position_loss.h"

#include <cmath>
#include <vector>

#include "test_util.h"

namespace attn {
namespace {

TEST(LossByPosition, HandComputedCrossEntropy) {
  // batch 2, t 2, v 3. Position 0: both sequences count; position 1: only the second.
  const float logits[] = {0, 0, 0, /**/ 1, 2, 3, /**/ 2, 0, 0, /**/ 0, 0, 1000};
  const int32_t targets[] = {1, -1, 0, 2};
  double loss[2];
  uint32_t count[2];
  ASSERT_TRUE(loss_by_position(logits, targets, 2, 2, 3, loss, count).ok());
  const double uniform = std::log(3.0);
  const double peaked = std::log(std::exp(2.0) + 2.0) - 2.0;
  EXPECT_NEAR(loss[0], (uniform + peaked) / 2, 1e-12);
  EXPECT_EQ(count[0], 2u);
  EXPECT_NEAR(loss[1], 0.0, 1e-12);  // logit 1000 on the target: no overflow, loss ≈ 0
  EXPECT_EQ(count[1], 1u);
}

TEST(LossByPosition, NoTargetsGiveZeroAndBadTargetsFail) {
  const float logits[] = {1, 2};
  const int32_t none[] = {-1};
  double loss[1] = {7};
  uint32_t count[1] = {7};
  ASSERT_TRUE(loss_by_position(logits, none, 1, 1, 2, loss, count).ok());
  EXPECT_EQ(loss[0], 0.0);
  EXPECT_EQ(count[0], 0u);
  const int32_t bad[] = {2};
  EXPECT_FALSE(loss_by_position(logits, bad, 1, 1, 2, loss, count).ok());
  const int32_t negative[] = {-2};
  EXPECT_FALSE(loss_by_position(logits, negative, 1, 1, 2, loss, count).ok());
  EXPECT_FALSE(loss_by_position(logits, none, 0, 1, 2, loss, count).ok());
}

}  // namespace
}  // namespace attn
