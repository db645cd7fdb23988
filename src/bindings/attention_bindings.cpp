// The only Embind file. Thin by design: JavaScript (web/lib/) validates arguments, lays tensors out
// in WASM memory and passes their addresses; this file builds the core's structs, calls the core
// and hands back its status for the JS layer to throw. Workspace comes from malloc, which returns
// null instead of aborting when memory cannot grow, so running out is an error message, not a dead
// module.
//
// The two attention calls are the hot path of a lesson (thousands of calls of n = 8 on every slider
// move), so they skip Embind: they are plain exported C functions (Module._attn_…, ~15 ns to call
// instead of ~1 µs for Embind's generic 22-argument invoker under DYNAMIC_EXECUTION=0), return an
// int (0 = success; the message is then fetched with _takeLastError), and reuse one workspace
// block instead of a malloc + free per call.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "attention.h"
#include "attention_backward.h"
#include "attention_positions.h"
#include "decoder.h"
#include "dtype_conversion.h"
#include "flash_trace.h"
#include "head_scores.h"
#include "kernels.h"
#include "lesson_analysis.h"
#include "matrix_product.h"
#include "multi_head_attention.h"
#include "multi_head_backward.h"
#include "multi_head_layer.h"
#include "numpy_random.h"
#include "pitfalls.h"
#include "position_loss.h"
#include "sampling.h"
#include "transformer.h"

namespace {

using Address = uintptr_t;  // a byte offset into WASM memory, passed from JS as a number

template <typename T>
T* ptr(Address address) {
  return reinterpret_cast<T*>(address);
}

// One workspace block kept between calls (the module is single-threaded). A block over 64 MiB is
// returned after its call, so one long sequence does not pin memory for the rest of the session.
// The block is 64-byte aligned: malloc here only promises 8, and a workspace at 8 mod 16 made
// every fourth 16-byte load of the packed panels straddle a cache line (multi-head attention
// measured ~20 % slower depending on where the block happened to land).
class WorkspaceCache {
 public:
  float* reserve(size_t floats) {
    const size_t bytes = floats * sizeof(float) + kAlign;
    if (bytes <= bytes_) return aligned();
    release();
    data_ = static_cast<char*>(std::malloc(bytes));
    bytes_ = data_ ? bytes : 0;
    return data_ ? aligned() : nullptr;
  }
  void settle() {
    if (bytes_ > kKeepBytes) release();
  }

