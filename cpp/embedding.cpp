#include "embedding.hpp"

#include <cmath>
#include <cstdio>

#include "random.hpp"

namespace attn {
namespace {

bool dims_ok(int a, int b, const char* what, Error* err) {
  if (a < 1 || b < 1 || a > kMaxDim || b > kMaxDim) return fail(err, Status::invalid_shape, "%s", what);
  return true;
}

}  // namespace

void random_normal(std::uint64_t seed, float sigma, float* out, std::size_t count) {
  Rng rng(seed);
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(sigma * rng.normal());
}

bool random_projection(std::uint64_t seed, int d_in, int d_out, float* w, Error* err) {
  if (!dims_ok(d_in, d_out, "projection widths d_in and d_out must be from 1 to 65536", err)) return false;
  random_normal(seed, static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_in))), w,
                static_cast<std::size_t>(d_in) * d_out);
  return true;
}

bool project(const float* x, int t, int d_in, const float* w, int d_out, float* out, Error* err) {
  if (!dims_ok(t, d_in, "the number of tokens and d_in must be from 1 to 65536", err) ||
      !dims_ok(d_out, 1, "d_out must be from 1 to 65536", err))
    return false;
  if (!all_finite(x, static_cast<std::size_t>(t) * d_in))
    return fail(err, Status::non_finite_input, "x must hold finite numbers");
  // out row r = Σ_c x[r][c] · w row c: an axpy per input component, the same loop as P·V.
  matmul_pv(x, w, t, d_in, d_out, out);
  return true;
}

bool add_positional_encoding(const float* x, int t, int d, float strength, float* out, Error* err) {
  if (!dims_ok(t, d, "the number of tokens and d must be from 1 to 65536", err)) return false;
  if (!std::isfinite(strength)) return fail(err, Status::invalid_argument, "strength must be a finite number");
  for (int p = 0; p < t; ++p) {
    for (int c = 0; c < d; ++c) {
      const int pair = c / 2;  // components 2i and 2i+1 share the frequency 1/10000^(2i/d)
      const double angle = p / std::pow(10000.0, 2.0 * pair / d);
      const std::size_t idx = static_cast<std::size_t>(p) * d + c;
      out[idx] = x[idx] + strength * static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return true;
}

std::uint64_t fnv1a64(const char* bytes, std::size_t length) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < length; ++i) {
    hash ^= static_cast<unsigned char>(bytes[i]);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

bool text_vector(const char* bytes, std::size_t length, int d, float sigma, float* out, Error* err) {
  if (!dims_ok(d, 1, "d must be from 1 to 65536", err)) return false;
  if (!(sigma > 0.0f) || !std::isfinite(sigma))
    return fail(err, Status::invalid_argument, "sigma must be a positive finite number");
  random_normal(fnv1a64(bytes, length), sigma, out, static_cast<std::size_t>(d));
  return true;
}

}  // namespace attn
