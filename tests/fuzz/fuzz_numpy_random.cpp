// libFuzzer harness for the NumPy-compatible generator: any seed, then any sequence of draws
// (single values and fills of any length, rand and randn interleaved, re-seeding) is checked bit
// for bit against an independent model: std::mt19937 (whose single-integer seeding is NumPy's
// init_genrand), NumPy's 53-bit random_sample formula and its polar Gaussian with the cached second
// value, written here from NumPy's legacy source (randomkit), not from src/core.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "fuzz_input.h"
#include "numpy_random.h"

namespace {

struct Model {
  std::mt19937 mt;
  bool has_gauss = false;
  double gauss = 0.0;

  void seed(uint32_t s) {
    mt.seed(s);
    has_gauss = false;
  }
  double random_sample() {
    const uint32_t a = static_cast<uint32_t>(mt()) >> 5, b = static_cast<uint32_t>(mt()) >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
  double gaussian() {
    if (has_gauss) {
      has_gauss = false;
      return gauss;
    }
    double x1, x2, r2;
    do {
      x1 = 2.0 * random_sample() - 1.0;
      x2 = 2.0 * random_sample() - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    const double f = std::sqrt(-2.0 * std::log(r2) / r2);
    gauss = f * x1;
    has_gauss = true;
    return f * x2;
  }
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  attn::NumpyRandomState state;
  Model model;
  const uint32_t seed = in.u32();
  attn::numpy_seed(state, seed);
  model.seed(seed);
  std::vector<double> buffer;
  for (int op = 0; op < 64; ++op) {
    const uint8_t code = in.byte();
    switch (code % 6) {
      case 0: {
        const uint32_t got = attn::numpy_next_uint32(state),
                       want = static_cast<uint32_t>(model.mt());
        FUZZ_CHECK(got == want, "op %d: next_uint32 %u, expected %u", op, got, want);
        break;
      }
      case 1: {
        const double got = attn::numpy_random_double(state), want = model.random_sample();
        FUZZ_CHECK(same_bits(got, want) && got >= 0.0 && got < 1.0,
                   "op %d: rand %.17g, expected %.17g", op, got, want);
        break;
      }
      case 2: {
        const double got = attn::numpy_standard_normal(state), want = model.gaussian();
        FUZZ_CHECK(same_bits(got, want) && std::isfinite(got), "op %d: randn %.17g, expected %.17g",
                   op, got, want);
        break;
      }
      case 3: {  // fills of up to ~1300 values cross the 624-word regeneration boundary
        buffer.assign(in.range(0, 1300), -1.0);
        attn::numpy_fill_rand(state, buffer.data(), buffer.size());
        for (size_t i = 0; i < buffer.size(); ++i)
          FUZZ_CHECK(same_bits(buffer[i], model.random_sample()), "op %d: fill_rand[%zu] = %.17g",
                     op, i, buffer[i]);
        break;
      }
      case 4: {
        buffer.assign(in.range(0, 700), -1.0);
        attn::numpy_fill_randn(state, buffer.data(), buffer.size());
        for (size_t i = 0; i < buffer.size(); ++i)
          FUZZ_CHECK(same_bits(buffer[i], model.gaussian()), "op %d: fill_randn[%zu] = %.17g", op,
                     i, buffer[i]);
        break;
      }
      case 5: {  // re-seed, dropping any cached Gaussian (as np.random.seed does)
        const uint32_t s = in.u32();
        attn::numpy_seed(state, s);
        model.seed(s);
        break;
      }
    }
    if (code == 0 && op > 0) break;  // inputs ending early stay short
  }
  // A copy of the state continues identically.
  attn::NumpyRandomState copy = state;
  for (int i = 0; i < 8; ++i)
    FUZZ_CHECK(same_bits(attn::numpy_standard_normal(copy), attn::numpy_standard_normal(state)),
               "copied state diverged");
  return 0;
}
