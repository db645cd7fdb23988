// The key/value-cache decoder (decoder.h, kv_cache.h) against the model's own full forward: any
// chunking gives the same logits and attentions for every kind of positions, GQA/MQA and windows;
// a ring buffer runs past contextLength; errors leave the decoder usable. And sampling.h: greedy
// ties, top-k ties, and draws that follow the softmax.
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "decoder.h"
#include "kv_cache.h"
#include "sampling.h"
#include "test_util.h"
#include "transformer.h"

namespace attn {
namespace {

using testing::all_close;

std::unique_ptr<Transformer> make(const TransformerConfig& c) {
  Transformer* t = nullptr;
  Status s = Transformer::create(c, &t);
  EXPECT_TRUE(s.ok()) << s.message;
  return std::unique_ptr<Transformer>(t);
}

std::unique_ptr<Decoder> decoder_of(Transformer* model, size_t max_length) {
  Decoder* d = nullptr;
  Status s = Decoder::create(model, max_length, &d);
  EXPECT_TRUE(s.ok()) << s.message;
  return std::unique_ptr<Decoder>(d);
}

struct Variant {
  const char* name;
  AttentionPositions positions;
  bool learned;
  size_t kv_heads, window;
  bool mlp, layer_norm;
};

const Variant kVariants[] = {
    {"learned", AttentionPositions::none, true, 0, 0, true, true},
    {"none, no LayerNorm", AttentionPositions::none, false, 0, 0, true, false},
    {"rope, GQA", AttentionPositions::rope, false, 2, 0, true, true},
    {"alibi, MQA, attention-only", AttentionPositions::alibi, false, 1, 0, false, true},
    {"learned, window 3", AttentionPositions::none, true, 0, 3, true, true},
    {"rope, GQA, window 4", AttentionPositions::rope, false, 2, 4, true, true},
    {"alibi, window 1", AttentionPositions::alibi, false, 0, 1, false, false},
};

TransformerConfig config_of(const Variant& v, size_t context) {
  TransformerConfig c;
  c.vocab_size = 13, c.context_length = context, c.d_model = 16, c.num_layers = 2, c.num_heads = 4;
  c.mlp = v.mlp, c.layer_norm = v.layer_norm, c.learned_positions = v.learned;
  c.attention_positions = v.positions, c.num_kv_heads = v.kv_heads, c.attention_window = v.window;
  c.rope_base = 100.0, c.seed = 7;
  return c;
}

std::vector<int32_t> sequence(size_t T) {
  std::vector<int32_t> tokens(T);
  for (size_t i = 0; i < T; ++i) tokens[i] = int32_t((i * 7 + i / 3 + 2) % 13);
  return tokens;
}

// Appends `tokens` in chunks of the given sizes; returns every logit row and, per layer and head,
// the attention rows (T × T, zero-padded on the right where a chunk saw fewer keys).
void decode(Decoder& d, const std::vector<int32_t>& tokens, const std::vector<size_t>& chunks,
            size_t V, size_t L, size_t H, std::vector<float>& logits, std::vector<float>& att) {
  const size_t T = tokens.size();
  logits.assign(T * V, NAN);
  att.assign(L * H * T * T, 0.0f);
  size_t at = 0;
  for (size_t c = 0; at < T; ++c) {
    const size_t t = std::min(chunks[c % chunks.size()], T - at), total = at + t;
    std::vector<float> a(L * H * t * total, NAN);
    ASSERT_TRUE(d.append(tokens.data() + at, t, logits.data() + at * V, a.data()).ok());
    for (size_t l = 0; l < L; ++l)
      for (size_t h = 0; h < H; ++h)
        for (size_t i = 0; i < t; ++i)
          std::copy_n(&a[((l * H + h) * t + i) * total], total,
                      &att[((l * H + h) * T + at + i) * T]);
    at = total;
  }
}

// sequence(T), appended in each of `chunkings` to a fresh decoder of a model of variant v (context
// `context`), gives that model's forward logits and attentions, and the decoder its length and
// cache size.
void expect_chunkings_give_the_forward(const Variant& v, size_t T, size_t context,
                                       const std::vector<std::vector<size_t>>& chunkings) {
  const size_t V = 13, L = 2, H = 4;
  const std::vector<int32_t> tokens = sequence(T);
  auto model = make(config_of(v, context));
  std::vector<float> logits(T * V), att(L * H * T * T);
  ASSERT_TRUE(model->forward(tokens.data(), 1, T, logits.data(), att.data()).ok());
  for (const std::vector<size_t>& chunks : chunkings) {
    SCOPED_TRACE(std::string(v.name) + ", chunks of " + std::to_string(chunks[0]) + "…");
    auto d = decoder_of(model.get(), context);
    std::vector<float> got, got_att;
    decode(*d, tokens, chunks, V, L, H, got, got_att);
    EXPECT_TRUE(all_close(got, logits, "logits", 2e-5, 2e-5));
    EXPECT_TRUE(all_close(got_att, att, "attentions", 2e-6, 1e-5));
    EXPECT_EQ(d->length(), T);
    EXPECT_EQ(d->kept(), v.window ? std::min(T, v.window) : T);
  }
}

TEST(Decoder, AnyChunkingGivesTheForwardsLogitsAndAttentions) {
  const size_t T = 11;
  for (const Variant& v : kVariants)
    expect_chunkings_give_the_forward(v, T, 12, {{T}, {1}, {3, 1, 4}, {2, 5}, {6, 1}});
}

// Chunks of 16 tokens or more unembed by packing U (attn::unembed), fewer by dot products with its
// rows: both give the forward's logits.
TEST(Decoder, LongChunksTakeThePackedUnembeddingAndGiveTheForwardsLogits) {
  const size_t T = 20;
  for (const Variant& v : {kVariants[0], kVariants[2]})
    expect_chunkings_give_the_forward(v, T, 24, {{T}, {17, 3}, {2, 16}});
}

// contextLength only sizes wpe, so without learned positions a model with a longer context and the
// same parameters is the reference for decoding past the first model's contextLength.
TEST(Decoder, RingBufferRunsPastContextLength) {
  const size_t T = 40, V = 13, L = 2, H = 4;
  for (const Variant& v : {kVariants[5], kVariants[6]}) {
    SCOPED_TRACE(v.name);
    auto model = make(config_of(v, 6));
    auto longer = make(config_of(v, 64));
    std::copy_n(model->parameters(), model->layout().total_floats, longer->parameters());
    const std::vector<int32_t> tokens = sequence(T);
    std::vector<float> logits(T * V), att(L * H * T * T);
    ASSERT_TRUE(longer->forward(tokens.data(), 1, T, logits.data(), att.data()).ok());
    auto d = decoder_of(model.get(), 100);
    std::vector<float> got, got_att;
    decode(*d, tokens, {1, 7, 2}, V, L, H, got, got_att);
    EXPECT_TRUE(all_close(got, logits, "logits", 2e-5, 2e-5));
    EXPECT_TRUE(all_close(got_att, att, "attentions", 2e-6, 1e-5));
    EXPECT_EQ(d->kept(), v.window);
    EXPECT_DOUBLE_EQ(d->cache_bytes(), 2.0 * L * (v.kv_heads ? v.kv_heads : H) * 4 * v.window * 4);
  }
}

TEST(Decoder, RingSlotsHoldPositionModuloTheWindow) {
  // Layer 0's keys depend on the token and its position only, so a model without the window gives
  // the key of every position to compare the ring's slots with.
  const Variant v = kVariants[5];
  auto ring_model = make(config_of(v, 32));
  Variant wide = v;
  wide.window = 0;
  auto plain_model = make(config_of(wide, 32));
  std::copy_n(ring_model->parameters(), ring_model->layout().total_floats,
              plain_model->parameters());
  const std::vector<int32_t> tokens = sequence(10);
  auto ring = decoder_of(ring_model.get(), 32);
  auto plain = decoder_of(plain_model.get(), 32);
  std::vector<float> sink(10 * 13);
  ASSERT_TRUE(ring->append(tokens.data(), 10, sink.data(), nullptr).ok());
  ASSERT_TRUE(plain->append(tokens.data(), 10, sink.data(), nullptr).ok());
  const size_t kv = 2, d = 4;
  std::vector<float> rk(kv * 4 * d), rv(kv * 4 * d), pk(kv * 10 * d), pv(kv * 10 * d);
  std::vector<int32_t> rpos(4), ppos(10);
  ASSERT_TRUE(ring->copy_cache(0, rk.data(), rv.data(), rpos.data()).ok());
  ASSERT_TRUE(plain->copy_cache(0, pk.data(), pv.data(), ppos.data()).ok());
  EXPECT_EQ(rpos, (std::vector<int32_t>{8, 9, 6, 7}));  // positions 6…9 in slots p mod 4
  EXPECT_EQ(ppos, (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  for (size_t g = 0; g < kv; ++g)
    for (size_t s = 0; s < 4; ++s)
      for (size_t c = 0; c < d; ++c) {
        EXPECT_FLOAT_EQ(rk[(g * 4 + s) * d + c], pk[(g * 10 + rpos[s]) * d + c]);
        EXPECT_FLOAT_EQ(rv[(g * 4 + s) * d + c], pv[(g * 10 + rpos[s]) * d + c]);
      }
}

TEST(Decoder, ErrorsLeaveTheDecoderUsable) {
  auto model = make(config_of(kVariants[0], 8));
  Decoder* none = nullptr;
  EXPECT_NE(Decoder::create(model.get(), 9, &none).message.find("at most contextLength (8)"),
            std::string::npos);
  EXPECT_EQ(none, nullptr);
  auto d = decoder_of(model.get(), 5);
  const std::vector<int32_t> tokens = sequence(6);
  std::vector<float> logits(6 * 13);
  ASSERT_TRUE(d->append(tokens.data(), 3, logits.data(), nullptr).ok());
  EXPECT_NE(
      d->append(tokens.data(), 3, logits.data(), nullptr).message.find("would pass maxLength (5)"),
      std::string::npos);
  const int32_t bad[] = {1, 13};
  EXPECT_NE(d->append(bad, 2, logits.data(), nullptr).message.find("tokens[1] = 13"),
            std::string::npos);
  EXPECT_EQ(d->length(), 3u);
  ASSERT_TRUE(d->append(tokens.data() + 3, 2, logits.data() + 3 * 13, nullptr).ok());
  std::vector<float> full(5 * 13);
  ASSERT_TRUE(model->forward(tokens.data(), 1, 5, full.data(), nullptr).ok());
  EXPECT_TRUE(
      all_close(logits.data() + 3 * 13, full.data() + 3 * 13, 2 * 13, "after errors", 2e-5, 2e-5));
  d->reset();
  EXPECT_EQ(d->length(), 0u);
  EXPECT_EQ(d->cache_bytes(), 0.0);
}

TEST(KvCache, GrowingKeepsEveryRowAndARingMapsPositionsToSlots) {
  KvCache cache;
  cache.configure(2, 3, 4, 0, 100);
  auto value = [](size_t l, size_t part, size_t g, size_t row, size_t c) {
    return float(l * 1000 + part * 500 + g * 100 + row * 4 + c);
  };
  size_t written = 0;
  for (size_t length : {1, 2, 3, 9, 40, 100}) {
    ASSERT_TRUE(cache.reserve(length).ok());
    for (size_t l = 0; l < 2; ++l)
      for (size_t g = 0; g < 3; ++g)
        for (size_t row = written; row < length; ++row)
          for (size_t c = 0; c < 4; ++c) {
            cache.keys(l, g)[row * 4 + c] = value(l, 0, g, row, c);
            cache.values(l, g)[row * 4 + c] = value(l, 1, g, row, c);
          }
    written = length;
    for (size_t l = 0; l < 2; ++l)  // every row written so far survives the growth
      for (size_t g = 0; g < 3; ++g)
        for (size_t row = 0; row < written; ++row)
          for (size_t c = 0; c < 4; ++c) {
            ASSERT_EQ(cache.keys(l, g)[row * 4 + c], value(l, 0, g, row, c));
            ASSERT_EQ(cache.values(l, g)[row * 4 + c], value(l, 1, g, row, c));
          }
  }
  EXPECT_EQ(cache.kept(100), 100u);
  KvCache ring;
  ring.configure(1, 1, 2, 4, 1000);
  ASSERT_TRUE(ring.reserve(1000).ok());
  EXPECT_EQ(ring.kept(3), 3u);
  EXPECT_EQ(ring.kept(999), 4u);
  for (size_t length : {1, 4, 5, 11, 999})
    for (size_t s = 0; s < ring.kept(length); ++s) {
      const size_t p = ring.position_in_slot(s, length);
      EXPECT_EQ(ring.slot_of(p), s);
      EXPECT_LT(p, length);
      EXPECT_GE(p + 4, length) << "slot " << s << " holds one of the last four positions";
    }
}

TEST(Sampling, GreedyTakesTheLowestIdAmongEqualMaxima) {
  const float logits[] = {1.0f, 3.0f, -2.0f, 3.0f, 0.5f};
  float scratch[5];
  int32_t token = -1;
  ASSERT_TRUE(sample_token(logits, 5, 0.0, 0, 0.99, scratch, &token).ok());
  EXPECT_EQ(token, 1);
  ASSERT_TRUE(sample_token(logits, 5, 1.0, 1, 0.99, scratch, &token).ok());  // top-1: the same id
  EXPECT_EQ(token, 1);
}

// u on a fine grid stands for every draw: each id is picked for a share of the grid equal to its
// probability, up to one grid step.
TEST(Sampling, DrawsFollowTheSoftmaxAtTheTemperatureOverTheTopK) {
  const std::vector<float> logits = {0.5f, 2.0f, -1.0f, 2.0f, 1.0f, 0.0f, 2.0f};
  std::vector<float> scratch(logits.size());
  for (double temperature : {0.5, 1.0, 3.0})
    for (size_t k : {0, 2, 3, 5}) {
      // Kept: the k largest, ties in increasing id order (the three 2.0 are ids 1, 3, 6).
      std::vector<size_t> order(logits.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return logits[a] > logits[b]; });
      std::vector<double> p(logits.size(), 0.0);
      double total = 0;
      for (size_t r = 0; r < (k ? k : logits.size()); ++r)
        total += p[order[r]] = std::exp((logits[order[r]] - 2.0) / temperature);
      std::vector<int> counts(logits.size(), 0);
      const int N = 20000;
      for (int i = 0; i < N; ++i) {
        int32_t token = -1;
        ASSERT_TRUE(sample_token(logits.data(), logits.size(), temperature, k, (i + 0.5) / N,
                                 scratch.data(), &token)
                        .ok());
        counts[token]++;
      }
      for (size_t id = 0; id < logits.size(); ++id)
        EXPECT_NEAR(counts[id], N * p[id] / total, 1.0)
            << "T " << temperature << " k " << k << " id " << id;
    }
}

TEST(Sampling, BadArgumentsAreStatuses) {
  const float logits[] = {1.0f, NAN};
  float scratch[2];
  int32_t token;
  EXPECT_FALSE(sample_token(logits, 2, 1.0, 0, 0.5, scratch, &token).ok());
  const float fine[] = {1.0f, 2.0f};
  EXPECT_FALSE(sample_token(fine, 2, -1.0, 0, 0.5, scratch, &token).ok());
  EXPECT_FALSE(sample_token(fine, 2, 1.0, 0, 1.0, scratch, &token).ok());
}

}  // namespace
}  // namespace attn
