// xsimd kernels: one vector body up to `count - count % kLanes`, then a scalar tail.
// Each has a `_ref` twin in kernels_ref.cpp that states what it computes.
#include <cmath>

#include "attention.hpp"
#include "simd.hpp"

namespace attn {

bool all_finite(const float* x, std::size_t count) {
  // x - x is 0 for every finite x and NaN for NaN/±Inf; one NaN poisons the sum.
  batch acc(0.0f);
  std::size_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    batch b = batch::load_unaligned(x + i);
    acc += b - b;
  }
  float tail = 0.0f;
  for (; i < count; ++i) tail += x[i] - x[i];
  return xsimd::reduce_add(acc) + tail == 0.0f;
}

// dots (n×m) = q (n×d) · k (m×d)ᵀ
void matmul_qkt(const float* q, const float* k, int n, int m, int d, float* dots) {
  const std::size_t d_vec = static_cast<std::size_t>(d) - static_cast<std::size_t>(d) % kLanes;
  for (int i = 0; i < n; ++i) {
    const float* q_row = q + static_cast<std::size_t>(i) * d;
    for (int j = 0; j < m; ++j) {
      const float* k_row = k + static_cast<std::size_t>(j) * d;
      batch acc(0.0f);
      for (std::size_t c = 0; c < d_vec; c += kLanes)
        acc = xsimd::fma(batch::load_unaligned(q_row + c), batch::load_unaligned(k_row + c), acc);
      float sum = xsimd::reduce_add(acc);
      for (std::size_t c = d_vec; c < static_cast<std::size_t>(d); ++c) sum += q_row[c] * k_row[c];
      dots[static_cast<std::size_t>(i) * m + j] = sum;
    }
  }
}

// out (m) = softmax(z · inv_temperature). Returns max weight, writes entropy (nats).
float softmax_row(const float* z, int m, float inv_temperature, float* out, float* entropy) {
  const std::size_t count = static_cast<std::size_t>(m);
  const std::size_t m_vec = count - count % kLanes;

  // pass 1: row max
  batch max_b(-INFINITY);
  for (std::size_t j = 0; j < m_vec; j += kLanes) max_b = xsimd::max(max_b, batch::load_unaligned(z + j));
  float z_max = xsimd::reduce_max(max_b);
  for (std::size_t j = m_vec; j < count; ++j) z_max = std::fmax(z_max, z[j]);
  if (z_max == -INFINITY) {  // fully masked row: defined as all zeros
    for (std::size_t j = 0; j < count; ++j) out[j] = 0.0f;
    *entropy = 0.0f;
    return 0.0f;
  }

  // pass 2: e = exp((z - max)/T), Σe and Σ e·t (e = 0 terms skipped: t may be -INFINITY)
  const batch max_v(z_max), inv_t(inv_temperature), zero(0.0f);
  batch sum_b(0.0f), sum_et_b(0.0f);
  for (std::size_t j = 0; j < m_vec; j += kLanes) {
    batch t = (batch::load_unaligned(z + j) - max_v) * inv_t;
    batch e = xsimd::exp(t);
    e.store_unaligned(out + j);
    sum_b += e;
    sum_et_b += xsimd::select(e > zero, e * t, zero);
  }
  float sum = xsimd::reduce_add(sum_b), sum_et = xsimd::reduce_add(sum_et_b);
  for (std::size_t j = m_vec; j < count; ++j) {
    float t = (z[j] - z_max) * inv_temperature;
    float e = std::exp(t);
    out[j] = e;
    sum += e;
    if (e > 0.0f) sum_et += e * t;
  }

  // pass 3: normalise; max weight = 1/Σ since the max element has e = 1
  const float inv_sum = 1.0f / sum;
  const batch inv_sum_b(inv_sum);
  for (std::size_t j = 0; j < m_vec; j += kLanes) (batch::load_unaligned(out + j) * inv_sum_b).store_unaligned(out + j);
  for (std::size_t j = m_vec; j < count; ++j) out[j] *= inv_sum;
  *entropy = std::fmax(0.0f, std::log(sum) - sum_et * inv_sum);
  return inv_sum;
}

// out (n×dv) = w (n×m) · v (m×dv): each output row is Σⱼ wᵢⱼ · v_row(j), an axpy per key.
void matmul_pv(const float* w, const float* v, int n, int m, int dv, float* out) {
  const std::size_t width = static_cast<std::size_t>(dv);
  const std::size_t dv_vec = width - width % kLanes;
  for (int i = 0; i < n; ++i) {
    float* out_row = out + static_cast<std::size_t>(i) * width;
    for (std::size_t c = 0; c < width; ++c) out_row[c] = 0.0f;
    for (int j = 0; j < m; ++j) {
      const float w_ij = w[static_cast<std::size_t>(i) * m + j];
      if (w_ij == 0.0f) continue;  // masked or underflowed key: adds nothing
      const float* v_row = v + static_cast<std::size_t>(j) * width;
      const batch w_b(w_ij);
      for (std::size_t c = 0; c < dv_vec; c += kLanes)
        xsimd::fma(w_b, batch::load_unaligned(v_row + c), batch::load_unaligned(out_row + c)).store_unaligned(out_row + c);
      for (std::size_t c = dv_vec; c < width; ++c) out_row[c] += w_ij * v_row[c];
    }
  }
}

}  // namespace attn
