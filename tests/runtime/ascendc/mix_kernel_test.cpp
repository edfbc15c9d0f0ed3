// SPDX-License-Identifier: Apache-2.0
// Mixed AIC/AIV kernels (mix_launch.h, mix_ops.h): a __mix__(1, 2) kernel whose cube produces and
// whose vectors consume, run as its sub-blocks (block_runner.h's run_mix_blocks, as the runtime
// runs them): values, the order the sub-blocks run in, the sub-block queries, the cross-core
// modes, the merged trace's deps and block_deps, its simulated times (BlockReplay, the costs of
// tests/models/aicore_bench.h), and the kernel errors (deadlock, the other core's pipes, counter
// overflow, outside a mix kernel).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/core_pass.h"
#include "models/aicore/block_replay.h"
#include "npusim/ascendc/block_runner.h"
#include "tests/models/aicore_bench.h"

namespace {

using npusim::ascendc::BlockTrace;
using npusim::ascendc::MixShape;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::run_mix_blocks;

constexpr MixShape kOneTwo{1, 2};

// The log: log[0] counts entries, then one entry per event.
void note(__gm__ std::int32_t* log, std::int32_t what) { log[1 + log[0]++] = what; }

std::int32_t find_op(const BlockTrace& t, Op op, std::int32_t from = 0) {
  for (std::size_t i = static_cast<std::size_t>(from); i < t.instrs.size(); ++i) {
    if (t.instrs[i].op == op) return static_cast<std::int32_t>(i);
  }
  return -1;
}

// C = A (16 x 16, ones) x B (16 x 16, twos) on the AIC: every element 32 whatever the fractal
// layout. Each AIV adds 1 to its half of C and writes it to out; the AIC waits for both.
extern "C" __global__ __mix__(1, 2) void cube_then_vector(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                          GM_ADDR out, GM_ADDR log) {
  using namespace AscendC;
  auto* l = reinterpret_cast<__gm__ std::int32_t*>(log);
  if ASCEND_IS_AIC {
    TPipe pipe;
    TQue<TPosition::A2, 1> qa;
    TQue<TPosition::B2, 1> qb;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa, 1, 256 * sizeof(half));
    pipe.InitBuffer(qb, 1, 256 * sizeof(half));
    pipe.InitBuffer(qc, 1, 256 * sizeof(float));
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    LocalTensor<half> la = qa.AllocTensor<half>();
    LocalTensor<half> lb = qb.AllocTensor<half>();
    LocalTensor<float> lc = qc.AllocTensor<float>();
    LoadData(la, ga, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    LoadData(lb, gb, LoadData2DParams(0, 1, 1, 0, 0, true, 0));
    MmadParams p;
    p.m = p.n = p.k = 16;
    Mmad(lc, la, lb, p);
    Fixpipe(gc, lc, FixpipeParamsV220(16, 16, 16, 16, false));
    note(l, 1);
    CrossCoreSetFlag<2, PIPE_FIX>(3);
    CrossCoreWaitFlag(4);
    note(l, 2);
    qa.FreeTensor(la);
    qb.FreeTensor(lb);
    qc.FreeTensor(lc);
  }
  if ASCEND_IS_AIV {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    LocalTensor<float> x = buf.Get<float>();
    const auto half_offset = static_cast<std::uint32_t>(GetSubBlockIdx() * 128);
    GlobalTensor<float> gc, go;
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + half_offset, 128);
    go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out) + half_offset, 128);
    CrossCoreWaitFlag(3);
    note(l, 10 + static_cast<std::int32_t>(GetSubBlockIdx()));
    DataCopy(x, gc, 128);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(x, x, 1.0f, 128);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(go, x, 128);
    CrossCoreSetFlag<2, PIPE_MTE3>(4);
  }
}

