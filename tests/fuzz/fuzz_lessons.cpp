// libFuzzer harness for the lesson analysis (lesson_analysis.h): histogram, moments, row
// statistics, softmax_rows, attention_cost and sample_dot_products with arbitrary sizes, ranges and
// values, including NaN, infinities and values far outside the histogram range.
//
// Always: no crash, no sanitizer report, and the documented contracts: histogram counts add up to
// the number of values; softmax rows of finite (or −∞) scores within float32 range hold no NaN and
// sum to 1 (or are all 0); entropy lies in [0, ln cols]; scaled dot products are raw / √dk.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "fuzz_input.h"
#include "lesson_analysis.h"

namespace {

double any_double(fuzz::Input& in, bool raw) {
  if (raw) {
    const uint64_t bits = static_cast<uint64_t>(in.u32()) | (static_cast<uint64_t>(in.u32()) << 32);
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }
  return static_cast<int16_t>(in.u16()) / 256.0;
}

void check_histogram(fuzz::Input& in) {
  const bool raw = in.flag();
  std::vector<double> values(in.range(0, 200));
  for (double& x : values) x = any_double(in, raw);
  const size_t bins = in.range(0, 300);
  const double lo = any_double(in, in.flag()), hi = any_double(in, in.flag());
  std::vector<uint32_t> counts(bins + 1, 0xdeadbeef);
  const attn::Status status =
      attn::histogram(values.data(), values.size(), bins, lo, hi, counts.data());
  FUZZ_CHECK(counts[bins] == 0xdeadbeef, "histogram wrote past %zu bins", bins);
  if (status.ok()) {
    uint64_t total = 0;
    for (size_t b = 0; b < bins; ++b) total += counts[b];
    FUZZ_CHECK(total == values.size(), "histogram counts add up to %llu, not %zu",
               static_cast<unsigned long long>(total), values.size());
  } else {
    const double width = bins ? (hi - lo) / double(bins) : 0.0;
    FUZZ_CHECK(bins == 0 || !(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi) ||
                   !(width > 0.0) || !std::isfinite(width),
               "histogram refused bins=%zu lo=%g hi=%g: %s", bins, lo, hi, status.message.c_str());
  }
  const attn::Moments m = attn::moments(values.data(), values.size());
  if (!raw) FUZZ_CHECK(std::isfinite(m.mean) && m.std >= 0.0, "moments %g %g", m.mean, m.std);
}

// Finite (or −∞) scores that stay within float32's range once scaled.
bool scores_in_range(const std::vector<float>& scores, float scale) {
  bool in_range = true;
  for (float x : scores)
    in_range = in_range && (x == -std::numeric_limits<float>::infinity() ||
                            (std::isfinite(x) && std::fabs(double(x) * scale) < 1e30));
  return in_range;
}

// Each row of softmax output sums to 1 (0 when all its scores are −∞), its entropy lies in
// [0, ln cols], and it holds no NaN.
void check_softmax_output(const std::vector<float>& scores, const std::vector<float>& out,
                          const std::vector<float>& entropy, const std::vector<float>& sum,
                          size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r) {
    bool hidden = true;
    for (size_t c = 0; c < cols; ++c)
      hidden = hidden && scores[r * cols + c] == -std::numeric_limits<float>::infinity();
    const double want = hidden ? 0.0 : 1.0;
    FUZZ_CHECK(std::fabs(sum[r] - want) <= 4 * (cols + 8) / 16777216.0,
               "softmax row %zu sums to %.9g", r, double(sum[r]));
    FUZZ_CHECK(entropy[r] >= 0.0f && entropy[r] <= std::log(double(cols)) + 1e-5,
               "entropy %g of %zu columns", double(entropy[r]), cols);
    for (size_t c = 0; c < cols; ++c) FUZZ_CHECK(std::isfinite(out[r * cols + c]), "softmax NaN");
  }
}

