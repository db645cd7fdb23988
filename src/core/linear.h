// A linear layer in GPT-2's Conv1D layout, y = x·W + b with W (in × out), and its backward, on
// the packed GEMM kernels. x, y, dy, dx are rows × features, contiguous.
#pragma once
#include <cstddef>

namespace attn {

// y (rows × out) = x (rows × in) · w (in × out) + b (b may be null).
void linear_forward(const float* x, const float* w, const float* b, float* y, size_t rows,
                    size_t in, size_t out);

// Floats of scratch linear_backward needs.
size_t linear_backward_scratch_floats(size_t rows, size_t in, size_t out);

// dx = dy·Wᵀ (dx may be null: not needed), dw += xᵀ·dy, db += column sums of dy (db may be null).
void linear_backward(const float* x, const float* w, const float* dy, float* dx, float* dw,
                     float* db, size_t rows, size_t in, size_t out, float* scratch);

// c (n × m) = a (n × k) · bᵀ, with b (m × k): logits = x·Uᵀ for the tied unembedding.
size_t matmul_transposed_scratch_floats(size_t m, size_t k);
void matmul_transposed(const float* a, const float* b, float* c, size_t n, size_t m, size_t k,
                       float* scratch);

// logits (n × V) = x (n × E) · Uᵀ, U (V × E) row-major (the tied wte or lm_head). Fewer than
// kUnembedPackRows rows need no scratch; more need unembed_scratch_floats(V, E) floats.
constexpr size_t kUnembedPackRows = 16;
size_t unembed_scratch_floats(size_t V, size_t E);
void unembed(const float* x, const float* u, float* logits, size_t n, size_t V, size_t E,
             float* scratch);

// c (k × m) += aᵀ·b, with a (n × k), b (n × m): a weight gradient.
size_t accumulate_at_b_scratch_floats(size_t n, size_t k);
void accumulate_at_b(const float* a, const float* b, float* c, size_t n, size_t k, size_t m,
                     float* scratch);

}  // namespace attn
