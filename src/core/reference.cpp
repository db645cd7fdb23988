#include "reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "float64_linear.h"

namespace attn::reference {
namespace {

using float64::linear;

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Where the causal mask and the window are aligned: query i sits at key position i (top-left) or
// i + m − n (lower-right).
struct Alignment {
  bool causal = false;
  size_t window = 0;
  bool lower_right = false;
  size_t n = 0;
};

bool hidden(const Alignment& a, const uint8_t* mask, const uint8_t* key_padding, size_t i, size_t j,
            size_t m) {
  const double p = double(i) + (a.lower_right ? double(m) - double(a.n) : 0.0);
  const double key = double(j);
  return (a.causal && key > p) || (a.window && key <= p - double(a.window)) ||
         (mask && mask[i * m + j]) || (key_padding && key_padding[j]);
}

// Softmax of one row in double; an all -inf row becomes all zeros.
bool softmax_row(const double* in, double* out, size_t m) {
  double mx = kNegInf;
  for (size_t j = 0; j < m; ++j) mx = std::max(mx, in[j]);
  if (mx == kNegInf) {
    for (size_t j = 0; j < m; ++j) out[j] = 0.0;
    return true;
  }
  double sum = 0.0;
  for (size_t j = 0; j < m; ++j) sum += (out[j] = std::exp(in[j] - mx));
  for (size_t j = 0; j < m; ++j) out[j] /= sum;
  return false;
}

}  // namespace

AttentionReference scaled_dot_product_attention(const AttentionProblem& p) {
  const size_t B = p.batch, n = p.n, m = p.m, nm = n * m;
  AttentionReference r;
  r.output.assign(B * n * p.dv, 0.0);
  r.weights.assign(B * nm, 0.0);
  r.scores.assign(B * nm, 0.0);
  r.scaled.assign(B * nm, 0.0);
  r.masked.assign(B * nm, 0.0);
  r.fully_masked_rows.assign(B * n, 0);
  for (size_t b = 0; b < B; ++b) {
    const float* q = p.q + b * n * p.dk;
    const float* k = p.k + b * m * p.dk;
    const float* v = p.v + b * m * p.dv;
    const uint8_t* mask = p.mask ? p.mask + (p.mask_per_batch ? b * nm : 0) : nullptr;
    const float* bias = p.bias ? p.bias + (p.bias_per_batch ? b * nm : 0) : nullptr;
    const uint8_t* pad = p.key_padding ? p.key_padding + b * m : nullptr;
    for (size_t i = 0; i < n; ++i) {
      const size_t row = b * nm + i * m;
      for (size_t j = 0; j < m; ++j) {
        double dot = 0.0;
        for (size_t c = 0; c < p.dk; ++c) dot += double(q[i * p.dk + c]) * double(k[j * p.dk + c]);
        r.scores[row + j] = dot;
        r.scaled[row + j] = dot * double(p.scale);
        const double biased = r.scaled[row + j] + (bias ? double(bias[i * m + j]) : 0.0);
        r.masked[row + j] =
            hidden({p.causal, p.window, p.lower_right, n}, mask, pad, i, j, m) ? kNegInf : biased;
      }
      r.fully_masked_rows[b * n + i] = softmax_row(&r.masked[row], &r.weights[row], m);
      for (size_t c = 0; c < p.dv; ++c) {
        double sum = 0.0;
        for (size_t j = 0; j < m; ++j) sum += r.weights[row + j] * double(v[j * p.dv + c]);
        r.output[(b * n + i) * p.dv + c] = sum;
      }
    }
  }
  return r;
}

MultiHeadReference multi_head_attention(const MultiHeadProblem& p) {
  const size_t B = p.batch, n = p.n, m = p.m, E = p.shape.embed_dim, H = p.shape.num_heads;
  const size_t d = E / H, nm = n * m;
  const MultiHeadWeights& w = p.weights;
  MultiHeadReference r;
  r.q_proj = linear(p.query, B * n, E, w.wq, w.bq, E);
  r.k_proj = linear(p.key, B * m, p.shape.kdim, w.wk, w.bk, E);
  r.v_proj = linear(p.value, B * m, p.shape.vdim, w.wv, w.bv, E);
  r.weights.assign(B * H * nm, 0.0);
  r.averaged_weights.assign(B * nm, 0.0);
  r.concat.assign(B * n * E, 0.0);
  r.fully_masked_rows.assign(B * n, 0);
  const double scale = p.scale > 0.0f ? double(p.scale) : 1.0 / std::sqrt(double(d));
  std::vector<double> scores(m);
  for (size_t b = 0; b < B; ++b) {
    const uint8_t* pad = p.key_padding ? p.key_padding + b * m : nullptr;
    for (size_t h = 0; h < H; ++h)
      for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < m; ++j) {
          double dot = 0.0;
          for (size_t c = 0; c < d; ++c)
            dot += r.q_proj[(b * n + i) * E + h * d + c] * r.k_proj[(b * m + j) * E + h * d + c];
          const double biased = dot * scale + (p.bias ? double(p.bias[i * m + j]) : 0.0);
          scores[j] = hidden({p.causal, p.window, p.lower_right, n}, p.mask, pad, i, j, m) ? kNegInf
                                                                                           : biased;
        }
        double* weights = &r.weights[((b * H + h) * n + i) * m];
        r.fully_masked_rows[b * n + i] = softmax_row(scores.data(), weights, m);
        for (size_t j = 0; j < m; ++j) r.averaged_weights[b * nm + i * m + j] += weights[j] / H;
        for (size_t c = 0; c < d; ++c) {
          double sum = 0.0;
          for (size_t j = 0; j < m; ++j) sum += weights[j] * r.v_proj[(b * m + j) * E + h * d + c];
          r.concat[(b * n + i) * E + h * d + c] = sum;
        }
      }
  }
  r.output = linear(r.concat.data(), B * n, E, w.wo, w.bo, E);
  return r;
}

