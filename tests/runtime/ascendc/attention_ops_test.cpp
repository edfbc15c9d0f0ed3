// SPDX-License-Identifier: Apache-2.0
// Repeat-form vector ops (npusim/ascendc/attention_ops.h): Brcb, BinaryRepeatParams binary ops
// with a broadcast source, WholeReduceMax / WholeReduceSum, their checks, their trace records and
// timing-only mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using namespace AscendC;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;

constexpr std::uint32_t kRows = 4, kCols = 128;

// x: kRows x kCols floats; out: x - broadcast(row max) [kRows x kCols], then row max
// (ORDER_ONLY_VALUE, kRows), row (max, index) pairs, row sums of the first 50 columns, and the
// Brcb of the row maxima (kRows blocks of 8).
void rows_kernel(GM_ADDR x, GM_ADDR out, std::uint32_t timing_only) {
  if (timing_only != 0) npusim::ascendc::block().functional = false;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, (kRows * kCols + kRows * 64 + 64 + 64) * sizeof(float));
  LocalTensor<float> s = buf.Get<float>();
  LocalTensor<float> half = s[kRows * kCols];
  LocalTensor<float> red = half[kRows * 64];
  LocalTensor<float> bc = red[64];
  GlobalTensor<float> in, o;
  in.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
  o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
  DataCopy(s, in, kRows * kCols);
  const BinaryRepeatParams fold(1, 1, 1, 8, kCols / 8, kCols / 8);
  Max(half, s, s[64], 64, kRows, fold);
  WholeReduceMax(red, half, 64, kRows, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
  WholeReduceMax(red[8], half, 64, kRows, 1, 1, 8);        // (value, index) pairs
  WholeReduceSum(red[16], s, 50, kRows, 1, 1, kCols / 8);  // first 50 columns of each row
  Brcb(bc, red, 1, BrcbRepeatParams(1, 8));
  const BinaryRepeatParams rows(1, 1, 0, kCols / 8, kCols / 8, 1);
  Sub(s, s, bc, 64, kRows, rows);
  Sub(s[64], s[64], bc, 64, kRows, rows);
  DataCopy(o, s, kRows * kCols);
  DataCopy(o[kRows * kCols], red, 64);
  DataCopy(o[kRows * kCols + 64], bc, kRows * 8);
}

void bad_mask_kernel(GM_ADDR, GM_ADDR, std::uint32_t which) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  if (which == 0) Add(t, t, t, 65, 1, BinaryRepeatParams());  // > 64 floats in a repeat
  if (which == 1) Add(t, t, t, 64, 1, BinaryRepeatParams());  // one repeat of 256 bytes: fits
  if (which == 2) Add(t, t, t, 64, 2, BinaryRepeatParams());  // 2 x 256 bytes > 256 bytes
  if (which == 3) Brcb(t, t, 2, BrcbRepeatParams(1, 8));      // 2 x 8 blocks > 256 bytes
}

std::vector<float> input() {
  std::vector<float> x(kRows * kCols);
  for (std::uint32_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>((i * 37) % 101) - 50.0f + 0.25f * static_cast<float>(i / kCols);
  return x;
}

TEST(AttentionOps, RowMaxSumBroadcastAndSubtract) {
  std::vector<float> x = input();
  std::vector<float> out(kRows * kCols + 64 + kRows * 8, -1.0f);
  auto r = npusim::ascendc::run_blocks(&rows_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                      reinterpret_cast<GM_ADDR>(out.data()), 0u);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const float* red = &out[kRows * kCols];
  for (std::uint32_t row = 0; row < kRows; ++row) {
    float max = x[row * kCols];
    std::uint32_t arg = 0;
    float sum = 0;
    for (std::uint32_t c = 0; c < kCols; ++c) {
      if (x[row * kCols + c] > max) {
        max = x[row * kCols + c];
        arg = c;
      }
      if (c < 50) sum += x[row * kCols + c];
    }
    EXPECT_EQ(red[row], max);
    EXPECT_EQ(red[8 + 2 * row], max);
    std::uint32_t idx = 0;
    std::memcpy(&idx, &red[8 + 2 * row + 1], sizeof idx);
    // The pair's index is within the folded 64-column row: the column modulo 64.
    EXPECT_EQ(idx, arg % 64);
    EXPECT_EQ(red[16 + row], sum);
    for (std::uint32_t e = 0; e < 8; ++e) EXPECT_EQ(out[kRows * kCols + 64 + row * 8 + e], max);
    for (std::uint32_t c = 0; c < kCols; ++c)
      EXPECT_EQ(out[row * kCols + c], x[row * kCols + c] - max) << row << " " << c;
  }
  // One V instruction per call: elements = repeats x mask (Brcb: 8 blocks of 8 per repeat).
  std::vector<std::uint32_t> counts;
  std::vector<Op> ops;
  for (const auto& i : r.blocks[0].trace.instrs) {
    if (i.pipe != Pipe::kVector) continue;
    counts.push_back(i.count);
    ops.push_back(i.op);
  }
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{256, 256, 256, 200, 64, 256, 256}));
  EXPECT_EQ(ops, (std::vector<Op>{Op::kMax, Op::kReduceMax, Op::kReduceMax, Op::kReduceSum,
                                  Op::kDuplicate, Op::kSub, Op::kSub}));
}

TEST(AttentionOps, TimingOnlyModeRecordsTheSameButComputesNothing) {
  std::vector<float> x = input();
  std::vector<float> out(kRows * kCols + 64 + kRows * 8, -1.0f);
  auto full = npusim::ascendc::run_blocks(&rows_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                         reinterpret_cast<GM_ADDR>(out.data()), 0u);
  std::fill(out.begin(), out.end(), -1.0f);
  auto timing = npusim::ascendc::run_blocks(&rows_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                           reinterpret_cast<GM_ADDR>(out.data()), 1u);
  ASSERT_TRUE(full.ok() && timing.ok());
  // Timing-only: no op moved or computed data (copies to GM included), so out is untouched.
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], -1.0f) << i;
  const auto& a = full.blocks[0].trace.instrs;
  const auto& b = timing.blocks[0].trace.instrs;
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].op, b[i].op);
    EXPECT_EQ(a[i].count, b[i].count);
    EXPECT_EQ(a[i].bytes, b[i].bytes);
  }
}

TEST(AttentionOps, MisuseIsAKernelError) {
  for (std::uint32_t which : {0u, 2u, 3u}) {
    auto r = npusim::ascendc::run_blocks(&bad_mask_kernel, 1, static_cast<std::uint8_t*>(nullptr),
                                        static_cast<std::uint8_t*>(nullptr), which);
    EXPECT_FALSE(r.ok()) << which;
  }
  auto fine = npusim::ascendc::run_blocks(&bad_mask_kernel, 1, static_cast<std::uint8_t*>(nullptr),
                                         static_cast<std::uint8_t*>(nullptr), 1u);
  EXPECT_TRUE(fine.ok()) << fine.first_error();
}

}  // namespace
