// The language model's training driver (issue 20), native only: trains one twin (scaled or
// unscaled) of cpp/model/model.hpp on the corpus of scripts/model/prepare-corpus.mjs, measures the
// n-gram baselines, and times candidate sizes. scripts/model/train-model.sh runs both twins,
// one process per core.
//
//   cmake --build build/native --target train_model
//   build/native/train_model baselines [--data build/model]
//   build/native/train_model bench [--data D] [--steps N] [--vocab V] [size=LxHxCxT ...]
//   build/native/train_model train --variant scaled|unscaled [--data D] [--out D] [options]
//   build/native/train_model eval --checkpoint FILE [--data D] [--out D]
//   build/native/train_model measure --checkpoint FILE|--weights FILE [--data D] [--split test|validation]
//                                    [--windows N] [--sequences N]   (what each head does)
//
// train options (defaults in TrainConfig below): --layers --heads --d-model --context --batch
// --steps --lr --lr-min --warmup --weight-decay --clip --seed --eval-every --eval-tokens
// --minutes M (stop after M minutes of training, checkpoint written: run again to resume),
// --stop-after S (the same at step S: the first S steps of the full run, e.g. to compare with a
// committed curve).
// Issue 34's levers (train-levers.hpp; off by default): --repeat-share P [--repeat-min A
// --repeat-max B] [--repeat-random] (a share P of windows repeats an earlier span of A … B tokens;
// random words in place of the text's), --qk-init-std S
// or `unit` (σ of W_Q, W_K at step 0; unit = 1/√d_model, scores of spread ~1 scaled, ~√d_head
// unscaled), --attention-only (the MLPs add nothing), --watch-every N (each head's measurements
// every N steps, on 64 validation windows and 64 repeated random sequences, to
// <out>/<variant>-heads.tsv). --seed changes both the initialisation and the batches.
// The checkpoint (<out>/<variant>.ckpt) holds the config, the step, the parameters, AdamW's
// moments and the curve so far, with a checksum; a run whose checkpoint exists resumes from it
// and gives the same numbers as one that never stopped: step s's batch comes from (seed, s)
// alone. The curve (<out>/<variant>-curve.tsv): step, learning rate, training loss of the step's
// batch (before its update), and every --eval-every steps the validation loss. At the end the
// weights (<out>/<variant>-f32|f16|q8.weights: model_file.hpp) and each one's test perplexity.
//
// Held-out perplexity (eval, and at the end of train) is over every target of the split from
// its third token on (the n-gram baselines score the same targets): windows of `context`
// tokens advance by half a window, each scoring the targets its predecessor did not, so every
// target but the first half window's sees at least context/2 tokens before it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "core/optim.hpp"
#include "core/random.hpp"
#include "model/model.hpp"
#include "model/model_file.hpp"
#include "ngram.hpp"
#include "train-levers.hpp"

using namespace attn;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "train_model: %s\n(see the comment at the top of scripts/model/train-model.cpp)\n", why.c_str());
  std::exit(2);
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// ---- data ------------------------------------------------------------------------------------

std::vector<std::int32_t> read_tokens(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot read " + path + ": run node scripts/model/prepare-corpus.mjs first");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::int32_t> tokens(bytes.size() / 2);
  for (std::size_t i = 0; i < tokens.size(); ++i) tokens[i] = bytes[2 * i] | (bytes[2 * i + 1] << 8);  // uint16 LE
  return tokens;
}

