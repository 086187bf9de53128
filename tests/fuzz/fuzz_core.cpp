// Fuzz target for every public entry point of the core (the lesson's and the trainer's among them;
// the trainer's through train::Experiment, which the binding's train_* adapters hold). It decodes one call from the input (entry point,
// shapes, values with NaN, ±Inf, subnormals and ±1e30 among them, mask, scale, temperature; see
// input.hpp), decides from the input alone, in float64, what the call must do, makes the call and
// checks:
//   - no crash, no access outside the arrays and no undefined behaviour (ASan and UBSan in the
//     libFuzzer build);
//   - invalid input (a dimension out of range, NaN or ±Inf where numbers must be finite, a scale or
//     temperature that is not positive and finite, a visible score beyond float32) fails with a
//     status of the right kind and a message; valid input succeeds. Near a limit (a score within a
//     factor 2 of FLT_MAX, an array of more than kComfortableFloats) either is right;
//   - on success: every number finite (-Infinity only for a hidden score), weights in [0, 1], each
//     row summing to 1 within row_sum_tolerance (all zero when every key is hidden), every result
//     within a reasoned tolerance of a float64 reference written here; the SIMD path equal to its
//     `_ref` twin and the streaming forward equal to the full forward, each pair within the sum of
//     their tolerances to that reference.
// Attention supplied from another model (check_supplied_attention) is given softmax rows, damaged
// or not as the input says: the first fault in reading order, found here in float64, is the one
// reported, and a tensor without one passes with the largest row error and the causal flag found here.
// One more target gives the validate_* functions arrays with their lengths, right or wrong (wrapped
// to 32 bits among them): a call succeeds exactly when every length is right.
// A violated invariant prints the call and aborts (libFuzzer keeps the input as a crash file).
//
// Built with libFuzzer natively (clang, build/sanitize: scripts/fuzz.sh) and, with driver.cpp in
// place of libFuzzer, as WebAssembly in both wasm trees: the same checks with a 32-bit size_t.
#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/embedding.hpp"
#include "input.hpp"
#include "lesson/lesson.hpp"
#include "model/heads.hpp"
#include "model/model.hpp"
#include "model/model_file.hpp"
#include "model/supplied_attention.hpp"
#include "experiment/train.hpp"

namespace fuzz {
namespace {

using attn::Status;

// ---- limits of the harness -------------------------------------------------------------------
// Arrays the harness allocates for one call, in floats: beyond this a call whose shape is valid is
// made with null arrays (it must then fail), or not made where the core cannot see the arrays'
// size (the output of softmax_jacobian, random_projection).
constexpr std::int64_t kMaxFloats = std::int64_t(1) << 22;
// Multiply-adds one call may cost (n·m·(d + dv) and the like), so that one input stays fast.
constexpr std::int64_t kMaxWork = std::int64_t(1) << 22;
// Up to this many floats per call no reasonable size limit of the core may refuse; above it a
// limit may (today n·m ≤ 2^26), so invalid_shape is then borderline.
constexpr std::int64_t kComfortableFloats = std::int64_t(1) << 20;

// ---- tolerances ------------------------------------------------------------------------------
constexpr double kEps = FLT_EPSILON;     // 2^-23: twice float32's unit roundoff u
constexpr double kTiny = FLT_TRUE_MIN;   // the absolute error of a result that underflows
constexpr double kHalfMax = FLT_MAX / 2.0;
// Within kHalfMax, no float32 partial sum of the products can overflow: a score is surely finite.
// From kTwiceMax on it cannot be: a score is surely non-finite. In between, either.
constexpr double kTwiceMax = 2.0 * FLT_MAX;

// A float32 sum of `terms` products, in any order (tiles, lanes and depth chunks reorder it), errs by
// at most about terms·2u·Σ|products| (each product and each add rounded: wasm and the _ref kernels
// round both where AVX2 fuses them) plus one underflow per product; ×2 for margin, + 2 terms for a
// scale and a mask.
double sum_tolerance(double abs_sum, std::int64_t terms) {
  return 2.0 * static_cast<double>(terms + 2) * (kEps * abs_sum + kTiny);
}
// A weight w ≤ 1 carries the rounding of the row's sum of m exps ((m − 1)·u relative), of 1/sum and
// of the product (u each) and the error of the exp (the kernels' Cephes exp is within ~2 ulp,
// std::exp within 1): absolute, as weights are at most 1.
double softmax_rounding(std::int64_t m) { return (2.0 * static_cast<double>(m) + 8.0) * kEps; }
// Σⱼ wⱼ of a row of float32 weights: the same roundings, summed over the row: 1 ± (m + 1)·u.
double row_sum_tolerance(std::int64_t m) { return (static_cast<double>(m) + 4.0) * kEps; }
// Entropy computed as ln Σe − Σ(e·t)/Σe against −Σ w ln w of the float32 weights: the roundings of
// the two sums (m·u relative each, Σ|e·t|/Σe ≤ H + ln m) and of t (3u relative).
double entropy_tolerance(std::int64_t m, double entropy) {
  return 4.0 * (static_cast<double>(m) + 4.0) * kEps * (1.0 + entropy + std::log(std::max<double>(2.0, m)));
}
// A normal sample drawn from 64-bit uniforms lies within √(2·64·ln 2) ≈ 9.4 standard deviations.
constexpr double kMaxNormalSigmas = 10.0;

// ---- reporting -------------------------------------------------------------------------------
char g_call[320];  // the call being made, for a violation's message

void describe_call(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(g_call, sizeof g_call, fmt, args);
  va_end(args);
}

[[noreturn]] void violation(int line, const char* fmt, ...) {
  std::fprintf(stderr, "\nfuzz invariant violated (fuzz_core.cpp:%d) in %s:\n  ", line, g_call);
  va_list args;
  va_start(args, fmt);
  std::vfprintf(stderr, fmt, args);
  va_end(args);
  std::fprintf(stderr, "\n");
  std::abort();
}
#define EXPECT(cond, ...)                                  \
  do {                                                     \
    if (!(cond)) violation(__LINE__, __VA_ARGS__);         \
  } while (0)

// ---- statistics (printed at exit: what the inputs reached) -------------------------------------
struct Counts {
  long long calls = 0, succeeded = 0, failed = 0, skipped = 0;
};
Counts g_counts[static_cast<int>(Target::count)];
const char* const kTargetNames[] = {"attention",   "softmax",       "softmax_naive",     "softmax_jacobian",
                                    "softmax_backward", "step_by_step", "gradient_norm", "random_projection",
                                    "project",     "positional_encoding", "text_vector", "lengths",
                                    "dot_histograms", "variance_curves", "head_projections", "saturation_sweep",
                                    "multi_head", "trainer", "model_weights", "supplied_attention",
                                    "induce_in_sentence"};
static_assert(sizeof kTargetNames / sizeof kTargetNames[0] == static_cast<int>(Target::count), "one name per target");
Target g_target;

void print_counts() {
  long long total = 0;
  for (const Counts& c : g_counts) total += c.calls;
  std::fprintf(stderr, "fuzz_core: %lld calls of the core's entry points\n", total);
  for (int t = 0; t < static_cast<int>(Target::count); ++t)
    std::fprintf(stderr, "  %-20s %9lld calls: %9lld succeeded, %9lld failed as they must or may, %lld not made (too large)\n",
                 kTargetNames[t], g_counts[t].calls, g_counts[t].succeeded, g_counts[t].failed, g_counts[t].skipped);
}

// ---- decoding (input.hpp) ----------------------------------------------------------------------
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {
    std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a of the input: the seed of values past its end
    for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
    state_ = h;
  }
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  int dim(int small, int large) { return decode_dim(byte(), small, large, 1); }
  int dim0(int small, int large) { return decode_dim(byte(), small + 1, large, 0); }
  // One array value; past the input's end an ordinary value from the seeded generator.
  float value(std::uint8_t mode) {
    const bool in_input = pos_ < size_;
    const std::uint8_t b = in_input ? byte() : static_cast<std::uint8_t>(next() % kFirstSpecialValue);
    if (b >= kFirstSpecialValue && (mode & kSpecialsAllowed)) return kSpecialValues[b - kFirstSpecialValue];
    return static_cast<float>(static_cast<int>(b % kFirstSpecialValue) - 120) / 16.0f * kMagnitudes[mode & 3];
  }
  std::vector<float> values(std::int64_t count, std::uint8_t mode) {
    std::vector<float> x(static_cast<std::size_t>(count));
    for (float& v : x) v = value(mode);
    return x;
  }
  // true with probability below/256: an input byte, past the end a generated one (not 0, which
  // would hide every key of a long mask)
  bool chance(std::uint8_t below) { return (pos_ < size_ ? byte() : static_cast<std::uint8_t>(next())) < below; }

