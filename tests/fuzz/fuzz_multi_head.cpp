// libFuzzer harness for attn::multi_head_attention and attn::multi_head_with_pitfall: heads that
// divide E (head dims 1…12, not only multiples of 4), self- and cross-attention with kdim/vdim,
// with and without biases, batches, causal / boolean / additive / key-padding masks, every output
// combination (per-head or averaged weights, traces, output only = streaming heads).
//
// Always: no crash, no sanitizer report; invalid shapes are refused with a status. When all values
// are finite and no score can overflow float32: no NaN, and the output, weights and trace agree
// with attn::reference within error bounds propagated through the projections (error_bounds.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "error_bounds.h"
#include "fuzz_input.h"
#include "multi_head_attention.h"
#include "pitfalls.h"
#include "reference.h"

namespace {

constexpr double kInRange = 1e30;

struct Projection {
  std::vector<double> y, e;  // values and error bounds, rows × E
  double magnitude = 0.0;    // largest Σ|x·w| + |b|: no partial sum of the float32 version exceeds it
};

// y = x·w + b in double, with the float32 error bound of computing it.
Projection project(const std::vector<float>& x, size_t rows, size_t in, const float* w,
                   const float* b, size_t out) {
  Projection p;
  p.y.assign(rows * out, 0.0);
  p.e.assign(rows * out, 0.0);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < out; ++c) {
      double acc = b ? b[c] : 0.0, mag = b ? std::fabs(b[c]) : 0.0;
      for (size_t i = 0; i < in; ++i) {
        acc += double(x[r * in + i]) * w[i * out + c];
        mag += std::fabs(double(x[r * in + i]) * w[i * out + c]);
      }
      p.y[r * out + c] = acc;
      p.e[r * out + c] = (in + 1) * (fuzz::kU * mag + fuzz::kUnderflow);
      p.magnitude = std::max(p.magnitude, mag);
    }
  return p;
}

