// The lesson's measurements (see lesson.hpp). Scalar and direct on purpose: the heavy
// lifting (Q·Kᵀ, softmax, P·V) goes through attention_forward; what is here is bookkeeping
// that a reader should be able to check line by line.
#include "lesson/lesson.hpp"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/embedding.hpp"
#include "core/random.hpp"

namespace attn {
namespace {

bool check_dims(const int* dims, int count_dims, Error* err) noexcept {
  if (!check_dim("the number of widths (dims.length)", count_dims, 1, kMaxSweepWidths, err)) return false;
  if (!dims) return fail(err, Status::invalid_argument, "the list of widths dims is required");
  char name[32];
  for (int c = 0; c < count_dims; ++c) {
    std::snprintf(name, sizeof name, "dims[%d]", c);
    if (!check_dim(name, dims[c], 1, kMaxLessonWidth, err)) return false;
  }
  return true;
}

// x (t×dIn): t tokens of width dIn within the lesson's limits, finite.
bool check_tokens(Input x, int t, int d_in, Error* err) noexcept {
  return check_dim("t (number of tokens)", t, 1, kMaxLessonTokens, err) &&
         check_dim("dIn (token vector width)", d_in, 1, kMaxLessonWidth, err) &&
         check_length("x", x, static_cast<std::uint64_t>(t) * d_in, "t·dIn", err) &&
         check_finite("x", x.data, static_cast<std::size_t>(t), static_cast<std::size_t>(d_in), err);
}

// A row of m probabilities (a softmax row p), m within kMaxDim.
bool check_probability_row(const char* name, const float* p, int m, Error* err) noexcept {
  return check_dim("m (row length)", m, 1, kMaxDim, err) &&
         check_values(name, p, static_cast<std::size_t>(m), 0, Values::probabilities, err);
}

// Unbiased variance of values accumulated as Σx and Σx² in double around a shift (the
// first value), which keeps the subtraction well conditioned.
struct Accumulator {
  double shift = 0, sum = 0, sum_sq = 0;
  long long count = 0;
  void add(double v) {
    if (count == 0) shift = v;
    const double y = v - shift;
    sum += y;
    sum_sq += y * y;
    ++count;
  }
  double mean() const { return shift + sum / count; }
  double variance() const { return (sum_sq - sum * sum / count) / (count - 1); }
};

}  // namespace

Regime classify_row(float max_weight, float entropy, int m) noexcept {
  if (max_weight > kPeakedMaxWeight) return Regime::peaked;
  if (m >= 2 && entropy > kFlatEntropyFraction * max_entropy(m)) return Regime::flat;
  return Regime::balanced;
}

float max_entropy(int m) noexcept { return std::log(static_cast<float>(m)); }

float sqrt_d(int d) noexcept { return static_cast<float>(std::sqrt(static_cast<double>(d))); }

void default_dot_range(int d, bool scaled, float* lo, float* hi) noexcept {
  *hi = kDotRangeStdDevs * (scaled ? 1.0f : sqrt_d(d));
  *lo = -*hi;
}

std::uint64_t derive_seed(std::uint32_t seed, Role role, std::uint32_t a, std::uint32_t b) noexcept {
  // Chained splitmix64: each part perturbs the state, the output scrambles it.
  std::uint64_t h = Rng(seed).next_u64();
  h = Rng(h ^ static_cast<std::uint64_t>(role)).next_u64();
  h = Rng(h ^ a).next_u64();
  return Rng(h ^ b).next_u64();
}

// ---- 1. variance -----------------------------------------------------------------------------

bool sample_dots(std::uint32_t seed, int d, int count, float* dots, float* scaled, Error* err) noexcept {
  if (!check_dim("d (key width)", d, 1, kMaxLessonWidth, err) ||
      !check_dim("the number of samples", count, 1, kMaxLessonSamples, err))
    return false;
  Rng rng(derive_seed(seed, Role::dot_sample, 0, static_cast<std::uint32_t>(d)));
  std::vector<float> q(d), k(d);
  const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
  for (int s = 0; s < count; ++s) {
    for (int c = 0; c < d; ++c) q[c] = static_cast<float>(rng.normal());
    for (int c = 0; c < d; ++c) k[c] = static_cast<float>(rng.normal());
    const double dot = dot_f64(q.data(), k.data(), d);
    dots[s] = static_cast<float>(dot);
    if (scaled) scaled[s] = static_cast<float>(dot * inv_sqrt_d);
  }
  return true;
}

bool sample_moments(const float* x, int count, double* mean, double* variance, Error* err) noexcept {
  if (!check_dim("the number of values", count, 2, kMaxLessonSamples, err)) return false;
  Accumulator acc;
  for (int s = 0; s < count; ++s) acc.add(x[s]);
  *mean = acc.mean();
  *variance = acc.variance();
  return true;
}

bool histogram(const float* x, int count, float lo, float hi, int bins, float* counts, float* below, float* above,
               Error* err) noexcept {
  if (!check_dim("the number of values", count, 0, kMaxLessonSamples, err) ||
      !check_dim("bins", bins, 1, kMaxBins, err))
    return false;
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi)) {
    char lo_text[24], hi_text[24];
    return fail(err, Status::invalid_argument, "a histogram range must be finite with lo < hi, got [%s, %s]",
                number_text(lo, lo_text), number_text(hi, hi_text));
  }
  for (int b = 0; b < bins; ++b) counts[b] = 0;
  *below = 0;
  *above = 0;
  const double width = (static_cast<double>(hi) - lo) / bins;
  for (int s = 0; s < count; ++s) {
    const float v = x[s];
    if (std::isnan(v)) return fail(err, Status::non_finite_input, "value %d is NaN: it belongs to no bin", s);
    if (v < lo) {
      *below += 1;
    } else if (v > hi) {
      *above += 1;
    } else {
      int b = static_cast<int>(std::floor((static_cast<double>(v) - lo) / width));
      if (b >= bins) b = bins - 1;  // v == hi (or rounding at the top edge): the closed last bin
      counts[b] += 1;
    }
  }
  return true;
}

