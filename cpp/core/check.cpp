#include "core/check.hpp"

#include <cfloat>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "core/attention.hpp"  // all_finite: the SIMD fast path of the common check

namespace attn {

bool fail(Error* err, Status status, const char* fmt, ...) noexcept {
  if (err) {
    err->status = status;
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(err->message, sizeof err->message, fmt, args);
    va_end(args);
  }
  return false;
}

const char* number_text(double value, char* buffer) noexcept {
  if (std::isnan(value)) return std::snprintf(buffer, 24, "NaN"), buffer;
  if (std::isinf(value)) return std::snprintf(buffer, 24, value > 0 ? "Infinity" : "-Infinity"), buffer;
  // the shortest text that reads back as the same double: 0.7f prints as 0.699999988, 0.7 as 0.7
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buffer, 24, "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

namespace {

// A float as the user wrote it: the shortest text that reads back as the same float.
const char* float_text(float value, char* buffer) noexcept {
  if (!std::isfinite(value)) return number_text(value, buffer);
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(buffer, 24, "%.*g", digits, static_cast<double>(value));
    if (std::strtof(buffer, nullptr) == value) break;
  }
  return buffer;
}

bool allowed(float x, Values rule) noexcept {
  switch (rule) {
    case Values::finite: return std::isfinite(x);
    case Values::finite_or_hidden: return std::isfinite(x) || x == -INFINITY;
    case Values::probabilities: return x >= 0.0f && x <= 1.0f;
  }
  return false;
}

const char* expectation(Values rule) noexcept {
  switch (rule) {
    case Values::finite: return "must hold finite numbers";
    case Values::finite_or_hidden: return "must hold finite numbers or -Infinity (to hide a key)";
    case Values::probabilities: return "must hold probabilities, numbers from 0 to 1";
  }
  return "";
}

}  // namespace

bool size_failed(const char* what, std::uint64_t floats, Error* err) noexcept {
  // the bytes in double: floats · 4 itself may not fit 64 bits
  return fail(err, Status::too_large,
              "%s would take %.0f bytes (%llu floats), more than the memory budget of %llu bytes (1 GiB) per block",
              what, static_cast<double>(floats) * kBytesPerFloat, static_cast<unsigned long long>(floats),
              static_cast<unsigned long long>(kMemoryBudgetBytes));
}

bool missing(const char* name, Error* err) noexcept {
  return fail(err, Status::invalid_argument, "%s is required", name);
}

bool check_count(const char* name, std::uint64_t length, std::uint64_t expected, const char* formula,
                 Error* err) noexcept {
  if (length == expected) return true;
  return fail(err, Status::invalid_shape, "%s has length %llu, expected %s = %llu", name,
              static_cast<unsigned long long>(length), formula, static_cast<unsigned long long>(expected));
}

bool check_row_length(const char* name, Input x, int max, int* count, Error* err) noexcept {
  if (!x) return missing(name, err);
  if (x.length == 0)
    return fail(err, Status::invalid_shape, "%s must hold at least one number, got an empty array", name);
  if (x.length > static_cast<std::uint64_t>(max))
    return fail(err, Status::invalid_shape, "%s must hold at most %d numbers, got %llu", name, max,
                static_cast<unsigned long long>(x.length));
  *count = static_cast<int>(x.length);
  return true;
}

bool check_values(const char* name, const float* x, std::size_t count, std::size_t cols, Values rule,
                  Error* err) noexcept {
  if (!x) return missing(name, err);
  if (rule == Values::finite && all_finite(x, count)) return true;  // the common case, vectorised
  for (std::size_t idx = 0; idx < count; ++idx) {
    if (allowed(x[idx], rule)) continue;
    const Status status = std::isfinite(x[idx]) ? Status::invalid_argument : Status::non_finite_input;
    char value[24];
    if (cols > 0)
      return fail(err, status, "%s[%zu][%zu] is %s: %s %s", name, idx / cols, idx % cols, float_text(x[idx], value),
                  name, expectation(rule));
    return fail(err, status, "%s[%zu] is %s: %s %s", name, idx, float_text(x[idx], value), name, expectation(rule));
  }
  return true;
}

bool check_result(const char* name, const float* x, std::size_t rows, std::size_t cols, const char* why,
                  Error* err) noexcept {
  const std::size_t count = rows * cols;
  if (all_finite(x, count)) return true;
  std::size_t idx = 0;
  while (idx < count && std::isfinite(x[idx])) ++idx;
  return fail(err, Status::overflow, "%s[%zu][%zu] overflows float32: %s", name, idx / cols, idx % cols, why);
}

bool dim_failed(const char* name, int value, int min, int max, Error* err) noexcept {
  return fail(err, Status::invalid_shape, "%s must be an integer from %d to %d, got %d", name, min, max, value);
}

bool check_temperature(float temperature, Error* err) noexcept {
  if (!(temperature > 0.0f) || !std::isfinite(temperature) || !std::isfinite(1.0f / temperature)) {
    char value[24];
    return fail(err, Status::invalid_argument,
                "temperature must be a positive finite number (at least about 3e-39), got %s",
                float_text(temperature, value));
  }
  return true;
}

bool check_positive(const char* name, float value, float max, Error* err) noexcept {
  if (value > 0.0f && value <= max) return true;
  char text[24], limit[24];
  if (max < FLT_MAX)
    return fail(err, Status::invalid_argument, "%s must be a positive number at most %s, got %s", name,
                float_text(max, limit), float_text(value, text));
  return fail(err, Status::invalid_argument, "%s must be a positive finite number, got %s", name,
              float_text(value, text));
}

bool check_finite_scalar(const char* name, float value, Error* err) noexcept {
  if (std::isfinite(value)) return true;
  char text[24];
  return fail(err, Status::invalid_argument, "%s must be a finite number, got %s", name, float_text(value, text));
}

bool check_fraction_below_one(const char* name, float value, Error* err) noexcept {
  if (value >= 0.0f && value < 1.0f) return true;
  char text[24];
  return fail(err, Status::invalid_argument, "%s must be at least 0 and less than 1, got %s", name,
              float_text(value, text));
}

bool check_zero_or_positive(const char* name, float value, Error* err) noexcept {
  if (value == 0.0f || (value > 0.0f && value <= FLT_MAX)) return true;
  char text[24];
  return fail(err, Status::invalid_argument, "%s must be 0 (off) or a positive finite number, got %s", name,
              float_text(value, text));
}

bool to_float32(const char* name, double value, float* out, Error* err) noexcept {
  char text[24];
  if (std::isfinite(value) && std::fabs(value) > FLT_MAX)
    return fail(err, Status::invalid_argument, "%s is %s, beyond the float32 range the core computes in (±3.4e38)",
                name, number_text(value, text));
  *out = static_cast<float>(value);
  if (value != 0.0 && *out == 0.0f)
    return fail(err, Status::invalid_argument, "%s is %s, too small for float32 (it would round to 0)", name,
                number_text(value, text));
  return true;
}

}  // namespace attn
