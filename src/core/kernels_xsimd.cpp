// xsimd kernels. In the WebAssembly build xsimd targets SSE4.1, which Emscripten lowers to WASM
// SIMD128 (f32x4). Every loop is a batch loop followed by a scalar tail, so any size works.
//
// GEMM design, measured in V8 (Node 20) on the target machine: V8 gives WASM 16 vector registers
// and no FMA, and it neither unrolls nor schedules loops. The fastest micro-kernel found holds a
// 2 × 16 block of C in 8 accumulators, broadcasts one A value per row and reads 16 B values from a
// packed panel each step: ≈ 37–38 GFLOP/s on a 2.45 GHz EPYC core, ~95 % of its 4-wide rate of
// 2 multiplies + 2 adds per cycle. 4 × 8 is as fast; taller blocks (6 × 8, 3 × 16) spill, and
// unrolling the k loop (by hand or by clang) lets clang hoist loads ahead and V8 then spills,
// losing 30–40 %. So the k loop below stays plain on purpose.
#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "kernels.h"

namespace attn::kernels {
namespace {

// Keeps clang from unrolling a micro-kernel loop (see the top of this file); GCC does not unroll
// these loops at -O2/-O3 anyway.
#if defined(__clang__)
#define ATTN_PLAIN_LOOP _Pragma("clang loop unroll(disable)")
#else
#define ATTN_PLAIN_LOOP
#endif

using Batch = xsimd::batch<float>;
constexpr size_t kWidth = Batch::size;
constexpr size_t W = kPanelWidth;
constexpr size_t kPanelBatches = W / kWidth;
static_assert(W % kWidth == 0, "a panel is a whole number of batches");

// Rows of B packed per step when matmul packs on the fly: 512 × 16 floats = 32 KiB, one pass over C
// for the d_model = 512 projections (measured ~1.5 % faster on MHA than 256-row blocks).
constexpr size_t kDepthBlock = 512;
// Below this many rows of A a packed panel is not reused enough to pay for packing.
constexpr size_t kPackMinRows = 8;

// Stores one row of an accumulator block: the first w ≤ NB·4 columns of alpha · acc (+ c). With
// row_max, also raises *row_max to the largest value stored (the softmax's row max, fused so the
// scores need no separate pass).
template <size_t NB>
inline void store_row(const Batch* acc, float* c, size_t w, float alpha, bool accumulate,
                      float* row_max) {
  const Batch s(alpha);
  if (w == NB * kWidth) {
    alignas(16) float tmp[kWidth];
    Batch top;
    for (size_t q = 0; q < NB; ++q) {
      Batch v = acc[q] * s;
      if (accumulate) v += Batch::load_unaligned(c + q * kWidth);
      v.store_unaligned(c + q * kWidth);
      top = q == 0 ? v : xsimd::max(top, v);
    }
    if (row_max) {
      top.store_aligned(tmp);
      for (size_t j = 0; j < kWidth; ++j) *row_max = tmp[j] > *row_max ? tmp[j] : *row_max;
    }
    return;
  }
  alignas(16) float tmp[NB * kWidth];
  for (size_t q = 0; q < NB; ++q) (acc[q] * s).store_aligned(tmp + q * kWidth);
  for (size_t j = 0; j < w && j < NB * kWidth; ++j) {
    c[j] = tmp[j] + (accumulate ? c[j] : 0.0f);
    if (row_max) *row_max = c[j] > *row_max ? c[j] : *row_max;
  }
}

// c[R × w] = alpha · a[R × k] · panel[k × 16] (+ c), reading the first NB batches of each panel
// row (w ≤ NB·4; the panel's other columns are padding): R·NB accumulators stay in registers for
// the whole k loop; one broadcast per row and NB contiguous loads per step.
template <size_t R, size_t NB>
inline void panel_kernel(const float* a, size_t lda, const float* panel, size_t k, float* c,
                         size_t ldc, size_t w, float alpha, bool accumulate, float* row_max) {
  Batch acc[R][NB];
  for (size_t r = 0; r < R; ++r)
    for (size_t q = 0; q < NB; ++q) acc[r][q] = Batch(0.0f);
  const float* row[R];
  for (size_t r = 0; r < R; ++r) row[r] = a + r * lda;
  const float* const end = panel + k * W;
  ATTN_PLAIN_LOOP
  for (; panel != end; panel += W) {
    Batch b[NB];
    for (size_t q = 0; q < NB; ++q) b[q] = Batch::load_unaligned(panel + q * kWidth);
    for (size_t r = 0; r < R; ++r) {
      const Batch ar(*row[r]++);
      for (size_t q = 0; q < NB; ++q) acc[r][q] += ar * b[q];
    }
  }
  for (size_t r = 0; r < R; ++r)
    store_row<NB>(acc[r], c + r * ldc, w, alpha, accumulate, row_max ? row_max + r : nullptr);
}

// Every row of A against one panel, R rows at a time, then the last rows one or two at a time.
template <size_t R, size_t NB>
inline void rows_in_blocks(const float* a, size_t lda, const float* panel, float* c, size_t ldc,
                           size_t n, size_t k, size_t w, float alpha, bool accumulate,
                           float* row_max) {
  size_t i = 0;
  auto rm = [&](size_t at) { return row_max ? row_max + at : nullptr; };
  for (; i + R <= n; i += R)
    panel_kernel<R, NB>(a + i * lda, lda, panel, k, c + i * ldc, ldc, w, alpha, accumulate, rm(i));
  for (; R > 2 && i + 2 <= n; i += 2)
    panel_kernel<2, NB>(a + i * lda, lda, panel, k, c + i * ldc, ldc, w, alpha, accumulate, rm(i));
  if (i < n)
    panel_kernel<1, NB>(a + i * lda, lda, panel, k, c + i * ldc, ldc, w, alpha, accumulate, rm(i));
}

// All rows of A against one packed panel (w ≤ 16 valid columns). The register block keeps 8
// accumulators whatever the panel's width: 2 rows × 16 columns for a full panel, 4 rows × 8 or
// × 4 for a narrow one (a head of 8 features, a tail), so a narrow panel costs no multiplies by
// its zero padding.
inline void rows_times_panel(const float* a, size_t lda, const float* panel, float* c, size_t ldc,
                             size_t n, size_t k, size_t w, float alpha, bool accumulate,
                             float* row_max = nullptr) {
  switch ((w + kWidth - 1) / kWidth) {
    case 1:
      return rows_in_blocks<4, 1>(a, lda, panel, c, ldc, n, k, w, alpha, accumulate, row_max);
    case 2:
      return rows_in_blocks<4, 2>(a, lda, panel, c, ldc, n, k, w, alpha, accumulate, row_max);
    case 3:
      return rows_in_blocks<2, 3>(a, lda, panel, c, ldc, n, k, w, alpha, accumulate, row_max);
    default:
      return rows_in_blocks<2, 4>(a, lda, panel, c, ldc, n, k, w, alpha, accumulate, row_max);
  }
}

// Few rows (a decode step: one token): B is streamed once, row after row, in its own layout, with
// no packing: each of its bytes is read once from memory for NR rows of A at a time, into NR rows
// of C accumulated in slices of kStreamColumns floats (on the stack, in L1/L2). One row of B per
// step (KU = 1) keeps the read a single sequential stream over B: measured in V8 on a 768 × 2304
// matrix, 20 GB/s against 13 for four rows of B per step (four streams 9 KB apart) and 26 for
// dot products along contiguous rows; 512-column slices (B read in 2 KB pieces) were slower still.
constexpr size_t kStreamColumns = 4096;

template <size_t NR, size_t KU>
void stream_rows(const float* a, size_t lda, const float* b, size_t ldb, float* c, size_t ldc,
                 size_t m, size_t k, float alpha, bool accumulate) {
  alignas(64) float acc[NR][kStreamColumns];
  for (size_t j0 = 0; j0 < m; j0 += kStreamColumns) {
    const size_t cw = std::min(kStreamColumns, m - j0), vec = cw / kWidth * kWidth;
    for (size_t r = 0; r < NR; ++r) std::fill(acc[r], acc[r] + cw, 0.0f);
    size_t p = 0;
    for (; p + KU <= k; p += KU) {
      Batch ap[NR][KU];
      for (size_t r = 0; r < NR; ++r)
        for (size_t u = 0; u < KU; ++u) ap[r][u] = Batch(a[r * lda + p + u]);
      const float* bp = b + p * ldb + j0;
      for (size_t q = 0; q < vec; q += kWidth) {
        Batch bv[KU];
        for (size_t u = 0; u < KU; ++u) bv[u] = Batch::load_unaligned(bp + u * ldb + q);
        for (size_t r = 0; r < NR; ++r) {
          Batch sum = Batch::load_aligned(acc[r] + q);
          for (size_t u = 0; u < KU; ++u) sum += ap[r][u] * bv[u];
          sum.store_aligned(acc[r] + q);
        }
      }
      for (size_t q = vec; q < cw; ++q)
        for (size_t r = 0; r < NR; ++r)
          for (size_t u = 0; u < KU; ++u) acc[r][q] += a[r * lda + p + u] * bp[u * ldb + q];
    }
    for (; p < k; ++p)
      for (size_t r = 0; r < NR; ++r)
        for (size_t q = 0; q < cw; ++q) acc[r][q] += a[r * lda + p] * b[p * ldb + j0 + q];
    for (size_t r = 0; r < NR; ++r) {
      float* cr = c + r * ldc + j0;
      for (size_t q = 0; q < cw; ++q) cr[q] = alpha * acc[r][q] + (accumulate ? cr[q] : 0.0f);
    }
  }
}

void matmul_direct(const float* a, size_t lda, const float* b, size_t ldb, float* c, size_t ldc,
                   size_t n, size_t m, size_t k, float alpha, bool accumulate) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    stream_rows<4, 1>(a + i * lda, lda, b, ldb, c + i * ldc, ldc, m, k, alpha, accumulate);
  for (; i + 2 <= n; i += 2)
    stream_rows<2, 1>(a + i * lda, lda, b, ldb, c + i * ldc, ldc, m, k, alpha, accumulate);
  if (i < n) stream_rows<1, 1>(a + i * lda, lda, b, ldb, c + i * ldc, ldc, m, k, alpha, accumulate);
}

// One panel (w ≤ 16 columns) of B, rows [0, rows), into dst (rows × 16, zero-padded).
inline void pack_one_panel(const float* b, size_t ldb, size_t rows, size_t w, float* dst) {
  if (w == W) {
    for (size_t p = 0; p < rows; ++p, b += ldb, dst += W)
      for (size_t q = 0; q < kPanelBatches; ++q)
        Batch::load_unaligned(b + q * kWidth).store_unaligned(dst + q * kWidth);
    return;
  }
  // Narrow panels (a head of 8 features, a tail): whole batches, then single floats, then zeros,
  // without a memcpy and a fill call per row (a tenth of a small training step went to them).
  const size_t whole = w / kWidth * kWidth;
  const Batch zero(0.0f);
  for (size_t p = 0; p < rows; ++p, b += ldb, dst += W) {
    size_t c = 0;
    for (; c < whole; c += kWidth) Batch::load_unaligned(b + c).store_unaligned(dst + c);
    for (; c < w; ++c) dst[c] = b[c];
    for (; c % kWidth; ++c) dst[c] = 0.0f;
    for (; c < W; c += kWidth) zero.store_unaligned(dst + c);
  }
}

// Interleave the 64-bit halves of two batches: (x0 x1 y0 y1) and (x2 x3 y2 y3). With zip_lo/zip_hi
// of 32-bit lanes first, two rounds transpose a 4 × 4 block.
inline Batch zip_lo64(Batch x, Batch y) {
  using D = xsimd::batch<double>;
  return xsimd::bitwise_cast<Batch>(
      xsimd::zip_lo(xsimd::bitwise_cast<D>(x), xsimd::bitwise_cast<D>(y)));
}
inline Batch zip_hi64(Batch x, Batch y) {
  using D = xsimd::batch<double>;
  return xsimd::bitwise_cast<Batch>(
      xsimd::zip_hi(xsimd::bitwise_cast<D>(x), xsimd::bitwise_cast<D>(y)));
}

// Rows r0..r3 (4 floats each) -> their 4 columns, stored at out, out + ld, out + 2·ld, out + 3·ld.
inline void transpose_4x4(Batch r0, Batch r1, Batch r2, Batch r3, float* out, size_t ld) {
  const Batch t0 = xsimd::zip_lo(r0, r1), t1 = xsimd::zip_hi(r0, r1);
  const Batch t2 = xsimd::zip_lo(r2, r3), t3 = xsimd::zip_hi(r2, r3);
  // t0 = r0[0] r1[0] r0[1] r1[1], t2 = r2[0] r3[0] r2[1] r3[1]: 64-bit halves interleave.
  zip_lo64(t0, t2).store_unaligned(out);
  zip_hi64(t0, t2).store_unaligned(out + ld);
  zip_lo64(t1, t3).store_unaligned(out + 2 * ld);
  zip_hi64(t1, t3).store_unaligned(out + 3 * ld);
}

constexpr float kLog2e = 1.44269504088896341f;

// 2^t for the softmax terms, t ≤ 0 (any t < 128 works): 2^t = 2^i · 2^f with i = round(t) and
// f ∈ [-1/2, 1/2], Cephes' exp2f polynomial for 2^f (degree 6, relative error ~1e-7) and 2^i
// added to the exponent bits. Callers multiply by log2 e after subtracting the row max; measured
// ~1.1 ns per value in V8 against 1.4 for a Cody–Waite expf and much more for xsimd::exp. Below
// 2^-125 it returns exactly 0, and so does -inf: a masked key gets a weight of exactly 0. Rounding
// uses the 1.5·2^23 trick rather than float→int conversions: Emscripten 3.1.6 lowers
// _mm_cvttps_epi32/_mm_cvtps_epi32 (what xsimd::exp and batch_cast use) to four scalar lrint
// calls, which made the first version's softmax cost as much as both matmuls together.
inline Batch exp2_softmax(Batch t) {
  const Batch magic(12582912.0f);  // 1.5 · 2^23: adding it rounds to an integer in the low bits
  const Batch shifted = t + magic;
  const Batch i = shifted - magic;
  const Batch f = t - i;
  // Estrin's scheme: three independent pairs, then two steps in f², a shorter dependency chain
  // than Horner's (there is no FMA to hide the latency of mul + add).
  const Batch f2 = f * f;
  const Batch c65 = Batch(1.535336188319500e-4f) * f + Batch(1.339887440266574e-3f);
  const Batch c43 = Batch(9.618437357674640e-3f) * f + Batch(5.550332471162809e-2f);
  const Batch c21 = Batch(2.402264791363012e-1f) * f + Batch(6.931472028550421e-1f);
  const Batch p = ((c65 * f2 + c43) * f2 + c21) * f + Batch(1.0f);
  // The low mantissa bits of `shifted` hold i in two's complement; shifted left by 23 they are
  // 2^i's exponent field (the magic's own bits fall off the top). p ∈ [0.7, 1.5], so with
  // i ≥ -125 the result is a normal float and adding the exponent is exact.
  using Int = xsimd::batch<int32_t>;
  const Int bits = xsimd::bitwise_cast<Int>(p) + (xsimd::bitwise_cast<Int>(shifted) << 23);
  return xsimd::select(i < Batch(-125.0f), Batch(0.0f), xsimd::bitwise_cast<Batch>(bits));
}

}  // namespace

