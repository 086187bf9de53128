// The training experiment: its checks, and two runs (scaled, unscaled) stepped side by side.
#include <algorithm>
#include <cmath>
#include <new>

#include "train.hpp"

namespace attn {
namespace train {

namespace {

// ---- checks (one place; they move to the core's check module when it lands) ------------------

bool check_int(const char* name, int value, int lo, int hi, Error* err) {
  if (value < lo || value > hi)
    return fail(err, Status::invalid_shape, "%s must be an integer from %d to %d, got %d", name, lo, hi, value);
  return true;
}

bool check_positive(const char* name, float value, Error* err) {
  if (!(value > 0.0f) || !std::isfinite(value))
    return fail(err, Status::invalid_argument, "%s must be a positive finite number, got %g", name, value);
  return true;
}

// 0 ≤ value < 1 (a decay rate: momentum, β1, β2)
bool check_decay(const char* name, float value, Error* err) {
  if (!(value >= 0.0f && value < 1.0f))
    return fail(err, Status::invalid_argument, "%s must be at least 0 and less than 1, got %g", name, value);
  return true;
}

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

bool validate_config(const Config& c, Error* err) {
  const TaskShape& t = c.model.task;
  if (!check_int("letters", t.letters, 2, kMaxLetters, err) || !check_int("pairs", t.pairs, 1, t.letters, err) ||
      !check_int("queries", t.queries, 1, t.pairs, err) || !check_int("d_model", c.model.d_model, 1, kMaxWidth, err) ||
      !check_int("d_k", c.model.d_k, 1, kMaxDk, err) || !check_int("d_v", c.model.d_v, 1, kMaxWidth, err) ||
      !check_int("batch", c.batch, 1, kMaxBatch, err) || !check_int("heldout", c.heldout, 1, kMaxHeldout, err) ||
      !check_int("steps", c.steps, 1, kMaxSteps, err))
    return false;
  if (c.optimizer != Optimizer::sgd && c.optimizer != Optimizer::adam)
    return fail(err, Status::invalid_argument, "optimizer must be 0 (SGD) or 1 (Adam), got %d",
                static_cast<int>(c.optimizer));
  if (!check_positive("init_scale", c.init_scale, err) || !check_positive("learning_rate", c.learning_rate, err) ||
      !check_decay("momentum", c.momentum, err) || !check_decay("beta1", c.beta1, err) ||
      !check_decay("beta2", c.beta2, err) || !check_positive("eps", c.eps, err))
    return false;
  if (!(c.clip_norm >= 0.0f) || !std::isfinite(c.clip_norm))
    return fail(err, Status::invalid_argument, "clip_norm must be 0 (off) or a positive finite number, got %g",
                c.clip_norm);
  const std::uint64_t bytes = experiment_bytes(c);
  if (bytes > kMaxBytes)
    return fail(err, Status::invalid_shape,
                "the experiment needs %llu bytes, more than the limit of %llu: lower d_k, batch, heldout or steps",
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
    return fail(err, Status::invalid_shape, "out of memory allocating the experiment (%llu bytes)",
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
  const float norm_wq = l2_norm(g.w_q, qk_count), norm_wk = l2_norm(g.w_k, qk_count);
  const float norm = clip_grad_norm(model.grads(), model.size(), config_.clip_norm);
  if (!std::isfinite(train.loss) || !std::isfinite(norm)) {
    run.diverged_at = t;
    return;
  }
  if (config_.optimizer == Optimizer::sgd)
    sgd_update(model.params(), model.grads(), run.m.data(), model.size(), config_.learning_rate, config_.momentum);
  else
    adam_update(model.params(), model.grads(), run.m.data(), run.v.data(), model.size(), config_.learning_rate,
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
}

}  // namespace train
}  // namespace attn
