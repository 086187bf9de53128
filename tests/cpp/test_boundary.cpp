// The check module (cpp/core/check.hpp) and the result layout (cpp/core/boundary.hpp). The same suite runs
// natively (64-bit size_t) and in both wasm builds (32-bit size_t), where a size computed in
// size_t would wrap: every size here is one that wrapped, or sits on the budget's edge.
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/boundary.hpp"
#include "core/check.hpp"

namespace {

bool contains(const attn::Error& err, const char* words) {
  return std::string(err.message).find(words) != std::string::npos;
}

constexpr std::uint64_t kBudgetFloats = attn::kMemoryBudgetBytes / attn::kBytesPerFloat;  // 2^28

}  // namespace

TEST_CASE("check_size: the budget, in 64 bits, whatever size_t is", "[check][memory]") {
  attn::Error err;
  REQUIRE(attn::check_size("x", 0, &err));
  REQUIRE(attn::check_size("x", kBudgetFloats, &err));  // exactly 1 GiB
  REQUIRE_FALSE(attn::check_size("x", kBudgetFloats + 1, &err));
  REQUIRE(err.status == attn::Status::too_large);
  INFO(err.message);
  REQUIRE(contains(err, "x would take 1073741828 bytes (268435457 floats)"));
  REQUIRE(contains(err, "memory budget of 1073741824 bytes"));
  // sizes whose byte count wraps a 32-bit size_t to something small (2^32 + 16 bytes → 16)...
  for (std::uint64_t floats : {std::uint64_t(1) << 30, (std::uint64_t(1) << 30) + 4, std::uint64_t(65536) * 65536,
                               std::uint64_t(32768) * 32769}) {
    INFO(floats);
    REQUIRE_FALSE(attn::check_size("w", floats, &err));
    REQUIRE(err.status == attn::Status::too_large);
  }
  // ... or wraps 64 bits once multiplied by 4
  REQUIRE_FALSE(attn::check_size("w", std::uint64_t(1) << 62, &err));
  REQUIRE_FALSE(attn::check_size("w", ~std::uint64_t(0), &err));
  REQUIRE(contains(err, "18446744073709551615 floats"));
}

TEST_CASE("check_length and check_row_length name the array, its length and the formula", "[check]") {
  const std::vector<float> q(5);
  attn::Error err;
  REQUIRE(attn::check_length("q", {q.data(), 6}, 6, "n·d", &err));
  REQUIRE(attn::check_length("q", q.data(), 6, "n·d", &err));  // a bare pointer: length unknown, not compared
  REQUIRE_FALSE(attn::check_length("q", {q.data(), 5}, 6, "n·d", &err));
  REQUIRE(err.status == attn::Status::invalid_shape);
  REQUIRE(std::string(err.message) == "q has length 5, expected n·d = 6");
  REQUIRE_FALSE(attn::check_length("v", {}, 6, "m·dv", &err));
  REQUIRE(err.status == attn::Status::invalid_argument);
  REQUIRE(std::string(err.message) == "v is required");
  // a length beyond 32 bits (a JavaScript array may be longer than a wasm32 size_t counts)
  REQUIRE_FALSE(attn::check_length("k", {q.data(), std::uint64_t(1) << 33}, 6, "m·d", &err));
  REQUIRE(contains(err, "k has length 8589934592"));

  int m = 0;
  REQUIRE(attn::check_row_length("p", {q.data(), 5}, 8, &m, &err));
  REQUIRE(m == 5);
  REQUIRE_FALSE(attn::check_row_length("p", {q.data(), 0}, 8, &m, &err));
  REQUIRE(std::string(err.message) == "p must hold at least one number, got an empty array");
  REQUIRE_FALSE(attn::check_row_length("p", {q.data(), 9}, 8, &m, &err));
  REQUIRE(std::string(err.message) == "p must hold at most 8 numbers, got 9");
  REQUIRE_FALSE(attn::check_row_length("p", {}, 8, &m, &err));
  REQUIRE(err.status == attn::Status::invalid_argument);
}

