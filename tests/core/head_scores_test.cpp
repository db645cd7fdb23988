#include "head_scores.h"

#include <map>
#include <vector>

#include "test_util.h"

namespace attn {
namespace {

// A second, independent float64 formulation: positions of every token value first, then each score
// straight from its definition in head_scores.h (sets of keys, not one loop over earlier keys).
HeadScores reference(const std::vector<double>& a, const std::vector<int32_t>& tok) {
  const size_t t = tok.size();
  std::map<int32_t, std::vector<size_t>> where;
  for (size_t j = 0; j < t; ++j) where[tok[j]].push_back(j);
  HeadScores r;
  double prev = 0, dup = 0, ind = 0;
  for (size_t i = 0; i < t; ++i) {
    if (i >= 1) prev += a[i * t + i - 1], ++r.previous_token_queries;
    std::vector<size_t> copies, after;
    for (size_t j : where[tok[i]])
      if (j < i) copies.push_back(j);
    for (size_t key = 1; key <= i; ++key)
      if (tok[key - 1] == tok[i]) after.push_back(key);
    if (!copies.empty()) {
      ++r.duplicate_token_queries;
      for (size_t j : copies) dup += a[i * t + j];
    }
    if (!after.empty()) {
      ++r.induction_queries;
      for (size_t key : after) ind += a[i * t + key];
    }
  }
  auto mean = [](double s, size_t n) { return n ? s / double(n) : 0.0; };
  r.previous_token = mean(prev, r.previous_token_queries);
  r.duplicate_token = mean(dup, r.duplicate_token_queries);
  r.induction = mean(ind, r.induction_queries);
  return r;
}

// A causal pattern with random rows (each sums to 1 over keys 0..i).
std::vector<float> random_causal(size_t t, uint32_t seed) {
  std::vector<float> a = testing::random_floats(t * t, seed, 0.0f, 1.0f);
  for (size_t i = 0; i < t; ++i) {
    double sum = 0;
    for (size_t j = 0; j <= i; ++j) sum += a[i * t + j];
    for (size_t j = 0; j < t; ++j) a[i * t + j] = j <= i ? float(a[i * t + j] / sum) : 0.0f;
  }
  return a;
}

TEST(HeadScores, HandMadePatternsScoreOneWhereTheyShould) {
  // BOS a b c a b c: positions 4, 5, 6 repeat 1, 2, 3.
  const std::vector<int32_t> tok = {0, 1, 2, 3, 1, 2, 3};
  const size_t t = tok.size();
  std::vector<float> previous(t * t, 0.0f), induction(t * t, 0.0f), duplicate(t * t, 0.0f);
  previous[0] = 1;
  for (size_t i = 1; i < t; ++i) previous[i * t + i - 1] = 1;
  for (size_t i = 0; i < t; ++i) {
    // Induction: the token after the earlier copy (i − 3 + 1) in the repeat, else the query itself.
    induction[i * t + (i >= 4 ? i - 2 : i)] = 1;
    duplicate[i * t + (i >= 4 ? i - 3 : i)] = 1;
  }
  HeadScores s[3];
  std::vector<float> all;
  for (const auto* p : {&previous, &induction, &duplicate})
    all.insert(all.end(), p->begin(), p->end());
  ASSERT_TRUE(head_scores(all.data(), tok.data(), 1, 3, t, s).ok());
  EXPECT_DOUBLE_EQ(s[0].previous_token, 1.0);
  EXPECT_DOUBLE_EQ(s[0].induction,
                   0.0);  // keys 2, 3, 4 hold the previous tokens' successors, not i − 1
  EXPECT_DOUBLE_EQ(s[1].induction, 1.0);
  EXPECT_DOUBLE_EQ(s[1].previous_token, 0.0);
  EXPECT_DOUBLE_EQ(s[1].duplicate_token, 0.0);
  EXPECT_DOUBLE_EQ(s[2].duplicate_token, 1.0);
  EXPECT_DOUBLE_EQ(s[2].induction, 0.0);
  EXPECT_EQ(s[0].previous_token_queries, 6u);
  EXPECT_EQ(s[0].duplicate_token_queries, 3u);
  EXPECT_EQ(s[0].induction_queries, 3u);
}

TEST(HeadScores, AQueryRepeatingItsPreviousTokenCountsItselfForInduction) {
  // tok = x x: query 1's token followed the copy at 0, so key 1 (itself) is the induction target.
  const std::vector<int32_t> tok = {5, 5};
  const float a[] = {1, 0, 0.25f, 0.75f};
  HeadScores s;
  ASSERT_TRUE(head_scores(a, tok.data(), 1, 1, 2, &s).ok());
  EXPECT_DOUBLE_EQ(s.induction, 0.75);
  EXPECT_DOUBLE_EQ(s.duplicate_token, 0.25);
  EXPECT_DOUBLE_EQ(s.previous_token, 0.25);
}

TEST(HeadScores, RandomPatternsMatchTheFloat64Definition) {
  for (size_t t : {1, 2, 5, 16, 33}) {
    const size_t batch = 3, heads = 2;
    std::vector<int32_t> tok(batch * t);
    std::mt19937 gen{uint32_t(t)};
    for (auto& x : tok) x = int32_t(gen() % 4);  // a small vocabulary: many repeats
    std::vector<float> a;
    for (size_t p = 0; p < batch * heads; ++p) {
      auto one = random_causal(t, uint32_t(100 * t + p));
      a.insert(a.end(), one.begin(), one.end());
    }
    std::vector<HeadScores> s(heads);
    ASSERT_TRUE(head_scores(a.data(), tok.data(), batch, heads, t, s.data()).ok());
    for (size_t h = 0; h < heads; ++h) {
      // Pooled over the batch: sums and counts of each sequence's reference, then one division.
      double prev = 0, dup = 0, ind = 0;
      size_t np = 0, nd = 0, ni = 0;
      for (size_t b = 0; b < batch; ++b) {
        const float* p = a.data() + (b * heads + h) * t * t;
        std::vector<double> pattern(p, p + t * t);
        const HeadScores r = reference(
            pattern, std::vector<int32_t>(tok.begin() + b * t, tok.begin() + (b + 1) * t));
        prev += r.previous_token * r.previous_token_queries, np += r.previous_token_queries;
        dup += r.duplicate_token * r.duplicate_token_queries, nd += r.duplicate_token_queries;
        ind += r.induction * r.induction_queries, ni += r.induction_queries;
      }
      EXPECT_EQ(s[h].previous_token_queries, np) << "t " << t;
      EXPECT_EQ(s[h].duplicate_token_queries, nd) << "t " << t;
      EXPECT_EQ(s[h].induction_queries, ni) << "t " << t;
      EXPECT_NEAR(s[h].previous_token, np ? prev / np : 0, 1e-12) << "t " << t << " head " << h;
      EXPECT_NEAR(s[h].duplicate_token, nd ? dup / nd : 0, 1e-12) << "t " << t << " head " << h;
      EXPECT_NEAR(s[h].induction, ni ? ind / ni : 0, 1e-12) << "t " << t << " head " << h;
    }
  }
}

TEST(HeadScores, RejectsEmptySizesAndNullBuffers) {
  const float a[] = {1};
  const int32_t tok[] = {0};
  HeadScores s;
  EXPECT_FALSE(head_scores(a, tok, 0, 1, 1, &s).ok());
  EXPECT_FALSE(head_scores(a, tok, 1, 0, 1, &s).ok());
  EXPECT_FALSE(head_scores(a, tok, 1, 1, 0, &s).ok());
  EXPECT_FALSE(head_scores(nullptr, tok, 1, 1, 1, &s).ok());
  ASSERT_TRUE(head_scores(a, tok, 1, 1, 1, &s).ok());
  EXPECT_EQ(s.previous_token_queries, 0u);  // one token: nothing qualifies, every score 0
  EXPECT_EQ(s.induction, 0.0);
}

}  // namespace
}  // namespace attn
