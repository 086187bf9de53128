// Seeded randomness, projections, positions and unknown-word vectors.
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/embedding.hpp"
#include "core/random.hpp"
#include "reference.hpp"

TEST_CASE("splitmix64 and FNV-1a reproduce their published test vectors", "[random]") {
  // splitmix64 reference outputs for seed 1234567 (Vigna's splitmix64.c, as used by Java's SplittableRandom tests).
  attn::Rng rng(1234567);
  REQUIRE(rng.next_u64() == 6457827717110365317ull);
  REQUIRE(rng.next_u64() == 3203168211198807973ull);
  REQUIRE(rng.next_u64() == 9817491932198370423ull);
  // FNV-1a 64-bit test vectors from the FNV reference suite.
  REQUIRE(attn::fnv1a64("", 0) == 0xcbf29ce484222325ull);
  REQUIRE(attn::fnv1a64("a", 1) == 0xaf63dc4c8601ec8cull);
  REQUIRE(attn::fnv1a64("foobar", 6) == 0x85944171f73967e8ull);
}

TEST_CASE("random_normal has mean 0 and variance sigma² and is deterministic", "[random]") {
  const std::size_t count = 200000;
  std::vector<float> x(count), y(count);
  attn::random_normal(42, 2.0f, x.data(), count);
  attn::random_normal(42, 2.0f, y.data(), count);
  REQUIRE(x == y);
  double sum = 0, sum_sq = 0;
  for (float v : x) {
    sum += v;
    sum_sq += double(v) * v;
  }
  const double mean = sum / count, var = sum_sq / count - mean * mean;
  // Standard errors: mean σ/√N = 0.0045, variance σ²·√(2/N) = 0.0126; 5 standard errors.
  REQUIRE(std::fabs(mean) < 5 * 0.0045);
  REQUIRE(std::fabs(var - 4.0) < 5 * 0.0126);
  attn::random_normal(43, 2.0f, y.data(), count);
  REQUIRE(x != y);
}

TEST_CASE("project matches a float64 matmul; projections keep the component scale", "[embedding]") {
  const int t = 5, d_in = 17, d_out = 9;
  auto x = ref64::random_normal(t * d_in, 3);
  std::vector<float> w(d_in * d_out), out(t * d_out);
  attn::Error err;
  REQUIRE(attn::random_projection(7, d_in, d_out, w.data(), &err));
  REQUIRE(attn::project(x.data(), t, d_in, w.data(), d_out, out.data(), &err));
  for (int r = 0; r < t; ++r)
    for (int c = 0; c < d_out; ++c) {
      double expect = 0;
      for (int k = 0; k < d_in; ++k) expect += double(x[r * d_in + k]) * w[k * d_out + c];
      REQUIRE(std::fabs(out[r * d_out + c] - expect) < 1e-5);
    }
  std::vector<float> big(256 * 256);
  REQUIRE(attn::random_projection(1, 256, 256, big.data(), &err));
  double sum_sq = 0;
  for (float v : big) sum_sq += double(v) * v;
  // entries ~ N(0, 1/256): mean square 1/256 within 3 % (65,536 samples: standard error 0.55 %)
  REQUIRE(sum_sq / big.size() == Approx(1.0 / 256).epsilon(0.03));
  REQUIRE_FALSE(attn::random_projection(1, 0, 4, big.data(), &err));
  REQUIRE(err.status == attn::Status::invalid_shape);
  x[3] = NAN;
  REQUIRE_FALSE(attn::project(x.data(), t, d_in, w.data(), d_out, out.data(), &err));
  REQUIRE(std::string(err.message).find("finite") != std::string::npos);
}

TEST_CASE("sinusoidal positional encoding follows the formula", "[embedding]") {
  const int t = 7, d = 10;
  std::vector<float> x(t * d, 0.0f);
  attn::Error err;
  REQUIRE(attn::add_positional_encoding(x.data(), t, d, 1.0f, x.data(), &err));  // in place
  for (int p = 0; p < t; ++p)
    for (int i = 0; i < d / 2; ++i) {
      const double angle = p * std::exp(-std::log(10000.0) * (2.0 * i) / d);
      REQUIRE(x[p * d + 2 * i] == Approx(std::sin(angle)).margin(1e-6));
      REQUIRE(x[p * d + 2 * i + 1] == Approx(std::cos(angle)).margin(1e-6));
    }
  REQUIRE_FALSE(attn::add_positional_encoding(x.data(), t, d, NAN, x.data(), &err));
}

