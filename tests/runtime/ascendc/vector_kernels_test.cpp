// SPDX-License-Identifier: Apache-2.0
// Functional results of vector kernels on the twin: tiled double-buffered add (float exact,
// half correctly rounded) on 8 blocks, and the element-wise ops against independent references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "npusim/ascendc/block_runner.h"
#include "test_kernels.h"

namespace {

using npusim::ascendc::round_to_format;
using npusim::ascendc::Rounding;
using npusim::ascendc::run_blocks;

GM_ADDR gm(void* p) { return reinterpret_cast<GM_ADDR>(p); }

TEST(VectorAdd, FloatEightBlocksDoubleBufferedIsExact) {
  constexpr std::uint32_t kTotal = 8 * 2048;
  std::vector<float> a(kTotal), b(kTotal), c(kTotal, -1.0f);
  for (std::uint32_t i = 0; i < kTotal; ++i) {
    a[i] = 0.1f * static_cast<float>(i) - 3.0f;
    b[i] = 1.0f / static_cast<float>(i + 1);
  }
  auto r = run_blocks(&test_kernels::tiled_add<float, 2>, 8, gm(a.data()), gm(b.data()),
                      gm(c.data()), kTotal, 128u);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t i = 0; i < kTotal; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

TEST(VectorAdd, HalfEightBlocksIsCorrectlyRounded) {
  constexpr std::uint32_t kTotal = 8 * 2048;
  std::vector<half> a(kTotal), b(kTotal), c(kTotal);
  for (std::uint32_t i = 0; i < kTotal; ++i) {
    a[i] =
        half::from_bits(static_cast<std::uint16_t>((i * 7919u) % 0x7bffu));  // finite, mixed scales
    b[i] = half(1.0f + static_cast<float>(i % 100));
  }
  auto r = run_blocks(&test_kernels::tiled_add<half, 2>, 8, gm(a.data()), gm(b.data()),
                      gm(c.data()), kTotal, 128u);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t i = 0; i < kTotal; ++i) {
    const double exact = static_cast<double>(static_cast<float>(a[i])) + static_cast<float>(b[i]);
    ASSERT_EQ(c[i].bits(), round_to_format(exact, 10, 5, Rounding::kNearestEven)) << i;
  }
}

enum class VecOp { kSub, kMul, kDiv, kMax, kMin, kAdds, kMuls, kExp, kLn, kAbs, kRelu, kSqrt,
                   kDup };

// out = op(x, y) over n elements of one block, through UB buffers.
template <class T>
__global__ __aicore__ void vec_op_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out, int op,
                                         std::uint32_t n) {
  using namespace AscendC;
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz;
  pipe.InitBuffer(bx, n * sizeof(T));
  pipe.InitBuffer(by, n * sizeof(T));
  pipe.InitBuffer(bz, n * sizeof(T));
  GlobalTensor<T> gx, gy, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), n);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), n);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out), n);
  LocalTensor<T> tx = bx.Get<T>(), ty = by.Get<T>(), tz = bz.Get<T>();
  DataCopy(tx, gx, n);
  DataCopy(ty, gy, n);
  const auto c = static_cast<std::int32_t>(n);
  switch (static_cast<VecOp>(op)) {
    case VecOp::kSub: Sub(tz, tx, ty, c); break;
    case VecOp::kMul: Mul(tz, tx, ty, c); break;
    case VecOp::kDiv: Div(tz, tx, ty, c); break;
    case VecOp::kMax: Max(tz, tx, ty, c); break;
    case VecOp::kMin: Min(tz, tx, ty, c); break;
    case VecOp::kAdds: Adds(tz, tx, static_cast<T>(2.5f), c); break;
    case VecOp::kMuls: Muls(tz, tx, static_cast<T>(-0.5f), c); break;
    case VecOp::kExp: Exp(tz, tx, c); break;
    case VecOp::kLn: Ln(tz, ty, c); break;
    case VecOp::kAbs: Abs(tz, tx, c); break;
    case VecOp::kRelu: Relu(tz, tx, c); break;
    case VecOp::kSqrt: Sqrt(tz, ty, c); break;
    case VecOp::kDup: Duplicate(tz, static_cast<T>(7.25f), c); break;
  }
  DataCopy(gz, tz, n);
}

