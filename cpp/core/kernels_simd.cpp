// xsimd kernels: one vector body up to `count - count % kLanes`, then a scalar tail.
// Each has a `_ref` twin in kernels_ref.cpp that states what it computes.
#include <algorithm>
#include <cmath>

#include "core/attention.hpp"
#include "core/simd.hpp"

namespace attn {

bool all_finite(const float* x, std::size_t count) noexcept {
  // x - x is 0 for every finite x and NaN for NaN/±Inf; one NaN poisons the sum. Four
  // accumulators: one would wait on the add latency every vector (validation of q, k, v was
  // ~15% of a call at n = 16).
  batch acc0(0.0f), acc1(0.0f), acc2(0.0f), acc3(0.0f);
  std::size_t i = 0;
  for (; i + 4 * kLanes <= count; i += 4 * kLanes) {
    const batch b0 = batch::load_unaligned(x + i), b1 = batch::load_unaligned(x + i + kLanes);
    const batch b2 = batch::load_unaligned(x + i + 2 * kLanes), b3 = batch::load_unaligned(x + i + 3 * kLanes);
    acc0 += b0 - b0;
    acc1 += b1 - b1;
    acc2 += b2 - b2;
    acc3 += b3 - b3;
  }
  for (; i + kLanes <= count; i += kLanes) {
    const batch b = batch::load_unaligned(x + i);
    acc0 += b - b;
  }
  float tail = 0.0f;
  for (; i < count; ++i) tail += x[i] - x[i];
  return xsimd::reduce_add((acc0 + acc1) + (acc2 + acc3)) + tail == 0.0f;
}

// ---- register-blocked matrix product -------------------------------------------------------
// Why this shape: V8 keeps ~14 live v128 values in registers. A tile of kRowsPerTile rows ×
// kVecsPerTile vectors keeps 8 accumulators + 4 loaded b vectors + 1 broadcast a = 13 live, so
// nothing spills, and no horizontal sum is taken anywhere. 2 rows × 4 vectors rather than
// 4 × 2: each step has 2 broadcasts instead of 4, and a broadcast of a[r·a_row] (a runtime
// stride) costs V8 an address computation besides the load, while the b vectors are at constant
// offsets: fewer instructions per mul+add (measured: docs/performance.md, "What was built", 10).
constexpr std::size_t kRowsPerTile = 2;
constexpr std::size_t kVecsPerTile = 4;
constexpr std::size_t kTileCols = kVecsPerTile * kLanes;  // 16 on wasm, 32 on AVX2

namespace {

// c (ROWS × VECS·kLanes) = [c +] a (ROWS × depth, strides a_row/a_inner) · b (depth × VECS·kLanes, stride ldb)
template <std::size_t ROWS, std::size_t VECS>
void gemm_tile(const float* a, std::size_t a_row, std::size_t a_inner, const float* b, std::size_t ldb, float* c,
               std::size_t ldc, std::size_t depth, bool accumulate) noexcept {
  batch acc[ROWS][VECS];
  for (std::size_t r = 0; r < ROWS; ++r)
    for (std::size_t v = 0; v < VECS; ++v) acc[r][v] = batch(0.0f);
  // Pointer bumps, not p·stride products: integer ops share the ports the FP ops need, and
  // unrolling by 2 halves the loop overhead (measured: docs/performance.md, "What was built", 1).
  const float* const a_end = a + depth * a_inner;
#if defined(__clang__)  // em++; g++ unrolls on its own and warns about the pragma
#pragma clang loop unroll_count(2)
#endif
  for (; a != a_end; a += a_inner, b += ldb) {
    batch b_vec[VECS];
    for (std::size_t v = 0; v < VECS; ++v) b_vec[v] = batch::load_unaligned(b + v * kLanes);
    for (std::size_t r = 0; r < ROWS; ++r) {
      const batch a_rp(a[r * a_row]);  // a load-splat on wasm
      for (std::size_t v = 0; v < VECS; ++v) acc[r][v] = xsimd::fma(a_rp, b_vec[v], acc[r][v]);
    }
  }
  for (std::size_t r = 0; r < ROWS; ++r) {
    for (std::size_t v = 0; v < VECS; ++v) {
      float* c_rv = c + r * ldc + v * kLanes;
      if (accumulate) acc[r][v] += batch::load_unaligned(c_rv);
      acc[r][v].store_unaligned(c_rv);
    }
  }
}

// The row tail (rows < kRowsPerTile) picks a smaller instantiation of the same tile.
template <std::size_t VECS>
void gemm_tile_rows(std::size_t rows, const float* a, std::size_t a_row, std::size_t a_inner, const float* b,
                    std::size_t ldb, float* c, std::size_t ldc, std::size_t depth, bool accumulate) noexcept {
  static_assert(kRowsPerTile == 2, "the branch below lists every row count");
  if (rows == 2)
    gemm_tile<2, VECS>(a, a_row, a_inner, b, ldb, c, ldc, depth, accumulate);
  else
    gemm_tile<1, VECS>(a, a_row, a_inner, b, ldb, c, ldc, depth, accumulate);
}

}  // namespace

// c (rows×cols) = [c +] a (rows×depth) · b (depth×cols): SIMD tiles of kTileCols columns, one of
// kLanes columns, then a scalar tail for the last cols % kLanes columns.
void gemm(const float* a, std::size_t a_row, std::size_t a_inner, const float* b, std::size_t ldb, float* c,
          std::size_t ldc, std::size_t rows, std::size_t cols, std::size_t depth, bool accumulate) noexcept {
  const std::size_t cols_tiled = cols - cols % kTileCols;
  const std::size_t cols_vec = cols - cols % kLanes;
  for (std::size_t r0 = 0; r0 < rows; r0 += kRowsPerTile) {
    const std::size_t tile_rows = std::min(kRowsPerTile, rows - r0);
    const float* a_r = a + r0 * a_row;
    float* c_r = c + r0 * ldc;
    for (std::size_t c0 = 0; c0 < cols_tiled; c0 += kTileCols)
      gemm_tile_rows<kVecsPerTile>(tile_rows, a_r, a_row, a_inner, b + c0, ldb, c_r + c0, ldc, depth, accumulate);
    for (std::size_t c0 = cols_tiled; c0 < cols_vec; c0 += kLanes)
      gemm_tile_rows<1>(tile_rows, a_r, a_row, a_inner, b + c0, ldb, c_r + c0, ldc, depth, accumulate);
    for (std::size_t r = 0; r < tile_rows; ++r) {
      for (std::size_t col = cols_vec; col < cols; ++col) {
        float sum = accumulate ? c_r[r * ldc + col] : 0.0f;
        for (std::size_t p = 0; p < depth; ++p) sum += a_r[r * a_row + p * a_inner] * b[p * ldb + col];
        c_r[r * ldc + col] = sum;
      }
    }
  }
}

namespace {
// dots (m) = q_row (d) · k (m×d)ᵀ, key row by key row: four keys a pass share each load of q
// (4 accumulators + 1 q + 4 k vectors live), lanes along d, one horizontal sum per key.
void dot_key_rows(const float* q_row, const float* k, std::size_t m, std::size_t d, float* dots) noexcept {
  const std::size_t d_vec = d - d % kLanes;
  std::size_t j = 0;
  for (; j + 4 <= m; j += 4) {
    const float* k0 = k + j * d;
    const float *k1 = k0 + d, *k2 = k1 + d, *k3 = k2 + d;
    batch s0(0.0f), s1(0.0f), s2(0.0f), s3(0.0f);
    for (std::size_t p = 0; p < d_vec; p += kLanes) {
      const batch qv = batch::load_unaligned(q_row + p);
      s0 = xsimd::fma(qv, batch::load_unaligned(k0 + p), s0);
      s1 = xsimd::fma(qv, batch::load_unaligned(k1 + p), s1);
      s2 = xsimd::fma(qv, batch::load_unaligned(k2 + p), s2);
      s3 = xsimd::fma(qv, batch::load_unaligned(k3 + p), s3);
    }
    float r0 = xsimd::reduce_add(s0), r1 = xsimd::reduce_add(s1), r2 = xsimd::reduce_add(s2), r3 = xsimd::reduce_add(s3);
    for (std::size_t p = d_vec; p < d; ++p) {
      r0 += q_row[p] * k0[p], r1 += q_row[p] * k1[p];
      r2 += q_row[p] * k2[p], r3 += q_row[p] * k3[p];
    }
    dots[j] = r0, dots[j + 1] = r1, dots[j + 2] = r2, dots[j + 3] = r3;
  }
  for (; j < m; ++j) {
    const float* k_row = k + j * d;
    batch s(0.0f);
    for (std::size_t p = 0; p < d_vec; p += kLanes) s = xsimd::fma(batch::load_unaligned(q_row + p), batch::load_unaligned(k_row + p), s);
    float r = xsimd::reduce_add(s);
    for (std::size_t p = d_vec; p < d; ++p) r += q_row[p] * k_row[p];
    dots[j] = r;
  }
}
}  // namespace

// dots (n×m) = q (n×d) · k (m×d)ᵀ
// Each panel of kTileCols keys is transposed once into a small stack buffer (d in chunks of
// kDepthChunk) so that keys lie along the vector lanes; then every query row streams past it.
// A single query row (the language model's next word: one row against its 12,000 words) would
// use each panel once, and transposing it costs as much as the products: it takes its key rows
// as they lie instead (docs/model.md, "Speed").
void matmul_qkt(const float* q, const float* k, int n, int m, int d, float* dots) noexcept {
  constexpr std::size_t kDepthChunk = 256;  // panel buffer: 256 × 16 floats = 16 KB on wasm (32 KB on AVX2)
  const std::size_t rows = static_cast<std::size_t>(n), keys = static_cast<std::size_t>(m),
                    width = static_cast<std::size_t>(d);
  if (rows == 1) return dot_key_rows(q, k, keys, width, dots);
  float panel[kDepthChunk * kTileCols];
  for (std::size_t j0 = 0; j0 < keys; j0 += kTileCols) {
    const std::size_t cols = std::min(kTileCols, keys - j0);
    for (std::size_t c0 = 0; c0 < width; c0 += kDepthChunk) {
      const std::size_t depth = std::min(kDepthChunk, width - c0);
      for (std::size_t jj = 0; jj < cols; ++jj) {
        const float* k_row = k + (j0 + jj) * width + c0;
        for (std::size_t p = 0; p < depth; ++p) panel[p * cols + jj] = k_row[p];
      }
      gemm(q + c0, width, 1, panel, cols, dots + j0, keys, rows, cols, depth, c0 > 0);
    }
  }
}

// scores (m) = scale·dots + mask, -INFINITY for j >= visible or mask -INFINITY.
// Finite check without branches: s - s is 0 for finite s and NaN for ±Inf; hidden keys add 0.
bool scores_row(const float* dots, const float* mask, int m, int visible, float scale, float* scores) noexcept {
  const std::size_t count = static_cast<std::size_t>(m), shown = static_cast<std::size_t>(visible);
  const std::size_t shown_vec = shown - shown % kLanes;
  const batch scale_b(scale), minus_inf(-INFINITY), zero(0.0f);
  batch check(0.0f);
  std::size_t j = 0;
  if (mask) {
    for (; j < shown_vec; j += kLanes) {
      const batch mask_b = batch::load_unaligned(mask + j);
      const auto hidden = mask_b == minus_inf;
      const batch s = xsimd::select(hidden, minus_inf, xsimd::fma(batch::load_unaligned(dots + j), scale_b, mask_b));
      check += xsimd::select(hidden, zero, s - s);
      s.store_unaligned(scores + j);
    }
  } else {
    for (; j < shown_vec; j += kLanes) {
      const batch s = batch::load_unaligned(dots + j) * scale_b;
      check += s - s;
      s.store_unaligned(scores + j);
    }
  }
  float tail_check = 0.0f;
  for (; j < shown; ++j) {
    const bool hidden = mask && mask[j] == -INFINITY;
    scores[j] = hidden ? -INFINITY : scale * dots[j] + (mask ? mask[j] : 0.0f);
    if (!hidden) tail_check += scores[j] - scores[j];
  }
  for (; j < count; ++j) scores[j] = -INFINITY;
  return xsimd::reduce_add(check) + tail_check == 0.0f;
}

// out (m) = softmax(z · inv_temperature). Returns max weight, writes entropy (nats).
float softmax_row(const float* z, int m, float inv_temperature, float* out, float* entropy) noexcept {
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

  // pass 2: e = exp((z - max)/T), Σe and Σ e·t (e = 0 terms skipped: t may be -INFINITY).
  // Σe in float32 blocks of kSumBlock keys, each lane adding at most 16 terms, and the blocks
  // added in double: summed plainly, a lane of a 65,536-key row adds 16,384 terms and drifts by
  // ~1e-4, and the weights would no longer sum to 1. (A compensated sum per lane cost ~10 % of a
  // whole n = 16 attention call; these blocks ~1 %.)
  constexpr std::size_t kSumBlock = 16 * kLanes;
  const batch max_v(z_max), inv_t(inv_temperature), zero(0.0f), minus_inf(-INFINITY);
  const batch max_scaled = max_v * inv_t;
  const bool wide_rows_matter = inv_temperature < 1.0f;  // see softmax_exponent
  double sum = 0.0;
  batch sum_et_b(0.0f);
  alignas(64) float lanes[kLanes];
  for (std::size_t j0 = 0; j0 < m_vec; j0 += kSumBlock) {
    const std::size_t end = std::min(j0 + kSumBlock, m_vec);
    batch block(0.0f);
    for (std::size_t j = j0; j < end; j += kLanes) {
      const batch zj = batch::load_unaligned(z + j), diff = zj - max_v;
      batch t = diff * inv_t;
      if (wide_rows_matter) t = xsimd::select(diff == minus_inf, xsimd::fms(zj, inv_t, max_scaled), t);
      const batch e = exp_nonpositive(t);  // t <= 0: the max was subtracted
      e.store_unaligned(out + j);
      block += e;
      sum_et_b += xsimd::select(e > zero, e * t, zero);
    }
    block.store_aligned(lanes);
    for (std::size_t l = 0; l < kLanes; ++l) sum += lanes[l];
  }
  double sum_et = xsimd::reduce_add(sum_et_b);
  for (std::size_t j = m_vec; j < count; ++j) {
    const float t = softmax_exponent(z[j], z_max, inv_temperature);
    const float e = std::exp(t);
    out[j] = e;
    sum += e;
    if (e > 0.0f) sum_et += static_cast<double>(e) * t;
  }

  // pass 3: normalise; max weight = 1/Σ since the max element has e = 1
  const float inv_sum = 1.0f / static_cast<float>(sum);  // a float division: a double one costs ~4× in wasm
  const batch inv_sum_b(inv_sum);
  for (std::size_t j = 0; j < m_vec; j += kLanes) (batch::load_unaligned(out + j) * inv_sum_b).store_unaligned(out + j);
  for (std::size_t j = m_vec; j < count; ++j) out[j] *= inv_sum;
  *entropy = softmax_entropy(sum, sum_et);
  return inv_sum;
}

// out (n×dv) = w (n×m) · v (m×dv): V rows are already laid out along dv, no packing needed.
void matmul_pv(const float* w, const float* v, int n, int m, int dv, float* out) noexcept {
  gemm(w, static_cast<std::size_t>(m), 1, v, static_cast<std::size_t>(dv), out, static_cast<std::size_t>(dv),
       static_cast<std::size_t>(n), static_cast<std::size_t>(dv), static_cast<std::size_t>(m), false);
}

void gelu(const float* x, std::size_t n, float* out) noexcept {
  const std::size_t n_vec = n - n % kLanes;
  const batch half(0.5f), one(1.0f), scale(kGeluScale), cubic(kGeluCubic), minus_two(-2.0f), zero(0.0f);
  for (std::size_t i = 0; i < n_vec; i += kLanes) {
    const batch v = batch::load_unaligned(x + i);
    const batch u = scale * (v + cubic * v * v * v);
    const batch e = exp_nonpositive(minus_two * xsimd::abs(u));  // in [0, 1]
    const batch t = (one - e) / (one + e);                         // tanh|u|
    (half * v * (one + xsimd::select(u < zero, -t, t))).store_unaligned(out + i);
  }
  gelu_ref(x + n_vec, n - n_vec, out + n_vec);
}

}  // namespace attn
