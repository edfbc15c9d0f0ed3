// SPDX-License-Identifier: Apache-2.0
// Preemption on the AI Cores (scheduler.preemption, preempt_threshold, policy=prema) with exact
// simulated times. Configuration: aicore_config() (tests/models/aicore_bench.h): 1 GHz, a kernel
// task pays doorbell 500 + dispatch 200 ns + kernel_launch 1 us before its first block can be
// dispatched, each block block_launch 1 us before its first issue slot; L2 4 TB/s + 10 ns, no
// hits; HBM 1 TB/s + 100 ns.
// The case: a low-priority kernel (stream 1, priority 7) of 48 blocks of 40 us of scalar work
// fills the 48 AIV cores: dispatched at 1.7 us, first issue slot 2.7 us, end 42.7 us. A
// high-priority kernel (stream 2, priority 0), one block of 10 us, is submitted at 5 us and ready
// at 6.7 us. The victim is the block on the highest-numbered core (AIV 47).
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/models/aicore_bench.h"

namespace npusim::models::testing {
namespace {

using sim::kPs;
constexpr SimTime kReady = 6700 * kNs;

BlockTrace scalar_block(std::uint64_t bbs) {
  BlockTrace t;
  t.scalar_bbs = bbs;  // 1 cycle each at 1 GHz
  return t;
}

struct Case {
  KernelRecord low, high;
  double preemptions = 0, latency_p50 = 0, saved = 0, restored = 0, killed = 0, save_time = 0,
         restore_time = 0, redispatched = 0;
};

Case run_case(const std::string& mechanism, std::int64_t threshold = 1,
              std::uint64_t context = 64 * 1024, const std::string& policy = "priority") {
  ChipConfig cfg = aicore_config();
  cfg.scheduler.policy = policy;
  cfg.scheduler.preemption = mechanism;
  cfg.scheduler.preempt_threshold = threshold;
  cfg.aicore.context_bytes = sim::Bytes{context};
  KernelBench bench(cfg);
  bench.launch(1, work_of("low", 48, CoreType::kAiv, scalar_block(40000)), 0, 7);
  bench.launch(2, work_of("high", 1, CoreType::kAiv, scalar_block(10000)), 5 * kUs, 0);
  EXPECT_EQ(bench.run_all(), sim::WaitResult::kDone);
  Case c;
  c.low = bench.record(0);
  c.high = bench.record(1);
  c.preemptions = bench.stat("chip0.aicore.preemptions");
  c.latency_p50 = bench.stat("chip0.aicore.streams.s2.preempt_latency_p50");
  c.saved = bench.stat("chip0.aicore.streams.s1.saved_bytes");
  c.restored = bench.stat("chip0.aicore.streams.s1.restored_bytes");
  c.killed = bench.stat("chip0.aicore.streams.s1.killed_time");
  c.save_time = bench.stat("chip0.aicore.streams.s1.save_time");
  c.restore_time = bench.stat("chip0.aicore.streams.s1.restore_time");
  c.redispatched = bench.stat("chip0.aicore.streams.s1.redispatched_blocks");
  EXPECT_EQ(c.low.blocks_run, 48u);
  EXPECT_EQ(c.low.error, 0);
  EXPECT_EQ(c.high.error, 0);
  return c;
}

TEST(AiCorePreempt, NoneLetsTheRunningBlocksFinish) {
  const Case c = run_case("none");
  EXPECT_EQ(c.high.first_block, 42700 * kNs);  // the first wave's end
  EXPECT_EQ(c.high.last_block_end, (42700 + 1000 + 10000) * kNs);
  EXPECT_EQ(c.low.last_block_end, 42700 * kNs);
  EXPECT_EQ(c.preemptions, 0.0);
}

TEST(AiCorePreempt, DrainHasNoneTimingAndRecordsThePreemption) {
  const Case c = run_case("drain");
  EXPECT_EQ(c.high.first_block, 42700 * kNs);
  EXPECT_EQ(c.low.last_block_end, 42700 * kNs);
  EXPECT_EQ(c.preemptions, 1.0);
  // Ready 6.7 us to the first issue slot 42.7 + 1 us.
  EXPECT_EQ(c.latency_p50, static_cast<double>(43700 * kNs - kReady));
}

TEST(AiCorePreempt, KillFreesTheCoreAtOnceAndTheBlockRunsAgainFromItsStart) {
  const Case c = run_case("kill");
  // AIV 47 is free at 6.7 us: the high block is dispatched then, starts at 7.7, ends at 17.7.
  EXPECT_EQ(c.high.first_block, kReady);
  EXPECT_EQ(c.high.last_block_end, 17700 * kNs);
  EXPECT_EQ(c.latency_p50, 1000.0 * kNs);
  // The killed block had run 2.7 .. 6.7 us; it is dispatched again when AIV 47 frees at 17.7 us
  // and runs its whole 40 us: 18.7 .. 58.7 us.
  EXPECT_EQ(c.killed, 4000.0 * kNs);
  EXPECT_EQ(c.low.last_block_end, 58700 * kNs);
  EXPECT_EQ(c.preemptions, 1.0);
  EXPECT_EQ(c.saved, 0.0);
  EXPECT_EQ(c.redispatched, 1.0);
}

TEST(AiCorePreempt, CheckpointSavesTheContextYieldsAndResumesWhereItStopped) {
  const Case c = run_case("checkpoint");
  // At 6.7 us the block has run 4000 of its 40000 basic blocks. Save of 64 KiB: L2 16.384 ns,
  // HBM 65.536 ns (writes are acknowledged without HBM's latency) + L2's 10 ns = 75.536 ns, so
  // AIV 47 is free at 6775.536 ns; the high block starts at 7775.536 and ends at 17775.536 ns.
  EXPECT_EQ(c.high.first_block, 6775536 * kPs);
  EXPECT_EQ(c.high.last_block_end, 17775536 * kPs);
  EXPECT_EQ(c.latency_p50, static_cast<double>(7775536 * kPs - kReady));
  // Resumed at 17775.536 ns: block_launch, restore (read 64 KiB: HBM 65.536 + 100 ns latency +
  // L2 10 ns = 175.536 ns), then the remaining 36000 basic blocks: ends at
  // 17775.536 + 1000 + 175.536 + 36000 = 54951.072 ns.
  EXPECT_EQ(c.low.last_block_end, 54951072 * kPs);
  EXPECT_EQ(c.saved, 65536.0);
  EXPECT_EQ(c.restored, 65536.0);
  EXPECT_EQ(c.save_time, 75536.0);
  EXPECT_EQ(c.restore_time, 175536.0);
  EXPECT_EQ(c.redispatched, 1.0);
  EXPECT_EQ(c.killed, 0.0);
}

TEST(AiCorePreempt, UnderPremaTheCandidatePreemptsToo) {
  // At 6.7 us the low kernel has no block waiting (it accrues no tokens); the high one (weight 8,
  // 8 tokens) is the only candidate and ahead of it: the same kill as under priority.
  const Case c = run_case("kill", 1, 64 * 1024, "prema");
  EXPECT_EQ(c.high.first_block, kReady);
  EXPECT_EQ(c.low.last_block_end, 58700 * kNs);
  EXPECT_EQ(c.preemptions, 1.0);
}

// dynamic (PREMA's choice): at 6.7 us the victim has 40 - 4 = 36 us left (block 0's isolated
// replay: 40 us), far more than a checkpoint's cost (block_launch 1 us + 2 x 64 KiB at
// 1 TB/s = 1.131 us): it is checkpointed, with the checkpoint case's exact times.
TEST(AiCorePreempt, DynamicCheckpointsABlockFarFromItsEnd) {
  const Case c = run_case("dynamic");
  EXPECT_EQ(c.high.first_block, 6775536 * kPs);
  EXPECT_EQ(c.low.last_block_end, 54951072 * kPs);
  EXPECT_EQ(c.saved, 65536.0);
}

// ... and a block 0.7 us from its end (the high kernel submitted at 40.3 us is ready at 42.0 us;
// the low blocks end at 42.7 us) is left to drain: the high block is dispatched at 42.7 us. Under
// checkpoint it would start after the 75.536 ns save, at 42.075536 us.
SimTime high_first_late(const std::string& mechanism) {
  ChipConfig cfg = aicore_config();
  cfg.scheduler.preemption = mechanism;
  cfg.aicore.context_bytes = sim::Bytes{64 * 1024};
  KernelBench bench(cfg);
  bench.launch(1, work_of("low", 48, CoreType::kAiv, scalar_block(40000)), 0, 7);
  bench.launch(2, work_of("high", 1, CoreType::kAiv, scalar_block(10000)), 40300 * kNs, 0);
  EXPECT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(bench.stat("chip0.aicore.preemptions"), 1.0);
  return bench.record(1).first_block;
}

TEST(AiCorePreempt, DynamicDrainsABlockNearItsEnd) {
  EXPECT_EQ(high_first_late("dynamic"), 42700 * kNs);
}

TEST(AiCorePreempt, CheckpointStopsEvenABlockNearItsEnd) {
  EXPECT_EQ(high_first_late("checkpoint"), 42075536 * kPs);
}

TEST(AiCorePreempt, BelowThePreemptThresholdNothingIsPreempted) {
  const Case c = run_case("kill", 8);  // priorities 0 and 7 are only 7 levels apart
  EXPECT_EQ(c.high.first_block, 42700 * kNs);
  EXPECT_EQ(c.preemptions, 0.0);
}

// A checkpoint cut in the middle of a block with instructions: the started instructions drain
// first. One AIV block: MTE2 copy of 8 KiB GM->UB (10 + 256 = 266 cycles, data 110 ns later),
// then a vector op on it (10 + 32 = 42 cycles), then 20 us of scalar code.
TEST(AiCorePreempt, CheckpointDrainsTheStartedInstructionsBeforeSaving) {
  ChipConfig cfg = aicore_config();
  cfg.aicore.vector_cores = 1;
  cfg.scheduler.preemption = "checkpoint";
  cfg.aicore.context_bytes = sim::Bytes{64 * 1024};
  KernelBench bench(cfg);
  TraceBuilder b;
  const std::uint32_t x = b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kUb, 8192));
  b.add(vec(Op::kAdd, 8192), {x});
  b.trace().instrs[0].scalar_bbs = 0;
  b.trace().instrs[1].scalar_bbs = 0;
  b.trace().scalar_bbs = 20000;
  // Low first issue slot S = 2.7 us: copy [S, S+266) issues at S, data at S+266+110 = S+376;
  // the add issues at S+1, starts at S+376, ends S+418. The scalar tail: issue of the add
  // S+1 +1 cycle = S+2, then 20000 bbs: block end S+20002 ns.
  bench.launch(1, work_of("low", 1, CoreType::kAiv, b.trace()), 0, 7);
  // High ready at 2.7 + 0.1 = 2.8 us (submitted at 1.1 us): the copy has started (S), the add
  // has not (S+376 > 2.8 us = S+100): the copy drains to S+376 = 3076 ns, then the 64 KiB save
  // takes 75.536 ns: the core is free at 3151.536 ns.
  bench.launch(2, work_of("high", 1, CoreType::kAiv, scalar_block(1000)), 1100 * kNs, 0);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const KernelRecord& low = bench.record(0);
  const KernelRecord& high = bench.record(1);
  EXPECT_EQ(high.first_block, 3151536 * kPs);
  EXPECT_EQ(high.last_block_end, (3151536 + 1000000 + 1000000) * kPs);
  // Resume at 5151.536 ns: +1 us block_launch +175.536 ns restore = replay at R = 6327.072 ns:
  // the add is now the first instruction, so it issues at R, starts at once (its dep ran) and
  // ends at R + 42; the scalar tail starts 1 cycle after its issue: end = R + 1 + 20000 =
  // 26328.072 ns.
  EXPECT_EQ(low.last_block_end, 26328072 * kPs);
  EXPECT_EQ(low.instrs, 2u);
  EXPECT_EQ(low.blocks_run, 1u);
}