const char* variant_name() {
  static const std::string name = std::string("xsimd/") + xsimd::default_arch::name();
  return name.c_str();
}

void matmul(const float* a, size_t lda, const float* b, size_t ldb, float* c, size_t ldc, size_t n,
            size_t m, size_t k, float alpha, bool accumulate) {
  if (k == 0) {
    if (!accumulate)
      for (size_t i = 0; i < n; ++i) std::fill(c + i * ldc, c + i * ldc + m, 0.0f);
    return;
  }
  if (n < kPackMinRows) return matmul_direct(a, lda, b, ldb, c, ldc, n, m, k, alpha, accumulate);
  alignas(64) float panel[kDepthBlock * W];
  for (size_t j = 0; j < m; j += W) {
    const size_t w = std::min(W, m - j);
    for (size_t p = 0; p < k; p += kDepthBlock) {
      const size_t depth = std::min(kDepthBlock, k - p);
      pack_one_panel(b + p * ldb + j, ldb, depth, w, panel);
      rows_times_panel(a + p, lda, panel, c + j, ldc, n, depth, w, alpha, accumulate || p > 0);
    }
  }
}

void pack_panels(const float* b, size_t ldb, size_t rows, size_t cols, float* panels) {
  for (size_t j = 0; j < cols; j += W)
    pack_one_panel(b + j, ldb, rows, std::min(W, cols - j), panels + j * rows);
}

