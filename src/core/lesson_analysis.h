// Numbers the lessons show next to attention itself: why √dk (the spread of random dot products),
// how peaked a softmax row is (entropy), and what attention costs. Plain functions on caller-owned
// buffers, like the rest of the core.
#pragma once
#include <cstddef>
#include <cstdint>

#include "status.h"

namespace attn {

struct Moments {
  double mean = 0.0;
  double std = 0.0;  // population standard deviation
};

// Draws `count` pairs (q, k) of standard-normal vectors of length dk from NumPy's generator seeded
// with `seed` (q first, then k, as randn(dk) twice) and writes q·k to raw[i] and q·k/√dk to
// scaled[i].
Status sample_dot_products(uint32_t seed, size_t dk, size_t count, double* raw, double* scaled);

Moments moments(const double* values, size_t count);

// counts[b] = number of values in bin b of `bins` equal bins over [lo, hi]; values outside are
// clamped into the first or last bin, so the counts always add up to `count`.
Status histogram(const double* values, size_t count, size_t bins, double lo, double hi,
                 uint32_t* counts);

// Per row of a (rows × cols) weight matrix: entropy −Σ p·ln p in nats (0·ln 0 = 0), the largest
// weight and the row sum. Any output may be null.
void row_statistics(const float* weights, size_t rows, size_t cols, float* entropy, float* max,
                    float* sum);

// out = softmax(scale · scores) row by row (numerically stable; a row of −inf becomes zeros).
Status softmax_rows(const float* scores, size_t rows, size_t cols, float scale, float* out);

struct AttentionCost {
  double parameters = 0;              // of the multi-head layer (independent of the head count)
  double projection_flops = 0;        // Q, K, V and output projections: O(n·d²)
  double score_flops = 0;             // Q·Kᵀ and weights·V over all heads: O(n·m·d)
  double softmax_flops = 0;           // scale, max, exp, sum, divide: O(h·n·m)
  double attention_matrix_bytes = 0;  // h weight matrices of n × m float32: O(h·n·m)
};

// Multiply–adds count as 2 FLOPs. Self-attention when m == n.
Status attention_cost(size_t n, size_t m, size_t d_model, size_t num_heads, bool bias,
                      AttentionCost* cost);

}  // namespace attn