int read_vocab_size(const std::string& path) {
  std::ifstream in(path);
  if (!in) die("cannot read " + path + ": run node scripts/model/prepare-corpus.mjs first");
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

struct Corpus {
  int vocab = 0;
  std::vector<std::int32_t> train, validation, test;
};

Corpus load(const std::string& dir) {
  Corpus c;
  c.vocab = read_vocab_size(dir + "/vocab.txt");
  c.train = read_tokens(dir + "/train.bin");
  c.validation = read_tokens(dir + "/validation.bin");
  c.test = read_tokens(dir + "/test.bin");
  for (const auto* split : {&c.train, &c.validation, &c.test})
    for (std::int32_t t : *split)
      if (t >= c.vocab) die("a token id beyond the vocabulary: prepare the corpus again");
  return c;
}

// Step s's batch: levers::make_batch (train-levers.hpp), the issue-20 draw unless the repeat mix is on.

// ---- held-out loss -------------------------------------------------------------------------------

// Mean −ln p over the targets of tokens[0 … limit) from index 2 (see the top comment): windows of
// T advancing by T/2, B at a time.
double heldout_nll(lm::Model& model, const std::vector<std::int32_t>& tokens, std::size_t limit, int B) {
  const int T = model.config().context;
  const std::size_t n = std::min(limit, tokens.size());
  const std::size_t stride = static_cast<std::size_t>(std::max(1, T / 2));
  std::vector<std::size_t> starts;
  for (std::size_t s = 0; s + T + 1 <= n; s += stride) starts.push_back(s);
  if (starts.empty()) die("a held-out split shorter than the context");
  if (starts.back() + T + 1 < n) starts.push_back(n - T - 1);  // the tail
  std::vector<std::int32_t> x(static_cast<std::size_t>(B) * T), y(x.size());
  double nll = 0;
  std::size_t scored = 0, done_through = 1;  // targets ≤ done_through are scored already
  Error err;
  for (std::size_t w0 = 0; w0 < starts.size(); w0 += B) {
    const int count = static_cast<int>(std::min<std::size_t>(B, starts.size() - w0));
    for (int b = 0; b < count; ++b) {
      std::copy_n(tokens.data() + starts[w0 + b], T, x.data() + static_cast<std::size_t>(b) * T);
      std::copy_n(tokens.data() + starts[w0 + b] + 1, T, y.data() + static_cast<std::size_t>(b) * T);
    }
    float loss;
    if (!model.forward(x.data(), y.data(), count, T, &loss, &err)) die(err.message);
    for (int b = 0; b < count; ++b) {
      const std::size_t s = starts[w0 + b];
      for (int t = 0; t < T; ++t) {
        const std::size_t target = s + 1 + t;
        if (target <= done_through) continue;
        nll += model.losses()[static_cast<std::size_t>(b) * T + t];
        ++scored;
      }
      done_through = std::max(done_through, s + T);
    }
  }
  return nll / static_cast<double>(scored);
}

// ---- training ------------------------------------------------------------------------------------

struct TrainConfig {
  lm::ModelConfig model;
  int batch = 16;
  int steps = 5000;  // 5.1 M tokens, ~5.4 passes over the training split (docs/model.md: sizes)
  float lr = 3e-3f, lr_min = 3e-4f;
  int warmup = 200;
  float weight_decay = 0.1f;
  float clip = 1.0f;
  std::uint64_t seed = 1;
  int eval_every = 250;
  int eval_tokens = 8192;  // of the validation split, for the curve
  // issue 34's levers (train-levers.hpp); these defaults are issue 20's run
  float repeat_share = 0;  // share of windows with a repeated span
  int repeat_min = 4, repeat_max = 24;
  int repeat_random = 0;   // 1: the repeated span is random words
  float qk_init_std = 0;   // σ of W_Q, W_K at step 0; 0: GPT-2's 0.02 like the rest
  int attention_only = 0;  // 1: the MLPs add nothing (output zero, no gradient)
  int watch_every = 0;     // every N steps (and at 0) the head measurements to <variant>-heads.tsv; 0 off
};

struct CurveRow {
  std::int32_t step;
  float lr, train_loss, validation_loss;  // NaN where not measured
};

constexpr char kMagic[8] = {'A', 'L', 'L', 'M', 'C', 'K', 'P', '3'};  // 3: TrainConfig grew --repeat-random

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

struct Writer {
  std::vector<unsigned char> bytes;
  template <class T>
  void put(const T* x, std::size_t count) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(x);
    bytes.insert(bytes.end(), p, p + sizeof(T) * count);
  }
};

struct Reader {
  const std::vector<unsigned char>& bytes;
  std::size_t at = 0;
  template <class T>
  void get(T* x, std::size_t count) {
    if (at + sizeof(T) * count > bytes.size()) die("the checkpoint is truncated");
    std::memcpy(x, bytes.data() + at, sizeof(T) * count);
    at += sizeof(T) * count;
  }
};

