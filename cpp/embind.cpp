// The JavaScript binding: plain adapters, no math. Each adapter finds its input arrays in the
// input blocks below (placed there by web/core/engine.js, with their lengths), converts the
// JavaScript numbers it is given, validates through the core, then declares its outputs by name
// and length (cpp/boundary.hpp) and lets the core write them. The engine builds the result
// object from the published descriptor. No C++ exception crosses into JavaScript: every adapter
// returns a Status code, and the message of the last failure is read with lastError().
//
// Order within every adapter: checks (shapes, lengths, values) → outputs reserved → computed. A
// call that fails its checks reserves no memory, so the heap does not grow from it.
#include <emscripten/bind.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "attention.hpp"
#include "boundary.hpp"
#include "embedding.hpp"
#include "lesson.hpp"
#include "simd.hpp"
#include "train.hpp"

namespace {

using attn::Status;

// single-threaded module: one of each is enough
attn::Error g_error;
attn::Block g_output_block;
attn::Descriptor g_descriptor;
// The input arrays of a call, by slot: the engine copies input i of a call into the block of slot
// i (reserve_input) and writes its length to g_input_lengths[i] (negative: not given), so that an
// adapter takes no pointer or length arguments (each Embind argument costs ~12 ns, a twentieth
// of a whole call at n = 16). Slots are numbered in the order of each adapter's input(i) calls.
constexpr int kInputSlots = 4;  // the most input arrays of one call (attention: q, k, v, mask)
attn::Block g_inputs[kInputSlots];
double g_input_lengths[kInputSlots];

int status(bool ok) { return ok ? 0 : static_cast<int>(g_error.status); }
int failed() { return static_cast<int>(g_error.status); }

// Input `slot` of the call as the engine placed it; a negative length means "not given" (null).
attn::Input input(int slot) {
  const double length = g_input_lengths[slot];
  if (length < 0) return {};
  return {g_inputs[slot].data(), static_cast<std::uint64_t>(length)};
}

attn::Outputs outputs() { return attn::Outputs(g_output_block, g_descriptor); }

// For adapters whose core functions allocate scratch: the exception stops here.
template <typename Body>
int guarded(Body body) {
  try {
    return status(body());
  } catch (const std::bad_alloc&) {
    attn::fail(&g_error, Status::too_large, "the scratch memory of this call could not be reserved (out of memory)");
  } catch (const std::exception& e) {
    attn::fail(&g_error, Status::internal_error, "internal error: %s", e.what());
  } catch (...) {
    attn::fail(&g_error, Status::internal_error, "internal error: unknown exception");
  }
  return failed();
}

// ---- the engine's plumbing -------------------------------------------------------------------

// The block of input slot `slot`, for `length` floats (the engine calls this only when its cached
// block is too small or far too large). Returns its address, 0 on failure (lastError says why).
uintptr_t reserve_input(int slot, double length, const std::string& name) {
  if (slot < 0 || slot >= kInputSlots || !(length >= 0)) {
    attn::fail(&g_error, Status::internal_error, "internal error: input slot %d, length %g", slot, length);
    return 0;
  }
  return reinterpret_cast<uintptr_t>(
      g_inputs[slot].reserve(static_cast<std::uint64_t>(length), name.c_str(), &g_error));
}
double input_capacity(int slot) { return static_cast<double>(g_inputs[slot].capacity()); }
double input_keep_from(int slot) { return static_cast<double>(g_inputs[slot].keep_from()); }
uintptr_t descriptor() { return reinterpret_cast<uintptr_t>(&g_descriptor); }
uintptr_t input_lengths() { return reinterpret_cast<uintptr_t>(g_input_lengths); }
std::string last_error() { return g_error.message; }
std::string simd_arch() { return attn::simd_arch_name(); }

// ---- attention ---------------------------------------------------------------------------------
// Options arrive as plain numbers, not a value_object: Embind's value_object conversion (without
// eval, see docs/toolchain.md) cost more than the whole kernel at n = 16, while a call with
// numeric arguments adds ~0.3 µs (docs/performance.md). `flags` is a CallFlags bit set.
enum CallFlags : int { kScaleBySqrtD = 1, kCausal = 2 };

bool resolve_scale(int flags, double scale, int d, float* out) {
  if (!(flags & kScaleBySqrtD)) return attn::to_float32("scale", scale, out, &g_error);
  *out = attn::inv_sqrt(d > 0 ? d : 1);  // a bad d fails the shape check after this
  return true;
}

int attention(int n, int m, int d, int dv, int flags, double scale, double temperature) {
  attn::AttentionOptions opt;
  opt.causal = (flags & kCausal) != 0;
  opt.mask = input(3);
  const attn::AttentionShape shape{n, m, d, dv};
  const attn::Input qs = input(0), ks = input(1), vs = input(2);
  if (!resolve_scale(flags, scale, d, &opt.scale) ||
      !attn::to_float32("temperature", temperature, &opt.temperature, &g_error) ||
      !attn::validate_attention(qs, ks, vs, shape, opt, &g_error))
    return failed();
  const std::uint64_t nm = static_cast<std::uint64_t>(n) * m;
  attn::Outputs out = outputs();
  const auto dots = out.array("dots", nm), scores = out.array("scores", nm), weights = out.array("weights", nm);
  const auto output = dv > 0 ? out.array("output", static_cast<std::uint64_t>(n) * dv) : out.absent("output");
  const auto entropy = out.array("entropy", n), max_weight = out.array("maxWeight", n);
  const auto row_sum = out.array("rowSum", n), used_scale = out.number("scale");
  if (!out.allocate(&g_error)) return failed();
  out.set(used_scale, opt.scale);
  const attn::AttentionResult result{out[dots],    out[scores],     out[weights], dv > 0 ? out[output] : nullptr,
                                     out[entropy], out[max_weight], out[row_sum]};
  return status(attn::attention_forward_validated(qs.data, ks.data, vs.data, shape, opt, result, &g_error));
}

// `out_length`: the length of the array the engine will copy the output into (the caller's
// `out`), or negative when it makes a new one.
int attention_streaming(int n, int m, int d, int dv, int flags, double scale, double out_length) {
  attn::StreamingOptions opt;
  opt.causal = (flags & kCausal) != 0;
  const attn::AttentionShape shape{n, m, d, dv};
  const attn::Input qs = input(0), ks = input(1), vs = input(2);
  if (!resolve_scale(flags, scale, d, &opt.scale) || !attn::validate_streaming(qs, ks, vs, shape, opt, &g_error))
    return failed();
  if (out_length >= 0 && !attn::check_count("out", static_cast<std::uint64_t>(out_length),
                                            static_cast<std::uint64_t>(n) * dv, "n·dv", &g_error))
    return failed();
  attn::Outputs out = outputs();
  const auto output = out.array("output", static_cast<std::uint64_t>(n) * dv), used_scale = out.number("scale");
  if (!out.allocate(&g_error)) return failed();
  out.set(used_scale, opt.scale);
  return status(
      attn::attention_streaming_forward_validated(qs.data, ks.data, vs.data, shape, opt, out[output], &g_error));
}

int softmax(double temperature) {
  const attn::Input scores = input(0);
  int m;
  float t;
  if (!attn::check_row_length("scores", scores, attn::kMaxDim, &m, &g_error) ||
      !attn::to_float32("temperature", temperature, &t, &g_error) ||
      !attn::validate_softmax(scores.data, m, t, &g_error))
    return failed();
  attn::Outputs out = outputs();
  const auto weights = out.array("weights", m);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::softmax(scores.data, m, t, out[weights], &g_error));
}