 private:
  static int decode_dim(std::uint8_t b, int small, int large, int min) {
    if (b < kFirstLargeDim) return min + b % small;
    if (b < kFirstSpecialDim) return min + (b - kFirstLargeDim + 1) * large / (kFirstSpecialDim - kFirstLargeDim);
    return kSpecialDims[b - kFirstSpecialDim];
  }
  std::uint64_t next() {  // splitmix64
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
  std::uint64_t state_;
};

// ---- what a call must do ---------------------------------------------------------------------
constexpr unsigned bit(Status s) { return 1u << static_cast<unsigned>(s); }

struct Verdict {
  unsigned must = 0;  // non-zero: the call must fail, with one of these statuses or one of `may`
  unsigned may = 0;   // the call may fail with one of these (a borderline input), or succeed
  void invalid(Status s) { must |= bit(s); }
  void borderline(Status s) { may |= bit(s); }
  // beyond kComfortableFloats: a size limit or the memory budget may refuse it
  void large() { may |= bit(Status::invalid_shape) | bit(Status::too_large); }
};

const char* status_name(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::invalid_shape: return "invalid_shape";
    case Status::invalid_argument: return "invalid_argument";
    case Status::non_finite_input: return "non_finite_input";
    case Status::overflow: return "overflow";
    case Status::too_large: return "too_large";
    case Status::internal_error: return "internal_error";
  }
  return "an unknown status";
}

// Checks a call's outcome against its verdict; true when it succeeded (its results are checked next).
bool outcome(const char* entry, bool ok, const attn::Error& err, const Verdict& v) {
  Counts& counts = g_counts[static_cast<int>(g_target)];
  ++counts.calls;
  if (v.must) EXPECT(!ok, "%s accepted invalid input (it must fail with status bits 0x%x)", entry, v.must);
  if (ok) {
    ++counts.succeeded;
    return true;
  }
  ++counts.failed;
  EXPECT((v.must | v.may) & bit(err.status), "%s rejected %s input with %s: \"%s\"", entry,
         v.must ? "invalid" : "valid", status_name(err.status), err.message);
  EXPECT(err.message[0] != '\0', "%s failed with %s but no message", entry, status_name(err.status));
  return false;
}

bool in_range(std::int64_t x, std::int64_t lo, std::int64_t hi) { return x >= lo && x <= hi; }
bool all_finite(const std::vector<float>& x) {
  return std::all_of(x.begin(), x.end(), [](float v) { return std::isfinite(v); });
}
bool valid_temperature(float t) { return t > 0.0f && std::isfinite(t) && std::isfinite(1.0f / t); }
bool valid_scale(float s) { return s > 0.0f && std::isfinite(s); }
void expect_finite(const float* x, std::int64_t count, const char* what) {
  for (std::int64_t i = 0; i < count; ++i) EXPECT(std::isfinite(x[i]), "%s[%lld] is %g", what, static_cast<long long>(i), x[i]);
}
// |got − want| ≤ tol for element i of `what` (an entry point, and the result's name if it has several)
void expect_close(double got, double want, double tol, const char* what, std::int64_t i, const char* field = "") {
  EXPECT(std::fabs(got - want) <= tol, "%s%s%s[%lld] = %.9g, float64 reference %.9g, tolerance %.3g", what,
         field[0] ? " " : "", field, static_cast<long long>(i), got, want, tol);
}

// ---- float64 references ----------------------------------------------------------------------

// softmax(s / T) of each row of exact scores s (rows×m, −∞: hidden), with for each weight a bound
// on the error of a float32 computation whose scores each err by at most s_err: t_j = (s_j − max)/T
// then errs by e_j = (s_err[j] + max_err)/T + 3u|t_j| (the float32 max may be another key within
// its error; the subtraction, the product and 1/T are rounded), so the float32 weight lies between
// e^(t_j − e_j) / Σ_k e^(t_k + e_k) and e^(t_j + e_j) / Σ_k e^(t_k − e_k); plus softmax_rounding.
struct SoftmaxReference {
  std::int64_t m = 0;
  std::vector<double> w, tol;    // rows×m
  std::vector<char> all_hidden;  // rows: every key hidden (the weights are then all 0)
};

SoftmaxReference softmax_reference(const std::vector<double>& s, const std::vector<double>& s_err, std::int64_t m,
                                   double temperature) {
  SoftmaxReference r;
  r.m = m;
  r.w.assign(s.size(), 0.0);
  r.tol.assign(s.size(), 0.0);
  const std::int64_t rows = m ? static_cast<std::int64_t>(s.size()) / m : 0;
  r.all_hidden.assign(rows, 1);
  std::vector<double> t(m), e(m);
  for (std::int64_t i = 0; i < rows; ++i) {
    const double* s_row = s.data() + i * m;
    const double* err = s_err.data() + i * m;
    double* w = r.w.data() + i * m;
    std::int64_t arg = 0;
    for (std::int64_t j = 0; j < m; ++j)
      if (s_row[j] != -INFINITY && (r.all_hidden[i] || s_row[j] > s_row[arg])) arg = j, r.all_hidden[i] = 0;
    if (r.all_hidden[i]) continue;
    const double s_max = s_row[arg];
    double max_err = 0.0;  // of every key the float32 max could be
    for (std::int64_t j = 0; j < m; ++j)
      if (s_row[j] != -INFINITY && s_row[j] + err[j] >= s_max - err[arg]) max_err = std::max(max_err, err[j]);
    double sum = 0.0, sum_lo = 0.0, sum_hi = 0.0;
    for (std::int64_t j = 0; j < m; ++j) {
      if (s_row[j] == -INFINITY) continue;
      t[j] = (s_row[j] - s_max) / temperature;
      e[j] = (err[j] + max_err) / temperature + 1.5 * kEps * std::fabs(t[j]);
      sum += std::exp(t[j]), sum_lo += std::exp(t[j] - e[j]), sum_hi += std::exp(t[j] + e[j]);
    }
    for (std::int64_t j = 0; j < m; ++j) {
      if (s_row[j] == -INFINITY) continue;  // exactly 0
      w[j] = std::exp(t[j]) / sum;
      const double hi = std::exp(t[j] + e[j]) / sum_lo, lo = std::exp(t[j] - e[j]) / sum_hi;
      double tol = std::max(hi - w[j], w[j] - lo);
      if (!(tol < 1.0)) tol = 1.0;  // vacuous (or NaN from ∞/∞): the weight is only known to lie in [0, 1]
      r.tol[i * m + j] = tol + softmax_rounding(m);
    }
  }
  return r;
}

// −Σ w ln w of a row of float32 weights, in double.
double entropy_of(const float* w, std::int64_t m) {
  double h = 0.0;
  for (std::int64_t j = 0; j < m; ++j)
    if (w[j] > 0.0f) h -= double(w[j]) * std::log(double(w[j]));
  return h;
}

// The checks every softmax row shares (attention's rows, softmax, step by step): weights finite in
// [0, 1], hidden keys exactly 0, within the reference's bounds, summing to 1 (or all zero).
void check_weights_row(const float* w, const SoftmaxReference& ref, std::int64_t row, const char* what) {
  const std::int64_t m = ref.m;
  double sum = 0.0;
  for (std::int64_t j = 0; j < m; ++j) {
    EXPECT(std::isfinite(w[j]) && w[j] >= 0.0f && w[j] <= 1.0f, "%s weights[%lld][%lld] = %g is not in [0, 1]", what,
           static_cast<long long>(row), static_cast<long long>(j), w[j]);
    expect_close(w[j], ref.w[row * m + j], ref.tol[row * m + j], what, row * m + j, "weights");
    sum += w[j];
  }
  if (ref.all_hidden[row])
    EXPECT(sum == 0.0, "%s row %lld: every key is hidden, yet the weights sum to %g", what, static_cast<long long>(row), sum);
  else
    EXPECT(std::fabs(sum - 1.0) <= row_sum_tolerance(m), "%s row %lld sums to 1 %+.3g (tolerance %.3g)", what,
           static_cast<long long>(row), sum - 1.0, row_sum_tolerance(m));
}

// ---- attention: the full forward, its _ref twin, the streaming forward and its _ref twin --------

struct AttentionCall {
  int n = 0, m = 0, d = 0, dv = 0;
  bool causal = false;
  float scale = 1.0f, temperature = 1.0f;
  MaskMode mask_mode = MaskMode::none;
  bool allocated = false;  // false: null arrays (a shape too large for the harness)
  std::vector<float> q, k, v, mask;
  bool hidden(std::int64_t i, std::int64_t j, bool with_mask) const {
    return (causal && j > i) || (with_mask && !mask.empty() && mask[i * m + j] == -INFINITY);
  }
};

// The exact scores and their float32 error bounds of one call (mask and temperature as given, or
// the plain call the streaming forward makes: no mask).
struct Scores {
  std::vector<double> dot, dot_abs, s, s_err;  // n×m; s = −∞ where hidden
};

Scores exact_scores(const AttentionCall& c, bool with_mask, bool streaming) {
  const std::int64_t n = c.n, m = c.m, d = c.d;
  // The streaming forward multiplies q by scale·log2(e) rounded to float32, which is off by far
  // more than u when it is subnormal (scale below ~8e-39): its error in natural units, per |q·k|.
  constexpr double kLog2e = 1.4426950408889634;
  const double factor_error =
      streaming ? std::fabs(double(static_cast<float>(double(c.scale) * kLog2e)) / kLog2e - double(c.scale)) : 0.0;
  Scores r;
  r.dot.assign(n * m, 0.0), r.dot_abs.assign(n * m, 0.0), r.s.assign(n * m, -INFINITY), r.s_err.assign(n * m, 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < m; ++j) {
      double dot = 0.0, abs_sum = 0.0;
      for (std::int64_t x = 0; x < d; ++x) {
        const double p = double(c.q[i * d + x]) * double(c.k[j * d + x]);
        dot += p;
        abs_sum += std::fabs(p);
      }
      const std::int64_t ij = i * m + j;
      r.dot[ij] = dot, r.dot_abs[ij] = abs_sum;
      if (c.hidden(i, j, with_mask)) continue;
      const double mask = with_mask && !c.mask.empty() ? double(c.mask[ij]) : 0.0;
      r.s[ij] = double(c.scale) * dot + mask;
      // the dot's sum, the scale's product and the mask's sum rounded; the streaming forward also
      // rounds scale·log2(e) and scale·log2(e)·q once per query (streaming.cpp), each q' to within
      // u relative or FLT_TRUE_MIN/2 absolute (then times |k|)
      double k_abs = 0.0;
      if (streaming)
        for (std::int64_t x = 0; x < d; ++x) k_abs += std::fabs(double(c.k[j * d + x]));
      r.s_err[ij] = double(c.scale) * (sum_tolerance(abs_sum, d) + (streaming ? 2.0 * kEps * abs_sum : 0.0)) +
                    factor_error * abs_sum + k_abs * kTiny +
                    2.0 * kEps * (std::fabs(double(c.scale) * dot) + std::fabs(mask) + std::fabs(r.s[ij])) + 4 * kTiny;
    }
  return r;
}

// What the full forward (streaming false) or the streaming forward must do with this call.
Verdict attention_verdict(const AttentionCall& c, const Scores* sc, bool with_mask, bool with_temperature, bool streaming) {
  Verdict v;
  if (!in_range(c.n, 1, attn::kMaxDim) || !in_range(c.m, 1, attn::kMaxDim) || !in_range(c.d, 1, attn::kMaxDim) ||
      !in_range(c.dv, streaming ? 1 : 0, attn::kMaxDim))
    v.invalid(Status::invalid_shape);
  else if (c.causal && c.n != c.m)
    v.invalid(Status::invalid_shape);
  if (!valid_scale(c.scale)) v.invalid(Status::invalid_argument);
  if (with_temperature && !valid_temperature(c.temperature)) v.invalid(Status::invalid_argument);
  if (!c.allocated) {  // valid dimensions, too large for the harness: null arrays
    v.invalid(Status::invalid_argument);
    v.large();
    return v;
  }
  const std::int64_t n = c.n, m = c.m;
  const std::int64_t floats = n * m + (n + m) * (c.d + c.dv);
  if (floats > kComfortableFloats) v.large();
  bool finite = all_finite(c.q) && all_finite(c.k) && all_finite(c.v);
  if (with_mask)
    for (float x : c.mask)
      if (std::isnan(x) || x == INFINITY) finite = false;
  if (!finite) v.invalid(Status::non_finite_input);
  if (!finite || !sc) return v;
  // Only visible scores may overflow. The full forward also computes q·k unscaled; the streaming
  // one scales q by scale·log2(e) first (its `_ref` twin computes q·k unscaled too).
  // (streaming.cpp documents the price: scale·log2(e) and each scale·log2(e)·q must fit float32)
  const double factor = double(c.scale) * 1.4426950408889634;
  if (streaming && factor > kHalfMax) v.borderline(Status::overflow);
  if (streaming)
    for (float x : c.q)
      if (std::fabs(factor * x) > kHalfMax) v.borderline(Status::overflow);
  for (std::int64_t ij = 0; ij < n * m; ++ij) {
    if (sc->s[ij] == -INFINITY) continue;  // hidden: its q·k may overflow, that is no error
    const double scaled_abs = double(c.scale) * sc->dot_abs[ij], mask = sc->s[ij] - double(c.scale) * sc->dot[ij];
    // (the streaming forward's SIMD path never forms the unscaled q·k: only its _ref twin may fail on it)
    if ((!streaming && std::fabs(sc->dot[ij]) >= kTwiceMax) || std::fabs(sc->s[ij]) >= kTwiceMax ||
        std::fabs(double(c.scale) * sc->dot[ij]) >= kTwiceMax)
      v.invalid(Status::overflow);
    else if (sc->dot_abs[ij] > kHalfMax || scaled_abs + std::fabs(mask) > kHalfMax ||
             (streaming && factor * sc->dot_abs[ij] > kHalfMax))
      v.borderline(Status::overflow);
  }
  // An output beyond float32 may be reported as an overflow: Σ w·v ≤ max|v| (the weights sum to 1);
  // the streaming forward sums p·v before dividing by Σp ≥ 1, which is up to m·max|v| (attention.hpp).
  for (float x : c.v)
    if (std::fabs(x) * (streaming ? m : 1) > kHalfMax) v.borderline(Status::overflow);
  return v;
}

struct ForwardOut {
  std::vector<float> dots, scores, weights, output, entropy, max_weight, row_sum;
  explicit ForwardOut(const AttentionCall& c) {
    const std::size_t nm = std::size_t(c.n) * c.m, n = c.n;
    // NaN until written: an output the core leaves unwritten fails the finiteness checks
    dots.assign(nm, NAN), scores.assign(nm, NAN), weights.assign(nm, NAN);
    output.assign(n * std::size_t(c.dv), NAN);
    entropy.assign(n, NAN), max_weight.assign(n, NAN), row_sum.assign(n, NAN);
  }
  attn::AttentionResult result(int dv) {
    return {dots.data(),    scores.data(),     weights.data(), dv > 0 ? output.data() : nullptr,
            entropy.data(), max_weight.data(), row_sum.data()};
  }
};

// The float64 output Σⱼ w64ᵢⱼ vⱼ of every row and a bound on any float32 computation's distance
// to it: the weights' bounds times |v| and the rounding of the m-term sum (the online softmax's
// rescaling rounds once more per key: ×2).
struct OutputReference {
  std::vector<double> o, tol;
};
OutputReference output_reference(const AttentionCall& c, const SoftmaxReference& rows) {
  const std::int64_t n = c.n, m = c.m, dv = c.dv;
  OutputReference r;
  r.o.assign(n * dv, 0.0), r.tol.assign(n * dv, 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t x = 0; x < dv; ++x) {
      double o = 0.0, tol = 0.0, abs_sum = 0.0;
      for (std::int64_t j = 0; j < m; ++j) {
        const double vjx = c.v[j * dv + x];
        const double w = rows.w[i * m + j], w_tol = rows.tol[i * m + j];
        o += w * vjx;
        tol += w_tol * std::fabs(vjx);
        abs_sum += (w + w_tol) * std::fabs(vjx);
      }
      r.o[i * dv + x] = o;
      r.tol[i * dv + x] = tol + 2.0 * sum_tolerance(abs_sum, m);
    }
  return r;
}

// Every result of a successful full forward against the float64 references.
void check_forward(const char* entry, const AttentionCall& c, const Scores& sc, const SoftmaxReference& rows,
                   const OutputReference& out_ref, ForwardOut& r, bool with_mask) {
  const std::int64_t n = c.n, m = c.m, dv = c.dv;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < m; ++j) {
      const std::int64_t ij = i * m + j;
      if (c.hidden(i, j, with_mask)) {
        EXPECT(r.scores[ij] == -INFINITY, "%s: hidden score [%lld][%lld] is %g, not -Infinity", entry,
               static_cast<long long>(i), static_cast<long long>(j), r.scores[ij]);
        continue;
      }
      expect_close(r.dots[ij], sc.dot[ij], sum_tolerance(sc.dot_abs[ij], c.d), entry, ij, "dots");
      EXPECT(std::isfinite(r.scores[ij]), "%s: visible score [%lld][%lld] is %g", entry, static_cast<long long>(i),
             static_cast<long long>(j), r.scores[ij]);
      expect_close(r.scores[ij], sc.s[ij], sc.s_err[ij], entry, ij, "scores");
    }
    const float* w = r.weights.data() + i * m;
    check_weights_row(w, rows, i, entry);
    if (rows.all_hidden[i]) {  // defined as all zeros, never NaN
      EXPECT(r.entropy[i] == 0.0f && r.max_weight[i] == 0.0f && r.row_sum[i] == 0.0f,
             "%s: row %lld has every key hidden, yet entropy %g, max weight %g, row sum %g", entry,
             static_cast<long long>(i), r.entropy[i], r.max_weight[i], r.row_sum[i]);
      for (std::int64_t x = 0; x < dv; ++x)
        EXPECT(r.output[i * dv + x] == 0.0f, "%s: row %lld has every key hidden, yet output[%lld] = %g", entry,
               static_cast<long long>(i), static_cast<long long>(x), r.output[i * dv + x]);
      continue;
    }
    const double h = entropy_of(w, m);
    EXPECT(std::isfinite(r.entropy[i]) && r.entropy[i] >= 0.0f, "%s: entropy[%lld] = %g", entry, static_cast<long long>(i),
           r.entropy[i]);
    expect_close(r.entropy[i], h, entropy_tolerance(m, h), entry, i, "entropy");
    const float w_max = *std::max_element(w, w + m);
    expect_close(r.max_weight[i], w_max, 2.0 * kEps * w_max, entry, i, "max_weight");
    double sum = 0.0;
    for (std::int64_t j = 0; j < m; ++j) sum += w[j];
    expect_close(r.row_sum[i], sum, kEps * sum, entry, i, "row_sum");
    for (std::int64_t x = 0; x < dv; ++x) {  // P·V from the call's own weights, then against float64
      double o = 0.0, abs_sum = 0.0;
      for (std::int64_t j = 0; j < m; ++j) {
        o += double(w[j]) * c.v[j * dv + x];
        abs_sum += std::fabs(double(w[j]) * c.v[j * dv + x]);
      }
      const std::int64_t ix = i * dv + x;
      EXPECT(std::isfinite(r.output[ix]), "%s: output[%lld][%lld] is %g", entry, static_cast<long long>(i),
             static_cast<long long>(x), r.output[ix]);
      expect_close(r.output[ix], o, sum_tolerance(abs_sum, m), entry, ix, "output (from its own weights)");
      expect_close(r.output[ix], out_ref.o[ix], out_ref.tol[ix], entry, ix, "output");
    }
  }
}

