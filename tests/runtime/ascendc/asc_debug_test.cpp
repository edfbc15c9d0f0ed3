// SPDX-License-Identifier: Apache-2.0
// CANN 9 device API of the twin: ascendc_assert (message, trap, only when false) and the
// parameter structs' CANN 9 constructor forms.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using npusim::ascendc::run_blocks;

extern "C" __global__ __aicore__ void assert_block_below(GM_ADDR limit_ptr) {
  const std::uint32_t limit = *reinterpret_cast<__gm__ std::uint32_t*>(limit_ptr);
  ascendc_assert(AscendC::GetBlockIdx() < limit, "block %d of %d is past %u\n",
                 static_cast<int>(AscendC::GetBlockIdx()), static_cast<int>(AscendC::GetBlockNum()),
                 limit);
  ascendc_assert(limit > 0);
  AscendC::printf("block %d ok\n", static_cast<int>(AscendC::GetBlockIdx()));
}

TEST(AscDebug, AssertPrintsAndTrapsOnlyWhenFalse) {
  std::uint32_t limit = 4;
  auto r = run_blocks(&assert_block_below, 4, reinterpret_cast<GM_ADDR>(&limit));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(r.printf_all(), "block 0 ok\nblock 1 ok\nblock 2 ok\nblock 3 ok\n");

  limit = 2;
  r = run_blocks(&assert_block_below, 3, reinterpret_cast<GM_ADDR>(&limit));
  EXPECT_TRUE(r.blocks[0].error.empty());
  EXPECT_TRUE(r.blocks[1].error.empty());
  EXPECT_NE(r.blocks[2].error.find("trap"), std::string::npos) << r.blocks[2].error;
  const std::string& text = r.blocks[2].printf_out;
  EXPECT_NE(text.find("[ASSERT] "), std::string::npos) << text;
  EXPECT_NE(text.find("asc_debug_test.cpp:18: Assertion `AscendC::GetBlockIdx() < limit' "
                      "block 2 of 3 is past 2\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("block 2 ok"), std::string::npos);  // the block stopped at the assert

  limit = 0;  // the message-less form
  r = run_blocks(&assert_block_below, 1, reinterpret_cast<GM_ADDR>(&limit));
  EXPECT_NE(r.blocks[0].printf_out.find("Assertion `AscendC::GetBlockIdx() < limit' block 0 of 1"),
            std::string::npos);
}

TEST(AscDebug, Cann9ParameterForms) {
  const AscendC::MmadParams mm{128, 64, 32, 2, false, false};
  EXPECT_EQ(mm.m, 128);
  EXPECT_EQ(mm.n, 64);
  EXPECT_EQ(mm.k, 32);
  EXPECT_EQ(mm.unitFlag, 2);
  EXPECT_FALSE(mm.cmatrixSource);
  EXPECT_FALSE(mm.cmatrixInitVal);  // accumulate into C
  const AscendC::MmadParams defaults{16, 16, 16};
  EXPECT_TRUE(defaults.cmatrixInitVal);
  const AscendC::FixpipeParamsV220 fp{64, 128, 128, 256, true, QuantMode_t::F322F16, 0, 1, 0, 0, 3};
  EXPECT_EQ(fp.nSize, 64);
  EXPECT_EQ(fp.mSize, 128);
  EXPECT_EQ(fp.dstStride, 256u);
  EXPECT_TRUE(fp.reluEn);
  EXPECT_EQ(fp.quantPre, QuantMode_t::F322F16);
  EXPECT_EQ(fp.ndNum, 1);
  EXPECT_EQ(fp.unitFlag, 3);
  EXPECT_FALSE(fp.isChannelSplit);
}

}  // namespace
