// The JavaScript binding: plain adapters from heap offsets to the core, no math.
// The JS wrapper (web/core/engine.js) copies inputs into the wasm heap, calls these, and
// copies results out. No C++ exception crosses into JS: every entry point returns a
// Status code, and the message of the last failure is read with last_error().
#include <emscripten/bind.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "attention.hpp"
#include "embedding.hpp"
#include "lesson.hpp"
#include "simd.hpp"

namespace {

using attn::Status;

attn::Error g_last_error;  // single-threaded module: one slot is enough

template <typename T>
T* at(uintptr_t offset) {
  return reinterpret_cast<T*>(offset);
}

int report(bool ok) { return ok ? 0 : static_cast<int>(g_last_error.status); }

// For adapters whose core functions allocate (std::bad_alloc): the exception stops here.
int internal_error(const char* what) {
  g_last_error.status = Status::invalid_argument;
  std::snprintf(g_last_error.message, sizeof g_last_error.message, "internal error: %s", what);
  return -1;
}

// Options arrive as plain numbers, not a value_object: Embind's value_object conversion
// (without eval, see TOOLCHAIN.md) cost more than the whole kernel at n = 16, while a call
// with numeric arguments adds ~0.3 µs (docs/performance.md). `flags` is a CallFlags bit set.
enum CallFlags : int { kScaleBySqrtD = 1, kCausal = 2 };

float resolve_scale(int flags, float scale, int d) { return (flags & kScaleBySqrtD) ? attn::inv_sqrt(d) : scale; }

// Inputs q (n×d), k (m×d), v (m×dv, 0 if none), mask (n×m, 0 if none); outputs at `out`,
// laid out as dots | scores | weights (n×m each) | entropy | max_weight | row_sum (n each)
// | output (n×dv) | the scale used (1 float). The core entry points are noexcept: nothing throws across here.
int attention(uintptr_t q, uintptr_t k, uintptr_t v, uintptr_t mask, int n, int m, int d, int dv, int flags,
              float scale, float temperature, uintptr_t out) {
  attn::AttentionOptions opt;
  opt.scale = resolve_scale(flags, scale, d);
  opt.temperature = temperature;
  opt.causal = (flags & kCausal) != 0;
  opt.mask = mask ? at<const float>(mask) : nullptr;
  const std::size_t nm = static_cast<std::size_t>(n) * m;
  float* base = at<float>(out);
  attn::AttentionResult result{base, base + nm, base + 2 * nm, dv > 0 ? base + 3 * nm + 3 * n : nullptr,
                               base + 3 * nm, base + 3 * nm + n, base + 3 * nm + 2 * n};
  const bool ok = attn::attention_forward(at<const float>(q), at<const float>(k), v ? at<const float>(v) : nullptr,
                                          {n, m, d, dv}, opt, result, &g_last_error);
  if (ok) base[3 * nm + 3 * n + static_cast<std::size_t>(n) * dv] = opt.scale;  // shapes valid here
  return report(ok);
}

// Streaming forward: q (n×d), k (m×d), v (m×dv) in, output (n×dv) at `out`, then the scale used.
int attention_streaming(uintptr_t q, uintptr_t k, uintptr_t v, int n, int m, int d, int dv, int flags, float scale,
                        uintptr_t out) {
  attn::StreamingOptions opt;
  opt.scale = resolve_scale(flags, scale, d);
  opt.causal = (flags & kCausal) != 0;
  float* output = at<float>(out);
  const bool ok = attn::attention_streaming_forward(at<const float>(q), at<const float>(k), at<const float>(v),
                                                    {n, m, d, dv}, opt, output, &g_last_error);
  if (ok) output[static_cast<std::size_t>(n) * dv] = opt.scale;  // shapes valid here
  return report(ok);
}

int softmax(uintptr_t z, int m, float temperature, uintptr_t out) {
  return report(attn::softmax(at<const float>(z), m, temperature, at<float>(out), &g_last_error));
}

// ---- tokens to vectors (cpp/embedding.hpp); seeds are 32-bit so JS numbers carry them exactly

int random_normal(uint32_t seed, float sigma, uintptr_t out, int count) {
  attn::random_normal(seed, sigma, at<float>(out), static_cast<std::size_t>(count));
  return 0;
}

int random_projection(uint32_t seed, int d_in, int d_out, uintptr_t w) {
  return report(attn::random_projection(seed, d_in, d_out, at<float>(w), &g_last_error));
}

int project(uintptr_t x, int t, int d_in, uintptr_t w, int d_out, uintptr_t out) {
  return report(attn::project(at<const float>(x), t, d_in, at<const float>(w), d_out, at<float>(out), &g_last_error));
}

int add_positional_encoding(uintptr_t x, int t, int d, float strength, uintptr_t out) {
  return report(attn::add_positional_encoding(at<const float>(x), t, d, strength, at<float>(out), &g_last_error));
}

int text_vector(const std::string& text, int d, float sigma, uintptr_t out) {
  return report(attn::text_vector(text.data(), text.size(), d, sigma, at<float>(out), &g_last_error));
}

std::string last_error() { return g_last_error.message; }
std::string simd_arch() { return attn::simd_arch_name(); }

}  // namespace


