// Every kernel against a float64 loop, at sizes below, at, above and at multiples of the SIMD
// width (4 floats) and of the 4 × 8 register block, so every tail path runs.
#include "kernels.h"

#include <cmath>
#include <limits>

#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h
using kernels::FourSequences;

TEST(Kernels, ReportsVariant) {
  const std::string name = kernels::variant_name();
  EXPECT_TRUE(name == "scalar" || name.rfind("xsimd/", 0) == 0) << name;
}

TEST(Kernels, MatmulMatchesDoubleLoopsAtEveryTail) {
  for (size_t n : kKernelSizes)
    for (size_t m : kKernelSizes)
      for (size_t k : {size_t(1), size_t(3), size_t(8), size_t(17), size_t(64)}) {
        const size_t lda = k + 3, ldb = m + 1, ldc = m + 2;  // strides wider than the rows
        auto a = random_floats(n * lda, 1 + n, -2, 2);
        auto b = random_floats(k * ldb, 2 + m, -2, 2);
        auto c = random_floats(n * ldc, 3 + k);
        const auto c0 = c;
        for (bool accumulate : {false, true}) {
          c = c0;
          kernels::matmul(a.data(), lda, b.data(), ldb, c.data(), ldc, n, m, k, 0.5f, accumulate);
          std::vector<double> expected(n * m), actual(n * m);
          for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < m; ++j) {
              double sum = 0;
              for (size_t p = 0; p < k; ++p) sum += double(a[i * lda + p]) * b[p * ldb + j];
              expected[i * m + j] = 0.5 * sum + (accumulate ? c0[i * ldc + j] : 0.0);
              actual[i * m + j] = c[i * ldc + j];
            }
          ASSERT_TRUE(all_close(actual, expected, shape_of({n, m, k}), 1e-5, 1e-5))
              << "accumulate=" << accumulate;
          // Padding between rows of c is never written.
          for (size_t i = 0; i < n; ++i)
            for (size_t j = m; j < ldc; ++j) ASSERT_EQ(c[i * ldc + j], c0[i * ldc + j]);
        }
      }
}

// Every register block and its tails: 2 rows × 16 columns for a full panel, 2 × 12 for a panel of
// 9–12 columns, 4 × 8 and 4 × 4 for narrower ones, with 1–3 rows left over.
TEST(Kernels, MatmulPackedMatchesDoubleForEveryPanelWidthAndRowTail) {
  for (size_t n = 1; n <= 11; ++n)
    for (size_t m : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 20, 24, 31, 33})
      for (size_t k : {1, 7, 64}) {
        const size_t lda = k + 2, ldc = m + 1;
        auto a = random_floats(n * lda, uint32_t(5 + n), -2, 2);
        auto b = random_floats(k * m, uint32_t(6 + m), -2, 2);
        auto c0 = random_floats(n * ldc, uint32_t(7 + k));
        std::vector<float> panels(kernels::packed_floats(k, m));
        kernels::pack_panels(b.data(), m, k, m, panels.data());
        for (bool accumulate : {false, true}) {
          auto c = c0;
          kernels::matmul_packed(a.data(), lda, panels.data(), k, c.data(), ldc, n, m, k, 1.5f,
                                 accumulate);
          std::vector<double> expected(n * m), actual(n * m);
          for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < m; ++j) {
              double sum = 0;
              for (size_t p = 0; p < k; ++p) sum += double(a[i * lda + p]) * b[p * m + j];
              expected[i * m + j] = 1.5 * sum + (accumulate ? c0[i * ldc + j] : 0.0);
              actual[i * m + j] = c[i * ldc + j];
            }
          ASSERT_TRUE(all_close(actual, expected, shape_of({n, m, k}), 1e-5, 1e-5))
              << "accumulate=" << accumulate;
          for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(c[i * ldc + m], c0[i * ldc + m]) << "padding written, row " << i;
        }
      }
}

