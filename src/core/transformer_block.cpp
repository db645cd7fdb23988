#include "transformer_block.h"

#include <algorithm>
#include <cmath>

#include "attention_head.h"
#include "attention_positions.h"
#include "gelu.h"
#include "kernels.h"
#include "layer_norm.h"
#include "linear.h"

namespace attn {
namespace {

// Head h of sequence b reads query columns [h·d, (h+1)·d) and the key and value columns of its
// key/value head g: [E + g·d, …) and [E + kv·d + g·d, …).
HeadInputs head_inputs(const BlockShape& s, const float* qkv, size_t b, size_t h) {
  const size_t E = s.E, d = s.head_dim(), T = s.T, W = s.qkv_width(), g = s.kv_head_of(h);
  const float* rows = qkv + b * T * W;
  HeadInputs in;
  in.q = {rows + h * d, T, d, W};
  in.k = {rows + E + g * d, T, d, W};
  in.v = {rows + E + (s.kv() + g) * d, T, d, W};
  in.scale = 1.0f / std::sqrt(static_cast<float>(d));
  in.masks = block_head_masks(s, h);
  return in;
}

// RoPE on the q and k columns of every sequence (inverse: carries their gradients back).
void rope_qk(const BlockShape& s, float* qkv, bool inverse, float* scratch) {
  if (s.positions != AttentionPositions::rope) return;
  const size_t W = s.qkv_width(), d = s.head_dim();
  for (size_t b = 0; b < s.batch; ++b) {
    float* rows = qkv + b * s.T * W;
    rope_rotate_rows(rows, s.T, W, s.heads, d, nullptr, double(s.first_position), s.rope_base,
                     inverse, scratch);
    rope_rotate_rows(rows + s.E, s.T, W, s.kv(), d, nullptr, double(s.first_position), s.rope_base,
                     inverse, scratch);
  }
}

MatrixView head_columns(const BlockShape& s, float* rows_e, size_t b, size_t h) {
  const size_t d = s.head_dim();
  return {rows_e + b * s.T * s.E + h * d, s.T, d, s.E};
}

// Four sequences of a head at once (kernels::causal_attention_x4) where that applies: weights kept
// (training's materialized path, or asked for), a plain causal mask (no window, no ALiBi) and small
// heads (≤ 16 features, ≤ 128 tokens), where per-head overheads took most of the attention's time.
constexpr size_t kLaneMaxHeadDim = 16, kLaneMaxTokens = 128, kLanes = 4;

bool lanes_apply(const BlockShape& s, bool weights) {
  return weights && s.window == 0 && s.positions != AttentionPositions::alibi &&
         s.head_dim() <= kLaneMaxHeadDim && s.T <= kLaneMaxTokens && s.batch >= kLanes;
}

// Sequences [b0, b0 + 4) of head h: q, k, v columns in qkv rows.
kernels::FourSequences four_sequences(const BlockShape& s, const float* qkv, size_t b0, size_t h) {
  kernels::FourSequences in;
  for (size_t l = 0; l < kLanes; ++l) {
    const HeadInputs one = head_inputs(s, qkv, b0 + l, h);
    in.q[l] = one.q.data, in.k[l] = one.k.data, in.v[l] = one.v.data;
  }
  in.ld_in = s.qkv_width();
  return in;
}

// The four-lane forward for every whole group of four sequences; returns the first sequence left.
size_t attention_forward_lanes(const BlockShape& s, const BlockActivations& a, float* workspace) {
  const size_t T = s.T, d = s.head_dim(),
               groups = lanes_apply(s, a.att != nullptr) ? s.batch / kLanes : 0;
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  for (size_t g = 0; g < groups; ++g)
    for (size_t h = 0; h < s.heads; ++h) {
      float* w[kLanes];
      float* o[kLanes];
      for (size_t l = 0; l < kLanes; ++l) {
        const size_t b = g * kLanes + l;
        w[l] = a.att + (b * s.heads + h) * T * T;
        o[l] = head_columns(s, a.concat, b, h).data;
      }
      kernels::causal_attention_x4(four_sequences(s, a.qkv, g * kLanes, h), T, d, scale, w, o, s.E,
                                   workspace);
    }
  return groups * kLanes;
}

void attention_forward(const BlockShape& s, const BlockActivations& a, float* workspace) {
  for (size_t b = attention_forward_lanes(s, a, workspace); b < s.batch; ++b)
    for (size_t h = 0; h < s.heads; ++h) {
      HeadOutputs out;
      out.output = head_columns(s, a.concat, b, h);
      if (a.att) out.weights = a.att + (b * s.heads + h) * s.T * s.T;
      if (a.row_lse) out.row_lse = a.row_lse + (b * s.heads + h) * s.T;
      attend_head(head_inputs(s, a.qkv, b, h), out, workspace);
    }
}

void add_residual(float* x, const float* residual, size_t count) {
  kernels::axpy(x, residual, count, 1.0f);
}

}  // namespace

BlockShape transformer_block_shape(const TransformerConfig& c, size_t batch, size_t T) {
  BlockShape s;
  s.batch = batch, s.T = T, s.E = c.d_model, s.heads = c.num_heads;
  s.layer_norm = c.layer_norm, s.mlp = c.mlp;
  s.kv_heads = kv_head_count(c);
  s.positions = c.attention_positions;
  s.rope_base = c.rope_base;
  s.window = c.attention_window;
  return s;
}

HeadMasks block_head_masks(const BlockShape& s, size_t h) {
  HeadMasks masks;
  masks.causal = true;
  masks.window = s.window;
  if (s.positions == AttentionPositions::alibi) masks.alibi_slope = float(alibi_slope(h, s.heads));
  return masks;
}

size_t block_workspace_floats(const BlockShape& s, bool backward, bool stream) {
  const size_t N = s.rows(), E = s.E, d = s.head_dim();
  size_t floats = std::max(head_workspace_floats(s.T, s.T, d, d, stream), rope_scratch_floats(d));
  if (lanes_apply(s, true))
    floats = std::max(floats, kernels::causal_attention_x4_scratch_floats(s.T, d));
  if (backward) {
    floats = std::max(floats, head_backward_workspace_floats(s.T, s.T, d, d, stream));
    floats = std::max(floats, linear_backward_scratch_floats(N, E, s.qkv_width()));
    floats = std::max(floats, linear_backward_scratch_floats(N, E, E));
    if (s.mlp) {
      floats = std::max(floats, linear_backward_scratch_floats(N, E, 4 * E));
      floats = std::max(floats, linear_backward_scratch_floats(N, 4 * E, E));
    }
  }
  return floats;
}

void block_qkv_forward(const BlockShape& s, const BlockTensors& p, const BlockActivations& a,
                       float* workspace) {
  const size_t N = s.rows(), E = s.E;
  if (s.layer_norm)
    layer_norm_forward(a.x_in, p.ln1_w, p.ln1_b, a.ln1, a.ln1_mean, a.ln1_rstd, N, E);
  linear_forward(a.ln1, p.attn_w, p.attn_b, a.qkv, N, E, s.qkv_width());
  rope_qk(s, a.qkv, false, workspace);
}

void block_forward(const BlockShape& s, const BlockTensors& p, const BlockActivations& a,
                   float* workspace) {
  block_qkv_forward(s, p, a, workspace);
  attention_forward(s, a, workspace);
  block_output_forward(s, p, a);
}

void block_output_forward(const BlockShape& s, const BlockTensors& p, const BlockActivations& a) {
  const size_t N = s.rows(), E = s.E;
  linear_forward(a.concat, p.proj_w, p.proj_b, a.x_mid, N, E, E);
  add_residual(a.x_mid, a.x_in, N * E);
  if (!s.mlp) return;
  if (s.layer_norm)
    layer_norm_forward(a.x_mid, p.ln2_w, p.ln2_b, a.ln2, a.ln2_mean, a.ln2_rstd, N, E);
  linear_forward(a.ln2, p.fc_w, p.fc_b, a.fc, N, E, 4 * E);
  gelu_forward(a.fc, a.fc_act, N * 4 * E);
  linear_forward(a.fc_act, p.fc_proj_w, p.fc_proj_b, a.x_out, N, 4 * E, E);
  add_residual(a.x_out, a.x_mid, N * E);
}

namespace {

// ∂L/∂x of a = LN(x) (or a = x without layer norm), added into d_residual.
void norm_backward(const BlockShape& s, const float* x, const float* w, const float* mean,
                   const float* rstd, const float* d_a, float* dw, float* db, float* d_residual) {
  const size_t N = s.rows(), E = s.E;
  if (s.layer_norm)
    layer_norm_backward(x, w, mean, rstd, d_a, d_residual, dw, db, N, E);
  else
    kernels::axpy(d_residual, d_a, N * E, 1.0f);
}

void mlp_backward(const BlockShape& s, const BlockTensors& p, const BlockActivations& a,
                  const BlockTensors& g, float* d_residual, const BlockScratch& sc) {
  const size_t N = s.rows(), E = s.E;
  linear_backward(a.fc_act, p.fc_proj_w, d_residual, sc.d_fc, g.fc_proj_w, g.fc_proj_b, N, 4 * E, E,
                  sc.work);
  gelu_backward(a.fc, sc.d_fc, sc.d_fc, N * 4 * E);
  linear_backward(a.ln2, p.fc_w, sc.d_fc, sc.d_ln, g.fc_w, g.fc_b, N, E, 4 * E, sc.work);
  norm_backward(s, a.x_mid, p.ln2_w, a.ln2_mean, a.ln2_rstd, sc.d_ln, g.ln2_w, g.ln2_b, d_residual);
}

// Query heads that share a key/value head add their dK and dV into the same columns, so with
// grouped heads d_qkv starts at 0 and every head accumulates.
// The four-lane backward for every whole group of four sequences; returns the first sequence left.
size_t attention_backward_lanes(const BlockShape& s, const BlockActivations& a,
                                const BlockScratch& sc, bool grouped) {
  const size_t T = s.T, d = s.head_dim(), ld = s.qkv_width();
  const size_t groups = lanes_apply(s, a.att != nullptr) ? s.batch / kLanes : 0;
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  for (size_t g = 0; g < groups; ++g)
    for (size_t h = 0; h < s.heads; ++h) {
      const float* w[kLanes];
      const float* o[kLanes];
      const float* d_o[kLanes];
      float* dq[kLanes];
      float* dk[kLanes];
      float* dv[kLanes];
      for (size_t l = 0; l < kLanes; ++l) {
        const size_t b = g * kLanes + l, kv = s.kv_head_of(h);
        float* rows = sc.d_qkv + b * T * ld;
        w[l] = a.att + (b * s.heads + h) * T * T;
        o[l] = head_columns(s, a.concat, b, h).data;
        d_o[l] = head_columns(s, sc.d_concat, b, h).data;
        dq[l] = rows + h * d, dk[l] = rows + s.E + kv * d, dv[l] = rows + s.E + (s.kv() + kv) * d;
      }
      kernels::causal_attention_x4_backward(four_sequences(s, a.qkv, g * kLanes, h), T, d, scale, w,
                                            o, d_o, s.E, dq, dk, dv, ld, grouped, sc.work);
    }
  return groups * kLanes;
}

void attention_backward(const BlockShape& s, const BlockActivations& a, const BlockScratch& sc) {
  const bool grouped = s.kv() < s.heads;
  if (grouped) std::fill(sc.d_qkv, sc.d_qkv + s.rows() * s.qkv_width(), 0.0f);
  for (size_t b = attention_backward_lanes(s, a, sc, grouped); b < s.batch; ++b)
    for (size_t h = 0; h < s.heads; ++h) {
      const HeadInputs in = head_inputs(s, a.qkv, b, h);
      HeadGradInputs grad_in;
      grad_in.output = head_columns(s, a.concat, b, h);
      grad_in.d_output = head_columns(s, sc.d_concat, b, h);
      if (a.att)
        grad_in.weights = a.att + (b * s.heads + h) * s.T * s.T;
      else
        grad_in.row_lse = a.row_lse + (b * s.heads + h) * s.T;
      const size_t d = s.head_dim(), ld = s.qkv_width(), g = s.kv_head_of(h);
      float* rows = sc.d_qkv + b * s.T * ld;
      HeadGradOutputs grad_out;
      grad_out.dq = {rows + h * d, s.T, d, ld};
      grad_out.dk = {rows + s.E + g * d, s.T, d, ld};
      grad_out.dv = {rows + s.E + (s.kv() + g) * d, s.T, d, ld};
      grad_out.accumulate = grouped;
      attend_head_backward(in, grad_in, grad_out, sc.work);
    }
}

}  // namespace

void block_backward(const BlockShape& s, const BlockTensors& p, const BlockActivations& a,
                    const BlockTensors& g, float* d_residual, const BlockScratch& sc) {
  const size_t N = s.rows(), E = s.E;
  if (s.mlp) mlp_backward(s, p, a, g, d_residual, sc);
  // d_residual is now ∂L/∂x_mid, which also flows straight through the attention's residual.
  linear_backward(a.concat, p.proj_w, d_residual, sc.d_concat, g.proj_w, g.proj_b, N, E, E,
                  sc.work);
  attention_backward(s, a, sc);
  rope_qk(s, sc.d_qkv, true, sc.work);
  linear_backward(a.ln1, p.attn_w, sc.d_qkv, sc.d_ln, g.attn_w, g.attn_b, N, E, s.qkv_width(),
                  sc.work);
  norm_backward(s, a.x_in, p.ln1_w, a.ln1_mean, a.ln1_rstd, sc.d_ln, g.ln1_w, g.ln1_b, d_residual);
}

}  // namespace attn
