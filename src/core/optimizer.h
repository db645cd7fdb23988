// Adam exactly as torch.optim.Adam (bias-corrected, eps added after the square root), AdamW's
// decoupled weight decay (torch.optim.AdamW) when weight_decay > 0, and
// torch.nn.utils.clip_grad_norm_, over one flat block of parameters.
#pragma once
#include <cstddef>
#include <cstdint>

#include "status.h"

namespace attn {

struct AdamOptions {
  double learning_rate = 1e-3;
  double beta1 = 0.9, beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.0;  // > 0: AdamW, param ·= 1 − lr·wd before the Adam update
  double clip_norm = 0.0;     // > 0: clip the global gradient norm first; 0 = no clipping
};

// The ranges a step accepts (each error names the option and its range): learning rate in
// [0, kMaxLearningRate], betas in [0, 1), eps in [kMinEps, kMaxEps] (0 divides 0 by 0 where a
// gradient and its moments are 0), weight decay ≥ 0 with learning rate × weight decay ≤ 1 (beyond
// it AdamW's factor 1 − lr·wd flips the sign of every parameter), clip norm ≥ 0 (0 = none).
constexpr double kMaxLearningRate = 10.0;
constexpr double kMinEps = 1e-30;
constexpr double kMaxEps = 1.0;
Status validate_adam_options(const AdamOptions& options);

// Global 2-norm of grads (count floats), accumulated in double.
double gradient_norm(const float* grads, size_t count);

// clip_grad_norm_: scales grads by min(1, max_norm / (norm + 1e-6)); returns the norm before.
double clip_gradient_norm(float* grads, size_t count, double max_norm);

// One Adam(W) step; `step` is the step number after incrementing (1 on the first step).
// m and v are the first and second moments, zero before the first step.
void adam_step(float* params, const float* grads, float* m, float* v, size_t count, int64_t step,
               const AdamOptions& options);

// Whether adam_step with the same arguments would leave every parameter and both moments finite.
// It computes exactly what adam_step computes (the same float operations in the same order) and
// writes nothing, so a caller can refuse a step before changing anything, without a copy.
bool adam_step_is_finite(const float* params, const float* grads, const float* m, const float* v,
                         size_t count, int64_t step, const AdamOptions& options);

}  // namespace attn
