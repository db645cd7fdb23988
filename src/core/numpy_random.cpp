#include "numpy_random.h"

#include <cmath>

namespace attn {
namespace {

constexpr int kN = NumpyRandomState::kStateWords;
constexpr int kM = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfU;
constexpr uint32_t kUpperMask = 0x80000000U;
constexpr uint32_t kLowerMask = 0x7fffffffU;

uint32_t twist(uint32_t upper_from, uint32_t lower_from, uint32_t shifted_from) {
  const uint32_t y = (upper_from & kUpperMask) | (lower_from & kLowerMask);
  return shifted_from ^ (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
}

void regenerate(NumpyRandomState& s) {
  int i = 0;
  for (; i < kN - kM; ++i) s.key[i] = twist(s.key[i], s.key[i + 1], s.key[i + kM]);
  for (; i < kN - 1; ++i) s.key[i] = twist(s.key[i], s.key[i + 1], s.key[i + (kM - kN)]);
  s.key[kN - 1] = twist(s.key[kN - 1], s.key[0], s.key[kM - 1]);
  s.pos = 0;
}

}  // namespace

void numpy_seed(NumpyRandomState& s, uint32_t seed) {
  for (int pos = 0; pos < kN; ++pos) {
    s.key[pos] = seed;
    seed = 1812433253U * (seed ^ (seed >> 30)) + static_cast<uint32_t>(pos + 1);
  }
  s.pos = kN;
  s.has_gauss = 0;
  s.gauss = 0.0;
}

uint32_t numpy_next_uint32(NumpyRandomState& s) {
  if (s.pos >= kN) regenerate(s);
  uint32_t y = s.key[s.pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

double numpy_random_double(NumpyRandomState& s) {
  const uint32_t a = numpy_next_uint32(s) >> 5;
  const uint32_t b = numpy_next_uint32(s) >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

double numpy_standard_normal(NumpyRandomState& s) {
  if (s.has_gauss) {
    s.has_gauss = 0;
    const double cached = s.gauss;
    s.gauss = 0.0;
    return cached;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * numpy_random_double(s) - 1.0;
    x2 = 2.0 * numpy_random_double(s) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  s.gauss = f * x1;
  s.has_gauss = 1;
  return f * x2;
}

void numpy_fill_rand(NumpyRandomState& s, double* out, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = numpy_random_double(s);
}

void numpy_fill_randn(NumpyRandomState& s, double* out, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = numpy_standard_normal(s);
}

}  // namespace attn
