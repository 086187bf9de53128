// The lesson's measurements (cpp/lesson/lesson.hpp) against float64 references written here, the
// softmax Jacobian and backward pass against finite differences, and the lesson's claims
// themselves (variance ∝ d_k, saturation and vanishing gradients without scaling).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "core/embedding.hpp"
#include "lesson/lesson.hpp"
#include "core/random.hpp"
#include "reference.hpp"

namespace {

// Float32 results of sums we recompute in double: d products of N(0,1)-sized numbers carry a
// rounding error of about d·ε·Σ|terms|; these inputs stay below 1e-4 relative.
constexpr double kRelTol = 1e-4;
// Finite differences in double with step h: truncation error O(h²)·|f'''| ≈ 1e-10, rounding
// ε/h ≈ 1e-11. The core's float32 p adds ~1e-7 relative; 1e-5 absolute covers both.
constexpr double kFiniteDiffStep = 1e-5;
constexpr double kFiniteDiffTol = 1e-5;
// Weights from the SIMD attention path vs the float64 reference (see test_attention.cpp).
constexpr double kWeightAbsTol = 2e-5;

// A stand-in for a sentence of GloVe vectors: t tokens of width d_in with a common offset
// and a spread like GloVe's (|x| ≈ 4–6), so the layer norm has real work to do.
std::vector<float> sentence(int t, int d_in, std::uint32_t seed) {
  auto x = ref64::random_normal(std::size_t(t) * d_in, seed, 0.45f);
  auto offset = ref64::random_normal(d_in, seed + 1000, 0.2f);
  for (int i = 0; i < t; ++i)
    for (int c = 0; c < d_in; ++c) x[std::size_t(i) * d_in + c] += offset[c];
  return x;
}

std::vector<double> softmax64(const std::vector<double>& z) {
  double mx = *std::max_element(z.begin(), z.end()), sum = 0;
  std::vector<double> p(z.size());
  for (std::size_t j = 0; j < z.size(); ++j) sum += (p[j] = std::exp(z[j] - mx));
  for (double& v : p) v /= sum;
  return p;
}

double variance64(const std::vector<double>& v) {
  double mean = 0, ss = 0;
  for (double x : v) mean += x;
  mean /= v.size();
  for (double x : v) ss += (x - mean) * (x - mean);
  return ss / (v.size() - 1);
}

// LayerNorm (no gain/bias, eps 1e-5) and x̂·W in double.
std::vector<double> project64(const std::vector<float>& x, int t, int d_in, const std::vector<float>& w, int d) {
  std::vector<double> out(std::size_t(t) * d, 0.0);
  for (int i = 0; i < t; ++i) {
    double mean = 0, var = 0;
    for (int c = 0; c < d_in; ++c) mean += x[std::size_t(i) * d_in + c];
    mean /= d_in;
    for (int c = 0; c < d_in; ++c) var += std::pow(x[std::size_t(i) * d_in + c] - mean, 2);
    var /= d_in;
    for (int c = 0; c < d_in; ++c) {
      const double xn = (x[std::size_t(i) * d_in + c] - mean) / std::sqrt(var + 1e-5);
      for (int e = 0; e < d; ++e) out[std::size_t(i) * d + e] += xn * w[std::size_t(c) * d + e];
    }
  }
  return out;
}

std::vector<float> projection_weights(std::uint32_t seed, attn::Role role, int head, int d_in, int d) {
  std::vector<float> w(std::size_t(d_in) * d);
  attn::Error err;
  REQUIRE(attn::random_projection(attn::derive_seed(seed, role, head, d), d_in, d, w.data(), &err));
  return w;
}

std::vector<float> to_float(const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); }

}  // namespace

TEST_CASE("sample_dots draws q, k ~ N(0,1) and their dot products", "[lesson][variance]") {
  const int d = 37, count = 50;
  std::vector<float> dots(count), scaled(count);
  attn::Error err;
  REQUIRE(attn::sample_dots(9, d, count, dots.data(), scaled.data(), &err));
  // Reference: the documented stream (q's d normals, then k's), dot in double.
  attn::Rng rng(attn::derive_seed(9, attn::Role::dot_sample, 0, d));
  for (int s = 0; s < count; ++s) {
    std::vector<double> q(d), k(d);
    for (auto& v : q) v = float(rng.normal());
    for (auto& v : k) v = float(rng.normal());
    double dot = 0;
    for (int c = 0; c < d; ++c) dot += q[c] * k[c];
    REQUIRE(dots[s] == Approx(dot).margin(1e-5));
    REQUIRE(scaled[s] == Approx(dot / std::sqrt(double(d))).margin(1e-5));
  }
  REQUIRE_FALSE(attn::sample_dots(9, 0, count, dots.data(), nullptr, &err));
  REQUIRE(err.status == attn::Status::invalid_shape);
  REQUIRE_FALSE(attn::sample_dots(9, 4, 0, dots.data(), nullptr, &err));
}