// The checkpoint: magic, TrainConfig, step, params, m, v, curve rows, FNV-1a of all before it.
// Written to a temporary file and renamed, so a run killed mid-write keeps its last checkpoint.
void save_checkpoint(const std::string& path, const TrainConfig& cfg, int step, const lm::Model& model,
                     const std::vector<float>& m, const std::vector<float>& v, const std::vector<CurveRow>& curve) {
  Writer w;
  w.put(kMagic, 8);
  w.put(&cfg, 1);
  w.put(&step, 1);
  const std::uint64_t count = model.size(), rows = curve.size();
  w.put(&count, 1);
  w.put(model.params(), model.size());
  w.put(m.data(), m.size());
  w.put(v.data(), v.size());
  w.put(&rows, 1);
  w.put(curve.data(), curve.size());
  const std::uint64_t sum = fnv1a(w.bytes.data(), w.bytes.size());
  w.put(&sum, 1);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(w.bytes.data()), static_cast<std::streamsize>(w.bytes.size()));
    if (!out) die("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) die("cannot rename " + tmp + " to " + path);
}

struct Checkpoint {
  TrainConfig cfg;
  int step = 0;
  std::vector<float> params, m, v;
  std::vector<CurveRow> curve;
};

bool load_checkpoint(const std::string& path, Checkpoint* ck) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 8 + sizeof(std::uint64_t) || std::memcmp(bytes.data(), kMagic, 8) != 0)
    die(path + " is not a checkpoint of this version");
  std::uint64_t sum;
  std::memcpy(&sum, bytes.data() + bytes.size() - sizeof sum, sizeof sum);
  if (fnv1a(bytes.data(), bytes.size() - sizeof sum) != sum) die(path + ": checksum mismatch (a damaged checkpoint)");
  Reader r{bytes, 8};
  r.get(&ck->cfg, 1);
  r.get(&ck->step, 1);
  std::uint64_t count, rows;
  r.get(&count, 1);
  ck->params.resize(count);
  ck->m.resize(count);
  ck->v.resize(count);
  r.get(ck->params.data(), count);
  r.get(ck->m.data(), count);
  r.get(ck->v.data(), count);
  r.get(&rows, 1);
  ck->curve.resize(rows);
  r.get(ck->curve.data(), rows);
  return true;
}

void write_curve(const std::string& path, const std::vector<CurveRow>& curve) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) die("cannot write " + path);
  std::fprintf(f, "step\tlr\ttrain_loss\tvalidation_loss\n");
  for (const CurveRow& r : curve) {
    std::fprintf(f, "%d\t%.9g\t%.9g\t", r.step, r.lr, r.train_loss);
    if (std::isnan(r.validation_loss)) std::fprintf(f, "\n");
    else std::fprintf(f, "%.9g\n", r.validation_loss);
  }
  std::fclose(f);
}

bool same_config(const TrainConfig& a, const TrainConfig& b) {
  const lm::ModelConfig &x = a.model, &y = b.model;
  return x.vocab == y.vocab && x.context == y.context && x.layers == y.layers && x.heads == y.heads &&
         x.d_model == y.d_model && x.scaled == y.scaled && a.batch == b.batch && a.steps == b.steps && a.lr == b.lr &&
         a.lr_min == b.lr_min && a.warmup == b.warmup && a.weight_decay == b.weight_decay && a.clip == b.clip &&
         a.seed == b.seed && a.eval_every == b.eval_every && a.eval_tokens == b.eval_tokens &&
         a.repeat_share == b.repeat_share && a.repeat_min == b.repeat_min && a.repeat_max == b.repeat_max &&
         a.repeat_random == b.repeat_random &&
         a.qk_init_std == b.qk_init_std && a.attention_only == b.attention_only && a.watch_every == b.watch_every;
}

