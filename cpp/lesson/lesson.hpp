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
// Unlike attention.hpp they may allocate scratch (std::vector), bounded by the limits below
// (at most 3 · 4096² floats, 192 MB, well within the memory budget); the binding catches
// std::bad_alloc. Every function validates its arguments through its validate_* twin (the
// binding calls that first, to reserve its outputs only for a valid call, then the function's
// _validated variant, which does not check them again: unvalidated arguments are undefined
// behaviour there) and reports problems through Error, never by throwing.
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

#include "core/attention.hpp"

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
Regime classify_row(float max_weight, float entropy, int m) noexcept;

// ln m: the entropy of a uniform row of m weights, the largest any row of m can have.
float max_entropy(int m) noexcept;

// √d: the standard deviation of q·k for i.i.d. N(0,1) components of width d, which 1/√d undoes.
float sqrt_d(int d) noexcept;

// ---- seeds -------------------------------------------------------------------------------
enum class Role : std::uint32_t { query = 0, key = 1, value = 2, dot_sample = 3, upstream = 4 };

// A 64-bit seed for one stream, mixed (splitmix64) from the user's seed and what the stream
// is for: (role, a, b) = (query|key|value, head, d), (dot_sample, 0, d) or (upstream, row, m).
std::uint64_t derive_seed(std::uint32_t seed, Role role, std::uint32_t a, std::uint32_t b) noexcept;

// ---- 1. variance ---------------------------------------------------------------------------

// count pairs q, k with i.i.d. N(0,1) float32 components, from one Rng(derive_seed(seed,
// dot_sample, 0, d)) stream: for each sample, d normals of q then d normals of k.
// dots[s] = q·k (summed in double, stored as float), scaled[s] = q·k / √d. `scaled` may be null.
bool sample_dots(std::uint32_t seed, int d, int count, float* dots, float* scaled, Error* err) noexcept;

// Sample mean and unbiased variance (n − 1), accumulated in double. count ≥ 2.
bool sample_moments(const float* x, int count, double* mean, double* variance, Error* err) noexcept;

// counts[b] = #{x : lo + b·w ≤ x < lo + (b+1)·w}, w = (hi − lo)/bins, the last bin closed at hi;
// *below / *above count x < lo / x > hi. Hence Σ counts + below + above = count. Counts are
// floats (exact below 2^24 ≥ kMaxLessonSamples). NaN input fails.
bool histogram(const float* x, int count, float lo, float hi, int bins, float* counts, float* below, float* above,
               Error* err) noexcept;

// Measured Var(q·k) and Var(q·k/√d) (sample_dots + sample_moments) for each width dims[i].
// Expected: d and 1. Relative standard error of each ≈ √((2 + 6/d) / samples).
bool dot_variance_curve(std::uint32_t seed, const int* dims, int count_dims, int samples, float* var_unscaled,
                        float* var_scaled, Error* err);
bool dot_variance_curve_validated(std::uint32_t seed, const int* dims, int count_dims, int samples, float* var_unscaled,
                                  float* var_scaled, Error* err);
bool validate_dot_variance_curve(const int* dims, int count_dims, int samples, Error* err) noexcept;

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
bool dot_histograms_validated(std::uint32_t seed, int d, int samples, int bins, DotHistogram& unscaled,
                              DotHistogram& scaled, Error* err);
bool validate_dot_histograms(int d, int samples, int bins, const DotHistogram& unscaled, const DotHistogram& scaled,
                             Error* err) noexcept;
// The range a histogram of width d shows when the caller picks none: ±4 standard deviations,
// ±4√d for q·k and ±4 for q·k/√d, so all but ~6e-5 of the samples fall inside.
constexpr float kDotRangeStdDevs = 4.0f;
void default_dot_range(int d, bool scaled, float* lo, float* hi) noexcept;

// The same for a real sentence: for each width d and each draw r < draws, Q and K of head r
// (head_projections) give t² dot products; the variance is taken over all draws·t² of them
// (pooled mean, n − 1). Expected: d and 1 (see the pipeline above). draws > 1 averages out
// the dependence between the t² products of one draw.
bool token_dot_variance_curve(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims, int draws,
                              float* var_unscaled, float* var_scaled, Error* err);
bool token_dot_variance_curve_validated(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                                        int draws, float* var_unscaled, float* var_scaled, Error* err);
bool validate_token_dot_variance_curve(Input x, int t, int d_in, const int* dims, int count_dims, int draws,
                                       Error* err) noexcept;

// ---- the token pipeline ------------------------------------------------------------------

// out (t×d) = (x − mean) / √(var + 1e-5) per row (population variance); out may alias x.
bool layer_norm_rows(const float* x, int t, int d, float* out, Error* err) noexcept;