EMSCRIPTEN_BINDINGS(attention_lab) {
  emscripten::function("attention", &attention);
  emscripten::function("attentionStreaming", &attention_streaming);
  emscripten::function("softmax", &softmax);
  emscripten::function("randomNormal", &random_normal);
  emscripten::function("randomProjection", &random_projection);
  emscripten::function("project", &project);
  emscripten::function("addPositionalEncoding", &add_positional_encoding);
  emscripten::function("textVector", &text_vector);
  emscripten::function("lastError", &last_error);
  emscripten::function("simdArch", &simd_arch);
}

// ---- the lesson's measurements (cpp/lesson.hpp) ------------------------------------------
// Same conventions: heap offsets in, a Status code out, results written at `out` in the flat
// layout named beside each adapter (web/core/engine.js splits it). Width lists arrive as JS
// arrays of integers.
namespace {

template <typename Body>
int guarded(Body body) {
  try {
    return report(body());
  } catch (const std::exception& e) {
    return internal_error(e.what());
  } catch (...) {
    return internal_error("unknown exception");
  }
}

std::vector<int> widths(const emscripten::val& dims) { return emscripten::vecFromJSArray<int>(dims); }

// out: counts (bins) | below | above | mean | variance | lo | hi, for unscaled then scaled | sqrt_d.
// A range the caller does not give (has_range false) is the lesson's default (default_dot_range).
int lesson_dot_histograms(uint32_t seed, int d, int samples, int bins, bool has_range, float lo, float hi,
                          bool has_scaled_range, float scaled_lo, float scaled_hi, uintptr_t out) {
  return guarded([&] {
    float* base = at<float>(out);
    const std::size_t stride = static_cast<std::size_t>(bins > 0 ? bins : 0) + 6;
    attn::DotHistogram u, s;
    if (has_range) u.lo = lo, u.hi = hi;
    else attn::default_dot_range(d, false, &u.lo, &u.hi);
    if (has_scaled_range) s.lo = scaled_lo, s.hi = scaled_hi;
    else attn::default_dot_range(d, true, &s.lo, &s.hi);
    u.counts = base;
    s.counts = base + stride;
    if (!attn::dot_histograms(seed, d, samples, bins, u, s, &g_last_error)) return false;
    const attn::DotHistogram* hists[2] = {&u, &s};
    for (int h = 0; h < 2; ++h) {
      float* tail = base + h * stride + bins;
      tail[0] = hists[h]->below, tail[1] = hists[h]->above;
      tail[2] = static_cast<float>(hists[h]->mean), tail[3] = static_cast<float>(hists[h]->variance);
      tail[4] = hists[h]->lo, tail[5] = hists[h]->hi;
    }
    base[2 * stride] = attn::sqrt_d(d);
    return true;
  });
}

// out: var_unscaled (n) | var_scaled (n)
int lesson_dot_variance_curve(uint32_t seed, emscripten::val dims, int samples, uintptr_t out) {
  return guarded([&] {
    const std::vector<int> w = widths(dims);
    float* base = at<float>(out);
    return attn::dot_variance_curve(seed, w.data(), static_cast<int>(w.size()), samples, base, base + w.size(),
                                    &g_last_error);
  });
}

// out: var_unscaled (n) | var_scaled (n)
int lesson_token_variance_curve(uintptr_t x, int t, int d_in, uint32_t seed, emscripten::val dims, int draws,
                                uintptr_t out) {
  return guarded([&] {
    const std::vector<int> w = widths(dims);
    float* base = at<float>(out);
    return attn::token_dot_variance_curve(at<const float>(x), t, d_in, seed, w.data(), static_cast<int>(w.size()),
                                          draws, base, base + w.size(), &g_last_error);
  });
}

// out: q | k | v (t×d each)
int lesson_head_projections(uintptr_t x, int t, int d_in, uint32_t seed, int head, int d, uintptr_t out) {
  return guarded([&] {
    float* base = at<float>(out);
    const std::size_t td = static_cast<std::size_t>(t > 0 ? t : 0) * (d > 0 ? d : 0);
    return attn::head_projections(at<const float>(x), t, d_in, seed, head, d, base, base + td, base + 2 * td,
                                  &g_last_error);
  });
}

// out: w_q | w_k (d_in×d each)
int lesson_head_weights(uint32_t seed, int head, int d_in, int d, uintptr_t out) {
  return guarded([&] {
    float* base = at<float>(out);
    const std::size_t size = static_cast<std::size_t>(d_in > 0 ? d_in : 0) * (d > 0 ? d : 0);
    return attn::head_weights(seed, head, d_in, d, base, base + size, nullptr, &g_last_error);
  });
}

// out: q | k (t×d each)
int lesson_project_head(uintptr_t x, int t, int d_in, uintptr_t wq, uintptr_t wk, int d, uintptr_t out) {
  return guarded([&] {
    float* base = at<float>(out);
    const std::size_t td = static_cast<std::size_t>(t > 0 ? t : 0) * (d > 0 ? d : 0);
    return attn::project_head(at<const float>(x), t, d_in, at<const float>(wq), at<const float>(wk), nullptr, d, base,
                              base + td, nullptr, &g_last_error);
  });
}

// out: max_weight | entropy | regime | grad_norm (n×t each) | mean_max_weight | mean_entropy
//      | mean_grad_norm | fraction_peaked | fraction_flat | peaked_count | flat_count (n each) | max_entropy
int lesson_saturation_sweep(uintptr_t x, int t, int d_in, uint32_t seed, emscripten::val dims, bool scaled,
                            uintptr_t out) {
  return guarded([&] {
    const std::vector<int> w = widths(dims);
    const std::size_t n = w.size(), nt = n * static_cast<std::size_t>(t > 0 ? t : 0);
    float* base = at<float>(out);
    float* mean = base + 4 * nt;
    if (!attn::saturation_sweep(at<const float>(x), t, d_in, seed, w.data(), static_cast<int>(n), scaled,
                                {base, base + nt, base + 2 * nt, base + 3 * nt},
                                {mean, mean + n, mean + 2 * n, mean + 3 * n, mean + 4 * n, mean + 5 * n, mean + 6 * n},
                                &g_last_error))
      return false;
    mean[7 * n] = attn::max_entropy(t);
    return true;
  });
}

int lesson_softmax_jacobian(uintptr_t p, int m, uintptr_t out) {
  return guarded([&] { return attn::softmax_jacobian(at<const float>(p), m, at<float>(out), &g_last_error); });
}

int lesson_softmax_backward(uintptr_t p, uintptr_t dp, int m, uintptr_t out) {
  return guarded([&] {
    return attn::softmax_backward(at<const float>(p), at<const float>(dp), m, at<float>(out), &g_last_error);
  });
}

int lesson_upstream_gradient(uint32_t seed, int row, int m, uintptr_t out) {
  attn::upstream_gradient(seed, row, m, at<float>(out));
  return 0;
}

// out: product (d) | scores | shifted | exps | weights (m each) | dot | scale | row_max | sum | weight_sum
//      | max_weight | entropy | sqrt_d | min_weight
int lesson_step_by_step(uintptr_t q, uintptr_t k, int m, int d, int key, bool scaled, float temperature, int visible,
                        uintptr_t out) {
  return guarded([&] {
    float* base = at<float>(out);
    const std::size_t dd = d > 0 ? d : 0, mm = m > 0 ? m : 0;
    attn::StepTrace trace{base, base + dd, base + dd + mm, base + dd + 2 * mm, base + dd + 3 * mm};
    if (!attn::step_by_step(at<const float>(q), at<const float>(k), m, d, key, scaled, temperature, visible, trace,
                            &g_last_error))
      return false;
    float* tail = base + dd + 4 * mm;
    tail[0] = trace.dot, tail[1] = trace.scale, tail[2] = trace.row_max, tail[3] = trace.sum;
    tail[4] = trace.weight_sum, tail[5] = trace.max_weight, tail[6] = trace.entropy;
    tail[7] = trace.sqrt_d, tail[8] = trace.min_weight;
    return true;
  });
}

// out: norm (1)
int lesson_softmax_gradient_norm(uintptr_t p, int m, uint32_t seed, int row, uintptr_t out) {
  return guarded(
      [&] { return attn::softmax_gradient_norm(at<const float>(p), m, seed, row, at<float>(out), &g_last_error); });
}

// out: z/T | exps | weights (m each) | sum | largest z/T | overflowed (0 or 1) — the broken naive version, raw
int lesson_softmax_naive(uintptr_t z, int m, float temperature, uintptr_t out) {
  return guarded([&] {
    float* base = at<float>(out);
    const std::size_t mm = m > 0 ? m : 0;
    bool overflowed = false;
    if (!attn::softmax_naive(at<const float>(z), m, temperature, base, base + mm, base + 3 * mm, base + 2 * mm,
                             &g_last_error, base + 3 * mm + 1, &overflowed))
      return false;
    base[3 * mm + 2] = overflowed ? 1.0f : 0.0f;
    return true;
  });
}

// out: weights (h×t×t) | entropy (h×t) | max_weight (h×t) | concat (t×h·d)
int lesson_multi_head(uintptr_t x, int t, int d_in, uint32_t seed, int heads, int d, bool scaled, uintptr_t out) {
  return guarded([&] {
    float* base = at<float>(out);
    const std::size_t tt = static_cast<std::size_t>(t > 0 ? t : 0), hh = heads > 0 ? heads : 0;
    attn::MultiHeadResult result{base, base + hh * tt * tt, base + hh * tt * tt + hh * tt,
                                 base + hh * tt * tt + 2 * hh * tt};
    return attn::multi_head(at<const float>(x), t, d_in, seed, heads, d, scaled, result, &g_last_error);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_lesson) {
  emscripten::constant("lessonPeakedMaxWeight", attn::kPeakedMaxWeight);
  emscripten::constant("lessonFlatEntropyFraction", attn::kFlatEntropyFraction);
  emscripten::constant("lessonExpOverflowThreshold", attn::kExpOverflowThreshold);
  emscripten::function("lessonDotHistograms", &lesson_dot_histograms);
  emscripten::function("lessonDotVarianceCurve", &lesson_dot_variance_curve);
  emscripten::function("lessonTokenVarianceCurve", &lesson_token_variance_curve);
  emscripten::function("lessonHeadProjections", &lesson_head_projections);
  emscripten::function("lessonHeadWeights", &lesson_head_weights);
  emscripten::function("lessonProjectHead", &lesson_project_head);
  emscripten::function("lessonSaturationSweep", &lesson_saturation_sweep);
  emscripten::function("lessonSoftmaxJacobian", &lesson_softmax_jacobian);
  emscripten::function("lessonSoftmaxBackward", &lesson_softmax_backward);
  emscripten::function("lessonUpstreamGradient", &lesson_upstream_gradient);
  emscripten::function("lessonStepByStep", &lesson_step_by_step);
  emscripten::function("lessonSoftmaxGradientNorm", &lesson_softmax_gradient_norm);
  emscripten::function("lessonSoftmaxNaive", &lesson_softmax_naive);
  emscripten::function("lessonMultiHead", &lesson_multi_head);
}
