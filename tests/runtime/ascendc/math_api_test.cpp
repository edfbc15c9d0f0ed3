// SPDX-License-Identifier: Apache-2.0
// The math, index and utils high-level APIs of the twin (lib/math, lib/index, lib/utils) and
// their host tiling functions (tiling/tiling_api.h): values against references computed here,
// the basic vector instructions each records (all on the vector pipe), passes over a small
// temporary buffer giving the same values, and the errors naming the API.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::RunResult;

constexpr std::uint32_t kBytes = 16384;  // each operand buffer
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

enum class Api : std::uint32_t {
  kCeil, kFloor, kTrunc, kRint, kRound, kFrac, kErf, kAcosh, kExp0, kExp10, kLog, kLog2, kLog10,
  kClampMin, kClampMax, kFmod, kPower, kPowerScalarExp, kPowerScalarBase, kXor, kAxpy, kArange,
  kCumSum, kCumSumLastAxis
};

struct Case {
  Api api = Api::kCeil;
  std::uint32_t count = 0;
  std::uint32_t tmp_bytes = 0;  // 0: the framework form (no sharedTmpBuffer)
  std::uint32_t inner = 0;      // CumSum: the row length
};

constexpr CumSumConfig kFirstAxis{false, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
constexpr CumSumConfig kLastAxis{true, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};

template <class T, class F>
void with_tmp(const Case& c, const LocalTensor<std::uint8_t>& tmp, F&& shared_form) {
  shared_form(c.tmp_bytes != 0 ? tmp : LocalTensor<std::uint8_t>());
}

/// The element-wise APIs of one source: the sharedTmpBuffer form or the framework form.
template <class T>
void unary(const Case& c, const LocalTensor<T>& y, const LocalTensor<T>& x,
           const LocalTensor<std::uint8_t>& tmp) {
  const bool s = c.tmp_bytes != 0;
  const std::uint32_t n = c.count;
#define NPUSIM_CALL(F) (s ? F<T, false>(y, x, tmp, n) : F<T, false>(y, x, n))
  switch (c.api) {
    case Api::kCeil: NPUSIM_CALL(Ceil); break;
    case Api::kFloor: NPUSIM_CALL(Floor); break;
    case Api::kTrunc: NPUSIM_CALL(Trunc); break;
    case Api::kRint: NPUSIM_CALL(Rint); break;
    case Api::kRound: NPUSIM_CALL(Round); break;
    case Api::kFrac: NPUSIM_CALL(Frac); break;
    case Api::kErf: NPUSIM_CALL(Erf); break;
    case Api::kAcosh: NPUSIM_CALL(Acosh); break;
    case Api::kLog: NPUSIM_CALL(Log); break;
    case Api::kLog2: NPUSIM_CALL(Log2); break;
    case Api::kLog10: NPUSIM_CALL(Log10); break;
    case Api::kExp0: s ? Exp<T, 0, false>(y, x, tmp, n) : Exp<T, 0, false>(y, x, n); break;
    case Api::kExp10: s ? Exp<T, 10, false>(y, x, tmp, n) : Exp<T, 10, false>(y, x, n); break;
    case Api::kClampMin: ClampMin<T, false>(y, x, tmp, T(0.5f), n); break;
    case Api::kClampMax: ClampMax<T, false>(y, x, T(0.5f), n); break;
    default: break;
  }
#undef NPUSIM_CALL
}

template <class T>
void binary(const Case& c, const LocalTensor<T>& y, const LocalTensor<T>& a,
            const LocalTensor<T>& b, const LocalTensor<std::uint8_t>& tmp) {
  const std::uint32_t n = c.count;
  const bool s = c.tmp_bytes != 0;
  switch (c.api) {
    case Api::kFmod: s ? Fmod<T>(y, a, b, tmp, n) : Fmod<T>(y, a, b, n); break;
    case Api::kPower: s ? Power<T>(y, a, b, tmp, n) : Power<T>(y, a, b, n); break;
    case Api::kPowerScalarExp: Power<T>(y, a, T(3.0f), tmp, n); break;
    case Api::kPowerScalarBase: Power<T>(y, T(-2.0f), b, tmp, n); break;
    case Api::kCumSum:
      CumSum<T, kFirstAxis>(y, b, a, tmp, {n / c.inner, c.inner});
      break;
    case Api::kCumSumLastAxis:
      CumSum<T, kLastAxis>(y, b, a, tmp, {n / c.inner, c.inner});
      break;
    default: unary<T>(c, y, a, tmp); break;
  }
}

// a, b <- in0, in1; the API; out <- y (and b after it: CumSum's last row). Copies are memcpy:
// the trace holds the API only.
template <class T>
void math_kernel(GM_ADDR in0, GM_ADDR in1, GM_ADDR out, GM_ADDR out1, Case c) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> ta, tb, ty, tt;
  pipe.InitBuffer(ta, kBytes);
  pipe.InitBuffer(tb, kBytes);
  pipe.InitBuffer(ty, kBytes);
  if (c.tmp_bytes != 0) pipe.InitBuffer(tt, c.tmp_bytes);
  LocalTensor<T> a = ta.Get<T>(), b = tb.Get<T>(), y = ty.Get<T>();
  std::memcpy(a.twin_data(), in0, c.count * sizeof(T));
  std::memcpy(b.twin_data(), in1, c.count * sizeof(T));
  binary<T>(c, y, a, b, c.tmp_bytes != 0 ? tt.Get<std::uint8_t>() : LocalTensor<std::uint8_t>());
  std::memcpy(out, y.twin_data(), c.count * sizeof(T));
  std::memcpy(out1, b.twin_data(), c.count * sizeof(T));
}