// Two results that each lie within `tol` of the same reference lie within 2·tol of each other.
void expect_twins(const char* what, const std::vector<float>& a, const std::vector<float>& b,
                  const std::vector<double>& tol) {
  for (std::size_t i = 0; i < tol.size(); ++i)
    EXPECT(std::fabs(double(a[i]) - b[i]) <= 2.0 * tol[i], "%s differ at %zu: %.9g and %.9g (tolerance %.3g)", what, i,
           a[i], b[i], 2.0 * tol[i]);
}

// The streaming forward (and its _ref) on the call without mask or temperature, against the full
// forward on the same: "streaming = full forward".
void fuzz_streaming(AttentionCall c) {
  c.mask_mode = MaskMode::none;
  c.mask.clear();
  c.temperature = 1.0f;
  attn::StreamingOptions sopt;
  sopt.scale = c.scale;
  sopt.causal = c.causal;
  const bool have_scores = c.allocated && c.dv >= 1 && attention_verdict(c, nullptr, false, false, true).must == 0;
  Scores sc_stream, sc_full;
  if (have_scores) sc_stream = exact_scores(c, false, true), sc_full = exact_scores(c, false, false);
  const Verdict v_stream = attention_verdict(c, have_scores ? &sc_stream : nullptr, false, false, true);

  std::vector<float> dummy(1, 0.0f);
  const float* vp = c.allocated ? (c.v.empty() ? dummy.data() : c.v.data()) : nullptr;
  std::vector<float> out_fast(c.allocated ? std::size_t(c.n) * std::max(c.dv, 0) : 0, NAN), out_ref = out_fast;
  attn::Error err;
  float* fast_ptr = c.allocated ? (out_fast.empty() ? dummy.data() : out_fast.data()) : nullptr;
  const bool ok_fast = attn::attention_streaming_forward(c.allocated ? c.q.data() : nullptr,
                                                         c.allocated ? c.k.data() : nullptr, vp,
                                                         {c.n, c.m, c.d, c.dv}, sopt, fast_ptr, &err);
  const bool checked_fast = outcome("attention_streaming_forward", ok_fast, err, v_stream);
  float* ref_ptr = c.allocated ? (out_ref.empty() ? dummy.data() : out_ref.data()) : nullptr;
  const bool ok_ref = attn::attention_streaming_forward_ref(c.allocated ? c.q.data() : nullptr,
                                                            c.allocated ? c.k.data() : nullptr, vp,
                                                            {c.n, c.m, c.d, c.dv}, sopt, ref_ptr, &err);
  const bool checked_ref = outcome("attention_streaming_forward_ref", ok_ref, err, v_stream);
  if (!have_scores || !(checked_fast || checked_ref)) return;

  const auto rows = softmax_reference(sc_stream.s, sc_stream.s_err, c.m, 1.0);
  const OutputReference out = output_reference(c, rows);
  const std::int64_t count = std::int64_t(c.n) * c.dv;
  if (checked_fast) {
    expect_finite(out_fast.data(), count, "attention_streaming_forward output");
    for (std::int64_t i = 0; i < count; ++i) expect_close(out_fast[i], out.o[i], out.tol[i], "attention_streaming_forward output", i);
  }
  if (checked_ref) {
    expect_finite(out_ref.data(), count, "attention_streaming_forward_ref output");
    for (std::int64_t i = 0; i < count; ++i)
      expect_close(out_ref[i], out.o[i], out.tol[i], "attention_streaming_forward_ref output", i);
  }
  if (checked_fast && checked_ref) expect_twins("streaming forward and its _ref", out_fast, out_ref, out.tol);

  // the full forward on the same call
  const Verdict v_full = attention_verdict(c, &sc_full, false, true, false);
  ForwardOut full(c);
  attn::AttentionOptions opt;
  opt.scale = c.scale;
  opt.causal = c.causal;
  const bool ok_full =
      attn::attention_forward(c.q.data(), c.k.data(), c.v.data(), {c.n, c.m, c.d, c.dv}, opt, full.result(c.dv), &err);
  if (!outcome("attention_forward (the streaming forward's call)", ok_full, err, v_full)) return;
  const auto full_rows = softmax_reference(sc_full.s, sc_full.s_err, c.m, 1.0);
  const OutputReference full_out = output_reference(c, full_rows);
  check_forward("attention_forward (the streaming forward's call)", c, sc_full, full_rows, full_out, full, false);
  std::vector<double> tol(full_out.tol.size());
  for (std::size_t i = 0; i < tol.size(); ++i) tol[i] = (full_out.tol[i] + out.tol[i]) / 2.0;
  if (checked_fast) expect_twins("streaming and full forward outputs", out_fast, full.output, tol);
}

void fuzz_attention(Reader& in) {
  AttentionCall c;
  c.n = in.dim(9, 80), c.m = in.dim(9, 80), c.d = in.dim(17, 300), c.dv = in.dim0(8, 40);
  const std::uint8_t flags = in.byte();
  c.causal = flags & 1;
  const int scale_index = in.byte() % 16;
  c.temperature = kTemperatures[in.byte() % 16];
  c.mask_mode = static_cast<MaskMode>(in.byte() % 4);
  const std::uint8_t mode = in.byte();
  c.scale = scale_index == kScaleSqrt ? (c.d >= 1 ? attn::inv_sqrt(c.d) : 1.0f) : kScales[scale_index];
  describe_call("attention n=%d m=%d d=%d dv=%d causal=%d scale=%g temperature=%g mask mode %d value mode %d", c.n,
                c.m, c.d, c.dv, c.causal, c.scale, c.temperature, static_cast<int>(c.mask_mode), mode);

  const bool dims_ok = in_range(c.n, 1, attn::kMaxDim) && in_range(c.m, 1, attn::kMaxDim) &&
                       in_range(c.d, 1, attn::kMaxDim) && in_range(c.dv, 0, attn::kMaxDim);
  const std::int64_t n = c.n, m = c.m, d = c.d, dv = c.dv;
  c.allocated = dims_ok && n * m * 3 + (n + m) * (d + dv) <= kMaxFloats && n * m * (d + dv + 1) <= kMaxWork;
  if (!dims_ok) {
    // Out-of-range dimensions must be refused before any array is read or written: one-float
    // arrays (ASan reports any access past them).
    c.allocated = true;
    c.q.assign(1, 0.0f), c.k.assign(1, 0.0f), c.v.assign(1, 0.0f);
    if (c.mask_mode != MaskMode::none) c.mask.assign(1, 0.0f);
    Verdict v;
    v.invalid(Status::invalid_shape);
    std::vector<float> one(8, 0.0f);
    attn::AttentionResult res{&one[0], &one[1], &one[2], &one[3], &one[4], &one[5], &one[6]};
    attn::AttentionOptions opt;
    opt.scale = c.scale, opt.temperature = c.temperature, opt.causal = c.causal;
    opt.mask = c.mask.empty() ? nullptr : c.mask.data();
    attn::Error err;
    outcome("attention_forward", attn::attention_forward(c.q.data(), c.k.data(), c.v.data(), {c.n, c.m, c.d, c.dv}, opt, res, &err), err, v);
    outcome("attention_forward_ref", attn::attention_forward_ref(c.q.data(), c.k.data(), c.v.data(), {c.n, c.m, c.d, c.dv}, opt, res, &err), err, v);
    attn::StreamingOptions sopt;
    sopt.scale = c.scale, sopt.causal = c.causal;
    outcome("attention_streaming_forward",
            attn::attention_streaming_forward(c.q.data(), c.k.data(), c.v.data(), {c.n, c.m, c.d, c.dv}, sopt, &one[0], &err), err, v);
    return;
  }
  if (c.allocated) {
    c.q = in.values(n * d, mode), c.k = in.values(m * d, mode), c.v = in.values(m * dv, mode);
    if (c.mask_mode == MaskMode::additive) {
      c.mask.resize(n * m);
      for (float& x : c.mask) x = in.chance(kMaskHiddenBelow) ? -INFINITY : in.value(mode);
    } else if (c.mask_mode == MaskMode::hidden_rows) {
      c.mask.assign(n * m, 0.0f);
      for (std::int64_t i = 0; i < n; ++i)
        if (in.chance(kMaskHiddenBelow)) std::fill(c.mask.begin() + i * m, c.mask.begin() + (i + 1) * m, -INFINITY);
    } else if (c.mask_mode == MaskMode::all_hidden) {
      c.mask.assign(n * m, -INFINITY);
    }
  } else {
    ++g_counts[static_cast<int>(Target::attention)].skipped;
  }

  // The full forward and its _ref twin on the call as decoded.
  const bool with_mask = c.mask_mode != MaskMode::none;
  const bool have_scores = c.allocated && attention_verdict(c, nullptr, with_mask, true, false).must == 0;
  Scores sc;
  if (have_scores) sc = exact_scores(c, with_mask, false);
  const Verdict v = attention_verdict(c, have_scores ? &sc : nullptr, with_mask, true, false);
  attn::AttentionOptions opt;
  opt.scale = c.scale, opt.temperature = c.temperature, opt.causal = c.causal;
  opt.mask = c.mask.empty() ? nullptr : c.mask.data();
  ForwardOut fast(c.allocated ? c : AttentionCall{}), ref(c.allocated ? c : AttentionCall{});
  attn::Error err;
  const float* q = c.allocated ? c.q.data() : nullptr;
  const float* k = c.allocated ? c.k.data() : nullptr;
  const float* vv = c.allocated && dv > 0 ? c.v.data() : nullptr;
  const attn::AttentionResult fast_res = c.allocated ? fast.result(c.dv) : attn::AttentionResult{};
  const attn::AttentionResult ref_res = c.allocated ? ref.result(c.dv) : attn::AttentionResult{};
  const bool ok_fast = outcome("attention_forward",
                               attn::attention_forward(q, k, vv, {c.n, c.m, c.d, c.dv}, opt, fast_res, &err), err, v);
  const bool ok_ref = outcome("attention_forward_ref",
                              attn::attention_forward_ref(q, k, vv, {c.n, c.m, c.d, c.dv}, opt, ref_res, &err), err, v);
  if (have_scores && (ok_fast || ok_ref)) {
    const auto rows = softmax_reference(sc.s, sc.s_err, c.m, c.temperature);
    const OutputReference out = output_reference(c, rows);
    if (ok_fast) check_forward("attention_forward", c, sc, rows, out, fast, with_mask);
    if (ok_ref) check_forward("attention_forward_ref", c, sc, rows, out, ref, with_mask);
    if (ok_fast && ok_ref) {
      expect_twins("attention_forward and attention_forward_ref weights", fast.weights, ref.weights, rows.tol);
      expect_twins("attention_forward and attention_forward_ref outputs", fast.output, ref.output, out.tol);
    }
  }
  fuzz_streaming(c);
}

// ---- the lesson's rows: softmax, the naive softmax, the Jacobian, backward, step by step --------

// m for a row entry point: small, large, or at a limit. Rows of an out-of-range length are passed
// as one-float arrays (they must be refused before being read).
struct Row {
  int m;
  bool valid;
};
Row decode_row(Reader& in, int small, int large) {
  Row r;
  r.m = in.dim(small, large);
  r.valid = in_range(r.m, 1, attn::kMaxDim);
  return r;
}
std::int64_t row_len(const Row& r) { return r.valid ? r.m : 1; }

// A row of scores: values, −∞ for hidden entries (a special value, or a mask byte).
std::vector<float> decode_scores(Reader& in, std::int64_t count, std::uint8_t mode) {
  std::vector<float> z(count);
  for (float& x : z) x = in.chance(kMaskHiddenBelow / 4) ? -INFINITY : in.value(mode);
  return z;
}

// softmax's and softmax_naive's input: a row of scores, a temperature and the value mode, read and
// described in the same order for both
struct SoftmaxInput {
  Row row;
  float temperature;
  std::uint8_t mode;
  std::int64_t m;
  std::vector<float> z;
};
SoftmaxInput decode_softmax_input(Reader& in, const char* name) {
  SoftmaxInput s;
  s.row = decode_row(in, 17, 300);
  s.temperature = kTemperatures[in.byte() % 16];
  s.mode = in.byte();
  describe_call("%s m=%d temperature=%g value mode %d", name, s.row.m, s.temperature, s.mode);
  s.m = row_len(s.row);
  s.z = s.row.valid ? decode_scores(in, s.m, s.mode) : std::vector<float>(1, 0.0f);
  return s;
}

void fuzz_softmax(Reader& in) {
  const auto [row, temperature, mode, m, z] = decode_softmax_input(in, "softmax");
  Verdict v;
  if (!row.valid) v.invalid(Status::invalid_shape);
  if (!valid_temperature(temperature)) v.invalid(Status::invalid_argument);
  for (float x : z)
    if (std::isnan(x) || x == INFINITY) v.invalid(Status::non_finite_input);
  std::vector<float> w(m, NAN);
  attn::Error err;
  if (!outcome("softmax", attn::softmax(z.data(), row.m, temperature, w.data(), &err), err, v)) return;
  const std::vector<double> s(z.begin(), z.end()), s_err(m, 0.0);
  check_weights_row(w.data(), softmax_reference(s, s_err, m, temperature), 0, "softmax");
}