void pack_panels_transposed(const float* bt, size_t ldbt, size_t rows, size_t cols, float* panels) {
  for (size_t j = 0; j < cols; j += W) {
    const size_t w = std::min(W, cols - j);
    float* dst = panels + j * rows;
    size_t c = 0;
    // 4 × 4 blocks: four rows of bt become four columns of the panel.
    for (; c + kWidth <= w; c += kWidth) {
      const float* src = bt + (j + c) * ldbt;
      size_t p = 0;
      for (; p + kWidth <= rows; p += kWidth) {
        const Batch r0 = Batch::load_unaligned(src + p), r1 = Batch::load_unaligned(src + ldbt + p);
        const Batch r2 = Batch::load_unaligned(src + 2 * ldbt + p);
        const Batch r3 = Batch::load_unaligned(src + 3 * ldbt + p);
        transpose_4x4(r0, r1, r2, r3, dst + p * W + c, W);
      }
      for (; p < rows; ++p)
        for (size_t cc = c; cc < c + kWidth; ++cc) dst[p * W + cc] = bt[(j + cc) * ldbt + p];
    }
    for (; c < w; ++c)
      for (size_t p = 0; p < rows; ++p) dst[p * W + c] = bt[(j + c) * ldbt + p];
    for (size_t p = 0; p < rows && w < W; ++p) std::fill(dst + p * W + w, dst + (p + 1) * W, 0.0f);
  }
}

