// Float64 attention with first-order float32 error bounds, for comparing the fast paths against
// attn::reference with tolerances that follow each problem's conditioning (the same model as
// tests/js/support/float64-reference.mjs; see there for the derivation). u = 2⁻²⁴.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace fuzz {

constexpr double kU = 1.0 / 16777216.0;
constexpr double kMinNormal = 1.1754943508222875e-38;  // 2⁻¹²⁶
constexpr double kUnderflow =
    1.4012984643248171e-45;  // 2⁻¹⁴⁹: absolute error of an op that underflows
constexpr double kSafety = 4.0;

struct HeadBounds {
  std::vector<double> scores, e_scores, scaled, e_scaled, masked, e_masked;
  std::vector<double> weights, e_weights, output, e_output;
  std::vector<uint8_t> fully_masked;
  double max_score_magnitude = 0.0;  // max of scale·Σ|q·k| + |bias|: float32 overflow guard
};

// q (n × d, row stride ldq), k (m × d), v (m × dv) with optional error bounds eq/ek/ev (same
// layout). hidden(i, j) → key hidden from query i; bias(i, j) → additive bias (−∞ hides).
template <typename Q, typename Hidden, typename Bias>
HeadBounds head_bounds(size_t n, size_t m, size_t d, size_t dv, const Q* q, const double* eq,
                       size_t ldq, const Q* k, const double* ek, size_t ldk, const Q* v,
                       const double* ev, size_t ldv, double scale, double scale_rel, Hidden hidden,
                       Bias bias) {
  const double inf = std::numeric_limits<double>::infinity();
  HeadBounds h;
  for (auto* vec : {&h.scores, &h.e_scores, &h.scaled, &h.e_scaled, &h.masked, &h.e_masked,
                    &h.weights, &h.e_weights})
    vec->assign(n * m, 0.0);
  h.output.assign(n * dv, 0.0);
  h.e_output.assign(n * dv, 0.0);
  h.fully_masked.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    double row_max = -inf, delta = 0.0;
    for (size_t j = 0; j < m; ++j) {
      double dot = 0.0, mag = 0.0, in_err = 0.0;
      for (size_t c = 0; c < d; ++c) {
        const double a = q[i * ldq + c], b = k[j * ldk + c];
        dot += a * b;
        mag += std::fabs(a * b);
        if (eq) in_err += eq[i * ldq + c] * std::fabs(b);
        if (ek) in_err += std::fabs(a) * ek[j * ldk + c];
      }
      const size_t x = i * m + j;
      h.scores[x] = dot;
      h.e_scores[x] = double(d) * (kU * mag + kUnderflow) + in_err;
      h.scaled[x] = dot * scale;
      h.e_scaled[x] = scale * h.e_scores[x] + (kU + scale_rel) * std::fabs(h.scaled[x]);
      const double b = bias(i, j);
      h.max_score_magnitude = std::max(h.max_score_magnitude,
                                       scale * (mag + in_err) + (b == -inf ? 0.0 : std::fabs(b)));
      if (hidden(i, j) || b == -inf) {
        h.masked[x] = -inf;
        continue;
      }
      h.masked[x] = h.scaled[x] + b;
      h.e_masked[x] = h.e_scaled[x] + kU * std::fabs(h.masked[x]);
      row_max = std::max(row_max, h.masked[x]);
      delta = std::max(delta, h.e_masked[x]);
    }
    if (row_max == -inf) {
      h.fully_masked[i] = 1;
      continue;
    }
    double* w = &h.weights[i * m];
    const double* z = &h.masked[i * m];
    double sum = 0.0, mean_shift = 0.0;
    for (size_t j = 0; j < m; ++j) sum += (w[j] = std::exp(z[j] - row_max));
    for (size_t j = 0; j < m; ++j) {
      w[j] /= sum;
      if (w[j] > 0) mean_shift += w[j] * (row_max - z[j]);
    }
    const double log_sum = std::log(sum);
    for (size_t j = 0; j < m; ++j) {
      if (z[j] == -inf) continue;
      // Bound L on the error of log p_j; e^L − 1 rather than L keeps it valid when L is large.
      const double L = 2 * delta + kU * ((row_max - z[j]) + mean_shift) + (m + 8) * kU;
      const double err =
          w[j] > 1e-300 ? w[j] * std::expm1(L) : std::exp(z[j] - row_max - log_sum + L);
      h.e_weights[i * m + j] = kMinNormal + std::min(1.0, err);
    }
    for (size_t c = 0; c < dv; ++c) {
      double acc = 0.0, err = 0.0, mag = 0.0;
      for (size_t j = 0; j < m; ++j) {
        if (z[j] == -inf) continue;
        const double val = v[j * ldv + c];
        acc += w[j] * val;
        mag += w[j] * std::fabs(val);
        err += h.e_weights[i * m + j] * std::fabs(val) + (ev ? w[j] * ev[j * ldv + c] : 0.0);
      }
      h.output[i * dv + c] = acc;
      h.e_output[i * dv + c] = err + (m + 2) * (kU * mag + kUnderflow);
    }
  }
  return h;
}

// Index of the first element off by more than kSafety·bound + 2⁻¹²⁶ (equal infinities match,
// NaN never does), or count when all agree.
template <typename A>
size_t first_mismatch(const A* actual, const double* expected, const double* bound, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const double a = actual[i], e = expected[i];
    if (a == e) continue;
    if (!(std::fabs(a - e) <= kSafety * bound[i] + kMinNormal)) return i;
  }
  return count;
}

}  // namespace fuzz