float reference(VecOp op, float x, float y) {
  switch (op) {
    case VecOp::kSub: return x - y;
    case VecOp::kMul: return x * y;
    case VecOp::kDiv: return x / y;
    case VecOp::kMax: return x > y ? x : y;
    case VecOp::kMin: return x < y ? x : y;
    case VecOp::kAdds: return x + 2.5f;
    case VecOp::kMuls: return x * -0.5f;
    case VecOp::kExp: return std::exp(x);
    case VecOp::kLn: return std::log(y);
    case VecOp::kAbs: return std::fabs(x);
    case VecOp::kRelu: return x > 0 ? x : 0.0f;
    case VecOp::kSqrt: return std::sqrt(y);
    case VecOp::kDup: return 7.25f;
  }
  return 0;
}

class VectorOps : public ::testing::TestWithParam<VecOp> {};

std::string op_name(const ::testing::TestParamInfo<VecOp>& info) {
  static const char* const kNames[] = {"Sub", "Mul", "Div", "Max",  "Min",  "Adds",     "Muls",
                                       "Exp", "Ln",  "Abs", "Relu", "Sqrt", "Duplicate"};
  return kNames[static_cast<int>(info.param)];
}

TEST_P(VectorOps, FloatMatchesReference) {
  constexpr std::uint32_t kN = 256;
  std::vector<float> x(kN), y(kN), z(kN);
  for (std::uint32_t i = 0; i < kN; ++i) {
    x[i] = std::sin(static_cast<float>(i)) * 4.0f;
    y[i] = 0.25f + static_cast<float>(i) / 16.0f;
  }
  auto r = run_blocks(&vec_op_kernel<float>, 1, gm(x.data()), gm(y.data()), gm(z.data()),
                      static_cast<int>(GetParam()), kN);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t i = 0; i < kN; ++i) ASSERT_EQ(z[i], reference(GetParam(), x[i], y[i])) << i;
}

TEST_P(VectorOps, HalfIsRoundedFloatResult) {
  constexpr std::uint32_t kN = 256;
  std::vector<half> x(kN), y(kN), z(kN);
  for (std::uint32_t i = 0; i < kN; ++i) {
    x[i] = half(std::sin(static_cast<float>(i)) * 4.0f);
    y[i] = half(0.25f + static_cast<float>(i) / 16.0f);
  }
  auto r = run_blocks(&vec_op_kernel<half>, 1, gm(x.data()), gm(y.data()), gm(z.data()),
                      static_cast<int>(GetParam()), kN);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t i = 0; i < kN; ++i) {
    const float expect = reference(GetParam(), static_cast<float>(x[i]), static_cast<float>(y[i]));
    ASSERT_EQ(z[i].bits(), round_to_format(expect, 10, 5, Rounding::kNearestEven)) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(All, VectorOps,
                         ::testing::Values(VecOp::kSub, VecOp::kMul, VecOp::kDiv, VecOp::kMax,
                                           VecOp::kMin, VecOp::kAdds, VecOp::kMuls, VecOp::kExp,
                                           VecOp::kLn, VecOp::kAbs, VecOp::kRelu, VecOp::kSqrt,
                                           VecOp::kDup),
                         op_name);

template <class D, class S>
__global__ __aicore__ void cast_kernel(GM_ADDR x, GM_ADDR out, int mode, std::uint32_t n) {
  using namespace AscendC;
  TPipe pipe;
  TBuf<> bs, bd;
  pipe.InitBuffer(bs, n * sizeof(S));
  pipe.InitBuffer(bd, n * sizeof(D));
  GlobalTensor<S> gs;
  GlobalTensor<D> gd;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(x), n);
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ D*>(out), n);
  LocalTensor<S> ts = bs.Get<S>();
  LocalTensor<D> td = bd.Get<D>();
  DataCopy(ts, gs, n);
  Cast(td, ts, static_cast<RoundMode>(mode), n);
  DataCopy(gd, td, n);
}

