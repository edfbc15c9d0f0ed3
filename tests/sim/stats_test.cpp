// SPDX-License-Identifier: Apache-2.0
#include "sim/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace npusim::sim {
namespace {

TEST(Stats, JsonTreeInRegistrationOrder) {
  std::uint64_t bytes = 0, tasks = 0;
  double busy_us = 0;
  StatGroup root("chip0");
  StatGroup& h2d = root.child("pcie").child("h2d");
  h2d.add("bytes", bytes, "B", "bytes moved host to device");
  h2d.add("busy", busy_us, "us", "time the link was busy");
  h2d.formula("bandwidth", [&] { return busy_us > 0 ? bytes / busy_us / 1e3 : 0.0; }, "GB/s",
              "achieved bandwidth");
  root.add("tasks", tasks, "", "tasks completed");
  bytes = 1u << 20;
  busy_us = 100;
  tasks = (1ull << 60) + 1;  // integers stay exact

  auto j = nlohmann::ordered_json::parse(root.to_json());
  EXPECT_EQ(j["pcie"]["h2d"]["bytes"]["value"].get<std::uint64_t>(), 1u << 20);
  EXPECT_EQ(j["pcie"]["h2d"]["bytes"]["unit"], "B");
  EXPECT_EQ(j["pcie"]["h2d"]["bytes"]["desc"], "bytes moved host to device");
  EXPECT_DOUBLE_EQ(j["pcie"]["h2d"]["bandwidth"]["value"].get<double>(), 10.48576);
  EXPECT_EQ(j["tasks"]["value"].get<std::uint64_t>(), (1ull << 60) + 1);
  std::vector<std::string> order;
  for (auto& [k, v] : j["pcie"]["h2d"].items()) order.push_back(k);
  EXPECT_EQ(order, (std::vector<std::string>{"bytes", "busy", "bandwidth"}));
  EXPECT_EQ(j.begin().key(), "pcie");
}

TEST(Stats, ValueLookupByDottedPath) {
  std::uint64_t n = 7;
  double d = 2.5;
  StatGroup root("chip0");
  root.child("pcie").child("h2d").add("bytes", n, "B", "");
  root.child("pcie").add("util", d, "", "");
  EXPECT_EQ(&root.child("pcie"), &root.child("pcie"));  // child() returns the existing group
  EXPECT_EQ(root.value("pcie.h2d.bytes"), 7);
  EXPECT_EQ(root.value("pcie.util"), 2.5);
  EXPECT_EQ(root.child("pcie").value("h2d.bytes"), 7);
  EXPECT_TRUE(std::isnan(root.value("pcie.h2d.nothing")));
  EXPECT_TRUE(std::isnan(root.value("pcie")));
  n = 9;
  EXPECT_EQ(root.value("pcie.h2d.bytes"), 9);
}

TEST(Stats, NonFiniteFormulaIsNullAndReRegistrationReplaces) {
  StatGroup g("g");
  g.formula("ratio", [] { return std::numeric_limits<double>::quiet_NaN(); }, "", "");
  g.formula("x", [] { return 1.0; }, "", "first");
  g.formula("x", [] { return 2.0; }, "", "second");
  auto j = nlohmann::json::parse(g.to_json(0));
  EXPECT_TRUE(j["ratio"]["value"].is_null());
  EXPECT_EQ(j["x"]["value"], 2.0);
  EXPECT_EQ(j["x"]["desc"], "second");
  EXPECT_EQ(j.size(), 2u);
  EXPECT_EQ(StatGroup("empty").to_json(), "{}");
}

// The run's files: zeros (and none) folded away with the groups they empty, "bool" kept, times in
// µs with the unit stated; --stats full writes everything.
struct RunStats {
  std::uint64_t sim_time = 5424262656, functional = 0, bytes = 4096, idle_bytes = 0;
  std::uint64_t busy = 1500000, idle_busy = 0;
  StatGroup root{"npusim"};
  RunStats() {
    root.child("chip0").child("sdma").add("bytes", bytes, "B", "bytes moved");
    root.child("chip0").child("sdma").add("busy_time", busy, "ps", "time busy");
    root.child("chip0").child("sdma").formula("p50", [] { return NAN; }, "ps", "no samples");
    root.child("chip1").child("sdma").add("bytes", idle_bytes, "B", "bytes moved");
    root.child("chip1").child("sdma").add("busy_time", idle_busy, "ps", "time busy");
    root.add("sim_time", sim_time, "ps", "simulated time");
    root.add("functional", functional, "bool", "kernels computed");
  }
};

TEST(Stats, RunFileFoldsZerosAndWritesMicroseconds) {
  RunStats r;
  const auto j = nlohmann::ordered_json::parse(stats_json(r.root, StatsOutput{}));
  EXPECT_EQ(j.dump(),
            R"({"time_unit":"us","zeros":"folded","chip0":{"sdma":{"bytes":{"value":4096,)"
            R"("unit":"B","desc":"bytes moved"},"busy_time":{"value":1.5,"unit":"us",)"
            R"("desc":"time busy"}}},"sim_time":{"value":5424.262656,"unit":"us",)"
            R"("desc":"simulated time"},"functional":{"value":0,"unit":"bool",)"
            R"("desc":"kernels computed"}})");
}

TEST(Stats, FullRunFileWritesEveryStatistic) {
  RunStats r;
  const auto j = nlohmann::json::parse(stats_json(r.root, StatsOutput{true}));
  EXPECT_EQ(j["zeros"], "written");
  EXPECT_EQ(j["chip1"]["sdma"]["bytes"]["value"], 0);
  EXPECT_EQ(j["chip1"]["sdma"]["busy_time"]["unit"], "us");
  EXPECT_TRUE(j["chip0"]["sdma"]["p50"]["value"].is_null());
  EXPECT_EQ(j["chip0"]["sdma"]["p50"]["unit"], "us");
}

TEST(Stats, TextSummaryGroupsByUnit) {
  RunStats r;
  EXPECT_EQ(stats_text(r.root, StatsOutput{}),
            "---------- Begin Simulation Statistics ----------\n"
            "time_unit us\n"
            "zeros folded\n"
            "\n# unit: B\n"
            "chip0.sdma.bytes      4096 B # bytes moved\n"
            "\n# unit: us\n"
            "chip0.sdma.busy_time  1.5 us # time busy\n"
            "sim_time              5424.262656 us # simulated time\n"
            "\n# unit: bool\n"
            "functional            0 bool # kernels computed\n"
            "\n---------- End Simulation Statistics   ----------\n");
  const std::string full = stats_text(r.root, StatsOutput{true});
  EXPECT_NE(full.find("chip1.sdma.bytes      0 B # bytes moved\n"), std::string::npos) << full;
  EXPECT_NE(full.find("chip0.sdma.p50        nan us # no samples\n"), std::string::npos) << full;
}

TEST(Stats, DistributionIsExactThenBoundedWithin1Part64) {
  Distribution d;
  EXPECT_TRUE(std::isnan(d.percentile(50)));
  for (std::uint64_t v : {30u, 10u, 20u, 40u}) d.add(v);
  EXPECT_EQ(d.percentile(50), 20.0);  // nearest rank: 2 of 4
  EXPECT_EQ(d.percentile(99), 40.0);
  EXPECT_EQ(d.percentile(100), 40.0);
  Distribution big;
  for (std::uint64_t v = 1; v <= 100000; ++v) big.add(v * 1000);  // past kExact: a histogram
  EXPECT_EQ(big.count(), 100000u);
  EXPECT_LE(big.percentile(50), 50000000.0);
  EXPECT_GT(big.percentile(50), 50000000.0 * (1 - 1.0 / 64));
  EXPECT_LE(big.percentile(99), 99000000.0);
  EXPECT_GT(big.percentile(99), 99000000.0 * (1 - 1.0 / 64));
  EXPECT_EQ(big.percentile(100), 100000000.0);  // the largest stays exact
  d.merge(big);
  EXPECT_EQ(d.count(), 100004u);
  EXPECT_EQ(d.percentile(100), 100000000.0);
}

}  // namespace
}  // namespace npusim::sim
