// One pre-LN GPT-2 block, forward and backward, over B sequences of T tokens (N = B·T rows):
//   a = LN₁(x); qkv = a·W_attn + b_attn; heads: causal softmax(q·kᵀ/√d)·v; x_mid = x +
//   concat·W_proj + b_proj with an MLP: x_out = x_mid + GELU(LN₂(x_mid)·W_fc + b_fc)·W_fc_proj +
//   b_fc_proj
// Attention runs through attend_head on strided views of the fused qkv rows (ld = qkv_width()):
// E query columns, then the keys and the values of each key/value head. Query head h reads
// key/value head ⌊h / (heads / kv_heads)⌋ (grouped-query attention; Hugging Face's repeat_kv). RoPE
// turns the q and k columns in place after c_attn; ALiBi and the window are options of the head
// views.
#pragma once
#include <cstddef>

#include "attention_head.h"
#include "transformer_config.h"

namespace attn {

struct BlockShape {
  size_t batch = 0, T = 0, E = 0, heads = 0;
  bool layer_norm = true, mlp = true;
  size_t kv_heads = 0;  // 0: heads
  AttentionPositions positions = AttentionPositions::none;
  double rope_base = 10000.0;
  size_t window = 0;          // > 0: a sliding window of this many keys
  size_t first_position = 0;  // position of each sequence's first row (a decoder's length)
  size_t rows() const { return batch * T; }
  size_t head_dim() const { return E / heads; }
  size_t kv() const { return kv_heads ? kv_heads : heads; }
  size_t qkv_width() const { return E + 2 * kv() * head_dim(); }
  size_t kv_head_of(size_t h) const { return h / (heads / kv()); }
};

// The blocks of a model with this config over `batch` sequences of T tokens.
BlockShape transformer_block_shape(const TransformerConfig& config, size_t batch, size_t T);

// Causal mask, window and ALiBi slope of query head h (query_offset 0: queries and keys of one
// sequence; a decoder sets its own).
HeadMasks block_head_masks(const BlockShape& shape, size_t h);

// Parameters (or their gradients, same layout); null for parts the shape switches off.
struct BlockTensors {
  float* ln1_w = nullptr;
  float* ln1_b = nullptr;
  float* attn_w = nullptr;
  float* attn_b = nullptr;
  float* proj_w = nullptr;
  float* proj_b = nullptr;
  float* ln2_w = nullptr;
  float* ln2_b = nullptr;
  float* fc_w = nullptr;
  float* fc_b = nullptr;
  float* fc_proj_w = nullptr;
  float* fc_proj_b = nullptr;
};

// What the forward keeps for the backward. Without layer norm ln1 = x_in and ln2 = x_mid; without
// an MLP x_mid = x_out. att (B·H·T·T) may be null: the heads then stream, and keep only each row's
// log-sum-exp in row_lse (B·H·T) when it is given, which the streaming backward recomputes from.
struct BlockActivations {
  const float* x_in = nullptr;
  float* ln1 = nullptr;
  float* ln1_mean = nullptr;
  float* ln1_rstd = nullptr;
  float* qkv = nullptr;      // N × qkv_width (q and k after RoPE)
  float* att = nullptr;      // B × H × T × T
  float* row_lse = nullptr;  // B × H × T (streaming training)
  float* concat = nullptr;
  float* x_mid = nullptr;
  float* ln2 = nullptr;
  float* ln2_mean = nullptr;
  float* ln2_rstd = nullptr;
  float* fc = nullptr;      // N × 4E, before GELU
  float* fc_act = nullptr;  // N × 4E, after GELU
  float* x_out = nullptr;
};

// Gradient buffers the backward works in.
struct BlockScratch {
  float* d_ln = nullptr;      // N × E
  float* d_qkv = nullptr;     // N × qkv_width
  float* d_concat = nullptr;  // N × E
  float* d_fc = nullptr;      // N × 4E (with an MLP)
  float* work = nullptr;      // block_workspace_floats
};

size_t block_workspace_floats(const BlockShape& shape, bool backward, bool stream);

void block_forward(const BlockShape& shape, const BlockTensors& params, const BlockActivations& act,
                   float* workspace);

// The two halves of block_forward around the heads, for callers that run the heads themselves (the
// decoder, against its cache): a.qkv = c_attn(LN₁(x_in)) with RoPE at positions first_position + t;
// then x_out from a.concat (c_proj, residual, MLP). workspace: block_workspace_floats.
void block_qkv_forward(const BlockShape& shape, const BlockTensors& params,
                       const BlockActivations& act, float* workspace);
void block_output_forward(const BlockShape& shape, const BlockTensors& params,
                          const BlockActivations& act);

// d_residual holds ∂L/∂x_out on entry and ∂L/∂x_in on return; gradients are added into grads.
void block_backward(const BlockShape& shape, const BlockTensors& params,
                    const BlockActivations& act, const BlockTensors& grads, float* d_residual,
                    const BlockScratch& scratch);

}  // namespace attn
