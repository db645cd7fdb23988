#include "attention_positions.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "kernels.h"

namespace attn {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Positions are signed (a lower-right query may sit before key 0); sizes stay far below 2^62.
int64_t query_position(const HeadMasks& masks, size_t i) {
  return static_cast<int64_t>(i) + static_cast<int64_t>(masks.query_offset);
}

size_t clamp_index(int64_t x, size_t m) { return x <= 0 ? 0 : std::min(static_cast<size_t>(x), m); }

void copy_row(float* dst, const float* src, size_t len) {
  if (dst) std::memcpy(dst, src, len * sizeof(float));
}

}  // namespace

KeySpan visible_keys(const HeadMasks& masks, size_t i, size_t m) {
  const int64_t p = query_position(masks, i);
  KeySpan span{0, m};
  if (masks.causal) span.end = clamp_index(p + 1, m);
  if (masks.window) span.begin = clamp_index(p - static_cast<int64_t>(masks.window) + 1, m);
  if (span.end < span.begin) span.end = span.begin;
  return span;
}

KeySpan block_visible_keys(const HeadMasks& masks, size_t i0, size_t rows, size_t m) {
  // Both ends only grow with i, so the first row gives the start and the last row the end.
  KeySpan span{visible_keys(masks, i0, m).begin, visible_keys(masks, i0 + rows - 1, m).end};
  if (span.end < span.begin) span.end = span.begin;
  return span;
}

bool masks_need_scores(const HeadMasks& masks) {
  return masks.bias || masks.mask || masks.key_padding || masks.alibi_slope != 0.0f;
}

void scale_and_mask_scores(float* s, size_t len, size_t i, size_t j0, size_t m, float scale,
                           const HeadMasks& masks, float* scaled_trace, float* masked_trace) {
  kernels::scale(s, len, scale);
  copy_row(scaled_trace, s, len);
  if (masks.bias) kernels::axpy(s, masks.bias + i * m + j0, len, 1.0f);
  if (masks.alibi_slope != 0.0f) {
    // −slope·(p − j): the distance is an integer, exact in float below 2^24.
    const int64_t p = query_position(masks, i);
    for (size_t j = 0; j < len; ++j)
      s[j] += masks.alibi_slope * static_cast<float>(static_cast<int64_t>(j0 + j) - p);
  }
  if (masks.mask) {
    const uint8_t* hidden = masks.mask + i * m + j0;
    for (size_t j = 0; j < len; ++j)
      if (hidden[j]) s[j] = kNegInf;
  }
  if (masks.key_padding) {
    const uint8_t* pad = masks.key_padding + j0;
    for (size_t j = 0; j < len; ++j)
      if (pad[j]) s[j] = kNegInf;
  }
  const KeySpan span = visible_keys(masks, i, m);
  const size_t begin = std::min(len, span.begin > j0 ? span.begin - j0 : 0);
  const size_t end = std::max(begin, std::min(len, span.end > j0 ? span.end - j0 : 0));
  std::fill(s, s + begin, kNegInf);
  std::fill(s + end, s + len, kNegInf);
  copy_row(masked_trace, s, len);
}

double alibi_slope(size_t head, size_t num_heads) {
  size_t p = 1;
  while (p * 2 <= num_heads) p *= 2;
  if (head < p) return std::exp2(-8.0 * double(head + 1) / double(p));
  // Heads beyond the power of two take every other slope of the 2P-head sequence: 2^(−4(2k+1)/P).
  return std::exp2(-4.0 * double(2 * (head - p) + 1) / double(p));
}

void rope_rotate_rows(float* x, size_t rows, size_t ld, size_t heads, size_t d,
                      const double* positions, double first_position, double base, bool inverse,
                      float* scratch) {
  const size_t half = d / 2;
  float* cosines = scratch;
  float* sines = scratch + half;
  for (size_t r = 0; r < rows; ++r) {
    const double p = positions ? positions[r] : first_position + double(r);
    for (size_t i = 0; i < half; ++i) {
      const double angle = p * std::pow(base, -2.0 * double(i) / double(d));
      cosines[i] = static_cast<float>(std::cos(angle));
      sines[i] = static_cast<float>(inverse ? -std::sin(angle) : std::sin(angle));
    }
    for (size_t h = 0; h < heads; ++h) {
      float* v = x + r * ld + h * d;
      for (size_t i = 0; i < half; ++i) {
        const float a = v[i], b = v[i + half];
        v[i] = a * cosines[i] - b * sines[i];
        v[i + half] = b * cosines[i] + a * sines[i];
      }
    }
  }
}

Status rope_rotate(float* x, size_t items, size_t T, size_t d, const double* positions, double base,
                   float* scratch) {
  if (items == 0 || T == 0 || d == 0) return Status::error("x must not be empty");
  if (d % 2 != 0)
    return Status::error(
        "the last dimension d must be even (RoPE turns the two halves as pairs), got " +
        std::to_string(d));
  if (!(base > 0.0) || !std::isfinite(base))
    return Status::error("base must be a positive finite number");
  for (size_t t = 0; positions && t < T; ++t)
    if (!std::isfinite(positions[t]))
      return Status::error("positions[" + std::to_string(t) + "] is not a finite number");
  for (size_t item = 0; item < items; ++item)
    rope_rotate_rows(x + item * T * d, T, d, 1, d, positions, 0.0, base, false, scratch);
  return Status::success();
}

}  // namespace attn
