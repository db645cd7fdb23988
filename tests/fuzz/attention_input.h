// Decodes a libFuzzer input into a scaled dot-product attention problem: sizes (1 and odd sizes,
// or sizes that cross the streaming kernel's 64 × 256 tiles), scale, causal / boolean / key-padding
// masks with fully masked rows, an additive bias with −∞ entries, and values from subnormal to 1e4
// or raw float bits. The forward and the backward harness fuzz the same problems.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "attention.h"
#include "error_bounds.h"
#include "fuzz_input.h"

namespace fuzz {

// The problem and the storage its pointers point into (so it is neither copied nor moved).
struct AttentionInput {
  attn::AttentionProblem p;
  std::vector<float> q, k, v, bias;
  std::vector<uint8_t> mask, padding;
  bool tiles = false;

  AttentionInput() = default;
  AttentionInput(const AttentionInput&) = delete;
  AttentionInput& operator=(const AttentionInput&) = delete;

  explicit AttentionInput(Input& in) {
    tiles = in.byte() >= 240;
    p.batch = tiles ? 1 : in.range(1, 3);
    p.n = tiles ? in.range(1, 70) : in.range(1, 17);
    p.m = tiles ? in.range(1, 300) : in.range(1, 17);
    p.dk = tiles ? in.range(1, 6) : in.range(1, 17);
    p.dv = tiles ? in.range(1, 6) : in.range(1, 17);
    const uint8_t scale_code = in.byte();
    p.scale = scale_code < 64   ? 1.0f / std::sqrt(float(p.dk))
              : scale_code < 96 ? 1.0f
                                : float(std::pow(10.0, (int(scale_code) - 176) / 20.0));
    p.causal = in.flag();
    const bool with_mask = in.flag(), with_bias = in.flag(), with_padding = in.flag();
    q = in.values(p.batch * p.n * p.dk, in.magnitude());
    k = in.values(p.batch * p.m * p.dk, in.magnitude());
    v = in.values(p.batch * p.m * p.dv, in.magnitude());
    p.q = q.data(), p.k = k.data(), p.v = v.data();
    if (with_mask) decode_mask(in);
    if (with_bias) decode_bias(in);
    if (with_padding) {
      padding = in.flags(p.batch * p.m, in.byte());
      p.key_padding = padding.data();
    }
  }

  // Finite values everywhere (a bias may hide keys with −∞): the inputs numbers are checked for.
  bool finite() const {
    bool ok = all_finite(q) && all_finite(k) && all_finite(v);
    for (float x : bias)
      ok = ok && (std::isfinite(x) || x == -std::numeric_limits<float>::infinity());
    return ok;
  }

  // Batch item b in float64 with the float32 error bounds of computing it (error_bounds.h).
  HeadBounds bounds(size_t b) const {
    const size_t n = p.n, m = p.m, nm = n * m;
    const uint8_t* mb = p.mask ? p.mask + (p.mask_per_batch ? b * nm : 0) : nullptr;
    const float* bb = p.bias ? p.bias + (p.bias_per_batch ? b * nm : 0) : nullptr;
    const uint8_t* pb = p.key_padding ? p.key_padding + b * m : nullptr;
    return head_bounds(
        n, m, p.dk, p.dv, q.data() + b * n * p.dk, nullptr, p.dk, k.data() + b * m * p.dk, nullptr,
        p.dk, v.data() + b * m * p.dv, nullptr, p.dv, double(p.scale), 0.0,
        [&](size_t i, size_t j) {
          return (p.causal && j > i) || (mb && mb[i * m + j]) || (pb && pb[j]);
        },
        [&](size_t i, size_t j) { return bb ? double(bb[i * m + j]) : 0.0; });
  }

 private:
  void decode_mask(Input& in) {
    p.mask_per_batch = in.flag();
    const uint8_t density = in.byte(), full_rows = in.byte();
    const size_t rows = (p.mask_per_batch ? p.batch : 1) * p.n, m = p.m;
    mask = in.flags(rows * m, density);
    for (size_t r = 0; r < rows; ++r)
      if (in.byte() < full_rows) std::fill(mask.begin() + r * m, mask.begin() + (r + 1) * m, 1);
    p.mask = mask.data();
  }

  void decode_bias(Input& in) {
    p.bias_per_batch = in.flag();
    const int mag = in.magnitude();
    const uint8_t neg_inf = in.byte() / 2;
    bias = in.values((p.bias_per_batch ? p.batch : 1) * p.n * p.m, mag);
    for (float& x : bias)
      if (in.byte() < neg_inf) x = -std::numeric_limits<float>::infinity();
    p.bias = bias.data();
  }
};

}  // namespace fuzz