void matmul_packed(const float* a, size_t lda, const float* panels, size_t panel_rows, float* c,
                   size_t ldc, size_t n, size_t m, size_t k, float alpha, bool accumulate) {
  for (size_t j = 0; j < m; j += W)
    rows_times_panel(a, lda, panels + j * panel_rows, c + j, ldc, n, k, std::min(W, m - j), alpha,
                     accumulate);
}

void matmul_packed_row_max(const float* a, size_t lda, const float* panels, size_t panel_rows,
                           float* c, size_t ldc, size_t n, size_t m, size_t k, float* row_max) {
  for (size_t j = 0; j < m; j += W)
    rows_times_panel(a, lda, panels + j * panel_rows, c + j, ldc, n, k, std::min(W, m - j), 1.0f,
                     false, row_max);
}

// 4 × 4 blocks through registers: the plain loop's one-float strided stores made a 512 × 512
// transpose cost about as much as a 512 × 512 × 64 product.
void transpose(const float* a, size_t lda, size_t rows, size_t cols, float* out, size_t ldo) {
  size_t i = 0;
  for (; i + kWidth <= rows; i += kWidth) {
    const float* src = a + i * lda;
    size_t j = 0;
    for (; j + kWidth <= cols; j += kWidth)
      transpose_4x4(Batch::load_unaligned(src + j), Batch::load_unaligned(src + lda + j),
                    Batch::load_unaligned(src + 2 * lda + j),
                    Batch::load_unaligned(src + 3 * lda + j), out + j * ldo + i, ldo);
    for (; j < cols; ++j)
      for (size_t r = 0; r < kWidth; ++r) out[j * ldo + i + r] = src[r * lda + j];
  }
  for (; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) out[j * ldo + i] = a[i * lda + j];
}

void axpy(float* y, const float* x, size_t len, float alpha) {
  const Batch s(alpha);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth)
    xsimd::fma(s, Batch::load_unaligned(x + i), Batch::load_unaligned(y + i))
        .store_unaligned(y + i);
  for (; i < len; ++i) y[i] += alpha * x[i];
}

void add_to_rows(float* y, const float* b, size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r, y += cols) {
    size_t i = 0;
    for (; i + kWidth <= cols; i += kWidth)
      (Batch::load_unaligned(y + i) + Batch::load_unaligned(b + i)).store_unaligned(y + i);
    for (; i < cols; ++i) y[i] += b[i];
  }
}

