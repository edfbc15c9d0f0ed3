// SPDX-License-Identifier: Apache-2.0
// The twin's high-level reductions and broadcast (npusim/ascendc/norm_ops.h): Sum with padded
// rows, ReduceMax / ReduceSum with the AR and RA patterns, Broadcast along either axis — values,
// one V instruction each with its element count, argument errors, and timing-only mode (no
// element math, the same instruction).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using namespace AscendC;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::run_blocks;

enum class Which : std::uint32_t {
  kSum,
  kMaxAR,
  kMaxRA,
  kSumAR,
  kSumRA,
  kMinAR,
  kMinRA,
  kBcast1,
  kBcast0
};

// Runs one op on `rows` x `pitch` floats copied into UB (src), writing dst (64 x 64 floats).
void op_kernel(GM_ADDR src, GM_ADDR dst, Which which, std::uint32_t rows, std::uint32_t cols,
               std::uint32_t pitch, std::uint32_t functional) {
  npusim::ascendc::block().functional = functional != 0;
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b, t;
  pipe.InitBuffer(a, 64 * 64 * 4);
  pipe.InitBuffer(b, 64 * 64 * 4);
  pipe.InitBuffer(t, 256);
  LocalTensor<float> x = a.Get<float>(), y = b.Get<float>();
  LocalTensor<std::uint8_t> tmp = t.Get<std::uint8_t>();
  std::memcpy(x.twin_data(), src, 64 * 64 * 4);
  std::memcpy(y.twin_data(), dst, 64 * 64 * 4);
  const std::uint32_t shape[2] = {rows, cols};
  switch (which) {
    case Which::kSum:
      Sum(y, x, tmp, SumParams{rows, pitch, cols});
      break;
    case Which::kMaxAR: ReduceMax<float, Pattern::Reduce::AR>(y, x, tmp, shape, true); break;
    case Which::kMaxRA: ReduceMax<float, Pattern::Reduce::RA>(y, x, shape, false); break;
    case Which::kSumAR: ReduceSum<float, Pattern::Reduce::AR>(y, x, shape, true); break;
    case Which::kMinAR: ReduceMin<float, Pattern::Reduce::AR>(y, x, tmp, shape, true); break;
    case Which::kMinRA: ReduceMin<float, Pattern::Reduce::RA>(y, x, shape, false); break;
    case Which::kSumRA: ReduceSum<float, Pattern::Reduce::RA>(y, x, tmp, shape, false); break;
    case Which::kBcast1: {
      const std::uint32_t d[2] = {rows, cols}, s[2] = {rows, 1};
      Broadcast<float, 2, 1>(y, x, d, s);
      break;
    }
    case Which::kBcast0: {
      const std::uint32_t d[2] = {rows, cols}, s[2] = {1, cols};
      Broadcast<float, 2, 0>(y, x, d, s);
      break;
    }
  }
  std::memcpy(dst, y.twin_data(), 64 * 64 * 4);
}

struct OpRun {
  std::vector<float> out;
  npusim::ascendc::RunResult r;
};

OpRun run(Which which, std::uint32_t rows, std::uint32_t cols, std::uint32_t pitch,
          const std::vector<float>& in, bool functional = true) {
  std::vector<float> src(64 * 64, 0.0f), dst(64 * 64, -7.0f);
  std::copy(in.begin(), in.end(), src.begin());
  OpRun out;
  out.r = run_blocks(&op_kernel, 1, reinterpret_cast<GM_ADDR>(src.data()),
                     reinterpret_cast<GM_ADDR>(dst.data()), which, rows, cols, pitch,
                     functional ? 1u : 0u);
  out.out = dst;
  return out;
}

std::vector<float> matrix(std::uint32_t rows, std::uint32_t pitch) {
  std::vector<float> v(rows * pitch);
  for (std::uint32_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 37) % 101) - 50.0f;
  return v;
}

const npusim::ascendc::Instr& only_vector(const OpRun& r) {
  const auto& ins = r.r.blocks.at(0).trace.instrs;
  std::size_t vec = 0, at = 0;
  for (std::size_t i = 0; i < ins.size(); ++i)
    if (ins[i].pipe == Pipe::kVector) ++vec, at = i;
  EXPECT_EQ(vec, 1u);
  return ins.at(at);
}

TEST(NormOps, SumOfPaddedRows) {
  const std::vector<float> x = matrix(5, 16);
  const OpRun r = run(Which::kSum, 5, 13, 16, x);
  ASSERT_TRUE(r.r.ok()) << r.r.first_error();
  for (std::uint32_t i = 0; i < 5; ++i) {
    float want = 0;
    for (std::uint32_t j = 0; j < 13; ++j) want += x[i * 16 + j];  // integers: exact
    EXPECT_EQ(r.out[i], want) << i;
  }
  EXPECT_EQ(r.out[5], -7.0f);  // nothing beyond the rows
  const auto& in = only_vector(r);
  EXPECT_EQ(in.op, Op::kReduceSum);
  EXPECT_EQ(in.count, 5u * 16u);
  EXPECT_EQ(in.bytes, 5u * 16u * 4u);
}

