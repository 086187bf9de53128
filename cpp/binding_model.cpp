// The binding's adapters for the trained language model (cpp/model.hpp, cpp/model_file.hpp;
// binding.hpp says how an adapter is written): a weights file loaded once, then one sentence at
// a time — every layer's and head's attention, what each head does, and the next-word
// distribution of one position, at a temperature.
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "attention.hpp"
#include "binding.hpp"
#include "model.hpp"
#include "model_file.hpp"

namespace binding {
namespace {

namespace lm = attn::lm;

// A language model (web/core/language-model.js) is held here by id (its slot + 1), as trainers are.
constexpr int kMaxModels = 4;
constexpr int kMaxTop = 100;  // the most next words one call reports
std::vector<std::unique_ptr<lm::Model>> g_models;

lm::Model* model(int id) {
  if (id >= 1 && static_cast<std::size_t>(id) <= g_models.size() && g_models[id - 1]) return g_models[id - 1].get();
  attn::fail(&g_error, Status::invalid_argument, "model %d does not exist: it was disposed, or made by another engine", id);
  return nullptr;
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
// attention (L×H×T×T: layer, head, query, key), each head's profile and role (model.hpp,
// HeadProfile: L×H each), and after token `position` the next-word distribution at
// `temperature` (softmax(logits / temperature), the core's softmax_row): all V probabilities, the
// `top` most likely ids and theirs, the probability of the unknown token (id 0) and the entropy
// (nats). `as_trained` false runs the scaled twin without its 1/√d_head (scores × √d_head); the
// unscaled twin never had it, so it runs as trained.
int model_predict(int id, int position, double temperature, int top, bool as_trained) {
  lm::Model* m = model(id);
  if (!m) return failed();
  const lm::ModelConfig& c = m->config();
  const attn::Input tokens = input(0);
  int T = 0;
  float t = 0;
  if (!attn::check_row_length("tokens", tokens, c.context, &T, &g_error) ||
      !attn::check_dim("position", position, 0, T - 1, &g_error) ||
      !attn::to_float32("temperature", temperature, &t, &g_error) || !attn::check_temperature(t, &g_error) ||
      !attn::check_dim("top", top, 1, kMaxTop, &g_error))
    return failed();
  std::vector<std::int32_t> ids(T);
  for (int i = 0; i < T; ++i) {
    const float x = tokens.data[i];
    if (!(x >= 0 && x < c.vocab && x == std::floor(x))) {
      attn::fail(&g_error, Status::invalid_argument, "tokens[%d] is %g, expected a token id from 0 to %d", i, x,
                 c.vocab - 1);
      return failed();
    }
    ids[i] = static_cast<std::int32_t>(x);
  }
  const int L = c.layers, H = c.heads, k = std::min(top, c.vocab);
  const std::size_t per_layer = static_cast<std::size_t>(H) * T * T;
  attn::Outputs out = outputs();
  const auto attention = out.array("attention", per_layer * L);
  const char* const shares[] = {"previous", "first", "self", "spread"};
  attn::Outputs::Field profile[4];
  for (int s = 0; s < 4; ++s) profile[s] = out.array(shares[s], static_cast<std::uint64_t>(L) * H);
  const auto roles = out.array("role", static_cast<std::uint64_t>(L) * H);
  const auto all = out.array("next.all", c.vocab);
  const auto top_ids = out.array("next.ids", k), top_probs = out.array("next.probabilities", k);
  const auto unknown = out.number("next.unknown"), entropy = out.number("next.entropy");
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
    for (int l = 0; l < L; ++l) {
      std::copy_n(m->attention(l), per_layer, out[attention] + l * per_layer);  // H×T×T at the call's T
      for (int head = 0; head < H; ++head) {
        const float* w = out[attention] + l * per_layer + static_cast<std::size_t>(head) * T * T;
        const lm::HeadProfile p = lm::head_profile(w, T);
        const float values[] = {p.previous, p.first, p.self, p.spread};
        for (int s = 0; s < 4; ++s) out[profile[s]][l * H + head] = values[s];
        out[roles][l * H + head] = static_cast<float>(lm::head_role(p));
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
    return true;
  });
}

int model_dispose(int id) {
  if (!model(id)) return failed();
  g_models[id - 1].reset();
  while (!g_models.empty() && !g_models.back()) g_models.pop_back();
  return 0;
}

}  // namespace
}  // namespace binding

EMSCRIPTEN_BINDINGS(attention_lab_model) {
  using emscripten::constant;
  using emscripten::function;
  using namespace binding;
  // a head's role (model.hpp, HeadRole), by the names the page's words use
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
  function("modelDispose", &model_dispose);
}
