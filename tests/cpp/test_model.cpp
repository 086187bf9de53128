// The language model (cpp/model/model.hpp) against the float64 reference of model_reference.hpp:
// every parameter tensor's gradient and the input embeddings' against central finite
// differences, the forward pass (loss, next-token probabilities, every attention row), the
// initialisation's draws, determinism, AdamW and the schedule against steps computed by hand,
// and a short training run on a synthetic task.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "model/heads.hpp"
#include "model/model.hpp"
#include "model_reference.hpp"
#include "core/random.hpp"
#include "model_config.hpp"

namespace {

namespace lm = attn::lm;
namespace r64 = ref64::lm;

using model_test::config;

r64::Shape ref_shape(const lm::ModelConfig& c) { return {c.vocab, c.context, c.layers, c.heads, c.d_model}; }

// Parameters far from the initialisation's 0.02, so every path carries a gradient of order 1e-2
// and the unscaled twin's softmax rows are uneven: matrices and biases N(0, σ²), layernorm
// weights 1 + N(0, 0.2²). σ 0.3 at d_model 8 gives scores of spread ≈ 1–3.
void fill_test_params(const lm::ModelConfig& c, std::uint64_t seed, double sigma, float* params) {
  std::uint64_t sizes[lm::kParamTensors];
  lm::param_sizes(c, sizes);
  attn::Rng rng(seed);
  const bool layernorm_weight[lm::kParamTensors] = {false, false, true,  false, false, false, false, false,
                                                    true,  false, false, false, false, false, true,  false};
  for (int t = 0; t < lm::kParamTensors; ++t)
    for (std::uint64_t i = 0; i < sizes[t]; ++i, ++params)
      *params = layernorm_weight[t] ? float(1 + 0.2 * rng.normal()) : float(sigma * rng.normal());
}

std::vector<int> random_tokens(attn::Rng& rng, int count, int vocab) {
  std::vector<int> x(count);
  for (int& v : x) v = int(rng.next_u64() % std::uint64_t(vocab));
  return x;
}

std::vector<std::int32_t> as_i32(const std::vector<int>& x) { return {x.begin(), x.end()}; }

// Gradients: the float32 backward pass against central differences of the float64 forward,
// per tensor, as the worst absolute error relative to the tensor's largest gradient. The
// float32 forward and backward round at every one of some 60 operations along a path (two
// layers, each a layernorm, two matrix products of depth ≤ 32, a softmax and the residual
// sums), each ~6e-8 relative, and the layernorm backward subtracts nearly equal means. Measured
// worst natively: 3.4e-7 of the largest gradient; the differences themselves are exact to
// ~1e-10. 1e-5 leaves room for the WebAssembly builds' unfused multiply-adds.
constexpr double kGradTol = 1e-5;
// The forward pass: float32 against float64 on the same float32 parameters. Probabilities and
// attention weights are ≤ 1 and carry the rounding of ~60 float32 operations (3.6e-7 measured);
// the loss, a mean of logs of order 2.5, the same relative.
constexpr double kProbTol = 1e-5;
constexpr double kLossRelTol = 1e-5;

struct Problem {
  lm::ModelConfig config;
  int B, T;
};

}  // namespace

