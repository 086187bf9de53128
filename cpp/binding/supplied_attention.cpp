// The binding's adapter for attention supplied from any other model (cpp/model/supplied_attention.hpp;
// binding.hpp says how an adapter is written): checked whole, then each head measured as the
// trained model's heads are (cpp/model/heads.hpp). Its row group in web/core/calls.js:
// "attention from any model".
#include <emscripten/bind.h>

#include <cstddef>
#include <cstdint>

#include "binding/binding.hpp"
#include "model/heads.hpp"
#include "model/supplied_attention.hpp"

namespace binding {
namespace {

namespace lm = attn::lm;

// Attention from any model (input 0: L×H×n×n weights, BertViz's shape without its batch),
// checked whole (supplied_attention.hpp: finite, ≥ 0, rows summing to 1) and each head measured
// as the trained model's heads are (heads.hpp: its profile and role, L×H each; causal when every
// weight above the diagonal is 0), with the largest |Σ row − 1| found.
int supplied_attention(int layers, int heads, int n) {
  attn::SuppliedReport report;
  if (!attn::check_supplied_attention(input(0), layers, heads, n, &report, &g_error)) return failed();
  const std::uint64_t count = static_cast<std::uint64_t>(layers) * heads;
  attn::Outputs out = outputs();
  const char* const shares[] = {"previous", "first", "self", "spread"};
  attn::Outputs::Field profile[4];
  for (int s = 0; s < 4; ++s) profile[s] = out.array(shares[s], count);
  const auto roles = out.array("role", count);
  const auto worst = out.number64("worstRowError");
  const auto causal = out.flag("causal");
  if (!out.allocate(&g_error)) return failed();
  const float* w = input(0).data;
  const std::size_t per_head = static_cast<std::size_t>(n) * n;
  for (std::size_t head = 0; head < count; ++head) {
    const lm::HeadProfile p = lm::head_profile(w + head * per_head, n, report.causal);
    const float values[] = {p.previous, p.first, p.self, p.spread};
    for (int s = 0; s < 4; ++s) out[profile[s]][head] = values[s];
    out[roles][head] = static_cast<float>(lm::head_role(p));
  }
  out.set_float64(worst, report.worst_row_error);
  out.set(causal, report.causal);
  return 0;
}

}  // namespace
}  // namespace binding

EMSCRIPTEN_BINDINGS(attention_lab_supplied) {
  using emscripten::constant;
  using emscripten::function;
  using namespace binding;
  // its limits and the tolerance of a row's sum
  constant("suppliedMaxLayers", attn::kMaxSuppliedLayers);
  constant("suppliedMaxHeads", attn::kMaxSuppliedHeads);
  constant("suppliedMaxTokens", attn::kMaxSuppliedTokens);
  constant("suppliedRowSumTolerance", attn::kRowSumTolerance);
  function("suppliedAttention", &supplied_attention);
}
