// Attention supplied from another model (cpp/model/supplied_attention.hpp): valid tensors pass with
// the largest row error and the causal flag a float64 reference here computes; every kind of
// fault is found at its place (the first in reading order); dimensions, lengths and sizes at
// and past their limits fail with their status, never reading past the array; and the heads of
// any tensor are measured (heads.hpp, head_profile) as a float64 reference written here says.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "model/heads.hpp"
#include "model/model.hpp"
#include "core/random.hpp"
#include "model/supplied_attention.hpp"

namespace {

using attn::Status;
using attn::SuppliedFault;

// L×H×n×n rows: softmax of N(0, spread²) scores in float64, stored as float32 (as a model
// exports them); causal rows hide the keys after the query.
std::vector<float> softmax_rows(int L, int H, int n, std::uint64_t seed, bool causal = false, double spread = 2.0) {
  attn::Rng rng(seed);
  std::vector<float> w(static_cast<std::size_t>(L) * H * n * n);
  for (std::size_t r = 0; r < w.size() / n; ++r) {
    const int i = static_cast<int>(r % n);
    const int keys = causal ? i + 1 : n;
    std::vector<double> e(n, 0.0);
    double sum = 0;
    for (int j = 0; j < keys; ++j) sum += e[j] = std::exp(spread * rng.normal());
    for (int j = 0; j < n; ++j) w[r * n + j] = static_cast<float>(e[j] / sum);
  }
  return w;
}

// The reference's largest |Σ row − 1|, summed in long double.
double worst_row_error(const std::vector<float>& w, int n) {
  double worst = 0;
  for (std::size_t r = 0; r < w.size() / n; ++r) {
    long double sum = 0;
    for (int j = 0; j < n; ++j) sum += w[r * n + j];
    worst = std::max(worst, static_cast<double>(std::fabs(sum - 1.0L)));
  }
  return worst;
}

attn::Input whole(const std::vector<float>& w) { return {w.data(), w.size()}; }

std::size_t at(int H, int n, int l, int h, int i, int j) {
  return ((static_cast<std::size_t>(l) * H + h) * n + i) * n + j;
}

}  // namespace

TEST_CASE("supplied attention: valid rows pass, with the row error and the causal flag", "[supplied]") {
  for (const bool causal : {false, true})
    for (const int n : {1, 2, 7, 64}) {
      const int L = 3, H = 4;
      const auto w = softmax_rows(L, H, n, 11 + n, causal);
      attn::SuppliedReport report;
      attn::Error err;
      INFO("n " << n << " causal " << causal);
      REQUIRE(attn::check_supplied_attention(whole(w), L, H, n, &report, &err));
      CHECK(report.fault == SuppliedFault::none);
      CHECK(report.worst_row_error == Approx(worst_row_error(w, n)).margin(1e-12));
      CHECK(report.worst_row_error < 1e-6);  // float32 rounding of each weight only
      CHECK(report.causal == (causal || n == 1));
    }
}

TEST_CASE("supplied attention: the row-sum tolerance holds at its edge", "[supplied]") {
  const int n = 4;
  // row 0 of one head: weights whose float64 sum is 1 ± (tolerance · 0.9) and ± (tolerance · 1.1)
  for (const double factor : {0.9, -0.9, 1.1, -1.1}) {
    const double target = 1.0 + factor * attn::kRowSumTolerance;
    std::vector<float> w = softmax_rows(1, 1, n, 3);
    const float first = static_cast<float>(target - 0.75);
    for (int i = 0; i < n; ++i) {
      w[i * n + 0] = first;
      for (int j = 1; j < n; ++j) w[i * n + j] = 0.25f;
    }
    attn::SuppliedReport report;
    attn::Error err;
    const bool passed = attn::check_supplied_attention(whole(w), 1, 1, n, &report, &err);
    INFO("factor " << factor << ": " << err.message);
    CHECK(passed == (std::fabs(factor) < 1));
    if (!passed) {
      CHECK(report.fault == SuppliedFault::row_sum);
      CHECK(err.status == Status::invalid_argument);
      CHECK(report.row == 0);
      CHECK(report.value == Approx(double(first) + 0.75).epsilon(1e-12));
    }
  }
}

