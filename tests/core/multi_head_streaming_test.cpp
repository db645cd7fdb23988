// Output-only multi-head attention streams each head: its workspace is linear in n and m.
#include <gtest/gtest.h>

#include "multi_head_attention.h"

namespace attn {
namespace {

TEST(MultiHeadStreaming, OutputOnlyWorkspaceHasNoNTimesMMatrix) {
  MultiHeadProblem p;
  p.shape = {8, 2, 8, 8, true};
  p.n = p.m = 32768;
  MultiHeadResult output_only;
  const size_t floats = multi_head_workspace_floats(p, output_only);
  // Projections and concat (4 · n · E) plus packed panels and one tile: far below n · m = 2^30.
  EXPECT_LT(floats, size_t(4) * 32768 * 8 + (size_t(1) << 20)) << floats;

  MultiHeadResult averaged;
  float sink = 0;
  averaged.weights = &sink;
  EXPECT_GE(multi_head_workspace_floats(p, averaged), size_t(32768) * 32768);
}

}  // namespace
}  // namespace attn