// Four rows per pass over the sums, added in row order as four axpy calls would (rounding after
// each row), with a quarter of the loads and stores of the sums.
void add_column_sums(float* sums, const float* x, size_t rows, size_t cols) {
  size_t r = 0;
  for (; r + 4 <= rows; r += 4, x += 4 * cols) {
    size_t i = 0;
    for (; i + kWidth <= cols; i += kWidth) {
      Batch s = Batch::load_unaligned(sums + i);
      for (size_t t = 0; t < 4; ++t) s += Batch::load_unaligned(x + t * cols + i);
      s.store_unaligned(sums + i);
    }
    for (; i < cols; ++i)
      for (size_t t = 0; t < 4; ++t) sums[i] += x[t * cols + i];
  }
  for (; r < rows; ++r, x += cols)
    for (size_t i = 0; i < cols; ++i) sums[i] += x[i];
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

// Four batches (16 values) per step, their flags OR-ed and tested once: the all-good case runs at
// memory speed. The block that holds a bad value is rescanned value by value for its index.
template <typename Bad>
size_t first_bad_value(const float* x, size_t count, Bad bad) {
  size_t i = 0;
  for (; i + 4 * kWidth <= count; i += 4 * kWidth) {
    const auto flags = bad(Batch::load_unaligned(x + i)) |
                       bad(Batch::load_unaligned(x + i + kWidth)) |
                       bad(Batch::load_unaligned(x + i + 2 * kWidth)) |
                       bad(Batch::load_unaligned(x + i + 3 * kWidth));
    if (xsimd::any(flags)) break;
  }
  for (; i + kWidth <= count; i += kWidth)
    if (xsimd::any(bad(Batch::load_unaligned(x + i)))) break;
  for (; i < count; ++i) {
    float lanes[kWidth] = {x[i], 0.0f, 0.0f, 0.0f};
    static_assert(kWidth == 4, "one value in lane 0 of a four-lane batch");
    if (xsimd::any(bad(Batch::load_unaligned(lanes)))) return i;
  }
  return count;
}

size_t first_non_finite(const float* x, size_t count, bool allow_negative_infinity) {
  const Batch max(std::numeric_limits<float>::max());
  const Batch neg_inf(-std::numeric_limits<float>::infinity());
  // NaN fails every comparison, so "not within ±max" catches NaN and both infinities.
  if (allow_negative_infinity)
    return first_bad_value(x, count,
                           [&](Batch v) { return !((xsimd::abs(v) <= max) | (v == neg_inf)); });
  return first_bad_value(x, count, [&](Batch v) { return !(xsimd::abs(v) <= max); });
}

size_t first_nan(const float* x, size_t count) {
  return first_bad_value(x, count, [](Batch v) { return v != v; });
}

namespace {

// The last len % 4 values of a row as one batch, padded with −inf (whose exponential is exactly
// 0), and back: one vector exponential for the tail instead of one per value.
struct Tail {
  alignas(16) float lanes[kWidth];
  size_t count;
  Tail(const float* x, size_t n) : count(n) {
    for (size_t j = 0; j < kWidth; ++j)
      lanes[j] = j < n ? x[j] : -std::numeric_limits<float>::infinity();
  }
  Batch load() const { return Batch::load_aligned(lanes); }
  void store(Batch e, float* x) {
    e.store_aligned(lanes);
    for (size_t j = 0; j < count; ++j) x[j] = lanes[j];
  }
};

}  // namespace

float exp_shifted_sum(float* x, size_t len, float shift) {
  const Batch sb(shift), l2e(kLog2e);
  Batch acc(0.0f);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth) {
    const Batch e = exp2_softmax((Batch::load_unaligned(x + i) - sb) * l2e);
    e.store_unaligned(x + i);
    acc += e;
  }
  if (i < len) {
    Tail tail(x + i, len - i);
    const Batch e = exp2_softmax((tail.load() - sb) * l2e);
    tail.store(e, x + i);
    acc += e;
  }
  return xsimd::hadd(acc);
}

// The difference x·s − shift is taken before converting to base 2: shift is s · max x rounded the
// same way, so the max term is exactly exp(0) = 1 and every term's exponent is ≤ 0. (Folding log2 e
// into s instead rounds x·(s·log2 e) and (s·max)·log2 e differently; with scaled scores near 5e8
// the max term's exponent was off by dozens, giving inf/NaN or a zero row sum.)
float exp_scaled_shifted_sum(float* x, size_t len, float s, float shift) {
  const Batch sb(s), shb(shift), l2e(kLog2e);
  Batch acc(0.0f);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth) {
    const Batch e = exp2_softmax((Batch::load_unaligned(x + i) * sb - shb) * l2e);
    e.store_unaligned(x + i);
    acc += e;
  }
  if (i < len) {  // −inf · s − shift is −inf for the positive scales attention uses
    Tail tail(x + i, len - i);
    const Batch e = exp2_softmax((tail.load() * sb - shb) * l2e);
    tail.store(e, x + i);
    acc += e;
  }
  return xsimd::hadd(acc);
}

// Two accumulators from 16 floats on: one add chain was latency-bound on long rows (a decode step's
// unembedding: 50 257 dot products of 768).
float dot(const float* x, const float* y, size_t len) {
  Batch acc(0.0f), acc2(0.0f);
  size_t i = 0;
  for (; i + 2 * kWidth <= len && len >= 16; i += 2 * kWidth) {
    acc += Batch::load_unaligned(x + i) * Batch::load_unaligned(y + i);
    acc2 += Batch::load_unaligned(x + i + kWidth) * Batch::load_unaligned(y + i + kWidth);
  }
  acc += acc2;
  for (; i + kWidth <= len; i += kWidth)
    acc += Batch::load_unaligned(x + i) * Batch::load_unaligned(y + i);
  float sum = xsimd::hadd(acc);
  for (; i < len; ++i) sum += x[i] * y[i];
  return sum;
}

// One row of u at a time, read as one sequential stream, with four independent add chains. GPT-2
// small's decode step in Node here: 18.9 ms per token, against 19.5 with dot()'s two chains and
// 27-28 with four rows of u at a time sharing each load of x (four streams: slower in V8).
void dot_rows(const float* x, size_t n, const float* u, size_t V, size_t len, float* out,
              size_t ld_out) {
  const size_t vec4 = len / (4 * kWidth) * (4 * kWidth);
  for (size_t v = 0; v < V; ++v) {
    const float* r = u + v * len;
    for (size_t i = 0; i < n; ++i) {
      const float* xi = x + i * len;
      Batch a0(0.0f), a1(0.0f), a2(0.0f), a3(0.0f);
      size_t p = 0;
      for (; p < vec4; p += 4 * kWidth) {
        a0 += Batch::load_unaligned(xi + p) * Batch::load_unaligned(r + p);
        a1 += Batch::load_unaligned(xi + p + kWidth) * Batch::load_unaligned(r + p + kWidth);
        a2 +=
            Batch::load_unaligned(xi + p + 2 * kWidth) * Batch::load_unaligned(r + p + 2 * kWidth);
        a3 +=
            Batch::load_unaligned(xi + p + 3 * kWidth) * Batch::load_unaligned(r + p + 3 * kWidth);
      }
      for (; p + kWidth <= len; p += kWidth)
        a0 += Batch::load_unaligned(xi + p) * Batch::load_unaligned(r + p);
      float sum = xsimd::hadd((a0 + a1) + (a2 + a3));
      for (; p < len; ++p) sum += xi[p] * r[p];
      out[i * ld_out + v] = sum;
    }
  }
}

