// The training experiment (cpp/experiment/train.hpp) against the float64 reference of train_reference.hpp:
// every parameter's gradient against central finite differences, the optimisers against steps
// computed by hand, the task's data against its contract, determinism, and the first losses of
// a training run against a float64 training run (which makes native and wasm agree).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "core/optim.hpp"
#include "experiment/train.hpp"
#include "train_reference.hpp"

namespace {

namespace tr = attn::train;

ref64::train::Shape ref_shape(const tr::ModelShape& s) {
  return {s.task.letters, s.task.pairs, s.task.queries, s.d_model, s.d_k, s.d_v};
}

ref64::train::Batch ref_batch(const tr::Batch& b) {
  ref64::train::Batch r;
  r.count = b.count;
  r.keys.assign(b.keys.begin(), b.keys.end());
  r.values.assign(b.values.begin(), b.values.end());
  r.queries.assign(b.queries.begin(), b.queries.end());
  r.answers.assign(b.answers.begin(), b.answers.end());
  r.target.assign(b.target.begin(), b.target.end());
  return r;
}

tr::ModelShape model_shape(int letters, int pairs, int queries, int d_model, int d_k, int d_v) {
  tr::ModelShape s;
  s.task = {letters, pairs, queries};
  s.d_model = d_model;
  s.d_k = d_k;
  s.d_v = d_v;
  return s;
}

const char* const kTensorNames[] = {"embed_key", "embed_value", "w_q", "w_k", "w_v", "w_o"};

// Gradients: the model's float32 backward pass against central differences of the float64
// forward, per tensor, relative to the tensor's largest gradient. Float32 sums of up to ~100
// terms (d_k, P·d_v, the batch's rows) carry ~100·6e-8 = 6e-6 relative error at worst, and
// the softmax backward of a nearly saturated unscaled row subtracts nearly equal numbers
// (measured worst 3.9e-6, the saturated case); the differences themselves are exact to ~1e-10.
constexpr double kGradTol = 2e-5;

// Loss curves: the model's float32 training against the float64 training of the reference
// (same seed, same documented draws). Each step's rounding (~1e-7 relative) is carried into the
// next through the parameters; over kCurveSteps steps at these stable learning rates the drift
// measured stays below 1.5e-6 relative in every build (native, wasm SIMD, wasm scalar). 1e-4
// leaves a wide margin for the builds' last-bit differences (fused multiply-add natively,
// mul + add in wasm). (At a learning rate
// where a run diverges the drift is chaotic — 1.6e-3 at SGD lr 0.5 — so the test avoids one.)
constexpr double kCurveTol = 1e-4;
constexpr int kCurveSteps = 16;

}  // namespace

TEST_CASE("train: every parameter's gradient matches central differences of a float64 forward", "[train]") {
  struct Case {
    tr::ModelShape shape;
    float init_scale;
  };
  // Odd widths on purpose: the SIMD kernels' vector tiles, single vectors and scalar tails all
  // run. The last case saturates the unscaled rows (score spread ≈ g²√d_k ≈ 25): tiny gradients
  // through the softmax, found all the same.
  const Case cases[] = {
      {model_shape(5, 3, 2, 4, 4, 3), 1.0f},
      {model_shape(8, 5, 5, 6, 16, 4), 1.0f},
      {model_shape(26, 7, 3, 8, 33, 5), 1.0f},
      {model_shape(12, 6, 4, 9, 70, 11), 0.5f},
      {model_shape(10, 6, 6, 5, 150, 7), 1.5f},
  };
  for (const Case& c : cases) {
    for (const bool scaled : {true, false}) {
      const float scale = scaled ? attn::inv_sqrt(c.shape.d_k) : 1.0f;
      CAPTURE(c.shape.d_k, c.shape.d_model, c.init_scale, scaled);
      tr::Model model;
      attn::Error err;
      REQUIRE(model.create(c.shape, 3, &err));
      attn::Rng init(11), data(12);
      tr::init_params(c.shape, c.init_scale, init, model.params());
      tr::Batch batch;
      tr::resize_batch(c.shape.task, 3, &batch);
      tr::generate_batch(c.shape.task, data, &batch);
      const tr::ForwardStats stats = model.forward(batch, scale);
      model.backward(batch, scale);

      const auto shape64 = ref_shape(c.shape);
      const auto batch64 = ref_batch(batch);
      const std::vector<double> p64(model.params(), model.params() + model.size());
      const auto eval = ref64::train::evaluate(shape64, p64, batch64, scale);
      CHECK(stats.loss == Approx(eval.loss).epsilon(1e-5));
      CHECK(stats.accuracy == Approx(eval.accuracy));
      const auto g64 = ref64::train::finite_difference_gradient(shape64, p64, batch64, scale);

      const ref64::train::Layout at(shape64);
      const std::size_t bounds[] = {at.e_key, at.e_value, at.w_q, at.w_k, at.w_v, at.w_o, at.total};
      for (int t = 0; t < 6; ++t) {
        double worst = 0, largest = 0;
        for (std::size_t i = bounds[t]; i < bounds[t + 1]; ++i) {
          worst = std::max(worst, std::fabs(model.grads()[i] - g64[i]));
          largest = std::max(largest, std::fabs(g64[i]));
        }
        CAPTURE(kTensorNames[t], worst, largest);
        CHECK(largest > 0);  // every tensor takes part in the loss
        CHECK(worst <= kGradTol * largest);
      }
    }
  }
}

