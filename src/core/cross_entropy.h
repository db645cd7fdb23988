// Mean cross-entropy of logits against integer targets, −1 or −100 = ignored (PyTorch's
// F.cross_entropy(ignore_index=-1); −100 is its default ignore_index, which Hugging Face's labels
// use), and its gradient with respect to the logits.
#pragma once
#include <cstddef>
#include <cstdint>

namespace attn {

constexpr int32_t kIgnoredTarget = -1;
constexpr int32_t kHuggingFaceIgnoredTarget = -100;

// True for the two ignored values; other negative targets are errors for the callers to report.
inline bool is_ignored_target(int32_t target) {
  return target == kIgnoredTarget || target == kHuggingFaceIgnoredTarget;
}

// Number of targets that are not ignored (not negative).
size_t count_targets(const int32_t* targets, size_t rows);

// Returns the mean loss over the `counted` rows whose target is not negative (counted > 0). When
// dlogits is not null it receives (softmax − one-hot)/counted, 0 on ignored rows; it may alias
// logits. Only valid targets: in [0, vocab) or ignored.
double cross_entropy(const float* logits, const int32_t* targets, size_t rows, size_t vocab,
                     size_t counted, float* dlogits);

}  // namespace attn
