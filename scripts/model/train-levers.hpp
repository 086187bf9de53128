// The training driver's levers for issue 34 (scripts/model/train-model.cpp), and the head
// measurements its trials are judged by. Header-only and native-or-wasm neutral, so that
// tests/cpp/test_model_levers.cpp checks the same code the driver runs. Every lever's default
// leaves the issue-20 run unchanged: the committed curves are its first steps, byte for byte.
//
// - Repeat mix: a stated share of training windows repeats an earlier span of the same window
//   (so of the same document, bar a window across a document's end), the copy put over later
//   tokens. Drawn from (seed, step) by a generator of its own, so the windows' starts are those
//   of a run without it. With `random_vocab` V the span is first filled with random words
//   (1 … V−1): text says what comes next by itself, random words only through their first copy,
//   so only an induction circuit predicts the second.
// - W_Q, W_K initialisation: q_j = Σ_c a_c W_cj with a the layernormed input (mean square ~1 per
//   channel), so Var q_j = C σ², and q·k over d_head channels has spread √d_head · C σ². With
//   σ = 1/√C the scores at step 0 have spread ~1 in the scaled twin and ~√d_head unscaled (GPT-2's
//   σ = 0.02 at C = 128 gives 0.05 and 0.29). Only W_Q and W_K are rescaled: every other
//   parameter is the default initialisation's, draw for draw.
// - Attention-only: the MLP's output projection and its bias start at 0 and get no gradient, so
//   every layer adds only its attention (the MLP is still computed: the same cost per step).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/check.hpp"
#include "model/heads.hpp"
#include "model/model.hpp"
#include "core/random.hpp"

namespace attn {
namespace levers {

// ---- repeat mix ----------------------------------------------------------------------------------

struct RepeatMix {
  float share = 0;   // of windows that get a repeat: 0 (off) … 1
  int min_span = 4;  // the copied span's length, uniform in [min_span, max_span] (clipped to n/2)
  int max_span = 24;
  int random_vocab = 0;  // > 0: the repeated span is random words 1 … random_vocab − 1
};

struct RepeatPlacement {
  int source = -1, destination = -1, length = 0;  // length 0: no repeat in this window
};

// Where a window of n tokens gets its repeat (source + length ≤ destination, destination +
// length ≤ n), or none; the draws come from rng alone.
inline RepeatPlacement place_repeat(Rng& rng, int n, const RepeatMix& mix) {
  RepeatPlacement p;
  if (mix.share <= 0) return p;
  const bool repeat = rng.uniform_open() < mix.share;
  const int hi = std::min(mix.max_span, n / 2), lo = std::max(1, std::min(mix.min_span, hi));
  if (!repeat || hi < 1) return p;
  p.length = lo + static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(hi - lo + 1));
  p.source = static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(n - 2 * p.length + 1));
  const int first = p.source + p.length, last = n - p.length;
  p.destination = first + static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(last - first + 1));
  return p;
}

// The repeat mix's generator for step s: independent of the batch starts' generator.
inline Rng repeat_rng(std::uint64_t seed, int step) {
  return Rng(~seed ^ (0x9FB21C651E98DF25ull * static_cast<std::uint64_t>(step + 1)));
}

// Step s's batch: B windows of T + 1 tokens at starts drawn from (seed, s) alone (the issue-20
// driver's draw), then, with the mix on, a share of them given a repeat.
inline void make_batch(const std::vector<std::int32_t>& train, std::uint64_t seed, int step, int B, int T,
                       const RepeatMix& mix, std::int32_t* inputs, std::int32_t* targets,
                       std::vector<RepeatPlacement>* placements = nullptr) {
  Rng rng(seed ^ (0xD1B54A32D192ED03ull * static_cast<std::uint64_t>(step + 1)));
  Rng repeats = repeat_rng(seed, step);
  Rng words = repeat_rng(seed ^ 0x5851F42D4C957F2Dull, step);  // the random spans': the placements stay a text repeat's
  const std::uint64_t starts = train.size() - static_cast<std::size_t>(T) - 1;
  std::vector<std::int32_t> window(static_cast<std::size_t>(T) + 1);
  if (placements) placements->assign(B, RepeatPlacement{});
  for (int b = 0; b < B; ++b) {
    const std::size_t s = static_cast<std::size_t>(rng.next_u64() % starts);
    std::copy_n(train.data() + s, T + 1, window.data());
    const RepeatPlacement p = place_repeat(repeats, T + 1, mix);
    if (p.length > 0 && mix.random_vocab > 1)
      for (int j = 0; j < p.length; ++j)
        window[p.source + j] = 1 + static_cast<std::int32_t>(words.next_u64() % (mix.random_vocab - 1));
    if (p.length > 0) std::copy_n(window.data() + p.source, p.length, window.data() + p.destination);
    if (placements) (*placements)[b] = p;
    std::copy_n(window.data(), T, inputs + static_cast<std::size_t>(b) * T);
    std::copy_n(window.data() + 1, T, targets + static_cast<std::size_t>(b) * T);
  }
}