TEST_CASE("train: the forward pass's attention statistics match the float64 weights", "[train]") {
  const tr::ModelShape shape = model_shape(9, 6, 4, 8, 24, 8);
  tr::Model model;
  attn::Error err;
  REQUIRE(model.create(shape, 5, &err));
  attn::Rng init(3), data(4);
  tr::init_params(shape, 1.0f, init, model.params());
  tr::Batch batch;
  tr::resize_batch(shape.task, 5, &batch);
  tr::generate_batch(shape.task, data, &batch);
  for (const float scale : {attn::inv_sqrt(shape.d_k), 1.0f}) {
    const tr::ForwardStats st = model.forward(batch, scale);
    const std::vector<double> p64(model.params(), model.params() + model.size());
    const auto eval = ref64::train::evaluate(ref_shape(shape), p64, ref_batch(batch), scale);
    const int P = shape.task.pairs, rows = batch.count * shape.task.queries;
    double max_weight = 0, entropy = 0, match = 0, worst = 0;
    for (int r = 0; r < rows; ++r) {
      const double* w = eval.weights.data() + std::size_t(r) * P;
      max_weight += *std::max_element(w, w + P) / rows;
      for (int j = 0; j < P; ++j) {
        if (w[j] > 0) entropy -= w[j] * std::log(w[j]) / rows;
        worst = std::max(worst, std::fabs(model.weights()[std::size_t(r) * P + j] - w[j]));
      }
      match += w[batch.target[r]] / rows;
    }
    // float32 softmax of float32 scores: ~1e-6 absolute (see test_attention.cpp's 2e-5)
    CHECK(worst < 2e-5);
    CHECK(st.max_weight == Approx(max_weight).margin(2e-5));
    CHECK(st.entropy == Approx(entropy).margin(1e-4));
    CHECK(st.match_weight == Approx(match).margin(2e-5));
  }
}

TEST_CASE("train: the model refuses a batch larger than it was created for", "[train]") {
  const tr::ModelShape shape = model_shape(6, 4, 3, 8, 8, 8);
  tr::Model model;
  attn::Error err;
  REQUIRE(model.create(shape, 2, &err));
  tr::Batch batch;
  tr::resize_batch(shape.task, 3, &batch);
  attn::Rng rng(1);
  tr::generate_batch(shape.task, rng, &batch);
  std::fill(model.grads(), model.grads() + model.size(), 7.0f);
  CHECK(std::isnan(model.forward(batch, 1.0f).loss));
  model.backward(batch, 1.0f);
  CHECK(model.grads()[0] == 7.0f);  // untouched
}

