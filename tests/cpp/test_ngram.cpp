// The n-gram baselines (scripts/model/ngram.hpp) against probabilities worked out by hand from the
// formulas, on streams small enough to count on paper, and each distribution summing to 1.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ngram.hpp"

namespace {
namespace ng = attn::ngram;
constexpr int a = 0, b = 1, c = 2;
// Hand-computed fractions, checked to rounding.
constexpr double kTol = 1e-12;
}  // namespace

TEST_CASE("ngram: unigram and Kneser-Ney bigram take the hand-worked values", "[ngram]") {
  // a b a b c a: bigrams ab ×2, ba, bc, ca; n₁ = 3, n₂ = 1 → D₂ = 3/5.
  // continuation counts (distinct bigrams ending in w): a 2 (ba, ca), b 1, c 1; total 4, three
  // types, n₁ = 2, n₂ = 1 → D₁ = 1/2; p₁(w) = (c₁ − ½)/4 + ½·3/4·⅓ = (0.5, 0.25, 0.25).
  const std::vector<std::int32_t> stream = {a, b, a, b, c, a};
  attn::Error err;
  ng::Unigram uni;
  REQUIRE(uni.build(stream.data(), stream.size(), 3, &err));
  CHECK(uni.prob(a) == Approx(0.5).margin(kTol));
  CHECK(uni.prob(c) == Approx(1.0 / 6).margin(kTol));
  ng::KneserNey kn;
  REQUIRE(kn.build(stream.data(), stream.size(), 3, 2, &err));
  CHECK(kn.discount(2) == Approx(0.6).margin(kTol));
  CHECK(kn.discount(1) == Approx(0.5).margin(kTol));
  const std::int32_t after_b[1] = {b}, after_a[1] = {a};
  // after b (c = 2, two types): a (1 − 0.6)/2 + 0.6·2/2·0.5 = 0.5; c 0.2 + 0.6·0.25 = 0.35;
  // b 0.6·0.25 = 0.15
  CHECK(kn.prob(after_b, a) == Approx(0.5).margin(kTol));
  CHECK(kn.prob(after_b, c) == Approx(0.35).margin(kTol));
  CHECK(kn.prob(after_b, b) == Approx(0.15).margin(kTol));
  // after a (c = 2, one type): b (2 − 0.6)/2 + 0.6·½·0.25 = 0.775; a 0.3·0.5 = 0.15; c 0.075
  CHECK(kn.prob(after_a, b) == Approx(0.775).margin(kTol));
  CHECK(kn.prob(after_a, a) == Approx(0.15).margin(kTol));
  CHECK(kn.prob(after_a, c) == Approx(0.075).margin(kTol));
}

TEST_CASE("ngram: Kneser-Ney trigram takes the hand-worked values", "[ngram]") {
  // a b c a b c a b a: trigrams abc ×2, bca ×2, cab ×2, aba ×1: n₁ = 1, n₂ = 3 → D₃ = 1/7.
  // Level 2 (distinct trigrams, first token dropped): bc, ca, ab, ba once each → D₂ = 1, and
  // p₂(w | h) = N(h•)/c(h•)·p₁(w) = p₁(w). Level 1: a 2 (ca, ba), b 1, c 1 → p₁ = (0.5, 0.25, 0.25).
  // After "a b" (c = 3, two types: abc 2, aba 1):
  //   c: (2 − 1/7)/3 + (1/7)·(2/3)·0.25 = 27/42;  a: (1 − 1/7)/3 + (1/7)(2/3)·0.5 = 1/3;  b: 1/42
  const std::vector<std::int32_t> stream = {a, b, c, a, b, c, a, b, a};
  attn::Error err;
  ng::KneserNey kn;
  REQUIRE(kn.build(stream.data(), stream.size(), 3, 3, &err));
  CHECK(kn.discount(3) == Approx(1.0 / 7).margin(kTol));
  CHECK(kn.discount(2) == Approx(1.0).margin(kTol));
  const std::int32_t ab[2] = {a, b};
  CHECK(kn.prob(ab, c) == Approx(27.0 / 42).margin(kTol));
  CHECK(kn.prob(ab, a) == Approx(1.0 / 3).margin(kTol));
  CHECK(kn.prob(ab, b) == Approx(1.0 / 42).margin(kTol));
  // an unseen context (c c): the bigram level after c, here p₁
  const std::int32_t cc[2] = {c, c};
  CHECK(kn.prob(cc, a) == Approx(0.5).margin(kTol));
  // every context's distribution sums to 1
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v) {
      const std::int32_t h[2] = {u, v};
      CHECK(kn.prob(h, a) + kn.prob(h, b) + kn.prob(h, c) == Approx(1.0).margin(kTol));
    }
  // the training stream's own perplexity from its third token: c|ab 27/42, a|bc, b|ca twice
  // each, a|ab 1/3, with a|bc = (2 − 1/7)/2 + (1/7)(1/2)·0.5 = 27/28 and
  // b|ca = (2 − 1/7)/2 + (1/7)(1/2)·0.25 = 53/56
  const double ppl = ng::perplexity(2, stream.size(), [&](std::size_t i) { return kn.prob(&stream[i - 2], stream[i]); });
  const double nll = -(2 * std::log(27.0 / 42) + 2 * std::log(27.0 / 28) + 2 * std::log(53.0 / 56) + std::log(1.0 / 3));
  CHECK(ppl == Approx(std::exp(nll / 7)).epsilon(1e-12));
}

TEST_CASE("ngram: bad input is refused with a message", "[ngram]") {
  const std::vector<std::int32_t> stream = {0, 1, 5};
  attn::Error err;
  ng::KneserNey kn;
  CHECK_FALSE(kn.build(stream.data(), stream.size(), 3, 2, &err));
  CHECK(std::string(err.message) == "tokens[2] is 5, expected a token from 0 to 2");
  CHECK_FALSE(kn.build(stream.data(), 2, 3, 5, &err));
  CHECK(err.status == attn::Status::invalid_shape);
}
