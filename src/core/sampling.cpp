#include "sampling.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

namespace attn {
namespace {

size_t argmax_lowest(const float* logits, size_t V) {
  size_t best = 0;
  for (size_t i = 1; i < V; ++i)
    if (logits[i] > logits[best]) best = i;
  return best;
}

}  // namespace

Status sample_token(const float* logits, size_t V, double temperature, size_t top_k, double u,
                    float* scratch, int32_t* token) {
  if (V == 0) return Status::error("there are no logits to sample from");
  if (!(temperature >= 0.0) || !std::isfinite(temperature))
    return Status::error("temperature must be a finite number ≥ 0");
  if (!(u >= 0.0 && u < 1.0)) return Status::error("u must be in [0, 1)");
  for (size_t i = 0; i < V; ++i)
    if (!std::isfinite(logits[i]))
      return Status::error("logits[" + std::to_string(i) + "] is not finite");
  const size_t best = argmax_lowest(logits, V);
  if (temperature == 0.0) {
    *token = static_cast<int32_t>(best);
    return Status::success();
  }
  const size_t k = top_k == 0 || top_k >= V ? V : top_k;
  // The k-th largest logit: ids above it are kept, and ids equal to it in increasing order until k.
  std::copy(logits, logits + V, scratch);
  std::nth_element(scratch, scratch + (k - 1), scratch + V, std::greater<float>());
  const float kth = scratch[k - 1];
  size_t ties = k;
  for (size_t i = 0; i < V; ++i) ties -= logits[i] > kth ? 1 : 0;
  const double top = logits[best];
  auto weight = [&](size_t i) { return std::exp((double(logits[i]) - top) / temperature); };
  auto kept = [&](size_t i, size_t& ties_left) {
    if (logits[i] > kth) return true;
    if (logits[i] == kth && ties_left > 0) return ties_left--, true;
    return false;
  };
  double total = 0.0;
  size_t left = ties;
  for (size_t i = 0; i < V; ++i)
    if (kept(i, left)) total += weight(i);
  const double target = u * total;
  double cumulative = 0.0;
  size_t last = best;
  left = ties;
  for (size_t i = 0; i < V; ++i) {
    if (!kept(i, left)) continue;
    cumulative += weight(i);
    last = i;
    if (cumulative > target) break;
  }
  *token = static_cast<int32_t>(last);
  return Status::success();
}

}  // namespace attn
