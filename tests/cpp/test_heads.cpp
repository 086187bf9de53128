// What a head does (cpp/model/heads.hpp) against float64 references written here from its
// contract, sharing no code with the core: the induction score on random rows, what even rows
// score, and every head of a small model measured over several windows (averaged profiles, the
// roles named from the averages, induction on repeated windows). The same suite runs natively and
// in both WebAssembly builds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "model/heads.hpp"
#include "model/model.hpp"

namespace {

namespace lm = attn::lm;

// float32 rows summed in float64 against a float32 result: a few units of 2^-24 on values ≤ 1
constexpr double kMeanTolerance = 1e-6;

// T×T causal rows: softmax of N(0, 2²) scores in float64, stored as float32.
std::vector<float> causal_rows(int T, std::uint64_t seed) {
  attn::Rng rng(seed);
  std::vector<float> w(static_cast<std::size_t>(T) * T, 0.0f);
  for (int i = 0; i < T; ++i) {
    std::vector<double> e(i + 1);
    double sum = 0;
    for (int j = 0; j <= i; ++j) sum += e[j] = std::exp(2.0 * rng.normal());
    for (int j = 0; j <= i; ++j) w[static_cast<std::size_t>(i) * T + j] = static_cast<float>(e[j] / sum);
  }
  return w;
}

// ---- the references, from the contract ----

// rows span…T−1, each its weight on the key after its earlier copy (i − span + 1)
double induction_reference(const float* w, int T, int span) {
  double sum = 0;
  for (int i = span; i < T; ++i) sum += w[i * T + i - span + 1];
  return sum / (T - span);
}

struct Profile64 {
  double previous = 0, first = 0, self = 0, spread = 0, top = 0, score_spread = 0;
};

// rows 1…T−1 of causal weights: previous, first, self; spread = entropy ÷ ln(keys seen); top the
// largest weight; score_spread the standard deviation of ln w over the positive weights (two-pass)
Profile64 profile_reference(const float* w, int T) {
  Profile64 p;
  for (int i = 1; i < T; ++i) {
    p.previous += w[i * T + i - 1];
    p.first += w[i * T];
    p.self += w[i * T + i];
    double h = 0, top = 0, mean = 0;
    int positive = 0;
    for (int j = 0; j <= i; ++j) {
      const double x = w[i * T + j];
      top = std::max(top, x);
      if (x > 0) h -= x * std::log(x), mean += std::log(x), ++positive;
    }
    p.spread += h / std::log(i + 1.0);
    p.top += top;
    if (positive > 1) {
      mean /= positive;
      double var = 0;
      for (int j = 0; j <= i; ++j)
        if (w[i * T + j] > 0) var += (std::log(double(w[i * T + j])) - mean) * (std::log(double(w[i * T + j])) - mean);
      p.score_spread += std::sqrt(var / positive);
    }
  }
  const double rows = T - 1;
  p.previous /= rows, p.first /= rows, p.self /= rows, p.spread /= rows, p.top /= rows, p.score_spread /= rows;
  return p;
}

// the rule of the contract: the largest share ≥ 0.5 names it (previous, first, self in that order
// on a tie), else broad at spread ≥ 0.6, else mixed
std::string role_reference(const Profile64& p) {
  const float share[] = {float(p.previous), float(p.first), float(p.self)};
  int best = 0;
  for (int r = 1; r < 3; ++r)
    if (share[r] > share[best]) best = r;
  if (share[best] >= 0.5f) return best == 0 ? "previous" : best == 1 ? "first" : "self";
  return float(p.spread) >= 0.6f ? "broad" : "mixed";
}

std::string name(lm::HeadRole role) {
  const char* const names[] = {"previous", "first", "self", "broad", "mixed"};
  return names[static_cast<int>(role)];
}

}  // namespace

TEST_CASE("heads: the induction score is the mean weight on the key after the earlier copy", "[heads]") {
  for (const int T : {2, 9, 48}) {
    const auto w = causal_rows(T, 100 + T);
    for (int span = 1; span < T; span += (T > 9 ? 7 : 1)) {
      CAPTURE(T, span);
      CHECK(lm::head_induction(w.data(), T, span) == Approx(induction_reference(w.data(), T, span)).margin(kMeanTolerance));
    }
    CHECK(lm::head_induction(w.data(), T, 0) == 0);  // no period
    CHECK(lm::head_induction(w.data(), T, T) == 0);   // no repeat within the sequence
  }
  // a head that reads on after every earlier copy: all on key i − span + 1
  const int T = 8, span = 4;
  std::vector<float> w(T * T, 0.0f);
  for (int i = 0; i < T; ++i) w[i * T + (i >= span ? i - span + 1 : 0)] = 1.0f;
  CHECK(lm::head_induction(w.data(), T, span) == 1.0f);
}

