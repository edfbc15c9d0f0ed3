// SPDX-License-Identifier: Apache-2.0
// BlockReplay's cross-block waits (BlockTrace::block_deps): a kSyncWait starts no earlier than the
// other block's kSyncSet end, waits (wake_at = kNever) while that is unknown, and every kSyncSet
// end is reported. Costs as in block_replay_test.cpp: 1 cycle = 1 ns, vector startup 10 cycles,
// 256 B/cycle, 1 cycle per issue, scalar access 2 cycles.
#include <vector>

#include <gtest/gtest.h>

#include "models/aicore/block_replay.h"
#include "tests/models/aicore_bench.h"

namespace npusim::models::testing {
namespace {

constexpr SimTime kStart = 1000 * kNs;

class SyncHost : public ReplayHost {
 public:
  SimTime gm_access(const Instr&, SimTime request, SimTime&) override { return request; }
  SimTime block_dep_end(std::uint32_t block, std::uint32_t instr) override {
    asked.push_back({block, instr});
    return known;
  }
  void sync_set_end(std::uint32_t instr, SimTime end) override { sets.push_back({instr, end}); }
  struct Pair {
    std::uint64_t a, b;
    bool operator==(const Pair& o) const { return a == o.a && b == o.b; }
  };
  SimTime known = kNever;
  std::vector<Pair> asked;
  std::vector<Pair> sets;
};

Instr sync(Op op) {
  Instr in;
  in.pipe = Pipe::kScalar;
  in.op = op;
  return in;
}

TEST(BlockSyncReplay, WaitStartsAfterTheOtherBlocksSet) {
  const PipeCosts costs(aicore_config());
  TraceBuilder b;
  const std::uint32_t v0 = b.add(vec(Op::kAdd, 256));  // [0, 11)
  b.add(sync(Op::kSyncSet), {v0});                     // issue 1, [11, 13)
  const std::uint32_t wait = b.add(sync(Op::kSyncWait));  // issue 14, waits for block 1
  b.add(vec(Op::kAdd, 256));                           // issue after the wait's end
  b.trace().block_deps.push_back({wait, 1, 5});
  BlockReplay replay(costs);
  SyncHost host;
  replay.begin(b.trace(), kStart, false, false, host);
  SimTime wake_at = 0;
  EXPECT_FALSE(replay.advance(kStart, wake_at));
  EXPECT_EQ(wake_at, ReplayHost::kNever);
  EXPECT_EQ(host.sets, (std::vector<SyncHost::Pair>{{1, kStart + 13 * kNs}}));
  ASSERT_FALSE(host.asked.empty());
  EXPECT_EQ(host.asked.back(), (SyncHost::Pair{1, 5}));
  host.known = kStart + 500 * kNs;  // block 1's kSyncSet ends
  ASSERT_TRUE(replay.advance(kStart + 20 * kNs, wake_at));
  // The wait runs [500, 502), the last add issues at 503 and runs [503, 514).
  EXPECT_EQ(replay.result().end, kStart + 514 * kNs);
}

TEST(BlockSyncReplay, AnIsolatedReplayWaitsForNobody) {
  const PipeCosts costs(aicore_config());
  TraceBuilder b;
  const std::uint32_t wait = b.add(sync(Op::kSyncWait));  // issue 0, [0, 2)
  b.trace().block_deps.push_back({wait, 3, 0});
  BlockReplay replay(costs);
  struct Isolated : ReplayHost {
    SimTime gm_access(const Instr&, SimTime request, SimTime&) override { return request; }
  } host;
  EXPECT_EQ(replay.run(b.trace(), kStart, false, false, host).end, kStart + 2 * kNs);
}

// Two blocks that SyncAll: block 1 first runs a long vector op, so block 0's wait ends only
// after block 1's kSyncSet. Both start at S = 2700 ns (aicore_test.cpp's launch costs).
KernelWork sync_pair(std::uint32_t max_cores) {
  std::vector<BlockTrace> traces(2);
  {
    TraceBuilder b;
    const std::uint32_t set = b.add(sync(Op::kSyncSet));  // [0, 2)
    const std::uint32_t wait = b.add(sync(Op::kSyncWait));  // issue 3, waits until 1012
    b.trace().block_deps.push_back({wait, 1, 1});
    traces[0] = b.trace();
    EXPECT_EQ(set, 0u);
  }
  {
    TraceBuilder b;
    const std::uint32_t v = b.add(vec(Op::kAdd, 256 * 1000));  // [0, 1010)
    b.add(sync(Op::kSyncSet), {v});                              // [1010, 1012)
    const std::uint32_t wait = b.add(sync(Op::kSyncWait));      // [1013, 1015)
    b.trace().block_deps.push_back({wait, 0, 0});
    traces[1] = b.trace();
  }
  KernelWork w = work_of("sync_pair", 2, CoreType::kAiv, BlockTrace{});
  w.max_cores = max_cores;
  w.run_block = [traces](std::uint32_t block, BlockTrace& out) {
    out = traces[block];
    return 0;
  };
  return w;
}

TEST(BlockSyncReplay, CoresOfOneKernelWaitForEachOthersSyncSet) {
  KernelBench bench;
  Seen& k = bench.launch(1, sync_pair(0));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(k.out.error, 0);
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv0.busy_cycles"), 1014.0);  // not 5: it waited
  EXPECT_EQ(bench.stat("chip0.aicore.cores.aiv1.busy_cycles"), 1015.0);
  EXPECT_EQ(bench.record(0).last_block_end, (2700 + 1015) * kNs);
}

TEST(BlockSyncReplay, AWaitForABlockThatNeverRunsEndsAtTheWatchdog) {
  ChipConfig cfg = aicore_config();
  cfg.aicore.timeout = sim::Duration{100 * kUs};
  KernelBench bench(cfg);
  Seen& k = bench.launch(1, sync_pair(1));  // one core: block 1 would start after block 0
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(k.out.error, kVectorCoreTimeout);
  EXPECT_EQ(bench.record(0).blocks_run, 1u);
  EXPECT_EQ(bench.record(0).last_block_end, (2700 * kNs) + 100 * kUs);
}

}  // namespace
}  // namespace npusim::models::testing
