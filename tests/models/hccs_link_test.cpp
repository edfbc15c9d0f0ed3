// SPDX-License-Identifier: Apache-2.0
// Cross-chip copies (Direction::kPeer) on the HCCS unit and the host's root complex: exact
// simulated times of a lone copy, two copies sharing a link direction, opposite directions, the
// PCIe path through the host when no HCCS link joins the chips, and host copies of several chips
// contending for the root complex. (Each TEST elaborates SystemC: one per process.)
//
// Every task pays doorbell 500 ns + dispatch 200 ns before its engine starts and completion
// 300 ns after it ends (tests/models/bench.h). HCCS here: 32 GB/s per direction, latency 1 us,
// 64 KiB bursts (sdma.burst): a burst takes 2.048 us on the link; HBM (1 TB/s) hides behind it.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <fstream>
#include <iterator>
#include <string>

#include "models/system.h"
#include "sim/engine.h"
#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

constexpr SimTime kHccsBurst = 2048 * kNs;  // 64 KiB at 32 GB/s
constexpr SimTime kPcieBurst = 8192 * kNs;  // 256 KiB at 32 GB/s
constexpr SimTime kBefore = 700 * kNs;      // doorbell + dispatch
constexpr SimTime kAfter = 300 * kNs;       // completion

ChipConfig system_config(int devices, const std::string& links) {
  ChipConfig c = test_config();
  c.soc.num_devices = devices;
  c.topology.links = links;
  c.topology.link = "hccs";
  c.topology.links_per_pair = 1;
  c.topology.hccs_bandwidth = sim::Bandwidth{32e9};
  c.topology.hccs_latency = sim::Duration{1 * kUs};
  c.pcie.root_complex_bandwidth = sim::Bandwidth{64e9};
  c.unit<SdmaConfig>().channels = 2;
  return c;
}

class SystemBench : public BenchBase {
 public:
  explicit SystemBench(const ChipConfig& cfg, bool trace = false)
      : BenchBase(trace), system_(cfg, stats_, trace_) {
    wake_on_completion(system_);
    engine_.elaborate();
  }

  Seen& submit(Task task) {
    Seen& seen = track(task);
    const std::uint32_t device = task.device;
    system_.device(device).scheduler().submit(std::move(task));
    return seen;
  }
  /// A copy queued on `device`'s stream `stream`: to `peer` (from_peer: from it).
  Seen& peer_copy(std::uint32_t device, std::uint32_t stream, std::uint32_t peer, bool from_peer,
                  std::uint64_t bytes, TaskKind kind = TaskKind::kCopy) {
    Task t = copy_task(stream, Direction::kPeer, bytes);
    t.kind = kind;
    t.device = device;
    t.peer = peer;
    t.from_peer = from_peer;
    return submit(std::move(t));
  }
  Seen& host_copy(std::uint32_t device, Direction dir, std::uint64_t bytes) {
    Task t = copy_task(1, dir, bytes);
    t.device = device;
    return submit(std::move(t));
  }

 private:
  System system_;
};