void fuzz_softmax_naive(Reader& in) {
  const auto [row, temperature, mode, m, z] = decode_softmax_input(in, "softmax_naive");
  Verdict v;
  if (!row.valid) v.invalid(Status::invalid_shape);
  if (!(temperature > 0.0f) || !std::isfinite(temperature)) v.invalid(Status::invalid_argument);
  else if (!valid_temperature(temperature)) v.borderline(Status::invalid_argument);  // 1/T beyond float32
  for (float x : z)
    if (std::isnan(x) || x == INFINITY) v.invalid(Status::non_finite_input);
  std::vector<float> zt(m, NAN), exps(m, NAN), w(m, NAN);
  float sum = NAN;
  attn::Error err;
  if (!outcome("softmax_naive", attn::softmax_naive(z.data(), row.m, temperature, zt.data(), exps.data(), &sum, w.data(), &err), err, v))
    return;
  // The broken version's raw numbers: z/T, exp(z/T) (+Infinity past ln FLT_MAX), their sum, and
  // weights that are NaN or 0 once the sum is infinite. Where nothing overflows they must be a softmax.
  double max_zt = -INFINITY, exp_sum = 0.0;
  for (std::int64_t j = 0; j < m; ++j) {
    const double exact = double(z[j]) / temperature;
    max_zt = std::max(max_zt, exact);
    if (std::fabs(exact) <= FLT_MAX)
      expect_close(zt[j], exact, kEps * std::fabs(exact) + kTiny, "softmax_naive z/T", j);
    else if (std::fabs(exact) >= FLT_MAX * (1.0 + kEps))  // beyond the rounding to FLT_MAX: ±Infinity
      EXPECT(std::isinf(zt[j]) && (zt[j] > 0) == (exact > 0), "softmax_naive z/T [%lld] = %g, expected %g",
             static_cast<long long>(j), zt[j], exact);
    EXPECT(!std::isnan(exps[j]) && exps[j] >= 0.0f, "softmax_naive exps[%lld] = %g", static_cast<long long>(j), exps[j]);
    if (std::isfinite(zt[j])) {
      const double e = std::exp(double(zt[j]));
      if (e < FLT_MAX) expect_close(exps[j], e, 4.0 * kEps * e + kTiny, "softmax_naive exps", j);
      exp_sum += e;
    }
  }
  EXPECT(!std::isnan(sum) && sum >= 0.0f, "softmax_naive sum = %g", sum);
  if (max_zt < attn::kExpOverflowThreshold - 1.0 && exp_sum < kHalfMax && exp_sum > 1e-30) {
    std::vector<double> s(m), s_err(m, 0.0);
    for (std::int64_t j = 0; j < m; ++j) s[j] = z[j];
    SoftmaxReference ref = softmax_reference(s, s_err, m, temperature);
    // exp(z/T) without the shift: the rounding of z/T is relative to |z/T|, not to z/T − max
    for (std::int64_t j = 0; j < m; ++j)
      if (ref.w[j] > 0.0) ref.tol[j] += ref.w[j] * std::expm1(2.0 * kEps * (std::fabs(max_zt) + std::fabs(double(zt[j])) + 4.0));
    check_weights_row(w.data(), ref, 0, "softmax_naive");
  }
}

// p: a row of weights (mostly in [0, 1]; the value mode and specials reach beyond).
std::vector<float> decode_probabilities(Reader& in, std::int64_t count, std::uint8_t mode) {
  std::vector<float> p = in.values(count, mode);
  if (!(mode & 8))  // half the calls: a softmax-like row, |x| / Σ|x|
  {
    double sum = 0.0;
    for (float x : p) sum += std::fabs(double(x));
    if (sum > 0.0 && std::isfinite(sum))
      for (float& x : p) x = static_cast<float>(std::fabs(double(x)) / sum);
  }
  return p;
}

// What a function of a probability row p must do: finite p; p outside [0, 1] or not summing to 1
// may be refused; so may results that leave float32.
Verdict probability_verdict(const Row& row, const std::vector<float>& p, double result_bound) {
  Verdict v;
  if (!row.valid) v.invalid(Status::invalid_shape);
  if (!all_finite(p)) v.invalid(Status::non_finite_input);
  double sum = 0.0;
  for (float x : p) {
    if (!(x >= 0.0f && x <= 1.0f)) v.borderline(Status::invalid_argument);
    sum += x;
  }
  if (std::fabs(sum - 1.0) > 1e-3) v.borderline(Status::invalid_argument);
  if (!(result_bound <= kHalfMax)) v.borderline(Status::overflow);
  return v;
}

void fuzz_softmax_jacobian(Reader& in) {
  const Row row = decode_row(in, 9, 120);
  const std::uint8_t mode = in.byte();
  describe_call("softmax_jacobian m=%d value mode %d", row.m, mode);
  const std::int64_t m = row_len(row);
  if (row.valid && m * m > kMaxFloats) {  // the core cannot see jac's size: not made
    ++g_counts[static_cast<int>(Target::softmax_jacobian)].skipped;
    return;
  }
  const std::vector<float> p = row.valid ? decode_probabilities(in, m, mode) : std::vector<float>(1, 0.0f);
  double p_max = 0.0;
  for (float x : p) p_max = std::max(p_max, std::fabs(double(x)));
  const Verdict v = probability_verdict(row, p, p_max * (1.0 + p_max));
  std::vector<float> jac(m * m, NAN);
  attn::Error err;
  if (!outcome("softmax_jacobian", attn::softmax_jacobian(p.data(), row.m, jac.data(), &err), err, v)) return;
  expect_finite(jac.data(), m * m, "softmax_jacobian");
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < m; ++j) {
      const double pi = p[i], pj = p[j], exact = pi * ((i == j ? 1.0 : 0.0) - pj);
      // δ − p_j and the product rounded once each
      expect_close(jac[i * m + j], exact, 2.0 * kEps * std::fabs(pi) * (1.0 + std::fabs(pj)) + kTiny, "softmax_jacobian", i * m + j);
    }
}

// ∂L/∂z = p ⊙ (dp − ⟨p, dp⟩) in double, and a bound on any float32 computation of it.
void backward_reference(const std::vector<float>& p, const std::vector<float>& dp, std::vector<double>& dz,
                        std::vector<double>& tol) {
  const std::size_t m = p.size();
  double p_dp = 0.0, abs_sum = 0.0;
  for (std::size_t i = 0; i < m; ++i) p_dp += double(p[i]) * dp[i], abs_sum += std::fabs(double(p[i]) * dp[i]);
  dz.resize(m), tol.resize(m);
  for (std::size_t j = 0; j < m; ++j) {
    dz[j] = double(p[j]) * (dp[j] - p_dp);
    tol[j] = std::fabs(double(p[j])) * (sum_tolerance(abs_sum, m) + 2.0 * kEps * (std::fabs(double(dp[j])) + std::fabs(p_dp))) +
             2.0 * kEps * std::fabs(dz[j]) + kTiny;
  }
}

double backward_bound(const std::vector<float>& p, const std::vector<float>& dp) {
  double abs_sum = 0.0, bound = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) abs_sum += std::fabs(double(p[i]) * dp[i]);
  for (std::size_t j = 0; j < p.size(); ++j) bound = std::max(bound, std::fabs(double(p[j])) * (std::fabs(double(dp[j])) + abs_sum));
  return std::max(bound, abs_sum);
}

void fuzz_softmax_backward(Reader& in) {
  const Row row = decode_row(in, 17, 300);
  const std::uint8_t mode = in.byte(), dp_mode = in.byte();
  describe_call("softmax_backward m=%d value modes %d, %d", row.m, mode, dp_mode);
  const std::int64_t m = row_len(row);
  const std::vector<float> p = row.valid ? decode_probabilities(in, m, mode) : std::vector<float>(1, 0.0f);
  const std::vector<float> dp = row.valid ? in.values(m, dp_mode) : std::vector<float>(1, 0.0f);
  Verdict v = probability_verdict(row, p, all_finite(p) && all_finite(dp) ? backward_bound(p, dp) : 0.0);
  if (!all_finite(dp)) v.invalid(Status::non_finite_input);
  std::vector<float> dz(m, NAN);
  attn::Error err;
  if (!outcome("softmax_backward", attn::softmax_backward(p.data(), dp.data(), row.m, dz.data(), &err), err, v)) return;
  std::vector<double> want, tol;
  backward_reference(p, dp, want, tol);
  expect_finite(dz.data(), m, "softmax_backward");
  for (std::int64_t j = 0; j < m; ++j) expect_close(dz[j], want[j], tol[j], "softmax_backward", j);
}

void fuzz_gradient_norm(Reader& in) {
  const Row row = decode_row(in, 17, 300);
  const std::uint32_t seed = in.byte() | std::uint32_t(in.byte()) << 8;
  const std::uint8_t row_byte = in.byte();
  const int index = row_byte < kFirstSpecialDim ? row_byte : kSpecialDims[row_byte - kFirstSpecialDim];
  const std::uint8_t mode = in.byte();
  describe_call("softmax_gradient_norm m=%d seed=%u row=%d value mode %d", row.m, seed, index, mode);
  const std::int64_t m = row_len(row);
  const std::vector<float> p = row.valid ? decode_probabilities(in, m, mode) : std::vector<float>(1, 0.0f);
  std::vector<float> g(m, 0.0f);
  if (row.valid && in_range(index, 0, attn::kMaxDim)) attn::upstream_gradient(seed, index, row.m, g.data());
  Verdict v = probability_verdict(row, p, all_finite(p) ? backward_bound(p, g) * std::sqrt(double(m)) : 0.0);
  if (!in_range(index, 0, attn::kMaxDim)) v.invalid(Status::invalid_shape);
  float norm = NAN;
  attn::Error err;
  if (!outcome("softmax_gradient_norm", attn::softmax_gradient_norm(p.data(), row.m, seed, index, &norm, &err), err, v))
    return;
  // ‖p ⊙ (g − ⟨p, g⟩)‖₂ with g the core's upstream_gradient(seed, row, m), the gradient it defines
  std::vector<double> dz, tol;
  backward_reference(p, g, dz, tol);
  double norm_sq = 0.0, tol_sum = 0.0;
  for (std::int64_t j = 0; j < m; ++j) norm_sq += dz[j] * dz[j], tol_sum += tol[j];
  const double want = std::sqrt(norm_sq);
  EXPECT(std::isfinite(norm) && norm >= 0.0f, "softmax_gradient_norm = %g", norm);
  expect_close(norm, want, tol_sum + 2.0 * (m + 2) * kEps * want, "softmax_gradient_norm", 0);
}

void fuzz_step_by_step(Reader& in) {
  const int m = in.dim(9, 80), d = in.dim(17, 300);
  const std::uint8_t key_byte = in.byte(), visible_byte = in.byte(), flags = in.byte();
  const float temperature = kTemperatures[in.byte() % 16];
  const std::uint8_t mode = in.byte();
  const bool m_ok = in_range(m, 1, attn::kMaxDim), d_ok = in_range(d, 1, attn::kMaxLessonWidth);
  // at and past the ends of [0, m − 1] and [1, m], as ints
  const auto saturate = [](std::int64_t x) { return static_cast<int>(std::min<std::int64_t>(std::max<std::int64_t>(x, INT_MIN), INT_MAX)); };
  const std::int64_t limits[8] = {-1, m, std::int64_t(m) + 1, INT_MAX, INT_MIN, -2, 0, 1};
  const int key = key_byte < kFirstSpecialDim && m_ok ? key_byte % m : saturate(limits[key_byte % 8]);
  const int visible = visible_byte < kFirstSpecialDim && m_ok ? 1 + visible_byte % m : saturate(limits[visible_byte % 8] + 1);
  const bool scaled = flags & 1;
  describe_call("step_by_step m=%d d=%d key=%d visible=%d scaled=%d temperature=%g value mode %d", m, d, key, visible,
                scaled, temperature, mode);
  Verdict v;
  if (!m_ok || !d_ok || !in_range(key, 0, std::int64_t(m) - 1) || !in_range(visible, 1, m)) v.invalid(Status::invalid_shape);
  if (!valid_temperature(temperature)) v.invalid(Status::invalid_argument);
  const bool dims_ok = m_ok && d_ok;
  const std::int64_t mm = dims_ok ? m : 1, dd = dims_ok ? d : 1;
  const bool allocated = !dims_ok || (mm * dd <= kMaxFloats && mm * dd <= kMaxWork);
  if (!allocated) {
    ++g_counts[static_cast<int>(Target::step_by_step)].skipped;
    v.invalid(Status::invalid_argument);
    v.large();
  } else if (mm * dd > kComfortableFloats) {
    v.large();
  }
  const std::vector<float> q = allocated && dims_ok ? in.values(dd, mode) : std::vector<float>(1, 0.0f);
  const std::vector<float> k = allocated && dims_ok ? in.values(mm * dd, mode) : std::vector<float>(1, 0.0f);
  if (dims_ok && allocated && (!all_finite(q) || !all_finite(k))) v.invalid(Status::non_finite_input);
  const bool exact = dims_ok && allocated && v.must == 0;
  const float scale = scaled && d_ok ? attn::inv_sqrt(d) : 1.0f;
  std::vector<double> s(mm, -INFINITY), s_err(mm, 0.0), dot(mm, 0.0), dot_abs(mm, 0.0);
  if (exact) {
    for (std::int64_t j = 0; j < mm; ++j) {
      for (std::int64_t c = 0; c < dd; ++c) {
        const double p = double(q[c]) * k[j * dd + c];
        dot[j] += p, dot_abs[j] += std::fabs(p);
      }
      if (j >= visible) continue;
      s[j] = double(scale) * dot[j];
      s_err[j] = double(scale) * sum_tolerance(dot_abs[j], dd) + 2.0 * kEps * std::fabs(s[j]) + 4 * kTiny;
      if (std::fabs(dot[j]) >= kTwiceMax || std::fabs(s[j]) >= kTwiceMax) v.invalid(Status::overflow);
      else if (dot_abs[j] > kHalfMax) v.borderline(Status::overflow);
    }
    // the shown pair, hidden or not: its products and its dot are numbers on the page
    double product_max = 0.0;
    for (std::int64_t c = 0; c < dd; ++c) product_max = std::max(product_max, std::fabs(double(q[c]) * k[key * dd + c]));
    if (product_max >= kTwiceMax || std::fabs(dot[key]) >= kTwiceMax) v.invalid(Status::overflow);
    else if (dot_abs[key] > kHalfMax) v.borderline(Status::overflow);
  }
  std::vector<float> product(dd, NAN), scores(mm, NAN), shifted(mm, NAN), exps(mm, NAN), weights(mm, NAN);
  attn::StepTrace tr{product.data(), scores.data(), shifted.data(), exps.data(), weights.data()};
  attn::Error err;
  const float* qp = allocated ? q.data() : nullptr;
  const float* kp = allocated ? k.data() : nullptr;
  if (!outcome("step_by_step", attn::step_by_step(qp, kp, m, d, key, scaled, temperature, visible, tr, &err), err, v) || !exact)
    return;
  for (std::int64_t c = 0; c < dd; ++c) {  // shown for the chosen key, visible or not: never ±Infinity
    const double p = double(q[c]) * k[key * dd + c];
    EXPECT(std::isfinite(product[c]), "step_by_step product[%lld] (key %d) is %g", static_cast<long long>(c), key, product[c]);
    expect_close(product[c], p, kEps * std::fabs(p) + kTiny, "step_by_step product", c);
  }
  EXPECT(std::isfinite(tr.dot), "step_by_step dot = %g", tr.dot);
  expect_close(tr.dot, dot[key], sum_tolerance(dot_abs[key], dd), "step_by_step dot", 0);
  expect_close(tr.scale, scaled ? 1.0 / std::sqrt(double(d)) : 1.0, kEps, "step_by_step scale", 0);
  double row_max = -INFINITY, max_err = 0.0;
  for (std::int64_t j = 0; j < mm; ++j) {
    if (j >= visible) {
      EXPECT(scores[j] == -INFINITY && weights[j] == 0.0f && exps[j] == 0.0f,
             "step_by_step hidden key %lld: score %g, exp %g, weight %g", static_cast<long long>(j), scores[j], exps[j], weights[j]);
      continue;
    }
    expect_close(scores[j], s[j], s_err[j], "step_by_step scores", j);
    EXPECT(shifted[j] <= 0.0f && !std::isnan(shifted[j]), "step_by_step shifted[%lld] = %g", static_cast<long long>(j), shifted[j]);
    EXPECT(exps[j] >= 0.0f && exps[j] <= 1.0f, "step_by_step exps[%lld] = %g", static_cast<long long>(j), exps[j]);
    row_max = std::max(row_max, s[j]);
    max_err = std::max(max_err, s_err[j]);
  }
  expect_close(tr.row_max, row_max, max_err, "step_by_step row_max", 0);
  EXPECT(std::isfinite(tr.sum) && tr.sum >= 1.0f, "step_by_step sum = %g: the max key alone adds exp(0) = 1", tr.sum);
  check_weights_row(weights.data(), softmax_reference(s, s_err, mm, temperature), 0, "step_by_step");
  double sum = 0.0;
  for (float w : weights) sum += w;
  expect_close(tr.weight_sum, sum, sum_tolerance(sum, mm), "step_by_step weight_sum", 0);
  const float w_max = *std::max_element(weights.begin(), weights.end());
  expect_close(tr.max_weight, w_max, 2.0 * kEps * w_max, "step_by_step max_weight", 0);
  const double h = entropy_of(weights.data(), mm);
  expect_close(tr.entropy, h, entropy_tolerance(mm, h), "step_by_step entropy", 0);
}