bool validate_dot_variance_curve(const int* dims, int count_dims, int samples, Error* err) noexcept {
  return check_dims(dims, count_dims, err) && check_dim("samples", samples, 2, kMaxLessonSamples, err);
}

bool dot_variance_curve(std::uint32_t seed, const int* dims, int count_dims, int samples, float* var_unscaled,
                        float* var_scaled, Error* err) {
  return validate_dot_variance_curve(dims, count_dims, samples, err) &&
         dot_variance_curve_validated(seed, dims, count_dims, samples, var_unscaled, var_scaled, err);
}

bool dot_variance_curve_validated(std::uint32_t seed, const int* dims, int count_dims, int samples, float* var_unscaled,
                                  float* var_scaled, Error* err) {
  std::vector<float> dots(samples), scaled(samples);
  for (int c = 0; c < count_dims; ++c) {
    double mean, var_u, var_s;
    if (!sample_dots(seed, dims[c], samples, dots.data(), scaled.data(), err) ||
        !sample_moments(dots.data(), samples, &mean, &var_u, err) ||
        !sample_moments(scaled.data(), samples, &mean, &var_s, err))
      return false;
    var_unscaled[c] = static_cast<float>(var_u);
    var_scaled[c] = static_cast<float>(var_s);
  }
  return true;
}

bool validate_dot_histograms(int d, int samples, int bins, const DotHistogram& unscaled, const DotHistogram& scaled,
                             Error* err) noexcept {
  if (!check_dim("d (key width)", d, 1, kMaxLessonWidth, err) ||
      !check_dim("samples", samples, 2, kMaxLessonSamples, err) || !check_dim("bins", bins, 1, kMaxBins, err))
    return false;
  const DotHistogram* hists[2] = {&unscaled, &scaled};
  const char* names[2] = {"range", "scaledRange"};
  for (int h = 0; h < 2; ++h) {
    const float lo = hists[h]->lo, hi = hists[h]->hi;
    if (std::isfinite(lo) && std::isfinite(hi) && lo < hi) continue;
    char lo_text[24], hi_text[24];
    return fail(err, Status::invalid_argument, "%s must be finite with lo < hi, got [%s, %s]", names[h],
                number_text(lo, lo_text), number_text(hi, hi_text));
  }
  return true;
}

