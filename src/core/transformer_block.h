// One pre-LN GPT-2 block, forward and backward, over B sequences of T tokens (N = B·T rows):
//   a = LN₁(x); qkv = a·W_attn + b_attn; heads: causal softmax(q·kᵀ/√d)·v; x_mid = x + concat·W_proj + b_proj
//   with an MLP: x_out = x_mid + GELU(LN₂(x_mid)·W_fc + b_fc)·W_fc_proj + b_fc_proj
// Attention runs through attend_head on strided views of the fused qkv rows (ld = 3E).
#pragma once
#include <cstddef>

namespace attn {

struct BlockShape {
  size_t batch = 0, T = 0, E = 0, heads = 0;
  bool layer_norm = true, mlp = true;
  size_t rows() const { return batch * T; }
};

// Parameters (or their gradients, same layout); null for parts the shape switches off.
struct BlockTensors {
  float* ln1_w = nullptr; float* ln1_b = nullptr;
  float* attn_w = nullptr; float* attn_b = nullptr;
  float* proj_w = nullptr; float* proj_b = nullptr;
  float* ln2_w = nullptr; float* ln2_b = nullptr;
  float* fc_w = nullptr; float* fc_b = nullptr;
  float* fc_proj_w = nullptr; float* fc_proj_b = nullptr;
};

// What the forward keeps for the backward. Without layer norm ln1 = x_in and ln2 = x_mid; without
// an MLP x_mid = x_out. att (B·H·T·T) may be null: the heads then stream, and keep only each row's
// log-sum-exp in row_lse (B·H·T) when it is given, which the streaming backward recomputes from.
struct BlockActivations {
  const float* x_in = nullptr;
  float* ln1 = nullptr; float* ln1_mean = nullptr; float* ln1_rstd = nullptr;
  float* qkv = nullptr;   // N × 3E
  float* att = nullptr;   // B × H × T × T
  float* row_lse = nullptr;  // B × H × T (streaming training)
  float* concat = nullptr;
  float* x_mid = nullptr;
  float* ln2 = nullptr; float* ln2_mean = nullptr; float* ln2_rstd = nullptr;
  float* fc = nullptr;      // N × 4E, before GELU
  float* fc_act = nullptr;  // N × 4E, after GELU
  float* x_out = nullptr;
};

// Gradient buffers the backward works in.
struct BlockScratch {
  float* d_ln = nullptr;      // N × E
  float* d_qkv = nullptr;     // N × 3E
  float* d_concat = nullptr;  // N × E
  float* d_fc = nullptr;      // N × 4E (with an MLP)
  float* work = nullptr;      // block_workspace_floats
};

size_t block_workspace_floats(const BlockShape& shape, bool backward, bool stream);

void block_forward(const BlockShape& shape, const BlockTensors& params, const BlockActivations& act,
                   float* workspace);

// d_residual holds ∂L/∂x_out on entry and ∂L/∂x_in on return; gradients are added into grads.
void block_backward(const BlockShape& shape, const BlockTensors& params, const BlockActivations& act,
                    const BlockTensors& grads, float* d_residual, const BlockScratch& scratch);

}  // namespace attn
