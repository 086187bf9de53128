// The one module of checks every entry point of the core validates through: statuses and
// messages, dimensions, array lengths against shapes, values (finite, or -Infinity where a key
// may be hidden, or probabilities), scalars, and sizes against the memory budget.
//
// Every failed check fills an Error with a status and a message that names the argument, the
// value received and what was expected ("q has length 5, expected n·d = 6", "k[1][3] is NaN: k
// must hold finite numbers"), and returns false, so checks chain with &&. Nothing here throws or
// allocates; the same source builds natively and in both WebAssembly builds (32-bit size_t).
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn {

enum class Status : int32_t {
  ok = 0,
  invalid_shape = 1,     // a dimension, count or index out of range, a length that does not match the shape
  invalid_argument = 2,  // a scalar out of range (temperature, scale, sigma...), a missing array
  non_finite_input = 3,  // NaN or ±Infinity where a finite number is required
  overflow = 4,          // valid input whose result leaves the float32 range
  too_large = 5,         // a reservation beyond the memory budget or what the heap can give
  internal_error = 6,    // an exception the binding caught (a bug)
};

// What went wrong, in words that name the argument and what was expected (NUL-terminated).
struct Error {
  Status status = Status::ok;
  char message[240] = {0};
};

// Records a printf-style message in `err` (when given) and returns false, so a check reads
// `if (bad) return fail(err, Status::..., "...", ...);`.
bool fail(Error* err, Status status, const char* fmt, ...) noexcept
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

// ---- memory -------------------------------------------------------------------------------
// The most one reservation of a call may take: each input block, the block of a call's outputs,
// each scratch array. A wasm32 heap holds at most 2 GiB (Emscripten's default maximum), so 1 GiB
// leaves room for a call's inputs beside its outputs; it also keeps every float index below 2^28,
// far from the 32-bit size_t of WebAssembly.
constexpr std::uint64_t kMemoryBudgetBytes = std::uint64_t(1) << 30;
constexpr std::uint64_t kBytesPerFloat = sizeof(float);

// `floats` float32 numbers (a count computed in 64 bits by the caller) fit the budget and this
// platform's size_t; else too_large, naming `what`, the bytes asked for and the limit.
bool size_failed(const char* what, std::uint64_t floats, Error* err) noexcept;
inline bool check_size(const char* what, std::uint64_t floats, Error* err) noexcept {
  // the budget is below 4 GiB, so within it a size also fits a 32-bit size_t
  static_assert(kMemoryBudgetBytes <= SIZE_MAX, "a size within the budget must fit size_t");
  return floats <= kMemoryBudgetBytes / kBytesPerFloat || size_failed(what, floats, err);
}

// ---- arrays -------------------------------------------------------------------------------
constexpr std::uint64_t kUnknownLength = ~std::uint64_t(0);

// An input array: where its numbers are and, when it comes from outside the core (the binding),
// how many it holds, which the checks compare with the shape. Core callers that size their
// arrays from the shape pass a bare pointer (length unknown: not compared).
struct Input {
  const float* data = nullptr;
  std::uint64_t length = kUnknownLength;
  Input(const float* values = nullptr) : data(values) {}  // NOLINT: a bare pointer is an Input
  Input(const float* values, std::uint64_t count) : data(values), length(count) {}
  explicit operator bool() const { return data != nullptr; }
};

// The same for a length alone (of an array the core does not read, e.g. one that receives a result).
bool check_count(const char* name, std::uint64_t length, std::uint64_t expected, const char* formula,
                 Error* err) noexcept;
// `x` is given (`name` is required) and, when its length is known, holds `expected` numbers;
// `formula` says how the shape gives that number ("n·d").
bool missing(const char* name, Error* err) noexcept;
inline bool check_length(const char* name, Input x, std::uint64_t expected, const char* formula, Error* err) noexcept {
  if (!x) return missing(name, err);
  return x.length == kUnknownLength || x.length == expected || check_count(name, x.length, expected, formula, err);
}

// A row whose length is its size (softmax scores, p): given, 1 to max numbers; *count = length.
bool check_row_length(const char* name, Input x, int max, int* count, Error* err) noexcept;

// What the values of an array may be.
enum class Values {
  finite,            // no NaN, no ±Infinity
  finite_or_hidden,  // finite or -Infinity (a hidden key: a mask entry, a score)
  probabilities,     // in [0, 1]
};
// Checks `count` values; a failure names the first bad one as name[rows][cols] when cols > 0,
// else as name[index].
bool check_values(const char* name, const float* x, std::size_t count, std::size_t cols, Values rule,
                  Error* err) noexcept;
inline bool check_finite(const char* name, const float* x, std::size_t rows, std::size_t cols, Error* err) noexcept {
  return check_values(name, x, rows * cols, cols, Values::finite, err);
}

// A result (rows×cols) computed from valid input is finite; else overflow, naming its first
// value that is not as name[row][col] and saying `why` it left float32.
bool check_result(const char* name, const float* x, std::size_t rows, std::size_t cols, const char* why,
                  Error* err) noexcept;

// ---- dimensions and scalars ------------------------------------------------------------------
// min ≤ value ≤ max: "name must be an integer from min to max, got value" (invalid_shape).
bool dim_failed(const char* name, int value, int min, int max, Error* err) noexcept;
inline bool check_dim(const char* name, int value, int min, int max, Error* err) noexcept {
  return (value >= min && value <= max) || dim_failed(name, value, min, max, err);
}

// A positive finite float32 whose inverse is finite too (it divides every score).
bool check_temperature(float temperature, Error* err) noexcept;
// 0 < value ≤ max (invalid_argument).
bool check_positive(const char* name, float value, float max, Error* err) noexcept;
// A finite value (invalid_argument).
bool check_finite_scalar(const char* name, float value, Error* err) noexcept;
// 0 ≤ value < 1, e.g. a decay rate (momentum, Adam's β1 and β2) (invalid_argument).
bool check_fraction_below_one(const char* name, float value, Error* err) noexcept;
// 0 (a feature off) or a positive finite number (invalid_argument).
bool check_zero_or_positive(const char* name, float value, Error* err) noexcept;

// A number from JavaScript (a double) as the float32 the core computes with: fails when it is
// finite but beyond float32's range, or non-zero and so small it rounds to 0 (invalid_argument).
// NaN and ±Infinity pass through for the checks of the value itself to name.
bool to_float32(const char* name, double value, float* out, Error* err) noexcept;

// How a message prints a number: "NaN", "Infinity", "-Infinity", else up to 9 significant digits.
// Returns `buffer`, which holds at least 24 characters.
const char* number_text(double value, char* buffer) noexcept;

}  // namespace attn
