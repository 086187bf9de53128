// The binding's adapters for attention and for tokens to vectors (binding.hpp says how an
// adapter is written; the engine's row for each is in CALLS, web/core/calls.js).
#include <emscripten/bind.h>

#include <cstdint>
#include <string>

#include "core/attention.hpp"
#include "binding/binding.hpp"
#include "core/embedding.hpp"

namespace binding {
namespace {

// Options arrive as plain numbers, not a value_object: Embind's value_object conversion (without
// eval, see docs/toolchain.md) cost more than the whole kernel at n = 16, while a call with
// numeric arguments adds ~0.3 µs (docs/performance.md). `flags` is a CallFlags bit set; the
// engine reads the bits from the constants below.
enum CallFlags : int { kScaleBySqrtD = 1, kCausal = 2 };

bool resolve_scale(int flags, double scale, int d, float* out) {
  if (!(flags & kScaleBySqrtD)) return attn::to_float32("scale", scale, out, &g_error);
  *out = attn::inv_sqrt(d > 0 ? d : 1);  // a bad d fails the shape check after this
  return true;
}

int attention(int n, int m, int d, int dv, int flags, double scale, double temperature) {
  attn::AttentionOptions opt;
  opt.causal = (flags & kCausal) != 0;
  opt.mask = input(3);
  const attn::AttentionShape shape{n, m, d, dv};
  const attn::Input qs = input(0), ks = input(1), vs = input(2);
  if (!resolve_scale(flags, scale, d, &opt.scale) ||
      !attn::to_float32("temperature", temperature, &opt.temperature, &g_error) ||
      !attn::validate_attention(qs, ks, vs, shape, opt, &g_error))
    return failed();
  const std::uint64_t nm = static_cast<std::uint64_t>(n) * m;
  attn::Outputs out = outputs();
  const auto dots = out.array("dots", nm), scores = out.array("scores", nm), weights = out.array("weights", nm);
  const auto output = dv > 0 ? out.array("output", static_cast<std::uint64_t>(n) * dv) : out.absent("output");
  const auto entropy = out.array("entropy", n), max_weight = out.array("maxWeight", n);
  const auto row_sum = out.array("rowSum", n), used_scale = out.number("scale");
  if (!out.allocate(&g_error)) return failed();
  out.set(used_scale, opt.scale);
  const attn::AttentionResult result{out[dots],    out[scores],     out[weights], dv > 0 ? out[output] : nullptr,
                                     out[entropy], out[max_weight], out[row_sum]};
  return status(attn::attention_forward_validated(qs.data, ks.data, vs.data, shape, opt, result, &g_error));
}

// `out_length`: the length of the array the engine will copy the output into (the caller's
// `out`), or negative when it makes a new one.
int attention_streaming(int n, int m, int d, int dv, int flags, double scale, double out_length) {
  attn::StreamingOptions opt;
  opt.causal = (flags & kCausal) != 0;
  const attn::AttentionShape shape{n, m, d, dv};
  const attn::Input qs = input(0), ks = input(1), vs = input(2);
  if (!resolve_scale(flags, scale, d, &opt.scale) || !attn::validate_streaming(qs, ks, vs, shape, opt, &g_error))
    return failed();
  if (out_length >= 0 && !attn::check_count("out", static_cast<std::uint64_t>(out_length),
                                            static_cast<std::uint64_t>(n) * dv, "n·dv", &g_error))
    return failed();
  attn::Outputs out = outputs();
  const auto output = out.array("output", static_cast<std::uint64_t>(n) * dv), used_scale = out.number("scale");
  if (!out.allocate(&g_error)) return failed();
  out.set(used_scale, opt.scale);
  return status(
      attn::attention_streaming_forward_validated(qs.data, ks.data, vs.data, shape, opt, out[output], &g_error));
}

int softmax(double temperature) {
  ScoreRow row;
  if (!score_row(temperature, &row) || !attn::validate_softmax(row.scores.data, row.m, row.temperature, &g_error))
    return failed();
  attn::Outputs out = outputs();
  const auto weights = out.array("weights", row.m);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::softmax(row.scores.data, row.m, row.temperature, out[weights], &g_error));
}

// ---- tokens to vectors (cpp/core/embedding.hpp); seeds are 32-bit so JS numbers carry them exactly

int random_normal(uint32_t seed, int count, double sigma) {
  float s;
  if (!attn::to_float32("sigma", sigma, &s, &g_error) || !attn::validate_random_normal(s, count, &g_error))
    return failed();
  attn::Outputs out = outputs();
  const auto values = out.array("values", count);
  if (!out.allocate(&g_error)) return failed();
  attn::random_normal(seed, s, out[values], static_cast<std::size_t>(count));
  return 0;
}

int random_projection(uint32_t seed, int d_in, int d_out) {
  if (!attn::validate_random_projection(d_in, d_out, &g_error)) return failed();
  attn::Outputs out = outputs();
  const auto w = out.array("w", static_cast<std::uint64_t>(d_in) * d_out);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::random_projection(seed, d_in, d_out, out[w], &g_error));
}

