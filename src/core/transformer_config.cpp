#include "transformer_config.h"

#include <cmath>
#include <cstring>

#include "numpy_random.h"

namespace attn {
namespace {

// The bounds (transformer_config.h) keep every size product far from overflow and the parameters
// within wasm32's 2 GiB: GPT-2 small (124 M) loads for inference; training it would need four such
// blocks (gradients and Adam's two moments), which check_training_bytes refuses.
constexpr size_t kAlignFloats = 16;

std::string mebibytes(double bytes) {
  return std::to_string(static_cast<long long>(std::ceil(bytes / double(1 << 20)))) + " MiB";
}

size_t aligned(size_t floats) { return (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }

struct LayoutBuilder {
  ParameterLayout layout;
  size_t add(std::string name, std::vector<size_t> shape, ParameterKind kind, size_t fan_in = 0,
             bool residual = false) {
    ParameterInfo info;
    info.name = std::move(name);
    info.size = 1;
    for (size_t d : shape) info.size *= d;
    info.shape = std::move(shape);
    info.offset = layout.total_floats;
    info.kind = kind;
    info.fan_in = fan_in;
    info.residual_projection = residual;
    layout.total_floats += aligned(info.size);
    layout.parameter_count += info.size;
    layout.tensors.push_back(std::move(info));
    return layout.tensors.back().offset;
  }
};

}  // namespace

size_t kv_head_count(const TransformerConfig& c) {
  return c.num_kv_heads ? c.num_kv_heads : c.num_heads;
}

size_t qkv_width(const TransformerConfig& c) {
  return c.d_model + 2 * kv_head_count(c) * (c.d_model / c.num_heads);
}

namespace {

Status validate_attention_config(const TransformerConfig& c) {
  const size_t H = c.num_heads, d = c.d_model / c.num_heads;
  if (c.num_kv_heads > kMaxDimension || (c.num_kv_heads && H % c.num_kv_heads != 0))
    return Status::error("numKVHeads (" + std::to_string(c.num_kv_heads) +
                         ") must divide numHeads (" + std::to_string(H) +
                         "): each key/value head serves numHeads / numKVHeads query heads");
  if (c.attention_positions != AttentionPositions::none && c.learned_positions)
    return Status::error(
        "positions 'rope' and 'alibi' replace the learned wpe; a model cannot have both");
  if (c.attention_positions == AttentionPositions::rope && d % 2 != 0)
    return Status::error("positions 'rope' needs an even head dimension dModel / numHeads, got " +
                         std::to_string(d) + ": RoPE turns the two halves of each head as pairs");
  if (!(c.rope_base > 0.0) || !std::isfinite(c.rope_base))
    return Status::error("ropeBase must be a positive finite number");
  return Status::success();
}

}  // namespace

Status validate_transformer_config(const TransformerConfig& c) {
  const size_t dims[] = {c.vocab_size, c.context_length, c.d_model, c.num_layers, c.num_heads};
  const size_t limits[] = {kMaxDimension, kMaxDimension, kMaxDModel, kMaxLayers, kMaxDModel};
  const char* names[] = {"vocabSize", "contextLength", "dModel", "numLayers", "numHeads"};
  for (int i = 0; i < 5; ++i) {
    if (dims[i] == 0) return Status::error(std::string(names[i]) + " must be positive");
    if (dims[i] > limits[i])
      return Status::error(std::string(names[i]) + " must be at most " + std::to_string(limits[i]) +
                           ", got " + std::to_string(dims[i]));
  }
  if (c.d_model % c.num_heads != 0)
    return Status::error("numHeads (" + std::to_string(c.num_heads) + ") must divide dModel (" +
                         std::to_string(c.d_model) + ")");
  const Status attention = validate_attention_config(c);
  if (!attention.ok()) return attention;
  const double V = double(c.vocab_size), T = double(c.context_length), E = double(c.d_model);
  const double qkv = double(qkv_width(c));
  const double per_block =
      (E + 1) * qkv + E * E + E + (c.mlp ? 8 * E * E + 5 * E : 0) + (c.layer_norm ? 4 * E : 0);
  const double total = V * E * (c.tie_embeddings ? 1 : 2) + (c.learned_positions ? T * E : 0) +
                       double(c.num_layers) * per_block;
  if (total > kMaxParameters)
    return Status::error("the model would have " + std::to_string(static_cast<long long>(total)) +
                         " parameters, more than the " +
                         std::to_string(static_cast<long long>(kMaxParameters)) +
                         " that fit in WebAssembly memory (4 bytes each: 1.6 GB of its 4 GiB)");
  return Status::success();
}

ParameterLayout make_parameter_layout(const TransformerConfig& c) {
  const size_t V = c.vocab_size, E = c.d_model;
  LayoutBuilder b;
  ParameterLayout& l = b.layout;
  l.wte = b.add("wte.weight", {V, E}, ParameterKind::embedding);
  if (c.learned_positions)
    l.wpe = b.add("wpe.weight", {c.context_length, E}, ParameterKind::embedding);
  for (size_t i = 0; i < c.num_layers; ++i) {
    const std::string p = "h." + std::to_string(i) + ".";
    BlockOffsets o;
    if (c.layer_norm) {
      o.ln1_w = b.add(p + "ln_1.weight", {E}, ParameterKind::norm_weight);
      o.ln1_b = b.add(p + "ln_1.bias", {E}, ParameterKind::norm_bias);
    }
    o.attn_w = b.add(p + "attn.c_attn.weight", {E, qkv_width(c)}, ParameterKind::weight, E);
    o.attn_b = b.add(p + "attn.c_attn.bias", {qkv_width(c)}, ParameterKind::bias, E);
    o.proj_w = b.add(p + "attn.c_proj.weight", {E, E}, ParameterKind::weight, E, true);
    o.proj_b = b.add(p + "attn.c_proj.bias", {E}, ParameterKind::bias, E);
    if (c.mlp) {
      if (c.layer_norm) {
        o.ln2_w = b.add(p + "ln_2.weight", {E}, ParameterKind::norm_weight);
        o.ln2_b = b.add(p + "ln_2.bias", {E}, ParameterKind::norm_bias);
      }
      o.fc_w = b.add(p + "mlp.c_fc.weight", {E, 4 * E}, ParameterKind::weight, E);
      o.fc_b = b.add(p + "mlp.c_fc.bias", {4 * E}, ParameterKind::bias, E);
      o.fc_proj_w = b.add(p + "mlp.c_proj.weight", {4 * E, E}, ParameterKind::weight, 4 * E, true);
      o.fc_proj_b = b.add(p + "mlp.c_proj.bias", {E}, ParameterKind::bias, 4 * E);
    }
    l.blocks.push_back(o);
  }
  if (c.layer_norm) {
    l.lnf_w = b.add("ln_f.weight", {E}, ParameterKind::norm_weight);
    l.lnf_b = b.add("ln_f.bias", {E}, ParameterKind::norm_bias);
  }
  // nn.Linear(E, V, bias=False): fan_in E. Stored [V, E] as in PyTorch (logits = x·Uᵀ).
  if (!c.tie_embeddings) l.lm_head = b.add("lm_head.weight", {V, E}, ParameterKind::weight, E);
  return l;
}

Status check_parameter_layout(const ParameterLayout& layout) {
  if (layout.tensors.size() > kMaxTensors)
    return Status::error("the model would have " + std::to_string(layout.tensors.size()) +
                         " tensors, more than the " + std::to_string(kMaxTensors) + " allowed");
  return Status::success();
}

Status check_training_bytes(const ParameterLayout& layout, size_t buffers) {
  const double block = double(layout.total_floats) * sizeof(float);
  const double bytes = block * double(1 + buffers);
  if (bytes <= kMaxTrainingBytes) return Status::success();
  return Status::error(std::string("training needs ") + mebibytes(bytes) + " for the parameters (" +
                       mebibytes(block) + ") and their " +
                       (buffers == 1 ? "gradients" : "gradients and Adam's two moments") +
                       ", more than the " + mebibytes(kMaxTrainingBytes) +
                       " WebAssembly memory allows for them; train a smaller model");
}

size_t find_parameter(const ParameterLayout& layout, const std::string& name) {
  for (size_t i = 0; i < layout.tensors.size(); ++i)
    if (layout.tensors[i].name == name) return i;
  return kAbsent;
}

namespace {

void fill_normal(NumpyRandomState& rng, float* out, size_t count, double std) {
  for (size_t i = 0; i < count; ++i) out[i] = static_cast<float>(std * numpy_standard_normal(rng));
}

// U(−bound, bound) as (2u − 1)·bound with u from np.random.rand.
void fill_uniform(NumpyRandomState& rng, float* out, size_t count, double bound) {
  for (size_t i = 0; i < count; ++i)
    out[i] = static_cast<float>((2.0 * numpy_random_double(rng) - 1.0) * bound);
}

void fill_constant(float* out, size_t count, float value) {
  for (size_t i = 0; i < count; ++i) out[i] = value;
}

}  // namespace

void initialize_parameters(const TransformerConfig& c, const ParameterLayout& layout,
                           float* params) {
  std::memset(params, 0, layout.total_floats * sizeof(float));
  NumpyRandomState rng;
  numpy_seed(rng, c.seed);
  const bool gpt2 = c.init == TransformerInit::gpt2;
  // Hugging Face's GPT2PreTrainedModel: residual projections start at 0.02/√(2L).
  const double residual_std = 0.02 / std::sqrt(2.0 * double(c.num_layers));
  for (const ParameterInfo& t : layout.tensors) {
    float* p = params + t.offset;
    const double bound = t.fan_in ? 1.0 / std::sqrt(double(t.fan_in)) : 0.0;
    switch (t.kind) {
      case ParameterKind::embedding:
        fill_normal(rng, p, t.size, gpt2 ? 0.02 : 1.0);
        break;
      case ParameterKind::weight:
        if (gpt2)
          fill_normal(rng, p, t.size, t.residual_projection ? residual_std : 0.02);
        else
          fill_uniform(rng, p, t.size, bound);
        break;
      case ParameterKind::bias:
        if (!gpt2) fill_uniform(rng, p, t.size, bound);
        break;
      case ParameterKind::norm_weight:
        fill_constant(p, t.size, 1.0f);
        break;
      case ParameterKind::norm_bias:
        break;
    }
  }
}

}  // namespace attn
