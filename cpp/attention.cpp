// Validation and the forward pipeline, shared by the SIMD and the `_ref` kernels.
#include "attention.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace attn {

bool fail(Error* err, Status status, const char* fmt, ...) noexcept {
  if (err) {
    err->status = status;
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(err->message, sizeof err->message, fmt, args);
    va_end(args);
  }
  return false;
}

bool check_temperature(float temperature, Error* err) {
  if (!(temperature > 0.0f) || !std::isfinite(temperature) || !std::isfinite(1.0f / temperature))
    return fail(err, Status::invalid_argument,
                "temperature must be a positive finite number (at least about 3e-39), got %g", temperature);
  return true;
}

namespace {

const char* describe(float x) { return std::isnan(x) ? "NaN" : (x > 0 ? "Infinity" : "-Infinity"); }

// Finds the first non-finite value of a rows×cols matrix and reports it by name and index.
bool check_finite(const char* name, const float* x, int rows, int cols, Error* err) {
  const std::size_t count = static_cast<std::size_t>(rows) * cols;
  if (all_finite(x, count)) return true;
  for (std::size_t idx = 0; idx < count; ++idx)
    if (!std::isfinite(x[idx]))
      return fail(err, Status::non_finite_input, "%s[%zu][%zu] is %s: %s must hold finite numbers", name,
                  idx / cols, idx % cols, describe(x[idx]), name);
  return true;
}

bool check_dim(const char* name, int value, int min, Error* err) {
  if (value < min || value > kMaxDim)
    return fail(err, Status::invalid_shape, "%s must be an integer from %d to %d, got %d", name, min, kMaxDim, value);
  return true;
}


// n, m, d at least 1; dv at least min_dv (0 where V is optional).
bool check_shape(AttentionShape s, int min_dv, Error* err) {
  return check_dim("n (number of queries)", s.n, 1, err) && check_dim("m (number of keys)", s.m, 1, err) &&
         check_dim("d (key width)", s.d, 1, err) && check_dim("dv (value width)", s.dv, min_dv, err);
}

bool check_causal_and_scale(AttentionShape s, bool causal, float scale, Error* err) {
  if (causal && s.n != s.m)
    return fail(err, Status::invalid_shape, "causal masking needs as many queries as keys (n == m), got n=%d, m=%d",
                s.n, s.m);
  if (!(scale > 0.0f) || !std::isfinite(scale))
    return fail(err, Status::invalid_argument, "scale must be a positive finite number, got %g", scale);
  return true;
}

struct Kernels {
  void (*qkt)(const float*, const float*, int, int, int, float*);
  bool (*scores)(const float*, const float*, int, int, float, float*);
  float (*softmax_row)(const float*, int, float, float*, float*);
  void (*pv)(const float*, const float*, int, int, int, float*);
};

bool forward(const Kernels& kern, const float* q, const float* k, const float* v, AttentionShape s,
             const AttentionOptions& opt, AttentionResult out, Error* err) {
  if (!validate_attention(q, k, v, s, opt, err)) return false;
  const std::size_t n = s.n, m = s.m;

  // pass 1: raw dot products; a non-finite one means |q|·|k| left float32
  kern.qkt(q, k, s.n, s.m, s.d, out.dots);
  if (!all_finite(out.dots, n * m))
    for (std::size_t idx = 0; idx < n * m; ++idx)
      if (!std::isfinite(out.dots[idx]))
        return fail(err, Status::overflow,
                    "q·k overflows float32 for query %zu, key %zu: the vectors are too large (|q|·|k| > 3.4e38)",
                    idx / m, idx % m);

  // pass 2: scores = scale·dots + mask, with -INFINITY where the causal or additive mask hides a key
  for (std::size_t i = 0; i < n; ++i) {
    const float* mask_row = opt.mask ? opt.mask + i * m : nullptr;
    const int visible = opt.causal ? static_cast<int>(i) + 1 : s.m;
    if (kern.scores(out.dots + i * m, mask_row, s.m, visible, opt.scale, out.scores + i * m)) continue;
    for (std::size_t j = 0; j < m; ++j) {  // find the overflow for the message
      const bool hidden = j >= static_cast<std::size_t>(visible) || (mask_row && mask_row[j] == -INFINITY);
      if (!hidden && !std::isfinite(out.scores[i * m + j]))
        return fail(err, Status::overflow, "the score of query %zu, key %zu (scale·q·k + mask) overflows float32",
                    i, j);
    }
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

  // pass 4: output = weights · V
  if (s.dv > 0 && out.output) kern.pv(out.weights, v, s.n, s.m, s.dv, out.output);
  return true;
}

}  // namespace

float inv_sqrt(int d) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(d))); }

