// Float64 gradients of one attention head with first-order float32 error bounds, built on the
// forward's bounds (error_bounds.h). With A the weights, O the output and dO the incoming gradient:
//   dA = dO·Vᵀ;  δ = rowsum(dA ⊙ A) = rowsum(dO ⊙ O);  dS = A ⊙ (dA − δ)
//   dQ = scale·dS·K;  dK = scale·dSᵀ·Q;  dV = Aᵀ·dO
// Each bound adds the error carried in from A (e_weights) and O (e_output) to the rounding of the
// sums that follow. δ is bounded for both ways of computing it, so a kernel may use either.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

#include "error_bounds.h"

namespace fuzz {

struct HeadGradBounds {
  std::vector<double> d_scores, e_d_scores;  // n × m
  std::vector<double> d_q, e_d_q;            // n × dk
  std::vector<double> d_k, e_d_k;            // m × dk
  std::vector<double> d_v, e_d_v;            // m × dv
  double magnitude = 0.0;                    // largest partial sum: float32 overflow guard
};

namespace detail {

// dS and its bound, row by row.
inline void score_grads(const HeadBounds& h, size_t n, size_t m, size_t dv, const float* v,
                        const float* d_o, HeadGradBounds& g) {
  g.d_scores.assign(n * m, 0.0);
  g.e_d_scores.assign(n * m, 0.0);
  std::vector<double> d_a(m), e_d_a(m);
  for (size_t i = 0; i < n; ++i) {
    const double* a = &h.weights[i * m];
    const double* e_a = &h.e_weights[i * m];
    double delta = 0.0, delta_mag = 0.0, e_delta = 0.0;
    for (size_t j = 0; j < m; ++j) {
      double dot = 0.0, mag = 0.0;
      for (size_t c = 0; c < dv; ++c) {
        const double prod = double(d_o[i * dv + c]) * double(v[j * dv + c]);
        dot += prod;
        mag += std::fabs(prod);
      }
      d_a[j] = dot;
      e_d_a[j] = dv * (kU * mag + kUnderflow);
      g.magnitude = std::max(g.magnitude, mag);
      delta += a[j] * dot;
      delta_mag += a[j] * std::fabs(dot);
      e_delta += e_a[j] * std::fabs(dot) + a[j] * e_d_a[j];
    }
    // The other way round: rowsum(dO ⊙ O), with O's own error.
    for (size_t c = 0; c < dv; ++c) {
      const double o = h.output[i * dv + c], d = d_o[i * dv + c];
      e_delta += std::fabs(d) * h.e_output[i * dv + c];
      delta_mag += std::fabs(d * o);
    }
    e_delta += (m + dv + 2) * (kU * delta_mag + kUnderflow);
    for (size_t j = 0; j < m; ++j) {
      const double diff = d_a[j] - delta;
      const size_t x = i * m + j;
      g.d_scores[x] = a[j] * diff;
      g.e_d_scores[x] = e_a[j] * std::fabs(diff) + a[j] * (e_d_a[j] + e_delta) +
                        3 * kU * a[j] * (std::fabs(d_a[j]) + std::fabs(delta)) + kUnderflow;
    }
  }
}

// y (rows × cols) = scale · Σ_t x[t]·w[t] where x is a row (or column, `x_transposed`) of dS
// (bounds e_x) and w a row of `w` (rows of length cols): dQ, dK, and dV with dS := A, w := dO.
inline void product(size_t rows, size_t cols, size_t inner, const std::vector<double>& x,
                    const std::vector<double>& e_x, bool x_transposed, size_t x_stride,
                    const float* w, double scale, std::vector<double>& y, std::vector<double>& e_y,
                    double& magnitude) {
  y.assign(rows * cols, 0.0);
  e_y.assign(rows * cols, 0.0);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) {
      double acc = 0.0, mag = 0.0, carried = 0.0;
      for (size_t t = 0; t < inner; ++t) {
        const size_t xi = x_transposed ? t * x_stride + r : r * x_stride + t;
        const double wv = w[t * cols + c];
        acc += x[xi] * wv;
        mag += std::fabs(x[xi] * wv);
        carried += e_x[xi] * std::fabs(wv);
      }
      y[r * cols + c] = scale * acc;
      e_y[r * cols + c] = scale * (carried + (inner + 2) * (kU * mag + kUnderflow));
      magnitude = std::max(magnitude, scale * (mag + carried));
    }
}

}  // namespace detail

// One batch item: q (n × dk), k (m × dk), v (m × dv), d_o (n × dv), h its forward's bounds.
inline HeadGradBounds head_grad_bounds(const HeadBounds& h, size_t n, size_t m, size_t dk,
                                       size_t dv, const float* q, const float* k, const float* v,
                                       const float* d_o, double scale) {
  HeadGradBounds g;
  detail::score_grads(h, n, m, dv, v, d_o, g);
  detail::product(n, dk, m, g.d_scores, g.e_d_scores, false, m, k, scale, g.d_q, g.e_d_q,
                  g.magnitude);
  detail::product(m, dk, n, g.d_scores, g.e_d_scores, true, m, q, scale, g.d_k, g.e_d_k,
                  g.magnitude);
  detail::product(m, dv, n, h.weights, h.e_weights, true, m, d_o, 1.0, g.d_v, g.e_d_v, g.magnitude);
  return g;
}

}  // namespace fuzz
