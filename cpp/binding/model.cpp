// The binding's adapters for the trained language model (cpp/model/model.hpp, model_file.hpp,
// heads.hpp; binding.hpp says how an adapter is written): a weights file loaded once, then one
// sentence at a time — every layer's and head's attention, what each head does, and the
// next-word distribution of one position, at a temperature — or every head measured over a text,
// or one training step on a batch. Attention supplied from other models: supplied_attention.cpp.
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "binding/binding.hpp"
#include "core/attention.hpp"
#include "core/optim.hpp"
#include "model/model.hpp"
#include "model/heads.hpp"
#include "model/model_file.hpp"

namespace binding {
namespace {

namespace lm = attn::lm;

// A language model (web/core/language-model.js) is held here by id (its slot + 1), as trainers are.
constexpr int kMaxModels = 4;
constexpr int kMaxTop = 100;  // the most next words one call reports
std::vector<std::unique_ptr<lm::Model>> g_models;
// A model's training state, by the same slot, from its first training step on (model_train_step).
struct Training {
  int batch = 0;  // the batch its model's training memory holds; 0: loaded for inference only
  int steps = 0;  // AdamW steps taken
  std::vector<float> m, v;  // AdamW's moments
};
std::vector<Training> g_training;
// The native driver's settings (scripts/model/train-model.cpp, TrainConfig): gradient-norm clip.
constexpr float kTrainClip = 1.0f;

lm::Model* model(int id) {
  if (id >= 1 && static_cast<std::size_t>(id) <= g_models.size() && g_models[id - 1]) return g_models[id - 1].get();
  attn::fail(&g_error, Status::invalid_argument, "model %d does not exist: it was disposed, or made by another engine", id);
  return nullptr;
}

// The token ids of input `tokens` (whole numbers 0 … vocab − 1, as floats) into `ids`; the first
// that is not one is named.
bool token_ids(const attn::Input& tokens, int vocab, std::vector<std::int32_t>* ids) {
  ids->resize(static_cast<std::size_t>(tokens.length));
  for (std::uint64_t i = 0; i < tokens.length; ++i) {
    const float x = tokens.data[i];
    if (!(x >= 0 && x < vocab && x == std::floor(x)))
      return attn::fail(&g_error, Status::invalid_argument, "tokens[%llu] is %g, expected a token id from 0 to %d",
                        static_cast<unsigned long long>(i), x, vocab - 1);
    (*ids)[i] = static_cast<std::int32_t>(x);
  }
  return true;
}

// Reads a weights file (the bytes of a Uint8Array) into a new model for inference: its settings
// and the new model's id out. The file is checked whole (length, magic, version, settings,
// checksum) before any of it is believed.
int model_load(const emscripten::val& bytes) {
  return guarded([&] {
    const std::vector<unsigned char> file = emscripten::convertJSArrayToNumberVector<unsigned char>(bytes);
    lm::ModelConfig config;
    lm::Encoding encoding;
    if (!lm::read_weights_header(file.data(), file.size(), &config, &encoding, &g_error)) return false;
    std::size_t slot = 0;
    while (slot < g_models.size() && g_models[slot]) ++slot;
    if (slot == kMaxModels)
      return attn::fail(&g_error, Status::too_large, "%d models are loaded, the most one engine holds: dispose() one",
                        kMaxModels);
    auto loaded = std::make_unique<lm::Model>();
    if (!loaded->create(config, 1, &g_error, /*for_training=*/false) ||
        !lm::read_weights(file.data(), file.size(), loaded->params(), loaded->size(), &g_error))
      return false;
    attn::Outputs out = outputs();
    const char* const names[] = {"id", "vocab", "context", "layers", "heads", "dModel", "encoding"};
    attn::Outputs::Field fields[7];
    for (int f = 0; f < 7; ++f) fields[f] = out.number(names[f]);
    const auto scaled = out.flag("scaled"), parameters = out.number64("parameters"), scale = out.number("scale");
    if (!out.allocate(&g_error)) return false;
    if (slot == g_models.size()) g_models.emplace_back();
    const int values[] = {static_cast<int>(slot + 1), config.vocab, config.context, config.layers, config.heads,
                          config.d_model, static_cast<int>(encoding)};
    for (int f = 0; f < 7; ++f) out.set(fields[f], static_cast<float>(values[f]));
    out.set(scaled, config.scaled);
    out.set_float64(parameters, static_cast<double>(lm::param_count(config)));
    out.set(scale, lm::score_scale(config));
    g_models[slot] = std::move(loaded);
    return true;
  });
}

// One sentence (input 0: T token ids, 1 ≤ T ≤ context) through the model: every layer's
// attention (L×H×T×T: layer, head, query, key), each head's profile and role (heads.hpp,
// HeadProfile: L×H each) and their mean spread, and, when span > 0 (the sentence repeats with
// that period), each head's induction score (L×H), and after token `position` the next-word distribution at
// `temperature` (softmax(logits / temperature), the core's softmax_row): all V probabilities, the
// `top` most likely ids and theirs, the probability of the unknown token (id 0) and the entropy
// (nats). `as_trained` false runs the scaled twin without its 1/√d_head (scores × √d_head); the
// unscaled twin never had it, so it runs as trained.
int model_predict(int id, int position, double temperature, int top, bool as_trained, int span) {
  lm::Model* m = model(id);
  if (!m) return failed();
  const lm::ModelConfig& c = m->config();
  const attn::Input tokens = input(0);
  int T = 0;
  float t = 0;
  if (!attn::check_row_length("tokens", tokens, c.context, &T, &g_error) ||
      !attn::check_dim("position", position, 0, T - 1, &g_error) ||
      !attn::to_float32("temperature", temperature, &t, &g_error) || !attn::check_temperature(t, &g_error) ||
      !attn::check_dim("top", top, 1, kMaxTop, &g_error) || !attn::check_dim("span", span, 0, T - 1, &g_error))
    return failed();
  std::vector<std::int32_t> ids;
  if (!token_ids(tokens, c.vocab, &ids)) return failed();
  const int L = c.layers, H = c.heads, k = std::min(top, c.vocab);
  const std::size_t per_layer = static_cast<std::size_t>(H) * T * T;
  attn::Outputs out = outputs();
  const auto attention = out.array("attention", per_layer * L);
  const char* const shares[] = {"previous", "first", "self", "spread"};
  attn::Outputs::Field profile[4];
  for (int s = 0; s < 4; ++s) profile[s] = out.array(shares[s], static_cast<std::uint64_t>(L) * H);
  const auto roles = out.array("role", static_cast<std::uint64_t>(L) * H);
  const auto induction = span > 0 ? out.array("induction", static_cast<std::uint64_t>(L) * H) : out.absent("induction");
  const auto all = out.array("next.all", c.vocab);
  const auto top_ids = out.array("next.ids", k), top_probs = out.array("next.probabilities", k);
  const auto unknown = out.number("next.unknown"), entropy = out.number("next.entropy");
  const auto spread_mean = out.number("meanSpread");
  // what even rows would score on the previous (= the first = the own) token at this T: the
  // baseline a head's share in this sentence is read against
  const auto even = out.number("even");
  if (!out.allocate(&g_error)) return failed();
  return guarded([&] {
    const bool trained_scaled = c.scaled;
    m->set_scaled(trained_scaled && as_trained);
    const bool ran = m->predict(ids.data(), T, position, &g_error);
    m->set_scaled(trained_scaled);
    if (!ran) return false;
    float h = 0;
    float* const p = out[all];
    attn::softmax_row(m->logits(), c.vocab, 1.0f / t, p, &h);
    std::vector<lm::HeadProfile> measured(static_cast<std::size_t>(L) * H);
    for (int l = 0; l < L; ++l) {
      std::copy_n(m->attention(l), per_layer, out[attention] + l * per_layer);  // H×T×T at the call's T
      for (int head = 0; head < H; ++head) {
        const float* w = out[attention] + l * per_layer + static_cast<std::size_t>(head) * T * T;
        const lm::HeadProfile p = measured[l * H + head] = lm::head_profile(w, T);
        const float values[] = {p.previous, p.first, p.self, p.spread};
        for (int s = 0; s < 4; ++s) out[profile[s]][l * H + head] = values[s];
        out[roles][l * H + head] = static_cast<float>(lm::head_role(p));
        if (span > 0) out[induction][l * H + head] = lm::head_induction(w, T, span);
      }
    }
    std::vector<int> order(c.vocab);
    std::iota(order.begin(), order.end(), 0);
    // the k most likely, most likely first; ties by id, so the order is the same on every build
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
      return p[a] != p[b] ? p[a] > p[b] : a < b;
    });
    for (int r = 0; r < k; ++r) {
      out[top_ids][r] = static_cast<float>(order[r]);
      out[top_probs][r] = p[order[r]];
    }
    out.set(unknown, p[0]);
    out.set(entropy, h);
    out.set(spread_mean, lm::mean_spread(measured.data(), L * H));
    out.set(even, static_cast<float>(lm::even_share(T)));
    return true;
  });
}

