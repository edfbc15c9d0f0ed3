// SPDX-License-Identifier: Apache-2.0
// The SoftMax-family high-level APIs of the twin (lib/activation: SoftMax, SimpleSoftMax,
// AdjustSoftMaxRes, LogSoftMax, SoftmaxFlashV2, SoftmaxFlashV3, SoftmaxGrad, SoftmaxGradFront),
// SwiGLU, and their host tiling functions, with the reductions' temporary space functions:
// values against references computed here in double, the vector instructions each call records
// (their element counts add up to what the passes process), and the passes over the minimum
// temporary space giving the values of one pass.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::RunResult;

constexpr std::uint32_t kBuf = 32768;  // each operand's UB buffer

enum class Api : std::uint32_t {
  kSoftMax, kSimple, kLog, kFlashV2, kGrad, kGradFront, kSwiGlu, kAdjust
};

struct Case {
  Api api = Api::kSoftMax;
  std::uint32_t m = 0, k = 0;
  std::uint32_t tmp_bytes = 0;  // 0: the framework form
};

double value(std::uint32_t i) { return std::sin(0.37 * i) * 3.0 + 0.01 * (i % 11); }
double other(std::uint32_t i) { return std::cos(0.23 * i) * 0.5; }

// x, z <- the inputs; the API; out <- dst (m x k) then max (m x 8) then sum (m x 8).
void api_kernel(GM_ADDR out, Case c) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tx, ty, tz, tmax, tsum, tt;
  pipe.InitBuffer(tx, kBuf);
  pipe.InitBuffer(ty, kBuf);
  pipe.InitBuffer(tz, kBuf);
  pipe.InitBuffer(tmax, 1024);
  pipe.InitBuffer(tsum, 1024);
  if (c.tmp_bytes != 0) pipe.InitBuffer(tt, c.tmp_bytes);
  const LocalTensor<float> x = tx.Get<float>(), y = ty.Get<float>(), z = tz.Get<float>();
  const LocalTensor<float> mx = tmax.Get<float>(), sm = tsum.Get<float>();
  const std::uint32_t n = c.m * c.k;
  for (std::uint32_t i = 0; i < n; ++i) {
    x.twin_data()[i] = static_cast<float>(value(i));
    z.twin_data()[i] = static_cast<float>(other(i));
  }
  const LocalTensor<std::uint8_t> tmp = c.tmp_bytes != 0 ? tt.Get<std::uint8_t>()
                                                         : LocalTensor<std::uint8_t>();
  const SoftMaxShapeInfo shape{c.m, c.k, c.m, c.k};
  const SoftMaxTiling tiling{};
  const bool shared = c.tmp_bytes != 0;
  switch (c.api) {
    case Api::kSoftMax:
      if (shared) {
        SoftMax<float>(y, sm, mx, x, tmp, tiling, shape);
      } else {
        SoftMax<float>(y, sm, mx, x, tiling, shape);
      }
      break;
    case Api::kSimple:  // the statistics of a SoftMax of x, then SimpleSoftMax of x again
      SoftMax<float>(z, sm, mx, x, tmp, tiling, shape);
      SimpleSoftMax<float>(y, sm, mx, x, tmp, tiling, shape);
      break;
    case Api::kLog:
      LogSoftMax<float>(y, sm, mx, x, tmp, LogSoftMaxTiling{}, shape);
      break;
    case Api::kFlashV2: {  // two column halves: the second updates the first's statistics
      const std::uint32_t h = c.k / 2;
      const SoftMaxShapeInfo half_shape{c.m, h, c.m, h};
      for (std::uint32_t r = 0; r < c.m; ++r) {
        std::memcpy(z.twin_data() + r * h, x.twin_data() + r * c.k, h * 4);
        std::memcpy(y.twin_data() + r * h, x.twin_data() + r * c.k + h, h * 4);
      }
      const LocalTensor<float> exp_max = z[n];  // after the first block
      SoftmaxFlashV2<float, false>(z, sm, mx, z, exp_max, sm, mx, tmp, tiling, half_shape);
      SoftmaxFlashV2<float, true>(y, sm, mx, y, exp_max, sm, mx, tmp, tiling, half_shape);
      std::memcpy(y.twin_data(), exp_max.twin_data(), c.m * 8 * 4);  // reported as dst
      break;
    }
    case Api::kGrad:
      SoftmaxGrad<float>(y, z, x, tmp, tiling, false, shape);
      break;
    case Api::kGradFront:
      SoftmaxGradFront<float>(y, z, x, tmp, tiling, shape);
      break;
    case Api::kSwiGlu:
      SwiGLU<float>(y, z, x, 1.5f, n);
      break;
    case Api::kAdjust: {  // row 1's max is -FLT_MAX (the bits 0xFF7FFFFF): its results become 0
      Duplicate(y, 0.25f, static_cast<std::int32_t>(n));
      Duplicate(mx, 1.0f, static_cast<std::int32_t>(c.m * 8));
      Duplicate(mx[8], -FLT_MAX, 8);
      const bool hit = AdjustSoftMaxRes<float, float>(y, mx, 0xFF7FFFFFu, 0.0f, shape);
      const bool miss = AdjustSoftMaxRes<float, float>(z, mx, 0x3F000000u, 9.0f, shape);  // 0.5
      Duplicate(sm, (hit ? 1.0f : 0.0f) + (miss ? 2.0f : 0.0f), static_cast<std::int32_t>(c.m * 8));
      break;
    }
  }
  std::memcpy(out, y.twin_data(), n * 4);
  std::memcpy(out + n * 4, mx.twin_data(), c.m * 32);
  std::memcpy(out + n * 4 + c.m * 32, sm.twin_data(), c.m * 32);
}

