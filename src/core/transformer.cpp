#include "transformer.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <string>
#include <vector>

#include "cross_entropy.h"
#include "embedding.h"
#include "kernels.h"
#include "layer_norm.h"
#include "linear.h"

namespace attn {
namespace {

constexpr size_t kAlignFloats = 16;
size_t aligned(size_t floats) { return (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }
// Activations and scratch beyond this many floats (1.5 GiB) are refused before allocating.
constexpr double kMaxWorkFloats = 1.5 * double(1u << 30) / sizeof(float);

// Hands out consecutive aligned pieces of one block; a null base only counts.
struct Carver {
  float* base;
  size_t used = 0;
  float* take(size_t floats) {
    float* at = base ? base + used : nullptr;
    used += aligned(floats);
    return at;
  }
};

// x − x is 0 for a finite x and NaN for ±∞ or NaN, so sums of it answer for a whole block without a
// branch; four of them, so that the additions do not wait on each other.
bool all_finite(const float* x, size_t count) {
  float p0 = 0.0f, p1 = 0.0f, p2 = 0.0f, p3 = 0.0f;
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    p0 += x[i] - x[i], p1 += x[i + 1] - x[i + 1];
    p2 += x[i + 2] - x[i + 2], p3 += x[i + 3] - x[i + 3];
  }
  for (; i < count; ++i) p0 += x[i] - x[i];
  return p0 + p1 + p2 + p3 == 0.0f;
}

// Rows of the loss's unembedding computed at once: 16 Mi floats (64 MiB) of logits at most.
constexpr size_t kLossChunkFloats = size_t(16) << 20;

constexpr char kNotFiniteLogits[] =
    "the logits are not finite (NaN or ±Infinity): the parameters make the activations overflow "
    "float32 (weights too large?); load or train finite, moderate weights";

}  // namespace

Transformer::Transformer(const TransformerConfig& config)
    : config_(config), layout_(make_parameter_layout(config)) {}

Status Transformer::create(const TransformerConfig& config, Transformer** out, bool initialize) {
  *out = nullptr;
  Status status = validate_transformer_config(config);
  if (!status.ok()) return status;
  Transformer* model = new (std::nothrow) Transformer(config);
  if (!model) return Status::error("out of memory for the transformer");
  status = check_parameter_layout(model->layout_);
  if (!status.ok()) {
    delete model;
    return status;
  }
  const size_t floats = model->layout_.total_floats;
  if (!model->params_.reserve(floats)) {
    delete model;
    return Status::error("out of memory: the parameters need " +
                         std::to_string(floats * sizeof(float)) + " bytes");
  }
  if (initialize)
    initialize_parameters(config, model->layout_, model->params_.data());
  else
    model->params_.zero();
  *out = model;
  return Status::success();
}

BlockShape Transformer::block_shape() const { return transformer_block_shape(config_, batch_, T_); }

BlockTensors Transformer::block_tensors(float* base, size_t layer) const {
  const BlockOffsets& o = layout_.blocks[layer];
  auto at = [base](size_t offset) { return offset == kAbsent ? nullptr : base + offset; };
  BlockTensors t;
  t.ln1_w = at(o.ln1_w), t.ln1_b = at(o.ln1_b), t.attn_w = at(o.attn_w), t.attn_b = at(o.attn_b);
  t.proj_w = at(o.proj_w), t.proj_b = at(o.proj_b), t.ln2_w = at(o.ln2_w), t.ln2_b = at(o.ln2_b);
  t.fc_w = at(o.fc_w), t.fc_b = at(o.fc_b), t.fc_proj_w = at(o.fc_proj_w),
  t.fc_proj_b = at(o.fc_proj_b);
  return t;
}

// Carves one layer's activations out of `c` (counting only when c.base is null).
static void carve_layer(Carver& c, const BlockShape& s, bool training, bool stream,
                        BlockActivations& a) {
  const size_t N = s.rows(), E = s.E;
  if (s.layer_norm) {
    a.ln1 = c.take(N * E), a.ln1_mean = c.take(N), a.ln1_rstd = c.take(N);
  }
  a.qkv = c.take(N * s.qkv_width());
  a.att = training && !stream ? c.take(s.batch * s.heads * s.T * s.T) : nullptr;
  a.row_lse = training && stream ? c.take(s.batch * s.heads * s.T) : nullptr;
  a.concat = c.take(N * E);
  if (s.mlp) {
    a.x_mid = c.take(N * E);
    if (s.layer_norm) a.ln2 = c.take(N * E), a.ln2_mean = c.take(N), a.ln2_rstd = c.take(N);
    a.fc = c.take(N * 4 * E), a.fc_act = c.take(N * 4 * E);
  }
}

BlockActivations Transformer::block_activations(size_t layer) const {
  const BlockShape s = block_shape();
  const size_t NE = aligned(s.rows() * s.E);
  auto residual = [&](size_t i) { return carved_.residual + (training_ ? i : i % 2) * NE; };
  Carver c{carved_.layers + layer * carved_.layer_stride};
  BlockActivations a;
  carve_layer(c, s, training_, stream_attention_, a);
  a.x_in = residual(layer);
  a.x_out = residual(layer + 1);
  if (!s.layer_norm) a.ln1 = const_cast<float*>(a.x_in);
  if (!s.mlp) a.x_mid = a.x_out;
  if (s.mlp && !s.layer_norm) a.ln2 = a.x_mid;
  return a;
}

Status Transformer::prepare(size_t batch, size_t T, bool training) {
  batch_ = batch, T_ = T, training_ = training;
  const BlockShape s = block_shape();
  const size_t N = s.rows(), E = s.E, V = config_.vocab_size, L = config_.num_layers;
  // Checked in double first: the sizes below must not wrap around.
  stream_attention_ = training && double(L) * batch * s.heads * T * T > double(attention_limit_);
  const double att = training && !stream_attention_ ? double(batch) * s.heads * T * T : 0.0;
  const double layer_estimate = double(N) * E * 16 + att;
  const double estimate = double(L + 1) * (layer_estimate + double(N) * E) + double(N) * V * 2 +
                          double(E) * V + double(N) * E * 10;
  if (estimate > kMaxWorkFloats)
    return Status::error(
        "batch × tokens too large: the activations would need about " +
        std::to_string(static_cast<long long>(estimate * sizeof(float) / double(1 << 20))) +
        " MiB, more than the 1536 MiB allowed; pass fewer sequences or tokens");
  Carver layer_count{nullptr};
  BlockActivations unused;
  carve_layer(layer_count, s, training, stream_attention_, unused);
  const size_t layer_floats = layer_count.used;

  size_t work = std::max(block_workspace_floats(s, training, false),
                         block_workspace_floats(s, training, true));
  work = std::max(work, unembed_scratch_floats(V, E));
  if (training) work = std::max(work, accumulate_at_b_scratch_floats(N, V));

  auto carve_all = [&](Carver& c) {
    carved_.residual = c.take((training ? L + 1 : 2) * aligned(N * E));
    carved_.layer_stride = training ? layer_floats : 0;
    carved_.layers = c.take((training ? L : 1) * layer_floats);
    // Without LayerNorm, inference still carves lnf: forward_rows gathers its rows there.
    if (config_.layer_norm || !training) {
      carved_.lnf = c.take(N * E), carved_.lnf_mean = c.take(N), carved_.lnf_rstd = c.take(N);
    }
    if (training) {
      carved_.logits = c.take(N * V);
      carved_.d_residual = c.take(N * E);
      carved_.scratch.d_ln = c.take(N * E);
      carved_.scratch.d_qkv = c.take(N * s.qkv_width());
      carved_.scratch.d_concat = c.take(N * E);
      carved_.scratch.d_fc = config_.mlp ? c.take(N * 4 * E) : nullptr;
    }
    carved_.work = c.take(work);
    carved_.scratch.work = carved_.work;
  };
  Carver count{nullptr};
  carve_all(count);
  if (!work_.reserve(count.used))
    return Status::error("out of memory: the activations need " +
                         std::to_string(count.used * sizeof(float)) + " bytes");
  Carver real{work_.data()};
  carve_all(real);
  return Status::success();
}

Status Transformer::check_tokens(const int32_t* tokens, const int32_t* targets, size_t batch,
                                 size_t T) const {
  if (batch == 0 || T == 0) return Status::error("tokens must hold at least one token");
  if (T > config_.context_length)
    return Status::error("tokens has " + std::to_string(T) +
                         " tokens per sequence, more than contextLength (" +
                         std::to_string(config_.context_length) + ")");
  const int64_t V = static_cast<int64_t>(config_.vocab_size);
  for (size_t i = 0; i < batch * T; ++i) {
    if (tokens[i] < 0 || tokens[i] >= V)
      return Status::error("tokens[" + std::to_string(i) + "] = " + std::to_string(tokens[i]) +
                           " is outside [0, vocabSize = " + std::to_string(V) + ")");
    if (targets && ((targets[i] < 0 && !is_ignored_target(targets[i])) || targets[i] >= V))
      return Status::error(
          "targets[" + std::to_string(i) + "] = " + std::to_string(targets[i]) +
          " is neither −1 or −100 (ignored) nor in [0, vocabSize = " + std::to_string(V) + ")");
  }
  if (targets && count_targets(targets, batch * T) == 0)
    return Status::error(
        "targets are all −1 (or −100): the mean loss over no targets is undefined");
  return Status::success();
}

// Embeddings and every block; the last block's output is block_activations(L − 1).x_out.
void Transformer::run_blocks(const int32_t* tokens, float* attentions, size_t layers) {
  const BlockShape s = block_shape();
  const size_t E = s.E, L = std::min(config_.num_layers, layers);
  float* p = params_.data();
  const float* wpe = layout_.wpe == kAbsent ? nullptr : p + layout_.wpe;
  embedding_forward(tokens, batch_, T_, p + layout_.wte, wpe, E, carved_.residual);
  const size_t att_per_layer = s.batch * s.heads * s.T * s.T;
  for (size_t l = 0; l < L; ++l) {
    BlockActivations a = block_activations(l);
    if (!training_) a.att = attentions ? attentions + l * att_per_layer : nullptr;
    block_forward(s, block_tensors(p, l), a, carved_.work);
    if (training_ && attentions && a.att)
      std::copy(a.att, a.att + att_per_layer, attentions + l * att_per_layer);
  }
}

void Transformer::run_forward(const int32_t* tokens, float* logits, float* attentions) {
  run_blocks(tokens, attentions);
  const size_t N = batch_ * T_, E = config_.d_model, V = config_.vocab_size;
  float* p = params_.data();
  const float* x = block_activations(config_.num_layers - 1).x_out;
  if (config_.layer_norm) {
    layer_norm_forward(x, p + layout_.lnf_w, p + layout_.lnf_b, carved_.lnf, carved_.lnf_mean,
                       carved_.lnf_rstd, N, E);
    x = carved_.lnf;
  }
  const float* unembedding = p + (config_.tie_embeddings ? layout_.wte : layout_.lm_head);
  unembed(x, unembedding, logits, N, V, E, carved_.work);
}

// rows (count ≤ N flat row indices) of the last block's output → their logits (count × V), through
// carved_.lnf: LayerNorm writes the selected rows there, or they are copied there without it.
void Transformer::unembed_rows(const uint32_t* rows, size_t count, float* logits) {
  const size_t E = config_.d_model, V = config_.vocab_size;
  float* p = params_.data();
  const float* x = block_activations(config_.num_layers - 1).x_out;
  for (size_t i = 0; i < count; ++i) {
    const float* row = x + size_t(rows[i]) * E;
    if (config_.layer_norm)
      layer_norm_forward(row, p + layout_.lnf_w, p + layout_.lnf_b, carved_.lnf + i * E,
                         carved_.lnf_mean + i, carved_.lnf_rstd + i, 1, E);
    else
      std::copy(row, row + E, carved_.lnf + i * E);
  }
  const float* unembedding = p + (config_.tie_embeddings ? layout_.wte : layout_.lm_head);
  unembed(carved_.lnf, unembedding, logits, count, V, E, carved_.work);
}

Status Transformer::forward(const int32_t* tokens, size_t batch, size_t T, float* logits,
                            float* attentions) {
  Status status = check_tokens(tokens, nullptr, batch, T);
  if (status.ok()) status = prepare(batch, T, false);
  if (!status.ok()) return status;
  run_forward(tokens, logits, attentions);
  if (!all_finite(logits, batch * T * config_.vocab_size)) return Status::error(kNotFiniteLogits);
  return Status::success();
}

Status Transformer::forward_rows(const int32_t* tokens, size_t batch, size_t T,
                                 const uint32_t* rows, size_t count, float* logits,
                                 float* attentions) {
  Status status = check_tokens(tokens, nullptr, batch, T);
  if (!status.ok()) return status;
  if (count == 0 || count > batch * T) return Status::error("rows: between 1 and batch × T rows");
  for (size_t i = 0; i < count; ++i)
    if (rows[i] >= batch * T)
      return Status::error("rows[" + std::to_string(i) + "] = " + std::to_string(rows[i]) +
                           " is outside [0, batch × T = " + std::to_string(batch * T) + ")");
  status = prepare(batch, T, false);
  if (!status.ok()) return status;
  run_blocks(tokens, attentions);
  unembed_rows(rows, count, logits);
  if (!all_finite(logits, count * config_.vocab_size)) return Status::error(kNotFiniteLogits);
  return Status::success();
}

// tokens (T) → out (T × E): LN₁ of block `layer`'s input, after the blocks before it.
Status Transformer::layer_input(const int32_t* tokens, size_t T, size_t layer, float* out) {
  if (layer >= config_.num_layers)
    return Status::error("layer " + std::to_string(layer) +
                         " is outside [0, numLayers = " + std::to_string(config_.num_layers) + ")");
  Status status = check_tokens(tokens, nullptr, 1, T);
  if (status.ok()) status = prepare(1, T, false);
  if (!status.ok()) return status;
  run_blocks(tokens, nullptr, layer);
  const size_t E = config_.d_model;
  const float* x = block_activations(layer).x_in;
  if (config_.layer_norm) {
    const BlockTensors w = block_tensors(params_.data(), layer);
    layer_norm_forward(x, w.ln1_w, w.ln1_b, out, carved_.lnf_mean, carved_.lnf_rstd, T, E);
  } else {
    std::copy(x, x + T * E, out);
  }
  return Status::success();
}

Status Transformer::loss(const int32_t* tokens, const int32_t* targets, size_t batch, size_t T,
                         double* loss) {
  Status status = check_tokens(tokens, targets, batch, T);
  if (status.ok()) status = prepare(batch, T, false);
  if (!status.ok()) return status;
  const size_t V = config_.vocab_size;
  std::vector<uint32_t> rows;
  std::vector<int32_t> kept;
  rows.reserve(count_targets(targets, batch * T)), kept.reserve(rows.capacity());
  for (size_t i = 0; i < batch * T; ++i)
    if (targets[i] >= 0) rows.push_back(uint32_t(i)), kept.push_back(targets[i]);
  const size_t chunk = std::min(rows.size(), std::max<size_t>(1, kLossChunkFloats / V));
  FloatBuffer logits;
  if (!logits.reserve(chunk * V))
    return Status::error("out of memory: the loss needs " +
                         std::to_string(chunk * V * sizeof(float)) + " bytes");
  run_blocks(tokens, nullptr);
  double total = 0.0;
  for (size_t start = 0; start < rows.size(); start += chunk) {
    const size_t n = std::min(chunk, rows.size() - start);
    unembed_rows(rows.data() + start, n, logits.data());
    if (!all_finite(logits.data(), n * V)) return Status::error(kNotFiniteLogits);
    total += cross_entropy(logits.data(), kept.data() + start, n, V, 1, nullptr);  // the sum
  }
  *loss = total / double(rows.size());
  if (!std::isfinite(*loss)) return Status::error("the loss is not finite");
  return Status::success();
}

// carved_.logits holds ∂L/∂logits on entry.
void Transformer::run_backward(const int32_t* tokens) {
  const BlockShape s = block_shape();
  const size_t N = s.rows(), E = s.E, V = config_.vocab_size, L = config_.num_layers;
  float* p = params_.data();
  float* g = grads_.data();
  grads_.zero();
  const float* x_last = block_activations(L - 1).x_out;
  const float* final_x = config_.layer_norm ? carved_.lnf : x_last;
  const size_t u = config_.tie_embeddings ? layout_.wte : layout_.lm_head;
  const float* dlogits = carved_.logits;
  accumulate_at_b(dlogits, final_x, g + u, N, V, E, carved_.work);  // ∂U += ∂logitsᵀ·x
  float* d_res = carved_.d_residual;
  if (config_.layer_norm) {
    float* d_lnf = carved_.scratch.d_ln;
    kernels::matmul(dlogits, V, p + u, E, d_lnf, E, N, E, V, 1.0f, false);
    std::fill(d_res, d_res + N * E, 0.0f);
    layer_norm_backward(x_last, p + layout_.lnf_w, carved_.lnf_mean, carved_.lnf_rstd, d_lnf, d_res,
                        g + layout_.lnf_w, g + layout_.lnf_b, N, E);
  } else {
    kernels::matmul(dlogits, V, p + u, E, d_res, E, N, E, V, 1.0f, false);
  }
  for (size_t l = L; l-- > 0;)
    block_backward(s, block_tensors(p, l), block_activations(l), block_tensors(g, l), d_res,
                   carved_.scratch);
  float* dwpe = layout_.wpe == kAbsent ? nullptr : g + layout_.wpe;
  embedding_backward(tokens, batch_, T_, d_res, E, g + layout_.wte, dwpe);
}

Status Transformer::check_finite_gradients() const {
  for (const ParameterInfo& t : layout_.tensors)
    if (!all_finite(grads_.data() + t.offset, t.size))
      return Status::error("the gradient of " + t.name + " is not finite (NaN or ±Infinity)");
  return Status::success();
}

// `buffers` blocks of the parameters' size besides the parameters: 1 (gradients) or 3 (and Adam's
// two moments).
Status Transformer::check_training_memory(size_t buffers) const {
  return check_training_bytes(layout_, buffers);
}

Status Transformer::compute_gradients(const int32_t* tokens, const int32_t* targets, size_t batch,
                                      size_t T, double* loss) {
  Status status = check_tokens(tokens, targets, batch, T);
  if (status.ok()) status = check_training_memory(1);
  if (status.ok()) status = reserve_training(false);
  if (status.ok()) status = prepare(batch, T, true);
  if (!status.ok()) return status;
  run_forward(tokens, carved_.logits, nullptr);
  const size_t N = batch * T;
  // All rows, ignored ones too: a NaN there would reach the gradients through the unembedding.
  if (!all_finite(carved_.logits, N * config_.vocab_size)) return Status::error(kNotFiniteLogits);
  *loss = cross_entropy(carved_.logits, targets, N, config_.vocab_size, count_targets(targets, N),
                        carved_.logits);
  if (!std::isfinite(*loss)) return Status::error("the loss is not finite (NaN or ±Infinity)");
  run_backward(tokens);
  return check_finite_gradients();
}

Status Transformer::train_step(const int32_t* tokens, const int32_t* targets, size_t batch,
                               size_t T, const AdamOptions& options, double* loss) {
  Status status = validate_adam_options(options);
  if (status.ok()) status = check_training_memory(3);
  if (!status.ok()) return status;
  status = reserve_training(true);
  if (!status.ok()) return status;
  status = compute_gradients(tokens, targets, batch, T, loss);
  if (!status.ok()) return status;
  float* g = grads_.data();
  if (options.clip_norm > 0) clip_gradient_norm(g, layout_.total_floats, options.clip_norm);
  // Tensor by tensor, so the padding between tensors is never touched. Every tensor is checked
  // before any is written: a step that would leave a NaN or ±∞ anywhere changes nothing.
  const int64_t step = step_ + 1;
  for (const ParameterInfo& t : layout_.tensors)
    if (!adam_step_is_finite(params_.data() + t.offset, g + t.offset, adam_m_.data() + t.offset,
                             adam_v_.data() + t.offset, t.size, step, options))
      return Status::error(
          "the update of " + t.name +
          " would not be finite (NaN or ±Infinity); the "
          "parameters, Adam's moments and step count are unchanged (lower learningRate?)");
  for (const ParameterInfo& t : layout_.tensors)
    adam_step(params_.data() + t.offset, g + t.offset, adam_m_.data() + t.offset,
              adam_v_.data() + t.offset, t.size, step, options);
  step_ = step;
  return Status::success();
}

// The gradients, and Adam's two moments when `adam`, each as large as the parameters, exist only
// once training starts: a model loaded to run forward never pays for them. Allocated together or
// not at all, so a failure leaves no half-made optimizer behind.
Status Transformer::reserve_training(bool adam) {
  const size_t n = layout_.total_floats;
  const bool need_grads = !grads_.data(), need_adam = adam && !adam_m_.data();
  if (!need_grads && !need_adam) return Status::success();
  const bool ok = (!need_grads || grads_.reserve(n)) &&
                  (!need_adam || (adam_m_.reserve(n) && adam_v_.reserve(n)));
  if (ok) {
    if (need_adam) reset_optimizer();
    return Status::success();
  }
  if (need_grads) grads_.release();
  if (need_adam) adam_m_.release(), adam_v_.release();
  const size_t mib = (n * sizeof(float) + (size_t(1) << 20) - 1) >> 20;
  const size_t copies = (need_grads ? 1 : 0) + (need_adam ? 2 : 0);
  return Status::error(
      std::string("out of memory: training needs ") + std::to_string(copies * mib) + " MiB more (" +
      (need_grads ? "the gradients" : "") + (need_grads && need_adam ? " and " : "") +
      (need_adam ? "Adam's two moments" : "") + ", " + std::to_string(mib) +
      " MiB each, as large as the parameters), more than the memory left can hold");
}

void Transformer::reset_optimizer() {
  adam_m_.zero();
  adam_v_.zero();
  step_ = 0;
}

}  // namespace attn
