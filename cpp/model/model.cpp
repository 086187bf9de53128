// The language model of model.hpp: each layer a plain <op>_forward / <op>_backward pair over
// row-major float32 arrays (llm.c's train_gpt2.c), gradients prefixed `d` and accumulated (+=)
// into arrays backward() zeroes first. The matrix products run on the core's gemm and
// matmul_qkt kernels, each softmax on softmax_row; layernorm, gelu and the residuals are
// short scalar loops.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "core/attention.hpp"
#include "core/optim.hpp"
#include "core/random.hpp"
#include "model/model.hpp"

namespace attn {
namespace lm {

namespace {

using std::size_t;
using std::uint64_t;

inline size_t sz(int x) { return static_cast<size_t>(x); }

// Attention weights and score gradients below 2^-100 are set to 0, as in the training
// experiment (experiment/experiment_model.cpp says why: they change no sum or update a float32 can hold, and
// the subnormal products after them slow x86 down many times in a saturated, unscaled row).
constexpr float kFlushBelow = 7.88860905e-31f;  // 2^-100
inline float flush_tiny(float x) { return std::fabs(x) < kFlushBelow ? 0.0f : x; }

// ---- cache-blocked matrix product ---------------------------------------------------------------

// gemm (attention.hpp) in blocks of kDepthBlock × kColBlock of b, each reused by every row of a
// while it sits in L2 (64–128 kB). gemm itself streams the whole depth for every pair of rows:
// at the output layer's depth (V = 12,000, or N = 1,024 with a read down columns) that re-reads
// megabytes per row pair, and the backward pass of the tied output ran 10× slower than its
// forward (docs/model.md).
constexpr size_t kDepthBlock = 128, kColBlock = 256;

void gemm_blocked(const float* a, size_t a_row, size_t a_inner, const float* b, size_t ldb, float* c, size_t ldc,
                  size_t rows, size_t cols, size_t depth, bool accumulate) {
  for (size_t c0 = 0; c0 < cols; c0 += kColBlock) {
    const size_t width = std::min(kColBlock, cols - c0);
    for (size_t p0 = 0; p0 < depth; p0 += kDepthBlock) {
      const size_t chunk = std::min(kDepthBlock, depth - p0);
      gemm(a + p0 * a_inner, a_row, a_inner, b + p0 * ldb + c0, ldb, c + c0, ldc, rows, width, chunk,
           accumulate || p0 > 0);
    }
  }
}

// ---- encoder ---------------------------------------------------------------------------------

// out (B×T×C) = wte[inp] + wpe[position]
void encoder_forward(float* out, const std::int32_t* inp, const float* wte, const float* wpe, int B, int T, int C) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      float* out_bt = out + (sz(b) * T + t) * C;
      const float* wte_ix = wte + sz(inp[sz(b) * T + t]) * C;
      const float* wpe_t = wpe + sz(t) * C;
      for (int i = 0; i < C; ++i) out_bt[i] = wte_ix[i] + wpe_t[i];
    }
}

// dwte (V×C), dwpe (T×C) += the rows of dout (B×T×C) they produced
void encoder_backward(float* dwte, float* dwpe, const float* dout, const std::int32_t* inp, int B, int T, int C) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const float* dout_bt = dout + (sz(b) * T + t) * C;
      float* dwte_ix = dwte + sz(inp[sz(b) * T + t]) * C;
      float* dwpe_t = dwpe + sz(t) * C;
      for (int i = 0; i < C; ++i) {
        dwte_ix[i] += dout_bt[i];
        dwpe_t[i] += dout_bt[i];
      }
    }
}

// ---- layernorm -------------------------------------------------------------------------------

// out (N×C) = (inp − mean)·rstd·weight + bias per row; mean, rstd (N) kept for the backward pass
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight, const float* bias,
                       int N, int C) {
  for (int n = 0; n < N; ++n) {
    const float* x = inp + sz(n) * C;
    // pass 1: mean and biased variance, in double (C is small; the rounding stays out of rstd)
    double m = 0;
    for (int i = 0; i < C; ++i) m += x[i];
    m /= C;
    double var = 0;
    for (int i = 0; i < C; ++i) var += (x[i] - m) * (x[i] - m);
    var /= C;
    const float s = static_cast<float>(1.0 / std::sqrt(var + kLayerNormEps));
    const float mf = static_cast<float>(m);
    // pass 2: normalise, scale, shift
    float* out_n = out + sz(n) * C;
    for (int i = 0; i < C; ++i) out_n[i] = (x[i] - mf) * s * weight[i] + bias[i];
    mean[n] = mf;
    rstd[n] = s;
  }
}