// PREMA: two kernels wait behind a 40 us filler (priority 0) that holds all 48 AIVs. A: priority
// 0 (weight 8), 48 blocks of 40 us, predicted 1 + (1 + 40) = 42 us; B: priority 2 (weight 6), 48
// blocks of 1 us, predicted 1 + (1 + 1) = 3 us. Both ready at 6.7 us; at 42.7 us the filler ends:
// tokens A = 8 + 8 x 36/42 = 14.9, B = 6 + 6 x 36/3 = 78; threshold = the largest waiting weight
// <= 78 = 8: both are candidates and the shorter predicted job, B, goes first. Under priority,
// A goes first.
struct PremaCase {
  SimTime a_first = 0, b_first = 0;
};

PremaCase run_prema(const std::string& policy) {
  ChipConfig cfg = aicore_config();
  cfg.scheduler.policy = policy;
  KernelBench bench(cfg);
  bench.launch(1, work_of("filler", 48, CoreType::kAiv, scalar_block(40000)), 0, 0);
  bench.launch(2, work_of("A", 48, CoreType::kAiv, scalar_block(40000)), 5 * kUs, 0);
  bench.launch(3, work_of("B", 48, CoreType::kAiv, scalar_block(1000)), 5 * kUs, 2);
  EXPECT_EQ(bench.run_all(), sim::WaitResult::kDone);
  return {bench.record(1).first_block, bench.record(2).first_block};
}

