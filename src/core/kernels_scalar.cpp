// Plain-loop kernels for engines without SIMD. Loop orders keep the innermost access contiguous.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "kernels.h"

namespace attn::kernels {

const char* variant_name() { return "scalar"; }

void matmul(const float* a, size_t lda, const float* b, size_t ldb, float* c, size_t ldc, size_t n,
            size_t m, size_t k, float alpha, bool accumulate) {
  for (size_t i = 0; i < n; ++i) {
    float* ci = c + i * ldc;
    if (!accumulate) {
      for (size_t j = 0; j < m; ++j) ci[j] = 0.0f;
    }
    const float* ai = a + i * lda;
    // i-p-j order: one row of b at a time, added into the row of c.
    for (size_t p = 0; p < k; ++p) {
      const float s = alpha * ai[p];
      const float* bp = b + p * ldb;
      for (size_t j = 0; j < m; ++j) ci[j] += s * bp[j];
    }
  }
}

// Same panel layout as the SIMD build (the callers index into it), filled with plain loops.
void pack_panels(const float* b, size_t ldb, size_t rows, size_t cols, float* panels) {
  for (size_t j = 0; j < cols; j += kPanelWidth) {
    const size_t w = cols - j < kPanelWidth ? cols - j : kPanelWidth;
    float* dst = panels + j * rows;
    for (size_t p = 0; p < rows; ++p)
      for (size_t c = 0; c < kPanelWidth; ++c)
        dst[p * kPanelWidth + c] = c < w ? b[p * ldb + j + c] : 0.0f;
  }
}

void pack_panels_transposed(const float* bt, size_t ldbt, size_t rows, size_t cols, float* panels) {
  for (size_t j = 0; j < cols; j += kPanelWidth) {
    const size_t w = cols - j < kPanelWidth ? cols - j : kPanelWidth;
    float* dst = panels + j * rows;
    for (size_t p = 0; p < rows; ++p)
      for (size_t c = 0; c < kPanelWidth; ++c)
        dst[p * kPanelWidth + c] = c < w ? bt[(j + c) * ldbt + p] : 0.0f;
  }
}

void matmul_packed(const float* a, size_t lda, const float* panels, size_t panel_rows, float* c,
                   size_t ldc, size_t n, size_t m, size_t k, float alpha, bool accumulate) {
  for (size_t j = 0; j < m; j += kPanelWidth) {
    const size_t w = m - j < kPanelWidth ? m - j : kPanelWidth;
    const float* panel = panels + j * panel_rows;
    for (size_t i = 0; i < n; ++i) {
      float sum[kPanelWidth] = {};
      const float* ai = a + i * lda;
      for (size_t p = 0; p < k; ++p) {
        const float* bp = panel + p * kPanelWidth;
        for (size_t q = 0; q < kPanelWidth; ++q) sum[q] += ai[p] * bp[q];
      }
      float* ci = c + i * ldc + j;
      for (size_t q = 0; q < w; ++q) ci[q] = alpha * sum[q] + (accumulate ? ci[q] : 0.0f);
    }
  }
}

void matmul_packed_row_max(const float* a, size_t lda, const float* panels, size_t panel_rows,
                           float* c, size_t ldc, size_t n, size_t m, size_t k, float* row_max) {
  matmul_packed(a, lda, panels, panel_rows, c, ldc, n, m, k, 1.0f, false);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j)
      row_max[i] = c[i * ldc + j] > row_max[i] ? c[i * ldc + j] : row_max[i];
}

void transpose(const float* a, size_t lda, size_t rows, size_t cols, float* out, size_t ldo) {
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) out[j * ldo + i] = a[i * lda + j];
}

void axpy(float* y, const float* x, size_t len, float alpha) {
  for (size_t i = 0; i < len; ++i) y[i] += alpha * x[i];
}

void add_to_rows(float* y, const float* b, size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r, y += cols)
    for (size_t i = 0; i < cols; ++i) y[i] += b[i];
}

void add_column_sums(float* sums, const float* x, size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r, x += cols)
    for (size_t i = 0; i < cols; ++i) sums[i] += x[i];
}