// dinp (N×C), dweight, dbias (C) += the gradients of layernorm_forward given dout (N×C)
void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                        const float* weight, const float* mean, const float* rstd, int N, int C) {
  for (int n = 0; n < N; ++n) {
    const float* x = inp + sz(n) * C;
    const float* dy = dout + sz(n) * C;
    float* dx = dinp + sz(n) * C;
    // pass 1: the two means the input gradient subtracts: of dnorm and of dnorm·norm
    double dnorm_mean = 0, dnorm_norm_mean = 0;
    for (int i = 0; i < C; ++i) {
      const float norm = (x[i] - mean[n]) * rstd[n];
      const float dnorm = weight[i] * dy[i];
      dnorm_mean += dnorm;
      dnorm_norm_mean += static_cast<double>(dnorm) * norm;
    }
    const float a = static_cast<float>(dnorm_mean / C), b = static_cast<float>(dnorm_norm_mean / C);
    // pass 2: accumulate
    for (int i = 0; i < C; ++i) {
      const float norm = (x[i] - mean[n]) * rstd[n];
      const float dnorm = weight[i] * dy[i];
      dbias[i] += dy[i];
      dweight[i] += norm * dy[i];
      dx[i] += (dnorm - a - norm * b) * rstd[n];
    }
  }
}

// ---- linear layers -----------------------------------------------------------------------------

// out (N×OC) = inp (N×IC) · weight (IC×OC) + bias (OC; may be null)
void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, int N, int IC, int OC) {
  gemm_blocked(inp, sz(IC), 1, weight, sz(OC), out, sz(OC), sz(N), sz(OC), sz(IC), false);
  if (!bias) return;
  for (int n = 0; n < N; ++n) {
    float* out_n = out + sz(n) * OC;
    for (int o = 0; o < OC; ++o) out_n[o] += bias[o];
  }
}

// dinp (N×IC) += dout weightᵀ;  dweight (IC×OC) += inpᵀ dout;  dbias (OC) += Σₙ dout.
// weight_t: scratch of OC×IC floats (gemm reads its right operand by rows).
void matmul_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, float* weight_t, int N, int IC, int OC) {
  // pass 1: dweight += inpᵀ dout, inpᵀ read in place (a(r, p) = inp[p·IC + r])
  gemm_blocked(inp, 1, sz(IC), dout, sz(OC), dweight, sz(OC), sz(IC), sz(OC), sz(N), true);
  // pass 2: dbias
  if (dbias)
    for (int n = 0; n < N; ++n) {
      const float* dout_n = dout + sz(n) * OC;
      for (int o = 0; o < OC; ++o) dbias[o] += dout_n[o];
    }
  // pass 3: weightᵀ, then dinp += dout weightᵀ
  for (int i = 0; i < IC; ++i)
    for (int o = 0; o < OC; ++o) weight_t[sz(o) * IC + i] = weight[sz(i) * OC + o];
  gemm_blocked(dout, sz(OC), 1, weight_t, sz(IC), dinp, sz(IC), sz(N), sz(IC), sz(OC), true);
}

// ---- causal multi-head attention -----------------------------------------------------------------