struct Outcome {
  RunResult run;
  std::vector<float> y;
  std::vector<float> y1;
};

Outcome run_float(const Case& c, std::vector<float> a, std::vector<float> b = {}) {
  a.resize(c.count);
  b.resize(c.count);
  std::vector<float> y(c.count, -7.0f), y1(c.count);
  RunResult r = npusim::ascendc::run_blocks(
      &math_kernel<float>, 1, reinterpret_cast<GM_ADDR>(a.data()),
      reinterpret_cast<GM_ADDR>(b.data()), reinterpret_cast<GM_ADDR>(y.data()),
      reinterpret_cast<GM_ADDR>(y1.data()), c);
  return {std::move(r), std::move(y), std::move(y1)};
}

Outcome run_half(const Case& c, const std::vector<float>& af, const std::vector<float>& bf = {}) {
  std::vector<half> a(c.count), b(c.count), y(c.count), y1(c.count);
  for (std::uint32_t i = 0; i < c.count; ++i) {
    a[i] = half(i < af.size() ? af[i] : 0.0f);
    b[i] = half(i < bf.size() ? bf[i] : 0.0f);
  }
  RunResult r = npusim::ascendc::run_blocks(
      &math_kernel<half>, 1, reinterpret_cast<GM_ADDR>(a.data()),
      reinterpret_cast<GM_ADDR>(b.data()), reinterpret_cast<GM_ADDR>(y.data()),
      reinterpret_cast<GM_ADDR>(y1.data()), c);
  Outcome o{std::move(r), std::vector<float>(c.count), std::vector<float>(c.count)};
  for (std::uint32_t i = 0; i < c.count; ++i) {
    o.y[i] = static_cast<float>(y[i]);
    o.y1[i] = static_cast<float>(y1[i]);
  }
  return o;
}

std::vector<Op> ops_of(const RunResult& r) {
  std::vector<Op> ops;
  for (const auto& in : r.blocks.at(0).trace.instrs) {
    if (in.pipe == Pipe::kScalar) continue;
    EXPECT_EQ(in.pipe, Pipe::kVector);
    ops.push_back(in.op);
  }
  return ops;
}

/// Elements processed by all vector instructions (the V pipe's work).
std::uint64_t vector_elements(const RunResult& r) {
  std::uint64_t n = 0;
  for (const auto& in : r.blocks.at(0).trace.instrs) {
    if (in.pipe == Pipe::kVector) n += in.count;
  }
  return n;
}

std::vector<float> wave(std::uint32_t n, float scale, float offset = 0.0f) {
  std::vector<float> x(n);
  for (std::uint32_t i = 0; i < n; ++i)
    x[i] = offset + scale * std::sin(0.37f * static_cast<float>(i) + 0.1f);
  return x;
}