TEST(AiCorePreempt, PremaRunsTheShortCandidateFirst) {
  const PremaCase c = run_prema("prema");
  EXPECT_EQ(c.b_first, 42700 * kNs);
  EXPECT_EQ(c.a_first, (42700 + 1000 + 1000) * kNs);
}

TEST(AiCorePreempt, PriorityRunsTheHighPriorityKernelFirst) {
  const PremaCase c = run_prema("priority");
  EXPECT_EQ(c.a_first, 42700 * kNs);
  EXPECT_EQ(c.b_first, (42700 + 1000 + 40000) * kNs);
}

// ANTT / STP: the none case. The low kernel is predicted at kernel_launch + 1 wave x
// (block_launch + 40) = 42 us; its engine time runs from its receipt (0.7 us) to its last block
// end (42.7 us): 42 us, NTT 1. The high kernel: predicted 1 + (1 + 10) = 12 us; received at
// 5.7 us, it ends at 42.7 + 1 + 10 = 53.7 us: 48 us, NTT 4. ANTT = (1 + 4) / 2 = 2.5,
// STP = 1 + 1/4 = 1.25.
TEST(AiCorePreempt, AnttAndStpUseThePredictedIsolatedTimes) {
  ChipConfig cfg = aicore_config();
  KernelBench bench(cfg);
  bench.launch(1, work_of("low", 48, CoreType::kAiv, scalar_block(40000)), 0, 7);
  bench.launch(2, work_of("high", 1, CoreType::kAiv, scalar_block(10000)), 5 * kUs, 0);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_DOUBLE_EQ(bench.stat("chip0.aicore.streams.s1.normalized_turnaround"), 1.0);
  EXPECT_DOUBLE_EQ(bench.stat("chip0.aicore.streams.s2.normalized_turnaround"), 4.0);
  EXPECT_DOUBLE_EQ(bench.stat("chip0.aicore.antt"), 2.5);
  EXPECT_DOUBLE_EQ(bench.stat("chip0.aicore.stp"), 1.25);
}

}  // namespace
}  // namespace npusim::models::testing

