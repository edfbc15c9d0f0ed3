// SPDX-License-Identifier: Apache-2.0
#include "sim/trace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include <unistd.h>

namespace npusim::sim {
namespace {

nlohmann::json write_and_parse(const TraceWriter& w) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("npusim_trace_" + std::to_string(::getpid()) + ".json"))
                         .string();
  w.write(path);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  return nlohmann::json::parse(text.str());  // throws (fails the test) if not valid JSON
}

/// The events with a given ph (and name, if given).
std::vector<nlohmann::json> events(const nlohmann::json& all, const std::string& ph,
                                   const std::string& name = "") {
  std::vector<nlohmann::json> out;
  for (const auto& e : all) {
    if (e["ph"] == ph && (name.empty() || e["name"] == name)) out.push_back(e);
  }
  return out;
}

TEST(Trace, OneProcessPerNameAndLabel) {
  TraceWriter w(true);
  int dev0 = w.process("Ascend Hardware", "NPU 0", 14);
  int dev1 = w.process("Ascend Hardware", "NPU 1", 14);
  EXPECT_NE(dev0, dev1);
  EXPECT_EQ(w.process("Ascend Hardware", "NPU 1", 14), dev1);
}

TEST(Trace, MetadataCompleteFlowAndCounterEvents) {
  TraceWriter w(true);
  int host = w.process("CANN", "CPU", 7);
  int dev = w.process("Ascend Hardware", "NPU 0", 14);
  EXPECT_EQ(w.process("CANN", "CPU", 1), host);
  EXPECT_NE(host, dev);
  w.thread(host, 1234, "Thread 1234", 1234);
  w.thread(dev, 3, "Stream 3", 3);
  w.thread(dev, 3, "Stream 3 again", 99);  // idempotent: the first declaration stays

  w.complete(host, 1234, "AscendCL@aclrtMemcpyAsync", 1 * kUs, 3 * kUs + 500,
             {TraceArg::str("level", "acl"), TraceArg::num("connection_id", 42)});
  w.flow_begin(host, 1234, 42, 2 * kUs);
  w.complete(dev, 3, "MEMCPY_ASYNC", 5 * kUs, 1005 * kUs + 1,
             {TraceArg::str("Task Type", "PCIE_DMA_SQE"), TraceArg::num("size(B)", 1024),
              TraceArg::str("quote", "a \"b\"\n")});
  w.flow_end(dev, 3, 42, 5 * kUs);
  w.counter(dev, "PCIe H2D (GB/s)", 5 * kUs, 25.6);
  w.instant(dev, 3, "WaitExecute", 7 * kUs);
  EXPECT_EQ(w.event_count(), 6u);

  nlohmann::json j = write_and_parse(w);
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j.size(), 6u + 3 * 2 + 2 * 2);

  auto names = events(j, "M", "process_name");
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0]["args"]["name"], "CANN");
  EXPECT_EQ(names[0]["pid"], host);
  EXPECT_EQ(names[0]["tid"], 0);
  auto labels = events(j, "M", "process_labels");
  EXPECT_EQ(labels[1]["args"]["labels"], "NPU 0");
  auto sorts = events(j, "M", "process_sort_index");
  EXPECT_EQ(sorts[1]["args"]["sort_index"], 14);
  auto threads = events(j, "M", "thread_name");
  ASSERT_EQ(threads.size(), 2u);
  EXPECT_EQ(threads[1]["args"]["name"], "Stream 3");
  EXPECT_EQ(threads[1]["tid"], 3);
  EXPECT_EQ(events(j, "M", "thread_sort_index")[1]["args"]["sort_index"], 3);

  auto spans = events(j, "X");
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0]["name"], "AscendCL@aclrtMemcpyAsync");
  EXPECT_EQ(spans[0]["ts"].get<double>(), 1.0);
  EXPECT_EQ(spans[0]["dur"].get<double>(), 2.0005);  // µs with ps precision
  EXPECT_EQ(spans[0]["args"]["level"], "acl");
  EXPECT_EQ(spans[0]["args"]["connection_id"], 42);
  EXPECT_EQ(spans[1]["pid"], dev);
  EXPECT_EQ(spans[1]["dur"].get<double>(), 1000.000001);
  EXPECT_EQ(spans[1]["args"]["Task Type"], "PCIE_DMA_SQE");
  EXPECT_EQ(spans[1]["args"]["quote"], "a \"b\"\n");

  auto s = events(j, "s");
  auto f = events(j, "f");
  ASSERT_EQ(s.size(), 1u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(s[0]["name"], "HostToDevice42");
  EXPECT_EQ(s[0]["cat"], "HostToDevice");
  EXPECT_EQ(s[0]["id"], "42");
  EXPECT_EQ(s[0]["tid"], 1234);
  EXPECT_EQ(s[0]["ts"].get<double>(), 2.0);
  EXPECT_EQ(f[0]["name"], "HostToDevice42");
  EXPECT_EQ(f[0]["bp"], "e");
  EXPECT_EQ(f[0]["id"], s[0]["id"]);
  EXPECT_EQ(f[0]["tid"], 3);

  auto c = events(j, "C");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0]["args"]["PCIe H2D (GB/s)"], 25.6);
  EXPECT_EQ(events(j, "i")[0]["s"], "t");
}

TEST(Trace, DisabledRecordsNothingButKeepsDeclarations) {
  TraceWriter w;
  EXPECT_FALSE(w.enabled());
  int pid = w.process("CANN", "CPU", 7);
  w.thread(pid, 1, "Thread 1", 1);
  w.complete(pid, 1, "x", 0, 10);
  w.flow_begin(pid, 1, 1, 0);
  w.counter(pid, "c", 0, 1);
  EXPECT_EQ(w.event_count(), 0u);
  nlohmann::json j = write_and_parse(w);
  EXPECT_EQ(j.size(), 5u);  // metadata only, still valid JSON
  w.set_enabled(true);
  w.complete(pid, 1, "x", 0, 10);
  EXPECT_EQ(w.event_count(), 1u);
  w.clear();
  EXPECT_EQ(w.event_count(), 0u);
  EXPECT_EQ(w.process("CANN", "CPU", 7), pid);
}

TEST(Trace, EmptyWriterWritesAnEmptyArray) {
  TraceWriter w(true);
  EXPECT_EQ(write_and_parse(w), nlohmann::json::array());
}

TEST(Trace, WriteFailureNamesThePath) {
  TraceWriter w(true);
  try {
    w.write("/nonexistent-dir/t.json");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/t.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace npusim::sim
