// Turns a libFuzzer input into sizes, flags and values. Reading past the end yields zeros, so every
// input decodes to a valid problem, and short inputs decode to small, simple ones (which keeps the
// fuzzer's minimized inputs readable).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace fuzz {

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint16_t u16() { return static_cast<uint16_t>(byte() | (byte() << 8)); }
  uint32_t u32() { return static_cast<uint32_t>(u16()) | (static_cast<uint32_t>(u16()) << 16); }
  bool flag() { return byte() & 1; }

  // Uniform-ish in [lo, hi].
  size_t range(size_t lo, size_t hi) { return lo + (hi > lo ? u16() % (hi - lo + 1) : 0); }

  // A value scale for one tensor: a power of ten from subnormal to large, or kRaw (any float bits,
  // NaN and infinities included: then only memory safety is checked).
  static constexpr int kRaw = 99;
  int magnitude() {
    static constexpr int kPowers[] = {0, 0, 0, -3, 1, 2, 4, -30, -40, kRaw};
    return kPowers[byte() % (sizeof(kPowers) / sizeof(kPowers[0]))];
  }

  float value(int magnitude) {
    if (magnitude == kRaw) {
      const uint32_t bits = u32();
      float x;
      std::memcpy(&x, &bits, sizeof x);
      return x;
    }
    const int16_t i = static_cast<int16_t>(u16());
    return static_cast<float>(i / 32768.0 * std::pow(10.0, magnitude));
  }

  std::vector<float> values(size_t count, int magnitude) {
    std::vector<float> out(count);
    for (float& x : out) x = value(magnitude);
    return out;
  }

  // Flags that are 1 with probability about density/255.
  std::vector<uint8_t> flags(size_t count, uint8_t density) {
    std::vector<uint8_t> out(count);
    for (uint8_t& f : out) f = byte() < density ? 1 : 0;
    return out;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

inline bool all_finite(const std::vector<float>& v) {
  for (float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace fuzz

// A failed check prints what and where, then aborts: libFuzzer saves the input as a crash.
#define FUZZ_CHECK(cond, ...)                                                           \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "check failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                                \
      std::fprintf(stderr, "\n");                                                       \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)
