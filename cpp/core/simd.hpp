// The one place that includes xsimd and picks the instruction set.
//
// xsimd enables its WebAssembly arch whenever __EMSCRIPTEN__ is defined, even without
// -msimd128, and then no batch operation compiles. The scalar WebAssembly build therefore
// selects xsimd's portable emulated<128> arch: the same kernel source runs on 4 plain floats.
// A native build for a processor xsimd has no arch for does the same (ATTN_SIMD_EMULATED, set
// by CMakeLists.txt).
#pragma once

#if (defined(__EMSCRIPTEN__) && !defined(__wasm_simd128__)) || defined(ATTN_SIMD_EMULATED)
#define XSIMD_WITH_EMULATED 1
#define XSIMD_DEFAULT_ARCH xsimd::emulated<128>
#endif

#include <xsimd/xsimd.hpp>

namespace attn {
using batch = xsimd::batch<float>;
constexpr std::size_t kLanes = batch::size;

// The rounding and 2^n of both exps below. Adding kRoundMagic = 1.5·2^23 + 127 to x (|x| < 2^22)
// rounds x to an integer n, and the low bits of j = x + kRoundMagic then hold n + 127, the
// biased exponent of 2^n (0..127 for n in [-127, 0]); j - kRoundMagic is n.
constexpr float kRoundMagic = 12582912.0f + 127.0f;
// y · 2^n for j = n + kRoundMagic; +0 for n = -127
inline batch times_pow2(batch y, batch j) {
  return y * xsimd::bitwise_cast<float>(xsimd::bitwise_cast<int32_t>(j) << 23);
}

// Horner's rule, highest coefficient first: horner(x, y, c1, ..., ck) = (((y·x + c1)·x + ...)·x + ck),
// one fma per coefficient. Expanded at compile time into the same fma chain written out by hand.
inline batch horner(batch, batch y) { return y; }
template <class... Rest>
inline batch horner(batch x, batch y, float c, Rest... rest) {
  return horner(x, xsimd::fma(y, x, batch(c)), rest...);
}

// exp(t) for t <= 0, t = -INFINITY giving exactly 0: every softmax exponent after the row max
// is subtracted. Cephes' expf (range reduction by ln 2 in two parts, degree-5 polynomial, about
// 2 ulp) without the overflow and NaN handling xsimd::exp needs for arbitrary input. Rounding
// and 2^n use the 1.5·2^23 "magic number" instead of nearbyint / to_int: xsimd 13 lowers
// to_int on wasm to four scalar conversions, which made the exp the costliest softmax step.
// Underflow is one clamp instead of a compare and a select (four instructions in V8's x64
// code): t is first raised to -88, where n = -127 makes 2^n, and so the result, exactly 0. So
// exp(t) is 0 below about -87.7 (2^-126.5) and -INFINITY; between that and -87.3, where the
// result drops under the least normal float, it is a subnormal.
inline batch exp_nonpositive(batch t) {
  t = xsimd::max(t, batch(-88.0f));  // -INFINITY too (callers pass no NaN)
  const batch magic(kRoundMagic);
  const batch j = xsimd::fma(t, batch(1.44269504088896341f), magic);  // n = t/ln 2 rounded
  const batch n = j - magic;
  batch r = xsimd::fnma(n, batch(0.693359375f), t);  // t - n·ln 2, high part exact
  r = xsimd::fnma(n, batch(-2.12194440e-4f), r);     // ... low part
  const batch y = horner(r, batch(1.9875691500e-4f), 1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f,
                         1.6666665459e-1f, 5.0000001201e-1f);
  return times_pow2(xsimd::fma(y, r * r, r + batch(1.0f)), j);
}

// 2^x for x <= 0, x = -INFINITY giving exactly 0: the streaming forward's softmax, whose scores
// arrive in base-2 units (log2 e is folded into its packed queries). Against exp_nonpositive it
// needs no two-part ln 2 reduction (x - n is exact) and no multiply by 1/ln 2: about 20
// instead of 28 vector operations per 4 scores, ~1.35x the throughput on V8 (measured on an
// AMD EPYC, 64 x 64 tiles). Cephes' exp2f polynomial on [-0.5, 0.5] (about 2 ulp); rounding,
// 2^n and underflow as in exp_nonpositive: x is raised to -127, where 2^n is +0.
inline batch exp2_nonpositive(batch x) {
  x = xsimd::max(x, batch(-127.0f));  // -INFINITY too (callers pass no NaN)
  const batch magic(kRoundMagic);
  const batch j = x + magic;  // n = x rounded
  const batch f = x - (j - magic);  // in [-0.5, 0.5], exact
  const batch y = horner(f, batch(1.535336188319500e-4f), 1.339887440266574e-3f, 9.618437357674640e-3f,
                         5.550332471162809e-2f, 2.402264791363012e-1f, 6.931472028550421e-1f, 1.0f);
  return times_pow2(y, j);
}

// Name of the arch the kernels were compiled for ("avx2", "wasm", "emulated"...).
inline const char* simd_arch_name() { return xsimd::default_arch::name(); }
}  // namespace attn