TEST_CASE("model: every parameter's gradient matches central differences of a float64 forward", "[model]") {
  // T < context: positions past T must get no gradient, and the layouts at T differ from the
  // reserved ones. Odd widths: the kernels' vector tiles and scalar tails both run.
  const Problem problems[] = {
      {config(13, 6, 2, 2, 8, true), 2, 5},
      {config(13, 6, 2, 2, 8, false), 2, 5},
      {config(7, 4, 1, 3, 9, true), 3, 4},
      {config(7, 4, 1, 3, 9, false), 3, 4},
  };
  for (const Problem& pr : problems) {
    const lm::ModelConfig& c = pr.config;
    CAPTURE(c.vocab, c.layers, c.heads, c.d_model, c.scaled, pr.B, pr.T);
    lm::Model model;
    attn::Error err;
    REQUIRE(model.create(c, pr.B, &err));
    fill_test_params(c, 5, 0.3, model.params());
    attn::Rng data(6);
    const std::vector<int> inputs = random_tokens(data, pr.B * pr.T, c.vocab);
    const std::vector<int> targets = random_tokens(data, pr.B * pr.T, c.vocab);
    float loss = 0;
    REQUIRE(model.forward(as_i32(inputs).data(), as_i32(targets).data(), pr.B, pr.T, &loss, &err));
    REQUIRE(model.backward(&err));

    const r64::Shape shape = ref_shape(c);
    const double scale = c.scaled ? 1 / std::sqrt(double(c.d_model / c.heads)) : 1.0;
    const std::vector<double> p64(model.params(), model.params() + model.size());
    const auto loss_of = [&](const std::vector<double>& p) {
      return r64::evaluate(shape, p, inputs, targets, pr.B, pr.T, scale).loss;
    };
    const std::vector<double> g64 = r64::central_differences(p64, loss_of);
    const r64::Layout at(shape);
    for (int t = 0; t < lm::kParamTensors; ++t) {
      double worst = 0, largest = 0;
      for (std::size_t i = at.at[t]; i < at.at[t + 1]; ++i) {
        worst = std::max(worst, std::fabs(model.grads()[i] - g64[i]));
        largest = std::max(largest, std::fabs(g64[i]));
      }
      CAPTURE(lm::kParamNames[t], worst, largest, worst / largest);
      CHECK(largest > 1e-4);  // every tensor takes part in the loss
      CHECK(worst <= kGradTol * largest);
    }
    // wpe's rows past T: no gradient at all
    for (std::size_t i = at.at[r64::wpe] + std::size_t(pr.T) * c.d_model; i < at.at[r64::wpe + 1]; ++i)
      REQUIRE(model.grads()[i] == 0.0f);

    // the input embeddings x⁰: ∂loss/∂x⁰ against differences of a perturbation added to x⁰
    const std::size_t n_embed = std::size_t(pr.B) * pr.T * c.d_model;
    const std::vector<double> dx = r64::central_differences(std::vector<double>(n_embed, 0.0), [&](const std::vector<double>& e) {
      return r64::evaluate(shape, p64, inputs, targets, pr.B, pr.T, scale, e).loss;
    });
    double worst = 0, largest = 0;
    for (std::size_t i = 0; i < n_embed; ++i) {
      worst = std::max(worst, std::fabs(model.dencoded()[i] - dx[i]));
      largest = std::max(largest, std::fabs(dx[i]));
    }
    CAPTURE(worst, largest, worst / largest);
    CHECK(largest > 1e-4);
    CHECK(worst <= kGradTol * largest);
  }
}