TEST_CASE("supplied attention: each fault is named at its first place", "[supplied]") {
  const int L = 3, H = 2, n = 5;
  struct Case {
    const char* name;
    float value;
    SuppliedFault fault;
    Status status;
  };
  const Case cases[] = {
      {"NaN", std::numeric_limits<float>::quiet_NaN(), SuppliedFault::non_finite, Status::non_finite_input},
      {"Infinity", std::numeric_limits<float>::infinity(), SuppliedFault::non_finite, Status::non_finite_input},
      {"-Infinity", -std::numeric_limits<float>::infinity(), SuppliedFault::non_finite, Status::non_finite_input},
      {"negative", -0.125f, SuppliedFault::negative, Status::invalid_argument},
      {"row sum", 0.5f, SuppliedFault::row_sum, Status::invalid_argument},
  };
  for (const Case& c : cases) {
    auto w = softmax_rows(L, H, n, 5);
    // the fault planted at layer 2, head 2, row 4, column 3 (0-based 1, 1, 3, 2), and a second
    // one later, which must not be the one reported
    w[at(H, n, 1, 1, 3, 2)] += c.value;
    w[at(H, n, 2, 0, 0, 0)] = -1.0f;
    attn::SuppliedReport report;
    attn::Error err;
    INFO(c.name);
    REQUIRE_FALSE(attn::check_supplied_attention(whole(w), L, H, n, &report, &err));
    CHECK(err.status == c.status);
    CHECK(report.fault == c.fault);
    CHECK(report.layer == 1);
    CHECK(report.head == 1);
    CHECK(report.row == 3);
    const std::string message = err.message;
    INFO(message);
    CHECK(message.find("layer 2, head 2, row 4") != std::string::npos);
    if (c.fault == SuppliedFault::row_sum) {
      CHECK(report.column == -1);
      long double sum = 0;
      for (int j = 0; j < n; ++j) sum += w[at(H, n, 1, 1, 3, j)];
      CHECK(report.value == Approx(static_cast<double>(sum)).epsilon(1e-12));
      CHECK(message.find("sums to 1.5") != std::string::npos);
    } else {
      CHECK(report.column == 2);
      CHECK(message.find("column 3 is") != std::string::npos);
      if (c.fault == SuppliedFault::non_finite) CHECK(message.find(c.name) != std::string::npos);
    }
  }
}

