// Turning tokens into the Q, K and V an attention head sees: seeded random numbers and
// projections, sinusoidal positions, and a deterministic vector for unknown words.
// Row-major float32; t tokens, d_in input width, d_out projected width.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/attention.hpp"

namespace attn {

// out[count] ~ N(0, sigma²), deterministic in `seed` on every platform. A building block (no
// checks): every sample fits float32 for 0 < sigma ≤ kMaxSigma, which validate_random_normal checks.
void random_normal(std::uint64_t seed, float sigma, float* out, std::size_t count) noexcept;
// Rng::normal() stays below √(−2 ln 2⁻⁵⁴) ≈ 8.652 in magnitude, so sigma ≤ 3.9e37 keeps every
// sample within float32 (3.4e38).
constexpr float kMaxSigma = 3.9e37f;
bool validate_random_normal(float sigma, int count, Error* err) noexcept;

// w (d_in×d_out) with N(0, 1/d_in) entries: x·w keeps the typical size of x's components
// whatever d_out is, so only the dot-product length grows with d_k — the effect we teach.
bool random_projection(std::uint64_t seed, int d_in, int d_out, float* w, Error* err) noexcept;
bool validate_random_projection(int d_in, int d_out, Error* err) noexcept;

// out (t×d_out) = x (t×d_in) · w (d_in×d_out); x and w finite. Fails with overflow when an
// output leaves float32.
bool project(const float* x, int t, int d_in, const float* w, int d_out, float* out, Error* err) noexcept;
bool validate_project(Input x, int t, int d_in, Input w, int d_out, Error* err) noexcept;

// out (t×d) = x + strength · PE, PE[p][2i] = sin(p / 10000^(2i/d)), PE[p][2i+1] = cos(p / 10000^(2i/d))
// (Vaswani et al. 2017). out may be x itself (in place); strength 0 copies x. x finite; fails with
// overflow when x + strength·PE leaves float32.
bool add_positional_encoding(const float* x, int t, int d, float strength, float* out, Error* err) noexcept;
bool validate_positional_encoding(Input x, int t, int d, float strength, Error* err) noexcept;

// 64-bit FNV-1a of a byte string: the seed of an unknown word's vector.
std::uint64_t fnv1a64(const char* bytes, std::size_t length) noexcept;

// out (d) ~ N(0, sigma²) seeded by the word's text: the same word always gets the same vector.
bool text_vector(const char* bytes, std::size_t length, int d, float sigma, float* out, Error* err) noexcept;
bool validate_text_vector(int d, float sigma, Error* err) noexcept;

// À la carte induction from one sentence (Khodak et al., ACL 2018, their one-context "nonce"
// case): a word with no vector gets A·u, u the mean of the vectors of the KNOWN words within
// `window` tokens on either side of it in the sentence (induced words are not context). Inputs:
//   x (t×d)    the sentence's vectors; an unknown row holds any finite stand-in
//   known (t)  1 where the row is a known word's vector, 0 where it is unknown (nothing else)
//   a (d×d)    the map, row-major: (A·u)[r] = Σ_c a[r·d + c]·u[c]
// Outputs (every array written whole):
//   vectors (t×d)   known rows copied from x; an unknown row with ≥ 1 known word in its window: A·u;
//                   an unknown row with none: its stand-in from x (it stays unknown)
//   context (t×d)   u of each induced row, 0 in every other row
//   contexts (t)    the known words in an unknown row's window (0 for a known row)
//   induced (t)     1 where A·u was written, else 0
// u is summed in double. Fails with overflow when A·u leaves float32.
constexpr int kMaxInductionWindow = 255;  // tokens on either side: far beyond any sentence's context
struct SentenceInduction {
  float* vectors;
  float* context;
  float* contexts;
  float* induced;
};
bool induce_in_sentence(const float* x, const float* known, int t, int d, int window, const float* a,
                        SentenceInduction out, Error* err) noexcept;
bool validate_induce_in_sentence(Input x, Input known, int t, int d, int window, Input a, Error* err) noexcept;

}  // namespace attn
