// A small decoder-only word-level transformer language model (GPT-2's shape), trained by our own
// forward and hand-written backward pass: the trained model of issue 20 and its twin.
//
// THE MODEL, for B sequences of T tokens (row-major float32 throughout; dimension names B
// batch, T positions, V vocabulary, C = d_model, L layers, H heads, hs = C/H head width,
// F = 4C the MLP's hidden width):
//   x⁰ (B×T×C) = wte[token] + wpe[position]
//   per layer l:
//     a    = layernorm(xˡ; ln1w, ln1b)                      (B×T×C)
//     qkv  = a · qkvw + qkvb                                (B×T×3C: q, then k, then v)
//     per head h: w = softmax(scale · q_h k_hᵀ), causal     (B×H×T×T)
//                 y_h = w v_h                               (B×T×hs, into y at h·hs)
//     r    = xˡ + y · attprojw + attprojb                   (B×T×C)
//     m    = layernorm(r; ln2w, ln2b)
//     xˡ⁺¹ = r + gelu(m · fcw + fcb) · fcprojw + fcprojb    (fcw C×F, fcprojw F×C)
//   f = layernorm(xᴸ; lnfw, lnfb);  logits (B×T×V) = f · wteᵀ (the output tied to the embedding)
//   loss = mean over the B·T positions of −log softmax(logits)[target]
// scale = 1/√hs (config.scaled) or 1: the twins differ there and nowhere else. layernorm(x) =
// (x − mean)/√(var + 1e-5) · w + b over the C channels (var the biased variance); gelu is the tanh
// approximation 0.5x(1 + tanh(√(2/π)(x + 0.044715x³))). Weights are stored in × out, so a linear
// layer is x · W.
//
// PARAMETERS: one block of floats, the 16 tensors of ParamTensors in that order (the size table
// param_sizes; llm.c's malloc_and_point_parameters). Per-layer tensors hold their L layers one
// after another. The same layout serves the gradients and AdamW's two moments.
//
// INITIALISATION (init_params), from one seed, tensor by tensor in the layout's order, entry by
// entry, one Rng::normal() per entry drawn only for the normal tensors: wte, wpe, qkvw, attprojw,
// fcw, fcprojw ~ N(0, 0.02²), except the two projections into the residual stream (attprojw,
// fcprojw) at 0.02/√(2L) (GPT-2); biases 0; layernorm weights 1.
//
// Nothing here throws; create() allocates everything, forward(), backward() and update()
// allocate nothing. The same source builds natively and in both WebAssembly builds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/check.hpp"

namespace attn {
namespace lm {

struct ModelConfig {
  int vocab = 0;    // V
  int context = 0;  // the longest T
  int layers = 0;   // L
  int heads = 0;    // H
  int d_model = 0;  // C, a multiple of H
  bool scaled = true;  // scores × 1/√hs (the scaled twin) or × 1 (the unscaled twin)
};

// ---- limits (validate_config) ------------------------------------------------------------------
constexpr int kMaxVocab = 1 << 16;
constexpr int kMaxContext = 1024;
constexpr int kMaxLayers = 32;
constexpr int kMaxHeads = 64;
constexpr int kMaxDModel = 2048;
constexpr int kMaxBatch = 1024;
constexpr float kLayerNormEps = 1e-5f;
constexpr double kInitStd = 0.02;

inline int head_width(const ModelConfig& c) { return c.d_model / c.heads; }
// 1/√hs for the scaled twin, 1 for the unscaled one.
float score_scale(const ModelConfig& c) noexcept;

// ---- parameters: the size table and the pointers into one block --------------------------------
constexpr int kParamTensors = 16;
struct ParamTensors {
  float* wte;       // V×C
  float* wpe;       // context×C
  float* ln1w;      // L×C
  float* ln1b;      // L×C
  float* qkvw;      // L×C×3C
  float* qkvb;      // L×3C
  float* attprojw;  // L×C×C
  float* attprojb;  // L×C
  float* ln2w;      // L×C
  float* ln2b;      // L×C
  float* fcw;       // L×C×F
  float* fcb;       // L×F
  float* fcprojw;   // L×F×C
  float* fcprojb;   // L×C
  float* lnfw;      // C
  float* lnfb;      // C
};
extern const char* const kParamNames[kParamTensors];
// Whether AdamW decays a tensor: the matrices and embeddings yes, biases and layernorm no.
extern const bool kParamDecayed[kParamTensors];
void param_sizes(const ModelConfig& c, std::uint64_t sizes[kParamTensors]);
std::uint64_t param_count(const ModelConfig& c);
// Points the 16 tensors into `block` (param_count floats) in the table's order.
ParamTensors point_params(const ModelConfig& c, float* block);
inline float* const* tensor_array(const ParamTensors& t) { return &t.wte; }  // in table order

// Draws the initial parameters into `params` (see INITIALISATION).
void init_params(const ModelConfig& c, std::uint64_t seed, float* params);

// ---- activations: the same, for up to B×T positions --------------------------------------------
constexpr int kActTensors = 22;
struct ActTensors {
  float* encoded;    // B×T×C: x⁰
  float* ln1;        // L×B×T×C
  float* ln1_mean;   // L×B×T
  float* ln1_rstd;   // L×B×T
  float* qkv;        // L×B×T×3C
  float* atty;       // L×B×T×C: y, the heads' outputs side by side
  float* att;        // L×B×H×T×T: the attention weights (0 above the diagonal)
  float* attproj;    // L×B×T×C
  float* residual2;  // L×B×T×C: r
  float* ln2;        // L×B×T×C
  float* ln2_mean;   // L×B×T
  float* ln2_rstd;   // L×B×T
  float* fch;        // L×B×T×F
  float* fch_gelu;   // L×B×T×F
  float* fcproj;     // L×B×T×C
  float* residual3;  // L×B×T×C: xˡ⁺¹
  float* lnf;        // B×T×C
  float* lnf_mean;   // B×T
  float* lnf_rstd;   // B×T
  float* probs;      // B×T×V: the logits, then their softmax in place (backward: the logits' gradient)
  float* losses;     // B×T
  float* scratch;    // per-head work: max(T×T + hs×T, F×C) floats
};
void act_sizes(const ModelConfig& c, int B, int T, std::uint64_t sizes[kActTensors]);

// ---- the model --------------------------------------------------------------------------------
// Checks every field: ranges, d_model a multiple of heads (invalid_shape / invalid_argument).
bool validate_config(const ModelConfig& c, Error* err) noexcept;

class Model {
 public:
  // Validates the config, checks the memory (params, grads, activations and their gradients for
  // max_batch × context positions) against the budget and allocates; false + err on failure.
  // With for_training false (a model only read, as the page's), no gradients are reserved and
  // backward() is refused: about half the memory.
  bool create(const ModelConfig& config, int max_batch, Error* err, bool for_training = true) noexcept;
  // Bytes create() reserves, computed in 64 bits without allocating.
  static std::uint64_t bytes(const ModelConfig& config, int max_batch);

