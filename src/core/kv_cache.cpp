#include "kv_cache.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace attn {

KvCache::~KvCache() { std::free(block_); }

void KvCache::configure(size_t layers, size_t kv_heads, size_t head_dim, size_t window,
                        size_t max_length) {
  std::free(block_);
  block_ = nullptr;
  capacity_ = 0;
  layers_ = layers, kv_heads_ = kv_heads, head_dim_ = head_dim, window_ = window;
  max_length_ = max_length;
}

size_t KvCache::kept(size_t length) const { return window_ ? std::min(length, window_) : length; }

size_t KvCache::position_in_slot(size_t slot, size_t length) const {
  if (!window_ || length <= window_) return slot;
  // The latest position p < length with p ≡ slot (mod W).
  return slot + (length - 1 - slot) / window_ * window_;
}

Status KvCache::reserve(size_t length) {
  const size_t limit = window_ ? std::min(window_, max_length_) : max_length_;
  const size_t needed = std::min(length, limit);
  if (needed <= capacity_) return Status::success();
  // Doubling keeps the copies linear in the length; the last step stops at the limit.
  const size_t slots = std::min(limit, std::max(needed, 2 * capacity_));
  const size_t rows_per_slot = 2 * layers_ * kv_heads_ * head_dim_;
  if (slots > std::numeric_limits<size_t>::max() / sizeof(float) / rows_per_slot)
    return Status::error("the key/value cache would not fit in WebAssembly memory");
  const size_t bytes = slots * rows_per_slot * sizeof(float);
  float* grown = static_cast<float*>(std::malloc(bytes));
  if (!grown)
    return Status::error("out of memory: the key/value cache needs " + std::to_string(bytes) +
                         " bytes that WebAssembly memory cannot provide");
  const size_t old_capacity = capacity_;
  for (size_t part = 0; part < 2 * layers_ * kv_heads_ && block_; ++part)
    std::memcpy(grown + part * slots * head_dim_, block_ + part * old_capacity * head_dim_,
                old_capacity * head_dim_ * sizeof(float));
  std::free(block_);
  block_ = grown;
  capacity_ = slots;
  return Status::success();
}

}  // namespace attn