TEST_CASE("train: SGD with momentum and Adam take the steps computed by hand", "[train]") {
  // params (1, −2); gradients g1 = (0.5, −1), then g2 = (0.5, 2); lr 0.1.
  const float g1[2] = {0.5f, -1.0f}, g2[2] = {0.5f, 2.0f};
  SECTION("SGD, momentum 0.9") {
    float p[2] = {1.0f, -2.0f}, v[2] = {0.0f, 0.0f};
    // v = g1 = (0.5, −1); p −= 0.1 v → (0.95, −1.9)
    attn::optim::sgd_update(p, g1, v, 2, 0.1f, 0.9f);
    CHECK(p[0] == Approx(0.95).epsilon(1e-6));
    CHECK(p[1] == Approx(-1.9).epsilon(1e-6));
    // v = 0.9 (0.5, −1) + (0.5, 2) = (0.95, 1.1); p −= 0.1 v → (0.855, −2.01)
    attn::optim::sgd_update(p, g2, v, 2, 0.1f, 0.9f);
    CHECK(v[0] == Approx(0.95).epsilon(1e-6));
    CHECK(v[1] == Approx(1.1).epsilon(1e-6));
    CHECK(p[0] == Approx(0.855).epsilon(1e-6));
    CHECK(p[1] == Approx(-2.01).epsilon(1e-6));
  }
  SECTION("plain SGD (momentum 0)") {
    float p[2] = {1.0f, -2.0f}, v[2] = {0.0f, 0.0f};
    attn::optim::sgd_update(p, g1, v, 2, 0.1f, 0.0f);
    attn::optim::sgd_update(p, g2, v, 2, 0.1f, 0.0f);
    CHECK(p[0] == Approx(0.9).epsilon(1e-6));   // 1 − 0.05 − 0.05
    CHECK(p[1] == Approx(-2.1).epsilon(1e-6));  // −2 + 0.1 − 0.2
  }
  SECTION("Adam, β1 0.9, β2 0.999, eps 1e-8") {
    float p[2] = {1.0f, -2.0f}, m[2] = {0.0f, 0.0f}, v[2] = {0.0f, 0.0f};
    // t = 1: m = 0.1 g1, v = 0.001 g1²; bias-corrected m̂ = g1, v̂ = g1², so the step is
    // lr·g/|g| = ±0.1 (eps shifts it by 2e-9): p = (0.9, −1.9)
    attn::optim::adam_update(p, g1, m, v, 2, 0.1f, 0.9f, 0.999f, 1e-8f, 1);
    // (the moments to 1e-4: 0.999f is 0.99900001, so 1 − β2 in float32 is off by 1.3e-5 relative;
    // the bias correction divides the same error out of the step)
    CHECK(m[0] == Approx(0.05).epsilon(1e-4));
    CHECK(v[1] == Approx(0.001).epsilon(1e-4));
    CHECK(p[0] == Approx(0.9).epsilon(1e-6));
    CHECK(p[1] == Approx(-1.9).epsilon(1e-6));
    // t = 2: m = 0.9 m + 0.1 g2 = (0.095, 0.11); v = 0.999 v + 0.001 g2² = (0.00049975, 0.004999)
    // m̂ = m / 0.19 = (0.5, 0.578947); v̂ = v / 0.001999 = (0.25, 2.500750); √v̂ = (0.5, 1.581376)
    // step = 0.1 m̂/√v̂ = (0.1, 0.0366104) → p = (0.8, −1.9366104)
    attn::optim::adam_update(p, g2, m, v, 2, 0.1f, 0.9f, 0.999f, 1e-8f, 2);
    CHECK(m[1] == Approx(0.11).epsilon(1e-4));
    CHECK(v[0] == Approx(0.00049975).epsilon(1e-4));
    CHECK(p[0] == Approx(0.8).epsilon(1e-6));
    CHECK(p[1] == Approx(-1.9366104).epsilon(1e-6));
  }
}

TEST_CASE("train: gradient-norm clipping scales only a norm above the limit", "[train]") {
  float g[2] = {3.0f, 4.0f};
  CHECK(attn::optim::clip_grad_norm(g, 2, 0.0f) == 5.0f);  // 0: off
  CHECK(g[0] == 3.0f);
  CHECK(attn::optim::clip_grad_norm(g, 2, 10.0f) == 5.0f);  // below the limit: untouched
  CHECK(g[1] == 4.0f);
  CHECK(attn::optim::clip_grad_norm(g, 2, 1.0f) == 5.0f);  // the norm before clipping
  CHECK(g[0] == Approx(0.6f));
  CHECK(g[1] == Approx(0.8f));
  CHECK(attn::optim::l2_norm(g, 2) == Approx(1.0f));
}