TEST_CASE("model: the forward pass matches the float64 forward (loss, probabilities, attention)", "[model]") {
  for (const bool scaled : {true, false}) {
    const lm::ModelConfig c = config(19, 8, 2, 4, 16, scaled);
    const int B = 2, T = 7;
    CAPTURE(scaled);
    lm::Model model;
    attn::Error err;
    REQUIRE(model.create(c, 3, &err));  // a batch below the reserved one too
    fill_test_params(c, 8, 0.25, model.params());
    attn::Rng data(9);
    const std::vector<int> inputs = random_tokens(data, B * T, c.vocab), targets = random_tokens(data, B * T, c.vocab);
    float loss = 0;
    REQUIRE(model.forward(as_i32(inputs).data(), as_i32(targets).data(), B, T, &loss, &err));
    const std::vector<double> p64(model.params(), model.params() + model.size());
    const double scale = scaled ? 0.5 : 1.0;  // 1/√(16/4)
    const r64::Eval ref = r64::evaluate(ref_shape(c), p64, inputs, targets, B, T, scale);
    CHECK(loss == Approx(ref.loss).epsilon(kLossRelTol));
    double worst_p = 0, worst_att = 0, worst_row_sum = 0;
    for (std::size_t i = 0; i < ref.probs.size(); ++i) worst_p = std::max(worst_p, std::fabs(model.probs()[i] - ref.probs[i]));
    const std::size_t per_layer = std::size_t(B) * c.heads * T * T;
    for (int l = 0; l < c.layers; ++l)
      for (std::size_t i = 0; i < per_layer; ++i)
        worst_att = std::max(worst_att, std::fabs(model.attention(l)[i] - ref.att[l * per_layer + i]));
    for (int row = 0; row < B * T; ++row) {
      double sum = 0;
      for (int v = 0; v < c.vocab; ++v) sum += model.probs()[std::size_t(row) * c.vocab + v];
      worst_row_sum = std::max(worst_row_sum, std::fabs(sum - 1));
    }
    CAPTURE(worst_p, worst_att, worst_row_sum);
    CHECK(worst_p <= kProbTol);
    CHECK(worst_att <= kProbTol);
    CHECK(worst_row_sum <= kProbTol);
    // without targets: the same probabilities, no loss
    float no_loss = 0;
    REQUIRE(model.forward(as_i32(inputs).data(), nullptr, B, T, &no_loss, &err));
    CHECK(std::isnan(no_loss));
    CHECK(std::fabs(model.probs()[3] - ref.probs[3]) <= kProbTol);
    CHECK_FALSE(model.backward(&err));  // nothing to differentiate
    // predict: one sequence, one position's distribution, the same attention
    for (const int position : {0, 4, T - 1}) {
      REQUIRE(model.predict(as_i32(inputs).data() + T, T, position, &err));  // the second sequence
      double worst = 0;
      for (int v = 0; v < c.vocab; ++v)
        worst = std::max(worst, std::fabs(model.probs()[v] - ref.probs[(std::size_t(T) + position) * c.vocab + v]));
      CAPTURE(position, worst);
      CHECK(worst <= kProbTol);
      const std::size_t per_head = std::size_t(T) * T;
      CHECK(std::fabs(model.attention(1)[per_head + 13] - ref.att[per_layer + (std::size_t(1) * c.heads + 1) * per_head + 13]) <= kProbTol);
    }
    CHECK_FALSE(model.predict(as_i32(inputs).data(), T, T, &err));  // no position T
    CHECK(std::string(err.message).find("position") != std::string::npos);
    CHECK_FALSE(model.backward(&err));
  }
}

TEST_CASE("model: the twins differ only in the score scale", "[model]") {
  // The unscaled twin with its query weights and biases divided by √hs computes exactly the
  // scaled twin's scores, so the same loss (up to the rounding of the scale's place).
  const lm::ModelConfig scaled = config(11, 6, 2, 2, 8, true);
  lm::ModelConfig unscaled = scaled;
  unscaled.scaled = false;
  lm::Model a, b;
  attn::Error err;
  REQUIRE(a.create(scaled, 2, &err));
  REQUIRE(b.create(unscaled, 2, &err));
  fill_test_params(scaled, 3, 0.3, a.params());
  std::copy_n(a.params(), a.size(), b.params());
  const int C = scaled.d_model;
  const float inv = 1.0f / 2.0f;  // 1/√hs, hs = 4
  lm::ParamTensors pb = b.param_tensors();
  for (int l = 0; l < scaled.layers; ++l) {
    for (int i = 0; i < C; ++i)
      for (int o = 0; o < C; ++o) pb.qkvw[(std::size_t(l) * C + i) * 3 * C + o] *= inv;  // the q columns
    for (int o = 0; o < C; ++o) pb.qkvb[std::size_t(l) * 3 * C + o] *= inv;
  }
  attn::Rng data(4);
  const auto x = as_i32(random_tokens(data, 12, scaled.vocab)), y = as_i32(random_tokens(data, 12, scaled.vocab));
  float loss_a = 0, loss_b = 0, loss_c = 0;
  REQUIRE(a.forward(x.data(), y.data(), 2, 6, &loss_a, &err));
  REQUIRE(b.forward(x.data(), y.data(), 2, 6, &loss_b, &err));
  CHECK(loss_a == Approx(loss_b).epsilon(1e-6));  // ×½ is exact in float32: only the sum order differs
  // and unscaled on the unchanged parameters is another model
  b.set_scaled(false);
  std::copy_n(a.params(), a.size(), b.params());
  REQUIRE(b.forward(x.data(), y.data(), 2, 6, &loss_c, &err));
  CHECK(std::fabs(loss_c - loss_a) > 1e-3);
}

