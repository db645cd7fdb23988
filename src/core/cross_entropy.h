// Mean cross-entropy of logits against integer targets, −1 = ignored (PyTorch's
// F.cross_entropy(ignore_index=-1)), and its gradient with respect to the logits.
#pragma once
#include <cstddef>
#include <cstdint>

namespace attn {

// Number of targets that are not −1.
size_t count_targets(const int32_t* targets, size_t rows);

// Returns the mean loss over the `counted` rows whose target is not −1 (counted > 0). When dlogits
// is not null it receives (softmax − one-hot)/counted, 0 on ignored rows; it may alias logits.
double cross_entropy(const float* logits, const int32_t* targets, size_t rows, size_t vocab,
                     size_t counted, float* dlogits);

}  // namespace attn