struct Outcome {
  RunResult run;
  std::vector<float> dst, max, sum;  // max / sum: one value per row (the block's first)
};

Outcome run(const Case& c) {
  const std::uint32_t n = c.m * c.k;
  std::vector<float> out(n + 16 * c.m, -7.0f);
  Outcome o{npusim::ascendc::run_blocks(&api_kernel, 1, reinterpret_cast<GM_ADDR>(out.data()), c),
            {}, {}, {}};
  o.dst.assign(out.begin(), out.begin() + n);
  for (std::uint32_t r = 0; r < c.m; ++r) {
    for (std::uint32_t j = 1; j < 8; ++j) {  // every block repeats its row's value
      EXPECT_EQ(out[n + r * 8 + j], out[n + r * 8]) << "row " << r;
    }
    o.max.push_back(out[n + r * 8]);
    o.sum.push_back(out[n + 8 * c.m + r * 8]);
  }
  return o;
}

struct RowStats {
  std::vector<double> max, sum;
};

RowStats row_stats(std::uint32_t m, std::uint32_t k, std::uint32_t col0, std::uint32_t cols) {
  RowStats s;
  for (std::uint32_t r = 0; r < m; ++r) {
    double mx = -1e300, sum = 0;
    for (std::uint32_t j = col0; j < col0 + cols; ++j) mx = std::max(mx, value(r * k + j));
    for (std::uint32_t j = col0; j < col0 + cols; ++j) sum += std::exp(value(r * k + j) - mx);
    s.max.push_back(mx);
    s.sum.push_back(sum);
  }
  return s;
}

std::vector<Op> vector_ops(const RunResult& r, std::uint64_t* elements = nullptr) {
  std::vector<Op> ops;
  for (const auto& in : r.blocks.at(0).trace.instrs) {
    if (in.pipe != Pipe::kVector) continue;
    ops.push_back(in.op);
    if (elements != nullptr) *elements += in.count;
  }
  return ops;
}

std::size_t count_of(const std::vector<Op>& ops, Op op) {
  std::size_t n = 0;
  for (Op o : ops) n += o == op ? 1 : 0;
  return n;
}

