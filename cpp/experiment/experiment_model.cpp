// The model of the training experiment (train.hpp, THE MODEL): each layer a plain
// <op>_forward / <op>_backward pair over row-major float32 arrays, gradients prefixed `d`.
// The matrix products run on the core's kernels (gemm, matmul_qkt, matmul_pv, softmax_row);
// the rest is small scalar loops.
#include <algorithm>
#include <cmath>
#include <new>

#include "experiment/train.hpp"

namespace attn {
namespace train {

namespace {

using std::size_t;

constexpr float kPairMix = 0.70710678118654752f;  // 1/√2: x_pair = (E_key + E_value)/√2

size_t sz(int x) { return static_cast<size_t>(x); }

// Attention weights and their score gradients below 2^-100 are set to 0. They change nothing
// a float32 sum of the row can hold (a row's largest weight is at least 1/P), nor any update
// (an SGD step of lr·1e-30 is far below a parameter's last bit; Adam's √v of such a gradient
// underflows and eps dominates). Left alone, a saturated row's tiny weights make the products
// after them subnormal, which x86 processors (natively and under WebAssembly, which cannot
// flush them) handle far more slowly (the measurement: docs/training.md, the flush of tiny weights).
constexpr float kFlushBelow = 7.88860905e-31f;  // 2^-100

inline float flush_tiny(float x) { return std::fabs(x) < kFlushBelow ? 0.0f : x; }

// ---- embeddings ------------------------------------------------------------------------------

// x_pair (T×D) = (embed_key[keys] + embed_value[values]) / √2; T = tokens
void embed_pairs_forward(float* x_pair, const std::int32_t* keys, const std::int32_t* values,
                         const float* embed_key, const float* embed_value, int tokens, int D) {
  for (int t = 0; t < tokens; ++t) {
    const float* e_key = embed_key + sz(keys[t]) * D;
    const float* e_value = embed_value + sz(values[t]) * D;
    float* x_t = x_pair + sz(t) * D;
    for (int c = 0; c < D; ++c) x_t[c] = (e_key[c] + e_value[c]) * kPairMix;
  }
}

// dembed_key (L×D), dembed_value (C×D) += the rows of dx_pair (T×D) / √2 they produced
void embed_pairs_backward(float* dembed_key, float* dembed_value, const float* dx_pair, const std::int32_t* keys,
                          const std::int32_t* values, int tokens, int D) {
  for (int t = 0; t < tokens; ++t) {
    float* de_key = dembed_key + sz(keys[t]) * D;
    float* de_value = dembed_value + sz(values[t]) * D;
    const float* dx_t = dx_pair + sz(t) * D;
    for (int c = 0; c < D; ++c) {
      de_key[c] += dx_t[c] * kPairMix;
      de_value[c] += dx_t[c] * kPairMix;
    }
  }
}

// x_query (R×D) = embed_key[queries]
void embed_queries_forward(float* x_query, const std::int32_t* queries, const float* embed_key, int rows, int D) {
  for (int r = 0; r < rows; ++r) std::copy_n(embed_key + sz(queries[r]) * D, D, x_query + sz(r) * D);
}

// dembed_key (L×D) += the rows of dx_query (R×D)
void embed_queries_backward(float* dembed_key, const float* dx_query, const std::int32_t* queries, int rows, int D) {
  for (int r = 0; r < rows; ++r) {
    float* de_key = dembed_key + sz(queries[r]) * D;
    const float* dx_r = dx_query + sz(r) * D;
    for (int c = 0; c < D; ++c) de_key[c] += dx_r[c];
  }
}

// ---- linear (no bias) --------------------------------------------------------------------------

// y (rows×out) = x (rows×in) · w (in×out)
void linear_forward(float* y, const float* x, const float* w, int rows, int in, int out) {
  gemm(x, sz(in), 1, w, sz(out), y, sz(out), sz(rows), sz(out), sz(in), false);
}

// dw (in×out) = xᵀ dy;  dx (rows×in) = dy wᵀ, or += when accumulate_dx. dx may be null (input
// needs no gradient). w_t: scratch of out×in floats for wᵀ (gemm reads its right operand by rows).
void linear_backward(float* dx, float* dw, const float* dy, const float* x, const float* w, float* w_t, int rows,
                     int in, int out, bool accumulate_dx) {
  // pass 1: dw = xᵀ dy, xᵀ read in place (a(r, p) = x[p·in + r])
  gemm(x, 1, sz(in), dy, sz(out), dw, sz(out), sz(in), sz(out), sz(rows), false);
  if (!dx) return;
  // pass 2: wᵀ into scratch, then dx = dy wᵀ
  for (int i = 0; i < in; ++i)
    for (int o = 0; o < out; ++o) w_t[sz(o) * in + i] = w[sz(i) * out + o];
  gemm(dy, sz(out), 1, w_t, sz(in), dx, sz(in), sz(rows), sz(in), sz(out), accumulate_dx);
}

// ---- the attention head, example by example -----------------------------------------------------

struct RowStats {
  double max_weight = 0, entropy = 0, match_weight = 0;
  bool overflowed = false;  // a row's scores left float32 (all −∞, or ±∞ against each other)
};

// For each of N examples: w (Qn×P) = softmax(scale · q kᵀ), out (Qn×dv) = w v.
// q (N·Qn×dk), k (N·P×dk), v (N·P×dv), weights (N·Qn×P), out (N·Qn×dv); dots: Qn×P scratch.
// target (N·Qn): the queried pair of each row, for the statistics only.
void head_forward(float* out, float* weights, float* dots, const float* q, const float* k, const float* v,
                  const std::int32_t* target, int N, int Qn, int P, int dk, int dv, float scale, RowStats* stats) {
  for (int b = 0; b < N; ++b) {
    const size_t row0 = sz(b) * Qn, tok0 = sz(b) * P;
    float* w_b = weights + row0 * P;
    // pass 1: raw dot products
    matmul_qkt(q + row0 * dk, k + tok0 * dk, Qn, P, dk, dots);
    // pass 2: softmax(scale · dots) row by row (softmax_row multiplies by its inv_temperature)
    for (int i = 0; i < Qn; ++i) {
      float entropy;
      float* w_i = w_b + sz(i) * P;
      const float largest = softmax_row(dots + sz(i) * P, P, scale, w_i, &entropy);
      // softmax_row reads −∞ as a masked key: a row of them is all zeros, not a distribution
      if (!(largest > 0.0f)) stats->overflowed = true;
      stats->max_weight += largest;
      stats->entropy += entropy;
      for (int j = 0; j < P; ++j) w_i[j] = flush_tiny(w_i[j]);
      stats->match_weight += w_b[sz(i) * P + sz(target[row0 + i])];
    }
    // pass 3: out = w v
    matmul_pv(w_b, v + tok0 * dv, Qn, P, dv, out + row0 * dv);
  }
}

// Gradients of head_forward: given dout (N·Qn×dv) → dq (N·Qn×dk), dk (N·P×dk), dv (N·P×dv).
// dweights: Qn×P scratch.
void head_backward(float* dq, float* dk, float* dv, float* dweights, const float* dout, const float* weights,
                   const float* q, const float* k, const float* v, int N, int Qn, int P, int d_k, int d_v,
                   float scale) {
  for (int b = 0; b < N; ++b) {
    const size_t row0 = sz(b) * Qn, tok0 = sz(b) * P;
    const float* w_b = weights + row0 * P;
    const float* dout_b = dout + row0 * d_v;
    // pass 1: dweights = dout vᵀ (Qn×P), dv = wᵀ dout (P×dv)
    matmul_qkt(dout_b, v + tok0 * d_v, Qn, P, d_v, dweights);
    gemm(w_b, 1, sz(P), dout_b, sz(d_v), dv + tok0 * d_v, sz(d_v), sz(P), sz(d_v), sz(Qn), false);
    // pass 2: softmax backward, in place: ddots = scale · w ⊙ (dweights − ⟨w, dweights⟩) per row
    for (int i = 0; i < Qn; ++i) {
      const float* w_i = w_b + sz(i) * P;
      float* d_i = dweights + sz(i) * P;
      float dot = 0.0f;
      for (int j = 0; j < P; ++j) dot += w_i[j] * d_i[j];
      for (int j = 0; j < P; ++j) d_i[j] = flush_tiny(scale * w_i[j] * (d_i[j] - dot));
    }
    // pass 3: dq = ddots k (Qn×dk), dk = ddotsᵀ q (P×dk)
    gemm(dweights, sz(P), 1, k + tok0 * d_k, sz(d_k), dq + row0 * d_k, sz(d_k), sz(Qn), sz(d_k), sz(P), false);
    gemm(dweights, 1, sz(P), q + row0 * d_k, sz(d_k), dk + tok0 * d_k, sz(d_k), sz(P), sz(d_k), sz(Qn), false);
  }
}

// ---- softmax cross-entropy over the C digits -------------------------------------------------------

// In place: logits (R×C) → probs = softmax(logits). Returns Σ over rows of −log p[answer]
// (as log Σ exp(z − max) − (z[answer] − max), finite for any finite logits) and counts the
// rows whose largest logit (the first, on a tie) is the answer.
double crossentropy_forward(float* probs, const std::int32_t* answers, int rows, int* correct) {
  double loss = 0;
  for (int r = 0; r < rows; ++r) {
    float* z = probs + sz(r) * kDigits;
    int arg_max = 0;
    for (int c = 1; c < kDigits; ++c)
      if (z[c] > z[arg_max]) arg_max = c;
    const float z_max = z[arg_max];
    const float z_answer = z[answers[r]];
    float sum = 0.0f;
    for (int c = 0; c < kDigits; ++c) sum += (z[c] = std::exp(z[c] - z_max));
    const float inv_sum = 1.0f / sum;
    for (int c = 0; c < kDigits; ++c) z[c] *= inv_sum;
    loss += std::log(static_cast<double>(sum)) - (static_cast<double>(z_answer) - z_max);
    *correct += arg_max == answers[r];
  }
  return loss;
}

// dlogits (R×C) = (probs − onehot(answer)) / R: the gradient of the mean loss
void crossentropy_backward(float* dlogits, const float* probs, const std::int32_t* answers, int rows) {
  const float inv_rows = 1.0f / static_cast<float>(rows);
  for (int r = 0; r < rows; ++r) {
    const float* p = probs + sz(r) * kDigits;
    float* d = dlogits + sz(r) * kDigits;
    for (int c = 0; c < kDigits; ++c) d[c] = (p[c] - (c == answers[r] ? 1.0f : 0.0f)) * inv_rows;
  }
}

// Every array the model allocates, in floats, for N examples (64-bit: checked before allocating).
struct Sizes {
  std::uint64_t params, x_pair, x_query, q, k, v, weights, out, probs, dots, w_t;
  std::uint64_t total() const {
    // params + grads; activations; scratch of their gradients (same sizes, dlogits = probs)
    const std::uint64_t acts = x_pair + x_query + q + k + v + weights + out + probs;
    return 2 * params + 2 * acts + dots + w_t;
  }
};

Sizes sizes(const ModelShape& s, int N) {
  const std::uint64_t D = s.d_model, dk = s.d_k, dv = s.d_v, P = s.task.pairs, Qn = s.task.queries;
  const std::uint64_t tokens = std::uint64_t(N) * P, rows = std::uint64_t(N) * Qn;
  Sizes z{};
  z.params = std::uint64_t(s.task.letters) * D + kDigits * D + 2 * D * dk + D * dv + dv * kDigits;
  z.x_pair = tokens * D;
  z.x_query = rows * D;
  z.q = rows * dk;
  z.k = tokens * dk;
  z.v = tokens * dv;
  z.weights = rows * P;
  z.out = rows * dv;
  z.probs = rows * kDigits;
  z.dots = Qn * P;
  z.w_t = std::max({dk * D, dv * D, kDigits * dv});
  return z;
}

}  // namespace

std::size_t param_count(const ModelShape& shape) { return static_cast<std::size_t>(sizes(shape, 0).params); }

ParamTensors param_tensors(const ModelShape& s, float* block) {
  const size_t D = sz(s.d_model), dk = sz(s.d_k), dv = sz(s.d_v);
  ParamTensors t;
  t.embed_key = block;
  t.embed_value = t.embed_key + sz(s.task.letters) * D;
  t.w_q = t.embed_value + sz(kDigits) * D;
  t.w_k = t.w_q + D * dk;
  t.w_v = t.w_k + D * dk;
  t.w_o = t.w_v + D * dv;
  return t;
}

void init_params(const ModelShape& s, float init_scale, Rng& rng, float* params) {
  const ParamTensors t = param_tensors(s, params);
  const size_t D = sz(s.d_model), dk = sz(s.d_k), dv = sz(s.d_v);
  const auto fill = [&rng](float* x, size_t count, double sigma) {
    for (size_t i = 0; i < count; ++i) x[i] = static_cast<float>(sigma * rng.normal());
  };
  const double qk_sigma = init_scale / std::sqrt(static_cast<double>(D));
  fill(t.embed_key, sz(s.task.letters) * D, 1.0);
  fill(t.embed_value, sz(kDigits) * D, 1.0);
  fill(t.w_q, D * dk, qk_sigma);
  fill(t.w_k, D * dk, qk_sigma);
  fill(t.w_v, D * dv, 1.0 / std::sqrt(static_cast<double>(D)));
  fill(t.w_o, dv * kDigits, 1.0 / std::sqrt(static_cast<double>(dv)));
}

std::uint64_t Model::bytes(const ModelShape& shape, int max_examples) {
  return sizes(shape, max_examples).total() * sizeof(float);
}

bool Model::create(const ModelShape& shape, int max_examples, Error* err) noexcept {
  const Sizes z = sizes(shape, max_examples);
  try {
    shape_ = shape;
    max_examples_ = max_examples;
    // a value and its gradient have the same size: both are zeroed together
    const auto with_gradient = [](std::vector<float>& x, std::vector<float>& dx, std::size_t n) {
      x.assign(n, 0.0f);
      dx.assign(n, 0.0f);
    };
    Activations& a = acts_;
    Scratch& s = scratch_;
    with_gradient(params_, grads_, z.params);
    with_gradient(a.x_pair, s.dx_pair, z.x_pair);
    with_gradient(a.x_query, s.dx_query, z.x_query);
    with_gradient(a.q, s.dq, z.q);
    with_gradient(a.k, s.dk, z.k);
    with_gradient(a.v, s.dv, z.v);
    with_gradient(a.out, s.dout, z.out);
    with_gradient(a.probs, s.dlogits, z.probs);  // ∂loss/∂logits
    a.weights.assign(z.weights, 0.0f);
    s.dweights.assign(z.dots, 0.0f);
    s.w_t.assign(z.w_t, 0.0f);
  } catch (const std::bad_alloc&) {
    return fail(err, Status::too_large, "out of memory allocating the model (%llu bytes)",
                static_cast<unsigned long long>(z.total() * sizeof(float)));
  }
  return true;
}

ForwardStats Model::forward(const Batch& batch, float scale) noexcept {
  if (batch.count < 1 || batch.count > max_examples_) {
    ForwardStats refused;
    refused.loss = NAN;
    return refused;
  }
  const ModelShape& s = shape_;
  const int N = batch.count, P = s.task.pairs, Qn = s.task.queries, D = s.d_model;
  const int tokens = N * P, rows = N * Qn;
  const ParamTensors p = param_tensors(s, params_.data());
  Activations& a = acts_;
  // pass 1: tokens
  embed_pairs_forward(a.x_pair.data(), batch.keys.data(), batch.values.data(), p.embed_key, p.embed_value, tokens, D);
  embed_queries_forward(a.x_query.data(), batch.queries.data(), p.embed_key, rows, D);
  // pass 2: projections
  linear_forward(a.q.data(), a.x_query.data(), p.w_q, rows, D, s.d_k);
  linear_forward(a.k.data(), a.x_pair.data(), p.w_k, tokens, D, s.d_k);
  linear_forward(a.v.data(), a.x_pair.data(), p.w_v, tokens, D, s.d_v);
  // pass 3: attention (the dots scratch is dweights: the backward pass overwrites it)
  RowStats rs;
  head_forward(a.out.data(), a.weights.data(), scratch_.dweights.data(), a.q.data(), a.k.data(), a.v.data(),
               batch.target.data(), N, Qn, P, s.d_k, s.d_v, scale, &rs);
  // pass 4: readout and loss
  linear_forward(a.probs.data(), a.out.data(), p.w_o, rows, s.d_v, kDigits);
  int correct = 0;
  const double loss = crossentropy_forward(a.probs.data(), batch.answers.data(), rows, &correct);
  ForwardStats st;
  // overflowed scores are a diverged model, even where the loss they give is finite
  st.loss = rs.overflowed ? INFINITY : static_cast<float>(loss / rows);
  st.accuracy = static_cast<float>(static_cast<double>(correct) / rows);
  st.max_weight = static_cast<float>(rs.max_weight / rows);
  st.entropy = static_cast<float>(rs.entropy / rows);
  st.match_weight = static_cast<float>(rs.match_weight / rows);
  return st;
}

void Model::backward(const Batch& batch, float scale) noexcept {
  if (batch.count < 1 || batch.count > max_examples_) return;
  const ModelShape& s = shape_;
  const int N = batch.count, P = s.task.pairs, Qn = s.task.queries, D = s.d_model;
  const int tokens = N * P, rows = N * Qn;
  const ParamTensors p = param_tensors(s, params_.data());
  const ParamTensors g = param_tensors(s, grads_.data());
  const Activations& a = acts_;
  Scratch& d = scratch_;
  float* w_t = d.w_t.data();
  // the embeddings' gradients are sums over tokens; every other tensor is overwritten below
  std::fill(grads_.begin(), grads_.begin() + (g.w_q - g.embed_key), 0.0f);
  // pass 4: loss and readout
  crossentropy_backward(d.dlogits.data(), a.probs.data(), batch.answers.data(), rows);
  linear_backward(d.dout.data(), g.w_o, d.dlogits.data(), a.out.data(), p.w_o, w_t, rows, s.d_v, kDigits, false);
  // pass 3: attention
  head_backward(d.dq.data(), d.dk.data(), d.dv.data(), d.dweights.data(), d.dout.data(), a.weights.data(),
                a.q.data(), a.k.data(), a.v.data(), N, Qn, P, s.d_k, s.d_v, scale);
  // pass 2: projections (x_pair feeds both W_K and W_V: its gradient is the sum)
  linear_backward(d.dx_query.data(), g.w_q, d.dq.data(), a.x_query.data(), p.w_q, w_t, rows, D, s.d_k, false);
  linear_backward(d.dx_pair.data(), g.w_k, d.dk.data(), a.x_pair.data(), p.w_k, w_t, tokens, D, s.d_k, false);
  linear_backward(d.dx_pair.data(), g.w_v, d.dv.data(), a.x_pair.data(), p.w_v, w_t, tokens, D, s.d_v, true);
  // pass 1: tokens
  embed_queries_backward(g.embed_key, d.dx_query.data(), batch.queries.data(), rows, D);
  embed_pairs_backward(g.embed_key, g.embed_value, d.dx_pair.data(), batch.keys.data(), batch.values.data(), tokens,
                       D);
}

}  // namespace train
}  // namespace attn
