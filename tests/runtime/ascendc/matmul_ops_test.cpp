// SPDX-License-Identifier: Apache-2.0
// The twin ops of npusim/ascendc/matmul_ops.h: GatherMask's built-in patterns (selection, packing,
// strides, count) and its refusals; LoadDataWithTranspose's refusals. (LoadDataWithTranspose's
// data movement is checked end to end by the FLOAT matmul tests of transposed operands,
// tests/runtime/aclnn/aclnn_matmul_test.cpp.)
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using namespace AscendC;
using npusim::ascendc::run_blocks;

GM_ADDR gm(void* p) { return reinterpret_cast<GM_ADDR>(p); }

// src (n elements) -> UB, GatherMask(pattern, repeats, block/repeat strides) -> GM dst; the count
// kept goes to count[0].
template <class T>
void gather_kernel(GM_ADDR src, GM_ADDR dst, GM_ADDR count, std::uint32_t n, std::uint32_t pattern,
                   std::uint32_t repeats, std::uint32_t block_stride, std::uint32_t repeat_stride) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> in_buf, out_buf;
  pipe.InitBuffer(in_buf, n * sizeof(T));
  pipe.InitBuffer(out_buf, n * sizeof(T));
  LocalTensor<T> in = in_buf.Get<T>();
  LocalTensor<T> out = out_buf.Get<T>();
  GlobalTensor<T> gs, gd;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src));
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst));
  DataCopy(in, gs, n);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  std::uint64_t kept = 0;
  GatherMask(
      out, in, static_cast<std::uint8_t>(pattern), false, 0,
      GatherMaskParams(static_cast<std::uint8_t>(block_stride), static_cast<std::uint16_t>(repeats),
                       static_cast<std::uint16_t>(repeat_stride), 0),
      kept);
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(gd, out, n);
  reinterpret_cast<std::uint64_t*>(count)[0] = kept;
}

template <class T>
std::vector<T> run_gather(std::uint32_t n, std::uint32_t pattern, std::uint32_t repeats,
                          std::uint32_t block_stride, std::uint32_t repeat_stride,
                          std::uint64_t* kept) {
  std::vector<T> src(n), dst(n, T(0));
  for (std::uint32_t i = 0; i < n; ++i) src[i] = T(static_cast<float>(i));
  std::uint64_t count = 0;
  auto r = run_blocks(&gather_kernel<T>, 1, gm(src.data()), gm(dst.data()), gm(&count), n, pattern,
                      repeats, block_stride, repeat_stride);
  EXPECT_TRUE(r.ok()) << r.first_error();
  *kept = count;
  return dst;
}

TEST(GatherMask, EvenOddAndQuarterPatternsPackTheSelection) {
  std::uint64_t kept = 0;
  // half: 128 elements per repeat; two contiguous repeats.
  std::vector<half> even = run_gather<half>(256, 1, 2, 1, 8, &kept);
  EXPECT_EQ(kept, 128u);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(static_cast<float>(even[i]), 2.0f * i) << i;
  std::vector<half> odd = run_gather<half>(256, 2, 2, 1, 8, &kept);
  EXPECT_EQ(kept, 128u);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(static_cast<float>(odd[i]), 2.0f * i + 1) << i;
  // float: 64 per repeat; pattern 4 keeps i % 4 == 1.
  std::vector<float> quarter = run_gather<float>(128, 4, 2, 1, 8, &kept);
  EXPECT_EQ(kept, 32u);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(quarter[i], 4.0f * i + 1) << i;
  std::vector<float> all = run_gather<float>(128, 7, 1, 1, 8, &kept);
  EXPECT_EQ(kept, 64u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(all[i], static_cast<float>(i)) << i;
}

TEST(GatherMask, BlockAndRepeatStridesPickTheSourceBlocks) {
  std::uint64_t kept = 0;
  // float, block stride 2 (every other 32-byte block), one repeat: blocks 0, 2, ..., 14.
  std::vector<float> out = run_gather<float>(128, 7, 1, 2, 16, &kept);
  EXPECT_EQ(kept, 64u);
  for (int b = 0; b < 8; ++b)
    for (int e = 0; e < 8; ++e) EXPECT_EQ(out[b * 8 + e], static_cast<float>(16 * b + e));
  // Repeat stride 16 blocks: the second repeat starts at element 128.
  std::vector<float> two = run_gather<float>(256, 1, 2, 1, 16, &kept);
  EXPECT_EQ(kept, 64u);
  EXPECT_EQ(two[31], 62.0f);
  EXPECT_EQ(two[32], 128.0f);
}

TEST(GatherMask, RefusesBadPatternsAndOverruns) {
  std::uint64_t kept = 0;
  std::vector<float> src(64), dst(64);
  auto bad_pattern = run_blocks(&gather_kernel<float>, 1, gm(src.data()), gm(dst.data()), gm(&kept),
                                64u, 9u, 1u, 1u, 8u);
  EXPECT_FALSE(bad_pattern.ok());
  auto overrun = run_blocks(&gather_kernel<float>, 1, gm(src.data()), gm(dst.data()), gm(&kept),
                            64u, 7u, 2u, 1u, 8u);  // two repeats of 64 over 64 elements
  EXPECT_FALSE(overrun.ok());
}

void transpose_kernel(std::uint32_t repeats, std::uint32_t frac_gap) {
  TPipe pipe;
  TQue<TPosition::B1, 1> l1;
  TQue<TPosition::B2, 1> l0;
  pipe.InitBuffer(l1, 1, 4096);
  pipe.InitBuffer(l0, 1, 2048);
  LocalTensor<float> src = l1.AllocTensor<float>();
  LocalTensor<float> dst = l0.AllocTensor<float>();
  LoadDataWithTranspose(dst, src,
                        LoadData2dTransposeParams(0, static_cast<std::uint8_t>(repeats), 1, 0,
                                                  static_cast<std::uint16_t>(frac_gap), 0));
}

TEST(LoadDataWithTranspose, RefusesSquaresBeyondEitherTensor) {
  EXPECT_TRUE(run_blocks(&transpose_kernel, 1, 2u, 0u).ok());   // 2 squares, 4 fractals
  EXPECT_FALSE(run_blocks(&transpose_kernel, 1, 5u, 0u).ok());  // 5 KiB of a 4 KiB source
  EXPECT_FALSE(run_blocks(&transpose_kernel, 1, 2u, 4u).ok());  // second fractal past 2 KiB
}

}  // namespace
