// The n-gram baselines of ngram.hpp: counts in hash maps, then the interpolation.
#include <algorithm>
#include <cmath>
#include <new>

#include "ngram.hpp"

namespace attn {
namespace ngram {

namespace {

bool check_tokens(const std::int32_t* tokens, std::size_t count, int vocab, Error* err) {
  if (!check_dim("vocab", vocab, 1, kMaxVocab, err)) return false;
  if (!tokens) return missing("tokens", err);
  for (std::size_t i = 0; i < count; ++i)
    if (tokens[i] < 0 || tokens[i] >= vocab)
      return fail(err, Status::invalid_shape, "tokens[%zu] is %d, expected a token from 0 to %d", i, tokens[i],
                  vocab - 1);
  return true;
}

// the key of tokens[0 … k−1], the last token in the low 16 bits
std::uint64_t key_of(const std::int32_t* tokens, int k) {
  std::uint64_t key = 0;
  for (int j = 0; j < k; ++j) key = (key << 16) | static_cast<std::uint64_t>(tokens[j]);
  return key;
}

std::uint64_t low_bits(int tokens) { return tokens >= 4 ? ~std::uint64_t(0) : (std::uint64_t(1) << (16 * tokens)) - 1; }

}  // namespace

bool Unigram::build(const std::int32_t* tokens, std::size_t count, int vocab, Error* err) noexcept {
  if (!check_tokens(tokens, count, vocab, err)) return false;
  if (count == 0) return fail(err, Status::invalid_shape, "the training stream is empty");
  try {
    counts_.assign(static_cast<std::size_t>(vocab), 0.0);
  } catch (const std::bad_alloc&) {
    return fail(err, Status::too_large, "out of memory counting unigrams");
  }
  for (std::size_t i = 0; i < count; ++i) counts_[static_cast<std::size_t>(tokens[i])] += 1;
  total_ = static_cast<double>(count);
  return true;
}

bool KneserNey::build(const std::int32_t* tokens, std::size_t count, int vocab, int order, Error* err) noexcept {
  if (!check_dim("order", order, 1, kMaxOrder, err) || !check_tokens(tokens, count, vocab, err)) return false;
  if (count < static_cast<std::size_t>(order))
    return fail(err, Status::invalid_shape, "the training stream holds %zu tokens, fewer than the order %d", count,
                order);
  order_ = order;
  vocab_ = vocab;
  try {
    levels_.assign(static_cast<std::size_t>(order), Level());
    // pass 1: raw counts of the highest order
    Level& top = levels_.back();
    for (std::size_t i = 0; i + order <= count; ++i) ++top.count[key_of(tokens + i, order)];
    // pass 2: continuation counts, each level from the distinct k+1-grams above it (their
    // first token dropped)
    for (int k = order - 1; k >= 1; --k) {
      const std::uint64_t mask = low_bits(k);
      for (const auto& entry : levels_[static_cast<std::size_t>(k)].count) ++levels_[static_cast<std::size_t>(k - 1)].count[entry.first & mask];
    }
    // pass 3: per context, the total and the number of types; the discount from n₁ and n₂
    for (Level& level : levels_) {
      double n1 = 0, n2 = 0;
      for (const auto& entry : level.count) {
        const std::uint64_t context = entry.first >> 16;
        level.total[context] += entry.second;
        ++level.types[context];
        n1 += entry.second == 1;
        n2 += entry.second == 2;
      }
      level.discount = n1 + n2 > 0 ? n1 / (n1 + 2 * n2) : 0.5;
    }
  } catch (const std::bad_alloc&) {
    levels_.clear();
    order_ = 0;
    return fail(err, Status::too_large, "out of memory counting %d-grams", order);
  }
  return true;
}

double KneserNey::prob(const std::int32_t* context, int w) const noexcept {
  double p = 1.0 / vocab_;  // p_0
  for (int k = 1; k <= order_; ++k) {
    const Level& level = levels_[static_cast<std::size_t>(k - 1)];
    // h_k: the last k − 1 tokens of the context
    const std::uint64_t h = key_of(context + (order_ - k), k - 1);
    const auto total = level.total.find(h);
    if (total == level.total.end()) continue;  // an unseen context: p_k = p_{k−1}
    const auto found = level.count.find((h << 16) | static_cast<std::uint64_t>(w));
    const double c = found == level.count.end() ? 0.0 : found->second;
    const double n = static_cast<double>(total->second);
    const double types = level.types.find(h)->second;  // present wherever total is
    p = std::max(c - level.discount, 0.0) / n + level.discount * types / n * p;
  }
  return p;
}

}  // namespace ngram
}  // namespace attn
