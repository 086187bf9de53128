// The numbers behind each claim of the lesson, computed so a learner can see them:
//   1. Var(q·k) grows in proportion to d_k; Var(q·k/√d_k) stays near 1     (variance lab)
//   2. unscaled scores make softmax extremely peaked (or, shrunk, flat)     (saturation)
//   3. a saturated softmax passes back tiny gradients; scaling keeps them   (gradients)
//   4. each softmax row is positive and sums to 1                           (step by step)
// plus the overflow of a softmax without the max subtraction and multi-head attention.
//
// Dimension names: t tokens (queries = keys, so m = t), d_in token-vector width (100 for
// GloVe), d key width d_k, h heads. Arrays are row-major float32. These functions are plain
// scalar code — readable first; they are small next to the attention kernels they call.
// Unlike attention.hpp they may allocate scratch (std::vector); the binding catches
// std::bad_alloc. Every function validates its arguments and reports problems through
// Error, never by throwing.
//
// Token pipeline shared by every instrument (so the views agree with each other):
//   x̂ = LayerNorm(x) row-wise (mean 0, variance 1 per token, no gain or bias), as a
//        transformer normalises before attention — this makes the components of q and k
//        have variance 1, the premise of the 1/√d_k argument;
//   Q = x̂ W_Q, K = x̂ W_K, V = x̂ W_V, with W ~ N(0, 1/d_in) (random_projection), seeded by
//        projection_seed(seed, head, role, d). Then Var(q_c) = |x̂|²/d_in = 1 exactly over W.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attention.hpp"

