// SPDX-License-Identifier: Apache-2.0
// Cross-block synchronisation (block_group.h, sync_ops.h): SyncAll, IBSet/IBWait and GM polling
// run the blocks of a launch as a group; values, the order blocks run in, the recorded kSyncSet /
// kSyncWait instructions and their block_deps, deadlock reports and unwinding of parked blocks.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_group.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using npusim::ascendc::BlockDep;
using npusim::ascendc::BlockTrace;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::run_blocks;

// The log: log[0] counts entries, then one entry per event (block * 10 + phase).
void note(__gm__ std::int32_t* log, std::int32_t what) { log[1 + log[0]++] = what; }

std::int32_t find_op(const BlockTrace& t, Op op) {
  for (std::size_t i = 0; i < t.instrs.size(); ++i) {
    if (t.instrs[i].op == op) return static_cast<std::int32_t>(i);
  }
  return -1;
}

// Each block publishes its index + 1, meets the others, then sums what all published.
extern "C" __global__ __aicore__ void sum_after_sync(GM_ADDR slots, GM_ADDR out, GM_ADDR log) {
  auto* s = reinterpret_cast<__gm__ std::int32_t*>(slots);
  auto* l = reinterpret_cast<__gm__ std::int32_t*>(log);
  const auto b = static_cast<std::int32_t>(AscendC::GetBlockIdx());
  AscendC::GlobalTensor<std::int32_t> mine;
  mine.SetGlobalBuffer(s + b, 1);
  mine.SetValue(0, b + 1);
  note(l, b * 10);
  AscendC::SyncAll();
  note(l, b * 10 + 1);
  std::int32_t sum = 0;
  for (std::int32_t i = 0; i < AscendC::GetBlockNum(); ++i) sum += s[i];
  reinterpret_cast<__gm__ std::int32_t*>(out)[b] = sum;
}