struct CubeVector {
  std::vector<half> a = std::vector<half>(256, half(1.0f));
  std::vector<half> b = std::vector<half>(256, half(2.0f));
  std::vector<float> c = std::vector<float>(256, 0.0f);
  std::vector<float> out = std::vector<float>(256, 0.0f);
  std::vector<std::int32_t> log = std::vector<std::int32_t>(16, 0);

  npusim::ascendc::MixRunResult run() {
    return run_mix_blocks(kOneTwo, &cube_then_vector, 1, reinterpret_cast<GM_ADDR>(a.data()),
                          reinterpret_cast<GM_ADDR>(b.data()), reinterpret_cast<GM_ADDR>(c.data()),
                          reinterpret_cast<GM_ADDR>(out.data()),
                          reinterpret_cast<GM_ADDR>(log.data()));
  }
};

TEST(MixKernel, CubeProducesAndBothVectorsConsume) {
  CubeVector k;
  const auto r = k.run();
  ASSERT_TRUE(r.members.ok()) << r.members.first_error();
  EXPECT_EQ(k.c, std::vector<float>(256, 32.0f));
  EXPECT_EQ(k.out, std::vector<float>(256, 33.0f));
  // The AIC (member 0) runs first, sets flag 3 and waits for flag 4: AIV 0 and AIV 1 run, each
  // past its wait; AIV 1's set completes mode 2's round, the AIC gets its grant and goes on.
  EXPECT_EQ(std::vector<std::int32_t>(k.log.begin(), k.log.begin() + 5),
            (std::vector<std::int32_t>{4, 1, 10, 11, 2}));
}

TEST(MixKernel, SubBlocksRecordOnlyTheirCoresPipes) {
  CubeVector k;
  const auto r = k.run();
  ASSERT_TRUE(r.members.ok()) << r.members.first_error();
  const BlockTrace& aic = r.members.blocks[0].trace;
  const BlockTrace& aiv = r.members.blocks[1].trace;
  for (const auto& in : aic.instrs) EXPECT_NE(in.pipe, Pipe::kVector);
  for (const auto& in : aiv.instrs) {
    EXPECT_TRUE(in.pipe != Pipe::kCube && in.pipe != Pipe::kFixpipe && in.pipe != Pipe::kMte1);
  }
  // The AIC's set is on FIXPIPE (after its Fixpipe), the AIVs' on MTE3; the waits on S.
  const std::int32_t set = find_op(aic, Op::kSyncSet);
  ASSERT_GE(set, 1);
  EXPECT_EQ(aic.instrs[set].pipe, Pipe::kFixpipe);
  EXPECT_EQ(aic.instrs[set - 1].op, Op::kFixpipe);
  EXPECT_EQ(aiv.instrs[find_op(aiv, Op::kSyncSet)].pipe, Pipe::kMte3);
  EXPECT_EQ(aiv.instrs[find_op(aiv, Op::kSyncWait)].pipe, Pipe::kScalar);
}

TEST(MixKernel, MergedTraceWaitsDependOnTheSetsTheyWaitedFor) {
  CubeVector k;
  const auto r = k.run();
  ASSERT_TRUE(r.members.ok()) << r.members.first_error();
  ASSERT_EQ(r.blocks.size(), 1u);
  const BlockTrace& t = r.blocks[0];
  std::size_t total = 0;
  for (const auto& m : r.members.blocks) total += m.trace.instrs.size();
  EXPECT_EQ(t.instrs.size(), total);
  EXPECT_TRUE(t.block_deps.empty());  // one block: every wait is within it
  // Recording order: the AIC's work and set, then AIV 0's wait ... set, AIV 1's, the AIC's wait.
  const std::int32_t aic_set = find_op(t, Op::kSyncSet);
  const std::int32_t aiv0_wait = find_op(t, Op::kSyncWait);
  ASSERT_GT(aiv0_wait, aic_set);
  const auto deps_of = [&t](std::int32_t i) {
    const auto& in = t.instrs[static_cast<std::size_t>(i)];
    return std::vector<std::uint32_t>(t.deps.begin() + in.dep_begin,
                                      t.deps.begin() + in.dep_begin + in.dep_count);
  };
  EXPECT_EQ(deps_of(aiv0_wait), (std::vector<std::uint32_t>{static_cast<std::uint32_t>(aic_set)}));
  const std::int32_t aiv0_set = find_op(t, Op::kSyncSet, aiv0_wait);
  const std::int32_t aiv1_wait = find_op(t, Op::kSyncWait, aiv0_wait + 1);
  const std::int32_t aiv1_set = find_op(t, Op::kSyncSet, aiv1_wait);
  const std::int32_t aic_wait = find_op(t, Op::kSyncWait, aiv1_wait + 1);
  ASSERT_GT(aic_wait, aiv1_set);
  EXPECT_EQ(aic_wait, static_cast<std::int32_t>(t.instrs.size()) - 1);
  EXPECT_EQ(deps_of(aic_wait), (std::vector<std::uint32_t>{static_cast<std::uint32_t>(aiv0_set),
                                                           static_cast<std::uint32_t>(aiv1_set)}));
}