 private:
  static constexpr size_t kKeepBytes = size_t(64) << 20;
  static constexpr size_t kAlign = 64;
  float* aligned() const {
    const uintptr_t at = reinterpret_cast<uintptr_t>(data_);
    return reinterpret_cast<float*>((at + kAlign - 1) / kAlign * kAlign);
  }
  void release() {
    std::free(data_);
    data_ = nullptr;
    bytes_ = 0;
  }
  char* data_ = nullptr;
  size_t bytes_ = 0;
};

WorkspaceCache workspace_cache;
std::string last_error;  // message of the last failed raw call, until _takeLastError reads it

int fail(std::string message) {
  last_error = std::move(message);
  return 1;
}

int report(const attn::Status& status) { return status.ok() ? 0 : fail(status.message); }

std::string take_last_error() {
  std::string message;
  message.swap(last_error);  // frees it: a rejected call leaves the heap as it was
  return message;
}

std::string out_of_memory(size_t floats) {
  return "out of memory: the attention workspace needs " + std::to_string(floats * sizeof(float)) +
         " bytes that WebAssembly memory cannot provide";
}

// Runs the core with the cached workspace.
template <typename Problem, typename Result, typename Floats, typename Call>
int with_workspace(const Problem& p, const Result& r, Floats floats_of, Call call) {
  const size_t floats = floats_of(p, r);
  float* workspace = workspace_cache.reserve(floats);
  if (!workspace) return fail(out_of_memory(floats));
  const int status = report(call(p, r, workspace));
  workspace_cache.settle();
  return status;
}

// The problem of a scaled dot-product attention call from its raw arguments (forward and backward).
attn::AttentionProblem attention_problem(Address q, Address k, Address v, size_t batch, size_t n,
                                         size_t m, size_t dk, size_t dv, float scale, bool causal,
                                         Address mask, bool mask_per_batch, Address bias,
                                         bool bias_per_batch, Address key_padding, size_t window,
                                         bool lower_right) {
  attn::AttentionProblem p;
  p.batch = batch, p.n = n, p.m = m, p.dk = dk, p.dv = dv;
  p.q = ptr<const float>(q), p.k = ptr<const float>(k), p.v = ptr<const float>(v);
  p.scale = scale, p.causal = causal;
  p.mask = ptr<const uint8_t>(mask), p.mask_per_batch = mask_per_batch;
  p.bias = ptr<const float>(bias), p.bias_per_batch = bias_per_batch;
  p.key_padding = ptr<const uint8_t>(key_padding);
  p.window = window, p.lower_right = lower_right;
  return p;
}

// A multi-head call's problem: shape and weights from the layer's block, the rest from the
// arguments (forward and backward).
attn::Status multi_head_problem(Address layer, size_t batch, size_t n, size_t m, Address query,
                                Address key, Address value, float scale, bool causal, Address mask,
                                Address bias, Address key_padding, attn::MultiHeadProblem* p) {
  const attn::Status status = attn::use_multi_head_layer(ptr<attn::MultiHeadLayer>(layer), p);
  p->batch = batch, p->n = n, p->m = m;
  p->query = ptr<const float>(query), p->key = ptr<const float>(key);
  p->value = ptr<const float>(value);
  p->scale = scale, p->causal = causal;
  p->mask = ptr<const uint8_t>(mask), p->bias = ptr<const float>(bias);
  p->key_padding = ptr<const uint8_t>(key_padding);
  return status;
}

}  // namespace

// pitfall 0 is ordinary attention (the fast kernels); others route to the deliberate mistakes of
// pitfalls.h, which report no fully masked rows and no trace.
extern "C" EMSCRIPTEN_KEEPALIVE int attn_scaled_dot_product_attention(
    int pitfall, Address q, Address k, Address v, size_t batch, size_t n, size_t m, size_t dk,
    size_t dv, float scale, bool causal, Address mask, bool mask_per_batch, Address bias,
    bool bias_per_batch, Address key_padding, Address output, Address weights, Address scores,
    Address scaled, Address masked, Address fully_masked_rows, size_t window, bool lower_right) {
  const attn::AttentionProblem p =
      attention_problem(q, k, v, batch, n, m, dk, dv, scale, causal, mask, mask_per_batch, bias,
                        bias_per_batch, key_padding, window, lower_right);
  attn::AttentionResult r;
  r.output = ptr<float>(output), r.weights = ptr<float>(weights);
  r.scores = ptr<float>(scores), r.scaled = ptr<float>(scaled), r.masked = ptr<float>(masked);
  r.fully_masked_rows = ptr<uint8_t>(fully_masked_rows);
  if (pitfall != 0) {
    if (!attn::pitfall_is_valid(pitfall)) return fail("unknown pitfall");
    return report(
        attn::attention_with_pitfall(p, static_cast<attn::Pitfall>(pitfall), r.output, r.weights));
  }
  return with_workspace(p, r, attn::attention_workspace_floats, attn::scaled_dot_product_attention);
}