TEST_CASE("unknown words get a deterministic vector from their text", "[embedding]") {
  std::vector<float> a(100), b(100), c(100);
  attn::Error err;
  REQUIRE(attn::text_vector("zyzzyva", 7, 100, 0.4f, a.data(), &err));
  REQUIRE(attn::text_vector("zyzzyva", 7, 100, 0.4f, b.data(), &err));
  REQUIRE(attn::text_vector("zyzzyvb", 7, 100, 0.4f, c.data(), &err));
  REQUIRE(a == b);
  REQUIRE(a != c);
  REQUIRE_FALSE(attn::text_vector("x", 1, 0, 0.4f, a.data(), &err));
  REQUIRE_FALSE(attn::text_vector("x", 1, 4, -1.0f, a.data(), &err));
}

TEST_CASE("projections and positions refuse NaN and report outputs beyond float32", "[embedding][errors]") {
  attn::Error err;
  std::vector<float> x = {1, 2, 3, 4}, w = {0.5f, NAN, 1, 2}, out(4);
  REQUIRE_FALSE(attn::project(x.data(), 2, 2, w.data(), 2, out.data(), &err));
  REQUIRE(err.status == attn::Status::non_finite_input);
  REQUIRE(std::string(err.message) == "w[0][1] is NaN: w must hold finite numbers");
  w = {1e20f, 1e20f, 1e20f, 1e20f};
  x = {1e20f, 1e20f, 1, 1};
  REQUIRE_FALSE(attn::project(x.data(), 2, 2, w.data(), 2, out.data(), &err));  // 2e40 in row 0
  REQUIRE(err.status == attn::Status::overflow);
  REQUIRE(std::string(err.message).find("output[0][0] overflows float32") != std::string::npos);

  x = {0, 0, INFINITY, 0};
  REQUIRE_FALSE(attn::add_positional_encoding(x.data(), 2, 2, 1.0f, out.data(), &err));
  REQUIRE(err.status == attn::Status::non_finite_input);
  REQUIRE(std::string(err.message).find("x[1][0] is Infinity") != std::string::npos);
  x = {0, FLT_MAX, 0, 0};  // PE[0][1] = cos 0 = 1
  REQUIRE_FALSE(attn::add_positional_encoding(x.data(), 2, 2, FLT_MAX, out.data(), &err));
  REQUIRE(err.status == attn::Status::overflow);
  REQUIRE(std::string(err.message).find("output[0][1]") != std::string::npos);
}

TEST_CASE("sigma is checked so that every sample fits float32", "[random][errors]") {
  attn::Error err;
  REQUIRE(attn::validate_random_normal(attn::kMaxSigma, 10, &err));
  // the largest |N(0,1)| Rng::normal() can return, √(−2 ln 2⁻⁵⁴), times kMaxSigma fits float32
  REQUIRE(double(attn::kMaxSigma) * std::sqrt(-2 * std::log(std::ldexp(1.0, -54))) < FLT_MAX);
  REQUIRE_FALSE(attn::validate_random_normal(1e38f, 10, &err));
  REQUIRE(err.status == attn::Status::invalid_argument);
  REQUIRE(std::string(err.message) == "sigma must be a positive number at most 3.9e+37, got 1e+38");
  REQUIRE_FALSE(attn::validate_random_normal(0.0f, 10, &err));
  REQUIRE_FALSE(attn::validate_random_normal(1.0f, -1, &err));
  REQUIRE(err.status == attn::Status::invalid_shape);
  std::vector<float> v(4);
  REQUIRE_FALSE(attn::text_vector("x", 1, 4, 1e38f, v.data(), &err));
  REQUIRE(err.status == attn::Status::invalid_argument);
}

// ---- à la carte induction from one sentence ---------------------------------------------------