namespace npusim::models::testing {
namespace {

// The timeline marks the preemption on the victim's core: the block's span ends at the
// preemption (arg "preempted"), then "save context" (6.7 us, 75.536 ns) and, when it resumes,
// "restore context" (at its first issue slot 18.775536 us, 175.536 ns). Times in us.
TEST(AiCorePreempt, TheTimelineMarksPreemptSaveAndRestore) {
  ChipConfig cfg = aicore_config();
  cfg.scheduler.preemption = "checkpoint";
  cfg.aicore.context_bytes = sim::Bytes{64 * 1024};
  KernelBench bench(cfg);
  bench.launch(1, work_of("low", 48, CoreType::kAiv, scalar_block(40000)), 0, 7);
  bench.launch(2, work_of("high", 1, CoreType::kAiv, scalar_block(10000)), 5 * kUs, 0);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const std::string path = ::testing::TempDir() + "preempt_timeline.json";
  bench.trace().write(path);
  std::ifstream in(path);
  const nlohmann::json t = nlohmann::json::parse(in);
  const nlohmann::json& events = t.is_object() ? t["traceEvents"] : t;
  int saves = 0, restores = 0, preempted = 0;
  for (const nlohmann::json& e : events) {
    const std::string name = e.value("name", "");
    if (name == "save context") {
      ++saves;
      EXPECT_NEAR(e["ts"].get<double>(), 6.7, 1e-9);
      EXPECT_NEAR(e["dur"].get<double>(), 0.075536, 1e-9);
      EXPECT_EQ(e["args"]["bytes"].get<double>(), 65536.0);
    } else if (name == "restore context") {
      ++restores;
      EXPECT_NEAR(e["ts"].get<double>(), 18.775536, 1e-9);
      EXPECT_NEAR(e["dur"].get<double>(), 0.175536, 1e-9);
    } else if (name == "low" && e.contains("args") && e["args"].contains("preempted")) {
      ++preempted;
      EXPECT_NEAR(e["ts"].get<double>(), 1.7, 1e-9);
      EXPECT_NEAR(e["dur"].get<double>(), 5.0, 1e-9);  // dispatched 1.7 us, preempted 6.7 us
    }
  }
  EXPECT_EQ(saves, 1);
  EXPECT_EQ(restores, 1);
  EXPECT_EQ(preempted, 1);
}

// A MIX block holds one AIC and two AIVs: killing it for an AIV kernel frees all three. 24 MIX
// blocks of 40 us fill the 24 AIC and 48 AIV cores (dispatched 1.7 us, first issue 2.7 us); the
// victim is the block on AIC 23 (with AIV 46 and 47); the high AIV block is dispatched at once on
// AIV 46 (6.7 us) and ends at 17.7 us; the MIX block runs again when AIC 23 and two AIVs are
// free, at 17.7 us: 18.7 .. 58.7 us.
TEST(AiCorePreempt, KillingAMixBlockFreesItsAicAndBothAivs) {
  ChipConfig cfg = aicore_config();
  cfg.scheduler.preemption = "kill";
  KernelBench bench(cfg);
  bench.launch(1, work_of("mix", 24, CoreType::kMix, scalar_block(40000)), 0, 7);
  bench.launch(2, work_of("high", 1, CoreType::kAiv, scalar_block(10000)), 5 * kUs, 0);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(bench.record(1).first_block, kReady);
  EXPECT_EQ(bench.record(1).last_block_end, 17700 * kNs);
  EXPECT_EQ(bench.record(0).last_block_end, 58700 * kNs);
  EXPECT_EQ(bench.record(0).blocks_run, 24u);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv46.blocks"), 2.0);  // high, then the re-run mix block
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aic23.blocks"), 1.0);  // the killed run counts no block
  EXPECT_EQ(bench.stat("chip0.aicore.streams.s1.killed_time"), 4000.0 * kNs);
}

// B.1 where kernels wait for admission to the AI Core engine (aicore.max_concurrent_kernels = 1):
// the scheduler's ready pool hands the engine the high-priority kernel first, although a
// low-priority one was ready earlier.
TEST(AiCorePreempt, AdmissionToAFullEngineGoesByPriority) {
  ChipConfig cfg = aicore_config();
  cfg.aicore.max_concurrent_kernels = 1;
  KernelBench bench(cfg);
  bench.launch(1, work_of("first", 1, CoreType::kAiv, scalar_block(40000)), 0, 7);
  bench.launch(2, work_of("low", 1, CoreType::kAiv, scalar_block(1000)), 1 * kUs, 7);
  bench.launch(3, work_of("high", 1, CoreType::kAiv, scalar_block(1000)), 2 * kUs, 0);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // "first" ends at 42.7 us and leaves the engine; the scheduler dispatches "high" then
  // (+200 ns dispatch, +1 us kernel_launch): its block at 43.9 us, ending 43.9 + 1 + 1 = 45.9 us;
  // then "low": 45.9 + 0.2 + 1 = 47.1 us.
  EXPECT_EQ(bench.record(0).last_block_end, 42700 * kNs);
  EXPECT_EQ(bench.record(2).first_block, 43900 * kNs);
  EXPECT_EQ(bench.record(1).first_block, 47100 * kNs);
}

}  // namespace
}  // namespace npusim::models::testing