// inp (B×T×3C: q, k, v) → out (B×T×C), att (B×H×T×T, 0 above the diagonal).
// scratch: T×T (the scores of one head) + hs×T (its keys transposed).
void attention_forward(float* out, float* att, const float* inp, float* scratch, int B, int T, int C, int H,
                       float scale) {
  const int hs = C / H;
  const size_t C3 = 3 * sz(C);
  float* dots = scratch;
  float* k_t = scratch + sz(T) * T;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const float* q = inp + sz(b) * T * C3 + sz(h) * hs;
      const float* k = q + C;
      const float* v = q + 2 * sz(C);
      float* att_bh = att + (sz(b) * H + h) * T * T;
      // pass 1: dots (T×T) = q kᵀ, kᵀ packed (hs×T)
      for (int j = 0; j < T; ++j)
        for (int c = 0; c < hs; ++c) k_t[sz(c) * T + j] = k[sz(j) * C3 + c];
      gemm(q, C3, 1, k_t, sz(T), dots, sz(T), sz(T), sz(T), sz(hs), false);
      // pass 2: row t = softmax(scale · dots) over keys 0…t, zeros after (softmax_row
      // multiplies by its inverse temperature: here the scale)
      for (int t = 0; t < T; ++t) {
        float entropy;
        float* row = att_bh + sz(t) * T;
        softmax_row(dots + sz(t) * T, t + 1, scale, row, &entropy);
        for (int j = 0; j <= t; ++j) row[j] = flush_tiny(row[j]);
        for (int j = t + 1; j < T; ++j) row[j] = 0.0f;
      }
      // pass 3: y_h (T×hs) = att v, into out at column h·hs
      gemm(att_bh, sz(T), 1, v, C3, out + sz(b) * T * C + sz(h) * hs, sz(C), sz(T), sz(hs), sz(T), false);
    }
}

// dinp (B×T×3C) += the gradients of attention_forward given dout (B×T×C).
// scratch: T×T (∂loss/∂att of one head, then of its scores in place) + hs×T (its values transposed).
void attention_backward(float* dinp, const float* dout, const float* inp, const float* att, float* scratch, int B,
                        int T, int C, int H, float scale) {
  const int hs = C / H;
  const size_t C3 = 3 * sz(C);
  float* datt = scratch;
  float* v_t = scratch + sz(T) * T;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const size_t head = sz(b) * T * C3 + sz(h) * hs;
      const float* q = inp + head;
      const float* k = q + C;
      const float* v = q + 2 * sz(C);
      float* dq = dinp + head;
      float* dk = dq + C;
      float* dv = dq + 2 * sz(C);
      const float* att_bh = att + (sz(b) * H + h) * T * T;
      const float* dy = dout + sz(b) * T * C + sz(h) * hs;
      // pass 1: datt (T×T) = dy vᵀ;  dv += attᵀ dy
      for (int j = 0; j < T; ++j)
        for (int c = 0; c < hs; ++c) v_t[sz(c) * T + j] = v[sz(j) * C3 + c];
      gemm(dy, sz(C), 1, v_t, sz(T), datt, sz(T), sz(T), sz(T), sz(hs), false);
      gemm(att_bh, 1, sz(T), dy, sz(C), dv, C3, sz(T), sz(hs), sz(T), true);
      // pass 2: softmax backward in place, dscores = scale · w ⊙ (datt − ⟨w, datt⟩) over keys 0…t
      for (int t = 0; t < T; ++t) {
        const float* w = att_bh + sz(t) * T;
        float* d = datt + sz(t) * T;
        float dot = 0.0f;
        for (int j = 0; j <= t; ++j) dot += w[j] * d[j];
        for (int j = 0; j <= t; ++j) d[j] = flush_tiny(scale * w[j] * (d[j] - dot));
        for (int j = t + 1; j < T; ++j) d[j] = 0.0f;
      }
      // pass 3: dq += dscores k;  dk += dscoresᵀ q
      gemm(datt, sz(T), 1, k, C3, dq, C3, sz(T), sz(hs), sz(T), true);
      gemm(datt, 1, sz(T), q, C3, dk, C3, sz(T), sz(hs), sz(T), true);
    }
}

// ---- gelu and residuals -------------------------------------------------------------------------

// out (N) = 0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³))): the vector kernel for predict (the page,
// the API, the CLI), the std::tanh reference for forward() over every position (training and its
// evaluations) — the training script's committed curves were made with it and are reproduced
// bit for bit (tests/js/model-assets.test.mjs); the next retraining can take the kernel.
void gelu_forward(float* out, const float* inp, size_t N, bool every_position) {
  if (every_position)
    gelu_ref(inp, N, out);
  else
    gelu(inp, N, out);
}

// dinp (N) += gelu'(inp) · dout; sech² = 1 − tanh² (cosh would overflow for large x)
void gelu_backward(float* dinp, const float* inp, const float* dout, size_t N) {
  for (size_t i = 0; i < N; ++i) {
    const float x = inp[i];
    const float th = std::tanh(kGeluScale * (x + kGeluCubic * x * x * x));
    const float sech2 = 1.0f - th * th;
    const float local = 0.5f * (1.0f + th) + 0.5f * x * sech2 * kGeluScale * (1.0f + 3.0f * kGeluCubic * x * x);
    dinp[i] += local * dout[i];
  }
}

