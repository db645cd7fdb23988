#include "pitfalls.h"

#include <cmath>

#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

struct Sdpa {
  std::vector<float> q, k, v;
  std::vector<uint8_t> mask;
  AttentionProblem p;
  Sdpa(size_t n, size_t m, size_t dk, size_t dv, uint32_t seed)
      : q(random_floats(n * dk, seed, -2, 2)),
        k(random_floats(m * dk, seed + 1, -2, 2)),
        v(random_floats(m * dv, seed + 2)),
        mask(random_mask(n * m, seed + 3, 0.35)) {
    p.n = n, p.m = m, p.dk = dk, p.dv = dv;
    p.q = q.data(), p.k = k.data(), p.v = v.data();
    p.scale = 1.0f / std::sqrt(float(dk));
    p.mask = mask.data();
    p.causal = true;
  }
  void correct(std::vector<float>& out, std::vector<float>& w) const {
    out.assign(p.n * p.dv, 0), w.assign(p.n * p.m, 0);
    AttentionResult r;
    r.output = out.data(), r.weights = w.data();
    std::vector<float> ws(attention_workspace_floats(p, r));
    ASSERT_TRUE(scaled_dot_product_attention(p, r, ws.data()).ok());
  }
  void wrong(Pitfall pitfall, std::vector<float>& out, std::vector<float>& w) const {
    out.assign(p.n * p.dv, 0), w.assign(p.n * p.m, 0);
    ASSERT_TRUE(attention_with_pitfall(p, pitfall, out.data(), w.data()).ok());
  }
};

TEST(Pitfalls, NoneIsOrdinaryAttention) {
  Sdpa s(6, 7, 5, 3, 1);
  std::vector<float> o1, w1, o2, w2;
  s.correct(o1, w1);
  s.wrong(Pitfall::kNone, o2, w2);
  EXPECT_TRUE(all_close(o2, o1, "(6, 3)", 1e-6, 1e-5));
  EXPECT_TRUE(all_close(w2, w1, "(6, 7)", 1e-6, 1e-5));
}

double row_sum(const std::vector<float>& w, size_t row, size_t m) {
  double sum = 0;
  for (size_t j = 0; j < m; ++j) sum += w[row * m + j];
  return sum;
}

TEST(Pitfalls, MaskAfterSoftmaxLeavesRowsSummingBelowOne) {
  Sdpa s(6, 7, 5, 3, 2);
  std::vector<float> o, w;
  s.wrong(Pitfall::kMaskAfterSoftmax, o, w);
  for (size_t i = 0; i < 6; ++i) {
    bool any_hidden = false;
    for (size_t j = 0; j < 7; ++j)
      if (j > i || s.mask[i * 7 + j]) {
        EXPECT_EQ(w[i * 7 + j], 0.0f);
        any_hidden = true;
      }
    if (any_hidden) EXPECT_LT(row_sum(w, i, 7), 0.9999) << "row " << i;
  }
}

TEST(Pitfalls, MaskValueZeroStillGivesHiddenKeysWeight) {
  Sdpa s(5, 5, 4, 2, 3);
  std::vector<float> o, w;
  s.wrong(Pitfall::kMaskValueZero, o, w);
  for (size_t i = 0; i < 5; ++i) {
    for (size_t j = i + 1; j < 5; ++j) EXPECT_GT(w[i * 5 + j], 0.0f) << i << "," << j;
    EXPECT_NEAR(row_sum(w, i, 5), 1.0, 1e-5);
  }
}

TEST(Pitfalls, ScaleByDkIsAttentionWithScaleOneOverDk) {
  Sdpa s(4, 6, 16, 3, 4);
  std::vector<float> o1, w1, o2, w2;
  s.wrong(Pitfall::kScaleByDk, o2, w2);
  s.p.scale = 1.0f / 16.0f;
  s.correct(o1, w1);
  EXPECT_TRUE(all_close(w2, w1, "(4, 6)", 1e-6, 1e-5));
  EXPECT_FALSE(
      attention_with_pitfall(s.p, Pitfall::kSkipOutputProjection, o1.data(), nullptr).ok());
}

struct Mha {
  std::vector<float> wq, wk, wv, wo, bo, x;
  MultiHeadProblem p;
  Mha(size_t E, size_t H, size_t n, uint32_t seed)
      : wq(random_floats(E * E, seed)),
        wk(random_floats(E * E, seed + 1)),
        wv(random_floats(E * E, seed + 2)),
        wo(random_floats(E * E, seed + 3)),
        bo(random_floats(E, seed + 4)),
        x(random_floats(n * E, seed + 5)) {
    p.shape = {E, H, E, E, true};
    p.weights = {wq.data(), wk.data(), wv.data(), wo.data(), nullptr, nullptr, nullptr, bo.data()};
    p.n = p.m = n;
    p.query = p.key = p.value = x.data();
    p.causal = true;
  }
  std::vector<float> correct(std::vector<float>* concat = nullptr) const {
    std::vector<float> out(p.n * p.shape.embed_dim);
    MultiHeadResult r;
    r.output = out.data();
    if (concat) concat->resize(out.size()), r.concat = concat->data();
    std::vector<float> ws(multi_head_workspace_floats(p, r));
    EXPECT_TRUE(multi_head_attention(p, r, ws.data()).ok());
    return out;
  }
  std::vector<float> wrong(Pitfall pitfall) const {
    std::vector<float> out(p.n * p.shape.embed_dim), w(p.n * p.m);
    EXPECT_TRUE(multi_head_with_pitfall(p, pitfall, out.data(), w.data()).ok());
    return out;
  }
};

TEST(Pitfalls, MultiHeadNoneMatchesTheLayer) {
  Mha m(8, 2, 5, 10);
  EXPECT_TRUE(all_close(m.wrong(Pitfall::kNone), m.correct(), "(5, 8)", 1e-5, 1e-4));
}

TEST(Pitfalls, SkipOutputProjectionReturnsTheConcatenation) {
  Mha m(8, 4, 5, 20);
  std::vector<float> concat;
  m.correct(&concat);
  EXPECT_TRUE(all_close(m.wrong(Pitfall::kSkipOutputProjection), concat, "(5, 8)", 1e-5, 1e-4));
}

TEST(Pitfalls, ScaleByModelDimMattersOnlyWithSeveralHeads) {
  Mha one(8, 1, 5, 30), four(8, 4, 5, 30);
  EXPECT_TRUE(all_close(one.wrong(Pitfall::kScaleByModelDim), one.correct(), "(5, 8)", 1e-5, 1e-4));
  EXPECT_FALSE(
      all_close(four.wrong(Pitfall::kScaleByModelDim), four.correct(), "(5, 8)", 1e-4, 1e-4));
}

}  // namespace
}  // namespace attn