TEST(SoftmaxApi, SoftMaxRowsWithTheirMaxAndSum) {
  const std::uint32_t m = 16, k = 64;
  const std::uint32_t least = GetSoftMaxMinTmpSize(TensorShape({m, k}), 4, false);
  const Outcome o = run({Api::kSoftMax, m, k, least});
  ASSERT_TRUE(o.run.ok()) << o.run.first_error();
  const RowStats s = row_stats(m, k, 0, k);
  for (std::uint32_t r = 0; r < m; ++r) {
    EXPECT_NEAR(o.max[r], s.max[r], 1e-6);
    EXPECT_NEAR(o.sum[r], s.sum[r], 1e-5 * s.sum[r]);
    for (std::uint32_t j = 0; j < k; ++j) {
      const double ref = std::exp(value(r * k + j) - s.max[r]) / s.sum[r];
      ASSERT_NEAR(o.dst[r * k + j], ref, 1e-6) << r << "," << j;
    }
  }
  // The minimum is a pass of 8 rows: two passes of ReduceMax, Broadcast (max), Broadcast, Sub,
  // Exp, ReduceSum, Broadcast (sum), Broadcast, Div.
  std::uint64_t elements = 0;
  const std::vector<Op> ops = vector_ops(o.run, &elements);
  const std::vector<Op> pass{Op::kReduceMax, Op::kDuplicate, Op::kDuplicate, Op::kSub, Op::kExp,
                             Op::kReduceSum, Op::kDuplicate, Op::kDuplicate, Op::kDiv};
  std::vector<Op> twice = pass;
  twice.insert(twice.end(), pass.begin(), pass.end());
  EXPECT_EQ(ops, twice);
  EXPECT_EQ(elements, 2u * (7 * 8 * k + 2 * 8 * 8));  // seven r x k steps, two r x 8 blocks
  // The framework's free UB holds every row: one pass, the same values.
  const Outcome framework = run({Api::kSoftMax, m, k, 0});
  ASSERT_TRUE(framework.run.ok()) << framework.run.first_error();
  EXPECT_EQ(framework.dst, o.dst);
  EXPECT_EQ(vector_ops(framework.run), pass);
}

TEST(SoftmaxApi, SimpleSoftMaxWithSoftMaxStatisticsGivesTheSoftMax) {
  const std::uint32_t m = 8, k = 32;
  const Outcome o = run({Api::kSimple, m, k, GetSoftMaxMaxTmpSize(TensorShape({m, k}), 4, false)});
  ASSERT_TRUE(o.run.ok()) << o.run.first_error();
  const RowStats s = row_stats(m, k, 0, k);
  for (std::uint32_t i = 0; i < m * k; ++i) {
    ASSERT_NEAR(o.dst[i], std::exp(value(i) - s.max[i / k]) / s.sum[i / k], 1e-6) << i;
  }
}

TEST(SoftmaxApi, LogSoftMaxIsTheDecimalLogarithm) {
  const std::uint32_t m = 8, k = 128;
  const Outcome o = run({Api::kLog, m, k, GetLogSoftMaxMinTmpSize(TensorShape({m, k}), 4, false)});
  ASSERT_TRUE(o.run.ok()) << o.run.first_error();
  const RowStats s = row_stats(m, k, 0, k);
  for (std::uint32_t i = 0; i < m * k; ++i) {
    const double ref = std::log10(std::exp(value(i) - s.max[i / k]) / s.sum[i / k]);
    ASSERT_NEAR(o.dst[i], ref, 1e-5 * (1 + std::fabs(ref))) << i;
  }
  EXPECT_NEAR(o.sum[3], s.sum[3], 1e-5 * s.sum[3]);
  const std::vector<Op> ops = vector_ops(o.run);
  EXPECT_EQ(count_of(ops, Op::kLn), 1u);
  EXPECT_EQ(count_of(ops, Op::kExp), 1u);
}