// ---- tokens to vectors (cpp/embedding.hpp); seeds are 32-bit so JS numbers carry them exactly

int random_normal(uint32_t seed, double sigma, int count) {
  float s;
  if (!attn::to_float32("sigma", sigma, &s, &g_error) || !attn::validate_random_normal(s, count, &g_error))
    return failed();
  attn::Outputs out = outputs();
  const auto values = out.array("values", count);
  if (!out.allocate(&g_error)) return failed();
  attn::random_normal(seed, s, out[values], static_cast<std::size_t>(count));
  return 0;
}

int random_projection(uint32_t seed, int d_in, int d_out) {
  if (!attn::validate_random_projection(d_in, d_out, &g_error)) return failed();
  attn::Outputs out = outputs();
  const auto w = out.array("w", static_cast<std::uint64_t>(d_in) * d_out);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::random_projection(seed, d_in, d_out, out[w], &g_error));
}

int project(int t, int d_in, int d_out) {
  const attn::Input xs = input(0), ws = input(1);
  if (!attn::validate_project(xs, t, d_in, ws, d_out, &g_error)) return failed();
  attn::Outputs out = outputs();
  const auto output = out.array("output", static_cast<std::uint64_t>(t) * d_out);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::project(xs.data, t, d_in, ws.data, d_out, out[output], &g_error));
}

