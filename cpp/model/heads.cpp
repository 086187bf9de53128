// What a head does (heads.hpp).
#include "model/heads.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "model/model.hpp"

namespace attn {
namespace lm {

HeadProfile head_profile(const float* weights, int T, bool causal) noexcept {
  HeadProfile p;
  if (T < 2) return p;
  double previous = 0, first = 0, self = 0, spread = 0, top = 0, score_spread = 0;
  for (int i = 1; i < T; ++i) {
    const float* row = weights + static_cast<std::size_t>(i) * T;
    previous += row[i - 1];
    first += row[0];
    self += row[i];
    const int keys = causal ? i + 1 : T;
    double entropy = 0, largest = 0, sum = 0, sum2 = 0;
    int positive = 0;
    for (int j = 0; j < keys; ++j) {
      const double w = row[j];
      largest = std::max(largest, w);
      if (w <= 0) continue;
      const double lw = std::log(w);
      entropy -= w * lw;
      sum += lw;
      sum2 += lw * lw;
      ++positive;
    }
    spread += entropy / std::log(static_cast<double>(keys));
    top += largest;
    if (positive > 1) {
      const double mean = sum / positive;
      score_spread += std::sqrt(std::max(0.0, sum2 / positive - mean * mean));
    }
  }
  const double rows = T - 1;
  p.previous = static_cast<float>(previous / rows);
  p.first = static_cast<float>(first / rows);
  p.self = static_cast<float>(self / rows);
  p.spread = static_cast<float>(spread / rows);
  p.top = static_cast<float>(top / rows);
  p.score_spread = static_cast<float>(score_spread / rows);
  return p;
}

float head_induction(const float* weights, int T, int span) noexcept {
  if (span < 1 || span >= T) return 0;
  double sum = 0;
  for (int i = span; i < T; ++i) sum += weights[static_cast<std::size_t>(i) * T + (i - span + 1)];
  return static_cast<float>(sum / (T - span));
}

namespace {
// the mean over rows from…to−1 of an even causal row's weight, 1/(i+1)
double even_rows(int from, int to) {
  if (from >= to) return 0;
  double sum = 0;
  for (int i = from; i < to; ++i) sum += 1.0 / (i + 1);
  return sum / (to - from);
}
}  // namespace

double even_share(int T) noexcept { return even_rows(1, T); }
double even_induction(int T, int span) noexcept { return span < 1 ? 0 : even_rows(span, T); }

float mean_spread(const HeadProfile* profiles, int count) noexcept {
  if (count < 1) return 0;
  double sum = 0;
  for (int k = 0; k < count; ++k) sum += profiles[k].spread;
  return static_cast<float>(sum / count);
}

HeadRole head_role(const HeadProfile& p) noexcept {
  const float shares[] = {p.previous, p.first, p.self};
  int best = 0;
  for (int r = 1; r < 3; ++r)
    if (shares[r] > shares[best]) best = r;
  if (shares[best] >= kRoleShare) return static_cast<HeadRole>(best);
  return p.spread >= kBroadSpread ? HeadRole::broad : HeadRole::mixed;
}

bool measure_heads(Model& model, const std::int32_t* ids, int windows, int T, int span, HeadProfile* profiles,
                   HeadRole* roles, float* induction, Error* err) noexcept {
  const ModelConfig& c = model.config();
  if (!check_dim("windows", windows, 1, kMaxMeasuredWindows, err) || !check_dim("T", T, 1, c.context, err) ||
      !check_dim("span", span, 0, T - 1, err))
    return false;
  const int L = c.layers, H = c.heads;
  const std::size_t heads = static_cast<std::size_t>(L) * H, per_head = static_cast<std::size_t>(T) * T;
  // sums in double, per head: previous, first, self, spread, top, score_spread, induction
  constexpr int kSums = 7;
  std::vector<double> sums;
  try {
    sums.assign(heads * kSums, 0.0);
  } catch (...) {
    return fail(err, Status::too_large, "measuring %d heads: out of memory", static_cast<int>(heads));
  }
  for (int w = 0; w < windows; ++w) {
    // the next word is not asked for: predict() at the last position is the cheapest whole forward
    if (!model.predict(ids + static_cast<std::size_t>(w) * T, T, T - 1, err)) return false;
    for (int l = 0; l < L; ++l)
      for (int h = 0; h < H; ++h) {
        const float* weights = model.attention(l) + static_cast<std::size_t>(h) * per_head;
        const HeadProfile p = head_profile(weights, T);
        double* s = &sums[(static_cast<std::size_t>(l) * H + h) * kSums];
        s[0] += p.previous, s[1] += p.first, s[2] += p.self, s[3] += p.spread, s[4] += p.top, s[5] += p.score_spread;
        if (span > 0) s[6] += head_induction(weights, T, span);
      }
  }
  for (std::size_t k = 0; k < heads; ++k) {
    const double* s = &sums[k * kSums];
    HeadProfile& p = profiles[k];
    p.previous = static_cast<float>(s[0] / windows);
    p.first = static_cast<float>(s[1] / windows);
    p.self = static_cast<float>(s[2] / windows);
    p.spread = static_cast<float>(s[3] / windows);
    p.top = static_cast<float>(s[4] / windows);
    p.score_spread = static_cast<float>(s[5] / windows);
    roles[k] = head_role(p);
    if (induction) induction[k] = span > 0 ? static_cast<float>(s[6] / windows) : 0.0f;
  }
  return true;
}

}  // namespace lm
}  // namespace attn