// Q, K (and V unless v is null), each t×d, of head `head` (see the pipeline above):
// project_head(x, head_weights(seed, head, d)). The one construction of Q and K from word
// vectors: the sweeps use it for every width, the page's Random mode for its own.
bool head_projections(Input x, int t, int d_in, std::uint32_t seed, int head, int d, float* q, float* k, float* v,
                      Error* err);
bool head_projections_validated(Input x, int t, int d_in, std::uint32_t seed, int head, int d, float* q, float* k,
                                float* v, Error* err);
bool validate_head_projections(Input x, int t, int d_in, int head, int d, Error* err) noexcept;

// The two halves of head_projections, for a caller that keeps the weights of a (seed, d)
// while x changes (the page, as the learner types): W_Q, W_K (and W_V unless wv is null),
// each d_in×d, seeded by derive_seed(seed, query|key|value, head, d) ...
bool head_weights(std::uint32_t seed, int head, int d_in, int d, float* wq, float* wk, float* wv, Error* err);
bool head_weights_validated(std::uint32_t seed, int head, int d_in, int d, float* wq, float* wk, float* wv, Error* err);
bool validate_head_weights(int head, int d_in, int d, Error* err) noexcept;
// ... and Q = LayerNorm(x) W_Q, K = LayerNorm(x) W_K (V = LayerNorm(x) W_V unless v is null).
// Weights finite; fails with overflow when a projection leaves float32.
bool project_head(Input x, int t, int d_in, Input wq, Input wk, Input wv, int d, float* q, float* k, float* v,
                  Error* err);
bool project_head_validated(Input x, int t, int d_in, Input wq, Input wk, Input wv, int d, float* q, float* k, float* v,
                            Error* err);
bool validate_project_head(Input x, int t, int d_in, Input wq, Input wk, Input wv, int d, Error* err) noexcept;

// ---- 2 and 3. saturation and gradients ------------------------------------------------------

// Softmax Jacobian of one row, jac (m×m): ∂pᵢ/∂zⱼ = pᵢ(δᵢⱼ − pⱼ), i.e. diag(p) − p pᵀ.
// p holds probabilities (numbers from 0 to 1), so every entry is in [−1, 1].
bool softmax_jacobian(const float* p, int m, float* jac, Error* err) noexcept;
bool softmax_jacobian_validated(const float* p, int m, float* jac, Error* err) noexcept;
bool validate_softmax_jacobian(const float* p, int m, Error* err) noexcept;

// Backward pass of softmax for one row (llm.c naming: d = gradient): given p = softmax(z)
// (probabilities) and dp = ∂L/∂p (finite), dz = ∂L/∂z = Jᵀ dp = p ⊙ (dp − ⟨p, dp⟩). A one-hot p
// gives dz = 0. Fails with overflow when dz leaves float32 (|dp| near 3.4e38).
bool softmax_backward(const float* p, Input dp, int m, float* dz, Error* err) noexcept;
bool softmax_backward_validated(const float* p, Input dp, int m, float* dz, Error* err) noexcept;
bool validate_softmax_backward(const float* p, Input dp, int m, Error* err) noexcept;

// The fixed upstream gradient g (m) of row `row`: N(0,1), seeded by derive_seed(seed,
// upstream, row, m). It stands for whatever the rest of the network sends back into p.
// A building block (no checks); validate_upstream_gradient checks row and m.
void upstream_gradient(std::uint32_t seed, int row, int m, float* g) noexcept;
bool validate_upstream_gradient(int row, int m, Error* err) noexcept;

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
bool saturation_sweep(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims, bool scaled,
                      SweepRows rows, SweepSummary summary, Error* err);
bool saturation_sweep_validated(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                                bool scaled, SweepRows rows, SweepSummary summary, Error* err);
bool validate_saturation_sweep(Input x, int t, int d_in, const int* dims, int count_dims, Error* err) noexcept;

// The trend under the jumps of one projection, for the saturation exercise: for each width
// dims[c], each row's largest weight averaged over `draws` projections (heads 0 … draws − 1 of
// head_projections; head 0 is the sweep's and the lab's Random projection), scores q·k/√d when
// `scaled`, else q·k. Each width draws its own W_Q and W_K, so one draw's rows jump from width
// to width; the mean over draws and rows follows the spread of q·k, which grows with d.
// max_weight is count_dims×t (row-major by width), mean_max_weight (count_dims) its mean over
// the rows, and *first_above the first c whose mean passes `threshold` (> threshold, a weight
// strictly between 0 and 1), or −1.
bool saturation_trend(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims, int draws,
                      bool scaled, float threshold, float* max_weight, float* mean_max_weight, int* first_above,
                      Error* err);
bool saturation_trend_validated(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                                int draws, bool scaled, float threshold, float* max_weight, float* mean_max_weight,
                                int* first_above, Error* err);
bool validate_saturation_trend(Input x, int t, int d_in, const int* dims, int count_dims, int draws, float threshold,
                               Error* err) noexcept;