TEST_CASE("model: initialisation follows its contract", "[model]") {
  const lm::ModelConfig c = config(10, 5, 3, 2, 6, true);
  lm::Model model;
  attn::Error err;
  REQUIRE(model.create(c, 1, &err));
  lm::init_params(c, 42, model.params());
  // the contract's draws, written out: per tensor in order, normal ones entry by entry
  const r64::Layout at(ref_shape(c));
  REQUIRE(at.total() == model.size());
  attn::Rng rng(42);
  const double std_all = 0.02, std_residual = 0.02 / std::sqrt(2.0 * 3);
  for (int t = 0; t < lm::kParamTensors; ++t) {
    CAPTURE(lm::kParamNames[t]);
    const bool normal = t == r64::wte || t == r64::wpe || t == r64::qkvw || t == r64::attprojw || t == r64::fcw ||
                        t == r64::fcprojw;
    const bool ones = t == r64::ln1w || t == r64::ln2w || t == r64::lnfw;
    const double sigma = t == r64::attprojw || t == r64::fcprojw ? std_residual : std_all;
    for (std::size_t i = at.at[t]; i < at.at[t + 1]; ++i) {
      const float expected = normal ? float(sigma * rng.normal()) : ones ? 1.0f : 0.0f;
      REQUIRE(model.params()[i] == expected);
    }
  }
}

TEST_CASE("model: the same seed gives the same losses bit for bit", "[model]") {
  const lm::ModelConfig c = config(17, 8, 2, 2, 16, false);
  float losses[2][4];
  std::vector<float> final_params[2];
  for (int run = 0; run < 2; ++run) {
    lm::Model model;
    attn::Error err;
    REQUIRE(model.create(c, 2, &err));
    lm::init_params(c, 7, model.params());
    std::vector<float> m(model.size(), 0.0f), v(model.size(), 0.0f);
    attn::Rng data(8);
    for (int step = 0; step < 4; ++step) {
      const auto x = as_i32(random_tokens(data, 16, c.vocab)), y = as_i32(random_tokens(data, 16, c.vocab));
      REQUIRE(model.forward(x.data(), y.data(), 2, 8, &losses[run][step], &err));
      REQUIRE(model.backward(&err));
      lm::adamw_step(c, model.params(), model.grads(), m.data(), v.data(), 1e-2f, lm::AdamWConfig{}, step + 1);
    }
    final_params[run].assign(model.params(), model.params() + model.size());
  }
  CHECK(std::memcmp(losses[0], losses[1], sizeof losses[0]) == 0);
  CHECK(final_params[0] == final_params[1]);
  CHECK(losses[0][3] != losses[0][0]);  // the steps did something
}

