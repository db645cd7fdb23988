// A multi-head layer's weights in one block that records the layer's shape next to them, so a
// caller holding only the block (JavaScript, through an address) cannot make the core read or
// write past it: every weight size comes from the block, never from the caller.
#pragma once
#include <cstddef>

#include "multi_head_attention.h"
#include "status.h"

namespace attn {

struct MultiHeadLayer;  // opaque: shape, weight count and the weights

// Weights in the order of MultiHeadWeights: wq, wk, wv, wo (in, out), then bq, bk, bv, bo (E).
constexpr int kLayerWeightCount = 8;

// A new layer with zero weights, or nullptr with `status` set (bad shape, too large for size_t,
// out of memory). Free it with multi_head_layer_destroy.
MultiHeadLayer* multi_head_layer_create(const MultiHeadShape& shape, Status* status);
void multi_head_layer_destroy(MultiHeadLayer* layer);

const MultiHeadShape& multi_head_layer_shape(const MultiHeadLayer& layer);
MultiHeadWeights multi_head_layer_weights(const MultiHeadLayer& layer);
// Floats of weight `index` (0 for a bias of a layer without biases, or an unknown index).
size_t multi_head_layer_weight_floats(const MultiHeadLayer& layer, int index);

// Copies `count` floats into / out of weight `index`; `count` must be that weight's size.
// A null layer (a disposed one) is an error, as in use_multi_head_layer.
Status multi_head_layer_set_weight(MultiHeadLayer* layer, int index, const float* data,
                                   size_t count);
Status multi_head_layer_get_weight(const MultiHeadLayer* layer, int index, float* out,
                                   size_t count);

// Fills problem->shape and problem->weights from the layer, so a forward pass reads exactly the
// weights the block holds.
Status use_multi_head_layer(const MultiHeadLayer* layer, MultiHeadProblem* problem);

}  // namespace attn
