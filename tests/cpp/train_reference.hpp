// Independent float64 reference of the training experiment (cpp/experiment/train.hpp), written from its
// documented contract for the tests: the task's data, the initialisation, the model's loss,
// gradients by central finite differences, SGD with momentum and Adam. Shares no code with
// the model; the only common piece is attn::Rng, the project's seeded generator (identical
// natively and in wasm), whose draws the contract specifies.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/random.hpp"

namespace ref64 {
namespace train {

constexpr int kDigits = 10;

struct Shape {
  int letters, pairs, queries, d_model, d_k, d_v;
};

struct Batch {
  int count = 0;
  std::vector<int> keys, values, queries, answers, target;  // as in the contract
};

// The contract's draws: per example, keys = the first P slots of a Fisher–Yates shuffle of the
// L letters (slot i swapped with slot i + u % (L − i)), P values u % 10, then the queried pairs
// = the first Qn slots of a shuffle of the P pairs.
inline Batch make_batch(const Shape& s, attn::Rng& rng, int count) {
  Batch b;
  b.count = count;
  const auto shuffled = [&rng](int n, int take) {
    std::vector<int> slot(n);
    for (int i = 0; i < n; ++i) slot[i] = i;
    for (int i = 0; i < take; ++i) std::swap(slot[i], slot[i + int(rng.next_u64() % std::uint64_t(n - i))]);
    slot.resize(take);
    return slot;
  };
  for (int e = 0; e < count; ++e) {
    const std::vector<int> keys = shuffled(s.letters, s.pairs);
    std::vector<int> values(s.pairs);
    for (int& v : values) v = int(rng.next_u64() % kDigits);
    const std::vector<int> asked = shuffled(s.pairs, s.queries);
    b.keys.insert(b.keys.end(), keys.begin(), keys.end());
    b.values.insert(b.values.end(), values.begin(), values.end());
    for (int j : asked) {
      b.target.push_back(j);
      b.queries.push_back(keys[j]);
      b.answers.push_back(values[j]);
    }
  }
  return b;
}

// Offsets of the tensors in the parameter vector: E_key, E_value, W_Q, W_K, W_V, W_O.
struct Layout {
  std::size_t e_key, e_value, w_q, w_k, w_v, w_o, total;
  explicit Layout(const Shape& s) {
    e_key = 0;
    e_value = e_key + std::size_t(s.letters) * s.d_model;
    w_q = e_value + std::size_t(kDigits) * s.d_model;
    w_k = w_q + std::size_t(s.d_model) * s.d_k;
    w_v = w_k + std::size_t(s.d_model) * s.d_k;
    w_o = w_v + std::size_t(s.d_model) * s.d_v;
    total = w_o + std::size_t(s.d_v) * kDigits;
  }
};

// The contract's initialisation; each parameter is the float32 the model stores.
inline std::vector<double> init_params(const Shape& s, double init_scale, attn::Rng& rng) {
  const Layout at(s);
  std::vector<double> p(at.total);
  const auto fill = [&](std::size_t from, std::size_t to, double sigma) {
    for (std::size_t i = from; i < to; ++i) p[i] = double(float(sigma * rng.normal()));
  };
  fill(at.e_key, at.e_value, 1.0);
  fill(at.e_value, at.w_q, 1.0);
  fill(at.w_q, at.w_k, init_scale / std::sqrt(double(s.d_model)));
  fill(at.w_k, at.w_v, init_scale / std::sqrt(double(s.d_model)));
  fill(at.w_v, at.w_o, 1.0 / std::sqrt(double(s.d_model)));
  fill(at.w_o, at.total, 1.0 / std::sqrt(double(s.d_v)));
  return p;
}

struct Eval {
  double loss = 0, accuracy = 0;
  std::vector<double> weights;  // count·Qn×P
};

// The model's forward pass from the formulas, one query at a time, in double.
inline Eval evaluate(const Shape& s, const std::vector<double>& p, const Batch& b, double scale) {
  const Layout at(s);
  const int D = s.d_model, P = s.pairs;
  const auto key_token = [&](int e, int j, int c) {  // x_pair[j][c] of example e
    const int key = b.keys[std::size_t(e) * P + j], value = b.values[std::size_t(e) * P + j];
    return (p[at.e_key + std::size_t(key) * D + c] + p[at.e_value + std::size_t(value) * D + c]) / std::sqrt(2.0);
  };
  const auto project = [&](const std::vector<double>& x, std::size_t w, int width) {  // x (D) · W (D×width)
    std::vector<double> y(width, 0.0);
    for (int c = 0; c < D; ++c)
      for (int o = 0; o < width; ++o) y[o] += x[c] * p[w + std::size_t(c) * width + o];
    return y;
  };
  Eval r;
  int rows = 0, correct = 0;
  for (int e = 0; e < b.count; ++e) {
    std::vector<std::vector<double>> k(P), v(P);
    for (int j = 0; j < P; ++j) {
      std::vector<double> x(D);
      for (int c = 0; c < D; ++c) x[c] = key_token(e, j, c);
      k[j] = project(x, at.w_k, s.d_k);
      v[j] = project(x, at.w_v, s.d_v);
    }
    for (int i = 0; i < s.queries; ++i) {
      const std::size_t row = std::size_t(e) * s.queries + i;
      std::vector<double> x(D);
      for (int c = 0; c < D; ++c) x[c] = p[at.e_key + std::size_t(b.queries[row]) * D + c];
      const std::vector<double> q = project(x, at.w_q, s.d_k);
      std::vector<double> z(P);
      for (int j = 0; j < P; ++j) {
        double dot = 0;
        for (int c = 0; c < s.d_k; ++c) dot += q[c] * k[j][c];
        z[j] = scale * dot;
      }
      const double z_max = *std::max_element(z.begin(), z.end());
      double sum = 0;
      for (int j = 0; j < P; ++j) sum += std::exp(z[j] - z_max);
      std::vector<double> out(s.d_v, 0.0);
      for (int j = 0; j < P; ++j) {
        const double w = std::exp(z[j] - z_max) / sum;
        r.weights.push_back(w);
        for (int c = 0; c < s.d_v; ++c) out[c] += w * v[j][c];
      }
      std::vector<double> logits(kDigits, 0.0);
      for (int c = 0; c < s.d_v; ++c)
        for (int o = 0; o < kDigits; ++o) logits[o] += out[c] * p[at.w_o + std::size_t(c) * kDigits + o];
      const double l_max = *std::max_element(logits.begin(), logits.end());
      double l_sum = 0;
      for (double l : logits) l_sum += std::exp(l - l_max);
      r.loss += std::log(l_sum) + l_max - logits[b.answers[row]];
      correct += std::max_element(logits.begin(), logits.end()) - logits.begin() == b.answers[row];
      ++rows;
    }
  }
  r.loss /= rows;
  r.accuracy = double(correct) / rows;
  return r;
}

// ∂loss/∂p by central differences: error O(h²·f''') + O(ε·loss/h) ≈ 1e-10 at h = 1e-5 for
// parameters and losses of order 1.
inline std::vector<double> finite_difference_gradient(const Shape& s, std::vector<double> p, const Batch& b,
                                                      double scale, double h = 1e-5) {
  std::vector<double> g(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double saved = p[i];
    p[i] = saved + h;
    const double up = evaluate(s, p, b, scale).loss;
    p[i] = saved - h;
    const double down = evaluate(s, p, b, scale).loss;
    p[i] = saved;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}

// PyTorch's SGD with momentum: v = μ v + g, p −= lr v.
inline void sgd(std::vector<double>& p, const std::vector<double>& g, std::vector<double>& v, double lr, double mu) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    v[i] = mu * v[i] + g[i];
    p[i] -= lr * v[i];
  }
}

// Adam with bias correction, step t ≥ 1.
inline void adam(std::vector<double>& p, const std::vector<double>& g, std::vector<double>& m, std::vector<double>& v,
                 double lr, double b1, double b2, double eps, int t) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    m[i] = b1 * m[i] + (1 - b1) * g[i];
    v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
    const double m_hat = m[i] / (1 - std::pow(b1, t)), v_hat = v[i] / (1 - std::pow(b2, t));
    p[i] -= lr * m_hat / (std::sqrt(v_hat) + eps);
  }
}

}  // namespace train
}  // namespace ref64
