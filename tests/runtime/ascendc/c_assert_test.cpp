// SPDX-License-Identifier: Apache-2.0
// The C assert of kernel code in npusim-asc builds (npusim/libc/assert.h, on the include path
// first for this file as npusim-asc puts it): inside a block a failed assert prints CANN 9's
// "[ASSERT] <file>:<line>: : Assertion `<expr>' failed." and traps that block only; outside a
// block it is the C library's assert (message on stderr, abort).
#undef NDEBUG  // the build type may define it; this test needs assert on
#include <cassert>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"

namespace {

extern "C" __global__ __vector__ void c_assert_below(GM_ADDR limit_ptr) {
  const std::uint32_t limit = *reinterpret_cast<__gm__ std::uint32_t*>(limit_ptr);
  assert(AscendC::GetBlockIdx() < limit && "block past the limit");
  AscendC::printf("block %d ok\n", static_cast<int>(AscendC::GetBlockIdx()));
}

TEST(CAssert, FailsTheBlockAsADeviceAssertion) {
  std::uint32_t limit = 2;
  auto r = npusim::ascendc::run_blocks(&c_assert_below, 3, reinterpret_cast<GM_ADDR>(&limit));
  EXPECT_EQ(r.blocks[0].printf_out, "block 0 ok\n");
  EXPECT_EQ(r.blocks[1].printf_out, "block 1 ok\n");
  EXPECT_NE(r.blocks[2].error.find("trap"), std::string::npos) << r.blocks[2].error;
  EXPECT_EQ(r.blocks[2].printf_out,
            std::string("[ASSERT] ") + __FILE__ +
                ":21: : Assertion `AscendC::GetBlockIdx() < limit && \"block past the limit\"' "
                "failed.\n");
}

TEST(CAssertDeathTest, OutsideAKernelItIsTheCLibraryAssert) {
  const int zero = 0;
  EXPECT_DEATH(assert(zero == 1), "Assertion `zero == 1' failed");
}

}  // namespace