int add_positional_encoding(int t, int d, double strength) {
  const attn::Input xs = input(0);
  float s;
  if (!attn::to_float32("strength", strength, &s, &g_error) ||
      !attn::validate_positional_encoding(xs, t, d, s, &g_error))
    return failed();
  attn::Outputs out = outputs();
  const auto output = out.array("output", static_cast<std::uint64_t>(t) * d);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::add_positional_encoding(xs.data, t, d, s, out[output], &g_error));
}

int text_vector(const std::string& text, int d, double sigma) {
  float s;
  if (!attn::to_float32("sigma", sigma, &s, &g_error) || !attn::validate_text_vector(d, s, &g_error)) return failed();
  attn::Outputs out = outputs();
  const auto vector = out.array("vector", d);
  if (!out.allocate(&g_error)) return failed();
  return status(attn::text_vector(text.data(), text.size(), d, s, out[vector], &g_error));
}

// ---- the lesson's measurements (cpp/lesson.hpp) ------------------------------------------
// Width lists arrive as JS arrays of integers (the engine checks that they are).

std::vector<int> widths(const emscripten::val& dims) { return emscripten::vecFromJSArray<int>(dims); }

// A range the caller does not give (has_range false) is the lesson's default (default_dot_range).
int lesson_dot_histograms(uint32_t seed, int d, int samples, int bins, bool has_range, double lo, double hi,
                          bool has_scaled_range, double scaled_lo, double scaled_hi) {
  return guarded([&] {
    attn::DotHistogram hists[2];
    const bool given[2] = {has_range, has_scaled_range};
    const double ranges[2][2] = {{lo, hi}, {scaled_lo, scaled_hi}};
    const char* names[2][2] = {{"range[0]", "range[1]"}, {"scaledRange[0]", "scaledRange[1]"}};
    for (int h = 0; h < 2; ++h) {
      if (!given[h]) {
        attn::default_dot_range(d, h == 1, &hists[h].lo, &hists[h].hi);
      } else if (!attn::to_float32(names[h][0], ranges[h][0], &hists[h].lo, &g_error) ||
                 !attn::to_float32(names[h][1], ranges[h][1], &hists[h].hi, &g_error)) {
        return false;
      }
    }
    if (!attn::validate_dot_histograms(d, samples, bins, hists[0], hists[1], &g_error)) return false;
    attn::Outputs out = outputs();
    const auto sqrt_d = out.number("sqrtD");
    const char* fields[2][7] = {
        {"unscaled.counts", "unscaled.below", "unscaled.above", "unscaled.mean", "unscaled.variance", "unscaled.lo",
         "unscaled.hi"},
        {"scaled.counts", "scaled.below", "scaled.above", "scaled.mean", "scaled.variance", "scaled.lo", "scaled.hi"}};
    attn::Outputs::Field f[2][7];
    for (int h = 0; h < 2; ++h) {
      f[h][0] = out.array(fields[h][0], bins);
      for (int i = 1; i < 7; ++i) f[h][i] = out.number(fields[h][i]);
    }
    if (!out.allocate(&g_error)) return false;
    for (int h = 0; h < 2; ++h) hists[h].counts = out[f[h][0]];
    if (!attn::dot_histograms(seed, d, samples, bins, hists[0], hists[1], &g_error)) return false;
    out.set(sqrt_d, attn::sqrt_d(d));
    for (int h = 0; h < 2; ++h) {
      out.set(f[h][1], hists[h].below), out.set(f[h][2], hists[h].above);
      out.set(f[h][3], static_cast<float>(hists[h].mean)), out.set(f[h][4], static_cast<float>(hists[h].variance));
      out.set(f[h][5], hists[h].lo), out.set(f[h][6], hists[h].hi);
    }
    return true;
  });
}