// The layer's shape and weights come from its block (multi_head_layer.h), never from JavaScript.
extern "C" EMSCRIPTEN_KEEPALIVE int attn_multi_head_attention(
    int pitfall, Address layer, size_t batch, size_t n, size_t m, Address query, Address key,
    Address value, float scale, bool causal, Address mask, Address bias, Address key_padding,
    Address output, Address weights, bool average_weights, Address q_proj, Address k_proj,
    Address v_proj, Address scores, Address scaled, Address masked, Address head_weights,
    Address head_outputs, Address concat, Address fully_masked_rows, size_t window,
    bool lower_right) {
  attn::MultiHeadProblem p;
  const attn::Status layer_status = multi_head_problem(layer, batch, n, m, query, key, value, scale,
                                                       causal, mask, bias, key_padding, &p);
  if (!layer_status.ok()) return report(layer_status);
  p.window = window, p.lower_right = lower_right;
  attn::MultiHeadResult r;
  r.output = ptr<float>(output), r.weights = ptr<float>(weights);
  r.average_weights = average_weights;
  r.q_proj = ptr<float>(q_proj), r.k_proj = ptr<float>(k_proj), r.v_proj = ptr<float>(v_proj);
  r.scores = ptr<float>(scores), r.scaled = ptr<float>(scaled), r.masked = ptr<float>(masked);
  r.head_weights = ptr<float>(head_weights), r.head_outputs = ptr<float>(head_outputs);
  r.concat = ptr<float>(concat);
  r.fully_masked_rows = ptr<uint8_t>(fully_masked_rows);
  if (pitfall != 0) {
    if (!attn::pitfall_is_valid(pitfall)) return fail("unknown pitfall");
    return report(attn::multi_head_with_pitfall(p, static_cast<attn::Pitfall>(pitfall), r.output,
                                                average_weights ? r.weights : nullptr));
  }
  return with_workspace(p, r, attn::multi_head_workspace_floats, attn::multi_head_attention);
}

// A layer's weight block: created and sized by the core, which checks every copy in or out
// against the sizes it recorded (JavaScript passes the count it has, the core compares).
extern "C" EMSCRIPTEN_KEEPALIVE Address attn_layer_create(size_t embed_dim, size_t num_heads,
                                                          size_t kdim, size_t vdim, bool has_bias) {
  attn::Status status;
  attn::MultiHeadLayer* layer =
      attn::multi_head_layer_create({embed_dim, num_heads, kdim, vdim, has_bias}, &status);
  if (!layer) fail(status.message);
  return reinterpret_cast<Address>(layer);
}

extern "C" EMSCRIPTEN_KEEPALIVE void attn_layer_destroy(Address layer) {
  attn::multi_head_layer_destroy(ptr<attn::MultiHeadLayer>(layer));
}

extern "C" EMSCRIPTEN_KEEPALIVE int attn_layer_set_weight(Address layer, int index, Address data,
                                                          size_t count) {
  return report(attn::multi_head_layer_set_weight(ptr<attn::MultiHeadLayer>(layer), index,
                                                  ptr<const float>(data), count));
}

extern "C" EMSCRIPTEN_KEEPALIVE int attn_layer_get_weight(Address layer, int index, Address out,
                                                          size_t count) {
  return report(attn::multi_head_layer_get_weight(ptr<attn::MultiHeadLayer>(layer), index,
                                                  ptr<float>(out), count));
}