bool dot_histograms(std::uint32_t seed, int d, int samples, int bins, DotHistogram& unscaled, DotHistogram& scaled,
                    Error* err) {
  return validate_dot_histograms(d, samples, bins, unscaled, scaled, err) &&
         dot_histograms_validated(seed, d, samples, bins, unscaled, scaled, err);
}

bool dot_histograms_validated(std::uint32_t seed, int d, int samples, int bins, DotHistogram& unscaled,
                              DotHistogram& scaled, Error* err) {
  std::vector<float> dots(samples), scaled_dots(samples);
  if (!sample_dots(seed, d, samples, dots.data(), scaled_dots.data(), err)) return false;
  DotHistogram* hists[2] = {&unscaled, &scaled};
  const float* values[2] = {dots.data(), scaled_dots.data()};
  for (int h = 0; h < 2; ++h) {
    DotHistogram& out = *hists[h];
    if (!histogram(values[h], samples, out.lo, out.hi, bins, out.counts, &out.below, &out.above, err) ||
        !sample_moments(values[h], samples, &out.mean, &out.variance, err))
      return false;
  }
  return true;
}

bool validate_token_dot_variance_curve(Input x, int t, int d_in, const int* dims, int count_dims, int draws,
                                       Error* err) noexcept {
  if (!check_tokens(x, t, d_in, err) || !check_dims(dims, count_dims, err) ||
      !check_dim("draws", draws, 1, kMaxDraws, err))
    return false;
  if (static_cast<long long>(t) * t * draws < 2)
    return fail(err, Status::invalid_shape,
                "a variance needs at least 2 dot products: use t ≥ 2 or draws ≥ 2, got t = %d, draws = %d", t, draws);
  return true;
}

bool token_dot_variance_curve(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims, int draws,
                              float* var_unscaled, float* var_scaled, Error* err) {
  return validate_token_dot_variance_curve(x, t, d_in, dims, count_dims, draws, err) &&
         token_dot_variance_curve_validated(x, t, d_in, seed, dims, count_dims, draws, var_unscaled, var_scaled, err);
}

bool token_dot_variance_curve_validated(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                                        int draws, float* var_unscaled, float* var_scaled, Error* err) {
  for (int c = 0; c < count_dims; ++c) {
    const int d = dims[c];
    std::vector<float> q(static_cast<std::size_t>(t) * d), k(q.size());
    Accumulator unscaled, scaled;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    for (int r = 0; r < draws; ++r) {
      if (!head_projections(x, t, d_in, seed, r, d, q.data(), k.data(), nullptr, err)) return false;
      for (int i = 0; i < t; ++i)
        for (int j = 0; j < t; ++j) {
          const double dot = dot_f64(q.data() + std::size_t(i) * d, k.data() + std::size_t(j) * d, d);
          unscaled.add(dot);
          scaled.add(dot * inv_sqrt_d);
        }
    }
    var_unscaled[c] = static_cast<float>(unscaled.variance());
    var_scaled[c] = static_cast<float>(scaled.variance());
  }
  return true;
}

// ---- the token pipeline ------------------------------------------------------------------

bool layer_norm_rows(const float* x, int t, int d, float* out, Error* err) noexcept {
  if (!check_dim("t (number of rows)", t, 1, kMaxDim, err) || !check_dim("d (row width)", d, 1, kMaxDim, err))
    return false;
  constexpr double kEps = 1e-5;  // PyTorch's LayerNorm default: a constant row maps to zeros
  for (int i = 0; i < t; ++i) {
    const float* row = x + static_cast<std::size_t>(i) * d;
    float* dst = out + static_cast<std::size_t>(i) * d;
    double sum = 0;
    for (int c = 0; c < d; ++c) sum += row[c];
    const double mean = sum / d;
    double sum_sq = 0;
    for (int c = 0; c < d; ++c) sum_sq += (row[c] - mean) * (row[c] - mean);
    const double inv_std = 1.0 / std::sqrt(sum_sq / d + kEps);
    for (int c = 0; c < d; ++c) dst[c] = static_cast<float>((row[c] - mean) * inv_std);
  }
  return true;
}