TEST_CASE("supplied attention: dimensions, lengths and sizes at and past their limits", "[supplied][memory]") {
  const auto w = softmax_rows(1, 1, 3, 1);
  attn::Error err;
  SECTION("a dimension out of range") {
    for (const auto& dims : std::vector<std::vector<int>>{{0, 1, 3},
                                                          {1, 0, 3},
                                                          {1, 1, 0},
                                                          {-1, 1, 3},
                                                          {attn::kMaxSuppliedLayers + 1, 1, 3},
                                                          {1, attn::kMaxSuppliedHeads + 1, 3},
                                                          {1, 1, attn::kMaxSuppliedTokens + 1},
                                                          {1, 1, std::numeric_limits<int>::max()},
                                                          {std::numeric_limits<int>::min(), 1, 3}}) {
      REQUIRE_FALSE(attn::check_supplied_attention(whole(w), dims[0], dims[1], dims[2], nullptr, &err));
      CHECK(err.status == Status::invalid_shape);
    }
  }
  SECTION("a length that is not L·H·n·n, or a missing array") {
    for (const std::uint64_t length : {std::uint64_t(8), std::uint64_t(10), std::uint64_t(0)}) {
      REQUIRE_FALSE(attn::check_supplied_attention({w.data(), length}, 1, 1, 3, nullptr, &err));
      CHECK(err.status == Status::invalid_shape);
      CHECK(std::string(err.message).find("layers·heads·n·n = 9") != std::string::npos);
    }
    REQUIRE_FALSE(attn::check_supplied_attention(attn::Input{}, 1, 1, 3, nullptr, &err));
    CHECK(err.status == Status::invalid_argument);
  }
  SECTION("every limit at once is beyond the budget: refused before any value is read") {
    // 2^8 · 2^8 · 2^12 · 2^12 = 2^40 floats; the array claims that length but holds 9 floats
    const std::uint64_t claimed = std::uint64_t(1) << 40;
    REQUIRE_FALSE(attn::check_supplied_attention({w.data(), claimed}, attn::kMaxSuppliedLayers, attn::kMaxSuppliedHeads,
                                                 attn::kMaxSuppliedTokens, nullptr, &err));
    CHECK(err.status == Status::too_large);
  }
  SECTION("a length that wraps 32 bits to the right count does not pass") {
    // 2^32 + 9 floats, whose low 32 bits are 9: a 32-bit size_t would see 9
    const std::uint64_t wrapped = (std::uint64_t(1) << 32) + 9;
    REQUIRE_FALSE(attn::check_supplied_attention({w.data(), wrapped}, 1, 1, 3, nullptr, &err));
    CHECK(err.status == Status::invalid_shape);
  }
  SECTION("the largest n of one head fits the budget") {
    const int n = attn::kMaxSuppliedTokens;
    std::vector<float> big(static_cast<std::size_t>(n) * n, 1.0f / n);
    attn::SuppliedReport report;
    REQUIRE(attn::check_supplied_attention(whole(big), 1, 1, n, &report, &err));
    // 4096 × 2^-12 in float64 is exactly 1
    CHECK(report.worst_row_error == 0);
    CHECK_FALSE(report.causal);
  }
}

TEST_CASE("supplied attention: heads measured as a float64 reference says", "[supplied]") {
  // the reference, written from head_profile's contract: rows 2…T; previous, first, self; spread
  // the mean entropy over the keys each row sees, ÷ ln(keys)
  const auto reference = [](const float* w, int T, bool causal) {
    double share[3] = {0, 0, 0}, spread = 0;
    for (int i = 1; i < T; ++i) {
      share[0] += w[i * T + i - 1];
      share[1] += w[i * T];
      share[2] += w[i * T + i];
      const int keys = causal ? i + 1 : T;
      double h = 0;
      for (int j = 0; j < keys; ++j) {
        const double p = w[i * T + j];
        if (p > 0) h -= p * std::log(p);
      }
      spread += h / std::log(double(keys));
    }
    return std::vector<double>{share[0] / (T - 1), share[1] / (T - 1), share[2] / (T - 1), spread / (T - 1)};
  };
  for (const bool causal : {false, true}) {
    const int T = 9;
    const auto w = softmax_rows(1, 1, T, 21, causal, 1.0);
    const attn::lm::HeadProfile p = attn::lm::head_profile(w.data(), T, causal);
    const auto want = reference(w.data(), T, causal);
    INFO("causal " << causal);
    CHECK(p.previous == Approx(want[0]).epsilon(1e-6));
    CHECK(p.first == Approx(want[1]).epsilon(1e-6));
    CHECK(p.self == Approx(want[2]).epsilon(1e-6));
    CHECK(p.spread == Approx(want[3]).epsilon(1e-6));
  }
  // even rows over all keys: spread 1 when measured over all keys, below 1 as if causal
  const int T = 6;
  std::vector<float> even(T * T, 1.0f / T);
  CHECK(attn::lm::head_profile(even.data(), T, false).spread == Approx(1).epsilon(1e-6));
  CHECK(attn::lm::head_profile(even.data(), T, false).first == Approx(1.0 / T));
}
