// Decoding with a key/value cache: a model continues a sequence one chunk at a time without
// recomputing what it has seen. Each append runs the t new tokens through every layer; their keys
// and values join the cache (kv_cache.h) and their queries attend to the cache on the same head
// kernels as training (attend_head, causal aligned lower-right: query i of the chunk sits at
// position length + i). One token costs O(kept positions) in attention, not O(length²).
// Any chunking gives the logits of Transformer::forward on the whole sequence, to float32 roundoff.
#pragma once
#include <cstddef>
#include <cstdint>

#include "attention_head.h"
#include "float_buffer.h"
#include "kv_cache.h"
#include "status.h"
#include "transformer.h"

namespace attn {

// The longest sequence a decoder takes (positions past it would also pass float32's exact integers
// in the ALiBi distances).
constexpr size_t kMaxDecoderLength = size_t(1) << 24;

class Decoder {
 public:
  // A decoder of `model` for sequences of at most max_length tokens: at most contextLength with
  // learned positions, any length up to kMaxDecoderLength otherwise. `model` must outlive it; it
  // reads the model's parameters at every append. *out is null on failure.
  static Status create(Transformer* model, size_t max_length, Decoder** out);

  // tokens (t ids) at positions length … length + t − 1 → logits (t × V) and, when attentions is
  // not null, each layer's weights (L × H × t × (length + t); 0 for keys outside the window).
  // Checks everything (ids, maxLength, memory) before changing anything: an error leaves the
  // decoder as it was.
  Status append(const int32_t* tokens, size_t t, float* logits, float* attentions);

  void reset() { length_ = 0; }
  size_t length() const { return length_; }
  size_t max_length() const { return max_length_; }
  // Positions whose keys and values are held: length, or min(length, window).
  size_t kept() const { return cache_.kept(length_); }
  // 2 · layers · kv heads · head dim · kept · 4.
  double cache_bytes() const;

  // Layer `layer`'s cache in slot order: keys and values (kv heads × kept × head dim, keys after
  // RoPE) and the position held in each slot (kept).
  Status copy_cache(size_t layer, float* keys, float* values, int32_t* positions) const;

 private:
  Decoder(Transformer* model, size_t max_length);
  Status check(const int32_t* tokens, size_t t) const;
  Status prepare(size_t t, bool weights);
  void run_layer(size_t layer, size_t t, float* attentions);
  void attend_cache(size_t layer, size_t t, const float* qkv, float* concat, float* attentions);
  void stage_keys(const BlockShape& shape, size_t layer, size_t g, const float* qkv, bool in_place,
                  size_t old, HeadInputs& in);
  void store_ring(const BlockShape& shape, size_t layer, size_t g, const float* qkv);
  void unembed(const float* x, size_t t, float* logits);

  Transformer* model_;
  const TransformerConfig& config_;
  size_t max_length_, length_ = 0;
  KvCache cache_;
  FloatBuffer work_;
  struct Work {
    float* x[2];             // t × E: the residual stream, in and out of a layer
    BlockActivations layer;  // one layer's activations (x_in, x_out set per layer)
    float* lnf = nullptr;
    float* lnf_mean = nullptr;
    float* lnf_rstd = nullptr;
    float* keys = nullptr;  // (kept + t) × d: a ring's keys in position order
    float* values = nullptr;
    float* weights = nullptr;  // t × (kept + t): one head's weights before they are placed
    float* scratch = nullptr;  // the heads', RoPE's and the unembedding's
  } w_;
};

}  // namespace attn
