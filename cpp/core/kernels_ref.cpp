// Scalar reference kernels: the readable specification of every SIMD kernel and its test
// oracle. Kept naive on purpose; never deleted. Shapes as in attention.hpp.
#include <cmath>

#include "core/attention.hpp"

namespace attn {

bool all_finite_ref(const float* x, std::size_t count) noexcept {
  for (std::size_t i = 0; i < count; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

float dot_ref(const float* a, const float* b, int d) noexcept {
  float sum = 0.0f;
  for (int c = 0; c < d; ++c) sum += a[c] * b[c];
  return sum;
}

double dot_f64(const float* a, const float* b, int d) noexcept {
  double sum = 0.0;  // products of floats are exact in double and never overflow it (< 1.2e77)
  for (int c = 0; c < d; ++c) sum += static_cast<double>(a[c]) * b[c];
  return sum;
}

// dots (n×m) = q (n×d) · k (m×d)ᵀ
void matmul_qkt_ref(const float* q, const float* k, int n, int m, int d, float* dots) noexcept {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      dots[static_cast<std::size_t>(i) * m + j] =
          dot_ref(q + static_cast<std::size_t>(i) * d, k + static_cast<std::size_t>(j) * d, d);
}

// scores (m) = scale·dots + mask, -INFINITY for j >= visible or mask -INFINITY
bool scores_row_ref(const float* dots, const float* mask, int m, int visible, float scale, float* scores) noexcept {
  bool finite = true;
  for (int j = 0; j < m; ++j) {
    const bool hidden = j >= visible || (mask && mask[j] == -INFINITY);
    scores[j] = hidden ? -INFINITY : scale * dots[j] + (mask ? mask[j] : 0.0f);
    if (!hidden && !std::isfinite(scores[j])) finite = false;
  }
  return finite;
}

float softmax_entropy(double sum, double sum_et) noexcept {
  // in float32 from here: a double log or division costs more than the rest of a short row's
  // softmax in wasm, and the entropy is float32 anyway
  const float sum_f = static_cast<float>(sum);
  return std::fmax(0.0f, std::log(sum_f) - static_cast<float>(sum_et) / sum_f);
}

// out (m) = softmax(z · inv_temperature). Returns max weight, writes entropy (nats).
float softmax_row_ref(const float* z, int m, float inv_temperature, float* out, float* entropy) noexcept {
  return softmax_row_ref(z, m, inv_temperature, out, entropy, nullptr);
}

float softmax_row_ref(const float* z, int m, float inv_temperature, float* out, float* entropy,
                      SoftmaxTrace* trace) noexcept {
  // pass 1: the row max; -INFINITY everywhere means no key is visible
  float z_max = -INFINITY;
  for (int j = 0; j < m; ++j) z_max = std::fmax(z_max, z[j]);
  if (trace) trace->row_max = z_max;
  if (z_max == -INFINITY) {
    for (int j = 0; j < m; ++j) out[j] = 0.0f;
    if (trace) {
      for (int j = 0; j < m; ++j) trace->shifted[j] = -INFINITY, trace->exps[j] = 0.0f;
      trace->sum = 0.0f;
    }
    *entropy = 0.0f;
    return 0.0f;
  }
  // pass 2: t = (z - max)/T <= 0 (softmax_exponent), so exp(t) cannot overflow; Σe and Σ e·t in double, so that a
  // long row still sums to 1 (in float32, 65,536 terms drift by ~1e-4)
  double sum = 0.0, sum_et = 0.0;
  for (int j = 0; j < m; ++j) {
    const float t = softmax_exponent(z[j], z_max, inv_temperature);
    const float e = std::exp(t);
    if (trace) trace->shifted[j] = t, trace->exps[j] = e;
    out[j] = e;
    sum += e;
    if (e > 0.0f) sum_et += static_cast<double>(e) * t;  // skip e = 0: t may be -INFINITY there
  }
  // pass 3: normalise, e ÷ Σ as the formula says (the SIMD twin multiplies by 1/Σ, within an ulp;
  // divided, the weights a view prints add up to 1 more often). The max element has e = 1, so
  // max weight = 1/Σ.
  const float inv_sum = static_cast<float>(1.0 / sum);
  for (int j = 0; j < m; ++j) out[j] = static_cast<float>(out[j] / sum);
  if (trace) trace->sum = static_cast<float>(sum);
  *entropy = softmax_entropy(sum, sum_et);
  return inv_sum;
}

// out (n×dv) = w (n×m) · v (m×dv)
void matmul_pv_ref(const float* w, const float* v, int n, int m, int dv, float* out) noexcept {
  for (int i = 0; i < n; ++i) {
    float* out_row = out + static_cast<std::size_t>(i) * dv;
    for (int c = 0; c < dv; ++c) out_row[c] = 0.0f;
    for (int j = 0; j < m; ++j) {
      float w_ij = w[static_cast<std::size_t>(i) * m + j];
      const float* v_row = v + static_cast<std::size_t>(j) * dv;
      for (int c = 0; c < dv; ++c) out_row[c] += w_ij * v_row[c];
    }
  }
}

// c (rows×cols, stride ldc) = [c +] a (rows×depth, a(r,p) = a[r·a_row + p·a_inner]) · b (depth×cols, stride ldb)
void gemm_ref(const float* a, std::size_t a_row, std::size_t a_inner, const float* b, std::size_t ldb, float* c,
              std::size_t ldc, std::size_t rows, std::size_t cols, std::size_t depth, bool accumulate) noexcept {
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t col = 0; col < cols; ++col) {
      float sum = 0.0f;
      for (std::size_t p = 0; p < depth; ++p) sum += a[r * a_row + p * a_inner] * b[p * ldb + col];
      c[r * ldc + col] = accumulate ? c[r * ldc + col] + sum : sum;
    }
  }
}

// out (n×dv) = softmax(scale · q kᵀ) v, row by row with a running max and sum (online softmax):
// when a larger score arrives, everything accumulated so far is rescaled by exp(old - new).
bool attention_streaming_ref(const float* q, const float* k, const float* v, int n, int m, int d, int dv, float scale,
                             bool causal, float* out, ScorePosition* overflow) noexcept {
  for (int i = 0; i < n; ++i) {
    const float* q_row = q + static_cast<std::size_t>(i) * d;
    float* out_row = out + static_cast<std::size_t>(i) * dv;
    for (int c = 0; c < dv; ++c) out_row[c] = 0.0f;
    float row_max = -INFINITY;
    double row_sum = 0.0;  // in double: a long row must not drift (see softmax_row_ref)
    const int visible = causal ? i + 1 : m;
    for (int j = 0; j < visible; ++j) {
      const float score = scale * dot_ref(q_row, k + static_cast<std::size_t>(j) * d, d);
      if (!std::isfinite(score)) {
        *overflow = {i, j};
        return false;
      }
      if (score > row_max) {  // rescale what was summed against the old max
        const float correction = std::exp(row_max - score);  // exp(-inf) = 0 on the first key
        row_sum *= correction;
        for (int c = 0; c < dv; ++c) out_row[c] *= correction;
        row_max = score;
      }
      const float p = std::exp(score - row_max);
      row_sum += p;
      const float* v_row = v + static_cast<std::size_t>(j) * dv;
      for (int c = 0; c < dv; ++c) out_row[c] += p * v_row[c];
    }
    const float inv_sum = row_sum > 0.0 ? static_cast<float>(1.0 / row_sum) : 0.0f;  // no visible key: zeros
    for (int c = 0; c < dv; ++c) out_row[c] *= inv_sum;
    if (!all_finite_ref(out_row, static_cast<std::size_t>(dv))) {  // Σ p·v overflowed: |v|·m beyond float32
      *overflow = {i, -1};
      return false;
    }
  }
  return true;
}

void gelu_ref(const float* x, std::size_t n, float* out) noexcept {
  for (std::size_t i = 0; i < n; ++i) out[i] = 0.5f * x[i] * (1.0f + std::tanh(kGeluScale * (x[i] + kGeluCubic * x[i] * x[i] * x[i])));
}

}  // namespace attn