bool validate_head_weights(int head, int d_in, int d, Error* err) noexcept {
  return check_dim("dIn (token vector width)", d_in, 1, kMaxLessonWidth, err) &&
         check_dim("d (key width)", d, 1, kMaxLessonWidth, err) && check_dim("head", head, 0, kMaxDraws, err);
}

bool head_weights(std::uint32_t seed, int head, int d_in, int d, float* wq, float* wk, float* wv, Error* err) {
  return validate_head_weights(head, d_in, d, err) && head_weights_validated(seed, head, d_in, d, wq, wk, wv, err);
}

bool head_weights_validated(std::uint32_t seed, int head, int d_in, int d, float* wq, float* wk, float* wv,
                            Error* err) {
  float* outs[3] = {wq, wk, wv};
  const Role roles[3] = {Role::query, Role::key, Role::value};
  for (int r = 0; r < 3; ++r) {
    if (!outs[r]) continue;
    const std::uint64_t s = derive_seed(seed, roles[r], static_cast<std::uint32_t>(head), static_cast<std::uint32_t>(d));
    if (!random_projection(s, d_in, d, outs[r], err)) return false;
  }
  return true;
}

bool validate_project_head(Input x, int t, int d_in, Input wq, Input wk, Input wv, int d, Error* err) noexcept {
  if (!check_tokens(x, t, d_in, err) || !check_dim("d (key width)", d, 1, kMaxLessonWidth, err)) return false;
  const std::uint64_t size = static_cast<std::uint64_t>(d_in) * d;
  const char* names[3] = {"wq", "wk", "wv"};
  const Input ws[3] = {wq, wk, wv};
  for (int r = 0; r < 3; ++r) {
    if (r == 2 && !wv) break;  // W_V is optional
    if (!check_length(names[r], ws[r], size, "dIn·d", err) ||
        !check_finite(names[r], ws[r].data, static_cast<std::size_t>(d_in), static_cast<std::size_t>(d), err))
      return false;
  }
  return true;
}

bool project_head(Input x, int t, int d_in, Input wq, Input wk, Input wv, int d, float* q, float* k, float* v,
                  Error* err) {
  return validate_project_head(x, t, d_in, wq, wk, v ? wv : Input(), d, err) &&
         project_head_validated(x, t, d_in, wq, wk, wv, d, q, k, v, err);
}

bool project_head_validated(Input x, int t, int d_in, Input wq, Input wk, Input wv, int d, float* q, float* k, float* v,
                            Error* err) {
  if (v && !wv) return fail(err, Status::invalid_argument, "wv is required when v is asked for");
  std::vector<float> xn(static_cast<std::size_t>(t) * d_in);
  if (!layer_norm_rows(x.data, t, d_in, xn.data(), err)) return false;
  const float* ws[3] = {wq.data, wk.data, wv.data};
  float* outs[3] = {q, k, v};
  for (int r = 0; r < 3; ++r)
    if (outs[r] && !project(xn.data(), t, d_in, ws[r], d, outs[r], err)) return false;
  return true;
}

bool validate_head_projections(Input x, int t, int d_in, int head, int d, Error* err) noexcept {
  return check_tokens(x, t, d_in, err) && validate_head_weights(head, d_in, d, err);
}

bool head_projections(Input x, int t, int d_in, std::uint32_t seed, int head, int d, float* q, float* k, float* v,
                      Error* err) {
  return validate_head_projections(x, t, d_in, head, d, err) &&
         head_projections_validated(x, t, d_in, seed, head, d, q, k, v, err);
}

bool head_projections_validated(Input x, int t, int d_in, std::uint32_t seed, int head, int d, float* q, float* k,
                                float* v, Error* err) {
  const std::size_t size = static_cast<std::size_t>(d_in) * d;
  std::vector<float> wq(size), wk(size), wv(v ? size : 0);
  const Input w_v = v ? Input(wv.data()) : Input();
  return head_weights(seed, head, d_in, d, wq.data(), wk.data(), v ? wv.data() : nullptr, err) &&
         project_head(x, t, d_in, wq.data(), wk.data(), w_v, d, q, k, v, err);
}

