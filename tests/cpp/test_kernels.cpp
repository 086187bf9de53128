// The register-blocked kernels against their `_ref` twins, on shapes that are not multiples of
// the tile sizes (2 rows × 4 vectors: 16 columns on wasm, 32 on AVX2) nor of the depth chunk (256).
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "reference.hpp"
#include "core/simd.hpp"

namespace {

// A float32 sum of `depth` products carries a rounding error of at most ~depth·ε·Σ|aᵢbᵢ|, in any
// summation order (tiles and depth chunks change the order, wasm mul+add rounds twice where
// AVX2 fuses). Both sides may err by that much, hence the factor 2.
double sum_tolerance(double abs_sum, std::size_t depth) { return 2.0 * (double(depth) + 2) * FLT_EPSILON * abs_sum + 1e-30; }

// fast and slow, rows×cols row-major, agree within the error of a float32 sum of `depth` terms;
// abs_term(i, j, p) is |term p| of entry (i, j), in float64.
template <class AbsTerm>
void require_sums_close(const std::vector<float>& fast, const std::vector<float>& slow, int rows, int cols,
                        int depth, AbsTerm abs_term) {
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      double abs_sum = 0;
      for (int p = 0; p < depth; ++p) abs_sum += abs_term(i, j, p);
      const std::size_t idx = std::size_t(i) * cols + j;
      REQUIRE(std::fabs(double(fast[idx]) - slow[idx]) <= sum_tolerance(abs_sum, depth));
    }
  }
}

const int kShapes[][3] = {{1, 1, 1},   {1, 5, 3},   {3, 7, 2},   {4, 8, 4},    {5, 9, 17},  {7, 16, 64},
                          {9, 17, 65}, {13, 33, 5}, {16, 16, 64}, {17, 31, 300}, {6, 40, 513}, {33, 3, 100},
                          {3, 76, 9}};

}  // namespace

TEST_CASE("gemm matches gemm_ref for every stride, tail and accumulate mode", "[kernels][gemm]") {
  std::uint32_t seed = 500;
  for (auto& shape : kShapes) {
    const std::size_t rows = shape[0], cols = shape[1], depth = shape[2];
    for (bool transposed_a : {false, true}) {
      for (bool accumulate : {false, true}) {
        // a stored row-major (a_row = depth) or transposed (a_row = 1, a_inner = rows), like the
        // streaming forward's score tile; b and c with padded row strides.
        const std::size_t a_row = transposed_a ? 1 : depth, a_inner = transposed_a ? rows : 1;
        const std::size_t ldb = cols + 3, ldc = cols + 1;
        auto a = ref64::random_normal(rows * depth, seed++);
        auto b = ref64::random_normal(depth * ldb, seed++);
        auto c0 = ref64::random_normal(rows * ldc, seed++);
        auto fast = c0, slow = c0;
        attn::gemm(a.data(), a_row, a_inner, b.data(), ldb, fast.data(), ldc, rows, cols, depth, accumulate);
        attn::gemm_ref(a.data(), a_row, a_inner, b.data(), ldb, slow.data(), ldc, rows, cols, depth, accumulate);
        INFO("rows=" << rows << " cols=" << cols << " depth=" << depth << " transposed_a=" << transposed_a
                     << " accumulate=" << accumulate);
        for (std::size_t r = 0; r < rows; ++r) {
          for (std::size_t col = 0; col < ldc; ++col) {
            const std::size_t idx = r * ldc + col;
            if (col >= cols) {  // padding between rows: never written
              REQUIRE(fast[idx] == c0[idx]);
              continue;
            }
            double abs_sum = accumulate ? std::fabs(c0[idx]) : 0.0;
            for (std::size_t p = 0; p < depth; ++p)
              abs_sum += std::fabs(double(a[r * a_row + p * a_inner]) * b[p * ldb + col]);
            INFO("r=" << r << " col=" << col);
            REQUIRE(std::fabs(double(fast[idx]) - slow[idx]) <= sum_tolerance(abs_sum, depth));
          }
        }
      }
    }
  }
}