int lesson_dot_variance_curve(uint32_t seed, emscripten::val dims, int samples) {
  return guarded([&] {
    const std::vector<int> w = widths(dims);
    const int count = static_cast<int>(w.size());
    if (!attn::validate_dot_variance_curve(w.data(), count, samples, &g_error)) return false;
    attn::Outputs out = outputs();
    const auto unscaled = out.array("unscaled", w.size()), scaled = out.array("scaled", w.size());
    return out.allocate(&g_error) &&
           attn::dot_variance_curve(seed, w.data(), count, samples, out[unscaled], out[scaled], &g_error);
  });
}

int lesson_token_variance_curve(int t, int d_in, uint32_t seed, emscripten::val dims, int draws) {
  return guarded([&] {
    const attn::Input xs = input(0);
    const std::vector<int> w = widths(dims);
    const int count = static_cast<int>(w.size());
    if (!attn::validate_token_dot_variance_curve(xs, t, d_in, w.data(), count, draws, &g_error)) return false;
    attn::Outputs out = outputs();
    const auto unscaled = out.array("unscaled", w.size()), scaled = out.array("scaled", w.size());
    return out.allocate(&g_error) && attn::token_dot_variance_curve(xs, t, d_in, seed, w.data(), count, draws,
                                                                    out[unscaled], out[scaled], &g_error);
  });
}

int lesson_head_projections(int t, int d_in, uint32_t seed, int head, int d) {
  return guarded([&] {
    const attn::Input xs = input(0);
    if (!attn::validate_head_projections(xs, t, d_in, head, d, &g_error)) return false;
    const std::uint64_t td = static_cast<std::uint64_t>(t) * d;
    attn::Outputs out = outputs();
    const auto q = out.array("q", td), k = out.array("k", td), v = out.array("v", td);
    return out.allocate(&g_error) &&
           attn::head_projections(xs, t, d_in, seed, head, d, out[q], out[k], out[v], &g_error);
  });
}

int lesson_head_weights(uint32_t seed, int head, int d_in, int d) {
  return guarded([&] {
    if (!attn::validate_head_weights(head, d_in, d, &g_error)) return false;
    const std::uint64_t size = static_cast<std::uint64_t>(d_in) * d;
    attn::Outputs out = outputs();
    const auto wq = out.array("wq", size), wk = out.array("wk", size);
    return out.allocate(&g_error) && attn::head_weights(seed, head, d_in, d, out[wq], out[wk], nullptr, &g_error);
  });
}

int lesson_project_head(int t, int d_in, int d) {
  return guarded([&] {
    const attn::Input xs = input(0), wqs = input(1), wks = input(2);
    if (!attn::validate_project_head(xs, t, d_in, wqs, wks, {}, d, &g_error)) return false;
    const std::uint64_t td = static_cast<std::uint64_t>(t) * d;
    attn::Outputs out = outputs();
    const auto q = out.array("q", td), k = out.array("k", td);
    return out.allocate(&g_error) &&
           attn::project_head(xs, t, d_in, wqs, wks, {}, d, out[q], out[k], nullptr, &g_error);
  });
}

int lesson_saturation_sweep(int t, int d_in, uint32_t seed, emscripten::val dims, bool scaled) {
  return guarded([&] {
    const attn::Input xs = input(0);
    const std::vector<int> w = widths(dims);
    const int count = static_cast<int>(w.size());
    if (!attn::validate_saturation_sweep(xs, t, d_in, w.data(), count, &g_error)) return false;
    const std::uint64_t nt = static_cast<std::uint64_t>(count) * t;
    attn::Outputs out = outputs();
    const auto max_weight = out.array("maxWeight", nt), entropy = out.array("entropy", nt);
    const auto regime = out.array("regime", nt), grad_norm = out.array("gradNorm", nt);
    const auto peaked = out.array("peakedCount", count), flat = out.array("flatCount", count);
    const auto max_entropy = out.number("maxEntropy");
    const auto mean_max = out.array("mean.maxWeight", count), mean_entropy = out.array("mean.entropy", count);
    const auto mean_grad = out.array("mean.gradNorm", count);
    const auto fraction_peaked = out.array("mean.fractionPeaked", count);
    const auto fraction_flat = out.array("mean.fractionFlat", count);
    if (!out.allocate(&g_error)) return false;
    out.set(max_entropy, attn::max_entropy(t));
    return attn::saturation_sweep(xs, t, d_in, seed, w.data(), count, scaled,
                                  {out[max_weight], out[entropy], out[regime], out[grad_norm]},
                                  {out[mean_max], out[mean_entropy], out[mean_grad], out[fraction_peaked],
                                   out[fraction_flat], out[peaked], out[flat]},
                                  &g_error);
  });
}