// out (N) = a + b
void residual_forward(float* out, const float* a, const float* b, size_t N) {
  for (size_t i = 0; i < N; ++i) out[i] = a[i] + b[i];
}

// da, db (N) += dout
void residual_backward(float* da, float* db, const float* dout, size_t N) {
  for (size_t i = 0; i < N; ++i) {
    da[i] += dout[i];
    db[i] += dout[i];
  }
}

// ---- output softmax and cross-entropy ------------------------------------------------------------

// In place: logits (N×V) → probs = softmax(logits); losses (N) = −log probs[target] when targets
// are given, as (max − z[target]) − log(max weight) (softmax_row returns the max weight 1/Σe^(z−max)),
// finite however small probs[target] is.
void crossentropy_softmax_forward(float* probs, float* losses, const std::int32_t* targets, int N, int V) {
  for (int n = 0; n < N; ++n) {
    float* z = probs + sz(n) * V;
    const float z_max = *std::max_element(z, z + V);
    const float z_target = targets ? z[targets[n]] : 0.0f;
    float entropy;
    const float max_weight = softmax_row(z, V, 1.0f, z, &entropy);  // in place: each entry read before written
    losses[n] = targets ? (z_max - z_target) - std::log(max_weight) : NAN;
  }
}

// In place: probs (N×V) → dlogits = (probs − onehot(target)) / N, the gradient of the mean loss
void crossentropy_softmax_backward(float* probs, const std::int32_t* targets, int N, int V) {
  const float inv_n = 1.0f / static_cast<float>(N);
  for (int n = 0; n < N; ++n) {
    float* p = probs + sz(n) * V;
    for (int v = 0; v < V; ++v) p[v] = flush_tiny(p[v]) * inv_n;
    p[targets[n]] -= inv_n;
  }
}

// ---- the size tables and the pointer loop ----------------------------------------------------------

// Points `count` tensors (sizes[i] floats each) one after another into `block`.
void point_tensors(float* block, const uint64_t* sizes, int count, float** tensors) {
  for (int i = 0; i < count; ++i) {
    tensors[i] = block;
    block += sizes[i];
  }
}

uint64_t total(const uint64_t* sizes, int count) {
  uint64_t sum = 0;
  for (int i = 0; i < count; ++i) sum += sizes[i];
  return sum;
}

// The activation gradients backward() needs: those of the tensors a gradient flows through.
// Means, rstds, the attention weights (their gradient is per head, in scratch), probs (the
// logits' gradient is written in place) and losses have none.
void grad_act_sizes(const ModelConfig& c, int B, int T, uint64_t sizes[kActTensors]) {
  act_sizes(c, B, T, sizes);
  // field order of ActTensors: encoded 0, ln1 1, ln1_mean 2, ln1_rstd 3, qkv 4, atty 5, att 6,
  // attproj 7, residual2 8, ln2 9, ln2_mean 10, ln2_rstd 11, fch 12, fch_gelu 13, fcproj 14,
  // residual3 15, lnf 16, lnf_mean 17, lnf_rstd 18, probs 19, losses 20, scratch 21
  for (int i : {2, 3, 6, 10, 11, 17, 18, 19, 20, 21}) sizes[i] = 0;
}

}  // namespace

const char* const kParamNames[kParamTensors] = {"wte",      "wpe",  "ln1w", "ln1b", "qkvw",    "qkvb",
                                                "attprojw", "attprojb", "ln2w", "ln2b", "fcw", "fcb",
                                                "fcprojw",  "fcprojb",  "lnfw", "lnfb"};
const bool kParamDecayed[kParamTensors] = {true,  true,  false, false, true, false, true,  false,
                                           false, false, true,  false, true, false, false, false};

float score_scale(const ModelConfig& c) noexcept { return c.scaled ? inv_sqrt(head_width(c)) : 1.0f; }

void param_sizes(const ModelConfig& c, uint64_t s[kParamTensors]) {
  const uint64_t V = sz(c.vocab), T = sz(c.context), L = sz(c.layers), C = sz(c.d_model), F = 4 * C;
  const uint64_t table[kParamTensors] = {V * C,     T * C, L * C,     L * C, L * C * 3 * C, L * 3 * C,
                                         L * C * C, L * C, L * C,     L * C, L * C * F,     L * F,
                                         L * F * C, L * C, C,         C};
  std::copy(table, table + kParamTensors, s);
}

