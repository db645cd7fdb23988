// Cross-entropy by position (position_loss.h), in double precision.
#include "position_loss.h"

#include <cmath>
#include <string>

#include "cross_entropy.h"

namespace attn {

Status loss_by_position(const float* logits, const int32_t* targets, size_t batch, size_t t,
                        size_t v, double* loss, uint32_t* count) {
  if (!logits || !targets || !loss || !count) return Status::error("loss_by_position: null buffer");
  if (batch == 0 || t == 0 || v == 0)
    return Status::error(
        "loss_by_position: batch, sequence length and vocabulary must be positive");
  for (size_t i = 0; i < batch * t; ++i)
    if ((targets[i] < 0 && !is_ignored_target(targets[i])) || targets[i] >= int64_t(v))
      return Status::error("loss_by_position: target " + std::to_string(targets[i]) + " at " +
                           std::to_string(i) + " is neither −1 or −100 (ignored) nor in [0, " +
                           std::to_string(v) + ")");
  for (size_t p = 0; p < t; ++p) loss[p] = 0.0, count[p] = 0;
  for (size_t b = 0; b < batch; ++b) {
    for (size_t p = 0; p < t; ++p) {
      const int32_t target = targets[b * t + p];
      if (target < 0) continue;
      const float* row = logits + (b * t + p) * v;
      double max = row[0];
      for (size_t k = 1; k < v; ++k) max = std::fmax(max, double(row[k]));
      double sum = 0.0;
      for (size_t k = 0; k < v; ++k) sum += std::exp(double(row[k]) - max);
      loss[p] += std::log(sum) + max - double(row[target]);
      ++count[p];
    }
  }
  for (size_t p = 0; p < t; ++p)
    if (count[p]) loss[p] /= double(count[p]);
  return Status::success();
}

}  // namespace attn