// ---- the embedding functions ------------------------------------------------------------------

void fuzz_random_projection(Reader& in) {
  std::uint64_t seed = 0;
  for (int b = 0; b < 8; ++b) seed |= std::uint64_t(in.byte()) << (8 * b);
  const int d_in = in.dim(17, 300), d_out = in.dim(17, 300);
  describe_call("random_projection seed=%" PRIu64 " d_in=%d d_out=%d", seed, d_in, d_out);
  Verdict v;
  const bool dims_ok = in_range(d_in, 1, attn::kMaxDim) && in_range(d_out, 1, attn::kMaxDim);
  if (!dims_ok) v.invalid(Status::invalid_shape);
  const std::int64_t count = dims_ok ? std::int64_t(d_in) * d_out : 1;
  if (count > kMaxFloats) {  // the core cannot see w's size: not made
    ++g_counts[static_cast<int>(Target::random_projection)].skipped;
    return;
  }
  if (count > kComfortableFloats) v.large();
  std::vector<float> w(count, NAN);
  attn::Error err;
  if (!outcome("random_projection", attn::random_projection(seed, d_in, d_out, w.data(), &err), err, v)) return;
  const double bound = kMaxNormalSigmas / std::sqrt(double(d_in));  // N(0, 1/d_in)
  for (std::int64_t i = 0; i < count; ++i)
    EXPECT(std::isfinite(w[i]) && std::fabs(w[i]) <= bound, "random_projection w[%lld] = %g beyond %g", static_cast<long long>(i), w[i], bound);
}

void fuzz_project(Reader& in) {
  const int t = in.dim(9, 80), d_in = in.dim(17, 300), d_out = in.dim(17, 80);
  const std::uint8_t mode = in.byte(), w_mode = in.byte();
  describe_call("project t=%d d_in=%d d_out=%d value modes %d, %d", t, d_in, d_out, mode, w_mode);
  Verdict v;
  const bool dims_ok = in_range(t, 1, attn::kMaxDim) && in_range(d_in, 1, attn::kMaxDim) && in_range(d_out, 1, attn::kMaxDim);
  if (!dims_ok) v.invalid(Status::invalid_shape);
  const std::int64_t tt = dims_ok ? t : 1, di = dims_ok ? d_in : 1, dout = dims_ok ? d_out : 1;
  if (tt * di + di * dout + tt * dout > kMaxFloats || tt * di * dout > kMaxWork) {  // output too large to pass
    ++g_counts[static_cast<int>(Target::project)].skipped;
    return;
  }
  if (tt * di + di * dout + tt * dout > kComfortableFloats) v.large();
  const std::vector<float> x = dims_ok ? in.values(tt * di, mode) : std::vector<float>(1, 0.0f);
  const std::vector<float> w = dims_ok ? in.values(di * dout, w_mode) : std::vector<float>(1, 0.0f);
  if (!all_finite(x) || !all_finite(w)) v.invalid(Status::non_finite_input);
  std::vector<double> want(tt * dout, 0.0), abs_sum(tt * dout, 0.0);
  if (v.must == 0)
    for (std::int64_t r = 0; r < tt; ++r)
      for (std::int64_t c = 0; c < dout; ++c) {
        for (std::int64_t e = 0; e < di; ++e) {
          const double p = double(x[r * di + e]) * w[e * dout + c];
          want[r * dout + c] += p, abs_sum[r * dout + c] += std::fabs(p);
        }
        if (std::fabs(want[r * dout + c]) >= kTwiceMax) v.invalid(Status::overflow);
        else if (abs_sum[r * dout + c] > kHalfMax) v.borderline(Status::overflow);
      }
  std::vector<float> out(tt * dout, NAN);
  attn::Error err;
  if (!outcome("project", attn::project(x.data(), t, d_in, w.data(), d_out, out.data(), &err), err, v)) return;
  expect_finite(out.data(), tt * dout, "project");
  for (std::int64_t i = 0; i < tt * dout; ++i) expect_close(out[i], want[i], sum_tolerance(abs_sum[i], di), "project", i);
}