// Adding +0 turns the −0 of 0 · (negative) into +0 and leaves every other value unchanged.
void softmax_backward_row(const float* p, float* d, size_t len, float delta) {
  const Batch db(delta), zero(0.0f);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth)
    (Batch::load_unaligned(p + i) * (Batch::load_unaligned(d + i) - db) + zero)
        .store_unaligned(d + i);
  for (; i < len; ++i) d[i] = p[i] * (d[i] - delta) + 0.0f;
}

namespace {

constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kGeluCubic = 0.044715f;

// GELU as x·σ(2u) with u = √(2/π)·(x + 0.044715·x³), since (1 + tanh u)/2 = σ(2u) = 1/(1 +
// e^(−2u)): no cancellation in 1 + tanh where tanh is near −1, so the negative tail keeps its
// relative precision. e^(−2u) = 2^z comes from the softmax's exp2 polynomial (~1 ulp), with z
// clamped to [−126, 126] where that is exact to the last bits; past z = 126 σ is below 2^-126 and
// is taken as 0, as float32 rounds the true GELU there (no subnormal results). musl's tanhf cost
// ~25 ns a value in WebAssembly: a fifth of a 64-token GPT-2 forward.
inline Batch sigmoid_2u(Batch v) {
  const Batch u = Batch(kSqrt2OverPi) * (v + Batch(kGeluCubic) * v * v * v);
  const Batch z = u * Batch(-2.0f * kLog2e);
  const Batch clamped = xsimd::min(xsimd::max(z, Batch(-126.0f)), Batch(126.0f));
  return xsimd::select(z >= Batch(126.0f), Batch(0.0f),
                       Batch(1.0f) / (Batch(1.0f) + exp2_softmax(clamped)));
}

}  // namespace

void gelu_tanh(const float* x, float* out, size_t len) {
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth) {
    const Batch v = Batch::load_unaligned(x + i);
    (v * sigmoid_2u(v)).store_unaligned(out + i);
  }
  for (; i < len; ++i) {
    const float v = x[i];
    out[i] = 0.5f * v * (1.0f + std::tanh(kSqrt2OverPi * (v + kGeluCubic * v * v * v)));
  }
}

// GELU′ = (1 + t)/2 + v·(1 − t²)/2·u′ = σ + 2·v·σ·(1 − σ)·u′ with σ = σ(2u), t = tanh u.
void gelu_tanh_backward(const float* x, const float* dout, float* dx, size_t len) {
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth) {
    const Batch v = Batch::load_unaligned(x + i);
    const Batch s = sigmoid_2u(v);
    const Batch du = Batch(kSqrt2OverPi) * (Batch(1.0f) + Batch(3.0f * kGeluCubic) * v * v);
    const Batch grad = s + Batch(2.0f) * v * s * (Batch(1.0f) - s) * du;
    (Batch::load_unaligned(dout + i) * grad).store_unaligned(dx + i);
  }
  for (; i < len; ++i) {
    const float v = x[i];
    const float t = std::tanh(kSqrt2OverPi * (v + kGeluCubic * v * v * v));
    const float du = kSqrt2OverPi * (1.0f + 3.0f * kGeluCubic * v * v);
    dx[i] = dout[i] * (0.5f * (1.0f + t) + 0.5f * v * (1.0f - t * t) * du);
  }
}

