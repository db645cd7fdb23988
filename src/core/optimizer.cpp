#include "optimizer.h"

#include <cmath>

namespace attn {

Status validate_adam_options(const AdamOptions& o) {
  auto finite = [](double x) { return std::isfinite(x); };
  if (!finite(o.learning_rate) || o.learning_rate < 0)
    return Status::error("learningRate must be a finite number ≥ 0");
  if (!finite(o.beta1) || o.beta1 < 0 || o.beta1 >= 1 || !finite(o.beta2) || o.beta2 < 0 || o.beta2 >= 1)
    return Status::error("betas must be two numbers in [0, 1)");
  if (!finite(o.eps) || o.eps < 0) return Status::error("eps must be a finite number ≥ 0");
  if (!finite(o.weight_decay) || o.weight_decay < 0)
    return Status::error("weightDecay must be a finite number ≥ 0");
  if (!finite(o.clip_norm) || o.clip_norm < 0) return Status::error("clipNorm must be a positive finite number");
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

// The same operations in the same order as torch's single-tensor Adam, with the step-dependent
// scalars computed in double as Python does before they meet the float32 tensors.
void adam_step(float* params, const float* grads, float* m, float* v, size_t count, int64_t step,
               const AdamOptions& o) {
  const double bias1 = 1.0 - std::pow(o.beta1, double(step));
  const double bias2 = 1.0 - std::pow(o.beta2, double(step));
  const float step_size = static_cast<float>(o.learning_rate / bias1);
  const float bias2_sqrt = static_cast<float>(std::sqrt(bias2));
  const float b1 = static_cast<float>(o.beta1), b2 = static_cast<float>(o.beta2);
  const float one_minus_b1 = static_cast<float>(1.0 - o.beta1);
  const float one_minus_b2 = static_cast<float>(1.0 - o.beta2);
  const float eps = static_cast<float>(o.eps);
  const float decay = static_cast<float>(1.0 - o.learning_rate * o.weight_decay);
  const bool decoupled = o.weight_decay > 0;
  for (size_t i = 0; i < count; ++i) {
    const float g = grads[i];
    if (decoupled) params[i] *= decay;
    m[i] = m[i] * b1 + g * one_minus_b1;
    v[i] = v[i] * b2 + g * g * one_minus_b2;
    const float denom = std::sqrt(v[i]) / bias2_sqrt + eps;
    params[i] -= step_size * (m[i] / denom);
  }
}

}  // namespace attn
