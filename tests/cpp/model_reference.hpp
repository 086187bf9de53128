// Independent float64 reference of the language model (cpp/model/model.hpp), written from its
// documented contract for the tests: the parameter layout, the forward pass position by
// position, gradients by central finite differences, AdamW and the learning-rate schedule.
// Shares no code with the model; the only common piece is attn::Rng, whose draws the
// initialisation contract specifies.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/random.hpp"

namespace ref64 {
namespace lm {

struct Shape {
  int vocab, context, layers, heads, d_model;
};

// Offsets of the 16 tensors: wte, wpe, ln1w, ln1b, qkvw, qkvb, attprojw, attprojb, ln2w, ln2b,
// fcw, fcb, fcprojw, fcprojb, lnfw, lnfb (per-layer tensors hold their layers one after another).
struct Layout {
  std::size_t at[17];
  explicit Layout(const Shape& s) {
    const std::size_t V = s.vocab, T = s.context, L = s.layers, C = s.d_model, F = 4 * C;
    const std::size_t sizes[16] = {V * C, T * C, L * C, L * C, L * C * 3 * C, L * 3 * C, L * C * C, L * C,
                                   L * C, L * C, L * C * F, L * F, L * F * C, L * C, C, C};
    at[0] = 0;
    for (int i = 0; i < 16; ++i) at[i + 1] = at[i] + sizes[i];
  }
  std::size_t total() const { return at[16]; }
};
enum Tensor { wte, wpe, ln1w, ln1b, qkvw, qkvb, attprojw, attprojb, ln2w, ln2b, fcw, fcb, fcprojw, fcprojb, lnfw, lnfb };

struct Eval {
  double loss = 0;
  std::vector<double> probs;  // B×T×V
  std::vector<double> att;    // L×B×H×T×T (0 above the diagonal)
};

using Vec = std::vector<double>;

// x (C) normalised with the biased variance, then · w + b
inline Vec layernorm(const Vec& x, const double* w, const double* b) {
  const std::size_t C = x.size();
  double mean = 0, var = 0;
  for (double v : x) mean += v / C;
  for (double v : x) var += (v - mean) * (v - mean) / C;
  Vec y(C);
  for (std::size_t i = 0; i < C; ++i) y[i] = (x[i] - mean) / std::sqrt(var + 1e-5) * w[i] + b[i];
  return y;
}

// y (out) = x (in) · W (in×out) + bias
inline Vec linear(const Vec& x, const double* W, const double* bias, std::size_t out) {
  Vec y(bias, bias + out);
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t o = 0; o < out; ++o) y[o] += x[i] * W[i * out + o];
  return y;
}

inline double gelu(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
}

// The forward pass from the formulas. `extra` (B×T×C, may be empty) is added to x⁰: the
// finite differences of the input embeddings perturb it.
inline Eval evaluate(const Shape& s, const Vec& p, const std::vector<int>& inputs, const std::vector<int>& targets,
                     int B, int T, double scale, const Vec& extra = {}) {
  const Layout at(s);
  const int C = s.d_model, H = s.heads, hs = C / H, F = 4 * C, V = s.vocab;
  const auto P = [&](Tensor t) { return p.data() + at.at[t]; };
  Eval r;
  r.att.assign(std::size_t(s.layers) * B * H * T * T, 0.0);
  for (int b = 0; b < B; ++b) {
    std::vector<Vec> x(T, Vec(C));
    for (int t = 0; t < T; ++t)
      for (int i = 0; i < C; ++i) {
        const int tok = inputs[std::size_t(b) * T + t];
        x[t][i] = P(wte)[std::size_t(tok) * C + i] + P(wpe)[std::size_t(t) * C + i] +
                  (extra.empty() ? 0.0 : extra[(std::size_t(b) * T + t) * C + i]);
      }
    for (int l = 0; l < s.layers; ++l) {
      std::vector<Vec> qkv(T);
      for (int t = 0; t < T; ++t)
        qkv[t] = linear(layernorm(x[t], P(ln1w) + l * C, P(ln1b) + l * C), P(qkvw) + std::size_t(l) * C * 3 * C,
                        P(qkvb) + l * 3 * C, 3 * C);
      for (int t = 0; t < T; ++t) {
        Vec y(C, 0.0);
        for (int h = 0; h < H; ++h) {
          Vec z(t + 1);
          for (int j = 0; j <= t; ++j) {
            double dot = 0;
            for (int c = 0; c < hs; ++c) dot += qkv[t][h * hs + c] * qkv[j][C + h * hs + c];
            z[j] = scale * dot;
          }
          const double z_max = *std::max_element(z.begin(), z.end());
          double sum = 0;
          for (double v : z) sum += std::exp(v - z_max);
          for (int j = 0; j <= t; ++j) {
            const double w = std::exp(z[j] - z_max) / sum;
            r.att[(((std::size_t(l) * B + b) * H + h) * T + t) * T + j] = w;
            for (int c = 0; c < hs; ++c) y[h * hs + c] += w * qkv[j][2 * C + h * hs + c];
          }
        }
        const Vec proj = linear(y, P(attprojw) + std::size_t(l) * C * C, P(attprojb) + l * C, C);
        for (int i = 0; i < C; ++i) x[t][i] += proj[i];
      }
      for (int t = 0; t < T; ++t) {
        Vec h1 = linear(layernorm(x[t], P(ln2w) + l * C, P(ln2b) + l * C), P(fcw) + std::size_t(l) * C * F,
                        P(fcb) + l * F, F);
        for (double& v : h1) v = gelu(v);
        const Vec h2 = linear(h1, P(fcprojw) + std::size_t(l) * F * C, P(fcprojb) + l * C, C);
        for (int i = 0; i < C; ++i) x[t][i] += h2[i];
      }
    }
    for (int t = 0; t < T; ++t) {
      const Vec f = layernorm(x[t], P(lnfw), P(lnfb));
      Vec logits(V, 0.0);
      for (int v = 0; v < V; ++v)
        for (int i = 0; i < C; ++i) logits[v] += f[i] * P(wte)[std::size_t(v) * C + i];
      const double l_max = *std::max_element(logits.begin(), logits.end());
      double sum = 0;
      for (double z : logits) sum += std::exp(z - l_max);
      for (double z : logits) r.probs.push_back(std::exp(z - l_max) / sum);
      if (!targets.empty()) r.loss += (std::log(sum) + l_max - logits[targets[std::size_t(b) * T + t]]) / (B * T);
    }
  }
  return r;
}

// ∂loss/∂v[i] by central differences for every i, with f(v) the loss: error O(h²·f''') +
// O(ε·loss/h) ≈ 1e-10 at h = 1e-5 for values and losses of order 1.
template <class LossOf>
inline Vec central_differences(Vec v, LossOf loss_of, double h = 1e-5) {
  Vec g(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double saved = v[i];
    v[i] = saved + h;
    const double up = loss_of(v);
    v[i] = saved - h;
    const double down = loss_of(v);
    v[i] = saved;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}

}  // namespace lm
}  // namespace ref64