void fuzz_positional_encoding(Reader& in) {
  const int t = in.dim(9, 80), d = in.dim(17, 300);
  constexpr float kStrengths[16] = {1.0f, 0.0f, 0.5f, -1.0f, 1e30f, FLT_MAX, NAN, INFINITY,
                                    -INFINITY, 1e-40f, 2.0f, 100.0f, -FLT_MAX, 1e15f, 0.1f, -0.0f};
  const float strength = kStrengths[in.byte() % 16];
  const std::uint8_t mode = in.byte();
  describe_call("add_positional_encoding t=%d d=%d strength=%g value mode %d", t, d, strength, mode);
  Verdict v;
  const bool dims_ok = in_range(t, 1, attn::kMaxDim) && in_range(d, 1, attn::kMaxDim);
  if (!dims_ok) v.invalid(Status::invalid_shape);
  const std::int64_t tt = dims_ok ? t : 1, dd = dims_ok ? d : 1;
  if (tt * dd > kMaxFloats) {
    ++g_counts[static_cast<int>(Target::positional_encoding)].skipped;
    return;
  }
  if (tt * dd > kComfortableFloats) v.large();
  if (!std::isfinite(strength)) v.invalid(Status::invalid_argument);
  const std::vector<float> x = dims_ok ? in.values(tt * dd, mode) : std::vector<float>(1, 0.0f);
  if (!all_finite(x)) v.invalid(Status::non_finite_input);
  // PE[p][2i] = sin(p / 10000^(2i/d)), PE[p][2i+1] = cos(...), in double
  std::vector<double> want(tt * dd, 0.0);
  if (v.must == 0)
    for (std::int64_t p = 0; p < tt; ++p)
      for (std::int64_t c = 0; c < dd; ++c) {
        const double angle = double(p) / std::pow(10000.0, 2.0 * double(c / 2) / double(dd));
        const double exact = double(x[p * dd + c]) + double(strength) * (c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        want[p * dd + c] = exact;
        if (std::fabs(exact) >= kTwiceMax) v.invalid(Status::overflow);
        else if (std::fabs(double(x[p * dd + c])) + std::fabs(double(strength)) > kHalfMax) v.borderline(Status::overflow);
      }
  std::vector<float> out(tt * dd, NAN);
  attn::Error err;
  if (!outcome("add_positional_encoding", attn::add_positional_encoding(x.data(), t, d, strength, out.data(), &err), err, v))
    return;
  expect_finite(out.data(), tt * dd, "add_positional_encoding");
  for (std::int64_t i = 0; i < tt * dd; ++i)  // sin/cos rounded to float, times strength, plus x: u each
    expect_close(out[i], want[i], 2.0 * kEps * (std::fabs(double(x[i])) + 2.0 * std::fabs(double(strength))) + kTiny,
                 "add_positional_encoding", i);
}

void fuzz_text_vector(Reader& in) {
  const int length = in.byte() % 32;
  std::string text;
  for (int i = 0; i < length; ++i) text.push_back(static_cast<char>(in.byte()));
  const int d = in.dim(17, 300);
  constexpr float kSigmas[16] = {1.0f, 0.5f, 1e-30f, 1e30f, FLT_MAX, 0.0f, -1.0f, NAN,
                                 INFINITY, 1e-45f, 2.0f, 1e-3f, 1e20f, 3.4e37f, 0.1f, -0.0f};
  const float sigma = kSigmas[in.byte() % 16];
  describe_call("text_vector length=%d d=%d sigma=%g", length, d, sigma);
  Verdict v;
  const bool d_ok = in_range(d, 1, attn::kMaxDim);
  if (!d_ok) v.invalid(Status::invalid_shape);
  if (!(sigma > 0.0f) || !std::isfinite(sigma)) v.invalid(Status::invalid_argument);
  else if (double(sigma) * kMaxNormalSigmas > kHalfMax)
    v.borderline(Status::overflow), v.borderline(Status::invalid_argument);
  const std::int64_t dd = d_ok ? d : 1;
  std::vector<float> a(dd, NAN), b(dd, NAN);
  attn::Error err;
  if (!outcome("text_vector", attn::text_vector(text.data(), text.size(), d, sigma, a.data(), &err), err, v)) return;
  EXPECT(attn::text_vector(text.data(), text.size(), d, sigma, b.data(), &err), "text_vector failed on a second call");
  for (std::int64_t i = 0; i < dd; ++i) {
    EXPECT(std::isfinite(a[i]) && std::fabs(a[i]) <= kMaxNormalSigmas * sigma, "text_vector[%lld] = %g with sigma %g",
           static_cast<long long>(i), a[i], sigma);
    EXPECT(std::memcmp(&a[i], &b[i], sizeof(float)) == 0, "text_vector differs between two calls at %lld", static_cast<long long>(i));
  }
}

// induce_in_sentence: t, d, window (index), a known byte per row, value modes of x and a.
void fuzz_induce_in_sentence(Reader& in) {
  const int t = in.dim(12, 80), d = in.dim(17, 130);
  constexpr int kWindows[8] = {5, 1, 2, 10, 255, 0, 256, -1};
  const int window = kWindows[in.byte() % 8];
  describe_call("induce_in_sentence t=%d d=%d window=%d", t, d, window);
  Verdict v;
  const bool dims_ok = in_range(t, 1, attn::kMaxDim) && in_range(d, 1, attn::kMaxDim);
  if (!dims_ok || !in_range(window, 1, attn::kMaxInductionWindow)) v.invalid(Status::invalid_shape);
  const std::int64_t tt = dims_ok ? t : 1, dd = dims_ok ? d : 1;
  if (tt * dd + dd * dd > kMaxFloats || tt * dd * dd > kMaxWork || tt * (2 * 255 + 1) * dd > kMaxWork) {
    ++g_counts[static_cast<int>(Target::induce_in_sentence)].skipped;
    return;
  }
  // known: 1 or 0, or (one byte in 32 from 248 on) a value that is neither
  constexpr float kBadKnown[8] = {0.5f, 2.0f, NAN, -1.0f, 1e-40f, INFINITY, -0.0f, 0.999f};
  std::vector<float> known(tt);
  for (auto& k : known) {
    const std::uint8_t b = in.byte();
    k = b >= 248 ? kBadKnown[b - 248] : float(b & 1);
  }
  const std::uint8_t x_mode = in.byte(), a_mode = in.byte();
  const std::vector<float> x = in.values(tt * dd, x_mode), a = in.values(dd * dd, a_mode);
  if (!all_finite(x) || !all_finite(a)) v.invalid(Status::non_finite_input);
  for (float k : known)
    if (k != 0.0f && k != 1.0f) v.invalid(Status::invalid_argument);  // -0.0f == 0.0f: valid
  // the reference in double: u = the mean of the known rows within the window, A·u
  std::vector<double> want(tt * dd, 0.0), tol(tt * dd, 0.0);
  std::vector<int> contexts(tt, 0);
  const int w = in_range(window, 1, attn::kMaxInductionWindow) ? window : 1;
  if (v.must == 0)
    for (std::int64_t i = 0; i < tt; ++i) {
      std::vector<double> u(dd, 0.0);
      for (std::int64_t j = std::max<std::int64_t>(0, i - w); j <= std::min<std::int64_t>(tt - 1, i + w); ++j)
        if (j != i && known[i] == 0.0f && known[j] != 0.0f) {
          ++contexts[i];
          for (std::int64_t c = 0; c < dd; ++c) u[c] += x[j * dd + c];
        }
      for (std::int64_t r = 0; r < dd; ++r) {
        if (contexts[i] == 0) {
          want[i * dd + r] = x[i * dd + r];
          continue;
        }
        double exact = 0, abs_sum = 0, abs_a = 0;
        for (std::int64_t c = 0; c < dd; ++c) {
          const double uc = u[c] / contexts[i];
          exact += double(a[r * dd + c]) * uc;
          abs_sum += std::fabs(double(a[r * dd + c]) * uc);
          abs_a += std::fabs(double(a[r * dd + c]));
        }
        want[i * dd + r] = exact;
        // u rounded once to float32 (relative kEps/2, or kTiny below the normals), then a float32 dot
        tol[i * dd + r] = sum_tolerance(abs_sum, dd) + kEps * abs_sum + 2.0 * kTiny * abs_a;
        if (std::fabs(exact) >= kTwiceMax) v.invalid(Status::overflow);
        else if (abs_sum > kHalfMax) v.borderline(Status::overflow);
      }
    }
  std::vector<float> vectors(tt * dd, NAN), context(tt * dd, NAN), counts(tt, NAN), induced(tt, NAN);
  attn::Error err;
  if (!outcome("induce_in_sentence",
               attn::induce_in_sentence(x.data(), known.data(), t, d, window, a.data(),
                                        {vectors.data(), context.data(), counts.data(), induced.data()}, &err),
               err, v))
    return;
  expect_finite(vectors.data(), tt * dd, "induce_in_sentence vectors");
  for (std::int64_t i = 0; i < tt; ++i) {
    EXPECT(counts[i] == float(contexts[i]), "induce_in_sentence contexts[%lld] = %g, expected %d", static_cast<long long>(i),
           counts[i], contexts[i]);
    EXPECT(induced[i] == (contexts[i] > 0 ? 1.0f : 0.0f), "induce_in_sentence induced[%lld] = %g", static_cast<long long>(i),
           induced[i]);
    for (std::int64_t c = 0; c < dd; ++c) {
      const std::int64_t k = i * dd + c;
      if (contexts[i] == 0)
        EXPECT(std::memcmp(&vectors[k], &x[k], sizeof(float)) == 0 && context[k] == 0.0f,
               "induce_in_sentence row %lld is not as given", static_cast<long long>(i));
      else
        expect_close(vectors[k], want[k], tol[k], "induce_in_sentence", k);
    }
  }
}

// ---- array lengths against shapes: the validate_* functions the binding calls -----------------
// The binding passes each array with its length; the core compares it with the shape's product,
// computed in 64 bits. Each array here claims (and has) the right length, that product wrapped to
// 32 bits (what a size_t product gives in wasm32), one more or one less, or none at all (null).
// Dimensions come mostly from their limits, where n·d reaches 2^32. Whatever the lengths, the call
// must not read past them (ASan), and it succeeds exactly when every length is right.

enum class Claim : std::uint8_t { right, wrapped, one_more, one_less, null, count };

struct ClaimedArray {
  std::unique_ptr<float[]> data;  // exactly the claimed length (new float[0] for none: ASan sees any read)
  attn::Input input;
  bool right = true, made = true;  // made: false when the harness cannot hold the claimed length
  bool large = false;              // the shape asks for more than kComfortableFloats
};

// `optional`: a null array means "none" (the mask), which is right.
ClaimedArray claimed(Reader& in, std::uint64_t expected, bool optional = false) {
  ClaimedArray a;
  a.large = expected > static_cast<std::uint64_t>(kComfortableFloats);
  const auto claim = static_cast<Claim>(in.byte() % static_cast<std::uint8_t>(Claim::count));
  std::uint64_t length = expected;
  switch (claim) {
    case Claim::right: break;
    case Claim::wrapped: length = static_cast<std::uint32_t>(expected); break;
    case Claim::one_more: length = expected + 1; break;
    case Claim::one_less: length = expected ? expected - 1 : 1; break;
    case Claim::null: case Claim::count: a.right = optional; return a;
  }
  a.right = length == expected;
  if (length > static_cast<std::uint64_t>(kMaxFloats)) {
    a.made = false;
    return a;
  }
  a.data.reset(new float[length]);
  for (std::uint64_t i = 0; i < length; ++i) a.data[i] = in.value(0);  // ordinary values: only lengths are wrong
  a.input = attn::Input(a.data.get(), length);
  return a;
}

void fuzz_lengths(Reader& in) {
  const int which = in.byte() % 5;
  const int n = in.dim(9, 80), m = in.dim(9, 80), d = in.dim(17, 300), dv = in.dim(8, 40);
  const auto u = [](int x) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)); };  // for products of valid dims
  const bool dims_ok = in_range(n, 1, attn::kMaxDim) && in_range(m, 1, attn::kMaxDim) && in_range(d, 1, attn::kMaxDim) &&
                       in_range(dv, 1, attn::kMaxDim);
  if (!dims_ok) return;  // out-of-range dimensions: fuzz_attention and the others
  attn::Error err;
  std::vector<ClaimedArray> arrays;
  const char* entry = "";
  bool ok = false;
  Verdict v;
  const auto add = [&](std::uint64_t expected, bool optional = false) -> attn::Input {
    arrays.push_back(claimed(in, expected, optional));
    return arrays.back().input;
  };
  const auto made = [&] {
    for (const ClaimedArray& a : arrays)
      if (!a.made) return false;
    return true;
  };
  switch (which) {
    case 0: {  // attention: q n·d, k m·d, v m·dv, mask n·m
      entry = "validate_attention";
      const attn::Input q = add(u(n) * u(d)), k = add(u(m) * u(d)), vv = add(u(m) * u(dv)), mask = add(u(n) * u(m), true);
      if (!made()) break;
      attn::AttentionOptions opt;
      opt.mask = mask;
      ok = attn::validate_attention(q, k, vv, {n, m, d, dv}, opt, &err);
      break;
    }
    case 1: {  // streaming: q n·d, k m·d, v m·dv (each within the budget)
      entry = "validate_streaming";
      const attn::Input q = add(u(n) * u(d)), k = add(u(m) * u(d)), vv = add(u(m) * u(dv));
      if (!made()) break;
      ok = attn::validate_streaming(q, k, vv, {n, m, d, dv}, attn::StreamingOptions{}, &err);
      if (u(n) * u(dv) > kComfortableFloats) v.large();  // the output
      break;
    }
    case 2: {  // project: x t·dIn, w dIn·dOut (n, d, m as t, dIn, dOut)
      entry = "validate_project";
      const attn::Input x = add(u(n) * u(d)), w = add(u(d) * u(m));
      if (!made()) break;
      ok = attn::validate_project(x, n, d, w, m, &err);
      if (u(n) * u(m) > kComfortableFloats) v.large();  // the output
      break;
    }
    case 3: {  // positional encoding: x t·d
      entry = "validate_positional_encoding";
      const attn::Input x = add(u(n) * u(d));
      if (!made()) break;
      ok = attn::validate_positional_encoding(x, n, d, 1.0f, &err);
      break;
    }
    default: {  // step by step: q d, k m·d (d up to the lesson's width)
      entry = "validate_step_by_step";
      if (d > attn::kMaxLessonWidth) return;
      const attn::Input q = add(u(d)), k = add(u(m) * u(d));
      if (!made()) break;
      ok = attn::validate_step_by_step(q, k, m, d, 0, 1.0f, m, &err);
      break;
    }
  }
  describe_call("%s n=%d m=%d d=%d dv=%d, %zu arrays", entry, n, m, d, dv, arrays.size());
  if (!made()) {  // a right length the harness cannot hold (or a wrong one as large): not made
    ++g_counts[static_cast<int>(Target::lengths)].skipped;
    return;
  }
  for (const ClaimedArray& a : arrays) {
    if (!a.right) v.invalid(a.input ? Status::invalid_shape : Status::invalid_argument);
    if (a.large) v.large();  // the budget may refuse the shape before the length is compared
  }
  outcome(entry, ok, err, v);
}


// ---- the lesson's sweeps, multi-head and the trainer -------------------------------------------
// No float64 reference here: these compose the entry points above (attention_forward, softmax,
// projections), which are checked against one. What is checked is the contract of each: the right
// verdict for every dimension, value and limit; on success every number finite, counts that add
// up, probabilities that are probabilities, regimes that follow their definition; head_weights
// with project_head equal to head_projections bit for bit, as lesson.hpp promises.

// A list of widths: how many (`count`, a dimension that may be 0) and each width. When the count is
// invalid the list holds one width: the core must refuse the count before it reads any.
std::vector<int> decode_widths(Reader& in, bool* valid, int* count_out) {
  const int count = in.dim0(4, 80);
  *count_out = count;
  *valid = in_range(count, 1, attn::kMaxSweepWidths);
  std::vector<int> dims(*valid ? count : 1, 1);
  if (!*valid) return dims;
  for (int& d : dims) {
    d = in.dim(17, 300);
    if (!in_range(d, 1, attn::kMaxLessonWidth)) *valid = false;
  }
  return dims;
}

// Tokens x (t×dIn) and whether their shape is valid; x is one float when it is not. Read last by
// every entry point that takes them (t, dIn, a value mode, then the values).
struct Tokens {
  int t, d_in;
  bool shape_ok;
  std::vector<float> x;
};
Tokens decode_tokens(Reader& in) {
  Tokens k;
  k.t = in.dim(9, 64);
  k.d_in = in.dim(17, 120);
  const std::uint8_t mode = in.byte();
  k.shape_ok = in_range(k.t, 1, attn::kMaxLessonTokens) && in_range(k.d_in, 1, attn::kMaxLessonWidth);
  k.x = k.shape_ok ? in.values(std::int64_t(k.t) * k.d_in, mode) : std::vector<float>(1, 0.0f);
  return k;
}

void expect_all_finite(const std::vector<float>& x, const char* what) {
  expect_finite(x.data(), static_cast<std::int64_t>(x.size()), what);
}

bool skipped() {
  ++g_counts[static_cast<int>(g_target)].skipped;
  return true;
}

void fuzz_histograms(Reader& in) {
  const std::uint32_t seed = in.byte();
  const int d = in.dim(17, 300), samples = in.dim0(60, 5000), bins = in.dim(20, 200);
  const std::uint8_t range_byte = in.byte();
  describe_call("dot_histograms seed=%u d=%d samples=%d bins=%d range byte %d", seed, d, samples, bins, range_byte);
  Verdict v;
  const bool d_ok = in_range(d, 1, attn::kMaxLessonWidth);
  if (!d_ok || !in_range(samples, 2, attn::kMaxLessonSamples) || !in_range(bins, 1, attn::kMaxBins))
    v.invalid(Status::invalid_shape);
  if (double(d_ok ? d : 1) * std::max(samples, 0) > kMaxWork && skipped()) return;
  attn::DotHistogram h[2];
  const float los[8] = {-4.0f, 0.0f, 1.0f, NAN, -INFINITY, -1e30f, 2.0f, -0.5f};
  const float his[8] = {4.0f, 1.0f, 1.0f, 1.0f, 0.0f, 1e30f, -2.0f, INFINITY};
  for (int r = 0; r < 2; ++r) {
    const int pick = (range_byte >> (3 * r)) & 7;
    if ((range_byte >> 6) & (1 << r)) {  // the lesson's default range
      attn::default_dot_range(d_ok ? d : 1, r == 1, &h[r].lo, &h[r].hi);
    } else {
      h[r].lo = los[pick], h[r].hi = his[pick];
    }
    if (!(std::isfinite(h[r].lo) && std::isfinite(h[r].hi) && h[r].lo < h[r].hi)) v.invalid(Status::invalid_argument);
  }
  const std::size_t n_bins = in_range(bins, 1, attn::kMaxBins) ? bins : 1;
  std::vector<float> counts[2] = {std::vector<float>(n_bins, NAN), std::vector<float>(n_bins, NAN)};
  h[0].counts = counts[0].data(), h[1].counts = counts[1].data();
  attn::Error err;
  if (!outcome("dot_histograms", attn::dot_histograms(seed, d, samples, bins, h[0], h[1], &err), err, v)) return;
  for (int r = 0; r < 2; ++r) {
    double total = double(h[r].below) + h[r].above;
    for (std::size_t b = 0; b < n_bins; ++b) {
      EXPECT(counts[r][b] >= 0.0f && counts[r][b] == std::floor(counts[r][b]), "dot_histograms counts[%zu] = %g", b,
             counts[r][b]);
      total += counts[r][b];
    }
    EXPECT(total == samples, "dot_histograms histogram %d counts %g of %d samples", r, total, samples);
    EXPECT(std::isfinite(h[r].mean) && std::isfinite(h[r].variance) && h[r].variance >= 0.0,
           "dot_histograms histogram %d: mean %g, variance %g", r, h[r].mean, h[r].variance);
  }
}

void fuzz_variance_curves(Reader& in) {
  const bool tokens = in.byte() & 1;
  const std::uint32_t seed = in.byte();
  bool widths_ok;
  int count;
  const std::vector<int> dims = decode_widths(in, &widths_ok, &count);
  const int samples = in.dim0(60, 3000), draws = in.dim0(3, 70);
  double width_sum = 0;  // in double: every work estimate below, so that no product overflows
  for (int d : dims) width_sum += std::max(d, 1);
  Verdict v;
  if (!widths_ok) v.invalid(Status::invalid_shape);
  attn::Error err;
  std::vector<float> var_u(dims.size(), NAN), var_s(dims.size(), NAN);
  if (!tokens) {
    describe_call("dot_variance_curve seed=%u %d widths samples=%d", seed, count, samples);
    if (!in_range(samples, 2, attn::kMaxLessonSamples)) v.invalid(Status::invalid_shape);
    if (width_sum * std::max(samples, 0) > kMaxWork && skipped()) return;
    if (!outcome("dot_variance_curve",
                 attn::dot_variance_curve(seed, dims.data(), count, samples, var_u.data(), var_s.data(), &err), err, v))
      return;
  } else {
    const Tokens k = decode_tokens(in);
    describe_call("token_dot_variance_curve t=%d d_in=%d seed=%u %d widths draws=%d", k.t, k.d_in, seed, count, draws);
    if (!k.shape_ok || !in_range(draws, 1, attn::kMaxDraws)) v.invalid(Status::invalid_shape);
    else if (std::int64_t(k.t) * k.t * draws < 2) v.invalid(Status::invalid_shape);  // one dot product: no variance
    if (k.shape_ok && !all_finite(k.x)) v.invalid(Status::non_finite_input);
    const double t = k.shape_ok ? k.t : 1, d_in = k.shape_ok ? k.d_in : 1;
    if (t * (d_in + t) * width_sum * std::max(draws, 1) > kMaxWork && skipped()) return;
    v.borderline(Status::overflow);  // a projection of large (finite) tokens may leave float32
    if (!outcome("token_dot_variance_curve",
                 attn::token_dot_variance_curve(k.x.data(), k.t, k.d_in, seed, dims.data(), count, draws, var_u.data(),
                                                var_s.data(), &err),
                 err, v))
      return;
  }
  for (std::size_t c = 0; c < dims.size(); ++c)
    EXPECT(std::isfinite(var_u[c]) && var_u[c] >= 0.0f && std::isfinite(var_s[c]) && var_s[c] >= 0.0f,
           "variance curve width %d: %g, %g", dims[c], var_u[c], var_s[c]);
}