TEST(Cast, FloatToHalfHonoursRoundMode) {
  const std::vector<float> base = {1.0f + std::ldexp(1.0f, -11),
                                   -(1.0f + std::ldexp(1.0f, -11)),
                                   1.0f + 3 * std::ldexp(1.0f, -12),
                                   70000.0f,
                                   -70000.0f,
                                   std::ldexp(1.0f, -25),
                                   0.3f,
                                   -2.7f};
  std::vector<float> x(16);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = base[i % base.size()];
  const std::pair<AscendC::RoundMode, Rounding> modes[] = {
      {AscendC::RoundMode::CAST_RINT, Rounding::kNearestEven},
      {AscendC::RoundMode::CAST_FLOOR, Rounding::kFloor},
      {AscendC::RoundMode::CAST_CEIL, Rounding::kCeil},
      {AscendC::RoundMode::CAST_ROUND, Rounding::kNearestAway},
      {AscendC::RoundMode::CAST_TRUNC, Rounding::kTrunc},
      {AscendC::RoundMode::CAST_ODD, Rounding::kOdd}};
  for (const auto& [mode, rounding] : modes) {
    std::vector<half> z(x.size());
    auto r = run_blocks(&cast_kernel<half, float>, 1, gm(x.data()), gm(z.data()),
                        static_cast<int>(mode), static_cast<std::uint32_t>(x.size()));
    ASSERT_TRUE(r.ok()) << r.first_error();
    for (std::size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(z[i].bits(), round_to_format(x[i], 10, 5, rounding))
          << "mode " << static_cast<int>(mode) << " i " << i;
    }
  }
}

TEST(Cast, FloatToInt32RoundsAndSaturates) {
  std::vector<float> x = {2.5f, -2.5f, 3.5f, -0.4f, 1e10f, -1e10f, 7.9f, -7.9f};
  std::vector<std::int32_t> z(x.size());
  auto run = [&](AscendC::RoundMode mode) {
    auto r = run_blocks(&cast_kernel<std::int32_t, float>, 1, gm(x.data()), gm(z.data()),
                        static_cast<int>(mode), static_cast<std::uint32_t>(x.size()));
    EXPECT_TRUE(r.ok()) << r.first_error();
    return z;
  };
  EXPECT_EQ(run(AscendC::RoundMode::CAST_RINT),
            (std::vector<std::int32_t>{2, -2, 4, 0, 2147483647, -2147483647 - 1, 8, -8}));
  EXPECT_EQ(run(AscendC::RoundMode::CAST_ROUND),
            (std::vector<std::int32_t>{3, -3, 4, 0, 2147483647, -2147483647 - 1, 8, -8}));
  EXPECT_EQ(run(AscendC::RoundMode::CAST_FLOOR),
            (std::vector<std::int32_t>{2, -3, 3, -1, 2147483647, -2147483647 - 1, 7, -8}));
  EXPECT_EQ(run(AscendC::RoundMode::CAST_TRUNC),
            (std::vector<std::int32_t>{2, -2, 3, 0, 2147483647, -2147483647 - 1, 7, -7}));
}

TEST(Cast, HalfToFloatIsExact) {
  std::vector<half> x(64);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = half::from_bits(static_cast<std::uint16_t>(i * 1021u));
  std::vector<float> z(x.size());
  auto r = run_blocks(&cast_kernel<float, half>, 1, gm(x.data()), gm(z.data()),
                      static_cast<int>(AscendC::RoundMode::CAST_NONE),
                      static_cast<std::uint32_t>(x.size()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(z[i])) {
      EXPECT_TRUE(std::isnan(static_cast<float>(x[i])));
    } else {
      EXPECT_EQ(z[i], static_cast<float>(x[i]));
    }
  }
}

}  // namespace
