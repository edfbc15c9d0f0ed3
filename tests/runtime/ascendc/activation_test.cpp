// SPDX-License-Identifier: Apache-2.0
// The activation high-level APIs of the twin (lib/activation: Gelu, GeGLU, Sigmoid, Silu, Swish) and
// their host tiling functions (tiling/tiling_api.h): values against the formulas, the basic
// vector instructions each pass records (all on the vector pipe), passes over a small
// temporary buffer giving the same values, and the errors naming the API when the temporary
// space is too small.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
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

constexpr std::uint32_t kBytes = 16384;  // the input and the output buffer

enum class Api : std::uint32_t { kGelu, kGeGLU, kSigmoid, kSilu, kSwish };

// GeGLU's first source (the gate's other half): 0.5, 0.75, ... 2.0, repeating.
double gate(std::uint32_t i) { return 0.5 + 0.25 * (i % 7); }

struct Case {
  Api api = Api::kGelu;
  std::uint32_t count = 0;
  std::uint32_t tmp_bytes = 0;  // 0: the framework form (no sharedTmpBuffer)
  bool in_place = false;        // dst is src
  std::uint32_t hog = 0;        // bytes of UB a further TBuf takes before the call
};

template <class T>
void apply(const Case& c, const LocalTensor<T>& y, const LocalTensor<T>& x,
           const LocalTensor<T>& z, const LocalTensor<std::uint8_t>& tmp) {
  const bool shared = c.tmp_bytes != 0;
  switch (c.api) {
    case Api::kGelu:
      if (shared) {
        Gelu(y, x, tmp, c.count);
      } else {
        Gelu(y, x, c.count);
      }
      break;
    case Api::kGeGLU:
      if (shared) {
        GeGLU<T, false>(y, z, x, tmp, c.count);
      } else {
        GeGLU<T, false>(y, z, x, c.count);
      }
      break;
    case Api::kSigmoid:
      if (shared) {
        Sigmoid<T, false>(y, x, tmp, c.count);
      } else {
        Sigmoid<T, false>(y, x, c.count);
      }
      break;
    case Api::kSilu:
      Silu<T, false>(y, x, c.count);
      break;
    case Api::kSwish:
      Swish(y, x, c.count, static_cast<T>(1.702f));
      break;
  }
}

// x <- in; the API; out <- y (x when in place). Copies are memcpy: the trace holds the API only.
template <class T>
void act_kernel(GM_ADDR in, GM_ADDR out, Case c) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tx, ty, tz, tt, th;
  pipe.InitBuffer(tx, kBytes);
  pipe.InitBuffer(ty, kBytes);
  pipe.InitBuffer(tz, kBytes);
  if (c.tmp_bytes != 0) pipe.InitBuffer(tt, c.tmp_bytes);
  if (c.hog != 0) pipe.InitBuffer(th, c.hog);
  LocalTensor<T> x = tx.Get<T>();
  LocalTensor<T> y = c.in_place ? x : ty.Get<T>();
  LocalTensor<T> z = tz.Get<T>();
  std::memcpy(x.twin_data(), in, c.count * sizeof(T));
  for (std::uint32_t i = 0; i < c.count; ++i) z.twin_data()[i] = static_cast<T>(gate(i));
  apply<T>(c, y, x, z, c.tmp_bytes != 0 ? tt.Get<std::uint8_t>() : LocalTensor<std::uint8_t>());
  std::memcpy(out, y.twin_data(), c.count * sizeof(T));
}

double reference(Api api, double x, std::uint32_t i) {
  switch (api) {
    case Api::kGelu: return x / (1 + std::exp(-1.5957691216057308 * (x + 0.044715 * x * x * x)));
    case Api::kGeGLU: return gate(i) * reference(Api::kGelu, x, i);
    case Api::kSigmoid: return 1 / (1 + std::exp(-x));
    case Api::kSilu: return x / (1 + std::exp(-x));
    case Api::kSwish: return x / (1 + std::exp(-1.702 * x));
  }
  return 0;
}

std::vector<float> inputs(std::uint32_t n) {
  std::vector<float> x(n);
  for (std::uint32_t i = 0; i < n; ++i) x[i] = std::sin(0.41f * static_cast<float>(i)) * 5.0f;
  return x;
}

struct Outcome {
  RunResult run;
  std::vector<float> y;
};

Outcome run_float(const Case& c) {
  std::vector<float> x = inputs(c.count), y(c.count, -7.0f);
  RunResult r = npusim::ascendc::run_blocks(&act_kernel<float>, 1,
                                            reinterpret_cast<GM_ADDR>(x.data()),
                                            reinterpret_cast<GM_ADDR>(y.data()), c);
  return {std::move(r), std::move(y)};
}

