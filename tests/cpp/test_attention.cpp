// The core against an independent float64 reference, for the SIMD path and the `_ref` path,
// on shapes that are not multiples of the SIMD width.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "reference.hpp"
#include "core/simd.hpp"

namespace {

// Scores: float32 dot products of N(0,1) vectors of width d carry a rounding error of at
// most ~d·ε·Σ|qᵢkᵢ| (ε = FLT_EPSILON); we allow that bound, which holds for fma and mul+add.
double dot_tolerance(const std::vector<float>& q, const std::vector<float>& k, int i, int j, int d) {
  double abs_sum = 0;
  for (int c = 0; c < d; ++c) abs_sum += std::fabs(double(q[std::size_t(i) * d + c]) * k[std::size_t(j) * d + c]);
  return (d + 2) * FLT_EPSILON * abs_sum + 1e-30;
}
// Weights are in [0, 1]; a score error δ moves a weight by about p·δ, and exp/sum rounding adds
// a few ε. With scaled N(0,1) inputs (|δ| < 1e-5) 2e-5 absolute is a safe, still tight bound.
constexpr double kWeightAbsTol = 2e-5;
// Entropy (nats) ≤ ln m ~ 6 here; it inherits the weight error times |ln p| ≲ 20.
constexpr double kEntropyAbsTol = 2e-4;
// Output rows are convex combinations of V rows (|v| ≲ 5): the weight error times Σ|v|.
constexpr double kOutputAbsTol = 1e-4;

struct Run {
  std::vector<float> dots, scores, weights, output, entropy, max_weight, row_sum;
  attn::Error err;
  bool ok = false;
};

using Forward = bool (*)(const float*, const float*, const float*, attn::AttentionShape, const attn::AttentionOptions&,
                         attn::AttentionResult, attn::Error*);

Run run(Forward forward, const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v, int n,
        int m, int d, int dv, attn::AttentionOptions opt) {
  Run r;
  const std::size_t nm = std::size_t(std::max(n, 0)) * std::size_t(std::max(m, 0));  // bad shapes are tested too
  r.dots.assign(nm, NAN);
  r.scores.assign(nm, NAN);
  r.weights.assign(nm, NAN);
  r.output.assign(std::size_t(std::max(n, 0)) * std::size_t(std::max(dv, 0)), NAN);
  r.entropy.assign(std::max(n, 0), NAN);
  r.max_weight.assign(std::max(n, 0), NAN);
  r.row_sum.assign(std::max(n, 0), NAN);
  attn::AttentionResult out{r.dots.data(), r.scores.data(), r.weights.data(), dv ? r.output.data() : nullptr,
                            r.entropy.data(), r.max_weight.data(), r.row_sum.data()};
  r.ok = forward(q.data(), k.data(), dv ? v.data() : nullptr, {n, m, d, dv}, opt, out, &r.err);
  return r;
}

void check_against_reference(const Run& r, const ref64::Result& expect, const std::vector<float>& q,
                             const std::vector<float>& k, int n, int m, int d, int dv, double scale) {
  REQUIRE(r.ok);
  for (int i = 0; i < n; ++i) {
    double row_sum = 0;
    for (int j = 0; j < m; ++j) {
      const std::size_t idx = std::size_t(i) * m + j;
      INFO("query " << i << " key " << j);
      REQUIRE(std::fabs(r.dots[idx] - expect.dots[idx]) <= dot_tolerance(q, k, i, j, d));
      if (std::isinf(expect.scores[idx])) {
        REQUIRE(r.scores[idx] == -INFINITY);
      } else {
        REQUIRE(std::fabs(r.scores[idx] - expect.scores[idx]) <= scale * dot_tolerance(q, k, i, j, d) + 1e-6);
      }
      REQUIRE(r.weights[idx] >= 0.0f);
      REQUIRE(std::fabs(r.weights[idx] - expect.weights[idx]) <= kWeightAbsTol);
      row_sum += r.weights[idx];
    }
    REQUIRE(std::fabs(r.entropy[i] - expect.entropy[i]) <= kEntropyAbsTol);
    REQUIRE(std::fabs(r.max_weight[i] - expect.max_weight[i]) <= kWeightAbsTol);
    if (expect.max_weight[i] > 0) REQUIRE(std::fabs(row_sum - 1.0) <= m * kWeightAbsTol);
    REQUIRE(std::fabs(r.row_sum[i] - row_sum) <= 1e-6);  // the Σ a view prints: the weights' own sum
    if (expect.max_weight[i] == 0) REQUIRE(r.row_sum[i] == 0.0f);
    for (int c = 0; c < dv; ++c)
      REQUIRE(std::fabs(r.output[std::size_t(i) * dv + c] - expect.output[std::size_t(i) * dv + c]) <= kOutputAbsTol);
  }
}

}  // namespace