TEST_CASE("model: AdamW and the schedule take the steps computed by hand", "[model]") {
  SECTION("AdamW, lr 0.1, β1 0.9, β2 0.999, eps 1e-8, weight decay 0.1") {
    float p[2] = {1.0f, -2.0f}, m[2] = {0.0f, 0.0f}, v[2] = {0.0f, 0.0f};
    const float g1[2] = {0.5f, -1.0f}, g2[2] = {0.5f, 2.0f};
    // t = 1: m̂ = g, v̂ = g², so the Adam part is ±1; decay adds 0.1·p:
    // p0 = 1 − 0.1·(1 + 0.1) = 0.89;  p1 = −2 − 0.1·(−1 − 0.2) = −1.88
    lm::adamw_update(p, g1, m, v, 2, 0.1f, 0.9f, 0.999f, 1e-8f, 0.1f, 1);
    CHECK(p[0] == Approx(0.89).epsilon(1e-6));
    CHECK(p[1] == Approx(-1.88).epsilon(1e-6));
    // t = 2: m = (0.095, 0.11), v = (0.00049975, 0.004999); m̂/√v̂ = (1, 0.366104) (as in the
    // training experiment's Adam test); decay 0.1·(0.89, −1.88):
    // p0 = 0.89 − 0.1·(1 + 0.089) = 0.7811;  p1 = −1.88 − 0.1·(0.366104 − 0.188) = −1.8978104
    lm::adamw_update(p, g2, m, v, 2, 0.1f, 0.9f, 0.999f, 1e-8f, 0.1f, 2);
    CHECK(p[0] == Approx(0.7811).epsilon(1e-5));
    CHECK(p[1] == Approx(-1.8978104).epsilon(1e-5));
  }
  SECTION("weight decay only where the table says") {
    const lm::ModelConfig c = config(5, 3, 1, 1, 4, true);
    lm::Model model;
    attn::Error err;
    REQUIRE(model.create(c, 1, &err));
    std::fill(model.params(), model.params() + model.size(), 2.0f);
    std::fill(model.grads(), model.grads() + model.size(), 0.0f);  // no gradient: only the decay moves
    std::vector<float> m(model.size(), 0.0f), v(model.size(), 0.0f);
    lm::AdamWConfig opt;
    opt.weight_decay = 0.5f;
    lm::adamw_step(c, model.params(), model.grads(), m.data(), v.data(), 0.1f, opt, 1);
    const r64::Layout at(ref_shape(c));
    for (int t = 0; t < lm::kParamTensors; ++t) {
      CAPTURE(lm::kParamNames[t]);
      const bool decayed = t == r64::wte || t == r64::wpe || t == r64::qkvw || t == r64::attprojw || t == r64::fcw ||
                           t == r64::fcprojw;
      // decayed: 2 − 0.1·0.5·2 = 1.9
      CHECK(model.params()[at.at[t]] == Approx(decayed ? 1.9 : 2.0).epsilon(1e-6));
    }
  }
  SECTION("warm-up then cosine") {
    // 4 warm-up steps of 10, lr 1e-3 → 1e-4: 2.5e-4, 5e-4, 7.5e-4, 1e-3, then
    // 1e-4 + 4.5e-4·(1 + cos(π·k/5)) for k = 0…5 (t = 4…9)
    CHECK(lm::learning_rate(0, 10, 4, 1e-3f, 1e-4f) == Approx(2.5e-4));
    CHECK(lm::learning_rate(3, 10, 4, 1e-3f, 1e-4f) == Approx(1e-3));
    CHECK(lm::learning_rate(4, 10, 4, 1e-3f, 1e-4f) == Approx(1e-3));
    CHECK(lm::learning_rate(6, 10, 4, 1e-3f, 1e-4f) == Approx(1e-4 + 4.5e-4 * (1 + std::cos(3.14159265358979 * 2 / 5))));
    CHECK(lm::learning_rate(9, 10, 4, 1e-3f, 1e-4f) == Approx(1e-4));
    CHECK(lm::learning_rate(20, 10, 4, 1e-3f, 1e-4f) == Approx(1e-4));  // past the end: the floor
  }
}