// The merged trace replayed as the AI Core engine replays a MIX block (vector lanes on the AIV):
// each AIV's wait starts after the AIC's set has ended, the AIC's wait after both AIVs' sets.
using npusim::models::SimTime;

struct TimedHost : npusim::models::ReplayHost {
  explicit TimedHost(const BlockTrace& t)
      : trace(t), start(t.instrs.size(), kNever), end(t.instrs.size(), kNever) {}
  SimTime gm_access(const npusim::ascendc::Instr&, SimTime request, SimTime&) override {
    return request;
  }
  // (`e` is the instruction's pipe release: its end, but for a GM copy's data completion.)
  void instr_done(const npusim::ascendc::Instr& in, int, SimTime s, SimTime e) override {
    const auto i = static_cast<std::size_t>(&in - trace.instrs.data());
    start[i] = s;
    end[i] = e;
  }
  const BlockTrace& trace;
  std::vector<SimTime> start, end;
};

TEST(MixKernel, ReplayedWaitsStartAfterTheirSetsEnd) {
  CubeVector k;
  const auto r = k.run();
  ASSERT_TRUE(r.members.ok()) << r.members.first_error();
  const BlockTrace& t = r.blocks[0];
  const npusim::models::PipeCosts costs(npusim::models::testing::aicore_config());
  npusim::models::BlockReplay replay(costs);
  TimedHost host(t);
  const SimTime end = replay.run(t, 0, true, true, host).end;
  const std::int32_t aic_set = find_op(t, Op::kSyncSet);
  const std::int32_t aiv0_wait = find_op(t, Op::kSyncWait);
  const std::int32_t aiv0_set = find_op(t, Op::kSyncSet, aiv0_wait);
  const std::int32_t aiv1_wait = find_op(t, Op::kSyncWait, aiv0_wait + 1);
  const std::int32_t aiv1_set = find_op(t, Op::kSyncSet, aiv1_wait);
  const std::int32_t aic_wait = static_cast<std::int32_t>(t.instrs.size()) - 1;
  const std::int32_t fixpipe = find_op(t, Op::kFixpipe);
  for (std::size_t i = 0; i < t.instrs.size(); ++i) ASSERT_NE(host.start[i], TimedHost::kNever);
  EXPECT_GE(host.start[aic_set], host.end[fixpipe]);    // FIXPIPE: in order after the Fixpipe
  EXPECT_GE(host.start[aiv0_wait], host.end[aic_set]);  // the AIVs wait for the AIC's set
  EXPECT_GE(host.start[aiv1_wait], host.end[aic_set]);
  EXPECT_GE(host.start[aiv0_wait + 1], host.end[aiv0_wait]);  // AIV 0's copy-in after its wait
  EXPECT_GE(host.start[aic_wait], std::max(host.end[aiv0_set], host.end[aiv1_set]));
  EXPECT_GE(end, host.end[aic_wait]);
  // Pinned (1 cycle = 1 ns; the kernel's scalar work is not counted in this test binary): the
  // cube chain to its set, then the two AIVs' chains one after the other (they share the AIV
  // lanes of the replay), then the AIC's wait.
  EXPECT_EQ(end, SimTime{140 * npusim::models::testing::kNs});
}

