// SPDX-License-Identifier: Apache-2.0
// The AI Core model through the chip: block dispatch, waves, caps, batch mode, errors, sharing of
// cores and HBM between kernels, memory- and compute-bound kernels, double buffering,
// determinism. Configuration: aicore_config() (tests/models/aicore_bench.h): 1 GHz so 1 cycle =
// 1 ns; a kernel task pays doorbell 500 + dispatch 200 ns, kernel_launch 1 us, block_launch 1 us,
// and completion 300 ns after its last block.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/models/aicore_bench.h"

namespace npusim::models::testing {
namespace {

constexpr SimTime kFirstBlock = 1700 * kNs;  // 500 doorbell + 200 dispatch + 1 us kernel_launch

/// Time from a kernel's first block dispatch to its last block end, minus the block launch.
double exec_ns(const KernelRecord& r) {
  return static_cast<double>(r.last_block_end - r.first_block - 1 * kUs) / kNs;
}

TEST(AiCore, SingleBlockVectorAddHasExactTimes) {
  KernelBench bench;
  // 2 tiles of 1 KiB per operand, double buffered. Block start S = 2700 ns. Per tile: MTE2 copy
  // 10 + 1024/32 = 42 cycles, data 110 ns later (L2 10 + HBM 100; the HBM slot of 1.024 ns is
  // hidden); Add 10 + 4 = 14; MTE3 copy 10 + 1024/64 = 26, write acknowledged 10 ns later.
  //   x0 [S, S+42) end S+152     y0 [S+42, S+84) end S+194     add0 [S+194, S+208)
  //   out0 [S+208, S+234) end S+244
  //   x1 [S+84, S+126) end S+236  y1 [S+126, S+168) end S+278  add1 [S+278, S+292)
  //   out1 [S+292, S+318) end S+328 = block end.
  Seen& k = bench.launch(1, work_of("add", 1, CoreType::kAiv, vector_add_trace(2, 1024, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(k.out.error, 0);
  EXPECT_EQ(k.out.start, 700 * kNs);
  EXPECT_EQ(k.out.end, (2700 + 328 + 300) * kNs);
  const KernelRecord& r = bench.record(0);
  EXPECT_EQ(r.first_block, kFirstBlock);
  EXPECT_EQ(r.last_block_end, (2700 + 328) * kNs);
  EXPECT_EQ(r.task_type, "AI_VECTOR_CORE");
  EXPECT_EQ(r.instrs, 8u);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv0.blocks"), 1.0);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv0.mte2_busy_cycles"), 168.0);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv0.vector_busy_cycles"), 28.0);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv0.mte3_busy_cycles"), 52.0);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv0.scalar_busy_cycles"), 8.0);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv0.busy_cycles"), 328.0);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv1.blocks"), 0.0);
  EXPECT_EQ(bench.stat("chip0.l2.read_bytes"), 4096.0);
  EXPECT_EQ(bench.stat("chip0.hbm.bytes"), 6144.0);
}

TEST(AiCore, MemoryBoundKernelFollowsCoreRateThenHbmBandwidth) {
  KernelBench bench;
  // Each block: 32 tiles of 8 KiB x, y in and z out, double buffered. MTE2 is the bottleneck:
  // 2 x (10 + 256) = 532 cycles per tile for 24 KiB of traffic, i.e. 46.2 B/ns per core; HBM
  // carries all of it (no L2 hits) at 1000 B/ns. Expected execution: total bytes /
  // min(cores x 46.2, 1000) B/ns; fill and drain add ~300 ns.
  const int blocks[] = {1, 2, 4, 8, 16, 24, 32, 48};
  const BlockTrace trace = vector_add_trace(32, 8192, 2);
  for (int n : blocks) bench.launch(1, work_of("add", n, CoreType::kAiv, trace));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const double per_core = 3.0 * 8192 / 532;  // B/ns
  for (std::uint32_t i = 0; i < std::size(blocks); ++i) {
    const double bytes = 3.0 * 8192 * 32 * blocks[i];
    const double expected = bytes / std::min(per_core * blocks[i], 1000.0);
    const double got = exec_ns(bench.record(i));
    std::printf("blocks %2d: %8.0f ns, model %8.0f ns (%.3f)\n", blocks[i], got, expected,
                got / expected);
    EXPECT_GT(got, expected) << blocks[i];
    EXPECT_LT(got, expected * 1.04) << blocks[i];
  }
  EXPECT_EQ(bench.stat("chip0.aicore.kernels"), 8.0);
}