// ---- 4. step by step -------------------------------------------------------------------------

// Every intermediate of one query row against m keys, in float32, the dot products summed left
// to right (dot_ref: each printed number is what the next step used). `key` picks the (query,
// key) pair whose element-wise product is shown. The softmax steps are the trace of
// softmax_row_ref (the specification attention_forward is tested against): the weights, max
// weight and entropy are the reference's bit for bit, and the attention page's for the same q,
// k, scaling, temperature and mask up to the SIMD kernel's rounding.
struct StepTrace {
  float* product;  // d: q ∘ k_key
  float* scores;   // m: scale · Σ_c q_c k_jc for a visible key j, -INFINITY for a hidden one
  float* shifted;  // m: (scores − max) / T ≤ 0
  float* exps;     // m: exp(shifted) ∈ [0, 1], the max maps to 1, a hidden key to 0
  float* weights;  // m: exps · (1 / sum)
  float dot = 0;   // Σ_c product_c = q·k_key
  float scale = 0; // 1/√d when scaled, else 1
  float row_max = 0;
  float sum = 0;         // Σⱼ exps ≥ 1 (summed in double, then rounded)
  float weight_sum = 0;  // Σⱼ weights summed in double (≈ 1: a probability distribution)
  float max_weight = 0;  // maxⱼ weights
  float entropy = 0;     // −Σⱼ pⱼ ln pⱼ (nats), computed as softmax_row_ref does
  float sqrt_d = 0;      // √d, whether or not the scores were scaled by its inverse
  float min_weight = 0;  // the smallest weight of a visible key (> 0 unless exp underflowed)
};
// temperature T > 0 divides the scores (softmax(z/T)); keys j ≥ `visible` are hidden (the
// causal mask of query row i is visible = i + 1; no mask: visible = m). 1 ≤ visible ≤ m.
bool step_by_step(Input q, Input k, int m, int d, int key, bool scaled, float temperature, int visible, StepTrace& out,
                  Error* err);
bool step_by_step_validated(Input q, Input k, int m, int d, int key, bool scaled, float temperature, int visible,
                            StepTrace& out, Error* err);
bool validate_step_by_step(Input q, Input k, int m, int d, int key, float temperature, int visible,
                           Error* err) noexcept;

// ‖∂L/∂z‖₂ of one softmax row p (m) for L = ⟨g, p⟩, g = upstream_gradient(seed, row, m): the
// "gradient size" of the lesson, for a row of the sweep or of the page's own attention.
bool softmax_gradient_norm(const float* p, int m, std::uint32_t seed, int row, float* norm, Error* err);
bool softmax_gradient_norm_validated(const float* p, int m, std::uint32_t seed, int row, float* norm, Error* err);
bool validate_softmax_gradient_norm(const float* p, int m, int row, Error* err) noexcept;

// ---- temperature and overflow -------------------------------------------------------------

// THE BROKEN NAIVE VERSION, for the overflow demonstration only: zt = z/T, exps = exp(zt)
// with no max subtracted, sum = Σ exps, weights = exps / sum, all float32. Past
// kExpOverflowThreshold an exp is +Infinity, the sum is +Infinity and weights become NaN
// (∞/∞) or 0: these raw values are returned as they are so the page can show the failure.
// z must be finite (or -Infinity); T positive and finite. Optionally: *largest = maxⱼ zt, and
// *overflowed = true when the sum or any weight is not finite (the failure the demo shows).
bool softmax_naive(const float* z, int m, float temperature, float* zt, float* exps, float* sum, float* weights,
                   Error* err, float* largest = nullptr, bool* overflowed = nullptr) noexcept;
bool softmax_naive_validated(const float* z, int m, float temperature, float* zt, float* exps, float* sum,
                             float* weights, Error* err, float* largest = nullptr, bool* overflowed = nullptr) noexcept;
bool validate_softmax_naive(const float* z, int m, float temperature, Error* err) noexcept;

// ---- multi-head ----------------------------------------------------------------------------

struct MultiHeadResult {
  float* weights;     // h×t×t: head r's attention weights
  float* entropy;     // h×t
  float* max_weight;  // h×t
  float* concat;      // t×(h·d): [head 0 output | head 1 output | …], head r output = P_r V_r
};

// h heads, each with its own projections (head_projections(…, head r, d, …)), scores scaled
// by 1/√d when `scaled`. Concat(head_1…head_h) is returned before any output projection W_O.
bool multi_head(Input x, int t, int d_in, std::uint32_t seed, int heads, int d, bool scaled, MultiHeadResult out,
                Error* err);
bool multi_head_validated(Input x, int t, int d_in, std::uint32_t seed, int heads, int d, bool scaled,
                          MultiHeadResult out, Error* err);
bool validate_multi_head(Input x, int t, int d_in, int heads, int d, Error* err) noexcept;

}  // namespace attn