TEST_CASE("train: batches follow the task's contract", "[train]") {
  const tr::TaskShape task{11, 7, 5};
  tr::Batch batch;
  tr::resize_batch(task, 400, &batch);
  attn::Rng rng(77);
  tr::generate_batch(task, rng, &batch);
  std::vector<int> key_count(task.letters, 0), target_count(task.pairs, 0), value_count(tr::kDigits, 0);
  for (int b = 0; b < batch.count; ++b) {
    std::set<int> keys, asked;
    for (int j = 0; j < task.pairs; ++j) {
      const int key = batch.keys[std::size_t(b) * task.pairs + j], value = batch.values[std::size_t(b) * task.pairs + j];
      REQUIRE(key >= 0);
      REQUIRE(key < task.letters);
      REQUIRE(value >= 0);
      REQUIRE(value < tr::kDigits);
      keys.insert(key);
      ++key_count[key];
      ++value_count[value];
    }
    CHECK(keys.size() == std::size_t(task.pairs));  // distinct keys
    for (int i = 0; i < task.queries; ++i) {
      const std::size_t row = std::size_t(b) * task.queries + i;
      const int j = batch.target[row];
      REQUIRE(j >= 0);
      REQUIRE(j < task.pairs);
      asked.insert(j);
      ++target_count[j];
      CHECK(batch.queries[row] == batch.keys[std::size_t(b) * task.pairs + j]);
      CHECK(batch.answers[row] == batch.values[std::size_t(b) * task.pairs + j]);
    }
    CHECK(asked.size() == std::size_t(task.queries));  // distinct queries
  }
  // Uniform draws: 400·7/11 ≈ 255 per letter, 400·5/7 ≈ 286 per pair slot, 280 per digit; a
  // skewed shuffle (e.g. an off-by-one range) leaves some at 0 or far off. ±30 % is > 6 σ.
  for (int c : key_count) CHECK(std::abs(c - 400.0 * 7 / 11) < 0.3 * 400 * 7 / 11);
  for (int c : target_count) CHECK(std::abs(c - 400.0 * 5 / 7) < 0.3 * 400 * 5 / 7);
  for (int c : value_count) CHECK(std::abs(c - 400.0 * 7 / 10) < 0.3 * 400 * 7 / 10);

  // The draws are the documented ones: the reference written from the contract agrees.
  attn::Rng again(77);
  const auto ref = ref64::train::make_batch({task.letters, task.pairs, task.queries, 1, 1, 1}, again, 400);
  CHECK(std::equal(ref.keys.begin(), ref.keys.end(), batch.keys.begin()));
  CHECK(std::equal(ref.values.begin(), ref.values.end(), batch.values.begin()));
  CHECK(std::equal(ref.queries.begin(), ref.queries.end(), batch.queries.begin()));
  CHECK(std::equal(ref.target.begin(), ref.target.end(), batch.target.begin()));
  CHECK(std::equal(ref.answers.begin(), ref.answers.end(), batch.answers.begin()));
}

TEST_CASE("train: the initialisation is the documented one", "[train]") {
  const tr::ModelShape shape = model_shape(7, 4, 3, 6, 20, 5);
  std::vector<float> params(tr::param_count(shape));
  attn::Rng rng(5);
  tr::init_params(shape, 0.7f, rng, params.data());
  attn::Rng again(5);
  const auto ref = ref64::train::init_params(ref_shape(shape), 0.7f, again);
  REQUIRE(ref.size() == params.size());
  for (std::size_t i = 0; i < params.size(); ++i) REQUIRE(double(params[i]) == ref[i]);
  // and the layout is the documented one
  const tr::ParamTensors t = tr::param_tensors(shape, params.data());
  const ref64::train::Layout at(ref_shape(shape));
  CHECK(t.w_q - params.data() == std::ptrdiff_t(at.w_q));
  CHECK(t.w_o - params.data() == std::ptrdiff_t(at.w_o));
}