TEST_CASE("histogram counts every sample once", "[lesson][variance]") {
  std::vector<float> x = {-5, -4, -3.9f, -0.5f, 0, 0.49f, 0.5f, 3.99f, 4, 4.01f, 100, -100};
  auto more = ref64::random_normal(5000, 3, 2.0f);
  x.insert(x.end(), more.begin(), more.end());
  const int bins = 16;
  const float lo = -4, hi = 4;  // bin width 0.5: every edge is exact in binary
  std::vector<float> counts(bins);
  float below, above;
  attn::Error err;
  REQUIRE(attn::histogram(x.data(), int(x.size()), lo, hi, bins, counts.data(), &below, &above, &err));
  std::vector<double> expect(bins, 0);
  double expect_below = 0, expect_above = 0;
  for (float v : x) {
    if (v < lo) { expect_below += 1; continue; }
    if (v > hi) { expect_above += 1; continue; }
    for (int b = bins - 1; b >= 0; --b)
      if (v >= lo + 0.5 * b) { expect[b] += 1; break; }
  }
  double total = below + above;
  for (int b = 0; b < bins; ++b) {
    REQUIRE(counts[b] == expect[b]);
    total += counts[b];
  }
  REQUIRE(below == expect_below);
  REQUIRE(above == expect_above);
  REQUIRE(total == double(x.size()));
  REQUIRE(counts[bins - 1] >= 1);  // 4 exactly lands in the closed last bin
  REQUIRE_FALSE(attn::histogram(x.data(), 3, 1, 1, bins, counts.data(), &below, &above, &err));
  x[1] = NAN;
  REQUIRE_FALSE(attn::histogram(x.data(), 3, lo, hi, bins, counts.data(), &below, &above, &err));
  REQUIRE(err.status == attn::Status::non_finite_input);
}

TEST_CASE("sample_moments is the unbiased variance", "[lesson][variance]") {
  auto x = ref64::random_normal(1001, 5, 3.0f);
  for (auto& v : x) v += 1000.0f;  // a large mean must not cost precision
  double mean, var;
  attn::Error err;
  REQUIRE(attn::sample_moments(x.data(), int(x.size()), &mean, &var, &err));
  REQUIRE(var == Approx(variance64(std::vector<double>(x.begin(), x.end()))).epsilon(1e-9));
  REQUIRE_FALSE(attn::sample_moments(x.data(), 1, &mean, &var, &err));
}

TEST_CASE("dot_histograms bins sample_dots' samples", "[lesson][variance]") {
  const int d = 64, samples = 3000, bins = 32;
  std::vector<float> cu(bins), cs(bins), dots(samples), scaled(samples), expect(bins);
  attn::DotHistogram hu, hs;
  hu.lo = -32, hu.hi = 32, hu.counts = cu.data();
  hs.lo = -4, hs.hi = 4, hs.counts = cs.data();
  attn::Error err;
  REQUIRE(attn::dot_histograms(6, d, samples, bins, hu, hs, &err));
  REQUIRE(attn::sample_dots(6, d, samples, dots.data(), scaled.data(), &err));
  float below, above;
  REQUIRE(attn::histogram(dots.data(), samples, -32, 32, bins, expect.data(), &below, &above, &err));
  REQUIRE(cu == expect);
  REQUIRE(hu.below == below);
  REQUIRE(hu.above == above);
  double total = hs.below + hs.above;
  for (float c : cs) total += c;
  REQUIRE(total == samples);
  REQUIRE(hu.variance == Approx(variance64(std::vector<double>(dots.begin(), dots.end()))).epsilon(1e-9));
  REQUIRE(hs.variance == Approx(hu.variance / d).epsilon(1e-6));
  hs.hi = hs.lo;
  REQUIRE_FALSE(attn::dot_histograms(6, d, samples, bins, hu, hs, &err));
}

TEST_CASE("the default histogram ranges are ±4 standard deviations", "[lesson][variance]") {
  float lo, hi;
  attn::default_dot_range(64, false, &lo, &hi);  // Var(q·k) = d: standard deviation √64 = 8
  REQUIRE(lo == -32.0f);
  REQUIRE(hi == 32.0f);
  attn::default_dot_range(64, true, &lo, &hi);
  REQUIRE(lo == -4.0f);
  REQUIRE(hi == 4.0f);
  attn::default_dot_range(2, false, &lo, &hi);
  REQUIRE(hi == Approx(4 * std::sqrt(2.0)).epsilon(1e-7));
  REQUIRE(attn::sqrt_d(100) == 10.0f);
  REQUIRE(attn::max_entropy(10) == Approx(std::log(10.0)).epsilon(1e-7));
}

TEST_CASE("claim 1: Var(q·k) grows like d_k, Var(q·k/√d_k) stays 1", "[lesson][variance][claim]") {
  const std::vector<int> dims = {1, 4, 16, 64, 256};
  const int samples = 20000;
  std::vector<float> var_u(dims.size()), var_s(dims.size());
  attn::Error err;
  REQUIRE(attn::dot_variance_curve(11, dims.data(), int(dims.size()), samples, var_u.data(), var_s.data(), &err));
  std::vector<float> dots(samples), scaled(samples);
  for (std::size_t c = 0; c < dims.size(); ++c) {
    const int d = dims[c];
    // exactly the variance of sample_dots' samples, computed in double (two passes)
    REQUIRE(attn::sample_dots(11, d, samples, dots.data(), scaled.data(), &err));
    REQUIRE(var_u[c] == Approx(variance64(std::vector<double>(dots.begin(), dots.end()))).epsilon(1e-6));
    // Statistics: q·k = Σ of d products with variance 1 and fourth moment 9, so the sample
    // variance has relative standard error √((2 + 6/d)/N). Allow 5 standard errors.
    const double tol = 5 * std::sqrt((2.0 + 6.0 / d) / samples);
    INFO("d = " << d << ", Var(q·k) = " << var_u[c] << ", Var(q·k/√d) = " << var_s[c]);
    REQUIRE(std::fabs(var_u[c] / d - 1) < tol);
    REQUIRE(std::fabs(var_s[c] - 1) < tol);
  }
  const int bad[] = {8, 0};
  REQUIRE_FALSE(attn::dot_variance_curve(11, bad, 2, samples, var_u.data(), var_s.data(), &err));
  REQUIRE(std::string(err.message).find("dims[1]") != std::string::npos);
}

