// The byte format the fuzz target decodes one call from (fuzz_core.cpp), and the encoder the seed
// corpus is written with (seeds.cpp). One byte per field, so that a mutation of one byte changes
// one thing: the entry point, a dimension, a flag, one value.
//
//   byte 0         the entry point (Target, modulo Target::count)
//   then           that entry point's fields in the order fuzz_core.cpp reads them: dimensions,
//                  flags, table indices (scale, temperature), a value mode, then the arrays'
//                  values row-major, one byte each
//
// Past the end of the input every byte reads as 0, except array values: those continue as
// ordinary values drawn from a generator seeded by the input's hash, so that a short input still
// gives varied, mostly valid arrays of any size.
#pragma once

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fuzz {

enum class Target : std::uint8_t {
  attention,  // attention_forward, _ref, and the streaming forward and its _ref on the same input
  softmax,
  softmax_naive,
  softmax_jacobian,
  softmax_backward,
  step_by_step,
  gradient_norm,  // softmax_gradient_norm
  random_projection,
  project,
  positional_encoding,  // add_positional_encoding
  text_vector,
  lengths,  // the validate_* functions with each array's length given: lengths that wrap 32 bits
  histograms,        // dot_histograms
  variance_curves,   // dot_variance_curve or token_dot_variance_curve
  head_projections,  // head_projections, and head_weights + project_head against it
  saturation_sweep,
  multi_head,
  trainer,  // train::Experiment: create, step, reset
  model_weights,  // lm::write_weights, a damaged copy read back (read_weights_header, read_weights), and predict
  supplied_attention,  // check_supplied_attention: another model's attention, damaged or not
  induce_in_sentence,  // à la carte from one sentence: A·(mean of the known rows within the window)
  count
};

// A dimension byte b: below kFirstLargeDim a small size, 1 + b % small (the common case: fast);
// below kFirstSpecialDim (one byte in 16) a large one, up to `large`, crossing the kernels' tile
// and block sizes; from kFirstSpecialDim a value at or past a limit (kSpecialDims). Dimensions
// that may be 0 (dv) read b % (small + 1) instead of 1 + b % small.
constexpr std::uint8_t kFirstLargeDim = 232;
constexpr std::uint8_t kFirstSpecialDim = 248;
constexpr int kSpecialDims[8] = {0, -1, 4096, 4097, 65536, 65537, INT_MAX, INT_MIN};

// A value byte b: an ordinary value (b − 120)/16 × the call's magnitude, or, when the call's value
// mode allows specials, kSpecialValues[b − kFirstSpecialValue] from kFirstSpecialValue on.
constexpr std::uint8_t kFirstSpecialValue = 240;
constexpr float kSpecialValues[16] = {NAN,      INFINITY, -INFINITY, 1e30f,        -1e30f, FLT_MAX, -FLT_MAX, 1e-40f,
                                      -1e-40f,  FLT_MIN,  0.0f,      FLT_TRUE_MIN, -0.0f,  88.8f,   1e15f,    -1e15f};
enum class Special : int {  // indices into kSpecialValues, for the seeds
  nan, inf, minus_inf, big, minus_big, max, minus_max, subnormal,
  minus_subnormal, min_normal, zero, true_min, minus_zero, exp_edge, large, minus_large
};
// Value mode byte: bits 0–1 pick the magnitude, bit 2 allows the special values.
constexpr float kMagnitudes[4] = {1.0f, 0.0625f, 16.0f, 4096.0f};
constexpr std::uint8_t kSpecialsAllowed = 4;

// Scale byte (modulo 16): 0 is 1/√d; the rest are used as they are. Temperature byte likewise.
// Indices used by the seeds: kScaleSqrt (1/√d), kScaleOne, kScaleHuge (1e20), kScaleZero (invalid);
// kTemperatureOne, kTemperatureTiny (1e-30), kTemperatureSubnormal (1/T is not finite: invalid).
constexpr int kScaleSqrt = 0, kScaleOne = 1, kScaleHuge = 5, kScaleZero = 10;
constexpr int kTemperatureOne = 0, kTemperatureTiny = 5, kTemperatureSubnormal = 7;
constexpr float kScales[16] = {0.0f /* 1/√d */, 1.0f, 0.125f, 3.0f, 1e-30f, 1e20f, FLT_MIN, 1e-45f,
                               FLT_MAX,         0.5f, 0.0f,   -1.0f, NAN,   INFINITY, -INFINITY, -0.0f};
constexpr float kTemperatures[16] = {1.0f,  0.5f,    2.0f,    0.01f,    100.0f, 1e-30f, 1e30f, 3e-39f,
                                     1e-38f, FLT_MAX, 0.25f,   0.0f,     -1.0f,  NAN,    INFINITY, FLT_TRUE_MIN};

// Mask mode byte (modulo 4): none; additive values (a mask byte below kMaskHiddenBelow hides the
// key with -Infinity); whole rows hidden (a row byte below kMaskHiddenBelow hides every key of
// that row); every key hidden.
enum class MaskMode : std::uint8_t { none, additive, hidden_rows, all_hidden };
constexpr std::uint8_t kMaskHiddenBelow = 64;

// Builds an input byte by byte with the meanings above (seeds.cpp).
struct Encoder {
  std::vector<std::uint8_t> bytes;
  Encoder& target(Target t) { return raw(static_cast<std::uint8_t>(t)); }
  Encoder& raw(std::uint8_t b) {
    bytes.push_back(b);
    return *this;
  }
  Encoder& dim(int value) { return raw(static_cast<std::uint8_t>(value - 1)); }  // a small dimension ≥ 1
  Encoder& dim0(int value) { return raw(static_cast<std::uint8_t>(value)); }     // a small dimension ≥ 0
  Encoder& special_dim(int index) { return raw(static_cast<std::uint8_t>(kFirstSpecialDim + index)); }
  // an ordinary value: x = (b − 120)/16 × magnitude, so x/magnitude in [−7.5, 7.4375] in steps of 1/16
  Encoder& value(float x_over_magnitude) {
    return raw(static_cast<std::uint8_t>(std::lround(x_over_magnitude * 16.0f) + 120));
  }
  Encoder& special_value(Special s) { return raw(static_cast<std::uint8_t>(kFirstSpecialValue + static_cast<int>(s))); }
};

}  // namespace fuzz
