// The keys and values a decoder keeps: for every layer and key/value head, one row of d floats
// per kept position (keys after RoPE). Without a window position p lives in slot p and the cache
// grows (by doubling, contents kept) up to max_length slots; with a window W it is a ring of W
// slots, position p in slot p mod W, so its size stops growing once W positions are seen.
// Layout of the block: [layer][keys | values][kv head][slot][d]. Nothing throws; growth that
// fails leaves the cache as it was.
#pragma once
#include <cstddef>

#include "status.h"

namespace attn {

class KvCache {
 public:
  KvCache() = default;
  KvCache(const KvCache&) = delete;
  KvCache& operator=(const KvCache&) = delete;
  ~KvCache();

  // Sets the shape; allocates nothing yet. window 0: no window.
  void configure(size_t layers, size_t kv_heads, size_t head_dim, size_t window, size_t max_length);

  // Makes room for positions [0, length) (a ring never needs more than W slots), keeping what is
  // held. An error (out of memory) changes nothing.
  Status reserve(size_t length);

  size_t window() const { return window_; }
  bool ring() const { return window_ != 0; }
  // Slots holding positions once `length` positions were seen: length, or min(length, W).
  size_t kept(size_t length) const;
  size_t slot_of(size_t position) const { return window_ ? position % window_ : position; }
  // The position held in slot s once `length` positions were seen (s < kept(length)).
  size_t position_in_slot(size_t slot, size_t length) const;

  // Row `slot` of the keys (values) of key/value head g in `layer`; rows are head_dim floats apart.
  float* keys(size_t layer, size_t g) const { return block_ + offset(layer, 0, g); }
  float* values(size_t layer, size_t g) const { return block_ + offset(layer, 1, g); }

 private:
  size_t offset(size_t layer, size_t which, size_t g) const {
    return ((layer * 2 + which) * kv_heads_ + g) * capacity_ * head_dim_;
  }

  size_t layers_ = 0, kv_heads_ = 0, head_dim_ = 0, window_ = 0, max_length_ = 0;
  size_t capacity_ = 0;  // slots per (layer, keys/values, head)
  float* block_ = nullptr;
};

}  // namespace attn
