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

// Name of the arch the kernels were compiled for ("avx2", "wasm", "emulated"...).
inline const char* simd_arch_name() { return xsimd::default_arch::name(); }
}  // namespace attn
