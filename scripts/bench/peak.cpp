// The WebAssembly SIMD ceiling of one core for the instruction mix of attention on wasm
// (SIMD128 has no fused multiply-add): f32x4 multiplies and adds in equal numbers, in 12
// independent dependency chains so that no latency, only the FP ports, limits the rate.
// 12 chains + 2 constants = 14 live v128 values, V8's register budget. Built by
// scripts/bench/build.sh with the project's toolchain (em++ -O3 -msimd128).
#include <emscripten/emscripten.h>
#include <wasm_simd128.h>

extern "C" {

// `iters` steps of 6 multiply chains (x *= b) and 6 add chains (y += c): 12·4 = 48 FLOP per
// step. Returns a lane sum so that the work cannot be optimised away. Call it many times with a
// moderate `iters`: V8 tiers a wasm function up to TurboFan between calls, never within one.
EMSCRIPTEN_KEEPALIVE float peak_mul_add(int iters, float seed) {
  v128_t x[6], y[6];
  for (int i = 0; i < 6; ++i) {
    x[i] = wasm_f32x4_splat(seed + 0.01f * float(i));
    y[i] = wasm_f32x4_splat(seed - 0.01f * float(i));
  }
  const v128_t b = wasm_f32x4_splat(0.9999999f), c = wasm_f32x4_splat(1e-7f);
#pragma clang loop unroll_count(4)  // loop overhead would take FP-port slots
  for (int it = 0; it < iters; ++it) {
    for (int i = 0; i < 6; ++i) {
      x[i] = wasm_f32x4_mul(x[i], b);
      y[i] = wasm_f32x4_add(y[i], c);
    }
  }
  v128_t sum = wasm_f32x4_add(x[0], y[0]);
  for (int i = 1; i < 6; ++i) sum = wasm_f32x4_add(sum, wasm_f32x4_add(x[i], y[i]));
  return wasm_f32x4_extract_lane(sum, 0) + wasm_f32x4_extract_lane(sum, 1) + wasm_f32x4_extract_lane(sum, 2) +
         wasm_f32x4_extract_lane(sum, 3);
}

// The classic form, for comparison: 12 chains of acc = acc·b + c (latency-bound where the
// add latency is long).
EMSCRIPTEN_KEEPALIVE float peak_fused_chains(int iters, float seed) {
  v128_t acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = wasm_f32x4_splat(seed + 0.01f * float(i));
  const v128_t b = wasm_f32x4_splat(0.9999999f), c = wasm_f32x4_splat(1e-7f);
#pragma clang loop unroll_count(4)
  for (int it = 0; it < iters; ++it)
    for (int i = 0; i < 12; ++i) acc[i] = wasm_f32x4_add(wasm_f32x4_mul(acc[i], b), c);
  v128_t sum = acc[0];
  for (int i = 1; i < 12; ++i) sum = wasm_f32x4_add(sum, acc[i]);
  return wasm_f32x4_extract_lane(sum, 0) + wasm_f32x4_extract_lane(sum, 1) + wasm_f32x4_extract_lane(sum, 2) +
         wasm_f32x4_extract_lane(sum, 3);
}

}  // extern "C"