// One training step: batch, forward, backward, clip, AdamW. Returns the batch's loss.
float train_step(lm::Model& model, const TrainConfig& cfg, const std::vector<std::int32_t>& train, int step,
                 std::vector<float>& m, std::vector<float>& v, std::vector<std::int32_t>& x,
                 std::vector<std::int32_t>& y, float* lr_out) {
  const int T = cfg.model.context;
  levers::RepeatMix mix;
  mix.share = cfg.repeat_share;
  mix.min_span = cfg.repeat_min;
  mix.max_span = cfg.repeat_max;
  mix.random_vocab = cfg.repeat_random ? cfg.model.vocab : 0;
  levers::make_batch(train, cfg.seed, step, cfg.batch, T, mix, x.data(), y.data());
  float loss;
  Error err;
  if (!model.forward(x.data(), y.data(), cfg.batch, T, &loss, &err) || !model.backward(&err)) die(err.message);
  if (cfg.attention_only) levers::zero_mlp_output(cfg.model, model.grads(), true);
  optim::clip_grad_norm(model.grads(), model.size(), cfg.clip);
  const float lr = lm::learning_rate(step, cfg.steps, cfg.warmup, cfg.lr, cfg.lr_min);
  lm::AdamWConfig opt;
  opt.weight_decay = cfg.weight_decay;
  lm::adamw_step(cfg.model, model.params(), model.grads(), m.data(), v.data(), lr, opt, step + 1);
  *lr_out = lr;
  return loss;
}

// Writes the weights in each encoding (<out>/<name>-f32|f16|q8.weights) and prints each one's
// size and the test perplexity of the model read back from it: the cost of shipping it smaller.
void export_weights(const lm::ModelConfig& config, const float* params, const Corpus& corpus, const std::string& out,
                    const std::string& name) {
  const struct {
    lm::Encoding encoding;
    const char* suffix;
  } encodings[] = {{lm::Encoding::float32, "f32"}, {lm::Encoding::float16, "f16"}, {lm::Encoding::int8, "q8"}};
  lm::Model model;
  Error err;
  if (!model.create(config, 16, &err)) die(err.message);
  for (const auto& e : encodings) {
    std::vector<unsigned char> bytes;
    if (!lm::write_weights(config, params, e.encoding, &bytes, &err) ||
        !lm::read_weights(bytes.data(), bytes.size(), model.params(), model.size(), &err))
      die(err.message);
    const std::string path = out + "/" + name + "-" + e.suffix + ".weights";
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!file) die("cannot write " + path);
    const double nll = heldout_nll(model, corpus.test, corpus.test.size(), 16);
    std::printf("[%s] %s: %zu bytes, test perplexity %.2f\n", name.c_str(), path.c_str(), bytes.size(),
                std::exp(nll));
    std::fflush(stdout);
  }
}

// ---- the heads, measured (train-levers.hpp) ----------------------------------------------------------

levers::Measurement measure(lm::Model& model, int max_batch, const std::vector<std::int32_t>& text, int windows,
                            int sequences, std::uint64_t seed) {
  levers::Measurement m;
  Error err;
  if (!levers::measure_heads(model, max_batch, text, windows, sequences, seed, &m, &err)) die(err.message);
  return m;
}

// One row per head, appended (a header first when the file is new): a few kilobytes a run.
void write_heads(const std::string& path, int step, const levers::Measurement& m) {
  std::FILE* probe = std::fopen(path.c_str(), "r");
  const bool fresh = probe == nullptr;
  if (probe) std::fclose(probe);
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) die("cannot write " + path);
  if (fresh)
    std::fprintf(f, "step\tlayer\thead\tprevious\tfirst\tself\tspread\ttop\tscore_std\tinduction\teven_text\t"
                    "even_induction\tloss_first_copy\tloss_second_copy\n");
  for (int l = 0; l < m.layers; ++l)
    for (int h = 0; h < m.heads; ++h) {
      const levers::HeadScores& s = m.head[l * m.heads + h];
      std::fprintf(f, "%d\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", step, l + 1,
                   h + 1, s.previous, s.first, s.self, s.spread, s.top, s.score_std, s.induction, m.even_text,
                   m.even_induction, m.loss_first_copy, m.loss_second_copy);
    }
  std::fclose(f);
}