namespace {

double multi_head_parameter_count(size_t embed_dim, size_t num_heads, size_t kdim, size_t vdim,
                                  bool has_bias) {
  return static_cast<double>(
      attn::multi_head_parameter_count({embed_dim, num_heads, kdim, vdim, has_bias}));
}

size_t random_state_bytes() { return sizeof(attn::NumpyRandomState); }

void random_seed(Address state, uint32_t seed) {
  new (ptr<void>(state)) attn::NumpyRandomState();
  attn::numpy_seed(*ptr<attn::NumpyRandomState>(state), seed);
}

void random_fill_randn(Address state, Address out, size_t count) {
  attn::numpy_fill_randn(*ptr<attn::NumpyRandomState>(state), ptr<double>(out), count);
}

void random_fill_rand(Address state, Address out, size_t count) {
  attn::numpy_fill_rand(*ptr<attn::NumpyRandomState>(state), ptr<double>(out), count);
}

std::string matmul(Address a, Address b, Address c, size_t n, size_t k, size_t m) {
  return attn::matrix_product(ptr<const float>(a), ptr<const float>(b), ptr<float>(c), n, k, m)
      .message;
}

std::string kernel_variant() { return attn::kernels::variant_name(); }

// ---- Lesson experiments and deliberate mistakes ------------------------------------------------

std::string sample_dot_products(uint32_t seed, size_t dk, size_t count, Address raw,
                                Address scaled) {
  return attn::sample_dot_products(seed, dk, count, ptr<double>(raw), ptr<double>(scaled)).message;
}

void moments(Address values, size_t count, Address mean_std) {
  const attn::Moments m = attn::moments(ptr<const double>(values), count);
  ptr<double>(mean_std)[0] = m.mean;
  ptr<double>(mean_std)[1] = m.std;
}

std::string histogram(Address values, size_t count, size_t bins, double lo, double hi,
                      Address counts) {
  return attn::histogram(ptr<const double>(values), count, bins, lo, hi, ptr<uint32_t>(counts))
      .message;
}

void row_statistics(Address weights, size_t rows, size_t cols, Address entropy, Address max,
                    Address sum) {
  attn::row_statistics(ptr<const float>(weights), rows, cols, ptr<float>(entropy), ptr<float>(max),
                       ptr<float>(sum));
}

std::string softmax_rows(Address scores, size_t rows, size_t cols, float scale, Address out) {
  return attn::softmax_rows(ptr<const float>(scores), rows, cols, scale, ptr<float>(out)).message;
}

// out: parameters, projection FLOPs, score FLOPs, softmax FLOPs, attention-matrix bytes
std::string attention_cost(size_t n, size_t m, size_t d_model, size_t heads, bool bias,
                           Address out) {
  attn::AttentionCost c;
  attn::Status status = attn::attention_cost(n, m, d_model, heads, bias, &c);
  double* o = ptr<double>(out);
  o[0] = c.parameters, o[1] = c.projection_flops, o[2] = c.score_flops;
  o[3] = c.softmax_flops, o[4] = c.attention_matrix_bytes;
  return status.message;
}

// Bytes malloc has handed out and not taken back, for the leak tests (tests/js/leaks.test.mjs).
double heap_bytes_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
  emscripten::function("_takeLastError", &take_last_error);
  emscripten::function("_multiHeadParameterCount", &multi_head_parameter_count);
  emscripten::function("_randomStateBytes", &random_state_bytes);
  emscripten::function("_randomSeed", &random_seed);
  emscripten::function("_randomFillRandn", &random_fill_randn);
  emscripten::function("_randomFillRand", &random_fill_rand);
  emscripten::function("_kernelVariant", &kernel_variant);
  emscripten::function("_matmul", &matmul);
  emscripten::function("_sampleDotProducts", &sample_dot_products);
  emscripten::function("_moments", &moments);
  emscripten::function("_histogram", &histogram);
  emscripten::function("_rowStatistics", &row_statistics);
  emscripten::function("_softmaxRows", &softmax_rows);
  emscripten::function("_attentionCost", &attention_cost);
  emscripten::function("_heapBytesInUse", &heap_bytes_in_use);
}

// ---- Gradients (plain exports with an int status, like the forward calls above) ----------------