AttentionGradReference scaled_dot_product_attention_backward(const AttentionProblem& p,
                                                             const float* d_output) {
  const size_t B = p.batch, n = p.n, m = p.m, dk = p.dk, dv = p.dv;
  const AttentionReference fwd = scaled_dot_product_attention(p);
  AttentionGradReference r;
  r.output = fwd.output;
  r.weights = fwd.weights;
  r.d_q.assign(B * n * dk, 0.0);
  r.d_k.assign(B * m * dk, 0.0);
  r.d_v.assign(B * m * dv, 0.0);
  r.d_scores.assign(B * n * m, 0.0);
  const double scale = p.scale;
  std::vector<double> d_a(m);
  for (size_t b = 0; b < B; ++b) {
    const float* q = p.q + b * n * dk;
    const float* k = p.k + b * m * dk;
    const float* v = p.v + b * m * dv;
    const float* d_o = d_output + b * n * dv;
    const double* a = &fwd.weights[b * n * m];
    double* d_s = &r.d_scores[b * n * m];
    for (size_t i = 0; i < n; ++i) {
      double a_dot_da = 0.0;
      for (size_t j = 0; j < m; ++j) {
        double sum = 0.0;
        for (size_t c = 0; c < dv; ++c) sum += double(d_o[i * dv + c]) * double(v[j * dv + c]);
        d_a[j] = sum;
        a_dot_da += sum * a[i * m + j];
      }
      for (size_t j = 0; j < m; ++j) d_s[i * m + j] = a[i * m + j] * (d_a[j] - a_dot_da);
    }
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < m; ++j) {
        const double s = d_s[i * m + j], w = a[i * m + j];
        for (size_t c = 0; c < dk; ++c) {
          r.d_q[(b * n + i) * dk + c] += scale * s * double(k[j * dk + c]);
          r.d_k[(b * m + j) * dk + c] += scale * s * double(q[i * dk + c]);
        }
        for (size_t c = 0; c < dv; ++c) r.d_v[(b * m + j) * dv + c] += w * double(d_o[i * dv + c]);
      }
  }
  return r;
}

