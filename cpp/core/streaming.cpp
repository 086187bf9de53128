// Streaming attention (online softmax, as in FlashAttention): out (n×dv) = softmax(scale·q kᵀ) v
// for q (n×d), k (m×d), v (m×dv), never holding more than a kQueryBlock × kKeyBlock score tile.
// The readable specification is attention_streaming_ref (kernels_ref.cpp).
//
// Layout trick: the score tile is kept transposed, sᵀ (keys × queries), so a vector holds one
// key's scores for kLanes queries. The running max, the exp and the running sum of each query
// are then plain lane-wise operations over the tile's rows — no horizontal reduction anywhere —
// and the tile feeds P·V directly as the broadcast operand of gemm (a_row = 1).
//
// Base 2: the packed queries carry scale·log2(e), so each score s arrives as s·log2(e) and
// exp(s - max) is computed as 2^(s·log2 e - max·log2 e) by exp2_nonpositive, ~1.35× the
// throughput of exp (no ln 2 reduction). The price is one more float32 rounding of the scaled
// query (relative 2^-24, the size of the rounding of scale·q that is already there), and scores
// are reported as overflowing from FLT_MAX / log2(e) ≈ 2.4e38 instead of 3.4e38.
#include <algorithm>
#include <cmath>

#include "core/attention.hpp"
#include "core/simd.hpp"