void scale(float* x, size_t len, float s) {
  for (size_t i = 0; i < len; ++i) x[i] *= s;
}

float max_value(const float* x, size_t len) {
  float best = -std::numeric_limits<float>::infinity();
  for (size_t i = 0; i < len; ++i) best = x[i] > best ? x[i] : best;
  return best;
}

namespace {

uint32_t bits_of(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// Eight values per step on their bit patterns, flags OR-ed with no branch inside, so the all-good
// case runs without a compare-and-branch per value; the block with a bad value is rescanned.
template <typename Bad>
size_t first_bad_bits(const float* x, size_t count, Bad bad) {
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint32_t any = 0;
    for (size_t j = 0; j < 8; ++j) any |= uint32_t(bad(bits_of(x[i + j])));
    if (any) break;
  }
  for (; i < count; ++i)
    if (bad(bits_of(x[i]))) return i;
  return count;
}

constexpr uint32_t kExponent = 0x7f800000u;  // all ones: ±infinity or NaN
constexpr uint32_t kNegativeInfinity = 0xff800000u;

}  // namespace

size_t first_non_finite(const float* x, size_t count, bool allow_negative_infinity) {
  if (allow_negative_infinity)
    return first_bad_bits(x, count, [](uint32_t b) {
      return (b & kExponent) == kExponent && b != kNegativeInfinity;
    });
  return first_bad_bits(x, count, [](uint32_t b) { return (b & kExponent) == kExponent; });
}

size_t first_nan(const float* x, size_t count) {
  return first_bad_bits(x, count, [](uint32_t b) { return (b & 0x7fffffffu) > kExponent; });
}

float exp_shifted_sum(float* x, size_t len, float shift) {
  float sum = 0.0f;
  for (size_t i = 0; i < len; ++i) {
    x[i] = std::exp(x[i] - shift);
    sum += x[i];
  }
  return sum;
}

float exp_scaled_shifted_sum(float* x, size_t len, float s, float shift) {
  float sum = 0.0f;
  for (size_t i = 0; i < len; ++i) {
    x[i] = std::exp(x[i] * s - shift);
    sum += x[i];
  }
  return sum;
}

float dot(const float* x, const float* y, size_t len) {
  float sum = 0.0f;
  for (size_t i = 0; i < len; ++i) sum += x[i] * y[i];
  return sum;
}

void dot_rows(const float* x, size_t n, const float* u, size_t V, size_t len, float* out,
              size_t ld_out) {
  for (size_t v = 0; v < V; ++v)
    for (size_t i = 0; i < n; ++i) out[i * ld_out + v] = dot(x + i * len, u + v * len, len);
}

// Adding +0 turns the −0 of 0 · (negative) into +0 and leaves every other value unchanged.
void softmax_backward_row(const float* p, float* d, size_t len, float delta) {
  for (size_t i = 0; i < len; ++i) d[i] = p[i] * (d[i] - delta) + 0.0f;
}

size_t causal_attention_x4_scratch_floats(size_t T, size_t) { return T; }

// One sequence after another, in plain loops (the SIMD build runs the four in lanes).
void causal_attention_x4(const FourSequences& in, size_t T, size_t d, float scale,
                         float* const w[4], float* const o[4], size_t ld_out, float*) {
  for (size_t s = 0; s < 4; ++s) {
    const size_t ld = in.ld_in;
    for (size_t i = 0; i < T; ++i) {
      float* row = w[s] + i * T;
      float top = -std::numeric_limits<float>::infinity();
      for (size_t j = 0; j <= i; ++j) {
        float dot = 0.0f;
        for (size_t p = 0; p < d; ++p) dot += in.q[s][i * ld + p] * in.k[s][j * ld + p];
        row[j] = dot;
        top = dot > top ? dot : top;
      }
      const float shift = top * scale;
      float sum = 0.0f;
      for (size_t j = 0; j <= i; ++j) sum += (row[j] = std::exp(row[j] * scale - shift));
      float* oi = o[s] + i * ld_out;
      for (size_t p = 0; p < d; ++p) oi[p] = 0.0f;
      for (size_t j = 0; j <= i; ++j) {
        row[j] /= sum;
        for (size_t p = 0; p < d; ++p) oi[p] += row[j] * in.v[s][j * ld + p];
      }
      for (size_t j = i + 1; j < T; ++j) row[j] = 0.0f;
    }
  }
}

