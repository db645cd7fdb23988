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

// The problem and the storage its pointers point into (so it is neither copied nor moved).
struct MultiHeadInput {
  attn::MultiHeadProblem p;
  std::vector<float> wq, wk, wv, wo, biases, query, key, value, bias;
  std::vector<uint8_t> mask, padding;
  bool self = false, tiles = false;

  MultiHeadInput() = default;
  MultiHeadInput(const MultiHeadInput&) = delete;
  MultiHeadInput& operator=(const MultiHeadInput&) = delete;

  // Finite values everywhere (a bias may hide keys with −∞): the inputs numbers are checked for.
  bool finite() const {
    bool ok = fuzz::all_finite(wq) && fuzz::all_finite(wk) && fuzz::all_finite(wv) &&
              fuzz::all_finite(wo) && fuzz::all_finite(biases) && fuzz::all_finite(query) &&
              fuzz::all_finite(key) && fuzz::all_finite(value);
    for (float x : bias)
      ok = ok && (std::isfinite(x) || x == -std::numeric_limits<float>::infinity());
    return ok;
  }
};

// Heads that divide E (head dims 1…12, not only multiples of 4), self- or cross-attention.
void decode_shape(fuzz::Input& in, MultiHeadInput& c) {
  const size_t H = in.range(1, 4), d = in.range(1, 12), E = H * d;
  c.self = in.flag();
  c.p.shape = {E, H, c.self ? E : in.range(1, 16), c.self ? E : in.range(1, 16), in.flag()};
}

// Any number of heads and E from 0 to 9: accepted exactly when the heads divide E.
void check_shape_validation(fuzz::Input& in, const attn::MultiHeadShape& shape) {
  attn::MultiHeadShape bad = shape;
  bad.num_heads = in.range(0, 9);
  bad.embed_dim = in.range(0, 9);
  const bool valid = bad.num_heads && bad.embed_dim && bad.embed_dim % bad.num_heads == 0;
  FUZZ_CHECK(attn::validate_multi_head_shape(bad).ok() == valid, "validate E=%zu h=%zu",
             bad.embed_dim, bad.num_heads);
}

// Sizes (small, or crossing the streaming kernel's tiles), then the weights and the inputs.
void decode_values(fuzz::Input& in, MultiHeadInput& c) {
  attn::MultiHeadProblem& p = c.p;
  c.tiles = in.byte() >= 240;
  p.batch = c.tiles ? 1 : in.range(1, 2);
  p.n = c.tiles ? in.range(60, 70) : in.range(1, 12);
  p.m = c.self ? p.n : c.tiles ? in.range(250, 260) : in.range(1, 12);
  const size_t B = p.batch, E = p.shape.embed_dim, kdim = p.shape.kdim, vdim = p.shape.vdim;

  const int wmag = in.magnitude(), xmag = in.magnitude();
  c.wq = in.values(E * E, wmag), c.wk = in.values(kdim * E, wmag);
  c.wv = in.values(vdim * E, wmag), c.wo = in.values(E * E, wmag);
  c.biases = in.values(4 * E, wmag);
  p.weights = {c.wq.data(), c.wk.data(), c.wv.data(), c.wo.data()};
  if (p.shape.has_bias) {
    p.weights.bq = c.biases.data(), p.weights.bk = c.biases.data() + E;
    p.weights.bv = c.biases.data() + 2 * E, p.weights.bo = c.biases.data() + 3 * E;
  }
  c.query = in.values(B * p.n * E, xmag);
  c.key = c.self ? c.query : in.values(B * p.m * kdim, xmag);
  c.value = c.self ? c.query : in.values(B * p.m * vdim, xmag);
  p.query = c.query.data(), p.key = c.key.data(), p.value = c.value.data();
}

// Causal, boolean, additive (with −∞ entries) and key-padding masks, each present or not.
void decode_masks(fuzz::Input& in, MultiHeadInput& c) {
  attn::MultiHeadProblem& p = c.p;
  p.causal = in.flag();
  if (in.flag()) {
    c.mask = in.flags(p.n * p.m, in.byte());
    p.mask = c.mask.data();
  }
  if (in.flag()) {
    const int mag = in.magnitude();
    const uint8_t neg_inf = in.byte() / 2;
    c.bias = in.values(p.n * p.m, mag);
    for (float& x : c.bias)
      if (in.byte() < neg_inf) x = -std::numeric_limits<float>::infinity();
    p.bias = c.bias.data();
  }
  if (in.flag()) {
    c.padding = in.flags(p.batch * p.m, in.byte());
    p.key_padding = c.padding.data();
  }
}