// Elements that stress rounding: ties, negatives, beyond int32, infinities, NaN.
const std::vector<float> kRoundingInputs = {
    0.5f,  1.5f,  2.5f,  -0.5f, -1.5f, -2.5f, 2.3f,  -2.3f,  2.7f, -2.7f, 0.0f, -0.0f,
    7.0f,  -7.0f, 1e9f,  -1e9f, 3e38f, -3e38f, kInf, -kInf,  kNaN, 8388607.5f, 0.49999997f,
    -1e-3f, 123456.78f, -98765.43f, 4194303.5f, -4194303.5f, 1e-40f, 65504.0f, 33.5f, -33.5f};

template <class F>
void expect_same_floats(const std::vector<float>& y, const std::vector<float>& x, F ref) {
  for (std::size_t i = 0; i < y.size(); ++i) {
    const float want = ref(x[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(y[i])) << "element " << i << " x " << x[i];
    } else {
      EXPECT_EQ(y[i], want) << "element " << i << " x " << x[i];
    }
  }
}

TEST(MathApi, RoundingApisMatchTheCLibraryInFiveVectorInstructions) {
  const auto n = static_cast<std::uint32_t>(kRoundingInputs.size());
  uint32_t max = 0, min = 0;
  GetCeilMaxMinTmpSize(TensorShape({n}), 4, false, max, min);
  const struct {
    Api api;
    float (*ref)(float);
  } cases[] = {{Api::kCeil, [](float v) { return std::ceil(v); }},
               {Api::kFloor, [](float v) { return std::floor(v); }},
               {Api::kTrunc, [](float v) { return std::trunc(v); }},
               {Api::kRint, [](float v) { return std::nearbyint(v); }},
               {Api::kRound, [](float v) { return std::round(v); }}};
  for (const auto& k : cases) {
    const Outcome o = run_float({k.api, n, max}, kRoundingInputs);
    ASSERT_TRUE(o.run.ok()) << o.run.first_error();
    expect_same_floats(o.y, kRoundingInputs, k.ref);
    EXPECT_EQ(ops_of(o.run),
              (std::vector<Op>{Op::kCast, Op::kCast, Op::kAbs, Op::kMax, Op::kCopy}));
  }
  const Outcome frac = run_float({Api::kFrac, n, 0}, kRoundingInputs);
  ASSERT_TRUE(frac.run.ok()) << frac.run.first_error();
  expect_same_floats(frac.y, kRoundingInputs, [](float v) { return v - std::trunc(v); });
  EXPECT_EQ(ops_of(frac.run).size(), 6u);
}

TEST(MathApi, HalfRoundingAndErfGoThroughFloat) {
  const std::vector<float> x = {0.5f, 1.5f, -2.5f, 3.25f, -3.75f, 100.5f, 1000.0f, -0.25f};
  const auto n = static_cast<std::uint32_t>(x.size());
  uint32_t max = 0, min = 0;
  GetRintMaxMinTmpSize(TensorShape({n}), 2, false, max, min);
  EXPECT_EQ(max, 128u);  // 16 bytes per element
  const Outcome o = run_half({Api::kRint, n, max}, x);
  ASSERT_TRUE(o.run.ok()) << o.run.first_error();
  expect_same_floats(o.y, x, [](float v) { return std::nearbyint(v); });
  EXPECT_EQ(ops_of(o.run).size(), 7u);  // Cast in, the 5, Cast out
  const Outcome e = run_half({Api::kErf, n, 0}, x);
  ASSERT_TRUE(e.run.ok()) << e.run.first_error();
  for (std::uint32_t i = 0; i < n; ++i) EXPECT_NEAR(e.y[i], std::erf(x[i]), 1e-3) << i;
}

TEST(MathApi, ErfIsWithinItsApproximationErrorAndCostsGrowWithTheCount) {
  std::vector<float> x = wave(1000, 4.0f);
  x[0] = 0.0f;
  x[1] = 1e-35f;
  x[2] = -3e38f;
  x[3] = 1e20f;
  x[4] = kNaN;
  const Outcome o = run_float({Api::kErf, 1000, 0}, x);
  ASSERT_TRUE(o.run.ok()) << o.run.first_error();
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_NEAR(o.y[i], std::erf(x[i]), 1e-6) << i;
  EXPECT_TRUE(std::isnan(o.y[4]));
  for (std::uint32_t i = 5; i < 1000; ++i) EXPECT_NEAR(o.y[i], std::erf(x[i]), 1e-6) << i;
  EXPECT_EQ(ops_of(o.run).size(), 24u);
  EXPECT_EQ(vector_elements(o.run), 24u * 1000);
  const Outcome small = run_float({Api::kErf, 500, 0}, x);
  EXPECT_EQ(vector_elements(small.run), 24u * 500);
}