TEST_CASE("layer norm and head projections match float64", "[lesson][pipeline]") {
  const int t = 6, d_in = 100, d = 24;
  auto x = sentence(t, d_in, 21);
  std::vector<float> xn(t * d_in);
  attn::Error err;
  REQUIRE(attn::layer_norm_rows(x.data(), t, d_in, xn.data(), &err));
  for (int i = 0; i < t; ++i) {
    double mean = 0, ms = 0;
    for (int c = 0; c < d_in; ++c) mean += xn[i * d_in + c];
    for (int c = 0; c < d_in; ++c) ms += double(xn[i * d_in + c]) * xn[i * d_in + c];
    REQUIRE(std::fabs(mean / d_in) < 1e-6);
    REQUIRE(ms / d_in == Approx(1.0).epsilon(1e-3));  // 1/(1 + 1e-5/var): eps barely matters
  }
  std::vector<float> q(t * d), k(t * d), v(t * d);
  REQUIRE(attn::head_projections(x.data(), t, d_in, 4, 2, d, q.data(), k.data(), v.data(), &err));
  const attn::Role roles[] = {attn::Role::query, attn::Role::key, attn::Role::value};
  const std::vector<float>* outs[] = {&q, &k, &v};
  for (int r = 0; r < 3; ++r) {
    auto expect = project64(x, t, d_in, projection_weights(4, roles[r], 2, d_in, d), d);
    for (std::size_t idx = 0; idx < expect.size(); ++idx) REQUIRE((*outs[r])[idx] == Approx(expect[idx]).margin(kRelTol));
  }
  // heads differ; the same head is reproducible
  std::vector<float> q0(t * d), q0b(t * d);
  REQUIRE(attn::head_projections(x.data(), t, d_in, 4, 0, d, q0.data(), k.data(), nullptr, &err));
  REQUIRE(attn::head_projections(x.data(), t, d_in, 4, 0, d, q0b.data(), k.data(), nullptr, &err));
  REQUIRE(q0 == q0b);
  REQUIRE(q0 != q);
  x[7] = INFINITY;
  REQUIRE_FALSE(attn::head_projections(x.data(), t, d_in, 4, 0, d, q.data(), k.data(), nullptr, &err));
  REQUIRE(err.status == attn::Status::non_finite_input);
}

TEST_CASE("claim 1 on a sentence: the t² token dot products have variance ≈ d_k", "[lesson][variance][claim]") {
  const int t = 10, d_in = 100, draws = 16;
  auto x = sentence(t, d_in, 33);
  const std::vector<int> dims = {2, 16, 128};
  std::vector<float> var_u(dims.size()), var_s(dims.size());
  attn::Error err;
  REQUIRE(attn::token_dot_variance_curve(x.data(), t, d_in, 5, dims.data(), int(dims.size()), draws, var_u.data(),
                                         var_s.data(), &err));
  for (std::size_t c = 0; c < dims.size(); ++c) {
    const int d = dims[c];
    std::vector<double> all;
    for (int r = 0; r < draws; ++r) {
      auto q = project64(x, t, d_in, projection_weights(5, attn::Role::query, r, d_in, d), d);
      auto k = project64(x, t, d_in, projection_weights(5, attn::Role::key, r, d_in, d), d);
      for (int i = 0; i < t; ++i)
        for (int j = 0; j < t; ++j) {
          double dot = 0;
          for (int e = 0; e < d; ++e) dot += q[i * d + e] * k[j * d + e];
          all.push_back(dot);
        }
    }
    const double expect = variance64(all);
    REQUIRE(var_u[c] == Approx(expect).epsilon(kRelTol));
    REQUIRE(var_s[c] == Approx(expect / d).epsilon(kRelTol));
    // Statistics: E[(q·k)²] = d exactly over the projections (unit-variance components after
    // the layer norm). The 100 products of one draw share W_Q, W_K, so they are far from
    // independent: about draws·t effectively. 4 standard errors of √(2/(draws·t)) ≈ 0.45.
    INFO("d = " << d << ", Var = " << var_u[c]);
    REQUIRE(std::fabs(var_u[c] / d - 1) < 0.45);
  }
  REQUIRE_FALSE(attn::token_dot_variance_curve(x.data(), 1, d_in, 5, dims.data(), 3, 1, var_u.data(), var_s.data(),
                                               &err));
}

