// The binding's adapters for the training experiment (cpp/experiment/train.hpp; binding.hpp says how an
// adapter is written): the experiments the engine's trainers hold.
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "binding/binding.hpp"
#include "lesson/lesson.hpp"
#include "experiment/train.hpp"

namespace binding {
namespace {

// A trainer (web/core/trainer.js) holds one Experiment here by id (its slot + 1; 0 is never an id).
// Its state lives between calls, so unlike every other adapter these keep memory: create
// reserves an experiment (at most kMaxTrainers live at once, each within train::kMaxBytes), dispose
// gives it back.

namespace tr = attn::train;

constexpr int kMaxTrainers = 8;
std::vector<std::unique_ptr<tr::Experiment>> g_trainers;

// The result field of each metric, by tr::Metric value: the names of engine.d.ts (TrainCurves).
const char* const kMetricFields[] = {"loss",       "heldoutLoss", "heldoutAccuracy", "gradNormWq",
                                     "gradNormWk", "maxWeight",   "entropy",         "matchWeight"};
static_assert(sizeof kMetricFields / sizeof *kMetricFields == tr::kMetrics, "one field per metric");

tr::Experiment* trainer(int id) {
  if (id >= 1 && static_cast<std::size_t>(id) <= g_trainers.size() && g_trainers[id - 1])
    return g_trainers[id - 1].get();
  attn::fail(&g_error, Status::invalid_argument,
             "trainer %d does not exist: it was disposed, or made by another engine", id);
  return nullptr;
}

bool run_of(int run, tr::Run* out) {
  if (!attn::check_dim("run", run, 0, tr::kRuns - 1, &g_error)) return false;
  *out = static_cast<tr::Run>(run);
  return true;
}

// Indices (letters, digits, pair slots) as floats: exact, they are below 2^24.
void copy_indices(const std::vector<std::int32_t>& from, std::size_t count, float* to) {
  for (std::size_t i = 0; i < count; ++i) to[i] = static_cast<float>(from[i]);
}

// The default Config, as the engine's trainDefaults (names as in engine.d.ts, TrainConfig).
emscripten::val train_defaults() {
  const tr::Config c;
  emscripten::val d = emscripten::val::object();
  d.set("seed", c.seed);
  d.set("dk", c.model.d_k);
  d.set("initScale", c.init_scale);
  d.set("optimizer", std::string(tr::optimizer_name(c.optimizer)));
  d.set("learningRate", c.learning_rate);
  d.set("momentum", c.momentum);
  d.set("beta1", c.beta1);
  d.set("beta2", c.beta2);
  d.set("eps", c.eps);
  d.set("clipNorm", c.clip_norm);
  d.set("steps", c.steps);
  d.set("batch", c.batch);
  d.set("heldout", c.heldout);
  d.set("letters", c.model.task.letters);
  d.set("pairs", c.model.task.pairs);
  d.set("queries", c.model.task.queries);
  d.set("dModel", c.model.d_model);
  d.set("dv", c.model.d_v);
  return d;
}

// Creates an experiment (train.hpp, Experiment::create) from one options object, every field of
// the engine's TrainConfig (the defaults filled in, each field's type checked): the shown example
// and both runs' scales out, and the new trainer's id.
int train_create(const emscripten::val& config) {
  return guarded([&] {
    tr::Config c;
    c.seed = config["seed"].as<std::uint32_t>();
    c.model.task = {int_of(config, "letters"), int_of(config, "pairs"), int_of(config, "queries")};
    c.model.d_model = int_of(config, "dModel");
    c.model.d_k = int_of(config, "dk");
    c.model.d_v = int_of(config, "dv");
    c.steps = int_of(config, "steps");
    c.batch = int_of(config, "batch");
    c.heldout = int_of(config, "heldout");
    const std::string optimizer = config["optimizer"].as<std::string>();
    const char* const floats[] = {"initScale", "learningRate", "momentum", "beta1", "beta2", "eps", "clipNorm"};
    float* const fields[] = {&c.init_scale, &c.learning_rate, &c.momentum, &c.beta1, &c.beta2, &c.eps, &c.clip_norm};
    if (!tr::parse_optimizer(optimizer.c_str(), &c.optimizer, &g_error)) return false;
    for (int f = 0; f < 7; ++f)
      if (!attn::to_float32(floats[f], number_of(config, floats[f]), fields[f], &g_error)) return false;
    if (!tr::validate_config(c, &g_error)) return false;
    std::size_t slot = 0;
    while (slot < g_trainers.size() && g_trainers[slot]) ++slot;
    if (slot == kMaxTrainers)
      return attn::fail(&g_error, Status::too_large,
                        "%d trainers are live, the most one engine holds: dispose() one you no longer need",
                        kMaxTrainers);
    auto experiment = std::make_unique<tr::Experiment>();
    if (!experiment->create(c, &g_error)) return false;
    const int P = c.model.task.pairs, Qn = c.model.task.queries;
    attn::Outputs out = outputs();
    const auto id = out.number("id"), params = out.number64("parameters"), bytes = out.number64("bytes");
    const auto max_entropy = out.number("maxEntropy");
    const auto scale_scaled = out.number("scale.scaled"), scale_unscaled = out.number("scale.unscaled");
    const auto keys = out.array("example.keys", P), values = out.array("example.values", P);
    const auto query_keys = out.array("example.queries", Qn), answers = out.array("example.answers", Qn);
    const auto target = out.array("example.target", Qn);
    if (!out.allocate(&g_error)) return false;
    if (slot == g_trainers.size()) g_trainers.emplace_back();
    g_trainers[slot] = std::move(experiment);
    const tr::Experiment& e = *g_trainers[slot];
    const tr::Batch& shown = e.heldout();  // example 0 of the held-out batch
    out.set(id, static_cast<float>(slot + 1));
    out.set_float64(params, static_cast<double>(tr::param_count(c.model)));
    out.set_float64(bytes, static_cast<double>(e.bytes()));
    out.set(max_entropy, attn::max_entropy(P));
    out.set(scale_scaled, e.scale(tr::Run::scaled));
    out.set(scale_unscaled, e.scale(tr::Run::unscaled));
    copy_indices(shown.keys, P, out[keys]);
    copy_indices(shown.values, P, out[values]);
    copy_indices(shown.queries, Qn, out[query_keys]);
    copy_indices(shown.answers, Qn, out[answers]);
    copy_indices(shown.target, Qn, out[target]);
    return true;
  });
}

// Advances both runs by up to `count` steps.
int train_step(int id, int count) {
  tr::Experiment* e = trainer(id);
  if (!e || !attn::check_dim("count", count, 0, tr::kMaxSteps, &g_error)) return failed();
  attn::Outputs out = outputs();
  const auto taken = out.number("taken"), step = out.number("step");
  if (!out.allocate(&g_error)) return failed();
  out.set(taken, static_cast<float>(e->step(count)));
  out.set(step, static_cast<float>(e->steps_done()));
  return 0;
}

// One run's curves from step `since` (0-based) to its last, and its state now: the metrics of
// steps [from, steps), from = min(since, steps); the shown example's attention (Qn×P).
int train_read(int id, int run, int since) {
  tr::Experiment* e = trainer(id);
  tr::Run r;
  if (!e || !run_of(run, &r) || !attn::check_dim("since", since, 0, e->config().steps, &g_error)) return failed();
  const int steps = e->run_steps_done(r), from = since < steps ? since : steps;
  const tr::TaskShape& task = e->config().model.task;
  attn::Outputs out = outputs();
  const auto from_field = out.number("from"), steps_field = out.number("steps");
  const auto diverged = out.number("divergedAt"), reached = out.number("reachedAt");
  const auto on_target = out.number("shownOnTarget");
  const auto weights = out.array("weights", static_cast<std::uint64_t>(task.queries) * task.pairs);
  attn::Outputs::Field metrics[tr::kMetrics];
  for (int m = 0; m < tr::kMetrics; ++m) metrics[m] = out.array(kMetricFields[m], steps - from);
  if (!out.allocate(&g_error)) return failed();
  out.set(from_field, static_cast<float>(from));
  out.set(steps_field, static_cast<float>(steps));
  out.set(diverged, static_cast<float>(e->diverged_at(r)));
  out.set(reached, static_cast<float>(e->reached_at(r)));
  out.set(on_target, static_cast<float>(e->shown_on_target(r)));
  std::copy_n(e->shown_weights(r), static_cast<std::size_t>(task.queries) * task.pairs, out[weights]);
  for (int m = 0; m < tr::kMetrics; ++m)
    std::copy(e->metric(r, static_cast<tr::Metric>(m)) + from, e->metric(r, static_cast<tr::Metric>(m)) + steps,
              out[metrics[m]]);
  return 0;
}

int train_reset(int id) {
  tr::Experiment* e = trainer(id);
  if (!e) return failed();
  e->reset();
  return 0;
}

int train_dispose(int id) {
  if (!trainer(id)) return failed();
  g_trainers[id - 1].reset();
  while (!g_trainers.empty() && !g_trainers.back()) g_trainers.pop_back();
  return 0;
}

// The batch of the last step (heldout false; count 0 before the first step) or the held-out
// batch: every example's keys and values (count×P), queries, answers and targets (count×Qn).
int train_batch(int id, bool heldout) {
  tr::Experiment* e = trainer(id);
  if (!e) return failed();
  const tr::Batch& b = heldout ? e->heldout() : e->last_batch();
  const std::size_t count = heldout || e->steps_done() > 0 ? b.count : 0;
  const tr::TaskShape& task = e->config().model.task;
  const std::uint64_t tokens = count * task.pairs, rows = count * task.queries;
  attn::Outputs out = outputs();
  const auto count_field = out.number("count");
  const auto keys = out.array("keys", tokens), values = out.array("values", tokens);
  const auto queries = out.array("queries", rows), answers = out.array("answers", rows);
  const auto target = out.array("target", rows);
  if (!out.allocate(&g_error)) return failed();
  out.set(count_field, static_cast<float>(count));
  copy_indices(b.keys, tokens, out[keys]);
  copy_indices(b.values, tokens, out[values]);
  copy_indices(b.queries, rows, out[queries]);
  copy_indices(b.answers, rows, out[answers]);
  copy_indices(b.target, rows, out[target]);
  return 0;
}

// One run's parameters now, tensor by tensor (train.hpp, ParamTensors; row-major).
int train_parameters(int id, int run) {
  tr::Experiment* e = trainer(id);
  tr::Run r;
  if (!e || !run_of(run, &r)) return failed();
  const tr::ModelShape& s = e->config().model;
  const std::uint64_t D = s.d_model, dk = s.d_k, dv = s.d_v;
  const std::uint64_t lengths[] = {s.task.letters * D, tr::kDigits * D, D * dk, D * dk, D * dv, dv * tr::kDigits};
  const char* const names[] = {"embedKey", "embedValue", "wQ", "wK", "wV", "wO"};
  attn::Outputs out = outputs();
  attn::Outputs::Field fields[6];
  for (int t = 0; t < 6; ++t) fields[t] = out.array(names[t], lengths[t]);
  if (!out.allocate(&g_error)) return failed();
  // read only: param_tensors takes a mutable block because the model writes through it
  const tr::ParamTensors p = tr::param_tensors(s, const_cast<float*>(e->model(r).params()));
  const float* const tensors[] = {p.embed_key, p.embed_value, p.w_q, p.w_k, p.w_v, p.w_o};
  for (int t = 0; t < 6; ++t) std::copy_n(tensors[t], lengths[t], out[fields[t]]);
  return 0;
}

}  // namespace
}  // namespace binding