namespace {

tr::Config small_config() {
  tr::Config c;
  c.model = model_shape(6, 4, 3, 8, 8, 8);
  c.batch = 8;
  c.heldout = 8;
  c.steps = 30;
  c.seed = 21;
  return c;
}

// e created from c and stepped through all of c.steps
void create_and_train(tr::Experiment& e, const tr::Config& c) {
  attn::Error err;
  REQUIRE(e.create(c, &err));
  e.step(c.steps);
}

std::vector<float> curve(const tr::Experiment& e, tr::Run run, tr::Metric m) {
  const float* x = e.metric(run, m);
  return std::vector<float>(x, x + e.run_steps_done(run));
}

}  // namespace

TEST_CASE("train: both runs start from the same parameters and differ only in the scale", "[train]") {
  tr::Config c = small_config();
  tr::Experiment e;
  attn::Error err;
  REQUIRE(e.create(c, &err));
  const tr::Model& s = e.model(tr::Run::scaled);
  const tr::Model& u = e.model(tr::Run::unscaled);
  CHECK(std::equal(s.params(), s.params() + s.size(), u.params()));
  CHECK(e.scale(tr::Run::scaled) == Approx(1 / std::sqrt(8.0)));
  CHECK(e.scale(tr::Run::unscaled) == 1.0f);
  REQUIRE(e.step(c.steps) == c.steps);
  CHECK(curve(e, tr::Run::scaled, tr::Metric::loss) != curve(e, tr::Run::unscaled, tr::Metric::loss));

  // At d_k = 1 the scale 1/√1 is 1: the two runs are the same computation, bit for bit.
  c.model.d_k = 1;
  tr::Experiment one;
  REQUIRE(one.create(c, &err));
  one.step(c.steps);
  for (int m = 0; m < tr::kMetrics; ++m)
    CHECK(curve(one, tr::Run::scaled, tr::Metric(m)) == curve(one, tr::Run::unscaled, tr::Metric(m)));
}

TEST_CASE("train: the same seed gives the same curves; reset replays them", "[train]") {
  const tr::Config c = small_config();
  tr::Experiment a, b;
  attn::Error err;
  REQUIRE(a.create(c, &err));
  REQUIRE(b.create(c, &err));
  CHECK(a.step(10) == 10);
  CHECK(a.step(100) == c.steps - 10);  // never past config.steps
  CHECK(a.step(1) == 0);
  for (int k = 0; k < c.steps; k += 7) b.step(7);  // in other chunks
  REQUIRE(a.steps_done() == c.steps);
  for (int r = 0; r < tr::kRuns; ++r)
    for (int m = 0; m < tr::kMetrics; ++m)
      CHECK(curve(a, tr::Run(r), tr::Metric(m)) == curve(b, tr::Run(r), tr::Metric(m)));

  const std::vector<float> first = curve(a, tr::Run::unscaled, tr::Metric::heldout_loss);
  const std::vector<float> shown(a.shown_weights(tr::Run::unscaled), a.shown_weights(tr::Run::unscaled) + 12);
  a.reset();
  CHECK(a.steps_done() == 0);
  CHECK(a.run_steps_done(tr::Run::scaled) == 0);
  a.step(c.steps);
  CHECK(curve(a, tr::Run::unscaled, tr::Metric::heldout_loss) == first);
  CHECK(std::equal(shown.begin(), shown.end(), a.shown_weights(tr::Run::unscaled)));

  tr::Config other = c;
  other.seed = 22;
  tr::Experiment d;
  REQUIRE(d.create(other, &err));
  d.step(c.steps);
  CHECK(curve(d, tr::Run::unscaled, tr::Metric::heldout_loss) != first);
}