namespace {

// rows × cols of four matrices (src[s] at row stride ld) into one lane-interleaved block:
// dst[(r·cols + c)·4 + s] = src[s][r·ld + c], by 4 × 4 transposes of four columns at a time.
void interleave4(const float* const src[4], size_t ld, size_t rows, size_t cols, float* dst) {
  for (size_t r = 0; r < rows; ++r) {
    float* out = dst + r * cols * kWidth;
    size_t c = 0;
    for (; c + kWidth <= cols; c += kWidth)
      transpose_4x4(Batch::load_unaligned(src[0] + r * ld + c),
                    Batch::load_unaligned(src[1] + r * ld + c),
                    Batch::load_unaligned(src[2] + r * ld + c),
                    Batch::load_unaligned(src[3] + r * ld + c), out + c * kWidth, kWidth);
    for (; c < cols; ++c)
      for (size_t s = 0; s < kWidth; ++s) out[c * kWidth + s] = src[s][r * ld + c];
  }
}

// The inverse: dst[s][r·ld + c] = src[(r·cols + c)·4 + s] (+ what it holds when accumulating).
void deinterleave4(const float* src, size_t rows, size_t cols, float* const dst[4], size_t ld,
                   bool accumulate) {
  alignas(16) float t[kWidth * kWidth];
  for (size_t r = 0; r < rows; ++r) {
    const float* in = src + r * cols * kWidth;
    size_t c = 0;
    for (; c + kWidth <= cols; c += kWidth) {
      transpose_4x4(Batch::load_aligned(in + c * kWidth),
                    Batch::load_aligned(in + (c + 1) * kWidth),
                    Batch::load_aligned(in + (c + 2) * kWidth),
                    Batch::load_aligned(in + (c + 3) * kWidth), t, kWidth);
      for (size_t s = 0; s < kWidth; ++s) {
        float* out = dst[s] + r * ld + c;
        Batch v = Batch::load_aligned(t + s * kWidth);
        if (accumulate) v += Batch::load_unaligned(out);
        v.store_unaligned(out);
      }
    }
    for (; c < cols; ++c)
      for (size_t s = 0; s < kWidth; ++s)
        dst[s][r * ld + c] = in[c * kWidth + s] + (accumulate ? dst[s][r * ld + c] : 0.0f);
  }
}

inline Batch lane(const float* block, size_t at) {
  return Batch::load_aligned(block + at * kWidth);
}

// out[f] (+)= Σ_t coef(t) · rows[t·stride + f] for the C features f ∈ [f0, f0 + C) of lane blocks,
// t ∈ [t0, t1): C accumulators stay in registers over the whole sum.
template <size_t C, typename Coef>
inline void lane_sum(const float* rows, size_t stride, size_t f0, size_t t0, size_t t1, Coef coef,
                     float* out, bool add) {
  Batch acc[C];
  for (size_t c = 0; c < C; ++c) acc[c] = add ? lane(out, f0 + c) : Batch(0.0f);
  for (size_t t = t0; t < t1; ++t) {
    const Batch w = coef(t);
    for (size_t c = 0; c < C; ++c) acc[c] += w * lane(rows, t * stride + f0 + c);
  }
  for (size_t c = 0; c < C; ++c) acc[c].store_aligned(out + (f0 + c) * kWidth);
}

// lane_sum over all d features, 8, then 4, then 1 at a time.
template <typename Coef>
inline void lane_sums(const float* rows, size_t d, size_t t0, size_t t1, Coef coef, float* out,
                      bool add) {
  size_t f = 0;
  for (; f + 8 <= d; f += 8) lane_sum<8>(rows, d, f, t0, t1, coef, out, add);
  for (; f + 4 <= d; f += 4) lane_sum<4>(rows, d, f, t0, t1, coef, out, add);
  for (; f < d; ++f) lane_sum<1>(rows, d, f, t0, t1, coef, out, add);
}

inline Batch lane_dot(const float* x, const float* y, size_t d) {
  Batch sum = lane(x, 0) * lane(y, 0);
  for (size_t p = 1; p < d; ++p) sum += lane(x, p) * lane(y, p);
  return sum;
}

}  // namespace

size_t causal_attention_x4_scratch_floats(size_t T, size_t d) {
  return kWidth * (8 * T * d + 2 * T * T + T);
}

void causal_attention_x4(const FourSequences& in, size_t T, size_t d, float scale,
                         float* const w[4], float* const o[4], size_t ld_out, float* scratch) {
  float* q = scratch;  // T × d lanes
  float* k = q + T * d * kWidth;
  float* v = k + T * d * kWidth;
  float* out = v + T * d * kWidth;        // T × d lanes
  float* weights = out + T * d * kWidth;  // T × T lanes
  interleave4(in.q, in.ld_in, T, d, q);
  interleave4(in.k, in.ld_in, T, d, k);
  interleave4(in.v, in.ld_in, T, d, v);
  const Batch sc(scale), l2e(kLog2e), zero(0.0f);
  for (size_t i = 0; i < T; ++i) {
    float* row = weights + i * T * kWidth;
    Batch top(-std::numeric_limits<float>::infinity());
    for (size_t j = 0; j <= i; ++j) {
      const Batch dot = lane_dot(q + i * d * kWidth, k + j * d * kWidth, d);
      dot.store_aligned(row + j * kWidth);
      top = xsimd::max(top, dot);
    }
    // As softmax_visible_row: exp(s·scale − max·scale), the max term exactly 1.
    const Batch shift = top * sc;
    Batch sum(0.0f);
    for (size_t j = 0; j <= i; ++j) {
      const Batch e = exp2_softmax((lane(row, j) * sc - shift) * l2e);
      e.store_aligned(row + j * kWidth);
      sum += e;
    }
    const Batch inv = Batch(1.0f) / sum;
    for (size_t j = 0; j <= i; ++j) (lane(row, j) * inv).store_aligned(row + j * kWidth);
    for (size_t j = i + 1; j < T; ++j) zero.store_aligned(row + j * kWidth);
    lane_sums(
        v, d, 0, i + 1, [&](size_t j) { return lane(row, j); }, out + i * d * kWidth, false);
  }
  deinterleave4(weights, T, T, w, T, false);
  deinterleave4(out, T, d, o, ld_out, false);
}

