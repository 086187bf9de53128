// Validation and the forward pipeline, shared by the SIMD and the `_ref` kernels.
#include "core/attention.hpp"

#include <cfloat>
#include <cmath>

namespace attn {

namespace {

// n, m, d at least 1; dv at least min_dv (0 where V is optional); causal needs n == m.
bool check_shape(AttentionShape s, int min_dv, bool causal, Error* err) noexcept {
  if (!check_dim("n (number of queries)", s.n, 1, kMaxDim, err) ||
      !check_dim("m (number of keys)", s.m, 1, kMaxDim, err) || !check_dim("d (key width)", s.d, 1, kMaxDim, err) ||
      !check_dim("dv (value width)", s.dv, min_dv, kMaxDim, err))
    return false;
  if (causal && s.n != s.m)
    return fail(err, Status::invalid_shape, "causal masking needs as many queries as keys (n == m), got n=%d, m=%d",
                s.n, s.m);
  return true;
}

// q (n×d), k (m×d) and v (m×dv) given, of the shape's lengths, finite.
bool check_qkv(Input q, Input k, Input v, AttentionShape s, Error* err) noexcept {
  const std::uint64_t n = s.n, m = s.m, d = s.d, dv = s.dv;
  if (!check_length("q", q, n * d, "n·d", err) || !check_length("k", k, m * d, "m·d", err)) return false;
  if (dv > 0 && !check_length("v", v, m * dv, "m·dv", err)) return false;
  return check_finite("q", q.data, n, d, err) && check_finite("k", k.data, m, d, err) &&
         (dv == 0 || check_finite("v", v.data, m, dv, err));
}

// The index of the first non-finite value of x, for a message.
std::size_t first_non_finite(const float* x, std::size_t count) noexcept {
  std::size_t idx = 0;
  while (idx < count && std::isfinite(x[idx])) ++idx;
  return idx;
}

// A double as float32, ±INFINITY beyond its range (a plain conversion would be undefined there).
float saturate_to_float(double x) noexcept {
  if (std::fabs(x) > FLT_MAX) return x > 0 ? INFINITY : -INFINITY;
  return static_cast<float>(x);
}

// noexcept in the types too: a call through a pointer that may throw would go through a
// JavaScript invoke_* trampoline in the wasm builds (Emscripten's exceptions), a round trip each.
struct Kernels {
  void (*qkt)(const float*, const float*, int, int, int, float*) noexcept;
  bool (*scores)(const float*, const float*, int, int, float, float*) noexcept;
  float (*softmax_row)(const float*, int, float, float*, float*) noexcept;
  void (*pv)(const float*, const float*, int, int, int, float*) noexcept;
};

// The forward passes on validated arguments.
bool forward(const Kernels& kern, const float* q, const float* k, const float* v, AttentionShape s,
             const AttentionOptions& opt, AttentionResult out, Error* err) noexcept {
  const std::size_t n = s.n, m = s.m, d = s.d, dv = s.dv;

  // pass 1: raw dot products. A float32 sum can overflow (±Inf, or NaN from Inf − Inf) where q·k
  // itself fits, or does not fit at all: such a dot is recomputed in double, so a view gets the
  // true q·k, ±Infinity only where it leaves float32. Pass 2 fails the call for a visible key;
  // a hidden key's score is -Infinity whatever its dot (as in the streaming forward).
  kern.qkt(q, k, s.n, s.m, s.d, out.dots);
  if (!all_finite(out.dots, n * m))
    for (std::size_t idx = 0; idx < n * m; ++idx)
      if (!std::isfinite(out.dots[idx]))
        out.dots[idx] = saturate_to_float(dot_f64(q + idx / m * d, k + idx % m * d, s.d));

  // pass 2: scores = scale·dots + mask, with -INFINITY where the causal or additive mask hides a key
  for (std::size_t i = 0; i < n; ++i) {
    const float* mask_row = opt.mask ? opt.mask.data + i * m : nullptr;
    const int visible = opt.causal ? static_cast<int>(i) + 1 : s.m;
    if (kern.scores(out.dots + i * m, mask_row, s.m, visible, opt.scale, out.scores + i * m)) continue;
    const std::size_t j = first_non_finite(out.scores + i * m, static_cast<std::size_t>(visible));
    return fail(err, Status::overflow,
                "the score of query %zu, key %zu (scale·q·k + mask) overflows float32: the vectors are too large "
                "(|q|·|k| > 3.4e38)",
                i + 1, j + 1);  // counted from 1, as every message counts rows
  }

  // pass 3: row-wise softmax(scores / T) with entropy and max weight
  const float inv_t = 1.0f / opt.temperature;
  for (std::size_t i = 0; i < n; ++i)
    out.max_weight[i] = kern.softmax_row(out.scores + i * m, s.m, inv_t, out.weights + i * m, out.entropy + i);
  if (out.row_sum)  // what the shown weights add up to, summed in double so the Σ a view prints is exact
    for (std::size_t i = 0; i < n; ++i) {
      double sum = 0.0;
      for (std::size_t j = 0; j < m; ++j) sum += out.weights[i * m + j];
      out.row_sum[i] = static_cast<float>(sum);
    }

  // pass 4: output = weights · V. Each output is a convex combination of v's rows, so only float32
  // rounding near the limit (|v| ≈ 3.4e38) can overflow it.
  if (dv > 0 && out.output) {
    kern.pv(out.weights, v, s.n, s.m, s.dv, out.output);
    return check_result("output", out.output, n, dv, "v holds numbers too close to the float32 limit (3.4e38)", err);
  }
  return true;
}

}  // namespace

float inv_sqrt(int d) noexcept { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(d))); }

