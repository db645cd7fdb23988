// The weight block of a multi-head layer (see multi_head_layer.h).
#include "multi_head_layer.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

namespace attn {

struct MultiHeadLayer {
  MultiHeadShape shape;
  size_t floats[kLayerWeightCount] = {};   // size of each weight
  size_t offsets[kLayerWeightCount] = {};  // where it starts in `data`
  float* data = nullptr;
};

namespace {

// a·b, or false when it does not fit in size_t (32 bits in WebAssembly).
bool multiply(size_t a, size_t b, size_t* out) {
  if (a != 0 && b > std::numeric_limits<size_t>::max() / a) return false;
  *out = a * b;
  return true;
}

bool add(size_t a, size_t b, size_t* out) {
  if (b > std::numeric_limits<size_t>::max() - a) return false;
  *out = a + b;
  return true;
}

bool valid_index(int index) { return index >= 0 && index < kLayerWeightCount; }

const Status kNoLayer = Status::error("this layer has no weights (it was disposed)");

Status check_weight(const MultiHeadLayer& layer, int index, const void* buffer, size_t count) {
  if (!valid_index(index)) return Status::error("unknown weight index " + std::to_string(index));
  if (layer.floats[index] == 0) return Status::error("this layer has no biases");
  if (count != layer.floats[index])
    return Status::error("weight " + std::to_string(index) + " holds " +
                         std::to_string(layer.floats[index]) + " values, got " +
                         std::to_string(count));
  if (!buffer) return Status::error("missing weight buffer");
  return Status::success();
}

}  // namespace

MultiHeadLayer* multi_head_layer_create(const MultiHeadShape& shape, Status* status) {
  *status = validate_multi_head_shape(shape);
  if (!status->ok()) return nullptr;
  const size_t E = shape.embed_dim;
  const size_t rows[4] = {E, shape.kdim, shape.vdim, E};
  size_t floats[kLayerWeightCount] = {};
  for (int i = 0; i < 4; ++i)
    if (!multiply(rows[i], E, &floats[i])) {
      *status = Status::error("the layer's weights are too large for WebAssembly memory");
      return nullptr;
    }
  if (shape.has_bias)
    for (int i = 4; i < kLayerWeightCount; ++i) floats[i] = E;
  size_t total = 0, bytes = 0;
  size_t offsets[kLayerWeightCount] = {};
  bool fits = true;
  for (int i = 0; i < kLayerWeightCount; ++i) {
    offsets[i] = total;
    fits = fits && add(total, floats[i], &total);
  }
  if (!fits || !multiply(total, sizeof(float), &bytes)) {
    *status = Status::error("the layer's weights are too large for WebAssembly memory");
    return nullptr;
  }
  auto* layer = new (std::nothrow) MultiHeadLayer();
  float* data = layer ? static_cast<float*>(std::calloc(total, sizeof(float))) : nullptr;
  if (!data) {
    delete layer;
    *status = Status::error("out of memory: the layer's weights need " + std::to_string(bytes) +
                            " bytes that WebAssembly memory cannot provide");
    return nullptr;
  }
  layer->shape = shape;
  layer->data = data;
  std::memcpy(layer->floats, floats, sizeof floats);
  std::memcpy(layer->offsets, offsets, sizeof offsets);
  return layer;
}

void multi_head_layer_destroy(MultiHeadLayer* layer) {
  if (!layer) return;
  std::free(layer->data);
  delete layer;
}

const MultiHeadShape& multi_head_layer_shape(const MultiHeadLayer& layer) { return layer.shape; }

MultiHeadWeights multi_head_layer_weights(const MultiHeadLayer& layer) {
  const float* w[kLayerWeightCount] = {};
  for (int i = 0; i < kLayerWeightCount; ++i)
    w[i] = layer.floats[i] ? layer.data + layer.offsets[i] : nullptr;
  return {w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]};
}

size_t multi_head_layer_weight_floats(const MultiHeadLayer& layer, int index) {
  return valid_index(index) ? layer.floats[index] : 0;
}

Status multi_head_layer_set_weight(MultiHeadLayer* layer, int index, const float* data,
                                   size_t count) {
  if (!layer) return kNoLayer;
  Status status = check_weight(*layer, index, data, count);
  if (status.ok()) std::memcpy(layer->data + layer->offsets[index], data, count * sizeof(float));
  return status;
}

Status multi_head_layer_get_weight(const MultiHeadLayer* layer, int index, float* out,
                                   size_t count) {
  if (!layer) return kNoLayer;
  Status status = check_weight(*layer, index, out, count);
  if (status.ok()) std::memcpy(out, layer->data + layer->offsets[index], count * sizeof(float));
  return status;
}

Status use_multi_head_layer(const MultiHeadLayer* layer, MultiHeadProblem* problem) {
  if (!layer) return kNoLayer;
  problem->shape = layer->shape;
  problem->weights = multi_head_layer_weights(*layer);
  return Status::success();
}

}  // namespace attn