TEST_CASE("matmul_qkt and matmul_pv match their _ref twins", "[kernels][matmul]") {
  std::uint32_t seed = 900;
  for (auto& shape : kShapes) {
    const int n = shape[0], m = shape[1], d = shape[2], dv = (shape[2] * 5) % 23 + 1;
    auto q = ref64::random_normal(std::size_t(n) * d, seed++);
    auto k = ref64::random_normal(std::size_t(m) * d, seed++);
    auto v = ref64::random_normal(std::size_t(m) * dv, seed++);
    INFO("n=" << n << " m=" << m << " d=" << d << " dv=" << dv);
    std::vector<float> fast(std::size_t(n) * m, NAN), slow(std::size_t(n) * m, NAN);
    attn::matmul_qkt(q.data(), k.data(), n, m, d, fast.data());
    attn::matmul_qkt_ref(q.data(), k.data(), n, m, d, slow.data());
    require_sums_close(fast, slow, n, m, d, [&](int i, int j, int c) {
      return std::fabs(double(q[std::size_t(i) * d + c]) * k[std::size_t(j) * d + c]);
    });
    // weights: any non-negative rows will do for a product check; use |N(0,1)|
    auto w = ref64::random_normal(std::size_t(n) * m, seed++);
    for (auto& x : w) x = std::fabs(x);
    std::vector<float> out_fast(std::size_t(n) * dv, NAN), out_slow(std::size_t(n) * dv, NAN);
    attn::matmul_pv(w.data(), v.data(), n, m, dv, out_fast.data());
    attn::matmul_pv_ref(w.data(), v.data(), n, m, dv, out_slow.data());
    require_sums_close(out_fast, out_slow, n, dv, m, [&](int i, int c, int j) {
      return std::fabs(double(w[std::size_t(i) * m + j]) * v[std::size_t(j) * dv + c]);
    });
  }
}

namespace {

// Cephes' expf and exp2f are accurate to ~2 ulp; 4 ulp relative leaves room for wasm's unfused
// mul+add. Below the least normal float both give subnormals, then 0: absolute 1.2e-38.
constexpr double kExpRelTol = 4 * FLT_EPSILON;
constexpr double kExpFlushAbs = 1.2e-38;

// Runs a vector kernel over `inputs` (padded with -1 to whole vectors) and checks every lane
// against the float64 `reference` within the tolerances above; `check(input, got, want)` adds
// the kernel's own requirements.
template <class Kernel, class Reference, class Check>
void check_exp_kernel(Kernel kernel, Reference reference, std::vector<float> inputs, Check check) {
  while (inputs.size() % attn::kLanes) inputs.push_back(-1.0f);
  for (std::size_t i = 0; i < inputs.size(); i += attn::kLanes) {
    alignas(64) float got[64];
    kernel(attn::batch::load_unaligned(&inputs[i])).store_unaligned(got);
    for (std::size_t l = 0; l < attn::kLanes; ++l) {
      const double want = reference(double(inputs[i + l]));
      INFO("x=" << inputs[i + l]);
      REQUIRE(got[l] >= 0.0f);
      REQUIRE(std::fabs(got[l] - want) <= kExpRelTol * want + kExpFlushAbs);
      check(inputs[i + l], got[l], want);
    }
  }
}

}  // namespace

TEST_CASE("exp_nonpositive matches std::exp on t <= 0", "[kernels][exp]") {
  // subnormals below exp(-87.3), then 0 from about -87.7
  std::vector<float> t;
  for (float x = 0.0f; x > -110.0f; x -= 0.0137f) t.push_back(x);
  for (float x : {-0.0f, -1e-30f, -87.33f, -INFINITY}) t.push_back(x);
  check_exp_kernel([](attn::batch b) { return attn::exp_nonpositive(b); }, [](double x) { return std::exp(x); }, t,
                   [](float x, float got, double) {
                     if (x <= -87.7f) REQUIRE(got == 0.0f);  // never garbage from a wrapped exponent
                   });
  alignas(64) float at_minus_inf[64];
  attn::exp_nonpositive(attn::batch(-INFINITY)).store_unaligned(at_minus_inf);
  REQUIRE(at_minus_inf[0] == 0.0f);
}