extern "C" EMSCRIPTEN_KEEPALIVE int attn_scaled_dot_product_attention_backward(
    Address q, Address k, Address v, Address d_output, size_t batch, size_t n, size_t m, size_t dk,
    size_t dv, float scale, bool causal, Address mask, bool mask_per_batch, Address bias,
    bool bias_per_batch, Address key_padding, Address output, Address weights, Address d_q,
    Address d_k, Address d_v, Address d_scores, size_t window, bool lower_right) {
  const attn::AttentionProblem p =
      attention_problem(q, k, v, batch, n, m, dk, dv, scale, causal, mask, mask_per_batch, bias,
                        bias_per_batch, key_padding, window, lower_right);
  attn::AttentionGradResult r;
  r.output = ptr<float>(output), r.weights = ptr<float>(weights);
  r.d_q = ptr<float>(d_q), r.d_k = ptr<float>(d_k), r.d_v = ptr<float>(d_v);
  r.d_scores = ptr<float>(d_scores);
  const float* grad = ptr<const float>(d_output);
  return with_workspace(
      p, r, attn::attention_backward_workspace_floats,
      [grad](const attn::AttentionProblem& p, const attn::AttentionGradResult& r, float* ws) {
        return attn::scaled_dot_product_attention_backward(p, grad, r, ws);
      });
}

extern "C" EMSCRIPTEN_KEEPALIVE int attn_multi_head_attention_backward(
    Address layer, size_t batch, size_t n, size_t m, Address query, Address key, Address value,
    Address d_output, float scale, bool causal, Address mask, Address bias, Address key_padding,
    Address output, Address d_query, Address d_key, Address d_value, Address d_wq, Address d_wk,
    Address d_wv, Address d_wo, Address d_bq, Address d_bk, Address d_bv, Address d_bo,
    size_t window, bool lower_right) {
  attn::MultiHeadProblem p;
  const attn::Status layer_status = multi_head_problem(layer, batch, n, m, query, key, value, scale,
                                                       causal, mask, bias, key_padding, &p);
  if (!layer_status.ok()) return report(layer_status);
  p.window = window, p.lower_right = lower_right;
  attn::MultiHeadGradResult r;
  r.output = ptr<float>(output), r.d_query = ptr<float>(d_query), r.d_key = ptr<float>(d_key);
  r.d_value = ptr<float>(d_value);
  r.d_wq = ptr<float>(d_wq), r.d_wk = ptr<float>(d_wk), r.d_wv = ptr<float>(d_wv);
  r.d_wo = ptr<float>(d_wo);
  r.d_bq = ptr<float>(d_bq), r.d_bk = ptr<float>(d_bk), r.d_bv = ptr<float>(d_bv);
  r.d_bo = ptr<float>(d_bo);
  const float* grad = ptr<const float>(d_output);
  return with_workspace(
      p, r, attn::multi_head_backward_workspace_floats,
      [grad](const attn::MultiHeadProblem& p, const attn::MultiHeadGradResult& r, float* ws) {
        return attn::multi_head_attention_backward(p, grad, r, ws);
      });
}

// ---- Checks of the API's inputs and results, in place in WebAssembly memory --------------------
// Plain exports (no Embind invoker): called on every attention call, three or four times.

// x: count floats -> index of the first NaN or ±Infinity (−Infinity passes when
// allow_negative_infinity), or count.
extern "C" EMSCRIPTEN_KEEPALIVE size_t attn_first_non_finite(Address x, size_t count,
                                                             bool allow_negative_infinity) {
  return attn::kernels::first_non_finite(ptr<const float>(x), count, allow_negative_infinity);
}

// x: count floats -> index of the first NaN, or count.
extern "C" EMSCRIPTEN_KEEPALIVE size_t attn_first_nan(Address x, size_t count) {
  return attn::kernels::first_nan(ptr<const float>(x), count);
}

// ---- Models, decoding, head scores, checkpoints, RoPE, the FlashAttention trace -----------------
// Not in the base build (ATTN_BASE_BUILD), the smaller module the bundled page loads first: its
// first heatmap needs only the calls above, and the page loads the whole build for these later
// (web/lib/api-parts.js). RoPE is here for its cos/sin, whose argument reduction brings ~8 KB of
// tables and code.
#ifndef ATTN_BASE_BUILD

