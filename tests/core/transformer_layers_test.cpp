// The transformer's layers against float64 plain-loop versions written here: forward values, and
// backward passes against central finite differences of the float64 forward.
#include <cmath>
#include <functional>
#include <vector>

#include "cross_entropy.h"
#include "gelu.h"
#include "layer_norm.h"
#include "linear.h"
#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h
using Vec = std::vector<double>;

std::vector<double> to_double(const std::vector<float>& v) { return Vec(v.begin(), v.end()); }

// ∂f/∂x by central differences in float64.
Vec numeric_gradient(const std::function<double(const Vec&)>& f, Vec x, double h = 1e-5) {
  Vec g(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double keep = x[i];
    x[i] = keep + h;
    const double up = f(x);
    x[i] = keep - h;
    const double down = f(x);
    x[i] = keep;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}

Vec ref_layer_norm(const Vec& x, const Vec& w, const Vec& b, size_t rows, size_t cols) {
  Vec out(x.size());
  for (size_t r = 0; r < rows; ++r) {
    double mu = 0, var = 0;
    for (size_t c = 0; c < cols; ++c) mu += x[r * cols + c];
    mu /= cols;
    for (size_t c = 0; c < cols; ++c) var += (x[r * cols + c] - mu) * (x[r * cols + c] - mu);
    var /= cols;
    for (size_t c = 0; c < cols; ++c)
      out[r * cols + c] = (x[r * cols + c] - mu) / std::sqrt(var + 1e-5) * w[c] + b[c];
  }
  return out;
}

double ref_gelu(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}

double dot(const Vec& a, const Vec& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

TEST(LayerNorm, ForwardAndBackwardMatchFloat64) {
  for (size_t cols : {1u, 3u, 8u, 33u}) {
    const size_t rows = 5;
    auto x = random_floats(rows * cols, 1, -3, 3), w = random_floats(cols, 2, 0.5, 1.5);
    auto b = random_floats(cols, 3), r = random_floats(rows * cols, 4);  // loss = Σ r·out
    std::vector<float> out(rows * cols), mean(rows), rstd(rows);
    layer_norm_forward(x.data(), w.data(), b.data(), out.data(), mean.data(), rstd.data(), rows,
                       cols);
    const Vec X = to_double(x), W = to_double(w), B = to_double(b), R = to_double(r);
    EXPECT_TRUE(all_close(out, ref_layer_norm(X, W, B, rows, cols), "out", 1e-5, 1e-5));

    std::vector<float> dx(rows * cols, 0.5f), dw(cols, 0.25f), db(cols, 0.0f);  // accumulates
    layer_norm_backward(x.data(), w.data(), mean.data(), rstd.data(), r.data(), dx.data(),
                        dw.data(), db.data(), rows, cols);
    Vec ex = numeric_gradient(
        [&](const Vec& v) { return dot(R, ref_layer_norm(v, W, B, rows, cols)); }, X);
    Vec ew = numeric_gradient(
        [&](const Vec& v) { return dot(R, ref_layer_norm(X, v, B, rows, cols)); }, W);
    Vec eb = numeric_gradient(
        [&](const Vec& v) { return dot(R, ref_layer_norm(X, W, v, rows, cols)); }, B);
    for (double& v : ex) v += 0.5;
    for (double& v : ew) v += 0.25;
    EXPECT_TRUE(all_close(dx, ex, "dx cols " + std::to_string(cols), 1e-4, 1e-4));
    EXPECT_TRUE(all_close(dw, ew, "dw", 1e-4, 1e-4));
    EXPECT_TRUE(all_close(db, eb, "db", 1e-4, 1e-4));
  }
}

TEST(Gelu, TanhFormAndDerivative) {
  auto x = random_floats(101, 5, -6, 6);
  x.push_back(0.0f), x.push_back(-30.0f), x.push_back(30.0f);
  std::vector<float> out(x.size()), dx(x.size()), ones(x.size(), 1.0f);
  gelu_forward(x.data(), out.data(), x.size());
  Vec expected, slope;
  for (float v : x) {
    expected.push_back(ref_gelu(v));
    slope.push_back((ref_gelu(v + 1e-5) - ref_gelu(v - 1e-5)) / 2e-5);
  }
  EXPECT_TRUE(all_close(out, expected, "gelu", 1e-6, 1e-5));
  gelu_backward(x.data(), ones.data(), dx.data(), x.size());
  EXPECT_TRUE(all_close(dx, slope, "gelu'", 1e-5, 1e-4));
  EXPECT_EQ(out[x.size() - 2], -0.0f);  // no NaN far out on either side
  EXPECT_EQ(out.back(), 30.0f);
}

// y = GELU(x·W1 + b1)·W2 + b2 in float64.
Vec ref_mlp(const Vec& x, const Vec& w1, const Vec& b1, const Vec& w2, const Vec& b2, size_t rows,
            size_t in, size_t hidden) {
  Vec y(rows * in);
  for (size_t r = 0; r < rows; ++r) {
    Vec h(hidden);
    for (size_t j = 0; j < hidden; ++j) {
      double s = b1[j];
      for (size_t k = 0; k < in; ++k) s += x[r * in + k] * w1[k * hidden + j];
      h[j] = ref_gelu(s);
    }
    for (size_t j = 0; j < in; ++j) {
      double s = b2[j];
      for (size_t k = 0; k < hidden; ++k) s += h[k] * w2[k * in + j];
      y[r * in + j] = s;
    }
  }
  return y;
}

// Sizes below, at and above the 16-column panels, the kernels' 8-row packing threshold and the
// 32 × 8 tiles of the transpose.
TEST(Mlp, LinearGeluLinearBackwardMatchesFiniteDifferences) {
  for (size_t rows : {1u, 7u, 9u, 20u, 40u})
    for (size_t in : {3u, 16u, 17u}) {
      const size_t hidden = 4 * in;
      auto x = random_floats(rows * in, 10), w1 = random_floats(in * hidden, 11, -0.5, 0.5);
      auto b1 = random_floats(hidden, 12), w2 = random_floats(hidden * in, 13, -0.5, 0.5);
      auto b2 = random_floats(in, 14), r = random_floats(rows * in, 15);
      std::vector<float> h(rows * hidden), a(rows * hidden), y(rows * in);
      linear_forward(x.data(), w1.data(), b1.data(), h.data(), rows, in, hidden);
      gelu_forward(h.data(), a.data(), h.size());
      linear_forward(a.data(), w2.data(), b2.data(), y.data(), rows, hidden, in);
      const Vec X = to_double(x), W1 = to_double(w1), B1 = to_double(b1), W2 = to_double(w2),
                B2 = to_double(b2), R = to_double(r);
      const std::string shape = testing::shape_of({rows, in, hidden});
      EXPECT_TRUE(
          all_close(y, ref_mlp(X, W1, B1, W2, B2, rows, in, hidden), "y " + shape, 1e-5, 1e-5));

      std::vector<float> scratch(std::max(linear_backward_scratch_floats(rows, hidden, in),
                                          linear_backward_scratch_floats(rows, in, hidden)));
      std::vector<float> da(rows * hidden), dx(rows * in), dw1(w1.size()), db1(hidden),
          dw2(w2.size()), db2(in);
      linear_backward(a.data(), w2.data(), r.data(), da.data(), dw2.data(), db2.data(), rows,
                      hidden, in, scratch.data());
      gelu_backward(h.data(), da.data(), da.data(), da.size());
      linear_backward(x.data(), w1.data(), da.data(), dx.data(), dw1.data(), db1.data(), rows, in,
                      hidden, scratch.data());
      auto loss = [&](const Vec& X_, const Vec& W1_, const Vec& B1_, const Vec& W2_,
                      const Vec& B2_) {
        return dot(R, ref_mlp(X_, W1_, B1_, W2_, B2_, rows, in, hidden));
      };
      EXPECT_TRUE(
          all_close(dx, numeric_gradient([&](const Vec& v) { return loss(v, W1, B1, W2, B2); }, X),
                    "dx " + shape, 1e-4, 1e-4));
      EXPECT_TRUE(
          all_close(dw1, numeric_gradient([&](const Vec& v) { return loss(X, v, B1, W2, B2); }, W1),
                    "dw1 " + shape, 1e-4, 1e-4));
      EXPECT_TRUE(
          all_close(db1, numeric_gradient([&](const Vec& v) { return loss(X, W1, v, W2, B2); }, B1),
                    "db1 " + shape, 1e-4, 1e-4));
      EXPECT_TRUE(
          all_close(dw2, numeric_gradient([&](const Vec& v) { return loss(X, W1, B1, v, B2); }, W2),
                    "dw2 " + shape, 1e-4, 1e-4));
      EXPECT_TRUE(
          all_close(db2, numeric_gradient([&](const Vec& v) { return loss(X, W1, B1, W2, v); }, B2),
                    "db2 " + shape, 1e-4, 1e-4));
    }
}

double ref_cross_entropy(const Vec& z, const std::vector<int32_t>& t, size_t vocab) {
  double total = 0;
  size_t count = 0;
  for (size_t r = 0; r < t.size(); ++r) {
    if (t[r] < 0) continue;
    double sum = 0;
    for (size_t j = 0; j < vocab; ++j) sum += std::exp(z[r * vocab + j]);
    total += std::log(sum) - z[r * vocab + t[r]];
    ++count;
  }
  return total / count;
}

TEST(CrossEntropy, MeanOverCountedTargetsAndGradient) {
  const size_t rows = 6, vocab = 11;
  auto z = random_floats(rows * vocab, 20, -4, 4);
  z[3] = 60.0f;  // a large logit: the shifted log-sum-exp must not overflow
  const std::vector<int32_t> targets = {3, -1, 0, 10, -1, 5};
  ASSERT_EQ(count_targets(targets.data(), rows), 4u);
  std::vector<float> d(z.size(), 7.0f);
  const double loss = cross_entropy(z.data(), targets.data(), rows, vocab, 4, d.data());
  const Vec Z = to_double(z);
  EXPECT_NEAR(loss, ref_cross_entropy(Z, targets, vocab), 1e-6);
  Vec expected =
      numeric_gradient([&](const Vec& v) { return ref_cross_entropy(v, targets, vocab); }, Z);
  EXPECT_TRUE(all_close(d, expected, "dlogits", 1e-6, 1e-4));
  for (size_t j = 0; j < vocab; ++j)
    EXPECT_EQ(d[1 * vocab + j], 0.0f) << "ignored row, column " << j;

  // In place, as the transformer uses it.
  std::vector<float> in_place = z;
  cross_entropy(in_place.data(), targets.data(), rows, vocab, 4, in_place.data());
  EXPECT_TRUE(all_close(in_place, d, "in place", 0, 0));
}

}  // namespace
}  // namespace attn
