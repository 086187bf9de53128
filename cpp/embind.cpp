// The JavaScript binding: plain adapters from heap offsets to the core, no math.
// The JS wrapper (web/core/engine.js) copies inputs into the wasm heap, calls these, and
// copies results out. No C++ exception crosses into JS: every entry point returns a
// Status code, and the message of the last failure is read with last_error().
#include <emscripten/bind.h>
#include <emscripten/em_macros.h>

#include <cstdint>
#include <string>

#include "attention.hpp"
#include "simd.hpp"

namespace {

using attn::Status;

attn::Error g_last_error;  // single-threaded module: one slot is enough

template <typename T>
T* at(uintptr_t offset) {
  return reinterpret_cast<T*>(offset);
}

int report(bool ok) { return ok ? 0 : static_cast<int>(g_last_error.status); }

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
}

int softmax(uintptr_t z, int m, float temperature, uintptr_t out) {
  return report(attn::softmax(at<const float>(z), m, temperature, at<float>(out), &g_last_error));
}

std::string last_error() { return g_last_error.message; }
std::string simd_arch() { return attn::simd_arch_name(); }

}  // namespace

// ---- per-call entry points as plain wasm exports (Module._attn_*) ----
// Embind's invoker (without eval, see TOOLCHAIN.md) and its value_object conversion cost more
// than the whole kernel at n = 16 (docs/performance.md), so the calls made once per frame are
// plain C exports with numeric arguments. The core entry points are noexcept (attention.hpp):
// nothing can throw across this boundary.
extern "C" {

enum CallFlags : int { kScaleBySqrtD = 1, kCausal = 2 };

// attention(...) above with the options as numbers: `flags` is a CallFlags bit set.
EMSCRIPTEN_KEEPALIVE int attn_attention(uintptr_t q, uintptr_t k, uintptr_t v, uintptr_t mask, int n, int m, int d,
                                        int dv, int flags, float scale, float temperature, uintptr_t out) {
  return attention(q, k, v, mask, n, m, d, dv, {(flags & kScaleBySqrtD) != 0, scale, temperature, (flags & kCausal) != 0},
                   out);
}

EMSCRIPTEN_KEEPALIVE int attn_softmax(uintptr_t z, int m, float temperature, uintptr_t out) {
  return softmax(z, m, temperature, out);
}

// Streaming forward: q (n×d), k (m×d), v (m×dv) in, output (n×dv) at `out`, then the scale
// used (1 float).
EMSCRIPTEN_KEEPALIVE int attn_attention_streaming(uintptr_t q, uintptr_t k, uintptr_t v, int n, int m, int d, int dv,
                                                  int flags, float scale, uintptr_t out) {
  attn::StreamingOptions opt;
  opt.scale = (flags & kScaleBySqrtD) ? attn::inv_sqrt(d) : scale;
  opt.causal = (flags & kCausal) != 0;
  float* output = at<float>(out);
  const bool ok = attn::attention_streaming_forward(at<const float>(q), at<const float>(k), at<const float>(v),
                                                    {n, m, d, dv}, opt, output, &g_last_error);
  if (ok) output[static_cast<std::size_t>(n) * dv] = opt.scale;  // shapes valid here
  return report(ok);
}

}  // extern "C"

EMSCRIPTEN_BINDINGS(attention_lab) {
  // rare calls keep Embind's string conversion; the per-call entry points are the _attn_* exports
  emscripten::function("lastError", &last_error);
  emscripten::function("simdArch", &simd_arch);
}