// ---- 2 and 3. saturation and gradients ------------------------------------------------------

bool validate_softmax_jacobian(const float* p, int m, Error* err) noexcept {
  return check_probability_row("p", p, m, err) &&
         check_size("the Jacobian (m·m)", static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(m), err);
}

bool softmax_jacobian(const float* p, int m, float* jac, Error* err) noexcept {
  return validate_softmax_jacobian(p, m, err) && softmax_jacobian_validated(p, m, jac, err);
}

bool softmax_jacobian_validated(const float* p, int m, float* jac, Error* /*err*/) noexcept {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) jac[std::size_t(i) * m + j] = p[i] * ((i == j ? 1.0f : 0.0f) - p[j]);
  return true;
}

bool validate_softmax_backward(const float* p, Input dp, int m, Error* err) noexcept {
  return check_probability_row("p", p, m, err) &&
         check_length("dp", dp, static_cast<std::uint64_t>(m), "the length of p", err) &&
         check_values("dp", dp.data, static_cast<std::size_t>(m), 0, Values::finite, err);
}

bool softmax_backward(const float* p, Input dp, int m, float* dz, Error* err) noexcept {
  return validate_softmax_backward(p, dp, m, err) && softmax_backward_validated(p, dp, m, dz, err);
}

bool softmax_backward_validated(const float* p, Input dp, int m, float* dz, Error* err) noexcept {
  // dz_j = Σᵢ dpᵢ · pᵢ(δᵢⱼ − pⱼ) = pⱼ(dpⱼ − Σᵢ pᵢ dpᵢ): the Jacobian is symmetric, and this
  // O(m) form is the one a backward pass uses. In double: dp − ⟨p, dp⟩ may reach 2·3.4e38.
  double p_dot_dp = 0;
  for (int i = 0; i < m; ++i) p_dot_dp += static_cast<double>(p[i]) * dp.data[i];
  for (int j = 0; j < m; ++j) {
    const double value = p[j] * (dp.data[j] - p_dot_dp);
    if (std::fabs(value) > FLT_MAX)
      return fail(err, Status::overflow, "dz[%d] overflows float32: dp holds numbers too close to the float32 limit",
                  j);
    dz[j] = static_cast<float>(value);
  }
  return true;
}

bool validate_upstream_gradient(int row, int m, Error* err) noexcept {
  return check_dim("row", row, 0, kMaxDim, err) && check_dim("m (row length)", m, 1, kMaxDim, err);
}

void upstream_gradient(std::uint32_t seed, int row, int m, float* g) noexcept {
  random_normal(derive_seed(seed, Role::upstream, static_cast<std::uint32_t>(row), static_cast<std::uint32_t>(m)), 1.0f,
                g, static_cast<std::size_t>(m));
}

bool validate_saturation_sweep(Input x, int t, int d_in, const int* dims, int count_dims, Error* err) noexcept {
  return check_tokens(x, t, d_in, err) && check_dims(dims, count_dims, err);
}

bool saturation_sweep(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims, bool scaled,
                      SweepRows rows, SweepSummary summary, Error* err) {
  return validate_saturation_sweep(x, t, d_in, dims, count_dims, err) &&
         saturation_sweep_validated(x, t, d_in, seed, dims, count_dims, scaled, rows, summary, err);
}