Outcome run_half(const Case& c) {
  const std::vector<float> xf = inputs(c.count);
  std::vector<half> x(c.count), y(c.count);
  for (std::uint32_t i = 0; i < c.count; ++i) x[i] = half(xf[i]);
  RunResult r = npusim::ascendc::run_blocks(&act_kernel<half>, 1,
                                            reinterpret_cast<GM_ADDR>(x.data()),
                                            reinterpret_cast<GM_ADDR>(y.data()), c);
  Outcome o{std::move(r), std::vector<float>(c.count)};
  for (std::uint32_t i = 0; i < c.count; ++i) o.y[i] = static_cast<float>(y[i]);
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

void expect_close(Api api, const std::vector<float>& y, double tolerance) {
  const std::vector<float> x = inputs(static_cast<std::uint32_t>(y.size()));
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double ref = reference(api, x[i], static_cast<std::uint32_t>(i));
    ASSERT_NEAR(y[i], ref, tolerance * (1 + std::fabs(ref))) << "element " << i;
  }
}

TEST(Activation, GeluIsTheTanhApproximationInEightVectorInstructions) {
  const std::uint32_t n = 1000;
  const Outcome o = run_float({Api::kGelu, n, GetGeluMaxTmpSize(TensorShape({n}), 4)});
  ASSERT_TRUE(o.run.ok()) << o.run.first_error();
  expect_close(Api::kGelu, o.y, 2e-6);
  const std::vector<Op> ops = ops_of(o.run);
  EXPECT_EQ(ops, (std::vector<Op>{Op::kMul, Op::kMul, Op::kMuls, Op::kAdd, Op::kMuls, Op::kExp,
                                  Op::kAdds, Op::kDiv}));
  for (const auto& in : o.run.blocks[0].trace.instrs) {
    if (in.pipe == Pipe::kVector) {
      EXPECT_EQ(in.count, n);
    }
  }
}

TEST(Activation, TheMinimumTemporarySpaceGivesTheSameValuesInMorePasses) {
  const std::uint32_t n = 1000;
  const Outcome whole = run_float({Api::kGelu, n, GetGeluMaxTmpSize(TensorShape({n}), 4)});
  const Outcome least = run_float({Api::kGelu, n, GetGeluMinTmpSize(TensorShape({n}), 4)});
  const Outcome framework = run_float({Api::kGelu, n, 0});
  ASSERT_TRUE(least.run.ok()) << least.run.first_error();
  ASSERT_TRUE(framework.run.ok()) << framework.run.first_error();
  EXPECT_EQ(least.y, whole.y);
  EXPECT_EQ(framework.y, whole.y);
  EXPECT_EQ(ops_of(least.run).size(), 8u * 16);  // 64-element passes: 15 full, 1 of 40
  EXPECT_EQ(ops_of(framework.run).size(), 8u);   // the free UB holds all of it
}

TEST(Activation, TooLittleTemporarySpaceFailsNamingTheApi) {
  const Outcome o = run_float({Api::kGelu, 1000, 128});
  ASSERT_FALSE(o.run.ok());
  EXPECT_NE(o.run.first_error().find("Gelu: sharedTmpBuffer of 128 bytes is below the minimum of "
                                     "256 bytes for 1000 elements (GetGeluMaxMinTmpSize)"),
            std::string::npos)
      << o.run.first_error();
  // The framework form with the UB taken by the kernel's own buffers.
  const std::uint32_t ub = npusim::ascendc::CoreBuffers{}.ub;
  const Outcome full = run_float({Api::kSigmoid, 1000, 0, false, ub - 3 * kBytes - 64});
  ASSERT_FALSE(full.run.ok());
  EXPECT_NE(full.run.first_error().find("Sigmoid: no room in UB for its temporary space: needs "
                                        "256 bytes, 64 free"),
            std::string::npos)
      << full.run.first_error();
}

