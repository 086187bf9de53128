// The training experiment: a one-head attention model learns associative recall, trained by
// our own forward and hand-written backward pass, twice side by side — scores scaled by 1/√d_k
// and unscaled — from the same seed, data and initialisation.
//
// THE TASK (train_task.cpp). An example holds `pairs` key–value pairs, keys distinct letters
// out of `letters` (a, b, c, …), values digits 0–9, and `queries` query keys, each one of the
// example's keys (distinct). The answer to a query is the digit paired with it:
//     pairs  c7 a3 f1 d3      queries  f c      answers  1 7
// A head that solves it attends, for query f, to the pair f1: the heatmap of a trained run
// is a permutation pattern (one bright cell per query row).
//
// THE MODEL (experiment_model.cpp), for one example (row-major float32 throughout; dimension names
// P pairs, Qn queries, L letters, C = 10 digits, D model width, dk key width, dv value width):
//   x_pair  (P×D)  = (E_key[key] + E_value[value]) / √2    one token per pair
//   x_query (Qn×D) = E_key[query]
//   q = x_query W_Q (Qn×dk),  k = x_pair W_K (P×dk),  v = x_pair W_V (P×dv)
//   w = softmax(scale · q kᵀ) row-wise (Qn×P),  scale = 1/√dk (scaled run) or 1 (unscaled run)
//       (weights below 2^-100 are set to 0, and so are their score gradients: experiment_model.cpp)
//   out = w v (Qn×dv),  logits = out W_O (Qn×C)
//   loss = mean over the batch's queries of −log softmax(logits)[answer]
// Parameters: E_key (L×D), E_value (C×D), W_Q, W_K (D×dk), W_V (D×dv), W_O (dv×C), laid out
// in that order in one block (ParamTensors). The 1/√2 keeps each component of x_pair at
// variance 1 at initialisation, like x_query's.
//
// INITIALISATION, from one seed: E_key, E_value ~ N(0, 1); W_Q, W_K ~ N(0, g²/D) with g the
// init scale; W_V ~ N(0, 1/D); W_O ~ N(0, 1/dv). At g = 1 the components of q and k then have
// variance ≈ 1, so Var(q·k) ≈ dk: the premise of the √dk argument. The unscaled run's scores
// start with a spread of ≈ √dk and its softmax rows saturate; the scaled run's start near 1.
//
// TRAINING: per step one fresh batch (shared by both runs), forward, backward, optional
// gradient-norm clipping, SGD with momentum or Adam; then a forward on the fixed held-out
// batch gives the step's held-out metrics and the shown example's attention.
//
// Nothing here throws; create() allocates everything, step() allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/attention.hpp"
#include "core/random.hpp"