TEST(MathApi, TheMinimumTemporarySpaceGivesTheSameValuesInMorePasses) {
  const std::uint32_t n = 1000;
  const std::vector<float> x = wave(n, 6.0f, 1.0f);
  uint32_t max = 0, min = 0;
  GetErfMaxMinTmpSize(TensorShape({n}), 4, false, max, min);
  EXPECT_EQ(max, 12000u);
  EXPECT_EQ(min, 768u);
  const Outcome whole = run_float({Api::kErf, n, max}, x);
  const Outcome least = run_float({Api::kErf, n, min}, x);
  ASSERT_TRUE(least.run.ok()) << least.run.first_error();
  EXPECT_EQ(least.y, whole.y);
  EXPECT_EQ(ops_of(whole.run).size(), 24u);
  EXPECT_EQ(ops_of(least.run).size(), 24u * 16);  // 64-element passes: 15 full, 1 of 40
  EXPECT_EQ(vector_elements(least.run), vector_elements(whole.run));
}

TEST(MathApi, TooLittleTemporarySpaceFailsNamingTheApi) {
  const Outcome o = run_float({Api::kFmod, 1000, 512}, wave(1000, 3.0f), wave(1000, 1.0f, 2.0f));
  ASSERT_FALSE(o.run.ok());
  EXPECT_NE(o.run.first_error().find("Fmod: sharedTmpBuffer of 512 bytes is below the minimum of "
                                     "1024 bytes for 1000 elements (GetFmodMaxMinTmpSize)"),
            std::string::npos)
      << o.run.first_error();
  const Outcome cumsum = run_float({Api::kCumSumLastAxis, 64, 256, 8}, wave(64, 1.0f));
  ASSERT_FALSE(cumsum.run.ok());
  EXPECT_NE(cumsum.run.first_error().find("CumSum: sharedTmpBuffer of 256 bytes is below the "
                                          "1280 bytes it needs (GetCumSumMaxMinTmpSize)"),
            std::string::npos)
      << cumsum.run.first_error();
}

TEST(MathApi, AcoshLogAndExp) {
  std::vector<float> x = wave(256, 400.0f, 401.0f);  // 1 .. 801
  x[0] = 1.0f;
  x[1] = 1.0001f;
  x[2] = 1e30f;
  x[3] = 0.5f;
  x[4] = -3.0f;
  const Outcome a = run_float({Api::kAcosh, 256, 0}, x);
  ASSERT_TRUE(a.run.ok()) << a.run.first_error();
  EXPECT_TRUE(std::isnan(a.y[3]));
  EXPECT_TRUE(std::isnan(a.y[4]));
  for (std::uint32_t i = 0; i < 256; ++i) {
    if (i == 3 || i == 4) continue;
    const double ref = std::acosh(static_cast<double>(x[i]));
    EXPECT_NEAR(a.y[i], ref, 1e-5 * (1 + ref)) << i;
  }
  EXPECT_EQ(ops_of(a.run).size(), 11u);
  const Api logs[] = {Api::kLog, Api::kLog2, Api::kLog10};
  const double scale[] = {1.0, 1 / std::log(2.0), 1 / std::log(10.0)};
  for (int k = 0; k < 3; ++k) {
    const Outcome l = run_float({logs[k], 256, 0}, x);
    ASSERT_TRUE(l.run.ok()) << l.run.first_error();
    for (std::uint32_t i = 0; i < 256; ++i) {
      if (i == 4) continue;
      const double ref = std::log(static_cast<double>(x[i])) * scale[k];
      EXPECT_NEAR(l.y[i], ref, 1e-6 * (1 + std::fabs(ref))) << i;
    }
    EXPECT_EQ(ops_of(l.run).size(), k == 0 ? 1u : 2u);
  }
  std::vector<float> e = wave(512, 10.0f);
  e[0] = kInf;
  e[1] = -kInf;
  uint32_t max = 0, min = 0;
  GetExpMaxMinTmpSize(TensorShape({512}), 4, false, max, min);
  const Outcome t = run_float({Api::kExp10, 512, min}, e);
  ASSERT_TRUE(t.run.ok()) << t.run.first_error();
  EXPECT_EQ(t.y[0], kInf);
  EXPECT_EQ(t.y[1], 0.0f);
  for (std::uint32_t i = 2; i < 512; ++i) {
    const double ref = std::exp(static_cast<double>(e[i]));
    EXPECT_NEAR(t.y[i], ref, 2e-6 * ref) << i;
  }
  EXPECT_EQ(ops_of(t.run).size(), 8u * (5 + 2 + 1 + 2 + 3 * 9 + 1));  // 8 passes of 64
  const Outcome plain = run_float({Api::kExp0, 512, 0}, e);
  EXPECT_EQ(ops_of(plain.run), (std::vector<Op>{Op::kExp}));
}

