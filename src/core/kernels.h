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
void matmul(const float* a, size_t lda, const float* b, size_t ldb, float* c, size_t ldc, size_t n,
            size_t m, size_t k, float alpha, bool accumulate);

// ---- Packed panels -------------------------------------------------------------------------
// A right-hand matrix B (rows × cols) packed as ceil(cols / kPanelWidth) panels of kPanelWidth
// columns. Panel j holds B[p][j·W + c] at panels[j·W·rows + p·W + c]: each panel is contiguous,
// one W-float row per p, and columns past `cols` are 0. A GEMM then streams B with unit stride
// and reuses each panel for every row of A. Rows [p0, p0 + k) of a packing are themselves a
// packing with the same panel stride: pass `panels + p0·W` and panel_rows = rows.
constexpr size_t kPanelWidth = 16;

inline size_t packed_floats(size_t rows, size_t cols) {
  return rows * ((cols + kPanelWidth - 1) / kPanelWidth) * kPanelWidth;
}

// Packs b (rows × cols, ldb).
void pack_panels(const float* b, size_t ldb, size_t rows, size_t cols, float* panels);

// Packs the transpose of bt (cols × rows, ldbt): keys K (m × dk) become panels of Kᵀ (dk × m).
void pack_panels_transposed(const float* bt, size_t ldbt, size_t rows, size_t cols, float* panels);

// c (n × m, ldc) = alpha · a (n × k, lda) · B (k × m, packed with panel_rows ≥ k)  [+ c]
void matmul_packed(const float* a, size_t lda, const float* panels, size_t panel_rows, float* c,
                   size_t ldc, size_t n, size_t m, size_t k, float alpha, bool accumulate);

// matmul_packed with alpha = 1 that also raises row_max[i] (set by the caller) to the largest
// value it writes in row i: the softmax's row max without another pass over the scores.
void matmul_packed_row_max(const float* a, size_t lda, const float* panels, size_t panel_rows,
                           float* c, size_t ldc, size_t n, size_t m, size_t k, float* row_max);

// ---- Vector helpers ------------------------------------------------------------------------
// out (cols × rows, ldo) = transpose of a (rows × cols, lda)
void transpose(const float* a, size_t lda, size_t rows, size_t cols, float* out, size_t ldo);

// y[i] += alpha · x[i]
void axpy(float* y, const float* x, size_t len, float alpha);

// x[i] *= s
void scale(float* x, size_t len, float s);

// Each of the rows of y (rows × cols, contiguous) += b (cols): a linear layer's bias.
void add_to_rows(float* y, const float* b, size_t rows, size_t cols);

// sums (cols) += the column sums of x (rows × cols, contiguous): a bias's gradient.
void add_column_sums(float* sums, const float* x, size_t rows, size_t cols);

// max over x; -infinity for an empty or fully -infinity row
float max_value(const float* x, size_t len);

// x[i] = exp(x[i] - shift), returns the sum. exp(-inf) is exactly 0, so masked keys get weight 0.
float exp_shifted_sum(float* x, size_t len, float shift);

// x[i] = exp(x[i]·s - shift), returns the sum: the softmax numerators of raw scores x with the
// scale folded in (shift = s · max x), for a scale s > 0. exp(-inf) is exactly 0.
float exp_scaled_shifted_sum(float* x, size_t len, float s, float shift);

// ---- Checks of values -------------------------------------------------------------------------
// The API's inputs are checked where they are, in WebAssembly memory, after JavaScript copied them
// there: a scan at memory speed instead of a JavaScript loop (~1 ns a value).

// x: (count) -> index of the first value that is NaN or ±infinity (−infinity passes when
// allow_negative_infinity, for additive masks), or count when there is none
size_t first_non_finite(const float* x, size_t count, bool allow_negative_infinity);

// x: (count) -> index of the first NaN, or count when there is none (a result whose scores
// overflowed float32)
size_t first_nan(const float* x, size_t count);