// The sub-block queries on every member of a 2-block __mix__(1, 2) launch.
extern "C" __global__ __mix__(1, 2) void who_am_i(GM_ADDR out) {
  auto* o = reinterpret_cast<__gm__ std::int32_t*>(out);
  const std::int32_t slot = ASCEND_IS_AIC ? static_cast<std::int32_t>(AscendC::GetBlockIdx())
                                          : 2 + static_cast<std::int32_t>(AscendC::GetBlockIdx());
  o[slot * 5 + 0] = g_coreType;
  o[slot * 5 + 1] = static_cast<std::int32_t>(AscendC::GetBlockNum());
  o[slot * 5 + 2] = static_cast<std::int32_t>(AscendC::GetSubBlockIdx());
  o[slot * 5 + 3] = static_cast<std::int32_t>(AscendC::GetSubBlockNum());
  o[slot * 5 + 4] = static_cast<std::int32_t>(AscendC::GetTaskRation());
}

TEST(MixKernel, SubBlockQueries) {
  std::vector<std::int32_t> out(30, -1);
  const auto r = run_mix_blocks(kOneTwo, &who_am_i, 2, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.members.ok()) << r.members.first_error();
  EXPECT_EQ(out, (std::vector<std::int32_t>{
                     1, 2, 0, 1, 1,  1, 2, 0, 1, 1,    // AIC 0, AIC 1
                     2, 2, 0, 2, 2,  2, 2, 1, 2, 2,    // AIV 0, 1 (block 0)
                     2, 2, 0, 2, 2,  2, 2, 1, 2, 2}));  // AIV 2, 3 (block 1)
  EXPECT_EQ(AscendC::GetSubBlockNum(), 1);  // outside a mix launch
  EXPECT_EQ(g_coreType, AscendC::AIV);
}

// Mode 0 over all AIVs of 2 blocks, mode 1 between the two AIVs of one AI Core.
extern "C" __global__ __mix__(1, 2) void all_vectors(GM_ADDR slots, GM_ADDR out) {
  if ASCEND_IS_AIC { return; }
  auto* s = reinterpret_cast<__gm__ std::int32_t*>(slots);
  auto* o = reinterpret_cast<__gm__ std::int32_t*>(out);
  const auto me = static_cast<std::int32_t>(AscendC::GetBlockIdx());
  s[me] = me + 1;
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(1);
  AscendC::CrossCoreWaitFlag(1);
  o[me] = s[0] + s[1] + s[2] + s[3];
  s[4 + me] = 10 * (me + 1);
  AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(2);
  AscendC::CrossCoreWaitFlag(2);
  o[4 + me] = s[4 + (me ^ 1)];  // the other AIV of the same AI Core
}

TEST(MixKernel, ModeZeroSyncsEveryVectorAndModeOneAnAiCoresPair) {
  std::vector<std::int32_t> slots(8, 0), out(8, 0);
  const auto r = run_mix_blocks(kOneTwo, &all_vectors, 2, reinterpret_cast<GM_ADDR>(slots.data()),
                                reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.members.ok()) << r.members.first_error();
  EXPECT_EQ(out, (std::vector<std::int32_t>{10, 10, 10, 10, 20, 10, 40, 30}));
  // Block 0's AIVs waited (mode 0) for block 1's AIVs' sets too: block_deps onto block 1's merged
  // trace, each naming one of its kSyncSet instructions.
  const BlockTrace& t0 = r.blocks[0];
  ASSERT_EQ(t0.block_deps.size(), 4u);  // 2 waits x the 2 sets of the other block
  for (const auto& d : t0.block_deps) {
    EXPECT_EQ(d.block, 1u);
    EXPECT_EQ(t0.instrs[d.instr].op, Op::kSyncWait);
    EXPECT_EQ(r.blocks[1].instrs[d.other].op, Op::kSyncSet);
  }
}