TEST(MathApi, ClampFmodAndXor) {
  const std::vector<float> x = wave(300, 2.0f);
  const Outcome lo = run_float({Api::kClampMin, 300, 64}, x);
  const Outcome hi = run_float({Api::kClampMax, 300, 0}, x);
  ASSERT_TRUE(lo.run.ok() && hi.run.ok());
  for (std::uint32_t i = 0; i < 300; ++i) {
    EXPECT_EQ(lo.y[i], std::max(x[i], 0.5f));
    EXPECT_EQ(hi.y[i], std::min(x[i], 0.5f));
  }
  EXPECT_EQ(ops_of(lo.run), (std::vector<Op>{Op::kMax}));
  EXPECT_EQ(ops_of(hi.run), (std::vector<Op>{Op::kMin}));

  std::vector<float> a = wave(300, 50.0f), b = wave(300, 1.0f, 1.5f);
  a[0] = 2.0f, b[0] = 1.5f;
  a[1] = -3.0f, b[1] = 1.1f;
  a[2] = 0.0f, b[2] = -0.7f;
  b[3] = 0.0f;
  const Outcome f = run_float({Api::kFmod, 300, 0}, a, b);
  ASSERT_TRUE(f.run.ok()) << f.run.first_error();
  EXPECT_TRUE(std::isnan(f.y[3]));
  for (std::uint32_t i = 0; i < 300; ++i) {
    if (i == 3) continue;
    EXPECT_NEAR(f.y[i], std::fmod(a[i], b[i]), 2e-5 * (1 + std::fabs(a[i]))) << i;
  }
  EXPECT_EQ(ops_of(f.run).size(), 8u);  // Div, the 5 of Trunc, Mul, Sub

  std::vector<std::int16_t> p(200), q(200), r(200);
  for (int i = 0; i < 200; ++i) {
    p[i] = static_cast<std::int16_t>(i * 331 - 30000);
    q[i] = static_cast<std::int16_t>(12345 - i * 97);
  }
  // int16 through the half kernel's 2-byte buffers: the bits are what matter.
  auto xor_kernel = [](GM_ADDR in0, GM_ADDR in1, GM_ADDR out, std::uint32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ta, tb, ty;
    pipe.InitBuffer(ta, kBytes);
    pipe.InitBuffer(tb, kBytes);
    pipe.InitBuffer(ty, kBytes);
    LocalTensor<std::int16_t> x0 = ta.Get<std::int16_t>(), x1 = tb.Get<std::int16_t>(),
                              y = ty.Get<std::int16_t>();
    std::memcpy(x0.twin_data(), in0, n * 2);
    std::memcpy(x1.twin_data(), in1, n * 2);
    Xor<std::int16_t, false>(y, x0, x1, n);
    std::memcpy(out, y.twin_data(), n * 2);
  };
  void (*k)(GM_ADDR, GM_ADDR, GM_ADDR, std::uint32_t) = xor_kernel;
  const RunResult xr = npusim::ascendc::run_blocks(k, 1, reinterpret_cast<GM_ADDR>(p.data()),
                                                   reinterpret_cast<GM_ADDR>(q.data()),
                                                   reinterpret_cast<GM_ADDR>(r.data()), 200u);
  ASSERT_TRUE(xr.ok()) << xr.first_error();
  for (int i = 0; i < 200; ++i) EXPECT_EQ(r[i], static_cast<std::int16_t>(p[i] ^ q[i])) << i;
  EXPECT_EQ(ops_of(xr), (std::vector<Op>{Op::kMax, Op::kMin, Op::kSub}));  // Or, And, Sub
}