TEST_CASE("train: metrics and the shown attention are in range", "[train]") {
  tr::Config c = small_config();
  tr::Experiment e;
  attn::Error err;
  REQUIRE(e.create(c, &err));
  const int P = c.model.task.pairs, Qn = c.model.task.queries;
  e.step(c.steps);
  for (int r = 0; r < tr::kRuns; ++r) {
    const tr::Run run = tr::Run(r);
    for (float a : curve(e, run, tr::Metric::heldout_accuracy)) CHECK((a >= 0 && a <= 1));
    for (float w : curve(e, run, tr::Metric::max_weight)) CHECK((w >= 1.0f / P - 1e-6f && w <= 1 + 1e-6f));
    for (float h : curve(e, run, tr::Metric::entropy)) CHECK((h >= 0 && h <= std::log(float(P)) + 1e-5f));
    for (float g : curve(e, run, tr::Metric::grad_norm_wq)) CHECK((g >= 0 && std::isfinite(g)));
    for (int i = 0; i < Qn; ++i) {
      double sum = 0;
      for (int j = 0; j < P; ++j) sum += e.shown_weights(run)[i * P + j];
      CHECK(sum == Approx(1).margin(1e-5));
    }
  }
  // The shown example is held-out example 0.
  CHECK(e.heldout().count == c.heldout);
  CHECK(tr::key_symbol(e.heldout().keys[0]) >= 'a');
  CHECK(tr::value_symbol(9) == '9');
}

TEST_CASE("train: reached_at is the first step at the accuracy goal; shown_on_target counts the rows' argmax on their pair", "[train]") {
  tr::Config c = small_config();
  c.steps = 60;
  c.learning_rate = 0.05f;
  tr::Experiment e;
  create_and_train(e, c);
  const tr::Batch& shown = e.heldout();
  const int P = c.model.task.pairs, Qn = c.model.task.queries;
  for (int r = 0; r < tr::kRuns; ++r) {
    const tr::Run run = tr::Run(r);
    CAPTURE(r);
    // the rule, by hand from the curve: the first step whose accuracy is at least the goal
    const std::vector<float> acc = curve(e, run, tr::Metric::heldout_accuracy);
    int first = 0;
    for (std::size_t t = 0; t < acc.size() && !first; ++t)
      if (acc[t] >= tr::kAccuracyGoal) first = static_cast<int>(t) + 1;
    CHECK(e.reached_at(run) == first);
    int hits = 0;
    for (int i = 0; i < Qn; ++i) {
      const float* w = e.shown_weights(run) + i * P;
      int best = 0;
      for (int j = 1; j < P; ++j)
        if (w[j] > w[best]) best = j;
      hits += best == shown.target[i];
    }
    CHECK(e.shown_on_target(run) == hits);
  }
  CHECK(e.reached_at(tr::Run::scaled) > 0);  // this small setting is learned within 60 steps
  e.reset();
  CHECK(e.reached_at(tr::Run::scaled) == 0);
}

TEST_CASE("train: optimizer names", "[train]") {
  tr::Optimizer o = tr::Optimizer::sgd;
  attn::Error err;
  CHECK(tr::parse_optimizer("adam", &o, &err));
  CHECK(o == tr::Optimizer::adam);
  CHECK(tr::parse_optimizer("sgd", &o, &err));
  CHECK(o == tr::Optimizer::sgd);
  CHECK(std::string(tr::optimizer_name(tr::Optimizer::adam)) == "adam");
  CHECK_FALSE(tr::parse_optimizer("Adam", &o, &err));
  CHECK(err.status == attn::Status::invalid_argument);
  CHECK(std::string(err.message) == "optimizer must be \"sgd\" or \"adam\", got \"Adam\"");
}

TEST_CASE("train: a run that blows up stops with finite curves", "[train]") {
  tr::Experiment e;
  tr::Config c = small_config();
  c.learning_rate = 1e30f;
  c.momentum = 0;
  create_and_train(e, c);
  for (int r = 0; r < tr::kRuns; ++r) {
    const tr::Run run = tr::Run(r);
    CAPTURE(r);
    CHECK(e.diverged_at(run) > 0);
    CHECK(e.run_steps_done(run) == e.diverged_at(run) - 1);
    for (int m = 0; m < tr::kMetrics; ++m)
      for (float x : curve(e, run, tr::Metric(m))) CHECK(std::isfinite(x));
    for (int i = 0; i < c.model.task.queries * c.model.task.pairs; ++i) CHECK(std::isfinite(e.shown_weights(run)[i]));
  }
  CHECK(e.steps_done() == c.steps);  // the data stream goes on
}

