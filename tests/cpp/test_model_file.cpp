// The language model's weights file (cpp/model/model_file.hpp): float16 conversion against the
// binary16 definition written out here, round trips, and every kind of damaged file refused
// with its message.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/model_file.hpp"
#include "core/random.hpp"

namespace {
namespace lm = attn::lm;

// The value of binary16 bits h from the standard's definition (finite h only).
double half_value(unsigned h) {
  const double sign = (h & 0x8000u) ? -1.0 : 1.0;
  const unsigned exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
  return exp == 0 ? sign * std::ldexp(double(mant), -24) : sign * std::ldexp(1.0 + mant / 1024.0, int(exp) - 15);
}

lm::ModelConfig small_config() {
  lm::ModelConfig c;
  c.vocab = 9;
  c.context = 5;
  c.layers = 2;
  c.heads = 2;
  c.d_model = 6;
  c.scaled = false;
  return c;
}
}  // namespace

TEST_CASE("model file: float16 follows binary16, rounding to nearest even", "[model_file]") {
  for (unsigned h = 0; h < 0x10000u; ++h) {
    const unsigned exp = (h >> 10) & 0x1Fu;
    const float f = lm::from_half(static_cast<std::uint16_t>(h));
    if (exp == 31) {
      CHECK(((h & 0x3FFu) ? std::isnan(f) : std::isinf(f)));
      continue;
    }
    REQUIRE(double(f) == half_value(h));  // every finite half is exact in float32
    if (f != 0.0f || !(h & 0x8000u)) REQUIRE(lm::to_half(f) == h);  // and converts back (−0 too)
  }
  // random floats across the range: the nearest half, ties to the even one
  attn::Rng rng(3);
  for (int i = 0; i < 20000; ++i) {
    const double u = rng.uniform_open() * 2 - 1;  // two statements: the order of a call's arguments is the compiler's
    const float x = float(std::ldexp(u, int(rng.next_u64() % 44) - 28));
    const unsigned h = lm::to_half(x);
    CAPTURE(x, h);
    if (std::fabs(x) >= 65520.0f) {
      CHECK((h & 0x7FFFu) == 0x7C00u);
      continue;
    }
    const double v = half_value(h), err = std::fabs(double(x) - v);
    const unsigned mag = h & 0x7FFFu;
    if (mag < 0x7BFFu) CHECK(err <= std::fabs(double(x) - half_value(h + 1)));  // not worse than the next one up
    if (mag > 0) CHECK(err <= std::fabs(double(x) - half_value(h - 1)));        // nor the next one down
  }
  CHECK(lm::to_half(65504.0f) == 0x7BFFu);
  CHECK(lm::to_half(65520.0f) == 0x7C00u);       // halfway to 65536: even is Infinity
  CHECK(lm::to_half(1.0f + 1.0f / 2048) == 0x3C00u);  // halfway between 1 and 1 + 2^-10: even, 1
  CHECK(lm::to_half(std::ldexp(1.0f, -25)) == 0x0000u);  // halfway to the least subnormal: even, 0
  CHECK(std::isnan(lm::from_half(lm::to_half(NAN))));
}