// Fewer than 8 rows stream B in place, 4, 2 and 1 rows at a time, in slices of 512 columns, with
// 4 rows of B per step: every group of rows, slice tail and k tail.
TEST(Kernels, MatmulOfFewRowsStreamsWideMatricesExactlyAsDoubleLoops) {
  for (size_t n : {1, 2, 3, 4, 5, 6, 7})
    for (size_t m : {3, 511, 512, 513, 1100})
      for (size_t k : {1, 2, 3, 5, 64}) {
        const size_t lda = k + 1, ldb = m + 3, ldc = m + 2;
        auto a = random_floats(n * lda, uint32_t(11 + n), -2, 2);
        auto b = random_floats(k * ldb, uint32_t(12 + m), -2, 2);
        auto c0 = random_floats(n * ldc, uint32_t(13 + k));
        for (bool accumulate : {false, true}) {
          auto c = c0;
          kernels::matmul(a.data(), lda, b.data(), ldb, c.data(), ldc, n, m, k, -0.5f, accumulate);
          std::vector<double> expected(n * m), actual(n * m);
          for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < m; ++j) {
              double sum = 0;
              for (size_t p = 0; p < k; ++p) sum += double(a[i * lda + p]) * b[p * ldb + j];
              expected[i * m + j] = -0.5 * sum + (accumulate ? c0[i * ldc + j] : 0.0);
              actual[i * m + j] = c[i * ldc + j];
            }
          ASSERT_TRUE(all_close(actual, expected, shape_of({n, m, k}), 1e-5, 1e-5))
              << "accumulate=" << accumulate;
          for (size_t i = 0; i < n; ++i)
            for (size_t j = m; j < ldc; ++j)
              ASSERT_EQ(c[i * ldc + j], c0[i * ldc + j]) << "padding written";
        }
      }
}

// Every length through the four-batch body, the single batches and the scalar tail, each row of u
// against every row of x, written with a row stride wider than V (the slots between stay as they
// were).
TEST(Kernels, DotRowsMatchDoubleForEveryBlockTailAndLength) {
  for (size_t len : {size_t(1), size_t(3), size_t(4), size_t(7), size_t(17), size_t(64)})
    for (size_t V : {size_t(1), size_t(3), size_t(4), size_t(5), size_t(9)})
      for (size_t n : {size_t(1), size_t(2), size_t(3)}) {
        const auto x = random_floats(n * len, 41, -2, 2), u = random_floats(V * len, 42, -2, 2);
        const size_t ld = V + 2;
        std::vector<float> out(n * ld, 7.0f);
        kernels::dot_rows(x.data(), n, u.data(), V, len, out.data(), ld);
        for (size_t i = 0; i < n; ++i) {
          for (size_t v = 0; v < V; ++v) {
            double expected = 0;
            for (size_t p = 0; p < len; ++p) expected += double(x[i * len + p]) * u[v * len + p];
            ASSERT_NEAR(out[i * ld + v], expected, 1e-5)
                << "len " << len << " V " << V << " row " << i;
          }
          ASSERT_EQ(out[i * ld + V], 7.0f);
          ASSERT_EQ(out[i * ld + V + 1], 7.0f);
        }
      }
}

TEST(Kernels, TransposeMovesEveryElement) {
  for (size_t rows : kKernelSizes)
    for (size_t cols : {size_t(1), size_t(4), size_t(7), size_t(64)}) {
      auto a = random_floats(rows * (cols + 1), 7);
      std::vector<float> out(cols * rows);
      kernels::transpose(a.data(), cols + 1, rows, cols, out.data(), rows);
      for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) ASSERT_EQ(out[j * rows + i], a[i * (cols + 1) + j]);
    }
}

TEST(Kernels, AxpyScaleAndMax) {
  for (size_t len : kKernelSizes) {
    auto x = random_floats(len, 11, -3, 3);
    auto y = random_floats(len, 12, -3, 3);
    std::vector<double> expected(len);
    for (size_t i = 0; i < len; ++i) expected[i] = y[i] + 1.5 * double(x[i]);
    kernels::axpy(y.data(), x.data(), len, 1.5f);
    ASSERT_TRUE(all_close(y, expected, shape_of({len}), 1e-6, 1e-6));

    for (size_t i = 0; i < len; ++i) expected[i] = double(x[i]) * -0.25;
    kernels::scale(x.data(), len, -0.25f);
    ASSERT_TRUE(all_close(x, expected, shape_of({len}), 0, 0));

    // The maximum placed at every position, including the scalar tail.
    for (size_t at = 0; at < len; ++at) {
      auto z = random_floats(len, 13, -1, 1);
      z[at] = 5.0f;
      ASSERT_EQ(kernels::max_value(z.data(), len), 5.0f) << "len " << len << " at " << at;
    }
  }
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> hidden(9, -inf);
  EXPECT_EQ(kernels::max_value(hidden.data(), hidden.size()), -inf);
}