TEST_CASE("exp2_nonpositive matches std::exp2 on x <= 0", "[kernels][exp]") {
  // subnormals below 2^-126, then 0 from x = -126.5, where the rounding makes n = -127
  std::vector<float> x;
  for (float t = 0.0f; t > -160.0f; t -= 0.0173f) x.push_back(t);
  for (float t : {-0.0f, -1e-30f, -0.5f, -1.5f, -126.0f, -126.49f, -126.5f, -127.0f, -INFINITY}) x.push_back(t);
  check_exp_kernel([](attn::batch b) { return attn::exp2_nonpositive(b); }, [](double t) { return std::exp2(t); }, x,
                   [](float t, float got, double want) {
                     if (t <= -126.5f) REQUIRE(got == 0.0f);  // never garbage from a wrapped exponent
                     if (t == std::floor(t) && t >= -126.0f) REQUIRE(got == float(want));  // 2^-k exact
                   });
}

namespace {

// Streaming vs standard forward: both compute softmax(scale·q kᵀ) v from the same float32
// scores; they differ only in the order of the sums and in the exp (one rescaling per key tile
// adds a rounding per tile). Output rows are convex combinations of V rows (|v| ≲ 5), so the
// weight error (≲ 2e-5, see test_attention.cpp) times Σ|v| bounds it: the same 1e-4 as there.
constexpr double kStreamingOutputAbsTol = 1e-4;

void check_streaming_shape(int n, int m, int d, int dv, bool causal, std::uint32_t seed) {
  auto q = ref64::random_normal(std::size_t(n) * d, seed);
  auto k = ref64::random_normal(std::size_t(m) * d, seed + 1);
  auto v = ref64::random_normal(std::size_t(m) * dv, seed + 2);
  attn::StreamingOptions opt;
  opt.scale = attn::inv_sqrt(d);
  opt.causal = causal;
  std::vector<float> fast(std::size_t(n) * dv, NAN), slow(std::size_t(n) * dv, NAN);
  attn::Error err;
  INFO("n=" << n << " m=" << m << " d=" << d << " dv=" << dv << " causal=" << causal);
  REQUIRE(attn::attention_streaming_forward(q.data(), k.data(), v.data(), {n, m, d, dv}, opt, fast.data(), &err));
  REQUIRE(attn::attention_streaming_forward_ref(q.data(), k.data(), v.data(), {n, m, d, dv}, opt, slow.data(), &err));
  // the standard forward, with every intermediate, as the third opinion
  const std::size_t nm = std::size_t(n) * m;
  std::vector<float> dots(nm), scores(nm), weights(nm), output(std::size_t(n) * dv), entropy(n), max_weight(n);
  attn::AttentionOptions full;
  full.scale = opt.scale;
  full.causal = causal;
  REQUIRE(attn::attention_forward(q.data(), k.data(), v.data(), {n, m, d, dv}, full,
                                  {dots.data(), scores.data(), weights.data(), output.data(), entropy.data(),
                                   max_weight.data()},
                                  &err));
  for (std::size_t idx = 0; idx < output.size(); ++idx) {
    INFO("query " << idx / dv << " column " << idx % dv);
    REQUIRE(std::fabs(fast[idx] - output[idx]) <= kStreamingOutputAbsTol);
    REQUIRE(std::fabs(slow[idx] - output[idx]) <= kStreamingOutputAbsTol);
  }
}

}  // namespace

