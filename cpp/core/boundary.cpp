#include "core/boundary.hpp"

#include <cstdlib>

namespace attn {

Block::~Block() { std::free(data_); }

std::uint64_t Block::keep_from() const noexcept {
  return capacity_ > kShrinkSlackFloats ? (capacity_ - kShrinkSlackFloats + kShrinkFactor - 1) / kShrinkFactor : 0;
}

float* Block::reserve(std::uint64_t floats, const char* what, Error* err) noexcept {
  if (data_ && floats <= capacity_ && floats >= keep_from()) return data_;
  if (!check_size(what, floats, err)) return nullptr;
  std::free(data_);  // before the new one: the heap may reuse the space
  data_ = nullptr;
  capacity_ = 0;
  // at least one float, so an empty array still has an address that is not null (null = absent)
  const std::size_t bytes = static_cast<std::size_t>(floats > 0 ? floats : 1) * kBytesPerFloat;
  data_ = static_cast<float*>(std::malloc(bytes));
  if (!data_) {
    fail(err, Status::too_large, "%s would take %zu bytes, more than the heap can grow to hold", what, bytes);
    return nullptr;
  }
  capacity_ = floats;
  return data_;
}

Outputs::Field Outputs::add(const char* name, std::uint64_t length, FieldKind kind) noexcept {
  if (count_ == kMaxFields) {  // a bug of an adapter, reported by allocate()
    too_many_ = true;
    return 0;
  }
  // every sum saturates at kFull, which no size check passes: a length near 2^64 must fail the
  // check, not wrap around to something small
  constexpr std::uint64_t kAlign = 4;  // floats: 16 bytes, one SIMD vector
  constexpr std::uint64_t kFull = ~std::uint64_t(0);
  // an array starts on a 16-byte boundary, a float64 on an 8-byte one
  const std::uint64_t align = kind == FieldKind::array ? kAlign : kind == FieldKind::float64 ? 2 : 1;
  const std::uint64_t offset = total_ > kFull - (align - 1) ? kFull : (total_ + align - 1) / align * align;
  const std::uint64_t span = kind == FieldKind::array     ? length
                             : kind == FieldKind::absent  ? 0
                             : kind == FieldKind::float64 ? 2
                                                          : 1;
  total_ = span > kFull - offset ? kFull : offset + span;
  names_[count_] = name;
  kinds_[count_] = kind;
  offsets_[count_] = offset;
  lengths_[count_] = kind == FieldKind::array ? length : 0;
  return count_++;
}

Outputs::Field Outputs::array(const char* name, std::uint64_t length) noexcept {
  return add(name, length, FieldKind::array);
}
Outputs::Field Outputs::absent(const char* name) noexcept { return add(name, 0, FieldKind::absent); }
Outputs::Field Outputs::number(const char* name) noexcept { return add(name, 1, FieldKind::number); }
Outputs::Field Outputs::flag(const char* name) noexcept { return add(name, 1, FieldKind::flag); }
Outputs::Field Outputs::number64(const char* name) noexcept { return add(name, 2, FieldKind::float64); }

bool Outputs::allocate(Error* err) noexcept {
  if (too_many_) return fail(err, Status::internal_error, "more than %zu outputs declared", kMaxFields);
  if (!block_.reserve(total_, "the outputs", err)) return false;
  // every offset and length fits 32 bits now: the total passed check_size (below 2^28 floats)
  published_.block = block_.data();
  published_.floats = static_cast<std::uint32_t>(total_);
  published_.count = static_cast<std::uint32_t>(count_);
  for (std::size_t f = 0; f < count_; ++f)
    published_.fields[f] = {names_[f], static_cast<std::uint32_t>(offsets_[f]), static_cast<std::uint32_t>(lengths_[f]),
                            kinds_[f]};
  return true;
}

}  // namespace attn