// Every length up to three blocks of 16 and past them, a bad value at every position (in the
// unrolled blocks, the single batches and the scalar tail) after good ones that sit at the edges of
// float32: the largest finite values, subnormals and −0 are all finite.
TEST(Kernels, FirstNonFiniteAndFirstNanFindTheFirstBadValueAtEveryPosition) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float max = std::numeric_limits<float>::max();
  const float edges[] = {max, -max, std::numeric_limits<float>::denorm_min(), -0.0f, 1.0f};
  for (size_t len = 0; len <= 53; ++len) {
    std::vector<float> x(len);
    for (size_t i = 0; i < len; ++i) x[i] = edges[i % 5];
    ASSERT_EQ(kernels::first_non_finite(x.data(), len, false), len) << "len " << len;
    ASSERT_EQ(kernels::first_nan(x.data(), len), len) << "len " << len;
    for (size_t at = 0; at < len; ++at) {
      for (float bad : {nan, inf, -inf}) {
        auto y = x;
        y[at] = bad;
        if (at + 1 < len) y[len - 1] = nan;  // a later bad value must not be the one reported
        ASSERT_EQ(kernels::first_non_finite(y.data(), len, false), at)
            << "len " << len << " at " << at << " value " << bad;
        const size_t allowed = bad == -inf ? (at + 1 < len ? len - 1 : len) : at;
        ASSERT_EQ(kernels::first_non_finite(y.data(), len, true), allowed)
            << "−inf allowed, len " << len << " at " << at;
        const size_t first_nan = bad != bad ? at : (at + 1 < len ? len - 1 : len);
        ASSERT_EQ(kernels::first_nan(y.data(), len), first_nan)
            << "len " << len << " at " << at << " value " << bad;
      }
    }
  }
}

TEST(Kernels, ExpShiftedSumMatchesDoubleAndZeroesMinusInfinity) {
  const float inf = std::numeric_limits<float>::infinity();
  for (size_t len : kKernelSizes) {
    auto x = random_floats(len, 21, -20, 5);
    for (size_t i = 0; i < len; i += 3) x[i] = -inf;
    std::vector<double> expected(len);
    double expected_sum = 0;
    for (size_t i = 0; i < len; ++i) expected_sum += (expected[i] = std::exp(double(x[i]) - 5.0));
    const float sum = kernels::exp_shifted_sum(x.data(), len, 5.0f);
    ASSERT_TRUE(all_close(x, expected, shape_of({len}), 1e-7, 2e-6));
    for (size_t i = 0; i < len; i += 3) ASSERT_EQ(x[i], 0.0f) << "exp(-inf) at " << i;
    ASSERT_NEAR(sum, expected_sum, 1e-6 + 2e-6 * expected_sum);
  }
}

TEST(Kernels, LayerNormRowsMatchDoubleAtEveryTail) {
  for (size_t len : kKernelSizes) {
    // Large, nearly equal values: the variance survives only if the sums are taken in double.
    auto x = random_floats(len, 41, -1, 1);
    for (float& v : x) v = 1000.0f + v;
    double sum = 0, sq = 0;
    for (float v : x) sum += v;
    const double mu = sum / double(len);
    for (float v : x) sq += (v - mu) * (v - mu);
    ASSERT_NEAR(kernels::sum_double(x.data(), len), sum, 1e-9 * std::fabs(sum)) << "len " << len;
    ASSERT_NEAR(kernels::squared_deviations_double(x.data(), len, mu), sq, 1e-9 * sq + 1e-12)
        << "len " << len;

    auto w = random_floats(len, 42, 0.5f, 2.0f), b = random_floats(len, 43);
    const float mean = float(mu), rstd = float(1.0 / std::sqrt(sq / double(len) + 1e-5));
    std::vector<float> out(len);
    std::vector<double> expected(len);
    kernels::normalize_row(x.data(), len, mean, rstd, w.data(), b.data(), out.data());
    for (size_t i = 0; i < len; ++i) expected[i] = (double(x[i]) - mean) * rstd * w[i] + b[i];
    ASSERT_TRUE(all_close(out, expected, shape_of({len}), 1e-4, 1e-5));

    // Backward: dw, db and dx accumulate into what they hold.
    auto dout = random_floats(len, 44), dw = random_floats(len, 45), db = random_floats(len, 46);
    auto dx = random_floats(len, 47);
    std::vector<double> want_dw(len), want_db(len), want_dx(len);
    double g_mean = 0, gx_mean = 0;
    for (size_t i = 0; i < len; ++i) {
      const double xhat = (double(x[i]) - mean) * rstd, g = double(dout[i]) * w[i];
      g_mean += g / double(len), gx_mean += g * xhat / double(len);
      want_dw[i] = dw[i] + dout[i] * xhat, want_db[i] = db[i] + double(dout[i]);
    }
    for (size_t i = 0; i < len; ++i) {
      const double xhat = (double(x[i]) - mean) * rstd;
      want_dx[i] = dx[i] + rstd * (double(dout[i]) * w[i] - g_mean - xhat * gx_mean);
    }
    kernels::layer_norm_backward_row(x.data(), dout.data(), w.data(), mean, rstd, len, dw.data(),
                                     db.data(), dx.data());
    ASSERT_TRUE(all_close(dw, want_dw, shape_of({len}), 1e-4, 1e-5)) << "dw";
    ASSERT_TRUE(all_close(db, want_db, shape_of({len}), 1e-6, 1e-6)) << "db";
    ASSERT_TRUE(all_close(dx, want_dx, shape_of({len}), 1e-3, 1e-4)) << "dx";
  }
}