// ---- initialisation and attention-only -------------------------------------------------------------

// Rescales the query and key columns of every layer's qkvw (C × 3C: q, then k, then v) from
// GPT-2's σ = kInitStd to σ = qk_std; 0 leaves them.
inline void rescale_qk_init(const lm::ModelConfig& c, float* params, double qk_std) {
  if (qk_std <= 0) return;
  const lm::ParamTensors t = lm::point_params(c, params);
  const int C = c.d_model;
  const float factor = static_cast<float>(qk_std / lm::kInitStd);
  for (int l = 0; l < c.layers; ++l)
    for (int row = 0; row < C; ++row) {
      float* r = t.qkvw + (static_cast<std::size_t>(l) * C + row) * 3 * C;
      for (int j = 0; j < 2 * C; ++j) r[j] *= factor;
    }
}

// σ for W_Q, W_K that gives the scaled twin's scores a spread of ~1 at step 0 (see the top).
inline double unit_score_qk_std(const lm::ModelConfig& c) { return 1.0 / std::sqrt(static_cast<double>(c.d_model)); }

// Zeroes the MLP's output (fcprojw, fcprojb) in params, or its gradients (fcw, fcb, fcprojw,
// fcprojb) in grads: with both, the MLPs add nothing, ever.
inline void zero_mlp_output(const lm::ModelConfig& c, float* block, bool whole_mlp) {
  std::uint64_t sizes[lm::kParamTensors];
  lm::param_sizes(c, sizes);
  const lm::ParamTensors t = lm::point_params(c, block);
  float* const* tensors = lm::tensor_array(t);
  for (int i = 0; i < lm::kParamTensors; ++i) {
    const float* p = tensors[i];
    const bool output = p == t.fcprojw || p == t.fcprojb, mlp = output || p == t.fcw || p == t.fcb;
    if (whole_mlp ? mlp : output) std::fill_n(tensors[i], sizes[i], 0.0f);
  }
}

// ---- what the heads do ------------------------------------------------------------------------------

struct HeadScores {
  double previous = 0, first = 0, self = 0;  // mean weight on each, rows 1 … T−1 (0-based)
  double spread = 0;     // mean row entropy over ln(keys): 1 even, 0 on one token
  double top = 0;        // mean largest weight of a row
  double score_std = 0;  // mean within-row standard deviation of the scores (= of ln w, w > 0)
  double induction = 0;  // on repeated random tokens: weight on the token after the first copy
};

struct Measurement {
  int layers = 0, heads = 0;
  std::vector<HeadScores> head;  // layer-major
  double even_text = 0;          // what an even row gives on previous, first, self and top
  double even_induction = 0;     // … and on induction
  double loss_first_copy = 0, loss_second_copy = 0;  // mean −ln p of the copies' tokens 1 … n−1
  int text_windows = 0, repeat_sequences = 0;
};

namespace detail {
// a head's measures on one sequence (the core's: cpp/model/heads.hpp), added to its sums
inline void add_profile(const float* w, int T, HeadScores* s) {
  const lm::HeadProfile p = lm::head_profile(w, T);
  s->previous += p.previous, s->first += p.first, s->self += p.self;
  s->spread += p.spread, s->top += p.top, s->score_std += p.score_spread;
}
}  // namespace detail

