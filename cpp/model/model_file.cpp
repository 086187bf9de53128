// The weights file of model_file.hpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "model/model_file.hpp"

namespace attn {
namespace lm {

namespace {

constexpr unsigned char kMagic[8] = {'A', 'T', 'T', 'N', 'L', 'M', 0, 0};

void put_u32(unsigned char* p, std::uint32_t x) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(x >> (8 * i));
}
void put_u64(unsigned char* p, std::uint64_t x) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(x >> (8 * i));
}
std::uint32_t get_u32(const unsigned char* p) {
  std::uint32_t x = 0;
  for (int i = 0; i < 4; ++i) x |= static_cast<std::uint32_t>(p[i]) << (8 * i);
  return x;
}
std::uint64_t get_u64(const unsigned char* p) {
  std::uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return x;
}
std::uint32_t float_bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}
float bits_float(std::uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

}  // namespace

std::uint64_t encoded_bytes(Encoding e, std::uint64_t count) noexcept {
  if (e == Encoding::int8) return count + 2 * ((count + kQuantBlock - 1) / kQuantBlock);
  return count * (e == Encoding::float16 ? 2 : 4);
}

std::uint16_t to_half(float x) noexcept {
  const std::uint32_t b = float_bits(x);
  const std::uint16_t sign = static_cast<std::uint16_t>((b >> 16) & 0x8000u);
  const std::uint32_t abs = b & 0x7FFFFFFFu;
  if (abs > 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7E00u);  // NaN
  if (abs >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // ≥ 65520 rounds to Infinity
  if (abs < 0x38800000u) {  // below 2^-14: a subnormal half, m · 2^-24, m rounded to nearest even
    const float scaled = bits_float(abs) * 16777216.0f;  // · 2^24, exact
    const float m = std::nearbyint(scaled);               // the default mode: ties to even
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(m));
  }
  // normal: rebias the exponent (127 → 15) and round the 23-bit mantissa to 10, ties to even;
  // a carry out of the mantissa bumps the exponent, which is the right answer
  const std::uint32_t rebiased = abs - (static_cast<std::uint32_t>(127 - 15) << 23);
  const std::uint32_t round = 0xFFFu + ((rebiased >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | ((rebiased + round) >> 13));
}

float from_half(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
  if (exp == 0) {  // zero or subnormal: mant · 2^-24, exact in float32
    const float v = static_cast<float>(mant) * (1.0f / 16777216.0f);
    return sign ? -v : v;
  }
  if (exp == 31) return bits_float(sign | 0x7F800000u | (mant << 13));  // Infinity or NaN
  return bits_float(sign | ((exp + 127 - 15) << 23) | (mant << 13));
}

std::uint64_t fnv1a64(const unsigned char* bytes, std::size_t count) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < count; ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
  return h;
}

bool write_weights(const ModelConfig& c, const float* params, Encoding encoding, std::vector<unsigned char>* out,
                   Error* err) noexcept {
  if (!validate_config(c, err)) return false;
  const std::uint64_t count = param_count(c);
  const std::size_t start = out->size();
  try {
    out->resize(start + kWeightsHeaderBytes + encoded_bytes(encoding, count) + 8);
  } catch (const std::bad_alloc&) {
    return fail(err, Status::too_large, "out of memory writing the weights (%llu parameters)",
                static_cast<unsigned long long>(count));
  }
  unsigned char* p = out->data() + start;
  std::memcpy(p, kMagic, 8);
  put_u32(p + 8, kWeightsVersion);
  put_u32(p + 12, static_cast<std::uint32_t>(encoding));
  const std::int32_t fields[6] = {c.vocab, c.context, c.layers, c.heads, c.d_model, c.scaled ? 1 : 0};
  for (int i = 0; i < 6; ++i) put_u32(p + 16 + 4 * i, static_cast<std::uint32_t>(fields[i]));
  put_u64(p + 40, count);
  unsigned char* data = p + kWeightsHeaderBytes;
  if (encoding == Encoding::int8) {
    for (std::uint64_t b0 = 0; b0 < count; b0 += kQuantBlock) {
      const std::uint64_t n = std::min<std::uint64_t>(kQuantBlock, count - b0);
      float amax = 0.0f;
      for (std::uint64_t i = 0; i < n; ++i) amax = std::fmax(amax, std::fabs(params[b0 + i]));
      // the scale as stored (float16), so that q·d is what a reader gets back
      const std::uint16_t d_half = to_half(amax / 127.0f);
      const float d = from_half(d_half), inv = d > 0.0f ? 1.0f / d : 0.0f;
      *data++ = static_cast<unsigned char>(d_half), *data++ = static_cast<unsigned char>(d_half >> 8);
      for (std::uint64_t i = 0; i < n; ++i) {
        const float q = std::fmax(-127.0f, std::fmin(127.0f, std::nearbyint(params[b0 + i] * inv)));
        *data++ = static_cast<unsigned char>(static_cast<std::int8_t>(q));
      }
    }
  }
  for (std::uint64_t i = 0; i < count && encoding != Encoding::int8; ++i) {
    if (encoding == Encoding::float16) {
      const std::uint16_t h = to_half(params[i]);
      data[2 * i] = static_cast<unsigned char>(h), data[2 * i + 1] = static_cast<unsigned char>(h >> 8);
    } else {
      put_u32(data + 4 * i, float_bits(params[i]));
    }
  }
  const std::size_t body = kWeightsHeaderBytes + static_cast<std::size_t>(encoded_bytes(encoding, count));
  put_u64(p + body, fnv1a64(p, body));
  return true;
}