// Host reference: `f` folded over each of `n` lines of `len` elements, element k of line l at
// x[l * line_step + k * elem_step].
template <class F>
std::vector<float> fold(const std::vector<float>& x, std::uint32_t n, std::uint32_t len,
                        std::uint32_t line_step, std::uint32_t elem_step, F f) {
  std::vector<float> out(n);
  for (std::uint32_t l = 0; l < n; ++l) {
    float acc = x[l * line_step];
    for (std::uint32_t k = 1; k < len; ++k) acc = f(acc, x[l * line_step + k * elem_step]);
    out[l] = acc;
  }
  return out;
}

// The first want.size() outputs of r, exactly.
void expect_out(const OpRun& r, const std::vector<float>& want) {
  for (std::uint32_t i = 0; i < want.size(); ++i) EXPECT_EQ(r.out[i], want[i]) << i;
}

const auto kMax = [](float a, float b) { return std::max(a, b); };
const auto kMin = [](float a, float b) { return std::min(a, b); };
const auto kSum = [](float a, float b) { return a + b; };

TEST(NormOps, ReduceMaxAndSumByPattern) {
  const std::vector<float> x = matrix(6, 24);  // AR with inner pad: 21 columns stored 24 apart
  OpRun r = run(Which::kMaxAR, 6, 21, 24, x);
  ASSERT_TRUE(r.r.ok()) << r.r.first_error();
  expect_out(r, fold(x, 6, 21, 24, 1, kMax));
  EXPECT_EQ(only_vector(r).op, Op::kReduceMax);
  r = run(Which::kSumAR, 6, 21, 24, x);
  expect_out(r, fold(x, 6, 21, 24, 1, kSum));
  const std::vector<float> c = matrix(7, 9);  // RA, packed: 7 rows of 9
  r = run(Which::kMaxRA, 7, 9, 9, c);
  ASSERT_TRUE(r.r.ok()) << r.r.first_error();
  expect_out(r, fold(c, 9, 7, 1, 9, kMax));
  EXPECT_EQ(only_vector(r).count, 63u);
  r = run(Which::kSumRA, 7, 9, 9, c);
  expect_out(r, fold(c, 9, 7, 1, 9, kSum));
}

TEST(NormOps, ReduceMinByPattern) {
  const std::vector<float> x = matrix(6, 24);
  OpRun r = run(Which::kMinAR, 6, 21, 24, x);
  ASSERT_TRUE(r.r.ok()) << r.r.first_error();
  expect_out(r, fold(x, 6, 21, 24, 1, kMin));
  EXPECT_EQ(only_vector(r).op, Op::kReduceMin);
  r = run(Which::kMinRA, 7, 9, 9, matrix(7, 9));
  expect_out(r, fold(matrix(7, 9), 9, 7, 1, 9, kMin));
}

TEST(NormOps, BroadcastAlongEitherAxis) {
  const std::vector<float> x = matrix(1, 40);
  OpRun r = run(Which::kBcast1, 5, 12, 0, x);  // [5, 1] -> [5, 12]
  ASSERT_TRUE(r.r.ok()) << r.r.first_error();
  for (std::uint32_t i = 0; i < 5; ++i)
    for (std::uint32_t j = 0; j < 12; ++j) EXPECT_EQ(r.out[i * 12 + j], x[i]);
  EXPECT_EQ(r.out[60], -7.0f);
  EXPECT_EQ(only_vector(r).op, Op::kDuplicate);
  EXPECT_EQ(only_vector(r).count, 60u);
  r = run(Which::kBcast0, 3, 40, 0, x);  // [1, 40] -> [3, 40]
  for (std::uint32_t i = 0; i < 3; ++i)
    for (std::uint32_t j = 0; j < 40; ++j) EXPECT_EQ(r.out[i * 40 + j], x[j]);
}

TEST(NormOps, BadArgumentsAreKernelErrors) {
  const std::vector<float> x = matrix(4, 16);
  OpRun r = run(Which::kSum, 4, 17, 16, x);  // n > inner
  EXPECT_NE(r.r.first_error().find("SumParams"), std::string::npos) << r.r.first_error();
  r = run(Which::kSum, 4, 10, 12, x);  // inner not a multiple of 32 bytes
  EXPECT_FALSE(r.r.ok());
  r = run(Which::kSum, 64, 16, 128, x);  // beyond the source tensor
  EXPECT_NE(r.r.first_error().find("src"), std::string::npos) << r.r.first_error();
}

TEST(NormOps, TimingOnlyModeRecordsWithoutComputing) {
  const std::vector<float> x = matrix(5, 16);
  const OpRun r = run(Which::kSum, 5, 13, 16, x, false);
  ASSERT_TRUE(r.r.ok()) << r.r.first_error();
  EXPECT_EQ(r.out[0], -7.0f);  // untouched
  EXPECT_EQ(only_vector(r).count, 80u);
}

}  // namespace
