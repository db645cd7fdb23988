// What an attention head does, measured on one pattern: how much each query attends to the
// previous token, to earlier copies of its own token, and to the token after an earlier copy of
// its own token (the induction / prefix-matching pattern). Plain functions on caller-owned buffers.
#pragma once
#include <cstddef>
#include <cstdint>

#include "status.h"

namespace attn {

// Definitions, for one causal attention pattern A [T, T] (row i = query i, column j = key j, rows
// summing to 1) over tokens tok[0..T):
// - previous-token score: the mean of A[i, i−1] over the queries i ≥ 1.
// - duplicate-token score: the mean, over the queries i that have an earlier copy of their token
//   (some j < i with tok[j] == tok[i]), of Σ A[i, j] over those copies j.
// - induction (prefix-matching) score: the mean, over the queries i that have some key j with
//   1 ≤ j ≤ i and tok[j−1] == tok[i] (j−1 < i: an earlier copy of the query's token), of Σ A[i, j]
//   over such j: the attention on the tokens that followed earlier copies of the current token.
// A score with no qualifying query is 0 and its query count is 0. Over several sequences (or a
// batch), the mean is pooled: every qualifying query of every sequence weighs the same.
struct HeadScores {
  double previous_token = 0.0;
  double duplicate_token = 0.0;
  double induction = 0.0;
  size_t previous_token_queries = 0;
  size_t duplicate_token_queries = 0;
  size_t induction_queries = 0;
};

// attention: [batch, heads, t, t] row-major; tokens: [batch, t]; out: one HeadScores per head,
// pooled over the batch. Tokens are compared for equality only (any int32 values).
Status head_scores(const float* attention, const int32_t* tokens, size_t batch, size_t heads,
                   size_t t, HeadScores* out);

}  // namespace attn