TEST_CASE("softmax Jacobian and backward pass match finite differences", "[lesson][gradient]") {
  const std::vector<double> z = {0.3, -1.2, 2.0, 0.0, 0.7, -0.4, 1.1};
  const int m = int(z.size());
  auto p64 = softmax64(z);
  auto p = to_float(p64);
  std::vector<float> jac(m * m), g(m), dz(m);
  attn::Error err;
  REQUIRE(attn::softmax_jacobian(p.data(), m, jac.data(), &err));
  attn::upstream_gradient(3, 1, m, g.data());
  REQUIRE(attn::softmax_backward(p.data(), g.data(), m, dz.data(), &err));
  for (int j = 0; j < m; ++j) {
    auto zp = z, zm = z;
    zp[j] += kFiniteDiffStep;
    zm[j] -= kFiniteDiffStep;
    auto pp = softmax64(zp), pm = softmax64(zm);
    double dl = 0;
    for (int i = 0; i < m; ++i) {
      const double fd = (pp[i] - pm[i]) / (2 * kFiniteDiffStep);  // ∂pᵢ/∂zⱼ
      INFO("i = " << i << ", j = " << j);
      REQUIRE(std::fabs(jac[i * m + j] - fd) < kFiniteDiffTol);
      dl += g[i] * fd;
    }
    REQUIRE(std::fabs(dz[j] - dl) < kFiniteDiffTol);  // ∂⟨g, p⟩/∂zⱼ
  }
  // rows of the Jacobian sum to 0 (Σ p is constant); a one-hot p passes no gradient at all
  for (int i = 0; i < m; ++i) {
    double row = 0;
    for (int j = 0; j < m; ++j) row += jac[i * m + j];
    REQUIRE(std::fabs(row) < 1e-7);
  }
  std::vector<float> onehot(m, 0.0f);
  onehot[2] = 1.0f;
  REQUIRE(attn::softmax_backward(onehot.data(), g.data(), m, dz.data(), &err));
  for (float v : dz) REQUIRE(v == 0.0f);
  p[0] = NAN;
  REQUIRE_FALSE(attn::softmax_jacobian(p.data(), m, jac.data(), &err));
  REQUIRE_FALSE(attn::softmax_backward(onehot.data(), p.data(), m, dz.data(), &err));
  REQUIRE(std::string(err.message).find("dp[0]") != std::string::npos);
}

TEST_CASE("regimes: peaked above 0.99, flat above 98 % of ln m", "[lesson][saturation]") {
  REQUIRE(attn::classify_row(0.995f, 0.05f, 10) == attn::Regime::peaked);
  REQUIRE(attn::classify_row(0.11f, 0.985f * std::log(10.0f), 10) == attn::Regime::flat);
  REQUIRE(attn::classify_row(0.2f, 0.96f * std::log(10.0f), 10) == attn::Regime::balanced);
  REQUIRE(attn::classify_row(0.5f, 1.0f, 10) == attn::Regime::balanced);
  REQUIRE(attn::classify_row(1.0f, 0.0f, 1) == attn::Regime::peaked);
}

TEST_CASE("saturation sweep matches float64 attention and the backward pass", "[lesson][saturation]") {
  const int t = 9, d_in = 100;
  auto x = sentence(t, d_in, 44);
  const std::vector<int> dims = {1, 8, 64, 512};
  const int nd = int(dims.size());
  for (bool scaled : {false, true}) {
    std::vector<float> mw(nd * t), ent(nd * t), reg(nd * t), gn(nd * t);
    std::vector<float> s_mw(nd), s_ent(nd), s_gn(nd), s_peak(nd), s_flat(nd), n_peak(nd), n_flat(nd);
    attn::Error err;
    REQUIRE(attn::saturation_sweep(x.data(), t, d_in, 8, dims.data(), nd, scaled,
                                   {mw.data(), ent.data(), reg.data(), gn.data()},
                                   {s_mw.data(), s_ent.data(), s_gn.data(), s_peak.data(), s_flat.data(), n_peak.data(),
                                    n_flat.data()},
                                   &err));
    for (int c = 0; c < nd; ++c) {
      const int d = dims[c];
      auto q = to_float(project64(x, t, d_in, projection_weights(8, attn::Role::query, 0, d_in, d), d));
      auto k = to_float(project64(x, t, d_in, projection_weights(8, attn::Role::key, 0, d_in, d), d));
      auto expect = ref64::attention(q, k, {}, t, t, d, 0, scaled ? 1 / std::sqrt(double(d)) : 1.0, 1.0, false);
      double sum_gn = 0;
      for (int i = 0; i < t; ++i) {
        INFO("scaled " << scaled << ", d = " << d << ", row " << i);
        // q, k carry ~1e-6 relative float error; unscaled scores at d = 512 reach ~60, so a
        // score moves by up to ~1e-4 and a weight by p(1 − p)·1e-4: still well under 1e-3.
        REQUIRE(mw[c * t + i] == Approx(expect.max_weight[i]).margin(1e-3));
        REQUIRE(ent[c * t + i] == Approx(expect.entropy[i]).margin(5e-3));
        std::vector<float> g(t);
        attn::upstream_gradient(8, i, t, g.data());
        double pg = 0, norm_sq = 0;
        for (int j = 0; j < t; ++j) pg += expect.weights[i * t + j] * g[j];
        for (int j = 0; j < t; ++j) norm_sq += std::pow(expect.weights[i * t + j] * (g[j] - pg), 2);
        REQUIRE(gn[c * t + i] == Approx(std::sqrt(norm_sq)).margin(1e-3));
        REQUIRE(reg[c * t + i] == float(attn::classify_row(mw[c * t + i], ent[c * t + i], t)));
        sum_gn += gn[c * t + i];
      }
      REQUIRE(s_gn[c] == Approx(sum_gn / t).epsilon(1e-5));
      REQUIRE(n_peak[c] == float(std::count(reg.begin() + c * t, reg.begin() + (c + 1) * t, 1.0f)));
      REQUIRE(n_flat[c] == float(std::count(reg.begin() + c * t, reg.begin() + (c + 1) * t, 2.0f)));
      REQUIRE(s_peak[c] == Approx(n_peak[c] / t).epsilon(1e-7));
    }
  }
}