// The layer's outputs in three combinations: everything, averaged weights only, output only
// (streaming heads).
struct LayerRun {
  std::vector<float> out_all, out_avg, out_only, w_heads, w_avg, qp, kp, vp, scores, scaled, masked,
      head_w, head_out, concat;
  std::vector<uint8_t> fully_all, fully_only;

  explicit LayerRun(const attn::MultiHeadProblem& p) {
    const size_t B = p.batch, H = p.shape.num_heads, E = p.shape.embed_dim, n = p.n, nm = n * p.m;
    for (auto* v : {&out_all, &out_avg, &out_only, &qp, &concat}) v->assign(B * n * E, 0.0f);
    for (auto* v : {&w_heads, &scores, &scaled, &masked, &head_w}) v->assign(B * H * nm, 0.0f);
    w_avg.assign(B * nm, 0.0f);
    kp.assign(B * p.m * E, 0.0f);
    vp.assign(B * p.m * E, 0.0f);
    head_out.assign(B * n * E, 0.0f);  // B × H × n × d
    fully_all.assign(B * n, 9);
    fully_only.assign(B * n, 9);
  }
};

void run_layer(const attn::MultiHeadProblem& p, LayerRun& run) {
  attn::MultiHeadResult all;
  all.output = run.out_all.data(), all.weights = run.w_heads.data(), all.average_weights = false;
  all.q_proj = run.qp.data(), all.k_proj = run.kp.data(), all.v_proj = run.vp.data();
  all.scores = run.scores.data(), all.scaled = run.scaled.data(), all.masked = run.masked.data();
  all.head_weights = run.head_w.data(), all.head_outputs = run.head_out.data();
  all.concat = run.concat.data(), all.fully_masked_rows = run.fully_all.data();
  attn::MultiHeadResult avg;
  avg.output = run.out_avg.data(), avg.weights = run.w_avg.data(), avg.average_weights = true;
  attn::MultiHeadResult only;
  only.output = run.out_only.data(), only.fully_masked_rows = run.fully_only.data();
  for (const attn::MultiHeadResult* r : {&all, &avg, &only}) {
    std::vector<float> ws(attn::multi_head_workspace_floats(p, *r));
    const attn::Status status = attn::multi_head_attention(p, *r, ws.data());
    FUZZ_CHECK(status.ok(), "multi_head_attention: %s", status.message.c_str());
  }
}

// The deliberate mistakes' outputs (B × n × E) and averaged weights (B × n × m).
struct PitfallRun {
  std::vector<float> out, weights;

  explicit PitfallRun(const attn::MultiHeadProblem& p)
      : out(p.batch * p.n * p.shape.embed_dim), weights(p.batch * p.n * p.m) {}
};

// Pitfalls are plain loops meant for lesson sizes: exercised on the small problems only.
void run_pitfalls(const MultiHeadInput& c, PitfallRun& pit) {
  for (int pitfall = 0; pitfall <= 5 && !c.tiles; ++pitfall)
    FUZZ_CHECK(
        attn::multi_head_with_pitfall(c.p, static_cast<attn::Pitfall>(pitfall), pit.out.data(),
                                      pitfall % 2 ? pit.weights.data() : nullptr)
            .ok(),
        "pitfall %d", pitfall);
}

