// libFuzzer harness for attn::scaled_dot_product_attention (both of its paths: the materialized
// one that builds weights and traces, and the streaming one) and attn::attention_with_pitfall.
// The input decodes to the problems of attention_input.h.
//
// Always: no crash, no sanitizer report. When every value is finite and no score can overflow
// float32: no NaN; outputs, weights and the trace agree with attn::reference within the
// conditioning-aware bound of error_bounds.h; hidden keys get weight exactly 0; fully masked rows
// match the reference; the streaming path agrees with the materialized one; the pitfall path
// without a pitfall agrees with the reference.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "attention.h"
#include "attention_input.h"
#include "error_bounds.h"
#include "fuzz_input.h"
#include "pitfalls.h"
#include "reference.h"

namespace {

constexpr double kInRange = 1e30;  // scores below this cannot overflow float32 on the way

// Materialized with everything, streaming with output only.
struct Run {
  std::vector<float> out_a, weights, scores, scaled, masked, out_b;
  std::vector<uint8_t> fully_a, fully_b;

  explicit Run(const attn::AttentionProblem& p) {
    const size_t B = p.batch, n = p.n, nm = n * p.m;
    out_a.assign(B * n * p.dv, -1.0f), out_b.assign(B * n * p.dv, -1.0f);
    for (auto* v : {&weights, &scores, &scaled, &masked}) v->assign(B * nm, 0.0f);
    fully_a.assign(B * n, 9), fully_b.assign(B * n, 9);
  }
};

void run_attention(const attn::AttentionProblem& p, Run& run) {
  attn::AttentionResult a;
  a.output = run.out_a.data(), a.weights = run.weights.data(), a.scores = run.scores.data();
  a.scaled = run.scaled.data(), a.masked = run.masked.data(),
  a.fully_masked_rows = run.fully_a.data();
  attn::AttentionResult s;
  s.output = run.out_b.data(), s.fully_masked_rows = run.fully_b.data();
  FUZZ_CHECK(!attn::attention_streams(a) && attn::attention_streams(s), "path selection");
  std::vector<float> ws_a(attn::attention_workspace_floats(p, a));
  std::vector<float> ws_b(attn::attention_workspace_floats(p, s));
  FUZZ_CHECK(attn::scaled_dot_product_attention(p, a, ws_a.data()).ok(), "materialized failed");
  FUZZ_CHECK(attn::scaled_dot_product_attention(p, s, ws_b.data()).ok(), "streaming failed");
}

// The deliberate mistakes' outputs and weights; empty on the large problems, which skip them.
struct PitfallRun {
  std::vector<float> out, weights;

