// SPDX-License-Identifier: Apache-2.0
// AI CPU unit: a task's time from its counted work at the aicpu.* rates, one task per core,
// tasks queue when every core is busy, a failing kernel's error, the per-core tracks and stats.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "models/aicpu_config.h"
#include "models/aicpu_work.h"
#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

ChipConfig aicpu_config(std::int64_t cores) {
  ChipConfig c = test_config();
  c.unit<AiCpuConfig>().cores = cores;
  c.unit<AiCpuConfig>().clock = sim::Frequency{2e9};  // 0.5 ns a cycle
  c.unit<AiCpuConfig>().ipc = 2.0;
  c.unit<AiCpuConfig>().instructions_per_bb = 5.0;
  c.unit<AiCpuConfig>().hbm_bytes_per_cycle = 16.0;
  c.unit<AiCpuConfig>().task_start = sim::Duration{10 * kUs};
  return c;
}

// A kAiCpu task whose kernel "counts" `bbs` basic blocks and `bytes` per block; `runs` records
// which blocks ran, in order.
Task aicpu_task(std::uint32_t stream, std::uint64_t bbs, std::uint64_t bytes,
                std::uint32_t blocks = 1, int error = 0,
                std::shared_ptr<std::vector<std::uint32_t>> runs = nullptr) {
  auto work = std::make_shared<AiCpuWork>();
  work->name = "NonZero";
  work->block_dim = blocks;
  work->run_block = [bbs, bytes, error, runs](std::uint32_t b, AiCpuCount& c) {
    if (runs) runs->push_back(b);
    c.basic_blocks += bbs;
    c.bytes += bytes;
    return error;
  };
  Task t;
  t.kind = TaskKind::kAiCpu;
  t.stream = stream;
  t.name = "NonZero";
  t.payload = std::move(work);
  return t;
}

TEST(AiCpu, TimeIsCountedWorkAtTheConfiguredRates) {
  Bench bench(aicpu_config(2), /*trace=*/true);
  // 1000 basic blocks x 5 instructions / 2 IPC = 2500 cycles; 4096 B / 16 B = 256 cycles;
  // 2756 cycles at 2 GHz = 1378 ns, after the 10 us task start.
  Seen& r = bench.submit(aicpu_task(1, 1000, 4096));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const SimTime engine = 10 * kUs + 1378 * kNs;
  EXPECT_EQ(r.out.start, 700 * kNs);  // doorbell + dispatch
  EXPECT_EQ(r.out.end, 700 * kNs + engine + 300 * kNs);
  EXPECT_EQ(r.out.error, 0);
  EXPECT_EQ(bench.stat("chip0.aicpu.tasks"), 1.0);
  EXPECT_EQ(bench.stat("chip0.aicpu.basic_blocks"), 1000.0);
  EXPECT_EQ(bench.stat("chip0.aicpu.bytes"), 4096.0);
  EXPECT_EQ(bench.stat("chip0.aicpu.core0.tasks"), 1.0);
  EXPECT_EQ(bench.stat("chip0.aicpu.core0.busy_time"), static_cast<double>(engine));
  EXPECT_EQ(bench.stat("chip0.aicpu.core1.tasks"), 0.0);
  const std::string json = bench.timeline_json();
  EXPECT_NE(json.find("\"AI CPU core 0\""), std::string::npos);
  EXPECT_NE(json.find("\"AI CPU core 1\""), std::string::npos);
  EXPECT_NE(json.find("\"Task Type\":\"AI_CPU\""), std::string::npos);
}