uint64_t param_count(const ModelConfig& c) {
  uint64_t s[kParamTensors];
  param_sizes(c, s);
  return total(s, kParamTensors);
}

ParamTensors point_params(const ModelConfig& c, float* block) {
  uint64_t s[kParamTensors];
  param_sizes(c, s);
  ParamTensors t;
  static_assert(sizeof(ParamTensors) == kParamTensors * sizeof(float*), "ParamTensors is the table's pointers");
  point_tensors(block, s, kParamTensors, &t.wte);
  return t;
}

void act_sizes(const ModelConfig& c, int B_, int T_, uint64_t s[kActTensors]) {
  const uint64_t B = sz(B_), T = sz(T_), L = sz(c.layers), C = sz(c.d_model), H = sz(c.heads), V = sz(c.vocab);
  const uint64_t F = 4 * C, hs = C / H, BT = B * T;
  const uint64_t scratch = std::max(T * T + hs * T, F * C);
  const uint64_t table[kActTensors] = {
      BT * C,          L * BT * C, L * BT,     L * BT,     L * BT * 3 * C, L * BT * C, L * B * H * T * T, L * BT * C,
      L * BT * C,      L * BT * C, L * BT,     L * BT,     L * BT * F,     L * BT * F, L * BT * C,        L * BT * C,
      BT * C,          BT,         BT,         BT * V,     BT,             scratch};
  static_assert(sizeof(ActTensors) == kActTensors * sizeof(float*), "ActTensors is the table's pointers");
  std::copy(table, table + kActTensors, s);
}

void init_params(const ModelConfig& c, std::uint64_t seed, float* params) {
  uint64_t s[kParamTensors];
  param_sizes(c, s);
  Rng rng(seed);
  const double residual_std = kInitStd / std::sqrt(2.0 * c.layers);
  // by table index: the standard deviation of a normal tensor, 0 for a bias (zeros), −1 for a
  // layernorm weight (ones)
  const double stds[kParamTensors] = {kInitStd, kInitStd,     -1, 0, kInitStd, 0, residual_std, 0,
                                      -1,       0,            kInitStd, 0, residual_std, 0, -1, 0};
  float* p = params;
  for (int i = 0; i < kParamTensors; ++i) {
    for (uint64_t j = 0; j < s[i]; ++j)
      p[j] = stds[i] > 0 ? static_cast<float>(stds[i] * rng.normal()) : stds[i] < 0 ? 1.0f : 0.0f;
    p += s[i];
  }
}

bool validate_config(const ModelConfig& c, Error* err) noexcept {
  if (!check_dim("vocab", c.vocab, 2, kMaxVocab, err) || !check_dim("context", c.context, 1, kMaxContext, err) ||
      !check_dim("layers", c.layers, 1, kMaxLayers, err) || !check_dim("heads", c.heads, 1, kMaxHeads, err) ||
      !check_dim("dModel", c.d_model, 1, kMaxDModel, err))
    return false;
  if (c.d_model % c.heads != 0)
    return fail(err, Status::invalid_shape, "dModel must be a multiple of heads, got dModel %d and heads %d",
                c.d_model, c.heads);
  return true;
}

std::uint64_t Model::bytes(const ModelConfig& c, int max_batch) {
  uint64_t a[kActTensors], g[kActTensors];
  act_sizes(c, max_batch, c.context, a);
  grad_act_sizes(c, max_batch, c.context, g);
  return (2 * param_count(c) + total(a, kActTensors) + total(g, kActTensors)) * sizeof(float) +
         2 * uint64_t(max_batch) * c.context * sizeof(std::int32_t);
}