void fuzz_head_projections(Reader& in) {
  const std::uint32_t seed = in.byte();
  const std::uint8_t head_byte = in.byte();
  const int head = head_byte < kFirstSpecialDim ? head_byte % 70 : kSpecialDims[head_byte - kFirstSpecialDim];
  const int d = in.dim(17, 300);
  const Tokens k = decode_tokens(in);
  describe_call("head_projections t=%d d_in=%d seed=%u head=%d d=%d", k.t, k.d_in, seed, head, d);
  Verdict v;
  const bool d_ok = in_range(d, 1, attn::kMaxLessonWidth);
  if (!k.shape_ok || !in_range(head, 0, attn::kMaxDraws) || !d_ok) v.invalid(Status::invalid_shape);
  if (k.shape_ok && !all_finite(k.x)) v.invalid(Status::non_finite_input);
  const std::int64_t td = k.shape_ok && d_ok ? std::int64_t(k.t) * d : 1;
  const std::int64_t w = k.shape_ok && d_ok ? std::int64_t(k.d_in) * d : 1;
  if ((3 * w + 3 * td > kMaxFloats || double(k.shape_ok ? k.t : 1) * w > kMaxWork) && skipped()) return;
  v.borderline(Status::overflow);
  std::vector<float> q(td, NAN), kk(td, NAN), vv(td, NAN);
  attn::Error err;
  if (!outcome("head_projections",
               attn::head_projections(k.x.data(), k.t, k.d_in, seed, head, d, q.data(), kk.data(), vv.data(), &err), err,
               v))
    return;
  expect_all_finite(q, "head_projections q");
  expect_all_finite(kk, "head_projections k");
  expect_all_finite(vv, "head_projections v");
  // the two halves give the same Q and K, bit for bit
  std::vector<float> wq(w, NAN), wk(w, NAN), q2(td, NAN), k2(td, NAN);
  EXPECT(attn::head_weights(seed, head, k.d_in, d, wq.data(), wk.data(), nullptr, &err), "head_weights failed: %s",
         err.message);
  EXPECT(attn::project_head(k.x.data(), k.t, k.d_in, wq.data(), wk.data(), {}, d, q2.data(), k2.data(), nullptr, &err),
         "project_head failed: %s", err.message);
  EXPECT(std::memcmp(q.data(), q2.data(), q.size() * sizeof(float)) == 0 &&
             std::memcmp(kk.data(), k2.data(), kk.size() * sizeof(float)) == 0,
         "head_weights + project_head differ from head_projections");
}

void fuzz_saturation_sweep(Reader& in) {
  const std::uint32_t seed = in.byte();
  const bool scaled = in.byte() & 1;
  bool widths_ok;
  int count;
  const std::vector<int> dims = decode_widths(in, &widths_ok, &count);
  const Tokens k = decode_tokens(in);
  describe_call("saturation_sweep t=%d d_in=%d seed=%u scaled=%d %d widths", k.t, k.d_in, seed, scaled, count);
  Verdict v;
  if (!k.shape_ok || !widths_ok) v.invalid(Status::invalid_shape);
  if (k.shape_ok && !all_finite(k.x)) v.invalid(Status::non_finite_input);
  double width_sum = 0;  // in double, as the estimate below
  for (int d : dims) width_sum += std::max(d, 1);
  const std::int64_t t = k.shape_ok ? k.t : 1;
  if (double(t) * ((k.shape_ok ? k.d_in : 1) + t) * width_sum > kMaxWork && skipped()) return;
  v.borderline(Status::overflow);
  const std::size_t widths = dims.size(), nt = widths * t;
  std::vector<float> max_w(nt, NAN), ent(nt, NAN), regime(nt, NAN), grad(nt, NAN);
  std::vector<float> mean_max(widths, NAN), mean_ent(widths, NAN), mean_grad(widths, NAN), fp(widths, NAN),
      ff(widths, NAN), peaked(widths, NAN), flat(widths, NAN);
  attn::Error err;
  if (!outcome("saturation_sweep",
               attn::saturation_sweep(k.x.data(), k.t, k.d_in, seed, dims.data(), count, scaled,
                                      {max_w.data(), ent.data(), regime.data(), grad.data()},
                                      {mean_max.data(), mean_ent.data(), mean_grad.data(), fp.data(), ff.data(),
                                       peaked.data(), flat.data()},
                                      &err),
               err, v))
    return;
  const double h_max = std::log(double(t));
  for (std::size_t i = 0; i < nt; ++i) {
    EXPECT(max_w[i] >= 1.0 / t - softmax_rounding(t) && max_w[i] <= 1.0f, "saturation_sweep maxWeight[%zu] = %g", i,
           max_w[i]);
    EXPECT(ent[i] >= 0.0f && ent[i] <= h_max + entropy_tolerance(t, h_max), "saturation_sweep entropy[%zu] = %g", i,
           ent[i]);
    EXPECT(regime[i] == static_cast<float>(attn::classify_row(max_w[i], ent[i], static_cast<int>(t))),
           "saturation_sweep regime[%zu] = %g for max weight %g, entropy %g", i, regime[i], max_w[i], ent[i]);
    EXPECT(std::isfinite(grad[i]) && grad[i] >= 0.0f, "saturation_sweep gradNorm[%zu] = %g", i, grad[i]);
  }
  for (std::size_t c = 0; c < widths; ++c) {
    EXPECT(peaked[c] + flat[c] <= t && fp[c] == peaked[c] / t && ff[c] == flat[c] / t,
           "saturation_sweep width %d: %g peaked, %g flat of %lld rows, fractions %g, %g", dims[c], peaked[c], flat[c],
           static_cast<long long>(t), fp[c], ff[c]);
    EXPECT(std::isfinite(mean_max[c]) && std::isfinite(mean_ent[c]) && std::isfinite(mean_grad[c]),
           "saturation_sweep width %d means %g %g %g", dims[c], mean_max[c], mean_ent[c], mean_grad[c]);
  }
}

void fuzz_multi_head(Reader& in) {
  const std::uint32_t seed = in.byte();
  const int heads = in.dim0(8, 12), d = in.dim(17, 200);
  const bool scaled = in.byte() & 1;
  const Tokens k = decode_tokens(in);
  describe_call("multi_head t=%d d_in=%d seed=%u heads=%d d=%d scaled=%d", k.t, k.d_in, seed, heads, d, scaled);
  Verdict v;
  const bool shape_ok = k.shape_ok && in_range(heads, 1, attn::kMaxHeads) && in_range(d, 1, attn::kMaxLessonWidth);
  if (!shape_ok) v.invalid(Status::invalid_shape);
  if (k.shape_ok && !all_finite(k.x)) v.invalid(Status::non_finite_input);
  const std::int64_t t = shape_ok ? k.t : 1, h = shape_ok ? heads : 1, dd = shape_ok ? d : 1;
  if (double(h) * t * ((shape_ok ? k.d_in : 1) * dd * 3 + t * dd * 2) > kMaxWork && skipped()) return;
  v.borderline(Status::overflow);
  std::vector<float> weights(h * t * t, NAN), entropy(h * t, NAN), max_weight(h * t, NAN), concat(t * h * dd, NAN);
  attn::Error err;
  if (!outcome("multi_head",
               attn::multi_head(k.x.data(), k.t, k.d_in, seed, heads, d, scaled,
                                {weights.data(), entropy.data(), max_weight.data(), concat.data()}, &err),
               err, v))
    return;
  expect_all_finite(concat, "multi_head concat");
  for (std::int64_t r = 0; r < h * t; ++r) {
    const float* w = weights.data() + r * t;
    double sum = 0.0;
    float largest = 0.0f;
    for (std::int64_t j = 0; j < t; ++j) {
      EXPECT(w[j] >= 0.0f && w[j] <= 1.0f, "multi_head weight [%lld][%lld] = %g", static_cast<long long>(r),
             static_cast<long long>(j), w[j]);
      sum += w[j], largest = std::max(largest, w[j]);
    }
    EXPECT(std::fabs(sum - 1.0) <= row_sum_tolerance(t), "multi_head row %lld sums to %.9g", static_cast<long long>(r),
           sum);
    EXPECT(max_weight[r] == largest, "multi_head maxWeight[%lld] = %g, the row's largest %g", static_cast<long long>(r),
           max_weight[r], largest);
    const double ent = entropy_of(w, t);
    expect_close(entropy[r], ent, entropy_tolerance(t, ent), "multi_head entropy", r);
  }
}

void fuzz_trainer(Reader& in) {
  namespace tr = attn::train;
  tr::Config c;
  c.seed = in.byte();
  c.model.task.letters = in.dim(12, 30);
  c.model.task.pairs = in.dim(6, 30);
  c.model.task.queries = in.dim(4, 30);
  c.model.d_model = in.dim(16, 300);
  c.model.d_k = in.dim(16, 600);
  c.model.d_v = in.dim(16, 300);
  c.batch = in.dim(8, 300);
  c.heldout = in.dim(8, 300);
  c.steps = in.dim(4, 40);
  const std::uint8_t options = in.byte();
  c.optimizer = options & 1 ? tr::Optimizer::sgd : tr::Optimizer::adam;
  const float rates[8] = {0.002f, 0.05f, 1.0f, 100.0f, 1e30f, 0.0f, -1.0f, NAN};
  c.learning_rate = rates[(options >> 1) & 7];
  c.clip_norm = (options >> 4) & 1 ? 1.0f : 0.0f;
  c.init_scale = (options >> 5) & 1 ? 8.0f : 1.0f;
  const int count = in.dim0(4, 40);
  const tr::TaskShape& t = c.model.task;
  describe_call("trainer letters=%d pairs=%d queries=%d dModel=%d dk=%d dv=%d batch=%d heldout=%d steps=%d options 0x%x, %d steps",
                t.letters, t.pairs, t.queries, c.model.d_model, c.model.d_k, c.model.d_v, c.batch, c.heldout, c.steps,
                options, count);
  Verdict v;
  const bool shape_ok = in_range(t.letters, 2, tr::kMaxLetters) && in_range(t.pairs, 1, t.letters) &&
                        in_range(t.queries, 1, t.pairs) && in_range(c.model.d_model, 1, tr::kMaxWidth) &&
                        in_range(c.model.d_k, 1, tr::kMaxDk) && in_range(c.model.d_v, 1, tr::kMaxWidth) &&
                        in_range(c.batch, 1, tr::kMaxBatch) && in_range(c.heldout, 1, tr::kMaxHeldout) &&
                        in_range(c.steps, 1, tr::kMaxSteps);
  if (!shape_ok)
    v.invalid(Status::invalid_shape);
  else if (!(c.learning_rate > 0.0f && std::isfinite(c.learning_rate)))
    v.invalid(Status::invalid_argument);
  // the work of the steps: examples × tokens × dModel × (dk + dv), skipped above a budget
  // (in double: the dimensions may be INT_MAX here)
  const double examples = double(std::max(c.batch, 1)) * std::max(count, 1) + std::max(c.heldout, 1);
  const double tokens = double(std::max(t.pairs, 1)) + std::max(t.queries, 1);
  const double width = double(std::max(c.model.d_model, 1)) * (double(std::max(c.model.d_k, 1)) + std::max(c.model.d_v, 1));
  if (shape_ok && examples * tokens * width > 64 * kMaxWork && skipped()) return;
  v.borderline(Status::too_large);  // the memory limit of one experiment
  auto e = std::make_unique<tr::Experiment>();
  attn::Error err;
  if (!outcome("trainer", e->create(c, &err), err, v)) {
    EXPECT(!e->ready() && e->step(count) == 0, "a trainer that failed create() took a step");
    return;
  }
  const int taken = e->step(count);
  EXPECT(taken == std::max(0, std::min(count, c.steps)) && e->steps_done() == taken, "trainer took %d of %d steps (steps %d)", taken,
         count, c.steps);
  for (const tr::Run run : {tr::Run::scaled, tr::Run::unscaled}) {
    const int done = e->run_steps_done(run), diverged = e->diverged_at(run);
    EXPECT(diverged == 0 ? done == taken : done == diverged - 1 && diverged <= taken,
           "trainer run %d: %d steps done, diverged at %d, %d taken", static_cast<int>(run), done, diverged, taken);
    for (int m = 0; m < tr::kMetrics; ++m) expect_finite(e->metric(run, static_cast<tr::Metric>(m)), done, "trainer metric");
    const float* shown = e->shown_weights(run);
    for (int q = 0; q < t.queries; ++q) {
      double sum = 0.0;
      for (int p = 0; p < t.pairs; ++p) {
        const float w = shown[q * t.pairs + p];
        EXPECT(w >= 0.0f && w <= 1.0f, "trainer shown weight %g", w);
        sum += w;
      }
      EXPECT(std::fabs(sum - 1.0) <= row_sum_tolerance(t.pairs), "trainer shown row %d sums to %.9g", q, sum);
    }
  }
  e->reset();
  EXPECT(e->steps_done() == 0, "trainer reset left %d steps", e->steps_done());
}

}  // namespace
// ---- the language model's weights file: what a user hands to engine.loadModel ------------------
// A small model of a config read from the input is written in one of the three encodings, then
// damaged as the input says: left whole, one byte changed, cut short, padded, or one header byte
// changed with the checksum made right again (a file forged to pass the checksum). The reader
// must accept the whole file (and give back what was written, within the encoding's step), refuse
// every damaged one the checksum catches, and never read out of bounds; a file it accepts is
// run: a next-word distribution and attention rows, each finite in [0, 1] and summing to 1.
void expect_distribution(const float* w, std::int64_t m, const char* what) {
  double sum = 0.0;
  for (std::int64_t j = 0; j < m; ++j) {
    EXPECT(std::isfinite(w[j]) && w[j] >= 0.0f && w[j] <= 1.0f, "%s[%lld] = %g is not in [0, 1]", what, static_cast<long long>(j), w[j]);
    sum += w[j];
  }
  EXPECT(std::fabs(sum - 1.0) <= row_sum_tolerance(m), "%s sums to 1 %+.3g (tolerance %.3g)", what, sum - 1.0, row_sum_tolerance(m));
}