// GPT-2's GELU against float64 at every tail, with saturated (|x| up to 30), tiny and zero inputs.
TEST(Kernels, GeluTanhAndItsDerivativeMatchDoubleAtEveryTail) {
  const double c = std::sqrt(2.0 / M_PI);
  for (size_t len : kKernelSizes) {
    auto x = random_floats(len, 51, -6, 6);
    const float specials[] = {0.0f, -0.0f, 1e-6f, -1e-6f, 30.0f, -30.0f, 9.5f, -9.5f};
    for (size_t i = 0; i < len; i += 2) x[i] = specials[(i / 2) % 8];
    auto dout = random_floats(len, 52);
    std::vector<float> out(len), dx(len);
    std::vector<double> want(len), want_dx(len);
    for (size_t i = 0; i < len; ++i) {
      const double v = x[i], u = c * (v + 0.044715 * v * v * v), t = std::tanh(u);
      want[i] = 0.5 * v * (1 + t);
      want_dx[i] =
          dout[i] * (0.5 * (1 + t) + 0.5 * v * (1 - t * t) * c * (1 + 3 * 0.044715 * v * v));
    }
    kernels::gelu_tanh(x.data(), out.data(), len);
    kernels::gelu_tanh_backward(x.data(), dout.data(), dx.data(), len);
    ASSERT_TRUE(all_close(out, want, shape_of({len}), 1e-7, 1e-6));
    ASSERT_TRUE(all_close(dx, want_dx, shape_of({len}), 1e-6, 1e-5));
  }
}

TEST(Kernels, RowBiasAndColumnSumsMatchDoubleAtEveryTail) {
  for (size_t rows : {1, 2, 3, 4, 5, 7, 8, 9})
    for (size_t cols : kKernelSizes) {
      auto y = random_floats(rows * cols, 61), x = random_floats(rows * cols, 62),
           b = random_floats(cols, 63);
      auto sums = random_floats(cols, 64);
      std::vector<double> want_y(rows * cols), want_sums(sums.begin(), sums.end());
      for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c) {
          want_y[r * cols + c] = double(y[r * cols + c]) + b[c];
          want_sums[c] += x[r * cols + c];
        }
      kernels::add_to_rows(y.data(), b.data(), rows, cols);
      kernels::add_column_sums(sums.data(), x.data(), rows, cols);
      ASSERT_TRUE(all_close(y, want_y, shape_of({rows, cols}), 1e-6, 1e-6));
      ASSERT_TRUE(all_close(sums, want_sums, shape_of({rows, cols}), 1e-6, 1e-6));
    }
}

// Float64 causal attention of one sequence and its gradients, for the four-lane kernels.
struct CausalReference {
  std::vector<double> w, o, dq, dk, dv;
};

CausalReference causal_reference(const float* q, const float* k, const float* v, size_t ld,
                                 const float* d_o, size_t T, size_t d, double scale) {
  CausalReference r{std::vector<double>(T * T), std::vector<double>(T * d),
                    std::vector<double>(T * d), std::vector<double>(T * d),
                    std::vector<double>(T * d)};
  for (size_t i = 0; i < T; ++i) {
    double top = -1e300, sum = 0;
    std::vector<double> s(i + 1);
    for (size_t j = 0; j <= i; ++j) {
      for (size_t p = 0; p < d; ++p) s[j] += double(q[i * ld + p]) * k[j * ld + p];
      s[j] *= scale, top = std::max(top, s[j]);
    }
    for (size_t j = 0; j <= i; ++j) sum += (s[j] = std::exp(s[j] - top));
    for (size_t j = 0; j <= i; ++j) {
      r.w[i * T + j] = s[j] / sum;
      for (size_t p = 0; p < d; ++p) r.o[i * d + p] += r.w[i * T + j] * v[j * ld + p];
    }
  }
  for (size_t i = 0; i < T; ++i) {
    double delta = 0;
    for (size_t p = 0; p < d; ++p) delta += double(d_o[i * d + p]) * r.o[i * d + p];
    for (size_t j = 0; j <= i; ++j) {
      double dp = 0;
      for (size_t p = 0; p < d; ++p) dp += double(d_o[i * d + p]) * v[j * ld + p];
      const double a = r.w[i * T + j], ds = a * (dp - delta) * scale;
      for (size_t p = 0; p < d; ++p) {
        r.dq[i * d + p] += ds * k[j * ld + p];
        r.dk[j * d + p] += ds * q[i * ld + p];
        r.dv[j * d + p] += a * d_o[i * d + p];
      }
    }
  }
  return r;
}

