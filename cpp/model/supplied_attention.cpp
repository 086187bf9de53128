// Attention supplied from outside the core, checked (supplied_attention.hpp).
#include "model/supplied_attention.hpp"

#include <cmath>
#include <cstddef>

namespace attn {

bool check_supplied_attention(Input w, int layers, int heads, int n, SuppliedReport* report, Error* err) noexcept {
  SuppliedReport local;
  SuppliedReport& r = report ? *report : local;
  r = SuppliedReport{};
  if (!check_dim("layers", layers, 1, kMaxSuppliedLayers, err) || !check_dim("heads", heads, 1, kMaxSuppliedHeads, err) ||
      !check_dim("n", n, 1, kMaxSuppliedTokens, err))
    return false;
  // at most 2^8 · 2^8 · 2^12 · 2^12 = 2^40: exact in 64 bits
  const std::uint64_t rows = static_cast<std::uint64_t>(layers) * static_cast<std::uint64_t>(heads) * static_cast<std::uint64_t>(n);
  const std::uint64_t floats = rows * static_cast<std::uint64_t>(n);
  if (!check_size("attention", floats, err) || !check_length("attention", w, floats, "layers·heads·n·n", err)) return false;

  bool causal = true;
  for (std::uint64_t row_index = 0; row_index < rows; ++row_index) {
    // within the budget: row_index · n < 2^28, so it fits a 32-bit size_t
    const float* row = w.data + static_cast<std::size_t>(row_index) * static_cast<std::size_t>(n);
    const int i = static_cast<int>(row_index % n);
    const int h = static_cast<int>(row_index / n % heads);
    const int l = static_cast<int>(row_index / n / heads);
    double sum = 0;
    for (int j = 0; j < n; ++j) {
      const float x = row[j];
      if (!std::isfinite(x) || x < 0.0f) {
        r.fault = std::isfinite(x) ? SuppliedFault::negative : SuppliedFault::non_finite;
        r.layer = l, r.head = h, r.row = i, r.column = j, r.value = x;
        char text[24];
        return fail(err, std::isfinite(x) ? Status::invalid_argument : Status::non_finite_input,
                    "layer %d, head %d, row %d, column %d is %s: attention weights must be finite and at least 0", l + 1,
                    h + 1, i + 1, j + 1, number_text(x, text));
      }
      sum += x;
      if (j > i && x != 0.0f) causal = false;
    }
    const double miss = std::fabs(sum - 1.0);
    if (miss > r.worst_row_error) r.worst_row_error = miss;
    if (!(miss <= kRowSumTolerance)) {
      r.fault = SuppliedFault::row_sum;
      r.layer = l, r.head = h, r.row = i, r.column = -1, r.value = sum;
      return fail(err, Status::invalid_argument,
                  "layer %d, head %d, row %d sums to %.6g: each row of attention weights must sum to 1 within %g", l + 1,
                  h + 1, i + 1, sum, kRowSumTolerance);
    }
  }
  r.causal = causal;
  return true;
}

}  // namespace attn