TEST_CASE("streaming forward matches the standard forward", "[streaming]") {
  // block sizes: 64 queries, 64 keys, depth chunks of 128; tiles 2 × 16 (wasm) / 2 × 32 (AVX2)
  const int shapes[][4] = {{1, 1, 1, 1},     {3, 5, 2, 3},     {31, 33, 17, 5},  {32, 64, 64, 64},
                           {33, 65, 64, 63}, {70, 130, 9, 17}, {5, 200, 130, 7}, {100, 100, 300, 20},
                           {129, 129, 64, 64}};
  std::uint32_t seed = 4000;
  for (auto& s : shapes) {
    for (bool causal : {false, true}) {
      if (causal && s[0] != s[1]) continue;
      check_streaming_shape(s[0], s[1], s[2], s[3], causal, seed += 3);
    }
  }
}

TEST_CASE("streaming forward rejects bad input with a message", "[streaming][errors]") {
  const int n = 40, m = 70, d = 8, dv = 3;
  auto q = ref64::random_normal(n * d, 1), k = ref64::random_normal(m * d, 2), v = ref64::random_normal(m * dv, 3);
  std::vector<float> out(n * dv);
  attn::StreamingOptions opt;
  attn::Error err;
  using Forward = bool (*)(const float*, const float*, const float*, attn::AttentionShape,
                           const attn::StreamingOptions&, float*, attn::Error*);
  for (Forward forward : {attn::attention_streaming_forward, attn::attention_streaming_forward_ref}) {
    auto q_bad = q;
    q_bad[3 * d + 1] = NAN;
    REQUIRE_FALSE(forward(q_bad.data(), k.data(), v.data(), {n, m, d, dv}, opt, out.data(), &err));
    REQUIRE(err.status == attn::Status::non_finite_input);
    REQUIRE(std::string(err.message).find("q[3][1] is NaN") != std::string::npos);
    REQUIRE_FALSE(forward(q.data(), k.data(), v.data(), {n, m, d, 0}, opt, out.data(), &err));
    REQUIRE(err.status == attn::Status::invalid_shape);
    attn::StreamingOptions causal;
    causal.causal = true;
    REQUIRE_FALSE(forward(q.data(), k.data(), v.data(), {n, m, d, dv}, causal, out.data(), &err));
    REQUIRE(std::string(err.message).find("n == m") != std::string::npos);
    attn::StreamingOptions bad_scale;
    bad_scale.scale = -1.0f;
    REQUIRE_FALSE(forward(q.data(), k.data(), v.data(), {n, m, d, dv}, bad_scale, out.data(), &err));
    REQUIRE(err.status == attn::Status::invalid_argument);
    // q·k fits float32 (8 · 1e36 = 8e36) but scale·q·k does not; then q·k itself overflows
    auto q_big = q, k_big = k;
    for (int c = 0; c < d; ++c) q_big[std::size_t(37) * d + c] = k_big[std::size_t(65) * d + c] = 1e18f;
    attn::StreamingOptions big_scale;
    big_scale.scale = 1e3f;
    REQUIRE_FALSE(forward(q_big.data(), k_big.data(), v.data(), {n, m, d, dv}, big_scale, out.data(), &err));
    REQUIRE(err.status == attn::Status::overflow);
    INFO(err.message);
    REQUIRE(std::string(err.message).find("query 38, key 66") != std::string::npos);  // rows 37, 65 counted from 1
    for (int c = 0; c < d; ++c) q_big[std::size_t(37) * d + c] = k_big[std::size_t(65) * d + c] = 1e20f;
    REQUIRE_FALSE(forward(q_big.data(), k_big.data(), v.data(), {n, m, d, dv}, opt, out.data(), &err));
    REQUIRE(err.status == attn::Status::overflow);
    REQUIRE(std::string(err.message).find("query 38, key 66") != std::string::npos);  // rows 37, 65 counted from 1
  }
}