TEST_CASE("claims 2 and 3: unscaled scores saturate softmax and its gradient vanishes", "[lesson][claim]") {
  const int t = 10, d_in = 100;
  auto x = sentence(t, d_in, 55);
  const std::vector<int> dims = {1, 4, 16, 64, 256, 1024};
  const int nd = int(dims.size());
  std::vector<float> mw(nd * t), ent(nd * t), reg(nd * t), gn(nd * t);
  std::vector<float> u_mw(nd), u_ent(nd), u_gn(nd), u_peak(nd), u_flat(nd);
  std::vector<float> s_mw(nd), s_ent(nd), s_gn(nd), s_peak(nd), s_flat(nd);
  attn::Error err;
  REQUIRE(attn::saturation_sweep(x.data(), t, d_in, 1, dims.data(), nd, false,
                                 {mw.data(), ent.data(), reg.data(), gn.data()},
                                 {u_mw.data(), u_ent.data(), u_gn.data(), u_peak.data(), u_flat.data()}, &err));
  REQUIRE(attn::saturation_sweep(x.data(), t, d_in, 1, dims.data(), nd, true,
                                 {mw.data(), ent.data(), reg.data(), gn.data()},
                                 {s_mw.data(), s_ent.data(), s_gn.data(), s_peak.data(), s_flat.data()}, &err));
  // Unscaled: scores have standard deviation √d, so from d = 1 to 1024 the rows go from
  // balanced to one-hot. Compare the ends (the middle is noisy for one sentence and seed).
  REQUIRE(u_mw[nd - 1] > 0.95f);
  REQUIRE(u_mw[nd - 1] > u_mw[0] + 0.4f);
  REQUIRE(u_ent[nd - 1] < 0.25f * u_ent[0]);
  REQUIRE(u_gn[nd - 1] < 0.2f * u_gn[0]);
  REQUIRE(u_peak[nd - 1] >= 0.7f);
  for (int c = 1; c < nd; ++c) REQUIRE(u_ent[c] < u_ent[c - 1] + 0.05f);  // falls (up to noise)
  // Scaled: scores keep standard deviation ≈ 1 at every width: no row is one-hot and the
  // gradient stays within a factor of ~2 of its d = 1 size.
  for (int c = 0; c < nd; ++c) {
    INFO("d = " << dims[c]);
    REQUIRE(s_peak[c] == 0.0f);
    REQUIRE(s_gn[c] > 0.5f * s_gn[0]);
    REQUIRE(s_gn[c] > 3 * u_gn[nd - 1]);
  }
}

TEST_CASE("saturation trend: each row's largest weight averaged over the heads' projections", "[lesson][saturation]") {
  const int t = 8, d_in = 100, draws = 4;
  auto x = sentence(t, d_in, 56);
  const std::vector<int> dims = {1, 16, 256};
  const int nd = int(dims.size());
  const float threshold = 0.5f;
  std::vector<float> rows(nd * t), mean(nd);
  int first = -2;
  attn::Error err;
  REQUIRE(attn::saturation_trend(x.data(), t, d_in, 3, dims.data(), nd, draws, false, threshold, rows.data(),
                                 mean.data(), &first, &err));
  // the reference: each head's Q and K, the rows' largest weights in float64, averaged
  int expected_first = -1;
  for (int c = 0; c < nd; ++c) {
    const int d = dims[c];
    std::vector<double> sum(t, 0.0);
    for (int head = 0; head < draws; ++head) {
      std::vector<float> q(t * d), k(t * d);
      REQUIRE(attn::head_projections(x.data(), t, d_in, 3, head, d, q.data(), k.data(), nullptr, &err));
      for (int i = 0; i < t; ++i) {
        std::vector<double> z(t, 0.0);
        for (int j = 0; j < t; ++j)
          for (int e = 0; e < d; ++e) z[j] += double(q[i * d + e]) * double(k[j * d + e]);
        const double top = *std::max_element(z.begin(), z.end());
        double total = 0;
        for (double v : z) total += std::exp(v - top);
        sum[i] += 1 / total;  // the largest weight: exp(0) / Σ exp(z − max)
      }
    }
    double all = 0;
    for (int i = 0; i < t; ++i) {
      INFO("d = " << d << ", row " << i);
      REQUIRE(rows[c * t + i] == Approx(sum[i] / draws).epsilon(1e-4));
      all += sum[i] / draws;
    }
    REQUIRE(mean[c] == Approx(all / t).epsilon(1e-4));
    if (expected_first < 0 && all / t > threshold) expected_first = c;
  }
  REQUIRE(first == expected_first);
  // a threshold that is no weight, and no draws, are refused
  for (float bad : {0.0f, 1.0f, -0.5f}) {
    REQUIRE_FALSE(attn::saturation_trend(x.data(), t, d_in, 3, dims.data(), nd, draws, false, bad, rows.data(),
                                         mean.data(), &first, &err));
    REQUIRE(err.status == attn::Status::invalid_argument);
  }
  REQUIRE_FALSE(attn::saturation_trend(x.data(), t, d_in, 3, dims.data(), nd, 0, false, threshold, rows.data(),
                                       mean.data(), &first, &err));
}