bool Model::create(const ModelConfig& config, int max_batch, Error* err, bool for_training) noexcept {
  B_ = T_ = 0;
  has_targets_ = false;
  if (!validate_config(config, err) || !check_dim("maxBatch", max_batch, 1, kMaxBatch, err)) return false;
  uint64_t a[kActTensors], g[kActTensors];
  act_sizes(config, max_batch, config.context, a);
  grad_act_sizes(config, max_batch, config.context, g);
  const uint64_t params = param_count(config), acts = total(a, kActTensors), grad_acts = total(g, kActTensors);
  if (!check_size("the model's parameters", params, err) || !check_size("the model's activations", acts, err) ||
      !check_size("the model's activation gradients", grad_acts, err))
    return false;
  try {
    params_.assign(params, 0.0f);
    grads_.assign(for_training ? params : 0, 0.0f);
    act_memory_.assign(acts, 0.0f);
    grad_act_memory_.assign(for_training ? grad_acts : 0, 0.0f);
    logits_.assign(config.vocab, 0.0f);
    inputs_.assign(sz(max_batch) * config.context, 0);
    targets_.assign(sz(max_batch) * config.context, 0);
  } catch (const std::bad_alloc&) {
    return fail(err, Status::too_large, "out of memory allocating the model (%llu bytes)",
                static_cast<unsigned long long>(bytes(config, max_batch)));
  }
  config_ = config;
  max_batch_ = max_batch;
  point_tensors(act_memory_.data(), a, kActTensors, &acts_.encoded);
  for_training_ = for_training;
  if (for_training) point_tensors(grad_act_memory_.data(), g, kActTensors, &grad_acts_.encoded);
  else grad_acts_ = ActTensors{};
  return true;
}

const float* Model::attention(int layer) const {
  if (layer < 0 || layer >= config_.layers) return nullptr;
  return acts_.att + sz(layer) * max_batch_ * config_.heads * config_.context * config_.context;
}

bool Model::forward(const std::int32_t* inputs, const std::int32_t* targets, int B, int T, float* loss,
                    Error* err) noexcept {
  return run(inputs, targets, B, T, -1, loss, err);
}

bool Model::predict(const std::int32_t* inputs, int T, int position, Error* err) noexcept {
  float loss;
  if (!check_dim("length", T, 1, config_.context, err) || !check_dim("position", position, 0, T - 1, err))
    return false;
  return run(inputs, nullptr, 1, T, position, &loss, err);
}

bool Model::run(const std::int32_t* inputs, const std::int32_t* targets, int B, int T, int position, float* loss,
                Error* err) noexcept {
  has_targets_ = false;
  B_ = T_ = 0;
  *loss = NAN;
  if (max_batch_ == 0) return fail(err, Status::invalid_argument, "the model has not been created");
  if (!check_dim("batch", B, 1, max_batch_, err) || !check_dim("length", T, 1, config_.context, err)) return false;
  if (!inputs) return missing("inputs", err);
  const ModelConfig& c = config_;
  const int N = B * T, V = c.vocab, C = c.d_model, L = c.layers, H = c.heads, F = 4 * C;
  for (int i = 0; i < N; ++i) {
    if (inputs[i] < 0 || inputs[i] >= V)
      return fail(err, Status::invalid_shape, "inputs[%d] is %d, expected a token from 0 to %d", i, inputs[i], V - 1);
    if (targets && (targets[i] < 0 || targets[i] >= V))
      return fail(err, Status::invalid_shape, "targets[%d] is %d, expected a token from 0 to %d", i, targets[i],
                  V - 1);
  }
  std::copy_n(inputs, N, inputs_.data());
  if (targets) std::copy_n(targets, N, targets_.data());

  const ParamTensors p = param_tensors();
  const ActTensors& a = acts_;
  const float scale = score_scale(c);
  // per-layer strides of the activations, at the sizes create() reserved
  const size_t NC = sz(max_batch_) * c.context * C, Nrow = sz(max_batch_) * c.context;
  const size_t NA = Nrow * H * c.context;  // a layer's B×H×T×T, at T = context
  // pass 1: tokens and positions
  encoder_forward(a.encoded, inputs, p.wte, p.wpe, B, T, C);
  // pass 2: the layers
  for (int l = 0; l < L; ++l) {
    const size_t lc = sz(l) * C;
    const float* residual = l == 0 ? a.encoded : a.residual3 + (l - 1) * NC;
    float* ln1 = a.ln1 + l * NC;
    float* qkv = a.qkv + l * 3 * NC;
    float* atty = a.atty + l * NC;
    float* att = a.att + l * NA;
    float* attproj = a.attproj + l * NC;
    float* residual2 = a.residual2 + l * NC;
    float* ln2 = a.ln2 + l * NC;
    float* fch = a.fch + l * 4 * NC;
    float* fch_gelu = a.fch_gelu + l * 4 * NC;
    float* fcproj = a.fcproj + l * NC;
    float* residual3 = a.residual3 + l * NC;
    layernorm_forward(ln1, a.ln1_mean + l * Nrow, a.ln1_rstd + l * Nrow, residual, p.ln1w + lc, p.ln1b + lc, N, C);
    matmul_forward(qkv, ln1, p.qkvw + lc * 3 * C, p.qkvb + 3 * lc, N, C, 3 * C);
    attention_forward(atty, att, qkv, a.scratch, B, T, C, H, scale);
    matmul_forward(attproj, atty, p.attprojw + lc * C, p.attprojb + lc, N, C, C);
    residual_forward(residual2, residual, attproj, sz(N) * C);
    layernorm_forward(ln2, a.ln2_mean + l * Nrow, a.ln2_rstd + l * Nrow, residual2, p.ln2w + lc, p.ln2b + lc, N, C);
    matmul_forward(fch, ln2, p.fcw + lc * F, p.fcb + sz(l) * F, N, C, F);
    gelu_forward(fch_gelu, fch, sz(N) * F, position < 0);
    matmul_forward(fcproj, fch_gelu, p.fcprojw + sz(l) * F * C, p.fcprojb + lc, N, F, C);
    residual_forward(residual3, residual2, fcproj, sz(N) * C);
  }
  // pass 3: final layernorm, logits on the tied embedding, softmax and loss
  const float* last = a.residual3 + (L - 1) * NC;
  layernorm_forward(a.lnf, a.lnf_mean, a.lnf_rstd, last, p.lnfw, p.lnfb, N, C);
  const int rows = position < 0 ? N : 1;  // predict(): the one position's logits only
  matmul_qkt(a.lnf + (position < 0 ? 0 : sz(position) * C), p.wte, rows, V, C, a.probs);
  if (!all_finite(a.probs, sz(rows) * V))
    return fail(err, Status::overflow, "the logits are not finite: the parameters have diverged");
  if (position >= 0) std::copy_n(a.probs, V, logits_.data());
  crossentropy_softmax_forward(a.probs, a.losses, targets, rows, V);
  B_ = B;
  T_ = T;
  if (!targets) return true;
  double sum = 0;
  for (int i = 0; i < N; ++i) sum += a.losses[i];
  *loss = static_cast<float>(sum / N);
  has_targets_ = true;
  return true;
}