bool saturation_sweep_validated(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                                bool scaled, SweepRows rows, SweepSummary summary, Error* err) {
  const std::size_t tt = static_cast<std::size_t>(t) * t;
  std::vector<float> dots(tt), scores(tt), weights(tt);
  for (int c = 0; c < count_dims; ++c) {
    const int d = dims[c];
    std::vector<float> q(static_cast<std::size_t>(t) * d), k(q.size());
    // pass 1: Q, K of head 0 and the attention weights at this width and scaling
    if (!head_projections(x, t, d_in, seed, 0, d, q.data(), k.data(), nullptr, err)) return false;
    AttentionOptions opt;
    opt.scale = scaled ? inv_sqrt(d) : 1.0f;
    const std::size_t at = static_cast<std::size_t>(c) * t;
    AttentionResult res{dots.data(), scores.data(), weights.data(), nullptr, rows.entropy + at, rows.max_weight + at};
    if (!attention_forward(q.data(), k.data(), nullptr, {t, t, d, 0}, opt, res, err)) return false;
    // pass 2: per row, its regime and the gradient the softmax passes back
    double sum_max = 0, sum_entropy = 0, sum_grad = 0;
    int peaked = 0, flat = 0;
    for (int i = 0; i < t; ++i) {
      const Regime regime = classify_row(rows.max_weight[at + i], rows.entropy[at + i], t);
      rows.regime[at + i] = static_cast<float>(regime);
      peaked += regime == Regime::peaked;
      flat += regime == Regime::flat;
      if (!softmax_gradient_norm(weights.data() + static_cast<std::size_t>(i) * t, t, seed, i, rows.grad_norm + at + i,
                                 err))
        return false;
      sum_max += rows.max_weight[at + i];
      sum_entropy += rows.entropy[at + i];
      sum_grad += rows.grad_norm[at + i];
    }
    // pass 3: the summary over rows
    summary.mean_max_weight[c] = static_cast<float>(sum_max / t);
    summary.mean_entropy[c] = static_cast<float>(sum_entropy / t);
    summary.mean_grad_norm[c] = static_cast<float>(sum_grad / t);
    summary.fraction_peaked[c] = static_cast<float>(peaked) / t;
    summary.fraction_flat[c] = static_cast<float>(flat) / t;
    if (summary.peaked_count) summary.peaked_count[c] = static_cast<float>(peaked);
    if (summary.flat_count) summary.flat_count[c] = static_cast<float>(flat);
  }
  return true;
}

bool validate_saturation_trend(Input x, int t, int d_in, const int* dims, int count_dims, int draws, float threshold,
                               Error* err) noexcept {
  if (!check_tokens(x, t, d_in, err) || !check_dims(dims, count_dims, err) ||
      !check_dim("draws", draws, 1, kMaxDraws, err))
    return false;
  if (!(threshold > 0 && threshold < 1))
    return fail(err, Status::invalid_argument, "threshold is %g, expected a weight between 0 and 1 (exclusive)",
                static_cast<double>(threshold));
  return true;
}

bool saturation_trend(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims, int draws,
                      bool scaled, float threshold, float* max_weight, float* mean_max_weight, int* first_above,
                      Error* err) {
  return validate_saturation_trend(x, t, d_in, dims, count_dims, draws, threshold, err) &&
         saturation_trend_validated(x, t, d_in, seed, dims, count_dims, draws, scaled, threshold, max_weight,
                                    mean_max_weight, first_above, err);
}

bool saturation_trend_validated(Input x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                                int draws, bool scaled, float threshold, float* max_weight, float* mean_max_weight,
                                int* first_above, Error* err) {
  const std::size_t tt = static_cast<std::size_t>(t) * t;
  std::vector<float> dots(tt), scores(tt), weights(tt), entropy(t), row_max(t);
  std::vector<double> sum(t);
  *first_above = -1;
  for (int c = 0; c < count_dims; ++c) {
    const int d = dims[c];
    std::vector<float> q(static_cast<std::size_t>(t) * d), k(q.size());
    AttentionOptions opt;
    opt.scale = scaled ? inv_sqrt(d) : 1.0f;
    std::fill(sum.begin(), sum.end(), 0.0);
    // pass 1: each draw's rows, summed
    for (int r = 0; r < draws; ++r) {
      if (!head_projections(x, t, d_in, seed, r, d, q.data(), k.data(), nullptr, err)) return false;
      AttentionResult res{dots.data(), scores.data(), weights.data(), nullptr, entropy.data(), row_max.data()};
      if (!attention_forward(q.data(), k.data(), nullptr, {t, t, d, 0}, opt, res, err)) return false;
      for (int i = 0; i < t; ++i) sum[i] += row_max[i];
    }
    // pass 2: each row's mean over the draws, their mean over the rows, where it first passes
    double all = 0;
    for (int i = 0; i < t; ++i) {
      max_weight[static_cast<std::size_t>(c) * t + i] = static_cast<float>(sum[i] / draws);
      all += sum[i] / draws;
    }
    mean_max_weight[c] = static_cast<float>(all / t);
    if (*first_above < 0 && mean_max_weight[c] > threshold) *first_above = c;
  }
  return true;
}