void print_heads(const levers::Measurement& m) {
  std::printf("%d windows of held-out text; %d sequences of random words repeated once.\n"
              "An even row gives %.4f on previous, first, self and top, and %.4f on induction.\n"
              "Loss on the repeated words: first copy %.3f, second copy %.3f nats (copying: the second lower).\n\n"
              "| layer.head | previous | first | self | top | spread | score std | induction |\n"
              "|---|---|---|---|---|---|---|---|\n",
              m.text_windows, m.repeat_sequences, m.even_text, m.even_induction, m.loss_first_copy,
              m.loss_second_copy);
  for (int l = 0; l < m.layers; ++l)
    for (int h = 0; h < m.heads; ++h) {
      const levers::HeadScores& s = m.head[l * m.heads + h];
      std::printf("| %d.%d | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.3f |\n", l + 1, h + 1, s.previous, s.first,
                  s.self, s.top, s.spread, s.score_std, s.induction);
    }
}

int run_train(const TrainConfig& requested, const Corpus& corpus, const std::string& out, double minutes,
              int stop_after) {
  const std::string name = requested.model.scaled ? "scaled" : "unscaled";
  const std::string ck_path = out + "/" + name + ".ckpt";
  TrainConfig cfg = requested;
  Checkpoint ck;
  const bool resumed = load_checkpoint(ck_path, &ck);
  if (resumed && !same_config(ck.cfg, cfg)) die(ck_path + " was written with other settings: remove it to start again");
  lm::Model model;
  Error err;
  if (!model.create(cfg.model, cfg.batch, &err)) die(err.message);
  std::vector<float> m(model.size(), 0.0f), v(model.size(), 0.0f);
  std::vector<CurveRow> curve;
  int step = 0;
  if (resumed) {
    if (ck.params.size() != model.size()) die(ck_path + " holds another model's parameters");
    std::copy(ck.params.begin(), ck.params.end(), model.params());
    m = ck.m;
    v = ck.v;
    curve = ck.curve;
    step = ck.step;
    std::printf("[%s] resumed at step %d of %d\n", name.c_str(), step, cfg.steps);
  } else {
    lm::init_params(cfg.model, cfg.seed, model.params());  // the same for both twins
    levers::rescale_qk_init(cfg.model, model.params(), cfg.qk_init_std);
    if (cfg.attention_only) levers::zero_mlp_output(cfg.model, model.params(), false);
  }
  // a separate model for held-out losses: its batch is the held-out windows', not training's
  lm::Model eval;
  const int eval_batch = 16;
  if (!eval.create(cfg.model, eval_batch, &err)) die(err.message);
  const auto validation_loss = [&]() {
    std::copy_n(model.params(), model.size(), eval.params());
    return heldout_nll(eval, corpus.validation, static_cast<std::size_t>(cfg.eval_tokens), eval_batch);
  };
  std::printf("[%s] %llu parameters; L %d, H %d, C %d, T %d, V %d, batch %d, %d steps\n", name.c_str(),
              static_cast<unsigned long long>(model.size()), cfg.model.layers, cfg.model.heads, cfg.model.d_model,
              cfg.model.context, cfg.model.vocab, cfg.batch, cfg.steps);
  const auto watch = [&](int at) {
    if (cfg.watch_every <= 0) return;
    std::copy_n(model.params(), model.size(), eval.params());
    write_heads(out + "/" + name + "-heads.tsv", at, measure(eval, eval_batch, corpus.validation, 64, 64, cfg.seed));
  };
  if (!resumed) watch(0);
  std::vector<std::int32_t> x(static_cast<std::size_t>(cfg.batch) * cfg.model.context), y(x.size());
  const Clock::time_point t0 = Clock::now();
  double train_seconds = 0;
  int steps_this_run = 0;
  while (step < cfg.steps) {
    const Clock::time_point ts = Clock::now();
    float lr;
    const float loss = train_step(model, cfg, corpus.train, step, m, v, x, y, &lr);
    train_seconds += seconds_since(ts);
    ++step;
    ++steps_this_run;
    if (!std::isfinite(loss)) die("the training loss is not finite at step " + std::to_string(step));
    CurveRow row{step, lr, loss, NAN};
    const bool last = step == cfg.steps;
    const bool out_of_time = (minutes > 0 && seconds_since(t0) > minutes * 60) || step == stop_after;
    if (step % cfg.eval_every == 0 || last) {
      row.validation_loss = static_cast<float>(validation_loss());
      const double tps = static_cast<double>(steps_this_run) * cfg.batch * cfg.model.context / train_seconds;
      std::printf("[%s] step %d/%d lr %.2e train %.4f validation %.4f (ppl %.1f) %.0f tokens/s %.0f s\n",
                  name.c_str(), step, cfg.steps, lr, loss, row.validation_loss, std::exp(row.validation_loss), tps,
                  seconds_since(t0));
      std::fflush(stdout);
    }
    curve.push_back(row);
    if (!std::isnan(row.validation_loss) || out_of_time) {  // (the curve stays that of an uninterrupted run)
      save_checkpoint(ck_path, cfg, step, model, m, v, curve);
      write_curve(out + "/" + name + "-curve.tsv", curve);
    }
    if (cfg.watch_every > 0 && step % cfg.watch_every == 0) watch(step);
    if (out_of_time && !last) {
      std::printf("[%s] stopped at step %d after %.1f minutes: run again to resume\n", name.c_str(), step,
                  seconds_since(t0) / 60);
      return 0;
    }
  }
  std::printf("[%s] trained %d steps; the test perplexity of each encoding:\n", name.c_str(), step);
  export_weights(cfg.model, model.params(), corpus, out, name);
  return 0;
}