namespace {

std::string rope_rotate(Address x, size_t items, size_t T, size_t d, Address positions, double base,
                        Address scratch) {
  return attn::rope_rotate(ptr<float>(x), items, T, d, ptr<const double>(positions), base,
                           ptr<float>(scratch))
      .message;
}

// out: per head previous-token, duplicate-token and induction scores, then their query counts.
std::string head_scores(Address attention, Address tokens, size_t batch, size_t heads, size_t t,
                        Address out) {
  std::vector<attn::HeadScores> scores(heads);
  attn::Status status = attn::head_scores(ptr<const float>(attention), ptr<const int32_t>(tokens),
                                          batch, heads, t, scores.data());
  double* o = ptr<double>(out);
  for (size_t h = 0; h < heads && status.ok(); ++h) {
    const attn::HeadScores& s = scores[h];
    double* r = o + 6 * h;
    r[0] = s.previous_token, r[1] = s.duplicate_token, r[2] = s.induction;
    r[3] = double(s.previous_token_queries), r[4] = double(s.duplicate_token_queries);
    r[5] = double(s.induction_queries);
  }
  return status.message;
}

std::string loss_by_position(Address logits, Address targets, size_t batch, size_t t, size_t v,
                             Address loss, Address count) {
  return attn::loss_by_position(ptr<const float>(logits), ptr<const int32_t>(targets), batch, t, v,
                                ptr<double>(loss), ptr<uint32_t>(count))
      .message;
}

// ---- The tiny transformer: a handle is the address of a core Transformer ---------------------

attn::Transformer* model(Address handle) { return ptr<attn::Transformer>(handle); }

// attention_positions: 0 none, 1 rope, 2 alibi; kv_heads 0 = heads; window 0 = none.
// init: 0 = PyTorch's, 1 = GPT-2's; kInitNone leaves the parameters zero for a checkpoint to fill.
constexpr int kInitNone = 2;

std::string transformer_create(Address handle_out, size_t vocab, size_t context, size_t d_model,
                               size_t layers, size_t heads, bool mlp, bool layer_norm,
                               bool positions, bool tie, int init, uint32_t seed,
                               int attention_positions, size_t kv_heads, size_t window,
                               double rope_base) {
  attn::TransformerConfig c;
  c.vocab_size = vocab, c.context_length = context, c.d_model = d_model;
  c.num_layers = layers, c.num_heads = heads, c.mlp = mlp, c.layer_norm = layer_norm;
  c.learned_positions = positions, c.tie_embeddings = tie, c.seed = seed;
  c.init = init == 1 ? attn::TransformerInit::gpt2 : attn::TransformerInit::pytorch;
  c.attention_positions = attention_positions == 1   ? attn::AttentionPositions::rope
                          : attention_positions == 2 ? attn::AttentionPositions::alibi
                                                     : attn::AttentionPositions::none;
  c.num_kv_heads = kv_heads, c.attention_window = window, c.rope_base = rope_base;
  attn::Transformer* t = nullptr;
  const attn::Status status = attn::Transformer::create(c, &t, init != kInitNone);
  *ptr<uint32_t>(handle_out) = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(t));
  return status.message;
}

void transformer_destroy(Address handle) { delete model(handle); }
size_t transformer_tensor_count(Address h) { return model(h)->layout().tensors.size(); }
std::string transformer_tensor_name(Address h, size_t i) {
  return model(h)->layout().tensors[i].name;
}
size_t transformer_tensor_rank(Address h, size_t i) {
  return model(h)->layout().tensors[i].shape.size();
}
size_t transformer_tensor_dim(Address h, size_t i, size_t d) {
  return model(h)->layout().tensors[i].shape[d];
}
size_t transformer_tensor_offset(Address h, size_t i) {
  return model(h)->layout().tensors[i].offset;
}
Address transformer_parameters(Address h) {
  return reinterpret_cast<Address>(model(h)->parameters());
}
Address transformer_gradients(Address h) {
  return reinterpret_cast<Address>(model(h)->gradients());
}
void transformer_reset_optimizer(Address h) { model(h)->reset_optimizer(); }