extern "C" __global__ __mix__(1, 2) void aic_waits_forever(GM_ADDR) {
  if ASCEND_IS_AIC { AscendC::CrossCoreWaitFlag(5); }
}

TEST(MixKernel, AWaitNoSetCanSatisfyIsAKernelError) {
  const auto r = run_mix_blocks(kOneTwo, &aic_waits_forever, 1, nullptr);
  EXPECT_EQ(r.members.first_error(),
            "AIC 0: deadlock: CrossCoreWaitFlag(5) on AIC 0 (block 0) in block 0 of 3 can never "
            "return (every other block has ended or waits too)");
}

extern "C" __global__ __mix__(1, 2) void vector_on_aic(GM_ADDR x) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::Duplicate(t, 1.0f, 64);  // unguarded: the AIC runs it too
}

TEST(MixKernel, TheOtherCoresPipesAreAKernelError) {
  const auto r = run_mix_blocks(kOneTwo, &vector_on_aic, 1, nullptr);
  EXPECT_NE(r.members.blocks[0].error.find("AIC 0 (a sub-block of a __mix__ kernel) recorded "
                                           "instruction 0 on pipe V"),
            std::string::npos)
      << r.members.blocks[0].error;
  EXPECT_TRUE(r.members.blocks[1].error.empty());
}

extern "C" __global__ __mix__(1, 2) void sets_without_waits(GM_ADDR) {
  if ASCEND_IS_AIC {
    for (int i = 0; i < 16; ++i) AscendC::CrossCoreSetFlag<2, PIPE_FIX>(7);
  }
}

TEST(MixKernel, AFlagCounterPast15IsAKernelError) {
  const auto r = run_mix_blocks(kOneTwo, &sets_without_waits, 1, nullptr);
  EXPECT_NE(r.members.first_error().find("flag 7 of AIV 0 would count past 15"), std::string::npos)
      << r.members.first_error();
}

extern "C" __global__ __aicore__ void set_in_plain_kernel(GM_ADDR) {
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(0);
}

TEST(MixKernel, CrossCoreFlagsOutsideAMixKernelAreAKernelError) {
  const auto r = npusim::ascendc::run_blocks(&set_in_plain_kernel, 1, nullptr);
  EXPECT_NE(r.first_error().find("CrossCoreSetFlag: needs a __mix__(cube, vector) kernel"),
            std::string::npos)
      << r.first_error();
}

void aic_build() {}
void aiv_build() {}

// The registry joining a source's per-core builds (core_pass.h; npusim-asc fills it at load time
// and tests/e2e/asc_project/percore.asc runs it end to end): each core's build by key, and a
// build the program lacks is a kernel error naming the kernel and the core.
TEST(MixKernel, PerCoreBuildsAreFoundByCoreAndKey) {
  using npusim::ascendc::core_pass_find;
  using npusim::ascendc::core_pass_register;
  core_pass_register(npusim::ascendc::kCoreAic, "test-key", &aic_build);
  core_pass_register(npusim::ascendc::kCoreAiv, "test-key", &aiv_build);
  EXPECT_EQ(core_pass_find(npusim::ascendc::kCoreAic, "test-key", "K"), &aic_build);
  EXPECT_EQ(core_pass_find(npusim::ascendc::kCoreAiv, "test-key", "K"), &aiv_build);
  try {
    core_pass_find(npusim::ascendc::kCoreAic, "other-key", "KernelX");
    ADD_FAILURE() << "no KernelError";
  } catch (const npusim::ascendc::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel KernelX has no AIC build"), std::string::npos)
        << e.what();
  }
}

}  // namespace
