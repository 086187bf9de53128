// Seeded randomness, projections, positions and unknown-word vectors.
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "embedding.hpp"
#include "random.hpp"
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
