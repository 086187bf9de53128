// The lesson's measurements (see lesson.hpp). Scalar and direct on purpose: the heavy
// lifting (Q·Kᵀ, softmax, P·V) goes through attention_forward; what is here is bookkeeping
// that a reader should be able to check line by line.
#include "lesson.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

#include "embedding.hpp"
#include "random.hpp"

namespace attn {
namespace {

bool check_range(const char* name, int value, int min, int max, Error* err) {
  if (value < min || value > max)
    return fail(err, Status::invalid_shape, "%s must be an integer from %d to %d, got %d", name, min, max, value);
  return true;
}

bool check_dims(const int* dims, int count_dims, Error* err) {
  if (!check_range("the number of widths", count_dims, 1, kMaxSweepWidths, err)) return false;
  if (!dims) return fail(err, Status::invalid_argument, "the list of widths is required");
  for (int c = 0; c < count_dims; ++c)
    if (dims[c] < 1 || dims[c] > kMaxLessonWidth)
      return fail(err, Status::invalid_shape, "widths[%d] must be an integer from 1 to %d, got %d", c,
                  kMaxLessonWidth, dims[c]);
  return true;
}

bool check_tokens(const float* x, int t, int d_in, Error* err) {
  if (!check_range("t (number of tokens)", t, 1, kMaxLessonTokens, err) ||
      !check_range("d_in (token vector width)", d_in, 1, kMaxLessonWidth, err))
    return false;
  if (!x) return fail(err, Status::invalid_argument, "the token vectors x are required");
  const std::size_t count = static_cast<std::size_t>(t) * d_in;
  for (std::size_t idx = 0; idx < count; ++idx)
    if (!std::isfinite(x[idx]))
      return fail(err, Status::non_finite_input, "x[%zu][%zu] is not a finite number: token vectors must be finite",
                  idx / d_in, idx % d_in);
  return true;
}

bool check_row(const char* name, const float* p, int m, Error* err) {
  if (!check_range("m (row length)", m, 1, kMaxDim, err)) return false;
  if (!p) return fail(err, Status::invalid_argument, "%s is required", name);
  for (int j = 0; j < m; ++j)
    if (!std::isfinite(p[j]))
      return fail(err, Status::non_finite_input, "%s[%d] is not a finite number", name, j);
  return true;
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

Regime classify_row(float max_weight, float entropy, int m) {
  if (max_weight > kPeakedMaxWeight) return Regime::peaked;
  if (m >= 2 && entropy > kFlatEntropyFraction * max_entropy(m)) return Regime::flat;
  return Regime::balanced;
}

float max_entropy(int m) { return std::log(static_cast<float>(m)); }

float sqrt_d(int d) { return static_cast<float>(std::sqrt(static_cast<double>(d))); }

void default_dot_range(int d, bool scaled, float* lo, float* hi) {
  *hi = kDotRangeStdDevs * (scaled ? 1.0f : sqrt_d(d));
  *lo = -*hi;
}

std::uint64_t derive_seed(std::uint32_t seed, Role role, std::uint32_t a, std::uint32_t b) {
  // Chained splitmix64: each part perturbs the state, the output scrambles it.
  std::uint64_t h = Rng(seed).next_u64();
  h = Rng(h ^ static_cast<std::uint64_t>(role)).next_u64();
  h = Rng(h ^ a).next_u64();
  return Rng(h ^ b).next_u64();
}

// ---- 1. variance -----------------------------------------------------------------------------

bool sample_dots(std::uint32_t seed, int d, int count, float* dots, float* scaled, Error* err) {
  if (!check_range("d (key width)", d, 1, kMaxLessonWidth, err) ||
      !check_range("the number of samples", count, 1, kMaxLessonSamples, err))
    return false;
  Rng rng(derive_seed(seed, Role::dot_sample, 0, static_cast<std::uint32_t>(d)));
  std::vector<float> q(d), k(d);
  const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
  for (int s = 0; s < count; ++s) {
    for (int c = 0; c < d; ++c) q[c] = static_cast<float>(rng.normal());
    for (int c = 0; c < d; ++c) k[c] = static_cast<float>(rng.normal());
    double dot = 0;
    for (int c = 0; c < d; ++c) dot += static_cast<double>(q[c]) * k[c];
    dots[s] = static_cast<float>(dot);
    if (scaled) scaled[s] = static_cast<float>(dot * inv_sqrt_d);
  }
  return true;
}

bool sample_moments(const float* x, int count, double* mean, double* variance, Error* err) {
  if (!check_range("the number of values", count, 2, kMaxLessonSamples, err)) return false;
  Accumulator acc;
  for (int s = 0; s < count; ++s) acc.add(x[s]);
  *mean = acc.mean();
  *variance = acc.variance();
  return true;
}

bool histogram(const float* x, int count, float lo, float hi, int bins, float* counts, float* below, float* above,
               Error* err) {
  if (!check_range("the number of values", count, 0, kMaxLessonSamples, err) ||
      !check_range("bins", bins, 1, kMaxBins, err))
    return false;
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
    return fail(err, Status::invalid_argument, "the histogram range needs finite lo < hi, got [%g, %g]", lo, hi);
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

bool dot_variance_curve(std::uint32_t seed, const int* dims, int count_dims, int samples, float* var_unscaled,
                        float* var_scaled, Error* err) {
  if (!check_dims(dims, count_dims, err) || !check_range("the number of samples", samples, 2, kMaxLessonSamples, err))
    return false;
  std::vector<float> dots(samples), scaled(samples);
  for (int c = 0; c < count_dims; ++c) {
    double mean, var;
    if (!sample_dots(seed, dims[c], samples, dots.data(), scaled.data(), err)) return false;
    sample_moments(dots.data(), samples, &mean, &var, err);
    var_unscaled[c] = static_cast<float>(var);
    sample_moments(scaled.data(), samples, &mean, &var, err);
    var_scaled[c] = static_cast<float>(var);
  }
  return true;
}

bool dot_histograms(std::uint32_t seed, int d, int samples, int bins, DotHistogram& unscaled, DotHistogram& scaled,
                    Error* err) {
  if (!check_range("the number of samples", samples, 2, kMaxLessonSamples, err)) return false;
  std::vector<float> dots(samples), scaled_dots(samples);
  if (!sample_dots(seed, d, samples, dots.data(), scaled_dots.data(), err)) return false;
  DotHistogram* hists[2] = {&unscaled, &scaled};
  const float* values[2] = {dots.data(), scaled_dots.data()};
  for (int h = 0; h < 2; ++h) {
    DotHistogram& out = *hists[h];
    if (!histogram(values[h], samples, out.lo, out.hi, bins, out.counts, &out.below, &out.above, err)) return false;
    sample_moments(values[h], samples, &out.mean, &out.variance, err);
  }
  return true;
}

bool token_dot_variance_curve(const float* x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                              int draws, float* var_unscaled, float* var_scaled, Error* err) {
  if (!check_tokens(x, t, d_in, err) || !check_dims(dims, count_dims, err) ||
      !check_range("draws", draws, 1, kMaxDraws, err))
    return false;
  if (static_cast<long long>(t) * t * draws < 2)
    return fail(err, Status::invalid_shape, "a variance needs at least 2 dot products: use t ≥ 2 or draws ≥ 2");
  for (int c = 0; c < count_dims; ++c) {
    const int d = dims[c];
    std::vector<float> q(static_cast<std::size_t>(t) * d), k(q.size());
    Accumulator unscaled, scaled;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    for (int r = 0; r < draws; ++r) {
      if (!head_projections(x, t, d_in, seed, r, d, q.data(), k.data(), nullptr, err)) return false;
      for (int i = 0; i < t; ++i)
        for (int j = 0; j < t; ++j) {
          double dot = 0;
          for (int e = 0; e < d; ++e) dot += static_cast<double>(q[std::size_t(i) * d + e]) * k[std::size_t(j) * d + e];
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

bool layer_norm_rows(const float* x, int t, int d, float* out, Error* err) {
  if (!check_range("t (number of rows)", t, 1, kMaxDim, err) || !check_range("d (row width)", d, 1, kMaxDim, err))
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

bool head_weights(std::uint32_t seed, int head, int d_in, int d, float* wq, float* wk, float* wv, Error* err) {
  if (!check_range("d_in (token vector width)", d_in, 1, kMaxLessonWidth, err) ||
      !check_range("d (key width)", d, 1, kMaxLessonWidth, err) || !check_range("head", head, 0, kMaxDraws, err))
    return false;
  float* outs[3] = {wq, wk, wv};
  const Role roles[3] = {Role::query, Role::key, Role::value};
  for (int r = 0; r < 3; ++r) {
    if (!outs[r]) continue;
    const std::uint64_t s = derive_seed(seed, roles[r], static_cast<std::uint32_t>(head), static_cast<std::uint32_t>(d));
    if (!random_projection(s, d_in, d, outs[r], err)) return false;
  }
  return true;
}

bool project_head(const float* x, int t, int d_in, const float* wq, const float* wk, const float* wv, int d, float* q,
                  float* k, float* v, Error* err) {
  if (!check_tokens(x, t, d_in, err) || !check_range("d (key width)", d, 1, kMaxLessonWidth, err)) return false;
  if (!wq || !wk || (v && !wv)) return fail(err, Status::invalid_argument, "the projection weights are required");
  std::vector<float> xn(static_cast<std::size_t>(t) * d_in);
  layer_norm_rows(x, t, d_in, xn.data(), err);
  const float* ws[3] = {wq, wk, wv};
  float* outs[3] = {q, k, v};
  for (int r = 0; r < 3; ++r)
    if (outs[r] && !project(xn.data(), t, d_in, ws[r], d, outs[r], err)) return false;
  return true;
}

bool head_projections(const float* x, int t, int d_in, std::uint32_t seed, int head, int d, float* q, float* k,
                      float* v, Error* err) {
  if (!check_tokens(x, t, d_in, err) || !check_range("d (key width)", d, 1, kMaxLessonWidth, err) ||
      !check_range("head", head, 0, kMaxDraws, err))
    return false;
  const std::size_t size = static_cast<std::size_t>(d_in) * d;
  std::vector<float> wq(size), wk(size), wv(v ? size : 0);
  return head_weights(seed, head, d_in, d, wq.data(), wk.data(), v ? wv.data() : nullptr, err) &&
         project_head(x, t, d_in, wq.data(), wk.data(), v ? wv.data() : nullptr, d, q, k, v, err);
}

// ---- 2 and 3. saturation and gradients ------------------------------------------------------

bool softmax_jacobian(const float* p, int m, float* jac, Error* err) {
  if (!check_row("p", p, m, err)) return false;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) jac[std::size_t(i) * m + j] = p[i] * ((i == j ? 1.0f : 0.0f) - p[j]);
  return true;
}

bool softmax_backward(const float* p, const float* dp, int m, float* dz, Error* err) {
  if (!check_row("p", p, m, err) || !check_row("dp", dp, m, err)) return false;
  // dz_j = Σᵢ dpᵢ · pᵢ(δᵢⱼ − pⱼ) = pⱼ(dpⱼ − Σᵢ pᵢ dpᵢ): the Jacobian is symmetric, and this
  // O(m) form is the one a backward pass uses.
  double p_dot_dp = 0;
  for (int i = 0; i < m; ++i) p_dot_dp += static_cast<double>(p[i]) * dp[i];
  for (int j = 0; j < m; ++j) dz[j] = static_cast<float>(p[j] * (dp[j] - p_dot_dp));
  return true;
}

void upstream_gradient(std::uint32_t seed, int row, int m, float* g) {
  random_normal(derive_seed(seed, Role::upstream, static_cast<std::uint32_t>(row), static_cast<std::uint32_t>(m)), 1.0f,
                g, static_cast<std::size_t>(m));
}

bool saturation_sweep(const float* x, int t, int d_in, std::uint32_t seed, const int* dims, int count_dims,
                      bool scaled, SweepRows rows, SweepSummary summary, Error* err) {
  if (!check_tokens(x, t, d_in, err) || !check_dims(dims, count_dims, err)) return false;
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
      softmax_gradient_norm(weights.data() + static_cast<std::size_t>(i) * t, t, seed, i, rows.grad_norm + at + i, err);
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

// ---- 4. step by step -------------------------------------------------------------------------

bool step_by_step(const float* q, const float* k, int m, int d, int key, bool scaled, float temperature, int visible,
                  StepTrace& out, Error* err) {
  if (!check_range("m (number of keys)", m, 1, kMaxDim, err) ||
      !check_range("d (key width)", d, 1, kMaxLessonWidth, err) || !check_range("key", key, 0, m - 1, err) ||
      !check_range("visible (number of visible keys)", visible, 1, m, err))
    return false;
  if (!check_temperature(temperature, err) || !check_row("q", q, d, err)) return false;
  for (int j = 0; j < m; ++j)
    if (!check_row("k", k + static_cast<std::size_t>(j) * d, d, err)) return false;
  out.scale = scaled ? inv_sqrt(d) : 1.0f;
  out.sqrt_d = sqrt_d(d);
  // steps 1–2: q ∘ k and its sum, for the chosen pair
  out.dot = 0;
  for (int c = 0; c < d; ++c) {
    out.product[c] = q[c] * k[static_cast<std::size_t>(key) * d + c];
    out.dot += out.product[c];
  }
  // step 3: the whole row of scores (the same left-to-right float sums), ÷√d; hidden keys −∞
  for (int j = 0; j < m; ++j) {
    float dot = 0;
    for (int c = 0; c < d; ++c) dot += q[c] * k[static_cast<std::size_t>(j) * d + c];
    out.scores[j] = j < visible ? out.scale * dot : -INFINITY;
    if (j < visible && !std::isfinite(out.scores[j]))
      return fail(err, Status::overflow, "the score of key %d overflows float32", j);
  }
  // steps 4–6: subtract the max, ÷T, exp, normalise — the passes of softmax_row_ref
  const float inv_t = 1.0f / temperature;
  out.row_max = -INFINITY;
  for (int j = 0; j < m; ++j) out.row_max = std::fmax(out.row_max, out.scores[j]);
  out.sum = 0;
  float sum_et = 0;
  for (int j = 0; j < m; ++j) {
    out.shifted[j] = (out.scores[j] - out.row_max) * inv_t;
    out.exps[j] = std::exp(out.shifted[j]);
    out.sum += out.exps[j];
    if (out.exps[j] > 0.0f) sum_et += out.exps[j] * out.shifted[j];
  }
  // ÷ sum, not × (1/sum) as the kernel does: the printed weights are then exactly "e ÷ Σ" and
  // add up to 1 in float32 more often; they differ from the kernel's by at most an ulp or two.
  const float inv_sum = 1.0f / out.sum;
  out.weight_sum = 0;
  out.max_weight = 0;
  out.min_weight = 1;
  for (int j = 0; j < m; ++j) {
    out.weights[j] = out.exps[j] / out.sum;
    out.weight_sum += out.weights[j];
    out.max_weight = std::fmax(out.max_weight, out.weights[j]);
    if (j < visible) out.min_weight = std::fmin(out.min_weight, out.weights[j]);
  }
  out.entropy = std::fmax(0.0f, std::log(out.sum) - sum_et * inv_sum);
  return true;
}

bool softmax_gradient_norm(const float* p, int m, std::uint32_t seed, int row, float* norm, Error* err) {
  if (!check_row("p", p, m, err) || !check_range("row", row, 0, kMaxDim, err)) return false;
  std::vector<float> g(m), dz(m);
  upstream_gradient(seed, row, m, g.data());
  softmax_backward(p, g.data(), m, dz.data(), err);
  double norm_sq = 0;
  for (int j = 0; j < m; ++j) norm_sq += static_cast<double>(dz[j]) * dz[j];
  *norm = static_cast<float>(std::sqrt(norm_sq));
  return true;
}

// ---- temperature and overflow -------------------------------------------------------------

bool softmax_naive(const float* z, int m, float temperature, float* zt, float* exps, float* sum, float* weights,
                   Error* err, float* largest, bool* overflowed) {
  if (!check_range("m (row length)", m, 1, kMaxDim, err)) return false;
  if (!(temperature > 0.0f) || !std::isfinite(temperature))
    return fail(err, Status::invalid_argument, "temperature must be a positive finite number, got %g", temperature);
  for (int j = 0; j < m; ++j)
    if (std::isnan(z[j]) || z[j] == INFINITY)
      return fail(err, Status::non_finite_input, "scores[%d] must be a finite number (or -Infinity)", j);
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

bool multi_head(const float* x, int t, int d_in, std::uint32_t seed, int heads, int d, bool scaled,
                MultiHeadResult out, Error* err) {
  if (!check_tokens(x, t, d_in, err) || !check_range("heads", heads, 1, kMaxHeads, err) ||
      !check_range("d (key width per head)", d, 1, kMaxLessonWidth, err))
    return false;
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
