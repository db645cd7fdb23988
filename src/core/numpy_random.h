// NumPy's legacy RandomState generator, bit for bit: MT19937 seeded as np.random.seed(int),
// random_sample's 53-bit doubles, and the polar Box–Muller gaussian that caches its second value
// (so successive randn calls continue exactly as NumPy's do). Lesson examples written with
// np.random.seed(42) give the same matrices here.
#pragma once
#include <cstddef>
#include <cstdint>

namespace attn {

struct NumpyRandomState {
  static constexpr int kStateWords = 624;
  uint32_t key[kStateWords];
  int pos = kStateWords;
  int has_gauss = 0;
  double gauss = 0.0;
};

void numpy_seed(NumpyRandomState& state, uint32_t seed);
uint32_t numpy_next_uint32(NumpyRandomState& state);
double numpy_random_double(NumpyRandomState& state);    // [0, 1), np.random.rand
double numpy_standard_normal(NumpyRandomState& state);  // np.random.randn

void numpy_fill_rand(NumpyRandomState& state, double* out, size_t count);
void numpy_fill_randn(NumpyRandomState& state, double* out, size_t count);

}  // namespace attn
