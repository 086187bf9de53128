// The language model's weights file (model.hpp): what the training driver writes and what the
// engine will load, with a checksum so that a damaged, truncated or foreign file is refused
// with a message instead of giving wrong numbers.
//
// LAYOUT, little-endian throughout:
//   offset 0   8 bytes  magic "ATTNLM\0\0"
//          8   u32      format version (kWeightsVersion)
//         12   u32      encoding: 0 float32, 1 float16 (IEEE binary16, round to nearest even),
//                       2 int8 in blocks (below)
//         16   i32 × 6  vocab, context, layers, heads, d_model, scaled (0 or 1)
//         40   u64      parameter count (param_count of that config)
//         48   …        the parameters in the layout of model.hpp: 4 or 2 bytes each, or in int8
//                       blocks of kQuantBlock parameters (the last one shorter), each a float16
//                       scale d = max |x| / 127 of the block, then its kQuantBlock int8 q =
//                       round(x / d) (ggml's Q8_0 with longer blocks): x ≈ q·d, |error| ≤ d/2
//   end − 8    u64      FNV-1a 64 of every byte before it
// The vocabulary travels beside it (one token per line; its line count must be vocab).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/check.hpp"
#include "model/model.hpp"

namespace attn {
namespace lm {

constexpr std::uint32_t kWeightsVersion = 1;
constexpr std::size_t kWeightsHeaderBytes = 48;

enum class Encoding : std::uint32_t { float32 = 0, float16 = 1, int8 = 2 };
constexpr std::size_t kQuantBlock = 128;
// Bytes of `count` parameters in an encoding (without header and checksum).
std::uint64_t encoded_bytes(Encoding encoding, std::uint64_t count) noexcept;

// IEEE binary16 ↔ float32: round to nearest, ties to even; beyond ±65504 → ±Infinity;
// subnormals kept. NaN stays NaN.
std::uint16_t to_half(float x) noexcept;
float from_half(std::uint16_t h) noexcept;

// FNV-1a 64 of `count` bytes.
std::uint64_t fnv1a64(const unsigned char* bytes, std::size_t count) noexcept;

// Appends the file of `params` (param_count(config) floats) to *out; false (too_large) only when
// memory runs out.
bool write_weights(const ModelConfig& config, const float* params, Encoding encoding, std::vector<unsigned char>* out,
                   Error* err) noexcept;

// Reads a file's header: checks its length, magic, version, encoding, config and parameter count,
// and the checksum over the whole file. On success fills *config and *encoding.
bool read_weights_header(const unsigned char* bytes, std::size_t count, ModelConfig* config, Encoding* encoding,
                         Error* err) noexcept;
// Reads the whole file into `params` (param_count(*config) floats, the caller's, sized after
// read_weights_header).
bool read_weights(const unsigned char* bytes, std::size_t count, float* params, std::size_t params_count,
                  Error* err) noexcept;

}  // namespace lm
}  // namespace attn
