// SPDX-License-Identifier: Apache-2.0
// The system level: soc.num_devices chips built by models::System, the topology's links, and
// device lookup. (Each TEST that builds a System elaborates SystemC: one per process.)
#include <stdexcept>

#include <gtest/gtest.h>

#include "models/chip_config_loader.h"
#include "models/system.h"
#include "sim/engine.h"
#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

ChipConfig devices(int n, const std::string& links) {
  ChipConfig c = test_config();
  c.soc.num_devices = n;
  c.topology.links = links;
  return c;
}

TEST(Topology, FullMeshLinksEveryPairOnce) {
  Topology t(devices(4, "full_mesh"));
  EXPECT_EQ(t.devices(), 4u);
  EXPECT_EQ(t.links().size(), 6u);
  for (std::uint32_t a = 0; a < 4; ++a) {
    for (std::uint32_t b = 0; b < 4; ++b) {
      EXPECT_EQ(t.link(a, b) != nullptr, a != b) << a << "-" << b;
    }
  }
  EXPECT_EQ(t.link(1, 3), t.link(3, 1));
  EXPECT_EQ(t.link(0, 1)->kind, LinkKind::kHccs);
  EXPECT_EQ(t.link(0, 4), nullptr);
}

TEST(Topology, ExplicitPairsNoneAndKind) {
  ChipConfig c = devices(4, "2-3, 0-1");
  c.topology.link = "pcie";
  c.topology.links_per_pair = 2;
  Topology t(c);
  ASSERT_EQ(t.links().size(), 2u);
  EXPECT_NE(t.link(3, 2), nullptr);
  EXPECT_EQ(t.link(0, 2), nullptr);
  EXPECT_EQ(t.link(0, 1)->kind, LinkKind::kPcie);
  EXPECT_EQ(t.link(0, 1)->count, 2u);
  EXPECT_TRUE(Topology(devices(4, "none")).links().empty());
}

TEST(Topology, PresetsDescribeTheirLinks) {
  EXPECT_EQ(load_chip_config("ascend910b", {}).topology.links, "full_mesh");
  ChipConfig p = load_chip_config("ascend310p", {"soc.num_devices=2"});
  EXPECT_EQ(Topology(p).link(0, 1), nullptr);  // 310P cards: PCIe only
}

TEST(System, BuildsEveryDeviceAndRunsTasksOnEach) {
  sim::Engine engine;
  sim::StatGroup stats("test");
  sim::TraceWriter trace;
  System system(devices(3, "full_mesh"), stats, trace);
  system.set_completion_hook([&] { engine.wake(); });
  engine.elaborate();
  ASSERT_EQ(system.device_count(), 3u);
  EXPECT_EQ(system.device(2).device(), 2u);
  EXPECT_THROW(system.device(3), std::out_of_range);
  EXPECT_NE(system.topology().link(0, 2), nullptr);
  int done = 0;
  for (std::uint32_t d = 0; d < 3; ++d) {
    Task t;
    t.kind = TaskKind::kCopy;
    t.direction = Direction::kH2D;
    t.device = d;
    t.stream = 1;
    t.bytes = 1 * kMiB;
    t.done = [&done](const TaskOutcome&) { ++done; };
    system.device(d).scheduler().submit(std::move(t));
  }
  ASSERT_EQ(engine.run_until([&] { return done == 3; }), sim::WaitResult::kDone);
  // Each chip has its own PCIe link: three 1 MiB copies at once take as long as one.
  EXPECT_EQ(stats.value("chip0.pcie.h2d.link.bytes"), 1.0 * kMiB);
  EXPECT_EQ(stats.value("chip2.pcie.h2d.link.bytes"), 1.0 * kMiB);
  EXPECT_EQ(engine.now(), 700 * kNs + 1 * kUs + 4 * 8192 * kNs + 300 * kNs);
}

}  // namespace
}  // namespace npusim::models::testing