namespace attn {
namespace {

// queries per block, a multiple of every kLanes (4, 8): each k and v tile loaded from L2 feeds 64
// queries (at n = 16,384, k and v are 8 MB, far beyond L2)
constexpr std::size_t kQueryBlock = 64;
constexpr std::size_t kKeyBlock = 64;    // keys per tile: k and v tiles (16 KB each at d = 64) stay in L1
constexpr std::size_t kDepthChunk = 128;  // q block transposed in chunks of 128 × 64 floats (32 KB)
static_assert(kQueryBlock % kLanes == 0, "query vectors must not straddle a block");

// factor · qᵀ chunk (depth × cols of a kQueryBlock-wide buffer) of query rows i0.. i0+rows,
// columns c0.. c0+depth; factor = scale·log2(e). It is applied here, once per query, instead of
// once per score: that takes a multiply and a store off every score vector of the softmax passes
// (the price: factor·q itself must fit float32, else the call fails with overflow). The padding
// queries rows.. cols (past n) are zeros, which give finite scores that are never written out.
// kLanes × kLanes blocks are transposed in registers: element by element, the strided stores
// made packing 16 queries cost as much as their whole Q·Kᵀ (measured at n = 16, d = 64).
void pack_queries(const float* q, std::size_t d, std::size_t i0, std::size_t rows, std::size_t cols, std::size_t c0,
                  std::size_t depth, float factor, float* q_t) noexcept {
  const std::size_t rows_vec = rows - rows % kLanes, depth_vec = depth - depth % kLanes;
  const batch factor_b(factor);
  for (std::size_t r = 0; r < rows_vec; r += kLanes) {
    const float* q_rows = q + (i0 + r) * d + c0;
    for (std::size_t p = 0; p < depth_vec; p += kLanes) {
      batch block[kLanes];
      for (std::size_t l = 0; l < kLanes; ++l) block[l] = batch::load_unaligned(q_rows + l * d + p);
      xsimd::transpose(block, block + kLanes);  // block[l] = column p + l of rows r.. r + kLanes
      for (std::size_t l = 0; l < kLanes; ++l) (factor_b * block[l]).store_unaligned(q_t + (p + l) * kQueryBlock + r);
    }
    for (std::size_t l = 0; l < kLanes; ++l)
      for (std::size_t p = depth_vec; p < depth; ++p) q_t[p * kQueryBlock + r + l] = factor * q_rows[l * d + p];
  }
  for (std::size_t r = rows_vec; r < rows; ++r) {
    const float* q_row = q + (i0 + r) * d + c0;
    for (std::size_t p = 0; p < depth; ++p) q_t[p * kQueryBlock + r] = factor * q_row[p];
  }
  for (std::size_t r = rows; r < cols; ++r)
    for (std::size_t p = 0; p < depth; ++p) q_t[p * kQueryBlock + r] = 0.0f;
}

// row (width) *= factor; false when a result is not finite (x − x is NaN for ±Inf and NaN)
bool scale_row(float* row, std::size_t width, float factor) noexcept {
  const std::size_t width_vec = width - width % kLanes;
  const batch factor_b(factor);
  batch check(0.0f);
  for (std::size_t c = 0; c < width_vec; c += kLanes) {
    const batch x = batch::load_unaligned(row + c) * factor_b;
    x.store_unaligned(row + c);
    check += x - x;
  }
  float tail = 0.0f;
  for (std::size_t c = width_vec; c < width; ++c) {
    row[c] *= factor;
    tail += row[c] - row[c];
  }
  return xsimd::reduce_add(check) + tail == 0.0f;
}

// First (query, key) of a tile whose score is not finite, skipping keys hidden by the causal
// mask (already -INFINITY), for the error message.
ScorePosition locate_non_finite(const float* s_t, std::size_t keys, std::size_t cols, std::size_t i0, std::size_t j0,
                                bool causal) noexcept {
  for (std::size_t j = 0; j < keys; ++j)
    for (std::size_t r = 0; r < cols; ++r)
      if (!std::isfinite(s_t[j * kQueryBlock + r]) && !(causal && j0 + j > i0 + r))
        return {static_cast<int>(i0 + r), static_cast<int>(j0 + j)};
  return {};
}

// One key tile of the online softmax, for every query of the block, in place on sᵀ:
//   pass 1: causal: s = -INFINITY where key > query; row max over the tile
//   pass 2: p = 2^(s - new max), running sum = running sum · 2^(old max - new max) + Σp
//   (s in base-2 units, see the top of the file). The running sum is kept in double: in float32 the
//   1,024 tile sums of a 65,536-key row drifted by ~1e-4. A tile's own Σp adds at most 64 terms in
//   float32 (≤ 63 roundings, ~1e-7 in practice), so the error no longer grows with m; compensating
//   each key as well cost 1.5-2 % of the whole call at every n, for a few ulp more.
// Writes each query's correction factor 2^(old max - new max) to `correction`. Returns false,
// before pass 2, when a visible score is not finite (scale·log2(e)·q·k overflowed float32).
bool online_softmax_tile(float* s_t, std::size_t keys, std::size_t query_vecs, std::size_t i0, std::size_t j0,
                         bool causal, float* row_max, double* row_sum, float* correction) noexcept {
  const batch minus_inf(-INFINITY), zero(0.0f);
  alignas(64) float lane_index[kLanes];
  for (std::size_t l = 0; l < kLanes; ++l) lane_index[l] = static_cast<float>(l);
  // keys past this index are hidden from some query of the block (indices < 2^24: exact in float)
  const bool masks = causal && j0 + keys - 1 > i0;
  for (std::size_t vq = 0; vq < query_vecs; ++vq) {
    float* col = s_t + vq * kLanes;
    const batch query = batch::load_aligned(lane_index) + batch(static_cast<float>(i0 + vq * kLanes));
    const batch old_max = batch::load_unaligned(row_max + vq * kLanes);
    batch new_max = old_max, finite_check(0.0f);
    std::size_t j = 0;
    if (!masks) {
      // four independent max and check chains: one would wait on the latency of each max
      batch max1 = old_max, max2 = old_max, max3 = old_max, check1(0.0f);
      for (; j + 4 <= keys; j += 4) {
        const batch s0 = batch::load_unaligned(col + j * kQueryBlock);
        const batch s1 = batch::load_unaligned(col + (j + 1) * kQueryBlock);
        const batch s2 = batch::load_unaligned(col + (j + 2) * kQueryBlock);
        const batch s3 = batch::load_unaligned(col + (j + 3) * kQueryBlock);
        finite_check += (s0 - s0) + (s1 - s1);  // s - s: NaN once s is ±Inf or NaN
        check1 += (s2 - s2) + (s3 - s3);
        new_max = xsimd::max(new_max, s0);
        max1 = xsimd::max(max1, s1);
        max2 = xsimd::max(max2, s2);
        max3 = xsimd::max(max3, s3);
      }
      new_max = xsimd::max(xsimd::max(new_max, max1), xsimd::max(max2, max3));
      finite_check += check1;
    }
    for (; j < keys; ++j) {
      batch s = batch::load_unaligned(col + j * kQueryBlock);
      if (masks) {
        const auto hidden = batch(static_cast<float>(j0 + j)) > query;
        finite_check += xsimd::select(hidden, zero, s - s);
        s = xsimd::select(hidden, minus_inf, s);
        s.store_unaligned(col + j * kQueryBlock);
      } else {
        finite_check += s - s;
      }
      new_max = xsimd::max(new_max, s);
    }
    if (xsimd::reduce_add(finite_check) != 0.0f) return false;
    // a query that has seen no visible key yet keeps max -INFINITY: shift by 0 so that its
    // exponents are 2^(-inf) = 0, not 2^NaN
    const batch shift = xsimd::select(new_max == minus_inf, batch(0.0f), new_max);
    batch sum(0.0f);  // Σp of the tile: at most kKeyBlock terms in float32, then added in double
    for (std::size_t key = 0; key < keys; ++key) {
      const batch p = exp2_nonpositive(batch::load_unaligned(col + key * kQueryBlock) - shift);
      p.store_unaligned(col + key * kQueryBlock);
      sum += p;
    }
    const batch corr = exp2_nonpositive(old_max - shift);  // old max -INFINITY: 0
    alignas(64) float tile_sum[kLanes];
    sum.store_aligned(tile_sum);
    new_max.store_unaligned(row_max + vq * kLanes);
    corr.store_unaligned(correction + vq * kLanes);
    for (std::size_t l = 0; l < kLanes; ++l)
      row_sum[vq * kLanes + l] = row_sum[vq * kLanes + l] * correction[vq * kLanes + l] + tile_sum[l];
  }
  return true;
}

}  // namespace

bool attention_streaming(const float* q, const float* k, const float* v, int n, int m, int d, int dv, float scale,
                         bool causal, float* out, ScorePosition* overflow) noexcept {
  const std::size_t queries = static_cast<std::size_t>(n), keys_total = static_cast<std::size_t>(m),
                    width = static_cast<std::size_t>(d), value_width = static_cast<std::size_t>(dv);
  alignas(64) float q_t[kDepthChunk * kQueryBlock];  // qᵀ chunk of the current block
  alignas(64) float s_t[kKeyBlock * kQueryBlock];    // sᵀ tile: scores, then probabilities
  alignas(64) float row_max[kQueryBlock], correction[kQueryBlock];
  double row_sum[kQueryBlock];
  const bool pack_once = width <= kDepthChunk;
  // scores in base-2 units (see the top of the file); rounded to float once
  const float factor = static_cast<float>(double(scale) * 1.4426950408889634);  // scale · log2(e)

  for (std::size_t i0 = 0; i0 < queries; i0 += kQueryBlock) {
    const std::size_t rows = std::min(kQueryBlock, queries - i0);
    // a short last block (or n < kQueryBlock) computes only the vectors its queries occupy
    const std::size_t query_cols = (rows + kLanes - 1) / kLanes * kLanes;
    float* out_block = out + i0 * value_width;
    std::fill(row_max, row_max + query_cols, -INFINITY);  // the columns this block computes
    std::fill(row_sum, row_sum + query_cols, 0.0);
    if (pack_once) pack_queries(q, width, i0, rows, query_cols, 0, width, factor, q_t);
    // causal: keys past the block's last query are hidden from all of it
    const std::size_t key_end = causal ? std::min(keys_total, i0 + rows) : keys_total;

    for (std::size_t j0 = 0; j0 < key_end; j0 += kKeyBlock) {
      const std::size_t keys = std::min(kKeyBlock, key_end - j0);
      // pass 1: sᵀ (keys × queries) = k tile · (scale·log2(e)·q)ᵀ, d in chunks
      for (std::size_t c0 = 0; c0 < width; c0 += kDepthChunk) {
        const std::size_t depth = std::min(kDepthChunk, width - c0);
        if (!pack_once) pack_queries(q, width, i0, rows, query_cols, c0, depth, factor, q_t);
        gemm(k + j0 * width + c0, width, 1, q_t, kQueryBlock, s_t, kQueryBlock, keys, query_cols, depth, c0 > 0);
      }
      // pass 2: mask, online softmax; sᵀ now holds 2^(s - running max), s in base-2 units
      if (!online_softmax_tile(s_t, keys, query_cols / kLanes, i0, j0, causal, row_max, row_sum, correction)) {
        *overflow = locate_non_finite(s_t, keys, query_cols, i0, j0, causal);
        return false;
      }
      // pass 3: rescale what the block has accumulated, then out += p · v tile
      if (j0 > 0) {
        for (std::size_t r = 0; r < rows; ++r)
          if (correction[r] != 1.0f) scale_row(out_block + r * value_width, value_width, correction[r]);
      }
      gemm(s_t, 1, kQueryBlock, v + j0 * value_width, value_width, out_block, value_width, rows, value_width, keys,
           j0 > 0);
    }
    // pass 4: normalise each row by its sum (> 0: every query sees at least key 0). A row that is
    // not finite now overflowed as Σ p·v (|v|·m beyond float32): the check costs one add here.
    for (std::size_t r = 0; r < rows; ++r) {
      const float inv_sum = row_sum[r] > 0.0 ? 1.0f / static_cast<float>(row_sum[r]) : 0.0f;  // float division
      if (!scale_row(out_block + r * value_width, value_width, inv_sum)) {
        *overflow = {static_cast<int>(i0 + r), -1};
        return false;
      }
    }
  }
  return true;
}

}  // namespace attn