TEST(BlockSync, SyncAllLetsEveryBlockArriveFirst) {
  std::vector<std::int32_t> slots(4, 0), out(4, 0), log(16, 0);
  auto r = run_blocks(&sum_after_sync, 4, reinterpret_cast<GM_ADDR>(slots.data()),
                      reinterpret_cast<GM_ADDR>(out.data()), reinterpret_cast<GM_ADDR>(log.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(out, (std::vector<std::int32_t>{10, 10, 10, 10}));
  // Block 0 waits and hands on to 1, 2, 3; block 3 completes the round, ends and hands the
  // baton back to block 0; 1 and 2 resume at their turns.
  EXPECT_EQ(std::vector<std::int32_t>(log.begin() + 1, log.begin() + 9),
            (std::vector<std::int32_t>{0, 10, 20, 30, 31, 1, 11, 21}));
  for (std::uint32_t b = 0; b < 4; ++b) {
    const BlockTrace& t = r.blocks[b].trace;
    const std::int32_t set = find_op(t, Op::kSyncSet);
    const std::int32_t wait = find_op(t, Op::kSyncWait);
    ASSERT_GE(set, 1);
    EXPECT_EQ(wait, set + 1);
    EXPECT_EQ(t.instrs[set].pipe, Pipe::kScalar);
    ASSERT_EQ(t.block_deps.size(), 3u);
    for (const BlockDep& d : t.block_deps) {
      EXPECT_EQ(d.instr, static_cast<std::uint32_t>(wait));
      EXPECT_NE(d.block, b);
      EXPECT_EQ(d.other, static_cast<std::uint32_t>(find_op(r.blocks[d.block].trace,
                                                            Op::kSyncSet)));
    }
  }
}

// Block 0 needs block 1's result (a later block: the launcher would run it after block 0).
extern "C" __global__ __aicore__ void wait_for_later(GM_ADDR flags, GM_ADDR data) {
  AscendC::GlobalTensor<std::int32_t> f;
  f.SetGlobalBuffer(reinterpret_cast<__gm__ std::int32_t*>(flags), 64);
  AscendC::LocalTensor<std::int32_t> ub;
  auto* d = reinterpret_cast<__gm__ std::int32_t*>(data);
  if (AscendC::GetBlockIdx() == 0) {
    AscendC::IBWait(f, ub, 1, 3);
    d[0] = d[1] * 2;
  } else {
    d[1] = 21;
    AscendC::IBSet(f, ub, 1, 3);
  }
}

TEST(BlockSync, IbWaitRunsTheSettingBlockFirst) {
  std::vector<std::int32_t> flags(64, 0), data(2, 0);
  auto r = run_blocks(&wait_for_later, 2, reinterpret_cast<GM_ADDR>(flags.data()),
                      reinterpret_cast<GM_ADDR>(data.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(data[0], 42);
  const BlockTrace& t0 = r.blocks[0].trace;
  const BlockTrace& t1 = r.blocks[1].trace;
  ASSERT_EQ(t0.block_deps.size(), 1u);
  EXPECT_EQ(t0.block_deps[0].instr, static_cast<std::uint32_t>(find_op(t0, Op::kSyncWait)));
  EXPECT_EQ(t0.block_deps[0].block, 1u);
  EXPECT_EQ(t0.block_deps[0].other, static_cast<std::uint32_t>(find_op(t1, Op::kSyncSet)));
  EXPECT_TRUE(t1.block_deps.empty());
}

extern "C" __global__ __aicore__ void wait_never_set(GM_ADDR flags) {
  AscendC::GlobalTensor<std::int32_t> f;
  f.SetGlobalBuffer(reinterpret_cast<__gm__ std::int32_t*>(flags), 64);
  AscendC::LocalTensor<std::int32_t> ub;
  if (AscendC::GetBlockIdx() == 0) AscendC::IBWait(f, ub, 1, 0);
}

TEST(BlockSync, AWaitNobodyCanSatisfyIsADeadlockNamingTheCall) {
  std::vector<std::int32_t> flags(64, 0);
  auto r = run_blocks(&wait_never_set, 2, reinterpret_cast<GM_ADDR>(flags.data()));
  EXPECT_EQ(r.blocks[0].error,
            "block 0: deadlock: IBWait(blockIdx 1, eventID 0) in block 0 of 2 can never return "
            "(every other block has ended or waits too)");
  EXPECT_TRUE(r.blocks[1].error.empty());
}

extern "C" __global__ __aicore__ void sync_all_skipped(GM_ADDR) {
  if (AscendC::GetBlockIdx() != 1) AscendC::SyncAll();
}

TEST(BlockSync, SyncAllMissedByOneBlockDeadlocksTheOthers) {
  auto r = run_blocks(&sync_all_skipped, 3, reinterpret_cast<GM_ADDR>(0x1000));
  EXPECT_TRUE(r.blocks[1].error.empty());
  for (std::uint32_t b : {0u, 2u}) {
    EXPECT_EQ(r.blocks[b].error, "block " + std::to_string(b) + ": deadlock: SyncAll in block " +
                                     std::to_string(b) +
                                     " of 3 can never return (every other block has ended or "
                                     "waits too)");
  }
}

// Block 0 spins on a flag block 2 writes; block 1 only counts.
extern "C" __global__ __aicore__ void spin_on_flag(GM_ADDR words) {
  auto* w = reinterpret_cast<__gm__ std::int32_t*>(words);
  const auto b = AscendC::GetBlockIdx();
  if (b == 0) {
    while (AscendC::ReadGmByPassDCache(w) != 7) {
    }
    w[1] = AscendC::ReadGmByPassDCache(w + 2) + 1;
  } else if (b == 2) {
    w[2] = 99;
    AscendC::WriteGmByPassDCache<std::int32_t>(w, 7);
  }
}

TEST(BlockSync, GmPollingLetsTheWriterRun) {
  std::vector<std::int32_t> words(3, 0);
  auto r = run_blocks(&spin_on_flag, 3, reinterpret_cast<GM_ADDR>(words.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(words[1], 100);
  const BlockTrace& t2 = r.blocks[2].trace;
  ASSERT_EQ(t2.instrs.size(), 1u);
  EXPECT_EQ(t2.instrs[0].op, Op::kScalarWrite);
  EXPECT_EQ(t2.instrs[0].dst, npusim::ascendc::Mem::kGm);
  EXPECT_EQ(r.blocks[0].trace.instrs.back().op, Op::kScalarRead);
}

TEST(BlockSync, OutsideAGroupTheCallsFail) {
  npusim::ascendc::BlockContext ctx(0, 1);
  npusim::ascendc::ScopedBlock scope(ctx);
  EXPECT_THROW(AscendC::SyncAll(), npusim::ascendc::KernelError);
}

// A block still parked when its group goes away is unwound (BlockAborted), not left hanging.
TEST(BlockSync, ParkedBlocksAreUnwoundWithTheGroup) {
  std::atomic<bool> aborted{false};
  bool flag = false;
  {
    npusim::ascendc::BlockGroup* gp = nullptr;
    npusim::ascendc::BlockGroup g(2, [&](std::uint32_t b) {
      try {
        gp->wait(b, [&] { return flag; }, "test wait");
      } catch (const npusim::ascendc::BlockAborted&) {
        aborted = true;
        throw;
      }
    });
    gp = &g;
    g.begin_inline(0);
    g.poll(0);  // starts block 1, which parks in its wait and hands the baton back
    EXPECT_TRUE(g.started(1));
    g.end_inline(0);
  }
  EXPECT_TRUE(aborted);
}

}  // namespace