// Two passes, each keeping its sums in registers: queries in order (dS row by row, dQ_i = Σ_j dS_ij
// k_j), then keys in order (dK_j = Σ_i dS_ij q_i, dV_j = Σ_i w_ij dO_i over i ≥ j).
void causal_attention_x4_backward(const FourSequences& in, size_t T, size_t d, float scale,
                                  const float* const w[4], const float* const o[4],
                                  const float* const d_o[4], size_t ld_out, float* const dq[4],
                                  float* const dk[4], float* const dv[4], size_t ld_grad,
                                  bool accumulate, float* scratch) {
  const size_t block = T * d * kWidth;
  float* q = scratch;
  float* k = q + block;
  float* v = k + block;
  float* gq = v + block;  // dQ, dK, dV lanes
  float* gk = gq + block;
  float* gv = gk + block;
  float* go = gv + block;          // dO lanes
  float* a = go + block;           // the weights, T × T lanes
  float* ds = a + T * T * kWidth;  // dS, T × T lanes
  interleave4(in.q, in.ld_in, T, d, q);
  interleave4(in.k, in.ld_in, T, d, k);
  interleave4(in.v, in.ld_in, T, d, v);
  interleave4(d_o, ld_out, T, d, go);
  interleave4(o, ld_out, T, d, gk);  // O passes through gk, read only for the row deltas
  interleave4(w, T, T, T, a);
  const Batch sc(scale);
  for (size_t i = 0; i < T; ++i) {
    const float* doi = go + i * d * kWidth;
    const Batch delta = lane_dot(doi, gk + i * d * kWidth, d);
    float* dsi = ds + i * T * kWidth;
    for (size_t j = 0; j <= i; ++j)
      (lane(a, i * T + j) * (lane_dot(doi, v + j * d * kWidth, d) - delta) * sc)
          .store_aligned(dsi + j * kWidth);
    lane_sums(
        k, d, 0, i + 1, [&](size_t j) { return lane(dsi, j); }, gq + i * d * kWidth, false);
  }
  for (size_t j = 0; j < T; ++j) {
    lane_sums(
        q, d, j, T, [&](size_t i) { return lane(ds, i * T + j); }, gk + j * d * kWidth, false);
    lane_sums(
        go, d, j, T, [&](size_t i) { return lane(a, i * T + j); }, gv + j * d * kWidth, false);
  }
  deinterleave4(gq, T, d, dq, ld_grad, accumulate);
  deinterleave4(gk, T, d, dk, ld_grad, accumulate);
  deinterleave4(gv, T, d, dv, ld_grad, accumulate);
}

namespace {

using Double = xsimd::batch<double>;

// The low and high two lanes of a float batch as doubles (f64x2.promote_low_f32x4 in WebAssembly).
inline Double low_doubles(Batch x) { return Double(_mm_cvtps_pd(x)); }
inline Double high_doubles(Batch x) { return Double(_mm_cvtps_pd(_mm_movehl_ps(x, x))); }

}  // namespace

double sum_double(const float* x, size_t len) {
  Double acc(0.0);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth) {
    const Batch v = Batch::load_unaligned(x + i);
    acc += low_doubles(v) + high_doubles(v);
  }
  double sum = xsimd::hadd(acc);
  for (; i < len; ++i) sum += x[i];
  return sum;
}

double squared_deviations_double(const float* x, size_t len, double mu) {
  const Double m(mu);
  Double acc(0.0);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth) {
    const Batch v = Batch::load_unaligned(x + i);
    const Double lo = low_doubles(v) - m, hi = high_doubles(v) - m;
    acc += lo * lo + hi * hi;
  }
  double sum = xsimd::hadd(acc);
  for (; i < len; ++i) sum += (x[i] - mu) * (x[i] - mu);
  return sum;
}

void normalize_row(const float* x, size_t len, float mean, float rstd, const float* w,
                   const float* b, float* out) {
  const Batch m(mean), s(rstd);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth)
    ((Batch::load_unaligned(x + i) - m) * s * Batch::load_unaligned(w + i) +
     Batch::load_unaligned(b + i))
        .store_unaligned(out + i);
  for (; i < len; ++i) out[i] = (x[i] - mean) * rstd * w[i] + b[i];
}

void layer_norm_backward_row(const float* x, const float* dout, const float* w, float mean,
                             float rstd, size_t len, float* dw, float* db, float* dx) {
  const Batch m(mean), s(rstd);
  Double g_acc(0.0), gx_acc(0.0);
  size_t i = 0;
  for (; i + kWidth <= len; i += kWidth) {
    const Batch xhat = (Batch::load_unaligned(x + i) - m) * s;
    const Batch d = Batch::load_unaligned(dout + i);
    const Batch g = d * Batch::load_unaligned(w + i);
    g_acc += low_doubles(g) + high_doubles(g);
    gx_acc += low_doubles(g) * low_doubles(xhat) + high_doubles(g) * high_doubles(xhat);
    (Batch::load_unaligned(dw + i) + d * xhat).store_unaligned(dw + i);
    (Batch::load_unaligned(db + i) + d).store_unaligned(db + i);
  }
  double g_sum = xsimd::hadd(g_acc), gx_sum = xsimd::hadd(gx_acc);
  for (size_t j = i; j < len; ++j) {
    const float xhat = (x[j] - mean) * rstd;
    const float g = dout[j] * w[j];
    g_sum += g;
    gx_sum += double(g) * xhat;
    dw[j] += dout[j] * xhat;
    db[j] += dout[j];
  }
  const float a = static_cast<float>(g_sum / double(len));
  const float bb = static_cast<float>(gx_sum / double(len));
  const Batch ab(a), bbb(bb);
  for (i = 0; i + kWidth <= len; i += kWidth) {
    const Batch xhat = (Batch::load_unaligned(x + i) - m) * s;
    const Batch g = Batch::load_unaligned(dout + i) * Batch::load_unaligned(w + i);
    (Batch::load_unaligned(dx + i) + s * (g - ab - xhat * bbb)).store_unaligned(dx + i);
  }
  for (; i < len; ++i) {
    const float xhat = (x[i] - mean) * rstd;
    dx[i] += rstd * (dout[i] * w[i] - a - xhat * bb);
  }
}

}  // namespace attn::kernels