namespace attn {

// ---- thresholds of the regimes the saturation plot marks --------------------------------
// "Extremely peaked": one key takes more than 99 % of the attention, so the row is
// practically a hard lookup and its softmax Jacobian is close to zero.
constexpr float kPeakedMaxWeight = 0.99f;
// "Nearly flat": entropy above 98 % of its maximum ln m, i.e. practically a uniform average
// where the scores barely matter. Not 95 %: with the lesson's untrained random projections,
// scaled rows are merely spread out (entropy ~ 0.9 ln m) and 95 % would already flag many of them.
constexpr float kFlatEntropyFraction = 0.98f;
// ln(FLT_MAX): a float32 exp(z) is +Infinity for z above this (the naive softmax breaks).
constexpr float kExpOverflowThreshold = 88.7228394f;

// ---- limits (keep the work of one call interactive and the index arithmetic small) -------
constexpr int kMaxLessonTokens = 256;
constexpr int kMaxLessonWidth = 4096;      // d_k and d_in
constexpr int kMaxLessonSamples = 1 << 20;  // samples of q·k per width
constexpr int kMaxSweepWidths = 64;         // widths in one sweep
constexpr int kMaxDraws = 64;               // projection draws averaged per width
constexpr int kMaxHeads = 8;
constexpr int kMaxBins = 1024;

enum class Regime : int32_t { balanced = 0, peaked = 1, flat = 2 };

// peaked when max_weight > kPeakedMaxWeight, flat when m ≥ 2 and entropy > kFlatEntropyFraction·ln m.
Regime classify_row(float max_weight, float entropy, int m);

// ln m: the entropy of a uniform row of m weights, the largest any row of m can have.
float max_entropy(int m);

// √d: the standard deviation of q·k for i.i.d. N(0,1) components of width d, which 1/√d undoes.
float sqrt_d(int d);

// ---- seeds -------------------------------------------------------------------------------
enum class Role : std::uint32_t { query = 0, key = 1, value = 2, dot_sample = 3, upstream = 4 };

// A 64-bit seed for one stream, mixed (splitmix64) from the user's seed and what the stream
// is for: (role, a, b) = (query|key|value, head, d), (dot_sample, 0, d) or (upstream, row, m).
std::uint64_t derive_seed(std::uint32_t seed, Role role, std::uint32_t a, std::uint32_t b);

// ---- 1. variance ---------------------------------------------------------------------------

// count pairs q, k with i.i.d. N(0,1) float32 components, from one Rng(derive_seed(seed,
// dot_sample, 0, d)) stream: for each sample, d normals of q then d normals of k.
// dots[s] = q·k (summed in double, stored as float), scaled[s] = q·k / √d. `scaled` may be null.
bool sample_dots(std::uint32_t seed, int d, int count, float* dots, float* scaled, Error* err);

// Sample mean and unbiased variance (n − 1), accumulated in double. count ≥ 2.
bool sample_moments(const float* x, int count, double* mean, double* variance, Error* err);

// counts[b] = #{x : lo + b·w ≤ x < lo + (b+1)·w}, w = (hi − lo)/bins, the last bin closed at hi;
// *below / *above count x < lo / x > hi. Hence Σ counts + below + above = count. Counts are
// floats (exact below 2^24 ≥ kMaxLessonSamples). NaN input fails.
bool histogram(const float* x, int count, float lo, float hi, int bins, float* counts, float* below, float* above,
               Error* err);

// Measured Var(q·k) and Var(q·k/√d) (sample_dots + sample_moments) for each width dims[i].
// Expected: d and 1. Relative standard error of each ≈ √((2 + 6/d) / samples).
bool dot_variance_curve(std::uint32_t seed, const int* dims, int count_dims, int samples, float* var_unscaled,
                        float* var_scaled, Error* err);

// Histograms of the samples of sample_dots at one width, with their moments: the unscaled
// q·k and the scaled q·k/√d, each over its own range [lo, hi] (an input: a layout choice).
struct DotHistogram {
  float lo = 0, hi = 0;  // in: the range the bins divide
  float* counts = nullptr;  // out: bins (see histogram)
  float below = 0, above = 0;
  double mean = 0, variance = 0;
};
bool dot_histograms(std::uint32_t seed, int d, int samples, int bins, DotHistogram& unscaled, DotHistogram& scaled,
                    Error* err);
// The range a histogram of width d shows when the caller picks none: ±4 standard deviations,
// ±4√d for q·k and ±4 for q·k/√d, so all but ~6e-5 of the samples fall inside.
constexpr float kDotRangeStdDevs = 4.0f;
void default_dot_range(int d, bool scaled, float* lo, float* hi);

// The same for a real sentence: for each width d and each draw r < draws, Q and K of head r
// (head_projections) give t² dot products; the variance is taken over all draws·t² of them
// (pooled mean, n − 1). Expected: d and 1 (see the pipeline above). draws > 1 averages out
// the dependence between the t² products of one draw.
bool token_dot_variance_curve(const float* x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                              int draws, float* var_unscaled, float* var_scaled, Error* err);

// ---- the token pipeline ------------------------------------------------------------------

// out (t×d) = (x − mean) / √(var + 1e-5) per row (population variance); out may alias x.
bool layer_norm_rows(const float* x, int t, int d, float* out, Error* err);

// Q, K (and V unless v is null), each t×d, of head `head` (see the pipeline above):
// project_head(x, head_weights(seed, head, d)). The one construction of Q and K from word
// vectors: the sweeps use it for every width, the page's Random mode for its own.
bool head_projections(const float* x, int t, int d_in, std::uint32_t seed, int head, int d, float* q, float* k,
                      float* v, Error* err);

// The two halves of head_projections, for a caller that keeps the weights of a (seed, d)
// while x changes (the page, as the learner types): W_Q, W_K (and W_V unless wv is null),
// each d_in×d, seeded by derive_seed(seed, query|key|value, head, d) ...
bool head_weights(std::uint32_t seed, int head, int d_in, int d, float* wq, float* wk, float* wv, Error* err);
// ... and Q = LayerNorm(x) W_Q, K = LayerNorm(x) W_K (V = LayerNorm(x) W_V unless v is null).
bool project_head(const float* x, int t, int d_in, const float* wq, const float* wk, const float* wv, int d, float* q,
                  float* k, float* v, Error* err);

// ---- 2 and 3. saturation and gradients ------------------------------------------------------

// Softmax Jacobian of one row, jac (m×m): ∂pᵢ/∂zⱼ = pᵢ(δᵢⱼ − pⱼ), i.e. diag(p) − p pᵀ.
bool softmax_jacobian(const float* p, int m, float* jac, Error* err);

// Backward pass of softmax for one row (llm.c naming: d = gradient): given p = softmax(z)
// and dp = ∂L/∂p, dz = ∂L/∂z = Jᵀ dp = p ⊙ (dp − ⟨p, dp⟩). A one-hot p gives dz = 0.
bool softmax_backward(const float* p, const float* dp, int m, float* dz, Error* err);

// The fixed upstream gradient g (m) of row `row`: N(0,1), seeded by derive_seed(seed,
// upstream, row, m). It stands for whatever the rest of the network sends back into p.
void upstream_gradient(std::uint32_t seed, int row, int m, float* g);

// Per row, for one scaling, as a function of the width: what the learner's sentence does
// to softmax when the scores are q·k (unscaled) or q·k/√d (scaled).
struct SweepRows {    // each count_dims×t, row-major by width
  float* max_weight;  // maxⱼ pᵢⱼ
  float* entropy;     // −Σⱼ pᵢⱼ ln pᵢⱼ (nats)
  float* regime;      // classify_row as a float code (0 balanced, 1 peaked, 2 flat)
  float* grad_norm;   // ‖∂L/∂zᵢ‖₂ for L = ⟨gᵢ, pᵢ⟩, gᵢ = upstream_gradient(seed, i, t)
};
struct SweepSummary {     // each count_dims: the same, over the t rows
  float* mean_max_weight;
  float* mean_entropy;
  float* mean_grad_norm;
  float* fraction_peaked;
  float* fraction_flat;
  float* peaked_count = nullptr;  // optional: how many of the t rows are peaked
  float* flat_count = nullptr;    // optional: how many are flat
};

// Scores z = scale · Q Kᵀ of head 0 (scale 1/√d when `scaled`, else 1), p = softmax(z) row-wise
// by attention_forward, for each width dims[c].
//
// Why L = ⟨g, p⟩ with a fixed seeded g: the loss is linear in p, so ∂L/∂z = Jᵀg measures only
// how much signal the softmax itself lets through — the same g is used for every width and
// both scalings, and a saturated row (p one-hot, J → 0) visibly kills it, while a uniform row
// passes (g − mean g)/m. A gradient with respect to q would mix in |k| (which grows like √d)
// and hide the effect the lesson is about.
bool saturation_sweep(const float* x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                      bool scaled, SweepRows rows, SweepSummary summary, Error* err);

// ---- 4. step by step -------------------------------------------------------------------------

// Every intermediate of one query row against m keys, in float32, summed left to right (so
// each printed number is what the next step used). `key` picks the (query, key) pair whose
// element-wise product is shown. The softmax steps are those of softmax_row_ref (the
// specification attention_forward is tested against), so the weights, max weight and entropy
// are the attention page's own for the same q, k, scaling, temperature and mask.
struct StepTrace {
  float* product;  // d: q ∘ k_key
  float* scores;   // m: scale · Σ_c q_c k_jc for a visible key j, -INFINITY for a hidden one
  float* shifted;  // m: (scores − max) / T ≤ 0
  float* exps;     // m: exp(shifted) ∈ [0, 1], the max maps to 1, a hidden key to 0
  float* weights;  // m: exps / sum
  float dot = 0;   // Σ_c product_c = q·k_key
  float scale = 0; // 1/√d when scaled, else 1
  float row_max = 0;
  float sum = 0;   // Σⱼ exps ≥ 1
  float weight_sum = 0;  // Σⱼ weights (≈ 1: a probability distribution)
  float max_weight = 0;  // maxⱼ weights
  float entropy = 0;     // −Σⱼ pⱼ ln pⱼ (nats), computed as softmax_row_ref does
  float sqrt_d = 0;      // √d, whether or not the scores were scaled by its inverse
  float min_weight = 0;  // the smallest weight of a visible key (> 0 unless exp underflowed)
};
// temperature T > 0 divides the scores (softmax(z/T)); keys j ≥ `visible` are hidden (the
// causal mask of query row i is visible = i + 1; no mask: visible = m). 1 ≤ visible ≤ m.
bool step_by_step(const float* q, const float* k, int m, int d, int key, bool scaled, float temperature, int visible,
                  StepTrace& out, Error* err);

// ‖∂L/∂z‖₂ of one softmax row p (m) for L = ⟨g, p⟩, g = upstream_gradient(seed, row, m): the
// "gradient size" of the lesson, for a row of the sweep or of the page's own attention.
bool softmax_gradient_norm(const float* p, int m, std::uint32_t seed, int row, float* norm, Error* err);

// ---- temperature and overflow -------------------------------------------------------------

// THE BROKEN NAIVE VERSION, for the overflow demonstration only: zt = z/T, exps = exp(zt)
// with no max subtracted, sum = Σ exps, weights = exps / sum, all float32. Past
// kExpOverflowThreshold an exp is +Infinity, the sum is +Infinity and weights become NaN
// (∞/∞) or 0: these raw values are returned as they are so the page can show the failure.
// z must be finite (or -Infinity); T positive and finite. Optionally: *largest = maxⱼ zt, and
// *overflowed = true when the sum or any weight is not finite (the failure the demo shows).
bool softmax_naive(const float* z, int m, float temperature, float* zt, float* exps, float* sum, float* weights,
                   Error* err, float* largest = nullptr, bool* overflowed = nullptr);

// ---- multi-head ----------------------------------------------------------------------------

struct MultiHeadResult {
  float* weights;     // h×t×t: head r's attention weights
  float* entropy;     // h×t
  float* max_weight;  // h×t
  float* concat;      // t×(h·d): [head 0 output | head 1 output | …], head r output = P_r V_r
};

// h heads, each with its own projections (head_projections(…, head r, d, …)), scores scaled
// by 1/√d when `scaled`. Concat(head_1…head_h) is returned before any output projection W_O.
bool multi_head(const float* x, int t, int d_in, std::uint32_t seed, int heads, int d, bool scaled,
                MultiHeadResult out, Error* err);

}  // namespace attn
