// Scaled dot-product attention for one head, with every intermediate a view shows.
//
//   dots    = Q Kᵀ                                  (n×m)
//   scores  = scale · dots + mask   (masked: -INFINITY)  (n×m)
//   weights = softmax(scores / temperature), row-wise   (n×m)
//   output  = weights V                             (n×dv)
//   entropy[i]    = -Σⱼ wᵢⱼ ln wᵢⱼ  (nats)           (n)
//   max_weight[i] = maxⱼ wᵢⱼ                        (n)
//
// All arrays are row-major float32. Dimension names: n queries, m keys, d key width,
// dv value width. Nothing here allocates, throws or touches Emscripten: the same source
// builds natively (g++) and with em++ (SIMD and scalar WebAssembly).
//
// A fully masked row (every score -INFINITY: no key visible) has no distribution to speak
// of. We define its weights and output as all zeros, its entropy and max weight as 0 —
// never NaN. Such a row is the only way a row of weights can fail to sum to 1.
//
// The entry points the binding calls are noexcept: with Emscripten's JS-based exceptions a
// call that may throw goes through a JavaScript invoke_* trampoline (a JS round trip per call).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/check.hpp"

namespace attn {

struct AttentionShape {
  int n = 0, m = 0, d = 0, dv = 0;  // dv == 0: no V, no output
};

struct AttentionOptions {
  float scale = 1.0f;           // multiplies q·k; callers pass 1/√d for "scaled"
  float temperature = 1.0f;     // softmax(scores / temperature)
  bool causal = false;          // query i sees keys j <= i (needs n == m)
  Input mask;                   // optional additive mask (n×m); -INFINITY hides a key
};

struct AttentionResult {
  float* dots;        // n×m; ±INFINITY only where a hidden key's q·k leaves float32
  float* scores;      // n×m
  float* weights;     // n×m
  float* output;      // n×dv, or nullptr when dv == 0
  float* entropy;     // n
  float* max_weight;  // n
  float* row_sum = nullptr;  // n, optional: Σⱼ of the row's float32 weights (1 up to rounding; 0 when fully masked)
};

// Largest n, m, d, dv we accept. What a call may reserve is bounded by the memory budget
// (check.hpp), which keeps every index of its arrays below 2^28.
constexpr int kMaxDim = 1 << 16;

// The default scale of scaled dot-product attention: 1/√d.
float inv_sqrt(int d) noexcept;

// Checks shapes, the lengths of arrays that carry one (q n·d, k m·d, v m·dv, mask n·m), options,
// and that q, k, v (and the mask) hold only finite numbers (a mask may hold -INFINITY). Reads the
// inputs, writes nothing. Returns false and fills `err` on the first problem.
bool validate_attention(Input q, Input k, Input v, AttentionShape shape, const AttentionOptions& opt,
                        Error* err) noexcept;

// Fast (xsimd) path. Validates first; on failure returns false, fills `err` and leaves
// `out` unspecified. Fails with Status::overflow instead of returning Infinity or NaN: when a
// visible score (scale·q·k + mask, or score/temperature) or an output leaves float32. A hidden
// key's score is -INFINITY whatever its q·k (its dot is then ±INFINITY if q·k leaves float32).
bool attention_forward(const float* q, const float* k, const float* v, AttentionShape shape,
                       const AttentionOptions& opt, AttentionResult out, Error* err) noexcept;
// The same without validating again, for a caller that has just validated these very arguments
// (the binding, which reserves the outputs in between): at n = 16 a second pass over q, k and v
// would cost ~5 % of the call. Unvalidated arguments are undefined behaviour.
bool attention_forward_validated(const float* q, const float* k, const float* v, AttentionShape shape,
                                 const AttentionOptions& opt, AttentionResult out, Error* err) noexcept;

// Streaming (online-softmax, FlashAttention-style) forward: only the output, never an n×m
// matrix, so memory is O((n + m)·(d + dv)) and n = m = 16,384 fits a 64 MB wasm heap.
//   output (n×dv) = softmax(scale · q kᵀ, causal: key j > query i hidden) · v
// Needs dv >= 1; n·m is not limited (each of q, k, v and the output within the memory budget).
// Same validation and errors as attention_forward; no temperature, no mask. It adds up p·v before
// dividing by Σp, so an output overflows (Status::overflow) once |v| · m nears 3.4e38.
struct StreamingOptions {
  float scale = 1.0f;
  bool causal = false;
};
bool attention_streaming_forward(const float* q, const float* k, const float* v, AttentionShape shape,
                                 const StreamingOptions& opt, float* output, Error* err) noexcept;
bool attention_streaming_forward_validated(const float* q, const float* k, const float* v, AttentionShape shape,
                                           const StreamingOptions& opt, float* output, Error* err) noexcept;
// The same contract, one query and one key at a time (the specification; kernels_ref.cpp).
bool attention_streaming_forward_ref(const float* q, const float* k, const float* v, AttentionShape shape,
                                     const StreamingOptions& opt, float* output, Error* err) noexcept;
bool validate_streaming(Input q, Input k, Input v, AttentionShape shape, const StreamingOptions& opt,
                        Error* err) noexcept;

// Softmax of one row of m scores: out = softmax(z / temperature). -INFINITY entries get
// weight 0; an all -INFINITY row gives all zeros. NaN or +Inf input, or a temperature that
// is not positive and finite, fails with a message.
bool softmax(const float* z, int m, float temperature, float* out, Error* err) noexcept;
bool validate_softmax(const float* z, int m, float temperature, Error* err) noexcept;

// ---- Kernels (no validation): each has a SIMD version (kernels_simd.cpp, streaming.cpp) and a
// ---- scalar `_ref` twin (kernels_ref.cpp) that is the readable specification and the test oracle.

// true when all `count` values are finite (no NaN, no ±Inf)
bool all_finite(const float* x, std::size_t count) noexcept;
bool all_finite_ref(const float* x, std::size_t count) noexcept;

// dots (n×m) = q (n×d) · k (m×d)ᵀ
void matmul_qkt(const float* q, const float* k, int n, int m, int d, float* dots) noexcept;
void matmul_qkt_ref(const float* q, const float* k, int n, int m, int d, float* dots) noexcept;

// One row of scores (m): scale·dots + mask for keys j < visible, -INFINITY from `visible` on
// (causal) and where the mask is -INFINITY (mask may be nullptr). Returns false when a visible,
// unmasked score is not finite (scale·q·k + mask overflowed float32); the row is then unspecified.
bool scores_row(const float* dots, const float* mask, int m, int visible, float scale, float* scores) noexcept;
bool scores_row_ref(const float* dots, const float* mask, int m, int visible, float scale, float* scores) noexcept;

// One row: out = softmax(z · inv_temperature) over m entries, -INFINITY → 0.
// Returns the row's max weight; writes the entropy (nats) to *entropy. The sum of the exps is
// accumulated in double (in the SIMD twin, float32 blocks of 16 terms per lane are): a long row
// still sums to 1 within a few ulp.
float softmax_row(const float* z, int m, float inv_temperature, float* out, float* entropy) noexcept;
float softmax_row_ref(const float* z, int m, float inv_temperature, float* out, float* entropy) noexcept;

// The intermediates of softmax_row_ref, for a view that prints every step of one row.
struct SoftmaxTrace {
  float row_max = 0;         // max z (-INFINITY when every entry is)
  float* shifted = nullptr;  // m: (z − max) · inv_temperature ≤ 0
  float* exps = nullptr;     // m: exp(shifted)
  float sum = 0;             // Σ exps, rounded from its double sum
};
float softmax_row_ref(const float* z, int m, float inv_temperature, float* out, float* entropy,
                      SoftmaxTrace* trace) noexcept;

// t = (z − max) · inv_temperature ≤ 0, the exponent of one softmax entry. Where z − max itself
// leaves float32 (a row spanning more than 3.4e38), t is z·inv_t − max·inv_t instead: with a
// temperature above 1 it may still be small (softmax([2e38, −2e38], T = 3.4e38) = [0.76, 0.24]).
// Elsewhere the difference comes first: it is exact for nearby scores, where the two products
// would cancel. The SIMD twin does the same lane-wise.
inline float softmax_exponent(float z, float z_max, float inv_temperature) noexcept {
  const float diff = z - z_max;
  if (diff == -INFINITY && inv_temperature < 1.0f) return z * inv_temperature - z_max * inv_temperature;
  return diff * inv_temperature;
}

// The entropy −Σ p ln p of p = e / Σe with e = exp(t), from Σe and Σ e·t: ln p = t − ln Σe, so
// H = ln Σe − Σ(e·t)/Σe (clamped at 0 against rounding). The one formula of both softmax twins.
float softmax_entropy(double sum, double sum_et) noexcept;

// q·k of two rows of width d: in float32 summed left to right (what a view prints step by step),
// and in double (for statistics and for recomputing a float32 sum that overflowed).
float dot_ref(const float* a, const float* b, int d) noexcept;
double dot_f64(const float* a, const float* b, int d) noexcept;

// out (n×dv) = w (n×m) · v (m×dv)
void matmul_pv(const float* w, const float* v, int n, int m, int dv, float* out) noexcept;
void matmul_pv_ref(const float* w, const float* v, int n, int m, int dv, float* out) noexcept;

// The building block of both matmuls and of the streaming forward: a strided matrix product
//   c (rows×cols, row stride ldc) = [c +] a · b,  a(r, p) = a[r·a_row + p·a_inner] (rows×depth),
//                                                 b (depth×cols, row stride ldb)
// `a` is read one element at a time (broadcast), so any layout of it is as fast: the streaming
// forward passes a transposed tile with a_row = 1. `accumulate` false overwrites c.
void gemm(const float* a, std::size_t a_row, std::size_t a_inner, const float* b, std::size_t ldb, float* c,
          std::size_t ldc, std::size_t rows, std::size_t cols, std::size_t depth, bool accumulate) noexcept;
void gemm_ref(const float* a, std::size_t a_row, std::size_t a_inner, const float* b, std::size_t ldb, float* c,
              std::size_t ldc, std::size_t rows, std::size_t cols, std::size_t depth, bool accumulate) noexcept;

// The language model's GELU, tanh form: out (n) = 0.5·x·(1 + tanh(u)), u = √(2/π)(x + 0.044715x³).
// The SIMD version takes tanh from the vector exp (tanh|u| = (1 − e)/(1 + e), e = exp(−2|u|));
// the `_ref` one from std::tanh. Both are within 8ε·(|x| + |out|) of the float64 formula
// (tests/cpp/test_kernels.cpp, "gelu").
constexpr float kGeluScale = 0.7978845608028654f;  // √(2/π)
constexpr float kGeluCubic = 0.044715f;
void gelu(const float* x, std::size_t n, float* out) noexcept;
void gelu_ref(const float* x, std::size_t n, float* out) noexcept;

// out (n×dv) = softmax(scale · q kᵀ) v without an n×m matrix (online softmax), no validation.
// Returns false and the position of a score (q·k or scale·q·k) that overflowed float32, or with
// key −1 the query whose output did (Σ p·v is summed before it is divided by Σp, so |v|·m must
// fit float32); out is then unspecified. The SIMD version tiles queries and keys (streaming.cpp);
// the `_ref` one walks one query and one key at a time (kernels_ref.cpp).
struct ScorePosition {
  int query = -1, key = -1;
};
bool attention_streaming(const float* q, const float* k, const float* v, int n, int m, int d, int dv, float scale,
                         bool causal, float* out, ScorePosition* overflow) noexcept;
bool attention_streaming_ref(const float* q, const float* k, const float* v, int n, int m, int d, int dv, float scale,
                             bool causal, float* out, ScorePosition* overflow) noexcept;

// Same contract as attention_forward, built from the `_ref` kernels only.
bool attention_forward_ref(const float* q, const float* k, const float* v, AttentionShape shape,
                           const AttentionOptions& opt, AttentionResult out, Error* err) noexcept;

}  // namespace attn
