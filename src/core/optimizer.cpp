#include "optimizer.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace attn {
namespace {

std::string show(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

Status out_of_range(const char* name, const char* range, double got) {
  return Status::error(std::string(name) + " must be a number in " + range + ", got " + show(got));
}

bool within(double x, double lo, double hi) { return x >= lo && x <= hi; }  // false for NaN

}  // namespace

Status validate_adam_options(const AdamOptions& o) {
  if (!within(o.learning_rate, 0.0, kMaxLearningRate))
    return out_of_range("learningRate", "[0, 10]", o.learning_rate);
  if (!(o.beta1 >= 0 && o.beta1 < 1)) return out_of_range("betas[0]", "[0, 1)", o.beta1);
  if (!(o.beta2 >= 0 && o.beta2 < 1)) return out_of_range("betas[1]", "[0, 1)", o.beta2);
  if (!within(o.eps, kMinEps, kMaxEps)) return out_of_range("eps", "[1e-30, 1]", o.eps);
  if (!(o.weight_decay >= 0 && std::isfinite(o.weight_decay)))
    return out_of_range("weightDecay", "[0, ∞)", o.weight_decay);
  if (o.learning_rate * o.weight_decay > 1)
    return Status::error(
        "learningRate × weightDecay must be at most 1 (AdamW multiplies every parameter by "
        "1 − learningRate × weightDecay), got " +
        show(o.learning_rate * o.weight_decay));
  if (!(o.clip_norm >= 0 && std::isfinite(o.clip_norm)))
    return Status::error("clipNorm must be a positive finite number, got " + show(o.clip_norm));
  return Status::success();
}

double gradient_norm(const float* grads, size_t count) {
  double sum = 0.0;
  for (size_t i = 0; i < count; ++i) sum += double(grads[i]) * double(grads[i]);
  return std::sqrt(sum);
}

double clip_gradient_norm(float* grads, size_t count, double max_norm) {
  const double norm = gradient_norm(grads, count);
  const double coef = max_norm / (norm + 1e-6);
  if (coef < 1.0) {
    const float c = static_cast<float>(coef);
    for (size_t i = 0; i < count; ++i) grads[i] *= c;
  }
  return norm;
}

namespace {

// The step-dependent scalars, computed in double as Python does before they meet the float32
// tensors.
struct AdamScalars {
  float step_size, bias2_sqrt, b1, b2, one_minus_b1, one_minus_b2, eps, decay;
  bool decoupled;
};

AdamScalars adam_scalars(int64_t step, const AdamOptions& o) {
  const double bias1 = 1.0 - std::pow(o.beta1, double(step));
  const double bias2 = 1.0 - std::pow(o.beta2, double(step));
  AdamScalars s;
  s.step_size = static_cast<float>(o.learning_rate / bias1);
  s.bias2_sqrt = static_cast<float>(std::sqrt(bias2));
  s.b1 = static_cast<float>(o.beta1), s.b2 = static_cast<float>(o.beta2);
  s.one_minus_b1 = static_cast<float>(1.0 - o.beta1);
  s.one_minus_b2 = static_cast<float>(1.0 - o.beta2);
  s.eps = static_cast<float>(o.eps);
  s.decay = static_cast<float>(1.0 - o.learning_rate * o.weight_decay);
  s.decoupled = o.weight_decay > 0;
  return s;
}

// One element of the update, shared by adam_step and adam_step_is_finite so both compute the same.
inline void adam_element(float& p, float g, float& m, float& v, const AdamScalars& s) {
  if (s.decoupled) p *= s.decay;
  m = m * s.b1 + g * s.one_minus_b1;
  v = v * s.b2 + g * g * s.one_minus_b2;
  const float denom = std::sqrt(v) / s.bias2_sqrt + s.eps;
  p -= s.step_size * (m / denom);
}

}  // namespace

// The same operations in the same order as torch's single-tensor Adam.
void adam_step(float* params, const float* grads, float* m, float* v, size_t count, int64_t step,
               const AdamOptions& o) {
  const AdamScalars s = adam_scalars(step, o);
  for (size_t i = 0; i < count; ++i) adam_element(params[i], grads[i], m[i], v[i], s);
}

bool adam_step_is_finite(const float* params, const float* grads, const float* m, const float* v,
                         size_t count, int64_t step, const AdamOptions& o) {
  const AdamScalars s = adam_scalars(step, o);
  // x − x is 0 for a finite x and NaN for ±∞ or NaN: one sum tells whether any was not finite.
  float probe = 0.0f;
  for (size_t i = 0; i < count; ++i) {
    float p = params[i], mi = m[i], vi = v[i];
    adam_element(p, grads[i], mi, vi, s);
    probe += (p - p) + (mi - mi) + (vi - vi);
  }
  return probe == 0.0f;
}

}  // namespace attn