struct Projection {
  std::vector<double> y, e;  // values and error bounds, rows × E
  double magnitude = 0.0;  // largest Σ|x·w| + |b|: no partial sum of the float32 version exceeds it
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

// The layer in float64, each value with the float32 error bound of computing it.
struct Expected {
  Projection Q, K, V;
  std::vector<double> w_all, e_w_all, w_mean, e_w_mean;  // per-head and averaged weights
  std::vector<double> cat, e_cat, out, e_out;            // concatenated heads, output after W_O
  std::vector<uint8_t> fully;                            // fully masked rows
};

// False when a projection leaves float32's range.
bool expect_projections(const MultiHeadInput& c, Expected& x) {
  const attn::MultiHeadProblem& p = c.p;
  const size_t B = p.batch, E = p.shape.embed_dim;
  x.Q = project(c.query, B * p.n, E, p.weights.wq, p.weights.bq, E);
  x.K = project(c.key, B * p.m, p.shape.kdim, p.weights.wk, p.weights.bk, E);
  x.V = project(c.value, B * p.m, p.shape.vdim, p.weights.wv, p.weights.bv, E);
  const bool overflow =
      x.Q.magnitude > kInRange || x.K.magnitude > kInRange || x.V.magnitude > kInRange;
  return !overflow;
}

// Head h of batch item b from the projections and their error bounds.
fuzz::HeadBounds expect_head(const attn::MultiHeadProblem& p, const Expected& x, size_t b,
                             size_t h) {
  const size_t E = p.shape.embed_dim, d = E / p.shape.num_heads, n = p.n, m = p.m;
  const size_t qo = b * n * E + h * d, ko = b * m * E + h * d;
  const uint8_t* pad = p.key_padding ? p.key_padding + b * m : nullptr;
  const double scale = 1.0 / std::sqrt(double(d));
  return fuzz::head_bounds(
      n, m, d, d, x.Q.y.data() + qo, x.Q.e.data() + qo, E, x.K.y.data() + ko, x.K.e.data() + ko, E,
      x.V.y.data() + ko, x.V.e.data() + ko, E, scale, fuzz::kU,
      [&](size_t i, size_t j) {
        return (p.causal && j > i) || (p.mask && p.mask[i * m + j]) || (pad && pad[j]);
      },
      [&](size_t i, size_t j) { return p.bias ? double(p.bias[i * m + j]) : 0.0; });
}

// One head's weights into the per-head and averaged weights, its output into the concatenation.
void add_head(const attn::MultiHeadProblem& p, const fuzz::HeadBounds& hb, size_t b, size_t h,
              Expected& x) {
  const size_t H = p.shape.num_heads, E = p.shape.embed_dim, d = E / H, n = p.n, nm = n * p.m;
  for (size_t k = 0; k < nm; ++k) {
    x.w_all[(b * H + h) * nm + k] = hb.weights[k];
    x.e_w_all[(b * H + h) * nm + k] = hb.e_weights[k];
    x.w_mean[b * nm + k] += hb.weights[k] / H;
    x.e_w_mean[b * nm + k] += hb.e_weights[k] / H + 2 * fuzz::kU * hb.weights[k];
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t c = 0; c < d; ++c) {
      x.cat[(b * n + i) * E + h * d + c] = hb.output[i * d + c];
      x.e_cat[(b * n + i) * E + h * d + c] = hb.e_output[i * d + c];
    }
  if (h == 0) std::copy(hb.fully_masked.begin(), hb.fully_masked.end(), x.fully.begin() + b * n);
}

// False when a score may overflow float32.
bool expect_heads(const attn::MultiHeadProblem& p, Expected& x) {
  const size_t B = p.batch, H = p.shape.num_heads, E = p.shape.embed_dim, n = p.n, nm = n * p.m;
  x.w_all.assign(B * H * nm, 0.0), x.e_w_all.assign(B * H * nm, 0.0);
  x.w_mean.assign(B * nm, 0.0), x.e_w_mean.assign(B * nm, 0.0);
  x.cat.assign(B * n * E, 0.0), x.e_cat.assign(B * n * E, 0.0);
  x.fully.assign(B * n, 0);
  for (size_t b = 0; b < B; ++b)
    for (size_t h = 0; h < H; ++h) {
      const fuzz::HeadBounds hb = expect_head(p, x, b, h);
      if (hb.max_score_magnitude > kInRange)
        return false;  // float32 overflow: a known, reported limit
      add_head(p, hb, b, h, x);
    }
  return true;
}

// output = concat·W_O + b_O; false when the output itself leaves float32's range.
bool expect_output(const attn::MultiHeadProblem& p, Expected& x) {
  const size_t E = p.shape.embed_dim, rows = p.batch * p.n;
  const float* wo = p.weights.wo;
  x.out.assign(rows * E, 0.0), x.e_out.assign(rows * E, 0.0);
  double out_magnitude = 0.0;
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < E; ++c) {
      double acc = p.weights.bo ? p.weights.bo[c] : 0.0, mag = std::fabs(acc), err = 0.0;
      for (size_t k = 0; k < E; ++k) {
        acc += x.cat[r * E + k] * wo[k * E + c];
        mag += std::fabs(x.cat[r * E + k] * wo[k * E + c]);
        err += x.e_cat[r * E + k] * std::fabs(wo[k * E + c]);
      }
      x.out[r * E + c] = acc;
      x.e_out[r * E + c] = err + (E + 1) * (fuzz::kU * mag + fuzz::kUnderflow);
      out_magnitude = std::max(out_magnitude, mag + err);
    }
  return !(out_magnitude > kInRange);
}

// The oracle itself: attn::reference and these float64 loops agree.
void check_reference(const attn::MultiHeadProblem& p, const Expected& x) {
  const attn::reference::MultiHeadReference ref = attn::reference::multi_head_attention(p);
  for (size_t k = 0; k < x.out.size(); ++k)
    FUZZ_CHECK(std::fabs(ref.output[k] - x.out[k]) <=
                   1e-9 * std::fabs(x.out[k]) + 1e-6 * x.e_out[k] + 1e-300,
               "reference output %zu: %.17g vs %.17g", k, ref.output[k], x.out[k]);
  for (size_t k = 0; k < x.fully.size(); ++k)
    FUZZ_CHECK(ref.fully_masked_rows[k] == x.fully[k], "reference fully masked %zu", k);
}

