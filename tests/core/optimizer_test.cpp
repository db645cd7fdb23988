// Adam, AdamW and gradient clipping against a float64 transcription of torch.optim.Adam/AdamW's
// documented update and torch.nn.utils.clip_grad_norm_, step by step.
#include "optimizer.h"

#include <cmath>
#include <vector>

#include "test_util.h"

namespace attn {
namespace {

using namespace testing;  // the helpers of test_util.h

struct RefAdam {
  std::vector<double> p, m, v;
  int t = 0;
  void step(const std::vector<float>& g, const AdamOptions& o) {
    ++t;
    for (size_t i = 0; i < p.size(); ++i) {
      if (o.weight_decay > 0) p[i] -= o.learning_rate * o.weight_decay * p[i];
      m[i] = o.beta1 * m[i] + (1 - o.beta1) * g[i];
      v[i] = o.beta2 * v[i] + (1 - o.beta2) * double(g[i]) * g[i];
      const double m_hat = m[i] / (1 - std::pow(o.beta1, t));
      const double v_hat = v[i] / (1 - std::pow(o.beta2, t));
      p[i] -= o.learning_rate * m_hat / (std::sqrt(v_hat) + o.eps);
    }
  }
};

void run_against_reference(const AdamOptions& options) {
  const size_t count = 37;
  std::vector<float> p = random_floats(count, 1), m(count, 0.0f), v(count, 0.0f);
  RefAdam ref{std::vector<double>(p.begin(), p.end()), std::vector<double>(count),
              std::vector<double>(count)};
  for (int step = 1; step <= 5; ++step) {
    auto g = random_floats(count, 100 + step, -2, 2);
    g[0] = 0.0f;  // a zero gradient: the update is 0/(0 + eps)
    adam_step(p.data(), g.data(), m.data(), v.data(), count, step, options);
    ref.step(g, options);
    EXPECT_TRUE(all_close(p, ref.p, "params after step " + std::to_string(step), 1e-6, 1e-5));
    EXPECT_TRUE(all_close(v, ref.v, "second moment", 1e-7, 1e-5));
  }
}

TEST(Adam, MatchesFloat64Steps) {
  AdamOptions o;
  o.learning_rate = 3e-3;
  run_against_reference(o);
  o.beta1 = 0.5, o.beta2 = 0.9, o.eps = 1e-3, o.learning_rate = 0.1;
  run_against_reference(o);
}

TEST(Adam, AdamWDecaysDecoupled) {
  AdamOptions o;
  o.learning_rate = 1e-2;
  o.weight_decay = 0.1;
  run_against_reference(o);
}

TEST(Adam, FirstStepMovesEachParameterByTheLearningRate) {
  // Bias correction: m̂ = g and v̂ = g² on step 1, so every update is lr·sign(g) (up to eps).
  std::vector<float> p = {1, 1, 1}, g = {0.3f, -20.0f, 1e-3f}, m(3), v(3);
  AdamOptions o;
  o.learning_rate = 0.01;
  adam_step(p.data(), g.data(), m.data(), v.data(), 3, 1, o);
  EXPECT_NEAR(p[0], 0.99, 1e-6);
  EXPECT_NEAR(p[1], 1.01, 1e-6);
  EXPECT_NEAR(p[2], 0.99, 1e-5);
}

TEST(ClipGradNorm, ScalesOnlyAboveTheLimit) {
  std::vector<float> g = {3, 4};
  EXPECT_DOUBLE_EQ(clip_gradient_norm(g.data(), 2, 10.0), 5.0);
  EXPECT_EQ(g[0], 3.0f);  // below the limit: unchanged
  EXPECT_DOUBLE_EQ(clip_gradient_norm(g.data(), 2, 1.0), 5.0);
  const double coef = 1.0 / (5.0 + 1e-6);  // clip_grad_norm_'s max_norm / (norm + 1e-6)
  EXPECT_NEAR(g[0], 3 * coef, 1e-7);
  EXPECT_NEAR(g[1], 4 * coef, 1e-7);
}

TEST(Adam, RejectsBadOptions) {
  AdamOptions o;
  o.learning_rate = -1;
  EXPECT_FALSE(validate_adam_options(o).ok());
  o = AdamOptions();
  o.beta2 = 1.0;
  EXPECT_FALSE(validate_adam_options(o).ok());
  o = AdamOptions();
  o.eps = NAN;
  EXPECT_FALSE(validate_adam_options(o).ok());
  o = AdamOptions();
  o.weight_decay = -0.1;
  EXPECT_FALSE(validate_adam_options(o).ok());
  EXPECT_TRUE(validate_adam_options(AdamOptions()).ok());
}

}  // namespace
}  // namespace attn
