// Attention supplied from outside the core — any model's, exported in BertViz's shape — checked
// before anything draws it, and measured the way the trained model's heads are (heads.hpp,
// head_profile), so the same views label its heads.
//
//   w: L×H×n×n float32, row-major: layer l, head h, query row i, key column j
//      every w[l][h][i][j] finite and ≥ 0, every row Σ_j w[l][h][i][j] = 1 within kRowSumTolerance
//
// A failure names the first bad value in reading order (layer, head, row, column), counted
// from 1 in the message as the page and the command line count layers and heads, and from 0
// in SuppliedReport. Nothing here throws or allocates: the same source runs natively and in
// both WebAssembly builds, where size_t is 32 bits.
#pragma once

#include <cstdint>

#include "core/check.hpp"

namespace attn {

// Limits of one tensor. n ≤ 4096 keeps one head's rows at 64 MiB; L and H at 256 are beyond
// any released model's (GPT-3 175B: 96 × 96). The product is also held to the memory budget
// (check_size): 2^28 floats, e.g. 12 × 12 heads at n = 1365.
constexpr int kMaxSuppliedLayers = 256;
constexpr int kMaxSuppliedHeads = 256;
constexpr int kMaxSuppliedTokens = 4096;

// How far a row's sum may be from 1. A float32 softmax row from PyTorch misses 1 by at most a
// few units of 2^-24 per weight summed (measured: docs/model.md, "Any model's attention");
// rows exported in float16 miss by up to 2^-11 of their sum. 1e-3 admits both with margin, and
// refuses rows rounded to two decimals or scores that were never passed through a softmax.
constexpr double kRowSumTolerance = 1e-3;

enum class SuppliedFault : int {
  none = 0,
  non_finite = 1,  // NaN or ±Infinity (Status::non_finite_input)
  negative = 2,    // a weight below 0 (Status::invalid_argument)
  row_sum = 3,     // |Σ row − 1| > kRowSumTolerance (Status::invalid_argument)
};

// What the check found: the first fault and where (0-based), or none; and over every row, the
// largest |Σ row − 1| and whether every weight above the diagonal is 0 (a causal model's rows).
struct SuppliedReport {
  SuppliedFault fault = SuppliedFault::none;
  int layer = -1, head = -1, row = -1, column = -1;  // column −1 for a row's sum
  double value = 0;                                  // the bad weight, or the row's sum
  double worst_row_error = 0;
  bool causal = false;
};

// Checks the dimensions (invalid_shape), the size against the budget (too_large), the length of
// `w` against L·H·n·n (invalid_shape), then every value and row. On a fault fills `report` and
// `err` and returns false. `report` may be null.
bool check_supplied_attention(Input w, int layers, int heads, int n, SuppliedReport* report, Error* err) noexcept;

}  // namespace attn
