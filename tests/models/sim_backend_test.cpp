// SPDX-License-Identifier: Apache-2.0
// The SystemC backend through the runtime's seam (runtime/core/backend.h): task mapping, run_until,
// discard_stream, multi-device waits, outputs, and a rough speed figure.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

#include <gtest/gtest.h>

#include "runtime/core/backend.h"
#include "sim/config.h"
#include "sim/version.h"
#include "tests/models/bench.h"
#include "tests/test_util.h"

namespace npusim::models::testing {
namespace {

namespace fs = std::filesystem;
using rt::Backend;
using rt::Task;
using rt::TaskOutcome;
using rt::TaskKind;
using rt::WaitResult;

constexpr SimTime kBurst = 8192 * kNs;

using test_util::read_text;

/// Points NPUSIM_CONFIG at a YAML dump of `cfg` and sets (or clears) NPUSIM_OUT.
std::unique_ptr<Backend> make_backend(ChipConfig cfg, const std::string& out_dir = "") {
  const fs::path dir =
      fs::temp_directory_path() / ("npusim_model_tests_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path yaml = dir / "chip.yaml";
  std::ofstream(yaml) << sim::dump_yaml(cfg);
  setenv("NPUSIM_CONFIG", yaml.c_str(), 1);
  unsetenv("NPUSIM_SET");
  if (out_dir.empty()) {
    unsetenv("NPUSIM_OUT");
  } else {
    setenv("NPUSIM_OUT", out_dir.c_str(), 1);
  }
  struct Cleanup {
    fs::path dir;
    ~Cleanup() { fs::remove_all(dir); }
  } cleanup{dir};
  return rt::make_sim_backend();
}

struct Result {
  TaskOutcome record;
  bool finished = false;
};

Task copy_task(std::uint32_t stream, rt::Direction path, std::uint64_t bytes, Result& result,
               SimTime at = 0) {
  Task t = testing::copy_task(stream, path, bytes, at);
  t.name = "MEMCPY_ASYNC";
  t.done = [&result](const TaskOutcome& r) {
    result.record = r;
    result.finished = true;
  };
  return t;
}

TEST(SimBackend, CopyThroughTheSeamTakesModelTime) {
  auto backend = make_backend(test_config());
  EXPECT_EQ(backend->config().pcie.dma_channels, 2);
  Result r;
  int effects = 0;
  Task t = copy_task(1, rt::Direction::kH2D, 64 * kMiB, r);
  t.effect = [&] { return ++effects, 0; };
  backend->submit(std::move(t));
  EXPECT_EQ(backend->run_until([&] { return r.finished; }, sim::kForever), WaitResult::kDone);
  EXPECT_EQ(effects, 1);
  EXPECT_EQ(r.record.start, 700 * kNs);
  EXPECT_EQ(r.record.end, 700 * kNs + 1 * kUs + 256 * kBurst + 300 * kNs);
  EXPECT_EQ(backend->now(), r.record.end);
}

TEST(SimBackend, StarvedAndTimeout) {
  auto backend = make_backend(test_config());
  Task wait;
  wait.kind = TaskKind::kEventWait;
  wait.stream = 1;
  wait.ready = [] { return false; };
  backend->submit(std::move(wait));
  EXPECT_EQ(backend->run_until([] { return false; }, sim::kForever), WaitResult::kStarved);
  Result r;
  backend->submit(copy_task(2, rt::Direction::kD2H, 64 * kMiB, r));
  EXPECT_EQ(backend->run_until([&] { return r.finished; }, 1 * kMs), WaitResult::kTimeout);
  EXPECT_EQ(backend->now(), 1 * kMs);
  EXPECT_EQ(backend->run_until([&] { return r.finished; }, sim::kForever), WaitResult::kDone);
}

TEST(SimBackend, DiscardStreamAdvancesThenDropsWhatHasNotStarted) {
  auto backend = make_backend(test_config());
  Result running, queued;
  backend->submit(copy_task(1, rt::Direction::kH2D, 64 * kMiB, running));
  backend->submit(copy_task(1, rt::Direction::kH2D, 1 * kMiB, queued));
  backend->discard_stream(0, 1, 1 * kMs);
  EXPECT_EQ(backend->now(), 1 * kMs);
  EXPECT_TRUE(queued.finished);
  EXPECT_TRUE(queued.record.discarded);
  EXPECT_EQ(queued.record.end, 1 * kMs);
  EXPECT_FALSE(running.finished);
  EXPECT_EQ(backend->run_until([&] { return running.finished; }, sim::kForever), WaitResult::kDone);
  EXPECT_FALSE(running.record.discarded);
}

TEST(SimBackend, WaitOnOneDeviceReleasedByRecordOnAnother) {
  ChipConfig cfg = test_config();
  cfg.soc.num_devices = 2;
  auto backend = make_backend(cfg);
  bool recorded = false;
  Result waited;
  Task wait;
  wait.kind = TaskKind::kEventWait;
  wait.device = 1;
  wait.stream = 5;
  wait.ready = [&] { return recorded; };
  wait.done = [&](const TaskOutcome& r) { waited.record = r, waited.finished = true; };
  backend->submit(std::move(wait));
  Task record;
  record.kind = TaskKind::kEventRecord;
  record.device = 0;
  record.stream = 5;
  record.submit_at = 10 * kUs;
  record.effect = [&] { return recorded = true, 0; };
  backend->submit(std::move(record));
  EXPECT_EQ(backend->run_until([&] { return waited.finished; }, sim::kForever), WaitResult::kDone);
  // record ends 10 + 0.7 + 0.1 + 0.3 = 11.1 us; the wait then takes 0.2 + 0.1 + 0.3 us.
  EXPECT_EQ(waited.record.end, 11700 * kNs);
}

TEST(SimBackend, WaitReleasedByHostSideStateAtTheNextRun) {
  auto backend = make_backend(test_config());
  bool flag = false;
  Result waited;
  Task wait;
  wait.kind = TaskKind::kValueWait;
  wait.stream = 1;
  wait.ready = [&] { return flag; };
  wait.done = [&](const TaskOutcome& r) { waited.record = r, waited.finished = true; };
  backend->submit(std::move(wait));
  EXPECT_EQ(backend->run_until([&] { return waited.finished; }, sim::kForever),
            WaitResult::kStarved);
  EXPECT_EQ(backend->now(), 500 * kNs);  // blocked since its doorbell
  flag = true;  // e.g. the host wrote the value
  EXPECT_EQ(backend->run_until([&] { return waited.finished; }, sim::kForever), WaitResult::kDone);
  EXPECT_EQ(waited.record.end, 500 * kNs + 600 * kNs);
}

TEST(SimBackend, WritesTimelineStatsAndConfig) {
  const fs::path out = fs::temp_directory_path() /
                       ("npusim_model_tests_out_" + std::to_string(getpid())) / "nested";
  fs::remove_all(out.parent_path());
  auto backend = make_backend(test_config(), out.string());
  Result r;
  Task t = copy_task(1, rt::Direction::kH2D, 1 * kMiB, r, 2 * kUs);
  t.flow_id = 42;
  backend->submit(std::move(t));
  backend->trace_api(0, "aclrtMemcpyAsync", 0, 2 * kUs, 42);
  ASSERT_EQ(backend->run_until([&] { return r.finished; }, sim::kForever), WaitResult::kDone);
  backend->write_outputs();
  const std::string timeline = read_text(out / "timeline.json");
  EXPECT_NE(timeline.find("PCIE_DMA_SQE"), std::string::npos);
  EXPECT_NE(timeline.find("Stream 1"), std::string::npos);
  EXPECT_NE(timeline.find("AscendCL@aclrtMemcpyAsync"), std::string::npos);
  EXPECT_NE(timeline.find("HostToDevice"), std::string::npos);
  EXPECT_NE(timeline.find("PCIe H2D ch 0"), std::string::npos);
  EXPECT_NE(timeline.find("host to device"), std::string::npos);
  const std::string stats = read_text(out / "stats.json");
  EXPECT_NE(stats.find("\"chip0\""), std::string::npos);
  EXPECT_NE(stats.find("\"bandwidth\""), std::string::npos);
  // One time unit, stated; no zero statistic (folded away); the same statistics in stats.txt,
  // grouped by unit.
  // The first entry names the simulator (`npusim --version`); the statistics follow.
  const std::string head = "{\n  \"npusim_version\": {\n    \"value\": \"" + sim::version_string();
  EXPECT_EQ(stats.rfind(head + "\",\n", 0), 0u) << stats.substr(0, 80);
  const std::string unit_line = "\n  },\n  \"time_unit\": \"us\",\n  \"zeros\": \"folded\",";
  EXPECT_NE(stats.find(unit_line), std::string::npos) << stats.substr(0, 300);
  EXPECT_EQ(stats.find("\"ps\""), std::string::npos);
  EXPECT_EQ(stats.find("\"value\": 0,"), std::string::npos) << stats;
  const std::string text = read_text(out / "stats.txt");
  EXPECT_NE(text.find("\n# unit: us\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nsim_time "), std::string::npos) << text;
  const std::string config = read_text(out / "config.yaml");
  EXPECT_EQ(config.rfind("# npusim", 0), 0u);
  EXPECT_NE(config.find("dma_channels: 2"), std::string::npos);
  fs::remove_all(out.parent_path());
}

// NPUSIM_STATS=full writes every statistic (zeros too); another value is refused by name.
TEST(SimBackend, StatsFullWritesZeros) {
  const fs::path out = fs::temp_directory_path() /
                       ("npusim_model_tests_full_" + std::to_string(getpid()));
  fs::remove_all(out);
  setenv("NPUSIM_STATS", "full", 1);
  auto backend = make_backend(test_config(), out.string());
  unsetenv("NPUSIM_STATS");
  backend->write_outputs();
  const std::string stats = read_text(out / "stats.json");
  EXPECT_NE(stats.find("\"zeros\": \"written\""), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"value\": 0,"), std::string::npos);
  EXPECT_NE(read_text(out / "stats.txt").find("zeros written\n"), std::string::npos);
  fs::remove_all(out);
}

TEST(SimBackend, BadStatsSettingIsAClearError) {
  setenv("NPUSIM_STATS", "some", 1);
  try {
    make_backend(test_config());
    ADD_FAILURE() << "NPUSIM_STATS=some was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "NPUSIM_STATS: 'some' is not one of: changed, full");
  }
  unsetenv("NPUSIM_STATS");
}

// A profiling session in a run without an output directory records the timeline and the
// op_summary records from its start: write_profile writes them (runtime/prof/profiler.h).
TEST(SimBackend, ProfilingSessionRecordsWithoutOutputDirectory) {
  auto backend = make_backend(test_config());
  Result before, during;
  backend->submit(copy_task(1, rt::Direction::kH2D, 64 * kKiB, before));
  ASSERT_EQ(backend->run_until([&] { return before.finished; }, sim::kForever), WaitResult::kDone);
  const fs::path dir = fs::temp_directory_path() /
                       ("npusim_model_tests_prof_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  EXPECT_FALSE(backend->write_profile(dir.string(), "000001", 0));  // nothing recorded yet
  const SimTime from = backend->now();
  backend->start_profiling();
  Task t = copy_task(2, rt::Direction::kD2H, 64 * kKiB, during, from);
  t.name = "MEMCPY_D2H";
  backend->submit(std::move(t));
  ASSERT_EQ(backend->run_until([&] { return during.finished; }, sim::kForever), WaitResult::kDone);
  ASSERT_TRUE(backend->write_profile(dir.string(), "000001", from));
  backend->stop_profiling();
  const std::string timeline = read_text(dir / "msprof_000001.json");
  EXPECT_NE(timeline.find("MEMCPY_D2H"), std::string::npos);
  EXPECT_EQ(timeline.find("MEMCPY_ASYNC"), std::string::npos);  // before the session
  EXPECT_EQ(read_text(dir / "op_summary_000001.csv").rfind("Device_id,Model ID,", 0), 0u);
  EXPECT_EQ(read_text(dir / "op_statistic_000001.csv"),
            "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),"
            "Max Time(us),Ratio(%)\n");
  EXPECT_FALSE(backend->write_profile(dir.string(), "000002", from));  // stopped again
  fs::remove_all(dir);
}

TEST(SimBackend, SecondBackendInOneProcessIsRefused) {
  auto backend = make_backend(test_config());
  backend.reset();
  EXPECT_THROW(make_backend(test_config()), std::logic_error);
}

// Not a benchmark (that comes later): a rough figure of tiny async copies per wall-second through
// the backend, printed for the record.
TEST(SimBackend, TinyCopyThroughput) {
  auto backend = make_backend(ChipConfig{});
  constexpr int kTasks = 100000;
  int finished = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kTasks; ++i) {
    Task t;
    t.kind = TaskKind::kCopy;
    t.direction = i % 2 ? rt::Direction::kH2D : rt::Direction::kD2H;
    t.stream = static_cast<std::uint32_t>(i % 4);
    t.task_id = static_cast<std::uint32_t>(i);
    t.bytes = 64;
    t.name = "MEMCPY_ASYNC";
    t.done = [&finished](const TaskOutcome&) { ++finished; };
    backend->submit(std::move(t));
  }
  ASSERT_EQ(backend->run_until([&] { return finished == kTasks; }, sim::kForever),
            WaitResult::kDone);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ figure   ] %d tiny copies in %.3f s wall = %.0f tasks/s (simulated %.1f us)\n",
              kTasks, secs, kTasks / secs, static_cast<double>(backend->now()) / kUs);
  EXPECT_EQ(finished, kTasks);
}

}  // namespace
}  // namespace npusim::models::testing
