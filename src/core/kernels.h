// Dense float32 kernels: the only code that knows about SIMD. Two implementations share this
// header: kernels_xsimd.cpp (xsimd batches, WASM SIMD128 / SSE) and kernels_scalar.cpp (plain
// loops, for engines without SIMD). A build links exactly one of them. Kernels never allocate:
// callers pass every buffer.
#pragma once
#include <cstddef>

namespace attn::kernels {

// Which implementation is linked, e.g. "xsimd/sse4.1" or "scalar".
const char* variant_name();

// c (n × m, ldc) = alpha · a (n × k, lda) · b (k × m, ldb)   [+ c when accumulate]
void matmul(const float* a, size_t lda, const float* b, size_t ldb, float* c, size_t ldc,
            size_t n, size_t m, size_t k, float alpha, bool accumulate);

// out (cols × rows, ldo) = transpose of a (rows × cols, lda)
void transpose(const float* a, size_t lda, size_t rows, size_t cols, float* out, size_t ldo);

// y[i] += alpha · x[i]
void axpy(float* y, const float* x, size_t len, float alpha);

// x[i] *= s
void scale(float* x, size_t len, float s);

// max over x; -infinity for an empty or fully -infinity row
float max_value(const float* x, size_t len);

// x[i] = exp(x[i] - shift), returns the sum. exp(-inf) is exactly 0, so masked keys get weight 0.
float exp_shifted_sum(float* x, size_t len, float shift);

}  // namespace attn::kernels