TEST(MathApi, PowerInItsThreeForms) {
  std::vector<float> b = wave(64, 5.0f), e = wave(64, 4.0f, 0.3f);
  b[0] = -2.0f, e[0] = 3.0f;   // odd integral: negative
  b[1] = -2.0f, e[1] = 4.0f;   // even integral: positive
  b[2] = -2.0f, e[2] = 0.5f;   // NaN
  b[3] = 0.0f, e[3] = 0.0f;    // 1
  b[4] = kNaN, e[4] = 0.0f;    // 1
  b[5] = 0.0f, e[5] = 2.0f;    // 0
  b[6] = 0.0f, e[6] = -1.0f;   // inf
  b[7] = -0.5f, e[7] = -3.0f;  // -8
  uint32_t max = 0, min = 0;
  GetPowerMaxMinTmpSize(TensorShape({64}), TensorShape({64}), false, 4, false, max, min);
  EXPECT_EQ(min, 64u * 36);
  auto check = [](const std::vector<float>& y, const std::vector<float>& bb,
                  const std::vector<float>& ee) {
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double ref = std::pow(static_cast<double>(bb[i]), static_cast<double>(ee[i]));
      if (std::isnan(ref)) {
        EXPECT_TRUE(std::isnan(y[i])) << i;
      } else if (std::isinf(ref)) {
        EXPECT_EQ(y[i], static_cast<float>(ref)) << i;
      } else {
        EXPECT_NEAR(y[i], ref, 1e-5 * (1 + std::fabs(ref))) << i << " " << bb[i] << "^" << ee[i];
      }
    }
  };
  const Outcome tt = run_float({Api::kPower, 64, min}, b, e);
  ASSERT_TRUE(tt.run.ok()) << tt.run.first_error();
  check(tt.y, b, e);
  EXPECT_EQ(ops_of(tt.run).size(), 22u);
  const Outcome ts = run_float({Api::kPowerScalarExp, 64, min}, b, e);
  ASSERT_TRUE(ts.run.ok()) << ts.run.first_error();
  check(ts.y, b, std::vector<float>(64, 3.0f));
  EXPECT_EQ(ops_of(ts.run).size(), 23u);  // and a Duplicate of the exponent
  const Outcome st = run_float({Api::kPowerScalarBase, 64, min}, b, e);
  ASSERT_TRUE(st.run.ok()) << st.run.first_error();
  check(st.y, std::vector<float>(64, -2.0f), e);
  const Outcome framework = run_float({Api::kPower, 64, 0}, b, e);
  EXPECT_EQ(std::memcmp(framework.y.data(), tt.y.data(), 64 * sizeof(float)), 0);  // NaN too
}

TEST(MathApi, AxpyWidensHalfIntoFloat) {
  auto axpy_kernel = [](GM_ADDR in, GM_ADDR out, std::uint32_t n, std::uint32_t tmp_bytes) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> tx, ty, tt;
    pipe.InitBuffer(tx, kBytes);
    pipe.InitBuffer(ty, kBytes);
    pipe.InitBuffer(tt, tmp_bytes);
    LocalTensor<half> x = tx.Get<half>();
    LocalTensor<float> y = ty.Get<float>();
    std::memcpy(x.twin_data(), in, n * sizeof(half));
    Duplicate(y, 1.0f, static_cast<std::int32_t>(n));
    Axpy<float, half>(y, x, half(2.5f), tt.Get<std::uint8_t>(), n);
    std::memcpy(out, y.twin_data(), n * sizeof(float));
  };
  const std::uint32_t n = 512;
  std::vector<half> x(n);
  for (std::uint32_t i = 0; i < n; ++i) x[i] = half(0.01f * static_cast<float>(i) - 2.0f);
  std::vector<float> y(n);
  uint32_t max = 0, min = 0;
  GetAxpyMaxMinTmpSize(TensorShape({n}), 2, false, max, min);
  EXPECT_EQ(min, 256u);
  void (*k)(GM_ADDR, GM_ADDR, std::uint32_t, std::uint32_t) = axpy_kernel;
  const RunResult r = npusim::ascendc::run_blocks(k, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                                  reinterpret_cast<GM_ADDR>(y.data()), n, min);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t i = 0; i < n; ++i)
    EXPECT_FLOAT_EQ(y[i], 1.0f + static_cast<float>(x[i]) * 2.5f) << i;
  EXPECT_EQ(ops_of(r).size(), 1u + 3u * 8);  // Duplicate; 8 passes of Cast, Muls, Add
}

