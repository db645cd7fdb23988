#include "dtype_conversion.h"

#include <cstring>

namespace attn {
namespace {

constexpr uint32_t kExponentMask = 0x7f800000u;

uint32_t bits_of(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

float float_of(uint32_t b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// Elements are read with memcpy: the bytes come from a file and may sit at any address.
template <typename T>
T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

bool finite_bits(uint32_t b) { return (b & kExponentMask) != kExponentMask; }

}  // namespace

// The half's exponent and mantissa, shifted into float32's fields, give the value 2^-112 times too
// small (float32's exponent bias is 127, half's 15): one exact multiplication by 2^112 fixes
// normals and subnormals alike. Infinity and NaN (exponent 31) take float32's all-ones exponent,
// keeping the payload, so a quiet NaN stays quiet.
float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t rest = uint32_t(h & 0x7fffu) << 13;
  if (rest >= (0x7c00u << 13)) return float_of(sign | kExponentMask | rest);
  return float_of(sign | bits_of(float_of(rest) * 0x1p112f));
}

// src: count stored elements -> dst: count floats; see dtype_conversion.h.
size_t convert_to_float32(StoredFloat format, const void* src, size_t count, float* dst) {
  const auto* p = static_cast<const unsigned char*>(src);
  size_t first_bad = count;
  switch (format) {
    case StoredFloat::f32:
      std::memcpy(dst, src, count * sizeof(float));
      return find_non_finite(dst, count);
    case StoredFloat::f16:
      for (size_t i = 0; i < count; ++i) dst[i] = half_to_float(load<uint16_t>(p + 2 * i));
      return find_non_finite(dst, count);
    case StoredFloat::bf16:
      // bfloat16 is the upper half of a float32.
      for (size_t i = 0; i < count; ++i) {
        const uint32_t b = uint32_t(load<uint16_t>(p + 2 * i)) << 16;
        if (!finite_bits(b) && first_bad == count) first_bad = i;
        dst[i] = float_of(b);
      }
      return first_bad;
    case StoredFloat::f64:
      for (size_t i = 0; i < count; ++i) dst[i] = static_cast<float>(load<double>(p + 8 * i));
      return find_non_finite(dst, count);
  }
  return 0;
}

// x: count floats -> index of the first non-finite one, or count. Eight at a time with no branch
// inside, so the common all-finite case runs at memory speed.
size_t find_non_finite(const float* x, size_t count) {
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint32_t all = 0;
    for (size_t j = 0; j < 8; ++j) {
      const uint32_t b = bits_of(x[i + j]);
      all |= uint32_t((b & kExponentMask) == kExponentMask);
    }
    if (all) break;
  }
  for (; i < count; ++i)
    if (!finite_bits(bits_of(x[i]))) return i;
  return count;
}

}  // namespace attn