TEST_CASE("attention matches the float64 reference on awkward shapes", "[attention]") {
  const int sizes[] = {1, 3, 4, 5, 17, 63, 100};
  std::uint32_t seed = 1;
  for (Forward forward : {attn::attention_forward, attn::attention_forward_ref}) {
    for (int n : sizes) {
      for (int d : {1, 3, 8, 17, 63, 100}) {
        const int m = sizes[(n + d) % 7], dv = (d * 3) % 11;  // dv 0 (no V) included
        const bool causal = (n == m) && (d % 2 == 1);
        const double scale = (d % 3 == 0) ? 1.0 : 1.0 / std::sqrt(double(d));
        const float temperature = (n % 2) ? 1.0f : 0.7f;
        auto q = ref64::random_normal(std::size_t(n) * d, seed++);
        auto k = ref64::random_normal(std::size_t(m) * d, seed++);
        auto v = ref64::random_normal(std::size_t(m) * dv, seed++);
        attn::AttentionOptions opt;
        opt.scale = float(scale);
        opt.temperature = temperature;
        opt.causal = causal;
        INFO("n=" << n << " m=" << m << " d=" << d << " dv=" << dv << " causal=" << causal);
        Run r = run(forward, q, k, v, n, m, d, dv, opt);
        auto expect = ref64::attention(q, k, v, n, m, d, dv, double(opt.scale), temperature, causal);
        check_against_reference(r, expect, q, k, n, m, d, dv, scale);
      }
    }
  }
}

TEST_CASE("SIMD kernels agree with their _ref twins", "[kernels]") {
  for (int len : {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 63, 64, 65, 1000}) {
    auto z = ref64::random_normal(len, 100 + len, 3.0f);
    if (len > 2) z[1] = -INFINITY;  // a hidden key inside the vector body
    std::vector<float> fast(len), slow(len);
    float h_fast, h_slow;
    float max_fast = attn::softmax_row(z.data(), len, 1.3f, fast.data(), &h_fast);
    float max_slow = attn::softmax_row_ref(z.data(), len, 1.3f, slow.data(), &h_slow);
    for (int j = 0; j < len; ++j) REQUIRE(std::fabs(fast[j] - slow[j]) <= kWeightAbsTol);
    REQUIRE(std::fabs(max_fast - max_slow) <= kWeightAbsTol);
    REQUIRE(std::fabs(h_fast - h_slow) <= kEntropyAbsTol);
    REQUIRE(attn::all_finite(z.data(), len) == attn::all_finite_ref(z.data(), len));
  }
  std::vector<float> x(37, 1.0f);
  REQUIRE(attn::all_finite(x.data(), x.size()));
  for (std::size_t pos : {0u, 5u, 32u, 36u}) {
    for (float bad : {NAN, INFINITY, -INFINITY}) {
      auto y = x;
      y[pos] = bad;
      REQUIRE_FALSE(attn::all_finite(y.data(), y.size()));
      REQUIRE_FALSE(attn::all_finite_ref(y.data(), y.size()));
    }
  }
}

