// SPDX-License-Identifier: Apache-2.0
// The twin's Gather, Compare and Select (npusim/ascendc/shape_ops.h): results, the recorded V
// instruction, misuse as KernelError, and timing-only mode (instructions recorded, no element
// written).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using npusim::ascendc::run_blocks;

GM_ADDR gm(void* p) { return reinterpret_cast<GM_ADDR>(p); }

// dst[i] = src at byte base + offsets[i]; 64 floats in, n out. `functional` false: timing-only.
void gather_kernel(GM_ADDR src, GM_ADDR offsets, GM_ADDR dst, std::uint32_t n, std::uint32_t base,
                   bool functional) {
  npusim::ascendc::block().functional = functional;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> s, o, d;
  pipe.InitBuffer(s, 64 * 4);
  pipe.InitBuffer(o, 64 * 4);
  pipe.InitBuffer(d, 64 * 4);
  AscendC::GlobalTensor<float> gs, gd;
  AscendC::GlobalTensor<std::uint32_t> go;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src));
  go.SetGlobalBuffer(reinterpret_cast<__gm__ std::uint32_t*>(offsets));
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst));
  AscendC::LocalTensor<float> ls = s.Get<float>(), ld = d.Get<float>();
  AscendC::LocalTensor<std::uint32_t> lo = o.Get<std::uint32_t>();
  AscendC::DataCopy(ls, gs, 64);
  AscendC::DataCopy(lo, go, 64);
  AscendC::Duplicate(ld, -1.0f, 64);
  AscendC::Gather(ld, ls, lo, base, n);
  AscendC::DataCopy(gd, ld, 64);
}

// mask = a > b; out = mask ? a : b (an element-wise max through Compare + Select).
void select_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR out, GM_ADDR mask_out, std::uint32_t n) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ta, tb, tm, to;
  pipe.InitBuffer(ta, 64 * 2);
  pipe.InitBuffer(tb, 64 * 2);
  pipe.InitBuffer(to, 64 * 2);
  pipe.InitBuffer(tm, 32);
  AscendC::GlobalTensor<half> ga, gb, gout;
  AscendC::GlobalTensor<std::uint8_t> gm;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gout.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ std::uint8_t*>(mask_out));
  AscendC::LocalTensor<half> la = ta.Get<half>(), lb = tb.Get<half>(), lo = to.Get<half>();
  AscendC::LocalTensor<std::uint8_t> lm = tm.Get<std::uint8_t>();
  AscendC::DataCopy(la, ga, 64);
  AscendC::DataCopy(lb, gb, 64);
  AscendC::Compare(lm, la, lb, AscendC::CMPMODE::GT, n);
  AscendC::Select(lo, lm, la, lb, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
  AscendC::DataCopy(gout, lo, 64);
  AscendC::DataCopy(gm, lm, 32);
}

TEST(ShapeOps, GatherPicksElementsByByteOffset) {
  std::vector<float> src(64), dst(64, 0.0f);
  std::vector<std::uint32_t> off(64);
  for (int i = 0; i < 64; ++i) {
    src[i] = static_cast<float>(i) + 0.5f;
    off[i] = static_cast<std::uint32_t>((63 - i) % 32) * 4;  // reversed, within the first half
  }
  auto r = run_blocks(&gather_kernel, 1, gm(src.data()), gm(off.data()), gm(dst.data()), 48u, 128u,
                      true);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 48; ++i) EXPECT_EQ(dst[i], src[32 + (63 - i) % 32]) << i;
  for (int i = 48; i < 64; ++i) EXPECT_EQ(dst[i], -1.0f) << i;  // beyond count: untouched
  // One V instruction of 48 x 4 bytes between the Duplicate and the copy out.
  const auto& ins = r.blocks[0].trace.instrs;
  ASSERT_EQ(ins.size(), 5u);  // copy, copy, Duplicate, Gather, copy
  EXPECT_EQ(ins[3].pipe, npusim::ascendc::Pipe::kVector);
  EXPECT_EQ(ins[3].count, 48u);
  EXPECT_EQ(ins[3].bytes, 48u * 4u);
}

TEST(ShapeOps, GatherOutsideTheSourceIsAKernelError) {
  std::vector<float> src(64), dst(64);
  std::vector<std::uint32_t> off(64, 0);
  off[5] = 64 * 4;  // one past the end
  auto r =
      run_blocks(&gather_kernel, 1, gm(src.data()), gm(off.data()), gm(dst.data()), 8u, 0u, true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find("Gather"), std::string::npos) << r.first_error();
  off[5] = 2;  // not element aligned
  r = run_blocks(&gather_kernel, 1, gm(src.data()), gm(off.data()), gm(dst.data()), 8u, 0u, true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find("unaligned"), std::string::npos) << r.first_error();
}

TEST(ShapeOps, GatherInTimingOnlyModeRecordsButWritesNothing) {
  std::vector<float> src(64, 7.0f), dst(64, 0.0f);
  std::vector<std::uint32_t> off(64, 0);
  auto r =
      run_blocks(&gather_kernel, 1, gm(src.data()), gm(off.data()), gm(dst.data()), 64u, 0u, false);
  ASSERT_TRUE(r.ok()) << r.first_error();
  ASSERT_EQ(r.blocks[0].trace.instrs.size(), 5u);
  EXPECT_EQ(r.blocks[0].trace.instrs[3].bytes, 64u * 4u);
  // (The Duplicate before it may or may not write in timing-only mode; Gather must not have
  // replaced its result with 7.)
  for (int i = 0; i < 64; ++i) EXPECT_NE(dst[i], 7.0f) << i;
}

// In timing-only mode the offsets are undefined data (nothing computed them): out-of-range or
// unaligned values are not errors there (a timing-only MaxPool2dWithIndices replay used to stop on
// them), and the recorded instruction is the same as with good offsets.
TEST(ShapeOps, GatherInTimingOnlyModeIgnoresUndefinedOffsets) {
  std::vector<float> src(64), dst(64);
  std::vector<std::uint32_t> off(64, 0xFFFFFFF3u);
  auto r =
      run_blocks(&gather_kernel, 1, gm(src.data()), gm(off.data()), gm(dst.data()), 64u, 0u, false);
  ASSERT_TRUE(r.ok()) << r.first_error();
  ASSERT_EQ(r.blocks[0].trace.instrs.size(), 5u);
  EXPECT_EQ(r.blocks[0].trace.instrs[3].bytes, 64u * 4u);
  // The same offsets in a functional run are the kernel's error.
  r = run_blocks(&gather_kernel, 1, gm(src.data()), gm(off.data()), gm(dst.data()), 64u, 0u, true);
  EXPECT_FALSE(r.ok());
}

TEST(ShapeOps, CompareAndSelectMakeAnElementwiseMax) {
  std::vector<half> a(64), b(64), out(64);
  std::vector<std::uint8_t> mask(32, 0xee);
  for (int i = 0; i < 64; ++i) {
    a[i] = half(static_cast<float>(i % 7));
    b[i] = half(static_cast<float>(i % 5));
  }
  auto r = run_blocks(&select_kernel, 1, gm(a.data()), gm(b.data()), gm(out.data()),
                      gm(mask.data()), 64u);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 64; ++i) {
    const bool gt = i % 7 > i % 5;
    EXPECT_EQ(((mask[i / 8] >> (i % 8)) & 1) != 0, gt) << i;
    EXPECT_EQ(static_cast<float>(out[i]), static_cast<float>(gt ? a[i] : b[i])) << i;
  }
}

}  // namespace