bool validate_attention(const float* q, const float* k, const float* v, AttentionShape s, const AttentionOptions& opt,
                        Error* err) {
  if (!check_shape(s, 0, err)) return false;
  if (static_cast<long long>(s.n) * s.m > (1LL << 26))
    return fail(err, Status::invalid_shape, "n·m must be at most %lld, got %d·%d", 1LL << 26, s.n, s.m);
  if (!q || !k || (s.dv > 0 && !v)) return fail(err, Status::invalid_argument, "q, k (and v when dv > 0) are required");
  if (!check_causal_and_scale(s, opt.causal, opt.scale, err)) return false;
  if (!check_temperature(opt.temperature, err)) return false;
  if (!check_finite("q", q, s.n, s.d, err) || !check_finite("k", k, s.m, s.d, err)) return false;
  if (s.dv > 0 && !check_finite("v", v, s.m, s.dv, err)) return false;
  if (opt.mask) {
    const std::size_t count = static_cast<std::size_t>(s.n) * s.m;
    for (std::size_t idx = 0; idx < count; ++idx) {
      const float x = opt.mask[idx];
      if (std::isnan(x) || x == INFINITY)
        return fail(err, Status::non_finite_input,
                    "mask[%zu][%zu] is %s: a mask holds finite numbers or -Infinity (to hide a key)", idx / s.m,
                    idx % s.m, describe(x));
    }
  }
  return true;
}

bool validate_streaming(const float* q, const float* k, const float* v, AttentionShape s, const StreamingOptions& opt,
                        Error* err) {
  if (!check_shape(s, 1, err)) return false;
  const auto too_big = [](int rows, int cols) {
    return static_cast<unsigned long long>(rows) * cols > kMaxStreamingFloats;
  };
  if (too_big(s.n, s.d) || too_big(s.m, s.d) || too_big(s.m, s.dv) || too_big(s.n, s.dv))
    return fail(err, Status::invalid_shape, "q, k, v and the output must each hold at most %zu numbers (n=%d, m=%d, d=%d, dv=%d)",
                kMaxStreamingFloats, s.n, s.m, s.d, s.dv);
  if (!q || !k || !v) return fail(err, Status::invalid_argument, "q, k and v are required");
  if (!check_causal_and_scale(s, opt.causal, opt.scale, err)) return false;
  return check_finite("q", q, s.n, s.d, err) && check_finite("k", k, s.m, s.d, err) &&
         check_finite("v", v, s.m, s.dv, err);
}

bool softmax(const float* z, int m, float temperature, float* out, Error* err) noexcept {
  if (!check_dim("length of scores", m, 1, err) || !check_temperature(temperature, err)) return false;
  for (int j = 0; j < m; ++j)
    if (std::isnan(z[j]) || z[j] == INFINITY)
      return fail(err, Status::non_finite_input,
                  "scores[%d] is %s: scores must be finite numbers or -Infinity (a hidden entry)", j, describe(z[j]));
  float entropy;
  softmax_row(z, m, 1.0f / temperature, out, &entropy);
  return true;
}

bool attention_forward(const float* q, const float* k, const float* v, AttentionShape shape,
                       const AttentionOptions& opt, AttentionResult out, Error* err) noexcept {
  return forward({matmul_qkt, scores_row, softmax_row, matmul_pv}, q, k, v, shape, opt, out, err);
}

namespace {

using StreamingKernel = bool (*)(const float*, const float*, const float*, int, int, int, int, float, bool, float*,
                                 ScorePosition*);

bool streaming_forward(StreamingKernel kernel, const float* q, const float* k, const float* v, AttentionShape s,
                       const StreamingOptions& opt, float* output, Error* err) {
  if (!validate_streaming(q, k, v, s, opt, err)) return false;
  if (!output) return fail(err, Status::invalid_argument, "the output array is required");
  ScorePosition at;
  if (!kernel(q, k, v, s.n, s.m, s.d, s.dv, opt.scale, opt.causal, output, &at))
    return fail(err, Status::overflow,
                "the score of query %d, key %d (scale·q·k) overflows float32: the vectors are too large", at.query,
                at.key);
  return true;
}

}  // namespace

bool attention_streaming_forward(const float* q, const float* k, const float* v, AttentionShape shape,
                                 const StreamingOptions& opt, float* output, Error* err) noexcept {
  return streaming_forward(attention_streaming, q, k, v, shape, opt, output, err);
}

bool attention_streaming_forward_ref(const float* q, const float* k, const float* v, AttentionShape shape,
                                     const StreamingOptions& opt, float* output, Error* err) noexcept {
  return streaming_forward(attention_streaming_ref, q, k, v, shape, opt, output, err);
}

bool attention_forward_ref(const float* q, const float* k, const float* v, AttentionShape shape,
                           const AttentionOptions& opt, AttentionResult out, Error* err) noexcept {
  return forward({matmul_qkt_ref, scores_row_ref, softmax_row_ref, matmul_pv_ref}, q, k, v, shape, opt, out, err);
}

}  // namespace attn