TEST_CASE("softmax rows are probability distributions", "[softmax]") {
  SECTION("positive, sum to one, entropy ln m when flat") {
    std::vector<float> z(13, 2.5f), p(13);
    attn::Error err;
    REQUIRE(attn::softmax(z.data(), 13, 1.0f, p.data(), &err));
    double sum = 0;
    for (float w : p) {
      REQUIRE(w == Approx(1.0 / 13).margin(1e-7));
      sum += w;
    }
    REQUIRE(sum == Approx(1.0).margin(1e-6));
    float h;
    attn::softmax_row(z.data(), 13, 1.0f, p.data(), &h);
    REQUIRE(h == Approx(std::log(13.0)).margin(kEntropyAbsTol));
  }
  SECTION("huge score gaps saturate to one-hot without NaN") {
    std::vector<float> z = {1e30f, -1e30f, 0.0f, 3e38f, -3e38f}, p(5);
    attn::Error err;
    REQUIRE(attn::softmax(z.data(), 5, 1.0f, p.data(), &err));
    REQUIRE(p[3] == 1.0f);
    REQUIRE(p[0] == 0.0f);
    float h;
    float mx = attn::softmax_row(z.data(), 5, 1.0f, p.data(), &h);
    REQUIRE(mx == 1.0f);
    REQUIRE(h == 0.0f);
  }
  SECTION("temperature: high flattens, low sharpens") {
    std::vector<float> z = {1, 2, 3}, hot(3), cold(3);
    float h_hot, h_cold;
    attn::softmax_row(z.data(), 3, 1.0f / 100.0f, hot.data(), &h_hot);
    attn::softmax_row(z.data(), 3, 1.0f / 0.01f, cold.data(), &h_cold);
    REQUIRE(h_hot > 1.09);  // close to ln 3 = 1.0986
    REQUIRE(cold[2] == Approx(1.0).margin(1e-6));
  }
  SECTION("all hidden: zeros, not NaN") {
    std::vector<float> z(6, -INFINITY), p(6, 7.0f);
    attn::Error err;
    REQUIRE(attn::softmax(z.data(), 6, 1.0f, p.data(), &err));
    for (float w : p) REQUIRE(w == 0.0f);
  }
  SECTION("bad input is rejected with a message") {
    std::vector<float> z = {0, NAN, 1}, p(3);
    attn::Error err;
    REQUIRE_FALSE(attn::softmax(z.data(), 3, 1.0f, p.data(), &err));
    REQUIRE(err.status == attn::Status::non_finite_input);
    REQUIRE(std::string(err.message).find("scores[1] is NaN") != std::string::npos);
    z[1] = INFINITY;
    REQUIRE_FALSE(attn::softmax(z.data(), 3, 1.0f, p.data(), &err));
    for (float t : {0.0f, -1.0f, NAN, INFINITY, 1e-45f}) {
      z[1] = 0;
      REQUIRE_FALSE(attn::softmax(z.data(), 3, t, p.data(), &err));
      REQUIRE(std::string(err.message).find("temperature") != std::string::npos);
    }
    REQUIRE_FALSE(attn::softmax(z.data(), 0, 1.0f, p.data(), &err));
  }
}

TEST_CASE("masks: causal, additive and a fully masked row", "[mask]") {
  const int n = 5, d = 7, dv = 3;
  auto q = ref64::random_normal(n * d, 7), k = ref64::random_normal(n * d, 8), v = ref64::random_normal(n * dv, 9);
  std::vector<float> mask(n * n, 0.0f);
  for (int j = 0; j < n; ++j) mask[2 * n + j] = -INFINITY;  // row 2 sees nothing
  mask[0 * n + 3] = -INFINITY;
  mask[4 * n + 1] = -2.5f;
  attn::AttentionOptions opt;
  opt.scale = attn::inv_sqrt(d);
  opt.mask = mask.data();
  for (bool causal : {false, true}) {
    opt.causal = causal;
    Run r = run(attn::attention_forward, q, k, v, n, n, d, dv, opt);
    REQUIRE(r.ok);
    auto expect = ref64::attention(q, k, v, n, n, d, dv, opt.scale, 1.0, causal, &mask);
    check_against_reference(r, expect, q, k, n, n, d, dv, opt.scale);
    for (int j = 0; j < n; ++j) {
      REQUIRE(r.weights[2 * n + j] == 0.0f);
      REQUIRE(r.scores[2 * n + j] == -INFINITY);
    }
    for (int c = 0; c < dv; ++c) REQUIRE(r.output[2 * dv + c] == 0.0f);
    REQUIRE(r.entropy[2] == 0.0f);
    REQUIRE(r.max_weight[2] == 0.0f);
    REQUIRE(r.weights[0 * n + 3] == 0.0f);
    if (causal)
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) REQUIRE(r.weights[std::size_t(i) * n + j] == 0.0f);
  }
}