TEST_CASE("check_values: finite, finite or hidden, probabilities; the first bad value by index", "[check]") {
  std::vector<float> x(12, 0.5f);
  attn::Error err;
  for (auto rule : {attn::Values::finite, attn::Values::finite_or_hidden, attn::Values::probabilities})
    REQUIRE(attn::check_values("x", x.data(), x.size(), 4, rule, &err));
  x[6] = -INFINITY;
  REQUIRE(attn::check_values("mask", x.data(), x.size(), 4, attn::Values::finite_or_hidden, &err));
  REQUIRE_FALSE(attn::check_values("q", x.data(), x.size(), 4, attn::Values::finite, &err));
  REQUIRE(err.status == attn::Status::non_finite_input);
  REQUIRE(std::string(err.message) == "q[1][2] is -Infinity: q must hold finite numbers");
  x[6] = 0.5f;
  x[9] = NAN;
  REQUIRE_FALSE(attn::check_values("mask", x.data(), x.size(), 4, attn::Values::finite_or_hidden, &err));
  REQUIRE(std::string(err.message) == "mask[2][1] is NaN: mask must hold finite numbers or -Infinity (to hide a key)");
  x[9] = 0.5f;
  x[3] = 1e30f;
  REQUIRE_FALSE(attn::check_values("p", x.data(), x.size(), 0, attn::Values::probabilities, &err));
  REQUIRE(err.status == attn::Status::invalid_argument);  // finite, but no probability
  REQUIRE(std::string(err.message) == "p[3] is 1e+30: p must hold probabilities, numbers from 0 to 1");
  x[3] = -0.25f;
  REQUIRE_FALSE(attn::check_values("p", x.data(), x.size(), 0, attn::Values::probabilities, &err));
  REQUIRE(contains(err, "p[3] is -0.25"));
  // the vectorised fast path and the scan agree on every position of a vector body and its tail
  for (std::size_t count : {1u, 3u, 4u, 5u, 16u, 17u, 33u}) {
    for (std::size_t bad = 0; bad < count; ++bad) {
      std::vector<float> y(count, 1.0f);
      y[bad] = INFINITY;
      REQUIRE_FALSE(attn::check_values("y", y.data(), count, 0, attn::Values::finite, &err));
      REQUIRE(contains(err, ("y[" + std::to_string(bad) + "] is Infinity").c_str()));
    }
  }
}

TEST_CASE("scalars: dimensions, positive numbers, float32 conversion, how numbers print", "[check]") {
  attn::Error err;
  REQUIRE(attn::check_dim("n", 1, 1, 8, &err));
  REQUIRE_FALSE(attn::check_dim("n", 9, 1, 8, &err));
  REQUIRE(std::string(err.message) == "n must be an integer from 1 to 8, got 9");
  REQUIRE(err.status == attn::Status::invalid_shape);
  REQUIRE(attn::check_positive("sigma", 2.0f, 10.0f, &err));
  REQUIRE_FALSE(attn::check_positive("sigma", 20.0f, 10.0f, &err));
  REQUIRE(std::string(err.message) == "sigma must be a positive number at most 10, got 20");
  REQUIRE_FALSE(attn::check_positive("scale", -0.5f, FLT_MAX, &err));
  REQUIRE(std::string(err.message) == "scale must be a positive finite number, got -0.5");
  REQUIRE_FALSE(attn::check_temperature(0.7f * 0.0f, &err));
  REQUIRE(attn::check_temperature(0.7f, &err));

  float f = 0;
  REQUIRE(attn::to_float32("t", 0.7, &f, &err));
  REQUIRE(f == 0.7f);
  REQUIRE(attn::to_float32("t", 0.0, &f, &err));
  REQUIRE(attn::to_float32("t", NAN, &f, &err));  // NaN and ±Infinity are for the value's own check to name
  REQUIRE(std::isnan(f));
  REQUIRE(attn::to_float32("t", -INFINITY, &f, &err));
  REQUIRE_FALSE(attn::to_float32("sigma", 1e39, &f, &err));  // finite in JavaScript, Infinity as float32
  REQUIRE(err.status == attn::Status::invalid_argument);
  REQUIRE(std::string(err.message) == "sigma is 1e+39, beyond the float32 range the core computes in (±3.4e38)");
  REQUIRE_FALSE(attn::to_float32("temperature", 1e-50, &f, &err));
  REQUIRE(std::string(err.message) == "temperature is 1e-50, too small for float32 (it would round to 0)");

  char text[24];
  REQUIRE(std::string(attn::number_text(NAN, text)) == "NaN");
  REQUIRE(std::string(attn::number_text(-INFINITY, text)) == "-Infinity");
  REQUIRE(std::string(attn::number_text(0.7, text)) == "0.7");
  REQUIRE(std::string(attn::number_text(0.1 + 0.2, text)) == "0.30000000000000004");  // as JavaScript prints it
  REQUIRE(std::string(attn::number_text(1e39, text)) == "1e+39");
}

TEST_CASE("Outputs lays out arrays and scalars in one block and publishes their descriptor", "[boundary]") {
  attn::Block block;
  attn::Descriptor published;
  attn::Error err;
  attn::Outputs out(block, published);
  const auto a = out.array("a", 5);
  const auto s = out.number("s");
  const auto b = out.array("nested.b", 3);
  const auto none = out.absent("none");
  const auto flag = out.flag("flag");
  REQUIRE(out.allocate(&err));
  REQUIRE(published.block == block.data());
  REQUIRE(published.count == 5);
  const auto& f = published.fields;
  REQUIRE(std::string(f[0].name) == "a");
  REQUIRE(std::string(f[2].name) == "nested.b");
  REQUIRE((f[0].kind == attn::FieldKind::array && f[1].kind == attn::FieldKind::number &&
           f[2].kind == attn::FieldKind::array && f[3].kind == attn::FieldKind::absent &&
           f[4].kind == attn::FieldKind::flag));
  REQUIRE((f[0].offset == 0 && f[0].length == 5));
  REQUIRE(f[1].offset == 5);                        // a scalar takes the next float
  REQUIRE((f[2].offset == 8 && f[2].length == 3));  // an array starts on a 16-byte boundary
  REQUIRE(f[4].offset == 11);
  REQUIRE(published.floats == 12);
  REQUIRE(out[a] == block.data());
  REQUIRE(out[b] == block.data() + 8);
  REQUIRE(block.capacity() >= 12);
  for (int i = 0; i < 5; ++i) out[a][i] = 1.0f;
  for (int i = 0; i < 3; ++i) out[b][i] = 2.0f;
  out.set(s, 0.5f);
  out.set(flag, true);
  REQUIRE(block.data()[5] == 0.5f);
  REQUIRE(block.data()[11] == 1.0f);
  REQUIRE(block.data()[4] == 1.0f);
  REQUIRE(block.data()[8] == 2.0f);
  (void)none;
}