namespace {
// The test's own float64 reference, written from the formula: an unknown row i with known
// neighbours N(i) = { j : 0 < |i − j| ≤ window, known[j] } gets A·(Σ_{j∈N(i)} x_j / |N(i)|).
struct Induced64 {
  std::vector<double> vectors;
  std::vector<int> contexts;
};
Induced64 induce64(const std::vector<float>& x, const std::vector<float>& known, int t, int d, int window,
                   const std::vector<float>& a) {
  Induced64 r{std::vector<double>(x.begin(), x.end()), std::vector<int>(t, 0)};
  for (int i = 0; i < t; ++i) {
    if (known[i] != 0) continue;
    std::vector<double> u(d, 0.0);
    for (int j = 0; j < t; ++j) {
      if (j == i || std::abs(i - j) > window || known[j] == 0) continue;
      ++r.contexts[i];
      for (int c = 0; c < d; ++c) u[c] += x[j * d + c];
    }
    if (r.contexts[i] == 0) continue;
    for (int row = 0; row < d; ++row) {
      double s = 0;
      for (int c = 0; c < d; ++c) s += double(a[row * d + c]) * u[c] / r.contexts[i];
      r.vectors[i * d + row] = s;
    }
  }
  return r;
}

struct InductionOut {
  explicit InductionOut(int t, int d)
      : vectors(std::size_t(t) * d, -7.0f), context(std::size_t(t) * d, -7.0f), contexts(t, -7.0f), induced(t, -7.0f) {}
  attn::SentenceInduction view() { return {vectors.data(), context.data(), contexts.data(), induced.data()}; }
  std::vector<float> vectors, context, contexts, induced;
};
}  // namespace

TEST_CASE("induce_in_sentence: A times the mean of the known words within the window, against float64",
          "[embedding][induction]") {
  // 12 tokens, d = 100 (GloVe's width): unknown rows at the ends, in the middle, and two side by
  // side (an induced word is no context for another); row 8 is the last known one, so with
  // window 1 rows 10 and 11 stay unknown, with window 2 row 11.
  const int t = 12, d = 100;
  const std::vector<float> known = {0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 0};
  auto x = ref64::random_normal(std::size_t(t) * d, 11, 0.54f);
  auto a = ref64::random_normal(std::size_t(d) * d, 12, 0.1f);
  for (int window : {1, 2, 5, 255}) {
    INFO("window " << window);
    const auto want = induce64(x, known, t, d, window, a);
    InductionOut out(t, d);
    attn::Error err;
    REQUIRE(attn::induce_in_sentence(x.data(), known.data(), t, d, window, a.data(), out.view(), &err));
    for (int i = 0; i < t; ++i) {
      INFO("row " << i);
      REQUIRE(out.contexts[i] == float(want.contexts[i]));
      REQUIRE(out.induced[i] == (want.contexts[i] > 0 ? 1.0f : 0.0f));
      double norm = 0;
      for (int c = 0; c < d; ++c) norm += want.vectors[i * d + c] * want.vectors[i * d + c];
      for (int c = 0; c < d; ++c) {
        // float32 mean (one rounding) and a float32 dot of 100 terms (SIMD or not): a few ulp of
        // the row's length; 1e-5 of its norm is ~40× that and far below a wrong neighbour's effect
        const double tol = 1e-5 * std::sqrt(norm);
        REQUIRE(std::fabs(out.vectors[i * d + c] - want.vectors[i * d + c]) <= tol);
        if (want.contexts[i] == 0) {
          REQUIRE(out.vectors[i * d + c] == x[i * d + c]);  // as given, bit for bit
          REQUIRE(out.context[i * d + c] == 0.0f);
        }
      }
    }
  }
  // the window matters: with 1, row 3 sees row 2 only; with 5, rows 1, 2, 5–8
  InductionOut one(t, d), five(t, d);
  attn::Error err;
  REQUIRE(attn::induce_in_sentence(x.data(), known.data(), t, d, 1, a.data(), one.view(), &err));
  REQUIRE(attn::induce_in_sentence(x.data(), known.data(), t, d, 5, a.data(), five.view(), &err));
  REQUIRE(one.contexts[3] == 1.0f);
  REQUIRE(five.contexts[3] == 6.0f);
  REQUIRE(one.contexts[11] == 0.0f);
  REQUIRE(five.contexts[11] == 3.0f);  // rows 6, 7, 8: 5, 4 and 3 tokens away
  REQUIRE(one.vectors[3 * d] != five.vectors[3 * d]);
  // the context row is the plain mean (row 0, window 1: row 1 alone)
  for (int c = 0; c < d; ++c) REQUIRE(one.context[c] == x[d + c]);
}