TEST_CASE("heads: even rows score the mean of 1/(i+1) over the rows measured", "[heads]") {
  for (const int T : {2, 5, 48, 64}) {
    std::vector<float> even(static_cast<std::size_t>(T) * T, 0.0f);
    for (int i = 0; i < T; ++i)
      for (int j = 0; j <= i; ++j) even[i * T + j] = 1.0f / (i + 1);
    // 1/2 + … + 1/T over T − 1 rows, from the harmonic numbers
    double harmonic = 0;
    for (int k = 2; k <= T; ++k) harmonic += 1.0 / k;
    CAPTURE(T);
    CHECK(lm::even_share(T) == Approx(harmonic / (T - 1)).epsilon(1e-12));
    const lm::HeadProfile p = lm::head_profile(even.data(), T);
    CHECK(p.first == Approx(lm::even_share(T)).margin(kMeanTolerance));
    CHECK(p.previous == Approx(lm::even_share(T)).margin(kMeanTolerance));
    if (T % 2 == 0) {
      const int span = T / 2;
      double rows = 0;
      for (int i = span; i < T; ++i) rows += 1.0 / (i + 1);
      CHECK(lm::even_induction(T, span) == Approx(rows / span).epsilon(1e-12));
      CHECK(lm::head_induction(even.data(), T, span) == Approx(lm::even_induction(T, span)).margin(kMeanTolerance));
    }
  }
  CHECK(lm::even_induction(8, 0) == 0);
}

TEST_CASE("heads: the mean spread of several heads is their spreads' mean", "[heads]") {
  std::vector<lm::HeadProfile> heads(7);
  double sum = 0;
  for (int k = 0; k < 7; ++k) sum += heads[k].spread = static_cast<float>(0.1 + 0.13 * k);
  CHECK(lm::mean_spread(heads.data(), 7) == Approx(sum / 7).margin(kMeanTolerance));
  CHECK(lm::mean_spread(heads.data(), 0) == 0);
}

TEST_CASE("heads: every head of a model over windows, as the float64 reference averages them", "[heads]") {
  lm::ModelConfig c;
  c.vocab = 30, c.context = 16, c.layers = 2, c.heads = 3, c.d_model = 12, c.scaled = true;
  lm::Model model;
  attn::Error err;
  REQUIRE(model.create(c, 1, &err, /*for_training=*/false));
  lm::init_params(c, 5, model.params());
  // GPT-2's initialisation gives near-even rows; larger weights give heads that differ
  for (std::size_t i = 0; i < model.size(); ++i) model.params()[i] *= 40.0f;
  const int L = c.layers, H = c.heads, heads = L * H;

  for (const int span : {0, 6}) {
    const int T = span ? 2 * span : 11, windows = 5;
    attn::Rng rng(77 + span);
    std::vector<std::int32_t> ids(static_cast<std::size_t>(windows) * T);
    for (int w = 0; w < windows; ++w)
      for (int i = 0; i < T; ++i)
        ids[w * T + i] = span && i >= span ? ids[w * T + i - span] : static_cast<std::int32_t>(rng.next_u64() % c.vocab);
    // the reference: each window through the model on its own, its weights measured here
    std::vector<Profile64> sums(heads);
    std::vector<double> induction(heads, 0.0);
    for (int w = 0; w < windows; ++w) {
      REQUIRE(model.predict(ids.data() + w * T, T, T - 1, &err));
      for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h) {
          const float* a = model.attention(l) + static_cast<std::size_t>(h) * T * T;
          const Profile64 p = profile_reference(a, T);
          Profile64& s = sums[l * H + h];
          s.previous += p.previous / windows, s.first += p.first / windows, s.self += p.self / windows;
          s.spread += p.spread / windows, s.top += p.top / windows, s.score_spread += p.score_spread / windows;
          if (span) induction[l * H + h] += induction_reference(a, T, span) / windows;
        }
    }
    std::vector<lm::HeadProfile> got(heads);
    std::vector<lm::HeadRole> roles(heads);
    std::vector<float> got_induction(heads, -1.0f);
    REQUIRE(lm::measure_heads(model, ids.data(), windows, T, span, got.data(), roles.data(), got_induction.data(), &err));
    int named[5] = {0, 0, 0, 0, 0};
    for (int k = 0; k < heads; ++k) {
      CAPTURE(span, k);
      CHECK(got[k].previous == Approx(sums[k].previous).margin(kMeanTolerance));
      CHECK(got[k].first == Approx(sums[k].first).margin(kMeanTolerance));
      CHECK(got[k].self == Approx(sums[k].self).margin(kMeanTolerance));
      CHECK(got[k].spread == Approx(sums[k].spread).margin(kMeanTolerance));
      CHECK(got[k].top == Approx(sums[k].top).margin(kMeanTolerance));
      CHECK(got[k].score_spread == Approx(sums[k].score_spread).margin(kMeanTolerance));
      CHECK(name(roles[k]) == role_reference(sums[k]));
      CHECK(got_induction[k] == Approx(span ? induction[k] : 0.0).margin(kMeanTolerance));
      ++named[static_cast<int>(roles[k])];
    }
    // the heads differ: not every one is broad (else the roles above would test little)
    CHECK(named[3] < heads);
  }

  // bad windows, lengths, spans and ids fail with a message, and a model is left usable
  std::vector<std::int32_t> ids(16, 1);
  CHECK_FALSE(lm::measure_heads(model, ids.data(), 0, 8, 0, nullptr, nullptr, nullptr, &err));
  CHECK(err.status == attn::Status::invalid_shape);
  CHECK_FALSE(lm::measure_heads(model, ids.data(), 1, c.context + 1, 0, nullptr, nullptr, nullptr, &err));
  CHECK_FALSE(lm::measure_heads(model, ids.data(), 2, 8, 8, nullptr, nullptr, nullptr, &err));
  ids[3] = c.vocab;
  std::vector<lm::HeadProfile> p(6);
  std::vector<lm::HeadRole> r(6);
  CHECK_FALSE(lm::measure_heads(model, ids.data(), 2, 8, 0, p.data(), r.data(), nullptr, &err));
  CHECK(std::string(err.message).find("inputs[3] is 30") != std::string::npos);
}
