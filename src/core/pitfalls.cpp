#include "pitfalls.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "float64_linear.h"

namespace attn {
namespace {

using float64::linear;

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

struct Head {
  const float* q;
  size_t ldq;
  const double* qd;  // double-precision projections in the multi-head case, else null
  const float* k;
  size_t ldk;
  const double* kd;
  const float* v;
  size_t ldv;
  const double* vd;
  size_t n, m, dk, dv;
  double scale;
  bool causal;
  const uint8_t* mask;         // (n, m)
  const float* bias;           // (n, m)
  const uint8_t* key_padding;  // (m)
};

double at(const float* f, const double* d, size_t i) { return d ? d[i] : double(f[i]); }

// One head with the pitfall applied; writes n × dv output (stride ldo) and n × m weights.
void head_with_pitfall(const Head& h, Pitfall pitfall, double* out, size_t ldo, double* weights) {
  std::vector<double> s(h.m);
  std::vector<uint8_t> hidden(h.m);
  for (size_t i = 0; i < h.n; ++i) {
    for (size_t j = 0; j < h.m; ++j) {
      double dot = 0.0;
      for (size_t c = 0; c < h.dk; ++c)
        dot += at(h.q, h.qd, i * h.ldq + c) * at(h.k, h.kd, j * h.ldk + c);
      s[j] = dot * h.scale + (h.bias ? double(h.bias[i * h.m + j]) : 0.0);
      hidden[j] = (h.causal && j > i) || (h.mask && h.mask[i * h.m + j]) ||
                  (h.key_padding && h.key_padding[j]);
      if (hidden[j] && pitfall == Pitfall::kMaskValueZero)
        s[j] = 0.0;
      else if (hidden[j] && pitfall != Pitfall::kMaskAfterSoftmax)
        s[j] = kNegInf;
    }
    const double mx = *std::max_element(s.begin(), s.end());
    double* w = weights + i * h.m;
    double sum = 0.0;
    for (size_t j = 0; j < h.m; ++j) sum += (w[j] = mx == kNegInf ? 0.0 : std::exp(s[j] - mx));
    for (size_t j = 0; j < h.m; ++j) {
      w[j] = sum > 0.0 ? w[j] / sum : 0.0;
      if (pitfall == Pitfall::kMaskAfterSoftmax && hidden[j]) w[j] = 0.0;  // no renormalization
    }
    for (size_t c = 0; c < h.dv; ++c) {
      double acc = 0.0;
      for (size_t j = 0; j < h.m; ++j) acc += w[j] * at(h.v, h.vd, j * h.ldv + c);
      out[i * ldo + c] = acc;
    }
  }
}

double scale_for(Pitfall pitfall, double given, size_t head_dim, size_t model_dim) {
  if (pitfall == Pitfall::kScaleByDk) return 1.0 / double(head_dim);
  if (pitfall == Pitfall::kScaleByModelDim) return 1.0 / std::sqrt(double(model_dim));
  return given;
}

}  // namespace

bool pitfall_is_valid(int value) { return value >= 0 && value <= 5; }

Status attention_with_pitfall(const AttentionProblem& p, Pitfall pitfall, float* output,
                              float* weights) {
  if (pitfall == Pitfall::kScaleByModelDim || pitfall == Pitfall::kSkipOutputProjection)
    return Status::error("this mistake needs multi-head attention");
  if (p.batch == 0 || p.n == 0 || p.m == 0 || p.dk == 0 || p.dv == 0)
    return Status::error("attention sizes must be positive");
  if (!(p.scale > 0.0f)) return Status::error("scale must be a positive finite number");
  const size_t nm = p.n * p.m;
  std::vector<double> out(p.n * p.dv), w(nm);
  for (size_t b = 0; b < p.batch; ++b) {
    Head h{p.q + b * p.n * p.dk,
           p.dk,
           nullptr,
           p.k + b * p.m * p.dk,
           p.dk,
           nullptr,
           p.v + b * p.m * p.dv,
           p.dv,
           nullptr,
           p.n,
           p.m,
           p.dk,
           p.dv,
           scale_for(pitfall, p.scale, p.dk, p.dk),
           p.causal,
           p.mask ? p.mask + (p.mask_per_batch ? b * nm : 0) : nullptr,
           p.bias ? p.bias + (p.bias_per_batch ? b * nm : 0) : nullptr,
           p.key_padding ? p.key_padding + b * p.m : nullptr};
    head_with_pitfall(h, pitfall, out.data(), p.dv, w.data());
    std::copy(out.begin(), out.end(), output + b * p.n * p.dv);
    if (weights) std::copy(w.begin(), w.end(), weights + b * nm);
  }
  return Status::success();
}

Status multi_head_with_pitfall(const MultiHeadProblem& p, Pitfall pitfall, float* output,
                               float* weights) {
  Status status = validate_multi_head_shape(p.shape);
  if (!status.ok()) return status;
  if (p.batch == 0 || p.n == 0 || p.m == 0) return Status::error("batch, n and m must be positive");
  const size_t B = p.batch, n = p.n, m = p.m, E = p.shape.embed_dim, H = p.shape.num_heads;
  const size_t d = E / H, nm = n * m;
  const MultiHeadWeights& w = p.weights;
  const auto q = linear(p.query, B * n, E, w.wq, w.bq, E);
  const auto k = linear(p.key, B * m, p.shape.kdim, w.wk, w.bk, E);
  const auto v = linear(p.value, B * m, p.shape.vdim, w.wv, w.bv, E);
  std::vector<double> concat(B * n * E), head_weights(nm);
  const double scale = scale_for(pitfall, multi_head_scale(p), d, E);
  for (size_t b = 0; b < B; ++b) {
    if (weights) std::fill(weights + b * nm, weights + (b + 1) * nm, 0.0f);
    for (size_t hd = 0; hd < H; ++hd) {
      Head h{nullptr, E,      q.data() + b * n * E + hd * d,
             nullptr, E,      k.data() + b * m * E + hd * d,
             nullptr, E,      v.data() + b * m * E + hd * d,
             n,       m,      d,
             d,       scale,  p.causal,
             p.mask,  p.bias, p.key_padding ? p.key_padding + b * m : nullptr};
      head_with_pitfall(h, pitfall, concat.data() + b * n * E + hd * d, E, head_weights.data());
      if (weights)
        for (size_t x = 0; x < nm; ++x) weights[b * nm + x] += float(head_weights[x] / double(H));
    }
  }
  const auto out = pitfall == Pitfall::kSkipOutputProjection
                       ? concat
                       : linear(concat.data(), B * n, E, w.wo, w.bo, E);
  std::transform(out.begin(), out.end(), output, [](double x) { return float(x); });
  return Status::success();
}

}  // namespace attn
