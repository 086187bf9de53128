// How results cross into JavaScript, described once. An adapter of the binding (binding*.cpp)
// declares each output of a call by name and length, or by name for a scalar; once the call's
// checks have passed, allocate() lays them out in one block of the heap that C++ owns and reuses,
// and publishes a descriptor. The engine (web/core/engine.js) reads the descriptor to build the
// result object generically: arrays as views of one JS-owned copy of the block, scalars as
// numbers, flags as booleans, absent arrays as null; a dotted name ("mean.entropy") nests. A
// scalar that may leave float32's exact range (a byte count beyond 2^24) is a float64 field.
//
//   Outputs out(g_output_block, g_descriptor);
//   const auto dots = out.array("dots", n * m);      // lengths in 64 bits
//   const auto scale = out.number("scale");
//   if (!out.allocate(&err)) return ...;             // checked against the budget, then reserved
//   attn::AttentionResult r{out[dots], ...};
//
// Plain C++ (no Emscripten): the native and both wasm Catch2 suites test it, the latter with the
// 32-bit size_t whose wrap-around this guards against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/check.hpp"

namespace attn {

// A block of floats in the heap, reused across calls: it grows when a call needs more, and is
// given back for a smaller one when a call needs far less (so one huge call does not keep its
// memory from the next ones).
class Block {
 public:
  Block() = default;
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;
  ~Block();

  // At least `floats` floats (0 too: a valid pointer all the same). Fails with too_large, naming
  // `what`, when the size is beyond the budget or the heap cannot give it; the block is then empty.
  float* reserve(std::uint64_t floats, const char* what, Error* err) noexcept;

  float* data() const { return data_; }
  std::uint64_t capacity() const { return capacity_; }
  // The smallest request that keeps this block: below it, reserve() takes a smaller one.
  std::uint64_t keep_from() const noexcept;

 private:
  float* data_ = nullptr;
  std::uint64_t capacity_ = 0;
};

// Kept below kShrinkFactor × the request + kShrinkSlack: a block is not reallocated for requests
// that differ by small amounts, nor kept when it is more than 4× what is needed.
constexpr std::uint64_t kShrinkFactor = 4;
constexpr std::uint64_t kShrinkSlackFloats = std::uint64_t(1) << 18;  // 1 MiB

// float64: a scalar as one double in two floats, at an even offset (the block comes from malloc,
// aligned to at least 8 bytes), for counts that float32 would round (trainer bytes up to 128 MiB).
enum class FieldKind : std::uint32_t { array = 0, number = 1, flag = 2, absent = 3, float64 = 4 };
constexpr std::size_t kMaxFields = 24;

// What allocate() publishes. The engine reads it as 32-bit words (wasm32 pointers are 32-bit):
// [block, floats, count, then per field: name, offset, length, kind]. Offsets and lengths are in
// floats from the block's start; every array starts at a multiple of 4 floats (16 bytes).
struct Descriptor {
  const float* block = nullptr;
  std::uint32_t floats = 0;  // the result spans block[0, floats)
  std::uint32_t count = 0;
  struct Field {
    const char* name;  // a string literal of the adapter: its address is stable across calls
    std::uint32_t offset, length;
    FieldKind kind;
  } fields[kMaxFields];
};

// The layout in 32-bit words, as the binding publishes it to the engine (Embind constants): the
// engine reads no word at an offset of its own.
struct DescriptorWords {
  static constexpr std::uint32_t block = offsetof(Descriptor, block) / 4, floats = offsetof(Descriptor, floats) / 4,
                                 count = offsetof(Descriptor, count) / 4, fields = offsetof(Descriptor, fields) / 4,
                                 per_field = sizeof(Descriptor::Field) / 4,
                                 name = offsetof(Descriptor::Field, name) / 4,
                                 offset = offsetof(Descriptor::Field, offset) / 4,
                                 length = offsetof(Descriptor::Field, length) / 4,
                                 kind = offsetof(Descriptor::Field, kind) / 4;
};

#if defined(__EMSCRIPTEN__)  // wasm32: every member one 32-bit word
static_assert(sizeof(Descriptor::Field) == 16 && offsetof(Descriptor, fields) == 12, "4 words per field, after 3");
#endif

class Outputs {
 public:
  using Field = std::size_t;

  Outputs(Block& block, Descriptor& published) : block_(block), published_(published) {}

  Field array(const char* name, std::uint64_t length) noexcept;  // `length` floats
  Field absent(const char* name) noexcept;                       // null: e.g. the output of attention without v
  Field number(const char* name) noexcept;
  Field flag(const char* name) noexcept;  // a boolean
  Field number64(const char* name) noexcept;  // a scalar kept in float64 (FieldKind::float64)

  // Checks the total against the budget (check_size), reserves the block and publishes the
  // descriptor. Call it after the call's checks: a call that fails them reserves nothing.
  bool allocate(Error* err) noexcept;

  // After allocate(): where an array goes, or the float that holds a scalar.
  float* operator[](Field field) const { return block_.data() + offsets_[field]; }
  void set(Field field, float value) const { *(*this)[field] = value; }
  void set(Field field, bool value) const { *(*this)[field] = value ? 1.0f : 0.0f; }
  void set_float64(Field field, double value) const { std::memcpy((*this)[field], &value, sizeof value); }

 private:
  Field add(const char* name, std::uint64_t length, FieldKind kind) noexcept;

  Block& block_;
  Descriptor& published_;
  std::size_t count_ = 0;
  bool too_many_ = false;
  // each written by add() before it is read: left uninitialised, a call need not clear them
  const char* names_[kMaxFields];
  FieldKind kinds_[kMaxFields];
  std::uint64_t offsets_[kMaxFields], lengths_[kMaxFields];
  std::uint64_t total_ = 0;
};

}  // namespace attn