namespace attn {
namespace train {

constexpr int kDigits = 10;  // values are the digits 0–9: C, the readout width

// ---- limits (validated by Experiment::create; the memory total is checked in 64 bits) ----
constexpr int kMaxLetters = 26;   // keys are a–z
constexpr int kMaxDk = 512;       // the learner's d_k slider
constexpr int kMaxWidth = 256;    // d_model and d_v
constexpr int kMaxBatch = 256;    // training examples per step
constexpr int kMaxHeldout = 1024; // held-out examples
constexpr int kMaxSteps = 100000;
constexpr std::uint64_t kMaxBytes = std::uint64_t(128) << 20;  // both runs' state together (else too_large)

// ---- the task ------------------------------------------------------------------------------

struct TaskShape {
  int letters = 16;  // L: keys are the first L letters
  int pairs = 8;     // P ≤ L
  int queries = 8;   // Qn ≤ P
};

// `count` examples, every array row-major by example. Indices: a key or query is a letter
// 0…L−1 (shown as 'a' + index), a value or answer a digit 0…9.
struct Batch {
  int count = 0;
  std::vector<std::int32_t> keys;     // count×P, distinct within an example
  std::vector<std::int32_t> values;   // count×P
  std::vector<std::int32_t> queries;  // count×Qn, distinct, each one of the example's keys
  std::vector<std::int32_t> target;   // count×Qn: the pair the query asks about (0…P−1)
  std::vector<std::int32_t> answers;  // count×Qn: values[target]
};

// Sizes the arrays of `batch` for `count` examples (allocates; create-time only).
void resize_batch(const TaskShape& shape, int count, Batch* batch);

// Fills `batch` (sized by resize_batch) with batch->count examples drawn from rng. Per example:
// the keys are the first P letters of a Fisher–Yates shuffle of 0…L−1 (for i = 0…P−1: swap
// slot i with slot i + next_u64() % (L − i)); then P values next_u64() % 10; then the targets
// are the first Qn slots of the same shuffle of 0…P−1. No allocation.
void generate_batch(const TaskShape& shape, Rng& rng, Batch* batch);

// The symbols of the heatmap's labels: 'a' + key, '0' + value.
inline char key_symbol(int key) { return static_cast<char>('a' + key); }
inline char value_symbol(int value) { return static_cast<char>('0' + value); }

// ---- the model -----------------------------------------------------------------------------

struct ModelShape {
  TaskShape task;
  int d_model = 32;  // D
  int d_k = 128;     // dk
  int d_v = 32;      // dv
};

// Pointers to each parameter tensor inside one block of param_count(shape) floats (the same
// layout serves the parameters, their gradients and the optimiser's moments).
struct ParamTensors {
  float* embed_key;    // L×D
  float* embed_value;  // C×D
  float* w_q;          // D×dk
  float* w_k;          // D×dk
  float* w_v;          // D×dv
  float* w_o;          // dv×C
};
std::size_t param_count(const ModelShape& shape);
ParamTensors param_tensors(const ModelShape& shape, float* block);

// Draws the initial parameters into `params` (param_count floats) from rng, tensor by tensor
// in the layout's order, each row-major, one rng.normal() per entry (see INITIALISATION).
void init_params(const ModelShape& shape, float init_scale, Rng& rng, float* params);

// What one forward pass measured, averaged over the batch's queries (one attention row each).
struct ForwardStats {
  float loss = 0;         // mean cross-entropy (nats)
  float accuracy = 0;     // fraction of queries whose largest logit is the answer
  float max_weight = 0;   // mean over rows of maxⱼ wᵢⱼ
  float entropy = 0;      // mean over rows of −Σⱼ wᵢⱼ ln wᵢⱼ (nats)
  float match_weight = 0; // mean over rows of the weight on the queried pair
};

// Parameters, their gradients, and the activations of the last forward pass of up to
// `max_examples` examples. Plain arrays, all allocated by create().
class Model {
 public:
  // Allocates; returns false (and fills err) only when memory runs out. Shapes are the
  // caller's to validate (Experiment::create does).
  bool create(const ModelShape& shape, int max_examples, Error* err) noexcept;
  // Bytes create() reserves for this shape, computed in 64 bits without allocating.
  static std::uint64_t bytes(const ModelShape& shape, int max_examples);

  const ModelShape& shape() const { return shape_; }
  std::size_t size() const { return params_.size(); }
  float* params() { return params_.data(); }
  const float* params() const { return params_.data(); }
  float* grads() { return grads_.data(); }
  const float* grads() const { return grads_.data(); }

  // Forward on a batch of this shape's task (from generate_batch: indices in range) with
  // scores scaled by `scale`; keeps the activations the backward pass needs. A saturated
  // softmax row is fine; a non-finite loss (the parameters blew up) is returned as it is, and
  // so is an infinite one for scores that left float32 (a row of them has no distribution). A
  // batch of more than max_examples examples is refused: NaN loss, nothing written.
  ForwardStats forward(const Batch& batch, float scale) noexcept;
  // Gradients of the last forward's mean loss with respect to every parameter (overwrites
  // grads()). Call after forward() on the same batch and scale (a refused batch: no-op).
  void backward(const Batch& batch, float scale) noexcept;

  // The last forward's attention weights: count×Qn×P.
  const float* weights() const { return acts_.weights.data(); }

