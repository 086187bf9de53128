// The training driver's levers and head measurements (scripts/model/train-levers.hpp, issue 34):
// the repeat mix puts a copy where it says and in the share it says, and leaves the issue-20
// batches alone when off; seeds change both the batches and the initialisation; the W_Q, W_K
// initialisation gives the step-0 score spread its formula promises; attention-only keeps the
// MLPs silent through AdamW; the head measurements against values worked out by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "train-levers.hpp"
#include "model/model.hpp"
#include "core/random.hpp"
#include "model_config.hpp"

namespace {

namespace lm = attn::lm;
namespace lv = attn::levers;

using model_test::config;

// A stream where every token is its own position mod 60000: a copy is seen by where it came from.
std::vector<std::int32_t> counting_stream(int n) {
  std::vector<std::int32_t> s(n);
  for (int i = 0; i < n; ++i) s[i] = i % 60000;
  return s;
}

}  // namespace

TEST_CASE("levers: the repeat mix off gives the issue-20 batches", "[model][levers]") {
  const std::vector<std::int32_t> train = counting_stream(5000);
  const int B = 8, T = 16;
  std::vector<std::int32_t> x(B * T), y(B * T);
  lv::make_batch(train, 7, 3, B, T, lv::RepeatMix{}, x.data(), y.data());
  // the issue-20 draw, written out again
  attn::Rng rng(7 ^ (0xD1B54A32D192ED03ull * 4));
  for (int b = 0; b < B; ++b) {
    const std::int32_t start = static_cast<std::int32_t>(rng.next_u64() % (train.size() - T - 1));
    for (int t = 0; t < T; ++t) {
      REQUIRE(x[b * T + t] == start + t);
      REQUIRE(y[b * T + t] == start + t + 1);
    }
  }
}

TEST_CASE("levers: the repeat mix puts an earlier span of the window where it says", "[model][levers]") {
  const std::vector<std::int32_t> train = counting_stream(20000);
  const int B = 16, T = 64;
  lv::RepeatMix mix;
  mix.share = 1;
  mix.min_span = 5;
  mix.max_span = 20;
  std::vector<std::int32_t> x(B * T), y(B * T), x0(B * T), y0(B * T);
  std::vector<lv::RepeatPlacement> where;
  for (int step = 0; step < 20; ++step) {
    lv::make_batch(train, 1, step, B, T, mix, x.data(), y.data(), &where);
    lv::make_batch(train, 1, step, B, T, lv::RepeatMix{}, x0.data(), y0.data());
    for (int b = 0; b < B; ++b) {
      const lv::RepeatPlacement p = where[b];
      REQUIRE(p.length >= 5);
      REQUIRE(p.length <= 20);
      REQUIRE(p.source + p.length <= p.destination);
      REQUIRE(p.destination + p.length <= T + 1);
      // window[j] (j = 0 … T) is x[j] for j < T and y[T−1] for j = T
      const auto window = [&](const std::vector<std::int32_t>& xs, const std::vector<std::int32_t>& ys, int j) {
        return j < T ? xs[b * T + j] : ys[b * T + T - 1];
      };
      const std::int32_t start = x0[b * T];  // the same start as without the mix
      for (int j = 0; j <= T; ++j) {
        const bool copied = j >= p.destination && j < p.destination + p.length;
        const std::int32_t expected = copied ? start + p.source + (j - p.destination) : start + j;
        REQUIRE(window(x, y, j) == expected);
      }
      for (int t = 0; t + 1 < T; ++t) REQUIRE(y[b * T + t] == x[b * T + t + 1]);  // targets: the next token
    }
  }
}