void check_close(const char* what, const float* actual, const double* expected, const double* bound,
                 size_t count) {
  const size_t bad = fuzz::first_mismatch(actual, expected, bound, count);
  FUZZ_CHECK(bad == count, "%s[%zu]: actual %.9g, expected %.9g, bound %.3g", what, bad,
             double(actual[bad]), expected[bad], bound[bad]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  attn::MultiHeadProblem p;
  const size_t H = in.range(1, 4), d = in.range(1, 12), E = H * d;
  const bool self = in.flag();
  p.shape = {E, H, self ? E : in.range(1, 16), self ? E : in.range(1, 16), in.flag()};
  if (in.byte() == 255) {  // invalid shapes must be refused, not crash
    attn::MultiHeadShape bad = p.shape;
    bad.num_heads = in.range(0, 9);
    bad.embed_dim = in.range(0, 9);
    const bool valid = bad.num_heads && bad.embed_dim && bad.embed_dim % bad.num_heads == 0;
    FUZZ_CHECK(attn::validate_multi_head_shape(bad).ok() == valid, "validate E=%zu h=%zu",
               bad.embed_dim, bad.num_heads);
    return 0;
  }
  const bool tiles = in.byte() >= 240;
  p.batch = tiles ? 1 : in.range(1, 2);
  p.n = tiles ? in.range(60, 70) : in.range(1, 12);
  p.m = self ? p.n : tiles ? in.range(250, 260) : in.range(1, 12);
  const size_t B = p.batch, n = p.n, m = p.m, nm = n * m, kdim = p.shape.kdim, vdim = p.shape.vdim;

  const int wmag = in.magnitude(), xmag = in.magnitude();
  const std::vector<float> wq = in.values(E * E, wmag), wk = in.values(kdim * E, wmag),
                           wv = in.values(vdim * E, wmag), wo = in.values(E * E, wmag);
  const std::vector<float> biases = in.values(4 * E, wmag);
  p.weights = {wq.data(), wk.data(), wv.data(), wo.data()};
  if (p.shape.has_bias) {
    p.weights.bq = biases.data(), p.weights.bk = biases.data() + E;
    p.weights.bv = biases.data() + 2 * E, p.weights.bo = biases.data() + 3 * E;
  }
  const std::vector<float> query = in.values(B * n * E, xmag);
  const std::vector<float> key = self ? query : in.values(B * m * kdim, xmag);
  const std::vector<float> value = self ? query : in.values(B * m * vdim, xmag);
  p.query = query.data(), p.key = key.data(), p.value = value.data();
  p.causal = in.flag();
  std::vector<uint8_t> mask, padding;
  std::vector<float> bias;
  if (in.flag()) {
    mask = in.flags(nm, in.byte());
    p.mask = mask.data();
  }
  if (in.flag()) {
    const int mag = in.magnitude();
    const uint8_t neg_inf = in.byte() / 2;
    bias = in.values(nm, mag);
    for (float& x : bias)
      if (in.byte() < neg_inf) x = -std::numeric_limits<float>::infinity();
    p.bias = bias.data();
  }
  if (in.flag()) {
    padding = in.flags(B * m, in.byte());
    p.key_padding = padding.data();
  }

  // Everything, averaged weights only, output only (streaming heads).
  std::vector<float> out_all(B * n * E), out_avg(B * n * E), out_only(B * n * E);
  std::vector<float> w_heads(B * H * nm), w_avg(B * nm), qp(B * n * E), kp(B * m * E), vp(B * m * E),
      scores(B * H * nm), scaled(B * H * nm), masked(B * H * nm), head_w(B * H * nm),
      head_out(B * H * n * d), concat(B * n * E);
  std::vector<uint8_t> fully_all(B * n, 9), fully_only(B * n, 9);
  attn::MultiHeadResult all;
  all.output = out_all.data(), all.weights = w_heads.data(), all.average_weights = false;
  all.q_proj = qp.data(), all.k_proj = kp.data(), all.v_proj = vp.data();
  all.scores = scores.data(), all.scaled = scaled.data(), all.masked = masked.data();
  all.head_weights = head_w.data(), all.head_outputs = head_out.data(), all.concat = concat.data();
  all.fully_masked_rows = fully_all.data();
  attn::MultiHeadResult avg;
  avg.output = out_avg.data(), avg.weights = w_avg.data(), avg.average_weights = true;
  attn::MultiHeadResult only;
  only.output = out_only.data(), only.fully_masked_rows = fully_only.data();
  for (const attn::MultiHeadResult* r : {&all, &avg, &only}) {
    std::vector<float> ws(attn::multi_head_workspace_floats(p, *r));
    const attn::Status status = attn::multi_head_attention(p, *r, ws.data());
    FUZZ_CHECK(status.ok(), "multi_head_attention: %s", status.message.c_str());
  }
  // Pitfalls are plain loops meant for lesson sizes: exercised on the small problems only.
  std::vector<float> pit_out(B * n * E), pit_w(B * nm);
  for (int pitfall = 0; pitfall <= 5 && !tiles; ++pitfall)
    FUZZ_CHECK(attn::multi_head_with_pitfall(p, static_cast<attn::Pitfall>(pitfall), pit_out.data(),
                                             pitfall % 2 ? pit_w.data() : nullptr).ok(), "pitfall %d", pitfall);

  bool finite = fuzz::all_finite(wq) && fuzz::all_finite(wk) && fuzz::all_finite(wv) &&
                fuzz::all_finite(wo) && fuzz::all_finite(biases) && fuzz::all_finite(query) &&
                fuzz::all_finite(key) && fuzz::all_finite(value);
  for (float x : bias) finite = finite && (std::isfinite(x) || x == -std::numeric_limits<float>::infinity());
  if (!finite) return 0;

  const Projection Q = project(query, B * n, E, p.weights.wq, p.weights.bq, E);
  const Projection K = project(key, B * m, kdim, p.weights.wk, p.weights.bk, E);
  const Projection V = project(value, B * m, vdim, p.weights.wv, p.weights.bv, E);
  if (Q.magnitude > kInRange || K.magnitude > kInRange || V.magnitude > kInRange) return 0;
  const double scale = 1.0 / std::sqrt(double(d));
  std::vector<double> w_all(B * H * nm), e_w_all(B * H * nm), w_mean(B * nm, 0.0), e_w_mean(B * nm, 0.0);
  std::vector<double> cat(B * n * E), e_cat(B * n * E);
  std::vector<uint8_t> fully(B * n);
  double max_score = 0.0;
  for (size_t b = 0; b < B; ++b)
    for (size_t h = 0; h < H; ++h) {
      const size_t qo = b * n * E + h * d, ko = b * m * E + h * d;
      const uint8_t* pad = p.key_padding ? p.key_padding + b * m : nullptr;
      const fuzz::HeadBounds hb = fuzz::head_bounds(
          n, m, d, d, Q.y.data() + qo, Q.e.data() + qo, E, K.y.data() + ko, K.e.data() + ko, E,
          V.y.data() + ko, V.e.data() + ko, E, scale, fuzz::kU,
          [&](size_t i, size_t j) { return (p.causal && j > i) || (p.mask && p.mask[i * m + j]) || (pad && pad[j]); },
          [&](size_t i, size_t j) { return p.bias ? double(p.bias[i * m + j]) : 0.0; });
      if (hb.max_score_magnitude > kInRange) return 0;  // float32 overflow: a known, reported limit
      max_score = std::max(max_score, hb.max_score_magnitude);
      for (size_t x = 0; x < nm; ++x) {
        w_all[(b * H + h) * nm + x] = hb.weights[x];
        e_w_all[(b * H + h) * nm + x] = hb.e_weights[x];
        w_mean[b * nm + x] += hb.weights[x] / H;
        e_w_mean[b * nm + x] += hb.e_weights[x] / H + 2 * fuzz::kU * hb.weights[x];
      }
      for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < d; ++c) {
          cat[(b * n + i) * E + h * d + c] = hb.output[i * d + c];
          e_cat[(b * n + i) * E + h * d + c] = hb.e_output[i * d + c];
        }
      if (h == 0) std::copy(hb.fully_masked.begin(), hb.fully_masked.end(), fully.begin() + b * n);
    }
  std::vector<double> out(B * n * E), e_out(B * n * E);
  double out_magnitude = 0.0;
  for (size_t r = 0; r < B * n; ++r)
    for (size_t c = 0; c < E; ++c) {
      double acc = p.weights.bo ? p.weights.bo[c] : 0.0, mag = std::fabs(acc), err = 0.0;
      for (size_t x = 0; x < E; ++x) {
        acc += cat[r * E + x] * wo[x * E + c];
        mag += std::fabs(cat[r * E + x] * wo[x * E + c]);
        err += e_cat[r * E + x] * std::fabs(wo[x * E + c]);
      }
      out[r * E + c] = acc;
      e_out[r * E + c] = err + (E + 1) * (fuzz::kU * mag + fuzz::kUnderflow);
      out_magnitude = std::max(out_magnitude, mag + err);
    }
  if (out_magnitude > kInRange) return 0;  // the output itself leaves float32's range

  // The oracle itself: attn::reference and these float64 loops agree.
  const attn::reference::MultiHeadReference ref = attn::reference::multi_head_attention(p);
  for (size_t x = 0; x < out.size(); ++x)
    FUZZ_CHECK(std::fabs(ref.output[x] - out[x]) <= 1e-9 * std::fabs(out[x]) + 1e-6 * e_out[x] + 1e-300,
               "reference output %zu: %.17g vs %.17g", x, ref.output[x], out[x]);
  for (size_t x = 0; x < B * n; ++x) FUZZ_CHECK(ref.fully_masked_rows[x] == fully[x], "reference fully masked %zu", x);

  for (size_t x = 0; x < B * n; ++x) {
    FUZZ_CHECK(fully_all[x] == fully[x], "fully_masked_rows[%zu] = %d", x, fully_all[x]);
    FUZZ_CHECK(fully_only[x] == fully[x], "fully_masked_rows[%zu] = %d (streaming)", x, fully_only[x]);
  }
  check_close("output", out_all.data(), out.data(), e_out.data(), out.size());
  check_close("output (averaged weights)", out_avg.data(), out.data(), e_out.data(), out.size());
  check_close("output (streaming)", out_only.data(), out.data(), e_out.data(), out.size());
  check_close("per-head weights", w_heads.data(), w_all.data(), e_w_all.data(), w_all.size());
  check_close("trace head weights", head_w.data(), w_all.data(), e_w_all.data(), w_all.size());
  check_close("averaged weights", w_avg.data(), w_mean.data(), e_w_mean.data(), w_mean.size());
  check_close("q projection", qp.data(), Q.y.data(), Q.e.data(), Q.y.size());
  check_close("k projection", kp.data(), K.y.data(), K.e.data(), K.y.size());
  check_close("v projection", vp.data(), V.y.data(), V.e.data(), V.y.size());
  check_close("concat", concat.data(), cat.data(), e_cat.data(), cat.size());
  // A mistake can give weight to keys the correct layer hides, so its output is bounded by every
  // value row, not only the visible ones: each head's output is a combination of V's rows with
  // weights ≥ 0 summing to at most 1, then W_O. Beyond float32's range it may be infinite, the
  // same known limit as the correct output above.
  std::vector<double> v_max(E, 0.0);
  for (size_t j = 0; j < B * m; ++j)
    for (size_t x = 0; x < E; ++x) v_max[x] = std::max(v_max[x], std::fabs(V.y[j * E + x]) + V.e[j * E + x]);
  double pitfall_magnitude = *std::max_element(v_max.begin(), v_max.end());
  for (size_t c = 0; c < E; ++c) {
    double mag = p.weights.bo ? std::fabs(double(p.weights.bo[c])) : 0.0;
    for (size_t x = 0; x < E; ++x) mag += v_max[x] * std::fabs(double(wo[x * E + c]));
    pitfall_magnitude = std::max(pitfall_magnitude, mag);
  }
  for (int pitfall = 5; pitfall >= 0 && !tiles && pitfall_magnitude <= kInRange; --pitfall) {
    attn::multi_head_with_pitfall(p, static_cast<attn::Pitfall>(pitfall), pit_out.data(), pit_w.data());
    for (float x : pit_out) FUZZ_CHECK(std::isfinite(x), "pitfall %d output %g", pitfall, x);
    for (float x : pit_w) FUZZ_CHECK(std::isfinite(x), "pitfall %d weight %g", pitfall, x);
  }
  return 0;
}
