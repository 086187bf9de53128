// Independent float64 reference for the tests: attention written from the formula,
// accumulated in double. Shares no code with the core's computations; only the test data comes
// from the core's seeded generator (attn::Rng), so that the native and both wasm runs test the
// very same numbers (std::normal_distribution differs between standard libraries).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/random.hpp"

namespace ref64 {

struct Result {
  std::vector<double> dots, scores, weights, output, entropy, max_weight;
};

// scale·q·kᵀ + mask (−∞ where hidden), softmax(scores / T) with the all-hidden row = zeros.
inline Result attention(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v, int n,
                        int m, int d, int dv, double scale, double temperature, bool causal,
                        const std::vector<float>* mask = nullptr) {
  const double inf = std::numeric_limits<double>::infinity();
  Result r;
  r.dots.assign(std::size_t(n) * m, 0);
  r.scores.assign(std::size_t(n) * m, 0);
  r.weights.assign(std::size_t(n) * m, 0);
  r.output.assign(std::size_t(n) * dv, 0);
  r.entropy.assign(n, 0);
  r.max_weight.assign(n, 0);
  for (int i = 0; i < n; ++i) {
    double row_max = -inf;
    for (int j = 0; j < m; ++j) {
      double dot = 0;
      for (int c = 0; c < d; ++c) dot += double(q[std::size_t(i) * d + c]) * double(k[std::size_t(j) * d + c]);
      double s = scale * dot + (mask ? double((*mask)[std::size_t(i) * m + j]) : 0.0);
      if (causal && j > i) s = -inf;
      r.dots[std::size_t(i) * m + j] = dot;
      r.scores[std::size_t(i) * m + j] = s;
      row_max = std::fmax(row_max, s);
    }
    if (row_max == -inf) continue;  // fully masked: zeros by definition
    double sum = 0;
    for (int j = 0; j < m; ++j) sum += std::exp((r.scores[std::size_t(i) * m + j] - row_max) / temperature);
    for (int j = 0; j < m; ++j) {
      double p = std::exp((r.scores[std::size_t(i) * m + j] - row_max) / temperature) / sum;
      r.weights[std::size_t(i) * m + j] = p;
      if (p > 0) r.entropy[i] -= p * std::log(p);
      r.max_weight[i] = std::fmax(r.max_weight[i], p);
      for (int c = 0; c < dv; ++c) r.output[std::size_t(i) * dv + c] += p * double(v[std::size_t(j) * dv + c]);
    }
  }
  return r;
}

// count samples of N(0, sigma²) as float32, the same on every platform for a seed.
inline std::vector<float> random_normal(std::size_t count, std::uint32_t seed, float sigma = 1.0f) {
  attn::Rng rng(seed);
  std::vector<float> x(count);
  for (auto& value : x) value = static_cast<float>(sigma * rng.normal());
  return x;
}

}  // namespace ref64