bool read_weights_header(const unsigned char* bytes, std::size_t count, ModelConfig* config, Encoding* encoding,
                         Error* err) noexcept {
  if (!bytes) return missing("the weights", err);
  if (count < kWeightsHeaderBytes + 8)
    return fail(err, Status::invalid_argument, "the weights file holds %zu bytes, too few for its header", count);
  if (std::memcmp(bytes, kMagic, 8) != 0)
    return fail(err, Status::invalid_argument, "this is not a weights file of the model (its first bytes differ)");
  const std::uint32_t version = get_u32(bytes + 8);
  if (version != kWeightsVersion)
    return fail(err, Status::invalid_argument, "the weights file has format version %u, this core reads version %u",
                version, kWeightsVersion);
  // the checksum before any field is believed: a damaged byte anywhere says so, whatever it hit
  // (a shortened file fails here too: its last 8 bytes are no longer the checksum)
  if (fnv1a64(bytes, count - 8) != get_u64(bytes + count - 8))
    return fail(err, Status::invalid_argument, "the weights file is damaged: its checksum does not match");
  const std::uint32_t enc = get_u32(bytes + 12);
  if (enc > 2) return fail(err, Status::invalid_argument, "the weights file's encoding %u is unknown (0, 1 or 2)", enc);
  ModelConfig c;
  c.vocab = static_cast<std::int32_t>(get_u32(bytes + 16));
  c.context = static_cast<std::int32_t>(get_u32(bytes + 20));
  c.layers = static_cast<std::int32_t>(get_u32(bytes + 24));
  c.heads = static_cast<std::int32_t>(get_u32(bytes + 28));
  c.d_model = static_cast<std::int32_t>(get_u32(bytes + 32));
  const std::uint32_t scaled = get_u32(bytes + 36);
  if (scaled > 1) return fail(err, Status::invalid_argument, "the weights file's scaled flag is %u (0 or 1)", scaled);
  c.scaled = scaled == 1;
  if (!validate_config(c, err)) return false;
  const std::uint64_t params = get_u64(bytes + 40);
  if (params != param_count(c))
    return fail(err, Status::invalid_argument, "the weights file holds %llu parameters, its settings need %llu",
                static_cast<unsigned long long>(params), static_cast<unsigned long long>(param_count(c)));
  const Encoding e = static_cast<Encoding>(enc);
  const std::uint64_t expected = kWeightsHeaderBytes + encoded_bytes(e, params) + 8;
  if (count != expected)
    return fail(err, Status::invalid_argument, "the weights file holds %zu bytes, expected %llu (truncated or padded)",
                count, static_cast<unsigned long long>(expected));
  *config = c;
  *encoding = e;
  return true;
}

bool read_weights(const unsigned char* bytes, std::size_t count, float* params, std::size_t params_count,
                  Error* err) noexcept {
  ModelConfig c;
  Encoding e;
  if (!read_weights_header(bytes, count, &c, &e, err)) return false;
  if (params_count != param_count(c))
    return check_count("params", params_count, param_count(c), "the file's parameter count", err);
  const unsigned char* data = bytes + kWeightsHeaderBytes;
  if (e == Encoding::int8) {
    for (std::size_t b0 = 0; b0 < params_count; b0 += kQuantBlock) {
      const std::size_t n = std::min(kQuantBlock, params_count - b0);
      const float d = from_half(static_cast<std::uint16_t>(data[0] | (data[1] << 8)));
      data += 2;
      for (std::size_t i = 0; i < n; ++i) params[b0 + i] = static_cast<float>(static_cast<std::int8_t>(*data++)) * d;
    }
  }
  for (std::size_t i = 0; i < params_count && e != Encoding::int8; ++i)
    params[i] = e == Encoding::float16 ? from_half(static_cast<std::uint16_t>(data[2 * i] | (data[2 * i + 1] << 8)))
                                       : bits_float(get_u32(data + 4 * i));
  return check_finite("the weights", params, 1, params_count, err);
}

}  // namespace lm
}  // namespace attn