TEST(SoftmaxApi, FlashV2OverTwoColumnBlocksGivesTheWholeRowsStatistics) {
  const std::uint32_t m = 8, k = 128;
  const std::uint32_t tmp = GetSoftMaxFlashV2MaxTmpSize(TensorShape({m, k / 2}), 4, 4, true);
  const Outcome o = run({Api::kFlashV2, m, k, tmp});
  ASSERT_TRUE(o.run.ok()) << o.run.first_error();
  const RowStats whole = row_stats(m, k, 0, k), first = row_stats(m, k, 0, k / 2);
  for (std::uint32_t r = 0; r < m; ++r) {
    EXPECT_NEAR(o.max[r], whole.max[r], 1e-6);
    EXPECT_NEAR(o.sum[r], whole.sum[r], 1e-5 * whole.sum[r]);
    // expMax of the update: exp(first block's max - the whole row's max).
    EXPECT_NEAR(o.dst[r * 8], std::exp(first.max[r] - whole.max[r]), 1e-6);
  }
}

TEST(SoftmaxApi, SoftmaxGradAndItsFront) {
  const std::uint32_t m = 16, k = 64;
  const std::uint32_t tmp = GetSoftMaxGradMinTmpSize(TensorShape({m, k}), 4, false, false);
  const Outcome grad = run({Api::kGrad, m, k, tmp});
  const Outcome front = run({Api::kGradFront, m, k, tmp});
  ASSERT_TRUE(grad.run.ok()) << grad.run.first_error();
  ASSERT_TRUE(front.run.ok()) << front.run.first_error();
  for (std::uint32_t r = 0; r < m; ++r) {
    double d = 0;
    for (std::uint32_t j = 0; j < k; ++j) d += other(r * k + j) * value(r * k + j);
    for (std::uint32_t j = 0; j < 8; ++j) EXPECT_NEAR(front.dst[r * 8 + j], d, 1e-5);
    for (std::uint32_t j = 0; j < k; ++j) {
      const std::uint32_t i = r * k + j;
      ASSERT_NEAR(grad.dst[i], (other(i) - d) * value(i), 1e-4) << i;
    }
  }
  EXPECT_EQ(vector_ops(grad.run).size(), 2u * 5);   // two passes of Mul, ReduceSum, Broadcast,
  EXPECT_EQ(vector_ops(front.run).size(), 2u * 3);  // Sub, Mul; the front: Mul, ReduceSum, Broadcast
}

TEST(SoftmaxApi, AdjustSoftMaxResSetsTheRowsWhoseMaxMatches) {
  const Outcome o = run({Api::kAdjust, 4, 16, 0});
  ASSERT_TRUE(o.run.ok()) << o.run.first_error();
  for (std::uint32_t i = 0; i < 4 * 16; ++i) EXPECT_EQ(o.dst[i], i / 16 == 1 ? 0.0f : 0.25f) << i;
  EXPECT_EQ(o.sum[0], 1.0f);  // true for the first call, false for the second
  // One scalar read per row, one Duplicate for the matching row (after the kernel's three).
  const std::vector<Op> ops = vector_ops(o.run);
  EXPECT_EQ(count_of(ops, Op::kDuplicate), 3u + 1 + 1);
}

TEST(SoftmaxApi, TooLittleTemporarySpaceFailsNamingTheApi) {
  const Outcome o = run({Api::kSoftMax, 8, 256, 512});
  ASSERT_FALSE(o.run.ok());
  EXPECT_NE(o.run.first_error().find("SoftMax: sharedTmpBuffer of 512 bytes is below the minimum "
                                     "of 1152 bytes (GetSoftMaxMinTmpSize)"),
            std::string::npos)
      << o.run.first_error();
}