TEST_CASE("train: a bad config is refused with a message naming the field", "[train]") {
  struct Bad {
    const char* field;
    void (*spoil)(tr::Config&);
  };
  const Bad bad[] = {
      {"letters", [](tr::Config& c) { c.model.task.letters = 27; }},
      {"pairs", [](tr::Config& c) { c.model.task.pairs = c.model.task.letters + 1; }},
      {"queries", [](tr::Config& c) { c.model.task.queries = 0; }},
      {"dModel", [](tr::Config& c) { c.model.d_model = 0; }},
      {"dk", [](tr::Config& c) { c.model.d_k = 513; }},
      {"dv", [](tr::Config& c) { c.model.d_v = -1; }},
      {"batch", [](tr::Config& c) { c.batch = 0; }},
      {"heldout", [](tr::Config& c) { c.heldout = 100000; }},
      {"steps", [](tr::Config& c) { c.steps = 0; }},
      {"optimizer", [](tr::Config& c) { c.optimizer = tr::Optimizer(7); }},
      {"initScale", [](tr::Config& c) { c.init_scale = NAN; }},
      {"learningRate", [](tr::Config& c) { c.learning_rate = 0; }},
      {"momentum", [](tr::Config& c) { c.momentum = 1; }},
      {"beta1", [](tr::Config& c) { c.beta1 = -0.1f; }},
      {"beta2", [](tr::Config& c) { c.beta2 = INFINITY; }},
      {"eps", [](tr::Config& c) { c.eps = 0; }},
      {"clipNorm", [](tr::Config& c) { c.clip_norm = -1; }},
      {"bytes", [](tr::Config& c) {  // every limit alone is fine, together too large
         c.model.d_k = tr::kMaxDk;
         c.model.task = {26, 26, 26};
         c.heldout = tr::kMaxHeldout;
       }},
  };
  for (const Bad& b : bad) {
    tr::Config c;
    b.spoil(c);
    attn::Error err;
    tr::Experiment e;
    CAPTURE(b.field);
    CHECK_FALSE(tr::validate_config(c, &err));
    CHECK(std::string(err.message).find(b.field) != std::string::npos);
    CHECK(err.status != attn::Status::ok);
    // a size beyond the limit is too_large, like every reservation beyond a budget
    if (std::string(b.field) == "bytes") CHECK(err.status == attn::Status::too_large);
    CHECK_FALSE(e.create(c, &err));
  }
  attn::Error err;
  CHECK(tr::validate_config(tr::Config(), &err));  // the defaults are valid
  // the messages of the shared checks (cpp/core/check.hpp): the field, the value, what was expected
  const std::pair<void (*)(tr::Config&), const char*> messages[] = {
      {[](tr::Config& c) { c.model.d_k = 513; }, "dk must be an integer from 1 to 512, got 513"},
      {[](tr::Config& c) { c.momentum = 1; }, "momentum must be at least 0 and less than 1, got 1"},
      {[](tr::Config& c) { c.clip_norm = -0.5f; }, "clipNorm must be 0 (off) or a positive finite number, got -0.5"},
      {[](tr::Config& c) { c.learning_rate = NAN; }, "learningRate must be a positive finite number, got NaN"},
  };
  for (const auto& [spoil, message] : messages) {
    tr::Config c;
    spoil(c);
    CHECK_FALSE(tr::validate_config(c, &err));
    CHECK(std::string(err.message) == message);
  }

  // A failed create leaves an empty experiment, even one that had run before.
  tr::Experiment e;
  REQUIRE(e.create(small_config(), &err));
  e.step(5);
  tr::Config c = small_config();
  c.steps = 0;
  CHECK_FALSE(e.create(c, &err));
  CHECK(e.steps_done() == 0);
  CHECK(e.run_steps_done(tr::Run::scaled) == 0);
  CHECK(e.step(5) == 0);
}

