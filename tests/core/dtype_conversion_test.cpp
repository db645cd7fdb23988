// Conversion of stored checkpoint elements to float32: every one of the 65 536 half and bfloat16
// bit patterns against a float64 reference built from the IEEE definitions, float64 rounding
// (ties to even, overflow, subnormals), unaligned sources, and the first non-finite element found
// at every position of every tail length.
#include "dtype_conversion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace attn {
namespace {

uint32_t bits_of(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// binary16: sign, 5 exponent bits (bias 15), 10 fraction bits, computed in double.
double half_reference(uint16_t h) {
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  const int exponent = (h >> 10) & 0x1f;
  const int fraction = h & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  if (exponent == 31) return fraction ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  return sign * std::ldexp(1024 + fraction, exponent - 25);
}

// bfloat16: sign, 8 exponent bits (bias 127), 7 fraction bits, computed in double.
double bfloat16_reference(uint16_t b) {
  const double sign = (b & 0x8000) ? -1.0 : 1.0;
  const int exponent = (b >> 7) & 0xff;
  const int fraction = b & 0x7f;
  if (exponent == 0) return sign * std::ldexp(fraction, -133);
  if (exponent == 255) return fraction ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  return sign * std::ldexp(128 + fraction, exponent - 134);
}

std::vector<uint16_t> all_patterns() {
  std::vector<uint16_t> v(65536);
  for (uint32_t i = 0; i < 65536; ++i) v[i] = static_cast<uint16_t>(i);
  return v;
}

void expect_matches(const std::vector<float>& out, double (*reference)(uint16_t)) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const double want = reference(static_cast<uint16_t>(i));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(out[i])) << "pattern " << i;
      // The payload and the sign survive, so a quiet NaN stays quiet.
      const uint32_t sign = (i & 0x8000u) << 16;
      ASSERT_EQ(bits_of(out[i]) & 0x80000000u, sign) << "pattern " << i;
    } else {
      ASSERT_EQ(double(out[i]), want) << "pattern " << i;
      ASSERT_EQ(std::signbit(out[i]), bool(i & 0x8000u)) << "pattern " << i << " (signed zero)";
    }
  }
}

TEST(DtypeConversion, EveryHalfBitPatternConvertsExactly) {
  const std::vector<uint16_t> halves = all_patterns();
  std::vector<float> out(65536);
  const size_t bad = convert_to_float32(StoredFloat::f16, halves.data(), halves.size(), out.data());
  EXPECT_EQ(bad, 0x7c00u) << "the first non-finite half is +Infinity, 0x7c00";
  expect_matches(out, half_reference);
  for (uint32_t i = 0; i < 65536; ++i)
    ASSERT_EQ(bits_of(half_to_float(uint16_t(i))), bits_of(out[i]));
  // NaN payloads move up by 13 bits, as a hardware conversion does: quiet stays quiet.
  EXPECT_EQ(bits_of(out[0x7e00]), 0x7fc00000u);
  EXPECT_EQ(bits_of(out[0xfc01]), 0xff802000u);
}

TEST(DtypeConversion, EveryBfloat16BitPatternConvertsExactly) {
  const std::vector<uint16_t> brains = all_patterns();
  std::vector<float> out(65536);
  const size_t bad =
      convert_to_float32(StoredFloat::bf16, brains.data(), brains.size(), out.data());
  EXPECT_EQ(bad, 0x7f80u) << "the first non-finite bfloat16 is +Infinity, 0x7f80";
  expect_matches(out, bfloat16_reference);
  for (uint32_t i = 0; i < 65536; ++i) ASSERT_EQ(bits_of(out[i]), i << 16);
}

TEST(DtypeConversion, Float64RoundsToNearestEvenAndOverflowIsReported) {
  const double tiny = std::ldexp(1.0, -149);  // the smallest float32 subnormal
  const std::vector<double> in = {
      1.0 + std::ldexp(1.0, -24),      // halfway between 1 and the next float: ties to even (1)
      1.0 + 3 * std::ldexp(1.0, -24),  // halfway, rounds up to the even neighbour
      1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -40),  // just above halfway: up
      -0.0,
      tiny,
      tiny / 2,
      tiny * 0.75,
      3.4028234663852886e38,
      -0.1};
  std::vector<float> out(in.size());
  EXPECT_EQ(convert_to_float32(StoredFloat::f64, in.data(), in.size(), out.data()), in.size());
  const std::vector<float> want = {1.0f, 1.0f + 0x1p-22f, 1.0f + 0x1p-23f,        -0.0f, 0x1p-149f,
                                   0.0f, 0x1p-149f,       3.4028234663852886e38f, -0.1f};
  for (size_t i = 0; i < in.size(); ++i)
    EXPECT_EQ(bits_of(out[i]), bits_of(want[i])) << "index " << i;
  // Beyond float32's range a value becomes Infinity, which is reported.
  const std::vector<double> large = {2.0, -1e39, 5.0};
  EXPECT_EQ(convert_to_float32(StoredFloat::f64, large.data(), 3, out.data()), 1u);
  EXPECT_TRUE(std::isinf(out[1]) && out[1] < 0);
}

TEST(DtypeConversion, ReadsSourcesAtAnyAlignment) {
  // A tensor's bytes start wherever the file puts them.
  std::vector<unsigned char> bytes(64 + 3);
  const float values[4] = {1.5f, -2.0f, 0.0f, 6.0e-8f};
  const uint16_t halves[4] = {0x3e00, 0xc000, 0x0000, 0x0001};
  for (size_t shift = 0; shift < 3; ++shift) {
    std::memcpy(bytes.data() + shift, values, sizeof values);
    float out[4];
    EXPECT_EQ(convert_to_float32(StoredFloat::f32, bytes.data() + shift, 4, out), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], values[i]) << "shift " << shift;
    std::memcpy(bytes.data() + shift, halves, sizeof halves);
    EXPECT_EQ(convert_to_float32(StoredFloat::f16, bytes.data() + shift, 4, out), 4u);
    EXPECT_EQ(out[0], 1.5f);
    EXPECT_EQ(out[1], -2.0f);
    EXPECT_EQ(out[3], 0x1p-24f);
  }
}

TEST(DtypeConversion, FindsTheFirstNonFiniteValueAtEveryPositionAndTail) {
  const float bad_values[] = {NAN, INFINITY, -INFINITY};
  for (size_t count = 0; count <= 33; ++count) {
    std::vector<float> x(count, 1.0f);
    EXPECT_EQ(find_non_finite(x.data(), count), count) << "count " << count;
    for (size_t at = 0; at < count; ++at) {
      for (float bad : bad_values) {
        std::vector<float> y = x;
        y[at] = bad;
        if (at + 1 < count) y[count - 1] = NAN;  // a later one does not hide the first
        ASSERT_EQ(find_non_finite(y.data(), count), at) << "count " << count << ", at " << at;
      }
    }
  }
  const float largest[2] = {3.4028235e38f, -3.4028235e38f};
  EXPECT_EQ(find_non_finite(largest, 2), 2u) << "the largest floats are finite";
}

TEST(DtypeConversion, AnUnknownFormatConvertsNothing) {
  float out[1] = {7.0f};
  const uint16_t h = 0x3c00;
  EXPECT_EQ(convert_to_float32(static_cast<StoredFloat>(9), &h, 1, out), 0u);
  EXPECT_EQ(out[0], 7.0f);
}

}  // namespace
}  // namespace attn
