// The language model's baselines (issue 20): a unigram and interpolated Kneser–Ney n-gram
// models on the same vocabulary and split, for held-out perplexity.
//
// UNIGRAM: p(w) = c(w) / N, the maximum-likelihood estimate over the training tokens (every
// vocabulary entry, <unk> too, occurs in training: the vocabulary is made from it).
//
// INTERPOLATED KNESER–NEY of order n (Chen & Goodman 1998, §3, one discount per order), for a
// word w after the context h of n − 1 tokens (oldest first), by level k = n … 1, h_k the last
// k − 1 tokens of h:
//   p_k(w | h_k) = max(c_k(h_k w) − D_k, 0) / c_k(h_k •) + D_k · N_k(h_k •) / c_k(h_k •) · p_{k−1}(w | h_{k−1})
//   p_0(w) = 1 / V (so a word never seen as a continuation keeps a probability)
// where c_n is the raw count of an n-gram in the training stream, and for k < n c_k(g) is its
// continuation count: how many distinct tokens x make x·g a k+1-gram with c_{k+1}(x g) > 0;
// c_k(h •) = Σ_w c_k(h w), N_k(h •) = the number of w with c_k(h w) > 0. A context never seen
// (c_k(h •) = 0) gives p_k = p_{k−1}. D_k = n₁ / (n₁ + 2 n₂), with n_r the number of k-grams whose
// c_k is r.
//
// Tokens are ids 0 … V − 1 (V ≤ 65,536); a k-gram is a 64-bit key of 16 bits per token. Nothing
// throws: build() catches the allocation failures and returns false.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/check.hpp"

namespace attn {
namespace ngram {

constexpr int kMaxOrder = 4;   // 4 × 16 bits per key
constexpr int kMaxVocab = 1 << 16;

class Unigram {
 public:
  bool build(const std::int32_t* tokens, std::size_t count, int vocab, Error* err) noexcept;
  double prob(int w) const noexcept { return counts_[static_cast<std::size_t>(w)] / total_; }

 private:
  std::vector<double> counts_;
  double total_ = 0;
};

class KneserNey {
 public:
  // Counts the n-grams of the training stream (tokens in 0 … vocab − 1, checked).
  bool build(const std::int32_t* tokens, std::size_t count, int vocab, int order, Error* err) noexcept;
  // p(w | context), context = the order − 1 tokens before w, oldest first.
  double prob(const std::int32_t* context, int w) const noexcept;
  int order() const { return order_; }
  double discount(int level) const { return levels_[static_cast<std::size_t>(level - 1)].discount; }

 private:
  struct Level {
    std::unordered_map<std::uint64_t, std::uint32_t> count;  // k-gram → c_k
    std::unordered_map<std::uint64_t, std::uint64_t> total;  // context → c_k(h •)
    std::unordered_map<std::uint64_t, std::uint32_t> types;  // context → N_k(h •)
    double discount = 0;
  };
  int order_ = 0, vocab_ = 0;
  std::vector<Level> levels_;  // levels_[k − 1] is level k
};

// exp of the mean −ln p over the targets tokens[i], i in [first, count), each predicted from the
// tokens before it; prob(i) gives p(tokens[i] | its past).
template <class Prob>
double perplexity(std::size_t first, std::size_t count, Prob prob) {
  double nll = 0;
  for (std::size_t i = first; i < count; ++i) nll -= std::log(prob(i));
  return std::exp(nll / static_cast<double>(count - first));
}

}  // namespace ngram
}  // namespace attn
