// The training experiment: its checks, and two runs (scaled, unscaled) stepped side by side.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <new>

#include "core/optim.hpp"
#include "experiment/train.hpp"

namespace attn {
namespace train {

namespace {

const char* const kOptimizerNames[] = {"sgd", "adam"};  // by Optimizer value

// Everything create() reserves, in bytes, computed in 64 bits (no allocation).
std::uint64_t experiment_bytes(const Config& c) {
  const std::uint64_t params = param_count(c.model);
  const std::uint64_t P = c.model.task.pairs, Qn = c.model.task.queries;
  const std::uint64_t batch_ints = (std::uint64_t(c.batch) + c.heldout) * (2 * P + 3 * Qn);
  const std::uint64_t per_run_floats = 2 * params + std::uint64_t(kMetrics) * c.steps + Qn * P;
  return kRuns * Model::bytes(c.model, std::max(c.batch, c.heldout)) +
         (kRuns * per_run_floats + params) * sizeof(float) + batch_ints * sizeof(std::int32_t);
}

}  // namespace

const char* optimizer_name(Optimizer optimizer) noexcept {
  return optimizer == Optimizer::adam ? kOptimizerNames[1] : kOptimizerNames[0];
}

bool parse_optimizer(const char* name, Optimizer* out, Error* err) noexcept {
  for (const Optimizer o : {Optimizer::sgd, Optimizer::adam})
    if (std::strcmp(name, optimizer_name(o)) == 0) return *out = o, true;
  return fail(err, Status::invalid_argument, "optimizer must be \"sgd\" or \"adam\", got \"%.40s\"", name);
}

bool validate_config(const Config& c, Error* err) {
  const TaskShape& t = c.model.task;
  if (!check_dim("letters", t.letters, 2, kMaxLetters, err) || !check_dim("pairs", t.pairs, 1, t.letters, err) ||
      !check_dim("queries", t.queries, 1, t.pairs, err) || !check_dim("dModel", c.model.d_model, 1, kMaxWidth, err) ||
      !check_dim("dk", c.model.d_k, 1, kMaxDk, err) || !check_dim("dv", c.model.d_v, 1, kMaxWidth, err) ||
      !check_dim("batch", c.batch, 1, kMaxBatch, err) || !check_dim("heldout", c.heldout, 1, kMaxHeldout, err) ||
      !check_dim("steps", c.steps, 1, kMaxSteps, err))
    return false;
  if (c.optimizer != Optimizer::sgd && c.optimizer != Optimizer::adam)
    return fail(err, Status::invalid_argument, "optimizer must be 0 (sgd) or 1 (adam), got %d",
                static_cast<int>(c.optimizer));
  if (!check_positive("initScale", c.init_scale, FLT_MAX, err) ||
      !check_positive("learningRate", c.learning_rate, FLT_MAX, err) ||
      !check_fraction_below_one("momentum", c.momentum, err) || !check_fraction_below_one("beta1", c.beta1, err) ||
      !check_fraction_below_one("beta2", c.beta2, err) || !check_positive("eps", c.eps, FLT_MAX, err) ||
      !check_zero_or_positive("clipNorm", c.clip_norm, err))
    return false;
  const std::uint64_t bytes = experiment_bytes(c);
  if (bytes > kMaxBytes)
    return fail(err, Status::too_large,
                "the experiment needs %llu bytes, more than the limit of %llu: lower dk, batch, heldout or steps",
                static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(kMaxBytes));
  return true;
}

bool Experiment::create(const Config& config, Error* err) noexcept {
  ready_ = false;
  steps_done_ = 0;
  for (RunState& run : runs_) run.steps_done = run.diverged_at = 0;
  if (!validate_config(config, err)) return false;
  config_ = config;
  bytes_ = experiment_bytes(config);
  Rng seeds(config.seed);
  Rng init_rng(seeds.next_u64());
  train_seed_ = seeds.next_u64();
  Rng heldout_rng(seeds.next_u64());
  const std::size_t count = param_count(config.model);
  const TaskShape& task = config.model.task;
  try {
    initial_params_.assign(count, 0.0f);
    resize_batch(task, config.batch, &batch_);
    resize_batch(task, config.heldout, &heldout_);
    for (RunState& run : runs_) {
      if (!run.model.create(config.model, std::max(config.batch, config.heldout), err)) return false;
      run.m.assign(count, 0.0f);
      run.v.assign(count, 0.0f);
      run.history.assign(static_cast<std::size_t>(kMetrics) * config.steps, 0.0f);
      run.shown.assign(static_cast<std::size_t>(task.queries) * task.pairs, 0.0f);
    }
  } catch (const std::bad_alloc&) {
    return fail(err, Status::too_large, "out of memory allocating the experiment (%llu bytes)",
                static_cast<unsigned long long>(bytes_));
  }
  init_params(config.model, config.init_scale, init_rng, initial_params_.data());
  generate_batch(task, heldout_rng, &heldout_);
  ready_ = true;
  reset();
  return true;
}

float Experiment::scale(Run run) const { return run == Run::scaled ? inv_sqrt(config_.model.d_k) : 1.0f; }

void Experiment::reset() noexcept {
  if (!ready_) return;
  train_rng_ = Rng(train_seed_);
  steps_done_ = 0;
  for (int r = 0; r < kRuns; ++r) {
    RunState& run = runs_[r];
    std::copy(initial_params_.begin(), initial_params_.end(), run.model.params());
    std::fill(run.m.begin(), run.m.end(), 0.0f);
    std::fill(run.v.begin(), run.v.end(), 0.0f);
    run.steps_done = 0;
    run.diverged_at = 0;
    run.reached_at = 0;
    ForwardStats initial;
    measure(run, scale(static_cast<Run>(r)), &initial);  // the shown attention before training
  }
}

int Experiment::step(int count) noexcept {
  int taken = 0;
  if (!ready_) return 0;
  for (; taken < count && steps_done_ < config_.steps; ++taken) {
    generate_batch(config_.model.task, train_rng_, &batch_);  // the same batch for both runs
    ++steps_done_;
    for (int r = 0; r < kRuns; ++r)
      if (runs_[r].diverged_at == 0) train_step(runs_[r], scale(static_cast<Run>(r)));
  }
  return taken;
}

// The held-out forward: its statistics, and the shown example's attention (example 0's rows)
// when they are finite.
void Experiment::measure(RunState& run, float scale, ForwardStats* stats) {
  *stats = run.model.forward(heldout_, scale);
  if (std::isfinite(stats->loss)) std::copy_n(run.model.weights(), run.shown.size(), run.shown.data());
}

void Experiment::train_step(RunState& run, float scale) {
  const int t = steps_done_;
  Model& model = run.model;
  const ModelShape& s = config_.model;
  const ForwardStats train = model.forward(batch_, scale);
  model.backward(batch_, scale);
  const ParamTensors g = param_tensors(s, model.grads());
  const std::size_t qk_count = static_cast<std::size_t>(s.d_model) * s.d_k;
  const float norm_wq = optim::l2_norm(g.w_q, qk_count), norm_wk = optim::l2_norm(g.w_k, qk_count);
  const float norm = optim::clip_grad_norm(model.grads(), model.size(), config_.clip_norm);
  if (!std::isfinite(train.loss) || !std::isfinite(norm)) {
    run.diverged_at = t;
    return;
  }
  if (config_.optimizer == Optimizer::sgd)
    optim::sgd_update(model.params(), model.grads(), run.m.data(), model.size(), config_.learning_rate, config_.momentum);
  else
    optim::adam_update(model.params(), model.grads(), run.m.data(), run.v.data(), model.size(), config_.learning_rate,
                       config_.beta1, config_.beta2, config_.eps, run.steps_done + 1);
  ForwardStats held;
  measure(run, scale, &held);
  if (!std::isfinite(held.loss)) {  // the update itself overflowed
    run.diverged_at = t;
    return;
  }
  const float values[kMetrics] = {train.loss, held.loss, held.accuracy, norm_wq, norm_wk,
                                  held.max_weight, held.entropy, held.match_weight};
  for (int m = 0; m < kMetrics; ++m) run.history[static_cast<std::size_t>(m) * config_.steps + run.steps_done] = values[m];
  ++run.steps_done;
  if (run.reached_at == 0 && held.accuracy >= kAccuracyGoal) run.reached_at = run.steps_done;
}

int Experiment::shown_on_target(Run run) const {
  if (!ready_) return 0;
  const int P = config_.model.task.pairs, Qn = config_.model.task.queries;
  const float* w = shown_weights(run);
  int hits = 0;
  for (int i = 0; i < Qn; ++i) {
    const float* w_i = w + static_cast<std::size_t>(i) * P;
    hits += static_cast<int>(std::max_element(w_i, w_i + P) - w_i) == heldout_.target[i];
  }
  return hits;
}

}  // namespace train
}  // namespace attn