TEST_CASE("levers: a random repeat puts the same random words at both places, the rest untouched",
          "[model][levers]") {
  const std::vector<std::int32_t> train = counting_stream(20000);  // every id ≥ 20000 − 65 apart from
  const int B = 16, T = 64, V = 50;                                  // the random words' 1 … 49
  lv::RepeatMix mix;
  mix.share = 1;
  mix.min_span = 6;
  mix.max_span = 16;
  mix.random_vocab = V;
  std::vector<std::int32_t> x(B * T), y(B * T), x0(B * T), y0(B * T);
  std::vector<lv::RepeatPlacement> where, where0;
  int distinct_spans = 0;
  for (int step = 0; step < 10; ++step) {
    lv::make_batch(train, 5, step, B, T, mix, x.data(), y.data(), &where);
    lv::RepeatMix text = mix;
    text.random_vocab = 0;
    lv::make_batch(train, 5, step, B, T, text, x0.data(), y0.data(), &where0);
    for (int b = 0; b < B; ++b) {
      const lv::RepeatPlacement p = where[b], q = where0[b];
      REQUIRE(p.length > 0);  // the same placement as a text repeat: the random words come after it
      REQUIRE((p.source == q.source && p.destination == q.destination && p.length == q.length));
      const auto window = [&](int j) { return j < T ? x[b * T + j] : y[b * T + T - 1]; };
      const std::int32_t start = x0[b * T];
      bool differs = false;
      for (int j = 0; j <= T; ++j) {
        const bool in_source = j >= p.source && j < p.source + p.length;
        const bool in_copy = j >= p.destination && j < p.destination + p.length;
        if (in_source) {
          REQUIRE(window(j) >= 1);
          REQUIRE(window(j) < V);
          differs |= window(j) != window(p.source);
        } else if (in_copy) {
          REQUIRE(window(j) == window(p.source + (j - p.destination)));
        } else {
          REQUIRE(window(j) == start + j);
        }
      }
      distinct_spans += differs;
      for (int t = 0; t + 1 < T; ++t) REQUIRE(y[b * T + t] == x[b * T + t + 1]);
    }
  }
  CHECK(distinct_spans > 150);  // not one word said 6 … 16 times
}

TEST_CASE("levers: the repeat mix repeats the share of windows it is given", "[model][levers]") {
  const std::vector<std::int32_t> train = counting_stream(20000);
  const int B = 16, T = 64, steps = 250;  // 4,000 windows
  lv::RepeatMix mix;
  mix.share = 0.2f;
  std::vector<std::int32_t> x(B * T), y(B * T);
  std::vector<lv::RepeatPlacement> where;
  int repeated = 0;
  for (int step = 0; step < steps; ++step) {
    lv::make_batch(train, 3, step, B, T, mix, x.data(), y.data(), &where);
    for (const auto& p : where) repeated += p.length > 0;
  }
  // binomial(4000, 0.2): mean 800, sd 25.3; ±4 sd
  CHECK(repeated > 800 - 102);
  CHECK(repeated < 800 + 102);
}

TEST_CASE("levers: another seed changes both the batches and the initialisation", "[model][levers]") {
  const std::vector<std::int32_t> train = counting_stream(20000);
  const int B = 4, T = 8;
  std::vector<std::int32_t> x1(B * T), y1(B * T), x2(B * T), y2(B * T);
  lv::make_batch(train, 1, 0, B, T, lv::RepeatMix{}, x1.data(), y1.data());
  lv::make_batch(train, 2, 0, B, T, lv::RepeatMix{}, x2.data(), y2.data());
  CHECK(x1 != x2);
  const lm::ModelConfig c = config(20, 8, 1, 2, 8, true);
  std::vector<float> p1(lm::param_count(c)), p2(p1.size());
  lm::init_params(c, 1, p1.data());
  lm::init_params(c, 2, p2.data());
  CHECK(p1 != p2);
}

TEST_CASE("levers: W_Q, W_K at 1/sqrt(d_model) give scores of spread ~1 scaled, ~sqrt(d_head) unscaled",
          "[model][levers]") {
  // d_model 64, 2 heads of 32; the spread measured is the rows' own (the mean within-row
  // standard deviation of the scores), over 32 windows of random tokens
  for (const bool scaled : {true, false}) {
    const lm::ModelConfig c = config(200, 32, 1, 2, 64, scaled);
    lm::Model model;
    attn::Error err;
    REQUIRE(model.create(c, 8, &err));
    lm::init_params(c, 5, model.params());
    std::vector<float> gpt2(model.params(), model.params() + model.size());
    lv::rescale_qk_init(c, model.params(), lv::unit_score_qk_std(c));
    // only the q and k columns changed, each by 1/√64 / 0.02 = 6.25
    const lm::ParamTensors before = lm::point_params(c, gpt2.data()), after = model.param_tensors();
    for (int row = 0; row < 64; ++row)
      for (int j = 0; j < 192; ++j) {
        const float b = before.qkvw[row * 192 + j], a = after.qkvw[row * 192 + j];
        if (j < 128) REQUIRE(a == Approx(b * 6.25f).epsilon(1e-6));
        else REQUIRE(a == b);
      }
    REQUIRE(std::equal(gpt2.begin(), gpt2.begin() + (before.qkvw - gpt2.data()), model.params()));
    attn::Rng rng(9);
    std::vector<std::int32_t> text(32 * 33);
    for (auto& t : text) t = static_cast<std::int32_t>(rng.next_u64() % 200);
    lv::Measurement m;
    REQUIRE(lv::measure_heads(model, 8, text, 32, 0, 1, &m, &err));
    for (const auto& h : m.head) {
      const double expected = scaled ? 1.0 : std::sqrt(32.0);
      CHECK(h.score_std > 0.7 * expected);
      CHECK(h.score_std < 1.3 * expected);
    }
  }
}

