#include "core/embedding.hpp"

#include <cfloat>
#include <cmath>

#include "core/random.hpp"

namespace attn {

void random_normal(std::uint64_t seed, float sigma, float* out, std::size_t count) noexcept {
  Rng rng(seed);
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(sigma * rng.normal());
}

bool validate_random_normal(float sigma, int count, Error* err) noexcept {
  return check_positive("sigma", sigma, kMaxSigma, err) && check_dim("count", count, 0, INT32_MAX, err) &&
         check_size("the samples", static_cast<std::uint64_t>(count), err);
}

bool validate_random_projection(int d_in, int d_out, Error* err) noexcept {
  return check_dim("dIn", d_in, 1, kMaxDim, err) && check_dim("dOut", d_out, 1, kMaxDim, err) &&
         check_size("the projection (dIn·dOut)", static_cast<std::uint64_t>(d_in) * d_out, err);
}

bool random_projection(std::uint64_t seed, int d_in, int d_out, float* w, Error* err) noexcept {
  if (!validate_random_projection(d_in, d_out, err)) return false;
  random_normal(seed, static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_in))), w,
                static_cast<std::size_t>(d_in) * d_out);
  return true;
}

bool validate_project(Input x, int t, int d_in, Input w, int d_out, Error* err) noexcept {
  const std::uint64_t rows = t, width = d_in, out_width = d_out;
  return check_dim("t", t, 1, kMaxDim, err) && check_dim("dIn", d_in, 1, kMaxDim, err) &&
         check_dim("dOut", d_out, 1, kMaxDim, err) && check_size("the output (t·dOut)", rows * out_width, err) &&
         check_length("x", x, rows * width, "t·dIn", err) && check_length("w", w, width * out_width, "dIn·dOut", err) &&
         check_finite("x", x.data, rows, width, err) && check_finite("w", w.data, width, out_width, err);
}

bool project(const float* x, int t, int d_in, const float* w, int d_out, float* out, Error* err) noexcept {
  if (!validate_project(x, t, d_in, w, d_out, err)) return false;
  // out row r = Σ_c x[r][c] · w row c: an axpy per input component, the same loop as P·V.
  matmul_pv(x, w, t, d_in, d_out, out);
  return check_result("output", out, static_cast<std::size_t>(t), static_cast<std::size_t>(d_out),
                      "x·w is too large for float32 (|x|·|w| > 3.4e38)", err);
}

bool validate_positional_encoding(Input x, int t, int d, float strength, Error* err) noexcept {
  const std::uint64_t rows = t, width = d;
  return check_dim("t", t, 1, kMaxDim, err) && check_dim("d", d, 1, kMaxDim, err) &&
         check_finite_scalar("strength", strength, err) && check_size("x + PE (t·d)", rows * width, err) &&
         check_length("x", x, rows * width, "t·d", err) && check_finite("x", x.data, rows, width, err);
}

bool add_positional_encoding(const float* x, int t, int d, float strength, float* out, Error* err) noexcept {
  if (!validate_positional_encoding(x, t, d, strength, err)) return false;
  for (int p = 0; p < t; ++p) {
    for (int c = 0; c < d; ++c) {
      const int pair = c / 2;  // components 2i and 2i+1 share the frequency 1/10000^(2i/d)
      const double angle = p / std::pow(10000.0, 2.0 * pair / d);
      const std::size_t idx = static_cast<std::size_t>(p) * d + c;
      out[idx] = x[idx] + strength * static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return check_result("output", out, static_cast<std::size_t>(t), static_cast<std::size_t>(d),
                      "x is too close to the float32 limit (3.4e38) for strength·PE to be added", err);
}

std::uint64_t fnv1a64(const char* bytes, std::size_t length) noexcept {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < length; ++i) {
    hash ^= static_cast<unsigned char>(bytes[i]);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

bool validate_text_vector(int d, float sigma, Error* err) noexcept {
  return check_dim("d", d, 1, kMaxDim, err) && check_positive("sigma", sigma, kMaxSigma, err);
}

bool text_vector(const char* bytes, std::size_t length, int d, float sigma, float* out, Error* err) noexcept {
  if (!validate_text_vector(d, sigma, err)) return false;
  random_normal(fnv1a64(bytes, length), sigma, out, static_cast<std::size_t>(d));
  return true;
}

bool validate_induce_in_sentence(Input x, Input known, int t, int d, int window, Input a, Error* err) noexcept {
  const std::uint64_t rows = t, width = d;
  if (!(check_dim("t", t, 1, kMaxDim, err) && check_dim("d", d, 1, kMaxDim, err) &&
        check_dim("window", window, 1, kMaxInductionWindow, err) && check_size("the vectors (t·d)", rows * width, err) &&
        check_size("the map (d·d)", width * width, err) && check_length("x", x, rows * width, "t·d", err) &&
        check_length("known", known, rows, "t", err) && check_length("a", a, width * width, "d·d", err) &&
        check_finite("x", x.data, rows, width, err) && check_finite("a", a.data, width, width, err)))
    return false;
  for (int i = 0; i < t; ++i) {
    const float k = known.data[i];
    if (k != 0.0f && k != 1.0f) {
      char text[24];
      return fail(err, Status::invalid_argument, "known[%d] is %s: known must hold 1 (a known word) or 0 (unknown)", i,
                  number_text(k, text));
    }
  }
  return true;
}

bool induce_in_sentence(const float* x, const float* known, int t, int d, int window, const float* a,
                        SentenceInduction out, Error* err) noexcept {
  if (!validate_induce_in_sentence(Input(x), Input(known), t, d, window, Input(a), err)) return false;
  const std::size_t width = static_cast<std::size_t>(d);
  for (int i = 0; i < t; ++i) {
    const std::size_t row = static_cast<std::size_t>(i) * width;
    float* vec = out.vectors + row;
    float* ctx = out.context + row;
    const int lo = i > window ? i - window : 0, hi = i < t - window ? i + window : t - 1;  // no int overflow
    int count = 0;
    if (known[i] == 0.0f)
      for (int j = lo; j <= hi; ++j) count += (j != i && known[j] != 0.0f) ? 1 : 0;
    out.contexts[i] = static_cast<float>(count);
    out.induced[i] = count > 0 ? 1.0f : 0.0f;
    if (count == 0) {  // a known word, or an unknown one with no known neighbour: as given
      for (std::size_t c = 0; c < width; ++c) {
        vec[c] = x[row + c];
        ctx[c] = 0.0f;
      }
      continue;
    }
    // u = the mean of the known neighbours, summed in double (no float32 overflow on the way)
    for (std::size_t c = 0; c < width; ++c) {
      double sum = 0;
      for (int j = lo; j <= hi; ++j)
        if (j != i && known[j] != 0.0f) sum += x[static_cast<std::size_t>(j) * width + c];
      ctx[c] = static_cast<float>(sum / count);
    }
    matmul_qkt(ctx, a, 1, d, d, vec);  // (A·u)[r] = a row r · u
  }
  return check_result("vectors", out.vectors, static_cast<std::size_t>(t), width,
                      "A·u is too large for float32 (|A|·|u| > 3.4e38)", err);
}

}  // namespace attn
