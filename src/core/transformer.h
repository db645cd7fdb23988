// The tiny GPT-2 transformer: parameters by name (transformer_config.h), forward with the attention
// weights of every layer, mean cross-entropy and its gradient for every parameter, and Adam(W)
// training steps. Buffers are kept between calls: after the first call of a given size, a step
// allocates nothing. Every method returns a Status; nothing throws or aborts.
#pragma once
#include <cstddef>
#include <cstdint>

#include "float_buffer.h"
#include "optimizer.h"
#include "status.h"
#include "transformer_block.h"
#include "transformer_config.h"

namespace attn {

class Transformer {
 public:
  // Validates the config, allocates and initializes the parameters; *out is null on failure.
  // initialize = false leaves them zero, for a model whose parameters are about to be loaded
  // (drawing GPT-2 small's 124 M random numbers costs seconds). Only the parameters are
  // allocated here: gradients and Adam's moments wait for the first compute_gradients/train_step.
  static Status create(const TransformerConfig& config, Transformer** out, bool initialize = true);

  const TransformerConfig& config() const { return config_; }
  const ParameterLayout& layout() const { return layout_; }
  float* parameters() { return params_.data(); }
  // ∂L/∂parameters of the last compute_gradients / train_step (same layout); null before.
  const float* gradients() const { return grads_.data(); }

  // tokens (batch × T) → logits (batch × T × V); attentions (L × batch × H × T × T) may be null,
  // which lets the heads stream without building T × T matrices.
  Status forward(const int32_t* tokens, size_t batch, size_t T, float* logits, float* attentions);

  // forward for the rows (flat indices b·T + t into batch × T) listed in `rows`: logits (count × V)
  // holds their logits in that order, and the final LayerNorm and unembedding run for those rows
  // only (the last position's logits cost one row of the V × E product instead of T).
  // attentions as in forward(). Fails when a logit is not finite.
  Status forward_rows(const int32_t* tokens, size_t batch, size_t T, const uint32_t* rows,
                      size_t count, float* logits, float* attentions);

  // tokens (T) → out (T × E): what layer `layer`'s attention reads, LN₁ of the residual stream
  // entering it (the residual itself without layer norm): the embeddings and the blocks before it,
  // then that layer's first LayerNorm. Lessons show a trained head's real inputs with it.
  Status layer_input(const int32_t* tokens, size_t T, size_t layer, float* out);

  // The mean cross-entropy over the targets that count (−1 and −100 are ignored) without the
  // backward: the unembedding runs only for those rows, in chunks of bounded memory.
  Status loss(const int32_t* tokens, const int32_t* targets, size_t batch, size_t T, double* loss);

  // Mean cross-entropy over targets ≠ −1/−100 and its gradient (read with gradients()). Fails,
  // naming the cause, when the logits, the loss or a gradient is not finite.
  Status compute_gradients(const int32_t* tokens, const int32_t* targets, size_t batch, size_t T,
                           double* loss);

  // compute_gradients, optional clipping, then one Adam(W) step; *loss is the loss before the
  // update. A step whose loss, gradients or update (a parameter or a moment) would not be finite
  // fails with the cause and changes nothing: parameters, moments and step count stay as they were.
  Status train_step(const int32_t* tokens, const int32_t* targets, size_t batch, size_t T,
                    const AdamOptions& options, double* loss);

  void reset_optimizer();

  // Training keeps every layer's attention weights for the backward while they fit in this many
  // floats (all layers together; default 16 Mi = 64 MiB); beyond it the heads stream and the
  // backward recomputes the weights from each row's log-sum-exp, so memory stays linear in T.
  void set_attention_memory_limit(size_t floats) { attention_limit_ = floats; }
  int64_t optimizer_step() const { return step_; }

  // Layer `layer`'s tensors in a block of the parameters' layout (the parameters or gradients).
  BlockTensors block_tensors(float* base, size_t layer) const;

 private:
  explicit Transformer(const TransformerConfig& config);
  Status check_tokens(const int32_t* tokens, const int32_t* targets, size_t batch, size_t T) const;
  Status prepare(size_t batch, size_t T, bool training);
  Status reserve_training(bool adam);
  BlockActivations block_activations(size_t layer) const;
  BlockShape block_shape() const;
  void run_forward(const int32_t* tokens, float* logits, float* attentions);
  void run_backward(const int32_t* tokens);
  // The embeddings and blocks 0 … layers − 1 (every block by default).
  void run_blocks(const int32_t* tokens, float* attentions, size_t layers = SIZE_MAX);
  void unembed_rows(const uint32_t* rows, size_t count, float* logits);
  Status check_finite_gradients() const;
  Status check_training_memory(size_t buffers) const;

  TransformerConfig config_;
  ParameterLayout layout_;
  FloatBuffer params_, grads_, adam_m_, adam_v_;
  int64_t step_ = 0;

  // Activations and scratch for the current (batch, T); see prepare().
  FloatBuffer work_;
  size_t batch_ = 0, T_ = 0;
  bool training_ = false;
  bool stream_attention_ = false;
  size_t attention_limit_ = size_t(16) << 20;
  struct Carved {
    float* residual = nullptr;  // (L + 1) × N × E when training, 2 × N × E otherwise
    float* layers = nullptr;    // per layer: see layer_floats()
    size_t layer_stride = 0;    // 0 when not training: one set of layer buffers reused
    float* lnf = nullptr;
    float* lnf_mean = nullptr;
    float* lnf_rstd = nullptr;
    float* logits = nullptr;  // N × V (training)
    float* d_residual = nullptr;
    BlockScratch scratch;
    float* work = nullptr;  // shared scratch: heads, linear backward, the unembedding
  } carved_;
};

}  // namespace attn