bool validate_attention(Input q, Input k, Input v, AttentionShape s, const AttentionOptions& opt, Error* err) noexcept {
  if (!check_shape(s, 0, opt.causal, err) || !check_positive("scale", opt.scale, FLT_MAX, err) ||
      !check_temperature(opt.temperature, err) || !check_qkv(q, k, v, s, err))
    return false;
  if (!opt.mask) return true;
  const std::uint64_t n = s.n, m = s.m;
  return check_length("mask", opt.mask, n * m, "n·m", err) &&
         check_values("mask", opt.mask.data, n * m, m, Values::finite_or_hidden, err);
}

bool validate_streaming(Input q, Input k, Input v, AttentionShape s, const StreamingOptions& opt, Error* err) noexcept {
  // each array must fit the budget: the kernel's index arithmetic relies on it (32-bit size_t in wasm)
  const std::uint64_t n = s.n, m = s.m, d = s.d, dv = s.dv;
  return check_shape(s, 1, opt.causal, err) && check_positive("scale", opt.scale, FLT_MAX, err) &&
         check_size("q", n * d, err) && check_size("k", m * d, err) && check_size("v", m * dv, err) &&
         check_size("the output", n * dv, err) && check_qkv(q, k, v, s, err);
}

bool validate_softmax(const float* z, int m, float temperature, Error* err) noexcept {
  return check_dim("the number of scores", m, 1, kMaxDim, err) && check_temperature(temperature, err) &&
         check_values("scores", z, static_cast<std::size_t>(m), 0, Values::finite_or_hidden, err);
}

bool softmax(const float* z, int m, float temperature, float* out, Error* err) noexcept {
  if (!validate_softmax(z, m, temperature, err)) return false;
  float entropy;
  softmax_row(z, m, 1.0f / temperature, out, &entropy);
  return true;
}

bool attention_forward(const float* q, const float* k, const float* v, AttentionShape shape,
                       const AttentionOptions& opt, AttentionResult out, Error* err) noexcept {
  return validate_attention(q, k, v, shape, opt, err) &&
         forward({matmul_qkt, scores_row, softmax_row, matmul_pv}, q, k, v, shape, opt, out, err);
}

bool attention_forward_validated(const float* q, const float* k, const float* v, AttentionShape shape,
                                 const AttentionOptions& opt, AttentionResult out, Error* err) noexcept {
  return forward({matmul_qkt, scores_row, softmax_row, matmul_pv}, q, k, v, shape, opt, out, err);
}

namespace {

using StreamingKernel = bool (*)(const float*, const float*, const float*, int, int, int, int, float, bool, float*,
                                 ScorePosition*) noexcept;

// The streaming kernel on validated arguments.
bool streaming_forward(StreamingKernel kernel, const float* q, const float* k, const float* v, AttentionShape s,
                       const StreamingOptions& opt, float* output, Error* err) noexcept {
  if (!output) return fail(err, Status::invalid_argument, "the output array is required");
  ScorePosition at;
  if (kernel(q, k, v, s.n, s.m, s.d, s.dv, opt.scale, opt.causal, output, &at)) return true;
  if (at.key < 0)  // the kernel adds up p·v (p ≤ 1) before it divides by Σp: |v|·m must fit float32
    return fail(err, Status::overflow,
                "the output of query %d overflows float32: the streaming forward adds up p·v before dividing by "
                "Σp, so |v| must stay below about 3.4e38 / m",
                at.query + 1);
  return fail(err, Status::overflow,
              "the score of query %d, key %d (scale·q·k) overflows float32: the vectors are too large", at.query + 1,
              at.key + 1);
}

}  // namespace

bool attention_streaming_forward(const float* q, const float* k, const float* v, AttentionShape shape,
                                 const StreamingOptions& opt, float* output, Error* err) noexcept {
  return validate_streaming(q, k, v, shape, opt, err) &&
         streaming_forward(attention_streaming, q, k, v, shape, opt, output, err);
}

bool attention_streaming_forward_validated(const float* q, const float* k, const float* v, AttentionShape shape,
                                           const StreamingOptions& opt, float* output, Error* err) noexcept {
  return streaming_forward(attention_streaming, q, k, v, shape, opt, output, err);
}

bool attention_streaming_forward_ref(const float* q, const float* k, const float* v, AttentionShape shape,
                                     const StreamingOptions& opt, float* output, Error* err) noexcept {
  return validate_streaming(q, k, v, shape, opt, err) &&
         streaming_forward(attention_streaming_ref, q, k, v, shape, opt, output, err);
}

bool attention_forward_ref(const float* q, const float* k, const float* v, AttentionShape shape,
                           const AttentionOptions& opt, AttentionResult out, Error* err) noexcept {
  const auto softmax_ref = [](const float* z, int m, float inv_t, float* p, float* entropy) noexcept {
    return softmax_row_ref(z, m, inv_t, p, entropy);
  };
  return validate_attention(q, k, v, shape, opt, err) &&
         forward({matmul_qkt_ref, scores_row_ref, softmax_ref, matmul_pv_ref}, q, k, v, shape, opt, out, err);
}

}  // namespace attn
