#include "linear.h"

#include <algorithm>

#include "kernels.h"

namespace attn {

void linear_forward(const float* x, const float* w, const float* b, float* y, size_t rows,
                    size_t in, size_t out) {
  kernels::matmul(x, in, w, out, y, out, rows, out, in, 1.0f, false);
  if (b) kernels::add_to_rows(y, b, rows, out);
}

size_t matmul_transposed_scratch_floats(size_t m, size_t k) { return kernels::packed_floats(k, m); }

// bᵀ (k × m) is packed straight from b's rows, so no transposed copy of b is made.
void matmul_transposed(const float* a, const float* b, float* c, size_t n, size_t m, size_t k,
                       float* scratch) {
  kernels::pack_panels_transposed(b, k, k, m, scratch);
  kernels::matmul_packed(a, k, scratch, k, c, m, n, m, k, 1.0f, false);
}

// The unembedding packs Uᵀ this many vocabulary columns at a time (a multiple of the panel width),
// so its scratch stays small: packing all of U at once would copy V × E floats on every forward
// (154 MB for GPT-2 small; as much as the whole parameter block for a vocabulary-sized model).
// Measured natively on GPT-2 small's 50257 × 768 unembedding at 1, 32 and 256 rows: no slower than
// packing all of U (within the noise of a shared machine).
constexpr size_t kUnembedColumns = 2048;

size_t unembed_scratch_floats(size_t V, size_t E) {
  return kernels::packed_floats(E, std::min(V, kUnembedColumns));
}

// Few rows (a decode step, the last position's logits) take dot products with U's rows, read once
// in place: packing Uᵀ would copy all of U, for GPT-2 154 MB, to unembed one row.
void unembed(const float* x, const float* u, float* logits, size_t n, size_t V, size_t E,
             float* scratch) {
  if (n < kUnembedPackRows) return kernels::dot_rows(x, n, u, V, E, logits, V);
  for (size_t v0 = 0; v0 < V; v0 += kUnembedColumns) {
    const size_t cols = std::min(kUnembedColumns, V - v0);
    kernels::pack_panels_transposed(u + v0 * E, E, E, cols, scratch);
    kernels::matmul_packed(x, E, scratch, E, logits + v0, V, n, cols, E, 1.0f, false);
  }
}

size_t accumulate_at_b_scratch_floats(size_t n, size_t k) { return n * k; }

namespace {

// out (cols × rows) = aᵀ in small tiles. Rows of out are `rows` floats apart, for a batch of
// tokens often a multiple of 4 KiB, so every row of out falls in the same cache set: a plain
// loop writing all `cols` rows at once evicted its own lines and took 12 % of a training step.
// A tile writes only 8 rows of out.
void transpose_tiled(const float* a, size_t rows, size_t cols, float* out) {
  constexpr size_t kTileRows = 32, kTileCols = 8;
  for (size_t j0 = 0; j0 < cols; j0 += kTileCols)
    for (size_t i0 = 0; i0 < rows; i0 += kTileRows)
      kernels::transpose(a + i0 * cols + j0, cols, std::min(kTileRows, rows - i0),
                         std::min(kTileCols, cols - j0), out + j0 * rows + i0, rows);
}

}  // namespace

// aᵀ is made explicitly (k × n) so that the GEMM reads both operands row by row.
void accumulate_at_b(const float* a, const float* b, float* c, size_t n, size_t k, size_t m,
                     float* scratch) {
  transpose_tiled(a, n, k, scratch);
  kernels::matmul(scratch, n, b, m, c, m, k, m, n, 1.0f, true);
}

size_t linear_backward_scratch_floats(size_t rows, size_t in, size_t out) {
  return std::max(matmul_transposed_scratch_floats(in, out),
                  accumulate_at_b_scratch_floats(rows, in));
}

void linear_backward(const float* x, const float* w, const float* dy, float* dx, float* dw,
                     float* db, size_t rows, size_t in, size_t out, float* scratch) {
  if (dx) matmul_transposed(dy, w, dx, rows, in, out, scratch);  // dy (rows × out) · Wᵀ
  accumulate_at_b(x, dy, dw, rows, in, out, scratch);
  if (db) kernels::add_column_sums(db, dy, rows, out);
}

}  // namespace attn