TEST_CASE("Outputs keeps a float64 scalar exact, at an 8-byte boundary", "[boundary]") {
  attn::Block block;
  attn::Descriptor published;
  attn::Error err;
  attn::Outputs out(block, published);
  const auto s = out.number("s");
  const auto big = out.number64("bytes");
  const auto t = out.number("t");
  REQUIRE(out.allocate(&err));
  const auto& f = published.fields;
  REQUIRE(f[1].kind == attn::FieldKind::float64);
  REQUIRE((f[0].offset == 0 && f[1].offset == 2 && f[2].offset == 4));  // 1 is skipped: 8-byte aligned
  REQUIRE(published.floats == 5);
  REQUIRE(reinterpret_cast<std::uintptr_t>(out[big]) % 8 == 0);
  const double bytes = 134217728.0 + 3.0;  // 2^27 + 3: float32 would round it to 2^27
  out.set_float64(big, bytes);
  out.set(s, 1.0f);
  out.set(t, 2.0f);
  double read;
  std::memcpy(&read, block.data() + 2, sizeof read);
  REQUIRE(read == bytes);
  REQUIRE((block.data()[0] == 1.0f && block.data()[4] == 2.0f));
}

TEST_CASE("Outputs refuses totals beyond the budget, including those that wrap 32 or 64 bits", "[boundary][memory]") {
  attn::Block block;
  attn::Descriptor published;
  attn::Error err;
  {
    attn::Outputs out(block, published);
    out.array("small", 10);
    REQUIRE(out.allocate(&err));
  }
  const float* before = block.data();
  // each of these once went through a 32-bit size_t: 2^32 floats are 0 bytes there
  const std::uint64_t cases[][2] = {{std::uint64_t(1) << 31, std::uint64_t(1) << 31},
                                    {std::uint64_t(65536) * 65536, 0},
                                    {kBudgetFloats, 1},
                                    {~std::uint64_t(0), 8},
                                    {8, ~std::uint64_t(0) - 4}};
  for (const auto& lengths : cases) {
    INFO(lengths[0] << " + " << lengths[1]);
    attn::Outputs out(block, published);
    out.array("a", lengths[0]);
    out.number("scale");
    out.array("b", lengths[1]);
    REQUIRE_FALSE(out.allocate(&err));
    REQUIRE(err.status == attn::Status::too_large);
    REQUIRE(contains(err, "the outputs would take"));
    REQUIRE(block.data() == before);  // refused before anything was reserved or given back
  }
  attn::Outputs too_many(block, published);
  for (std::size_t f = 0; f <= attn::kMaxFields; ++f) too_many.number("x");
  REQUIRE_FALSE(too_many.allocate(&err));
  REQUIRE(err.status == attn::Status::internal_error);
}

TEST_CASE("Block is reused while a request is between keep_from() and capacity(), else replaced", "[boundary]") {
  attn::Block block;
  attn::Error err;
  float* first = block.reserve(1000, "x", &err);
  REQUIRE(first != nullptr);
  REQUIRE(block.capacity() == 1000);
  REQUIRE(block.keep_from() == 0);  // small blocks are kept for any smaller request
  REQUIRE(block.reserve(10, "x", &err) == first);
  REQUIRE(block.reserve(0, "x", &err) == first);
  const std::uint64_t big = std::uint64_t(1) << 22;  // 16 MiB
  REQUIRE(block.reserve(big, "x", &err) != nullptr);
  REQUIRE(block.capacity() == big);
  const std::uint64_t keep = block.keep_from();
  REQUIRE(keep == (big - attn::kShrinkSlackFloats + 3) / 4);  // at most 4× what is asked, plus 1 MiB
  REQUIRE(block.reserve(keep, "x", &err) != nullptr);
  REQUIRE(block.capacity() == big);
  REQUIRE(block.reserve(keep - 1, "x", &err) != nullptr);
  REQUIRE(block.capacity() == keep - 1);            // a far smaller call gets a block of its own size
  REQUIRE(block.reserve(0, "x", &err) != nullptr);  // an empty array still has an address
  REQUIRE(block.data() != nullptr);
  REQUIRE_FALSE(block.reserve(kBudgetFloats + 1, "q", &err));
  REQUIRE(contains(err, "q would take"));
}
