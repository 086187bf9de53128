// The training experiments of docs/training.md: runs the experiment (both runs, scaled and
// unscaled) over a grid of settings and several seeds, natively, and prints one Markdown table
// row per setting.
//
//   cmake --build build/native --target train_experiments
//   build/native/train_experiments [--seeds N] [--at S1,S2,...] [field=value ...] [field=v1,v2,... ...]
//   (as WebAssembly: cmake --build build/wasm-simd --target train_experiments, then
//    node build/wasm-simd/train_experiments.cjs ...)
//
// Fields: d_k, init_scale, optimizer (sgd|adam), lr, momentum, beta1, beta2, clip, steps, batch,
// heldout, letters, pairs, queries, d_model, d_v. A field given several values is a grid axis;
// every combination is run for seeds 1…N (default 5). Columns, per run: the median over seeds of
// the first step whose held-out accuracy reaches 90 % ("—" when a seed never did, and how many
// did), the mean held-out accuracy and the median held-out loss over the last 10 % of the
// steps, how many seeds diverged, and the mean max attention weight at the end. --at S1,S2,...
// adds a second table: the held-out losses at those steps over the seeds, and the gap between
// the runs seed by seed (a seed whose run stopped early counts as NaN).
// --trace S1,S2,... prints seed 1's metrics at those steps instead (every metric, both runs).
// --curve SEED prints that seed's held-out losses, one line per step (step, scaled, unscaled; 9
// digits), to compare builds with diff or paste.
// Times are wall-clock for both runs of one seed, single-threaded.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "experiment/train.hpp"

using namespace attn::train;

namespace {

struct Axis {
  std::string field;
  std::vector<std::string> values;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr, "train_experiments: %s\n(see the comment at the top of scripts/train-experiments.cpp)\n", why);
  std::exit(2);
}

void set_field(Config& c, const std::string& field, const std::string& value) {
  const double x = std::atof(value.c_str());
  const int i = static_cast<int>(x);
  if (field == "d_k") c.model.d_k = i;
  else if (field == "init_scale") c.init_scale = static_cast<float>(x);
  else if (field == "optimizer") {
    if (value == "sgd") c.optimizer = Optimizer::sgd;
    else if (value == "adam") c.optimizer = Optimizer::adam;
    else usage("optimizer must be sgd or adam");
  } else if (field == "lr") c.learning_rate = static_cast<float>(x);
  else if (field == "momentum") c.momentum = static_cast<float>(x);
  else if (field == "beta1") c.beta1 = static_cast<float>(x);
  else if (field == "beta2") c.beta2 = static_cast<float>(x);
  else if (field == "clip") c.clip_norm = static_cast<float>(x);
  else if (field == "steps") c.steps = i;
  else if (field == "batch") c.batch = i;
  else if (field == "heldout") c.heldout = i;
  else if (field == "letters") c.model.task.letters = i;
  else if (field == "pairs") c.model.task.pairs = i;
  else if (field == "queries") c.model.task.queries = i;
  else if (field == "d_model") c.model.d_model = i;
  else if (field == "d_v") c.model.d_v = i;
  else usage(("unknown field " + field).c_str());
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t pos; (pos = s.find(sep, start)) != std::string::npos; start = pos + 1) out.push_back(s.substr(start, pos - start));
  out.push_back(s.substr(start));
  return out;
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

struct RunSummary {
  int hit = 0;  // first step with held-out accuracy ≥ 0.9; 0: never
  double accuracy = 0, loss = 0, max_weight = 0;
  bool diverged = false;
};

RunSummary summarise(const Experiment& e, Run run) {
  RunSummary s;
  const int n = e.run_steps_done(run);
  s.diverged = e.diverged_at(run) != 0;
  const float* acc = e.metric(run, Metric::heldout_accuracy);
  for (int t = 0; t < n; ++t)
    if (acc[t] >= 0.9f) {
      s.hit = t + 1;
      break;
    }
  if (n == 0) return s;
  const int tail = std::max(1, n / 10);
  std::vector<double> losses;
  for (int t = n - tail; t < n; ++t) {
    s.accuracy += acc[t] / tail;
    losses.push_back(e.metric(run, Metric::heldout_loss)[t]);
  }
  s.loss = median(losses);
  s.max_weight = e.metric(run, Metric::max_weight)[n - 1];
  return s;
}