namespace npusim::models::testing {
namespace {

// Conservation under many preemptions: three streams of vector-add kernels (8 tiles of 4 KiB per
// operand per block: 32 instructions, 64 KiB read and 32 KiB written per block) at priorities 7, 3
// and 0, the higher ones arriving while the lower ones run. Whatever is cut and resumed, every
// kernel ends without error with every block run once and every instruction replayed once
// (checkpoint) or its whole trace again (kill); the L2 sees the kernels' own bytes plus exactly
// the contexts written and read back.
struct Mix {
  std::vector<KernelRecord> records;
  double l2_read = 0, l2_write = 0, saved = 0, restored = 0, preemptions = 0, instrs = 0;
};

Mix run_mix(const std::string& mechanism) {
  ChipConfig cfg = aicore_config();
  cfg.scheduler.preemption = mechanism;
  cfg.aicore.context_bytes = sim::Bytes{48 * 1024};
  KernelBench bench(cfg);
  const BlockTrace t = vector_add_trace(8, 4096, 2);
  std::uint32_t blocks = 0;
  for (int i = 0; i < 4; ++i) {
    bench.launch(1, work_of("low", 48, CoreType::kAiv, t), 0, 7);
    blocks += 48;
  }
  for (int i = 0; i < 3; ++i) {
    bench.launch(2, work_of("mid", 16, CoreType::kAiv, t), 3 * kUs + i * 2500 * kNs, 3);
    blocks += 16;
  }
  for (int i = 0; i < 5; ++i) {
    bench.launch(3, work_of("high", 4, CoreType::kAiv, t), 4 * kUs + i * 1700 * kNs, 0);
    blocks += 4;
  }
  EXPECT_EQ(bench.run_all(), sim::WaitResult::kDone);
  Mix m;
  m.records = bench.aicore().records();
  m.l2_read = bench.stat("chip0.l2.read_bytes");
  m.l2_write = bench.stat("chip0.l2.write_bytes");
  for (int s = 1; s <= 3; ++s) {
    const std::string p = "chip0.aicore.streams.s" + std::to_string(s) + ".";
    m.saved += bench.stat(p + "saved_bytes");
    m.restored += bench.stat(p + "restored_bytes");
  }
  m.preemptions = bench.stat("chip0.aicore.preemptions");
  m.instrs = bench.stat("chip0.aicore.instructions");
  EXPECT_EQ(m.records.size(), 12u);
  for (const KernelRecord& r : m.records) {
    EXPECT_EQ(r.error, 0) << r.name;
    EXPECT_EQ(r.blocks_run, r.block_dim) << r.name;
    EXPECT_EQ(r.instrs, 32ull * r.block_dim) << r.name;
  }
  EXPECT_EQ(blocks, 48u * 4 + 16u * 3 + 4u * 5);
  return m;
}

constexpr double kMixBlocks = 48 * 4 + 16 * 3 + 4 * 5;

TEST(AiCorePreempt, CheckpointConservesInstructionsAndBytesUnderManyPreemptions) {
  const Mix m = run_mix("checkpoint");
  EXPECT_GT(m.preemptions, 10.0);
  EXPECT_GT(m.saved, 0.0);
  EXPECT_EQ(m.restored, m.saved);  // every saved context is read back once
  EXPECT_EQ(m.instrs, 32 * kMixBlocks);
  EXPECT_EQ(m.l2_read, 65536 * kMixBlocks + m.restored);
  EXPECT_EQ(m.l2_write, 32768 * kMixBlocks + m.saved);
}

TEST(AiCorePreempt, KillRerunsWholeBlocksUnderManyPreemptions) {
  const Mix m = run_mix("kill");
  EXPECT_GT(m.preemptions, 10.0);
  EXPECT_EQ(m.saved, 0.0);
  EXPECT_EQ(m.instrs, 32 * kMixBlocks);  // a killed run's instructions do not count
  EXPECT_GE(m.l2_read, 65536 * kMixBlocks);  // killed runs read too
}

}  // namespace
}  // namespace npusim::models::testing

