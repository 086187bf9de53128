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

#include <cstddef>
#include <cstdint>

namespace attn {

enum class Status : int32_t {
  ok = 0,
  invalid_shape = 1,     // n, m, d or dv out of range, or causal with n != m
  invalid_argument = 2,  // temperature / scale not positive and finite
  non_finite_input = 3,  // NaN or ±Inf in q, k, v (or NaN/+Inf in a mask or softmax input)
  overflow = 4,          // a score left the float32 range (q·k, scale·q·k or score/temperature)
};

// What went wrong, in words that name the argument and what was expected (NUL-terminated).
struct Error {
  Status status = Status::ok;
  char message[200] = {0};
};

// Records a printf-style message in `err` (when given) and returns false, so a check reads
// `if (bad) return fail(err, Status::..., "...", ...);`. Shared by every validating function.
bool fail(Error* err, Status status, const char* fmt, ...) noexcept
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

// A temperature must be positive and finite, and so must 1/T (it multiplies every score).
bool check_temperature(float temperature, Error* err);

struct AttentionShape {
  int n = 0, m = 0, d = 0, dv = 0;  // dv == 0: no V, no output
};

struct AttentionOptions {
  float scale = 1.0f;           // multiplies q·k; callers pass 1/√d for "scaled"
  float temperature = 1.0f;     // softmax(scores / temperature)
  bool causal = false;          // query i sees keys j <= i (needs n == m)
  const float* mask = nullptr;  // optional additive mask (n×m); -INFINITY hides a key
};

struct AttentionResult {
  float* dots;        // n×m
  float* scores;      // n×m
  float* weights;     // n×m
  float* output;      // n×dv, or nullptr when dv == 0
  float* entropy;     // n
  float* max_weight;  // n
  float* row_sum = nullptr;  // n, optional: Σⱼ of the row's float32 weights (1 up to rounding; 0 when fully masked)
};

// Largest sizes we accept; keeps n*m*4 bytes and the index arithmetic far from overflow.
constexpr int kMaxDim = 1 << 16;

// The default scale of scaled dot-product attention: 1/√d.
float inv_sqrt(int d);

// Checks shapes, options and that q, k, v (and the mask) hold only finite numbers
// (a mask may hold -INFINITY). Returns false and fills `err` on the first problem.
bool validate_attention(const float* q, const float* k, const float* v, AttentionShape shape,
                        const AttentionOptions& opt, Error* err);

// Fast (xsimd) path. Validates first; on failure returns false, fills `err` and leaves
// `out` unspecified. Also fails with Status::overflow instead of producing NaN.
bool attention_forward(const float* q, const float* k, const float* v, AttentionShape shape,
                       const AttentionOptions& opt, AttentionResult out, Error* err) noexcept;

// Streaming (online-softmax, FlashAttention-style) forward: only the output, never an n×m
// matrix, so memory is O((n + m)·(d + dv)) and n = m = 16,384 fits a 64 MB wasm heap.
//   output (n×dv) = softmax(scale · q kᵀ, causal: key j > query i hidden) · v
// Needs dv >= 1; n·m is not limited (each of q, k, v, output at most kMaxStreamingFloats).
// Same validation and errors as attention_forward; no temperature, no mask.
struct StreamingOptions {
  float scale = 1.0f;
  bool causal = false;
};
constexpr std::size_t kMaxStreamingFloats = std::size_t(1) << 28;  // 1 GiB per array
bool attention_streaming_forward(const float* q, const float* k, const float* v, AttentionShape shape,
                                 const StreamingOptions& opt, float* output, Error* err) noexcept;
// The same contract, one query and one key at a time (the specification; kernels_ref.cpp).
bool attention_streaming_forward_ref(const float* q, const float* k, const float* v, AttentionShape shape,
                                     const StreamingOptions& opt, float* output, Error* err) noexcept;
bool validate_streaming(const float* q, const float* k, const float* v, AttentionShape shape,
                        const StreamingOptions& opt, Error* err);

// Softmax of one row of m scores: out = softmax(z / temperature). -INFINITY entries get
// weight 0; an all -INFINITY row gives all zeros. NaN or +Inf input, or a temperature that
// is not positive and finite, fails with a message.
bool softmax(const float* z, int m, float temperature, float* out, Error* err) noexcept;

// ---- Kernels (no validation): each has a SIMD version (attention.cpp) and a scalar `_ref` twin
// ---- (attention_ref.cpp) that is the readable specification and the test oracle.

// true when all `count` values are finite (no NaN, no ±Inf)
bool all_finite(const float* x, std::size_t count);
bool all_finite_ref(const float* x, std::size_t count);

// dots (n×m) = q (n×d) · k (m×d)ᵀ
void matmul_qkt(const float* q, const float* k, int n, int m, int d, float* dots);
void matmul_qkt_ref(const float* q, const float* k, int n, int m, int d, float* dots);

// One row of scores (m): scale·dots + mask for keys j < visible, -INFINITY from `visible` on
// (causal) and where the mask is -INFINITY (mask may be nullptr). Returns false when a visible,
// unmasked score is not finite (scale·q·k + mask overflowed float32); the row is then unspecified.
bool scores_row(const float* dots, const float* mask, int m, int visible, float scale, float* scores);
bool scores_row_ref(const float* dots, const float* mask, int m, int visible, float scale, float* scores);

// One row: out = softmax(z · inv_temperature) over m entries, -INFINITY → 0.
// Returns the row's max weight; writes the entropy (nats) to *entropy.
float softmax_row(const float* z, int m, float inv_temperature, float* out, float* entropy);
float softmax_row_ref(const float* z, int m, float inv_temperature, float* out, float* entropy);

// out (n×dv) = w (n×m) · v (m×dv)
void matmul_pv(const float* w, const float* v, int n, int m, int dv, float* out);
void matmul_pv_ref(const float* w, const float* v, int n, int m, int dv, float* out);

// The building block of both matmuls and of the streaming forward: a strided matrix product
//   c (rows×cols, row stride ldc) = [c +] a · b,  a(r, p) = a[r·a_row + p·a_inner] (rows×depth),
//                                                 b (depth×cols, row stride ldb)
// `a` is read one element at a time (broadcast), so any layout of it is as fast: the streaming
// forward passes a transposed tile with a_row = 1. `accumulate` false overwrites c.
void gemm(const float* a, std::size_t a_row, std::size_t a_inner, const float* b, std::size_t ldb, float* c,
          std::size_t ldc, std::size_t rows, std::size_t cols, std::size_t depth, bool accumulate);
void gemm_ref(const float* a, std::size_t a_row, std::size_t a_inner, const float* b, std::size_t ldb, float* c,
              std::size_t ldc, std::size_t rows, std::size_t cols, std::size_t depth, bool accumulate);

// out (n×dv) = softmax(scale · q kᵀ) v without an n×m matrix (online softmax), no validation.
// Returns false and the position of a score (q·k or scale·q·k) that overflowed float32; out is
// then unspecified. The SIMD version tiles queries and keys (streaming.cpp); the `_ref` one
// walks one query and one key at a time (kernels_ref.cpp).
struct ScorePosition {
  int query = -1, key = -1;
};
bool attention_streaming(const float* q, const float* k, const float* v, int n, int m, int d, int dv, float scale,
                         bool causal, float* out, ScorePosition* overflow);
bool attention_streaming_ref(const float* q, const float* k, const float* v, int n, int m, int d, int dv, float scale,
                             bool causal, float* out, ScorePosition* overflow);

// Same contract as attention_forward, built from the `_ref` kernels only.
bool attention_forward_ref(const float* q, const float* k, const float* v, AttentionShape shape,
                           const AttentionOptions& opt, AttentionResult out, Error* err) noexcept;

}  // namespace attn