TEST(SoftmaxApi, SwiGluIsTheFirstSourceTimesSwishOfTheSecond) {
  const std::uint32_t m = 4, k = 64;
  const Outcome o = run({Api::kSwiGlu, m, k, 0});
  ASSERT_TRUE(o.run.ok()) << o.run.first_error();
  for (std::uint32_t i = 0; i < m * k; ++i) {
    const double ref = other(i) * value(i) / (1 + std::exp(-1.5 * value(i)));
    ASSERT_NEAR(o.dst[i], ref, 1e-6 * (1 + std::fabs(ref))) << i;
  }
  EXPECT_EQ(vector_ops(o.run), (std::vector<Op>{Op::kMuls, Op::kExp, Op::kAdds, Op::kDiv,
                                                Op::kMul}));
  uint32_t max = 1, min = 1;
  GetSwiGLUMaxMinTmpSize(TensorShape({m * k}), 4, max, min, false);
  EXPECT_EQ(max, 0u);
  EXPECT_EQ(min, 0u);
  GetSwiGLUMaxMinTmpSize(TensorShape({m * k}), 2, max, min, false);
  EXPECT_EQ(max, m * k * 8);
  EXPECT_EQ(min, 64u * 8);
}

// SoftmaxFlashV3 on half rows (update form, the framework's temporary space): out <- dst (as
// float) then the mean, max and sum (one value per row) and expMax.
constexpr std::uint32_t kV3Rows = 8, kV3Cols = 1024, kV3Loops = 2;
constexpr float kV3Alpha = 0.9375f;

void flash_v3_kernel(GM_ADDR out) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tx, ty, tmean, tmax, tsum, texp;
  const std::uint32_t n = kV3Rows * kV3Cols;
  pipe.InitBuffer(tx, n * 2);
  pipe.InitBuffer(ty, n * 2);
  pipe.InitBuffer(tmean, kV3Rows * 32);
  pipe.InitBuffer(tmax, kV3Rows * 32);
  pipe.InitBuffer(tsum, kV3Rows * 32);
  pipe.InitBuffer(texp, kV3Rows * 32);
  const LocalTensor<half> x = tx.Get<half>(), y = ty.Get<half>(), em = texp.Get<half>();
  const LocalTensor<float> mean = tmean.Get<float>(), mx = tmax.Get<float>(),
                           sm = tsum.Get<float>();
  for (std::uint32_t i = 0; i < n; ++i) x.twin_data()[i] = half(static_cast<float>(value(i)));
  for (std::uint32_t i = 0; i < kV3Rows * 8; ++i) {
    mean.twin_data()[i] = mx.twin_data()[i] = sm.twin_data()[i] = 0.5f;
  }
  const SoftMaxParams params{kV3Rows, kV3Cols, kV3Rows, kV3Cols, kV3Loops, 8, kV3Alpha};
  SoftmaxFlashV3<half, float, true>(y, mean, sm, mx, x, em, mean, sm, mx, SoftMaxTiling{}, params);
  float* o = reinterpret_cast<float*>(out);
  for (std::uint32_t i = 0; i < n; ++i) o[i] = static_cast<float>(y.twin_data()[i]);
  for (std::uint32_t r = 0; r < kV3Rows; ++r) {
    o[n + r] = mean.twin_data()[r * 8];
    o[n + kV3Rows + r] = mx.twin_data()[r * 8];
    o[n + 2 * kV3Rows + r] = sm.twin_data()[r * 8];
    o[n + 3 * kV3Rows + r] = static_cast<float>(em.twin_data()[r * 16]);
  }
}