// ---- baselines -----------------------------------------------------------------------------------

int run_baselines(const Corpus& c) {
  Error err;
  ngram::Unigram uni;
  if (!uni.build(c.train.data(), c.train.size(), c.vocab, &err)) die(err.message);
  std::printf("| model | validation perplexity | test perplexity |\n|---|---|---|\n");
  const auto report = [&](const char* name, auto prob) {
    const auto ppl = [&](const std::vector<std::int32_t>& s) {
      return ngram::perplexity(2, s.size(), [&](std::size_t i) { return prob(s, i); });
    };
    std::printf("| %s | %.2f | %.2f |\n", name, ppl(c.validation), ppl(c.test));
  };
  report("unigram", [&](const std::vector<std::int32_t>& s, std::size_t i) { return uni.prob(s[i]); });
  for (int order : {2, 3}) {
    ngram::KneserNey kn;
    if (!kn.build(c.train.data(), c.train.size(), c.vocab, order, &err)) die(err.message);
    const std::string name = "Kneser-Ney " + std::string(order == 2 ? "bigram" : "trigram");
    report(name.c_str(), [&](const std::vector<std::int32_t>& s, std::size_t i) {
      return kn.prob(s.data() + i - (order - 1), s[i]);
    });
  }
  return 0;
}

// ---- bench -------------------------------------------------------------------------------------------