namespace npusim::models::testing {
namespace {

// Every kind of kernel under preemption: AIV, AIC (tiled matmul) and MIX kernels, capped ones
// and batch-mode ones, at pseudo-random priorities and times (a fixed LCG, so the run is the same
// every time). Whatever is preempted, every kernel ends without error with every block run once
// and, in its record, every instruction counted once.
void run_every_kind(const std::string& mechanism, const std::string& policy) {
  ChipConfig cfg = aicore_config();
  cfg.scheduler.preemption = mechanism;
  cfg.scheduler.policy = policy;
  KernelBench bench(cfg);
  const BlockTrace vadd = vector_add_trace(6, 4096, 2);
  const BlockTrace mm = matmul_trace(64, 64, 256, 64, 2);
  std::uint64_t seed = 12345;
  const auto next = [&seed](std::uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  std::vector<std::uint64_t> per_block;
  for (int i = 0; i < 30; ++i) {
    const auto kind = static_cast<int>(next(3));
    KernelWork w = work_of("k" + std::to_string(i), static_cast<std::uint32_t>(1 + next(40)),
                           kind == 0 ? CoreType::kAiv : kind == 1 ? CoreType::kAic : CoreType::kMix,
                           kind == 0 ? vadd : mm);
    if (next(4) == 0) w.max_cores = static_cast<std::uint32_t>(1 + next(8));
    if (next(5) == 0) w.batch_mode = true;
    per_block.push_back((kind == 0 ? vadd : mm).instrs.size());
    bench.launch(static_cast<std::uint32_t>(1 + next(6)), std::move(w), next(60) * kUs,
                 static_cast<std::uint32_t>(next(8)));
  }
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  ASSERT_EQ(bench.aicore().records().size(), 30u);
  for (const KernelRecord& r : bench.aicore().records()) {
    EXPECT_EQ(r.error, 0) << r.name;
    EXPECT_EQ(r.blocks_run, r.block_dim) << r.name;
    EXPECT_EQ(r.instrs, per_block[r.task_id] * r.block_dim) << r.name;
  }
  EXPECT_GT(bench.stat("chip0.aicore.preemptions"), 5.0);
}

TEST(AiCorePreempt, EveryKernelKindSurvivesCheckpointPreemption) {
  run_every_kind("checkpoint", "priority");
}

TEST(AiCorePreempt, EveryKernelKindSurvivesKillPreemptionUnderPrema) {
  run_every_kind("kill", "prema");
}

}  // namespace
}  // namespace npusim::models::testing