// ---- 4. step by step -------------------------------------------------------------------------

bool validate_step_by_step(Input q, Input k, int m, int d, int key, float temperature, int visible,
                           Error* err) noexcept {
  return check_dim("m (number of keys)", m, 1, kMaxDim, err) &&
         check_dim("d (key width)", d, 1, kMaxLessonWidth, err) && check_dim("key", key, 0, m - 1, err) &&
         check_dim("visible (number of visible keys)", visible, 1, m, err) && check_temperature(temperature, err) &&
         check_length("q", q, static_cast<std::uint64_t>(d), "d", err) &&
         check_length("k", k, static_cast<std::uint64_t>(m) * d, "m·d", err) &&
         check_values("q", q.data, static_cast<std::size_t>(d), 0, Values::finite, err) &&
         check_finite("k", k.data, static_cast<std::size_t>(m), static_cast<std::size_t>(d), err);
}

bool step_by_step(Input q, Input k, int m, int d, int key, bool scaled, float temperature, int visible, StepTrace& out,
                  Error* err) {
  return validate_step_by_step(q, k, m, d, key, temperature, visible, err) &&
         step_by_step_validated(q, k, m, d, key, scaled, temperature, visible, out, err);
}

bool step_by_step_validated(Input q, Input k, int m, int d, int key, bool scaled, float temperature, int visible,
                            StepTrace& out, Error* err) {
  out.scale = scaled ? inv_sqrt(d) : 1.0f;
  out.sqrt_d = sqrt_d(d);
  // steps 1–2: q ∘ k and its sum, for the chosen pair
  const float* k_key = k.data + static_cast<std::size_t>(key) * d;
  for (int c = 0; c < d; ++c) out.product[c] = q.data[c] * k_key[c];
  out.dot = dot_ref(q.data, k_key, d);
  // shown whether or not the key is visible, so they must fit float32 either way
  if (!std::isfinite(out.dot) || !all_finite(out.product, static_cast<std::size_t>(d)))
    return fail(err, Status::overflow,
                "q·k for key %d overflows float32 (|q|·|k| > 3.4e38): its products and their sum cannot be shown", key);
  // step 3: the whole row of scores (the same left-to-right float sums), ÷√d; hidden keys −∞
  for (int j = 0; j < m; ++j) {
    out.scores[j] = j < visible ? out.scale * dot_ref(q.data, k.data + static_cast<std::size_t>(j) * d, d) : -INFINITY;
    if (j < visible && !std::isfinite(out.scores[j]))
      return fail(err, Status::overflow, "the score of key %d overflows float32: the vectors are too large", j);
  }
  // steps 4–6: subtract the max, ÷T, exp, normalise — the reference softmax, traced
  SoftmaxTrace trace;
  trace.shifted = out.shifted;
  trace.exps = out.exps;
  out.max_weight = softmax_row_ref(out.scores, m, 1.0f / temperature, out.weights, &out.entropy, &trace);
  out.row_max = trace.row_max;
  out.sum = trace.sum;
  double weight_sum = 0;  // in double, as attention's row_sum: the Σ a view prints is the weights' own
  for (int j = 0; j < m; ++j) weight_sum += out.weights[j];
  out.weight_sum = static_cast<float>(weight_sum);
  out.min_weight = 1;
  for (int j = 0; j < visible; ++j) out.min_weight = std::fmin(out.min_weight, out.weights[j]);
  return true;
}

bool validate_softmax_gradient_norm(const float* p, int m, int row, Error* err) noexcept {
  return check_probability_row("p", p, m, err) && validate_upstream_gradient(row, m, err);
}

bool softmax_gradient_norm(const float* p, int m, std::uint32_t seed, int row, float* norm, Error* err) {
  return validate_softmax_gradient_norm(p, m, row, err) && softmax_gradient_norm_validated(p, m, seed, row, norm, err);
}