std::string transformer_forward(Address h, Address tokens, size_t batch, size_t T, Address logits,
                                Address attentions) {
  return model(h)
      ->forward(ptr<const int32_t>(tokens), batch, T, ptr<float>(logits), ptr<float>(attentions))
      .message;
}

std::string transformer_compute_gradients(Address h, Address tokens, Address targets, size_t batch,
                                          size_t T, Address loss) {
  return model(h)
      ->compute_gradients(ptr<const int32_t>(tokens), ptr<const int32_t>(targets), batch, T,
                          ptr<double>(loss))
      .message;
}

// options: learning rate, beta1, beta2, eps, weight decay, clip norm (0 = none), as 6 doubles.
std::string transformer_train_step(Address h, Address tokens, Address targets, size_t batch,
                                   size_t T, Address options, Address loss) {
  const double* o = ptr<const double>(options);
  attn::AdamOptions adam;
  adam.learning_rate = o[0], adam.beta1 = o[1], adam.beta2 = o[2], adam.eps = o[3];
  adam.weight_decay = o[4], adam.clip_norm = o[5];
  return model(h)
      ->train_step(ptr<const int32_t>(tokens), ptr<const int32_t>(targets), batch, T, adam,
                   ptr<double>(loss))
      .message;
}

// rows: count uint32 flat indices b·T + t; logits: count × V.
std::string transformer_forward_rows(Address h, Address tokens, size_t batch, size_t T,
                                     Address rows, size_t count, Address logits,
                                     Address attentions) {
  return model(h)
      ->forward_rows(ptr<const int32_t>(tokens), batch, T, ptr<const uint32_t>(rows), count,
                     ptr<float>(logits), ptr<float>(attentions))
      .message;
}

std::string transformer_layer_input(Address h, Address tokens, size_t T, size_t layer,
                                    Address out) {
  return model(h)->layer_input(ptr<const int32_t>(tokens), T, layer, ptr<float>(out)).message;
}

std::string transformer_loss(Address h, Address tokens, Address targets, size_t batch, size_t T,
                             Address loss) {
  return model(h)
      ->loss(ptr<const int32_t>(tokens), ptr<const int32_t>(targets), batch, T, ptr<double>(loss))
      .message;
}

// The FlashAttention lesson trace; JavaScript sizes the buffers by flash_trace.h's layout.
std::string flash_attention_trace(Address q, Address k, Address v, size_t n, size_t m, size_t dk,
                                  size_t dv, float scale, bool causal, bool lower_right,
                                  size_t block_rows, size_t block_cols, Address output,
                                  Address skipped, Address row_max, Address row_sum,
                                  Address partial, Address workspace) {
  attn::FlashTraceProblem p;
  p.n = n, p.m = m, p.dk = dk, p.dv = dv;
  p.q = ptr<const float>(q), p.k = ptr<const float>(k), p.v = ptr<const float>(v);
  p.scale = scale, p.causal = causal, p.lower_right = lower_right;
  p.block_rows = block_rows, p.block_cols = block_cols;
  return attn::flash_attention_trace(p, ptr<float>(output), ptr<uint8_t>(skipped),
                                     ptr<float>(row_max), ptr<float>(row_sum), ptr<float>(partial),
                                     ptr<float>(workspace))
      .message;
}

// ---- Decoding: a handle is the address of a core Decoder of a model ---------------------------

attn::Decoder* decoder(Address handle) { return ptr<attn::Decoder>(handle); }

std::string decoder_create(Address handle_out, Address model_handle, size_t max_length) {
  attn::Decoder* d = nullptr;
  const attn::Status status = attn::Decoder::create(model(model_handle), max_length, &d);
  *ptr<uint32_t>(handle_out) = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(d));
  return status.message;
}