TEST(AiCpu, BlocksRunInOrderOnOneCoreAndAddUp) {
  Bench bench(aicpu_config(2));
  auto runs = std::make_shared<std::vector<std::uint32_t>>();
  // 3 runs x (400 bbs -> 1000 cycles, 160 B -> 10 cycles) = 3030 cycles = 1515 ns.
  Seen& r = bench.submit(aicpu_task(1, 400, 160, 3, 0, runs));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(*runs, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(r.out.end, 700 * kNs + 10 * kUs + 1515 * kNs + 300 * kNs);
  EXPECT_EQ(bench.stat("chip0.aicpu.core0.tasks"), 1.0);
  EXPECT_EQ(bench.stat("chip0.aicpu.core1.tasks"), 0.0);
}

TEST(AiCpu, TasksQueueWhenEveryCoreIsBusy) {
  Bench bench(aicpu_config(2));
  // Three streams, two cores: the third task starts when the first core frees.
  Seen& a = bench.submit(aicpu_task(1, 4000, 0));  // 10000 cycles = 5 us
  Seen& b = bench.submit(aicpu_task(2, 4000, 0));
  Seen& c = bench.submit(aicpu_task(3, 4000, 0));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const SimTime engine = 10 * kUs + 5 * kUs;
  EXPECT_EQ(a.out.start, 700 * kNs);
  EXPECT_EQ(b.out.start, 700 * kNs);
  EXPECT_EQ(a.out.end, 700 * kNs + engine + 300 * kNs);
  EXPECT_EQ(b.out.end, 700 * kNs + engine + 300 * kNs);
  EXPECT_EQ(c.out.start, 700 * kNs + engine + 200 * kNs);  // dispatched when a core frees
  EXPECT_EQ(c.out.end, c.out.start + engine + 300 * kNs);
  EXPECT_EQ(bench.stat("chip0.aicpu.core0.tasks"), 2.0);
  EXPECT_EQ(bench.stat("chip0.aicpu.core1.tasks"), 1.0);
  EXPECT_EQ(bench.stat("chip0.aicpu.busy_time"), static_cast<double>(3 * engine));
}

TEST(AiCpu, AFailingKernelEndsItsTaskWithItsErrorAndStopsFurtherBlocks) {
  Bench bench(aicpu_config(1));
  auto runs = std::make_shared<std::vector<std::uint32_t>>();
  Seen& r = bench.submit(aicpu_task(1, 100, 0, 4, 507018, runs));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(r.out.error, 507018);
  EXPECT_EQ(*runs, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(r.out.end, 700 * kNs + 10 * kUs + 125 * kNs + 300 * kNs);  // 250 cycles
  EXPECT_EQ(bench.stat("chip0.aicpu.failed_tasks"), 1.0);
}

TEST(AiCpu, QueuedTasksTakeTheCoresAsTheyFree) {
  Bench bench(aicpu_config(3));
  std::vector<Seen*> seen;
  for (std::uint32_t s = 1; s <= 6; ++s) {
    seen.push_back(&bench.submit(aicpu_task(s, 1000 * s, 64 * s)));
  }
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // Cores 0..2 take streams 1..3; streams 4..6 follow as cores free (stream 1's first).
  for (std::uint32_t s = 1; s <= 6; ++s) {
    const SimTime engine = 10 * kUs + (2500 * s + 4 * s) * 500;  // cycles x 0.5 ns, in ps
    if (s <= 3) {
      EXPECT_EQ(seen[s - 1]->out.start, 700 * kNs) << s;
    }
    EXPECT_EQ(seen[s - 1]->out.end - seen[s - 1]->out.start, engine + 300 * kNs) << s;
  }
  for (int q = 0; q < 3; ++q) {
    EXPECT_EQ(seen[q + 3]->out.start, seen[q]->out.end - 300 * kNs + 200 * kNs) << q;
  }
  EXPECT_EQ(bench.stat("chip0.aicpu.core0.tasks"), 2.0);
  EXPECT_EQ(bench.stat("chip0.aicpu.core1.tasks"), 2.0);
  EXPECT_EQ(bench.stat("chip0.aicpu.core2.tasks"), 2.0);
}

}  // namespace
}  // namespace npusim::models::testing