std::string describe(const Config& c) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "d_k=%d g=%g %s lr=%g%s%s", c.model.d_k, c.init_scale,
                c.optimizer == Optimizer::sgd ? "sgd" : "adam", c.learning_rate,
                c.optimizer == Optimizer::sgd ? (" mom=" + std::to_string(c.momentum).substr(0, 4)).c_str() : "",
                c.clip_norm > 0 ? (" clip=" + std::to_string(c.clip_norm).substr(0, 4)).c_str() : "");
  return buf;
}

// Seed 1's metrics at the given steps, both runs, one row per step.
int print_trace(Config c, const std::vector<int>& steps) {
  c.seed = 1;
  Experiment e;
  attn::Error err;
  if (!e.create(c, &err)) usage(err.message);
  e.step(c.steps);
  static const char* const names[kMetrics] = {"loss",        "held-out loss", "accuracy", "‖dW_Q‖",
                                              "‖dW_K‖",      "max weight",    "entropy",  "weight on the pair"};
  std::printf("%s, seed 1\n\n| step | run |", describe(c).c_str());
  for (const char* name : names) std::printf(" %s |", name);
  std::printf("\n|---|---|");
  for (int m = 0; m < kMetrics; ++m) std::printf("---|");
  std::printf("\n");
  for (int step : steps)
    for (int r = 0; r < kRuns; ++r) {
      const Run run = static_cast<Run>(r);
      if (step < 1 || step > e.run_steps_done(run)) continue;
      std::printf("| %d | %s |", step, r == 0 ? "scaled" : "unscaled");
      for (int m = 0; m < kMetrics; ++m) std::printf(" %.3g |", e.metric(run, static_cast<Metric>(m))[step - 1]);
      std::printf("\n");
    }
  return 0;
}