TEST_CASE("bad input fails with a message naming the argument", "[errors]") {
  const int n = 3, m = 4, d = 5, dv = 2;
  auto q = ref64::random_normal(n * d, 1), k = ref64::random_normal(m * d, 2), v = ref64::random_normal(m * dv, 3);
  attn::AttentionOptions ok_opt;
  auto expect_error = [&](std::vector<float> q2, std::vector<float> k2, std::vector<float> v2, int n2, int m2, int d2,
                          int dv2, attn::AttentionOptions opt, attn::Status status, const char* words) {
    for (Forward forward : {attn::attention_forward, attn::attention_forward_ref}) {
      Run r = run(forward, q2, k2, v2, n2, m2, d2, dv2, opt);
      REQUIRE_FALSE(r.ok);
      REQUIRE(r.err.status == status);
      INFO(r.err.message);
      REQUIRE(std::string(r.err.message).find(words) != std::string::npos);
    }
  };
  auto q_nan = q;
  q_nan[1 * d + 2] = NAN;
  expect_error(q_nan, k, v, n, m, d, dv, ok_opt, attn::Status::non_finite_input, "q[1][2] is NaN");
  auto k_inf = k;
  k_inf[3 * d + 4] = -INFINITY;
  expect_error(q, k_inf, v, n, m, d, dv, ok_opt, attn::Status::non_finite_input, "k[3][4] is -Infinity");
  auto v_inf = v;
  v_inf[0] = INFINITY;
  expect_error(q, k, v_inf, n, m, d, dv, ok_opt, attn::Status::non_finite_input, "v[0][0] is Infinity");
  expect_error(q, k, v, 0, m, d, dv, ok_opt, attn::Status::invalid_shape, "n (number of queries)");
  expect_error(q, k, v, n, -1, d, dv, ok_opt, attn::Status::invalid_shape, "m (number of keys)");
  expect_error(q, k, v, n, m, 0, dv, ok_opt, attn::Status::invalid_shape, "d (key width)");
  attn::AttentionOptions causal = ok_opt;
  causal.causal = true;
  expect_error(q, k, v, n, m, d, dv, causal, attn::Status::invalid_shape, "n == m");
  for (float bad : {0.0f, -0.5f, NAN, INFINITY}) {
    attn::AttentionOptions o = ok_opt;
    o.scale = bad;
    expect_error(q, k, v, n, m, d, dv, o, attn::Status::invalid_argument, "scale must be a positive finite number");
    o = ok_opt;
    o.temperature = bad;
    expect_error(q, k, v, n, m, d, dv, o, attn::Status::invalid_argument, "temperature must be");
  }
  std::vector<float> mask(n * m, 0.0f);
  mask[5] = NAN;
  attn::AttentionOptions masked = ok_opt;
  masked.mask = mask.data();
  expect_error(q, k, v, n, m, d, dv, masked, attn::Status::non_finite_input, "mask[1][1] is NaN");
  mask[5] = INFINITY;
  expect_error(q, k, v, n, m, d, dv, masked, attn::Status::non_finite_input, "mask[1][1] is Infinity");
}

TEST_CASE("scores that overflow float32 are reported, not turned into NaN", "[errors]") {
  const int n = 2, d = 4;
  std::vector<float> q(n * d, 1e20f), k(n * d, 1e20f), v;
  attn::AttentionOptions opt;
  Run r = run(attn::attention_forward, q, k, v, n, n, d, 0, opt);
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.err.status == attn::Status::overflow);
  REQUIRE(std::string(r.err.message).find("overflows float32") != std::string::npos);
  // q·k itself fits (4e36), but scale·q·k does not.
  std::fill(q.begin(), q.end(), 1e18f);
  opt.scale = 1e3f;
  r = run(attn::attention_forward, q, k, v, n, n, d, 0, opt);
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.err.status == attn::Status::overflow);
  // A tiny temperature is not an overflow: the max is subtracted first, the row saturates.
  opt.scale = 1.0f;
  opt.temperature = 1e-30f;
  std::vector<float> q2 = {1, 0, 0, 0, 0, 1, 0, 0}, k2 = {1, 0, 0, 0, 0, 2, 0, 0};
  r = run(attn::attention_forward, q2, k2, v, n, n, d, 0, opt);
  REQUIRE(r.ok);
  REQUIRE(r.weights[0] == 1.0f);
  REQUIRE(r.weights[3] == 1.0f);
}

