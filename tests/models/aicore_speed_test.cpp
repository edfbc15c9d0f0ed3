// SPDX-License-Identifier: Apache-2.0
// Replay speed: pipe instructions replayed per wall-clock second for 48-block vector kernels and
// 24-block cube kernels on the 910B-shaped test chip (timeline off), including dispatch and the
// (trivial) run_block copy of a prebuilt trace. Prints the figures; asserts only that the work ran.
#include <chrono>
#include <cstdio>

#include <gtest/gtest.h>

#include "tests/models/aicore_bench.h"

namespace npusim::models::testing {
namespace {

void report(const char* what, KernelBench& bench, double seconds, int kernels) {
  const double instrs = bench.stat("chip0.aicore.instructions");
  std::printf("%s: %d kernels, %.0f blocks, %.0f instructions in %.3f s wall = %.2f M instr/s, "
              "%.1f us wall per kernel\n",
              what, kernels, bench.stat("chip0.aicore.blocks"), instrs, seconds,
              instrs / seconds / 1e6, seconds * 1e6 / kernels);
}

TEST(AiCoreSpeed, ReplayedInstructionsPerWallSecond) {
  KernelBench bench(aicore_config(), false);
  constexpr int kKernels = 400;
  // Memory-bound vector add: 16 tiles, 64 instructions per block, 3 of 4 touch GM.
  const BlockTrace vadd = vector_add_trace(16, 8192, 2);
  // Cube kernel: 8 k-steps, 41 instructions per block, 2 of 5 touch GM.
  const BlockTrace mm = matmul_trace(128, 256, 512, 64, 2);
  for (int i = 0; i < kKernels; ++i) {
    bench.launch(1, work_of("vadd", 48, CoreType::kAiv, vadd));
    bench.launch(2, work_of("mm", 24, CoreType::kAic, mm));
  }
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report("vadd + matmul", bench, s, 2 * kKernels);
  EXPECT_EQ(bench.stat("chip0.aicore.kernels"), 2.0 * kKernels);
  EXPECT_EQ(bench.stat("chip0.aicore.instructions"),
            kKernels * (48.0 * vadd.instrs.size() + 24.0 * mm.instrs.size()));
}

}  // namespace
}  // namespace npusim::models::testing