bool softmax_gradient_norm_validated(const float* p, int m, std::uint32_t seed, int row, float* norm, Error* err) {
  std::vector<float> g(m), dz(m);
  upstream_gradient(seed, row, m, g.data());
  if (!softmax_backward(p, g.data(), m, dz.data(), err)) return false;
  double norm_sq = 0;
  for (int j = 0; j < m; ++j) norm_sq += static_cast<double>(dz[j]) * dz[j];
  *norm = static_cast<float>(std::sqrt(norm_sq));
  return true;
}

// ---- temperature and overflow -------------------------------------------------------------

bool validate_softmax_naive(const float* z, int m, float temperature, Error* err) noexcept {
  return check_dim("m (row length)", m, 1, kMaxDim, err) && check_temperature(temperature, err) &&
         check_values("scores", z, static_cast<std::size_t>(m), 0, Values::finite_or_hidden, err);
}

bool softmax_naive(const float* z, int m, float temperature, float* zt, float* exps, float* sum, float* weights,
                   Error* err, float* largest, bool* overflowed) noexcept {
  return validate_softmax_naive(z, m, temperature, err) &&
         softmax_naive_validated(z, m, temperature, zt, exps, sum, weights, err, largest, overflowed);
}

bool softmax_naive_validated(const float* z, int m, float temperature, float* zt, float* exps, float* sum,
                             float* weights, Error* /*err*/, float* largest, bool* overflowed) noexcept {
  // Deliberately no max subtraction: this is the version that breaks.
  *sum = 0;
  for (int j = 0; j < m; ++j) {
    zt[j] = z[j] / temperature;
    exps[j] = std::exp(zt[j]);
    *sum += exps[j];
  }
  for (int j = 0; j < m; ++j) weights[j] = exps[j] / *sum;
  if (largest) {
    *largest = -INFINITY;
    for (int j = 0; j < m; ++j) *largest = std::fmax(*largest, zt[j]);
  }
  if (overflowed) *overflowed = !std::isfinite(*sum) || !all_finite(weights, static_cast<std::size_t>(m));
  return true;
}

// ---- multi-head ----------------------------------------------------------------------------

bool validate_multi_head(Input x, int t, int d_in, int heads, int d, Error* err) noexcept {
  return check_tokens(x, t, d_in, err) && check_dim("heads", heads, 1, kMaxHeads, err) &&
         check_dim("d (key width per head)", d, 1, kMaxLessonWidth, err);
}

bool multi_head(Input x, int t, int d_in, std::uint32_t seed, int heads, int d, bool scaled, MultiHeadResult out,
                Error* err) {
  return validate_multi_head(x, t, d_in, heads, d, err) &&
         multi_head_validated(x, t, d_in, seed, heads, d, scaled, out, err);
}

bool multi_head_validated(Input x, int t, int d_in, std::uint32_t seed, int heads, int d, bool scaled,
                          MultiHeadResult out, Error* err) {
  const std::size_t tt = static_cast<std::size_t>(t) * t, td = static_cast<std::size_t>(t) * d;
  std::vector<float> q(td), k(td), v(td), dots(tt), scores(tt), head_out(td);
  const std::size_t width = static_cast<std::size_t>(heads) * d;
  for (int r = 0; r < heads; ++r) {
    if (!head_projections(x, t, d_in, seed, r, d, q.data(), k.data(), v.data(), err)) return false;
    AttentionOptions opt;
    opt.scale = scaled ? inv_sqrt(d) : 1.0f;
    AttentionResult res{dots.data(), scores.data(), out.weights + r * tt, head_out.data(),
                        out.entropy + static_cast<std::size_t>(r) * t, out.max_weight + static_cast<std::size_t>(r) * t};
    if (!attention_forward(q.data(), k.data(), v.data(), {t, t, d, d}, opt, res, err)) return false;
    for (int i = 0; i < t; ++i)
      for (int c = 0; c < d; ++c)
        out.concat[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(r) * d + c] =
            head_out[static_cast<std::size_t>(i) * d + c];
  }
  return true;
}

}  // namespace attn