int lesson_softmax_jacobian() {
  return guarded([&] {
    const attn::Input ps = input(0);
    int m;
    if (!attn::check_row_length("p", ps, attn::kMaxDim, &m, &g_error) ||
        !attn::validate_softmax_jacobian(ps.data, m, &g_error))
      return false;
    attn::Outputs out = outputs();
    const auto jacobian = out.array("jacobian", static_cast<std::uint64_t>(m) * m);
    return out.allocate(&g_error) && attn::softmax_jacobian(ps.data, m, out[jacobian], &g_error);
  });
}

int lesson_softmax_backward() {
  return guarded([&] {
    const attn::Input ps = input(0), dps = input(1);
    int m;
    if (!attn::check_row_length("p", ps, attn::kMaxDim, &m, &g_error) ||
        !attn::validate_softmax_backward(ps.data, dps, m, &g_error))
      return false;
    attn::Outputs out = outputs();
    const auto dz = out.array("dz", m);
    return out.allocate(&g_error) && attn::softmax_backward(ps.data, dps, m, out[dz], &g_error);
  });
}

int lesson_upstream_gradient(uint32_t seed, int row, int m) {
  if (!attn::validate_upstream_gradient(row, m, &g_error)) return failed();
  attn::Outputs out = outputs();
  const auto g = out.array("g", m);
  if (!out.allocate(&g_error)) return failed();
  attn::upstream_gradient(seed, row, m, out[g]);
  return 0;
}

int lesson_step_by_step(int m, int d, int key, bool scaled, double temperature, int visible) {
  return guarded([&] {
    const attn::Input qs = input(0), ks = input(1);
    float t;
    if (!attn::to_float32("temperature", temperature, &t, &g_error) ||
        !attn::validate_step_by_step(qs, ks, m, d, key, t, visible, &g_error))
      return false;
    attn::Outputs out = outputs();
    const auto product = out.array("product", d), dot = out.number("dot");
    const auto scale = out.number("scale"), sqrt_d = out.number("sqrtD");
    const auto scores = out.array("scores", m), row_max = out.number("rowMax");
    const auto shifted = out.array("shifted", m), exps = out.array("exps", m), sum = out.number("sum");
    const auto weights = out.array("weights", m), weight_sum = out.number("weightSum");
    const auto max_weight = out.number("maxWeight"), min_weight = out.number("minWeight");
    const auto entropy = out.number("entropy");
    if (!out.allocate(&g_error)) return false;
    attn::StepTrace trace{out[product], out[scores], out[shifted], out[exps], out[weights]};
    if (!attn::step_by_step(qs, ks, m, d, key, scaled, t, visible, trace, &g_error)) return false;
    out.set(dot, trace.dot), out.set(scale, trace.scale), out.set(sqrt_d, trace.sqrt_d);
    out.set(row_max, trace.row_max), out.set(sum, trace.sum), out.set(weight_sum, trace.weight_sum);
    out.set(max_weight, trace.max_weight), out.set(min_weight, trace.min_weight), out.set(entropy, trace.entropy);
    return true;
  });
}

int lesson_softmax_gradient_norm(uint32_t seed, int row) {
  return guarded([&] {
    const attn::Input ps = input(0);
    int m;
    if (!attn::check_row_length("p", ps, attn::kMaxDim, &m, &g_error) ||
        !attn::validate_softmax_gradient_norm(ps.data, m, row, &g_error))
      return false;
    attn::Outputs out = outputs();
    const auto norm = out.number("norm");
    return out.allocate(&g_error) && attn::softmax_gradient_norm(ps.data, m, seed, row, out[norm], &g_error);
  });
}

