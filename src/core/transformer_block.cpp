#include "transformer_block.h"

#include <algorithm>
#include <cmath>

#include "attention_head.h"
#include "gelu.h"
#include "kernels.h"
#include "layer_norm.h"
#include "linear.h"

namespace attn {
namespace {

// Head h of sequence b reads columns [h·d, (h+1)·d) of the q, k and v blocks of the fused qkv rows.
HeadInputs head_inputs(const BlockShape& s, const float* qkv, size_t b, size_t h) {
  const size_t E = s.E, d = E / s.heads, T = s.T;
  const float* base = qkv + b * T * 3 * E + h * d;
  HeadInputs in;
  in.q = {base, T, d, 3 * E};
  in.k = {base + E, T, d, 3 * E};
  in.v = {base + 2 * E, T, d, 3 * E};
  in.scale = 1.0f / std::sqrt(static_cast<float>(d));
  in.masks.causal = true;
  return in;
}

MatrixView head_columns(const BlockShape& s, float* rows_e, size_t b, size_t h) {
  const size_t d = s.E / s.heads;
  return {rows_e + b * s.T * s.E + h * d, s.T, d, s.E};
}

void attention_forward(const BlockShape& s, const BlockActivations& a, float* workspace) {
  for (size_t b = 0; b < s.batch; ++b)
    for (size_t h = 0; h < s.heads; ++h) {
      HeadOutputs out;
      out.output = head_columns(s, a.concat, b, h);
      if (a.att) out.weights = a.att + (b * s.heads + h) * s.T * s.T;
      if (a.row_lse) out.row_lse = a.row_lse + (b * s.heads + h) * s.T;
      attend_head(head_inputs(s, a.qkv, b, h), out, workspace);
    }
}

void add_residual(float* x, const float* residual, size_t count) { kernels::axpy(x, residual, count, 1.0f); }

}  // namespace

size_t block_workspace_floats(const BlockShape& s, bool backward, bool stream) {
  const size_t N = s.rows(), E = s.E, d = E / s.heads;
  size_t floats = head_workspace_floats(s.T, s.T, d, d, stream);
  if (backward) {
    floats = std::max(floats, head_backward_workspace_floats(s.T, s.T, d, d, stream));
    floats = std::max(floats, linear_backward_scratch_floats(N, E, 3 * E));
    floats = std::max(floats, linear_backward_scratch_floats(N, E, E));
    if (s.mlp) {
      floats = std::max(floats, linear_backward_scratch_floats(N, E, 4 * E));
      floats = std::max(floats, linear_backward_scratch_floats(N, 4 * E, E));
    }
  }
  return floats;
}

void block_forward(const BlockShape& s, const BlockTensors& p, const BlockActivations& a,
                   float* workspace) {
  const size_t N = s.rows(), E = s.E;
  if (s.layer_norm) layer_norm_forward(a.x_in, p.ln1_w, p.ln1_b, a.ln1, a.ln1_mean, a.ln1_rstd, N, E);
  linear_forward(a.ln1, p.attn_w, p.attn_b, a.qkv, N, E, 3 * E);
  attention_forward(s, a, workspace);
  linear_forward(a.concat, p.proj_w, p.proj_b, a.x_mid, N, E, E);
  add_residual(a.x_mid, a.x_in, N * E);
  if (!s.mlp) return;
  if (s.layer_norm) layer_norm_forward(a.x_mid, p.ln2_w, p.ln2_b, a.ln2, a.ln2_mean, a.ln2_rstd, N, E);
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
  linear_backward(a.fc_act, p.fc_proj_w, d_residual, sc.d_fc, g.fc_proj_w, g.fc_proj_b, N, 4 * E, E, sc.work);
  gelu_backward(a.fc, sc.d_fc, sc.d_fc, N * 4 * E);
  linear_backward(a.ln2, p.fc_w, sc.d_fc, sc.d_ln, g.fc_w, g.fc_b, N, E, 4 * E, sc.work);
  norm_backward(s, a.x_mid, p.ln2_w, a.ln2_mean, a.ln2_rstd, sc.d_ln, g.ln2_w, g.ln2_b, d_residual);
}

void attention_backward(const BlockShape& s, const BlockActivations& a, const BlockScratch& sc) {
  for (size_t b = 0; b < s.batch; ++b)
    for (size_t h = 0; h < s.heads; ++h) {
      const HeadInputs in = head_inputs(s, a.qkv, b, h);
      HeadGradInputs grad_in;
      grad_in.output = head_columns(s, a.concat, b, h);
      grad_in.d_output = head_columns(s, sc.d_concat, b, h);
      if (a.att)
        grad_in.weights = a.att + (b * s.heads + h) * s.T * s.T;
      else
        grad_in.row_lse = a.row_lse + (b * s.heads + h) * s.T;
      const size_t d = s.E / s.heads, ld = 3 * s.E;
      float* base = sc.d_qkv + b * s.T * ld + h * d;
      HeadGradOutputs grad_out;
      grad_out.dq = {base, s.T, d, ld};
      grad_out.dk = {base + s.E, s.T, d, ld};
      grad_out.dv = {base + 2 * s.E, s.T, d, ld};
      attend_head_backward(in, grad_in, grad_out, sc.work);
    }
}

}  // namespace

void block_backward(const BlockShape& s, const BlockTensors& p, const BlockActivations& a,
                    const BlockTensors& g, float* d_residual, const BlockScratch& sc) {
  const size_t N = s.rows(), E = s.E;
  if (s.mlp) mlp_backward(s, p, a, g, d_residual, sc);
  // d_residual is now ∂L/∂x_mid, which also flows straight through the attention's residual.
  linear_backward(a.concat, p.proj_w, d_residual, sc.d_concat, g.proj_w, g.proj_b, N, E, E, sc.work);
  attention_backward(s, a, sc);
  linear_backward(a.ln1, p.attn_w, sc.d_qkv, sc.d_ln, g.attn_w, g.attn_b, N, E, 3 * E, sc.work);
  norm_backward(s, a.x_in, p.ln1_w, a.ln1_mean, a.ln1_rstd, sc.d_ln, g.ln1_w, g.ln1_b, d_residual);
}

}  // namespace attn