// Measures every head of `model` (created with max_batch ≥ 1; its context T): over up to
// `windows` non-overlapping windows of T tokens of `text`, and over `sequences` sequences of
// n = T/2 random tokens (ids 1 … V−1, from `seed`) repeated once. Every measure of a head is the
// core's (cpp/model/heads.hpp): the induction score is head_induction's with span n, the weight
// at position n + k on position k + 1, the token that followed it the first time.
inline bool measure_heads(lm::Model& model, int max_batch, const std::vector<std::int32_t>& text, int windows,
                          int sequences, std::uint64_t seed, Measurement* out, Error* err) {
  const lm::ModelConfig& c = model.config();
  const int T = c.context, L = c.layers, H = c.heads, n = T / 2;
  Measurement m;
  m.layers = L;
  m.heads = H;
  m.head.assign(static_cast<std::size_t>(L) * H, HeadScores{});
  m.even_text = lm::even_share(T);
  m.even_induction = lm::even_induction(T, n);
  std::vector<std::int32_t> x(static_cast<std::size_t>(max_batch) * T), y(x.size());
  float loss;
  // held-out text
  const int available = static_cast<int>(std::min<std::size_t>(windows, text.size() / (T + 1)));
  for (int w0 = 0; w0 < available; w0 += max_batch) {
    const int count = std::min(max_batch, available - w0);
    for (int b = 0; b < count; ++b) {
      const std::size_t s = static_cast<std::size_t>(w0 + b) * (T + 1);
      std::copy_n(text.data() + s, T, x.data() + static_cast<std::size_t>(b) * T);
      std::copy_n(text.data() + s + 1, T, y.data() + static_cast<std::size_t>(b) * T);
    }
    if (!model.forward(x.data(), y.data(), count, T, &loss, err)) return false;
    for (int l = 0; l < L; ++l)
      for (int b = 0; b < count; ++b)
        for (int h = 0; h < H; ++h) {
          detail::add_profile(model.attention(l) + (static_cast<std::size_t>(b) * H + h) * T * T, T, &m.head[l * H + h]);
        }
  }
  m.text_windows = available;
  for (HeadScores& s : m.head) {
    if (available == 0) break;
    s.previous /= available, s.first /= available, s.self /= available;
    s.spread /= available, s.top /= available, s.score_std /= available;
  }
  // repeated random tokens
  Rng rng(seed);
  double first_copy = 0, second_copy = 0;
  for (int q0 = 0; q0 < sequences && n >= 2; q0 += max_batch) {
    const int count = std::min(max_batch, sequences - q0);
    for (int b = 0; b < count; ++b) {
      std::int32_t* xb = x.data() + static_cast<std::size_t>(b) * T;
      std::int32_t* yb = y.data() + static_cast<std::size_t>(b) * T;
      for (int k = 0; k < n; ++k) xb[k] = xb[n + k] = 1 + static_cast<std::int32_t>(rng.next_u64() % (c.vocab - 1));
      for (int t = 2 * n; t < T; ++t) xb[t] = xb[t - n];  // odd T: one more token of the pattern
      for (int t = 0; t + 1 < T; ++t) yb[t] = xb[t + 1];
      yb[T - 1] = xb[0];  // not scored
    }
    if (!model.forward(x.data(), y.data(), count, T, &loss, err)) return false;
    for (int b = 0; b < count; ++b) {
      const float* losses = model.losses() + static_cast<std::size_t>(b) * T;
      for (int k = 0; k + 1 < n; ++k) first_copy += losses[k], second_copy += losses[n + k];
      for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h) {
          const float* w = model.attention(l) + (static_cast<std::size_t>(b) * H + h) * T * T;
          m.head[l * H + h].induction += lm::head_induction(w, T, n);
        }
    }
  }
  m.repeat_sequences = n >= 2 ? sequences : 0;
  if (m.repeat_sequences > 0) {
    for (HeadScores& s : m.head) s.induction /= m.repeat_sequences;
    m.loss_first_copy = first_copy / (static_cast<double>(m.repeat_sequences) * (n - 1));
    m.loss_second_copy = second_copy / (static_cast<double>(m.repeat_sequences) * (n - 1));
  }
  *out = m;
  return true;
}

}  // namespace levers
}  // namespace attn