TEST(Kernels, CausalAttentionOfFourSequencesMatchesDoubleAtEverySize) {
  for (size_t T : {1, 2, 3, 5, 8, 17, 32, 33})
    for (size_t d : {1, 3, 4, 8, 9, 16}) {
      const size_t ld = 3 * d + 2;  // q, k, v side by side in rows, as a qkv block
      const float scale = 1.0f / std::sqrt(float(d));
      std::vector<std::vector<float>> qkv, d_out;
      FourSequences in;
      in.ld_in = ld;
      float* w[4];
      float* o[4];
      std::vector<std::vector<float>> ws(4, std::vector<float>(T * T)),
          os(4, std::vector<float>(T * d));
      for (size_t s = 0; s < 4; ++s) {
        qkv.push_back(random_floats(T * ld, uint32_t(70 + 10 * s + T), -2, 2));
        d_out.push_back(random_floats(T * d, uint32_t(71 + 10 * s + d)));
        in.q[s] = qkv[s].data(), in.k[s] = qkv[s].data() + d, in.v[s] = qkv[s].data() + 2 * d;
        w[s] = ws[s].data(), o[s] = os[s].data();
      }
      std::vector<float> scratch(kernels::causal_attention_x4_scratch_floats(T, d));
      kernels::causal_attention_x4(in, T, d, scale, w, o, d, scratch.data());
      for (bool accumulate : {false, true}) {
        std::vector<std::vector<float>> g(
            12, std::vector<float>(T * (d + 1), 0.5f));  // row stride d + 1
        float* dq[4];
        float* dk[4];
        float* dv[4];
        const float* wc[4];
        const float* oc[4];
        const float* doc[4];
        for (size_t s = 0; s < 4; ++s) {
          dq[s] = g[s].data(), dk[s] = g[4 + s].data(), dv[s] = g[8 + s].data();
          wc[s] = w[s], oc[s] = o[s], doc[s] = d_out[s].data();
        }
        kernels::causal_attention_x4_backward(in, T, d, scale, wc, oc, doc, d, dq, dk, dv, d + 1,
                                              accumulate, scratch.data());
        for (size_t s = 0; s < 4; ++s) {
          const auto ref =
              causal_reference(in.q[s], in.k[s], in.v[s], ld, d_out[s].data(), T, d, scale);
          const std::string at = shape_of({T, d}) + " sequence " + std::to_string(s);
          ASSERT_TRUE(all_close(ws[s], ref.w, at, 1e-6, 1e-5)) << "weights";
          for (size_t i = 0; i < T; ++i)
            for (size_t j = i + 1; j < T; ++j)
              ASSERT_EQ(ws[s][i * T + j], 0.0f) << at << " hidden weight";
          ASSERT_TRUE(all_close(os[s], ref.o, at, 1e-5, 1e-5)) << "output";
          const double base = accumulate ? 0.5 : 0.0;
          for (size_t i = 0; i < T; ++i)
            for (size_t p = 0; p < d; ++p) {
              ASSERT_NEAR(dq[s][i * (d + 1) + p], base + ref.dq[i * d + p], 1e-4)
                  << at << " dq " << i << "," << p;
              ASSERT_NEAR(dk[s][i * (d + 1) + p], base + ref.dk[i * d + p], 1e-4)
                  << at << " dk " << i << "," << p;
              ASSERT_NEAR(dv[s][i * (d + 1) + p], base + ref.dv[i * d + p], 1e-4)
                  << at << " dv " << i << "," << p;
            }
          for (size_t i = 0; i < T; ++i)
            ASSERT_EQ(dq[s][i * (d + 1) + d], 0.5f) << at << " padding written";
        }
      }
    }
}

}  // namespace
}  // namespace attn