  const ModelConfig& config() const { return config_; }
  void set_scaled(bool scaled) { config_.scaled = scaled; }
  std::size_t size() const { return params_.size(); }
  float* params() { return params_.data(); }
  const float* params() const { return params_.data(); }
  float* grads() { return grads_.data(); }
  const float* grads() const { return grads_.data(); }
  ParamTensors param_tensors() { return point_params(config_, params_.data()); }
  ParamTensors grad_tensors() { return point_params(config_, grads_.data()); }

  // Forward on B sequences of T tokens (B×T, row-major), each token in 0…V−1. With targets
  // (B×T, the next token of each position) *loss gets the mean cross-entropy (nats); without,
  // *loss is NaN and only the probabilities are computed. Checks B, T and every token (the
  // first out of range is named); false + err leaves the activations unspecified.
  bool forward(const std::int32_t* inputs, const std::int32_t* targets, int B, int T, float* loss,
               Error* err) noexcept;
  // Inference on one sequence of T tokens: the same forward pass, but the logits and
  // probabilities of `position` (0 … T−1) alone, the next-token distribution after it: probs()
  // holds V numbers, attention(l) every layer's weights (1×H×T×T). The output layer is most of
  // a forward pass (T·C·V multiply-adds for all positions, C·V for one); backward() is refused after.
  bool predict(const std::int32_t* inputs, int T, int position, Error* err) noexcept;
  // Gradients of the last forward's mean loss (with targets) with respect to every parameter:
  // grads() is overwritten. Consumes the probabilities (probs() afterwards holds dlogits).
  // Refused (false + err) when the last forward had no targets or failed.
  bool backward(Error* err) noexcept;

  // The last forward's arrays: probabilities B×T×V, the attention weights of layer l (B×H×T×T,
  // at the T of that call), ∂loss/∂x⁰ (B×T×C: the gradient of the input embeddings, after
  // backward).
  const float* probs() const { return acts_.probs; }
  // After predict(): the V logits of its position (before the softmax).
  const float* logits() const { return logits_.data(); }
  const float* attention(int layer) const;
  const float* dencoded() const { return grad_acts_.encoded; }
  const float* losses() const { return acts_.losses; }
  int last_batch() const { return B_; }
  int last_length() const { return T_; }

 private:
  // forward() (position −1: every position's logits) and predict() (that position's only)
  bool run(const std::int32_t* inputs, const std::int32_t* targets, int B, int T, int position, float* loss,
           Error* err) noexcept;
  ModelConfig config_;
  int max_batch_ = 0;
  int B_ = 0, T_ = 0;
  bool has_targets_ = false;
  bool for_training_ = true;
  std::vector<float> params_, grads_, act_memory_, grad_act_memory_, logits_;
  std::vector<std::int32_t> inputs_, targets_;
  ActTensors acts_{}, grad_acts_{};
};

// What each head does, measured from its weights (profile, role, induction): heads.hpp.

// ---- optimisation -----------------------------------------------------------------------------

// AdamW (Loshchilov & Hutter; PyTorch's AdamW), step t ≥ 1:
//   m = β1·m + (1−β1)·g,  v = β2·v + (1−β2)·g²,
//   param −= lr · ( (m / (1−β1ᵗ)) / (√(v / (1−β2ᵗ)) + eps) + weight_decay · param )
void adamw_update(float* params, const float* grads, float* m, float* v, std::size_t count, float lr, float beta1,
                  float beta2, float eps, float weight_decay, int t) noexcept;

struct AdamWConfig {
  float beta1 = 0.9f, beta2 = 0.95f, eps = 1e-8f;
  float weight_decay = 0.1f;  // on the tensors kParamDecayed marks
};
// One AdamW step over a model's block, tensor by tensor (weight decay only where kParamDecayed).
void adamw_step(const ModelConfig& c, float* params, const float* grads, float* m, float* v, float lr,
                const AdamWConfig& opt, int t) noexcept;

// Learning rate of step t (0-based) of `total`: linear warm-up lr_max·(t+1)/warmup for
// t < warmup, then cosine from lr_max down to lr_min at t = total − 1:
//   lr_min + ½(lr_max − lr_min)(1 + cos(π · (t − warmup)/(total − 1 − warmup))).
float learning_rate(int t, int total, int warmup, float lr_max, float lr_min) noexcept;

}  // namespace lm
}  // namespace attn