bool Model::backward(Error* err) noexcept {
  if (!for_training_) return fail(err, Status::invalid_argument, "this model was created for inference only");
  if (!has_targets_)
    return fail(err, Status::invalid_argument, "backward needs a successful forward with targets first");
  has_targets_ = false;  // the probabilities are consumed below
  const ModelConfig& c = config_;
  const int B = B_, T = T_, N = B * T, V = c.vocab, C = c.d_model, L = c.layers, H = c.heads, F = 4 * C;
  const ParamTensors p = param_tensors();
  const ParamTensors g = grad_tensors();
  const ActTensors& a = acts_;
  const ActTensors& d = grad_acts_;
  const float scale = score_scale(c);
  const size_t NC = sz(max_batch_) * c.context * C, Nrow = sz(max_batch_) * c.context;
  const size_t NA = Nrow * H * c.context;
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  std::fill(grad_act_memory_.begin(), grad_act_memory_.end(), 0.0f);
  // pass 3: loss, logits, final layernorm
  crossentropy_softmax_backward(a.probs, targets_.data(), N, V);
  const float* dlogits = a.probs;
  gemm_blocked(dlogits, sz(V), 1, p.wte, sz(C), d.lnf, sz(C), sz(N), sz(C), sz(V), true);  // dlnf += dlogits wte
  gemm_blocked(dlogits, 1, sz(V), a.lnf, sz(C), g.wte, sz(C), sz(V), sz(C), sz(N), true);  // dwte += dlogitsᵀ lnf
  layernorm_backward(d.residual3 + (L - 1) * NC, g.lnfw, g.lnfb, d.lnf, a.residual3 + (L - 1) * NC, p.lnfw,
                     a.lnf_mean, a.lnf_rstd, N, C);
  // pass 2: the layers, last first
  for (int l = L - 1; l >= 0; --l) {
    const size_t lc = sz(l) * C;
    const float* residual = l == 0 ? a.encoded : a.residual3 + (l - 1) * NC;
    float* dresidual = l == 0 ? d.encoded : d.residual3 + (l - 1) * NC;
    float* dresidual2 = d.residual2 + l * NC;
    residual_backward(dresidual2, d.fcproj + l * NC, d.residual3 + l * NC, sz(N) * C);
    matmul_backward(d.fch_gelu + l * 4 * NC, g.fcprojw + sz(l) * F * C, g.fcprojb + lc, d.fcproj + l * NC,
                    a.fch_gelu + l * 4 * NC, p.fcprojw + sz(l) * F * C, a.scratch, N, F, C);
    gelu_backward(d.fch + l * 4 * NC, a.fch + l * 4 * NC, d.fch_gelu + l * 4 * NC, sz(N) * F);
    matmul_backward(d.ln2 + l * NC, g.fcw + lc * F, g.fcb + sz(l) * F, d.fch + l * 4 * NC, a.ln2 + l * NC,
                    p.fcw + lc * F, a.scratch, N, C, F);
    layernorm_backward(dresidual2, g.ln2w + lc, g.ln2b + lc, d.ln2 + l * NC, a.residual2 + l * NC, p.ln2w + lc,
                       a.ln2_mean + l * Nrow, a.ln2_rstd + l * Nrow, N, C);
    residual_backward(dresidual, d.attproj + l * NC, dresidual2, sz(N) * C);
    matmul_backward(d.atty + l * NC, g.attprojw + lc * C, g.attprojb + lc, d.attproj + l * NC, a.atty + l * NC,
                    p.attprojw + lc * C, a.scratch, N, C, C);
    attention_backward(d.qkv + l * 3 * NC, d.atty + l * NC, a.qkv + l * 3 * NC, a.att + l * NA, a.scratch, B, T, C,
                       H, scale);
    matmul_backward(d.ln1 + l * NC, g.qkvw + lc * 3 * C, g.qkvb + 3 * lc, d.qkv + l * 3 * NC, a.ln1 + l * NC,
                    p.qkvw + lc * 3 * C, a.scratch, N, C, 3 * C);
    layernorm_backward(dresidual, g.ln1w + lc, g.ln1b + lc, d.ln1 + l * NC, residual, p.ln1w + lc,
                       a.ln1_mean + l * Nrow, a.ln1_rstd + l * Nrow, N, C);
  }
  // pass 1: tokens and positions
  encoder_backward(g.wte, g.wpe, d.encoded, inputs_.data(), B, T, C);
  return true;
}