  PitfallRun(const attn::AttentionProblem& p, bool tiles)
      : out(tiles ? 0 : p.batch * p.n * p.dv), weights(tiles ? 0 : p.batch * p.n * p.m) {}
};

// Pitfalls are plain loops meant for lesson sizes: exercised on the small problems only.
void run_pitfalls(const attn::AttentionProblem& p, bool tiles, PitfallRun& pit) {
  for (int pitfall = 0; pitfall <= 5 && !tiles; ++pitfall) {
    const attn::Status status =
        attn::attention_with_pitfall(p, static_cast<attn::Pitfall>(pitfall), pit.out.data(),
                                     pitfall % 2 ? pit.weights.data() : nullptr);
    FUZZ_CHECK(status.ok() == (pitfall <= 3), "pitfall %d: status '%s'", pitfall,
               status.message.c_str());
  }
}

// False when sums of weights · V could leave float32's range.
bool values_in_range(const std::vector<float>& v, size_t m) {
  double v_max = 0.0;
  for (float x : v) v_max = std::max(v_max, double(std::fabs(x)));
  return !(v_max * double(m) > kInRange);
}

// The oracle itself: attn::reference and this file's float64 loops agree.
void check_reference_output(const attn::reference::AttentionReference& ref,
                            const fuzz::HeadBounds& h, const attn::AttentionProblem& p, size_t b) {
  const size_t n = p.n;
  for (size_t x = 0; x < n * p.dv; ++x)
    FUZZ_CHECK(std::fabs(ref.output[b * n * p.dv + x] - h.output[x]) <=
                   1e-9 * std::fabs(h.output[x]) + 1e-6 * h.e_output[x] + 1e-300,
               "reference output %zu: %.17g vs %.17g", x, ref.output[b * n * p.dv + x],
               h.output[x]);
}

void check_fully_masked(const attn::reference::AttentionReference& ref, const Run& run,
                        const fuzz::HeadBounds& h, size_t n, size_t b) {
  for (size_t i = 0; i < n; ++i) {
    FUZZ_CHECK(ref.fully_masked_rows[b * n + i] == h.fully_masked[i],
               "reference fully masked row %zu", i);
    FUZZ_CHECK(run.fully_a[b * n + i] == h.fully_masked[i],
               "fully_masked_rows[%zu] = %d (materialized)", b * n + i, run.fully_a[b * n + i]);
    FUZZ_CHECK(run.fully_b[b * n + i] == h.fully_masked[i],
               "fully_masked_rows[%zu] = %d (streaming)", b * n + i, run.fully_b[b * n + i]);
  }
}

void check_close(const char* what, const float* actual, const std::vector<double>& expected,
                 const std::vector<double>& bound, size_t offset, size_t count) {
  const size_t bad = fuzz::first_mismatch(actual + offset, expected.data(), bound.data(), count);
  FUZZ_CHECK(bad == count, "%s[%zu]: actual %.9g, expected %.9g, bound %.3g", what, offset + bad,
             double(actual[offset + bad]), expected[bad], bound[bad]);
}

void check_run(const Run& run, const fuzz::HeadBounds& h, const attn::AttentionProblem& p,
               size_t b) {
  const size_t n = p.n, nm = n * p.m;
  check_close("output (materialized)", run.out_a.data(), h.output, h.e_output, b * n * p.dv,
              n * p.dv);
  check_close("output (streaming)", run.out_b.data(), h.output, h.e_output, b * n * p.dv, n * p.dv);
  check_close("weights", run.weights.data(), h.weights, h.e_weights, b * nm, nm);
  check_close("scores", run.scores.data(), h.scores, h.e_scores, b * nm, nm);
  check_close("scaled", run.scaled.data(), h.scaled, h.e_scaled, b * nm, nm);
  check_close("masked", run.masked.data(), h.masked, h.e_masked, b * nm, nm);
}

// Hidden keys get weight exactly 0; a row's weights lie in [0, 1] and sum to 1 (0 when fully
// masked).
void check_weight_rows(const std::vector<float>& weights, const fuzz::HeadBounds& h, size_t n,
                       size_t m, size_t b) {
  const size_t nm = n * m;
  for (size_t i = 0; i < n; ++i) {
    double sum = 0.0;
    for (size_t j = 0; j < m; ++j) {
      const float w = weights[b * nm + i * m + j];
      FUZZ_CHECK(h.masked[i * m + j] != -INFINITY || w == 0.0f,
                 "hidden key %zu of row %zu has weight %g", j, i, w);
      FUZZ_CHECK(w >= 0.0f && w <= 1.0f, "weight %g", w);
      sum += w;
    }
    const double want = h.fully_masked[i] ? 0.0 : 1.0;
    FUZZ_CHECK(std::fabs(sum - want) <= fuzz::kSafety * (m + 8) * fuzz::kU, "row %zu sums to %.9g",
               i, sum);
  }
}

// The deliberate mistakes stay finite; without one, the pitfall path (double, rounded once)
// agrees with the reference.
void check_pitfalls(const attn::AttentionProblem& p, bool tiles,
                    const attn::reference::AttentionReference& ref, PitfallRun& pit) {
  for (int pitfall = 3; pitfall >= 0 && !tiles; --pitfall) {
    attn::attention_with_pitfall(p, static_cast<attn::Pitfall>(pitfall), pit.out.data(),
                                 pit.weights.data());
    for (float x : pit.out) FUZZ_CHECK(std::isfinite(x), "pitfall %d output %g", pitfall, x);
    for (float x : pit.weights) FUZZ_CHECK(std::isfinite(x), "pitfall %d weight %g", pitfall, x);
  }
  for (size_t x = 0; x < pit.out.size(); ++x)
    FUZZ_CHECK(std::fabs(pit.out[x] - ref.output[x]) <=
                   2 * fuzz::kU * std::fabs(ref.output[x]) + fuzz::kMinNormal,
               "pitfall none output %zu: %.9g vs %.9g", x, double(pit.out[x]), ref.output[x]);
  for (size_t x = 0; x < pit.weights.size(); ++x)
    FUZZ_CHECK(std::fabs(pit.weights[x] - ref.weights[x]) <=
                   2 * fuzz::kU * ref.weights[x] + fuzz::kMinNormal,
               "pitfall none weight %zu: %.9g vs %.9g", x, double(pit.weights[x]), ref.weights[x]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const fuzz::AttentionInput problem(in);
  const attn::AttentionProblem& p = problem.p;

  Run run(p);
  run_attention(p, run);
  PitfallRun pit(p, problem.tiles);
  run_pitfalls(p, problem.tiles, pit);
  if (!problem.finite() || !values_in_range(problem.v, p.m)) return 0;

  const attn::reference::AttentionReference ref = attn::reference::scaled_dot_product_attention(p);
  for (size_t b = 0; b < p.batch; ++b) {
    const fuzz::HeadBounds h = problem.bounds(b);
    if (h.max_score_magnitude > kInRange) return 0;  // float32 overflow: a known, reported limit
    check_reference_output(ref, h, p, b);
    check_fully_masked(ref, run, h, p.n, b);
    check_run(run, h, p, b);
    check_weight_rows(run.weights, h, p.n, p.m, b);
  }
  check_pitfalls(p, problem.tiles, ref, pit);
  return 0;
}