// Every head of a model over a text (input 0: windows × `length` token ids, row-major), as
// heads.hpp's measure_heads: each head's profile averaged over the windows and its role named
// from that average (L×H each), its averaged induction score when span > 0 (each window repeats
// with that period); and what a head spreading its rows evenly scores there (`even`, and
// `evenInduction` when span > 0). `as_trained` as model_predict's.
int model_measure_heads(int id, int length, int span, bool as_trained) {
  lm::Model* m = model(id);
  if (!m) return failed();
  const lm::ModelConfig& c = m->config();
  const attn::Input tokens = input(0);
  if (!tokens) {
    attn::missing("tokens", &g_error);
    return failed();
  }
  if (!attn::check_dim("length", length, 1, c.context, &g_error) || !attn::check_dim("span", span, 0, length - 1, &g_error))
    return failed();
  const std::uint64_t windows = tokens.length / static_cast<std::uint64_t>(length);
  if (tokens.length % length != 0 || windows < 1 || windows > static_cast<std::uint64_t>(lm::kMaxMeasuredWindows)) {
    attn::fail(&g_error, Status::invalid_shape,
               "tokens must hold windows × length ids with 1 ≤ windows ≤ %d (length %d), got %llu ids",
               lm::kMaxMeasuredWindows, length, static_cast<unsigned long long>(tokens.length));
    return failed();
  }
  std::vector<std::int32_t> ids;
  if (!token_ids(tokens, c.vocab, &ids)) return failed();
  const std::uint64_t count = static_cast<std::uint64_t>(c.layers) * c.heads;
  attn::Outputs out = outputs();
  const char* const shares[] = {"previous", "first", "self", "spread"};
  attn::Outputs::Field profile[4];
  for (int s = 0; s < 4; ++s) profile[s] = out.array(shares[s], count);
  const auto roles = out.array("role", count);
  const auto induction = span > 0 ? out.array("induction", count) : out.absent("induction");
  const auto even = out.number("even");
  const auto even_induction = span > 0 ? out.number("evenInduction") : out.absent("evenInduction");
  if (!out.allocate(&g_error)) return failed();
  return guarded([&] {
    std::vector<lm::HeadProfile> profiles(count);
    std::vector<lm::HeadRole> named(count);
    const bool trained_scaled = c.scaled;
    m->set_scaled(trained_scaled && as_trained);
    const bool measured = lm::measure_heads(*m, ids.data(), static_cast<int>(windows), length, span, profiles.data(),
                                            named.data(), span > 0 ? out[induction] : nullptr, &g_error);
    m->set_scaled(trained_scaled);
    if (!measured) return false;
    for (std::uint64_t k = 0; k < count; ++k) {
      const float values[] = {profiles[k].previous, profiles[k].first, profiles[k].self, profiles[k].spread};
      for (int s = 0; s < 4; ++s) out[profile[s]][k] = values[s];
      out[roles][k] = static_cast<float>(named[k]);
    }
    out.set(even, static_cast<float>(lm::even_share(length)));
    if (span > 0) out.set(even_induction, static_cast<float>(lm::even_induction(length, span)));
    return true;
  });
}

