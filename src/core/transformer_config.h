// The tiny GPT-2 transformer's configuration and its parameters by name: the Hugging Face GPT-2
// state-dict names, shapes and where each tensor lives in the model's one flat parameter block.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "status.h"

namespace attn {

enum class TransformerInit { pytorch, gpt2 };

// Position information inside attention (attention_positions.h): none, rotary embeddings of q and
// k (RoPE, as Hugging Face Llama), or a linear bias on the query–key distance (ALiBi, as BLOOM).
// Either replaces the learned wpe.
enum class AttentionPositions { none, rope, alibi };

struct TransformerConfig {
  size_t vocab_size = 0;      // V
  size_t context_length = 0;  // T_max: rows of wpe
  size_t d_model = 0;         // E
  size_t num_layers = 0;      // L
  size_t num_heads = 0;       // H, divides E
  bool mlp = true;
  bool layer_norm = true;
  bool learned_positions = true;  // false: no wpe
  bool tie_embeddings = true;     // false: lm_head.weight [V, E]
  TransformerInit init = TransformerInit::pytorch;
  uint32_t seed = 0;
  AttentionPositions attention_positions = AttentionPositions::none;  // needs !learned_positions
  double rope_base = 10000.0;  // RoPE: frequency i of a head turns by p·rope_base^(−2i/d)
  size_t num_kv_heads = 0;     // key/value heads (0: num_heads); divides num_heads, 1 = multi-query
  size_t attention_window = 0;  // > 0: query i sees keys i − W < j ≤ i (a sliding window)
};

// Key/value heads, and the width of c_attn's output: E query columns, then the keys and the
// values of every key/value head (E + 2·num_kv_heads·d).
size_t kv_head_count(const TransformerConfig& config);
size_t qkv_width(const TransformerConfig& config);

// Bounds that keep every accepted model buildable inside wasm32's 4 GiB of memory (the WebAssembly
// build's MAXIMUM_MEMORY), checked before anything is allocated (each error gives the limit): every
// size at most kMaxDimension (dModel at most kMaxDModel), numLayers at most kMaxLayers, at most
// kMaxParameters parameters: 1.6 GB of float32, so GPT-2 medium (355 M) opens for inference and
// GPT-2 large (774 M, 3.1 GB) is refused, since its activations, the loader's slices and the rest
// of a tab's memory would not fit beside it. Training needs more (check_training_bytes), checked
// when it first runs.
constexpr size_t kMaxDimension = size_t(1) << 20;
constexpr size_t kMaxDModel = size_t(1) << 16;
constexpr size_t kMaxLayers = 256;
constexpr size_t kMaxTensors = 4096;
constexpr double kMaxParameters = 400e6;
// The parameters with their gradients (and Adam's two moments) at most this many bytes together.
constexpr double kMaxTrainingBytes = 1.5 * double(size_t(1) << 30);
Status validate_transformer_config(const TransformerConfig& config);

// How a tensor starts: what PyTorch's nn.Embedding / nn.Linear / nn.LayerNorm do for 'pytorch',
// or GPT-2's N(0, 0.02) for 'gpt2'.
enum class ParameterKind { embedding, weight, bias, norm_weight, norm_bias };

struct ParameterInfo {
  std::string name;           // e.g. "h.0.attn.c_attn.weight"
  std::vector<size_t> shape;  // [in, out] for linear weights (x·W + b, GPT-2's Conv1D layout)
  size_t offset = 0;          // floats from the start of the parameter block
  size_t size = 0;
  ParameterKind kind = ParameterKind::weight;
  size_t fan_in = 0;                 // inputs of the linear layer (weights and biases)
  bool residual_projection = false;  // c_proj: GPT-2 scales its init by 1/√(2L)
};

constexpr size_t kAbsent = static_cast<size_t>(-1);

// Offsets of one block's tensors; kAbsent for parts the config switches off.
struct BlockOffsets {
  size_t ln1_w = kAbsent, ln1_b = kAbsent;
  size_t attn_w = kAbsent, attn_b = kAbsent, proj_w = kAbsent, proj_b = kAbsent;
  size_t ln2_w = kAbsent, ln2_b = kAbsent;
  size_t fc_w = kAbsent, fc_b = kAbsent, fc_proj_w = kAbsent, fc_proj_b = kAbsent;
};

struct ParameterLayout {
  std::vector<ParameterInfo> tensors;  // in GPT-2's state-dict order
  size_t wte = kAbsent, wpe = kAbsent, lnf_w = kAbsent, lnf_b = kAbsent, lm_head = kAbsent;
  std::vector<BlockOffsets> blocks;
  size_t total_floats = 0;  // the block, with every tensor starting on a 16-float boundary
  size_t parameter_count = 0;
};

// Assumes a valid config.
ParameterLayout make_parameter_layout(const TransformerConfig& config);

// At most kMaxTensors tensors (a layout is small to build once the config is valid).
Status check_parameter_layout(const ParameterLayout& layout);

// Whether the parameters and `buffers` more blocks of their size (1: the gradients; 3: and Adam's
// moments) fit in kMaxTrainingBytes; the error gives the sizes and the limit.
Status check_training_bytes(const ParameterLayout& layout, size_t buffers);

// Index of `name` in layout.tensors, or kAbsent.
size_t find_parameter(const ParameterLayout& layout, const std::string& name);

// Fills the parameter block (layout.total_floats, padding set to 0) from NumPy's legacy generator
// seeded with config.seed, tensor by tensor in state-dict order.
void initialize_parameters(const TransformerConfig& config, const ParameterLayout& layout,
                           float* parameters);

}  // namespace attn