TEST_CASE("train: the first losses of a training run match a float64 training run", "[train]") {
  // Same seed → same init and batches (the documented draws, rebuilt by the reference), the
  // gradient of the reference by finite differences: an independent path to the same curve. Native
  // and wasm builds each stay within kCurveTol of it, so within 2·kCurveTol of each other.
  for (const tr::Optimizer opt : {tr::Optimizer::sgd, tr::Optimizer::adam}) {
    tr::Config c = small_config();
    c.optimizer = opt;
    c.learning_rate = 0.05f;  // momentum 0.9 for SGD
    c.steps = kCurveSteps;
    tr::Experiment e;
    create_and_train(e, c);
    const auto shape = ref_shape(c.model);
    attn::Rng seeds(c.seed);
    attn::Rng init(seeds.next_u64()), data(seeds.next_u64()), held(seeds.next_u64());
    const auto initial = ref64::train::init_params(shape, c.init_scale, init);
    const auto heldout = ref64::train::make_batch(shape, held, c.heldout);
    std::vector<ref64::train::Batch> batches;
    for (int t = 0; t < c.steps; ++t) batches.push_back(ref64::train::make_batch(shape, data, c.batch));
    for (int r = 0; r < tr::kRuns; ++r) {
      const tr::Run run = tr::Run(r);
      const double scale = e.scale(run);
      CAPTURE(int(opt), r);
      REQUIRE(e.run_steps_done(run) == c.steps);
      std::vector<double> p = initial, m(p.size(), 0.0), v(p.size(), 0.0);
      double worst = 0, first = 0, last = 0;
      for (int t = 0; t < c.steps; ++t) {
        const double loss = ref64::train::evaluate(shape, p, batches[t], scale).loss;
        const auto g = ref64::train::finite_difference_gradient(shape, p, batches[t], scale);
        if (opt == tr::Optimizer::sgd) ref64::train::sgd(p, g, m, c.learning_rate, c.momentum);
        else ref64::train::adam(p, g, m, v, c.learning_rate, c.beta1, c.beta2, c.eps, t + 1);
        const double held_loss = ref64::train::evaluate(shape, p, heldout, scale).loss;
        worst = std::max({worst, std::fabs(e.metric(run, tr::Metric::loss)[t] - loss) / loss,
                          std::fabs(e.metric(run, tr::Metric::heldout_loss)[t] - held_loss) / held_loss});
        (t == 0 ? first : last) = held_loss;
      }
      CAPTURE(first, last, worst);
      CHECK(last < 0.9 * first);  // the run really trains: the curve is not flat
      CHECK(worst <= kCurveTol);
    }
  }
}

TEST_CASE("train: at the default setting the scaled run is ahead after 50 steps; at d_k = 4 the runs are close", "[train]") {
  // docs/training.md: over 20 seeds, at step 50 the unscaled run's held-out loss exceeds the
  // scaled run's by 0.50 to 1.9 at the default d_k = 128 (seeds 1–5: 1.04 to 1.35), and differs
  // from it by at most 0.15 at d_k = 4. Every build agrees with the others to 1e-4 up to step
  // ~60 (the unscaled run's later course depends on last bits), so the bounds hold in each; they
  // keep a margin of 2 on seeds 1–5.
  constexpr int kStep = 50;
  constexpr double kMinGapDefault = 0.5, kMaxGapSmall = 0.3;
  for (std::uint32_t seed = 1; seed <= 5; ++seed) {
    for (const int d_k : {tr::Config().model.d_k, 4}) {
      tr::Config c;
      c.seed = seed;
      c.model.d_k = d_k;
      c.steps = kStep;
      tr::Experiment e;
      attn::Error err;
      REQUIRE(e.create(c, &err));
      REQUIRE(e.step(kStep) == kStep);
      const double scaled = e.metric(tr::Run::scaled, tr::Metric::heldout_loss)[kStep - 1];
      const double unscaled = e.metric(tr::Run::unscaled, tr::Metric::heldout_loss)[kStep - 1];
      CAPTURE(seed, d_k, scaled, unscaled);
      if (d_k == 4) CHECK(std::fabs(unscaled - scaled) <= kMaxGapSmall);
      else CHECK(unscaled - scaled >= kMinGapDefault);
    }
  }
}