TEST(AiCore, TiledMatmulReachesCubePeakWhenLargeAndIsMemoryBoundWhenSmall) {
  ChipConfig cfg = aicore_config();
  cfg.l2.read_hit_rate = 1.0;               // operands shared between blocks stay in L2
  cfg.aicore.mte2_l2_bytes_per_cycle = 128;
  KernelBench bench(cfg);
  // Large: per block C 128 x 256, K 4096 in steps of 64. Per step: Mmad 10 + 8*16*4 = 522
  // cycles; MTE2 A 16 KiB + B 32 KiB at 128 B/cycle = 404; MTE1 42 + 138 = 180: cube-bound.
  bench.launch(1, work_of("mm_large", 24, CoreType::kAic, matmul_trace(128, 256, 4096, 64, 2)));
  // Small: 32 x 32 x 32 per block, one step: Mmad 10 + 8 cycles between ~80 cycles of copies in
  // and a 42-cycle Fixpipe out.
  bench.launch(1, work_of("mm_small", 24, CoreType::kAic, matmul_trace(32, 32, 32, 32, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const KernelRecord& large = bench.record(0);
  const double macs = 24.0 * 128 * 256 * 4096;
  const double peak_per_ns = 24.0 * 4096;
  const double duration = static_cast<double>(large.end - large.start) / kNs;
  const double efficiency = macs / (duration * peak_per_ns);
  std::printf("large matmul: %.0f ns task, %.1f%% of cube peak\n", duration, 100 * efficiency);
  EXPECT_GE(efficiency, 0.80);
  EXPECT_EQ(large.task_type, "AI_CORE");
  EXPECT_GT(large.aic.busy[static_cast<int>(Pipe::kCube)],
            large.aic.busy[static_cast<int>(Pipe::kMte2)]);
  const KernelRecord& small = bench.record(1);
  const double small_eff = 24.0 * 32 * 32 * 32 / (exec_ns(small) * peak_per_ns);
  std::printf("small matmul: %.0f ns execution, %.2f%% of cube peak\n", exec_ns(small),
              100 * small_eff);
  EXPECT_LT(small_eff, 0.1);
  const auto& busy = small.aic.busy;
  const SimTime moves = busy[static_cast<int>(Pipe::kMte2)] + busy[static_cast<int>(Pipe::kMte1)] +
                        busy[static_cast<int>(Pipe::kFixpipe)];
  EXPECT_GT(moves, 4 * busy[static_cast<int>(Pipe::kCube)]);
  EXPECT_EQ(bench.stat("chip0.l2.hit_bytes"), bench.stat("chip0.l2.read_bytes"));
}

/// `trace` with GM addresses: MTE2 reads at `read_base` + their offset in the block's read stream,
/// writes at `write_base` + theirs (so blocks given the same bases read the same bytes).
BlockTrace with_addresses(BlockTrace trace, std::uint64_t read_base, std::uint64_t write_base) {
  std::uint64_t r = 0, w = 0;
  for (Instr& in : trace.instrs) {
    if (in.src == Mem::kGm) {
      in.gm_addr = read_base + r;
      r += in.bytes;
    } else if (in.dst == Mem::kGm) {
      in.gm_addr = write_base + w;
      w += in.bytes;
    }
  }
  return trace;
}

KernelWork addressed(const std::string& name, std::uint32_t blocks, CoreType type,
                     const BlockTrace& trace, std::uint64_t read_stride,
                     std::uint64_t write_stride) {
  KernelWork w = work_of(name, blocks, type, trace);
  auto shared = std::make_shared<const BlockTrace>(trace);
  w.run_block = [shared, read_stride, write_stride](std::uint32_t block, BlockTrace& out) {
    out = with_addresses(*shared, 0x100000000ull + block * read_stride,
                         0x900000000ull + block * write_stride);
    return 0;
  };
  return w;
}

// Address-based L2 (l2_tags.h), 1 MiB: 24 matmul blocks that all read the same A and B
// (768 KiB) fetch them from HBM once and hit afterwards; the same blocks reading operands of
// their own (24 x 768 KiB, far more than L2) miss throughout and run slower (MTE2 at its HBM
// rate); a second pass of a 24 MiB stream finds nothing of its first pass. (One chip per test
// process: three tests.)
constexpr std::uint64_t kMmOperands = 2ull * 128 * 1024 + 2ull * 1024 * 256;  // A + B per block

ChipConfig l2_config() {
  ChipConfig cfg = aicore_config();
  cfg.l2.size = sim::Bytes{1 << 20};
  return cfg;
}

TEST(AiCore, L2SharedOperandsAreFetchedOnceThenHit) {
  KernelBench bench(l2_config());
  bench.launch(1, addressed("shared", 24, CoreType::kAic, matmul_trace(128, 256, 1024, 64, 2), 0,
                            0));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(bench.stat("chip0.l2.read_bytes"), 24.0 * kMmOperands);
  EXPECT_EQ(bench.stat("chip0.l2.fill_bytes"), 1.0 * kMmOperands);
  EXPECT_EQ(bench.stat("chip0.l2.hit_bytes"), 23.0 * kMmOperands);
  EXPECT_EQ(bench.stat("chip0.l2.untagged_bytes"), 0.0);
  // MTE2 at the L2 rate (64 B/cycle): per step A 16 KiB + B 32 KiB = 768 cycles + startups,
  // more than the 522-cycle Mmad: about 16 steps x ~790 cycles per block (the private case
  // below: over 16 x 1536).
  const double ns = exec_ns(bench.record(0));
  std::printf("shared operands: %.0f ns\n", ns);
  EXPECT_LT(ns, 16 * 1000.0);  // plus the first fetch and the Fixpipe drain
}

TEST(AiCore, L2PrivateOperandsLargerThanL2MissAndRunAtTheHbmRate) {
  KernelBench bench(l2_config());
  bench.launch(1, addressed("private", 24, CoreType::kAic, matmul_trace(128, 256, 1024, 64, 2),
                            kMmOperands, 2 * 128 * 256));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(bench.stat("chip0.l2.hit_bytes"), 0.0);
  EXPECT_EQ(bench.stat("chip0.l2.fill_bytes"), 24.0 * kMmOperands);
  // MTE2 at its HBM rate (32 B/cycle): 1536 cycles per step; 24 cores x 48 KiB per 1.5 us is
  // 0.77 TB/s, under the 1 TB/s HBM: core-bound, about twice the shared case.
  const double ns = exec_ns(bench.record(0));
  std::printf("private operands: %.0f ns\n", ns);
  EXPECT_GT(ns, 16 * 1536.0);
}

TEST(AiCore, L2AStreamLargerThanL2FindsNothingOfItsFirstPass) {
  KernelBench bench(l2_config());
  const BlockTrace add = vector_add_trace(32, 8192, 2);  // 512 KiB read per block
  bench.launch(1, addressed("stream", 48, CoreType::kAiv, add, 512 * 1024, 256 * 1024));
  bench.launch(1, addressed("again", 48, CoreType::kAiv, add, 512 * 1024, 256 * 1024));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(bench.stat("chip0.l2.hit_bytes"), 0.0);
  EXPECT_EQ(bench.stat("chip0.l2.fill_bytes"), 2.0 * 48 * 512 * 1024);
  EXPECT_GT(bench.stat("chip0.l2.writeback_bytes"), 0.0);
}

// A kernel nobody typed (no engine attribute, never run before: core_type_known false, kAiv as a
// placeholder) runs block 0 when it arrives and takes its cores from what block 0 used: a cube
// kernel runs on AIC cores from its first launch, exactly as when launched typed.
TEST(AiCore, AnUntypedCubeKernelRunsOnCubeCoresFromItsFirstLaunch) {
  KernelBench bench(aicore_config());
  const BlockTrace mm = matmul_trace(128, 256, 1024, 64, 2);
  KernelWork untyped = work_of("untyped", 48, CoreType::kAiv, mm);
  untyped.core_type_known = false;
  bench.launch(1, std::move(untyped));
  bench.launch(1, work_of("typed", 48, CoreType::kAic, mm), 1 * kMs);
  KernelWork vec = work_of("untyped_vector", 48, CoreType::kAiv, vector_add_trace(2, 1024, 2));
  vec.core_type_known = false;
  bench.launch(1, std::move(vec), 2 * kMs);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const KernelRecord& first = bench.record(0);
  const KernelRecord& typed = bench.record(1);
  EXPECT_EQ(first.task_type, "AI_CORE");
  EXPECT_EQ(first.end - first.start, typed.end - typed.start);
  EXPECT_EQ(first.aic.busy, typed.aic.busy);
  EXPECT_EQ(bench.record(2).task_type, "AI_VECTOR_CORE");  // a vector kernel stays on AIV cores
}

TEST(AiCore, DoubleBufferingShortensAPipelinedKernel) {
  KernelBench bench;
  // 16 tiles of 8 KiB. Depth 2: MTE2-bound, 532 ns per tile. Depth 1: the next copy-in waits
  // for the Add, which waits for the copy-in's data: 532 + 110 latency + 42 Add = 684 ns per tile.
  bench.launch(1, work_of("single", 1, CoreType::kAiv, vector_add_trace(16, 8192, 1)));
  bench.launch(1, work_of("double", 1, CoreType::kAiv, vector_add_trace(16, 8192, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const double single = exec_ns(bench.record(0));
  const double dbl = exec_ns(bench.record(1));
  std::printf("depth 1: %.0f ns, depth 2: %.0f ns\n", single, dbl);
  EXPECT_NEAR(single, 16 * 684.0, 300.0);
  EXPECT_NEAR(dbl, 16 * 532.0, 400.0);
  EXPECT_LT(dbl, 0.8 * single);
}

TEST(AiCore, FortyEightBlocksUnderACapOfEightRunInSixWaves) {
  KernelBench bench;
  const BlockTrace trace = vector_add_trace(4, 8192, 2);
  bench.launch(1, work_of("one", 1, CoreType::kAiv, trace));
  KernelWork capped = work_of("capped", 48, CoreType::kAiv, trace);
  capped.max_cores = 8;
  bench.launch(1, std::move(capped));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const KernelRecord& one = bench.record(0);
  const KernelRecord& waves = bench.record(1);
  const SimTime block = one.last_block_end - one.first_block;  // launch + execution
  // 8 cores x 46 B/ns stay below HBM's 1000 B/ns: every wave takes exactly one block's time.
  EXPECT_EQ(waves.last_block_end - waves.first_block, 6 * block);
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv" + std::to_string(c) + ".blocks"),
              c == 0 ? 7.0 : 6.0);
  }
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv8.blocks"), 0.0);
  EXPECT_EQ(waves.blocks_run, 48u);
}

TEST(AiCore, BatchModeWaitsUntilAllItsBlocksCanStart) {
  KernelBench bench;
  const BlockTrace trace = vector_add_trace(8, 8192, 2);
  // Round 1: A takes 40 of the 48 AIVs; B (16 blocks) starts 8 blocks at once on the rest.
  bench.launch(1, work_of("A", 40, CoreType::kAiv, trace));
  bench.launch(2, work_of("B", 16, CoreType::kAiv, trace));
  // Round 2 (1 ms later), the same with B in batch mode: it waits for 16 free cores.
  bench.launch(1, work_of("A2", 40, CoreType::kAiv, trace), 1 * kMs);
  KernelWork batch = work_of("B2", 16, CoreType::kAiv, trace);
  batch.batch_mode = true;
  bench.launch(2, std::move(batch), 1 * kMs);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(bench.record(1).first_block, bench.record(0).first_block);
  const KernelRecord& a2 = bench.record(2);
  const KernelRecord& b2 = bench.record(3);
  EXPECT_EQ(a2.first_block, 1 * kMs + kFirstBlock);
  EXPECT_GT(b2.first_block, a2.first_block);
  // The earliest 8 of A2's blocks to end free 16 cores together with the 8 idle ones: B2 starts
  // then, at an A2 block end.
  EXPECT_GE(b2.first_block, a2.first_block + 1 * kUs + 8 * 532 * kNs);
  EXPECT_LE(b2.first_block, a2.last_block_end);
}

TEST(AiCore, ABlockErrorFailsTheTaskAndStartsNoMoreBlocks) {
  KernelBench bench;
  const BlockTrace trace = vector_add_trace(2, 4096, 2);
  int calls = 0;
  KernelWork w = work_of("trap", 48, CoreType::kAiv, trace);
  w.max_cores = 2;
  w.run_block = [&calls, trace](std::uint32_t block, BlockTrace& out) {
    ++calls;
    out = trace;
    return block == 3 ? 507035 : 0;
  };
  Seen& failed = bench.launch(1, std::move(w));
  KernelWork t = work_of("throws", 4, CoreType::kAiv, trace);
  t.run_block = [](std::uint32_t, BlockTrace&) -> int { throw std::runtime_error("boom"); };
  Seen& thrown = bench.launch(2, std::move(t));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(failed.out.error, 507035);
  EXPECT_EQ(calls, 4);  // blocks 0, 1 (wave 1), 2, 3 (wave 2); block 3 fails
  EXPECT_EQ(bench.record(0).blocks_run, 4u);
  EXPECT_EQ(bench.record(0).error, 507035);
  EXPECT_EQ(thrown.out.error, kAicoreException);
  EXPECT_EQ(bench.record(1).blocks_run, 1u);
  EXPECT_EQ(bench.stat("chip0.aicore.failed_kernels"), 2.0);
}

// The watchdog: a block whose replay runs longer than aicore.timeout is stopped at the limit and
// its kernel fails with the vector core timeout (AIV) / AI Core timeout (AIC); no more blocks.
TEST(AiCore, TheWatchdogStopsABlockAtAicoreTimeout) {
  ChipConfig cfg = aicore_config();
  cfg.aicore.timeout = sim::Duration{200 * kNs};  // the vector add's block needs 328 ns
  KernelBench bench(cfg);
  KernelWork w = work_of("slow", 4, CoreType::kAiv, vector_add_trace(2, 1024, 2));
  w.max_cores = 1;
  Seen& k = bench.launch(1, std::move(w));
  Seen& cube = bench.launch(2, work_of("slow_aic", 1, CoreType::kAic, vector_add_trace(2, 1024, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(k.out.error, kVectorCoreTimeout);
  EXPECT_EQ(cube.out.error, kAicoreTimeout);
  const KernelRecord& r = bench.record(0).name == "slow" ? bench.record(0) : bench.record(1);
  EXPECT_EQ(r.blocks_run, 1u);  // the first block times out; no more start
  // Stopped at its first issue slot (dispatch + block_launch 1 us) + the timeout.
  EXPECT_EQ(r.last_block_end, r.first_block + 1 * kUs + 200 * kNs);
}

// A wait with a deadline (what ...WithTimeout calls do) ends at the deadline in simulated time
// while a long block still runs; the watchdog stops the block later, at aicore.timeout.
TEST(AiCore, AWaitEndsAtItsDeadlineAndTheWatchdogStopsTheBlockLater) {
  ChipConfig cfg = aicore_config();
  cfg.aicore.timeout = sim::Duration{10 * kMs};
  KernelBench bench(cfg);
  // 64 MiB tiles: each copy alone takes 2 ms at 32 B/cycle and 1 GHz; 4 tiles need > 10 ms.
  Seen& k = bench.launch(1, work_of("long", 1, CoreType::kAiv, vector_add_trace(4, 64 << 20, 2)));
  EXPECT_EQ(bench.run_all(1 * kMs), sim::WaitResult::kTimeout);
  EXPECT_EQ(bench.now(), 1 * kMs);
  EXPECT_FALSE(k.finished);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(k.out.error, kVectorCoreTimeout);
  EXPECT_EQ(bench.record(0).last_block_end, bench.record(0).first_block + 1 * kUs + 10 * kMs);
}

// CANN dispatches pending tasks of higher-priority streams first, at every unit: a high-priority
// kernel that arrives while a low-priority one still has blocks waiting for cores gets the next
// free core (not the end of the low-priority kernel's queue). Blocks of pure scalar work, 40 us.
BlockTrace scalar_block(std::uint64_t bbs) {
  BlockTrace t;
  t.scalar_bbs = bbs;  // 1 cycle each at 1 GHz
  return t;
}

struct PriorityCase {
  SimTime low_first = 0, high_first = 0;
};

PriorityCase run_priority_case(const std::string& policy) {
  ChipConfig cfg = aicore_config();
  cfg.scheduler.policy = policy;
  KernelBench bench(cfg);
  // 96 blocks on 48 AIV cores: two waves. The high-priority kernel is ready at 6.7 us, during
  // the first wave (which ends at 1.7 + 1 + 40 us).
  bench.launch(1, work_of("low", 96, CoreType::kAiv, scalar_block(40000)), 0, 7);
  bench.launch(2, work_of("high", 1, CoreType::kAiv, scalar_block(40000)), 5 * kUs, 0);
  EXPECT_EQ(bench.run_all(), sim::WaitResult::kDone);
  PriorityCase r;
  for (const KernelRecord& k : bench.aicore().records()) {
    (k.name == "low" ? r.low_first : r.high_first) = k.first_block;
  }
  return r;
}

TEST(AiCore, AHighPriorityKernelGetsTheNextFreeCoreBeforePendingLowPriorityBlocks) {
  const PriorityCase r = run_priority_case("priority");
  EXPECT_EQ(r.low_first, kFirstBlock);
  EXPECT_EQ(r.high_first, kFirstBlock + 1 * kUs + 40 * kUs);  // the end of the first wave
}

TEST(AiCore, UnderFifoTheHighPriorityKernelWaitsForTheEarlierKernelsBlocks) {
  const PriorityCase r = run_priority_case("fifo");
  EXPECT_EQ(r.high_first, kFirstBlock + 2 * (1 * kUs + 40 * kUs));  // after the second wave
}

TEST(AiCore, ConcurrentKernelsShareCoresAndHbm) {
  KernelBench bench;
  const BlockTrace trace = vector_add_trace(16, 8192, 2);
  // Alone, 16 blocks need 16 x 46 = 740 B/ns of HBM: core-bound.
  bench.launch(1, work_of("alone", 16, CoreType::kAiv, trace));
  // Two at once on other streams need 1480 B/ns: HBM-bound, both slower, on disjoint cores.
  bench.launch(2, work_of("P", 16, CoreType::kAiv, trace), 1 * kMs);
  bench.launch(3, work_of("Q", 16, CoreType::kAiv, trace), 1 * kMs);
  // Two 48-block kernels: the second gets cores only as the first one's blocks end.
  bench.launch(2, work_of("S", 48, CoreType::kAiv, trace), 2 * kMs);
  bench.launch(3, work_of("U", 48, CoreType::kAiv, trace), 2 * kMs);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const double alone = exec_ns(bench.record(0));
  const KernelRecord& p = bench.record(1);
  const KernelRecord& q = bench.record(2);
  EXPECT_EQ(p.first_block, q.first_block);
  EXPECT_GT(exec_ns(p), 1.3 * alone);
  EXPECT_GT(exec_ns(q), 1.3 * alone);
  // Together they move 2 x 16 x 16 x 24 KiB at no more than HBM's 1000 B/ns.
  const double both = static_cast<double>(std::max(p.last_block_end, q.last_block_end) -
                                          p.first_block - 1 * kUs) / kNs;
  EXPECT_GT(both, 2.0 * 16 * 16 * 3 * 8192 / 1000.0);
  // S and U arrive together; whichever the scheduler dispatched first takes all 48 AIVs.
  const KernelRecord* s = &bench.record(3);
  const KernelRecord* u = &bench.record(4);
  if (u->first_block < s->first_block) std::swap(s, u);
  EXPECT_EQ(s->first_block, 2 * kMs + kFirstBlock);
  EXPECT_GE(u->first_block, s->first_block + 1 * kUs + 16 * 532 * kNs);
  EXPECT_GT(u->last_block_end, s->last_block_end);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv47.blocks"), 2.0);  // one of S, one of U
}

TEST(AiCore, MixKernelHoldsOneAicAndTwoAivsPerBlock) {
  KernelBench bench;
  TraceBuilder b;
  const std::uint32_t a = b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kL1, 16384));
  const std::uint32_t a0 = b.add(copy(Pipe::kMte1, Mem::kL1, Mem::kL0a, 16384), {a});
  const std::uint32_t mm = b.add(mmad(128, 128, 64), {a0});
  const std::uint32_t fx = b.add(copy(Pipe::kFixpipe, Mem::kL0c, Mem::kGm, 32768), {mm});
  const std::uint32_t v = b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kUb, 32768), {fx});
  const std::uint32_t r = b.add(vec(Op::kRelu, 32768), {v});
  b.add(copy(Pipe::kMte3, Mem::kUb, Mem::kGm, 32768), {r});
  bench.launch(1, work_of("mix", 24, CoreType::kMix, b.trace()));
  bench.launch(2, work_of("vec", 1, CoreType::kAiv, vector_add_trace(1, 1024, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const KernelRecord& mix = bench.record(0);
  EXPECT_EQ(mix.task_type, "MIX_AIC");
  EXPECT_EQ(mix.mix_block_num, 48u);
  EXPECT_TRUE(mix.aic.used);
  EXPECT_TRUE(mix.aiv.used);
  EXPECT_GT(mix.aic.busy[static_cast<int>(Pipe::kCube)], 0u);
  EXPECT_EQ(mix.aic.busy[static_cast<int>(Pipe::kVector)], 0u);
  EXPECT_GT(mix.aiv.busy[static_cast<int>(Pipe::kVector)], 0u);
  EXPECT_GT(mix.aiv.busy[static_cast<int>(Pipe::kMte2)], 0u);
  // All 48 AIVs were held by the MIX blocks: the vector kernel starts when the first one ends.
  EXPECT_EQ(mix.first_block, kFirstBlock);
  EXPECT_GT(bench.record(1).first_block, mix.first_block + 1 * kUs + 500 * kNs);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aic23.blocks"), 1.0);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv47.blocks"), 1.0);
  EXPECT_GT(bench.stat("chip0.aicore.cores.aiv46.vector_busy_cycles"), 0.0);  // AIC 23's first AIV
}

TEST(AiCore, CoupledChipRunsEveryKernelTypeOnItsAiCores) {
  ChipConfig cfg = aicore_config();
  cfg.soc.npu_arch = 2002;  // 310P-class: 8 coupled AI Cores (+ 7 Vector Cores, unused)
  cfg.aicore.cube_cores = 8;
  cfg.aicore.vector_cores = 7;
  KernelBench bench(cfg);
  bench.launch(1, work_of("vadd", 16, CoreType::kAiv, vector_add_trace(2, 1024, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(bench.aicore().core_count(), 8u);
  EXPECT_EQ(bench.record(0).task_type, "AI_CORE");
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(bench.stat("chip0.aicore.cores.core" + std::to_string(c) + ".blocks"), 2.0);
  }
}

/// A fixed mix of kernels; returns their records.
std::vector<KernelRecord> determinism_round(KernelBench& bench, SimTime at, std::uint32_t first) {
  bench.launch(1, work_of("add", 48, CoreType::kAiv, vector_add_trace(8, 8192, 2)), at);
  bench.launch(2, work_of("mm", 24, CoreType::kAic, matmul_trace(64, 64, 512, 64, 2)), at);
  bench.launch(3, work_of("add1", 7, CoreType::kAiv, vector_add_trace(3, 4096, 1)), at);
  EXPECT_EQ(bench.run_all(), sim::WaitResult::kDone);
  std::vector<KernelRecord> out;
  for (std::uint32_t i = first; i < first + 3; ++i) out.push_back(bench.record(i));
  return out;
}

TEST(AiCore, IdenticalWorkTakesIdenticalTime) {
  KernelBench bench;
  const auto a = determinism_round(bench, 0, 0);
  const auto b = determinism_round(bench, 1 * kMs, 3);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].end - a[i].start, b[i].end - b[i].start) << i;
    EXPECT_EQ(a[i].first_block - a[i].start, b[i].first_block - b[i].start) << i;
    EXPECT_EQ(a[i].aic.total, b[i].aic.total) << i;
    EXPECT_EQ(a[i].aiv.total, b[i].aiv.total) << i;
    EXPECT_EQ(a[i].aic.busy, b[i].aic.busy) << i;
    EXPECT_EQ(a[i].aiv.busy, b[i].aiv.busy) << i;
  }
}

TEST(AiCore, PipeTracksWhenAsked) {
  ChipConfig cfg = aicore_config();
  cfg.aicore.trace_pipes = true;
  KernelBench bench(cfg);
  bench.launch(1, work_of("add", 2, CoreType::kAiv, vector_add_trace(2, 1024, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // 2 block spans + 2 x 8 instruction spans, plus the task span on its stream.
  EXPECT_EQ(bench.trace().event_count(), 2u + 16u + 1u);
  // Each instruction span carries its block, its cycles and what it moved or computed.
  const std::string path = ::testing::TempDir() + "/npusim_pipe_args.json";
  bench.trace().write(path);
  std::ifstream in(path);
  const nlohmann::json events = nlohmann::json::parse(in);
  std::map<std::string, nlohmann::json> first;  // span name -> its first span's args
  for (const nlohmann::json& e : events) {
    if (e["ph"] == "X" && !first.count(e["name"])) first[e["name"]] = e["args"];
  }
  ASSERT_TRUE(first.count("Add") && first.count("MTE2 GM->UB") && first.count("MTE3 UB->GM"));
  EXPECT_EQ(first["Add"]["elements"], 512);  // 1024 B of FP16
  EXPECT_EQ(first["Add"]["bytes"], 1024);
  EXPECT_EQ(first["MTE2 GM->UB"]["bursts"], 1);
  EXPECT_EQ(first["MTE3 UB->GM"]["bytes"], 1024);
  for (const auto& [name, args] : first) {
    if (!args.contains("cycles")) continue;  // the block and task spans
    EXPECT_GT(args["cycles"].get<double>(), 0) << name;
    EXPECT_TRUE(args["block"] == 0 || args["block"] == 1) << name;
    EXPECT_TRUE(args.contains("Task Id")) << name;
  }
}

TEST(AiCore, MmadPipeSpansCarryTheirShape) {
  ChipConfig cfg = aicore_config();
  cfg.aicore.trace_pipes = true;
  KernelBench bench(cfg);
  bench.launch(1, work_of("mm", 1, CoreType::kAic, matmul_trace(64, 32, 128, 64, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const std::string path = ::testing::TempDir() + "/npusim_mmad_args.json";
  bench.trace().write(path);
  std::ifstream in(path);
  int mmads = 0;
  for (const nlohmann::json& e : nlohmann::json::parse(in)) {
    if (e["ph"] != "X" || e["name"] != "Mmad") continue;
    ++mmads;
    EXPECT_EQ(e["args"]["m"], 64);
    EXPECT_EQ(e["args"]["n"], 32);
    EXPECT_EQ(e["args"]["k"], 64);
    EXPECT_FALSE(e["args"].contains("bytes"));
  }
  EXPECT_EQ(mmads, 2);
}

TEST(AiCore, PlaceholderAndEmptyKernelsTakeFixedTimes) {
  KernelBench bench;
  Seen& placeholder = bench.placeholder(1);  // no KernelWork: scheduler.sync_task (100 ns)
  Seen& empty = bench.launch(2, KernelWork{});  // block_dim 0: kernel_launch only
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(placeholder.out.end, (700 + 100 + 300) * kNs);
  EXPECT_EQ(empty.out.end, (700 + 1000 + 300) * kNs);
  EXPECT_EQ(empty.out.error, 0);
}

TEST(AiCore, NoRecordsKeptUnlessAsked) {
  // With outputs off (the runtime keeps records only when it writes op_summary.csv) a launch
  // leaves nothing behind in the engine, however many kernels run.
  KernelBench bench(aicore_config(), /*trace=*/false);
  bench.aicore().keep_records(false);
  for (int i = 0; i < 500; ++i) {
    bench.launch(1 + i % 4, work_of("add", 2, CoreType::kAiv, vector_add_trace(1, 256, 2)));
  }
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(bench.stat("chip0.aicore.kernels"), 500.0);
  EXPECT_TRUE(bench.aicore().records().empty());
  EXPECT_EQ(bench.aicore().records().capacity(), 0u);
  bench.aicore().keep_records(true);
  bench.launch(1, work_of("add", 2, CoreType::kAiv, vector_add_trace(1, 256, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  ASSERT_EQ(bench.aicore().records().size(), 1u);
  EXPECT_EQ(bench.aicore().records()[0].task_id, 500u);
}

}  // namespace
}  // namespace npusim::models::testing
