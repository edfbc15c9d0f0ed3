// SPDX-License-Identifier: Apache-2.0
// BlockReplay without SystemC: scalar issue, pipe order, deps, queue depth, streaming GM copies,
// and the time order of GM requests. aicore_config(): 1 GHz (1 cycle = 1 ns), startup 10 cycles,
// vector 256 B/cycle, MTE1 L0A 512 B/cycle, MTE2 32, MTE3 64 B/cycle, 1 cycle per basic block,
// scalar access 2 cycles; a GM read's unloaded latency is 10 ns (L2) + 100 ns (HBM) = 110 ns.
#include <vector>

#include <gtest/gtest.h>

#include "models/aicore/block_replay.h"
#include "tests/models/aicore_bench.h"

namespace npusim::models::testing {
namespace {

constexpr SimTime kStart = 1000 * kNs;

/// Memory with no contention: data is complete 1 ns after the request. Records each request.
class FakeHost : public ReplayHost {
 public:
  void wait_until(SimTime t) override { now = std::max(now, t); }
  SimTime gm_access(const Instr&, SimTime request, SimTime&) override {
    requests.push_back({now, request});
    return request + 1 * kNs;
  }
  void instr_done(const Instr&, int lane, SimTime start, SimTime end) override {
    spans.push_back({lane, start, end});
  }
  struct Request {
    SimTime now, request;
  };
  struct Span {
    int lane;
    SimTime start, end;
  };
  SimTime now = 0;
  std::vector<Request> requests;
  std::vector<Span> spans;  // in completion order
};

TEST(BlockReplay, ScalarIssueChargesBasicBlocksAndStallsOnScalarAccesses) {
  const PipeCosts costs(aicore_config());
  TraceBuilder b;
  Instr v = vec(Op::kAdd, 256);  // 10 + 1 = 11 cycles
  b.add(v);                      // i0: issue 0, runs [0, 11)
  v.scalar_bbs = 100;
  const std::uint32_t v1 = b.add(v);  // i1: issue 0 + 1 + 100 = 101, runs [101, 112)
  Instr get;
  get.pipe = Pipe::kScalar;
  get.op = Op::kScalarRead;
  get.src = Mem::kUb;
  get.bytes = 2;
  get.scalar_bbs = 100;
  b.add(get, {v1});  // i2: issue 102, waits for i1 (112), runs [112, 114)
  b.add(v);          // i3: issue after the access: 114 + 1 = 115, runs [115, 126)
  b.trace().scalar_bbs = 150;  // tail: 116 + 50 = 166
  BlockReplay replay(costs);
  FakeHost host;
  const ReplayResult& r = replay.run(b.trace(), kStart, false, false, host);
  EXPECT_EQ(r.end, kStart + 166 * kNs);
  EXPECT_EQ(r.instrs, 4u);
  EXPECT_EQ(r.busy[static_cast<int>(Pipe::kVector)], 33 * kNs);
  // Issue 1 + 101 + 1 + 1, tail 50, the access itself 2.
  EXPECT_EQ(r.busy[static_cast<int>(Pipe::kScalar)], 156 * kNs);
}

SimTime start_of_last(int queue_depth) {
  ChipConfig cfg = aicore_config();
  cfg.aicore.pipe_queue_depth = queue_depth;
  const PipeCosts costs(cfg);
  TraceBuilder b;
  const std::uint32_t v0 = b.add(vec(Op::kAdd, 256 * 100));       // [0, 110)
  b.add(copy(Pipe::kMte3, Mem::kUb, Mem::kL1, 512), {v0});          // [110, 128)
  b.add(copy(Pipe::kMte3, Mem::kUb, Mem::kL1, 512));                // [128, 146)
  b.add(copy(Pipe::kMte1, Mem::kL1, Mem::kL0a, 512));               // 11 cycles
  BlockReplay replay(costs);
  FakeHost host;
  replay.run(b.trace(), kStart, false, true, host);
  for (const FakeHost::Span& s : host.spans) {
    if (s.lane == static_cast<int>(Pipe::kMte1)) return s.start - kStart;
  }
  return 0;
}

TEST(BlockReplay, FullPipeQueueStallsTheScalarUnit) {
  // Unbounded: the MTE1 copy issues at 3 and starts at once.
  EXPECT_EQ(start_of_last(0), 3 * kNs);
  // Depth 1: the second MTE3 copy cannot issue before the first starts (110), so the MTE1 copy
  // behind it in program order issues at 111.
  EXPECT_EQ(start_of_last(1), 111 * kNs);
}

TEST(BlockReplay, BackToBackGmCopiesOverlapTheirLatency) {
  const PipeCosts costs(aicore_config());
  TraceBuilder b;
  // 1 KiB at 32 B/cycle: 10 + 32 = 42 cycles; data 110 ns after the core-side end.
  const std::uint32_t x = b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kUb, 1024));  // [0, 42), end 152
  const std::uint32_t y = b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kUb, 1024));  // [42, 84), end 194
  b.add(vec(Op::kAdd, 1024), {x, y});  // [194, 208)
  BlockReplay replay(costs);
  FakeHost host;
  const ReplayResult& r = replay.run(b.trace(), kStart, false, true, host);
  EXPECT_EQ(r.end, kStart + 208 * kNs);
  ASSERT_EQ(host.requests.size(), 2u);
  EXPECT_EQ(host.requests[0].now, kStart);
  EXPECT_EQ(host.requests[0].request, kStart + 10 * kNs);  // after the MTE startup
  EXPECT_EQ(host.requests[1].now, kStart + 42 * kNs);
  EXPECT_EQ(r.busy[static_cast<int>(Pipe::kMte2)], 84 * kNs);  // release - start
}

TEST(BlockReplay, GmRequestsAreMadeInSimulatedTimeOrder) {
  const PipeCosts costs(aicore_config());
  const BlockTrace trace = vector_add_trace(8, 4096, 2);
  BlockReplay replay(costs);
  FakeHost host;
  const ReplayResult& r = replay.run(trace, kStart, false, false, host);
  EXPECT_EQ(r.instrs, trace.instrs.size());
  ASSERT_EQ(host.requests.size(), 24u);  // 2 copy-ins + 1 copy-out per tile
  for (std::size_t i = 1; i < host.requests.size(); ++i) {
    EXPECT_LE(host.requests[i - 1].now, host.requests[i].now) << i;
    EXPECT_GE(host.requests[i].request, host.requests[i].now) << i;
  }
}

TEST(BlockReplay, MixBlocksRunAivCopyInsOnTheirOwnLane) {
  const PipeCosts costs(aicore_config());
  TraceBuilder b;
  b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kL1, 1024));  // AIC MTE2: [0, 42)
  b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kUb, 1024));  // AIV MTE2: [1, 43) when split
  BlockReplay replay(costs);
  FakeHost host;
  EXPECT_EQ(replay.run(b.trace(), kStart, true, false, host).end, kStart + 153 * kNs);
  EXPECT_EQ(replay.run(b.trace(), kStart, false, false, host).end, kStart + 194 * kNs);
}

}  // namespace
}  // namespace npusim::models::testing