TEST_CASE("model: a short training run learns a synthetic sequence task", "[model]") {
  // Random tokens; the target of position t is the token before it (position 0: itself). Only
  // attention to the previous position solves it: a model that learned it reaches 0 nats, from
  // ln 16 = 2.77 at the start. Measured after 200 steps: 0.013 (scaled), 0.020 (unscaled); the
  // bound 0.3 is far from both ends, so only a broken gradient or optimiser fails it.
  for (const bool scaled : {true, false}) {
    const lm::ModelConfig c = config(16, 8, 1, 2, 16, scaled);
    const int B = 8, T = 8, steps = 200;
    lm::Model model;
    attn::Error err;
    REQUIRE(model.create(c, B, &err));
    lm::init_params(c, 1, model.params());
    std::vector<float> m(model.size(), 0.0f), v(model.size(), 0.0f);
    lm::AdamWConfig opt;
    opt.weight_decay = 0.0f;
    attn::Rng data(2);
    std::vector<std::int32_t> x(B * T), y(B * T);
    float first = 0, last = 0;
    for (int step = 0; step < steps; ++step) {
      for (int b = 0; b < B; ++b) {
        for (int t = 0; t < T; ++t) x[b * T + t] = int(data.next_u64() % 16);
        for (int t = 0; t < T; ++t) y[b * T + t] = x[b * T + (t > 0 ? t - 1 : 0)];
      }
      float loss = 0;
      REQUIRE(model.forward(x.data(), y.data(), B, T, &loss, &err));
      REQUIRE(model.backward(&err));
      lm::adamw_step(c, model.params(), model.grads(), m.data(), v.data(),
                     lm::learning_rate(step, steps, 10, 1e-2f, 1e-3f), opt, step + 1);
      if (step == 0) first = loss;
      last = loss;
    }
    CAPTURE(scaled, first, last);
    CHECK(first == Approx(std::log(16.0)).epsilon(0.05));  // the 0.02 initialisation predicts ~uniformly
    CHECK(last < 0.3f);
  }
}

TEST_CASE("model: bad configurations and tokens are refused with a message", "[model]") {
  lm::Model model;
  attn::Error err;
  CHECK_FALSE(model.create(config(10, 4, 1, 3, 8, true), 1, &err));
  CHECK(err.status == attn::Status::invalid_shape);
  CHECK(std::string(err.message).find("multiple of heads") != std::string::npos);
  CHECK_FALSE(model.create(config(1, 4, 1, 1, 8, true), 1, &err));
  CHECK(std::string(err.message).find("vocab") != std::string::npos);
  REQUIRE(model.create(config(10, 4, 1, 2, 8, true), 2, &err));
  lm::init_params(model.config(), 1, model.params());
  const std::int32_t x[4] = {1, 2, 10, 3}, y[4] = {0, 0, 0, -1};
  float loss = 0;
  CHECK_FALSE(model.forward(x, nullptr, 1, 4, &loss, &err));
  CHECK(std::string(err.message) == "inputs[2] is 10, expected a token from 0 to 9");
  const std::int32_t ok[4] = {1, 2, 3, 4};
  CHECK_FALSE(model.forward(ok, y, 1, 4, &loss, &err));
  CHECK(std::string(err.message).find("targets[3] is -1") != std::string::npos);
  CHECK_FALSE(model.forward(ok, y, 1, 5, &loss, &err));  // longer than the context
  CHECK(err.status == attn::Status::invalid_shape);
  CHECK_FALSE(model.forward(ok, y, 3, 1, &loss, &err));  // a larger batch than reserved
  CHECK_FALSE(model.backward(&err));
}

TEST_CASE("model: an inference-only model predicts the same and keeps its position's logits", "[model]") {
  const lm::ModelConfig c = config(13, 8, 2, 2, 8, true);
  lm::Model trained, reader;
  attn::Error err;
  REQUIRE(trained.create(c, 2, &err));
  REQUIRE(reader.create(c, 1, &err, /*for_training=*/false));
  lm::init_params(c, 5, trained.params());
  std::copy_n(trained.params(), trained.size(), reader.params());
  const std::vector<std::int32_t> tokens = {3, 1, 4, 1, 5, 9, 2};
  const int T = static_cast<int>(tokens.size());
  REQUIRE(trained.predict(tokens.data(), T, T - 1, &err));
  REQUIRE(reader.predict(tokens.data(), T, T - 1, &err));
  // the logits' softmax, in double here, is the distribution the model gives
  double top = -1e300, sum = 0;
  for (int v = 0; v < c.vocab; ++v) top = std::max(top, double(reader.logits()[v]));
  for (int v = 0; v < c.vocab; ++v) sum += std::exp(reader.logits()[v] - top);
  for (int v = 0; v < c.vocab; ++v) {
    CHECK(reader.probs()[v] == trained.probs()[v]);
    CHECK(std::fabs(std::exp(reader.logits()[v] - top) / sum - reader.probs()[v]) <= 1e-6);
  }
  for (std::size_t i = 0; i < std::size_t(c.heads) * T * T; ++i) CHECK(reader.attention(1)[i] == trained.attention(1)[i]);
  CHECK(lm::Model::bytes(c, 1) > 0);
  float loss = 0;
  const std::vector<std::int32_t> targets(tokens.begin() + 1, tokens.end());
  REQUIRE(reader.forward(tokens.data(), targets.data(), 1, T - 1, &loss, &err));
  CHECK_FALSE(reader.backward(&err));
  CHECK(std::string(err.message).find("inference") != std::string::npos);
}