TEST_CASE("step by step: every intermediate of one row", "[lesson][steps]") {
  const int m = 5, d = 8;
  auto q = ref64::random_normal(d, 70), k = ref64::random_normal(m * d, 71);
  std::vector<float> product(d), scores(m), shifted(m), exps(m), weights(m);
  attn::StepTrace tr{product.data(), scores.data(), shifted.data(), exps.data(), weights.data()};
  attn::Error err;
  REQUIRE(attn::step_by_step(q.data(), k.data(), m, d, 3, true, 1.0f, m, tr, &err));
  double dot3 = 0;
  for (int c = 0; c < d; ++c) {
    REQUIRE(product[c] == Approx(double(q[c]) * k[3 * d + c]).epsilon(1e-6));
    dot3 += double(q[c]) * k[3 * d + c];
  }
  REQUIRE(tr.dot == Approx(dot3).margin(1e-5));
  REQUIRE(tr.scale == Approx(1 / std::sqrt(8.0)).epsilon(1e-7));
  REQUIRE(tr.sqrt_d == Approx(std::sqrt(8.0)).epsilon(1e-7));
  REQUIRE(tr.min_weight == *std::min_element(weights.begin(), weights.end()));
  REQUIRE(tr.min_weight > 0.0f);
  auto expect = ref64::attention(q, k, {}, 1, m, d, 0, 1 / std::sqrt(8.0), 1.0, false);
  const double mx = *std::max_element(expect.scores.begin(), expect.scores.end());
  double sum = 0;
  for (int j = 0; j < m; ++j) sum += std::exp(expect.scores[j] - mx);
  REQUIRE(tr.row_max == Approx(mx).margin(1e-5));
  REQUIRE(tr.sum == Approx(sum).epsilon(1e-5));
  REQUIRE(tr.sum >= 1.0f);
  for (int j = 0; j < m; ++j) {
    REQUIRE(scores[j] == Approx(expect.scores[j]).margin(1e-5));
    REQUIRE(shifted[j] <= 0.0f);
    REQUIRE(exps[j] == Approx(std::exp(expect.scores[j] - mx)).margin(1e-5));
    REQUIRE(weights[j] > 0.0f);
    REQUIRE(weights[j] == Approx(expect.weights[j]).margin(kWeightAbsTol));
  }
  REQUIRE(tr.weight_sum == Approx(1.0).margin(1e-6));  // claim 4: a probability distribution
  REQUIRE(tr.max_weight == Approx(expect.max_weight[0]).margin(kWeightAbsTol));
  REQUIRE(tr.entropy == Approx(expect.entropy[0]).margin(1e-5));
  REQUIRE_FALSE(attn::step_by_step(q.data(), k.data(), m, d, m, true, 1.0f, m, tr, &err));
  REQUIRE(std::string(err.message).find("key") != std::string::npos);
  REQUIRE_FALSE(attn::step_by_step(q.data(), k.data(), m, d, 0, true, 1.0f, 0, tr, &err));
  REQUIRE_FALSE(attn::step_by_step(q.data(), k.data(), m, d, 0, true, 0.0f, m, tr, &err));
}

TEST_CASE("step by step with a temperature and hidden keys is the page's attention row", "[lesson][steps]") {
  // The page's row i under a causal mask sees keys j ≤ i: visible = i + 1, here 3 of 5.
  const int m = 5, d = 16, visible = 3;
  const float temperature = 0.4f;
  auto q = ref64::random_normal(d, 72), k = ref64::random_normal(m * d, 73);
  std::vector<float> product(d), scores(m), shifted(m), exps(m), weights(m);
  attn::StepTrace tr{product.data(), scores.data(), shifted.data(), exps.data(), weights.data()};
  attn::Error err;
  REQUIRE(attn::step_by_step(q.data(), k.data(), m, d, 4, false, temperature, visible, tr, &err));
  std::vector<float> mask(m, 0.0f);
  for (int j = visible; j < m; ++j) mask[j] = -INFINITY;
  auto expect = ref64::attention(q, k, {}, 1, m, d, 0, 1.0, temperature, false, &mask);
  for (int j = 0; j < m; ++j) REQUIRE(weights[j] == Approx(expect.weights[j]).margin(kWeightAbsTol));
  for (int j = visible; j < m; ++j) {
    REQUIRE(scores[j] == -INFINITY);
    REQUIRE(weights[j] == 0.0f);
  }
  REQUIRE(tr.max_weight == Approx(expect.max_weight[0]).margin(kWeightAbsTol));
  REQUIRE(tr.entropy == Approx(expect.entropy[0]).margin(1e-5));
  REQUIRE(tr.weight_sum == Approx(1.0).margin(1e-6));
  REQUIRE(tr.min_weight == *std::min_element(weights.begin(), weights.begin() + visible));  // hidden keys: 0, not counted
  REQUIRE(tr.min_weight > 0.0f);
}

