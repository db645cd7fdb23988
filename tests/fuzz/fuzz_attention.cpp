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

void check_close(const char* what, const float* actual, const std::vector<double>& expected,
                 const std::vector<double>& bound, size_t offset, size_t count) {
  const size_t bad = fuzz::first_mismatch(actual + offset, expected.data(), bound.data(), count);
  FUZZ_CHECK(bad == count, "%s[%zu]: actual %.9g, expected %.9g, bound %.3g", what, offset + bad,
             double(actual[offset + bad]), expected[bad], bound[bad]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const fuzz::AttentionInput problem(in);
  const attn::AttentionProblem& p = problem.p;
  const bool tiles = problem.tiles;
  const std::vector<float>& v = problem.v;
  const size_t B = p.batch, n = p.n, m = p.m, nm = n * m;

  // Materialized with everything, streaming with output only.
  std::vector<float> out_a(B * n * p.dv, -1.0f), weights(B * nm), scores(B * nm), scaled(B * nm),
      masked(B * nm), out_b(B * n * p.dv, -1.0f);
  std::vector<uint8_t> fully_a(B * n, 9), fully_b(B * n, 9);
  attn::AttentionResult a;
  a.output = out_a.data(), a.weights = weights.data(), a.scores = scores.data();
  a.scaled = scaled.data(), a.masked = masked.data(), a.fully_masked_rows = fully_a.data();
  attn::AttentionResult s;
  s.output = out_b.data(), s.fully_masked_rows = fully_b.data();
  FUZZ_CHECK(!attn::attention_streams(a) && attn::attention_streams(s), "path selection");
  std::vector<float> ws_a(attn::attention_workspace_floats(p, a));
  std::vector<float> ws_b(attn::attention_workspace_floats(p, s));
  FUZZ_CHECK(attn::scaled_dot_product_attention(p, a, ws_a.data()).ok(), "materialized failed");
  FUZZ_CHECK(attn::scaled_dot_product_attention(p, s, ws_b.data()).ok(), "streaming failed");

  // Pitfalls are plain loops meant for lesson sizes: exercised on the small problems only.
  std::vector<float> pit_out(tiles ? 0 : B * n * p.dv), pit_weights(tiles ? 0 : B * nm);
  for (int pitfall = 0; pitfall <= 5 && !tiles; ++pitfall) {
    const attn::Status status = attn::attention_with_pitfall(
        p, static_cast<attn::Pitfall>(pitfall), pit_out.data(), pitfall % 2 ? pit_weights.data() : nullptr);
    FUZZ_CHECK(status.ok() == (pitfall <= 3), "pitfall %d: status '%s'", pitfall, status.message.c_str());
  }

  if (!problem.finite()) return 0;

  double v_max = 0.0;
  for (float x : v) v_max = std::max(v_max, double(std::fabs(x)));
  if (v_max * double(m) > kInRange) return 0;  // sums of weights · V could leave float32's range

  const attn::reference::AttentionReference ref = attn::reference::scaled_dot_product_attention(p);
  for (size_t b = 0; b < B; ++b) {
    const fuzz::HeadBounds h = problem.bounds(b);
    if (h.max_score_magnitude > kInRange) return 0;  // float32 overflow: a known, reported limit

    // The oracle itself: attn::reference and this file's float64 loops agree.
    for (size_t x = 0; x < n * p.dv; ++x)
      FUZZ_CHECK(std::fabs(ref.output[b * n * p.dv + x] - h.output[x]) <= 1e-9 * std::fabs(h.output[x]) + 1e-6 * h.e_output[x] + 1e-300,
                 "reference output %zu: %.17g vs %.17g", x, ref.output[b * n * p.dv + x], h.output[x]);
    for (size_t i = 0; i < n; ++i) {
      FUZZ_CHECK(ref.fully_masked_rows[b * n + i] == h.fully_masked[i], "reference fully masked row %zu", i);
      FUZZ_CHECK(fully_a[b * n + i] == h.fully_masked[i], "fully_masked_rows[%zu] = %d (materialized)",
                 b * n + i, fully_a[b * n + i]);
      FUZZ_CHECK(fully_b[b * n + i] == h.fully_masked[i],
                 "fully_masked_rows[%zu] = %d (streaming)", b * n + i, fully_b[b * n + i]);
    }
    check_close("output (materialized)", out_a.data(), h.output, h.e_output, b * n * p.dv, n * p.dv);
    check_close("output (streaming)", out_b.data(), h.output, h.e_output, b * n * p.dv, n * p.dv);
    check_close("weights", weights.data(), h.weights, h.e_weights, b * nm, nm);
    check_close("scores", scores.data(), h.scores, h.e_scores, b * nm, nm);
    check_close("scaled", scaled.data(), h.scaled, h.e_scaled, b * nm, nm);
    check_close("masked", masked.data(), h.masked, h.e_masked, b * nm, nm);
    for (size_t i = 0; i < n; ++i) {
      double sum = 0.0;
      for (size_t j = 0; j < m; ++j) {
        const float w = weights[b * nm + i * m + j];
        FUZZ_CHECK(h.masked[i * m + j] != -INFINITY || w == 0.0f, "hidden key %zu of row %zu has weight %g", j, i, w);
        FUZZ_CHECK(w >= 0.0f && w <= 1.0f, "weight %g", w);
        sum += w;
      }
      const double want = h.fully_masked[i] ? 0.0 : 1.0;
      FUZZ_CHECK(std::fabs(sum - want) <= fuzz::kSafety * (m + 8) * fuzz::kU, "row %zu sums to %.9g", i, sum);
    }
  }
  // The deliberate mistakes stay finite; without one, the pitfall path (double, rounded once)
  // agrees with the reference.
  for (int pitfall = 3; pitfall >= 0 && !tiles; --pitfall) {
    attn::attention_with_pitfall(p, static_cast<attn::Pitfall>(pitfall), pit_out.data(), pit_weights.data());
    for (float x : pit_out) FUZZ_CHECK(std::isfinite(x), "pitfall %d output %g", pitfall, x);
    for (float x : pit_weights) FUZZ_CHECK(std::isfinite(x), "pitfall %d weight %g", pitfall, x);
  }
  for (size_t x = 0; x < pit_out.size(); ++x)
    FUZZ_CHECK(std::fabs(pit_out[x] - ref.output[x]) <= 2 * fuzz::kU * std::fabs(ref.output[x]) + fuzz::kMinNormal,
               "pitfall none output %zu: %.9g vs %.9g", x, double(pit_out[x]), ref.output[x]);
  for (size_t x = 0; x < pit_weights.size(); ++x)
    FUZZ_CHECK(std::fabs(pit_weights[x] - ref.weights[x]) <= 2 * fuzz::kU * ref.weights[x] + fuzz::kMinNormal,
               "pitfall none weight %zu: %.9g vs %.9g", x, double(pit_weights[x]), ref.weights[x]);
  return 0;
}
