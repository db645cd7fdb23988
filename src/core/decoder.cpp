#include "decoder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <string>

#include "attention_head.h"
#include "embedding.h"
#include "layer_norm.h"
#include "linear.h"
#include "transformer_block.h"

namespace attn {
namespace {

constexpr size_t kAlignFloats = 16;
size_t aligned(size_t floats) { return (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }

// Consecutive aligned pieces of one block; a null base only counts.
struct Carver {
  float* base;
  size_t used = 0;
  float* take(size_t floats) {
    float* at = base ? base + used : nullptr;
    used += aligned(floats);
    return at;
  }
};

}  // namespace

Decoder::Decoder(Transformer* model, size_t max_length)
    : model_(model), config_(model->config()), max_length_(max_length) {
  const size_t d = config_.d_model / config_.num_heads;
  cache_.configure(config_.num_layers, kv_head_count(config_), d, config_.attention_window,
                   max_length);
}

Status Decoder::create(Transformer* model, size_t max_length, Decoder** out) {
  *out = nullptr;
  if (!model) return Status::error("the transformer was disposed");
  const TransformerConfig& c = model->config();
  if (max_length == 0) return Status::error("maxLength must be positive");
  if (c.learned_positions && max_length > c.context_length)
    return Status::error("maxLength (" + std::to_string(max_length) +
                         ") must be at most contextLength (" + std::to_string(c.context_length) +
                         ") for a model with learned positions: wpe has no row past it");
  if (max_length > kMaxDecoderLength)
    return Status::error("maxLength must be at most " + std::to_string(kMaxDecoderLength));
  Decoder* decoder = new (std::nothrow) Decoder(model, max_length);
  if (!decoder) return Status::error("out of memory for the decoder");
  *out = decoder;
  return Status::success();
}

double Decoder::cache_bytes() const {
  const double d = double(config_.d_model / config_.num_heads);
  return 2.0 * double(config_.num_layers) * double(kv_head_count(config_)) * d * double(kept()) *
         4.0;
}

Status Decoder::check(const int32_t* tokens, size_t t) const {
  if (t == 0) return Status::error("tokens must hold at least one token");
  if (t > max_length_ - length_)
    return Status::error("appending " + std::to_string(t) + " tokens to the " +
                         std::to_string(length_) + " already seen would pass maxLength (" +
                         std::to_string(max_length_) + ")");
  const int64_t V = static_cast<int64_t>(config_.vocab_size);
  for (size_t i = 0; i < t; ++i)
    if (tokens[i] < 0 || tokens[i] >= V)
      return Status::error("tokens[" + std::to_string(i) + "] = " + std::to_string(tokens[i]) +
                           " is outside [0, vocabSize = " + std::to_string(V) + ")");
  return Status::success();
}

// Work buffers for a chunk of t tokens: one layer's activations (layers run one after another),
// the ring's keys and values in position order, one head's weights, and the kernels' scratch.
Status Decoder::prepare(size_t t, bool weights) {
  const BlockShape s = transformer_block_shape(config_, 1, t);
  const size_t E = s.E, d = s.head_dim(), V = config_.vocab_size;
  const size_t m = (cache_.ring() ? cache_.kept(length_) : length_) + t;  // keys one head sees
  size_t scratch = std::max(head_workspace_floats(t, m, d, d, !weights), d);
  if (t >= kUnembedPackRows) scratch = std::max(scratch, unembed_scratch_floats(V, E));
  auto carve = [&](Carver& c) {
    w_.x[0] = c.take(t * E), w_.x[1] = c.take(t * E);
    BlockActivations& a = w_.layer;
    if (s.layer_norm) a.ln1 = c.take(t * E), a.ln1_mean = c.take(t), a.ln1_rstd = c.take(t);
    a.qkv = c.take(t * s.qkv_width());
    a.concat = c.take(t * E);
    if (s.mlp) {
      a.x_mid = c.take(t * E);
      if (s.layer_norm) a.ln2 = c.take(t * E), a.ln2_mean = c.take(t), a.ln2_rstd = c.take(t);
      a.fc = c.take(t * 4 * E), a.fc_act = c.take(t * 4 * E);
    }
    if (config_.layer_norm)
      w_.lnf = c.take(t * E), w_.lnf_mean = c.take(t), w_.lnf_rstd = c.take(t);
    w_.keys = cache_.ring() ? c.take(m * d) : nullptr;
    w_.values = cache_.ring() ? c.take(m * d) : nullptr;
    w_.weights = weights && cache_.ring() ? c.take(t * m) : nullptr;
    w_.scratch = c.take(scratch);
  };
  Carver count{nullptr};
  carve(count);
  if (!work_.reserve(count.used))
    return Status::error("out of memory: decoding " + std::to_string(t) + " tokens needs " +
                         std::to_string(count.used * sizeof(float)) + " bytes of activations");
  w_.layer = BlockActivations();
  Carver real{work_.data()};
  carve(real);
  return Status::success();
}

Status Decoder::append(const int32_t* tokens, size_t t, float* logits, float* attentions) {
  Status status = check(tokens, t);
  if (status.ok()) status = cache_.reserve(length_ + t);
  if (status.ok()) status = prepare(t, attentions != nullptr);
  if (!status.ok()) return status;
  const size_t E = config_.d_model, H = config_.num_heads, total = length_ + t;
  const float* p = model_->parameters();
  const ParameterLayout& layout = model_->layout();
  const float* wpe = layout.wpe == kAbsent ? nullptr : p + layout.wpe + length_ * E;
  embedding_forward(tokens, 1, t, p + layout.wte, wpe, E, w_.x[0]);
  for (size_t l = 0; l < config_.num_layers; ++l)
    run_layer(l, t, attentions ? attentions + l * H * t * total : nullptr);
  const float* x = w_.x[config_.num_layers % 2];
  if (config_.layer_norm) {
    layer_norm_forward(x, p + layout.lnf_w, p + layout.lnf_b, w_.lnf, w_.lnf_mean, w_.lnf_rstd, t,
                       E);
    x = w_.lnf;
  }
  unembed(x, t, logits);
  length_ = total;
  return Status::success();
}

void Decoder::run_layer(size_t layer, size_t t, float* attentions) {
  BlockShape s = transformer_block_shape(config_, 1, t);
  s.first_position = length_;
  const BlockTensors p = model_->block_tensors(model_->parameters(), layer);
  BlockActivations a = w_.layer;
  a.x_in = w_.x[layer % 2];
  a.x_out = w_.x[(layer + 1) % 2];
  if (!s.layer_norm) a.ln1 = const_cast<float*>(a.x_in);
  if (!s.mlp) a.x_mid = a.x_out;
  if (s.mlp && !s.layer_norm) a.ln2 = a.x_mid;
  block_qkv_forward(s, p, a, w_.scratch);
  attend_cache(layer, t, a.qkv, a.concat, attentions);
  block_output_forward(s, p, a);
}

// Key/value head g's rows of the chunk (rows of qkv, t of them): keys, or values with `values`.
static const float* chunk_rows(const BlockShape& s, const float* qkv, size_t g, bool values) {
  return qkv + s.E + ((values ? s.kv() : 0) + g) * s.head_dim();
}

// The keys and values key/value head g's queries read. In place (no ring, or a ring that has not
// wrapped) the chunk is written into the cache rows, which then hold the keys in position order
// (key j at position j); otherwise the `old` kept positions are copied out in position order and
// the chunk after them, and store_ring adds the chunk to the ring once the heads are done (writing
// it first would overwrite positions the chunk's first queries still see).
void Decoder::stage_keys(const BlockShape& s, size_t layer, size_t g, const float* qkv,
                         bool in_place, size_t old, HeadInputs& in) {
  const size_t d = s.head_dim(), W = s.qkv_width(), t = s.T, row = d * sizeof(float);
  float* cached[2] = {cache_.keys(layer, g), cache_.values(layer, g)};
  float* staged[2] = {w_.keys, w_.values};
  for (int part = 0; part < 2; ++part) {
    const float* chunk = chunk_rows(s, qkv, g, part == 1);
    if (in_place) {
      for (size_t i = 0; i < t; ++i)
        std::memcpy(cached[part] + (length_ + i) * d, chunk + i * W, row);
      continue;
    }
    const size_t first = length_ - old;
    for (size_t r = 0; r < old; ++r)
      std::memcpy(staged[part] + r * d, cached[part] + cache_.slot_of(first + r) * d, row);
    for (size_t i = 0; i < t; ++i) std::memcpy(staged[part] + (old + i) * d, chunk + i * W, row);
  }
  float* keys = in_place ? cached[0] : staged[0];
  float* values = in_place ? cached[1] : staged[1];
  in.k = {keys, old + t, d, d};
  in.v = {values, old + t, d, d};
}

// The chunk's last min(t, W) positions enter the ring, each in slot p mod W.
void Decoder::store_ring(const BlockShape& s, size_t layer, size_t g, const float* qkv) {
  const size_t d = s.head_dim(), W = s.qkv_width(), t = s.T;
  float* cached[2] = {cache_.keys(layer, g), cache_.values(layer, g)};
  for (int part = 0; part < 2; ++part) {
    const float* chunk = chunk_rows(s, qkv, g, part == 1);
    for (size_t i = t > cache_.window() ? t - cache_.window() : 0; i < t; ++i)
      std::memcpy(cached[part] + cache_.slot_of(length_ + i) * d, chunk + i * W, d * sizeof(float));
  }
}

// The chunk's keys and values join the cache, and each query head attends to its key/value head's
// cached positions: causal aligned lower-right, query i of the chunk at key index old + i. Weights
// asked for are placed at their positions in rows of length + t (0 before the first kept key).
void Decoder::attend_cache(size_t layer, size_t t, const float* qkv, float* concat,
                           float* attentions) {
  const BlockShape s = transformer_block_shape(config_, 1, t);
  const size_t d = s.head_dim(), group = s.heads / s.kv(), total = length_ + t;
  const bool in_place = !cache_.ring() || total <= cache_.window();
  const size_t old = in_place ? length_ : cache_.kept(length_);  // cached keys before the chunk
  const size_t m = old + t, first = total - m;                   // keys seen; position of key 0
  for (size_t g = 0; g < s.kv(); ++g) {
    HeadInputs in;
    stage_keys(s, layer, g, qkv, in_place, old, in);
    in.scale = 1.0f / std::sqrt(static_cast<float>(d));
    for (size_t h = g * group; h < (g + 1) * group; ++h) {
      in.q = {qkv + h * d, t, d, s.qkv_width()};
      in.masks = block_head_masks(s, h);
      in.masks.query_offset = static_cast<ptrdiff_t>(old);
      HeadOutputs out;
      out.output = {concat + h * d, t, d, s.E};
      float* placed = attentions ? attentions + h * t * total : nullptr;
      out.weights =
          placed && in_place ? placed : w_.weights;  // in place: m = total, key j = position j
      attend_head(in, out, w_.scratch);
      if (!placed || in_place) continue;
      for (size_t i = 0; i < t; ++i) {
        std::fill(placed + i * total, placed + i * total + first, 0.0f);
        std::memcpy(placed + i * total + first, w_.weights + i * m, m * sizeof(float));
      }
    }
    if (!in_place) store_ring(s, layer, g, qkv);
  }
}

// logits (t × V) = x · Uᵀ with U the tied wte or lm_head (V × E).
void Decoder::unembed(const float* x, size_t t, float* logits) {
  const size_t E = config_.d_model, V = config_.vocab_size;
  const ParameterLayout& layout = model_->layout();
  const float* u = model_->parameters() + (config_.tie_embeddings ? layout.wte : layout.lm_head);
  attn::unembed(x, u, logits, t, V, E, w_.scratch);
}

Status Decoder::copy_cache(size_t layer, float* keys, float* values, int32_t* positions) const {
  if (layer >= config_.num_layers)
    return Status::error("layer must be below numLayers (" + std::to_string(config_.num_layers) +
                         ")");
  const size_t d = config_.d_model / config_.num_heads, n = kept();
  for (size_t g = 0; g < kv_head_count(config_); ++g)
    if (n) {
      std::memcpy(keys + g * n * d, cache_.keys(layer, g), n * d * sizeof(float));
      std::memcpy(values + g * n * d, cache_.values(layer, g), n * d * sizeof(float));
    }
  for (size_t s = 0; s < n; ++s)
    positions[s] = static_cast<int32_t>(cache_.position_in_slot(s, length_));
  return Status::success();
}

}  // namespace attn
