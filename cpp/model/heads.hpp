// What a head does, measured from its attention weights alone: the language model's heads
// (model.hpp) and attention supplied from any other model (supplied_attention.hpp) are measured
// here, the same way, and nowhere else — the page, the command line and the script that writes
// the shipped measurements (scripts/model/measure-heads.mjs) read these numbers.
//
// One head's weights on one sequence: T×T float32, row-major, row i a query, column j a key.
// Causal: row i is over keys 0…i (the rest 0); else over all T keys.
//
// Nothing here throws; measure_heads allocates nothing beyond what the model holds.
#pragma once

#include <cstdint>

#include "core/check.hpp"

namespace attn {
namespace lm {

class Model;

// The mean weight on the previous token, on the first token, on the token itself, and `spread`,
// the mean entropy of a row as a share of the most it can be (ln of the keys it sees): 0 all on
// one token, 1 even over the keys it sees; over rows 1…T−1 (from 0: a causal row 0 has one
// choice). For watching a head saturate: `top`, the mean largest weight of a row, and
// `score_spread`, the mean standard deviation within a row of ln w over its positive weights
// (the scores' spread, since ln w is the score less the row's log-sum-exp). All 0 when T < 2.
struct HeadProfile {
  float previous = 0, first = 0, self = 0, spread = 0;
  float top = 0, score_spread = 0;
};
HeadProfile head_profile(const float* weights, int T, bool causal = true) noexcept;

// The induction score on a sequence that repeats with period `span` (token i = token i − span
// for i ≥ span): the mean over rows i = span…T−1 of w[i][i − span + 1], the weight a word of the
// repeat puts on the word that followed its earlier copy — what a head that finds the copy and
// reads on (an induction head) does. 0 when span < 1 or span ≥ T.
float head_induction(const float* weights, int T, int span) noexcept;

// What a head spreading every causal row evenly (row i: 1/(i+1) on each of its keys) scores: its
// previous, first and self share (head_profile's; the three agree), and its induction score.
double even_share(int T) noexcept;
double even_induction(int T, int span) noexcept;

// The mean spread of `count` heads' profiles (summed in double), 0 for none: how evenly a whole
// model spreads its rows on one sequence (the page compares it with and without √d_k).
float mean_spread(const HeadProfile* profiles, int count) noexcept;

// A head's role, named by its profile: the largest of previous, first and self when it is at
// least kRoleShare; else broad when spread ≥ kBroadSpread; else mixed. In that order of HeadRole.
enum class HeadRole : int { previous = 0, first = 1, self = 2, broad = 3, mixed = 4 };
constexpr float kRoleShare = 0.5f;
constexpr float kBroadSpread = 0.6f;
HeadRole head_role(const HeadProfile& p) noexcept;

constexpr int kMaxMeasuredWindows = 1 << 16;  // the shipped measurements read 1,849

// Every head of `model` over `windows` sequences of T token ids each (ids: windows×T, each checked
// by the model): each head's profile averaged over the windows (field by field, in double), its
// role named from that average, and, when span > 0 (each window repeats with that period), its
// induction score averaged; outputs are L×H, layer by layer (induction may be null when span is
// 0). A head over a text is named from its average, never from one window.
bool measure_heads(Model& model, const std::int32_t* ids, int windows, int T, int span, HeadProfile* profiles,
                   HeadRole* roles, float* induction, Error* err) noexcept;

}  // namespace lm
}  // namespace attn