void causal_attention_x4_backward(const FourSequences& in, size_t T, size_t d, float scale,
                                  const float* const w[4], const float* const o[4],
                                  const float* const d_o[4], size_t ld_out, float* const dq[4],
                                  float* const dk[4], float* const dv[4], size_t ld_grad,
                                  bool accumulate, float* delta) {
  const size_t ld = in.ld_in;
  for (size_t s = 0; s < 4; ++s) {
    if (!accumulate)
      for (size_t i = 0; i < T; ++i)
        for (size_t p = 0; p < d; ++p)
          dq[s][i * ld_grad + p] = dk[s][i * ld_grad + p] = dv[s][i * ld_grad + p] = 0.0f;
    for (size_t i = 0; i < T; ++i) {
      delta[i] = 0.0f;
      for (size_t p = 0; p < d; ++p) delta[i] += d_o[s][i * ld_out + p] * o[s][i * ld_out + p];
    }
    for (size_t i = 0; i < T; ++i)
      for (size_t j = 0; j <= i; ++j) {
        const float a = w[s][i * T + j];
        float dp = 0.0f;
        for (size_t p = 0; p < d; ++p) dp += d_o[s][i * ld_out + p] * in.v[s][j * ld + p];
        const float ds = a * (dp - delta[i]) * scale;
        for (size_t p = 0; p < d; ++p) {
          dq[s][i * ld_grad + p] += ds * in.k[s][j * ld + p];
          dk[s][j * ld_grad + p] += ds * in.q[s][i * ld + p];
          dv[s][j * ld_grad + p] += a * d_o[s][i * ld_out + p];
        }
      }
  }
}

namespace {
constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kGeluCubic = 0.044715f;
}  // namespace

void gelu_tanh(const float* x, float* out, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    const float v = x[i];
    out[i] = 0.5f * v * (1.0f + std::tanh(kSqrt2OverPi * (v + kGeluCubic * v * v * v)));
  }
}

void gelu_tanh_backward(const float* x, const float* dout, float* dx, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    const float v = x[i];
    const float t = std::tanh(kSqrt2OverPi * (v + kGeluCubic * v * v * v));
    const float du = kSqrt2OverPi * (1.0f + 3.0f * kGeluCubic * v * v);
    dx[i] = dout[i] * (0.5f * (1.0f + t) + 0.5f * v * (1.0f - t * t) * du);
  }
}

double sum_double(const float* x, size_t len) {
  double sum = 0.0;
  for (size_t i = 0; i < len; ++i) sum += x[i];
  return sum;
}

double squared_deviations_double(const float* x, size_t len, double mu) {
  double sum = 0.0;
  for (size_t i = 0; i < len; ++i) sum += (x[i] - mu) * (x[i] - mu);
  return sum;
}

void normalize_row(const float* x, size_t len, float mean, float rstd, const float* w,
                   const float* b, float* out) {
  for (size_t i = 0; i < len; ++i) out[i] = (x[i] - mean) * rstd * w[i] + b[i];
}

void layer_norm_backward_row(const float* x, const float* dout, const float* w, float mean,
                             float rstd, size_t len, float* dw, float* db, float* dx) {
  double g_sum = 0.0, gx_sum = 0.0;
  for (size_t i = 0; i < len; ++i) {
    const float xhat = (x[i] - mean) * rstd;
    const float g = dout[i] * w[i];
    g_sum += g;
    gx_sum += double(g) * xhat;
    dw[i] += dout[i] * xhat;
    db[i] += dout[i];
  }
  const float a = static_cast<float>(g_sum / double(len));
  const float bb = static_cast<float>(gx_sum / double(len));
  for (size_t i = 0; i < len; ++i) {
    const float xhat = (x[i] - mean) * rstd;
    dx[i] += rstd * (dout[i] * w[i] - a - xhat * bb);
  }
}

}  // namespace attn::kernels