TEST_CASE("model file: weights round-trip and a loaded model computes the same loss", "[model_file]") {
  const lm::ModelConfig c = small_config();
  lm::Model model;
  attn::Error err;
  REQUIRE(model.create(c, 1, &err));
  lm::init_params(c, 5, model.params());
  std::vector<unsigned char> f32, f16;
  REQUIRE(lm::write_weights(c, model.params(), lm::Encoding::float32, &f32, &err));
  REQUIRE(lm::write_weights(c, model.params(), lm::Encoding::float16, &f16, &err));
  CHECK(f32.size() == lm::kWeightsHeaderBytes + 4 * model.size() + 8);
  CHECK(f16.size() == lm::kWeightsHeaderBytes + 2 * model.size() + 8);
  lm::ModelConfig read;
  lm::Encoding enc;
  REQUIRE(lm::read_weights_header(f32.data(), f32.size(), &read, &enc, &err));
  CHECK(read.vocab == 9);
  CHECK(read.layers == 2);
  CHECK_FALSE(read.scaled);
  CHECK(enc == lm::Encoding::float32);
  std::vector<float> back(model.size()), half(model.size());
  REQUIRE(lm::read_weights(f32.data(), f32.size(), back.data(), back.size(), &err));
  CHECK(std::memcmp(back.data(), model.params(), 4 * model.size()) == 0);
  REQUIRE(lm::read_weights(f16.data(), f16.size(), half.data(), half.size(), &err));
  for (std::size_t i = 0; i < half.size(); ++i) {
    // binary16 keeps 11 significant bits: within 2^-11 relative of a normal value, 2^-25 absolute below
    REQUIRE(std::fabs(half[i] - model.params()[i]) <= std::fmax(std::fabs(model.params()[i]) * 0x1p-11f, 0x1p-25f));
  }
  // int8 blocks: each value within half a step d = max |x| / 127 of its block of 128 (the
  // float16 rounding of d moves it by ≤ 2^-11 of itself, and the clamp at ±127 by less than d/2)
  std::vector<unsigned char> q8;
  REQUIRE(lm::write_weights(c, model.params(), lm::Encoding::int8, &q8, &err));
  CHECK(q8.size() == lm::kWeightsHeaderBytes + model.size() + 2 * ((model.size() + 127) / 128) + 8);
  std::vector<float> dequant(model.size());
  REQUIRE(lm::read_weights(q8.data(), q8.size(), dequant.data(), dequant.size(), &err));
  for (std::size_t b0 = 0; b0 < model.size(); b0 += 128) {
    const std::size_t n = std::min<std::size_t>(128, model.size() - b0);
    double amax = 0;
    for (std::size_t i = 0; i < n; ++i) amax = std::max(amax, std::fabs(double(model.params()[b0 + i])));
    const double half_step = amax / 127 * (1 + 0x1p-10) / 2;
    for (std::size_t i = 0; i < n; ++i) REQUIRE(std::fabs(dequant[b0 + i] - model.params()[b0 + i]) <= half_step);
  }
  lm::Model loaded;
  REQUIRE(loaded.create(read, 1, &err));
  std::copy(back.begin(), back.end(), loaded.params());
  const std::int32_t x[5] = {1, 2, 3, 4, 5}, y[5] = {2, 3, 4, 5, 6};
  float a = 0, b = 0;
  REQUIRE(model.forward(x, y, 1, 5, &a, &err));
  REQUIRE(loaded.forward(x, y, 1, 5, &b, &err));
  CHECK(a == b);
}

TEST_CASE("model file: a damaged, truncated or foreign file is refused with its message", "[model_file]") {
  const lm::ModelConfig c = small_config();
  std::vector<float> params(lm::param_count(c), 0.5f);
  std::vector<unsigned char> file;
  attn::Error err;
  REQUIRE(lm::write_weights(c, params.data(), lm::Encoding::float16, &file, &err));
  lm::ModelConfig read;
  lm::Encoding enc;
  const auto refused = [&](std::vector<unsigned char> bytes, const char* words) {
    attn::Error e;
    CHECK_FALSE(lm::read_weights_header(bytes.data(), bytes.size(), &read, &enc, &e));
    CAPTURE(e.message, words);
    CHECK(std::string(e.message).find(words) != std::string::npos);
  };
  std::vector<unsigned char> bad = file;
  bad[lm::kWeightsHeaderBytes + 7] ^= 1;  // one bit of one weight
  refused(bad, "checksum does not match");
  refused(std::vector<unsigned char>(file.begin(), file.end() - 10), "checksum does not match");
  refused(std::vector<unsigned char>(file.begin(), file.begin() + 20), "too few for its header");
  bad = file;
  bad[8] = 2;  // version 2
  refused(bad, "format version 2");
  bad = file;
  bad[0] = 'X';
  refused(bad, "not a weights file");
  // fields the checksum vouches for (sealed again after the edit) are still checked
  const auto seal = [](std::vector<unsigned char>& bytes) {
    const std::uint64_t sum = lm::fnv1a64(bytes.data(), bytes.size() - 8);
    for (int i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<unsigned char>(sum >> (8 * i));
  };
  bad = file;
  bad[28] = 4;  // heads 4: d_model 6 is no multiple of it
  seal(bad);
  refused(bad, "multiple of heads");
  bad = file;
  bad.insert(bad.end() - 8, {0, 0});  // two bytes too many, sealed
  seal(bad);
  refused(bad, "truncated or padded");
  CHECK_FALSE(lm::read_weights(nullptr, 0, params.data(), params.size(), &err));
  std::vector<float> wrong(params.size() - 1);
  CHECK_FALSE(lm::read_weights(file.data(), file.size(), wrong.data(), wrong.size(), &err));
}