// ---- optimisation ---------------------------------------------------------------------------------

void adamw_update(float* params, const float* grads, float* m, float* v, std::size_t count, float lr, float beta1,
                  float beta2, float eps, float weight_decay, int t) noexcept {
  // PyTorch's order: the decay first (param · (1 − lr·wd) is param − lr·wd·param), then Adam's
  // step (core/optim.hpp), the one the training experiment takes
  if (weight_decay != 0.0f) {
    const float keep = 1.0f - lr * weight_decay;
    for (size_t i = 0; i < count; ++i) params[i] *= keep;
  }
  optim::adam_update(params, grads, m, v, count, lr, beta1, beta2, eps, t);
}

void adamw_step(const ModelConfig& c, float* params, const float* grads, float* m, float* v, float lr,
                const AdamWConfig& opt, int t) noexcept {
  uint64_t s[kParamTensors];
  param_sizes(c, s);
  size_t offset = 0;
  for (int i = 0; i < kParamTensors; ++i) {
    adamw_update(params + offset, grads + offset, m + offset, v + offset, s[i], lr, opt.beta1, opt.beta2, opt.eps,
                 kParamDecayed[i] ? opt.weight_decay : 0.0f, t);
    offset += s[i];
  }
}

float learning_rate(int t, int total_steps, int warmup, float lr_max, float lr_min) noexcept {
  if (t < warmup) return lr_max * static_cast<float>(t + 1) / static_cast<float>(warmup);
  const int span = total_steps - 1 - warmup;
  if (span <= 0) return lr_max;
  const double progress = std::min(1.0, static_cast<double>(t - warmup) / span);
  const double pi = 3.14159265358979323846;
  return static_cast<float>(lr_min + 0.5 * (static_cast<double>(lr_max) - lr_min) * (1.0 + std::cos(pi * progress)));
}

}  // namespace lm
}  // namespace attn