EMSCRIPTEN_BINDINGS(attention_lab_training) {
  using emscripten::constant;
  using emscripten::function;
  using namespace binding;
  // the training experiment's limits (train.hpp) and its runs, by the names of the engine's curves
  emscripten::enum_<tr::Run>("TrainRun").value("scaled", tr::Run::scaled).value("unscaled", tr::Run::unscaled);
  constant("trainMaxLetters", tr::kMaxLetters);
  constant("trainMaxDk", tr::kMaxDk);
  constant("trainMaxWidth", tr::kMaxWidth);
  constant("trainMaxBatch", tr::kMaxBatch);
  constant("trainMaxHeldout", tr::kMaxHeldout);
  constant("trainMaxSteps", tr::kMaxSteps);
  constant("trainMaxBytes", static_cast<double>(tr::kMaxBytes));
  constant("trainMaxTrainers", kMaxTrainers);
  constant("trainDigits", tr::kDigits);
  constant("trainAccuracyGoal", tr::kAccuracyGoal);

  function("trainDefaults", &train_defaults);
  function("trainCreate", &train_create);
  function("trainStep", &train_step);
  function("trainRead", &train_read);
  function("trainReset", &train_reset);
  function("trainDispose", &train_dispose);
  function("trainBatch", &train_batch);
  function("trainParameters", &train_parameters);
}