int project(int t, int d_in, int d_out) {
  const attn::Input xs = input(0), ws = input(1);
  if (!attn::validate_project(xs, t, d_in, ws, d_out, &g_error)) return failed();
  attn::Outputs out = outputs();
  const auto output = out.array("output", static_cast<std::uint64_t>(t) * d_out);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::project(xs.data, t, d_in, ws.data, d_out, out[output], &g_error));
}

int add_positional_encoding(int t, int d, double strength) {
  const attn::Input xs = input(0);
  float s;
  if (!attn::to_float32("strength", strength, &s, &g_error) ||
      !attn::validate_positional_encoding(xs, t, d, s, &g_error))
    return failed();
  attn::Outputs out = outputs();
  const auto output = out.array("output", static_cast<std::uint64_t>(t) * d);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::add_positional_encoding(xs.data, t, d, s, out[output], &g_error));
}

int text_vector(const std::string& text, int d, double sigma) {
  float s;
  if (!attn::to_float32("sigma", sigma, &s, &g_error) || !attn::validate_text_vector(d, s, &g_error)) return failed();
  attn::Outputs out = outputs();
  const auto vector = out.array("vector", d);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::text_vector(text.data(), text.size(), d, s, out[vector], &g_error));
}

// À la carte from the sentence itself: inputs x (t×d), known (t), a (d×d) in slots 0, 1, 2.
int induce_in_sentence(int t, int d, int window) {
  const attn::Input xs = input(0), known = input(1), as = input(2);
  if (!attn::validate_induce_in_sentence(xs, known, t, d, window, as, &g_error)) return failed();
  const std::uint64_t td = static_cast<std::uint64_t>(t) * d;
  attn::Outputs out = outputs();
  const auto vectors = out.array("vectors", td), context = out.array("context", td);
  const auto contexts = out.array("contexts", t), induced = out.array("induced", t);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::induce_in_sentence(xs.data, known.data, t, d, window, as.data,
                                         {out[vectors], out[context], out[contexts], out[induced]}, &g_error));
}

}  // namespace
}  // namespace binding

EMSCRIPTEN_BINDINGS(attention_lab_attention) {
  using emscripten::constant;
  using emscripten::function;
  using namespace binding;
  constant("maxDim", attn::kMaxDim);
  constant("maxSigma", attn::kMaxSigma);
  constant("maxInductionWindow", attn::kMaxInductionWindow);
  constant("callScaleBySqrtD", static_cast<int>(kScaleBySqrtD));
  constant("callCausal", static_cast<int>(kCausal));

  function("attention", &attention);
  function("attentionStreaming", &attention_streaming);
  function("softmax", &softmax);
  function("randomNormal", &random_normal);
  function("randomProjection", &random_projection);
  function("project", &project);
  function("addPositionalEncoding", &add_positional_encoding);
  function("textVector", &text_vector);
  function("induceInSentence", &induce_in_sentence);
}
