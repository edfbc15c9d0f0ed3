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

// Blocks add their rows into one GM row in turns (WaitPreBlock / NotifyNextBlock, two rounds),
// with an atomic add that a later DisableDmaAtomic turns off again.
extern "C" __global__ __aicore__ void add_in_turns(GM_ADDR x, GM_ADDR z, GM_ADDR ws, GM_ADDR log) {
  AscendC::TPipe pipe;
  AscendC::GlobalTensor<float> src;
  AscendC::GlobalTensor<float> dst;
  AscendC::GlobalTensor<std::int32_t> gm_ws;
  src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + AscendC::GetBlockIdx() * 16, 16);
  dst.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), 16);
  gm_ws.SetGlobalBuffer(reinterpret_cast<__gm__ std::int32_t*>(ws), 64);
  AscendC::TBuf<AscendC::TPosition::VECCALC> wbuf;
  AscendC::TBuf<AscendC::TPosition::VECCALC> dbuf;
  pipe.InitBuffer(wbuf, 3 * 32 + 32);
  pipe.InitBuffer(dbuf, 16 * sizeof(float));
  AscendC::LocalTensor<std::int32_t> ub_ws = wbuf.Get<std::int32_t>();
  AscendC::LocalTensor<float> data = dbuf.Get<float>();
  AscendC::InitDetermineComputeWorkspace(gm_ws, ub_ws);
  auto* l = reinterpret_cast<__gm__ std::int32_t*>(log);
  for (int round = 0; round < 2; ++round) {
    AscendC::DataCopy(data, src[round * 8], 8);
    AscendC::WaitPreBlock(gm_ws, ub_ws);
    note(l, static_cast<std::int32_t>(AscendC::GetBlockIdx()) * 10 + round);
    AscendC::SetAtomicAdd<float>();
    AscendC::DataCopy(dst[round * 8], data, 8);
    AscendC::DisableDmaAtomic();
    AscendC::NotifyNextBlock(gm_ws, ub_ws);
  }
  AscendC::DataCopy(src, data, 8);  // not atomic any more: overwrites
}

TEST(BlockSync, TurnsInBlockOrderWithAtomicAdd) {
  std::vector<float> x(3 * 16), z(16, 0.5f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  std::vector<std::int32_t> ws(64, 0), log(16, 0);
  auto r = run_blocks(&add_in_turns, 3, reinterpret_cast<GM_ADDR>(x.data()),
                      reinterpret_cast<GM_ADDR>(z.data()), reinterpret_cast<GM_ADDR>(ws.data()),
                      reinterpret_cast<GM_ADDR>(log.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(z[i], 0.5f + static_cast<float>(i) * 3 + 16 + 32) << i;  // rows 0, 1, 2 summed
  }
  EXPECT_EQ(std::vector<std::int32_t>(log.begin() + 1, log.begin() + 7),
            (std::vector<std::int32_t>{0, 10, 20, 1, 11, 21}));
  EXPECT_EQ(x[16], 24.0f);  // block 1's last data (x[24]) copied over its row without adding
  // Block 0's second turn waits for block 2's first NotifyNextBlock.
  const BlockTrace& t0 = r.blocks[0].trace;
  ASSERT_EQ(t0.block_deps.size(), 1u);
  EXPECT_EQ(t0.block_deps[0].block, 2u);
  EXPECT_EQ(r.blocks[2].trace.instrs[t0.block_deps[0].other].op, Op::kSyncSet);
}

extern "C" __global__ __aicore__ void half_atomic_max(GM_ADDR z) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 16 * sizeof(half));
  AscendC::LocalTensor<half> v = buf.Get<half>();
  AscendC::Duplicate(v, half(2.0f), 16);
  AscendC::GlobalTensor<half> out;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z), 16);
  AscendC::SetAtomicMax<half>();
  AscendC::DataCopy(out, v, 16);
  AscendC::SetAtomicNone();
}

extern "C" __global__ __aicore__ void double_atomic(GM_ADDR) { AscendC::SetAtomicAdd<double>(); }

TEST(BlockSync, AtomicMaxInHalfAndUnsupportedTypes) {
  std::vector<half> z(16, half(1.0f));
  z[3] = half(5.0f);
  auto r = run_blocks(&half_atomic_max, 1, reinterpret_cast<GM_ADDR>(z.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(static_cast<float>(z[0]), 2.0f);
  EXPECT_EQ(static_cast<float>(z[3]), 5.0f);
  auto bad = run_blocks(&double_atomic, 1, reinterpret_cast<GM_ADDR>(0x1000));
  EXPECT_NE(bad.first_error().find("SetAtomicAdd: no atomic DMA writes"), std::string::npos)
      << bad.first_error();
}

// GroupBarrier: blocks 0 and 1 arrive, 2 and 3 wait and then read what both wrote.
extern "C" __global__ __aicore__ void group_of_four(GM_ADDR ws, GM_ADDR words) {
  AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bar(reinterpret_cast<__gm__ std::uint8_t*>(ws), 2, 2);
  auto* w = reinterpret_cast<__gm__ std::int32_t*>(words);
  const auto b = static_cast<std::uint32_t>(AscendC::GetBlockIdx());
  if (b >= 2) {
    bar.Wait(b - 2);
    w[b] = w[0] + w[1];
  } else {
    w[b] = static_cast<std::int32_t>(b) + 5;
    bar.Arrive(b);
  }
}

TEST(BlockSync, GroupBarrierWaitersSeeEveryArrival) {
  alignas(512) static std::uint8_t ws[2 * 512];
  std::vector<std::int32_t> words(4, 0);
  auto r = run_blocks(&group_of_four, 4, reinterpret_cast<GM_ADDR>(ws),
                      reinterpret_cast<GM_ADDR>(words.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(words, (std::vector<std::int32_t>{5, 6, 11, 11}));
  EXPECT_EQ(r.blocks[2].trace.block_deps.size(), 2u);
}

}  // namespace
