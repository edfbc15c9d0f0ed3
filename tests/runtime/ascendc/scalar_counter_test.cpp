// SPDX-License-Identifier: Apache-2.0
// Scalar work counting: kernels built with -fsanitize-coverage=trace-pc report their basic
// blocks to the running block; the twin's own code (vector op loops) is not counted.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "cube_kernels.h"
#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"

extern "C" void scalar_loop(GM_ADDR out, uint32_t n);
extern "C" void vector_only(GM_ADDR out, uint32_t n);
extern "C" void twin_bodies_only(GM_ADDR out, uint32_t n);
extern "C" void __sanitizer_cov_trace_pc();

namespace {

std::uint64_t bbs_of(void (*kernel)(GM_ADDR, uint32_t), uint32_t n) {
  std::vector<float> out(4096);
  auto r = npusim::ascendc::run_blocks(kernel, 1, reinterpret_cast<GM_ADDR>(out.data()), n);
  EXPECT_TRUE(r.ok()) << r.first_error();
  return r.blocks[0].trace.scalar_bbs;
}

TEST(ScalarCounter, CountsBasicBlocksDeterministically) {
  const std::uint64_t b0 = bbs_of(&scalar_loop, 0);
  const std::uint64_t b1 = bbs_of(&scalar_loop, 3000);
  const std::uint64_t b2 = bbs_of(&scalar_loop, 6000);
  EXPECT_GT(b0, 0u);
  EXPECT_GE(b1 - b0, 3000u);  // at least one basic block per iteration
  EXPECT_LE(b1 - b0, 3000u * 8u);
  EXPECT_EQ(b2 - b1, b1 - b0);                // linear in the work
  EXPECT_EQ(bbs_of(&scalar_loop, 3000), b1);  // deterministic
}

TEST(ScalarCounter, TwinInternalsAreNotScalarWork) {
  EXPECT_EQ(bbs_of(&vector_only, 16), bbs_of(&vector_only, 4096));
}

TEST(ScalarCounter, TwinBodiesCountNothingEvenWithoutScalarPause) {
  EXPECT_EQ(bbs_of(&twin_bodies_only, 16), bbs_of(&twin_bodies_only, 4096));
}

// One LoadData x2 + Mmad + Fixpipe of a t x t x t bf16 tile: {scalar_bbs, callbacks made while
// the cube calls ran (one_mmad_callbacks: not undone by ScalarPause)}.
std::pair<std::uint64_t, std::uint64_t> cube_counts(std::uint32_t t) {
  std::vector<bfloat16_t> a(t * t, bfloat16_t(1.0f)), b(t * t, bfloat16_t(0.5f)), out(t * t);
  auto r = npusim::ascendc::run_blocks(
      &cube_kernels::one_mmad, 1, reinterpret_cast<GM_ADDR>(a.data()),
      reinterpret_cast<GM_ADDR>(b.data()), reinterpret_cast<GM_ADDR>(out.data()), t);
  EXPECT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(static_cast<float>(out[t * t - 1]), 0.5f * static_cast<float>(t));
  std::uint64_t callbacks = 0;
  auto rc = npusim::ascendc::run_blocks(
      &cube_kernels::one_mmad_callbacks, 1, reinterpret_cast<GM_ADDR>(a.data()),
      reinterpret_cast<GM_ADDR>(b.data()), reinterpret_cast<GM_ADDR>(out.data()), t, &callbacks);
  EXPECT_TRUE(rc.ok()) << rc.first_error();
  return {r.blocks[0].trace.scalar_bbs, callbacks};
}

TEST(ScalarCounter, CubeOpsCountTheSameForAnyTileSize) {
  EXPECT_EQ(cube_counts(16).first, cube_counts(128).first);
}

// The element loops of LoadData / Mmad / Fixpipe (and the half conversions they do) are not
// instrumented at all: a 128^3 tile (2 M MACs) makes as many callbacks as a 16^3 one, a few
// hundred at most (the API shells around the twin bodies).
TEST(ScalarCounter, CubeElementLoopsMakeNoCallbacks) {
  const std::uint64_t small = cube_counts(16).second;
  EXPECT_EQ(cube_counts(128).second, small);
  EXPECT_LT(small, 500u);
}

TEST(ScalarCounter, InstructionsCarryTheCounterAtIssue) {
  std::vector<float> out(4);
  auto r = npusim::ascendc::run_blocks(&vector_only, 1, reinterpret_cast<GM_ADDR>(out.data()), 64u);
  ASSERT_TRUE(r.ok());
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 3u);
  EXPECT_LE(t.instrs[0].scalar_bbs, t.instrs[1].scalar_bbs);
  EXPECT_LE(t.instrs[2].scalar_bbs, t.scalar_bbs);
}

TEST(ScalarCounter, CallbackOutsideALaunchIsHarmless) {
  __sanitizer_cov_trace_pc();
  SUCCEED();
}

}  // namespace
