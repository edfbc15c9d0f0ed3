// SPDX-License-Identifier: Apache-2.0
// PCIe host link: latency + bursts, independent directions, fair sharing, pageable staging.
// Task-level overhead in the bench config: doorbell 500 ns + dispatch 200 ns before the engine
// starts, completion 300 ns after it ends.
#include <algorithm>

#include <gtest/gtest.h>

#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

constexpr SimTime kBurst = 8192 * kNs;  // 256 KiB at 32 GB/s

TEST(HostLink, H2D64MiBTakesLatencyPlusSizeOverBandwidth) {
  Bench bench;
  Seen& copy = bench.copy(1, Direction::kH2D, 64 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // start = doorbell 500 + dispatch 200 = 700 ns.
  // engine = latency 1 us + 64 MiB / 32 GB/s (256 bursts x 8.192 us = 2097.152 us).
  // HBM writes (256 KiB / 1 TB/s = 262 ns + 100 ns each) hide behind the link.
  const SimTime engine = 1 * kUs + 256 * kBurst;
  EXPECT_EQ(copy.out.start, 700 * kNs);
  EXPECT_EQ(copy.out.end, 700 * kNs + engine + 300 * kNs);  // 2099.152 us
  EXPECT_EQ(copy.out.error, 0);
  EXPECT_FALSE(copy.out.discarded);
  EXPECT_EQ(bench.stat("chip0.pcie.h2d.link.bytes"), 64.0 * kMiB);
  EXPECT_EQ(bench.stat("chip0.hbm.write_bytes"), 64.0 * kMiB);
  EXPECT_NEAR(bench.stat("chip0.pcie.h2d.link.bandwidth"), 32.0, 1e-9);
}

TEST(HostLink, SmallCopyIsLatencyPlusSizeOverBandwidth) {
  Bench bench;
  Seen& copy = bench.copy(1, Direction::kD2H, 4 * kKiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // 1 us + 4096 B / 32 GB/s (128 ns); the HBM read's latency is part of pcie.latency.
  EXPECT_EQ(copy.out.end, 700 * kNs + 1 * kUs + 128 * kNs + 300 * kNs);
}

TEST(HostLink, H2DAndD2HRunAtFullBandwidthTogether) {
  Bench bench;
  Seen& up = bench.copy(1, Direction::kH2D, 64 * kMiB);
  Seen& down = bench.copy(2, Direction::kD2H, 64 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // Each direction has its own link: both take exactly what one alone takes (2099.152 us).
  const SimTime alone = 700 * kNs + 1 * kUs + 256 * kBurst + 300 * kNs;
  EXPECT_EQ(up.out.end, alone);
  EXPECT_EQ(down.out.end, alone);
}

TEST(HostLink, TwoH2DCopiesShareTheLinkBurstByBurst) {
  Bench bench;
  Seen& a = bench.copy(1, Direction::kH2D, 64 * kMiB);
  Seen& b = bench.copy(2, Direction::kH2D, 64 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // Both start at 700 ns on two DMA queues and alternate bursts from 1.7 us on: the first ends
  // with burst 511 of the pair (1.7 us + 511 x 8.192 us), the second one burst later.
  const SimTime first = 1700 * kNs + 511 * kBurst + 300 * kNs;
  const SimTime second = first + kBurst;
  EXPECT_EQ(std::min(a.out.end, b.out.end), first);
  EXPECT_EQ(std::max(a.out.end, b.out.end), second);
  const double single = 700 * kNs + 1 * kUs + 256 * kBurst + 300 * kNs;
  EXPECT_NEAR(static_cast<double>(a.out.end) / single, 2.0, 0.01);
  EXPECT_NEAR(static_cast<double>(b.out.end) / single, 2.0, 0.01);
}

TEST(HostLink, PageableH2DStagesThroughBounceBuffers) {
  Bench bench;
  Seen& copy = bench.copy(1, Direction::kH2D, 4 * kMiB, 0, 0, /*pageable=*/true);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // 1 MiB chunks: host memcpy 1 MiB / 16 GB/s = 65.536 us; DMA = 1 us + 4 x 8.192 = 33.768 us.
  // The copy is the bottleneck: 4 copies back to back, then the last chunk's DMA.
  const SimTime engine = 4 * 65536 * kNs + 33768 * kNs;  // 295.912 us
  EXPECT_EQ(copy.out.end, 700 * kNs + engine + 300 * kNs);
}

TEST(HostLink, PageableD2HCopiesOutBehindTheDma) {
  Bench bench;
  Seen& copy = bench.copy(1, Direction::kD2H, 4 * kMiB, 0, 0, /*pageable=*/true);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // DMA 0 [0, 33.768], copies out 65.536 us each, back to back from 33.768 us; DMAs 1-3 wait for
  // a free bounce buffer but never delay the copies: end = 33.768 + 4 x 65.536 = 295.912 us.
  const SimTime engine = 33768 * kNs + 4 * 65536 * kNs;
  EXPECT_EQ(copy.out.end, 700 * kNs + engine + 300 * kNs);
}

}  // namespace
}  // namespace npusim::models::testing