// One training step of a model on `batch` windows (input 0: batch × (T + 1) token ids, row-major,
// 1 ≤ T ≤ context: a window's first T ids are the inputs, its last T the targets): forward,
// backward, the gradient's norm clipped at kTrainClip, AdamW at `learning_rate` (model.hpp,
// AdamWConfig's defaults) — the native driver's step, with the caller's learning rate. The
// model's weights change: what it predicts after is the trained model's. Its first step (and one
// on a larger batch) remakes it with gradients and training memory for `batch`. Out: the batch's
// mean loss before the update (nats), the gradient's norm before clipping, the steps taken.
int model_train_step(int id, int batch, double learning_rate) {
  lm::Model* m = model(id);
  if (!m) return failed();
  const lm::ModelConfig c = m->config();  // a copy: the model may be remade below
  const attn::Input tokens = input(0);
  float lr = 0;
  if (!attn::check_dim("batch", batch, 1, lm::kMaxBatch, &g_error)) return failed();
  if (!tokens) {
    attn::missing("tokens", &g_error);
    return failed();
  }
  const std::uint64_t window = tokens.length / static_cast<std::uint64_t>(batch);  // T + 1
  if (tokens.length % batch != 0 || window < 2 || window > static_cast<std::uint64_t>(c.context) + 1) {
    attn::fail(&g_error, Status::invalid_shape,
               "tokens must hold batch × (T + 1) ids with 1 ≤ T ≤ %d (batch %d), got %llu ids", c.context, batch,
               static_cast<unsigned long long>(tokens.length));
    return failed();
  }
  for (std::uint64_t i = 0; i < tokens.length; ++i) {
    const float x = tokens.data[i];
    if (!(x >= 0 && x < c.vocab && x == std::floor(x))) {
      attn::fail(&g_error, Status::invalid_argument, "tokens[%llu] is %g, expected a token id from 0 to %d",
                 static_cast<unsigned long long>(i), x, c.vocab - 1);
      return failed();
    }
  }
  if (!attn::to_float32("learningRate", learning_rate, &lr, &g_error) ||
      !attn::check_positive("learningRate", lr, 1.0f, &g_error))
    return failed();
  const int T = static_cast<int>(window) - 1;
  attn::Outputs out = outputs();
  const auto loss_out = out.number("loss"), norm_out = out.number("gradNorm"), steps_out = out.number("steps");
  if (!out.allocate(&g_error)) return failed();
  return guarded([&] {
    std::vector<std::int32_t> x(static_cast<std::size_t>(batch) * T), y(x.size());  // inputs, targets
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < T; ++i) {
        x[static_cast<std::size_t>(b) * T + i] = static_cast<std::int32_t>(tokens.data[b * window + i]);
        y[static_cast<std::size_t>(b) * T + i] = static_cast<std::int32_t>(tokens.data[b * window + i + 1]);
      }
    if (g_training.size() < g_models.size()) g_training.resize(g_models.size());
    Training& training = g_training[id - 1];
    if (training.batch < batch) {  // a model with gradients and room for the batch; the old one stays on failure
      auto trainable = std::make_unique<lm::Model>();
      if (!trainable->create(c, batch, &g_error, /*for_training=*/true)) return false;
      std::copy_n(m->params(), m->size(), trainable->params());
      if (training.m.empty()) {
        training.m.assign(m->size(), 0.0f);
        training.v.assign(m->size(), 0.0f);
      }
      g_models[id - 1] = std::move(trainable);
      m = g_models[id - 1].get();
      training.batch = batch;
    }
    float loss = 0;
    if (!m->forward(x.data(), y.data(), batch, T, &loss, &g_error) || !m->backward(&g_error)) return false;
    const float norm = attn::optim::clip_grad_norm(m->grads(), m->size(), kTrainClip);
    if (!std::isfinite(loss) || !std::isfinite(norm))  // nothing is updated from a non-finite gradient
      return attn::fail(&g_error, Status::overflow, "the loss or its gradient is not finite (loss %g): not updated",
                        static_cast<double>(loss));
    lm::adamw_step(m->config(), m->params(), m->grads(), training.m.data(), training.v.data(), lr, lm::AdamWConfig{},
                   training.steps + 1);
    ++training.steps;
    out.set(loss_out, loss);
    out.set(norm_out, norm);
    out.set(steps_out, static_cast<float>(training.steps));
    return true;
  });
}

