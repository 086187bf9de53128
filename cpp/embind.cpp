// The JavaScript binding: plain adapters from heap offsets to the core, no math.
// The JS wrapper (web/core/engine.js) copies inputs into the wasm heap, calls these, and
// copies results out. No C++ exception crosses into JS: every entry point returns a
// Status code, and the message of the last failure is read with last_error().
#include <emscripten/bind.h>

#include <cstdint>
#include <exception>
#include <string>

#include "attention.hpp"
#include "embedding.hpp"
#include "simd.hpp"

namespace {

using attn::Status;

attn::Error g_last_error;  // single-threaded module: one slot is enough

template <typename T>
T* at(uintptr_t offset) {
  return reinterpret_cast<T*>(offset);
}

int report(bool ok) { return ok ? 0 : static_cast<int>(g_last_error.status); }

int internal_error(const char* what) {
  g_last_error.status = Status::invalid_argument;
  std::snprintf(g_last_error.message, sizeof g_last_error.message, "internal error: %s", what);
  return -1;
}

struct CallOptions {
  bool scale_by_sqrt_d;  // true: scale = 1/√d (the core computes it); false: use `scale`
  float scale;
  float temperature;
  bool causal;
};

// Inputs q (n×d), k (m×d), v (m×dv, 0 if none), mask (n×m, 0 if none); outputs at `out`,
// laid out as dots | scores | weights (n×m each) | entropy | max_weight (n each) | output (n×dv)
// | the scale used (1 float).
int attention(uintptr_t q, uintptr_t k, uintptr_t v, uintptr_t mask, int n, int m, int d, int dv,
              CallOptions options, uintptr_t out) {
  try {
    attn::AttentionOptions opt;
    opt.scale = options.scale_by_sqrt_d ? attn::inv_sqrt(d) : options.scale;
    opt.temperature = options.temperature;
    opt.causal = options.causal;
    opt.mask = mask ? at<const float>(mask) : nullptr;
    const std::size_t nm = static_cast<std::size_t>(n) * m;
    float* base = at<float>(out);
    attn::AttentionResult result{base, base + nm, base + 2 * nm, dv > 0 ? base + 3 * nm + 2 * n : nullptr,
                                 base + 3 * nm, base + 3 * nm + n};
    const bool ok = attn::attention_forward(at<const float>(q), at<const float>(k), v ? at<const float>(v) : nullptr,
                                            {n, m, d, dv}, opt, result, &g_last_error);
    if (ok) base[3 * nm + 2 * n + static_cast<std::size_t>(n) * dv] = opt.scale;  // shapes valid here
    return report(ok);
  } catch (const std::exception& e) {
    return internal_error(e.what());
  } catch (...) {
    return internal_error("unknown exception");
  }
}

int softmax(uintptr_t z, int m, float temperature, uintptr_t out) {
  try {
    return report(attn::softmax(at<const float>(z), m, temperature, at<float>(out), &g_last_error));
  } catch (...) {
    return internal_error("unknown exception");
  }
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

int add_positional_encoding(uintptr_t x, int t, int d, float strength) {
  return report(attn::add_positional_encoding(at<float>(x), t, d, strength, &g_last_error));
}

int text_vector(const std::string& text, int d, float sigma, uintptr_t out) {
  return report(attn::text_vector(text.data(), text.size(), d, sigma, at<float>(out), &g_last_error));
}

std::string last_error() { return g_last_error.message; }
std::string simd_arch() { return attn::simd_arch_name(); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab) {
  emscripten::value_object<CallOptions>("CallOptions")
      .field("scaleBySqrtD", &CallOptions::scale_by_sqrt_d)
      .field("scale", &CallOptions::scale)
      .field("temperature", &CallOptions::temperature)
      .field("causal", &CallOptions::causal);
  emscripten::function("attention", &attention);
  emscripten::function("softmax", &softmax);
  emscripten::function("randomNormal", &random_normal);
  emscripten::function("randomProjection", &random_projection);
  emscripten::function("project", &project);
  emscripten::function("addPositionalEncoding", &add_positional_encoding);
  emscripten::function("textVector", &text_vector);
  emscripten::function("lastError", &last_error);
  emscripten::function("simdArch", &simd_arch);
}
