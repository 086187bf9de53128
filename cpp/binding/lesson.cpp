// The binding's adapters for the lesson's measurements (cpp/lesson/lesson.hpp; binding.hpp says how an
// adapter is written). Each validates once, through the validate_* twin, and computes with the
// _validated variant.
#include <emscripten/bind.h>

#include <cstdint>
#include <vector>

#include "binding/binding.hpp"
#include "lesson/lesson.hpp"

namespace binding {
namespace {

// Width lists arrive as JS arrays of integers (the engine checks that they are).
std::vector<int> widths(const emscripten::val& dims) { return emscripten::vecFromJSArray<int>(dims); }

// One options object { seed, d, samples, bins, range, scaledRange }; a range the caller does not
// give (undefined) is the lesson's default (default_dot_range).
int lesson_dot_histograms(const emscripten::val& options) {
  return guarded([&] {
    const std::uint32_t seed = options["seed"].as<std::uint32_t>();
    const int d = int_of(options, "d"), samples = int_of(options, "samples"), bins = int_of(options, "bins");
    attn::DotHistogram hists[2];
    const char* ranges[2] = {"range", "scaledRange"};
    const char* names[2][2] = {{"range[0]", "range[1]"}, {"scaledRange[0]", "scaledRange[1]"}};
    for (int h = 0; h < 2; ++h) {
      const emscripten::val range = options[ranges[h]];
      if (range.isUndefined()) {
        attn::default_dot_range(d, h == 1, &hists[h].lo, &hists[h].hi);
      } else if (!attn::to_float32(names[h][0], range[0].as<double>(), &hists[h].lo, &g_error) ||
                 !attn::to_float32(names[h][1], range[1].as<double>(), &hists[h].hi, &g_error)) {
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
    if (!attn::dot_histograms_validated(seed, d, samples, bins, hists[0], hists[1], &g_error)) return false;
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
           attn::dot_variance_curve_validated(seed, w.data(), count, samples, out[unscaled], out[scaled], &g_error);
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
    return out.allocate(&g_error) && attn::token_dot_variance_curve_validated(xs, t, d_in, seed, w.data(), count, draws,
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
           attn::head_projections_validated(xs, t, d_in, seed, head, d, out[q], out[k], out[v], &g_error);
  });
}

// The seeded W_Q, W_K of headProjections, and Q, K from them: the lab's Random mode keeps the
// weights of its d_k and projects each new sentence (web/lab/inputs.js), as the lesson's sweeps do.
int projection_weights(uint32_t seed, int d_in, int head, int d) {
  return guarded([&] {
    if (!attn::validate_head_weights(head, d_in, d, &g_error)) return false;
    const std::uint64_t size = static_cast<std::uint64_t>(d_in) * d;
    attn::Outputs out = outputs();
    const auto wq = out.array("wq", size), wk = out.array("wk", size);
    return out.allocate(&g_error) &&
           attn::head_weights_validated(seed, head, d_in, d, out[wq], out[wk], nullptr, &g_error);
  });
}

int project_qk(int t, int d_in, int d) {
  return guarded([&] {
    const attn::Input xs = input(0), wqs = input(1), wks = input(2);
    if (!attn::validate_project_head(xs, t, d_in, wqs, wks, {}, d, &g_error)) return false;
    const std::uint64_t td = static_cast<std::uint64_t>(t) * d;
    attn::Outputs out = outputs();
    const auto q = out.array("q", td), k = out.array("k", td);
    return out.allocate(&g_error) &&
           attn::project_head_validated(xs, t, d_in, wqs, wks, {}, d, out[q], out[k], nullptr, &g_error);
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
    return attn::saturation_sweep_validated(xs, t, d_in, seed, w.data(), count, scaled,
                                            {out[max_weight], out[entropy], out[regime], out[grad_norm]},
                                            {out[mean_max], out[mean_entropy], out[mean_grad], out[fraction_peaked],
                                             out[fraction_flat], out[peaked], out[flat]},
                                            &g_error);
  });
}

int lesson_saturation_trend(int t, int d_in, uint32_t seed, emscripten::val dims, int draws, bool scaled,
                            double threshold) {
  return guarded([&] {
    const attn::Input xs = input(0);
    const std::vector<int> w = widths(dims);
    const int count = static_cast<int>(w.size());
    float th = 0;
    if (!attn::to_float32("threshold", threshold, &th, &g_error) ||
        !attn::validate_saturation_trend(xs, t, d_in, w.data(), count, draws, th, &g_error))
      return false;
    attn::Outputs out = outputs();
    const auto max_weight = out.array("maxWeight", static_cast<std::uint64_t>(count) * t);
    const auto mean_max = out.array("mean.maxWeight", count);
    const auto first_above = out.number("firstAbove");
    if (!out.allocate(&g_error)) return false;
    int first = -1;
    if (!attn::saturation_trend_validated(xs, t, d_in, seed, w.data(), count, draws, scaled, th, out[max_weight],
                                          out[mean_max], &first, &g_error))
      return false;
    out.set(first_above, static_cast<float>(first));
    return true;
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
    return out.allocate(&g_error) && attn::softmax_jacobian_validated(ps.data, m, out[jacobian], &g_error);
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
    return out.allocate(&g_error) && attn::softmax_backward_validated(ps.data, dps, m, out[dz], &g_error);
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

int lesson_step_by_step(int m, int d, int key, int visible, bool scaled, double temperature) {
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
    if (!attn::step_by_step_validated(qs, ks, m, d, key, scaled, t, visible, trace, &g_error)) return false;
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
    return out.allocate(&g_error) && attn::softmax_gradient_norm_validated(ps.data, m, seed, row, out[norm], &g_error);
  });
}

// The broken naive version, raw (see lesson.hpp).
int lesson_softmax_naive(double temperature) {
  ScoreRow row;
  if (!score_row(temperature, &row) ||
      !attn::validate_softmax_naive(row.scores.data, row.m, row.temperature, &g_error))
    return failed();
  const int m = row.m;
  attn::Outputs out = outputs();
  const auto scaled = out.array("scaledScores", m), exps = out.array("exps", m), sum = out.number("sum");
  const auto weights = out.array("weights", m), largest = out.number("largest"), overflowed = out.flag("overflowed");
  if (!out.allocate(&g_error)) return failed();
  bool did_overflow = false;
  if (!attn::softmax_naive_validated(row.scores.data, m, row.temperature, out[scaled], out[exps], out[sum],
                                     out[weights], &g_error, out[largest], &did_overflow))
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
           attn::multi_head_validated(xs, t, d_in, seed, heads, d, scaled,
                                      {out[weights], out[entropy], out[max_weight], out[concat]}, &g_error);
  });
}

}  // namespace
}  // namespace binding

EMSCRIPTEN_BINDINGS(attention_lab_lesson) {
  using emscripten::constant;
  using emscripten::function;
  using namespace binding;
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

  function("lessonDotHistograms", &lesson_dot_histograms);
  function("lessonDotVarianceCurve", &lesson_dot_variance_curve);
  function("lessonTokenVarianceCurve", &lesson_token_variance_curve);
  function("lessonHeadProjections", &lesson_head_projections);
  function("projectionWeights", &projection_weights);
  function("projectQK", &project_qk);
  function("lessonSaturationSweep", &lesson_saturation_sweep);
  function("lessonSaturationTrend", &lesson_saturation_trend);
  function("lessonSoftmaxJacobian", &lesson_softmax_jacobian);
  function("lessonSoftmaxBackward", &lesson_softmax_backward);
  function("lessonUpstreamGradient", &lesson_upstream_gradient);
  function("lessonStepByStep", &lesson_step_by_step);
  function("lessonSoftmaxGradientNorm", &lesson_softmax_gradient_norm);
  function("lessonSoftmaxNaive", &lesson_softmax_naive);
  function("lessonMultiHead", &lesson_multi_head);
}