TEST_CASE("scores_row matches scores_row_ref, hides keys and reports overflow", "[kernels][scores]") {
  for (int m : {1, 3, 4, 5, 8, 13, 16, 33}) {
    for (int visible : {1, m / 2 + 1, m}) {
      for (bool masked : {false, true}) {
        auto dots = ref64::random_normal(m, 70 + m);
        auto mask = ref64::random_normal(m, 90 + m);
        for (int j = 1; j < m; j += 3) mask[j] = -INFINITY;
        std::vector<float> fast(m, NAN), slow(m, NAN);
        const float* mask_row = masked ? mask.data() : nullptr;
        INFO("m=" << m << " visible=" << visible << " masked=" << masked);
        REQUIRE(attn::scores_row(dots.data(), mask_row, m, visible, 0.3f, fast.data()));
        REQUIRE(attn::scores_row_ref(dots.data(), mask_row, m, visible, 0.3f, slow.data()));
        for (int j = 0; j < m; ++j) {
          const bool hidden = j >= visible || (masked && mask[j] == -INFINITY);
          if (hidden) {
            REQUIRE(fast[j] == -INFINITY);
            REQUIRE(slow[j] == -INFINITY);
          } else {
            // one rounding each (fma may fuse on AVX2): 2 ε of the magnitude
            REQUIRE(std::fabs(fast[j] - slow[j]) <= 2 * FLT_EPSILON * (std::fabs(slow[j]) + std::fabs(mask[j]) + 1));
          }
        }
        // an overflow on a visible key is reported; the same value on a hidden key is not
        auto big = dots;
        big[visible - 1] = 3e38f;
        REQUIRE_FALSE(attn::scores_row(big.data(), nullptr, m, visible, 10.0f, fast.data()));
        REQUIRE_FALSE(attn::scores_row_ref(big.data(), nullptr, m, visible, 10.0f, slow.data()));
        if (visible < m) {
          big = dots;
          big[m - 1] = 3e38f;
          REQUIRE(attn::scores_row(big.data(), nullptr, m, visible, 10.0f, fast.data()));
          REQUIRE(attn::scores_row_ref(big.data(), nullptr, m, visible, 10.0f, slow.data()));
        }
      }
    }
  }
}

namespace {
// GELU (tanh form) in float64, from the formula.
double gelu64(double x) { return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }
// Both twins round u = √(2/π)(x + 0.044715x³) in float32 (a change of u by ε|u| moves the result
// by up to ~ε|x|), and the vector exp adds ~2 ulp to e = exp(−2|u|), which 1 + tanh u carries as
// an absolute error: within 8ε of |x| + |gelu(x)| (measured over the inputs below: at most
// 0.48ε for the kernel and 0.43ε for the reference, natively and in both WebAssembly builds).
constexpr double kGeluRelTol = 8 * FLT_EPSILON;
}  // namespace

TEST_CASE("gelu and gelu_ref match the float64 formula", "[kernels][gelu]") {
  std::vector<float> x;
  for (float v = -12.0f; v < 12.0f; v += 0.0037f) x.push_back(v);
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, 30.0f, -30.0f, 1e3f, -1e3f, 1e13f, -1e13f}) x.push_back(v);
  const std::size_t n = x.size();  // not a multiple of the lanes: the tail runs too
  std::vector<float> fast(n, NAN), slow(n, NAN);
  attn::gelu(x.data(), n, fast.data());
  attn::gelu_ref(x.data(), n, slow.data());
  for (std::size_t i = 0; i < n; ++i) {
    const double want = gelu64(x[i]), scale = std::fabs(double(x[i])) + std::fabs(want) + 1e-30;
    INFO("x=" << x[i] << " kernel " << fast[i] << " reference " << slow[i] << " float64 " << want);
    REQUIRE(std::isfinite(fast[i]));
    REQUIRE(std::fabs(fast[i] - want) <= kGeluRelTol * scale);
    REQUIRE(std::fabs(slow[i] - want) <= kGeluRelTol * scale);
  }
}