TEST_CASE("softmax_gradient_norm is the sweep's gradient size of a row", "[lesson][gradients]") {
  const int m = 6;
  auto z = ref64::random_normal(m, 74);
  std::vector<float> p(m), g(m);
  attn::Error err;
  REQUIRE(attn::softmax(z.data(), m, 1.0f, p.data(), &err));
  attn::upstream_gradient(9, 2, m, g.data());
  double pg = 0, norm_sq = 0;
  for (int j = 0; j < m; ++j) pg += double(p[j]) * g[j];
  for (int j = 0; j < m; ++j) norm_sq += std::pow(double(p[j]) * (g[j] - pg), 2);
  float norm = -1;
  REQUIRE(attn::softmax_gradient_norm(p.data(), m, 9, 2, &norm, &err));
  REQUIRE(norm == Approx(std::sqrt(norm_sq)).epsilon(1e-5));
}

TEST_CASE("the naive softmax overflows where the stable one does not", "[lesson][overflow]") {
  const int m = 4;
  std::vector<float> zt(m), exps(m), weights(m), stable(m);
  float sum;
  attn::Error err;
  SECTION("small scores: naive and stable agree") {
    const std::vector<float> z = {1, 2, 0.5f, -3};
    float largest = 0;
    bool overflowed = true;
    REQUIRE(attn::softmax_naive(z.data(), m, 2.0f, zt.data(), exps.data(), &sum, weights.data(), &err, &largest,
                                &overflowed));
    REQUIRE(largest == 1.0f);  // 2 / 2
    REQUIRE_FALSE(overflowed);
    double expect_sum = 0;
    for (int j = 0; j < m; ++j) expect_sum += std::exp(z[j] / 2.0);
    REQUIRE(sum == Approx(expect_sum).epsilon(1e-6));
    REQUIRE(attn::softmax(z.data(), m, 2.0f, stable.data(), &err));
    for (int j = 0; j < m; ++j) {
      REQUIRE(zt[j] == z[j] / 2.0f);
      REQUIRE(exps[j] == Approx(std::exp(z[j] / 2.0)).epsilon(1e-6));
      REQUIRE(weights[j] == Approx(stable[j]).margin(1e-6));
    }
  }
  SECTION("scores past ln(FLT_MAX): ∞ exps, ∞ sum, NaN weights — returned raw") {
    REQUIRE(attn::kExpOverflowThreshold == Approx(std::log(double(FLT_MAX))).epsilon(1e-7));
    const std::vector<float> z = {95, 90, 10, -5};
    float largest = 0;
    bool overflowed = false;
    REQUIRE(attn::softmax_naive(z.data(), m, 1.0f, zt.data(), exps.data(), &sum, weights.data(), &err, &largest,
                                &overflowed));
    REQUIRE(largest == 95.0f);
    REQUIRE(overflowed);
    REQUIRE(std::isinf(exps[0]));
    REQUIRE(std::isinf(exps[1]));
    REQUIRE(std::isinf(sum));
    REQUIRE(std::isnan(weights[0]));
    REQUIRE(std::isnan(weights[1]));
    REQUIRE(weights[2] == 0.0f);
    REQUIRE(attn::softmax(z.data(), m, 1.0f, stable.data(), &err));
    for (float p : stable) REQUIRE(std::isfinite(p));
    REQUIRE(stable[0] == Approx(1 / (1 + std::exp(-5.0))).epsilon(1e-6));
    // a higher temperature brings the same scores back into range
    REQUIRE(attn::softmax_naive(z.data(), m, 4.0f, zt.data(), exps.data(), &sum, weights.data(), &err));
    REQUIRE(std::isfinite(sum));
  }
  SECTION("bad input") {
    const std::vector<float> z = {1, NAN, 0, 0};
    REQUIRE_FALSE(attn::softmax_naive(z.data(), m, 1.0f, zt.data(), exps.data(), &sum, weights.data(), &err));
    REQUIRE_FALSE(attn::softmax_naive(z.data(), m, 0.0f, zt.data(), exps.data(), &sum, weights.data(), &err));
    REQUIRE(err.status == attn::Status::invalid_argument);
  }
}

TEST_CASE("multi-head: each head is attention with its own projections", "[lesson][multihead]") {
  const int t = 7, d_in = 100, d = 12, heads = 3;
  auto x = sentence(t, d_in, 66);
  std::vector<float> weights(heads * t * t), entropy(heads * t), max_weight(heads * t), concat(t * heads * d);
  attn::Error err;
  REQUIRE(attn::multi_head(x.data(), t, d_in, 2, heads, d, true,
                           {weights.data(), entropy.data(), max_weight.data(), concat.data()}, &err));
  for (int r = 0; r < heads; ++r) {
    auto q = to_float(project64(x, t, d_in, projection_weights(2, attn::Role::query, r, d_in, d), d));
    auto k = to_float(project64(x, t, d_in, projection_weights(2, attn::Role::key, r, d_in, d), d));
    auto v = to_float(project64(x, t, d_in, projection_weights(2, attn::Role::value, r, d_in, d), d));
    auto expect = ref64::attention(q, k, v, t, t, d, d, 1 / std::sqrt(double(d)), 1.0, false);
    for (int i = 0; i < t; ++i) {
      REQUIRE(entropy[r * t + i] == Approx(expect.entropy[i]).margin(2e-4));
      REQUIRE(max_weight[r * t + i] == Approx(expect.max_weight[i]).margin(kWeightAbsTol));
      for (int j = 0; j < t; ++j) REQUIRE(weights[(r * t + i) * t + j] == Approx(expect.weights[i * t + j]).margin(kWeightAbsTol));
      for (int c = 0; c < d; ++c)
        REQUIRE(concat[i * heads * d + r * d + c] == Approx(expect.output[i * d + c]).margin(1e-4));
    }
  }
  REQUIRE_FALSE(attn::multi_head(x.data(), t, d_in, 2, 9, d, true,
                                 {weights.data(), entropy.data(), max_weight.data(), concat.data()}, &err));
  REQUIRE(std::string(err.message).find("heads") != std::string::npos);
}

