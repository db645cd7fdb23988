// xsimd kernels. In the WebAssembly build xsimd targets SSE4.1, which Emscripten lowers to WASM
// SIMD128 (f32x4). Every loop is a batch loop followed by a scalar tail, so any size works.
#include <xsimd/xsimd.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "kernels.h"

namespace attn::kernels {
namespace {

using Batch = xsimd::batch<float>;
constexpr size_t kWidth = Batch::size;

// c[R rows × CB·kWidth cols] = alpha · a[R × k] · b[k × CB·kWidth] (+ c). The accumulators stay in
// registers for the whole k loop: R·CB of them, well under the 16 vector registers V8 gives WASM.
template <size_t R, size_t CB>
inline void micro_kernel(const float* a, size_t lda, const float* b, size_t ldb, float* c,
                         size_t ldc, size_t k, float alpha, bool accumulate) {
  Batch acc[R][CB];
  for (size_t r = 0; r < R; ++r)
    for (size_t q = 0; q < CB; ++q) acc[r][q] = Batch(0.0f);
  for (size_t p = 0; p < k; ++p) {
    Batch bp[CB];
    for (size_t q = 0; q < CB; ++q) bp[q] = Batch::load_unaligned(b + p * ldb + q * kWidth);
    for (size_t r = 0; r < R; ++r) {
      const Batch ar(a[r * lda + p]);
      for (size_t q = 0; q < CB; ++q) acc[r][q] = xsimd::fma(ar, bp[q], acc[r][q]);
    }
  }
  const Batch scale(alpha);
  for (size_t r = 0; r < R; ++r)
    for (size_t q = 0; q < CB; ++q) {
      float* out = c + r * ldc + q * kWidth;
      Batch v = acc[r][q] * scale;
      if (accumulate) v += Batch::load_unaligned(out);
      v.store_unaligned(out);
    }
}

// Columns that do not fill a batch.
inline void scalar_columns(const float* a, size_t lda, const float* b, size_t ldb, float* c,
                           size_t ldc, size_t rows, size_t j0, size_t m, size_t k, float alpha,
                           bool accumulate) {
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = j0; j < m; ++j) {
      float sum = 0.0f;
      for (size_t p = 0; p < k; ++p) sum += a[i * lda + p] * b[p * ldb + j];
      c[i * ldc + j] = alpha * sum + (accumulate ? c[i * ldc + j] : 0.0f);
    }
}

template <size_t R>
inline void row_block(const float* a, size_t lda, const float* b, size_t ldb, float* c, size_t ldc,
                      size_t m, size_t k, float alpha, bool accumulate) {
  size_t j = 0;
  for (; j + 2 * kWidth <= m; j += 2 * kWidth)
    micro_kernel<R, 2>(a, lda, b + j, ldb, c + j, ldc, k, alpha, accumulate);
  for (; j + kWidth <= m; j += kWidth)
    micro_kernel<R, 1>(a, lda, b + j, ldb, c + j, ldc, k, alpha, accumulate);
  if (j < m) scalar_columns(a, lda, b, ldb, c, ldc, R, j, m, k, alpha, accumulate);
}

}  // namespace

const char* variant_name() {
  static const std::string name = std::string("xsimd/") + xsimd::default_arch::name();
  return name.c_str();
}

void matmul(const float* a, size_t lda, const float* b, size_t ldb, float* c, size_t ldc,
            size_t n, size_t m, size_t k, float alpha, bool accumulate) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    row_block<4>(a + i * lda, lda, b, ldb, c + i * ldc, ldc, m, k, alpha, accumulate);
  for (; i < n; ++i) row_block<1>(a + i * lda, lda, b, ldb, c + i * ldc, ldc, m, k, alpha, accumulate);
}

void transpose(const float* a, size_t lda, size_t rows, size_t cols, float* out, size_t ldo) {
  // Memory-bound and small next to the matmuls it feeds; a plain loop is enough.
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) out[j * ldo + i] = a[i * lda + j];
}

void axpy(float* y, const float* x, size_t len, float alpha) {
  const Batch s(alpha);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth)
    xsimd::fma(s, Batch::load_unaligned(x + i), Batch::load_unaligned(y + i)).store_unaligned(y + i);
  for (; i < len; ++i) y[i] += alpha * x[i];
}

void scale(float* x, size_t len, float s) {
  const Batch sb(s);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth) (Batch::load_unaligned(x + i) * sb).store_unaligned(x + i);
  for (; i < len; ++i) x[i] *= s;
}

float max_value(const float* x, size_t len) {
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  float best = kNegInf;
  size_t i = 0;
  if (len >= kWidth) {
    Batch acc(kNegInf);
    for (; i + kWidth <= len; i += kWidth) acc = xsimd::max(acc, Batch::load_unaligned(x + i));
    float lanes[kWidth];
    acc.store_unaligned(lanes);
    for (float v : lanes) best = v > best ? v : best;
  }
  for (; i < len; ++i) best = x[i] > best ? x[i] : best;
  return best;
}

float exp_shifted_sum(float* x, size_t len, float shift) {
  const Batch sb(shift);
  Batch acc(0.0f);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth) {
    const Batch e = xsimd::exp(Batch::load_unaligned(x + i) - sb);
    e.store_unaligned(x + i);
    acc += e;
  }
  float sum = xsimd::hadd(acc);
  for (; i < len; ++i) {
    x[i] = std::exp(x[i] - shift);
    sum += x[i];
  }
  return sum;
}

}  // namespace attn::kernels
