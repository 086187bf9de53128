// A seeded random source that gives the same numbers natively and in both WebAssembly
// builds (std::normal_distribution is implementation-defined, so a seed shared in a lesson
// link would not reproduce the same vectors everywhere).
#pragma once

#include <cmath>
#include <cstdint>

namespace attn {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  // splitmix64: a full-period 64-bit generator with good statistics for this use.
  std::uint64_t next_u64() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in (0, 1): never 0, so log() below is finite.
  double uniform_open() { return (static_cast<double>(next_u64() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

  // Standard normal by Box–Muller, in double, one sample per call (the pair's twin is dropped:
  // simpler state, and speed does not matter at these sizes).
  double normal() {
    const double two_pi = 6.283185307179586;
    return std::sqrt(-2.0 * std::log(uniform_open())) * std::cos(two_pi * uniform_open());
  }

 private:
  std::uint64_t state_;
};

}  // namespace attn