 private:
  struct Activations {  // N = max_examples; R = N·Qn attention rows
    std::vector<float> x_pair;   // N·P×D
    std::vector<float> x_query;  // R×D
    std::vector<float> q;        // R×dk
    std::vector<float> k;        // N·P×dk
    std::vector<float> v;        // N·P×dv
    std::vector<float> weights;  // R×P
    std::vector<float> out;      // R×dv
    std::vector<float> probs;    // R×C: softmax of the logits (the logits are not kept)
  };
  struct Scratch {  // gradients of the activations, and Wᵀ for dx = dy Wᵀ
    std::vector<float> dx_pair, dx_query, dq, dk, dv, dweights, dout, dlogits;
    std::vector<float> w_t;  // max(dk, dv, C) × D
  };
  ModelShape shape_;
  int max_examples_ = 0;
  std::vector<float> params_, grads_;
  Activations acts_;
  Scratch scratch_;
};

// ---- the experiment: two runs side by side -------------------------------------------------

enum class Optimizer : std::int32_t { sgd = 0, adam = 1 };
// "sgd" or "adam": the names the JavaScript API takes and gives.
const char* optimizer_name(Optimizer optimizer) noexcept;
// The optimizer called `name`; else invalid_argument naming the value and the names there are.
bool parse_optimizer(const char* name, Optimizer* out, Error* err) noexcept;

enum class Run : std::int32_t { scaled = 0, unscaled = 1 };
constexpr int kRuns = 2;

// A run "has learned the task" from the first step whose held-out accuracy reaches this
// (reached_at; the page and docs/training.md count steps to it).
constexpr float kAccuracyGoal = 0.9f;

struct Config {
  std::uint32_t seed = 1;
  ModelShape model;
  float init_scale = 1.0f;   // g: W_Q, W_K ~ N(0, g²/D)
  Optimizer optimizer = Optimizer::adam;
  float learning_rate = 0.002f;
  float momentum = 0.9f;     // SGD
  float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;  // Adam
  float clip_norm = 0.0f;    // > 0: clip the global gradient norm to this; 0: off
  int batch = 32;            // training examples per step
  int heldout = 64;          // examples in the fixed held-out batch
  int steps = 150;           // the experiment's length
};

// One curve per metric, one value per step.
enum class Metric : std::int32_t {
  loss = 0,           // training loss of the step's batch, before the update
  heldout_loss,       // after the update, on the held-out batch (like the rest below)
  heldout_accuracy,
  grad_norm_wq,       // ‖∂loss/∂W_Q‖₂ of the step, before clipping
  grad_norm_wk,
  max_weight,         // ForwardStats on the held-out batch
  entropy,
  match_weight,
};
constexpr int kMetrics = 8;

// create(config) → step(k) … → metric curves and the shown example's attention → reset().
// Three independent seeded streams come from config.seed (Rng(seed).next_u64() three times, in
// this order): initialisation, training batches, the held-out batch. Both runs start from
// the same parameters and see the same batches; they differ only in the score scale.
class Experiment {
 public:
  // Validates every field (messages name the field, the value and the range) and the memory
  // total, then allocates all state and measures the initial attention of the shown example.
  // After a failed create the experiment is empty: step() takes no step.
  bool create(const Config& config, Error* err) noexcept;
  // Advances both runs by min(count, steps left) steps; returns how many were taken.
  int step(int count) noexcept;
  // Back to step 0 with the same config: the same curves again.
  void reset() noexcept;

  bool ready() const { return ready_; }  // created successfully
  const Config& config() const { return config_; }
  int steps_done() const { return steps_done_; }
  // A run whose loss, gradient or updated parameters stop being finite (they blew up) stops at
  // that step, diverged_at: its curves end at diverged_at − 1 (its steps_done) and its shown
  // attention stays the last finite one. diverged_at is 0 while the run is healthy.
  int run_steps_done(Run run) const { return runs_[index(run)].steps_done; }
  int diverged_at(Run run) const { return runs_[index(run)].diverged_at; }
  // The first step (1-based) whose held-out accuracy reached kAccuracyGoal; 0 while none has.
  int reached_at(Run run) const { return runs_[index(run)].reached_at; }
  // run_steps_done(run) values of one metric, step 1 first.
  const float* metric(Run run, Metric m) const {
    return runs_[index(run)].history.data() + static_cast<std::size_t>(m) * config_.steps;
  }
  // The shown example (held-out example 0) and each run's attention on it with the current
  // parameters: Qn×P, rows = its queries, columns = its pairs.
  const Batch& heldout() const { return heldout_; }
  const float* shown_weights(Run run) const { return runs_[index(run)].shown.data(); }
  // How many of the shown example's queries put their largest weight (the first, on a tie) on
  // the pair they ask about.
  int shown_on_target(Run run) const;
  // The batch of the last step taken (both runs trained on it); meaningful once steps_done() > 0.
  const Batch& last_batch() const { return batch_; }
  const Model& model(Run run) const { return runs_[index(run)].model; }
  float scale(Run run) const;
  std::uint64_t bytes() const { return bytes_; }

 private:
  struct RunState {
    Model model;
    std::vector<float> m, v;        // optimiser state (velocity for SGD in m), param_count each
    std::vector<float> history;     // kMetrics × steps
    std::vector<float> shown;       // Qn×P
    int steps_done = 0, diverged_at = 0, reached_at = 0;
  };
  static std::size_t index(Run run) { return static_cast<std::size_t>(run); }
  void train_step(RunState& run, float scale);
  void measure(RunState& run, float scale, ForwardStats* stats);

  Config config_;
  std::uint64_t bytes_ = 0;
  std::uint64_t train_seed_ = 0;
  Rng train_rng_{0};
  std::vector<float> initial_params_;
  Batch batch_, heldout_;
  RunState runs_[kRuns];
  int steps_done_ = 0;
  bool ready_ = false;
};

// The checks create() runs, alone (no allocation): every field and the memory total. Messages
// name a field as the JavaScript API spells it (dk, initScale, learningRate, clipNorm, dModel,
// dv: web/core/engine.d.ts, TrainConfig), since that is where a learner's values come from.
bool validate_config(const Config& config, Error* err);

}  // namespace train
}  // namespace attn