// vocab > 0: time a model of that vocabulary instead (tokens taken modulo it): the cost of
// another vocabulary size without preparing its corpus.
int run_bench(const Corpus& corpus, int steps, int batch, const std::vector<std::string>& sizes, int vocab) {
  Corpus c = corpus;
  if (vocab > 0) {
    c.vocab = vocab;
    for (std::int32_t& t : c.train) t %= vocab;
  }
  // Per CPU second (std::clock: this process's processor time) as well as per wall second: on a
  // machine shared with other work the first is what a core of its own gives, the second is not.
  std::printf("| layers × heads × d_model × context | parameters | tokens per CPU second | ms of CPU per step "
              "(batch %d) | tokens per wall second | predict: one sentence of `context` tokens, CPU ms |\n"
              "|---|---|---|---|---|---|\n",
              batch);
  for (const std::string& s : sizes) {
    TrainConfig cfg;
    cfg.batch = batch;
    cfg.steps = steps;
    if (std::sscanf(s.c_str(), "%dx%dx%dx%d", &cfg.model.layers, &cfg.model.heads, &cfg.model.d_model,
                    &cfg.model.context) != 4)
      die("a size is LxHxCxT, got " + s);
    cfg.model.vocab = c.vocab;
    lm::Model model;
    Error err;
    if (!model.create(cfg.model, cfg.batch, &err)) die(err.message);
    lm::init_params(cfg.model, 1, model.params());
    std::vector<float> m(model.size(), 0.0f), v(model.size(), 0.0f);
    std::vector<std::int32_t> x(static_cast<std::size_t>(batch) * cfg.model.context), y(x.size());
    float lr;
    train_step(model, cfg, c.train, 0, m, v, x, y, &lr);  // warm-up: first touch of the memory
    const Clock::time_point t0 = Clock::now();
    const std::clock_t cpu0 = std::clock();
    for (int i = 1; i <= steps; ++i) train_step(model, cfg, c.train, i, m, v, x, y, &lr);
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC, sec = seconds_since(t0);
    const double tokens = steps * static_cast<double>(batch) * cfg.model.context;
    // inference as the page will run it: one sentence, the next-word distribution of its last token
    const int T = cfg.model.context, repeats = 20;
    const std::clock_t p0 = std::clock();
    for (int i = 0; i < repeats; ++i)
      if (!model.predict(x.data(), T, T - 1, &err)) die(err.message);
    const double predict_ms = 1000.0 * static_cast<double>(std::clock() - p0) / CLOCKS_PER_SEC / repeats;
    std::printf("| %s | %llu | %.0f | %.1f | %.0f | %.2f |\n", s.c_str(), static_cast<unsigned long long>(model.size()),
                tokens / cpu, 1000 * cpu / steps, tokens / sec, predict_ms);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("name a command: baselines, bench, train or eval");
  const std::string command = argv[1];
  std::string data = "build/model", out = "build/model", variant, checkpoint;
  TrainConfig cfg;
  cfg.model.layers = 2;
  cfg.model.heads = 4;
  cfg.model.d_model = 128;
  cfg.model.context = 64;
  double minutes = 0;
  int stop_after = 0;
  int bench_steps = 10, bench_vocab = 0;
  std::vector<std::string> sizes;
  bool unit_qk = false;
  int measure_windows = 1849, measure_sequences = 64;
  std::string measure_split = "test", weights;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) die(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--data") data = value();
    else if (arg == "--out") out = value();
    else if (arg == "--variant") variant = value();
    else if (arg == "--checkpoint") checkpoint = value();
    else if (arg == "--layers") cfg.model.layers = std::atoi(value().c_str());
    else if (arg == "--heads") cfg.model.heads = std::atoi(value().c_str());
    else if (arg == "--d-model") cfg.model.d_model = std::atoi(value().c_str());
    else if (arg == "--context") cfg.model.context = std::atoi(value().c_str());
    else if (arg == "--batch") cfg.batch = std::atoi(value().c_str());
    else if (arg == "--steps") cfg.steps = bench_steps = std::atoi(value().c_str());
    else if (arg == "--lr") cfg.lr = static_cast<float>(std::atof(value().c_str()));
    else if (arg == "--lr-min") cfg.lr_min = static_cast<float>(std::atof(value().c_str()));
    else if (arg == "--warmup") cfg.warmup = std::atoi(value().c_str());
    else if (arg == "--weight-decay") cfg.weight_decay = static_cast<float>(std::atof(value().c_str()));
    else if (arg == "--clip") cfg.clip = static_cast<float>(std::atof(value().c_str()));
    else if (arg == "--seed") cfg.seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (arg == "--eval-every") cfg.eval_every = std::atoi(value().c_str());
    else if (arg == "--eval-tokens") cfg.eval_tokens = std::atoi(value().c_str());
    else if (arg == "--minutes") minutes = std::atof(value().c_str());
    else if (arg == "--stop-after") stop_after = std::atoi(value().c_str());
    else if (arg == "--repeat-share") cfg.repeat_share = static_cast<float>(std::atof(value().c_str()));
    else if (arg == "--repeat-min") cfg.repeat_min = std::atoi(value().c_str());
    else if (arg == "--repeat-max") cfg.repeat_max = std::atoi(value().c_str());
    else if (arg == "--repeat-random") cfg.repeat_random = 1;
    else if (arg == "--qk-init-std") {
      const std::string v = value();
      if (v == "unit") unit_qk = true;
      else cfg.qk_init_std = static_cast<float>(std::atof(v.c_str()));
    } else if (arg == "--attention-only") cfg.attention_only = 1;
    else if (arg == "--watch-every") cfg.watch_every = std::atoi(value().c_str());
    else if (arg == "--windows" && command == "measure") measure_windows = std::atoi(value().c_str());
    else if (arg == "--sequences" && command == "measure") measure_sequences = std::atoi(value().c_str());
    else if (arg == "--split" && command == "measure") measure_split = value();
    else if (arg == "--weights" && command == "measure") weights = value();
    else if (arg == "--vocab" && command == "bench") bench_vocab = std::atoi(value().c_str());
    else if (command == "bench" && arg.rfind("size=", 0) == 0) sizes.push_back(arg.substr(5));
    else die("unknown argument " + arg);
  }
  if (cfg.eval_every < 1 || cfg.steps < 1 || cfg.batch < 1) die("--steps, --batch and --eval-every must be positive");
  if (!(cfg.repeat_share >= 0 && cfg.repeat_share <= 1) || cfg.repeat_min < 1 || cfg.repeat_max < cfg.repeat_min)
    die("--repeat-share is 0 … 1, and 1 ≤ --repeat-min ≤ --repeat-max");
  if (!(cfg.qk_init_std >= 0) || cfg.watch_every < 0) die("--qk-init-std and --watch-every must not be negative");
  if (unit_qk) cfg.qk_init_std = static_cast<float>(levers::unit_score_qk_std(cfg.model));
  const Corpus corpus = load(data);
  cfg.model.vocab = corpus.vocab;
  if (command == "baselines") return run_baselines(corpus);
  if (command == "bench") {
    if (sizes.empty()) sizes = {"2x4x128x64", "2x4x96x64", "3x4x128x64"};
    return run_bench(corpus, bench_steps, cfg.batch, sizes, bench_vocab);
  }
  if (command == "train") {
    if (variant != "scaled" && variant != "unscaled") die("--variant must be scaled or unscaled");
    cfg.model.scaled = variant == "scaled";
    return run_train(cfg, corpus, out, minutes, stop_after);
  }
  if (command == "measure") {  // what each head of a checkpoint does (train-levers.hpp: measure_heads)
    if (measure_split != "test" && measure_split != "validation") die("--split must be test or validation");
    Checkpoint ck;
    lm::Model model;
    Error err;
    if (!weights.empty()) {  // a weights file (model_file.hpp), e.g. web/assets/model/scaled.weights
      std::ifstream in(weights, std::ios::binary);
      const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      lm::Encoding encoding;
      if (!in.good() && bytes.empty()) die("cannot read " + weights);
      if (!lm::read_weights_header(bytes.data(), bytes.size(), &ck.cfg.model, &encoding, &err) ||
          !model.create(ck.cfg.model, 16, &err) ||
          !lm::read_weights(bytes.data(), bytes.size(), model.params(), model.size(), &err))
        die(weights + ": " + err.message);
      ck.step = -1;
    } else {
      if (checkpoint.empty() || !load_checkpoint(checkpoint, &ck)) die("--checkpoint names no readable checkpoint");
      if (!model.create(ck.cfg.model, 16, &err)) die(err.message);
      if (ck.params.size() != model.size()) die("the checkpoint's parameters do not fit its config");
      std::copy(ck.params.begin(), ck.params.end(), model.params());
    }
    if (ck.cfg.model.vocab != corpus.vocab) die("the model's vocabulary is not --data's: name the corpus it was trained on");
    std::printf("%s, step %d (%s twin), the %s split:\n", (weights.empty() ? checkpoint : weights).c_str(), ck.step,
                ck.cfg.model.scaled ? "scaled" : "unscaled", measure_split.c_str());
    print_heads(measure(model, 16, measure_split == "test" ? corpus.test : corpus.validation, measure_windows,
                        measure_sequences, 12345));
    return 0;
  }
  if (command == "eval") {
    Checkpoint ck;
    if (checkpoint.empty() || !load_checkpoint(checkpoint, &ck)) die("--checkpoint names no readable checkpoint");
    lm::Model model;
    Error err;
    if (!model.create(ck.cfg.model, 16, &err)) die(err.message);
    if (ck.params.size() != model.size()) die("the checkpoint's parameters do not fit its config");
    std::copy(ck.params.begin(), ck.params.end(), model.params());
    const double val = heldout_nll(model, corpus.validation, corpus.validation.size(), 16);
    std::printf("step %d: validation perplexity %.2f; the test perplexity of each encoding:\n", ck.step,
                std::exp(val));
    export_weights(ck.cfg.model, model.params(), corpus, out, ck.cfg.model.scaled ? "scaled" : "unscaled");
    return 0;
  }
  die("unknown command " + command);
}