namespace {

// Backward of y = x·w + b for x (rows × in), w (in × out): dx = dy·wᵀ, dw = xᵀ·dy, db = Σ dy.
template <typename X>
void linear_backward(const X* x, size_t rows, size_t in, const float* w, size_t out,
                     const std::vector<double>& dy, bool bias, std::vector<double>& dx,
                     std::vector<double>& dw, std::vector<double>& db) {
  dx.assign(rows * in, 0.0);
  dw.assign(in * out, 0.0);
  db.assign(bias ? out : 0, 0.0);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < out; ++c) {
      const double g = dy[r * out + c];
      if (bias) db[c] += g;
      for (size_t p = 0; p < in; ++p) {
        dx[r * in + p] += g * double(w[p * out + c]);
        dw[p * out + c] += double(x[r * in + p]) * g;
      }
    }
}

}  // namespace

MultiHeadGradReference multi_head_attention_backward(const MultiHeadProblem& p,
                                                     const float* d_output) {
  const size_t B = p.batch, n = p.n, m = p.m, E = p.shape.embed_dim, H = p.shape.num_heads;
  const size_t d = E / H;
  const MultiHeadWeights& w = p.weights;
  const MultiHeadReference fwd = multi_head_attention(p);
  const double scale = p.scale > 0.0f ? double(p.scale) : 1.0 / std::sqrt(double(d));
  MultiHeadGradReference r;
  r.output = fwd.output;
  const std::vector<double> d_out(d_output, d_output + B * n * E);
  std::vector<double> d_concat;
  linear_backward(fwd.concat.data(), B * n, E, w.wo, E, d_out, w.bo != nullptr, d_concat, r.d_wo,
                  r.d_bo);
  std::vector<double> dq(B * n * E, 0.0), dk(B * m * E, 0.0), dv(B * m * E, 0.0), d_a(m);
  for (size_t b = 0; b < B; ++b)
    for (size_t h = 0; h < H; ++h) {
      const double* a = &fwd.weights[(b * H + h) * n * m];
      for (size_t i = 0; i < n; ++i) {
        const double* g = &d_concat[(b * n + i) * E + h * d];
        double a_dot_da = 0.0;
        for (size_t j = 0; j < m; ++j) {
          double sum = 0.0;
          for (size_t c = 0; c < d; ++c) sum += g[c] * fwd.v_proj[(b * m + j) * E + h * d + c];
          d_a[j] = sum;
          a_dot_da += sum * a[i * m + j];
        }
        for (size_t j = 0; j < m; ++j) {
          const double ds = a[i * m + j] * (d_a[j] - a_dot_da);
          for (size_t c = 0; c < d; ++c) {
            dq[(b * n + i) * E + h * d + c] += scale * ds * fwd.k_proj[(b * m + j) * E + h * d + c];
            dk[(b * m + j) * E + h * d + c] += scale * ds * fwd.q_proj[(b * n + i) * E + h * d + c];
            dv[(b * m + j) * E + h * d + c] += a[i * m + j] * g[c];
          }
        }
      }
    }
  linear_backward(p.query, B * n, E, w.wq, E, dq, w.bq != nullptr, r.d_query, r.d_wq, r.d_bq);
  linear_backward(p.key, B * m, p.shape.kdim, w.wk, E, dk, w.bk != nullptr, r.d_key, r.d_wk,
                  r.d_bk);
  linear_backward(p.value, B * m, p.shape.vdim, w.wv, E, dv, w.bv != nullptr, r.d_value, r.d_wv,
                  r.d_bv);
  return r;
}

}  // namespace attn::reference