// The broken naive version, raw (see lesson.hpp).
int lesson_softmax_naive(double temperature) {
  const attn::Input zs = input(0);
  int m;
  float t;
  if (!attn::check_row_length("scores", zs, attn::kMaxDim, &m, &g_error) ||
      !attn::to_float32("temperature", temperature, &t, &g_error) ||
      !attn::validate_softmax_naive(zs.data, m, t, &g_error))
    return failed();
  attn::Outputs out = outputs();
  const auto scaled = out.array("scaledScores", m), exps = out.array("exps", m), sum = out.number("sum");
  const auto weights = out.array("weights", m), largest = out.number("largest"), overflowed = out.flag("overflowed");
  if (!out.allocate(&g_error)) return failed();
  bool did_overflow = false;
  if (!attn::softmax_naive(zs.data, m, t, out[scaled], out[exps], out[sum], out[weights], &g_error, out[largest],
                           &did_overflow))
    return failed();
  out.set(overflowed, did_overflow);
  return 0;
}

int lesson_multi_head(int t, int d_in, uint32_t seed, int heads, int d, bool scaled) {
  return guarded([&] {
    const attn::Input xs = input(0);
    if (!attn::validate_multi_head(xs, t, d_in, heads, d, &g_error)) return false;
    const std::uint64_t h = heads, tt = t;
    attn::Outputs out = outputs();
    const auto weights = out.array("weights", h * tt * tt), entropy = out.array("entropy", h * tt);
    const auto max_weight = out.array("maxWeight", h * tt), concat = out.array("concat", tt * h * d);
    return out.allocate(&g_error) &&
           attn::multi_head(xs, t, d_in, seed, heads, d, scaled,
                            {out[weights], out[entropy], out[max_weight], out[concat]}, &g_error);
  });
}

// ---- training (cpp/train.hpp): the experiments the engine's trainers hold ----------------------
// A trainer of web/core/engine.js holds one Experiment here by id (its slot + 1; 0 is never an id).
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
  if (id >= 1 && static_cast<std::size_t>(id) <= g_trainers.size() && g_trainers[id - 1]) return g_trainers[id - 1].get();
  attn::fail(&g_error, Status::invalid_argument, "trainer %d does not exist: it was disposed, or made by another engine", id);
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