void fuzz_model_weights(Reader& in) {
  namespace lm = attn::lm;
  lm::ModelConfig c;
  c.heads = 1 + in.byte() % 4;
  c.d_model = c.heads * (1 + in.byte() % 6);
  c.layers = 1 + in.byte() % 2;
  c.vocab = 2 + in.byte() % 40;
  c.context = 1 + in.byte() % 12;
  c.scaled = in.byte() & 1;
  const auto encoding = static_cast<lm::Encoding>(in.byte() % 3);
  const std::uint8_t mode = in.byte() & 1;  // magnitude 1 or 1/16, no specials: a plausible model
  const std::uint8_t damage = in.byte() % 5;
  const std::uint32_t where = (std::uint32_t(in.byte()) << 8) | in.byte();
  const std::uint8_t value = in.byte();
  describe_call("model_weights heads=%d dModel=%d layers=%d vocab=%d context=%d scaled=%d encoding=%d damage=%d at %u = %u",
                c.heads, c.d_model, c.layers, c.vocab, c.context, c.scaled, static_cast<int>(encoding), damage, where, value);
  attn::Error err;
  lm::Model written;
  EXPECT(written.create(c, 1, &err, false), "model_weights: create refused a small config: %s", err.message);
  const std::vector<float> params = in.values(static_cast<std::int64_t>(written.size()), mode);
  std::vector<unsigned char> file;
  EXPECT(lm::write_weights(c, params.data(), encoding, &file, &err), "write_weights refused: %s", err.message);
  switch (damage) {
    case 1: file[where % file.size()] ^= static_cast<unsigned char>(value | 1); break;  // always a change
    case 2: file.resize(where % file.size()); break;
    case 3: file.insert(file.end(), 1 + value % 16, value); break;
    case 4: {
      file[8 + where % (lm::kWeightsHeaderBytes - 8)] ^= static_cast<unsigned char>(value | 1);
      const std::uint64_t sum = lm::fnv1a64(file.data(), file.size() - 8);
      for (int b = 0; b < 8; ++b) file[file.size() - 8 + b] = static_cast<unsigned char>(sum >> (8 * b));
      break;
    }
    default: break;
  }
  Verdict v;
  // FNV-1a takes the sum through a bijection at every byte: one changed byte always changes it
  if (damage >= 1 && damage <= 3) v.invalid(Status::invalid_argument);
  // a forged header may still describe a model (the scaled flag flipped, say), or one the
  // limits refuse: either may happen
  if (damage == 4) v.borderline(Status::invalid_argument), v.borderline(Status::invalid_shape), v.borderline(Status::too_large);
  lm::ModelConfig read;
  lm::Encoding read_encoding;
  // a copy of exactly the file's size: ASan sees any read past its end
  const std::unique_ptr<unsigned char[]> bytes(new unsigned char[std::max<std::size_t>(file.size(), 1)]);
  std::memcpy(bytes.get(), file.data(), file.size());
  if (!outcome("read_weights_header", lm::read_weights_header(bytes.get(), file.size(), &read, &read_encoding, &err), err, v))
    return;
  if (lm::Model::bytes(read, 1) > (std::uint64_t(1) << 28) && skipped()) return;
  lm::Model model;
  Verdict budget;
  budget.borderline(Status::too_large);
  if (!outcome("model create", model.create(read, 1, &err, false), err, budget)) return;
  if (!outcome("read_weights", lm::read_weights(bytes.get(), file.size(), model.params(), model.size(), &err), err, Verdict{}))
    return;
  if (damage == 0) {
    EXPECT(read.vocab == c.vocab && read.context == c.context && read.layers == c.layers && read.heads == c.heads &&
               read.d_model == c.d_model && read.scaled == c.scaled && read_encoding == encoding,
           "model_weights: the header read back differs from the one written");
    double largest = 0.0;
    for (const float p : params) largest = std::max(largest, std::fabs(double(p)));
    // float32 exact; float16 within half a unit in the last place (2^-11 relative); int8 within
    // half a step of its block's scale max|x|/127 (the scale itself rounded to float16: 0.51)
    for (std::size_t i = 0; i < params.size(); ++i) {
      const double tol = encoding == lm::Encoding::float32   ? 0.0
                         : encoding == lm::Encoding::float16 ? std::ldexp(std::fabs(double(params[i])), -11) + 1e-7
                                                             : largest / 127.0 * 0.51 + 1e-7;
      expect_close(model.params()[i], params[i], tol, "read_weights", static_cast<std::int64_t>(i));
    }
  }
  const int T = 1 + value % read.context;
  std::vector<std::int32_t> tokens(static_cast<std::size_t>(T));
  for (int t = 0; t < T; ++t) tokens[static_cast<std::size_t>(t)] = static_cast<std::int32_t>((where + 7u * t) % read.vocab);
  if (!outcome("model predict", model.predict(tokens.data(), T, T - 1, &err), err, Verdict{})) return;
  expect_distribution(model.probs(), read.vocab, "model predict probs");
  for (int l = 0; l < read.layers; ++l)
    for (int h = 0; h < read.heads; ++h)
      for (int i = 0; i < T; ++i)
        expect_distribution(model.attention(l) + (static_cast<std::size_t>(h) * T + i) * T, i + 1, "model attention row");
  // every head measured over two windows that repeat with period T/2 (heads.hpp): shares and
  // scores of weights are in [0, 1], a role one of the five
  const int span = T >= 2 ? T / 2 : 0;
  std::vector<std::int32_t> windows(2 * static_cast<std::size_t>(T));
  for (int t = 0; t < 2 * T; ++t) windows[static_cast<std::size_t>(t)] = tokens[static_cast<std::size_t>(span ? t % T % span : t % T)];
  const std::size_t heads = static_cast<std::size_t>(read.layers) * read.heads;
  std::vector<lm::HeadProfile> profiles(heads);
  std::vector<lm::HeadRole> roles(heads);
  std::vector<float> induction(heads, -1.0f);
  if (!outcome("measure_heads", lm::measure_heads(model, windows.data(), 2, T, span, profiles.data(), roles.data(),
                                                  induction.data(), &err), err, Verdict{}))
    return;
  for (std::size_t k = 0; k < heads; ++k) {
    const lm::HeadProfile& p = profiles[k];
    for (const float x : {p.previous, p.first, p.self, p.spread, induction[k]})
      EXPECT(x >= -1e-6f && x <= 1.0f + 1e-5f, "measure_heads: head %zu measures %g, outside [0, 1]", k, double(x));
    EXPECT(static_cast<int>(roles[k]) >= 0 && static_cast<int>(roles[k]) <= 4, "measure_heads: head %zu role %d", k,
           static_cast<int>(roles[k]));
  }
}

// ---- attention supplied from another model: any tensor a user's file can give -----------------
// L, H small or special, n small, large or special; rows softmax(scores) in float64 stored as
// float32 (causal or not), then damaged as the input says: one value replaced (specials among
// them), one row scaled, the array's length one off. The reference finds the first fault itself.
void fuzz_supplied_attention(Reader& in) {
  const int L = in.dim(3, 8), H = in.dim(3, 8), n = in.dim(12, 256);
  const bool causal = in.byte() & 1;
  const std::uint8_t mode = in.byte();
  const std::uint8_t damage = in.byte() % 4;
  const std::uint32_t where = (std::uint32_t(in.byte()) << 8) | in.byte();
  const float scale = 1.0f + static_cast<float>(static_cast<int>(in.byte()) - 128) / 65536.0f;  // a row × (1 ± 2^-9)
  describe_call("supplied_attention L=%d H=%d n=%d causal=%d mode=%d damage=%d at %u scale=%.9g", L, H, n, causal, mode,
                damage, where, scale);
  Verdict v;
  attn::Error err;
  attn::SuppliedReport report;
  const bool dims_ok = in_range(L, 1, attn::kMaxSuppliedLayers) && in_range(H, 1, attn::kMaxSuppliedHeads) &&
                       in_range(n, 1, attn::kMaxSuppliedTokens);
  const std::int64_t floats = dims_ok ? std::int64_t(L) * H * n * n : 0;
  if (!dims_ok || floats > kMaxFloats) {
    // a dimension out of range, or too many floats to build here: refused without reading (no array)
    v.invalid(dims_ok ? Status::too_large : Status::invalid_shape);
    if (dims_ok) v.invalid(Status::invalid_argument);  // within the budget: the missing array is named
    outcome("supplied_attention", attn::check_supplied_attention(attn::Input{}, L, H, n, &report, &err), err, v);
    return;
  }
  std::vector<float> w(static_cast<std::size_t>(floats));
  const std::int64_t rows = floats / n;
  for (std::int64_t r = 0; r < rows; ++r) {
    const int keys = causal ? static_cast<int>(r % n) + 1 : n;
    std::vector<double> e(static_cast<std::size_t>(keys));
    double largest = -HUGE_VAL, sum = 0;
    for (double& x : e) largest = std::max(largest, x = in.value(mode & 3));
    for (double& x : e) sum += x = std::exp(x - largest);
    for (int j = 0; j < n; ++j) w[static_cast<std::size_t>(r * n + j)] = j < keys ? static_cast<float>(e[j] / sum) : 0.0f;
  }
  std::uint64_t length = w.size();
  const std::size_t place = where % w.size();
  if (damage == 1) w[place] = in.value(kSpecialsAllowed | (mode & 3));
  if (damage == 2)
    for (int j = 0; j < n; ++j) w[place / n * n + j] *= scale;
  if (damage == 3) length = (where & 1) ? length + 1 : length - 1;
  if (length != w.size()) v.invalid(Status::invalid_shape);
  // the reference: the first bad value or row, in reading order
  double worst = 0;
  bool ref_causal = true, faulted = false;
  for (std::int64_t r = 0; r < rows && !faulted && !v.must; ++r) {
    double sum = 0;
    for (int j = 0; j < n && !faulted; ++j) {
      const float x = w[static_cast<std::size_t>(r * n + j)];
      if (!std::isfinite(x)) v.invalid(Status::non_finite_input), faulted = true;
      else if (x < 0.0f) v.invalid(Status::invalid_argument), faulted = true;
      sum += x;
      if (j > r % n && x != 0.0f) ref_causal = false;
    }
    if (faulted) break;
    const double miss = std::fabs(sum - 1.0);
    worst = std::max(worst, miss);
    if (std::fabs(miss - attn::kRowSumTolerance) < 1e-12) v.borderline(Status::invalid_argument);
    else if (miss > attn::kRowSumTolerance) v.invalid(Status::invalid_argument), faulted = true;
  }
  const std::unique_ptr<float[]> copy(new float[w.size()]);  // exactly its size: ASan sees a read past it
  std::copy(w.begin(), w.end(), copy.get());
  if (!outcome("supplied_attention", attn::check_supplied_attention({copy.get(), length}, L, H, n, &report, &err), err, v))
    return;
  if (v.may) return;  // a borderline row passed: the worst error is at the edge
  expect_close(report.worst_row_error, worst, 1e-12, "supplied_attention worst row error", 0);
  EXPECT(report.causal == ref_causal, "supplied_attention: causal %d, the reference says %d", report.causal, ref_causal);
}

}  // namespace fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::atexit(fuzz::print_counts);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using fuzz::Target;
  fuzz::Reader in(data, size);
  fuzz::g_target = static_cast<Target>(in.byte() % static_cast<std::uint8_t>(Target::count));
  switch (fuzz::g_target) {
    case Target::attention: fuzz::fuzz_attention(in); break;
    case Target::softmax: fuzz::fuzz_softmax(in); break;
    case Target::softmax_naive: fuzz::fuzz_softmax_naive(in); break;
    case Target::softmax_jacobian: fuzz::fuzz_softmax_jacobian(in); break;
    case Target::softmax_backward: fuzz::fuzz_softmax_backward(in); break;
    case Target::step_by_step: fuzz::fuzz_step_by_step(in); break;
    case Target::gradient_norm: fuzz::fuzz_gradient_norm(in); break;
    case Target::random_projection: fuzz::fuzz_random_projection(in); break;
    case Target::project: fuzz::fuzz_project(in); break;
    case Target::positional_encoding: fuzz::fuzz_positional_encoding(in); break;
    case Target::text_vector: fuzz::fuzz_text_vector(in); break;
    case Target::lengths: fuzz::fuzz_lengths(in); break;
    case Target::histograms: fuzz::fuzz_histograms(in); break;
    case Target::variance_curves: fuzz::fuzz_variance_curves(in); break;
    case Target::head_projections: fuzz::fuzz_head_projections(in); break;
    case Target::saturation_sweep: fuzz::fuzz_saturation_sweep(in); break;
    case Target::multi_head: fuzz::fuzz_multi_head(in); break;
    case Target::trainer: fuzz::fuzz_trainer(in); break;
    case Target::model_weights: fuzz::fuzz_model_weights(in); break;
    case Target::supplied_attention: fuzz::fuzz_supplied_attention(in); break;
    case Target::induce_in_sentence: fuzz::fuzz_induce_in_sentence(in); break;
    case Target::count: break;
  }
  return 0;
}