TEST(HccsLink, LonePeerCopyIsLatencyPlusSizeOverLinkBandwidth) {
  SystemBench bench(system_config(2, "full_mesh"));
  Seen& copy = bench.peer_copy(0, 1, 1, false, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // 0.7 us + latency 1 us + 16 bursts x 2.048 us + 0.3 us = 34.768 us.
  EXPECT_EQ(copy.out.start, kBefore);
  EXPECT_EQ(copy.out.end, kBefore + 1 * kUs + 16 * kHccsBurst + kAfter);
  EXPECT_EQ(copy.out.error, 0);
  EXPECT_EQ(bench.stat("system.hccs.0_to_1.bytes"), 1.0 * kMiB);
  EXPECT_EQ(bench.stat("system.hccs.1_to_0.bytes"), 0.0);
  EXPECT_EQ(bench.stat("chip0.hccs.hccs_bytes"), 1.0 * kMiB);
  EXPECT_EQ(bench.stat("chip0.hbm.read_bytes"), 1.0 * kMiB);   // the source
  EXPECT_EQ(bench.stat("chip1.hbm.write_bytes"), 1.0 * kMiB);  // the destination
  EXPECT_EQ(bench.stat("chip0.pcie.d2h.link.bytes"), 0.0);
}

TEST(HccsLink, TwoCopiesOfOneDirectionShareTheLinkBurstByBurst) {
  SystemBench bench(system_config(2, "full_mesh"));
  // Chip 0 pushes to chip 1 while chip 1 pulls from chip 0: both use the 0->1 direction.
  Seen& push = bench.peer_copy(0, 1, 1, false, 1 * kMiB);
  Seen& pull = bench.peer_copy(1, 1, 0, true, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // Both start bursting at 1.7 us and alternate: one ends with burst 31 of the pair, the other
  // one burst later.
  const SimTime first = kBefore + 1 * kUs + 31 * kHccsBurst + kAfter;
  EXPECT_EQ(std::min(push.out.end, pull.out.end), first);
  EXPECT_EQ(std::max(push.out.end, pull.out.end), first + kHccsBurst);
  EXPECT_EQ(bench.stat("system.hccs.0_to_1.bytes"), 2.0 * kMiB);
  EXPECT_EQ(bench.stat("chip1.hbm.write_bytes"), 2.0 * kMiB);
}

TEST(HccsLink, OppositeDirectionsDoNotInterfere) {
  SystemBench bench(system_config(2, "full_mesh"));
  Seen& there = bench.peer_copy(0, 1, 1, false, 1 * kMiB);
  Seen& back = bench.peer_copy(1, 1, 0, false, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const SimTime alone = kBefore + 1 * kUs + 16 * kHccsBurst + kAfter;
  EXPECT_EQ(there.out.end, alone);
  EXPECT_EQ(back.out.end, alone);
  EXPECT_EQ(bench.stat("system.hccs.1_to_0.bytes"), 1.0 * kMiB);
}

TEST(HccsLink, TwoLinksPerPairDoubleTheBandwidth) {
  ChipConfig c = system_config(2, "full_mesh");
  c.topology.links_per_pair = 2;
  SystemBench bench(c);
  Seen& copy = bench.peer_copy(0, 1, 1, false, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(copy.out.end, kBefore + 1 * kUs + 16 * (kHccsBurst / 2) + kAfter);
}

TEST(HccsLink, WithoutALinkTheCopyGoesThroughTheHost) {
  SystemBench bench(system_config(3, "0-2"));             // 0 and 1 are not linked
  Seen& copy = bench.peer_copy(1, 1, 0, true, 1 * kMiB);  // chip 1 pulls from chip 0
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // Latency 2 x pcie.latency (1 us); each 64 KiB burst holds chip 0's D2H link and chip 1's H2D
  // link (32 GB/s: 2.048 us) and the root complex both ways (64 GB/s: 1.024 us).
  EXPECT_EQ(copy.out.end, kBefore + 2 * kUs + 16 * kHccsBurst + kAfter);
  EXPECT_EQ(bench.stat("chip0.pcie.d2h.link.bytes"), 1.0 * kMiB);
  EXPECT_EQ(bench.stat("chip1.pcie.h2d.link.bytes"), 1.0 * kMiB);
  EXPECT_EQ(bench.stat("system.root_complex.h2d.bytes"), 1.0 * kMiB);
  EXPECT_EQ(bench.stat("system.root_complex.d2h.bytes"), 1.0 * kMiB);
  EXPECT_EQ(bench.stat("chip1.hccs.host_bytes"), 1.0 * kMiB);
  EXPECT_EQ(bench.stat("system.hccs.0_to_2.bytes"), 0.0);
}

TEST(HccsLink, PcieLinksAlsoGoThroughTheHost) {
  ChipConfig c = system_config(2, "full_mesh");
  c.topology.link = "pcie";
  SystemBench bench(c);
  Seen& copy = bench.peer_copy(0, 1, 1, false, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(copy.out.end, kBefore + 2 * kUs + 16 * kHccsBurst + kAfter);
  EXPECT_EQ(bench.stat("chip0.hccs.host_bytes"), 1.0 * kMiB);
  EXPECT_EQ(bench.stat("chip0.hccs.hccs_bytes"), 0.0);
}

TEST(HccsLink, PeerCopyThroughTheHostContendsWithHostCopies) {
  SystemBench bench(system_config(2, "none"));
  // Chip 0 sends 1 MiB to the host and 1 MiB to chip 1: both need chip 0's D2H link.
  Seen& d2h = bench.host_copy(0, Direction::kD2H, 1 * kMiB);
  Seen& peer = bench.peer_copy(0, 2, 1, false, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // Alone: D2H 0.7 + 1 + 4 x 8.192 + 0.3 = 34.768 us; peer 0.7 + 2 + 16 x 2.048 + 0.3 = 35.768.
  // Sharing the D2H link, busy without a gap from 1.7 us: the later one ends when 2 MiB crossed
  // it (65.536 us of bursts), both later than alone.
  EXPECT_EQ(std::max(d2h.out.end, peer.out.end), kBefore + 1 * kUs + 8 * kPcieBurst + kAfter);
  EXPECT_GT(d2h.out.end, kBefore + 1 * kUs + 4 * kPcieBurst + kAfter);
  EXPECT_GT(peer.out.end, kBefore + 2 * kUs + 16 * kHccsBurst + kAfter);
  EXPECT_EQ(bench.stat("chip0.pcie.d2h.link.bytes"), 2.0 * kMiB);
}

TEST(HccsLink, PeerReduceReadsBothEnds) {
  SystemBench bench(system_config(2, "full_mesh"));
  Seen& reduce = bench.peer_copy(1, 1, 0, false, 1 * kMiB, TaskKind::kReduce);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(reduce.out.end, kBefore + 1 * kUs + 16 * kHccsBurst + kAfter);
  EXPECT_EQ(bench.stat("system.hccs.1_to_0.bytes"), 1.0 * kMiB);
  EXPECT_EQ(bench.stat("chip1.hbm.read_bytes"), 1.0 * kMiB);   // src
  EXPECT_EQ(bench.stat("chip0.hbm.read_bytes"), 1.0 * kMiB);   // dst read...
  EXPECT_EQ(bench.stat("chip0.hbm.write_bytes"), 1.0 * kMiB);  // ...and written
}

TEST(HccsLink, TimelineShowsUsedLinkDirectionsWithTheirBandwidth) {
  SystemBench bench(system_config(3, "full_mesh"), /*trace=*/true);
  bench.peer_copy(0, 1, 1, false, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const std::string json = bench.timeline_json();
  EXPECT_NE(json.find("\"HCCS\""), std::string::npos);          // the process
  EXPECT_NE(json.find("\"HCCS 0->1\""), std::string::npos);     // the used direction's track
  EXPECT_EQ(json.find("\"HCCS 1->0\""), std::string::npos);     // unused: not shown
  EXPECT_NE(json.find("bandwidth(GB/s)"), std::string::npos);   // the span's argument
  EXPECT_NE(json.find("HCCS 0->1 (GB/s)"), std::string::npos);  // the counter
}

TEST(RootComplex, HostCopiesOfTwoChipsShareIt) {
  ChipConfig c = system_config(2, "none");
  c.pcie.root_complex_bandwidth = sim::Bandwidth{32e9};  // one link's worth
  SystemBench bench(c);
  Seen& a = bench.host_copy(0, Direction::kH2D, 1 * kMiB);
  Seen& b = bench.host_copy(1, Direction::kH2D, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // Each chip's link alone: 4 bursts of 8.192 us. The root complex serves the 8 bursts one after
  // the other from 1.7 us: one chip ends with burst 7 of the pair, the other with burst 8.
  const SimTime first = kBefore + 1 * kUs + 7 * kPcieBurst + kAfter;
  EXPECT_EQ(std::min(a.out.end, b.out.end), first);
  EXPECT_EQ(std::max(a.out.end, b.out.end), first + kPcieBurst);
  EXPECT_EQ(bench.stat("system.root_complex.h2d.bytes"), 2.0 * kMiB);
}

TEST(RootComplex, DirectionsAreIndependentAndAWideRootIsNoLimit) {
  ChipConfig c = system_config(2, "none");
  c.pcie.root_complex_bandwidth = sim::Bandwidth{32e9};
  SystemBench bench(c);
  Seen& up = bench.host_copy(0, Direction::kH2D, 1 * kMiB);
  Seen& down = bench.host_copy(1, Direction::kD2H, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const SimTime alone = kBefore + 1 * kUs + 4 * kPcieBurst + kAfter;
  EXPECT_EQ(up.out.end, alone);
  EXPECT_EQ(down.out.end, alone);
}

}  // namespace
}  // namespace npusim::models::testing