TEST_CASE("lesson inputs: weights finite, p probabilities, gradients within float32", "[lesson][errors]") {
  attn::Error err;
  const int t = 3, d_in = 4, d = 2;
  auto x = sentence(t, d_in, 5);
  std::vector<float> wq(d_in * d, 0.5f), wk(d_in * d, 0.5f), q(t * d), k(t * d);
  REQUIRE(attn::project_head(x.data(), t, d_in, wq.data(), wk.data(), nullptr, d, q.data(), k.data(), nullptr, &err));
  wk[5] = NAN;
  REQUIRE_FALSE(
      attn::project_head(x.data(), t, d_in, wq.data(), wk.data(), nullptr, d, q.data(), k.data(), nullptr, &err));
  REQUIRE(err.status == attn::Status::non_finite_input);
  REQUIRE(std::string(err.message) == "wk[2][1] is NaN: wk must hold finite numbers");

  // a Jacobian of p with p outside [0, 1] is not a softmax Jacobian (and 1e30·1e30 leaves float32)
  const std::vector<float> big = {1e30f, 1e30f};
  std::vector<float> jac(4), dz(3);
  REQUIRE_FALSE(attn::softmax_jacobian(big.data(), 2, jac.data(), &err));
  REQUIRE(err.status == attn::Status::invalid_argument);
  REQUIRE(std::string(err.message) == "p[0] is 1e+30: p must hold probabilities, numbers from 0 to 1");
  // p in [0, 1] but not summing to 1, dp near the limit: dz = p ⊙ (dp − ⟨p, dp⟩) leaves float32
  const std::vector<float> ones = {1, 1, 1}, dp = {FLT_MAX, FLT_MAX, -FLT_MAX};
  REQUIRE_FALSE(attn::softmax_backward(ones.data(), dp.data(), 3, dz.data(), &err));
  REQUIRE(err.status == attn::Status::overflow);
  REQUIRE(std::string(err.message).find("dz[2] overflows float32") != std::string::npos);
  REQUIRE_FALSE(attn::validate_upstream_gradient(-1, 3, &err));
  REQUIRE(std::string(err.message) == "row must be an integer from 0 to 65536, got -1");
  REQUIRE_FALSE(attn::validate_upstream_gradient(0, 0, &err));
}

TEST_CASE("step by step reads the reference softmax's own trace: the same weights bit for bit", "[lesson][steps]") {
  const int m = 9, d = 5;
  for (float temperature : {1.0f, 0.3f, 7.0f}) {
    auto q = ref64::random_normal(d, 80), k = ref64::random_normal(m * d, 81, 3.0f);
    std::vector<float> product(d), scores(m), shifted(m), exps(m), weights(m), reference(m);
    attn::StepTrace tr{product.data(), scores.data(), shifted.data(), exps.data(), weights.data()};
    attn::Error err;
    REQUIRE(attn::step_by_step(q.data(), k.data(), m, d, 2, true, temperature, 6, tr, &err));
    float entropy;
    const float max_weight = attn::softmax_row_ref(scores.data(), m, 1.0f / temperature, reference.data(), &entropy);
    REQUIRE(weights == reference);
    REQUIRE(tr.max_weight == max_weight);
    REQUIRE(tr.entropy == entropy);
    for (int j = 0; j < m; ++j)
      REQUIRE(scores[j] == (j < 6 ? tr.scale * attn::dot_ref(q.data(), k.data() + j * d, d) : -INFINITY));
  }
}

TEST_CASE("step by step shows no Infinity or NaN: a chosen key whose q·k leaves float32 fails, hidden or not",
          "[lesson][steps][errors]") {
  // key 1's q·k = 2e40 (and its products 1e40 each): hidden from the row (visible = 1) or not
  const std::vector<float> q = {1e20f, 1e20f}, k = {1, 0, 1e20f, 1e20f};
  std::vector<float> product(2), scores(2), shifted(2), exps(2), weights(2);
  attn::StepTrace tr{product.data(), scores.data(), shifted.data(), exps.data(), weights.data()};
  attn::Error err;
  for (int visible : {1, 2}) {
    REQUIRE_FALSE(attn::step_by_step(q.data(), k.data(), 2, 2, 1, false, 1.0f, visible, tr, &err));
    REQUIRE(err.status == attn::Status::overflow);
    REQUIRE(std::string(err.message).find("q·k for key 1 overflows float32") != std::string::npos);
  }
  REQUIRE(attn::step_by_step(q.data(), k.data(), 2, 2, 0, false, 1.0f, 1, tr, &err));  // key 0 chosen: fine
  REQUIRE(tr.weights[0] == 1.0f);
}