TEST(MathApi, CumSumAlongEitherAxisWithTheLastRowOrColumn) {
  const std::uint32_t rows = 6, inner = 16, n = rows * inner;
  const std::vector<float> x = wave(n, 3.0f);
  std::vector<float> ref(x);
  for (std::uint32_t i = inner; i < n; ++i) ref[i] += ref[i - inner];
  const Outcome f = run_float({Api::kCumSum, n, 0, inner}, x);
  ASSERT_TRUE(f.run.ok()) << f.run.first_error();
  EXPECT_EQ(f.y, ref);
  for (std::uint32_t j = 0; j < inner; ++j) EXPECT_EQ(f.y1[j], ref[(rows - 1) * inner + j]);
  EXPECT_EQ(ops_of(f.run).size(), 1u + (rows - 1) + 1u);
  uint32_t max = 0, min = 0;
  GetCumSumMaxMinTmpSize(TensorShape({rows, inner}), 2, false, false, max, min);
  EXPECT_EQ(min, 8u * inner);
  EXPECT_EQ(max, min);
  GetCumSumMaxMinTmpSize(TensorShape({rows, inner}), 4, true, false, max, min);
  EXPECT_EQ(min, 20u * n);
  const Outcome last = run_float({Api::kCumSumLastAxis, n, min, inner}, x);
  ASSERT_TRUE(last.run.ok()) << last.run.first_error();
  for (std::uint32_t r = 0; r < rows; ++r) {
    float sum = 0;
    for (std::uint32_t j = 0; j < inner; ++j) {
      sum += x[r * inner + j];
      EXPECT_EQ(last.y[r * inner + j], sum) << r << "," << j;
    }
    EXPECT_EQ(last.y1[r], sum) << r;
  }
  // Offsets (8), Gather, the first-axis sums of the transpose (1 + inner - 1), offsets (8),
  // Gather, the last column.
  EXPECT_EQ(ops_of(last.run).size(), 8u + 1 + inner + 8 + 1 + 1);
  GetCumSumMaxMinTmpSize(TensorShape({rows, inner}), 2, false, false, max, min);
  const Outcome h = run_half({Api::kCumSum, n, min, inner}, x);
  ASSERT_TRUE(h.run.ok()) << h.run.first_error();
  for (std::uint32_t i = 0; i < n; ++i) EXPECT_NEAR(h.y[i], ref[i], 2e-2) << i;
  EXPECT_EQ(ops_of(h.run).size(), 2u + 3 * (rows - 1) + 1u);
}

TEST(MathApi, ArangeIsFirstPlusIndexTimesDiff) {
  auto arange_kernel = [](GM_ADDR out, std::uint32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ty, tz;
    pipe.InitBuffer(ty, kBytes);
    pipe.InitBuffer(tz, kBytes);
    LocalTensor<float> y = ty.Get<float>();
    LocalTensor<std::int32_t> z = tz.Get<std::int32_t>();
    Arange<float>(y, 1.234f, 5.678f, static_cast<std::int32_t>(n));
    Arange<std::int32_t>(z, -5, 3, static_cast<std::int32_t>(n));
    std::memcpy(out, y.twin_data(), n * sizeof(float));
    std::memcpy(out + n * sizeof(float), z.twin_data(), n * sizeof(std::int32_t));
  };
  const std::uint32_t n = 104;
  std::vector<std::uint8_t> out(n * 8);
  void (*k)(GM_ADDR, std::uint32_t) = arange_kernel;
  const RunResult r = npusim::ascendc::run_blocks(k, 1, out.data(), n);
  ASSERT_TRUE(r.ok()) << r.first_error();
  std::vector<float> y(n);
  std::vector<std::int32_t> z(n);
  std::memcpy(y.data(), out.data(), n * 4);
  std::memcpy(z.data(), out.data() + n * 4, n * 4);
  for (std::uint32_t i = 0; i < n; ++i) {
    EXPECT_NEAR(y[i], 1.234 + 5.678 * i, 1e-6 * (1.234 + 5.678 * i)) << i;
    EXPECT_EQ(z[i], -5 + 3 * static_cast<std::int32_t>(i)) << i;
  }
  EXPECT_EQ(ops_of(r), (std::vector<Op>{Op::kDuplicate, Op::kMuls, Op::kAdds, Op::kDuplicate,
                                        Op::kMuls, Op::kAdds}));
  uint32_t max = 1, min = 1;
  GetArangeMaxMinTmpSize(max, min);
  EXPECT_EQ(max + min, 0u);
}