TEST_CASE("the kernels run on the intended instruction set", "[simd]") {
  // Guards against a SIMD path that silently never runs: the arch xsimd picked must be the one
  // the build chose (CMakeLists.txt passes its xsimd name: wasm SIMD128 under -msimd128, the
  // portable emulation in the scalar wasm build, AVX2+FMA, SSE2 or NEON natively).
#ifndef ATTN_EXPECTED_ARCH
#error "CMakeLists.txt passes ATTN_EXPECTED_ARCH, the xsimd arch name this build must run"
#endif
  REQUIRE(std::string(attn::simd_arch_name()) == ATTN_EXPECTED_ARCH);
}

TEST_CASE("a hidden key's q·k may leave float32; only a visible score fails the call", "[attention][mask][errors]") {
  // q0·k1 = 1e40 leaves float32, but key 1 is hidden from query 0 (by the causal mask, or by an
  // additive -Infinity): the call succeeds, as the streaming forward does for the same input.
  const std::vector<float> q = {1e20f, 1e-20f}, k = {1.0f, 1e20f}, v = {3.0f, 5.0f};
  std::vector<float> mask = {0.0f, -INFINITY, 0.0f, 0.0f};
  // row 1 sees scores 1e-20 and 1: p = softmax([1e-20, 1])
  const double p11 = 1.0 / (1.0 + std::exp(-1.0));
  for (Forward forward : {attn::attention_forward, attn::attention_forward_ref}) {
    for (bool causal : {true, false}) {
      attn::AttentionOptions opt;
      opt.causal = causal;
      if (!causal) opt.mask = mask.data();
      INFO("causal " << causal);
      Run r = run(forward, q, k, v, 2, 2, 1, 1, opt);
      INFO(r.err.message);
      REQUIRE(r.ok);
      REQUIRE(r.dots[1] == INFINITY);  // the true q·k (1e40), beyond float32, for a hidden key only
      REQUIRE(r.scores[1] == -INFINITY);
      REQUIRE(r.weights[0] == 1.0f);
      REQUIRE(r.weights[1] == 0.0f);
      REQUIRE(r.output[0] == 3.0f);
      REQUIRE(r.weights[3] == Approx(p11).margin(kWeightAbsTol));
      REQUIRE(r.output[1] == Approx((1 - p11) * 3 + p11 * 5).margin(kOutputAbsTol));
    }
    Run visible = run(forward, q, k, v, 2, 2, 1, 1, attn::AttentionOptions{});  // the same key, visible
    REQUIRE_FALSE(visible.ok);
    REQUIRE(visible.err.status == attn::Status::overflow);
    REQUIRE(std::string(visible.err.message).find("query 1, key 2") != std::string::npos);  // counted from 1
  }
  attn::StreamingOptions causal;
  causal.causal = true;
  std::vector<float> streamed(2);
  attn::Error err;
  REQUIRE(attn::attention_streaming_forward(q.data(), k.data(), v.data(), {2, 2, 1, 1}, causal, streamed.data(), &err));
  REQUIRE(streamed[0] == 3.0f);
  REQUIRE(streamed[1] == Approx((1 - p11) * 3 + p11 * 5).margin(kOutputAbsTol));
}

TEST_CASE("an output that leaves float32 is an overflow, not Infinity", "[attention][errors]") {
  // 10 equal scores: weights fl(1/10) each, and the float32 sum of the ten fl(0.1·FLT_MAX), taken
  // in order (dv = 1: the scalar path of every build), rounds to Infinity, although the exact
  // convex combination of v's rows is FLT_MAX itself. (The streaming forward sums p·v before it
  // divides by Σp, so there any |v| above FLT_MAX / 10 overflows here.)
  constexpr int m = 10;
  const std::vector<float> q = {0.0f}, k(m, 0.0f), v(m, FLT_MAX);
  for (Forward forward : {attn::attention_forward, attn::attention_forward_ref}) {
    Run r = run(forward, q, k, v, 1, m, 1, 1, attn::AttentionOptions{});
    REQUIRE_FALSE(r.ok);
    REQUIRE(r.err.status == attn::Status::overflow);
    REQUIRE(std::string(r.err.message).find("output[0][0] overflows float32") != std::string::npos);
  }
  std::vector<float> streamed(1);
  attn::Error err;
  REQUIRE_FALSE(attn::attention_streaming_forward(q.data(), k.data(), v.data(), {1, m, 1, 1}, attn::StreamingOptions{},
                                                  streamed.data(), &err));
  REQUIRE(err.status == attn::Status::overflow);
}

