// Head metrics (previous-token, duplicate-token, induction) from attention patterns; definitions
// in head_scores.h. O(t²) per pattern, in double so long sequences do not lose the small terms.
#include "head_scores.h"

#include <vector>

namespace attn {
namespace {

struct Sums {
  double previous = 0.0, duplicate = 0.0, induction = 0.0;
  size_t previous_n = 0, duplicate_n = 0, induction_n = 0;
};

// a: one [t, t] pattern; tok: its t tokens.
void accumulate(const float* a, const int32_t* tok, size_t t, Sums& s) {
  for (size_t i = 1; i < t; ++i) {
    const float* row = a + i * t;
    s.previous += row[i - 1];
    ++s.previous_n;
    double duplicate = 0.0, induction = 0.0;
    bool has_duplicate = false, has_induction = false;
    for (size_t j = 0; j < i; ++j) {
      if (tok[j] == tok[i]) {
        duplicate += row[j];
        has_duplicate = true;
        // The copy at j was followed by key j + 1 ≤ i: the key an induction head looks at.
        induction += row[j + 1];
        has_induction = true;
      }
    }
    if (has_duplicate) s.duplicate += duplicate, ++s.duplicate_n;
    if (has_induction) s.induction += induction, ++s.induction_n;
  }
}

double mean(double sum, size_t n) { return n ? sum / double(n) : 0.0; }

}  // namespace

Status head_scores(const float* attention, const int32_t* tokens, size_t batch, size_t heads,
                   size_t t, HeadScores* out) {
  if (!attention || !tokens || !out) return Status::error("head_scores: null buffer");
  if (batch == 0 || heads == 0 || t == 0)
    return Status::error("head_scores: batch, heads and the sequence length must be positive");
  for (size_t h = 0; h < heads; ++h) {
    Sums s;
    for (size_t b = 0; b < batch; ++b)
      accumulate(attention + (b * heads + h) * t * t, tokens + b * t, t, s);
    HeadScores& r = out[h];
    r.previous_token = mean(s.previous, s.previous_n);
    r.duplicate_token = mean(s.duplicate, s.duplicate_n);
    r.induction = mean(s.induction, s.induction_n);
    r.previous_token_queries = s.previous_n;
    r.duplicate_token_queries = s.duplicate_n;
    r.induction_queries = s.induction_n;
  }
  return Status::success();
}

}  // namespace attn