int model_dispose(int id) {
  if (!model(id)) return failed();
  g_models[id - 1].reset();
  if (static_cast<std::size_t>(id) <= g_training.size()) g_training[id - 1] = Training{};
  while (!g_models.empty() && !g_models.back()) g_models.pop_back();
  if (g_training.size() > g_models.size()) g_training.resize(g_models.size());
  return 0;
}

}  // namespace
}  // namespace binding

EMSCRIPTEN_BINDINGS(attention_lab_model) {
  using emscripten::constant;
  using emscripten::function;
  using namespace binding;
  // a head's role (heads.hpp, HeadRole), by the names the page's words use
  emscripten::enum_<attn::lm::HeadRole>("HeadRole")
      .value("previous", attn::lm::HeadRole::previous)
      .value("first", attn::lm::HeadRole::first)
      .value("self", attn::lm::HeadRole::self)
      .value("broad", attn::lm::HeadRole::broad)
      .value("mixed", attn::lm::HeadRole::mixed);
  constant("modelRoleShare", attn::lm::kRoleShare);
  constant("modelBroadSpread", attn::lm::kBroadSpread);
  constant("modelMaxModels", kMaxModels);
  constant("modelMaxTop", kMaxTop);
  function("modelLoad", &model_load);
  function("modelPredict", &model_predict);
  function("modelMeasureHeads", &model_measure_heads);
  function("modelTrainStep", &model_train_step);
  function("modelDispose", &model_dispose);
}