TEST_CASE("induce_in_sentence: bad sizes and values fail with a status, nothing written", "[embedding][induction][errors]") {
  const int t = 3, d = 2;
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, known = {1, 0, 1}, a = {1, 0, 0, 1};
  attn::Error err;
  InductionOut out(t, d);
  auto unchanged = [&] {
    for (float v : out.vectors) REQUIRE(v == -7.0f);
    for (float v : out.induced) REQUIRE(v == -7.0f);
  };
  REQUIRE_FALSE(attn::induce_in_sentence(x.data(), known.data(), 0, d, 5, a.data(), out.view(), &err));
  REQUIRE(err.status == attn::Status::invalid_shape);
  REQUIRE_FALSE(attn::induce_in_sentence(x.data(), known.data(), t, d, 0, a.data(), out.view(), &err));
  REQUIRE(err.status == attn::Status::invalid_shape);
  REQUIRE(std::string(err.message).find("window") != std::string::npos);
  REQUIRE_FALSE(attn::induce_in_sentence(x.data(), known.data(), t, d, attn::kMaxInductionWindow + 1, a.data(), out.view(), &err));
  REQUIRE(err.status == attn::Status::invalid_shape);
  // lengths, as the binding gives them
  REQUIRE_FALSE(attn::validate_induce_in_sentence({x.data(), 5}, {known.data(), 3}, t, d, 5, {a.data(), 4}, &err));
  REQUIRE(std::string(err.message) == "x has length 5, expected t·d = 6");
  REQUIRE_FALSE(attn::validate_induce_in_sentence({x.data(), 6}, {known.data(), 2}, t, d, 5, {a.data(), 4}, &err));
  REQUIRE(err.status == attn::Status::invalid_shape);
  REQUIRE_FALSE(attn::validate_induce_in_sentence({x.data(), 6}, {known.data(), 3}, t, d, 5, {a.data(), 3}, &err));
  REQUIRE(std::string(err.message).find("a has length 3, expected d·d = 4") != std::string::npos);
  REQUIRE_FALSE(attn::validate_induce_in_sentence({x.data(), 6}, {}, t, d, 5, {a.data(), 4}, &err));
  REQUIRE(err.status == attn::Status::invalid_argument);
  known = {1, 0.5f, 1};
  REQUIRE_FALSE(attn::induce_in_sentence(x.data(), known.data(), t, d, 5, a.data(), out.view(), &err));
  REQUIRE(err.status == attn::Status::invalid_argument);
  REQUIRE(std::string(err.message) == "known[1] is 0.5: known must hold 1 (a known word) or 0 (unknown)");
  known = {1, 0, 1};
  x[3] = NAN;
  REQUIRE_FALSE(attn::induce_in_sentence(x.data(), known.data(), t, d, 5, a.data(), out.view(), &err));
  REQUIRE(err.status == attn::Status::non_finite_input);
  unchanged();
  // A·u beyond float32: overflow, named
  x = {FLT_MAX, FLT_MAX, 0, 0, FLT_MAX, FLT_MAX};
  a = {2, 0, 0, 2};
  REQUIRE_FALSE(attn::induce_in_sentence(x.data(), known.data(), t, d, 5, a.data(), out.view(), &err));
  REQUIRE(err.status == attn::Status::overflow);
  REQUIRE(std::string(err.message).find("vectors[1][0]") != std::string::npos);
  // a sum beyond float32 whose mean is not: summed in double, so it succeeds
  a = {1, 0, 0, 1};
  REQUIRE(attn::induce_in_sentence(x.data(), known.data(), t, d, 5, a.data(), out.view(), &err));
  REQUIRE(out.vectors[2] == FLT_MAX);
  REQUIRE(out.induced[1] == 1.0f);
}