// ---- Softmax backward ----------------------------------------------------------------------
// sum over i of x[i] · y[i]
float dot(const float* x, const float* y, size_t len);

// out[i · ld_out + v] = x_i · u_v for the n rows of x and the V rows of u (len floats each): the
// unembedding of a few rows (a decode step), u read once from memory, in place.
void dot_rows(const float* x, size_t n, const float* u, size_t V, size_t len, float* out,
              size_t ld_out);

// d[i] = p[i] · (d[i] − delta): one row of the softmax's backward, dS = A ⊙ (dA − rowsum(dO ⊙ O)),
// in place over dA. Where p[i] is 0 (a hidden key) the result is +0 exactly, never −0.
void softmax_backward_row(const float* p, float* d, size_t len, float delta);

// ---- Causal attention of four sequences at once -----------------------------------------------
// Training at small sizes (T ≤ 128 tokens, heads of ≤ 16 features) spends its attention time on
// per-head overheads, not products: here four sequences of one head run side by side, sequence s
// in SIMD lane s, with no packing and no scalar tails. Sequence s reads q[s], k[s], v[s] (T × d,
// row stride ld_in) and, for the backward, its weights w[s] (T × T, contiguous), output o[s] and
// output gradient d_o[s] (T × d, row stride ld_out). Causal (query i sees keys j ≤ i), weights
// softmax(scale · q·kᵀ) exactly 0 above the diagonal.
struct FourSequences {
  const float* q[4];
  const float* k[4];
  const float* v[4];
  size_t ld_in;
};

// Floats of scratch both functions need.
size_t causal_attention_x4_scratch_floats(size_t T, size_t d);

// w[s] (T × T) = the weights; o[s] (T × d, row stride ld_out) = w[s]·v[s].
void causal_attention_x4(const FourSequences& in, size_t T, size_t d, float scale,
                         float* const w[4], float* const o[4], size_t ld_out, float* scratch);

// dq[s], dk[s], dv[s] (T × d, row stride ld_grad) = the gradients, added to what they hold when
// accumulate: dV = wᵀ·dO, dS = w ⊙ (dO·vᵀ − rowsum(dO ⊙ O)), dQ = scale·dS·k, dK = scale·dSᵀ·q.
void causal_attention_x4_backward(const FourSequences& in, size_t T, size_t d, float scale,
                                  const float* const w[4], const float* const o[4],
                                  const float* const d_o[4], size_t ld_out, float* const dq[4],
                                  float* const dk[4], float* const dv[4], size_t ld_grad,
                                  bool accumulate, float* scratch);

// ---- GELU (GPT-2's tanh form) ------------------------------------------------------------------
// out[i] = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))); out may be x.
void gelu_tanh(const float* x, float* out, size_t len);

// dx[i] = dout[i]·GELU′(x[i]); dx may be dout.
void gelu_tanh_backward(const float* x, const float* dout, float* dx, size_t len);

// ---- LayerNorm rows ------------------------------------------------------------------------
// Sum of x and sum of (x − mu)², each accumulated in double: LayerNorm's mean and variance in two
// passes, so that a row of large, nearly equal values keeps its variance.
double sum_double(const float* x, size_t len);
double squared_deviations_double(const float* x, size_t len, double mu);

// out[i] = (x[i] − mean)·rstd·w[i] + b[i]
void normalize_row(const float* x, size_t len, float mean, float rstd, const float* w,
                   const float* b, float* out);

// One row of LayerNorm's backward, with x̂ = (x − mean)·rstd and g = dout·w:
// dw += dout·x̂, db += dout, dx += rstd·(g − mean(g) − x̂·mean(g·x̂)), the two means in double.
void layer_norm_backward_row(const float* x, const float* dout, const float* w, float mean,
                             float rstd, size_t len, float* dw, float* db, float* dx);

}  // namespace attn::kernels