void decoder_destroy(Address h) { delete decoder(h); }
double decoder_length(Address h) { return double(decoder(h)->length()); }
double decoder_kept(Address h) { return double(decoder(h)->kept()); }
double decoder_cache_bytes(Address h) { return decoder(h)->cache_bytes(); }
void decoder_reset(Address h) { decoder(h)->reset(); }

std::string decoder_append(Address h, Address tokens, size_t t, Address logits,
                           Address attentions) {
  return decoder(h)
      ->append(ptr<const int32_t>(tokens), t, ptr<float>(logits), ptr<float>(attentions))
      .message;
}

std::string decoder_copy_cache(Address h, size_t layer, Address keys, Address values,
                               Address positions) {
  return decoder(h)
      ->copy_cache(layer, ptr<float>(keys), ptr<float>(values), ptr<int32_t>(positions))
      .message;
}

std::string sample_token(Address logits, size_t vocab, double temperature, size_t top_k, double u,
                         Address scratch, Address token_out) {
  return attn::sample_token(ptr<const float>(logits), vocab, temperature, top_k, u,
                            ptr<float>(scratch), ptr<int32_t>(token_out))
      .message;
}

// src: count elements of `format` (attn::StoredFloat) -> dst: count floats; the index of the first
// non-finite value, or count.
size_t convert_to_float32(int format, Address src, size_t count, Address dst) {
  return attn::convert_to_float32(static_cast<attn::StoredFloat>(format), ptr<const void>(src),
                                  count, ptr<float>(dst));
}

size_t find_non_finite(Address x, size_t count) {
  return attn::find_non_finite(ptr<const float>(x), count);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_models) {
  emscripten::function("_ropeRotate", &rope_rotate);
  emscripten::function("_transformerCreate", &transformer_create);
  emscripten::function("_transformerDestroy", &transformer_destroy);
  emscripten::function("_transformerTensorCount", &transformer_tensor_count);
  emscripten::function("_transformerTensorName", &transformer_tensor_name);
  emscripten::function("_transformerTensorRank", &transformer_tensor_rank);
  emscripten::function("_transformerTensorDim", &transformer_tensor_dim);
  emscripten::function("_transformerTensorOffset", &transformer_tensor_offset);
  emscripten::function("_transformerParameters", &transformer_parameters);
  emscripten::function("_transformerGradients", &transformer_gradients);
  emscripten::function("_transformerResetOptimizer", &transformer_reset_optimizer);
  emscripten::function("_transformerForward", &transformer_forward);
  emscripten::function("_transformerComputeGradients", &transformer_compute_gradients);
  emscripten::function("_transformerTrainStep", &transformer_train_step);
  emscripten::function("_headScores", &head_scores);
  emscripten::function("_lossByPosition", &loss_by_position);
  emscripten::function("_transformerForwardRows", &transformer_forward_rows);
  emscripten::function("_transformerLayerInput", &transformer_layer_input);
  emscripten::function("_transformerLoss", &transformer_loss);
  emscripten::function("_decoderCreate", &decoder_create);
  emscripten::function("_decoderDestroy", &decoder_destroy);
  emscripten::function("_decoderLength", &decoder_length);
  emscripten::function("_decoderKept", &decoder_kept);
  emscripten::function("_decoderCacheBytes", &decoder_cache_bytes);
  emscripten::function("_decoderReset", &decoder_reset);
  emscripten::function("_decoderAppend", &decoder_append);
  emscripten::function("_decoderCopyCache", &decoder_copy_cache);
  emscripten::function("_sampleToken", &sample_token);
  emscripten::function("_flashAttentionTrace", &flash_attention_trace);
  emscripten::function("_convertToFloat32", &convert_to_float32);
  emscripten::function("_findNonFinite", &find_non_finite);
}

#endif  // ATTN_BASE_BUILD
