// Cross-entropy by position: how well a model predicts at each position of its sequences (for the
// induction lesson: the loss falls in the second copy of a repeat once an induction head forms).
#pragma once
#include <cstddef>
#include <cstdint>

#include "status.h"

namespace attn {

// logits: [batch, t, v] row-major; targets: [batch, t], −1 or −100 = ignored. For each position p:
// loss[p] = mean over the sequences b with targets[b, p] not ignored of −log softmax(logits[b,
// p])[target], count[p] = how many there are (loss[p] = 0 when none). Computed in double with the
// max subtracted, so large logits do not overflow. Any other target outside [0, v) is an error.
Status loss_by_position(const float* logits, const int32_t* targets, size_t batch, size_t t,
                        size_t v, double* loss, uint32_t* count);

}  // namespace attn