TEST(SoftmaxApi, FlashV3ShiftsEachEighthOfTheRowByItsLocalMean) {
  const std::uint32_t n = kV3Rows * kV3Cols;
  std::vector<float> out(n + 4 * kV3Rows, -7.0f);
  const RunResult run =
      npusim::ascendc::run_blocks(&flash_v3_kernel, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(run.ok()) << run.first_error();
  const double a = kV3Alpha / (1 - kV3Alpha), cnt = kV3Loops, base = kV3Cols / 8;
  for (std::uint32_t r = 0; r < kV3Rows; ++r) {
    std::vector<double> x(kV3Cols), g(64, 0.0), local(8, 0.0);
    for (std::uint32_t j = 0; j < kV3Cols; ++j) {
      x[j] = static_cast<float>(half(static_cast<float>(value(r * kV3Cols + j))));
      g[j < 512 ? j / 8 : j % 64] += x[j];
    }
    double mean = 0;
    for (std::uint32_t c = 0; c < 64; ++c) local[c / 8] += g[c] / base;
    for (double l : local) mean += l / 8;
    double row_max = -1e300;
    for (std::uint32_t j = 0; j < kV3Cols; ++j) {
      x[j] -= (mean - local[j / static_cast<std::uint32_t>(base)]) * a;
      row_max = std::max(row_max, x[j]);
    }
    const double out_mean = (mean + 0.5 * (cnt - 1)) / cnt;
    const double cur = (mean - out_mean) * a, prev = (0.5 - out_mean) * a;
    const double out_max = std::max(row_max + cur, prev + 0.5);
    const double exp_max = std::exp(0.5 - out_max + prev);
    double sum = 0;
    for (std::uint32_t j = 0; j < kV3Cols; ++j) {
      const double e = std::exp(x[j] - (out_max - cur));
      sum += e;
      ASSERT_NEAR(out[r * kV3Cols + j], e, 2e-3 * e + 1e-6) << r << "," << j;
    }
    EXPECT_NEAR(out[n + r], out_mean, 1e-5);
    EXPECT_NEAR(out[n + kV3Rows + r], out_max, 1e-4);
    EXPECT_NEAR(out[n + 2 * kV3Rows + r], sum + exp_max * 0.5, 1e-4 * sum);
    EXPECT_NEAR(out[n + 3 * kV3Rows + r], exp_max, 2e-3 * exp_max);
  }
  // Two instructions per row for the column sums, then the pass over all rows.
  std::uint64_t elements = 0;
  const std::vector<Op> ops = vector_ops(run, &elements);
  EXPECT_EQ(count_of(ops, Op::kExp), 2u);  // the rows' exponentials and expMax
  EXPECT_EQ(count_of(ops, Op::kReduceSum), 2u * kV3Rows + 3);
  EXPECT_GT(elements, 8u * n);  // Cast, column sums, shift (Broadcast, Sub), max, exp...
}

TEST(SoftmaxApi, TilingFunctionsDescribeThePasses) {
  optiling::SoftMaxTiling host;
  const TensorShape shape({32, 64});
  const std::uint32_t least = GetSoftMaxMinTmpSize(shape, 4, false);
  EXPECT_EQ(least, 8u * 64 * 4 + 4 * 32);  // 8 rows, four 8-float arrays
  EXPECT_EQ(GetSoftMaxMaxTmpSize(shape, 4, false), 32u * 64 * 4 + 4 * 32 * 4);
  EXPECT_EQ(GetSoftMaxMinTmpSize(shape, 2, false), 8u * 64 * 8 + 4 * 32);
  SoftMaxTilingFunc(shape, 4, least, host);
  EXPECT_EQ(host.get_srcM(), 32u);
  EXPECT_EQ(host.get_srcK(), 64u);
  EXPECT_EQ(host.get_outMaxK(), 8u);
  EXPECT_EQ(host.get_splitM(), 8u);
  EXPECT_EQ(host.get_rangeM(), 4u);
  EXPECT_EQ(host.get_tailM(), 0u);
  EXPECT_EQ(host.GetDataSize(), sizeof(::SoftMaxTiling));
  ::SoftMaxTiling plain;
  SoftMaxFlashV2TilingFunc(TensorShape({30, 64}), 4, 4, least, plain, true);
  EXPECT_EQ(plain.splitM, 8u);
  EXPECT_EQ(plain.rangeM, 3u);
  EXPECT_EQ(plain.tailM, 6u);
  uint32_t max = 0, min = 0;
  GetSumMaxMinTmpSize(32, 4, false, max, min);
  EXPECT_EQ(min, 32u);  // one repeat of a row's partial sums
  GetReduceMaxMaxMinTmpSize(TensorShape({32, 136}), TensorDataType::DT_FLOAT, ReducePattern::RA,
                            true, false, max, min);
  EXPECT_EQ(max, 136u * 4);
}

}  // namespace