// The older DataCopyPad form the math examples use (npusim/ascendc/data_copy_pad_params.h).
TEST(MathApi, DataCopyPadWithDataCopyPadParamsPadsEachRow) {
  auto copy_kernel = [](GM_ADDR in, GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 256);
    LocalTensor<float> x = tb.Get<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), 20);
    Duplicate(x, -1.0f, 64);
    // Two rows of 10 floats, 5 floats apart in GM: each lands in 16 floats of UB (10 + 2 left
    // padding, rounded up to 32 bytes).
    DataCopyPad(x, g, DataCopyParams(2, 10 * sizeof(float), 5 * sizeof(float), 0),
                DataCopyPadParams(true, 2, 0, 0));
    std::memcpy(out, x.twin_data(), 32 * sizeof(float));
  };
  std::vector<float> in(25), out(32);
  for (int i = 0; i < 25; ++i) in[i] = static_cast<float>(i + 1);
  void (*k)(GM_ADDR, GM_ADDR) = copy_kernel;
  const RunResult r = npusim::ascendc::run_blocks(k, 1, reinterpret_cast<GM_ADDR>(in.data()),
                                                  reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int row = 0; row < 2; ++row) {
    EXPECT_EQ(out[row * 16], 0.0f);
    EXPECT_EQ(out[row * 16 + 1], 0.0f);
    for (int j = 0; j < 10; ++j) EXPECT_EQ(out[row * 16 + 2 + j], in[row * 15 + j]) << row << j;
  }
  int mte2 = 0;
  for (const auto& ins : r.blocks.at(0).trace.instrs) mte2 += ins.pipe == Pipe::kMte2;
  EXPECT_EQ(mte2, 1);
}

TEST(MathApi, StdTypeTraitsAreTheStandardOnes) {
  static_assert(Std::is_void<const void>::value && !Std::is_void<void*>::value);
  static_assert(Std::is_integral<bool>::value && !Std::is_integral<int&>::value);
  static_assert(Std::is_floating_point<const double>::value && !Std::is_floating_point<int>::value);
  static_assert(Std::is_array<int[]>::value && !Std::is_array<int*>::value);
  static_assert(Std::is_pointer<void (*)(int)>::value && !Std::is_pointer<int[5]>::value);
  static_assert(Std::is_reference<int&&>::value && !Std::is_const<const int&>::value);
  static_assert(Std::is_same_v<Std::remove_cv_t<const volatile int>, int>);
  static_assert(Std::is_same_v<Std::add_pointer<int&>::type, int*>);
  static_assert(Std::is_same_v<Std::add_lvalue_reference_t<void>, void>);
  static_assert(Std::is_same_v<Std::add_rvalue_reference_t<int&>, int&>);
  static_assert(Std::is_same_v<Std::remove_pointer_t<int* const volatile>, int>);
  SUCCEED();
}

TEST(MathApi, TilingFunctionsReportTheSpaceTheKernelsUse) {
  uint32_t max = 0, min = 0;
  GetAcoshMaxMinTmpSize(TensorShape({16}), 4, false, max, min);
  EXPECT_EQ(max, 128u);
  EXPECT_EQ(min, 128u);
  GetFracMaxMinTmpSize(TensorShape({4096}), 4, false, max, min);
  EXPECT_EQ(max, 4096u * 16);
  EXPECT_EQ(min, 1024u);
  GetLogMaxMinTmpSize(TensorShape({100}), 4, false, max, min);
  EXPECT_EQ(max + min, 0u);
  GetLog2MaxMinTmpSize(TensorShape({100}), 2, false, max, min);
  EXPECT_EQ(max, 416u);
  GetClampMaxMinTmpSize(TensorShape({256}), 4, false, max, min);
  EXPECT_EQ(max + min, 0u);
  GetXorMaxMinTmpSize(TensorShape({1024}), 2, false, max, min);
  EXPECT_EQ(max, 2048u);
  EXPECT_EQ(min, 128u);
  GetExpMaxMinTmpSize(TensorShape({8192}), 4, false, max, min);
  EXPECT_EQ(min, 64u * 20);
  GetFmodMaxMinTmpSize(TensorShape({159}), 2, false, max, min);
  EXPECT_EQ(max, (159u * 24 + 31) / 32 * 32);
}

}  // namespace