TEST(Activation, GeGluMultipliesTheFirstSourceByGeluOfTheSecond) {
  const std::uint32_t n = 1024;
  uint32_t max = 0, min = 0;
  GetGeGLUMaxMinTmpSize(TensorShape({n}), 4, false, max, min);
  const Outcome f = run_float({Api::kGeGLU, n, min});
  ASSERT_TRUE(f.run.ok()) << f.run.first_error();
  expect_close(Api::kGeGLU, f.y, 4e-6);
  EXPECT_EQ(ops_of(f.run).size(), 9u * 16);  // 16 passes of 64: Gelu's 8, then Mul
  const Outcome framework = run_float({Api::kGeGLU, n, 0});
  EXPECT_EQ(framework.y, f.y);
  EXPECT_EQ(ops_of(framework.run).size(), 9u);
  GetGeGLUMaxMinTmpSize(TensorShape({n}), 2, false, max, min);
  const Outcome h = run_half({Api::kGeGLU, n, max});
  ASSERT_TRUE(h.run.ok()) << h.run.first_error();
  expect_close(Api::kGeGLU, h.y, 4e-3);
  EXPECT_EQ(ops_of(h.run).size(), 12u);  // Cast, the 7 of the denominator, Div, Cast, Mul, Cast
}

TEST(Activation, SigmoidFloatAndHalfInPlace) {
  const std::uint32_t n = 300;
  uint32_t max = 0, min = 0;
  GetSigmoidMaxMinTmpSize(TensorShape({n}), 4, false, max, min);
  const Outcome f = run_float({Api::kSigmoid, n, max, true});
  ASSERT_TRUE(f.run.ok()) << f.run.first_error();
  expect_close(Api::kSigmoid, f.y, 2e-7);
  EXPECT_EQ(ops_of(f.run), (std::vector<Op>{Op::kMuls, Op::kExp, Op::kAdds, Op::kDuplicate,
                                            Op::kDiv}));
  GetSigmoidMaxMinTmpSize(TensorShape({n}), 2, false, max, min);
  const Outcome h = run_half({Api::kSigmoid, n, max, true});
  ASSERT_TRUE(h.run.ok()) << h.run.first_error();
  expect_close(Api::kSigmoid, h.y, 2e-3);
  EXPECT_EQ(ops_of(h.run), (std::vector<Op>{Op::kCast, Op::kMuls, Op::kExp, Op::kAdds,
                                            Op::kDuplicate, Op::kDiv, Op::kCast}));
}

TEST(Activation, SiluAndSwishUseTheirDestinationUnlessInPlace) {
  const std::uint32_t n = 500;
  const Outcome silu = run_float({Api::kSilu, n, 0});
  ASSERT_TRUE(silu.run.ok()) << silu.run.first_error();
  expect_close(Api::kSilu, silu.y, 2e-6);
  EXPECT_EQ(ops_of(silu.run), (std::vector<Op>{Op::kMuls, Op::kExp, Op::kAdds, Op::kDiv}));
  const Outcome swish = run_float({Api::kSwish, n, 0});
  const Outcome swish_in_place = run_float({Api::kSwish, n, 0, true});
  ASSERT_TRUE(swish_in_place.run.ok()) << swish_in_place.run.first_error();
  expect_close(Api::kSwish, swish.y, 2e-6);
  EXPECT_EQ(swish_in_place.y, swish.y);
  const Outcome half_swish = run_half({Api::kSwish, n, 0});
  ASSERT_TRUE(half_swish.run.ok()) << half_swish.run.first_error();
  expect_close(Api::kSwish, half_swish.y, 2e-3);
  EXPECT_EQ(ops_of(half_swish.run).size(), 6u);  // Cast, Muls, Exp, Adds, Div, Cast
}

// The sigmoid example rounds `n * sizeof(T)` (size_t) up by a literal 32 (int).
static_assert(DivCeil(std::size_t{100}, 32) == 4u);
static_assert(DivCeil(7u, 2u) == 4u);

TEST(Activation, TilingFunctionsReportTheSpaceTheKernelsUse) {
  uint32_t max = 0, min = 0;
  GetGeluMaxMinTmpSize(TensorShape({32}), 4, max, min);
  EXPECT_EQ(max, 128u);
  EXPECT_EQ(min, 128u);
  GetGeluMaxMinTmpSize(TensorShape({4, 256}), 2, max, min);
  EXPECT_EQ(max, 8192u);
  EXPECT_EQ(min, 512u);
  GetSwishTmpSize(TensorShape({1000}), 4, false, max, min);
  EXPECT_EQ(max, 4000u);
  EXPECT_EQ(min, 0u);
  GetSiluTmpSize(TensorShape({1000}), 2, false, max, min);
  EXPECT_EQ(max, 8000u);
  EXPECT_EQ(min, 512u);
  EXPECT_EQ(TensorShape({3, 5}).GetShapeSize(), 15);
  EXPECT_EQ(GetGeluMaxTmpSize(TensorShape(), 4), 0u);
}

}  // namespace
