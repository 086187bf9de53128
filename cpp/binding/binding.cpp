// The binding's shared part (binding.hpp): the engine's plumbing (input slots, the descriptor,
// the last error), the statuses, and what the engine reads of the boundary itself — the layout
// of the descriptor and its field kinds, so that no word offset or kind is written in JavaScript.
#include "binding/binding.hpp"

#include <emscripten/bind.h>

#include <string>

#include "core/simd.hpp"

namespace binding {

attn::Error g_error;
attn::Block g_output_block;
attn::Descriptor g_descriptor;

namespace {

// The input arrays of a call, by slot: the engine copies input i of a call into the block of slot
// i (reserve_input) and writes its length to g_input_lengths[i] (negative: not given), so that an
// adapter takes no pointer or length arguments (each Embind argument costs ~12 ns, a twentieth
// of a whole call at n = 16).
constexpr int kInputSlots = 4;  // the most input arrays of one call (attention: q, k, v, mask)
attn::Block g_inputs[kInputSlots];
double g_input_lengths[kInputSlots];

// The block of input slot `slot`, for `length` floats (the engine calls this only when its cached
// block is too small or far too large). Returns its address, 0 on failure (lastError says why).
uintptr_t reserve_input(int slot, double length, const std::string& name) {
  if (slot < 0 || slot >= kInputSlots || !(length >= 0)) {
    attn::fail(&g_error, Status::internal_error, "internal error: input slot %d, length %g", slot, length);
    return 0;
  }
  return reinterpret_cast<uintptr_t>(
      g_inputs[slot].reserve(static_cast<std::uint64_t>(length), name.c_str(), &g_error));
}
double input_capacity(int slot) { return static_cast<double>(g_inputs[slot].capacity()); }
double input_keep_from(int slot) { return static_cast<double>(g_inputs[slot].keep_from()); }
uintptr_t descriptor() { return reinterpret_cast<uintptr_t>(&g_descriptor); }
uintptr_t input_lengths() { return reinterpret_cast<uintptr_t>(g_input_lengths); }
std::string last_error() { return g_error.message; }
std::string simd_arch() { return attn::simd_arch_name(); }

}  // namespace

attn::Input input(int slot) {
  const double length = g_input_lengths[slot];
  if (length < 0) return {};
  return {g_inputs[slot].data(), static_cast<std::uint64_t>(length)};
}

}  // namespace binding

EMSCRIPTEN_BINDINGS(attention_lab_boundary) {
  using attn::FieldKind;
  using binding::Status;
  using emscripten::constant;
  using emscripten::function;
  using Words = attn::DescriptorWords;
  // the statuses every adapter returns, by the names the engine gives its errors as error.code
  emscripten::enum_<Status>("Status")
      .value("ATTN_OK", Status::ok)
      .value("ATTN_INVALID_SHAPE", Status::invalid_shape)
      .value("ATTN_INVALID_ARGUMENT", Status::invalid_argument)
      .value("ATTN_NON_FINITE_INPUT", Status::non_finite_input)
      .value("ATTN_OVERFLOW", Status::overflow)
      .value("ATTN_TOO_LARGE", Status::too_large)
      .value("ATTN_INTERNAL", Status::internal_error);
  // the descriptor as the engine reads it (boundary.hpp): word offsets and field kinds
  constant("descriptorBlockWord", Words::block);
  constant("descriptorFloatsWord", Words::floats);
  constant("descriptorCountWord", Words::count);
  constant("descriptorFieldsWord", Words::fields);
  constant("descriptorWordsPerField", Words::per_field);
  constant("fieldNameWord", Words::name);
  constant("fieldOffsetWord", Words::offset);
  constant("fieldLengthWord", Words::length);
  constant("fieldKindWord", Words::kind);
  constant("fieldArray", static_cast<std::uint32_t>(FieldKind::array));
  constant("fieldNumber", static_cast<std::uint32_t>(FieldKind::number));
  constant("fieldFlag", static_cast<std::uint32_t>(FieldKind::flag));
  constant("fieldAbsent", static_cast<std::uint32_t>(FieldKind::absent));
  constant("fieldFloat64", static_cast<std::uint32_t>(FieldKind::float64));
  // the memory budget of one call (check.hpp) and the input slots, for the engine
  constant("memoryBudgetBytes", static_cast<double>(attn::kMemoryBudgetBytes));
  constant("inputSlots", binding::kInputSlots);

  function("reserveInput", &binding::reserve_input);
  function("inputCapacity", &binding::input_capacity);
  function("inputKeepFrom", &binding::input_keep_from);
  function("descriptor", &binding::descriptor);
  function("inputLengths", &binding::input_lengths);
  function("lastError", &binding::last_error);
  function("simdArch", &binding::simd_arch);
}