TEST_CASE("model: a head's profile and role, on weights built by hand", "[model]") {
  const int T = 4;
  auto causal = [&](auto weight) {  // row i over keys 0…i
    std::vector<float> w(T * T, 0.0f);
    for (int i = 0; i < T; ++i)
      for (int j = 0; j <= i; ++j) w[i * T + j] = weight(i, j);
    return w;
  };
  // all on the previous token (row 1: its only other token is the first)
  const auto previous = causal([](int i, int j) { return i == 0 ? 1.0f : (j == i - 1 ? 1.0f : 0.0f); });
  lm::HeadProfile p = lm::head_profile(previous.data(), T);
  CHECK(p.previous == Approx(1));
  CHECK(p.first == Approx(1.0 / 3));  // row 2 only
  CHECK(p.self == Approx(0));
  CHECK(p.spread == Approx(0));
  CHECK(lm::head_role(p) == lm::HeadRole::previous);
  // even over the tokens so far: spread 1, and each share the mean of 1/2, 1/3, 1/4
  const auto even = causal([](int i, int) { return 1.0f / (i + 1); });
  p = lm::head_profile(even.data(), T);
  const double mean = (1.0 / 2 + 1.0 / 3 + 1.0 / 4) / 3;
  CHECK(p.spread == Approx(1).epsilon(1e-6));
  CHECK(p.first == Approx(mean));
  CHECK(p.self == Approx(mean));
  CHECK(lm::head_role(p) == lm::HeadRole::broad);
  // on the first token, and on itself
  CHECK(lm::head_role(lm::head_profile(causal([](int, int j) { return j == 0 ? 1.0f : 0.0f; }).data(), T)) == lm::HeadRole::first);
  CHECK(lm::head_role(lm::head_profile(causal([](int i, int j) { return j == i ? 1.0f : 0.0f; }).data(), T)) == lm::HeadRole::self);
  // 0.4 on itself, 0.6 on the first token's row 2 … : no share reaches 0.5, low spread: mixed
  const std::vector<float> mixed = {1, 0, 0, 0, 0.6f, 0.4f, 0, 0, 0.3f, 0.3f, 0.4f, 0, 0.3f, 0, 0.3f, 0.4f};
  p = lm::head_profile(mixed.data(), T);
  CHECK(p.self == Approx(0.4));
  CHECK(p.first == Approx(0.4));
  CHECK(p.previous == Approx((0.6 + 0.3 + 0.3) / 3));
  const double h2 = -(0.6 * std::log(0.6) + 0.4 * std::log(0.4)) / std::log(2.0);
  const double h3 = -(2 * 0.3 * std::log(0.3) + 0.4 * std::log(0.4)) / std::log(3.0);
  const double h4 = -(2 * 0.3 * std::log(0.3) + 0.4 * std::log(0.4)) / std::log(4.0);
  CHECK(p.spread == Approx((h2 + h3 + h4) / 3).epsilon(1e-6));
  CHECK(lm::head_role(p) == ((h2 + h3 + h4) / 3 >= lm::kBroadSpread ? lm::HeadRole::broad : lm::HeadRole::mixed));
  CHECK(lm::head_profile(mixed.data(), 1).spread == 0);
}