TEST_CASE("a long row still sums to 1: the softmax sum is compensated or in double", "[softmax][long]") {
  // Scores [2, 0, 0, ...]: every weight is known, p0 = e² / (e² + m − 1). Summed plainly in
  // float32 the 16,384 terms of each lane of a 65,536-key row drift by ~1e-4 (measured: rows
  // summing to 1 ± 6.5e-5). Compensated, Σe is within ~2ε of the sum of its terms, so the weights
  // e·fl(1/Σe) sum to 1 within that plus the rounding of 1/Σe and of the products (½ε each):
  // kRowSumTol = 4ε. p0 also carries exp's error (≈ 2 ulp in Σe): kFirstWeightRelTol = 8ε.
  constexpr double kRowSumTol = 4 * FLT_EPSILON, kFirstWeightRelTol = 8 * FLT_EPSILON;
  for (int m : {16384, 65536}) {
    INFO("m = " << m);
    std::vector<float> z(m, 0.0f), p(m);
    z[0] = 2.0f;
    const double p0 = std::exp(2.0) / (std::exp(2.0) + (m - 1));
    float entropy;
    using Row = float (*)(const float*, int, float, float*, float*) noexcept;
    const Row fast = attn::softmax_row;
    const Row reference = [](const float* row, int count, float inv_t, float* out, float* h) noexcept {
      return attn::softmax_row_ref(row, count, inv_t, out, h);
    };
    for (Row softmax_row : {fast, reference}) {
      softmax_row(z.data(), m, 1.0f, p.data(), &entropy);
      double sum = 0;
      for (float w : p) sum += w;
      REQUIRE(std::fabs(sum - 1.0) <= kRowSumTol);
      REQUIRE(std::fabs(p[0] / p0 - 1.0) <= kFirstWeightRelTol);
    }
    // the streaming forward: v one-hot on key 0 makes the output p0 itself (nothing else summed)
    std::vector<float> q = {1.0f}, v(m, 0.0f), out(1);
    v[0] = 1.0f;
    attn::StreamingOptions unscaled;
    attn::Error err;
    for (auto forward : {attn::attention_streaming_forward, attn::attention_streaming_forward_ref}) {
      REQUIRE(forward(q.data(), z.data(), v.data(), {1, m, 1, 1}, unscaled, out.data(), &err));
      REQUIRE(std::fabs(out[0] / p0 - 1.0) <= kFirstWeightRelTol);
    }
  }
}

TEST_CASE("a row spanning more than FLT_MAX keeps its weights at a temperature that brings it back", "[softmax]") {
  // z − max overflows (−4e38), but (z − max)/T does not: with T = 3.4e38 the weights are
  // softmax([0.588, −0.588]) = [0.764, 0.236], not [1, 0]. Row 2 puts such scores in a vector body.
  const float temperature = 3.4e38f;
  const std::vector<std::vector<float>> rows = {{2e38f, -2e38f},
                                                {2e38f, -2e38f, 0, 1e38f, -1e38f, 3e38f, -3e38f, 5, -INFINITY}};
  for (const auto& z : rows) {
    const int m = int(z.size());
    double top = -INFINITY, sum = 0;
    for (float x : z) top = std::fmax(top, x);
    std::vector<double> expect(m);
    for (int j = 0; j < m; ++j) sum += expect[j] = std::exp((double(z[j]) - top) / temperature);
    std::vector<float> fast(m), slow(m);
    float entropy;
    attn::Error err;
    REQUIRE(attn::softmax(z.data(), m, temperature, fast.data(), &err));
    attn::softmax_row_ref(z.data(), m, 1.0f / temperature, slow.data(), &entropy);
    for (int j = 0; j < m; ++j) {
      INFO("m = " << m << ", j = " << j);
      // 1/T is a float32 subnormal here (2.9e-39, ~21 bits): a relative error of ~1e-6 in t ≈ 0.6
      REQUIRE(fast[j] == Approx(expect[j] / sum).margin(1e-5));
      REQUIRE(slow[j] == Approx(expect[j] / sum).margin(1e-5));
    }
  }
}
