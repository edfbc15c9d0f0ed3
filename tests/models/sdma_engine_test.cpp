// SPDX-License-Identifier: Apache-2.0
// SDMA: D2D copies read and write HBM, memsets only write, reductions read twice and write once;
// channels contend for HBM.
#include <gtest/gtest.h>

#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

constexpr SimTime kHbmBurst = 65536;  // ps: 64 KiB at 1 TB/s = 65.536 ns

TEST(Sdma, D2DCostsHbmBandwidthTwice) {
  Bench bench;
  Seen& copy = bench.copy(1, Direction::kD2D, 64 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // engine = setup 500 ns + 1024 bursts x (read 65.536 ns + write 65.536 ns) + HBM latency 100 ns
  //        = 500 + 134217.728 + 100 ns.
  const SimTime engine = 500 * kNs + 1024 * 2 * kHbmBurst + 100 * kNs;
  EXPECT_EQ(copy.out.start, 700 * kNs);
  EXPECT_EQ(copy.out.end, 700 * kNs + engine + 300 * kNs);
  EXPECT_EQ(bench.stat("chip0.hbm.bytes"), 2.0 * 64 * kMiB);
  EXPECT_EQ(bench.stat("chip0.hbm.read_bytes"), 64.0 * kMiB);
  EXPECT_EQ(bench.stat("chip0.sdma.bytes"), 64.0 * kMiB);
}

TEST(Sdma, DeviceMemsetWritesOnce) {
  Bench bench;
  Task t;
  t.kind = TaskKind::kMemset;
  t.direction = Direction::kD2D;
  t.bytes = 64 * kMiB;
  t.stream = 1;
  Seen& set = bench.submit(std::move(t));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const SimTime engine = 500 * kNs + 1024 * kHbmBurst + 100 * kNs;
  EXPECT_EQ(set.out.end, 700 * kNs + engine + 300 * kNs);
  EXPECT_EQ(bench.stat("chip0.hbm.bytes"), 64.0 * kMiB);
}

TEST(Sdma, ReduceReadsSrcAndDstAndWritesDst) {
  Bench bench(test_config(), /*trace=*/true);
  Task t;
  t.kind = TaskKind::kReduce;
  t.direction = Direction::kD2D;
  t.bytes = 64 * kMiB;
  t.stream = 1;
  t.name = "REDUCE_SUM";
  Seen& red = bench.submit(std::move(t));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // engine = setup 500 ns + 1024 bursts x (read src + read dst + write dst, 65.536 ns each)
  //        + HBM latency 100 ns.
  const SimTime engine = 500 * kNs + 1024 * 3 * kHbmBurst + 100 * kNs;
  EXPECT_EQ(red.out.start, 700 * kNs);
  EXPECT_EQ(red.out.end, 700 * kNs + engine + 300 * kNs);
  EXPECT_EQ(red.out.error, 0);
  EXPECT_EQ(bench.stat("chip0.hbm.bytes"), 3.0 * 64 * kMiB);
  EXPECT_EQ(bench.stat("chip0.hbm.read_bytes"), 2.0 * 64 * kMiB);
  EXPECT_EQ(bench.stat("chip0.sdma.bytes"), 64.0 * kMiB);
  EXPECT_EQ(bench.stat("chip0.sdma.tasks"), 1.0);
  const std::string timeline = bench.timeline_json();
  EXPECT_NE(timeline.find("\"operation\":\"reduce\""), std::string::npos);
  EXPECT_NE(timeline.find("\"Task Type\":\"SDMA_SQE\""), std::string::npos);
}

TEST(Sdma, H2DTrafficSlowsAD2DCopy) {
  Bench bench;
  Seen& alone_ref = bench.copy(1, Direction::kD2D, 64 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const SimTime alone = alone_ref.out.end - alone_ref.out.submit;
  // Same copy again, now with an H2D copy writing HBM at the same time.
  const SimTime t0 = bench.engine().now();
  bench.copy(2, Direction::kH2D, 64 * kMiB, t0);
  Seen& shared = bench.copy(1, Direction::kD2D, 64 * kMiB, t0);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_GT(shared.out.end - t0, alone);
}

}  // namespace
}  // namespace npusim::models::testing