void check_close(const char* what, const float* actual, const double* expected, const double* bound,
                 size_t count) {
  const size_t bad = fuzz::first_mismatch(actual, expected, bound, count);
  FUZZ_CHECK(bad == count, "%s[%zu]: actual %.9g, expected %.9g, bound %.3g", what, bad,
             double(actual[bad]), expected[bad], bound[bad]);
}

void check_layer(const LayerRun& run, const Expected& x) {
  for (size_t k = 0; k < x.fully.size(); ++k) {
    FUZZ_CHECK(run.fully_all[k] == x.fully[k], "fully_masked_rows[%zu] = %d", k, run.fully_all[k]);
    FUZZ_CHECK(run.fully_only[k] == x.fully[k], "fully_masked_rows[%zu] = %d (streaming)", k,
               run.fully_only[k]);
  }
  const size_t outs = x.out.size(), heads = x.w_all.size();
  check_close("output", run.out_all.data(), x.out.data(), x.e_out.data(), outs);
  check_close("output (averaged weights)", run.out_avg.data(), x.out.data(), x.e_out.data(), outs);
  check_close("output (streaming)", run.out_only.data(), x.out.data(), x.e_out.data(), outs);
  check_close("per-head weights", run.w_heads.data(), x.w_all.data(), x.e_w_all.data(), heads);
  check_close("trace head weights", run.head_w.data(), x.w_all.data(), x.e_w_all.data(), heads);
  check_close("averaged weights", run.w_avg.data(), x.w_mean.data(), x.e_w_mean.data(),
              x.w_mean.size());
  check_close("q projection", run.qp.data(), x.Q.y.data(), x.Q.e.data(), x.Q.y.size());
  check_close("k projection", run.kp.data(), x.K.y.data(), x.K.e.data(), x.K.y.size());
  check_close("v projection", run.vp.data(), x.V.y.data(), x.V.e.data(), x.V.y.size());
  check_close("concat", run.concat.data(), x.cat.data(), x.e_cat.data(), x.cat.size());
}

// A mistake can give weight to keys the correct layer hides, so its output is bounded by every
// value row, not only the visible ones: each head's output is a combination of V's rows with
// weights ≥ 0 summing to at most 1, then W_O.
double pitfall_magnitude(const attn::MultiHeadProblem& p, const Projection& V) {
  const size_t E = p.shape.embed_dim, rows = p.batch * p.m;
  const float* wo = p.weights.wo;
  std::vector<double> v_max(E, 0.0);
  for (size_t j = 0; j < rows; ++j)
    for (size_t k = 0; k < E; ++k)
      v_max[k] = std::max(v_max[k], std::fabs(V.y[j * E + k]) + V.e[j * E + k]);
  double magnitude = *std::max_element(v_max.begin(), v_max.end());
  for (size_t c = 0; c < E; ++c) {
    double mag = p.weights.bo ? std::fabs(double(p.weights.bo[c])) : 0.0;
    for (size_t k = 0; k < E; ++k) mag += v_max[k] * std::fabs(double(wo[k * E + c]));
    magnitude = std::max(magnitude, mag);
  }
  return magnitude;
}

// The deliberate mistakes stay finite. Beyond float32's range they may be infinite, the same known
// limit as the correct output.
void check_pitfalls_finite(const MultiHeadInput& c, const Projection& V, PitfallRun& pit) {
  const double magnitude = pitfall_magnitude(c.p, V);
  for (int pitfall = 5; pitfall >= 0 && !c.tiles && magnitude <= kInRange; --pitfall) {
    attn::multi_head_with_pitfall(c.p, static_cast<attn::Pitfall>(pitfall), pit.out.data(),
                                  pit.weights.data());
    for (float x : pit.out) FUZZ_CHECK(std::isfinite(x), "pitfall %d output %g", pitfall, x);
    for (float x : pit.weights) FUZZ_CHECK(std::isfinite(x), "pitfall %d weight %g", pitfall, x);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  MultiHeadInput problem;
  decode_shape(in, problem);
  if (in.byte() == 255) {  // invalid shapes must be refused, not crash
    check_shape_validation(in, problem.p.shape);
    return 0;
  }
  decode_values(in, problem);
  decode_masks(in, problem);
  const attn::MultiHeadProblem& p = problem.p;

  LayerRun run(p);
  run_layer(p, run);
  PitfallRun pit(p);
  run_pitfalls(problem, pit);
  if (!problem.finite()) return 0;

  Expected want;
  if (!expect_projections(problem, want) || !expect_heads(p, want) || !expect_output(p, want))
    return 0;
  check_reference(p, want);
  check_layer(run, want);
  check_pitfalls_finite(problem, want.V, pit);
  return 0;
}
