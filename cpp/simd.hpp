// The one place that includes xsimd and picks the instruction set.
//
// xsimd enables its WebAssembly arch whenever __EMSCRIPTEN__ is defined, even without
// -msimd128, and then no batch operation compiles. The scalar WebAssembly build therefore
// selects xsimd's portable emulated<128> arch: the same kernel source runs on 4 plain floats.
#pragma once

#if defined(__EMSCRIPTEN__) && !defined(__wasm_simd128__)
#define XSIMD_WITH_EMULATED 1
#define XSIMD_DEFAULT_ARCH xsimd::emulated<128>
#endif

#include <xsimd/xsimd.hpp>

namespace attn {
using batch = xsimd::batch<float>;
constexpr std::size_t kLanes = batch::size;

// exp(t) for t <= 0, t = -INFINITY giving exactly 0: every softmax exponent after the row max
// is subtracted. Cephes' expf (range reduction by ln 2 in two parts, degree-6 polynomial, about
// 2 ulp) without the overflow and NaN handling xsimd::exp needs for arbitrary input: ~40% fewer
// instructions, and the exp is the costliest step of the softmax. Results below exp(-87.3)
// (smaller than the least normal float) flush to 0.
inline batch exp_nonpositive(batch t) {
  const batch cutoff(-87.33654f);
  const batch x = xsimd::max(t, cutoff);
  const batch n = xsimd::nearbyint(x * batch(1.44269504088896341f));  // n = round(x / ln 2)
  batch r = xsimd::fnma(n, batch(0.693359375f), x);                    // x - n·ln 2, high part exact
  r = xsimd::fnma(n, batch(-2.12194440e-4f), r);                      // ... low part
  batch y(1.9875691500e-4f);
  y = xsimd::fma(y, r, batch(1.3981999507e-3f));
  y = xsimd::fma(y, r, batch(8.3334519073e-3f));
  y = xsimd::fma(y, r, batch(4.1665795894e-2f));
  y = xsimd::fma(y, r, batch(1.6666665459e-1f));
  y = xsimd::fma(y, r, batch(5.0000001201e-1f));
  y = xsimd::fma(y, r * r, r + batch(1.0f));
  // 2^n from the exponent bits; n >= -126 here, so the result is a normal float
  using ibatch = xsimd::batch<int32_t>;
  const ibatch bits = (xsimd::to_int(n) + ibatch(127)) << 23;
  const batch scaled = y * xsimd::bitwise_cast<float>(bits);
  return xsimd::select(t < cutoff, batch(0.0f), scaled);
}

// Name of the arch the kernels were compiled for ("avx2", "wasm", "emulated"...).
inline const char* simd_arch_name() { return xsimd::default_arch::name(); }
}  // namespace attn
