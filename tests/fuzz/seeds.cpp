// The seed corpus (tests/fuzz/corpus/): one small input per case worth starting from — every entry
// point, each mask mode, each special value where it matters, each limit of a dimension, and the
// known defects' reproducers. `fuzz_core_driver --write-seeds tests/fuzz/corpus` (scripts/fuzz.sh
// --write-seeds) writes them; the fuzzers grow their own corpora from these (build/, not committed).
// Field order per entry point: fuzz_core.cpp. Array values not written here come from the
// generator seeded by the input (input.hpp).
#include <string>
#include <utility>
#include <vector>

#include "input.hpp"

namespace fuzz {

using Seeds = std::vector<std::pair<std::string, std::vector<std::uint8_t>>>;

namespace {

constexpr std::uint8_t kPlain = 0, kSpecials = kSpecialsAllowed;

// attention: n, m, d, dv, flags (bit 0 causal), scale, temperature, mask mode, value mode
Encoder attention(std::uint8_t n, std::uint8_t m, std::uint8_t d, std::uint8_t dv, bool causal, int scale = kScaleSqrt,
                  int temperature = kTemperatureOne, MaskMode mask = MaskMode::none, std::uint8_t mode = kPlain) {
  Encoder e;
  e.target(Target::attention).raw(n).raw(m).raw(d).raw(dv).raw(causal ? 1 : 0);
  e.raw(static_cast<std::uint8_t>(scale)).raw(static_cast<std::uint8_t>(temperature));
  return e.raw(static_cast<std::uint8_t>(mask)).raw(mode);
}
// a small dimension's byte (≥ 1), of one that may be 0, a large one's (step 0–15), a special one's
std::uint8_t small(int value) { return static_cast<std::uint8_t>(value - 1); }
std::uint8_t small0(int value) { return static_cast<std::uint8_t>(value); }
std::uint8_t large(int step) { return static_cast<std::uint8_t>(kFirstLargeDim + step); }
std::uint8_t special(int index) { return static_cast<std::uint8_t>(kFirstSpecialDim + index); }
enum SpecialDim : int { zero_dim, minus_one, lesson_width, past_lesson_width, max_dim, past_max_dim, int_max, int_min };

// a row entry point: target, m, then its own fields
Encoder row(Target t, std::uint8_t m) {
  Encoder e;
  return e.target(t).raw(m);
}

}  // namespace

Seeds seeds() {
  Seeds s;
  const auto add = [&](const char* name, const Encoder& e) { s.emplace_back(name, e.bytes); };

  // ---- attention ----
  add("attention-small", attention(small(3), small(4), small(5), small0(2), false));
  add("attention-causal", attention(small(5), small(5), small(8), small0(3), true));
  add("attention-causal-n-not-m", attention(small(3), small(4), small(2), small0(1), true));
  add("attention-no-v", attention(small(4), small(6), small(3), small0(0), false));
  add("attention-additive-mask", attention(small(4), small(5), small(3), small0(2), false, kScaleSqrt,
                                           kTemperatureOne, MaskMode::additive));
  add("attention-hidden-rows", attention(small(6), small(3), small(4), small0(2), false, kScaleOne, 3,
                                         MaskMode::hidden_rows));
  add("attention-all-hidden", attention(small(2), small(3), small(2), small0(2), true, kScaleSqrt, kTemperatureOne,
                                        MaskMode::all_hidden));
  add("attention-blocks", attention(large(12), large(13), large(6), large(5), false));  // 66×71, d = 132, dv = 15
  add("attention-blocks-causal", attention(large(12), large(12), large(15), small0(8), true));  // d = 301
  add("attention-one-key", attention(large(13), small(1), small(9), small0(1), false));
  add("attention-temperature-tiny", attention(small(3), small(7), small(4), small0(2), false, kScaleOne,
                                              kTemperatureTiny));
  add("attention-temperature-subnormal", attention(small(2), small(2), small(2), small0(1), false, kScaleSqrt,
                                                   kTemperatureSubnormal));
  add("attention-scale-zero", attention(small(2), small(2), small(2), small0(1), false, kScaleZero));
  add("attention-scale-huge", attention(small(3), small(3), small(16), small0(1), false, kScaleHuge, kTemperatureOne,
                                        MaskMode::none, 3));
  for (int i = 0; i < 8; ++i) {  // every limit of a dimension, for each of n and d
    const std::string si = std::to_string(i);
    add(("attention-n-special-" + si).c_str(), attention(special(i), small(2), small(2), small0(1), false));
    add(("attention-d-special-" + si).c_str(), attention(small(2), small(2), special(i), small0(1), false));
  }
  add("attention-dv-special", attention(small(2), small(2), small(2), special(int_min), false));
  add("attention-nm-too-large", attention(special(max_dim), special(max_dim), small(1), small0(0), false));
  // special values: q[0][1] NaN; k[1][0] +Inf; v[0][0] NaN; a subnormal and -0 among ordinary values
  add("attention-nan-q", attention(small(2), small(2), small(2), small0(1), false, kScaleSqrt, kTemperatureOne,
                                   MaskMode::none, kSpecials).value(0.5f).special_value(Special::nan));
  add("attention-inf-k", attention(small(1), small(2), small(1), small0(1), false, kScaleSqrt, kTemperatureOne,
                                   MaskMode::none, kSpecials).value(1).value(2).special_value(Special::inf));
  add("attention-nan-v", attention(small(1), small(1), small(1), small0(1), false, kScaleSqrt, kTemperatureOne,
                                   MaskMode::none, kSpecials).value(1).value(1).special_value(Special::nan));
  add("attention-subnormals", attention(small(2), small(2), small(2), small0(2), false, kScaleOne, kTemperatureOne,
                                        MaskMode::none, kSpecials)
                                  .special_value(Special::subnormal).special_value(Special::minus_zero).special_value(Special::true_min)
                                  .special_value(Special::min_normal).special_value(Special::minus_subnormal).value(1));
  // q·k beyond float32 for a visible pair: an overflow
  add("attention-overflow", attention(small(1), small(1), small(1), small0(1), false, kScaleOne, kTemperatureOne,
                                      MaskMode::none, kSpecials).special_value(Special::big).special_value(Special::big).value(1));
  // ... and for a hidden pair only: q0·k1 = 1e60 is hidden by the causal mask, every visible score
  // is finite (1, 1e30, 1e30): a valid input (defect D5: attention_forward reported an overflow)
  add("attention-overflow-hidden-causal",
      attention(small(2), small(2), small(1), small0(1), true, kScaleOne, kTemperatureOne, MaskMode::none, kSpecials)
          .special_value(Special::big).value(1)      // q
          .value(1).special_value(Special::big)      // k
          .value(1).value(-1));             // v
  add("attention-overflow-hidden-mask",
      attention(small(1), small(2), small(1), small0(1), false, kScaleOne, kTemperatureOne, MaskMode::additive,
                kSpecials)
          .special_value(Special::big)                 // q
          .value(1).special_value(Special::big)        // k
          .value(1).value(2)                  // v
          .raw(255).value(0).raw(0));         // mask: key 0 visible (0), key 1 hidden (-Infinity)
  // v = FLT_MAX in every row: the output may leave float32 (defect D6)
  // (weights 1/3 each round up: 3 · fl(1/3) · FLT_MAX is beyond float32)
  add("attention-v-max", attention(small(1), small(3), small(1), small0(1), false, kScaleOne, kTemperatureOne,
                                   MaskMode::none, kSpecials)
                             .value(0).value(0).value(0).value(0)
                             .special_value(Special::max).special_value(Special::max).special_value(Special::max));
  add("attention-mask-huge", attention(small(2), small(2), small(2), small0(1), false, kScaleOne, kTemperatureOne,
                                       MaskMode::additive, kSpecials)
                                 .value(1).value(1).value(1).value(1).value(1).value(1).value(1).value(1).value(1).value(1)
                                 .raw(255).special_value(Special::minus_max).raw(255).special_value(Special::big)
                                 .raw(255).special_value(Special::minus_big).raw(0));
  add("attention-large-values", attention(small(4), small(4), small(8), small0(4), false, kScaleOne, kTemperatureOne,
                                          MaskMode::none, 3));

  // ---- softmax and the naive softmax: m, temperature, value mode, scores ----
  const auto softmax_seeds = [&](Target t, const char* name) {
    const std::string n = name;
    add((n + "-small").c_str(), row(t, small(5)).raw(kTemperatureOne).raw(kPlain));
    add((n + "-one").c_str(), row(t, small(1)).raw(kTemperatureOne).raw(kPlain));
    add((n + "-long").c_str(), row(t, large(15)).raw(2).raw(kPlain));
    add((n + "-m-max").c_str(), row(t, special(max_dim)).raw(kTemperatureOne).raw(kPlain));
    add((n + "-m-past-max").c_str(), row(t, special(past_max_dim)).raw(kTemperatureOne).raw(kPlain));
    add((n + "-m-zero").c_str(), row(t, special(zero_dim)).raw(kTemperatureOne).raw(kPlain));
    add((n + "-m-negative").c_str(), row(t, special(int_min)).raw(kTemperatureOne).raw(kPlain));
    add((n + "-temperature-tiny").c_str(), row(t, small(4)).raw(kTemperatureTiny).raw(kPlain));
    add((n + "-temperature-subnormal").c_str(), row(t, small(4)).raw(kTemperatureSubnormal).raw(kPlain));
    add((n + "-temperature-zero").c_str(), row(t, small(4)).raw(11).raw(kPlain));
    // scores: each entry a hide byte (< 16: -Infinity) then a value
    add((n + "-hidden").c_str(),
        row(t, small(3)).raw(kTemperatureOne).raw(kSpecials).raw(0).raw(255).value(1).raw(255).value(-2));
    add((n + "-all-hidden").c_str(), row(t, small(3)).raw(kTemperatureOne).raw(kPlain).raw(0).raw(0).raw(0));
    add((n + "-nan").c_str(), row(t, small(2)).raw(kTemperatureOne).raw(kSpecials).raw(255).value(1).raw(255).special_value(Special::nan));
    add((n + "-inf").c_str(), row(t, small(2)).raw(kTemperatureOne).raw(kSpecials).raw(255).special_value(Special::inf).raw(255).value(1));
    add((n + "-huge-spread").c_str(), row(t, small(3)).raw(kTemperatureOne).raw(kSpecials)
                                          .raw(255).special_value(Special::big).raw(255).special_value(Special::minus_big).raw(255).special_value(Special::max));
    add((n + "-exp-edge").c_str(), row(t, small(2)).raw(kTemperatureOne).raw(kSpecials)
                                       .raw(255).special_value(Special::exp_edge).raw(255).value(0));
  };
  softmax_seeds(Target::softmax, "softmax");
  softmax_seeds(Target::softmax_naive, "softmax-naive");

  // ---- the Jacobian, backward, the gradient norm: m, value mode(s) (bit 3: raw values, not a
  // probability row), values ----
  add("softmax-jacobian-small", row(Target::softmax_jacobian, small(4)).raw(kPlain));
  add("softmax-jacobian-large", row(Target::softmax_jacobian, large(15)).raw(kPlain));
  add("softmax-jacobian-m-max", row(Target::softmax_jacobian, special(max_dim)).raw(kPlain));
  add("softmax-jacobian-m-zero", row(Target::softmax_jacobian, special(zero_dim)).raw(kPlain));
  add("softmax-jacobian-nan", row(Target::softmax_jacobian, small(2)).raw(kSpecials).value(1).special_value(Special::nan));
  // p = [1e30, 1e30]: p·p leaves float32 (defect D6)
  add("softmax-jacobian-huge", row(Target::softmax_jacobian, small(2)).raw(kSpecials | 8).special_value(Special::big).special_value(Special::big));
  add("softmax-jacobian-raw", row(Target::softmax_jacobian, small(5)).raw(8 | 2));
  add("softmax-backward-small", row(Target::softmax_backward, small(6)).raw(kPlain).raw(kPlain));
  add("softmax-backward-nan-dp", row(Target::softmax_backward, small(2)).raw(kPlain).raw(kSpecials)
                                     .value(1).value(1).special_value(Special::nan));
  add("softmax-backward-huge", row(Target::softmax_backward, small(2)).raw(kSpecials | 8).raw(kSpecials)
                                   .special_value(Special::big).value(1).special_value(Special::big).value(1));
  add("softmax-backward-m-past-max", row(Target::softmax_backward, special(past_max_dim)).raw(kPlain).raw(kPlain));
  // gradient norm: m, seed (2 bytes), row, value mode
  add("gradient-norm-small", row(Target::gradient_norm, small(7)).raw(3).raw(0).raw(2).raw(kPlain));
  add("gradient-norm-row-negative", row(Target::gradient_norm, small(3)).raw(1).raw(0).raw(special(minus_one)).raw(kPlain));
  add("gradient-norm-row-past-max", row(Target::gradient_norm, small(3)).raw(1).raw(0).raw(special(past_max_dim)).raw(kPlain));

  // ---- step by step: m, d, key, visible, flags (bit 0 scaled), temperature, value mode ----
  const auto steps = [](std::uint8_t m, std::uint8_t d, std::uint8_t key, std::uint8_t visible, bool scaled,
                        int temperature, std::uint8_t mode) {
    Encoder e;
    e.target(Target::step_by_step).raw(m).raw(d).raw(key).raw(visible).raw(scaled ? 1 : 0);
    return e.raw(static_cast<std::uint8_t>(temperature)).raw(mode);
  };
  add("step-by-step-small", steps(small(5), small(8), 3, 4, true, kTemperatureOne, kPlain));
  add("step-by-step-hidden", steps(small(5), small(4), 4, 2, false, 10, kPlain));
  add("step-by-step-key-past-m", steps(small(5), small(4), special(1), 4, true, kTemperatureOne, kPlain));
  add("step-by-step-key-negative", steps(small(5), small(4), special(0), 4, true, kTemperatureOne, kPlain));
  add("step-by-step-visible-zero", steps(small(5), small(4), 1, special(0), true, kTemperatureOne, kPlain));
  add("step-by-step-visible-past-m", steps(small(5), small(4), 1, special(1), true, kTemperatureOne, kPlain));
  add("step-by-step-d-lesson-width", steps(small(2), special(lesson_width), 0, 1, true, kTemperatureOne, kPlain));
  add("step-by-step-d-past-lesson-width", steps(small(2), special(past_lesson_width), 0, 1, true, kTemperatureOne, kPlain));
  add("step-by-step-temperature-subnormal", steps(small(3), small(3), 0, 2, true, kTemperatureSubnormal, kPlain));
  add("step-by-step-long", steps(large(13), large(9), 70, 200, true, 3, 2));
  add("step-by-step-nan", steps(small(2), small(1), 0, 1, true, kTemperatureOne, kSpecials).value(1).value(1).special_value(Special::nan));
  // the hidden key's q·k overflows while every visible score is finite
  add("step-by-step-overflow-hidden", steps(small(2), small(1), 1, 0, false, kTemperatureOne, kSpecials)
                                          .special_value(Special::big).value(1).special_value(Special::big));
  add("step-by-step-overflow", steps(small(2), small(1), 0, 1, false, kTemperatureOne, kSpecials)
                                   .special_value(Special::big).special_value(Special::big).value(1));

  // ---- embedding functions ----
  Encoder rp;  // random_projection: seed (8 bytes), d_in, d_out
  rp.target(Target::random_projection).raw(42).raw(0).raw(0).raw(0).raw(0).raw(0).raw(0).raw(0);
  add("random-projection-small", Encoder(rp).raw(small(10)).raw(small(4)));
  add("random-projection-large", Encoder(rp).raw(large(15)).raw(large(10)));
  add("random-projection-d-in-zero", Encoder(rp).raw(special(zero_dim)).raw(small(4)));
  add("random-projection-d-out-past-max", Encoder(rp).raw(small(3)).raw(special(past_max_dim)));
  add("random-projection-too-large", Encoder(rp).raw(special(max_dim)).raw(special(max_dim)));
  // project: t, d_in, d_out, value mode of x, of w
  const auto project = [](std::uint8_t t, std::uint8_t d_in, std::uint8_t d_out, std::uint8_t mode, std::uint8_t w_mode) {
    Encoder e;
    return e.target(Target::project).raw(t).raw(d_in).raw(d_out).raw(mode).raw(w_mode);
  };
  add("project-small", project(small(3), small(5), small(4), kPlain, kPlain));
  add("project-large", project(large(10), large(9), large(13), kPlain, 1));
  add("project-t-past-max", project(special(past_max_dim), small(2), small(2), kPlain, kPlain));
  add("project-nan-x", project(small(1), small(2), small(1), kSpecials, kPlain).value(1).special_value(Special::nan));
  // NaN in w is not caught (defect D6)
  add("project-nan-w", project(small(1), small(2), small(1), kPlain, kSpecials).value(1).value(1).value(1).special_value(Special::nan));
  add("project-overflow", project(small(1), small(1), small(1), kSpecials, kSpecials).special_value(Special::big).special_value(Special::big));
  // add_positional_encoding: t, d, strength (index), value mode
  const auto positions = [](std::uint8_t t, std::uint8_t d, std::uint8_t strength, std::uint8_t mode) {
    Encoder e;
    return e.target(Target::positional_encoding).raw(t).raw(d).raw(strength).raw(mode);
  };
  add("positions-small", positions(small(6), small(8), 0, kPlain));
  add("positions-long", positions(large(15), large(5), 2, 1));
  add("positions-strength-nan", positions(small(2), small(2), 6, kPlain));
  add("positions-strength-zero", positions(small(2), small(3), 1, kPlain));
  // NaN in x is not caught (defect D6)
  add("positions-nan-x", positions(small(1), small(2), 0, kSpecials).value(1).special_value(Special::nan));
  add("positions-overflow", positions(small(1), small(2), 5, kSpecials).special_value(Special::max).special_value(Special::max));
  add("positions-d-zero", positions(small(2), special(zero_dim), 0, kPlain));
  // text_vector: length, text, d, sigma (index)
  add("text-vector-cat", Encoder().target(Target::text_vector).raw(3).raw('c').raw('a').raw('t').raw(small(100)).raw(0));
  add("text-vector-empty", Encoder().target(Target::text_vector).raw(0).raw(small(8)).raw(0));
  add("text-vector-sigma-zero", Encoder().target(Target::text_vector).raw(1).raw('x').raw(small(4)).raw(5));
  add("text-vector-sigma-max", Encoder().target(Target::text_vector).raw(1).raw('x').raw(small(4)).raw(4));
  add("text-vector-d-past-max", Encoder().target(Target::text_vector).raw(1).raw('x').raw(special(past_max_dim)).raw(0));

  // induce_in_sentence: t, d, window (index), t known bytes, value modes of x and a
  const auto induce = [&](const char* name, std::uint8_t t, std::uint8_t d, std::uint8_t window,
                          std::initializer_list<std::uint8_t> known, std::uint8_t x_mode, std::uint8_t a_mode) {
    Encoder e;
    e.target(Target::induce_in_sentence).raw(t).raw(d).raw(window);
    for (std::uint8_t k : known) e.raw(k);
    add(name, e.raw(x_mode).raw(a_mode));
  };
  induce("induce-sentence", small(6), small(16), 0, {1, 0, 1, 1, 0, 0}, kPlain, kPlain);
  induce("induce-sentence-window-1", small(6), small(16), 1, {0, 1, 0, 0, 0, 1}, kPlain, kPlain);
  induce("induce-sentence-none-known", small(3), small(8), 0, {0, 0, 0}, kPlain, kPlain);
  induce("induce-sentence-bad-known", small(3), small(8), 0, {1, 250, 0}, kPlain, kPlain);
  induce("induce-sentence-window-0", small(3), small(8), 5, {1, 0, 1}, kPlain, kPlain);
  induce("induce-sentence-window-past-max", small(3), small(8), 6, {1, 0, 1}, kPlain, kPlain);
  induce("induce-sentence-specials", small(4), small(4), 0, {1, 0, 1, 0}, kSpecials, kSpecials);

  // ---- lengths: which (0 attention, 1 streaming, 2 project, 3 positions, 4 step by step), n, m,
  // d, dv, then per array a claim (0 right, 1 wrapped to 32 bits, 2 one more, 3 one less, 4 null)
  // and its values. n·d = 2^32 wraps to 0: an empty array must not pass for one of 2^32 numbers.
  const auto lengths = [](int which, std::uint8_t n, std::uint8_t m, std::uint8_t d, std::uint8_t dv) {
    Encoder e;
    return e.target(Target::lengths).raw(static_cast<std::uint8_t>(which)).raw(n).raw(m).raw(d).raw(dv);
  };
  add("lengths-attention-wrapped", lengths(0, special(max_dim), small(1), special(max_dim), small(1)).raw(1));
  add("lengths-streaming-wrapped", lengths(1, special(max_dim), small(1), special(max_dim), small(1)).raw(1));
  add("lengths-project-wrapped", lengths(2, special(max_dim), small(1), special(max_dim), small(1)).raw(1));
  add("lengths-positions-wrapped", lengths(3, special(max_dim), small(1), special(max_dim), small(1)).raw(1));
  add("lengths-attention-right", lengths(0, small(3), small(4), small(5), small(2)).raw(0));
  add("lengths-attention-one-more", lengths(0, small(3), small(4), small(5), small(2)).raw(2));
  add("lengths-attention-one-less-k", lengths(0, small(1), small(2), small(1), small(1)).raw(0).value(1).raw(3));
  add("lengths-attention-null-q", lengths(0, small(2), small(2), small(2), small(1)).raw(4));
  add("lengths-attention-no-mask",
      lengths(0, small(1), small(1), small(1), small(1)).raw(0).value(1).raw(0).value(1).raw(0).value(1).raw(4));
  add("lengths-step-by-step-one-less", lengths(4, small(3), small(3), small(4), small(1)).raw(3));
  // ---- the lesson's sweeps, multi-head and the trainer (fields: fuzz_core.cpp) ----
  const auto tokens = [](Encoder& e, std::uint8_t t, std::uint8_t d_in, std::uint8_t mode) -> Encoder& {
    return e.raw(t).raw(d_in).raw(mode);
  };
  // dot_histograms: seed, d, samples (may be 0), bins, range byte (bits 6–7: the default ranges)
  add("histograms-default", Encoder().target(Target::histograms).raw(1).raw(small(16)).raw(small0(50)).raw(small(10)).raw(0xc0));
  add("histograms-given", Encoder().target(Target::histograms).raw(2).raw(small(4)).raw(small0(40)).raw(small(8)).raw(0));
  add("histograms-bad-range", Encoder().target(Target::histograms).raw(2).raw(small(4)).raw(small0(40)).raw(small(8)).raw(3));
  add("histograms-one-sample", Encoder().target(Target::histograms).raw(2).raw(small(4)).raw(small0(1)).raw(small(8)).raw(0xc0));
  add("histograms-d-past-width", Encoder().target(Target::histograms).raw(2).raw(special(past_lesson_width)).raw(small0(40)).raw(small(8)).raw(0xc0));
  // variance curves: tokens?, seed, count of widths, the widths, samples, draws, then the tokens
  add("dot-variance-curve", Encoder().target(Target::variance_curves).raw(0).raw(1).raw(small0(3)).raw(small(1)).raw(small(8)).raw(small(16)).raw(small0(40)));
  add("dot-variance-curve-no-widths", Encoder().target(Target::variance_curves).raw(0).raw(1).raw(small0(0)).raw(small0(40)));
  {
    Encoder e;
    e.target(Target::variance_curves).raw(1).raw(3).raw(small0(2)).raw(small(4)).raw(small(12)).raw(0).raw(small0(2));
    add("token-variance-curve", tokens(e, small(5), small(10), kPlain));
  }
  {
    Encoder e;
    e.target(Target::variance_curves).raw(1).raw(3).raw(small0(1)).raw(small(4)).raw(0).raw(small0(1));
    add("token-variance-curve-one-dot", tokens(e, small(1), small(10), kPlain));
  }
  {
    Encoder e;
    e.target(Target::head_projections).raw(7).raw(2).raw(small(6));
    add("head-projections", tokens(e, small(4), small(9), kPlain));
  }
  {
    Encoder e;
    e.target(Target::head_projections).raw(7).raw(0).raw(small(3));
    add("head-projections-nan", tokens(e, small(2), small(2), kSpecials).special_value(Special::nan));
  }
  {
    Encoder e;
    e.target(Target::head_projections).raw(7).raw(special(minus_one)).raw(small(3));
    add("head-projections-head-negative", tokens(e, small(2), small(2), kPlain));
  }
  for (const bool scaled : {true, false}) {
    Encoder e;
    e.target(Target::saturation_sweep).raw(5).raw(scaled ? 1 : 0).raw(small0(3)).raw(small(2)).raw(small(16)).raw(large(8));
    add(scaled ? "saturation-sweep-scaled" : "saturation-sweep-unscaled", tokens(e, small(6), small(12), 2));
  }
  {
    Encoder e;
    e.target(Target::saturation_sweep).raw(5).raw(1).raw(small0(1)).raw(small(4));
    add("saturation-sweep-one-token", tokens(e, small(1), small(3), kPlain));
  }
  {
    Encoder e;
    e.target(Target::multi_head).raw(3).raw(small0(4)).raw(small(8)).raw(1);
    add("multi-head", tokens(e, small(5), small(10), kPlain));
  }
  {
    Encoder e;
    e.target(Target::multi_head).raw(3).raw(small0(9)).raw(small(8)).raw(1);
    add("multi-head-too-many-heads", tokens(e, small(5), small(10), kPlain));
  }
  // the trainer: seed, letters, pairs, queries, dModel, dk, dv, batch, heldout, steps, options, steps to take
  const auto trainer = [](std::uint8_t options, std::uint8_t letters = small(8), std::uint8_t dk = small(8)) {
    Encoder e;
    e.target(Target::trainer).raw(1).raw(letters).raw(small(4)).raw(small(2)).raw(small(8)).raw(dk).raw(small(8));
    return e.raw(small(8)).raw(small(8)).raw(small(4)).raw(options).raw(small0(3));
  };
  add("trainer-adam", trainer(0));
  add("trainer-sgd-clipped", trainer(1 | 2 << 1 | 1 << 4));
  add("trainer-rate-huge", trainer(4 << 1 | 1 << 5));
  add("trainer-rate-zero", trainer(5 << 1));
  add("trainer-one-letter", trainer(0, small(1)));
  add("trainer-dk-past-max", trainer(0, small(8), special(past_lesson_width)));
  // the model's weights file: heads, d_model/heads, layers, vocab, context, scaled, encoding,
  // magnitude, damage (0 whole, 1 a byte changed, 2 cut, 3 padded, 4 a forged header), where (2 bytes), value
  const auto weights = [](std::uint8_t encoding, std::uint8_t damage, std::uint8_t where = 0) {
    Encoder e;
    e.target(Target::model_weights).raw(1).raw(1).raw(0).raw(10).raw(5).raw(1).raw(encoding).raw(0).raw(damage);
    return e.raw(0).raw(where).raw(3);
  };
  add("model-weights-float32", weights(0, 0));
  add("model-weights-float16", weights(1, 0));
  add("model-weights-int8", weights(2, 0));
  add("model-weights-byte-changed", weights(2, 1, 60));
  add("model-weights-cut", weights(1, 2, 50));
  add("model-weights-padded", weights(0, 3));
  add("model-weights-forged-scaled", weights(2, 4, 28));  // 8 + 28 = byte 36: the scaled flag
  // attention supplied from another model: L, H, n, causal, magnitude, damage (0 none, 1 a value
  // replaced, 2 a row scaled, 3 the length one off), where (2 bytes), the row's scale (128 = ×1)
  const auto supplied = [](std::uint8_t n, bool causal, std::uint8_t damage, std::uint8_t scale = 128, std::uint8_t L = small(2),
                           std::uint8_t mode = 0) {
    Encoder e;
    e.target(Target::supplied_attention).raw(L).raw(small(3)).raw(n).raw(causal ? 1 : 0).raw(mode).raw(damage);
    return e.raw(0).raw(7).raw(scale);
  };
  add("supplied-attention", supplied(small(6), false, 0));
  add("supplied-attention-causal", supplied(small(5), true, 0));
  add("supplied-attention-value-replaced", supplied(small(6), false, 1));
  add("supplied-attention-row-over", supplied(small(4), false, 2, 255));
  add("supplied-attention-row-within", supplied(small(4), false, 2, 160));
  add("supplied-attention-length", supplied(small(4), true, 3));
  add("supplied-attention-n-large", supplied(large(15), false, 0, 128, small(1)));
  add("supplied-attention-n-past-max", supplied(special(past_lesson_width), false, 0));
  add("supplied-attention-layers-zero", supplied(small(3), false, 0, 128, special(zero_dim)));
  add("supplied-attention-large-scores", supplied(small(6), true, 0, 128, small(2), 3));

  return s;
}

}  // namespace fuzz