TEST_CASE("levers: attention-only keeps the MLPs' output at zero through AdamW", "[model][levers]") {
  const lm::ModelConfig c = config(30, 8, 2, 2, 8, true);
  lm::Model model;
  attn::Error err;
  REQUIRE(model.create(c, 2, &err));
  lm::init_params(c, 1, model.params());
  lv::zero_mlp_output(c, model.params(), false);
  std::vector<float> m(model.size()), v(model.size());
  std::vector<std::int32_t> x(16), y(16);
  attn::Rng rng(2);
  for (int step = 1; step <= 5; ++step) {
    for (int i = 0; i < 16; ++i) x[i] = static_cast<std::int32_t>(rng.next_u64() % 30), y[i] = (x[i] + 1) % 30;
    float loss;
    REQUIRE(model.forward(x.data(), y.data(), 2, 8, &loss, &err));
    REQUIRE(model.backward(&err));
    lv::zero_mlp_output(c, model.grads(), true);
    lm::adamw_step(c, model.params(), model.grads(), m.data(), v.data(), 1e-2f, lm::AdamWConfig{}, step);
  }
  const lm::ParamTensors t = model.param_tensors();
  for (int i = 0; i < 2 * 32 * 8; ++i) REQUIRE(t.fcprojw[i] == 0.0f);
  for (int i = 0; i < 2 * 8; ++i) REQUIRE(t.fcprojb[i] == 0.0f);
  CHECK(t.qkvw[0] != 0.0f);  // the attention did train
}

TEST_CASE("levers: a head's scores are the core's, worked out by hand", "[model][levers]") {
  // T = 3, causal; rows 1 and 2 are measured (row 0 has one choice)
  const float w[] = {1.0f, 0.0f, 0.0f,  //
                     0.5f, 0.5f, 0.0f,  //
                     0.25f, 0.25f, 0.5f};
  lv::HeadScores s;
  lv::detail::add_profile(w, 3, &s);
  CHECK(s.previous == Approx((0.5 + 0.25) / 2));
  CHECK(s.first == Approx((0.5 + 0.25) / 2));
  CHECK(s.self == Approx((0.5 + 0.5) / 2));
  CHECK(s.top == Approx(0.5));
  // row 1 even over its 2 keys (1); row 2: entropy 1.5 ln 2 of ln 3
  CHECK(s.spread == Approx((1.0 + 1.5 * std::log(2.0) / std::log(3.0)) / 2));
  // ln w: row 1 all −ln 2 (0); row 2 −2 ln 2, −2 ln 2, −ln 2 (standard deviation (ln 2)·√2/3)
  CHECK(s.score_std == Approx(std::log(2.0) * std::sqrt(2.0) / 3.0 / 2));
}

TEST_CASE("levers: even rows score the even baselines", "[model][levers]") {
  // W_Q = W_K = 0: every score 0, every row even
  const lm::ModelConfig c = config(50, 16, 2, 2, 8, true);
  lm::Model model;
  attn::Error err;
  REQUIRE(model.create(c, 4, &err));
  lm::init_params(c, 1, model.params());
  lv::rescale_qk_init(c, model.params(), 1e-30);
  const lm::ParamTensors t = model.param_tensors();
  for (int l = 0; l < 2; ++l)
    for (int row = 0; row < 8; ++row)
      for (int j = 0; j < 16; ++j) t.qkvw[(l * 8 + row) * 24 + j] = 0;
  std::vector<std::int32_t> text(10 * 17, 3);
  lv::Measurement m;
  REQUIRE(lv::measure_heads(model, 4, text, 10, 6, 1, &m, &err));
  double even_text = 0, even_induction = 0;  // by hand: rows 1 … 15 see i + 1 keys; rows 8 + k, k = 0 … 7
  for (int i = 1; i < 16; ++i) even_text += 1.0 / (i + 1) / 15;
  for (int k = 0; k < 8; ++k) even_induction += 1.0 / (9 + k) / 8;
  CHECK(m.even_text == Approx(even_text));
  CHECK(m.even_induction == Approx(even_induction));
  CHECK(m.text_windows == 10);
  CHECK(m.repeat_sequences == 6);
  for (const auto& h : m.head) {
    CHECK(h.previous == Approx(even_text).epsilon(1e-5));
    CHECK(h.top == Approx(even_text).epsilon(1e-5));
    CHECK(h.spread == Approx(1.0).epsilon(1e-5));
    CHECK(h.induction == Approx(even_induction).epsilon(1e-5));
  }
}