// Creates an experiment (train.hpp, Experiment::create); the shown example and both runs'
// scales out, and the new trainer's id.
int train_create(uint32_t seed, int d_k, double init_scale, const std::string& optimizer, double learning_rate,
                 double momentum, double beta1, double beta2, double eps, double clip_norm, int steps, int batch,
                 int heldout, int letters, int pairs, int queries, int d_model, int d_v) {
  return guarded([&] {
    tr::Config c;
    c.seed = seed;
    c.model.task = {letters, pairs, queries};
    c.model.d_model = d_model;
    c.model.d_k = d_k;
    c.model.d_v = d_v;
    c.steps = steps;
    c.batch = batch;
    c.heldout = heldout;
    if (!tr::parse_optimizer(optimizer.c_str(), &c.optimizer, &g_error) ||
        !attn::to_float32("initScale", init_scale, &c.init_scale, &g_error) ||
        !attn::to_float32("learningRate", learning_rate, &c.learning_rate, &g_error) ||
        !attn::to_float32("momentum", momentum, &c.momentum, &g_error) ||
        !attn::to_float32("beta1", beta1, &c.beta1, &g_error) || !attn::to_float32("beta2", beta2, &c.beta2, &g_error) ||
        !attn::to_float32("eps", eps, &c.eps, &g_error) || !attn::to_float32("clipNorm", clip_norm, &c.clip_norm, &g_error) ||
        !tr::validate_config(c, &g_error))
      return false;
    std::size_t slot = 0;
    while (slot < g_trainers.size() && g_trainers[slot]) ++slot;
    if (slot == kMaxTrainers)
      return attn::fail(&g_error, Status::too_large,
                        "%d trainers are live, the most one engine holds: dispose() one you no longer need", kMaxTrainers);
    auto experiment = std::make_unique<tr::Experiment>();
    if (!experiment->create(c, &g_error)) return false;
    const int P = pairs, Qn = queries;
    attn::Outputs out = outputs();
    const auto id = out.number("id"), params = out.number("parameters"), bytes = out.number("bytes");
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
    out.set(params, static_cast<float>(tr::param_count(c.model)));
    out.set(bytes, static_cast<float>(e.bytes()));
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

EMSCRIPTEN_BINDINGS(attention_lab) {
  using emscripten::constant;
  using emscripten::function;
  // the statuses every adapter returns, by the names the engine gives its errors as error.code
  emscripten::enum_<Status>("Status")
      .value("ATTN_OK", Status::ok)
      .value("ATTN_INVALID_SHAPE", Status::invalid_shape)
      .value("ATTN_INVALID_ARGUMENT", Status::invalid_argument)
      .value("ATTN_NON_FINITE_INPUT", Status::non_finite_input)
      .value("ATTN_OVERFLOW", Status::overflow)
      .value("ATTN_TOO_LARGE", Status::too_large)
      .value("ATTN_INTERNAL", Status::internal_error);
  // the limits every check above uses, for the engine to report (engine.limits)
  constant("maxDim", attn::kMaxDim);
  constant("memoryBudgetBytes", static_cast<double>(attn::kMemoryBudgetBytes));
  constant("maxSigma", attn::kMaxSigma);
  constant("inputSlots", kInputSlots);
  constant("lessonMaxTokens", attn::kMaxLessonTokens);
  constant("lessonMaxWidth", attn::kMaxLessonWidth);
  constant("lessonMaxSamples", attn::kMaxLessonSamples);
  constant("lessonMaxWidths", attn::kMaxSweepWidths);
  constant("lessonMaxDraws", attn::kMaxDraws);
  constant("lessonMaxHeads", attn::kMaxHeads);
  constant("lessonMaxBins", attn::kMaxBins);
  constant("lessonPeakedMaxWeight", attn::kPeakedMaxWeight);
  constant("lessonFlatEntropyFraction", attn::kFlatEntropyFraction);
  constant("lessonExpOverflowThreshold", attn::kExpOverflowThreshold);
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

  function("reserveInput", &reserve_input);
  function("inputCapacity", &input_capacity);
  function("inputKeepFrom", &input_keep_from);
  function("descriptor", &descriptor);
  function("inputLengths", &input_lengths);
  function("lastError", &last_error);
  function("simdArch", &simd_arch);

  function("attention", &attention);
  function("attentionStreaming", &attention_streaming);
  function("softmax", &softmax);
  function("randomNormal", &random_normal);
  function("randomProjection", &random_projection);
  function("project", &project);
  function("addPositionalEncoding", &add_positional_encoding);
  function("textVector", &text_vector);
  function("lessonDotHistograms", &lesson_dot_histograms);
  function("lessonDotVarianceCurve", &lesson_dot_variance_curve);
  function("lessonTokenVarianceCurve", &lesson_token_variance_curve);
  function("lessonHeadProjections", &lesson_head_projections);
  function("lessonHeadWeights", &lesson_head_weights);
  function("lessonProjectHead", &lesson_project_head);
  function("lessonSaturationSweep", &lesson_saturation_sweep);
  function("lessonSoftmaxJacobian", &lesson_softmax_jacobian);
  function("lessonSoftmaxBackward", &lesson_softmax_backward);
  function("lessonUpstreamGradient", &lesson_upstream_gradient);
  function("lessonStepByStep", &lesson_step_by_step);
  function("lessonSoftmaxGradientNorm", &lesson_softmax_gradient_norm);
  function("lessonSoftmaxNaive", &lesson_softmax_naive);
  function("lessonMultiHead", &lesson_multi_head);

  function("trainDefaults", &train_defaults);
  function("trainCreate", &train_create);
  function("trainStep", &train_step);
  function("trainRead", &train_read);
  function("trainReset", &train_reset);
  function("trainDispose", &train_dispose);
  function("trainBatch", &train_batch);
  function("trainParameters", &train_parameters);
}