// One seed's held-out loss curves, both runs, full precision.
int print_curve(Config c, int seed) {
  c.seed = static_cast<std::uint32_t>(seed);
  Experiment e;
  attn::Error err;
  if (!e.create(c, &err)) usage(err.message);
  e.step(c.steps);
  for (int t = 0; t < c.steps; ++t) {
    std::printf("%d", t + 1);
    for (int r = 0; r < kRuns; ++r) {
      const Run run = static_cast<Run>(r);
      if (t < e.run_steps_done(run)) std::printf(" %.9g", e.metric(run, Metric::heldout_loss)[t]);
      else std::printf(" -");
    }
    std::printf("\n");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Config base;
  int seeds = 5;
  std::vector<int> at, trace;
  int curve_seed = 0;
  std::vector<Axis> axes;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--seeds" && a + 1 < argc) {
      seeds = std::atoi(argv[++a]);
    } else if (arg == "--at" && a + 1 < argc) {
      for (const auto& s : split(argv[++a], ',')) at.push_back(std::atoi(s.c_str()));
    } else if (arg == "--curve" && a + 1 < argc) {
      curve_seed = std::atoi(argv[++a]);
    } else if (arg == "--trace" && a + 1 < argc) {
      for (const auto& s : split(argv[++a], ',')) trace.push_back(std::atoi(s.c_str()));
    } else {
      const std::size_t eq = arg.find('=');
      if (eq == std::string::npos) usage(("expected field=value, got " + arg).c_str());
      const Axis axis{arg.substr(0, eq), split(arg.substr(eq + 1), ',')};
      if (axis.values.size() == 1) set_field(base, axis.field, axis.values[0]);
      else axes.push_back(axis);
    }
  }
  if (seeds < 1) usage("--seeds must be at least 1");
  if (!trace.empty() || curve_seed) {
    if (!axes.empty()) usage("--trace and --curve take one setting, not a grid");
    return curve_seed ? print_curve(base, curve_seed) : print_trace(base, trace);
  }

  struct Row {
    std::string setting;
    std::string cells;                               // the first table's columns after the setting
    std::vector<std::vector<double>> at_loss[kRuns];  // [step][seed]
  };
  std::vector<Row> rows;
  std::vector<std::size_t> index(axes.size(), 0);
  for (;;) {
    Config c = base;
    for (std::size_t i = 0; i < axes.size(); ++i) set_field(c, axes[i].field, axes[i].values[index[i]]);
    Row row;
    row.setting = describe(c);
    std::vector<double> hits[kRuns], acc[kRuns], loss[kRuns], max_weight[kRuns], ms;
    int reached[kRuns] = {0, 0}, diverged[kRuns] = {0, 0};
    for (int r = 0; r < kRuns; ++r) row.at_loss[r].assign(at.size(), {});
    for (int seed = 1; seed <= seeds; ++seed) {
      c.seed = static_cast<std::uint32_t>(seed);
      Experiment e;
      attn::Error err;
      if (!e.create(c, &err)) usage(err.message);
      const auto t0 = std::chrono::steady_clock::now();
      e.step(c.steps);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      for (int r = 0; r < kRuns; ++r) {
        const Run run = static_cast<Run>(r);
        const RunSummary s = summarise(e, run);
        hits[r].push_back(s.hit ? s.hit : 1e9);
        reached[r] += s.hit != 0;
        diverged[r] += s.diverged;
        acc[r].push_back(s.accuracy);
        loss[r].push_back(s.loss);
        max_weight[r].push_back(s.max_weight);
        for (std::size_t k = 0; k < at.size(); ++k) {
          const bool have = at[k] >= 1 && at[k] <= e.run_steps_done(run);
          row.at_loss[r][k].push_back(have ? e.metric(run, Metric::heldout_loss)[at[k] - 1] : NAN);
        }
      }
    }
    const auto hit_text = [&](int r) {
      const double m = median(hits[r]);
      char buf[64];
      if (m >= 1e9) std::snprintf(buf, sizeof buf, "— (%d/%d)", reached[r], seeds);
      else std::snprintf(buf, sizeof buf, "%g (%d/%d)", m, reached[r], seeds);
      return std::string(buf);
    };
    const auto mean = [](const std::vector<double>& x) {
      double sum = 0;
      for (double v : x) sum += v;
      return sum / x.size();
    };
    char cells[512];
    std::snprintf(cells, sizeof cells, "%s | %s | %.3f, %.3g | %.3f, %.3g | %d/%d | %.3f/%.3f | %.0f",
                  hit_text(0).c_str(), hit_text(1).c_str(), mean(acc[0]), median(loss[0]), mean(acc[1]),
                  median(loss[1]), diverged[0], diverged[1], mean(max_weight[0]), mean(max_weight[1]), median(ms));
    row.cells = cells;
    rows.push_back(row);
    std::size_t i = 0;
    for (; i < axes.size(); ++i) {
      if (++index[i] < axes[i].values.size()) break;
      index[i] = 0;
    }
    if (i == axes.size()) break;
  }

  std::printf("%d seeds, %d steps\n\n", seeds, base.steps);
  std::printf("| setting | scaled: 90 %% at step | unscaled: 90 %% at step | scaled: acc, loss (end) | "
              "unscaled: acc, loss (end) | diverged s/u | max weight s/u (end) | ms per experiment |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const Row& row : rows) std::printf("| %s | %s |\n", row.setting.c_str(), row.cells.c_str());
  if (at.empty()) return 0;

  std::printf("\nHeld-out loss at a step, over the seeds: median (range); the gap is unscaled − scaled, seed by seed\n\n");
  std::printf("| setting | step | scaled | unscaled | gap: min … max | unscaled behind in |\n|---|---|---|---|---|---|\n");
  for (const Row& row : rows)
    for (std::size_t k = 0; k < at.size(); ++k) {
      const std::vector<double>& s = row.at_loss[0][k];
      const std::vector<double>& u = row.at_loss[1][k];
      double gap_min = INFINITY, gap_max = -INFINITY;
      int behind = 0;
      for (int i = 0; i < seeds; ++i) {
        gap_min = std::min(gap_min, u[i] - s[i]);
        gap_max = std::max(gap_max, u[i] - s[i]);
        behind += u[i] > s[i];
      }
      std::printf("| %s | %d | %.3g (%.3g–%.3g) | %.3g (%.3g–%.3g) | %.3g … %.3g | %d/%d |\n", row.setting.c_str(), at[k],
                  median(s), *std::min_element(s.begin(), s.end()), *std::max_element(s.begin(), s.end()), median(u),
                  *std::min_element(u.begin(), u.end()), *std::max_element(u.begin(), u.end()), gap_min, gap_max,
                  behind, seeds);
    }
  return 0;
}