void check_softmax_rows(fuzz::Input& in) {
  const size_t rows = in.range(1, 12), cols = in.range(1, 40);
  const int mag = in.magnitude();
  std::vector<float> scores = in.values(rows * cols, mag);
  const uint8_t neg_inf = in.byte() / 2;
  for (float& x : scores)
    if (in.byte() < neg_inf) x = -std::numeric_limits<float>::infinity();
  const uint8_t scale_code = in.byte();
  const float scale =
      scale_code == 0 ? 0.0f : float(std::pow(10.0, (int(scale_code) - 128) / 16.0));
  std::vector<float> out(rows * cols), entropy(rows), max(rows), sum(rows);
  const attn::Status status = attn::softmax_rows(scores.data(), rows, cols, scale, out.data());
  FUZZ_CHECK(status.ok() == (scale > 0.0f && std::isfinite(scale)), "softmax_rows scale %g: '%s'",
             scale, status.message.c_str());
  attn::row_statistics(scores.data(), rows, cols, in.flag() ? entropy.data() : nullptr, max.data(),
                       in.flag() ? sum.data() : nullptr);
  if (!status.ok()) return;
  if (!scores_in_range(scores, scale)) return;  // overflowing scores: the known float32 limit
  attn::row_statistics(out.data(), rows, cols, entropy.data(), max.data(), sum.data());
  check_softmax_output(scores, out, entropy, sum, rows, cols);
}

void check_attention_cost(fuzz::Input& in) {
  attn::AttentionCost cost;
  const size_t n = in.u32(), m = in.u32(), d = in.range(0, 70000), h = in.range(0, 70000);
  const attn::Status status = attn::attention_cost(n, m, d, h, in.flag(), &cost);
  if (status.ok())
    FUZZ_CHECK(cost.parameters >= 0 && cost.attention_matrix_bytes >= 0, "cost");
  else
    FUZZ_CHECK(n == 0 || m == 0 || d == 0 || h == 0 || d % h != 0, "attention_cost refused: %s",
               status.message.c_str());
}

void check_sample_dot_products(fuzz::Input& in) {
  const uint32_t seed = in.u32();
  const size_t dk = in.range(0, 70), count = in.range(0, 50);
  std::vector<double> raw(count + 1, 7.0), scaled(count + 1, 7.0);
  const attn::Status status = attn::sample_dot_products(seed, dk, count, raw.data(), scaled.data());
  FUZZ_CHECK(status.ok() == (dk > 0), "sample_dot_products dk=%zu: '%s'", dk,
             status.message.c_str());
  FUZZ_CHECK(raw[count] == 7.0 && scaled[count] == 7.0, "sample_dot_products wrote past %zu",
             count);
  if (status.ok())
    for (size_t i = 0; i < count; ++i)
      FUZZ_CHECK(std::isfinite(raw[i]) && std::fabs(scaled[i] - raw[i] / std::sqrt(double(dk))) <=
                                              1e-12 * (1 + std::fabs(raw[i])),
                 "dot product %zu: raw %g scaled %g", i, raw[i], scaled[i]);
}

// Arbitrary floats (NaN, infinities, negatives): only that nothing is written past the rows.
void check_row_statistics(fuzz::Input& in) {
  const size_t rows = in.range(0, 8), cols = in.range(0, 30);
  const std::vector<float> w = in.values(rows * cols, in.magnitude());
  std::vector<float> entropy(rows + 1, 7.f), max(rows + 1, 7.f), sum(rows + 1, 7.f);
  attn::row_statistics(w.data(), rows, cols, entropy.data(), max.data(), sum.data());
  FUZZ_CHECK(entropy[rows] == 7.f && max[rows] == 7.f && sum[rows] == 7.f,
             "row_statistics wrote past %zu rows", rows);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  switch (in.byte() % 5) {
    case 0:
      check_histogram(in);
      break;  // histogram + moments
    case 1:
      check_softmax_rows(in);
      break;  // softmax_rows + row_statistics
    case 2:
      check_attention_cost(in);
      break;  // attention_cost with any sizes
    case 3:
      check_sample_dot_products(in);
      break;
    case 4:
      check_row_statistics(in);
      break;
  }
  return 0;
}
